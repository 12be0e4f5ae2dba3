"""Fixtures for the tournament site tests (the pure bracket engine is tested in
tests/tournaments)."""

from __future__ import annotations

import pytest

from .helpers import make_users


@pytest.fixture
def users(db):
    """A factory of players: ``users(5)`` makes p1..p5 (with email addresses)."""
    return make_users
