"""Whatever arrives, the API answers a 4xx in JSON: methods, types, sizes, paths."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games import services
from games.models import Challenge, Match

from .conftest import post_json

pytestmark = pytest.mark.django_db


def test_it_answers_405_in_json_for_a_wrong_method(alice_api, match):
    turn = alice_api.get(reverse("api_match_turn", args=[match.pk]))
    state = alice_api.delete(reverse("api_match", args=[match.pk]))

    assert turn.status_code == state.status_code == 405
    assert turn["Allow"] == "POST" and state["Allow"] == "GET, HEAD"
    assert "POST" in turn.json()["error"]


def test_it_answers_head_as_get_without_the_body(alice_api, match):
    get = alice_api.get(reverse("api_match", args=[match.pk]))
    head = alice_api.head(reverse("api_match", args=[match.pk]))

    assert head.status_code == get.status_code == 200
    assert head["Content-Type"] == get["Content-Type"] == "application/json"
    assert head.content == b""


@pytest.mark.parametrize(
    "content_type",
    ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"],
)
def test_it_answers_415_for_a_body_that_is_not_json(alice_api, content_type):
    response = alice_api.post(
        reverse("api_challenge_create"), '{"variant": "greek"}', content_type=content_type
    )

    assert response.status_code == 415
    assert "application/json" in response.json()["error"]
    assert not Challenge.objects.exists()


def test_it_takes_json_with_a_charset(alice_api):
    response = alice_api.post(
        reverse("api_challenge_create"),
        '{"variant": "greek", "points": 1, "days_per_move": 2}',
        content_type="application/json; charset=utf-8",
    )

    assert response.status_code == 201


@pytest.mark.parametrize(
    "content_type",
    # None: no header; the others are what curl -d '' and many HTTP libraries send.
    [None, "application/x-www-form-urlencoded", "text/plain"],
)
def test_it_takes_an_empty_body_whatever_its_content_type(bob_api, match, content_type):
    headers = {"content_type": content_type} if content_type else {}
    response = bob_api.generic("POST", reverse("api_match_resign", args=[match.pk]), **headers)

    assert response.status_code == 200
    assert response.json()["winner"] == "alice"


def test_it_answers_413_for_a_body_over_64_kib(alice_api, match):
    body = '{"segment": 1, "play": "' + "x" * 64 * 1024 + '"}'

    response = alice_api.post(
        reverse("api_match_turn", args=[match.pk]), body, content_type="application/json"
    )

    assert response.status_code == 413
    assert "64 KiB" in response.json()["error"]


@pytest.mark.parametrize(
    "body",
    [b"{", b"{'segment': 1}", b"\xff\xfe\x00", b"[" * 50_000, b"NaN", b'{"segment": 1e999}'],
)
def test_it_answers_400_for_malformed_json(alice_api, match, body):
    response = alice_api.post(
        reverse("api_match_turn", args=[match.pk]), body, content_type="application/json"
    )

    assert response.status_code == 400
    assert isinstance(response.json()["error"], str)


def test_it_answers_400_for_a_bad_content_length(alice_api, match):
    response = alice_api.post(
        reverse("api_match_turn", args=[match.pk]),
        "{}",
        content_type="application/json",
        CONTENT_LENGTH="lots",
    )

    assert response.status_code == 400


@pytest.mark.parametrize(
    "path",
    ["/api/v1/nothing/", "/api/v1/matches/abc/", "/api/v1/me", "/api/v1/matches/1/turn"],
)
def test_it_answers_404_in_json_for_unknown_paths(alice_api, path):
    got = alice_api.get(path)
    posted = post_json(alice_api, path, {"segment": 1})

    assert got.status_code == posted.status_code == 404
    assert path in posted.json()["error"]


# An id beyond any row's: the ORM found none, and SQLite refused it as a parameter (a 500)
# once the match was read in SQL written by hand.
@pytest.mark.parametrize("match_id", [2**63, 10**30], ids=["2**63", "10**30"])
def test_a_match_id_too_large_for_any_row_is_not_found(alice_api, match_id):
    read = alice_api.get(f"/api/v1/matches/{match_id}/")
    turn = post_json(alice_api, f"/api/v1/matches/{match_id}/turn/", {"segment": 1, "play": "x"})

    assert read.status_code == turn.status_code == 404
    assert f"#{match_id}" in read.json()["error"]


# A NUL cannot be stored in (or even looked up against) a PostgreSQL text column, and an
# unpaired surrogate (valid JSON: "\ud800") cannot be encoded as UTF-8 at all: both were
# a 500 once they reached a query or constant_time_compare.
@pytest.mark.parametrize("text", ["\x00", "bo\x00b", "\ud800", "in/22\udfff"])
def test_it_answers_400_for_a_string_no_database_can_hold(alice, alice_api, bob_api, text):
    private = services.create_challenge(alice, private=True)

    opponent = post_json(
        alice_api,
        reverse("api_challenge_create"),
        {"opponent": text, "variant": "greek", "points": 1, "days_per_move": 2},
    )
    token = post_json(bob_api, reverse("api_challenge_accept", args=[private.pk]), {"token": text})

    assert opponent.status_code == token.status_code == 400
    assert "character" in opponent.json()["error"]
    assert Challenge.objects.get() == private
    assert Match.objects.count() == 0


def test_a_path_without_its_slash_is_told_so(alice_api):
    response = alice_api.get("/api/v1/me")

    assert response.status_code == 404
    assert "end with a slash" in response.json()["error"]


@pytest.mark.parametrize("debug", [True, False])
@pytest.mark.parametrize("method", ["GET", "POST"])
def test_the_api_s_own_address_without_its_slash_is_told_so(client, settings, debug, method):
    # Not redirected to /api/v1/ as a page's address would be: for a POST, Django's
    # APPEND_SLASH cannot (a 500 in DEBUG), and a redirect in HTML is no API answer.
    settings.DEBUG = debug

    response = client.generic(method, "/api/v1")

    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    assert "end with a slash" in response.json()["error"]


def test_a_query_of_too_many_parameters_is_refused_in_json(alice_api, client, match):
    # Beyond DATA_UPLOAD_MAX_NUMBER_FIELDS (1,000) Django refuses to read a query
    # (TooManyFieldsSent): a 400 whose page is HTML, but for the API.
    query = "&".join(f"p{n}=1" for n in range(1001))

    api = alice_api.get(f"{reverse('api_match', args=[match.pk])}?since=0&{query}")
    page = client.get(f"{match.get_absolute_url()}?replay=1&{query}")

    assert api.status_code == 400 and api["Content-Type"] == "application/json"
    assert api.json()["error"] == (
        "the request has more than 1000 parameters (in its query string or form)"
    )
    assert page.status_code == 400 and page["Content-Type"].startswith("text/html")


@pytest.mark.parametrize("debug", [True, False])
def test_too_many_parameters_are_refused_in_json_under_debug_too(alice_api, settings, debug):
    # Under DEBUG (bin/serve) Django answers with its technical page, which read the query
    # again and failed: a 500 in plain text, not the API's 400.
    settings.DEBUG = debug
    query = "&".join("a" for _ in range(1100))

    response = alice_api.get(f"{reverse('api_me')}?{query}")

    assert response.status_code == 400 and response["Content-Type"] == "application/json"
    assert response.json()["error"] == (
        "the request has more than 1000 parameters (in its query string or form)"
    )


def test_a_request_django_refuses_otherwise_is_refused_in_json_too(client):
    response = client.get("/api/v1/", headers={"host": "elsewhere.example"})

    assert response.status_code == 400 and response["Content-Type"] == "application/json"
    assert "not accepted here" in response.json()["error"]


def test_a_refusal_quotes_what_was_sent_as_typed(alice_api, match):
    # Not as JSON's ASCII escapes ("\u039d..."): the client shows the message to a player.
    challenge = post_json(
        alice_api,
        reverse("api_challenge_create"),
        {"opponent": "Νίκος", "variant": "greek", "points": 1, "days_per_move": 1},
    )
    block = post_json(alice_api, reverse("api_player_block", args=["Νίκος"]))
    since = alice_api.get(reverse("api_match", args=[match.pk]), {"since": "δύο"})

    assert challenge.json()["error"] == 'there is no player called "Νίκος"'
    assert block.json()["error"] == 'there is no player called "Νίκος"'
    assert since.json()["error"] == 'since must be a segment number, not "δύο"'


def test_a_refusal_escapes_what_would_not_show_as_itself(alice_api, match):
    # A control character, or a mark that turns the rest of the line around, quoted raw
    # would garble the message it is quoted in.
    url = reverse("api_match", args=[match.pk])

    turned = alice_api.get(url, {"since": "1\u202e2"})
    tab = alice_api.get(url, {"since": "1\t2"})

    assert turned.json()["error"] == 'since must be a segment number, not "1\\u202e2"'
    assert tab.json()["error"] == 'since must be a segment number, not "1\\t2"'
