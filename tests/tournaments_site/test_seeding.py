"""Seeding: by rating in the tournament's variant, unrated players as 1500, ties broken by a
shuffle seeded per tournament; byes go to the top seeds."""

from __future__ import annotations

import random

import pytest

from games.models import Match, PlayerRating
from games.tournaments import services
from games.tournaments.brackets import Format
from games.tournaments.models import Tournament

from .helpers import make_users, open_tournament

pytestmark = pytest.mark.django_db


def _sign_up_all(tournament: Tournament, players) -> None:
    for player in players:
        services.sign_up(tournament.pk, user=player)


def test_it_seeds_by_rating_in_the_tournament_variant(alice):
    strong, unrated, weak, best = make_users(4)
    for player, greek, american in [(strong, 1700, 1000), (weak, 1300, 2000), (best, 1900, 1100)]:
        PlayerRating.objects.create(user=player, variant="greek", rating=greek)
        PlayerRating.objects.create(user=player, variant="american", rating=american)
    tournament = open_tournament(alice, variant="greek")
    _sign_up_all(tournament, [strong, unrated, weak, best])

    services.start_tournament(tournament.pk, user=alice)

    seeds = dict(tournament.entries.values_list("user", "seed"))
    assert seeds == {best.pk: 1, strong.pk: 2, unrated.pk: 3, weak.pk: 4}
    ratings = dict(tournament.entries.values_list("user", "rating"))
    assert ratings[unrated.pk] == 1500.0


def test_it_breaks_ties_in_rating_with_the_tournaments_seeded_shuffle(alice):
    players = make_users(6)
    tournament = open_tournament(alice)
    _sign_up_all(tournament, players)
    expected = sorted(player.pk for player in players)
    random.Random(tournament.shuffle_seed).shuffle(expected)

    services.start_tournament(tournament.pk, user=alice)

    by_seed = list(tournament.entries.order_by("seed").values_list("user", flat=True))
    assert by_seed == expected
    tournament.refresh_from_db()
    assert tournament.draw().players == tuple(expected)


def test_it_seeds_the_same_field_differently_with_another_shuffle_seed(alice):
    players = make_users(6)
    orders = set()
    for shuffle_seed in (1, 2, 3):
        tournament = open_tournament(alice)
        Tournament.objects.filter(pk=tournament.pk).update(shuffle_seed=shuffle_seed)
        tournament.refresh_from_db()
        _sign_up_all(tournament, players)

        orders.add(tuple(entry.user_id for entry in services.seeded_entries(tournament)))

    assert len(orders) > 1


def test_it_gives_the_byes_to_the_top_seeds(alice):
    players = make_users(5)
    for rating, player in zip([1900, 1800, 1700, 1600, 1500], players, strict=True):
        PlayerRating.objects.create(user=player, variant="american", rating=rating)
    tournament = open_tournament(alice, format=Format.SINGLE_ELIMINATION)
    _sign_up_all(tournament, players)

    services.start_tournament(tournament.pk, user=alice)

    # Eight places for five players: seeds 1 to 3 have byes and seeds 4 and 5 play; so the
    # second round's 2 v 3 can start at once, and seed 1 waits for the winner of 4 v 5.
    matches = {
        match.tournament_match.slot_id: {match.white, match.black}
        for match in Match.objects.select_related("tournament_match", "white", "black")
    }
    assert matches == {"W1-2": {players[3], players[4]}, "W2-2": {players[1], players[2]}}
