"""The hourly expiry sweep finds the challenges waiting too long through an index of the
open ones, however many challenges have been settled since the site began."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from games.models import Challenge

pytestmark = pytest.mark.django_db


def test_the_sweep_reads_the_index_of_open_challenges_by_age(postgres_url, alice, bob):
    Challenge.objects.bulk_create(Challenge(challenger=alice, opponent=bob) for _ in range(20))
    settled = Challenge.Status.DECLINED
    long_ago = timezone.now() - timedelta(days=400)
    Challenge.objects.bulk_create(
        Challenge(challenger=bob, opponent=alice, status=settled, created_at=long_ago)
        for _ in range(3000)
    )
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE games_challenge")

    plan = Challenge.objects.unanswered_too_long(timezone.now()).values("pk").explain()

    assert "challenge_open_by_age" in plan
