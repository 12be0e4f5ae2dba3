"""The hook ``match_finished``: results reach the draw, next matches start at once,
withdrawals and timeouts, cancelled tournaments."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core import mail

from games import services as game_services
from games.models import Match, Notification
from games.tournaments import services
from games.tournaments.brackets import BYE, Format
from games.tournaments.models import Entry, Tournament, TournamentMatch

from .helpers import (
    active_matches,
    lose,
    make_users,
    open_tournament,
    seeded_tournament,
    started_tournament,
)

pytestmark = pytest.mark.django_db


def _slot_match(tournament: Tournament, slot_id: str) -> Match:
    return Match.objects.select_related("white", "black").get(
        tournament_match__tournament=tournament, tournament_match__slot_id=slot_id
    )


def test_it_ignores_a_match_that_is_not_in_a_tournament(alice, bob):
    match = game_services.start_match(
        white=alice, black=bob, variant="american", points=1, days_per_move=2
    )

    finished = game_services.resign(match.pk, user=bob)
    services.match_finished(finished)

    assert not TournamentMatch.objects.exists()
    assert finished.winner == alice


def test_it_reports_a_result_once_however_often_it_hears_of_it(alice):
    players = make_users(4)
    tournament = started_tournament(alice, players, format=Format.SINGLE_ELIMINATION)
    match = _slot_match(tournament, "W1-1")
    finished = lose(match, match.white)
    tournament.refresh_from_db()
    state = tournament.state

    services.match_finished(finished)
    services.match_finished(finished)

    tournament.refresh_from_db()
    assert tournament.state == state
    assert tournament.draw().match("W1-1").winner == match.black_id


def test_it_starts_the_next_elimination_match_without_waiting_for_the_round(alice):
    players = make_users(8)
    tournament = started_tournament(alice, players, format=Format.SINGLE_ELIMINATION)
    first, second = _slot_match(tournament, "W1-1"), _slot_match(tournament, "W1-2")

    lose(first, first.black)
    lose(second, second.white)

    final_of_half = _slot_match(tournament, "W2-1")
    assert {final_of_half.white, final_of_half.black} == {first.white, second.black}
    assert _slot_match(tournament, "W1-3").is_active
    assert _slot_match(tournament, "W1-4").is_active


def test_it_opens_a_round_robin_round_when_the_last_one_is_complete(alice):
    players = make_users(4)
    tournament = started_tournament(alice, players, format=Format.ROUND_ROBIN)
    first, second = active_matches(tournament)

    lose(first, first.white)
    assert active_matches(tournament) == [second]
    lose(second, second.white)

    slots = {match.tournament_match.slot_id for match in active_matches(tournament)}
    assert slots == {"R2-1", "R2-2"}


def test_it_reports_the_score_in_the_order_of_the_slots_players(alice):
    players = make_users(2)
    tournament = started_tournament(alice, players, format=Format.SINGLE_ELIMINATION, points=3)
    match = _slot_match(tournament, "W1-1")

    finished = lose(match, match.white)

    tournament.refresh_from_db()
    slot = tournament.draw().match("W1-1")
    expected = {finished.white_id: finished.score_white, finished.black_id: finished.score_black}
    assert slot.points == (expected[slot.players[0]], expected[slot.players[1]])
    assert max(slot.points) > 0


def test_it_records_the_champion_when_the_last_match_ends(alice):
    players = make_users(2)
    tournament = started_tournament(alice, players, format=Format.SINGLE_ELIMINATION)
    match = _slot_match(tournament, "W1-1")

    lose(match, match.black)

    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    assert tournament.champion == match.white
    assert tournament.finished_at is not None


def test_it_stops_advancing_a_cancelled_tournament(alice):
    players = make_users(4)
    tournament = started_tournament(alice, players, format=Format.SINGLE_ELIMINATION)
    services.cancel_tournament(tournament.pk, user=alice)
    tournament.refresh_from_db()
    state = tournament.state

    for match in active_matches(tournament):
        lose(match, match.white)

    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.CANCELLED
    assert tournament.state == state
    assert Match.objects.count() == 2


def test_it_refuses_to_cancel_a_finished_tournament(alice):
    players = make_users(2)
    tournament = started_tournament(alice, players, format=Format.SINGLE_ELIMINATION)
    match = _slot_match(tournament, "W1-1")
    lose(match, match.black)

    with pytest.raises(services.TournamentRefused, match="already finished"):
        services.cancel_tournament(tournament.pk, user=alice)


def test_it_resigns_the_current_match_of_a_player_who_withdraws(alice):
    players = make_users(4)
    tournament = started_tournament(alice, players, format=Format.SINGLE_ELIMINATION)
    match = _slot_match(tournament, "W1-1")
    leaver, stayer = match.white, match.black

    services.withdraw(tournament.pk, user=leaver)

    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert match.winner == stayer
    assert match.ending == Match.Ending.RESIGNATION
    assert Entry.objects.get(tournament=tournament, user=leaver).withdrawn
    tournament.refresh_from_db()
    assert leaver.pk in tournament.draw().withdrawn


def test_it_gives_walkovers_to_a_withdrawn_players_later_opponents(alice):
    players = make_users(4)
    tournament = started_tournament(alice, players, format=Format.ROUND_ROBIN)
    leaver = players[0]
    services.withdraw(tournament.pk, user=leaver)

    for _ in range(3):
        for match in active_matches(tournament):
            lose(match, match.black)

    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    draw = tournament.draw()
    theirs = [slot for slot in draw.matches() if leaver.pk in slot.players]
    assert [slot.walkover for slot in theirs].count(True) == 2  # the one resigned was played
    assert all(slot.winner != leaver.pk for slot in theirs)
    assert Match.objects.involving(leaver).count() == 1
    assert draw.standings()[-1].player == leaver.pk


def test_it_refuses_a_second_withdrawal(alice):
    players = make_users(4)
    tournament = started_tournament(alice, players, format=Format.SWISS)
    services.withdraw(tournament.pk, user=players[0])

    with pytest.raises(services.TournamentRefused, match="already withdrawn"):
        services.withdraw(tournament.pk, user=players[0])


def test_it_refuses_withdrawal_from_someone_not_playing(alice, bob):
    tournament = started_tournament(alice, make_users(4), format=Format.SWISS)

    with pytest.raises(services.TournamentRefused, match="not playing"):
        services.withdraw(tournament.pk, user=bob)


@pytest.mark.parametrize("format", [Format.SINGLE_ELIMINATION, Format.DOUBLE_ELIMINATION])
def test_it_refuses_withdrawal_from_a_player_knocked_out(alice, format):
    *_, three, four = players = make_users(4)
    tournament = seeded_tournament(alice, players, format=format)
    lose(_slot_match(tournament, "W1-1"), four)  # one v four
    if format == Format.DOUBLE_ELIMINATION:
        lose(_slot_match(tournament, "W1-2"), three)  # two v three
        lose(_slot_match(tournament, "L1-1"), four)  # four v three: four's second loss
    tournament.refresh_from_db()
    state = tournament.state

    with pytest.raises(services.TournamentRefused, match="out of this tournament already"):
        services.withdraw(tournament.pk, user=four)

    tournament.refresh_from_db()
    assert tournament.state == state
    assert not Entry.objects.get(tournament=tournament, user=four).withdrawn


@pytest.mark.parametrize("format", [Format.ROUND_ROBIN, Format.SWISS])
def test_it_withdraws_a_round_robin_or_swiss_player_who_loses_on_time(alice, format):
    players = make_users(4)
    tournament = started_tournament(alice, players, format=format)
    match = active_matches(tournament)[0]
    sleeper = match.to_move

    assert game_services.award_timeout(match.pk, now=match.deadline + timedelta(seconds=1))
    match.refresh_from_db()
    services.match_finished(match)  # a no-op once finish_match calls it

    tournament.refresh_from_db()
    draw = tournament.draw()
    assert draw.match(match.tournament_match.slot_id).winner == match.opponent_of(sleeper).pk
    assert sleeper.pk in draw.withdrawn
    assert Entry.objects.get(tournament=tournament, user=sleeper).withdrawn
    later = [slot for slot in draw.matches() if sleeper.pk in slot.players and slot.round > 1]
    assert all(slot.walkover and slot.winner != sleeper.pk for slot in later if slot.is_decided)


@pytest.mark.parametrize("format", [Format.SINGLE_ELIMINATION, Format.ROUND_ROBIN])
def test_a_loss_on_time_that_ends_the_tournament_is_no_withdrawal(alice, format):
    tournament = started_tournament(alice, make_users(3), format=format)
    while len([slot for slot in tournament.draw().matches() if not slot.is_decided]) > 1:
        match = active_matches(tournament)[0]
        lose(match, match.white)
        tournament.refresh_from_db()
    [last] = active_matches(tournament)
    sleeper = last.to_move

    game_services.sweep_deadlines(now=last.deadline + timedelta(seconds=1))

    tournament.refresh_from_db()
    draw = tournament.draw()
    assert tournament.status == Tournament.Status.FINISHED
    assert draw.match(last.tournament_match.slot_id).winner == last.opponent_of(sleeper).pk
    assert not Entry.objects.get(tournament=tournament, user=sleeper).withdrawn
    assert sleeper.pk not in draw.withdrawn
    assert not Notification.objects.filter(key__contains=":withdrawn:").exists()


def test_a_loss_on_time_knocks_a_single_elimination_player_out_as_any_loss_does(alice):
    players = make_users(4)
    tournament = seeded_tournament(alice, players, format=Format.SINGLE_ELIMINATION)
    semi_final = _slot_match(tournament, "W1-1")  # one v four
    sleeper = semi_final.to_move

    _overdue(semi_final)

    tournament.refresh_from_db()
    draw = tournament.draw()
    assert draw.match("W1-1").winner == semi_final.opponent_of(sleeper).pk
    assert not draw.in_contention(sleeper.pk)
    # Knocked out, not withdrawn: the bracket and the placings say nothing of a withdrawal.
    assert sleeper.pk not in draw.withdrawn
    assert not Entry.objects.get(tournament=tournament, user=sleeper).withdrawn
    assert not next(s for s in draw.standings() if s.player == sleeper.pk).withdrawn
    assert not Notification.objects.filter(key__contains=":withdrawn:").exists()


def test_a_first_loss_on_time_in_double_elimination_drops_the_player_to_the_losers_bracket(
    alice,
):
    _, _, three, _ = players = make_users(4)
    tournament = seeded_tournament(alice, players, format=Format.DOUBLE_ELIMINATION)
    first = _slot_match(tournament, "W1-1")  # one v four
    sleeper = first.to_move
    _overdue(first)

    lose(_slot_match(tournament, "W1-2"), three)  # three drops to meet the sleeper

    tournament.refresh_from_db()
    draw = tournament.draw()
    assert sleeper.pk not in draw.withdrawn
    assert not Entry.objects.get(tournament=tournament, user=sleeper).withdrawn
    assert draw.match("L1-1").players == (sleeper.pk, three.pk)
    assert not draw.match("L1-1").is_decided
    losers_match = _slot_match(tournament, "L1-1")
    assert {losers_match.white, losers_match.black} == {sleeper, three}
    assert losers_match.status == Match.Status.ACTIVE


def _to_move(match: Match, player) -> Match:
    """``match`` read again with ``player`` to move in it."""
    Match.objects.filter(pk=match.pk).update(to_move=player)
    match.refresh_from_db()
    return match


def _overdue(match: Match) -> None:
    """The player to move in ``match`` lets the deadline pass."""
    assert game_services.award_timeout(match.pk, now=match.deadline + timedelta(seconds=1))


@pytest.mark.parametrize("how", ["withdraws", "loses on time"])
def test_two_withdrawn_players_who_would_meet_next_both_lose_that_match(alice, how):
    one, _, three, four = players = make_users(4)
    tournament = seeded_tournament(alice, players, format=Format.ROUND_ROBIN)
    # Round 1: 1 v 4 and 2 v 3; round 2: 1 v 3 and 4 v 2. The second to leave plays the
    # last match of round 1; the first, their opponent in round 2, leaves before it ends.
    last = _slot_match(tournament, "R1-2")
    second = last.to_move
    first = one if second == three else four
    services.withdraw(tournament.pk, user=first)  # resigns R1-1

    if how == "withdraws":
        services.withdraw(tournament.pk, user=second)
    else:
        _overdue(last)

    tournament.refresh_from_db()
    draw = tournament.draw()
    assert draw.withdrawn == (first.pk, second.pk)
    [between] = [slot for slot in draw.matches() if set(slot.players) == {first.pk, second.pk}]
    assert (between.round, between.winner, between.walkover) == (2, BYE, True)
    assert all(slot.winner not in draw.withdrawn for slot in draw.walkovers())
    # The other two play their round 2 match.
    [match] = active_matches(tournament)
    assert {match.white, match.black} == set(players) - {first, second}


def test_a_round_robin_loss_on_time_with_only_walkovers_left_is_no_withdrawal(alice):
    one, two, _, four = players = make_users(4)
    tournament = seeded_tournament(alice, players, format=Format.ROUND_ROBIN)
    # Round 1: 1 v 4 and 2 v 3; round 2: 1 v 3 and 4 v 2; round 3: 1 v 2 and 3 v 4. Two
    # leaves in round 1, so one's only match after round 2 is a walkover against two.
    services.withdraw(tournament.pk, user=two)  # resigns R1-2
    lose(_slot_match(tournament, "R1-1"), four)
    overdue = _slot_match(tournament, "R2-1")  # one v three
    overdue = _to_move(overdue, one)
    assert not services.timeout_withdraws(overdue)

    _overdue(overdue)

    tournament.refresh_from_db()
    draw = tournament.draw()
    assert draw.withdrawn == (two.pk,)
    assert not Entry.objects.get(tournament=tournament, user=one).withdrawn
    walkover = draw.match("R3-1")
    assert (walkover.winner, walkover.walkover) == (one.pk, True)
    assert not Notification.objects.filter(key__contains=":withdrawn:").exists()


def test_a_swiss_loss_on_time_keeps_a_player_the_next_round_cannot_be_paired_without(alice):
    one, two, three, four = players = make_users(4)
    tournament = seeded_tournament(alice, players, format=Format.SWISS, swiss_rounds=3)
    # Round 1: 1 v 3 and 2 v 4; four and one win, and round 2 is 1 v 4 and 2 v 3. One
    # leaves: without three too, two and four, who have met, would be all that is left.
    lose(_slot_match(tournament, "R1-1"), three)
    lose(_slot_match(tournament, "R1-2"), two)
    services.withdraw(tournament.pk, user=one)  # resigns R2-1
    overdue = _slot_match(tournament, "R2-2")
    assert {overdue.white, overdue.black} == {two, three}
    overdue = _to_move(overdue, three)
    assert not services.timeout_withdraws(overdue)

    _overdue(overdue)

    tournament.refresh_from_db()
    draw = tournament.draw()
    assert tournament.status == Tournament.Status.RUNNING
    assert draw.withdrawn == (one.pk,)
    assert not Entry.objects.get(tournament=tournament, user=three).withdrawn
    # Round 3: three v four, and two has the bye.
    assert [slot.players for slot in draw.matches() if slot.round == 3] == [
        (four.pk, three.pk),
        (two.pk, BYE),
    ]
    assert not Notification.objects.filter(key__contains=":withdrawn:").exists()


def test_a_swiss_loss_on_time_withdraws_a_player_the_next_round_can_be_paired_only_without(
    alice,
):
    one, two, three, four, five, six = players = make_users(6)
    tournament = seeded_tournament(alice, players, format=Format.SWISS, swiss_rounds=4)
    # Round 1: 1 v 4, 2 v 5, 3 v 6; four leaves. Round 2: 1 v 2, 3 v 5, 6's bye; two
    # leaves. Round 3: 1 v 3 and 6 v 5. Three has met five, six and now one: kept, the
    # fourth round could not be paired and the tournament would end for everyone.
    services.withdraw(tournament.pk, user=four)  # resigns R1-1
    lose(_slot_match(tournament, "R1-2"), five)
    lose(_slot_match(tournament, "R1-3"), six)
    services.withdraw(tournament.pk, user=two)  # resigns R2-1
    lose(_slot_match(tournament, "R2-2"), five)
    overdue = _slot_match(tournament, "R3-1")
    assert {overdue.white, overdue.black} == {one, three}
    overdue = _to_move(overdue, three)
    assert services.timeout_withdraws(overdue)

    _overdue(overdue)

    tournament.refresh_from_db()
    draw = tournament.draw()
    assert Entry.objects.get(tournament=tournament, user=three).withdrawn
    lose(_slot_match(tournament, "R3-2"), five)
    tournament.refresh_from_db()
    draw = tournament.draw()
    assert tournament.status == Tournament.Status.RUNNING
    assert [slot.players for slot in draw.matches() if slot.round == 4] == [
        (one.pk, six.pk),
        (five.pk, BYE),
    ]


def test_a_swiss_player_who_withdraws_in_the_last_match_of_a_round_gets_no_bye(alice):
    players = make_users(5)
    tournament = seeded_tournament(alice, players, format=Format.SWISS, swiss_rounds=3)
    # Round 1: 1 v 3, 2 v 4, and 5 has the bye.
    lose(_slot_match(tournament, "R1-1"), players[2])
    leaver = players[3]

    services.withdraw(tournament.pk, user=leaver)  # resigns R1-2, the last match of round 1

    tournament.refresh_from_db()
    draw = tournament.draw()
    round_two = draw.rounds()[1].matches
    assert all(leaver.pk not in slot.players for slot in round_two)
    assert not any(slot.is_bye for slot in round_two)  # four players left: two matches
    assert len(active_matches(tournament)) == 2
    standing = next(s for s in draw.standings() if s.player == leaver.pk)
    assert (standing.played, standing.byes, standing.score) == (1, 0, 0)


def test_it_plays_a_tournament_with_a_bot(alice, bob, django_capture_on_commit_callbacks):
    bot = game_services.bot_users()[0]
    tournament = open_tournament(alice, min_players=2)
    services.sign_up(tournament.pk, user=bob)
    services.add_bot(tournament.pk, user=alice, bot=bot)

    with django_capture_on_commit_callbacks(execute=True):
        services.start_tournament(tournament.pk, user=alice)

    match = _slot_match(tournament, "W1-1")
    assert {match.white, match.black} == {bob, bot}
    assert match.to_move == bob  # the bot played its turn, if it had the first one
    assert [message.to for message in mail.outbox if "has started" in message.subject] == [
        [bob.email]
    ]
    lose(match, bob)
    tournament.refresh_from_db()
    assert tournament.champion == bot


def test_a_withdrawn_player_who_drops_onto_a_losers_bracket_bye_goes_out_there(alice):
    _, two, three, _, five = players = make_users(5)
    tournament = seeded_tournament(alice, players, format=Format.DOUBLE_ELIMINATION)
    # Seeds 1, 2 and 3 have first-round byes, so L1-2 is bye against bye, and whoever loses
    # W2-1 (one v four, once five loses W1-2) meets nobody in L2-2.
    lose(_slot_match(tournament, "W1-2"), five)  # five has L1-1's bye
    semi_final = _slot_match(tournament, "W2-1")
    leaver, stayer = semi_final.to_move, semi_final.opponent_of(semi_final.to_move)
    services.withdraw(tournament.pk, user=leaver)  # resigns W2-1

    lose(_slot_match(tournament, "W2-2"), three)
    lose(_slot_match(tournament, "L2-1"), three)  # five goes on, to meet the leaver

    tournament.refresh_from_db()
    draw = tournament.draw()
    dropped = draw.match("L2-2")
    assert dropped.players == (leaver.pk, BYE)
    assert (dropped.winner, dropped.walkover) == (BYE, False)
    assert draw.match("W2-1").winner == stayer.pk
    # Five, who was to meet the leaver next, has the bye: no walkover over a player who
    # had already gone, and no bye for them either.
    assert draw.match("L3-1").players == (five.pk, BYE)
    assert draw.match("L3-1").winner == five.pk
    assert draw.walkovers() == []
    assert [slot.slot_id for slot in draw.byes() if slot.winner == leaver.pk] in ([], ["W1-1"])
    assert Entry.objects.get(tournament=tournament, user=leaver).withdrawn
    assert leaver.pk in draw.withdrawn
    # The draw goes on: the winners final, then the losers bracket's last rounds.
    assert {(m.white, m.black) for m in active_matches(tournament)} <= {
        (stayer, two),
        (two, stayer),
    }


def _last_round_with_a_loss_on_time(organiser, format: str, *, timeout_first: bool):
    """Four players seeded in order play a round robin, or a Swiss of two rounds, each
    earlier match won by the worse seed. In the last round (Swiss: three v four and one v
    two; round robin: one v two and three v four) four, with one win or two, lets the
    deadline pass; one resigns to two before or after. The sleeper, and the standings as
    (seed, withdrawn), best first."""
    players = make_users(4)
    one, _, _, four = players
    tournament = seeded_tournament(organiser, players, format=format, swiss_rounds=2)
    last_round = 2 if format == Format.SWISS else 3
    while _round_of(match := active_matches(tournament)[0]) < last_round:
        lose(match, min(match.white, match.black, key=lambda player: player.pk))
    overdue, other = sorted(
        active_matches(tournament), key=lambda m: four not in (m.white, m.black)
    )
    # Who moves first is the opening roll's to say: fixed, so that both orders have the
    # same sleeper.
    overdue = _to_move(overdue, four)

    if timeout_first:
        _overdue(overdue)
        lose(other, one)
    else:
        lose(other, one)
        _overdue(overdue)

    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    seeds = {player.pk: seed for seed, player in enumerate(players, 1)}
    return four, [(seeds[s.player], s.withdrawn) for s in tournament.draw().standings()]


def _round_of(match: Match) -> int:
    return int(match.tournament_match.slot_id.split("-")[0].removeprefix("R"))


@pytest.mark.parametrize(
    ("format", "standings"),
    [
        # Round robin: four beat one and two, then lost to three, who won all three.
        (Format.ROUND_ROBIN, [(3, False), (4, False), (2, False), (1, False)]),
        # Swiss: four (1 point) is 2nd on Buchholz, above two (1 point), and one (0).
        (Format.SWISS, [(3, False), (4, False), (2, False), (1, False)]),
    ],
    ids=["round_robin", "swiss"],
)
def test_a_loss_on_time_in_a_players_last_match_is_a_plain_loss_whatever_else_is_played(
    alice, format, standings
):
    # The other match of the round still being played when the deadline passes, or over
    # already, changes nothing: four had nothing left to give up, so it is a loss like any.
    sleeper, timeout_first = _last_round_with_a_loss_on_time(alice, format, timeout_first=True)
    other_sleeper, other_first = _last_round_with_a_loss_on_time(alice, format, timeout_first=False)

    assert timeout_first == other_first == standings
    assert not Entry.objects.filter(user__in=[sleeper, other_sleeper], withdrawn=True).exists()
    assert not Notification.objects.filter(key__contains=":withdrawn:").exists()
