"""GET /accounts/logout/ (a typed address, an old bookmark): a page with a Log out button
for someone logged in, the home page for anyone else; only a POST logs out."""

import re

import pytest
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db

URL = reverse("logout")


def test_it_asks_a_logged_in_player_with_a_button(alice):
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)

    page = client.get(URL)

    assert page.status_code == 200
    form = re.search(
        r'<main.*?<form method="post" action="([^"]+)"[^>]*>(.*?)</form>', page.text, re.S
    )
    assert form.group(1) == URL
    assert 'name="csrfmiddlewaretoken"' in form.group(2)
    assert ">Yes, log out</button>" in form.group(2)  # not the header's "Log out"
    assert client.get(reverse("settings")).status_code == 200  # a GET logs nobody out


def test_its_button_logs_out(alice):
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    page = client.get(URL)
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text).group(1)

    response = client.post(URL, {"csrfmiddlewaretoken": token})

    assert response.status_code == 302
    assert "_auth_user_id" not in client.session


def test_it_sends_someone_not_logged_in_home(client):
    response = client.get(URL)

    assert response.status_code == 302
    assert response["Location"] == reverse("home")
