"""Where a turn's CPU goes (not a test): one process, no HTTP, no contention.

    DATABASE_URL=postgres://acey:acey@127.0.0.1:5432/acey \\
    CELERY_BROKER_URL=redis://127.0.0.1:6379/0 \\
        .venv/bin/python -m bench.turn [--turns 1000] [--matches 50]

Seeds a database ``<name>_turn`` next to the one DATABASE_URL names as bench.load seeds
its own (``--matches`` matches, each between two players with API keys and confirmed
addresses, every turn emailing the other player at once), then plays turns through
Django's test client and the API: the request, the middleware and the view as gunicorn
runs them, without HTTP. Each turn wakes the email sweep as the site does (a Redis SET of
a flag, and the sweep's task published to a queue of this script's own, deleted at the
end, when the flag was not set: with no worker clearing it here, once a minute; under
load, after each look a worker's sweep takes); the emails are then sent by the sweep the
worker runs (games.notifications.send_due_turn_emails), over SMTP to an aiosmtpd server in
a thread.

It prints the CPU time (this thread's, and its PostgreSQL backend's: not Redis's nor the
SMTP server's) of a turn and of an email, then the same turns and emails again with each
step timed (this thread's CPU). A step's figure leaves out the steps timed inside it;
"the rest" is what no step holds. The timers cost a little CPU themselves, and the
figures move by as much as a fifth from run to run.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import wraps
from urllib.parse import urlparse

from bench.load import (
    CountingMailbox,
    Pairing,
    cpu_seconds,
    forget_queue,
    free_port,
    prepare_database,
    seat,
    server_environment,
    start_match,
    turn_body,
)
from bench.pages import create_database, database_beside

#: What :meth:`Steps.timing` finds in place of a method its owner inherits.
_INHERITED = object()


class Steps:
    """CPU time by step: callables replaced by timed ones while :meth:`timing` lasts."""

    def __init__(self) -> None:
        self.spent: Counter[str] = Counter()
        self._inner: list[float] = []

    def timed(self, label: str, function: Callable) -> Callable:
        @wraps(function)
        def step(*args, **kwargs):
            began = time.thread_time()
            self._inner.append(0.0)
            try:
                return function(*args, **kwargs)
            finally:
                took = time.thread_time() - began
                self.spent[label] += took - self._inner.pop()
                if self._inner:
                    self._inner[-1] += took  # not the enclosing step's own time

        return step

    @contextmanager
    def timing(self, replaced: list[tuple[object, str, str]]) -> Iterator[None]:
        """Time each ``(owner, attribute, label)`` while inside."""
        originals: list[tuple[object, str, object]] = []
        try:
            for owner, name, label in replaced:
                original = vars(owner).get(name, _INHERITED)
                timed = self.timed(label, getattr(owner, name))
                if isinstance(original, classmethod):
                    # Read bound to the class, put back as a static method: called the
                    # same way, it gets the same class.
                    timed = staticmethod(timed)
                setattr(owner, name, timed)
                originals.append((owner, name, original))
            yield
        finally:
            for owner, name, original in reversed(originals):
                if original is _INHERITED:
                    delattr(owner, name)  # a method of a base class, or a manager's class
                else:
                    setattr(owner, name, original)


def turn_steps() -> list[tuple[object, str, str]]:
    from accounts.models import ApiToken
    from games import api, away, notifications, services, tally

    return [
        (ApiToken, "user_for_key", "the API key and its user (SELECT)"),
        (services, "_locked_for_turn", "the match locked, with its players (SELECT)"),
        (services, "_apply", "the play checked and made (engine)"),
        (services, "_play_forced", "forced follow-ups looked for (engine)"),
        (services, "_record", "the segments stored (INSERT)"),
        (away, "clock_start", "the next player's return from time away (SELECT)"),
        (notifications, "insert", "the turn email queued (INSERT)"),
        (notifications, "turn_passed", "the turn email's subject and facts"),
        (services, "update", "the match saved (UPDATE)"),
        (tally, "_add_all", "the roll added to the dice tally (UPDATE)"),
        (notifications, "wake_turn_email_sweep", "the email's sweep woken (Redis SET)"),
        (notifications, "queue", "the sweep's task published, if none waits (Redis)"),
        (api, "match_state", "the answer: the new state and legal plays (JSON)"),
    ]


TURN_REST = "the rest: the request, middleware and view, BEGIN, COMMIT"
EMAIL_REST = "the rest: the look, the claim, the row, sent (SQL)"


def email_steps() -> list[tuple[object, str, str]]:
    from games import notifications

    return [
        (notifications, "_turn_email_text", "the email written: story, board, template"),
        (notifications, "_turn_email_as_sent", "its segments read (SELECT)"),
        (notifications, "_with_unsubscribe", "the unsubscribe link (signed)"),
        (notifications, "_deliver", "the message built and sent (email package, SMTP)"),
    ]


class Player:
    """Plays the seeded matches turn by turn through the API, a new match for a pair
    once theirs is over (not timed)."""

    def __init__(self, pairings: list[Pairing]) -> None:
        from django.test import Client

        self.client = Client()
        self.pairings = pairings
        self.states: dict[int, dict] = {}
        for index, pairing in enumerate(pairings):
            self.states[index] = self._read(pairing)

    def _headers(self, key: str) -> dict[str, str]:
        return {"HTTP_AUTHORIZATION": f"Token {key}"}

    def _read(self, pairing: Pairing) -> dict:
        path = f"/api/v1/matches/{pairing.match_id}/"
        return self.client.get(path, **self._headers(pairing.keys[pairing.player])).json()

    def play(self, turns: int) -> float:
        """Play ``turns`` turns round the matches; return the CPU seconds they took."""
        cpu = 0.0
        played = 0
        while played < turns:
            for index, pairing in enumerate(self.pairings):
                state = self.states[index]
                if state["status"] != "active":
                    pairing = self.pairings[index] = self._rematch(pairing)
                    state = self._read(pairing)
                key = pairing.keys[state["to_move"]]
                path = f"/api/v1/matches/{pairing.match_id}/turn/?since={state['segment']}"
                body = json.dumps(turn_body(state))
                began = time.thread_time()
                response = self.client.post(
                    path, body, content_type="application/json", **self._headers(key)
                )
                cpu += time.thread_time() - began
                if response.status_code != 200:
                    sys.exit(f"a turn was refused: {response.status_code} {response.content!r}")
                self.states[index] = response.json()
                played += 1
                if played == turns:
                    break
        return cpu

    @staticmethod
    def _rematch(pairing: Pairing) -> Pairing:
        from accounts.models import User

        white, black = (
            User.objects.get(username=name) for name in (pairing.player, pairing.partner)
        )
        match = start_match(white, black)
        return Pairing(match.pk, pairing.keys, pairing.player, pairing.partner)


class Collector:
    """This thread's CPU time inside the garbage collector while :meth:`counting` lasts:
    collecting costs a turn what freeing the cyclic garbage it finds costs (the number of
    collections matters little: raising gc's threshold made fewer, longer ones)."""

    def __init__(self) -> None:
        self.seconds = 0.0
        self._began = 0.0

    def _callback(self, phase: str, info: dict) -> None:
        if phase == "start":
            self._began = time.thread_time()
        else:
            self.seconds += time.thread_time() - self._began

    @contextmanager
    def counting(self) -> Iterator[None]:
        gc.callbacks.append(self._callback)
        try:
            yield
        finally:
            gc.callbacks.remove(self._callback)


def backend_cpu() -> tuple[int, float]:
    """This process's PostgreSQL backend (on this machine) and the CPU seconds it has
    used so far (Linux /proc, in clock ticks: a figure over many turns)."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        (pid,) = cursor.fetchone()
    return pid, cpu_seconds(pid)


def backend_ms(before: tuple[int, float], after: tuple[int, float], count: int) -> str:
    """PostgreSQL's CPU per item between two :func:`backend_cpu` readings, in words."""
    if before[0] != after[0]:
        return "PostgreSQL's not measured (the connection changed)"
    return f"PostgreSQL's {(after[1] - before[1]) / count * 1000:.2f} ms"


def unsent_after(pk: int) -> list[int]:
    from games.models import Notification

    rows = Notification.objects.filter(pk__gt=pk, sent_at=None, cancelled_at=None)
    return list(rows.order_by("pk").values_list("pk", flat=True))


def newest_email() -> int:
    from games.models import Notification

    return Notification.objects.order_by("-pk").values_list("pk", flat=True).first() or 0


def send(ids: list[int]) -> float:
    """Send the emails ``ids`` (every turn email due) as the worker's sweep does; return
    the CPU seconds it took."""
    from games.notifications import send_due_turn_emails

    began = time.thread_time()
    sent = send_due_turn_emails()
    took = time.thread_time() - began
    if sent != len(ids):
        sys.exit(f"{sent} emails sent of {len(ids)}")
    return took


def print_split(title: str, count: int, total: float, steps: Steps, rest: str) -> None:
    print(f"\n{title}: {total / count * 1000:.2f} ms of CPU each, with the timers")
    for label, seconds in steps.spent.most_common():
        print(f"  {label:<58} {seconds / count * 1000:6.2f}")
    untimed = total - sum(steps.spent.values())
    print(f"  {rest:<58} {untimed / count * 1000:6.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=1000, help="turns per measurement")
    parser.add_argument("--matches", type=int, default=50, help="matches played in turn")
    args = parser.parse_args()
    broker_url = os.environ.get("CELERY_BROKER_URL", "")
    if not broker_url.startswith("redis"):
        sys.exit("bench.turn needs Redis: set CELERY_BROKER_URL=redis://...")
    database_url = database_beside(os.environ.get("DATABASE_URL", ""), "_turn", script="bench.turn")
    create_database(database_url)
    queue = f"bench-turn-{os.getpid()}"

    from aiosmtpd.controller import Controller

    mailbox = CountingMailbox()
    smtp = Controller(mailbox, hostname="127.0.0.1", port=free_port())
    smtp.start()
    try:
        os.environ.update(
            server_environment(
                database_url=database_url, broker_url=broker_url, queue=queue, smtp_port=smtp.port
            )
        )
        os.environ["ALLOWED_HOSTS"] = "testserver"  # Django's test client
        import django

        django.setup()
        # The site loaded as gunicorn loads it: its views imported, and what that made
        # frozen out of the garbage collector's way.
        import aceysite.wsgi  # noqa: F401

        database = urlparse(database_url).path[1:]
        print(f"seeding {args.matches} matches in {database}...", flush=True)
        prepare_database(0)
        player = Player([seat(n) for n in range(args.matches)])
        player.play(2 * args.matches)  # warm-up: imports, connections, caches
        send(unsent_after(0))

        first = newest_email()
        turns_began = backend_cpu()
        collector = Collector()
        with collector.counting():
            cpu = player.play(args.turns)
        turns_ended = backend_cpu()
        emails = unsent_after(first)
        email_cpu = send(emails)
        emails_ended = backend_cpu()
        print(
            f"{args.turns} turns in {args.matches} matches, Python {sys.version.split()[0]}:"
            f" {cpu / args.turns * 1000:.2f} ms of CPU a turn (its email queued;"
            f" {collector.seconds / args.turns * 1000:.2f} of them collecting garbage),"
            f" {backend_ms(turns_began, turns_ended, args.turns)};"
            f" {len(emails)} emails, {email_cpu / len(emails) * 1000:.2f} ms of CPU each,"
            f" {backend_ms(turns_ended, emails_ended, len(emails))}"
        )

        steps = Steps()
        first = newest_email()
        with steps.timing(turn_steps()):
            cpu = player.play(args.turns)
        print_split("a turn", args.turns, cpu, steps, TURN_REST)
        emails = unsent_after(first)
        steps = Steps()
        with steps.timing(email_steps()):
            email_cpu = send(emails)
        print_split("an email", len(emails), email_cpu, steps, EMAIL_REST)
        print(f"\n{mailbox.received} emails received over SMTP")
    finally:
        smtp.stop()
        forget_queue(broker_url, queue)


if __name__ == "__main__":
    main()
