"""Two bots play each other to the end in eager mode (bin/serve: no worker, tasks run in
the process), each bot turn's task after the last one's rather than inside it."""

from __future__ import annotations

import logging

import pytest

from games import services
from games.models import Match


# Each bot turn is queued as the transaction of the one before commits.
@pytest.mark.django_db(transaction=True)
def test_two_bots_play_a_whole_match_in_eager_mode(caplog):
    beginner, club, _expert = services.bot_users()

    with caplog.at_level(logging.ERROR):
        # Three greek games at least (a point each), some 300 bot turns: nested one in
        # the other, they overflowed the stack ("maximum recursion depth exceeded").
        match = services.start_match(
            white=beginner, black=club, variant="greek", points=3, days_per_move=1
        )

    match.refresh_from_db()
    assert [record.getMessage() for record in caplog.records] == []
    assert match.status == Match.Status.FINISHED
    assert max(match.score_white, match.score_black) == 3
