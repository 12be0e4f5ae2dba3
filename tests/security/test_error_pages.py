"""The pages a player meets when something is refused or breaks: the site's own, saying
what happened and how to go on."""

from __future__ import annotations

from urllib.parse import quote

import pytest
from django.test import Client, RequestFactory
from django.urls import reverse
from django.views.defaults import server_error

from games import services
from games import views as game_views

pytestmark = pytest.mark.django_db


def test_a_form_refused_by_the_csrf_check_explains_itself_in_the_sites_layout(alice, bob):
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(alice)
    challenge = services.create_challenge(bob, variant="american", points=1, days_per_move=2)

    # A form from a page opened before the last log-in: its token no longer matches.
    response = browser.post(
        reverse("challenge_accept", args=[challenge.pk]), {"csrfmiddlewaretoken": "stale"}
    )

    challenge.refresh_from_db()
    assert response.status_code == 403
    assert "This form has expired" in response.text and "Nothing was changed" in response.text
    assert "site-header" in response.text and "alice" in response.text  # knows who is in
    assert challenge.status == "open"


def test_a_form_sent_from_an_address_the_site_does_not_recognise_says_so(alice, bob, caplog):
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(alice)
    challenge = services.create_challenge(bob, variant="american", points=1, days_per_move=2)
    page = browser.get(reverse("challenge", args=[challenge.pk]))
    token = page.context["csrf_token"]

    # Behind a proxy that does not pass the scheme on: the browser's page is https, the
    # site believes itself http, so the form's Origin is not the site's own.
    response = browser.post(
        reverse("challenge_accept", args=[challenge.pk]),
        {"csrfmiddlewaretoken": str(token)},
        headers={"origin": "https://testserver"},
    )

    challenge.refresh_from_db()
    assert response.status_code == 403
    assert "does not recognise" in response.text and "tell the site's operators" in response.text
    assert "expired" not in response.text and "Nothing was changed" in response.text
    assert challenge.status == "open"
    (logged,) = [r for r in caplog.records if r.name == "django.security.csrf"]
    assert logged.levelname == "WARNING"
    assert "https://testserver does not match any trusted origins" in logged.getMessage()


def test_a_server_error_page_needs_neither_the_database_nor_the_user():
    # Django renders it with no request context: it must stand on its own.
    response = server_error(RequestFactory().get("/matches/1/"))

    text = response.content.decode()
    assert response.status_code == 500
    assert "Something went wrong on our side" in text and 'href="/"' in text
    assert "site.css" in text


def test_an_htmx_request_refused_by_the_csrf_check_reloads_the_page(alice, bob):
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(alice)
    match = services.start_match(
        white=alice, black=bob, variant="american", points=1, days_per_move=2
    )

    response = browser.post(
        reverse("match_click", args=[match.pk]),
        {"steps": ""},
        headers={"HX-Request": "true", "X-CSRFToken": "from-before-the-last-log-in"},
    )

    assert response.status_code == 403
    assert response["HX-Refresh"] == "true" and response.content == b""


def test_an_htmx_request_from_an_unrecognised_address_shows_why_instead_of_reloading(alice, bob):
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(alice)
    match = services.start_match(
        white=alice, black=bob, variant="american", points=1, days_per_move=2
    )
    token = browser.get(match.get_absolute_url()).context["csrf_token"]

    # The token is good; the Origin is not the site's (a proxy that drops the scheme):
    # a reload would fail the same way at every click.
    response = browser.post(
        reverse("match_click", args=[match.pk]),
        {"steps": ""},
        headers={
            "HX-Request": "true",
            "X-CSRFToken": str(token),
            "origin": "https://testserver",
        },
    )

    assert response.status_code == 403
    assert "HX-Refresh" not in response
    assert response["HX-Retarget"] == "body" and response["HX-Reswap"] == "innerHTML"
    assert "does not recognise" in response.text and "Nothing was changed" in response.text


def test_a_board_click_after_the_session_ended_loads_the_login_page_as_a_page(client, alice, bob):
    match = services.start_match(
        white=alice, black=bob, variant="american", points=1, days_per_move=2
    )
    page = f"http://testserver{match.get_absolute_url()}?replay=1"

    # Not logged in (the session ended, or a log-out in another tab).
    response = client.post(
        reverse("match_click", args=[match.pk]),
        {"steps": ""},
        headers={"HX-Request": "true", "HX-Current-URL": page},
    )
    plain = client.post(reverse("match_click", args=[match.pk]), {"steps": ""})

    assert response.status_code == 200 and response.content == b""
    assert response["HX-Redirect"] == (
        reverse("login") + "?next=" + quote(f"{match.get_absolute_url()}?replay=1", safe="")
    )
    assert plain.status_code == 302 and plain["Location"].startswith(reverse("login"))


def test_a_server_error_in_the_api_is_answered_in_json_and_elsewhere_with_the_page(
    alice, bob, monkeypatch
):
    match = services.start_match(
        white=alice, black=bob, variant="american", points=1, days_per_move=2
    )
    browser = Client(raise_request_exception=False)
    browser.force_login(alice)

    def broken(*args, **kwargs):
        raise RuntimeError("a fault injected into the match's state")

    monkeypatch.setattr(services, "load_game", broken)  # the API's state reads the game
    monkeypatch.setattr(game_views, "_match_context", broken)
    api = browser.get(reverse("api_match", args=[match.pk]))
    page = browser.get(match.get_absolute_url())

    assert api.status_code == 500 and api["Content-Type"] == "application/json"
    assert "the server failed to answer" in api.json()["error"]
    assert page.status_code == 500 and "Something went wrong on our side" in page.text
