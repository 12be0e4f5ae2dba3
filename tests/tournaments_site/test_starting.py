"""Starting a tournament: automatically at the deadline by the sweep, or by the organiser."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core import mail

from games import services as game_services
from games.models import Match, PlayerRating
from games.tournaments import services
from games.tournaments.models import Tournament

from .helpers import make_users, open_tournament

pytestmark = pytest.mark.django_db


def _automatic(organiser, players, **options) -> Tournament:
    tournament = open_tournament(organiser, start_mode=Tournament.StartMode.AUTOMATIC, **options)
    for player in players:
        services.sign_up(tournament.pk, user=player)
    return tournament


def test_it_starts_an_automatic_tournament_at_its_deadline(alice):
    tournament = _automatic(alice, make_users(4))
    deadline = tournament.signup_deadline

    before = services.start_due_tournaments(now=deadline - timedelta(seconds=1))
    after = services.start_due_tournaments(now=deadline + timedelta(seconds=1))

    assert before == {"started": 0, "cancelled": 0}
    assert after == {"started": 1, "cancelled": 0}
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING
    assert tournament.started_at == deadline + timedelta(seconds=1)
    assert Match.objects.filter(tournament_match__tournament=tournament).count() == 2
    assert sorted(tournament.entries.values_list("seed", flat=True)) == [1, 2, 3, 4]


def test_it_starts_a_tournament_only_once(alice):
    tournament = _automatic(alice, make_users(4))
    later = tournament.signup_deadline + timedelta(hours=1)
    services.start_due_tournaments(now=later)

    again = services.start_due_tournaments(now=later)

    assert again == {"started": 0, "cancelled": 0}
    assert Match.objects.count() == 2


def test_it_cancels_an_automatic_tournament_with_too_few_players_at_the_deadline(
    alice, django_capture_on_commit_callbacks
):
    players = make_users(2)
    tournament = _automatic(alice, players, min_players=3)

    with django_capture_on_commit_callbacks(execute=True):
        done = services.start_due_tournaments(now=tournament.signup_deadline)

    assert done == {"started": 0, "cancelled": 1}
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.CANCELLED
    assert not Match.objects.exists()
    assert sorted(message.to[0] for message in mail.outbox) == sorted(
        [alice.email, *(player.email for player in players)]
    )
    assert "too few players" in mail.outbox[0].body


def test_it_leaves_a_manual_tournament_to_its_organiser(alice):
    tournament = open_tournament(alice, start_mode=Tournament.StartMode.MANUAL)
    for player in make_users(4):
        services.sign_up(tournament.pk, user=player)

    done = services.start_due_tournaments(now=tournament.signup_deadline + timedelta(days=1))

    assert done == {"started": 0, "cancelled": 0}
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.OPEN


def test_it_lets_the_organiser_start_early(alice):
    tournament = _automatic(alice, make_users(3))

    services.start_tournament(tournament.pk, user=alice)

    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING
    assert services.start_due_tournaments(now=tournament.signup_deadline)["started"] == 0


def test_it_refuses_to_start_with_fewer_than_the_minimum(alice):
    tournament = _automatic(alice, make_users(3), min_players=4)

    with pytest.raises(services.TournamentRefused, match="at least 4"):
        services.start_tournament(tournament.pk, user=alice)

    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.OPEN


def test_it_lets_only_the_organiser_start_or_cancel(alice, bob):
    tournament = _automatic(alice, make_users(4))

    with pytest.raises(services.NotOrganiser):
        services.start_tournament(tournament.pk, user=bob)
    with pytest.raises(services.NotOrganiser):
        services.cancel_tournament(tournament.pk, user=bob)

    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.OPEN


def test_it_caps_swiss_rounds_at_one_less_than_the_players(alice):
    tournament = _automatic(alice, make_users(4), format="swiss", swiss_rounds=9)

    services.start_tournament(tournament.pk, user=alice)

    tournament.refresh_from_db()
    assert tournament.draw().total_rounds == 3


def test_it_refuses_a_swiss_of_more_than_fifteen_rounds(alice):
    with pytest.raises(services.TournamentRefused, match="at most 15 rounds; for everyone"):
        open_tournament(alice, format="swiss", swiss_rounds=16)


def test_a_swiss_opened_for_more_than_fifteen_rounds_starts_with_fifteen(alice):
    # Opened before there was a limit: its rounds are cut at the start, as to the players.
    tournament = _automatic(alice, make_users(20), format="swiss", max_players=20)
    Tournament.objects.filter(pk=tournament.pk).update(swiss_rounds=19)

    services.start_tournament(tournament.pk, user=alice)

    tournament.refresh_from_db()
    assert tournament.draw().total_rounds == 15


@pytest.mark.parametrize("signed_up", [1, 2, 3])
def test_what_the_pages_foretell_is_what_the_sweep_does(alice, signed_up):
    # The pages say "to be cancelled" from Tournament.will_be_cancelled: it must agree
    # with the sweep, which is the one that acts.
    tournament = _automatic(alice, make_users(signed_up), min_players=2)
    Tournament.objects.filter(pk=tournament.pk).update(
        signup_deadline=tournament.signup_deadline - timedelta(days=30)
    )
    tournament.refresh_from_db()
    foretold = tournament.will_be_cancelled(tournament.entries.count())

    done = services.start_due_tournaments()

    assert done == {"started": int(not foretold), "cancelled": int(foretold)}
    assert foretold == (signed_up < 2)
    tournament.refresh_from_db()
    assert not tournament.will_be_cancelled(signed_up)  # no longer open


def test_only_an_open_automatic_tournament_past_its_deadline_will_be_cancelled(alice):
    manual = open_tournament(alice, start_mode=Tournament.StartMode.MANUAL, min_players=2)
    automatic = _automatic(alice, [], min_players=2)

    for tournament in (manual, automatic):
        tournament.signup_deadline = tournament.signup_deadline - timedelta(days=30)

    assert not manual.will_be_cancelled(1)  # its organiser decides
    assert automatic.will_be_cancelled(1)
    assert not automatic.will_be_cancelled(2)
    automatic.signup_deadline += timedelta(days=60)
    assert not automatic.will_be_cancelled(1)  # sign-up still open


def test_a_round_locks_all_its_players_in_one_order_before_its_matches_start(alice, monkeypatch):
    # Seeded against their ids' order, so that the first match (seeds 1 and 8) and the
    # next (2 and 7) would lock p8 before p2 taken match by match: with another
    # transaction locking p2 and then p8, say an accept between them, each could hold a
    # row the other waits for.
    players = make_users(8)
    for seed, player in enumerate(reversed(players)):
        PlayerRating.objects.create(user=player, variant="american", rating=1900 - 10 * seed)
    tournament = open_tournament(alice)
    for player in players:
        services.sign_up(tournament.pk, user=player)
    locked: list[int] = []
    lock_players = game_services.lock_players

    def spy(*users):
        locked.extend(sorted(u if isinstance(u, int) else u.pk for u in users if u is not None))
        return lock_players(*users)

    monkeypatch.setattr(game_services, "lock_players", spy)

    services.start_tournament(tournament.pk, user=alice)

    ids = {player.pk for player in players}
    first_seen = list(dict.fromkeys(pk for pk in locked if pk in ids))
    assert first_seen == sorted(ids)
    assert Match.objects.filter(tournament_match__tournament=tournament).count() == 4
