"""The last line of a match's history: a match resigned or lost on time says so after its
last turn, in the words of the result above the board; one borne off ends with its play."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.utils import timezone

from games import services
from games.board import board_context
from games.models import Match
from tests.matches import opened_by_white
from tests.queries.conftest import WHITE_STARTS, end_game, play, three_games

pytestmark = pytest.mark.django_db


def history_end(html: str) -> str | None:
    """The closing line of the page's history, or None."""
    found = re.search(r'<p class="history-end">(.*?)</p>', html, re.S)
    return found.group(1) if found else None


def banner(html: str) -> str:
    """The result above the board of a finished match."""
    found = re.search(r'<p class="turn" id="turn-line"[^>]*>\s*(.*?)\s*</p>', html, re.S)
    assert found is not None
    return found.group(1)


def timed_out(match: Match) -> Match:
    """The player to move lets the deadline pass and loses the match."""
    assert services.award_timeout(match.pk, now=timezone.now() + timedelta(days=30))
    match.refresh_from_db()
    return match


@pytest.mark.parametrize("variant", ["american", "greek"])
def test_a_resigned_match_ends_its_history_with_the_resignation(client, alice, bob, variant):
    match = opened_by_white(alice, bob, variant=variant, points=3)
    match = play(match, alice, "in/22 in/19" if variant == "american" else "24/18 24/21", [4, 1])

    services.resign(match.pk, user=bob)
    page = client.get(match.get_absolute_url()).text

    won = '<strong class="result"><bdi>alice</bdi> won</strong>'
    match.refresh_from_db()
    final = f"(final score {match.result_score})"  # with the game's points (R9), alice's
    assert banner(page) == f'{won} <span class="muted">by resignation {final}</span>'
    assert history_end(page) == f"<bdi>bob</bdi> resigned the match: {banner(page)}."
    # After the last turn, below the list of turns.
    assert page.index("</ol>", page.index('id="history-h"')) < page.index("history-end")


@pytest.mark.parametrize("variant", ["american", "greek"])
def test_a_match_lost_on_time_ends_its_history_with_the_timeout(client, alice, bob, variant):
    match = opened_by_white(alice, bob, variant=variant, points=3)  # alice to move

    match = timed_out(match)
    page = client.get(match.get_absolute_url()).text

    won = '<strong class="result"><bdi>bob</bdi> won</strong>'
    final = f"(final score {match.result_score})"
    assert banner(page) == f'{won} <span class="muted">by timeout {final}</span>'
    assert history_end(page) == f"<bdi>alice</bdi> ran out of time: {banner(page)}."


def test_the_line_closes_the_last_game_of_a_longer_match_for_anyone(client, alice, bob):
    match = three_games(alice, bob)  # game 3: alice to move

    match = timed_out(match)
    page = client.get(match.get_absolute_url()).text  # not logged in

    # Bob's 1 point of game 2 and 15 for game 3 (alice had borne none off), to alice's 3.
    assert match.result_score == "16\u20133"
    assert history_end(page) == (
        '<bdi>alice</bdi> ran out of time: <strong class="result"><bdi>bob</bdi> won</strong>'
        ' <span class="muted">by timeout (final score 16\u20133)</span>.'
    )
    assert page.index('<h3 class="history-game-title">Game 3: bob won') < page.index("history-end")


def test_a_match_borne_off_ends_with_its_last_play_alone(client, alice, bob):
    match = opened_by_white(alice, bob)  # to 1 point: alice's game is the match

    match = end_game(match, loser_off=14, then=WHITE_STARTS)
    page = client.get(match.get_absolute_url()).text

    assert match.ending == Match.Ending.BORNE_OFF and not match.is_active
    assert f'<span class="muted">{match.result_score} (borne off)</span>' in banner(page)
    assert "1/off" in page
    assert history_end(page) is None


def test_a_match_in_play_has_no_closing_line(client, alice, bob):
    match = opened_by_white(alice, bob)

    page = client.get(match.get_absolute_url()).text

    assert history_end(page) is None


def test_the_screen_reader_hears_how_a_finished_match_ended(alice, bob):
    match = opened_by_white(alice, bob, variant="american", points=3)
    match = play(match, alice, "in/22 in/19", [4, 1])
    services.resign(match.pk, user=bob)
    match.refresh_from_db()

    to_alice = board_context(match, viewer=alice, steps=[])["announcement"]
    to_bob = board_context(match, viewer=bob, steps=[])["announcement"]
    to_carol = board_context(match, viewer=None, steps=[])["announcement"]

    final = f"(final score {match.result_score})"
    assert to_alice == f"The match is over: bob resigned the match; you won by resignation {final}."
    # After alice's last turn, which bob had not seen.
    assert to_bob.endswith(
        f". The match is over: you resigned the match; alice won by resignation {final}."
    )
    assert to_carol.endswith(
        f". The match is over: bob resigned the match; alice won by resignation {final}."
    )


def test_a_match_lost_on_time_is_announced_as_such(alice, bob):
    match = timed_out(opened_by_white(alice, bob, variant="greek", points=3))

    board = board_context(match, viewer=bob, steps=[])

    assert board["announcement"] == (
        f"The match is over: alice ran out of time; you won by timeout"
        f" (final score {match.result_score})."
    )
