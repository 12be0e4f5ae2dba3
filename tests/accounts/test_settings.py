import re

import pytest
from django.urls import reverse

from accounts.forms import ProfileForm

pytestmark = pytest.mark.django_db


def profile_data(**changes) -> dict:
    data = {
        "display_name": "Alice A.",
        "about": "Plays slowly.",
        "country": "Greece",
        "timezone": "Europe/Athens",
        "email_preference": "digest",
    }
    return data | changes


def test_it_shows_the_settings_page_to_its_owner(client, alice):
    client.force_login(alice)

    response = client.get(reverse("settings"))

    assert response.status_code == 200
    assert 'name="display_name"' in response.text
    assert reverse("password_change") in response.text
    assert reverse("email_change") in response.text
    assert reverse("token_create") in response.text
    assert "no-store" in response["Cache-Control"]


@pytest.mark.parametrize(
    ("seconds", "said"),
    [(300, "A turn email waits 5 minutes, and is not sent if you have played by then."), (0, "")],
)
def test_it_says_how_long_a_turn_email_waits(client, alice, settings, seconds, said):
    from aceysite.celery import app as celery_app

    settings.TURN_EMAIL_DELAY_SECONDS = seconds
    celery_app.conf.task_always_eager = False  # a site with a worker (put back by conftest)
    client.force_login(alice)

    response = client.get(reverse("settings"))

    if said:
        assert said in response.text
    else:
        assert "A turn email waits" not in response.text


def test_each_email_choice_says_what_it_sends(client, alice):
    # games.notifications: a digest replaces turn emails only; "none" stops every game
    # email, challenges too; account emails come whatever the choice.
    client.force_login(alice)

    page = client.get(reverse("settings")).text

    assert "An email each time it is my turn, and all other game emails" in page
    assert (
        "Instead of turn emails, one email each morning (about 8:00 my time) listing the"
        " matches waiting for my move, if any; all other game emails still come one by one"
    ) in page
    assert "No game emails at all, not even challenges" in page
    assert (
        "Game emails besides turn emails: deadline reminders, challenges to you and the answers to"
        " yours, an opponent's time away, match results and tournament news. Emails about"
        " your account (password"
        " resets, changes of address, security notices) come whatever you choose."
    ) in page


def test_it_redirects_anonymous_visitors_to_log_in(client):
    for name in ("settings", "email_change", "token_create", "password_change"):
        response = client.post(reverse(name))

        assert response.status_code == 302
        assert response["Location"].startswith(reverse("login"))


def test_it_saves_the_profile(client, alice):
    client.force_login(alice)

    response = client.post(reverse("settings"), profile_data())

    assert response.status_code == 302
    alice.refresh_from_db()
    assert alice.display_name == "Alice A."
    assert alice.about == "Plays slowly."
    assert alice.country == "Greece"
    assert alice.timezone == "Europe/Athens"
    assert alice.email_preference == "digest"


def test_it_edits_only_the_logged_in_users_profile(client, alice, bob):
    client.force_login(bob)

    client.post(reverse("settings"), profile_data(display_name="Bob B."))

    alice.refresh_from_db()
    bob.refresh_from_db()
    assert alice.display_name == ""
    assert bob.display_name == "Bob B."


def test_it_rejects_an_unknown_timezone(client, alice):
    client.force_login(alice)

    response = client.post(reverse("settings"), profile_data(timezone="Mars/Olympus_Mons"))

    assert response.status_code == 200
    assert "Select a valid choice" in response.text
    alice.refresh_from_db()
    assert alice.timezone == "UTC"
    assert alice.display_name == ""


def test_it_rejects_an_unknown_email_preference(client, alice):
    client.force_login(alice)

    client.post(reverse("settings"), profile_data(email_preference="hourly"))

    alice.refresh_from_db()
    assert alice.email_preference == "every_turn"


def test_it_changes_the_password(client, alice):
    client.force_login(alice)

    response = client.post(
        reverse("password_change"),
        {
            "old_password": "correct horse battery",
            "new_password1": "another fine phrase",
            "new_password2": "another fine phrase",
        },
    )

    assert response.status_code == 302
    alice.refresh_from_db()
    assert alice.check_password("another fine phrase")


def test_an_empty_post_is_told_what_is_missing_and_saves_nothing(client, alice):
    client.force_login(alice)
    fields = [*ProfileForm.Meta.fields, "timezone"]
    before = [getattr(alice, name) for name in fields]

    response = client.post(reverse("settings"), {})

    assert response.status_code == 200
    assert "This field is required." in response.text
    alice.refresh_from_db()
    assert [getattr(alice, name) for name in fields] == before


def test_the_messages_checkbox_sits_in_its_label_described_by_its_help(client, alice):
    client.force_login(alice)

    html = client.get(reverse("settings")).text

    label = re.search(r'<label for="id_shows_messages">(.*?)</label>', html, re.DOTALL)
    assert label is not None
    assert 'name="shows_messages"' in label[1]
    assert label[1].strip().endswith("Messages from opponents")
    assert 'aria-describedby="id_shows_messages_helptext"' in label[1]
    assert 'id="id_shows_messages_helptext"' in html[label.end() :]
