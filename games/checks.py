"""System checks: settings that would lose queued work (``manage.py check``), and
production settings that would mislead players or lock them out, or that fall back on
what is meant for a developer's machine (``check --deploy``)."""

from __future__ import annotations

from urllib.parse import urlsplit

from django.conf import settings
from django.core.checks import CheckMessage, Error, Tags, Warning, register
from django.core.mail.backends import console, dummy, filebased, locmem
from django.http.request import split_domain_port, validate_host
from django.utils.module_loading import import_string

from aceysite.redis_urls import database_number

#: The names of this machine a Redis URL may use, each the same server as the others.
_LOOPBACK = frozenset({"localhost", "127.0.0.1", "::1"})


def _redis_database(url: str) -> tuple[str, int, int] | None:
    """(host, port, database) of a Redis URL, or None for anything else. This machine's
    names are one host, "localhost": the broker at redis://localhost:6379/0 shares its
    database with a cache at redis://127.0.0.1:6379/0."""
    parts = urlsplit(url)
    if parts.scheme not in ("redis", "rediss"):
        return None
    number = database_number(parts)
    # urlsplit lowers the name's case; a fully qualified "localhost." is the same name.
    host = (parts.hostname or "localhost").removesuffix(".")
    host = "localhost" if host in _LOOPBACK else host
    return (host, parts.port or 6379, -1 if number is None else number)


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


def _site_host() -> str:
    """SITE_URL's host as Django compares a request's with ALLOWED_HOSTS: an IPv6 address
    in its brackets, without a trailing dot (urlsplit's hostname drops the brackets)."""
    domain, _port = split_domain_port(urlsplit(settings.SITE_URL).netloc.rpartition("@")[2])
    return domain


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
    elif not validate_host(site_host := _site_host(), settings.ALLOWED_HOSTS):
        # Django would answer every emailed link with "Bad Request (400)", and a form
        # posted from a page at SITE_URL would fail the CSRF origin check.
        warnings.append(
            Warning(
                f"SITE_URL's host {site_host!r} is not in ALLOWED_HOSTS: the links in emails "
                "would be refused (400 Bad Request).",
                hint=f"Add {site_host} to ALLOWED_HOSTS, or set SITE_URL to an allowed host.",
                id="games.W006",
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


# Mail backends that keep every email on the machine: printed to the process's output (the
# site's default without SMTP_HOST, links to reset a password included), dropped, kept in
# memory or written to files.
_LOCAL_MAIL_BACKENDS = (
    console.EmailBackend,
    dummy.EmailBackend,
    filebased.EmailBackend,
    locmem.EmailBackend,
)


def _mail_stays_local() -> bool:
    """Whether the default mailer sends nothing out (or there is none)."""
    path = getattr(settings, "MAILERS", {}).get("default", {}).get("BACKEND", "")
    return not path or issubclass(import_string(path), _LOCAL_MAIL_BACKENDS)


@register(Tags.security, deploy=True)
def production_services(app_configs=None, **kwargs) -> list[CheckMessage]:
    """With nothing configured, the site runs as on a developer's machine: SQLite, email
    printed to the console, errors emailed to nobody. In production each would go unseen
    until it hurt: say so."""
    if settings.DEBUG:
        return []
    messages: list[CheckMessage] = []
    engines = {database["ENGINE"] for database in settings.DATABASES.values()}
    if "django.db.backends.sqlite3" in engines:
        messages.append(
            Warning(
                "The database is SQLite (DATABASE_URL is not set, or names SQLite): one file "
                "on this machine, written by one process at a time.",
                hint="Set DATABASE_URL=postgres://user:password@host:5432/name.",
                id="games.W004",
            )
        )
    if _mail_stays_local():
        messages.append(
            Error(
                "Email is not sent: SMTP_HOST is not set, so every email (password reset "
                "links, address confirmations, turns) is printed to the process's output.",
                hint="Set SMTP_HOST and the other SMTP_* variables.",
                id="games.E002",
            )
        )
    if not settings.ADMINS:
        messages.append(
            Warning(
                "ADMINS is empty: nobody is emailed when a page fails with a server error.",
                hint="Set ADMINS=ops@example.com (comma-separated addresses).",
                id="games.W005",
            )
        )
    return messages
