"""A settings form refused changes nothing: not the account, and not what the rest of the
request (the timezone cookie, the page's header) reads from the player. The form was bound
to the request's own user, onto which validation wrote the refused values: choosing
Asia/Tokyo with a refused display name set the cookie, and with it the next page, to Tokyo."""

import pytest
from django.urls import reverse

from games.services import bot_users

from .test_settings import profile_data

pytestmark = pytest.mark.django_db

ATHENS, TOKYO = "Europe/Athens", "Asia/Tokyo"


@pytest.fixture
def alice_in_athens(client, alice):
    alice.timezone = ATHENS
    alice.save()
    client.force_login(alice)
    client.get(reverse("dashboard"))  # the cookie names her zone
    return alice


def test_a_refused_form_leaves_the_timezone_and_its_cookie(client, alice_in_athens):
    bot_users()

    response = client.post(
        reverse("settings"), profile_data(display_name="Expert bot", timezone=TOKYO)
    )
    client.get(reverse("dashboard"))

    assert response.status_code == 200
    assert response.cookies.get("tz") is None or response.cookies["tz"].value == ATHENS
    assert client.cookies["tz"].value == ATHENS
    alice_in_athens.refresh_from_db()
    assert (alice_in_athens.timezone, alice_in_athens.display_name) == (ATHENS, "")


def test_a_refused_form_keeps_what_the_player_chose_on_the_page(client, alice_in_athens):
    bot_users()

    response = client.post(
        reverse("settings"), profile_data(display_name="Expert bot", timezone=TOKYO)
    )

    form = response.context["profile_form"]
    assert form["timezone"].value() == TOKYO
    assert form["display_name"].value() == "Expert bot"


def test_an_accepted_form_changes_the_cookie_at_once(client, alice_in_athens):
    response = client.post(reverse("settings"), profile_data(timezone=TOKYO))

    assert response.status_code == 302
    assert response.cookies["tz"].value == TOKYO
    alice_in_athens.refresh_from_db()
    assert alice_in_athens.timezone == TOKYO
