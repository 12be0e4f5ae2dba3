"""The API's reference at /api/: a page anyone can read, listing every endpoint of
games/api_urls.py with each method it answers, and /api/v1/ pointing to it."""

from __future__ import annotations

import html
import re
import textwrap
from datetime import timedelta
from html.parser import HTMLParser
from itertools import pairwise

import pytest
from django.test import Client
from django.urls import URLPattern, reverse
from django.urls.resolvers import RoutePattern

from games import api_urls
from games.dice import check_record_rolls
from games.engine import record as engine_record
from games.engine.record import from_text, import_text
from tests.matches import opened_by_white

pytestmark = pytest.mark.django_db

# A value each path converter accepts, to reach the endpoint's own view.
SAMPLE_VALUES = {"int": "1", "str": "bob"}
# The method of a headed endpoint, as the page writes it: "POST /api/v1/me/".
ENDPOINT_HEADING = re.compile(r"^(GET|HEAD|POST|PUT|PATCH|DELETE) (/api/v1/\S*)$")


class _Headings(HTMLParser):
    """The text of a page's headings, by level: ``[(2, "Limits"), ...]``."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[tuple[int, str]] = []
        self._level: int | None = None
        self._text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list) -> None:
        if re.fullmatch(r"h[1-6]", tag):
            self._level, self._text = int(tag[1]), []

    def handle_endtag(self, tag: str) -> None:
        if self._level is not None and tag == f"h{self._level}":
            self.found.append((self._level, " ".join("".join(self._text).split())))
            self._level = None

    def handle_data(self, data: str) -> None:
        if self._level is not None:
            self._text.append(data)


def _headings(content: bytes) -> list[tuple[int, str]]:
    parser = _Headings()
    parser.feed(content.decode())
    return parser.found


def _route(pattern: URLPattern) -> str:
    assert isinstance(pattern.pattern, RoutePattern), f"{pattern.name}: a regex, not a route"
    return str(pattern.pattern)


def _endpoints() -> set[str]:
    """Every endpoint of games/api_urls.py as the page heads it, "METHOD /api/v1/path/"
    with each parameter as ``<name>``, for each method its 405 answer allows (HEAD goes
    with every GET, and the page says so once)."""
    endpoints = set()
    for pattern in api_urls.urlpatterns:
        if pattern.name == "api_not_found":
            continue  # the catch-all, answering 404 for anything else
        route = _route(pattern)
        documented = "/api/v1/" + re.sub(r"<(?:\w+:)?(\w+)>", r"<\1>", route)
        reachable = "/api/v1/" + re.sub(
            r"<(?:(\w+):)?\w+>", lambda m: SAMPLE_VALUES[m[1] or "str"], route
        )
        # No endpoint answers OPTIONS, and each says which methods it does answer.
        refused = Client().options(reachable)
        assert refused.status_code == 405, (reachable, refused.content)
        allowed = {method.strip() for method in refused["Allow"].split(",")} - {"HEAD"}
        endpoints |= {f"{method} {documented}" for method in allowed}
    return endpoints


def test_it_documents_every_endpoint_and_no_other():
    response = Client().get(reverse("api_docs"))

    headed = {text for level, text in _headings(response.content) if ENDPOINT_HEADING.match(text)}
    endpoints = _endpoints()
    assert endpoints - headed == set(), "endpoints of games/api_urls.py missing from /api/"
    assert headed - endpoints == set(), "endpoints on /api/ that games/api_urls.py lacks"


def test_the_endpoints_found_are_those_of_the_api():
    # The comparison above is only as good as _endpoints(): it sees both methods of an
    # address that answers two, and the parameters by name.
    endpoints = _endpoints()

    assert "GET /api/v1/challenges/" in endpoints
    assert "POST /api/v1/challenges/" in endpoints
    assert "POST /api/v1/matches/<match_id>/turn/" in endpoints
    assert "POST /api/v1/players/<username>/block/" in endpoints
    assert "GET /api/v1/matches/<match_id>/turn/" not in endpoints


def test_anyone_may_read_it(client):
    response = client.get("/api/")

    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/html")


def test_its_headings_lead_through_the_page(client):
    headings = _headings(client.get("/api/").content)

    assert [text for level, text in headings if level == 1] == ["The JSON API"]
    assert [text for level, text in headings if level == 2] == [
        "Keys and logging in",
        "Requests, answers and errors",
        "Playing a turn",
        "A request sent twice",
        "Notation and point numbers",
        "The match state",
        "Match records",
        "Limits",
        "Endpoints",
    ]
    levels = [level for level, _ in headings]
    assert all(later <= earlier + 1 for earlier, later in pairwise(levels))


def test_its_examples_use_this_site_and_point_to_the_notation(client):
    content = html.unescape(client.get("/api/").content.decode())

    assert "http://testserver/api/v1/matches/1/turn/?since=1" in content
    assert '"already_played": true' in content
    assert 'href="/rules/#notation"' in content


def test_its_figures_are_the_code_s(client):
    content = client.get("/api/").content.decode()

    # games.chat's limits, games.services', games.models' match lengths, the API's own.
    assert "40 messages in 24 hours" in content
    assert "at most 200 characters" in content
    assert "up to 500 characters" in content
    assert "20 challenges waiting in all" in content
    assert "1, 3, 5, 7, 11, 15, 25" in content


def test_it_says_what_a_greek_dance_left_to_the_player_asks(client):
    # tests/api/test_turn.py plays one: the site leaves it when there is a blot to name.
    content = html.unescape(client.get("/api/").content.decode())

    assert '<code>legal_plays</code> is then <code>[""]</code>' in content
    assert '<code>{"segment": n, "play": ""}</code>' in content


def test_it_says_a_username_is_found_written_with_look_alike_letters(client):
    # tests/api/test_challenges.py finds bob as "b0b", and with Cyrillic and Greek letters.
    content = html.unescape(client.get("/api/").content.decode())

    assert content.count("look-alike letters") >= 2  # the endpoints' <username>, opponent


def test_its_list_of_statuses_gives_every_429(client):
    content = client.get("/api/").content.decode()

    (said,) = re.findall(r"<dt>429</dt><dd>(.*?)</dd>", content)
    assert "messages" in said and 'href="#post-confirm-email"' in said and "Retry-After" in said
    assert "challenges to one player" in said


def test_it_explains_the_idempotency_key_with_the_code_s_figures(client):
    from games import idempotency

    content = html.unescape(client.get("/api/").content.decode())

    assert "Idempotency-Key: " in content and "Idempotent-Replayed: true" in content
    assert f"up to {idempotency.MAX_KEY_LENGTH} letters" in content
    assert f"kept for {idempotency.KEY_LIFETIME // timedelta(hours=1)} hours" in content
    assert "<dt>422</dt>" in content


def test_it_names_the_bots_to_challenge(client):
    from games import services

    bots = services.bot_users()

    content = client.get("/api/").content.decode()

    assert len(bots) >= 3
    for bot in bots:
        assert f"<code>{bot.username}</code> (" in content


def test_every_page_s_footer_links_it(client):
    content = client.get("/rules/").content.decode()

    assert '<a href="/api/">The JSON API, for bots and scripts</a>' in content


def test_the_api_keys_settings_link_it(client, alice):
    client.force_login(alice)

    content = client.get("/accounts/settings/").content.decode()

    assert content.count('href="/api/"') == 2  # the footer's and the API keys section's


def test_the_new_key_page_links_it(client, alice):
    client.force_login(alice)

    response = client.post(
        "/accounts/settings/tokens/", {"name": "my bot", "password": "correct horse battery"}
    )

    content = response.content.decode()
    assert "Your new API key" in content
    assert content.count('href="/api/"') == 2  # the footer's and its own


def test_the_api_root_points_to_it():
    response = Client().get("/api/v1/")

    assert response.status_code == 200
    assert response.json() == {"version": 1, "docs": "http://testserver/api/"}


def test_the_api_root_answers_json_to_other_methods():
    response = Client().post("/api/v1/", {})

    assert response.status_code == 405
    assert response["Allow"] == "GET, HEAD"
    assert response.json() == {"error": "use GET here, not POST"}


def test_an_unknown_api_address_points_to_it():
    response = Client().get("/api/v1/nothing-here/")

    assert response.status_code == 404
    assert response.json()["docs"] == "http://testserver/api/"


def test_it_describes_the_match_records_with_an_example_the_engine_imports(client):
    content = client.get("/api/").content.decode()

    example = re.search(
        r'aria-label="Example: a text record"[^>]*><code>(.*?)</code>', content, re.S
    )
    replayed = import_text(html.unescape(example[1]))
    assert replayed.is_over and replayed.winner == "black"
    # A real record: every roll is the one its seed gives (two openings, five others).
    assert check_record_rolls(from_text(html.unescape(example[1]))) == 7
    assert '"format": "acey-deucey-match/1"' in html.unescape(content)
    assert "<code>import_text(text)</code> and <code>import_json(data)</code>" in content


def test_the_match_pages_download_links_lead_to_the_formats(client, alice, bob):
    match = opened_by_white(alice, bob)

    content = client.get(match.get_absolute_url()).content.decode()

    assert '(<a href="/api/#records">what the files hold</a>)' in content


def test_the_api_pages_example_record_is_the_engines_own(client):
    # Written in two places, the engine's account of the format and this page: the same.
    content = client.get("/api/").content.decode()
    example = re.search(
        r'aria-label="Example: a text record"[^>]*><code>(.*?)</code>', content, re.S
    )
    after_its_lead = engine_record.__doc__.split("are ignored::\n\n", 1)[1]
    docstring = after_its_lead.split("\n\n* **Header**", 1)[0]

    assert textwrap.dedent(docstring).strip() == html.unescape(example[1]).strip()
