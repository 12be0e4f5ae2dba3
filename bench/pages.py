"""Page-time benchmark (not a test): leaderboard and profile pages over 100,000 matches,
and the match page of a long match.

    DATABASE_URL=postgres://acey:acey@127.0.0.1:5432/acey \\
        .venv/bin/python -m bench.pages [--matches 100000] [--players 1000] [--repeat 30]
            [--segments 1000]

Builds (once) a separate database ``<name>_bench`` next to the one DATABASE_URL names,
fills it with players, finished rated matches, their ratings and rating changes, then
requests the pages through Django's test client against that real database and prints
the median and p95 time per page and the number of SQL queries each takes.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from collections import Counter
from datetime import timedelta
from urllib.parse import urlparse, urlunparse


def database_beside(url: str, suffix: str, *, script: str) -> str:
    """The URL of a database of ``script``'s own next to the PostgreSQL one ``url`` names:
    its name with ``suffix`` added. Exits if ``url`` is not PostgreSQL's."""
    parts = urlparse(url)
    if not parts.scheme.startswith("postgres"):
        sys.exit(f"{script} needs PostgreSQL: set DATABASE_URL=postgres://...")
    return urlunparse(parts._replace(path=parts.path + suffix))


def create_database(url: str) -> None:
    import psycopg

    parts = urlparse(url)
    name = parts.path.lstrip("/")
    admin = urlunparse(parts._replace(path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as connection:
        exists = connection.execute(
            "SELECT 1 FROM pg_database WHERE datname = %s", [name]
        ).fetchone()
        if not exists:
            connection.execute(f'CREATE DATABASE "{name}"')


def seed(matches: int, players: int) -> None:
    """Players, finished matches between them and the ratings those results give."""
    from django.contrib.auth.hashers import make_password
    from django.utils import timezone

    from accounts.models import User
    from games.engine import Position
    from games.models import Match, PlayerRating, RatingChange
    from games.ratings import Rating
    from games.ratings.store import established_until

    existing = Match.objects.count()
    if existing == matches:
        return
    if existing:
        from django.core.management import call_command

        call_command("flush", interactive=False, verbosity=0)  # a different size: start over
    print(f"seeding {players} players and {matches} finished matches...", flush=True)
    rng = random.Random(2026)
    password = make_password("bench-password")
    users = User.objects.bulk_create(
        [
            User(username=f"bench{n:05}", email=f"bench{n}@example.com", password=password)
            for n in range(players)
        ],
        batch_size=1000,
    )
    position = Position.initial("american").to_dict()
    start = timezone.now() - timedelta(days=720)
    batch: list[Match] = []
    for n in range(matches):
        white, black = rng.sample(users, 2)
        winner = white if rng.random() < 0.5 else black
        points = rng.choice((1, 3, 5, 7))
        finished = start + timedelta(minutes=n * 10)
        batch.append(
            Match(
                variant=rng.choice(("american", "greek")),
                points=points,
                white=white,
                black=black,
                status=Match.Status.FINISHED,
                winner=winner,
                score_white=points if winner == white else rng.randrange(points),
                score_black=points if winner == black else rng.randrange(points),
                ending=Match.Ending.BORNE_OFF,
                position=position,
                phase="finished",
                created_at=finished - timedelta(days=5),
                finished_at=finished,
            )
        )
        if len(batch) == 5000:
            _store(batch, rng)
            batch = []
    if batch:
        _store(batch, rng)
    ratings = [
        PlayerRating(
            user=user,
            variant=variant,
            rating=rng.gauss(1500, 200),
            rd=rng.uniform(45, 140),
            rated_at=timezone.now(),
            matches=rng.randrange(50, 300),
        )
        for user in users
        for variant in ("american", "greek")
    ]
    for row in ratings:  # bulk_create skips save(), which keeps it
        current = Rating(row.rating, row.rd, row.volatility)
        row.established_until = established_until(current, row.rated_at)
    PlayerRating.objects.bulk_create(ratings, batch_size=2000)
    print(f"  {Match.objects.count()} matches, {RatingChange.objects.count()} rating changes")


def _store(batch: list, rng: random.Random) -> None:
    from games.models import Match, RatingChange

    created = Match.objects.bulk_create(batch)
    changes = []
    for match in created:
        for user_id in (match.white_id, match.black_id):
            before = rng.gauss(1500, 200)
            delta = rng.uniform(2, 20) * (1 if user_id == match.winner_id else -1)
            changes.append(
                RatingChange(
                    match=match,
                    user_id=user_id,
                    variant=match.variant,
                    rating_before=before,
                    rating_after=before + delta,
                    rd_before=80,
                    rd_after=78,
                    created_at=match.finished_at,
                )
            )
    RatingChange.objects.bulk_create(changes, batch_size=5000)


def long_match(segments: int):
    """An active match of ``segments`` stored segments between two players of its own,
    played with the first legal play each time (made once, kept for the next run)."""
    from accounts.models import User
    from games import services
    from games.engine import format_play
    from games.engine.game import Phase
    from games.models import Match

    white, _ = User.objects.get_or_create(username="long-white")
    black, _ = User.objects.get_or_create(username="long-black")
    match = Match.objects.filter(white=white, black=black, status=Match.Status.ACTIVE).first()
    if match is None or match.segment_count < segments:
        Match.objects.filter(white=white).delete()
        # Long enough that the match cannot end first (american games score 1-15).
        match = services.start_match(
            white=white, black=black, variant="american", points=999, days_per_move=2
        )
    while match.segment_count < segments:
        game = services.load_game(match)
        if game.phase is Phase.NAME_DOUBLE:
            action = services.TurnAction(match.segment_count, double=game.allowed_doubles()[-1])
        else:
            play = format_play(game.legal_plays()[0])
            action = services.TurnAction(match.segment_count, play=play)
        match = services.submit_segment(match.pk, user=match.to_move, action=action)
    return match


def time_page(client, path: str, repeat: int, data: dict | None = None) -> tuple[float, float, int]:
    """Median and p95 ms of GET ``path`` (an HTMX POST of ``data`` if given), and its queries."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    def request():
        if data is None:
            return client.get(path)
        return client.post(path, data, headers={"HX-Request": "true"})

    request()  # warm caches and connections
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        response = request()
        times.append((time.perf_counter() - start) * 1000)
        assert response.status_code == 200, (path, response.status_code)
    with CaptureQueriesContext(connection) as queries:
        request()
    ordered = sorted(times)
    return statistics.median(times), ordered[int(0.95 * (len(ordered) - 1))], len(queries)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=100_000)
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=30)
    parser.add_argument(
        "--segments", type=int, default=1000, help="history of the long match timed"
    )
    args = parser.parse_args()

    url = database_beside(os.environ.get("DATABASE_URL", ""), "_bench", script="bench.pages")
    create_database(url)
    os.environ["DATABASE_URL"] = url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "aceysite.settings")
    os.environ.setdefault("ALLOWED_HOSTS", "testserver")

    import django

    django.setup()
    from django.core.management import call_command
    from django.test import Client

    from accounts.models import User
    from games.models import Match

    call_command("migrate", verbosity=0)
    seed(args.matches, args.players)
    by_white = Counter(Match.objects.values_list("white_id", flat=True))
    by_black = Counter(Match.objects.values_list("black_id", flat=True))
    busiest_id, finished = (by_white + by_black).most_common(1)[0]
    busiest = User.objects.get(pk=busiest_id)
    client = Client()
    client.force_login(User.objects.get(username="bench00001"))
    pages = [
        ("leaderboard, page 1", "/leaderboard/american/"),
        ("leaderboard, page 10", "/leaderboard/american/?page=10"),
        (f"profile of the busiest player ({busiest.username})", f"/players/{busiest.username}/"),
        ("profile, 4th page of results", f"/players/{busiest.username}/?page=4"),
        ("rating chart (SVG)", f"/players/{busiest.username}/rating-american.svg"),
    ]
    long = long_match(args.segments)
    player = Client()
    player.force_login(long.to_move)
    click = f"/matches/{long.pk}/click/"
    # The page draws the latest game's turns; each earlier game is a summary until opened.
    match_pages = [
        (
            f"match page, {long.segment_count} segments in {long.game_number} games",
            long.get_absolute_url(),
            None,
        ),
        ("  with game 1 open (?game=1)", f"{long.get_absolute_url()}?game=1", None),
        ("  game 1's turns, loaded when opened", f"/matches/{long.pk}/history/1/", None),
        ("  a click on its board, history drawn", click, {"steps": "", "select": "26"}),
        (
            "  a click on its board, history kept",
            click,
            {"steps": "", "select": "26", "history": str(long.segment_count)},
        ),
    ]
    print(
        f"{args.matches} finished matches, {args.players} players; "
        f"{busiest.username} has {finished} finished matches"
    )
    print(f"{'page':<52} {'median ms':>9} {'p95 ms':>8} {'queries':>8}")
    for label, path in pages:
        median, p95, queries = time_page(client, path, args.repeat)
        print(f"{label:<52} {median:>9.1f} {p95:>8.1f} {queries:>8}")
    for label, path, data in match_pages:
        median, p95, queries = time_page(player, path, args.repeat, data)
        print(f"{label:<52} {median:>9.1f} {p95:>8.1f} {queries:>8}")


if __name__ == "__main__":
    main()
