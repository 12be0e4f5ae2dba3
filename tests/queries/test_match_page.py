"""The match page takes as many SQL queries for a long history as for a short one, and for a
long conversation between its players as for a short one."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games import chat, services
from games.models import Match, Message
from tests.matches import opened_by_white

from .conftest import LONG, SHORT, WHITE_STARTS, count_queries, end_game, get_ok

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


@pytest.mark.parametrize("viewer", ["player", "spectator", "anonymous"])
@pytest.mark.parametrize("ending", ["resignation", "timeout"])
def test_a_match_resigned_or_lost_on_time_takes_as_many_queries_as_one_borne_off(
    viewer, ending, client, alice, bob, charlie, django_assert_num_queries
):
    # Its history has a closing line the other has not (games.board._forfeit).
    borne_off = end_game(opened_by_white(alice, bob), loser_off=14, then=WHITE_STARTS)
    forfeited = opened_by_white(alice, bob)
    if ending == "resignation":
        services.resign(forfeited.pk, user=bob)
    else:
        assert services.award_timeout(forfeited.pk, now=timezone.now() + timedelta(days=30))
    forfeited.refresh_from_db()
    assert (borne_off.ending, forfeited.ending) == ("borne_off", ending)
    if viewer != "anonymous":
        client.force_login(alice if viewer == "player" else charlie)
    for match in (borne_off, forfeited):  # warm up: sessions, caches
        get_ok(client, match.get_absolute_url())()

    borne_off_queries = count_queries(get_ok(client, borne_off.get_absolute_url()))

    with django_assert_num_queries(borne_off_queries):
        get_ok(client, forfeited.get_absolute_url())()


def _written(match: Match, count: int) -> list[int]:
    """``count`` messages between the players, written before today's limit counts: their
    ids, the oldest first."""
    ago = timezone.now() - timedelta(days=2)
    made = Message.objects.bulk_create(
        Message(match=match, author=(match.white, match.black)[n % 2], text="hi", created_at=ago)
        for n in range(count)
    )
    return [message.pk for message in made]


def _unread_from(match: Match, read_to: int) -> None:
    Match.objects.filter(pk=match.pk).update(white_read_to=read_to, black_read_to=read_to)


@pytest.mark.parametrize("unread", ["latest", "all"])
@pytest.mark.parametrize("request_made", ["page", "message sent", "poll"])
def test_the_messages_take_as_many_queries_for_a_long_conversation(
    request_made, unread, client, alice, bob, django_user_model, django_assert_num_queries
):
    short, long = opened_by_white(alice, bob), opened_by_white(bob, alice)
    _written(short, 2)
    _written(long, 3 * chat.SHOWN)
    client.force_login(alice)

    def request(match: Match) -> int:
        url = reverse("match_messages", args=[match.pk])
        if request_made == "page":
            response = client.get(match.get_absolute_url())
        elif request_made == "message sent":
            response = client.post(url, {"text": "Thanks!"}, headers=HTMX)
        else:
            response = client.get(f"{url}?after=0", headers=HTMX)
        assert response.status_code == 200, response.content[:500]
        return response.text.count('<li class="chat-')

    for match in (short, long):  # warm up: sessions, caches
        request(match)
    _unread_from(short, 0)
    # Unread: fewer than the latest, which the page shows, or all, which it goes back to.
    # (The poll brings the first, from 0, and marks them read either way.)
    newest = Message.objects.filter(match=long).order_by("-pk").values_list("pk", flat=True)
    _unread_from(
        long, newest[chat.SHOWN - 1] if unread == "latest" and request_made != "poll" else 0
    )
    short_queries = count_queries(lambda: request(short))
    _unread_from(short, 0)

    with django_assert_num_queries(short_queries):
        shown = request(long)
    if unread == "latest" or request_made == "poll":
        assert shown == chat.SHOWN
    else:
        assert shown == len(Message.objects.filter(match=long))


@pytest.mark.parametrize("side", ["before", "after"])
def test_a_page_of_older_messages_takes_as_many_queries_as_the_latest(
    side, client, alice, bob, django_assert_num_queries
):
    match = opened_by_white(alice, bob)
    ids = _written(match, 3 * chat.MOST_SHOWN)
    _unread_from(match, ids[-1])
    client.force_login(alice)
    url = match.get_absolute_url()
    get_ok(client, url)()  # warm up: the session
    latest = count_queries(get_ok(client, url))

    with django_assert_num_queries(latest):
        # A page in the middle: links either way, each asked in the messages' query.
        middle = ids[2 * chat.MOST_SHOWN] if side == "before" else ids[chat.MOST_SHOWN - 1]
        response = client.get(url, {side: middle})

    assert response.text.count('<li class="chat-') == chat.MOST_SHOWN
    assert "Older messages" in response.text and "Newer messages" in response.text
