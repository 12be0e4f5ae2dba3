"""A click on a board drawn before a move made since (in another window) is refused as out
of date, as a turn sent from it is, instead of being checked against the new dice."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games import services
from games.engine.game import ScriptedDice
from games.models import Match
from tests.matches import opened_by_white

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
OUT_OF_DATE = "This board was out of date: a move was made since it was drawn (in another window?)"


@pytest.fixture
def match(alice, bob) -> Match:
    """Alice (white) to play 6-3 at segment 1."""
    return opened_by_white(alice, bob)


def _turn_played_elsewhere(match: Match) -> Match:
    """Alice plays her 6-3 in another window, bob answers: she is to play 6-5."""
    for user, play, dice in (
        (match.white, "in/22 in/19", [4, 1]),
        (match.black, "in/24 in/21", [6, 5]),
    ):
        action = services.TurnAction(segment=match.segment_count, play=play)
        match = services.submit_segment(match.pk, user=user, action=action, dice=ScriptedDice(dice))
    return match


def _click(client, match: Match, **data) -> object:
    return client.post(reverse("match_click", args=[match.pk]), data, **HTMX)


def test_a_click_from_a_board_drawn_before_the_last_move_is_refused_as_out_of_date(
    client, alice, match
):
    client.force_login(alice)
    drawn_at = str(match.segment_count)
    assert _click(client, match, steps="26-22", segment=drawn_at).status_code == 200
    match = _turn_played_elsewhere(match)

    # The next move clicked on the old board: in/22 then in/19, for the old 6-3.
    response = _click(client, match, steps="26-22 26-19", segment=drawn_at, history=drawn_at)

    assert response.status_code == 409
    assert OUT_OF_DATE in response.text
    assert "not a legal way" not in response.text
    # The board as it stands: the new dice, nothing clicked, the history drawn again.
    assert f'data-state="play|{match.segment_count}||' in response.text
    assert 'aria-label="Dice: 6-5"' in response.text
    assert "turn-entry" in response.text
    # Nothing typed to correct: the notation box stays closed.
    assert re.search(r'<details class="notation-box"\s*>', response.text)
    # The live region says why, then what happened meanwhile and what to do now.
    announce = response.text.split('<div id="announce" hx-swap-oob="innerHTML">', 1)[1]
    assert announce.startswith(OUT_OF_DATE)
    assert "bob rolled 4-1" in announce.split("</div>")[0]  # what happened meanwhile


def test_a_click_from_the_current_board_is_checked_as_before(client, alice, match):
    client.force_login(alice)

    response = _click(client, match, steps="26-22", segment=str(match.segment_count))

    assert response.status_code == 200
    assert "Your play so far: <strong>in/22</strong>" in response.text
    assert "out of date" not in response.text


def test_a_stale_click_once_the_match_is_over_says_so(client, alice, bob, match):
    client.force_login(alice)
    drawn_at = str(match.segment_count)
    match = _turn_played_elsewhere(match)
    services.resign(match.pk, user=bob)

    response = _click(client, match, steps="26-22", segment=drawn_at)

    assert response.status_code == 409
    assert "The match is over." in response.text


def test_without_javascript_a_stale_click_gets_the_whole_page(client, alice, match):
    client.force_login(alice)
    drawn_at = str(match.segment_count)
    match = _turn_played_elsewhere(match)

    response = client.post(
        reverse("match_click", args=[match.pk]), {"steps": "26-22", "segment": drawn_at}
    )

    assert response.status_code == 409
    assert response.text.lstrip().lower().startswith("<!doctype html>")
    assert OUT_OF_DATE in response.text


def test_every_click_on_the_page_carries_the_segment_it_was_drawn_at(client, alice, match):
    client.force_login(alice)

    page = client.get(match.get_absolute_url()).text

    # On the board's container, which every target, move chip and undo button is inside.
    live = re.search(r'<div id="live"[^>]*>', page, re.S)
    assert live and f'"segment": "{match.segment_count}"' in live.group(0)
    assert page.index('<div id="live"') < page.index('class="chip"')
