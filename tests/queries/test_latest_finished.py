"""A player's latest finished matches (MatchQuerySet.latest_finished, for the dashboard and
the profile's results): the same matches as sorting their whole history, read through each
colour's index instead."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from games.engine import Position
from games.models import Match

pytestmark = pytest.mark.django_db


def _match(white, black, *, finished_at=None) -> Match:
    return Match.objects.create(
        variant="american",
        points=3,
        white=white,
        black=black,
        position=Position.initial("american").to_dict(),
        status=Match.Status.ACTIVE if finished_at is None else Match.Status.FINISHED,
        winner=None if finished_at is None else white,
        finished_at=finished_at,
    )


@pytest.fixture
def history(alice, bob, charlie) -> None:
    """Forty finished matches of alice's in either colour, in no order, a few ending at
    the same moment (a sweep ends many); one in play; others' matches."""
    rng = random.Random(7)
    now = timezone.now()
    moments = [now - timedelta(hours=rng.randrange(30)) for _ in range(40)]
    for moment in moments:
        opponent = rng.choice([bob, charlie])
        white, black = (alice, opponent) if rng.random() < 0.5 else (opponent, alice)
        _match(white, black, finished_at=moment)
    _match(alice, bob)
    _match(bob, charlie, finished_at=now)


@pytest.mark.parametrize("window", [(0, 10), (0, 25), (25, 50), (10, 13), (0, 100), (39, 40)])
def test_it_gives_what_sorting_the_whole_history_gives(alice, history, window):
    start, stop = window
    everything = Match.objects.finished().involving(alice).order_by("-finished_at", "-pk")

    latest = Match.objects.latest_finished(alice, stop, start=start)

    assert list(latest) == list(everything[start:stop])


def test_it_reads_the_latest_of_each_colour_through_its_index(alice):
    if connection.vendor != "sqlite":
        pytest.skip("on a handful of rows, PostgreSQL's planner rightly reads the table")
    query = Match.objects.select_related("white", "black").latest_finished(alice, 10)
    sql, params = query.query.sql_with_params()

    with connection.cursor() as cursor:
        cursor.execute(f"EXPLAIN QUERY PLAN {sql}", params)
        plan = [row[-1] for row in cursor.fetchall()]

    for colour in ("white", "black"):
        assert f"SEARCH U0 USING INDEX match_{colour}_finished_idx ({colour}_id=?)" in plan


def test_the_apis_first_page_of_finished_matches_reads_each_colours_index(alice, client):
    # `me`, which a bot reads before each move, holds that page: its query must not sort the
    # player's whole history either.
    if connection.vendor != "sqlite":
        pytest.skip("on a handful of rows, PostgreSQL's planner rightly reads the table")
    client.force_login(alice)
    with CaptureQueriesContext(connection) as captured:
        assert client.get(reverse("api_me")).status_code == 200
    [sql] = [query["sql"] for query in captured.captured_queries if "UNION" in query["sql"]]

    with connection.cursor() as cursor:
        cursor.execute(f"EXPLAIN QUERY PLAN {sql}")
        plan = " ".join(row[-1] for row in cursor.fetchall())

    for colour in ("white", "black"):
        assert f"USING INDEX match_{colour}_finished_idx ({colour}_id=?)" in plan
