"""The SQL that starting and calling off a tournament cost, in the organiser's request (or
the sweep's): a fixed list of statements for each match started, and the emails to all
its players in one statement."""

from __future__ import annotations

import pytest

from games.models import Notification
from games.tournaments import emails, services
from games.tournaments.brackets import Format
from games.tournaments.models import Tournament, TournamentMatch
from tests.tournaments_site.helpers import make_users, open_tournament

from .conftest import count_queries

pytestmark = pytest.mark.django_db


def _signed_up(organiser, players: int, **options) -> Tournament:
    tournament = open_tournament(organiser, **options)
    for player in make_users(players):
        services.sign_up(tournament.pk, user=player)
    return tournament


def _started(tournament: Tournament) -> int:
    """The statements starting ``tournament`` makes."""
    organiser = tournament.organiser
    return count_queries(lambda: services.start_tournament(tournament.pk, user=organiser))


@pytest.mark.parametrize("format", [Format.SINGLE_ELIMINATION, Format.ROUND_ROBIN])
def test_each_match_a_start_makes_costs_a_fixed_list_of_statements(alice, format):
    small, large = _signed_up(alice, 8, format=format), _signed_up(alice, 16, format=format)

    eight, sixteen = _started(small), _started(large)

    matches = [TournamentMatch.objects.filter(tournament=t).count() for t in (small, large)]
    assert matches == [4, 8]
    # Each: BEGIN and COMMIT (savepoints inside the start's transaction); the players
    # locked; the match stored, and its link to the tournament; its opening roll; the
    # player to move's return from any time away; their turn email (which tells them the
    # match has started); the match saved; the other player's email that it has started.
    assert (sixteen - eight) / 4 == 10, (eight, sixteen)


def test_players_without_a_first_match_cost_one_statement(alice):
    # Seven players in a round robin: one sits each round out.
    odd = _signed_up(alice, 7, format=Format.ROUND_ROBIN)
    even = _signed_up(alice, 8, format=Format.ROUND_ROBIN)

    seven, eight = _started(odd), _started(even)

    assert Notification.objects.filter(key__contains=":started:").count() == 1
    # One match fewer, and the emails that the tournament has started without them.
    assert eight - seven == 10 - 1, (seven, eight)


def test_the_players_without_a_first_match_are_told_in_one_statement(alice):
    # Sixteen places and four matches for each: one bye for nine players, four for twelve.
    nine, twelve = (
        _signed_up(alice, players, format=Format.SINGLE_ELIMINATION) for players in (9, 12)
    )

    one_bye, four_byes = _started(nine), _started(twelve)

    assert [TournamentMatch.objects.filter(tournament=t).count() for t in (nine, twelve)] == [4, 4]
    assert Notification.objects.filter(key__contains=":started:").count() == 1 + 4
    assert four_byes == one_bye, (one_bye, four_byes)


@pytest.mark.parametrize("started", [False, True], ids=["open", "running"])
def test_calling_a_tournament_off_costs_the_same_however_many_signed_up(alice, started):
    small, large = _signed_up(alice, 4), _signed_up(alice, 32)
    if started:
        _started(small), _started(large)

    four, thirty_two = (
        count_queries(lambda t=t: services.cancel_tournament(t.pk, user=alice))
        for t in (small, large)
    )

    assert four == thirty_two
    assert Notification.objects.filter(key__contains=":cancelled:").count() == 4 + 32


def test_the_end_of_a_tournament_is_told_to_everyone_in_one_statement(alice):
    tournament = _signed_up(alice, 16)
    _started(tournament)
    tournament.refresh_from_db()

    statements = count_queries(lambda: emails.tournament_finished(tournament))

    # The entrants with their accounts; the organiser's (not one of them); the emails.
    assert statements == 3
    assert Notification.objects.filter(key__contains=":finished:").count() == 16 + 1
