from collections.abc import Callable

import pytest
from django.db.models.signals import pre_save

from accounts.models import User


@pytest.fixture(autouse=True)
def _cache_emptied(empty_cache):
    """Every accounts test: the failed-login counters live in the cache."""


@pytest.fixture
def local_memory_cache(settings):
    """A local-memory cache in place of the configured one, for tests that move the clock
    forward with ``monkeypatch.setattr(time, "time", ...)``: it expires keys by that clock,
    where Redis (REDIS_URL) expires them by its own."""
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": "tests.accounts",
        }
    }


@pytest.fixture
def meanwhile():
    """``meanwhile(action, when=test)`` runs ``action`` just before a user for whom
    ``test(user)`` is true is saved: a stand-in for another request that commits between
    a form's check and the save."""
    receivers = []

    def register(action: Callable[[], object], *, when: Callable[[User], bool]) -> None:
        def receiver(sender, instance: User, **kwargs) -> None:
            if when(instance):
                action()

        pre_save.connect(receiver, sender=User, weak=False)
        receivers.append(receiver)

    yield register
    for receiver in receivers:
        pre_save.disconnect(receiver, sender=User)
