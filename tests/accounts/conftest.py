import pytest
from django.core.cache import cache


@pytest.fixture(autouse=True)
def empty_cache():
    # The failed-login counters live in the (local-memory) cache.
    cache.clear()
    yield
    cache.clear()
