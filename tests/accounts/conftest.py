from collections.abc import Callable

import pytest
from django.core.cache import cache
from django.db.models.signals import pre_save

from accounts.models import User


@pytest.fixture(autouse=True)
def empty_cache():
    # The failed-login counters live in the (local-memory) cache.
    cache.clear()
    yield
    cache.clear()


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
