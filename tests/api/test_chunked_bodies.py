"""A body sent in chunks (``Transfer-Encoding: chunked``, no Content-Length) is read
where the server can read it (gunicorn, the site's web process) and refused in words
where it cannot: never taken for an empty body."""

from __future__ import annotations

import http.client
import json
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.urls import reverse

from accounts.models import ApiToken
from tests.security.test_gunicorn_logs import Gunicorn

from .conftest import start


@pytest.fixture
def gunicorn(tmp_path: Path) -> Iterator[Gunicorn]:
    """The Procfile's web process serving the test database as it stands when asked for."""
    servers: list[Gunicorn] = []

    def serve() -> Gunicorn:
        servers.append(Gunicorn(tmp_path))
        return servers[-1]

    yield serve
    for server in servers:
        if server.process.poll() is None:
            server.stop()


def post_in_chunks(server: Gunicorn, path: str, body: bytes, key: str) -> tuple[int, dict]:
    """POST ``body`` in two chunks; the status and the JSON answered."""
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    try:
        # An iterable body with no Content-Length: http.client sends it in chunks.
        conn.request(
            "POST",
            path,
            body=iter([body[:10], body[10:]]),
            headers={"Authorization": f"Token {key}", "Content-Type": "application/json"},
            encode_chunked=True,
        )
        response = conn.getresponse()
        return response.status, json.loads(response.read())
    finally:
        conn.close()


@pytest.mark.django_db(transaction=True)
def test_gunicorn_reads_a_turn_sent_in_chunks(gunicorn, alice, bob):
    match = start(alice, bob, [5, 2, 6, 3])
    _, key = ApiToken.issue(alice, "tests")
    server = gunicorn()
    body = json.dumps({"segment": 1, "play": "in/22 in/19"}).encode()

    status, answer = post_in_chunks(server, reverse("api_match_turn", args=[match.pk]), body, key)

    assert status == 200, answer
    assert answer["to_move"] == "bob"
    assert answer["history"][-1]["play"] == "in/22 in/19"


@pytest.mark.django_db(transaction=True)
def test_gunicorn_refuses_a_body_in_chunks_over_64_kib(gunicorn, alice, bob):
    match = start(alice, bob, [5, 2, 6, 3])
    _, key = ApiToken.issue(alice, "tests")
    server = gunicorn()
    body = json.dumps({"segment": 1, "play": "x" * 64 * 1024}).encode()

    status, answer = post_in_chunks(server, reverse("api_match_turn", args=[match.pk]), body, key)

    assert status == 413
    assert "64 KiB" in answer["error"]


@pytest.mark.django_db(transaction=True)
def test_gunicorn_answers_400_for_malformed_chunks(gunicorn, alice, bob):
    match = start(alice, bob, [5, 2, 6, 3])
    _, key = ApiToken.issue(alice, "tests")
    server = gunicorn()
    request = (
        f"POST {reverse('api_match_turn', args=[match.pk])} HTTP/1.1\r\n"
        f"Host: 127.0.0.1\r\nAuthorization: Token {key}\r\n"
        "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
        "zz\r\n{}\r\n0\r\n\r\n"  # zz: no chunk size
    )

    with socket.create_connection(("127.0.0.1", server.port), timeout=30) as conn:
        conn.sendall(request.encode())
        answer = conn.makefile("rb").read()

    assert answer.startswith(b"HTTP/1.1 400 "), answer
    assert b"malformed or cut off" in answer
    match.refresh_from_db()
    assert match.segment_count == 1


@pytest.mark.django_db
def test_a_server_that_cannot_read_chunks_answers_411(alice_api, match):
    # As Django's runserver hands a chunked body on: no Content-Length, and a wsgi.input
    # that gives no end (no wsgi.input_terminated), so Django reads nothing of it.
    response = alice_api.post(
        reverse("api_match_turn", args=[match.pk]),
        {"segment": 1, "play": "in/22 in/19"},
        content_type="application/json",
        CONTENT_LENGTH="",
        HTTP_TRANSFER_ENCODING="chunked",
    )

    assert response.status_code == 411
    assert "Content-Length" in response.json()["error"]
    match.refresh_from_db()
    assert match.segment_count == 1
