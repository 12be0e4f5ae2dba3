"""Tournament emails: the pairing email at every round, the bye notice, the result, the
cancellation. Sent after commit, so each test runs the on-commit callbacks."""

from __future__ import annotations

import pytest
from django.core import mail

from games.tournaments import services
from games.tournaments.brackets import Format

from .helpers import active_matches, lose, make_users, started_tournament

pytestmark = pytest.mark.django_db


def _tournament_mail(since: int = 0) -> list[tuple[str, str]]:
    """(recipient, subject) of the tournament emails sent since ``since``, sorted."""
    return sorted(
        (message.to[0], message.subject)
        for message in mail.outbox[since:]
        if "cup" in message.subject
    )


def test_it_emails_both_players_of_every_match_as_each_round_is_paired(
    alice, django_capture_on_commit_callbacks
):
    one, two, three, four = make_users(4)
    with django_capture_on_commit_callbacks(execute=True):
        tournament = started_tournament(alice, [one, two, three, four], format=Format.ROUND_ROBIN)

    first_round = _tournament_mail()
    assert len(first_round) == 4
    assert {recipient for recipient, _ in first_round} == {p.email for p in (one, two, three, four)}
    assert all("your match against" in subject for _, subject in first_round)

    sent = len(mail.outbox)
    with django_capture_on_commit_callbacks(execute=True):
        for match in active_matches(tournament):
            lose(match, match.white)

    second_round = _tournament_mail(sent)
    assert len(second_round) == 4
    assert {recipient for recipient, _ in second_round} == {
        p.email for p in (one, two, three, four)
    }


def test_it_links_the_pairing_email_to_the_match(alice, django_capture_on_commit_callbacks):
    players = make_users(2)
    with django_capture_on_commit_callbacks(execute=True):
        tournament = started_tournament(alice, players, format=Format.SINGLE_ELIMINATION)

    match = active_matches(tournament)[0]
    [message] = [m for m in mail.outbox if m.to == [match.white.email] and "cup" in m.subject]
    assert f"/matches/{match.pk}/" in message.body
    assert f"/tournaments/{tournament.pk}/" in message.body
    assert "Final" in message.body


def test_it_tells_a_player_with_a_first_round_bye_that_it_has_started(
    alice, django_capture_on_commit_callbacks
):
    players = make_users(3)
    with django_capture_on_commit_callbacks(execute=True):
        tournament = started_tournament(alice, players, format=Format.SINGLE_ELIMINATION)

    top_seed = tournament.entries.get(seed=1).user
    assert _tournament_mail().count((top_seed.email, f"{tournament.name} has started")) == 1
    assert len(_tournament_mail()) == 3


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


def test_it_emails_everyone_when_the_organiser_cancels(alice, django_capture_on_commit_callbacks):
    players = make_users(4)
    tournament = started_tournament(alice, players, format=Format.SWISS)

    with django_capture_on_commit_callbacks(execute=True):
        services.cancel_tournament(tournament.pk, user=alice)

    cancelled = [to for to, subject in _tournament_mail() if "cancelled" in subject]
    assert sorted(cancelled) == sorted([alice.email, *(player.email for player in players)])
