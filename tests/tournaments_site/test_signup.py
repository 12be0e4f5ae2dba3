"""Signing up, leaving before the start, entering bots, and the settings a tournament takes."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games import services as game_services
from games.tournaments import services
from games.tournaments.models import Entry, Tournament

from .helpers import make_users, open_tournament

pytestmark = pytest.mark.django_db


def test_it_signs_a_player_up(alice, bob):
    tournament = open_tournament(alice)

    services.sign_up(tournament.pk, user=bob)

    assert list(tournament.entries.values_list("user__username", flat=True)) == ["bob"]


def test_it_refuses_sign_up_after_the_deadline(alice, bob):
    tournament = open_tournament(alice)
    Tournament.objects.filter(pk=tournament.pk).update(
        signup_deadline=timezone.now() - timedelta(minutes=1)
    )

    with pytest.raises(services.TournamentRefused, match="closed"):
        services.sign_up(tournament.pk, user=bob)

    assert not tournament.entries.exists()


def test_it_refuses_sign_up_when_full(alice, bob, charlie):
    tournament = open_tournament(alice, min_players=2, max_players=2)
    services.sign_up(tournament.pk, user=alice)
    services.sign_up(tournament.pk, user=bob)

    with pytest.raises(services.TournamentRefused, match="full"):
        services.sign_up(tournament.pk, user=charlie)

    assert tournament.entries.count() == 2


def test_it_refuses_a_duplicate_sign_up(alice, bob):
    tournament = open_tournament(alice)
    services.sign_up(tournament.pk, user=bob)

    with pytest.raises(services.TournamentRefused, match="you have already signed up"):
        services.sign_up(tournament.pk, user=bob)

    assert tournament.entries.count() == 1


def test_it_refuses_sign_up_once_started(alice, bob, charlie):
    tournament = open_tournament(alice, min_players=2)
    services.sign_up(tournament.pk, user=alice)
    services.sign_up(tournament.pk, user=bob)
    services.start_tournament(tournament.pk, user=alice)

    with pytest.raises(services.TournamentRefused, match="running"):
        services.sign_up(tournament.pk, user=charlie)


def test_it_lets_a_player_leave_before_the_start_and_come_back(alice, bob):
    tournament = open_tournament(alice)
    services.sign_up(tournament.pk, user=bob)

    services.withdraw(tournament.pk, user=bob)

    assert not tournament.entries.exists()
    services.sign_up(tournament.pk, user=bob)
    assert tournament.entries.count() == 1


def test_it_refuses_to_withdraw_a_player_who_did_not_sign_up(alice, bob):
    tournament = open_tournament(alice)

    with pytest.raises(services.TournamentRefused, match="not signed up"):
        services.withdraw(tournament.pk, user=bob)


def test_it_lets_only_the_organiser_enter_a_bot(alice, bob):
    tournament = open_tournament(alice)
    bot = game_services.bot_users()[0]

    with pytest.raises(services.NotOrganiser):
        services.add_bot(tournament.pk, user=bob, bot=bot)
    services.add_bot(tournament.pk, user=alice, bot=bot)

    assert list(tournament.entries.values_list("user", flat=True)) == [bot.pk]


def test_it_refuses_to_enter_a_person_as_a_bot(alice, bob):
    tournament = open_tournament(alice)

    with pytest.raises(services.TournamentRefused, match="bob is not one"):
        services.add_bot(tournament.pk, user=alice, bot=bob)


def test_it_lets_the_organiser_fill_the_field_with_a_bot_after_the_deadline(alice):
    tournament = open_tournament(alice)
    Tournament.objects.filter(pk=tournament.pk).update(
        signup_deadline=timezone.now() - timedelta(minutes=1)
    )

    entry = services.add_bot(tournament.pk, user=alice, bot=game_services.bot_users()[0])

    assert Entry.objects.filter(pk=entry.pk).exists()


@pytest.mark.parametrize(
    ("settings", "reason"),
    [
        ({"min_players": 5, "max_players": 4}, "minimum no more than the maximum"),
        ({"min_players": 1}, "at least 2"),
        ({"max_players": 500}, "at most 128"),
        ({"format": "ladder"}, "unknown format"),
        ({"points": 2}, "match is played to"),
        ({"signup_deadline": timezone.now() - timedelta(hours=1)}, "future"),
    ],
)
def test_it_refuses_impossible_settings(alice, settings, reason):
    with pytest.raises(services.TournamentRefused, match=reason):
        open_tournament(alice, **settings)

    assert not Tournament.objects.exists()


def test_it_lets_many_players_sign_up(alice):
    tournament = open_tournament(alice, max_players=5)
    players = make_users(5)

    for player in players:
        services.sign_up(tournament.pk, user=player)

    assert tournament.entries.count() == 5
