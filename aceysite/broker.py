"""kombu's Redis transport, publishing through one Redis client per channel.

kombu's Redis channel makes a new ``redis.Redis`` for every command it sends outside the
worker's polling loop: for every task published, so for every turn (its email). Making
one copies redis-py's table of about 170 response callbacks, a fifth of a publication's
CPU in the web process (README, bench.turn). The client holds no connection of its own:
each command takes one from the channel's pool and gives it back, as before, so one
client serves every thread, and after a fork the pool (redis-py checks the process id)
opens new connections as it did. Only the client object is kept.

settings.CELERY_BROKER_TRANSPORT names :class:`Transport` for a ``redis://`` broker URL.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from functools import cached_property

import redis
from kombu.transport import redis as kombu_redis


class Channel(kombu_redis.Channel):
    """A Redis channel whose commands share one client (see the module's docstring)."""

    @cached_property
    def _shared_client(self) -> redis.Redis:
        return self._create_client()

    @contextmanager
    def conn_or_acquire(self, client: redis.Redis | None = None) -> Iterator[redis.Redis]:
        yield client or self._shared_client


class Transport(kombu_redis.Transport):
    """kombu's Redis transport with :class:`Channel`."""

    Channel = Channel
