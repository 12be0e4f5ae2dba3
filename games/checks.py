"""System checks: settings that would lose queued work (``manage.py check``), and
production settings that would mislead players or lock them out (``check --deploy``)."""

from __future__ import annotations

from urllib.parse import urlsplit

from django.conf import settings
from django.core.checks import Error, Tags, Warning, register

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


@register(Tags.security, deploy=True)
def production_settings(app_configs=None, **kwargs) -> list[Warning]:
    """What ``check --deploy`` cannot know of this site: behind the HTTPS proxy that the
    production settings assume, the client's address comes from X-Forwarded-For; emails
    link to SITE_URL; the login limits count in the cache, which every process must share.
    """
    if settings.DEBUG:
        return []
    warnings = []
    if settings.SECURE_PROXY_SSL_HEADER and not settings.TRUSTED_PROXY_COUNT:
        warnings.append(
            Warning(
                "TRUSTED_PROXY_COUNT is 0, so every client has the proxy's address: the "
                "login limits per address would lock every player out together.",
                hint="Set TRUSTED_PROXY_COUNT=1 behind one reverse proxy (the number of "
                "proxies that append to X-Forwarded-For).",
                id="games.W001",
            )
        )
    host = urlsplit(settings.SITE_URL).hostname or ""
    if host in ("localhost", "127.0.0.1", "::1") or not settings.SITE_URL.startswith("https://"):
        warnings.append(
            Warning(
                f"SITE_URL is {settings.SITE_URL!r}: the links in emails would not reach "
                "the site, or not over HTTPS.",
                hint="Set SITE_URL to the site's public address, e.g. https://acey.example.com.",
                id="games.W002",
            )
        )
    backends = {cache["BACKEND"].rsplit(".", 1)[-1] for cache in settings.CACHES.values()}
    if "LocMemCache" in backends:
        warnings.append(
            Warning(
                "The cache is each process's own memory: every web process would count "
                "failed logins and reset requests apart, multiplying the limits.",
                hint="Set REDIS_URL (a Redis database apart from the broker's).",
                id="games.W003",
            )
        )
    return warnings
