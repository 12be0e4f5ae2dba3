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
    match = _unsaved(white, black, finished_at=finished_at)
    match.save()
    return match


def _unsaved(white, black, *, finished_at=None) -> Match:
    return Match(
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


@pytest.mark.parametrize("cursor", [0, 1, 9, 20, 38, 39])
def test_those_older_than_a_match_are_what_sorting_the_whole_history_gives(alice, history, cursor):
    everything = list(Match.objects.finished().involving(alice).order_by("-finished_at", "-pk"))
    match = everything[cursor]

    older = Match.objects.latest_finished(alice, 10, older_than=(match.finished_at, match.pk))

    assert list(older) == everything[cursor + 1 : cursor + 11]


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


@pytest.mark.parametrize("shown", ["first", "older"])
def test_the_apis_pages_of_finished_matches_read_each_colours_index(alice, bob, client, shown):
    # `me`, which a bot reads before each move, holds the first page, and a client catching
    # up reads the older ones: their queries must not sort the player's whole history.
    if connection.vendor != "sqlite":
        pytest.skip("on a handful of rows, PostgreSQL's planner rightly reads the table")
    cursor = _match(alice, bob, finished_at=timezone.now())
    client.force_login(alice)
    first = shown == "first"
    url = reverse("api_me") if first else reverse("api_me_finished")
    query = {} if first else {"before": cursor.pk}
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url, query).status_code == 200
    [sql] = [done["sql"] for done in captured.captured_queries if "UNION" in done["sql"]]

    with connection.cursor() as db:
        db.execute(f"EXPLAIN QUERY PLAN {sql}")
        plan = " ".join(row[-1] for row in db.fetchall())

    for colour in ("white", "black"):
        # An older page's read from the cursor's moment on, not from the latest.
        searched = f"{colour}_id=?" if first else f"{colour}_id=? AND finished_at<?"
        assert f"USING INDEX match_{colour}_finished_idx ({searched})" in plan


def test_the_apis_older_pages_read_each_colours_index_on_postgresql(
    postgres_url, alice, bob, charlie, client
):
    # Two years on: 2,000 finished matches of alice's, in either colour, among others'.
    pairs = [(alice, bob), (bob, alice)] * 1000 + [(bob, charlie), (charlie, bob)] * 4000
    random.Random(7).shuffle(pairs)
    first = timezone.now() - timedelta(days=730)
    Match.objects.bulk_create(
        _unsaved(white, black, finished_at=first + timedelta(hours=n))
        for n, (white, black) in enumerate(pairs)
    )
    with connection.cursor() as db:
        db.execute("ANALYZE games_match")
    ended = Match.objects.finished().involving(alice).order_by("-finished_at", "-pk")
    cursor = ended[1000]
    client.force_login(alice)

    with CaptureQueriesContext(connection) as captured:
        response = client.get(reverse("api_me_finished"), {"before": cursor.pk})
    sql = captured.captured_queries[-1]["sql"]  # the page's, after the cursor's
    with connection.cursor() as db:
        db.execute(f"EXPLAIN {sql}")
        plan = "\n".join(row[0] for row in db.fetchall())

    assert response.json()["finished"] == [m.pk for m in ended[1001:1021]]
    for colour in ("white", "black"):
        assert f"match_{colour}_finished_idx" in plan, plan
