"""The lobby's open challenges: read through an index of those alone, however many
challenges have been made since the site began."""

from __future__ import annotations

import pytest
from django.db import connection

from games.models import Challenge

pytestmark = pytest.mark.django_db


def test_the_lobby_reads_the_index_of_the_challenges_waiting_there(
    postgres_url, alice, bob, charlie
):
    Challenge.objects.bulk_create(Challenge(challenger=bob) for _ in range(20))
    settled = Challenge.Status.DECLINED
    Challenge.objects.bulk_create(
        Challenge(challenger=bob, opponent=charlie, status=settled) for _ in range(3000)
    )
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE games_challenge")
    lobby = Challenge.objects.open_in_lobby().apart_from(alice).select_related("challenger")

    newest_first = lobby.order_by("-pk")[:31].explain()
    oldest_first = lobby.exclude(challenger=alice).order_by("pk").filter(pk__gt=5)[:51].explain()

    assert "challenge_open_in_lobby" in newest_first
    assert "challenge_open_in_lobby" in oldest_first
