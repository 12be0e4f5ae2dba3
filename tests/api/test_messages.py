"""The match's messages through the API: the two players read and write them, nobody else."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games import chat
from games.models import Message

from .conftest import post_json

pytestmark = pytest.mark.django_db


def _url(match) -> str:
    return f"/api/v1/matches/{match.pk}/messages/"


def test_a_player_writes_and_the_other_reads_after_what_they_had(alice_api, bob_api, match):
    first = post_json(alice_api, _url(match), {"text": "Good luck!"})
    second = post_json(alice_api, _url(match), {"text": "  Have fun.  "})

    everything = bob_api.get(_url(match)).json()
    newer = bob_api.get(_url(match) + f"?after={first.json()['message']['id']}").json()

    assert first.status_code == second.status_code == 201
    assert [m["text"] for m in everything["messages"]] == ["Good luck!", "Have fun."]
    assert [m["author"] for m in everything["messages"]] == ["alice", "alice"]
    assert everything["can_write"] is True and everything["closed_because"] is None
    assert [m["text"] for m in newer["messages"]] == ["Have fun."]


def test_an_outsider_neither_reads_nor_writes(charlie_api, alice, match):
    chat.post_message(match.pk, user=alice, text="Good luck!")

    read = charlie_api.get(_url(match))
    write = post_json(charlie_api, _url(match), {"text": "Hello"})

    assert read.status_code == write.status_code == 403
    assert "only the match's two players" in read.json()["error"]
    assert Message.objects.count() == 1


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        ({}, "text is required"),
        ({"text": 5}, "text must be a string"),
        ({"text": "   "}, "write something first"),
        ({"text": "x" * 501}, "a message is at most 500 characters (this is 501)"),
        # However far beyond it (within the body's 64 KiB): the limit stated is the same.
        ({"text": "x" * 2001}, "a message is at most 500 characters (this is 2001)"),
        ({"text": "x" * 60_000}, "a message is at most 500 characters (this is 60000)"),
        ({"text": "hi", "extra": 1}, "unknown field"),
    ],
)
def test_a_bad_message_gets_a_reason_and_stores_nothing(alice_api, match, body, reason):
    response = post_json(alice_api, _url(match), body)

    assert response.status_code == 400
    assert reason in response.json()["error"]
    assert not Message.objects.exists()


def test_a_message_too_long_in_emoji_says_how_they_count(alice_api, match):
    # Counted as the match page's box (maxlength) counts, in UTF-16 units: 300 of this
    # emoji are 600, beyond the 500 the docs state, and the refusal says why.
    response = post_json(alice_api, _url(match), {"text": "\U0001f600" * 300})

    assert response.status_code == 400
    assert response.json()["error"] == (
        "a message is at most 500 characters (this is 600: most emoji, and some rarer"
        " characters, count as two)"
    )
    assert not Message.objects.exists()


def test_after_an_id_larger_than_any_gives_none(alice_api, match):
    post_json(alice_api, _url(match), {"text": "Good luck"})

    response = alice_api.get(_url(match) + "?after=" + "9" * 30)

    assert response.status_code == 200
    assert response.json()["messages"] == []


def test_after_must_be_a_number(alice_api, match):
    response = alice_api.get(_url(match) + "?after=yesterday")

    assert response.status_code == 400
    assert "after must be a message id" in response.json()["error"]


def test_other_methods_are_told_which_to_use(alice_api, match):
    response = alice_api.delete(_url(match))

    assert response.status_code == 405
    assert response["Allow"] == "GET, HEAD, POST"


def test_me_lists_unread_messages_until_the_player_reads_them(alice_api, bob_api, match):
    post_json(alice_api, _url(match), {"text": "Good luck!"})
    post_json(alice_api, _url(match), {"text": "Have fun."})

    before = bob_api.get("/api/v1/me/").json()
    bob_api.get(_url(match))
    after = bob_api.get("/api/v1/me/").json()

    assert before["unread_messages"] == {str(match.pk): 2}
    assert after["unread_messages"] == {}
    assert alice_api.get("/api/v1/me/").json()["unread_messages"] == {}  # her own


def test_the_days_last_message_answers_429_with_when_to_write_again(alice_api, alice, match):
    an_hour_ago = timezone.now() - timedelta(hours=1)
    Message.objects.bulk_create(
        Message(match=match, author=alice, text="hi", created_at=an_hour_ago)
        for _ in range(chat.MAX_PER_DAY)
    )

    response = post_json(alice_api, _url(match), {"text": "one more"})

    assert response.status_code == 429
    assert "wait a while" in response.json()["error"]
    # 23 hours, less the moment the request took.
    assert 23 * 3600 - 60 < int(response["Retry-After"]) <= 23 * 3600
    assert Message.objects.count() == chat.MAX_PER_DAY


def test_a_long_conversation_comes_a_hundred_messages_at_a_time(bob_api, alice, match):
    Message.objects.bulk_create(
        Message(match=match, author=alice, text=f"message {n}") for n in range(105)
    )

    first = bob_api.get(_url(match)).json()
    last_id = first["messages"][-1]["id"]
    rest = bob_api.get(_url(match) + f"?after={last_id}").json()

    assert (len(first["messages"]), first["more"]) == (100, True)
    assert first["messages"][0]["text"] == "message 0"
    assert [m["text"] for m in rest["messages"]] == [f"message {n}" for n in range(100, 105)]
    assert rest["more"] is False
