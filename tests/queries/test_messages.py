"""A match's messages are read off the (match, id) index, in order: the match page's latest
and a page of the past read a few rows, however long the conversation and however many
messages the site holds."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.models import Match, Message
from tests.matches import opened_by_white

pytestmark = pytest.mark.django_db


def _conversations(long: Match, others: list[Match], *, messages: int, among: int) -> list[int]:
    """``messages`` messages in ``long``, written among ``among`` in ``others`` at the same
    time, all by the database (300,000 in a second or two): the ids of ``long``'s, the
    oldest first, all read by both players."""
    with connection.cursor() as cursor:
        cursor.execute(
            """INSERT INTO games_message (match_id, author_id, text, created_at)
            SELECT CASE WHEN n %% %s = 0 THEN %s ELSE (%s::int[])[1 + n %% %s] END,
                %s, 'Good luck, and enjoy the game!', now() - interval '2 days'
            FROM generate_series(1, %s) AS n""",
            [
                (messages + among) // messages,
                long.pk,
                [match.pk for match in others],
                len(others),
                long.white_id,
                messages + among,
            ],
        )
        cursor.execute("ANALYZE games_message")
    ids = list(Message.objects.filter(match=long).order_by("pk").values_list("pk", flat=True))
    Match.objects.filter(pk=long.pk).update(
        message_count=len(ids), white_read_to=ids[-1], black_read_to=ids[-1]
    )
    return ids


def _plan(client, url: str, query: dict) -> str:
    """The query plan of the messages' query of the page at ``url``."""
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url, query).status_code == 200
    [sql] = [q["sql"] for q in captured if 'FROM "games_message"' in q["sql"]]
    with connection.cursor() as cursor:
        cursor.execute(f"EXPLAIN {sql}")
        return "\n".join(row[0] for row in cursor.fetchall())


def test_the_match_page_reads_the_messages_off_their_index(
    postgres_url, client, alice, bob, charlie
):
    # Two years on: a conversation of 3,000 messages, written among many others at the
    # same time (its messages are a few of the site's, spread among them).
    long = opened_by_white(alice, bob)
    others = [opened_by_white(bob, charlie) for _ in range(4)]
    ids = _conversations(long, others, messages=3000, among=297_000)
    client.force_login(alice)

    latest = _plan(client, long.get_absolute_url(), {})
    older = _plan(client, long.get_absolute_url(), {"before": ids[1000]})
    newer = _plan(client, long.get_absolute_url(), {"after": ids[1000]})

    # Read in order, a few rows: neither all of the match's read and sorted, nor the
    # primary key walked back through the other matches' messages.
    # (Whether others precede or follow a page of the past: asked once, off the index too.)
    for plan in (latest, older, newer):
        assert "message_match_id_idx" in plan, plan
        assert "games_message_pkey" not in plan and "Sort" not in plan, plan
