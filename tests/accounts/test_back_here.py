"""The header's "Log in" and "Sign up" come back to the page they were followed from (a
match opened from an email, an invite link), but not to the home or login pages."""

from __future__ import annotations

from urllib.parse import quote

import pytest
from django.urls import reverse

from tests.matches import opened_by_white

pytestmark = pytest.mark.django_db

PASSWORD = "correct horse battery"


def test_from_a_match_the_header_leads_back_to_it(client, alice, bob):
    match = opened_by_white(alice, bob)
    url = match.get_absolute_url() + "?replay=1"

    text = client.get(url).text

    back = quote(url, safe="/")
    assert f'href="{reverse("login")}?next={back}"' in text
    assert f'href="{reverse("signup")}?next={back}"' in text

    response = client.post(
        f"{reverse('login')}?next={back}", {"username": "alice", "password": PASSWORD}
    )
    assert response.status_code == 302
    assert response.url == url


@pytest.mark.parametrize("name", ["home", "login", "signup", "password_reset"])
def test_from_the_home_and_account_pages_it_does_not(client, name):
    text = client.get(reverse(name)).text

    assert f'href="{reverse("login")}"' in text
    assert "?next=" not in text


def test_not_from_a_page_whose_address_holds_a_secret(client, alice):
    from games.notifications import unsubscribe_token

    text = client.get(reverse("unsubscribe", args=[unsubscribe_token(alice)])).text

    assert f'href="{reverse("login")}"' in text
    assert "?next=" not in text
