"""Security headers on every page: a strict Content-Security-Policy and friends."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db


def test_pages_carry_a_strict_content_security_policy(client):
    response = client.get("/")

    policy = response["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "style-src 'self'" in policy
    assert "unsafe-inline" not in policy and "unsafe-eval" not in policy
    assert "frame-ancestors 'none'" in policy


def test_pages_refuse_framing_and_sniffing(client):
    response = client.get("/lobby/")

    assert response["X-Frame-Options"] == "DENY"
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["Referrer-Policy"] == "same-origin"
