"""The match page's history by game: the latest game in full, each earlier game a summary
whose turns load on demand (match_history_game) or are drawn at once when asked for."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games import api, services
from games.board import history_games
from games.engine.game import ScriptedDice
from games.models import Match
from games.services import TurnAction
from tests.matches import opened_by_white
from tests.queries.conftest import three_games

pytestmark = pytest.mark.django_db


def earlier_games(html: str) -> dict[int, str]:
    """Each earlier game's <details> element in the page, by game number."""
    found = re.findall(r'(<details id="history-game-(\d+)".*?</details>)', html, re.S)
    return {int(number): element for element, number in found}


def latest_game(html: str) -> str:
    """The history after its earlier games: the latest game's heading and turns."""
    history = re.search(r'<section id="history".*?</section>', html, re.S)
    assert history is not None
    return history.group(0).rpartition("</details>")[2]


@pytest.fixture
def match(alice, bob) -> Match:
    return three_games(alice, bob)


def test_the_latest_game_is_listed_in_full_and_earlier_games_as_summaries(client, match):
    page = client.get(match.get_absolute_url())

    games = earlier_games(page.text)
    assert sorted(games) == [1, 2]
    assert "<summary>Game 1: alice won 3 points (borne off) · segments 1 to 4</summary>" in games[1]
    assert "<summary>Game 2: bob won 1 point (borne off) · segments 5 to 6</summary>" in games[2]
    assert "in/22 in/19" not in page.text and "1/off" not in page.text
    latest = latest_game(page.text)
    assert '<h3 class="history-game-title">Game 3 · segments 7 to 7</h3>' in latest
    assert "Opening roll: white 5, black 2" in latest
    assert re.findall(r'\?replay=(\d+)" class="replay-link"', page.text) == ["7"]


def test_an_earlier_game_loads_its_turns_when_opened_and_is_kept_on_a_redraw(client, match):
    page = client.get(match.get_absolute_url())

    game = earlier_games(page.text)[2]
    url = reverse("match_history_game", args=[match.pk, 2])
    assert f'hx-get="{url}"' in game
    assert 'hx-trigger="toggle from:closest details"' in game
    assert 'hx-preserve="true"' in game
    assert " open" not in game.split(">", 1)[0]
    assert 'class="history-loading">Loading…</span>' in game
    assert 'href="?game=2#history-game-2"' in game  # without JavaScript


def test_a_game_asked_for_is_shown_open_with_its_turns(client, match):
    page = client.get(match.get_absolute_url() + "?game=1")

    games = earlier_games(page.text)
    opening_tag = games[1].split(">", 1)[0]
    assert " open" in opening_tag and "hx-get" not in opening_tag
    assert "6-3: in/22 in/19" in games[1] and "4-1: in/24 in/21" in games[1]
    assert "6-5: 1/off" in games[1]
    assert "in/22 in/19" not in games[2] and " open" not in games[2].split(">", 1)[0]
    assert "Opening roll: white 5, black 2" in latest_game(page.text)


@pytest.mark.parametrize("game", ["3", "9", "0", "abc", "²", "99999999999", "9" * 5000])
def test_a_game_number_that_is_not_an_earlier_game_opens_nothing(client, match, game):
    page = client.get(match.get_absolute_url(), {"game": game})

    assert page.status_code == 200
    assert sorted(earlier_games(page.text)) == [1, 2]
    assert " open" not in "".join(g.split(">", 1)[0] for g in earlier_games(page.text).values())


def test_a_replayed_segment_opens_its_game_and_is_marked(client, match):
    page = client.get(match.get_absolute_url() + "?replay=5")

    games = earlier_games(page.text)
    assert " open" in games[2].split(">", 1)[0]
    assert re.search(
        r'<li class="current" aria-current="step">\s*<span class="segment-play">'
        r'<span class="segment-text">'
        r"Opening roll: white 2, black 5",
        games[2],
    )
    assert " open" not in games[1].split(">", 1)[0] and "in/22" not in games[1]
    assert 'aria-current="step"' not in latest_game(page.text)


def test_a_replayed_segment_of_the_latest_game_opens_no_earlier_game(client, match):
    page = client.get(match.get_absolute_url() + "?replay=7")

    games = earlier_games(page.text)
    assert sorted(games) == [1, 2]
    assert all("hx-get" in game for game in games.values())  # both still to load
    assert 'aria-current="step"' in latest_game(page.text)


def test_the_game_url_returns_that_games_turns_alone(client, match):
    response = client.get(reverse("match_history_game", args=[match.pk, 1]))

    assert response.status_code == 200
    assert response.text.lstrip().startswith('<ol class="turns">')
    assert "<html" not in response.text and 'id="live"' not in response.text
    # Replay links name the match page: they work from the fragment on its own too.
    replays = re.findall(r'href="([^"]*)\?replay=(\d+)"', response.text)
    assert replays == [(match.get_absolute_url(), n) for n in ("1", "2", "3", "4")]
    assert "alice" in response.text and "in/22 in/19" in response.text
    assert "6-5: 1/off" in response.text


def test_the_game_url_is_public_to_watch(client, charlie, match):
    url = reverse("match_history_game", args=[match.pk, 2])

    anonymous = client.get(url)
    client.force_login(charlie)
    outsider = client.get(url)

    assert anonymous.status_code == outsider.status_code == 200
    assert "bob" in anonymous.text and "Opening roll: white 2, black 5" in anonymous.text


def test_the_latest_game_can_be_fetched_too(client, match):
    response = client.get(reverse("match_history_game", args=[match.pk, 3]))

    assert response.status_code == 200
    assert "Opening roll: white 5, black 2" in response.text


@pytest.mark.parametrize("game", ["0", "4", "32768", "99999999999999999999999", "9" * 5000])
def test_a_game_without_segments_is_404(client, match, game):
    response = client.get(f"/matches/{match.pk}/history/{game}/")

    assert response.status_code == 404


@pytest.mark.parametrize("game", ["abc", "-1", "1.5", "²", "%00"])
def test_a_game_that_is_not_a_number_is_404(client, match, game):
    response = client.get(f"/matches/{match.pk}/history/{game}/")

    assert response.status_code in (400, 404)


def test_the_game_url_of_a_missing_match_is_404(client, match):
    response = client.get(reverse("match_history_game", args=[match.pk + 1, 1]))

    assert response.status_code == 404


def test_the_game_url_takes_only_get(client, alice, match):
    client.force_login(alice)

    response = client.post(reverse("match_history_game", args=[match.pk, 1]))

    assert response.status_code == 405


def test_a_finished_matchs_last_game_is_listed_in_full_with_its_result(client, alice, match):
    services.resign(match.pk, user=alice)
    match.refresh_from_db()

    page = client.get(match.get_absolute_url())

    result = match.game_results.get(game_number=3)
    assert (result.winner, result.ending) == ("black", "resignation")
    assert sorted(earlier_games(page.text)) == [1, 2]
    heading = f"Game 3: bob won {result.points} points (resignation) · segments 7 to 7"
    assert f'<h3 class="history-game-title">{heading}</h3>' in latest_game(page.text)
    # The header says how the match ended in the same words as the game summary.
    score = f"{match.score_black}\u2013{match.score_white}"  # bob's, the winner's, first
    assert f"by {match.get_ending_display()} (final score {score})" in page.text
    assert match.get_ending_display() == "resignation"


def test_a_single_game_has_no_summaries_nor_game_heading(client, alice, bob):
    match = opened_by_white(alice, bob)

    page = client.get(match.get_absolute_url())

    assert earlier_games(page.text) == {}
    assert "history-game-title" not in page.text
    assert "Opening roll: white 5, black 2" in latest_game(page.text)


def test_a_board_click_keeps_the_history_with_its_earlier_games(client, alice, match):
    client.force_login(alice)
    url = reverse("match_click", args=[match.pk])
    shown = str(match.segment_count)

    kept = client.post(url, {"steps": "", "history": shown}, headers={"HX-Request": "true"})
    drawn = client.post(url, {"steps": "", "history": "0"}, headers={"HX-Request": "true"})

    assert '<section id="history" class="history" hx-preserve="true"></section>' in kept.text
    assert earlier_games(kept.text) == {}
    assert sorted(earlier_games(drawn.text)) == [1, 2]


def test_the_history_goes_no_further_than_the_match_row_it_is_drawn_with(alice, bob):
    # The page reads the match, then its history: a segment committed in between (a bot's
    # reply) must not show in a history whose board is the match row as read.
    match = services.start_match(
        white=alice,
        black=bob,
        variant="american",
        points=3,
        days_per_move=2,
        dice=ScriptedDice([5, 2, 6, 5]),
    )
    as_read = Match.objects.get(pk=match.pk)
    services.submit_segment(match.pk, user=alice, action=TurnAction(segment=1, play="in/20 in/19"))

    games = history_games(as_read, {"white": "alice", "black": "bob"})
    state_history = api._history(as_read)

    assert games[-1].last == as_read.segment_count == 1
    assert [s["number"] for s in state_history] == [1]


def test_each_game_keeps_its_result_in_parts_the_sentence_is_made_of(match):
    games = history_games(match, {"white": "alice", "black": "bob"})

    first, latest = games[0], games[-1]
    assert (first.winner, first.winner_name, first.won) == (
        "white",
        "alice",
        "won 3 points (borne off)",
    )
    assert first.result == "alice won 3 points (borne off)"
    assert (latest.winner, latest.winner_name, latest.won, latest.result) == ("", "", "", "")
