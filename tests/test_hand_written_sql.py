"""aceysite.sql: the turn's statements written by hand read and write what the ORM would.

Each is compared with its ORM spelling on the database the suite runs on (PostgreSQL in
CI, SQLite by default): the values, their types after conversion (JSON parsed, dates
made aware datetimes), the related objects cached as select_related caches them.
"""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.db import DatabaseError, IntegrityError, connection, transaction
from django.db.transaction import TransactionManagementError
from django.utils import timezone

from accounts.models import ApiToken, User
from aceysite import sql
from aceysite.sql import Table, fetch_one, insert, update
from games import away, services, tally
from games.models import DiceTally, Match, Notification, Segment
from games.tournaments.models import TournamentMatch
from tests.matches import opened_by_white
from tests.queries.test_turn import in_a_tournament

pytestmark = pytest.mark.django_db


def fields_of(instance) -> dict:
    return {
        field.attname: getattr(instance, field.attname)
        for field in type(instance)._meta.concrete_fields
    }


def orm_locked(match_id: int) -> Match:
    return (
        Match.objects.select_for_update(of=("self",))
        .select_related("white", "black", "tournament_match__tournament")
        .get(pk=match_id)
    )


@pytest.mark.parametrize("tournament", [False, True], ids=["friendly", "tournament"])
def test_the_turn_lock_reads_what_the_orm_reads(alice, bob, tournament, django_assert_num_queries):
    match = opened_by_white(alice, bob)
    # A deadline, a reminder and an away player: dates to convert, not only JSON.
    User.objects.filter(pk=bob.pk).update(away_until=timezone.now() + timedelta(days=3))
    if tournament:
        in_a_tournament(match)

    with transaction.atomic():
        expected = orm_locked(match.pk)
        with django_assert_num_queries(1):
            got = services._locked_for_turn(match.pk)
            link = getattr(got, "tournament_match", None)  # cached, present or not

    assert fields_of(got) == fields_of(expected)
    assert isinstance(got.position, dict) and got.deadline is not None
    assert timezone.is_aware(got.deadline) and timezone.is_aware(got.created_at)
    assert fields_of(got.white) == fields_of(expected.white)
    assert fields_of(got.black) == fields_of(expected.black)
    assert timezone.is_aware(got.black.away_until)
    assert got.white.is_active is True  # a bool, not SQLite's 1
    assert got._state.adding is False and got._state.db == "default"
    if tournament:
        assert isinstance(link, TournamentMatch)
        assert fields_of(link) == fields_of(expected.tournament_match)
        assert fields_of(link.tournament) == fields_of(expected.tournament_match.tournament)
        assert link.match is got
    else:
        assert link is None


# Outside the test's own transaction, as the ORM's select_for_update() is refused there.
@pytest.mark.django_db(transaction=True)
def test_the_turn_lock_refuses_to_run_outside_a_transaction(alice, bob):
    match = opened_by_white(alice, bob)
    with pytest.raises(TransactionManagementError):
        services._locked_for_turn(match.pk)


def test_no_match_is_does_not_exist(alice, bob):
    with transaction.atomic(), pytest.raises(Match.DoesNotExist):
        services._locked_for_turn(10**9)


def test_a_table_may_read_some_fields_and_defer_the_others(alice):
    (user,) = tables = (Table(User, "u", ["email", "id"]),)
    (read,) = fetch_one(
        tables, f"SELECT {user.columns} FROM {user} WHERE {user.column('id')} = %s", [alice.pk]
    )
    assert read.pk == alice.pk and read.email == "alice@example.com"
    assert read.get_deferred_fields() >= {"username", "away_until"}
    assert fetch_one(tables, f"SELECT {user.columns} FROM {user} WHERE 1 = 0", []) == []


def test_the_api_key_finds_its_active_user_only(alice, bob):
    _, key = ApiToken.issue(alice, "bot")
    found = ApiToken.user_for_key(key)
    assert fields_of(found) == fields_of(User.objects.get(pk=alice.pk))
    assert ApiToken.user_for_key(key + "x") is None
    User.objects.filter(pk=alice.pk).update(is_active=False)
    assert ApiToken.user_for_key(key) is None


def test_clock_start_reads_the_return_from_the_database(alice):
    now = timezone.now()
    assert away.clock_start(alice.pk, now) == now
    back = now + timedelta(days=2)
    User.objects.filter(pk=alice.pk).update(away_until=back)
    assert away.clock_start(alice.pk, now) == back  # alice, as loaded, is not away
    assert away.clock_start(alice.pk, back + timedelta(hours=1)) == back + timedelta(hours=1)


def test_a_tally_gets_what_is_added_and_no_one_elses(alice, bob):
    DiceTally.objects.create(user=alice, rolls=2, ones=1)
    DiceTally.objects.create(user=bob)
    assert tally._increment(alice.pk, {"rolls": 1, "ones": 2, "doubles": 1}) == 1
    assert tally._increment(User.objects.create_user("carol").pk, {"rolls": 1}) == 0
    mine = DiceTally.objects.get(user=alice)
    assert (mine.rolls, mine.ones, mine.doubles, mine.twos) == (3, 3, 1, 0)
    assert DiceTally.objects.get(user=bob).rolls == 0


def test_insert_stores_rows_as_bulk_create_would(alice, bob):
    match = opened_by_white(alice, bob)
    number = match.segment_count
    rows = [
        Segment(
            match=match,
            number=number + n,
            game_number=1,
            kind=Segment.Kind.ROLL,
            player="white",
            dice=[n, n],
            position={"n": n, "text": "ünïcode"},
        )
        for n in (1, 2)
    ]
    insert(rows)

    assert all(row.pk and row._state.adding is False and row._state.db for row in rows)
    for row in rows:
        stored = Segment.objects.get(pk=row.pk)
        assert fields_of(stored) == fields_of(row)
    assert rows[1].pk > rows[0].pk
    insert([])  # nothing to store, no statement


def test_insert_fails_as_a_whole_on_a_constraint(alice, bob):
    match = opened_by_white(alice, bob)
    taken = match.segment_count
    rows = [
        Segment(match=match, number=n, game_number=1, kind="roll", dice=[1, 2], position={})
        for n in (taken + 1, taken)
    ]
    before = Segment.objects.count()
    with pytest.raises(IntegrityError), transaction.atomic():
        insert(rows)
    assert Segment.objects.count() == before


def test_insert_takes_defaults_and_gives_the_key_a_task_needs(alice, bob):
    match = opened_by_white(alice, bob)
    email = Notification(user=bob, kind="turn", key="k", subject="s", body="b", match=match)
    insert([email])
    stored = Notification.objects.get(pk=email.pk)
    assert stored.attempts == 0 and stored.sent_at is None and stored.last_error == ""
    assert abs(stored.created_at - timezone.now()) < timedelta(minutes=1)


def test_update_writes_every_field_and_the_auto_now_date(alice, bob):
    match = opened_by_white(alice, bob)
    before = Match.objects.get(pk=match.pk).updated_at
    match.position = {**match.position, "turn": "black"}
    match.dice = [2, 2]
    match.to_move = bob
    match.deadline = None
    update(match)

    stored = Match.objects.get(pk=match.pk)
    assert fields_of(stored) == fields_of(match)
    assert stored.updated_at > before
    assert stored.position["turn"] == "black" and stored.dice == [2, 2]


def test_update_of_a_row_gone_is_an_error(alice, bob):
    match = opened_by_white(alice, bob)
    Match.objects.filter(pk=match.pk).delete()
    with pytest.raises(DatabaseError, match="nothing was updated"):
        update(match)


def test_statements_name_their_tables_as_the_database_quotes_them():
    table = Table(Segment, "s")
    assert (
        str(table)
        == f"{connection.ops.quote_name('games_segment')} {connection.ops.quote_name('s')}"
    )
    assert (
        table.column("match")
        == f"{connection.ops.quote_name('s')}.{connection.ops.quote_name('match_id')}"
    )


@pytest.mark.skipif(connection.vendor != "postgresql", reason="SQLite prepares nothing")
def test_on_postgresql_the_turn_lock_is_planned_once_per_connection(alice, bob):
    from psycopg import ClientCursor

    match = opened_by_white(alice, bob)
    with transaction.atomic():
        for _ in range(8):  # psycopg prepares it once it has run five times (settings)
            services._locked_for_turn(match.pk)
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement, generic_plans + custom_plans FROM pg_prepared_statements")
        prepared = cursor.fetchall()
        # The ORM's cursors still bind on the client: they prepare nothing.
        assert isinstance(cursor.cursor, ClientCursor)
    runs = [count for statement, count in prepared if "FOR UPDATE OF" in statement]
    assert runs and runs[0] >= 2  # run as prepared, not prepared again


def hand_written_cursor():
    """The psycopg cursor the statements here run on, as they get it."""
    with sql._cursor() as cursor:
        return cursor.cursor


@pytest.mark.skipif(connection.vendor != "postgresql", reason="SQLite's cursors are Django's")
@pytest.mark.django_db(transaction=True)  # it closes the connection
def test_on_postgresql_one_cursor_a_connection_runs_statement_after_statement(alice, bob):
    match = opened_by_white(alice, bob)
    kept = hand_written_cursor()
    with transaction.atomic():
        locked = services._locked_for_turn(match.pk)
        update(locked)
        again = services._locked_for_turn(match.pk)
    assert hand_written_cursor() is kept and not kept.closed
    assert again.pk == match.pk and again.white == alice

    # A constraint's failure leaves it to run the next statement once rolled back.
    clash = Segment(
        match=match,
        number=match.segment_count,
        game_number=1,
        kind="roll",
        dice=[1, 2],
        position={},
    )
    with pytest.raises(IntegrityError), transaction.atomic():
        insert([clash])
    assert hand_written_cursor() is kept
    with transaction.atomic():
        assert services._locked_for_turn(match.pk).pk == match.pk

    # A new connection (Django's closed: CONN_MAX_AGE, a broken one) gets a new cursor.
    connection.close()
    with transaction.atomic():
        assert services._locked_for_turn(match.pk).pk == match.pk
    renewed = hand_written_cursor()
    assert renewed is not kept and renewed.connection is connection.connection


@pytest.mark.skipif(connection.vendor != "postgresql", reason="SQLite's cursors are Django's")
@pytest.mark.django_db(transaction=True)
def test_on_postgresql_each_thread_runs_on_a_cursor_of_its_own(alice, bob):
    match = opened_by_white(alice, bob)
    found = {}

    def read(name: str) -> None:
        try:
            with transaction.atomic():
                found[name] = (services._locked_for_turn(match.pk).pk, hand_written_cursor())
        finally:
            connection.close()

    threads = [threading.Thread(target=read, args=(name,)) for name in ("one", "two")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    (pk_one, one), (pk_two, two) = found["one"], found["two"]
    assert pk_one == pk_two == match.pk
    assert one is not two and one.connection is not two.connection
    assert hand_written_cursor() not in (one, two)


def test_statements_here_are_counted_with_the_orms(alice, bob, django_assert_num_queries):
    # assertNumQueries (tests/queries) sees them: Django's debug wrapper logs them while
    # queries are logged, on the kept cursor as on a new one.
    match = opened_by_white(alice, bob)
    stored = Match.objects.get(pk=match.pk)
    with transaction.atomic():
        with django_assert_num_queries(2) as captured:
            services._locked_for_turn(match.pk)
            update(stored)
        services._locked_for_turn(match.pk)  # not counted: the logging ended
    locked, updated = (query["sql"] for query in captured.captured_queries)
    assert locked.startswith("SELECT") and updated.startswith("UPDATE")
    assert len(captured.captured_queries) == 2


@pytest.mark.parametrize("of_a_match", [True, False], ids=["turn email", "account email"])
def test_an_emails_row_comes_as_the_orm_brings_it(
    alice, bob, of_a_match, django_assert_num_queries
):
    from games.notifications import _outbox_row

    match = opened_by_white(alice, bob) if of_a_match else None
    email = Notification.objects.create(
        user=bob, kind="turn", key="k", subject="s", body="b", match=match
    )
    expected = Notification.objects.select_related("user", "match__white", "match__black").get(
        pk=email.pk
    )
    with django_assert_num_queries(1):
        got = _outbox_row(email.pk)
        assert got is not None
        related = (
            got.user,
            got.match,
            got.match and got.match.white,
            got.match and got.match.black,
        )
    assert fields_of(got) == fields_of(expected)
    assert fields_of(related[0]) == fields_of(expected.user)
    if of_a_match:
        assert fields_of(related[1]) == fields_of(expected.match)
        assert [u.pk for u in related[2:]] == [alice.pk, bob.pk]
    else:
        assert related[1] is None
    assert _outbox_row(email.pk + 1000) is None


def test_an_email_is_claimed_once_and_again_only_when_the_claim_runs_out(alice):
    from games.notifications import _claim, _mark_sent

    email = Notification.objects.create(user=alice, kind="turn", key="k", subject="s", body="b")
    now = timezone.now()
    assert _claim(email.pk, now) is True
    assert _claim(email.pk, now) is False  # held
    later = Notification.objects.get(pk=email.pk).claimed_until + timedelta(seconds=1)
    assert _claim(email.pk, later) is True  # its sender died: the claim ran out
    _mark_sent(email.pk, attempts=2, body="as sent")
    sent = Notification.objects.get(pk=email.pk)
    assert (sent.attempts, sent.body, sent.last_error) == (2, "as sent", "")
    assert sent.sent_at is not None and timezone.is_aware(sent.sent_at)
    assert _claim(email.pk, later + timedelta(days=1)) is False  # sent: never again


def test_the_apis_match_read_is_the_orms(alice, bob, django_assert_num_queries):
    from games.api import ApiError, _get_match

    match = opened_by_white(alice, bob)
    expected = Match.objects.select_related("white", "black").get(pk=match.pk)
    with django_assert_num_queries(1):
        got = _get_match(match.pk)
        players = got.white, got.black
    assert fields_of(got) == fields_of(expected)
    assert [fields_of(player) for player in players] == [fields_of(alice), fields_of(bob)]
    with pytest.raises(ApiError):
        _get_match(match.pk + 1)
