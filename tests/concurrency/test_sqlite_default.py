"""The zero-set-up default (SQLite, as bin/serve runs it) under racing requests: the same
turn sent ten times at once is applied once, and the other nine are told it is stale;
none fails with "database is locked" (a server error).

The race runs in a process of its own against a database file of its own, made afresh
as bin/serve's would be, with none of pytest's test database set-up in between.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

RACE = """
import collections, json, threading
import django
django.setup()
from django.contrib.auth import get_user_model
from django.db import connection
from games import services
from games.engine.game import ScriptedDice
from games.models import Segment
from tests.matches import opened_by_white

users = get_user_model().objects
alice = users.create_user("alice", "alice@example.com")
bob = users.create_user("bob", "bob@example.com")
match = opened_by_white(alice, bob)
barrier = threading.Barrier(10)
outcomes = collections.Counter()

def turn():
    action = services.TurnAction(segment=match.segment_count, play="in/19 in/22")
    try:
        barrier.wait()
        services.submit_segment(match.pk, user=alice, action=action, dice=ScriptedDice([4, 1]))
        outcomes["applied"] += 1
    except services.StaleSegment:
        outcomes["stale"] += 1
    except Exception as error:
        outcomes[type(error).__name__ + ": " + str(error)] += 1
    finally:
        connection.close()

threads = [threading.Thread(target=turn) for _ in range(10)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
stored = Segment.objects.filter(match=match, player="white").count()
print("RESULT " + json.dumps({"outcomes": outcomes, "white_segments": stored}))
"""


def test_the_same_turn_sent_ten_times_at_once_is_applied_once_on_sqlite(tmp_path):
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("CELERY_BROKER_URL", "ACEY_REQUIRE_SERVICES")
    }
    env["DATABASE_URL"] = f"sqlite:///{tmp_path / 'db.sqlite3'}"
    env["DJANGO_SETTINGS_MODULE"] = "aceysite.settings"
    manage = [sys.executable, "manage.py", "migrate", "--noinput", "-v0"]
    subprocess.run(manage, cwd=ROOT, env=env, check=True, timeout=120)

    run = subprocess.run(
        [sys.executable, "-c", RACE], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )

    assert run.returncode == 0, run.stderr
    line = next(line for line in run.stdout.splitlines() if line.startswith("RESULT "))
    result = json.loads(line.removeprefix("RESULT "))
    assert result == {"outcomes": {"applied": 1, "stale": 9}, "white_segments": 1}
