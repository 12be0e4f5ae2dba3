import os

import pytest
from django.core.cache import cache
from django.test import override_settings
from django.utils import timezone
from hypothesis import settings as hypothesis_settings

# No per-example deadline: on a busy 2-core CI machine one stalled example (a GC pause, a
# starved CPU) would fail a correct test as "DeadlineExceeded" or "unreliable timings".
hypothesis_settings.register_profile("suite", deadline=None)
hypothesis_settings.load_profile("suite")


def services_required() -> bool:
    return os.getenv("ACEY_REQUIRE_SERVICES") == "1"


def need_service(name: str, *, available: bool) -> None:
    """Skip a test whose service is not configured, or fail it when CI demands
    the services (ACEY_REQUIRE_SERVICES=1) so a misconfigured CI can't go green
    by skipping."""
    if available:
        return
    message = f"{name} is not configured"
    if services_required():
        pytest.fail(f"{message}, but ACEY_REQUIRE_SERVICES=1")
    pytest.skip(message)


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix, tmp_path_factory):
    """SQLite's test database in a file of its own (each xdist process's), not in memory.

    In memory, the live server that browser tests talk to shares the test's one
    connection with every thread it answers in, and a page's requests at once (a poll of
    its messages, a click) met on it: "bad parameter or other API misuse", now and then.
    On a file each thread has a connection of its own, as bin/serve's have."""
    from django.conf import settings

    database = settings.DATABASES["default"]
    if database["ENGINE"] == "django.db.backends.sqlite3" and not database.get("TEST", {}).get(
        "NAME"
    ):
        name = tmp_path_factory.mktemp("database") / "test.sqlite3"
        database.setdefault("TEST", {})["NAME"] = str(name)


@pytest.fixture
def postgres_url() -> str:
    url = os.getenv("DATABASE_URL", "")
    need_service("PostgreSQL (DATABASE_URL=postgres://...)", available=url.startswith("postgres"))
    return url


@pytest.fixture
def redis_url() -> str:
    from django.conf import settings

    url = settings.CELERY_BROKER_URL
    need_service("Redis (CELERY_BROKER_URL=redis://...)", available=url.startswith("redis"))
    return url


# alice, bob and charlie have played here a while: their addresses are confirmed (a player
# who has just signed up has not: accounts.services.confirm_email_address).
@pytest.fixture
def empty_cache():
    """An empty cache before and after the test: the login throttle's failures and the
    limits on links sent again count there (local memory, or Redis with REDIS_URL), and
    must not carry from one test to the next."""
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def alice(django_user_model):
    return django_user_model.objects.create_user(
        username="alice",
        email="alice@example.com",
        password="correct horse battery",
        email_confirmed_at=timezone.now(),
    )


@pytest.fixture(autouse=True)
def no_error_emailed_yet():
    """The error emails to ADMINS are one a kind of error in a window, per process
    (aceysite.log_filters.ThrottledAdminEmailHandler): a test starts with none sent, as a
    process does, not with what an earlier test in the same process sent."""
    from aceysite.log_filters import ThrottledAdminEmailHandler

    ThrottledAdminEmailHandler.forget()


@pytest.fixture(autouse=True)
def celery_runs_tasks_in_process():
    """Run Celery tasks in the test process, even when CI configures a Redis broker.

    Tests that exercise a real worker (tests/integration) switch this off for their own
    duration: ``celery_app.conf.task_always_eager = False``.
    """
    from aceysite.celery import app as celery_app

    before = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = True
    yield
    celery_app.conf.task_always_eager = before


@pytest.fixture
def tasks_published(redis_url):
    """Tasks published to the CI Redis, not run in-process, to a queue of the test's own
    (nobody runs them); yields a client of that Redis and the queue's name."""
    import uuid

    import redis

    from games import notifications
    from tests.publishing import tasks_published

    queue = f"test-published-{uuid.uuid4().hex}"
    client = redis.Redis.from_url(redis_url)
    with tasks_published(None, queue):
        yield client, queue
        client.delete(queue, notifications._wake_key())


@pytest.fixture(autouse=True)
def turn_emails_at_once():
    """Turn and challenge emails go out at once (tests/games/test_turn_email_delay.py and
    test_challenge_flood.py test the waits).

    Not through pytest-django's ``settings`` fixture: a test may name a parameter
    ``settings`` of its own."""
    with override_settings(TURN_EMAIL_DELAY_SECONDS=0, CHALLENGE_EMAIL_DELAY_SECONDS=0):
        yield


@pytest.fixture
def bob(django_user_model):
    return django_user_model.objects.create_user(
        username="bob",
        email="bob@example.com",
        password="correct horse battery",
        email_confirmed_at=timezone.now(),
    )


@pytest.fixture
def charlie(django_user_model):
    return django_user_model.objects.create_user(
        username="charlie",
        email="charlie@example.com",
        password="correct horse battery",
        email_confirmed_at=timezone.now(),
    )


@pytest.fixture(autouse=True, scope="session")
def fast_password_hashing():
    """A deliberately slow password hash costs seconds per test user; tests need none of
    its strength."""
    from django.test import override_settings

    with override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]):
        yield


#: The longest tests (whole games played in the browser, one to two minutes each): run first
#: among the browser tests, so that the other test process is not left with nothing to do
#: while one of them finishes the run.
LONGEST = ("tests/browser/test_play_a_game.py::", "tests/browser/test_play_a_bot.py::")


@pytest.hookimpl(trylast=True)  # after pytest-django's and pytest's own orderings
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Run the LONGEST tests first among the browser tests, which pytest keeps together
    (they share a session-wide parameter) and pytest-django puts with the tests that
    empty the database.

    Refuse a test outside tests/browser that takes Playwright's fixtures, as one does by
    naming a parameter ``page``. pytest-playwright gives such a test a session-wide
    parameter (the browser's name), and pytest then runs every browser test beside the
    first test that has it: among the database tests, the browser tests' live server
    (which empties the database after each) took the bot users a migration made from the
    tests run after them."""
    strays = [
        item.nodeid
        for item in items
        if "browser_name" in getattr(item, "fixturenames", ())
        and not item.nodeid.startswith("tests/browser/")
    ]
    if strays:
        raise pytest.UsageError(
            "Playwright's fixtures outside tests/browser (a parameter named `page`?): "
            + ", ".join(strays[:5])
        )
    # The LONGEST are browser tests themselves, so none comes before the first of them.
    start = next(
        (i for i, item in enumerate(items) if item.nodeid.startswith("tests/browser/")), None
    )
    if start is not None:
        longest = [item for item in items if item.nodeid.startswith(LONGEST)]
        rest = [item for item in items if not item.nodeid.startswith(LONGEST)]
        items[:] = [*rest[:start], *longest, *rest[start:]]
