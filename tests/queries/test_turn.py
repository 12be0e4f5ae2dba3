"""The SQL a turn costs: a fixed list of statements, whatever the match."""

from __future__ import annotations

import itertools

import pytest
from django.urls import reverse

from games.dice import roll_pair
from games.models import DiceTally, Match, Notification
from games.tournaments.brackets import Format
from games.tournaments.models import TournamentMatch
from tests.api.conftest import post_json, token_client
from tests.matches import opened_by_white
from tests.tournaments_site.helpers import started_tournament

pytestmark = pytest.mark.django_db


def seed_rolling(dice: tuple[int, int], *, roll: int) -> str:
    """A server seed whose roll number ``roll`` is ``dice``."""
    for n in itertools.count():
        seed = f"{n:064x}"
        if roll_pair(seed, roll) == dice:
            return seed
    raise AssertionError("unreachable")


def in_a_tournament(match: Match) -> None:
    """Make ``match`` the final of a tournament of its two players (in place of the one its
    draw started)."""
    players = [match.white, match.black]
    tournament = started_tournament(match.white, players, format=Format.SINGLE_ELIMINATION)
    TournamentMatch.objects.filter(tournament=tournament).update(match=match)


# A tournament's match costs no more: its tournament comes with the locked match (its turn
# email names it).
@pytest.mark.parametrize("tournament", [False, True], ids=["friendly", "tournament"])
def test_a_turn_through_the_api_makes_nine_statements(
    alice, bob, django_assert_num_queries, tournament
):
    match = opened_by_white(alice, bob)  # alice to play 6-3; bob rolls next
    if tournament:
        in_a_tournament(match)
    # Alice has rolled before: her tally is there to add to (her first roll of all makes
    # it, below).
    DiceTally.objects.get_or_create(user=alice)
    # Bob's roll is the seed's first: 6-5, which leaves him plays to choose (none forced).
    Match.objects.filter(pk=match.pk).update(server_seed=seed_rolling((6, 5), roll=1))
    api = token_client(alice)
    api.get(reverse("api_me"))  # the key's "last used" is now fresh: not written again
    url = reverse("api_match_turn", args=[match.pk]) + "?since=1"

    # The key with its user; BEGIN (a savepoint inside the test's transaction); the match
    # locked, with its players; the segment stored; bob's return from any time away; his
    # turn email queued; the match saved; his new roll added to his dice tally; COMMIT
    # (the savepoint released).
    with django_assert_num_queries(9):
        response = post_json(api, url, {"segment": 1, "play": "in/22 in/19"})

    assert response.status_code == 200, response.content
    assert response.json()["to_move"] == "bob" and response.json()["dice"] == [6, 5]
    turn_email = Notification.objects.get(user=bob, match=match, kind=Notification.Kind.TURN)
    assert ("Final, match #" in turn_email.subject) is tournament


def test_a_players_first_roll_of_all_makes_their_tally_two_statements_more(
    alice, bob, django_assert_num_queries
):
    match = opened_by_white(alice, bob)
    Match.objects.filter(pk=match.pk).update(server_seed=seed_rolling((6, 5), roll=1))
    api = token_client(alice)
    api.get(reverse("api_me"))
    assert not DiceTally.objects.filter(user=alice).exists()  # no match makes it as it starts
    url = reverse("api_match_turn", args=[match.pk]) + "?since=1"

    # Nine, as any turn, and once: the UPDATE that found no tally, then its INSERT.
    with django_assert_num_queries(11):
        response = post_json(api, url, {"segment": 1, "play": "in/22 in/19"})

    assert response.status_code == 200, response.content
    assert DiceTally.objects.get(user=alice).rolls == 1
