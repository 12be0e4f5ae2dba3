"""Tournament emails: the pairing email at every round, the bye and walkover notices, the
result, the cancellation. Sent after commit, so each test runs the on-commit callbacks."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import mail

from games import services as game_services
from games.engine.game import ScriptedDice
from games.models import Match, Notification
from games.tournaments import emails, services
from games.tournaments.brackets import BYE, Format
from games.tournaments.models import Tournament
from games.tournaments.services import stage_of

from .helpers import (
    active_matches,
    lose,
    make_users,
    open_tournament,
    seeded_tournament,
    started_tournament,
    swiss_that_ends_early,
)

pytestmark = pytest.mark.django_db


def _tournament_mail(since: int = 0) -> list[tuple[str, str]]:
    """(recipient, subject) of the tournament emails sent since ``since``, sorted: with the
    first turn email of each of its matches (which tells the match's start), not the later
    ones (which name it too)."""
    return sorted(
        (message.to[0], message.subject)
        for message in mail.outbox[since:]
        if "cup" in message.subject and not message.subject.startswith(("Your turn", "Match #"))
    )


def _result(match: Match, player) -> str:
    """The subject of ``player``'s email of ``match``'s result, which names the tournament
    and its round as the match's turn emails do."""
    return f"Match #{match.pk} against {match.opponent_of(player)} is over ({stage_of(match)})"


def _mail_by_recipient(since: int) -> dict[str, list[str]]:
    """The subjects of every email sent since ``since`` (turn emails too), by recipient, in
    the order sent."""
    sent: dict[str, list[str]] = {}
    for message in mail.outbox[since:]:
        sent.setdefault(message.to[0], []).append(message.subject)
    return sent


def _start_mail(tournament: Tournament, match: Match, stage: str) -> dict[str, str]:
    """The one email each player of ``match`` gets as it starts, by recipient: the player to
    move, their first turn's; the other, the start's."""
    mover, waiter = match.to_move, match.opponent_of(match.to_move)
    return {
        mover.email: f"{tournament.name}, {stage}: your match against {waiter} has started,"
        f" your turn (match #{match.pk})",
        waiter.email: f"{tournament.name}, {stage}: your match against {mover} has started",
    }


def test_it_emails_each_player_of_every_match_once_as_each_round_is_paired(
    alice, django_capture_on_commit_callbacks
):
    players = make_users(4)
    with django_capture_on_commit_callbacks(execute=True):
        tournament = started_tournament(alice, players, format=Format.ROUND_ROBIN)

    first_round = active_matches(tournament)
    assert _mail_by_recipient(0) == {
        to: [subject]
        for match in first_round
        for to, subject in _start_mail(tournament, match, "Round 1").items()
    }

    sent = len(mail.outbox)
    with django_capture_on_commit_callbacks(execute=True):
        for match in first_round:
            lose(match, match.white)

    # Each player: their match's result, then their next match's start.
    second_round = active_matches(tournament)
    assert len(second_round) == 2
    results = {
        player.email: _result(match, player)
        for match in first_round
        for player in (match.white, match.black)
    }
    assert _mail_by_recipient(sent) == {
        to: [results[to], subject]
        for match in second_round
        for to, subject in _start_mail(tournament, match, "Round 2").items()
    }


def test_a_name_saved_with_a_line_break_still_has_its_emails_sent_on_one_line(
    alice, django_capture_on_commit_callbacks
):
    # Saved before the form tidied names: the email package refuses a subject with a line
    # break, and every email naming the tournament failed (its opponents lost on time).
    players = make_users(2)
    with django_capture_on_commit_callbacks(execute=True):
        tournament = started_tournament(
            alice, players, format=Format.SINGLE_ELIMINATION, name="Evil\r\nBcc: x@evil.example"
        )

    [match] = active_matches(tournament)
    sent = sorted(_mail_by_recipient(0).items())
    assert sent == sorted(
        (to, [subject.replace("\r\n", " ")])
        for to, subject in _start_mail(tournament, match, "Final").items()
    )
    assert not Notification.objects.filter(sent_at=None, cancelled_at=None).exists()


def test_it_tells_the_player_to_move_first_that_the_match_has_started_in_their_turn_email(
    alice, django_capture_on_commit_callbacks
):
    players = make_users(2)
    with django_capture_on_commit_callbacks(execute=True):
        tournament = started_tournament(alice, players, format=Format.SINGLE_ELIMINATION)

    [match] = active_matches(tournament)
    mover, waiter = match.to_move, match.opponent_of(match.to_move)
    [turn] = [m for m in mail.outbox if m.to == [mover.email]]
    assert turn.subject == _start_mail(tournament, match, "Final")[mover.email]
    assert (
        f"Your match against {waiter} in {tournament.name} (Final) has started,"
        f" and it is your turn: match #{match.pk} ({match.get_variant_display()}, 1 point, 3 days"
        " per move).\n" in turn.body
    )
    assert f"/tournaments/{tournament.pk}/" in turn.body
    assert f"/matches/{match.pk}/" in turn.body
    assert "Your dice: " in turn.body
    assert "Deadline: " in turn.body


def test_it_tells_the_other_player_that_the_match_has_started_and_whose_move_it_is(
    alice, django_capture_on_commit_callbacks
):
    players = make_users(2)
    with django_capture_on_commit_callbacks(execute=True):
        tournament = started_tournament(alice, players, format=Format.SINGLE_ELIMINATION)

    [match] = active_matches(tournament)
    mover, waiter = match.to_move, match.opponent_of(match.to_move)
    [message] = [m for m in mail.outbox if m.to == [waiter.email]]
    assert message.subject == _start_mail(tournament, match, "Final")[waiter.email]
    assert f"Your match in {tournament.name} (Final) has started: you play {mover}" in (
        message.body
    )
    assert f"\n{mover} is to move, by " in message.body
    assert "We will email you when it is your turn." in message.body
    assert f"/matches/{match.pk}/" in message.body
    assert f"/tournaments/{tournament.pk}/" in message.body


def test_it_tells_a_digest_player_to_move_first_in_the_starts_own_email(
    alice, django_capture_on_commit_callbacks
):
    players = make_users(2)
    for player in players:
        player.email_preference = player.EmailPreference.DIGEST
        player.save(update_fields=["email_preference"])
    with django_capture_on_commit_callbacks(execute=True):
        tournament = started_tournament(alice, players, format=Format.SINGLE_ELIMINATION)

    # No turn emails: each hears of the start from its own email, which says whose move it is.
    [match] = active_matches(tournament)
    mover, waiter = match.to_move, match.opponent_of(match.to_move)
    subject = f"{tournament.name}, Final: your match against {{}} has started"
    assert _mail_by_recipient(0) == {
        mover.email: [subject.format(waiter)],
        waiter.email: [subject.format(mover)],
    }
    assert "\nIt is your move, due by " in _body(mover.email, subject.format(waiter))
    waiting = _body(waiter.email, subject.format(mover))
    assert f"\n{mover} is to move, by " in waiting
    assert "Your daily email will list the match when it is your turn." in waiting


def test_it_tells_a_player_with_a_first_round_bye_that_it_has_started(
    alice, django_capture_on_commit_callbacks
):
    players = make_users(3)
    with django_capture_on_commit_callbacks(execute=True):
        tournament = started_tournament(alice, players, format=Format.SINGLE_ELIMINATION)

    top_seed = tournament.entries.get(seed=1).user
    assert _tournament_mail().count((top_seed.email, f"{tournament.name} has started")) == 1
    assert len(_tournament_mail()) == 3


def test_it_tells_each_player_with_a_first_round_bye_once(
    alice, django_capture_on_commit_callbacks
):
    # Twelve in sixteen places: the four top seeds wait for the second round.
    players = make_users(12)
    with django_capture_on_commit_callbacks(execute=True):
        tournament = started_tournament(alice, players, format=Format.SINGLE_ELIMINATION)

    seeds = [tournament.entries.get(seed=seed).user for seed in (1, 2, 3, 4)]
    subject = f"{tournament.name} has started"
    told = sorted(to for to, about in _tournament_mail() if about == subject)
    assert told == sorted(player.email for player in seeds)
    for player in seeds:
        body = _body(player.email, subject)
        assert "You go through to the next round without playing." in body
        assert f"/tournaments/{tournament.pk}/" in body
    keys = Notification.objects.filter(key__contains=":started:").values_list("key", flat=True)
    assert sorted(keys) == sorted(f"tournament:{tournament.pk}:started:{p.pk}" for p in seeds)


def test_it_emails_everyone_the_champion_when_it_finishes(
    alice, django_capture_on_commit_callbacks
):
    players = make_users(3)
    tournament = started_tournament(alice, players, format=Format.SINGLE_ELIMINATION)

    with django_capture_on_commit_callbacks(execute=True):
        while active := active_matches(tournament):
            lose(active[0], active[0].black)

    tournament.refresh_from_db()
    finished = [(to, subject) for to, subject in _tournament_mail() if "is over" in subject]
    assert sorted(to for to, _ in finished) == sorted(
        [alice.email, *(player.email for player in players)]
    )
    assert all(f"{tournament.champion} won" in subject for _, subject in finished)


def test_it_tells_everyone_why_a_swiss_ended_before_the_rounds_planned(
    alice, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        tournament, players = swiss_that_ends_early(alice)

    finished = [m for m in mail.outbox if m.subject.startswith(f"{tournament.name} is over")]
    assert sorted(message.to[0] for message in finished) == sorted(
        [alice.email, *(player.email for player in players)]
    )
    assert all(f"{players[0]} won" in message.subject for message in finished)
    for message in finished:
        assert "It ended after round 3 of the 4 planned" in message.body
    assert tournament.champion == players[0]


def test_the_final_email_of_a_tournament_that_ran_its_course_gives_no_reason(
    alice, django_capture_on_commit_callbacks
):
    tournament = started_tournament(alice, make_users(4), format=Format.SWISS)
    with django_capture_on_commit_callbacks(execute=True):
        while active := active_matches(tournament):
            lose(active[0], active[0].white)

    finished = [m for m in mail.outbox if m.subject.startswith(f"{tournament.name} is over")]
    assert len(finished) == 5
    assert not any("It ended after" in message.body for message in finished)


def test_it_emails_the_result_of_a_match_before_the_tournament_news_it_brings(
    alice, django_capture_on_commit_callbacks
):
    one, two = make_users(2)
    tournament = seeded_tournament(alice, [one, two], format=Format.SINGLE_ELIMINATION)
    [final] = active_matches(tournament)

    with django_capture_on_commit_callbacks(execute=True):
        lose(final, two)

    over = f"{tournament.name} is over: {one} won"
    assert _mail_by_recipient(0) == {
        one.email: [f"Match #{final.pk} against {two} is over ({tournament.name}, Final)", over],
        two.email: [f"Match #{final.pk} against {one} is over ({tournament.name}, Final)", over],
        alice.email: [over],
    }
    # The result names the tournament and the round it was, as its turn emails did.
    [result] = [m for m in mail.outbox if m.to == [one.email] and "Match #" in m.subject]
    assert (
        f"A match of {tournament.name} (Final):"
        f" {settings.SITE_URL}{tournament.get_absolute_url()}\n" in result.body
    )


def test_the_result_of_a_match_outside_tournaments_names_none(
    alice, bob, django_capture_on_commit_callbacks
):
    match = game_services.start_match(
        white=alice, black=bob, variant="american", points=1, days_per_move=2
    )
    with django_capture_on_commit_callbacks(execute=True):
        game_services.resign(match.pk, user=bob)

    [result] = [m for m in mail.outbox if m.to == [alice.email] and "is over" in m.subject]
    assert result.subject == f"Match #{match.pk} against {bob} is over"
    assert "A match of" not in result.body


@pytest.mark.parametrize("organiser_plays", [False, True])
def test_it_emails_everyone_but_the_organiser_when_the_organiser_cancels(
    alice, django_capture_on_commit_callbacks, organiser_plays
):
    players = make_users(4)
    tournament = started_tournament(
        alice, [*players, alice] if organiser_plays else players, format=Format.SWISS
    )

    with django_capture_on_commit_callbacks(execute=True):
        services.cancel_tournament(tournament.pk, user=alice)

    # She did it herself: she needs no email to say so.
    cancelled = [to for to, subject in _tournament_mail() if "cancelled" in subject]
    assert sorted(cancelled) == sorted(player.email for player in players)
    assert f"{alice} cancelled it" in _body(
        players[0].email, f"{tournament.name} has been cancelled"
    )


# -- byes after the start ------------------------------------------------------------------------


def _bye_mail() -> list[tuple[str, str]]:
    """(recipient, subject) of the bye emails sent, sorted."""
    return sorted(pair for pair in _tournament_mail() if pair[1].endswith("you have a bye"))


def _body(recipient: str, subject: str) -> str:
    [message] = [m for m in mail.outbox if m.to == [recipient] and m.subject == subject]
    return message.body


def _play_every_round(tournament: Tournament) -> None:
    while active := active_matches(tournament):
        lose(active[0], active[0].white)


def _bye_players(tournament: Tournament) -> dict[int, int]:
    """Round number: the id of the player with that round's bye."""
    tournament.refresh_from_db()
    return {slot.round: slot.winner for slot in tournament.draw().byes()}


def _seeded_round_robin(organiser, players) -> Tournament:
    """A round robin of ``players`` seeded in the order given: of three, seed n has the bye in
    round n."""
    return seeded_tournament(organiser, players, format=Format.ROUND_ROBIN)


def test_it_emails_the_swiss_bye_of_each_later_round_to_its_player_once(
    alice, django_capture_on_commit_callbacks
):
    players = make_users(5)
    email = {player.pk: player.email for player in players}
    with django_capture_on_commit_callbacks(execute=True):
        tournament = started_tournament(alice, players, format=Format.SWISS, swiss_rounds=3)
        _play_every_round(tournament)

    byes = _bye_players(tournament)
    assert sorted(byes) == [1, 2, 3]
    assert _bye_mail() == sorted(
        [
            (email[byes[2]], f"{tournament.name}, Round 2: you have a bye"),
            (email[byes[3]], f"{tournament.name}, Round 3: you have a bye"),
        ]
    )
    for number in (2, 3):
        body = _body(email[byes[number]], f"{tournament.name}, Round {number}: you have a bye")
        assert f"(Round {number})" in body
        assert "A bye counts as a win" in body
        assert f"/tournaments/{tournament.pk}/" in body
    # The first round's bye is told by the start's email.
    assert "A bye counts as a win" in _body(email[byes[1]], f"{tournament.name} has started")


def test_it_emails_the_round_robin_bye_of_each_later_round_to_its_player_once(
    alice, django_capture_on_commit_callbacks
):
    players = make_users(5)
    email = {player.pk: player.email for player in players}
    with django_capture_on_commit_callbacks(execute=True):
        tournament = started_tournament(alice, players, format=Format.ROUND_ROBIN)
        _play_every_round(tournament)

    byes = _bye_players(tournament)
    assert sorted(byes) == [1, 2, 3, 4, 5]
    assert _bye_mail() == sorted(
        (email[byes[number]], f"{tournament.name}, Round {number}: you have a bye")
        for number in (2, 3, 4, 5)
    )
    body = _body(email[byes[4]], f"{tournament.name}, Round 4: you have a bye")
    assert "(Round 4)" in body
    assert "You sit this round out" in body
    assert f"/tournaments/{tournament.pk}/" in body


@pytest.mark.parametrize("format", [Format.ROUND_ROBIN, Format.SWISS])
def test_a_bye_in_the_last_round_says_there_is_no_match_left_to_play(
    alice, django_capture_on_commit_callbacks, format
):
    players = make_users(3)
    email = {player.pk: player.email for player in players}
    with django_capture_on_commit_callbacks(execute=True):
        # Three rounds of a round robin of three, or two of a Swiss: a bye in each.
        tournament = started_tournament(alice, players, format=format, swiss_rounds=2)
        _play_every_round(tournament)

    byes = _bye_players(tournament)
    last = max(byes)
    assert last == (3 if format == Format.ROUND_ROBIN else 2)
    body = _body(email[byes[last]], f"{tournament.name}, Round {last}: you have a bye")
    assert "You have no match left to play. We will email you when the tournament is over." in body
    assert "next have a match" not in body
    if format == Format.ROUND_ROBIN:
        body = _body(email[byes[2]], f"{tournament.name}, Round 2: you have a bye")
        assert "We will email you when you next have a match to play" in body
        assert "last round" not in body


def test_a_bye_before_only_walkovers_says_there_is_no_match_left_to_play(
    alice, django_capture_on_commit_callbacks
):
    *_, four, five = players = make_users(5)
    with django_capture_on_commit_callbacks(execute=True):
        # Round 1: 2 v 5, 3 v 4, 1 bye; ... round 4: 1 v 3, 4 v 2, 5 bye; round 5: 1 v 2,
        # 4 v 5, 3 bye. Four leaves in round 1: after their round 4 bye, five has nothing
        # left but a walkover against four.
        tournament = _seeded_round_robin(alice, players)
        services.withdraw(tournament.pk, user=four)
        _play_every_round(tournament)

    assert _bye_players(tournament)[4] == five.pk
    body = _body(five.email, f"{tournament.name}, Round 4: you have a bye")
    assert "You have no match left to play. We will email you when the tournament is over." in body
    assert "last round" not in body
    assert "next have a match" not in body


def test_the_start_of_a_swiss_of_one_round_tells_its_bye_there_is_no_match_to_play(
    alice, django_capture_on_commit_callbacks
):
    players = make_users(3)
    with django_capture_on_commit_callbacks(execute=True):
        tournament = started_tournament(alice, players, format=Format.SWISS, swiss_rounds=1)

    [bye] = [player for player in players if player.pk == _bye_players(tournament)[1]]
    body = _body(bye.email, f"{tournament.name} has started")
    assert "It is the only round, so you have no match to play" in body
    assert "your next match" not in body


def test_it_emails_a_bye_in_the_losers_bracket(alice, django_capture_on_commit_callbacks):
    players = make_users(3)
    tournament = started_tournament(alice, players, format=Format.DOUBLE_ELIMINATION)
    [match] = active_matches(tournament)  # seeds 2 and 3; seed 1 has a bye

    with django_capture_on_commit_callbacks(execute=True):
        lose(match, match.white)

    assert _bye_mail() == [
        (match.white.email, f"{tournament.name}, Losers round 1: you have a bye")
    ]
    body = _body(match.white.email, f"{tournament.name}, Losers round 1: you have a bye")
    assert "You go through to the next round without playing" in body
    assert f"/tournaments/{tournament.pk}/" in body


def test_it_sends_a_bot_no_bye_email(alice, bob, charlie, django_capture_on_commit_callbacks):
    bot = game_services.bot_users()[0]
    bot.email = "bot@example.com"  # so that only being a bot keeps it from mail
    bot.save(update_fields=["email"])
    with django_capture_on_commit_callbacks(execute=True):
        tournament = _seeded_round_robin(alice, [bob, bot, charlie])
        _play_every_round(tournament)

    assert _bye_players(tournament) == {1: bob.pk, 2: bot.pk, 3: charlie.pk}
    assert _bye_mail() == [(charlie.email, f"{tournament.name}, Round 3: you have a bye")]
    assert not Notification.objects.filter(user=bot).exists()


def test_it_sends_no_bye_email_to_a_player_who_wants_no_email(
    alice, bob, charlie, django_capture_on_commit_callbacks
):
    dave, *_ = make_users(1, prefix="dave")
    dave.email_preference = dave.EmailPreference.NONE
    dave.save(update_fields=["email_preference"])
    with django_capture_on_commit_callbacks(execute=True):
        tournament = _seeded_round_robin(alice, [bob, dave, charlie])
        _play_every_round(tournament)

    assert _bye_players(tournament) == {1: bob.pk, 2: dave.pk, 3: charlie.pk}
    assert _bye_mail() == [(charlie.email, f"{tournament.name}, Round 3: you have a bye")]
    assert not any(message.to == [dave.email] for message in mail.outbox)


def test_it_emails_a_bye_once_when_its_round_is_opened_twice(
    alice, bob, charlie, django_capture_on_commit_callbacks
):
    dave, *_ = make_users(1, prefix="dave")
    tournament = _seeded_round_robin(alice, [bob, charlie, dave])
    [match] = active_matches(tournament)
    draw_before_result = tournament.state
    with django_capture_on_commit_callbacks(execute=True):
        finished = lose(match, match.white)

    # The result is reported again to the draw as it was before it, so round 2 is opened a
    # second time.
    Tournament.objects.filter(pk=tournament.pk).update(state=draw_before_result)
    with django_capture_on_commit_callbacks(execute=True):
        services.match_finished(finished)

    assert _bye_players(tournament)[2] == charlie.pk
    assert _bye_mail() == [(charlie.email, f"{tournament.name}, Round 2: you have a bye")]
    assert Notification.objects.filter(key__contains=":bye:").count() == 1
    assert len(active_matches(tournament)) == 1


# -- walkovers ---------------------------------------------------------------------------------


def _walkover_mail() -> list[tuple[str, str]]:
    """(recipient, subject) of the walkover emails sent, sorted."""
    return sorted(pair for pair in _tournament_mail() if pair[1].endswith("you win by walkover"))


def _walkover_subject(tournament: Tournament, stage: str, withdrawn) -> str:
    return f"{tournament.name}, {stage}: {withdrawn} is withdrawn, you win by walkover"


def _slot_match(tournament: Tournament, slot_id: str) -> Match:
    return Match.objects.select_related("white", "black").get(
        tournament_match__tournament=tournament, tournament_match__slot_id=slot_id
    )


def _no_walkover_notification_for(user) -> bool:
    return not Notification.objects.filter(user=user, key__contains=":walkover:").exists()


def test_it_emails_the_winner_of_an_elimination_final_by_walkover_that_they_won_it(
    alice, django_capture_on_commit_callbacks
):
    one, two, three, four = make_users(4)
    tournament = seeded_tournament(alice, [one, two, three, four], format=Format.SINGLE_ELIMINATION)
    lose(_slot_match(tournament, "W1-1"), four)
    services.withdraw(tournament.pk, user=one)  # waiting for the final: no match to resign

    with django_capture_on_commit_callbacks(execute=True):
        lose(_slot_match(tournament, "W1-2"), two)  # three meets one in the final

    tournament.refresh_from_db()
    assert tournament.champion == three
    subject = _walkover_subject(tournament, "Final", one)
    assert _walkover_mail() == [(three.email, subject)]
    body = _body(three.email, subject)
    assert f"You win your match against {one} in {tournament.name} (Final) by walkover" in body
    assert f"{one} has withdrawn from the tournament" in body
    assert "the tournament is over. You won it: congratulations!" in body
    assert "next round" not in body
    assert f"/tournaments/{tournament.pk}/" in body
    assert _no_walkover_notification_for(one)


@pytest.mark.parametrize("format", [Format.SINGLE_ELIMINATION, Format.ROUND_ROBIN])
def test_a_walkover_that_ends_the_tournament_is_its_winners_one_email_of_the_end(
    alice, django_capture_on_commit_callbacks, format
):
    one, two, three, four = make_users(4)
    if format == Format.SINGLE_ELIMINATION:
        # One wins their semi-final, then withdraws; three wins the other and meets one in
        # the final.
        players = [one, two, three, four]
        tournament = seeded_tournament(alice, players, format=format)
        lose(_slot_match(tournament, "W1-1"), four)
        leaver, last, last_loser, winner = one, _slot_match(tournament, "W1-2"), two, three
    else:
        # Round 1: two v three (one has a bye); round 2: one v three (two has a bye);
        # round 3: one v two (three has a bye). Two leaves during their bye.
        players = [one, two, three]
        tournament = seeded_tournament(alice, players, format=format)
        lose(_slot_match(tournament, "R1-1"), three)
        leaver, last, last_loser, winner = two, _slot_match(tournament, "R2-1"), three, one
    services.withdraw(tournament.pk, user=leaver)
    sent = len(mail.outbox)

    with django_capture_on_commit_callbacks(execute=True):
        lose(last, last_loser)

    tournament.refresh_from_db()
    assert tournament.champion == winner
    stage = "Final" if format == Format.SINGLE_ELIMINATION else "Round 3"
    walkover = _walkover_subject(tournament, stage, leaver)
    over = f"{tournament.name} is over: {winner} won"
    # One email of the end each: the champion's is their walkover's.
    assert {to: sorted(subjects) for to, subjects in _mail_by_recipient(sent).items()} == {
        winner.email: sorted([_result(last, winner), walkover]),
        last_loser.email: sorted([_result(last, last_loser), over]),
        **{
            player.email: [over]
            for player in [alice, *players]
            if player not in (winner, last_loser)
        },
    }
    assert "With that, the tournament is over. You won it" in _body(winner.email, walkover)


def test_a_walkover_email_of_the_end_of_a_swiss_says_why_it_ended_early(
    alice, django_capture_on_commit_callbacks
):
    # A walkover that ends a Swiss early is its winner's only email of the end
    # (tournament_finished leaves them out): like the final email, it says why.
    tournament, players = swiss_that_ends_early(alice)
    one, _, three, *_ = players

    with django_capture_on_commit_callbacks(execute=True):
        emails.walkover(
            tournament, one, slot_id="R3-1", stage="Round 3", opponent=three, next_match=None
        )

    body = _body(one.email, _walkover_subject(tournament, "Round 3", three))
    assert "With that, the tournament is over. You won it: congratulations!" in body
    assert (
        "It ended after round 3 of the 4 planned: the players left could not be paired for"
        " round 4 without two of them meeting again" in body
    )


def test_it_tells_the_winner_of_a_walkover_that_their_next_match_has_started(
    alice, django_capture_on_commit_callbacks
):
    players = make_users(8)
    one, two, three, four, five = players[:5]
    tournament = seeded_tournament(alice, players, format=Format.SINGLE_ELIMINATION)
    # W1-1 1 v 8, W1-2 4 v 5, W1-3 2 v 7, W1-4 3 v 6; W2-1 and W2-2 feed the final W3-1.
    for slot_id, loser in [("W1-1", players[7]), ("W1-3", players[6]), ("W1-4", players[5])]:
        lose(_slot_match(tournament, slot_id), loser)
    lose(_slot_match(tournament, "W2-2"), three)
    services.withdraw(tournament.pk, user=one)

    with django_capture_on_commit_callbacks(execute=True):
        lose(_slot_match(tournament, "W1-2"), five)  # four meets one in W2-1

    final = _slot_match(tournament, "W3-1")
    assert {final.white, final.black} == {four, two}
    subject = _walkover_subject(tournament, "Semi-finals", one)
    assert _walkover_mail() == [(four.email, subject)]
    body = _body(four.email, subject)
    assert "You go through to the next round." in body
    assert f"Your next match, against {two}, has started: " in body
    assert f"/matches/{final.pk}/" in body
    # The final's own start goes out too (with the first turn, if it is four's).
    assert [
        subject
        for to, subject in _tournament_mail()
        if to == four.email and "has started" in subject
    ] == [_start_mail(tournament, final, "Final")[four.email]]
    assert _no_walkover_notification_for(one)


def test_it_sends_no_walkover_email_for_a_match_a_withdrawal_resigns(
    alice, django_capture_on_commit_callbacks
):
    one, two, three, four = make_users(4)
    tournament = seeded_tournament(alice, [one, two, three, four], format=Format.SINGLE_ELIMINATION)
    match = _slot_match(tournament, "W1-1")

    with django_capture_on_commit_callbacks(execute=True):
        services.withdraw(tournament.pk, user=four)

    match.refresh_from_db()
    assert (match.winner, match.ending) == (one, Match.Ending.RESIGNATION)
    assert _walkover_mail() == []
    assert not Notification.objects.filter(key__contains=":walkover:").exists()
    # finish_match told both players the result, and why it was resigned.
    won = Notification.objects.get(user=one, key=f"finished:{match.pk}:{one.pk}")
    lost = Notification.objects.get(user=four, key=f"finished:{match.pk}:{four.pk}")
    assert f"{four} withdrew from {tournament.name}, which resigned this match." in won.body
    assert f"You withdrew from {tournament.name}, which resigned this match." in lost.body


def test_a_resignation_that_is_not_a_withdrawal_says_none(
    alice, django_capture_on_commit_callbacks
):
    one, two, three, four = make_users(4)
    tournament = seeded_tournament(alice, [one, two, three, four], format=Format.SINGLE_ELIMINATION)
    match = _slot_match(tournament, "W1-1")

    with django_capture_on_commit_callbacks(execute=True):
        lose(match, four)

    match.refresh_from_db()
    assert match.ending == Match.Ending.RESIGNATION
    won = Notification.objects.get(user=one, key=f"finished:{match.pk}:{one.pk}")
    assert "withdrew" not in won.body


def test_it_emails_a_walkover_in_the_losers_bracket(alice, django_capture_on_commit_callbacks):
    one, two, three, four = make_users(4)
    tournament = seeded_tournament(alice, [one, two, three, four], format=Format.DOUBLE_ELIMINATION)
    lose(_slot_match(tournament, "W1-1"), four)
    services.withdraw(tournament.pk, user=four)  # waiting for losers round 1

    with django_capture_on_commit_callbacks(execute=True):
        lose(_slot_match(tournament, "W1-2"), three)  # three drops to meet four

    subject = _walkover_subject(tournament, "Losers round 1", four)
    assert _walkover_mail() == [(three.email, subject)]
    body = _body(three.email, subject)
    assert "You go through to the next round." in body
    # Losers round 2 waits for the loser of the winners final, which has just started.
    assert "We will email you when your next match starts, or when the tournament is over." in body
    assert _no_walkover_notification_for(four)


def test_a_withdrawing_player_who_drops_to_meet_a_withdrawn_one_wins_no_walkover(
    alice, django_capture_on_commit_callbacks
):
    one, two, three, four = make_users(4)
    tournament = seeded_tournament(alice, [one, two, three, four], format=Format.DOUBLE_ELIMINATION)
    lose(_slot_match(tournament, "W1-1"), four)
    services.withdraw(tournament.pk, user=four)

    with django_capture_on_commit_callbacks(execute=True):
        # Resigning W1-2 drops three into losers round 1 against four: both have withdrawn,
        # so both lose it, and nobody comes out of it.
        services.withdraw(tournament.pk, user=three)
        lose(_slot_match(tournament, "W2-1"), two)  # two drops to meet nobody: a bye

    tournament.refresh_from_db()
    draw = tournament.draw()
    assert (draw.match("L1-1").winner, draw.match("L1-1").walkover) == (BYE, True)
    assert draw.match("L2-1").players == (two.pk, BYE)
    assert _walkover_mail() == []
    assert not Notification.objects.filter(key__contains=":walkover:").exists()
    # Two goes through to the grand final at once: its match email is the news, not the bye.
    grand_final = _slot_match(tournament, "GF1")
    assert {grand_final.white, grand_final.black} == {one, two}
    assert _bye_mail() == []
    assert (two.email, _start_mail(tournament, grand_final, "Grand final")[two.email]) in (
        _tournament_mail()
    )


def test_it_emails_each_round_robin_walkover_to_its_winner_once(
    alice, django_capture_on_commit_callbacks
):
    one, two, three, four = make_users(4)
    tournament = seeded_tournament(alice, [one, two, three, four], format=Format.ROUND_ROBIN)
    # One plays four in round 1, three in round 2 and two in round 3.
    resigned = _slot_match(tournament, "R1-1")

    with django_capture_on_commit_callbacks(execute=True):
        services.withdraw(tournament.pk, user=one)
        _play_every_round(tournament)

    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    assert _walkover_mail() == sorted(
        [
            (three.email, _walkover_subject(tournament, "Round 2", one)),
            (two.email, _walkover_subject(tournament, "Round 3", one)),
        ]
    )
    body = _body(three.email, _walkover_subject(tournament, "Round 2", one))
    assert "A walkover counts as a win in the standings." in body
    assert "We will email you when your next match starts" in body
    # Two's walkover is in the last round: no match is left to promise.
    last = _body(two.email, _walkover_subject(tournament, "Round 3", one))
    assert "You have no match left to play. We will email you when the tournament is over." in last
    assert "next match" not in last
    # Round 1 was played (resigned): four hears of it as a finished match.
    assert Notification.objects.filter(key=f"finished:{resigned.pk}:{four.pk}").exists()
    assert _no_walkover_notification_for(four)
    assert _no_walkover_notification_for(one)


def test_it_emails_the_walkovers_of_a_player_who_lost_on_time(
    alice, django_capture_on_commit_callbacks
):
    one, two, three, four = make_users(4)
    tournament = seeded_tournament(alice, [one, two, three, four], format=Format.ROUND_ROBIN)
    match = _slot_match(tournament, "R1-1")
    sleeper = match.to_move
    assert sleeper in (one, four)
    # The sleeper's later opponents: one plays three then two; four plays two then three.
    later = [three, two] if sleeper == one else [two, three]

    with django_capture_on_commit_callbacks(execute=True):
        assert game_services.award_timeout(match.pk, now=match.deadline + timedelta(seconds=1))
        _play_every_round(tournament)

    assert _walkover_mail() == sorted(
        [
            (later[0].email, _walkover_subject(tournament, "Round 2", sleeper)),
            (later[1].email, _walkover_subject(tournament, "Round 3", sleeper)),
        ]
    )


@pytest.mark.parametrize(
    ("format", "given_up"),
    [
        (Format.ROUND_ROBIN, "your 2 matches still to play go to your opponents by walkover, and"),
        (Format.SWISS, "you will not be paired in the 2 rounds still planned, and"),
    ],
    ids=["round_robin", "swiss"],
)
def test_it_tells_a_player_who_lost_on_time_that_they_are_out_of_the_tournament(
    alice, django_capture_on_commit_callbacks, format, given_up
):
    tournament = started_tournament(alice, make_users(4), format=format, swiss_rounds=3)
    match = active_matches(tournament)[0]
    sleeper = match.to_move
    opponent = match.opponent_of(sleeper)

    with django_capture_on_commit_callbacks(execute=True):
        assert game_services.award_timeout(match.pk, now=match.deadline + timedelta(seconds=1))

    subject = f"{tournament.name}: you are withdrawn after losing match #{match.pk} on time"
    # The match's result to both, then the withdrawal to its loser; nobody else is told.
    assert _mail_by_recipient(0) == {
        sleeper.email: [_result(match, sleeper), subject],
        opponent.email: [_result(match, opponent)],
    }
    body = _body(sleeper.email, subject)
    assert f"You lost match #{match.pk} against {opponent} on time" in body
    assert "a loss on time also withdraws you from the tournament: " + given_up in body
    assert "the standings place you below every player who has not withdrawn" in body
    assert f"/tournaments/{tournament.pk}/" in body


@pytest.mark.parametrize("format", [Format.SINGLE_ELIMINATION, Format.DOUBLE_ELIMINATION])
def test_it_tells_an_elimination_player_who_lost_on_time_only_of_the_match(
    alice, django_capture_on_commit_callbacks, format
):
    tournament = started_tournament(alice, make_users(4), format=format)
    match = active_matches(tournament)[0]
    sleeper = match.to_move
    opponent = match.opponent_of(sleeper)

    with django_capture_on_commit_callbacks(execute=True):
        assert game_services.award_timeout(match.pk, now=match.deadline + timedelta(seconds=1))

    # A loss like any other: no email that they are withdrawn, or that their later matches
    # go to their opponents.
    assert _mail_by_recipient(0) == {
        sleeper.email: [_result(match, sleeper)],
        opponent.email: [_result(match, opponent)],
    }
    assert not Notification.objects.filter(key__contains=":withdrawn:").exists()


def test_it_tells_nobody_they_are_withdrawn_by_losing_the_last_match_on_time(
    alice, django_capture_on_commit_callbacks
):
    tournament = started_tournament(alice, make_users(2), format=Format.SINGLE_ELIMINATION)
    [match] = active_matches(tournament)

    with django_capture_on_commit_callbacks(execute=True):
        assert game_services.award_timeout(match.pk, now=match.deadline + timedelta(seconds=1))

    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    assert not Notification.objects.filter(key__contains=":withdrawn:").exists()


def test_a_swiss_round_paired_as_a_player_withdraws_has_no_walkover_but_a_bye(
    alice, django_capture_on_commit_callbacks
):
    one, two, three, four = make_users(4)
    tournament = seeded_tournament(
        alice, [one, two, three, four], format=Format.SWISS, swiss_rounds=3
    )
    first, second = active_matches(tournament)
    lose(first, first.white)
    leaver = second.white

    with django_capture_on_commit_callbacks(execute=True):
        # Resigning the last match of round 1 pairs round 2 without the leaver: of the
        # three left, one has the bye.
        services.withdraw(tournament.pk, user=leaver)

    tournament.refresh_from_db()
    draw = tournament.draw()
    assert draw.walkovers() == []
    [bye] = [slot for slot in draw.byes() if slot.round == 2]
    assert bye.winner != leaver.pk
    player = get_user_model().objects.get(pk=bye.winner)
    assert _bye_mail() == [(player.email, f"{tournament.name}, Round 2: you have a bye")]
    assert _walkover_mail() == []


def test_it_emails_a_walkover_once_when_its_round_is_opened_twice(
    alice, django_capture_on_commit_callbacks
):
    one, two, three, four = make_users(4)
    tournament = seeded_tournament(alice, [one, two, three, four], format=Format.ROUND_ROBIN)
    services.withdraw(tournament.pk, user=one)  # resigns R1-1 against four
    match = _slot_match(tournament, "R1-2")
    tournament.refresh_from_db()
    draw_before_result = tournament.state
    with django_capture_on_commit_callbacks(execute=True):
        finished = lose(match, match.white)

    # The result is reported again to the draw as it was before it, so round 2 is opened,
    # and its walkover given, a second time.
    Tournament.objects.filter(pk=tournament.pk).update(state=draw_before_result)
    with django_capture_on_commit_callbacks(execute=True):
        services.match_finished(finished)

    assert _walkover_mail() == [(three.email, _walkover_subject(tournament, "Round 2", one))]
    assert Notification.objects.filter(key__contains=":walkover:").count() == 1
    assert len(active_matches(tournament)) == 1


@pytest.mark.parametrize(
    ("bot_opens", "ties", "first_roll"),
    [
        (True, 0, (6, 3)),
        (False, 0, (6, 3)),
        (True, 2, (6, 3)),
        (False, 1, (6, 3)),
        # The bot's first turn a 1-2, its double and the extra roll it earns: segments each
        # stored by a task of its own, the last of them not right after the opening rolls.
        (True, 0, (1, 2, 4, 4)),
    ],
)
def test_a_tournament_match_a_bot_opens_tells_its_start_once(
    alice, bob, monkeypatch, django_capture_on_commit_callbacks, bot_opens, ties, first_roll
):
    bot = game_services.bot_users()[0]
    start_match = game_services.start_match

    def opened_by(**options):
        # Who wins the opening roll (5 against 2), after ``ties`` tied ones rolled again,
        # each a segment of its own; then their first roll.
        white_opens = (options["white"] == bot) == bot_opens
        opening = (5, 2) if white_opens else (2, 5)
        dice = [4, 4] * ties + list(opening) + list(first_roll)
        return start_match(dice=ScriptedDice(dice), **options)

    monkeypatch.setattr(game_services, "start_match", opened_by)
    tournament = open_tournament(alice, min_players=2, name="Cup")
    services.sign_up(tournament.pk, user=bob)
    services.add_bot(tournament.pk, user=alice, bot=bot)
    with django_capture_on_commit_callbacks(execute=True):
        services.start_tournament(tournament.pk, user=alice)

    match = _slot_match(tournament, "W1-1")
    # Bob is to move either way: after the bot's first turn, played at once, or his own.
    # Either way he hears of the start once, with his turn (not "the bot is to move",
    # then "your turn" a moment later).
    assert match.to_move == bob
    assert match.segments.filter(player=match.color_of(bot)).exists() == bot_opens
    [told] = mail.outbox
    assert told.to == [bob.email]
    assert told.subject == (
        f"Cup, Final: your match against {bot} has started, your turn (match #{match.pk})"
    )


def test_the_final_email_tells_each_player_their_place(alice, django_capture_on_commit_callbacks):
    one, two, three, four = players = make_users(4)
    tournament = seeded_tournament(alice, players, format=Format.SINGLE_ELIMINATION)
    with django_capture_on_commit_callbacks(execute=True):
        lose(_slot_match(tournament, "W1-1"), four)
        lose(_slot_match(tournament, "W1-2"), three)
        lose(_slot_match(tournament, "W2-1"), two)

    told = {
        m.to[0]: " ".join(m.body.split())
        for m in mail.outbox
        if m.subject.startswith(f"{tournament.name} is over")
    }
    assert "You won it: congratulations!" in told[one.email]
    assert f"The champion is {one}. You finished 2nd of 4." in told[two.email]
    for out_in_the_semi_finals in (three, four):
        assert (
            f"The champion is {one}. You shared places 3 to 4 of 4."
            in told[out_in_the_semi_finals.email]
        )
    assert "You finished" not in told[alice.email]  # the organiser did not play
    assert "You" not in told[one.email].split("congratulations!")[1]


@pytest.mark.parametrize(
    ("n", "said"),
    [
        *[(1, "1st"), (2, "2nd"), (3, "3rd"), (4, "4th"), (11, "11th"), (12, "12th")],
        *[(13, "13th"), (21, "21st"), (22, "22nd"), (23, "23rd"), (101, "101st"), (111, "111th")],
    ],
)
def test_a_place_is_written_as_an_ordinal(n, said):
    assert emails._ordinal(n) == said
