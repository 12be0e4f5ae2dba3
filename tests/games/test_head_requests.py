"""The pages answer HEAD as they answer GET (link checkers and uptime monitors send it),
without a body; the match page alone refuses it, since drawing it for a player marks
their opponent's messages read."""

from __future__ import annotations

import pytest
from django.test import Client

from games import services

pytestmark = pytest.mark.django_db


def test_every_page_that_reads_answers_head_with_its_headers_and_no_body(alice, bob):
    match = services.start_match(
        white=alice, black=bob, variant="american", points=1, days_per_move=2
    )
    services.resign(match.pk, user=bob)
    challenge = services.create_challenge(alice, opponent=bob)
    client = Client()
    client.force_login(bob)
    paths = [
        "/",
        "/rules/",
        "/api/",
        "/leaderboard/",
        "/tournaments/",
        f"/players/{alice.username}/",
        f"/players/{alice.username}/dice/",
        f"/matches/{match.pk}/dice/",
        f"/matches/{match.pk}/export.txt",
        f"/matches/{match.pk}/history/1/",
        f"/challenges/{challenge.pk}/",
    ]

    answers = {path: client.head(path) for path in paths}
    gets = {path: client.get(path) for path in paths}

    # As GET answers ("/" sends a logged-in player on to their matches), never 405.
    assert {p: a.status_code for p, a in answers.items()} == {
        p: g.status_code for p, g in gets.items()
    }
    assert {a.status_code for a in answers.values()} == {200, 302}
    assert all(a.content == b"" for a in answers.values())
    for path in paths:
        assert answers[path]["Content-Type"] == gets[path]["Content-Type"], path


def test_the_match_page_refuses_head_and_marks_nothing_read(alice, bob):
    from games import chat

    match = services.start_match(
        white=alice, black=bob, variant="american", points=1, days_per_move=2
    )
    chat.post_message(match.pk, user=alice, text="good luck")
    client = Client()
    client.force_login(bob)

    answer = client.head(match.get_absolute_url())

    match.refresh_from_db()
    assert answer.status_code == 405 and answer["Allow"] == "GET"
    assert chat.read_to(match, bob) == 0
