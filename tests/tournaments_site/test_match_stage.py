"""A tournament's match says so where its players look: the match page names the
tournament (a link to its bracket) and the round, and the dashboard's card names the
tournament. A loss there ends a player's tournament; nothing used to tell them whose it was."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings
from django.core import mail

from games import services as game_services
from games.engine.game import ScriptedDice
from games.models import Match
from games.services import TurnAction
from games.tournaments import services
from games.tournaments.brackets import Bracket, Format
from games.tournaments.brackets import Tournament as Draw
from games.tournaments.models import Tournament, TournamentMatch
from tests.matches import opened_by_white

from .helpers import active_matches, lose, make_users, started_tournament

pytestmark = pytest.mark.django_db


def test_the_match_page_names_the_tournament_and_the_round(client, alice):
    players = make_users(4)
    tournament = started_tournament(
        alice, players, format=Format.SINGLE_ELIMINATION, name="Winter cup"
    )
    semi = active_matches(tournament)[0]
    client.force_login(semi.white)

    page = client.get(semi.get_absolute_url())

    assert page.context["stage"] == services.Stage(tournament, "Semi-finals")
    assert (
        f'<p class="match-stage"><a href="{tournament.get_absolute_url()}">Winter cup</a>'
        " · Semi-finals</p>" in page.text
    )
    for match in active_matches(tournament):
        lose(match, match.black)
    (final,) = active_matches(tournament)
    assert services.stage_of(final) == services.Stage(tournament, "Final")


def test_a_match_outside_tournaments_has_no_stage(client, alice, bob):
    match = game_services.start_match(
        white=alice, black=bob, variant="american", points=1, days_per_move=2
    )
    client.force_login(alice)

    page = client.get(match.get_absolute_url())

    assert page.context["stage"] is None
    assert "match-stage" not in page.text


def test_the_dashboard_card_names_the_tournament(client, alice):
    players = make_users(2)
    started_tournament(alice, players, format=Format.ROUND_ROBIN, name="Spring round robin")
    client.force_login(players[0])

    page = client.get("/dashboard/")

    assert "<bdi>Spring round robin</bdi> · " in page.text


def _turn_emails_to(user) -> list:
    return [m for m in mail.outbox if m.to == [user.email] and m.subject.startswith("Your turn")]


def _white_plays_6_3(match: Match) -> None:
    """White, to play 6-3 (tests.matches.opened_by_white), plays it; black rolls 4-1."""
    action = TurnAction(segment=match.segment_count, play="in/22 in/19")
    game_services.submit_segment(
        match.pk, user=match.white, action=action, dice=ScriptedDice([4, 1])
    )


def test_the_turn_email_names_the_tournament_and_the_round(
    alice, django_capture_on_commit_callbacks
):
    players = make_users(4)
    tournament = started_tournament(
        alice, players, format=Format.SINGLE_ELIMINATION, name="Winter cup"
    )
    drawn = active_matches(tournament)[0]
    # The semi-final played again with dice known in advance, in place of the one drawn.
    semi = opened_by_white(drawn.white, drawn.black)
    TournamentMatch.objects.filter(match=drawn).update(match=semi)

    with django_capture_on_commit_callbacks(execute=True):
        _white_plays_6_3(semi)

    [turn] = _turn_emails_to(semi.black)
    assert turn.subject == (
        f"Your turn against {semi.white} (Winter cup, Semi-finals, match #{semi.pk})"
    )
    assert (
        "A match of Winter cup (Semi-finals):"
        f" {settings.SITE_URL}{tournament.get_absolute_url()}\n" in turn.body
    )


def test_the_first_turn_email_of_a_new_round_names_it(alice, django_capture_on_commit_callbacks):
    players = make_users(4)
    tournament = started_tournament(alice, players, format=Format.SWISS, name="Swiss cup")
    *earlier, last = active_matches(tournament)
    for match in earlier:
        lose(match, match.black)

    # Its last result pairs the next round, whose matches start with their first turn.
    with django_capture_on_commit_callbacks(execute=True):
        lose(last, last.black)

    round_two = active_matches(tournament)
    assert len(round_two) == 2
    for match in round_two:
        # The first turn tells the round's start too.
        [turn] = [m for m in mail.outbox if m.to == [match.to_move.email] and "turn" in m.subject]
        assert turn.subject == (
            f"Swiss cup, Round 2: your match against {match.opponent_of(match.to_move)} has"
            f" started, your turn (match #{match.pk})"
        )


def test_the_turn_email_of_a_match_outside_tournaments_names_none(
    alice, bob, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        match = opened_by_white(alice, bob)
        _white_plays_6_3(match)

    [turn] = _turn_emails_to(bob)
    assert turn.subject == f"Your turn against alice (match #{match.pk})"
    assert "tournament" not in turn.body


# -- a cancelled tournament's matches --------------------------------------------------------------
# Cancelling leaves the matches under way to be played to the end, but they no longer count
# for the tournament: nothing may present them as a live round, or warn of what losing one
# does to the tournament.


def _cancelled_cup(organiser) -> tuple[Tournament, Match]:
    """A cancelled "Winter cup" of four, and one of its semi-finals, still in play."""
    tournament = started_tournament(
        organiser, make_users(4), format=Format.SINGLE_ELIMINATION, name="Winter cup"
    )
    semi = active_matches(tournament)[0]
    services.cancel_tournament(tournament.pk, user=organiser)
    return tournament, semi


def test_the_match_page_says_its_tournament_was_cancelled_and_names_no_round(client, alice):
    tournament, semi = _cancelled_cup(alice)
    client.force_login(semi.white)

    page = client.get(semi.get_absolute_url())

    assert page.context["stage"] == services.Stage(tournament, "")
    assert (
        f'<p class="match-stage"><a href="{tournament.get_absolute_url()}">Winter cup</a>'
        " (cancelled: this match no longer counts for it)</p>" in page.text
    )
    assert "Semi-finals" not in page.text


def test_the_dashboard_card_says_the_tournament_was_cancelled(client, alice):
    _, semi = _cancelled_cup(alice)
    client.force_login(semi.white)

    page = client.get("/dashboard/")

    assert "<bdi>Winter cup</bdi> (cancelled) · " in page.text


def test_the_turn_email_of_a_cancelled_tournaments_match_names_no_tournament(
    alice, django_capture_on_commit_callbacks
):
    _, drawn = _cancelled_cup(alice)
    semi = opened_by_white(drawn.white, drawn.black)
    TournamentMatch.objects.filter(match=drawn).update(match=semi)

    with django_capture_on_commit_callbacks(execute=True):
        _white_plays_6_3(semi)

    [turn] = _turn_emails_to(semi.black)
    assert turn.subject == f"Your turn against {semi.white} (match #{semi.pk})"
    assert "tournament" not in turn.body
    assert "Winter cup" not in turn.body


def test_the_reminder_of_a_cancelled_tournaments_match_gives_no_tournament_warning(
    alice, django_capture_on_commit_callbacks
):
    _, semi = _cancelled_cup(alice)

    with django_capture_on_commit_callbacks(execute=True):
        game_services.sweep_deadlines(now=semi.remind_at + timedelta(seconds=1))

    [reminder] = [
        m for m in mail.outbox if m.to == [semi.to_move.email] and m.subject.startswith("Reminder")
    ]
    assert "tournament" not in reminder.body
    assert "Winter cup" not in reminder.body


@pytest.mark.parametrize(
    ("format", "titles"),
    [
        (Format.SINGLE_ELIMINATION, ["Round 1", "Quarter-finals", "Semi-finals", "Final"]),
        # Its first rounds named as its later ones are, beside "Losers round 1".
        (
            Format.DOUBLE_ELIMINATION,
            ["Winners round 1", "Winners round 2", "Winners semi-finals", "Winners final"],
        ),
    ],
)
def test_the_rounds_of_the_winners_bracket_are_named_by_format(format, titles):
    draw = Draw.create(format, range(1, 17))

    assert [services.round_title(draw, Bracket.WINNERS, n) for n in (1, 2, 3, 4)] == titles
    assert services.round_title(draw, Bracket.LOSERS, 1) == "Losers round 1"


@pytest.mark.parametrize(
    ("format", "options", "warned"),
    [
        (Format.ROUND_ROBIN, {}, "your matches still to play would go to your opponents"),
        (Format.SWISS, {"swiss_rounds": 2}, "you would not be paired again"),
        # A last round's loss on time is a plain loss (the reminder says so too).
        (Format.SWISS, {"swiss_rounds": 1}, None),
        (Format.SINGLE_ELIMINATION, {}, None),
    ],
)
def test_a_player_is_warned_where_a_loss_on_time_withdraws(client, alice, format, options, warned):
    players = make_users(4)
    tournament = started_tournament(alice, players, format=format, **options)
    match = active_matches(tournament)[0]
    client.force_login(match.white)

    page = " ".join(client.get(match.get_absolute_url()).text.split())
    client.logout()
    watching = client.get(match.get_absolute_url()).text

    said = "Losing this match on time also withdraws you from the tournament"
    if warned:
        assert f"{said}: {warned}" in page
    else:
        assert said not in page
    assert said not in watching  # a spectator has no match to lose
