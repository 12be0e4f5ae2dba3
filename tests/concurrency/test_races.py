"""Racing requests against real PostgreSQL: each turn is applied exactly once.

Two threads (two database connections) submit at the same moment; the match row lock,
the segment number check and the unique (match, number) constraint must leave exactly
one applied and the other rejected with the position unchanged.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from datetime import timedelta

import pytest
from django.core import mail
from django.db import connection
from django.db.models import Q
from django.utils import timezone

from games import away, notifications, services, tally
from games.models import Challenge, DiceTally, Match, Notification, Segment
from games.services import TurnAction, TurnError
from tests.matches import opened_by_white

from .locks import all_waiting_on

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def race(*calls: Callable[[], object]) -> list[object]:
    """Run the calls in threads released together; return each result or exception."""
    barrier = threading.Barrier(len(calls))
    results: list[object] = [None] * len(calls)

    def run(index: int, call: Callable[[], object]) -> None:
        try:
            barrier.wait()
            results[index] = call()
        except Exception as error:  # the outcome under test
            results[index] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return results


@pytest.fixture
def match(postgres_url, alice, bob) -> Match:
    return opened_by_white(alice, bob)


def _submit(match: Match, user, play: str) -> Callable[[], object]:
    return lambda: services.submit_segment(
        match.pk, user=user, action=TurnAction(segment=1, play=play)
    )


def test_the_same_segment_sent_twice_at_once_is_applied_once(match, alice):
    results = race(_submit(match, alice, "in/22 in/19"), _submit(match, alice, "in/22 in/19"))

    errors = [r for r in results if isinstance(r, Exception)]
    assert len(errors) == 1 and isinstance(errors[0], TurnError) and errors[0].status == 409
    assert Segment.objects.filter(match=match).count() == 2
    assert Match.objects.get(pk=match.pk).segment_count == 2


def test_two_different_plays_racing_one_wins_and_the_other_changes_nothing(match, alice):
    results = race(_submit(match, alice, "in/22 in/19"), _submit(match, alice, "in/19 19/16"))

    winners = [r for r in results if isinstance(r, Match)]
    losers = [r for r in results if isinstance(r, TurnError)]
    assert len(winners) == len(losers) == 1 and losers[0].status == 409
    stored = Segment.objects.get(match=match, number=2)
    assert stored.play in {"in/22 in/19", "in/19 19/16"}
    assert Match.objects.get(pk=match.pk).position == stored.position


def test_rolls_stored_at_once_in_two_matches_of_one_player_are_all_counted(
    postgres_url, alice, bob, charlie
):
    first, second = opened_by_white(alice, bob), opened_by_white(alice, charlie)

    results = race(_submit(first, alice, "in/22 in/19"), _submit(second, alice, "in/22 in/19"))

    assert all(isinstance(result, Match) for result in results), results
    # Her 6-3 in each, and any roll of hers played for her since.
    rolled = Segment.objects.filter(
        Q(match__white=alice, player="white") | Q(match__black=alice, player="black"),
        kind__in=("roll", "acey_deucey"),
    )
    tally = DiceTally.objects.get(user=alice)
    assert tally.rolls == rolled.count() >= 2
    assert tally.sixes >= 2 and tally.threes >= 2


@pytest.mark.parametrize("attempt", range(3))
def test_a_tally_recounted_while_a_turn_stores_rolls_counts_them_once(
    postgres_url, alice, bob, attempt
):
    match = opened_by_white(alice, bob)
    DiceTally.objects.create(user=alice, rolls=7)  # wrong: the recount is to correct it

    results = race(_submit(match, alice, "in/22 in/19"), lambda: tally.recount(alice))

    assert results[0] == Match.objects.get(pk=match.pk) and results[1] is True, results
    kept = DiceTally.objects.get(user=alice)
    assert {field: getattr(kept, field) for field in tally.FIELDS} == tally.rolls_of(alice)


def test_accepting_one_challenge_twice_at_once_makes_one_match(postgres_url, alice, bob, charlie):
    challenge = services.create_challenge(alice)

    results = race(
        lambda: services.accept_challenge(challenge.pk, user=bob),
        lambda: services.accept_challenge(challenge.pk, user=charlie),
    )

    assert sum(isinstance(r, Match) for r in results) == 1
    assert Match.objects.count() == 1
    assert Challenge.objects.get().status == "accepted"


@pytest.mark.parametrize("attempt", range(4))
def test_an_accept_racing_the_expiry_sweep_finds_it_expired_whichever_goes_first(
    postgres_url, alice, bob, attempt
):
    # Past its days, it has expired whether or not the sweep has marked it so: the accept
    # is refused, and the two, taking the same locks, neither deadlock nor both act.
    challenge = services.create_challenge(alice)
    Challenge.objects.filter(pk=challenge.pk).update(created_at=timezone.now() - timedelta(days=31))

    accepted, expired = race(
        lambda: services.accept_challenge(challenge.pk, user=bob),
        services.expire_challenges,
    )

    challenge.refresh_from_db()
    assert isinstance(accepted, TurnError) and "has expired" in str(accepted), accepted
    assert (challenge.status, expired, Match.objects.count()) == ("expired", 1, 0)


def test_two_expiry_sweeps_at_once_expire_a_challenge_once_and_email_once(postgres_url, alice):
    challenge = services.create_challenge(alice)
    Challenge.objects.filter(pk=challenge.pk).update(created_at=timezone.now() - timedelta(days=31))

    results = race(services.expire_challenges, services.expire_challenges)

    assert sorted(results) == [0, 1]
    assert Notification.objects.filter(key=f"expired:{challenge.pk}").count() == 1


def test_resign_racing_a_move_leaves_a_consistent_match(match, alice, bob):
    results = race(
        _submit(match, alice, "in/22 in/19"),
        lambda: services.resign(match.pk, user=bob),
    )

    match.refresh_from_db()
    assert match.status == "finished" and match.winner == alice
    moved = isinstance(results[0], Match)
    assert Segment.objects.filter(match=match).count() == (2 if moved else 1)


def test_two_players_racing_for_the_last_place_in_a_tournament(postgres_url, alice, bob, charlie):
    from datetime import timedelta

    from django.utils import timezone

    from games.tournaments.models import Entry
    from games.tournaments.services import create_tournament, sign_up

    tournament = create_tournament(
        alice,
        name="Two seats",
        signup_deadline=timezone.now() + timedelta(days=1),
        min_players=2,
        max_players=2,
    )
    sign_up(tournament.pk, user=alice)

    results = race(
        lambda: sign_up(tournament.pk, user=bob),
        lambda: sign_up(tournament.pk, user=charlie),
    )

    assert sum(isinstance(r, Entry) for r in results) == 1
    assert sum("full" in str(r) for r in results if isinstance(r, Exception)) == 1
    assert Entry.objects.filter(tournament=tournament).count() == 2


@pytest.mark.parametrize("attempt", range(4))
def test_going_away_racing_a_turn_that_passes_to_the_player_stops_their_clock(
    match, alice, bob, attempt
):
    back = timezone.now() + timedelta(days=4)

    results = race(_submit(match, alice, "in/22 in/19"), lambda: away.go_away(bob, until=back))

    assert not [r for r in results if isinstance(r, Exception)]
    match.refresh_from_db()
    assert match.to_move == bob
    # Whichever went first, bob's two days run from his return (give or take the instant
    # between the two); a turn that read him as not away would end them two days sooner.
    assert abs(match.deadline - (back + timedelta(days=2))) < timedelta(seconds=5)


@pytest.mark.parametrize("attempt", range(3))
def test_going_away_racing_a_new_match_stops_its_clock(postgres_url, alice, charlie, attempt):
    back = timezone.now() + timedelta(days=4)
    started: list[Match] = []

    results = race(
        lambda: started.append(opened_by_white(alice, charlie)),  # alice to move at once
        lambda: away.go_away(alice, until=back),
    )

    assert not [r for r in results if isinstance(r, Exception)]
    [match] = started
    match.refresh_from_db()
    assert abs(match.deadline - (back + timedelta(days=2))) < timedelta(seconds=5)


@pytest.mark.parametrize("attempt", range(3))
def test_coming_back_racing_a_new_match_leaves_it_its_whole_clock(
    postgres_url, alice, charlie, attempt
):
    away.go_away(alice, until=timezone.now() + timedelta(days=10))
    started: list[Match] = []

    results = race(
        lambda: started.append(opened_by_white(alice, charlie)),
        lambda: away.come_back(alice),
    )

    assert not [r for r in results if isinstance(r, Exception)]
    [match] = started
    match.refresh_from_db()
    # Her two days run from about now: not from her old return, nor cut short by it.
    assert abs(match.deadline - (timezone.now() + timedelta(days=2))) < timedelta(seconds=10)


@pytest.mark.parametrize("second", ["bob", "alice"])
def test_two_rematch_offers_at_once_make_one_offer_or_one_match(postgres_url, alice, bob, second):
    finished = services.resign(opened_by_white(alice, bob).pk, user=alice)
    offerer = {"alice": alice, "bob": bob}[second]

    results = race(
        lambda: services.offer_rematch(finished, user=alice),
        lambda: services.offer_rematch(finished, user=offerer),
    )

    assert not [r for r in results if isinstance(r, Exception)], results
    if second == "bob":  # one each: the later accepts the earlier's
        assert Match.objects.exclude(pk=finished.pk).count() == 1
        assert not Challenge.objects.filter(status="open").exists()
    else:  # pressed twice: one offer
        assert Challenge.objects.filter(status="open").count() == 1


def test_offering_a_rematch_back_racing_accepting_the_offer_makes_one_match(
    postgres_url, alice, bob
):
    # Alice, in two tabs, offers a rematch back and accepts Bob's offer at the same moment:
    # both paths lock the players before the challenge, so neither deadlocks the other.
    finished = services.resign(opened_by_white(alice, bob).pk, user=alice)
    theirs = services.offer_rematch(finished, user=bob)

    results = race(
        lambda: services.offer_rematch(finished, user=alice),
        lambda: services.accept_challenge(theirs.pk, user=alice),
    )

    errors = [r for r in results if isinstance(r, Exception)]
    assert all(isinstance(error, services.StaleSegment) for error in errors), errors
    assert Match.objects.exclude(pk=finished.pk).count() == 1


def test_a_decline_and_an_accept_of_one_challenge_waiting_in_turn_do_not_deadlock(
    postgres_url, alice, bob
):
    # The challenge's row is held while the decline, then the accept, come to wait: the
    # decline queued first goes first. Had it locked the challenge before the players, as
    # the accept (holding them by then) waited for the challenge, the email it stores (its
    # challenger's row) would wait for the accept: a deadlock, one of the two aborted.
    challenge = services.create_challenge(alice, opponent=bob)
    results = all_waiting_on(
        lambda: Challenge.objects.select_for_update().get(pk=challenge.pk),
        lambda: services.decline_challenge(challenge.pk, user=bob),
        lambda: services.accept_challenge(challenge.pk, user=bob),
        in_turn=True,
    )

    declined, accepted = results
    challenge.refresh_from_db()
    assert isinstance(declined, Challenge), declined
    assert isinstance(accepted, TurnError) and "already been declined" in str(accepted), accepted
    assert (challenge.status, Match.objects.count()) == ("declined", 0)
    assert Notification.objects.filter(key=f"declined:{challenge.pk}").count() == 1


@pytest.mark.parametrize("attempt", range(3))
def test_two_turn_email_sweeps_at_once_send_each_email_once_and_log_no_clash(
    postgres_url, alice, bob, caplog, attempt
):
    # Beat's sweep and a woken one, in two worker processes: both find the same emails due.
    for n in range(30):
        Notification.objects.create(
            user=alice if n % 2 else bob, kind="turn", key=f"turn:{n}", subject=f"{n}", body="."
        )
    caplog.set_level(logging.INFO, logger="games.notifications")

    results = race(notifications.send_due_turn_emails, notifications.send_due_turn_emails)

    assert sum(results) == 30  # each sent by one sweep or the other
    assert sorted(int(message.subject) for message in mail.outbox) == list(range(30))
    assert set(Notification.objects.values_list("attempts", flat=True)) == {1}
    said = [record.getMessage() for record in caplog.records]
    assert [line for line in said if "not sent" in line] == []
    assert len([line for line in said if " sent, attempt 1" in line]) == 30
