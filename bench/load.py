"""Load benchmark (not a test): turn submissions through gunicorn, against a floor view.

    DATABASE_URL=postgres://acey:acey@127.0.0.1:5432/acey \\
    CELERY_BROKER_URL=redis://127.0.0.1:6379/0 \\
        .venv/bin/python -m bench.load [--clients 50] [--seconds 30] [--max-requests 20000]
            [--rounds 1] [--rate 50]

Empties (or creates) a database ``<name>_load`` next to the one DATABASE_URL names, migrates
it and seeds ``--clients`` players, each with an API key and a match against a partner of
their own (a human with a key too, so no bot plays). Then it starts, as subprocesses that it
stops by PID at the end, gunicorn serving the site plus the floor view (ACEY_URLCONF=
bench.urls) and a Celery worker (below gunicorn, at the niceness deploy/acey-worker.service
gives it) that sends the turn emails over SMTP to an aiosmtpd server in this process, and
drives ``--clients`` concurrent clients (threads, http.client):

1. turns, back to back: each client reads its match once (GET /api/v1/matches/<id>/),
   then submits the first legal play, or names 6-6 after a 1-2, with the key of whoever
   is to move (POST /api/v1/matches/<id>/turn/?since=<segment>), and plays the next turn
   from the state that answer returns (reading again only after a refusal), as an API
   client would; every turn passes the move and queues an email;
2. floor, back to back: each client POSTs /bench/floor/ (bench/floor.py: one INSERT in
   one transaction) again and again;
3. and 4. the same two, paced (``--rate`` requests a second in all, 0 to skip): each
   client starts a request every ``clients / rate`` seconds whatever the answers' speed,
   and a request's latency counts from when it was due (a late start is waiting too).

Back to back, latency is the number of clients over the throughput (Little's law), so the
throughput ratio is read there; the paced phases show the latency at a given load.
``--rounds`` repeats phases 1 and 2, in turn, and reports the round with the median ratio.

Each phase is measured for ``--seconds`` after an unmeasured warm-up (``--warmup`` seconds
and 25 requests per gunicorn worker thread), or until ``--max-requests`` requests. Latency is
timed for the turn POSTs only (and the floor's). For each back-to-back phase it also
reports the CPU time that gunicorn, PostgreSQL, the worker, the Redis server (when it runs
on this machine) and the clients spent per request (Linux /proc); a turn phase includes the
worker's and Redis's time to send that phase's emails.
"""

from __future__ import annotations

import argparse
import http.client
import json
import math
import os
import secrets
import socket
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from urllib.parse import urlparse

from bench.pages import create_database, database_beside

BASE_DIR = Path(__file__).resolve().parent.parent
TARGET_P95_MS = 100
TARGET_RATIO = 0.40
#: The worker's niceness, as in deploy/acey-worker.service (Nice=).
WORKER_NICENESS = 10
FLOOR_TABLE = (
    "CREATE TABLE IF NOT EXISTS bench_floor"
    " (id bigserial primary key, at timestamptz default now(), body text)"
)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def server_environment(*, database_url: str, broker_url: str, queue: str, smtp_port: int):
    """The environment of gunicorn, the worker and this script: production-like settings
    (DEBUG off) over plain HTTP on 127.0.0.1."""
    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "aceysite.settings",
        "ACEY_URLCONF": "bench.urls",
        "DATABASE_URL": database_url,
        "CELERY_BROKER_URL": broker_url,
        "CELERY_TASK_ALWAYS_EAGER": "false",
        "CELERY_TASK_DEFAULT_QUEUE": queue,
        "DEBUG": "false",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "127.0.0.1",
        "SECURE_SSL_REDIRECT": "false",
        "SECURE_HSTS_SECONDS": "0",
        "SMTP_HOST": "127.0.0.1",
        "SMTP_PORT": str(smtp_port),
        "SMTP_USER": "",
        "SMTP_PASSWORD": "",
        "SMTP_USE_TLS": "false",
        "SITE_URL": "http://127.0.0.1",
        "LOG_LEVEL": "WARNING",
        # Every turn's email is sent at once, whoever answers first: the bench measures a
        # turn with its email (by default a turn answered within minutes sends none).
        "ACEY_TURN_EMAIL_DELAY": "0",
        # The rematches' offers, accepted at once, dropped at once too: held, they would
        # count as email still to send until their wait was over.
        "ACEY_CHALLENGE_EMAIL_DELAY": "0",
    }


# -- the database ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Pairing:
    """One client's match and the API keys of its two players, by username."""

    match_id: int
    keys: dict[str, str]
    player: str
    partner: str


def prepare_database(clients: int) -> list[Pairing]:
    """Migrate, empty and seed the load database (Django is set up for it by then)."""
    from django.core.management import call_command
    from django.db import connection

    call_command("migrate", verbosity=0)
    call_command("flush", interactive=False, verbosity=0)  # an earlier run's matches
    with connection.cursor() as cursor:
        cursor.execute(FLOOR_TABLE)
        cursor.execute("TRUNCATE bench_floor")
    return [seat(n) for n in range(clients)]


def seat(n: int) -> Pairing:
    from django.utils import timezone

    from accounts.models import ApiToken, User

    # Confirmed addresses: every turn emails the other player, as the bench measures.
    confirmed = timezone.now()
    player = User.objects.create_user(
        username=f"load{n:03}", email=f"load{n}@example.com", email_confirmed_at=confirmed
    )
    partner = User.objects.create_user(
        username=f"partner{n:03}", email=f"partner{n}@example.com", email_confirmed_at=confirmed
    )
    match = start_match(player, partner)
    keys = {user.username: ApiToken.issue(user, "bench.load")[1] for user in (player, partner)}
    return Pairing(match.pk, keys, player.username, partner.username)


def start_match(white, black):
    """A match on the bench's terms (the seeded ones, and those bench.turn starts anew)."""
    from games import services

    return services.start_match(
        white=white, black=black, variant="american", points=7, days_per_move=2
    )


def unsent_emails() -> int:
    """The emails still to send: not sent, nor dropped as no longer needed (the seeding's
    challenges, accepted at once, drop their own)."""
    from games.models import Notification

    return Notification.objects.filter(sent_at=None, cancelled_at=None).count()


def wait_for_emails(timeout: float) -> float:
    """Let the worker send the emails of the turn phase before the floor phase starts, so
    that it does not take CPU from the floor; return how long that took."""
    began = time.perf_counter()
    while unsent_emails() and time.perf_counter() - began < timeout:
        time.sleep(0.5)
    return time.perf_counter() - began


# -- processes -------------------------------------------------------------------------------


class Processes:
    """The subprocesses this script started, stopped by their PIDs."""

    def __init__(self, logs: Path) -> None:
        self.logs = logs
        self.running: list[subprocess.Popen] = []

    def start(self, name: str, command: list[str], env: dict[str, str]) -> subprocess.Popen:
        with (self.logs / f"{name}.log").open("wb") as log:
            process = subprocess.Popen(
                command, cwd=BASE_DIR, env=env, stdout=log, stderr=subprocess.STDOUT
            )
        self.running.append(process)
        return process

    def stop_all(self) -> None:
        for process in reversed(self.running):
            if process.poll() is None:
                process.terminate()
        for process in self.running:
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


class CountingMailbox:
    def __init__(self) -> None:
        self.received = 0

    async def handle_DATA(self, server, session, envelope) -> str:
        self.received += 1
        return "250 2.0.0 OK"


def cpu_seconds(pid: int) -> float:
    """User and system CPU seconds a process has used (Linux /proc; 0 once it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def family(pid: int) -> list[int]:
    """A process and its children (gunicorn's workers)."""
    try:
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        children = []
    return [pid, *map(int, children)]


def redis_server_pid(url: str) -> int | None:
    """The process id of the Redis server at ``url`` if it runs on this machine (so that
    its CPU can be read), else None."""
    import redis

    if urlparse(url).hostname not in ("127.0.0.1", "localhost", "::1"):
        return None
    client = redis.Redis.from_url(url, socket_timeout=5)
    try:
        pid = int(client.info("server")["process_id"])
    finally:
        client.close()
    return pid if Path(f"/proc/{pid}/stat").exists() else None


class CpuMeter:
    """CPU seconds used by each part of the system under load, process by process: gunicorn,
    the PostgreSQL backends of the load database, the Celery worker, the Redis server (if it
    runs here: a turn wakes the email sweep through it, the worker takes its tasks from it;
    it serves whatever else uses it too, idle in a run of its own), and this process (the
    clients and the SMTP server)."""

    def __init__(
        self, *, gunicorn: int, worker: int, database: str, redis: int | None = None
    ) -> None:
        self.gunicorn, self.worker, self.database = gunicorn, worker, database
        self.redis = redis

    def read(self) -> dict[str, dict[int, float]]:
        """Each part's processes and the CPU seconds each has used so far."""
        from django.db import connection

        with connection.cursor() as cursor:
            cursor.execute("SELECT pid FROM pg_stat_activity WHERE datname = %s", [self.database])
            backends = [pid for (pid,) in cursor.fetchall()]
        parts = self.read_parts(backends)
        return {name: {pid: cpu_seconds(pid) for pid in pids} for name, pids in parts.items()}

    def read_parts(self, backends: Sequence[int] = ()) -> dict[str, list[int]]:
        """Each part's processes, in the report's order (``backends``: PostgreSQL's)."""
        return {
            "gunicorn": family(self.gunicorn),
            "PostgreSQL": list(backends),
            "celery worker": family(self.worker),
            **({"Redis": [self.redis]} if self.redis else {}),
            "clients+SMTP": [os.getpid()],
        }

    @staticmethod
    def used(before: dict[str, dict[int, float]], after: dict[str, dict[int, float]]):
        return {
            name: sum(cpu - before[name].get(pid, 0.0) for pid, cpu in pids.items())
            for name, pids in after.items()
        }


def wait_until_serving(port: int, process: subprocess.Popen, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            connection.request("GET", "/api/v1/")
            connection.getresponse().read()
            connection.close()
            return
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                sys.exit("gunicorn did not start: see its log")
            time.sleep(0.2)


# -- clients ---------------------------------------------------------------------------------


class Client:
    """One HTTP client: JSON in, JSON out, reconnecting whenever the server closes."""

    def __init__(self, port: int) -> None:
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)

    def call(self, method: str, path: str, *, key: str = "", body: object = None):
        headers = {"Accept": "application/json"}
        if key:
            headers["Authorization"] = f"Token {key}"
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        try:
            self.connection.request(method, path, body=data, headers=headers)
            response = self.connection.getresponse()
            payload = response.read()
        except (OSError, http.client.HTTPException):
            self.connection.close()
            return 0, {}
        return response.status, json.loads(payload) if payload else {}


@dataclass
class Tally:
    """What one client saw: latencies (ms) of successful requests by kind, failures."""

    latencies: dict[str, list[float]] = field(default_factory=dict)
    failures: Counter = field(default_factory=Counter)


class Phase:
    """A stretch of load: a warm-up of at least ``warmup`` seconds and ``warm_requests``
    requests (every gunicorn worker has paid its first requests' imports and connections),
    then ``seconds`` measured, or ``max_requests``."""

    def __init__(
        self,
        *,
        warmup: float,
        warm_requests: int,
        seconds: float,
        max_requests: int,
        interval: float | None = None,
    ) -> None:
        #: Paced (open-loop) phases: each client starts a request every ``interval``
        #: seconds whatever the answers' speed; None: back to back.
        self.interval = interval
        self.cpu: dict[str, float] = {}
        self.measuring = threading.Event()
        self.began = time.perf_counter()
        self.warmup, self.warm_requests, self.warmed = warmup, warm_requests, 0
        self.length, self.max_requests, self.counted = seconds, max_requests, 0
        self.measure_from = self.ends_at = math.inf
        self._lock = threading.Lock()

    def running(self) -> bool:
        return time.perf_counter() < self.ends_at

    def timed(
        self,
        tally: Tally,
        kind: str,
        request: Callable[[], tuple[int, dict]],
        *,
        due: float | None = None,
    ):
        """Make the request and record its latency, counted from ``due`` (when a paced
        client meant to send it, so a late start counts as waiting) or from now."""
        began = time.perf_counter() if due is None else due
        status, answer = request()
        ended = time.perf_counter()
        with self._lock:
            if not self.measuring.is_set():
                self._warm_up(ended)
                return status, answer
            if began < self.measure_from or ended > self.ends_at:
                return status, answer
            self.counted += 1
            if self.counted >= self.max_requests:
                self.ends_at = ended
        if status == 200:
            tally.latencies.setdefault(kind, []).append((ended - began) * 1000)
        else:
            tally.failures[f"{kind} {status or 'no answer'}"] += 1
        return status, answer

    def _warm_up(self, now: float) -> None:
        self.warmed += 1
        warm = self.warmed >= self.warm_requests and now - self.began >= self.warmup
        if warm or now - self.began > self.warmup + 60:
            self.measure_from, self.ends_at = now, now + self.length
            self.measuring.set()

    @property
    def seconds(self) -> float:
        return self.ends_at - self.measure_from


def turn_body(state: dict) -> dict:
    """The first legal play, or 6-6 (else the first double allowed) after a 1-2."""
    if state["phase"] == "name_double":
        allowed = state.get("allowed_doubles") or [6]
        return {"segment": state["segment"], "double": 6 if 6 in allowed else allowed[0]}
    return {"segment": state["segment"], "play": (state["legal_plays"] or [""])[0]}


class Pacer:
    """When a client's next request is due: back to back, or every ``interval`` seconds
    from a start staggered by client (``offset``)."""

    def __init__(self, phase: Phase, offset: float) -> None:
        self.interval = phase.interval
        self.next = time.perf_counter() + (offset if self.interval else 0.0)

    def wait(self) -> float | None:
        """Sleep until the next request is due; return when it was due (None if unpaced)."""
        if not self.interval:
            return None
        due = self.next
        self.next += self.interval
        delay = due - time.perf_counter()
        if delay > 0:
            time.sleep(delay)
        return due


def play_turns(port: int, pairing: Pairing, phase: Phase, tally: Tally, offset: float) -> None:
    """Play the pairing's match from the state each turn's answer returns (as an API client
    would); read the match (GET) only at the start and after a refused turn."""
    client = Client(port)
    pacer = Pacer(phase, offset)
    match_id = pairing.match_id
    reader = pairing.keys[pairing.player]
    state: dict = {}
    while phase.running():
        path = f"/api/v1/matches/{match_id}/"
        if not state:
            status, state = phase.timed(
                tally, "read", partial(client.call, "GET", path, key=reader)
            )
            if status != 200:
                state = {}
                continue
        if state["status"] != "active":
            match_id = rematch(client, pairing) or match_id
            state = {}
            continue
        key, body = pairing.keys[state["to_move"]], turn_body(state)
        due = pacer.wait()
        # A client that keeps the history asks only for the segments it has not seen.
        turn = f"{path}turn/?since={state['segment']}"
        post = partial(client.call, "POST", turn, key=key, body=body)
        status, answer = phase.timed(tally, "turn", post, due=due)
        state = answer if status == 200 else {}


def rematch(client: Client, pairing: Pairing) -> int | None:
    """A new match between the pair once the last one is over (not measured); None if the
    server refused."""
    offer = {"opponent": pairing.partner, "variant": "american", "points": 7, "days_per_move": 2}
    player, partner = pairing.keys[pairing.player], pairing.keys[pairing.partner]
    status, challenge = client.call("POST", "/api/v1/challenges/", key=player, body=offer)
    if status != 201:
        return None
    path = f"/api/v1/challenges/{challenge['id']}/accept/"
    status, accepted = client.call("POST", path, key=partner, body={})
    return accepted["match"] if status == 200 else None


def hit_floor(port: int, pairing: Pairing, phase: Phase, tally: Tally, offset: float) -> None:
    client = Client(port)
    pacer = Pacer(phase, offset)
    while phase.running():
        due = pacer.wait()
        phase.timed(tally, "floor", partial(client.call, "POST", "/bench/floor/", body={}), due=due)


def drive(target, port: int, pairings: list[Pairing], phase: Phase, meter: CpuMeter) -> Tally:
    tallies = [Tally() for _ in pairings]
    # Paced clients start staggered over one interval, so requests arrive evenly.
    stagger = (phase.interval or 0.0) / len(pairings)
    threads = [
        threading.Thread(
            target=target, args=(port, pairing, phase, tally, n * stagger), daemon=True
        )
        for n, (pairing, tally) in enumerate(zip(pairings, tallies, strict=True))
    ]
    for thread in threads:
        thread.start()
    phase.measuring.wait()
    before = meter.read()
    for thread in threads:
        thread.join()
    phase.cpu = meter.used(before, meter.read())
    merged = Tally()
    for tally in tallies:
        for kind, values in tally.latencies.items():
            merged.latencies.setdefault(kind, []).extend(values)
        merged.failures.update(tally.failures)
    return merged


# -- the report ------------------------------------------------------------------------------


def percentile(ordered: list[float], p: float) -> float:
    """Nearest-rank percentile of sorted values."""
    if not ordered:
        return math.nan
    return ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)]


def row(label: str, latencies: list[float], seconds: float) -> tuple[str, float]:
    ordered = sorted(latencies)
    rate = len(ordered) / seconds
    p50, p95, p99 = (percentile(ordered, p) for p in (50, 95, 99))
    return (
        f"{label:<28} {len(ordered):>8} {rate:>8.1f} {p50:>8.1f} {p95:>8.1f} {p99:>8.1f}",
        rate,
    )


def print_table(rows: list[tuple[str, list[float], float]]) -> list[float]:
    """Print request counts, rates and latency percentiles; return the rates."""
    print(f"{'':<28} {'requests':>8} {'req/s':>8} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8}")
    rates = []
    for label, latencies, seconds in rows:
        line, rate = row(label, latencies, seconds)
        print(line)
        rates.append(rate)
    return rates


def print_cpu(rows: list[tuple[str, Phase, int]]) -> None:
    names = next(iter(rows))[1].cpu
    print(f"CPU ms per request {'':<10}", *(f"{name:>13}" for name in names), "   total")
    for label, phase, count in rows:
        per = [1000 * cpu / max(count, 1) for cpu in phase.cpu.values()]
        print(f"{label:<28}", *(f"{ms:>13.1f}" for ms in per), f"{sum(per):>8.1f}")


def report(args, runs: dict[str, tuple[Tally, Phase]], ratios: list[float]) -> None:
    """Print the figures: the back-to-back round given in ``runs`` (the median one) in
    full, and the throughput ratio of every round (``ratios``)."""
    verdict = {True: "met", False: "NOT met"}
    turns, turn_phase = runs["turns"]
    floor, floor_phase = runs["floor"]
    print(f"\nback to back: {args.clients} clients, each sending its next request on the answer")
    turn_rate, _, floor_rate = print_table(
        [
            ("turn submissions (POST)", turns.latencies.get("turn", []), turn_phase.seconds),
            ("  state reads (GET)", turns.latencies.get("read", []), turn_phase.seconds),
            ("floor (POST)", floor.latencies.get("floor", []), floor_phase.seconds),
        ]
    )
    ratio = turn_rate / floor_rate if floor_rate else math.nan
    print(f"throughput ratio, turn submissions / floor: {ratio:.2f}")
    if len(ratios) > 1:
        listed = ", ".join(f"{each:.2f}" for each in ratios)
        print(f"  the ratio of each of {len(ratios)} rounds: {listed}; above, the median round")
    print_cpu(
        [
            ("turn (POST, its email)", turn_phase, len(turns.latencies.get("turn", []))),
            ("floor", floor_phase, len(floor.latencies.get("floor", []))),
        ]
    )
    failures = turns.failures + floor.failures
    if "paced turns" in runs:
        paced, paced_phase = runs["paced turns"]
        paced_floor, paced_floor_phase = runs["paced floor"]
        interval = paced_phase.interval or 0.0
        print(
            f"\npaced: {args.clients} clients, each starting a request every {interval:.2f} s"
            f" ({args.rate:g} requests/s in all); latency counted from when a request was due"
        )
        print_table(
            [
                ("turn submissions (POST)", paced.latencies.get("turn", []), paced_phase.seconds),
                (
                    "floor (POST)",
                    paced_floor.latencies.get("floor", []),
                    paced_floor_phase.seconds,
                ),
            ]
        )
        failures += paced.failures + paced_floor.failures
        p95 = percentile(sorted(paced.latencies.get("turn", [])), 95)
        where = f"paced at {args.rate:g}/s"
    else:
        p95 = percentile(sorted(turns.latencies.get("turn", [])), 95)
        where = "back to back"
    print(f"\nfailed requests: {dict(failures) if failures else 'none'}")
    print(
        f"target turn p95 < {TARGET_P95_MS} ms at {args.clients} clients ({where}):"
        f" {verdict[p95 < TARGET_P95_MS]} ({p95:.0f} ms)"
    )
    print(
        f"target turn throughput >= {TARGET_RATIO:.0%} of the floor (back to back):"
        f" {verdict[ratio >= TARGET_RATIO]} ({ratio:.0%})"
    )


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=50, help="concurrent clients (and matches)")
    parser.add_argument("--seconds", type=float, default=30, help="measured seconds per phase")
    parser.add_argument("--warmup", type=float, default=3, help="unmeasured seconds per phase")
    parser.add_argument("--max-requests", type=int, default=20_000, help="per phase")
    parser.add_argument(
        "--rounds",
        type=int,
        default=1,
        help="back-to-back turn and floor phases, in turn; the median round is reported",
    )
    parser.add_argument(
        "--rate",
        type=float,
        default=50,
        help="requests/s in all for the paced phases (0: no paced phases)",
    )
    parser.add_argument("--workers", type=int, default=4, help="gunicorn worker processes")
    parser.add_argument(
        "--threads", type=int, default=1, help="threads per gunicorn worker (>1: gthread)"
    )
    return parser.parse_args()


def start_gunicorn(processes: Processes, args, port: int, env: dict[str, str]):
    threads = ("--worker-class", "gthread", "--threads", str(args.threads))
    # The site's own gunicorn.conf.py, as in production (its workers overridden), but no
    # access log (the Procfile's --access-logfile): the figures in the README have none.
    return processes.start(
        "gunicorn",
        [
            *(sys.executable, "-m", "gunicorn", "aceysite.wsgi", "--config", "gunicorn.conf.py"),
            *("--bind", f"127.0.0.1:{port}"),
            *("--workers", str(args.workers), "--backlog", "2048", "--log-level", "warning"),
            *(threads if args.threads > 1 else ()),
        ],
        env,
    )


def start_worker(processes: Processes, queue: str, env: dict[str, str]) -> subprocess.Popen:
    # At the niceness deploy/acey-worker.service gives it, below gunicorn's; `nice` execs
    # the worker, so the PID is the worker's.
    return processes.start(
        "worker",
        [
            *("nice", "-n", str(WORKER_NICENESS)),
            *(sys.executable, "-m", "celery", "-A", "aceysite", "worker", "--pool=solo"),
            *(f"--queues={queue}", f"--hostname={queue}@%h", "--loglevel=warning"),
            *("--without-heartbeat", "--without-gossip", "--without-mingle"),
        ],
        env,
    )


def measure(args, port: int, pairings: list[Pairing], meter: CpuMeter, mailbox) -> None:
    """Turns then the floor back to back (``--rounds`` times), then (with --rate) both
    paced; each turn phase waits for the worker to send its emails, so that the next phase
    has the CPU."""
    limits = {
        "warmup": args.warmup,
        "warm_requests": 25 * args.workers * args.threads,
        "seconds": args.seconds,
        "max_requests": args.max_requests,
    }

    def run_phase(name: str, target: Callable, interval: float | None) -> tuple[Tally, Phase]:
        phase = Phase(**limits, interval=interval)
        tally = drive(target, port, pairings, phase, meter)
        if target is play_turns:
            before = meter.read()
            drained = wait_for_emails(timeout=120)
            # The phase's emails are its work too, even those sent after it (and Redis's
            # part in them: the worker takes its tasks from it).
            after = meter.used(before, meter.read())
            for part in ("celery worker", "Redis"):
                if part in phase.cpu:
                    phase.cpu[part] += after[part]
            print(f"{name}: the worker finished sending {drained:.0f} s after the phase")
        return tally, phase

    rounds: list[dict[str, tuple[Tally, Phase]]] = []
    for number in range(1, args.rounds + 1):
        named = "" if args.rounds == 1 else f" (round {number})"
        pair = [("turns", play_turns), ("floor", hit_floor)]
        rounds.append({name: run_phase(name + named, target, None) for name, target in pair})
    runs = dict(median_round(rounds))
    if args.rate > 0:
        interval = args.clients / args.rate
        for name, target in (("paced turns", play_turns), ("paced floor", hit_floor)):
            runs[name] = run_phase(name, target, interval)
    report(args, runs, [ratio_of(one) for one in rounds])
    print(f"turn emails: {mailbox.received} received over SMTP, {unsent_emails()} unsent")


def ratio_of(pair: dict[str, tuple[Tally, Phase]]) -> float:
    """One back-to-back round's turn submissions a second over its floor's."""
    turns, turn_phase = pair["turns"]
    floor, floor_phase = pair["floor"]
    turn_rate = len(turns.latencies.get("turn", [])) / turn_phase.seconds
    floor_rate = len(floor.latencies.get("floor", [])) / floor_phase.seconds
    return turn_rate / floor_rate if floor_rate else math.nan


def median_round(rounds: list[dict[str, tuple[Tally, Phase]]]) -> dict[str, tuple[Tally, Phase]]:
    """The round whose ratio is the median (the lower of the middle two): the one reported
    in full. This machine's speed drifts by a tenth from minute to minute, so one round
    alone can flatter or wrong a change; turns and their floor are measured minutes apart
    at most, round by round."""
    ordered = sorted(rounds, key=ratio_of)
    return ordered[(len(ordered) - 1) // 2]


def main() -> None:
    args = parse_args()
    broker_url = os.environ.get("CELERY_BROKER_URL", "")
    if not broker_url.startswith("redis"):
        sys.exit("bench.load needs Redis: set CELERY_BROKER_URL=redis://...")
    database_url = database_beside(os.environ.get("DATABASE_URL", ""), "_load", script="bench.load")
    database = urlparse(database_url).path[1:]
    create_database(database_url)
    queue = f"bench-load-{os.getpid()}"
    logs = Path(f"/tmp/{queue}")
    logs.mkdir(exist_ok=True)

    from aiosmtpd.controller import Controller

    mailbox = CountingMailbox()
    smtp = Controller(mailbox, hostname="127.0.0.1", port=free_port())
    smtp.start()
    processes = Processes(logs)
    try:
        env = server_environment(
            database_url=database_url, broker_url=broker_url, queue=queue, smtp_port=smtp.port
        )
        os.environ.update(env)
        import django

        django.setup()
        print(f"seeding {args.clients} matches in {database}...", flush=True)
        pairings = prepare_database(args.clients)
        port = free_port()
        gunicorn = start_gunicorn(processes, args, port, env)
        worker = start_worker(processes, queue, env)
        wait_until_serving(port, gunicorn)
        kind = f"gthread x {args.threads} threads" if args.threads > 1 else "sync"
        print(
            f"gunicorn: {args.workers} {kind} workers on 127.0.0.1:{port}; {args.clients} clients;"
            f" {args.seconds:.0f} s per phase (at most {args.max_requests} requests);"
            f" {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}; logs in {logs}",
            flush=True,
        )
        meter = CpuMeter(
            gunicorn=gunicorn.pid,
            worker=worker.pid,
            database=database,
            redis=redis_server_pid(broker_url),
        )
        measure(args, port, pairings, meter, mailbox)
    finally:
        processes.stop_all()
        smtp.stop()
        forget_queue(broker_url, queue)


def forget_queue(broker_url: str, queue: str) -> None:
    import redis

    keys = (queue, f"_kombu.binding.{queue}", f"_kombu.binding_permanent.{queue}")
    redis.Redis.from_url(broker_url).delete(*keys)


if __name__ == "__main__":
    main()
