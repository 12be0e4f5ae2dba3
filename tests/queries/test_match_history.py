"""The match page's history by game takes as many SQL queries for a match of several games,
a long earlier game, or an earlier game shown in full, as for a single short game; and one
game's turns (loaded when the reader opens it) as many for a long game as for a short one."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Match

from .conftest import LONG, SHORT, WHITE_STARTS, count_queries, end_game, get_ok, played

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}


@pytest.fixture
def two_games(alice, bob) -> Match:
    """A first game of LONG segments or more, which alice wins, then game 2 begun."""
    match = played(alice, bob, segments=LONG)
    match = end_game(match, loser_off=12, then=WHITE_STARTS)
    assert match.game_number == 2 and match.is_active
    return match


def _warm_up(client: Client, *urls: str) -> None:
    for url in urls:  # sessions, caches
        get_ok(client, url)()


@pytest.mark.parametrize("viewer", ["player", "spectator", "anonymous"])
@pytest.mark.parametrize("headers", [{}, HTMX], ids=["page", "htmx partial"])
def test_earlier_games_add_no_queries_to_the_match_page(
    viewer, headers, client, alice, charlie, short_match, two_games, django_assert_num_queries
):
    if viewer != "anonymous":
        client.force_login(alice if viewer == "player" else charlie)
    short_url = short_match.get_absolute_url()
    long_url = two_games.get_absolute_url()
    _warm_up(client, short_url, long_url)

    short = count_queries(get_ok(client, short_url, **headers))

    with django_assert_num_queries(short):
        get_ok(client, long_url, **headers)()
    with django_assert_num_queries(short):
        get_ok(client, f"{long_url}?game=1", **headers)()


def test_a_replay_in_an_earlier_game_adds_no_queries(
    client, charlie, short_match, two_games, django_assert_num_queries
):
    client.force_login(charlie)
    short_url = f"{short_match.get_absolute_url()}?replay=2"
    long_url = f"{two_games.get_absolute_url()}?replay={LONG - 2}"
    _warm_up(client, short_url, long_url)

    short = count_queries(get_ok(client, short_url))

    with django_assert_num_queries(short):
        get_ok(client, long_url)()


def test_one_games_turns_take_as_many_queries_for_a_long_game(
    client, short_match, two_games, django_assert_num_queries
):
    short_url = reverse("match_history_game", args=[short_match.pk, 1])
    long_url = reverse("match_history_game", args=[two_games.pk, 1])
    _warm_up(client, short_url, long_url)
    assert short_match.segment_count < 2 * SHORT < LONG

    short = count_queries(get_ok(client, short_url))

    with django_assert_num_queries(short):
        get_ok(client, long_url, **HTMX)()


def test_one_games_turns_are_four_queries_for_a_logged_in_reader(
    client, alice, two_games, django_assert_num_queries
):
    # The session and its user (for the reader's timezone), the match and the game's
    # segments; nothing for the page around it (the header's back_here is worked out only
    # by a page that shows it).
    client.force_login(alice)
    url = reverse("match_history_game", args=[two_games.pk, 1])

    with django_assert_num_queries(4):
        get_ok(client, url, **HTMX)()
