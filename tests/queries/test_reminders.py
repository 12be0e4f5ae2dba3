"""The SQL a deadline reminder costs the sweep: the same for a tournament's match, whose
email names its tournament, as for a casual one."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import services
from games.models import Notification
from games.tournaments.brackets import Format
from tests.matches import opened_by_white
from tests.tournaments_site.helpers import started_tournament

pytestmark = pytest.mark.django_db


def _reminded(match) -> list[str]:
    """The statements of a sweep that sends ``match``'s reminder, the only one due."""
    with CaptureQueriesContext(connection) as queries:
        swept = services.sweep_deadlines(now=match.remind_at)
    assert swept == {"timeouts": 0, "reminders": 1}
    assert Notification.objects.filter(key__startswith=f"reminder:{match.pk}:").exists()
    return [query["sql"] for query in queries]


@pytest.mark.parametrize("in_tournament", [False, True], ids=["casual", "tournament"])
def test_a_reminder_costs_a_fixed_list_of_statements(alice, bob, in_tournament):
    if in_tournament:
        cup = started_tournament(alice, [alice, bob], format=Format.ROUND_ROBIN)
        match = cup.tournament_matches.get().match
    else:
        match = opened_by_white(alice, bob)

    statements = _reminded(match)

    # The overdue matches (none), those due a reminder; the claim, in a savepoint; the
    # claimed match read again with its players and its tournament, in one SELECT; the
    # turn's earlier reminder looked for (none); the outbox's check for the email, and its
    # INSERT, in a savepoint of its own.
    assert len(statements) == 11, statements
    assert not [sql for sql in statements if sql.startswith('SELECT "tournaments_')]
