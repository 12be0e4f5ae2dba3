"""The SQL that closing an account costs for each match it resigns (games.closing)."""

from __future__ import annotations

import pytest

from games import closing
from games.models import Match, Notification, PlayerRating
from tests.matches import each_moves, opened_by_white

from .conftest import count_queries

pytestmark = pytest.mark.django_db


def _closing_with_matches(user, *, opponents) -> int:
    """The statements closing ``user``'s account makes, in play with each of
    ``opponents`` (rated players, as most are after their first match)."""
    for n, opponent in enumerate(opponents):
        PlayerRating.objects.get_or_create(user=opponent, variant="american")
        if n % 2:
            each_moves(opened_by_white(user, opponent, points=5))
        else:
            each_moves(opened_by_white(opponent, user, points=5))
    return count_queries(lambda: closing.close_account(user))


def test_each_match_resigned_costs_a_fixed_list_of_statements(django_user_model, alice, bob):
    PlayerRating.objects.create(user=alice, variant="american")
    PlayerRating.objects.create(user=bob, variant="american")
    others = [
        django_user_model.objects.create_user(
            f"player{n}", f"player{n}@example.com", email_confirmed_at=bob.email_confirmed_at
        )
        for n in range(3)
    ]
    one = _closing_with_matches(bob, opponents=others[:1])

    three = _closing_with_matches(alice, opponents=others)

    # Each: BEGIN (a savepoint inside the test's transaction); the match locked, with its
    # players and its tournament link; the game's result stored; the match saved; who has
    # moved in it (both: it is rated); the two ratings locked, and each one saved; the two
    # changes stored; the opponent's email stored, quoting the change (hers none: closing
    # erased her address); COMMIT.
    assert (three - one) / 2 == 11, (one, three)
    assert Match.objects.finished().filter(ending=Match.Ending.RESIGNATION).count() == 4
    emails = Notification.objects.filter(kind=Notification.Kind.FINISHED)
    assert sorted(emails.values_list("user__username", flat=True)) == [
        "player0",
        "player0",
        "player1",
        "player2",
    ]
    assert all("rating: " in email.body for email in emails)  # its change, quoted
