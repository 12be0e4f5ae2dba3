import pytest
from django.core.cache import cache


@pytest.fixture(autouse=True)
def site_with_profiles(settings):
    settings.ROOT_URLCONF = "tests.accounts.urls"


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    # These tests log in dozens of times; the default hasher takes a second each time.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def empty_cache():
    # The failed-login counters live in the (local-memory) cache.
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def bob(django_user_model):
    return django_user_model.objects.create_user(
        username="bob", email="bob@example.com", password="correct horse battery"
    )


@pytest.fixture
def charlie(django_user_model):
    return django_user_model.objects.create_user(
        username="charlie", email="charlie@example.com", password="correct horse battery"
    )
