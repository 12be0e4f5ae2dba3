"""The match page takes as many SQL queries for a long history as for a short one."""

from __future__ import annotations

import pytest
from django.test import Client

from games.models import Match

from .conftest import LONG, SHORT, count_queries, get_ok

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}


def _sign_in(client: Client, match: Match, viewer: str, charlie) -> None:
    client.logout()
    if viewer == "player to move":
        client.force_login(match.to_move)
    elif viewer == "spectator":
        client.force_login(charlie)


@pytest.mark.parametrize("viewer", ["player to move", "spectator", "anonymous"])
@pytest.mark.parametrize("headers", [{}, HTMX], ids=["page", "htmx partial"])
def test_the_match_page_queries_do_not_grow_with_the_history(
    viewer, headers, client, charlie, short_match, long_match, django_assert_num_queries
):
    assert short_match.segment_count < 2 * SHORT < LONG <= long_match.segment_count
    for match in (short_match, long_match):  # warm up: sessions, caches
        _sign_in(client, match, viewer, charlie)
        get_ok(client, match.get_absolute_url(), **headers)()

    _sign_in(client, short_match, viewer, charlie)
    short = count_queries(get_ok(client, short_match.get_absolute_url(), **headers))
    _sign_in(client, long_match, viewer, charlie)

    with django_assert_num_queries(short):
        get_ok(client, long_match.get_absolute_url(), **headers)()


def test_a_replayed_position_queries_do_not_grow_with_the_history(
    client, charlie, short_match, long_match, django_assert_num_queries
):
    client.force_login(charlie)
    short_url = f"{short_match.get_absolute_url()}?replay=2"
    long_url = f"{long_match.get_absolute_url()}?replay={LONG - 2}"
    get_ok(client, short_url)()

    short = count_queries(get_ok(client, short_url))

    with django_assert_num_queries(short):
        get_ok(client, long_url)()
