"""Texts that spoke of the american game on a greek board, or said too little: the
notation help, the email's board, the rules page on forced plays, a play typed too long,
naming a blot with a play that ends the game, and a waiting checker typed in greek."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.engine import Position
from games.models import Match
from tests.matches import opened_by_white, set_position

pytestmark = pytest.mark.django_db


def test_the_emails_board_counts_waiting_checkers_in_the_american_game_only():
    greek = Position.initial("greek").diagram("white")
    american = Position.initial("american").diagram("white")

    assert "waiting" not in greek and "X (white): bar 0, off 0, pips 360" in greek
    assert "X (white): bar 0, off 0, waiting 15, pips" in american


@pytest.mark.parametrize(("variant", "said"), [("greek", False), ("american", True)])
def test_the_notation_help_speaks_of_waiting_checkers_in_the_american_game_only(
    client, alice, bob, variant, said
):
    match = opened_by_white(alice, bob, variant=variant)
    client.force_login(alice)

    page = client.get(match.get_absolute_url()).text

    assert "<code>bar/22</code> enters from the bar" in page
    assert ("<code>in/22</code> enters a waiting checker" in page) is said


def test_the_rules_page_says_when_a_greek_forced_play_is_left_to_the_player(client):
    text = " ".join(client.get(reverse("rules")).text.split())

    assert "except in the Greek game when it leaves you a blot you could name" in text


def test_a_play_typed_too_long_is_refused_in_words(client, alice, bob):
    match = opened_by_white(alice, bob)
    client.force_login(alice)

    answer = client.post(
        reverse("match_turn", args=[match.pk]),
        {"segment": match.segment_count, "play": "24/18 " * 17},
    )

    assert answer.status_code == 400
    assert "A play is written in at most 100 characters: this one has 101." in answer.text
    assert "Ensure this value" not in answer.text
    assert Match.objects.get(pk=match.pk).segment_count == match.segment_count


def test_naming_a_blot_with_the_play_that_ends_the_game_says_so(client, alice, bob):
    match = opened_by_white(alice, bob, dice=(5, 2, 6, 5), variant="greek")
    points = [0] * 24
    points[2] = points[1] = 1  # alice's last two checkers, on her 3- and 2-points
    points[23] = -15  # bob's, all on his 1-point
    match = set_position(match, "white", points, variant="greek", off={"white": 13, "black": 0})
    client.force_login(alice)

    answer = client.post(
        reverse("match_turn", args=[match.pk]),
        {"segment": match.segment_count, "play": "3/off 2/off", "name_blot": "2"},
    )

    assert answer.status_code == 400
    assert "his play ends the game: there is no blot to name" in answer.text
    assert "game is over" not in answer.text
    assert Match.objects.get(pk=match.pk).segment_count == match.segment_count


NO_WAITING_IN_GREEK = (
    "in/22: the Greek game has no checkers waiting to enter (they all start on your"
    " 24-point): write a move from the point a checker stands on, such as 24/21"
)


def test_a_waiting_checker_typed_in_greek_is_refused_as_the_greek_game_has_none(client, alice, bob):
    match = opened_by_white(alice, bob, variant="greek")
    client.force_login(alice)

    answer = client.post(
        reverse("match_turn", args=[match.pk]),
        {"segment": match.segment_count, "play": "in/22 in/19"},
    )

    assert answer.status_code == 400
    assert NO_WAITING_IN_GREEK in answer.text
    assert "you have no checker waiting" not in answer.text
    assert Match.objects.get(pk=match.pk).segment_count == match.segment_count


def test_the_api_refuses_a_waiting_checker_in_greek_in_the_same_words(client, alice, bob):
    match = opened_by_white(alice, bob, variant="greek")
    client.force_login(alice)

    answer = client.post(
        reverse("api_match_turn", args=[match.pk]),
        {"segment": match.segment_count, "play": "in/22 in/19"},
        content_type="application/json",
    )

    assert answer.status_code == 400
    assert answer.json()["error"] == NO_WAITING_IN_GREEK
