"""System checks for settings that would lose queued work (``manage.py check``)."""

from __future__ import annotations

from urllib.parse import urlsplit

from django.conf import settings
from django.core.checks import Error, register

from aceysite.redis_urls import database_number


def _redis_database(url: str) -> tuple[str, int, int] | None:
    """(host, port, database) of a Redis URL, or None for anything else."""
    parts = urlsplit(url)
    if parts.scheme not in ("redis", "rediss"):
        return None
    number = database_number(parts)
    return (parts.hostname or "localhost", parts.port or 6379, -1 if number is None else number)


@register()
def broker_apart_from_cache(app_configs=None, **kwargs) -> list[Error]:
    """The Celery broker must not share a Redis database with a cache: clearing the cache,
    or Redis evicting its keys, would delete queued emails and bot turns."""
    broker = _redis_database(getattr(settings, "CELERY_BROKER_URL", "") or "")
    if broker is None:
        return []
    errors = []
    for alias, cache in settings.CACHES.items():
        locations = cache.get("LOCATION", "")
        for location in [locations] if isinstance(locations, str) else locations:
            if _redis_database(location) == broker:
                errors.append(
                    Error(
                        f"The Celery broker and the {alias!r} cache share Redis database "
                        f"{broker[2]} on {broker[0]}:{broker[1]}.",
                        hint="Give the broker a database of its own in CELERY_BROKER_URL "
                        "(e.g. REDIS_URL=redis://host:6379/0, "
                        "CELERY_BROKER_URL=redis://host:6379/1).",
                        id="games.E001",
                    )
                )
    return errors
