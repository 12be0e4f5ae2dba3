"""Races decided by PostgreSQL's row locks, set up so that they go one way every time: a
row is held in one thread while the calls under test, each in a thread of its own, come to
wait for it; then it is let go."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from django.db import connection, transaction


def until_waiting_for_a_lock(count: int) -> None:
    """Wait (up to 20 s) until ``count`` connections wait for a lock."""
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT count(*) FROM pg_stat_activity"
                " WHERE datname = current_database() AND wait_event_type = 'Lock'"
            )
            if cursor.fetchone()[0] >= count:
                return
        time.sleep(0.02)
    raise AssertionError(f"{count} connections never came to wait for a lock")


def all_waiting_on(
    hold: Callable[[], object], *calls: Callable[[], object], in_turn: bool = False
) -> list[object]:
    """Run ``calls`` in threads while ``hold`` (which locks a row) keeps its transaction
    open; let go once each call waits for a lock; return what each answered, or the
    exception it raised.

    ``in_turn``: start each call only once the one before waits, so that they queue for
    the row in their order; else they start together and queue as they come."""
    held, release = threading.Event(), threading.Event()
    results: list[object] = [None] * len(calls)

    def holder() -> None:
        try:
            with transaction.atomic():
                hold()
                held.set()
                release.wait(timeout=30)
        finally:
            connection.close()

    def run(index: int, call: Callable[[], object]) -> None:
        try:
            results[index] = call()
        except Exception as error:  # the outcome under test
            results[index] = error
        finally:
            connection.close()

    holding = threading.Thread(target=holder)
    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    holding.start()
    try:
        assert held.wait(timeout=10)
        for waiting, thread in enumerate(threads, start=1):
            thread.start()
            if in_turn:
                until_waiting_for_a_lock(waiting)
        until_waiting_for_a_lock(len(calls))
    finally:
        release.set()
    for thread in [holding, *threads]:
        thread.join(timeout=30)
    return results
