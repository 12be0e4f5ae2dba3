"""A limit on failed logins, kept in Django's cache.

Each username (case-insensitive) and each client IP gets a counter of failed attempts that
expires a fixed window after the first failure. While a counter is at its limit, login
attempts for that username or from that IP are refused without checking the password.

The counters must be shared by every web process for the limit to hold, so production
wants a shared cache (Redis); the default local-memory cache counts per process.
"""

from __future__ import annotations

import hashlib

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest

WINDOW_SECONDS = 15 * 60
MAX_FAILURES_PER_USERNAME = 5
MAX_FAILURES_PER_IP = 20


def client_ip(request: HttpRequest) -> str:
    """The client's address. Behind ``TRUSTED_PROXY_COUNT`` reverse proxies, each of which
    appends to X-Forwarded-For, it is the entry that many places from the right; anything
    further left could have been written by the client."""
    proxies = getattr(settings, "TRUSTED_PROXY_COUNT", 0)
    forwarded = [part.strip() for part in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
    if proxies and len(forwarded) >= proxies and forwarded[-proxies]:
        return forwarded[-proxies]
    return request.META.get("REMOTE_ADDR", "")


def _username_key(username: str) -> str:
    # Hashed, so any username makes a valid cache key.
    return "login-failures:user:" + hashlib.sha256(username.casefold().encode()).hexdigest()


def _ip_key(ip: str) -> str:
    return "login-failures:ip:" + hashlib.sha256(ip.encode()).hexdigest()


def is_login_blocked(*, username: str, ip: str) -> bool:
    user_key, ip_key = _username_key(username), _ip_key(ip)
    counts = cache.get_many([user_key, ip_key])
    return (
        counts.get(user_key, 0) >= MAX_FAILURES_PER_USERNAME
        or counts.get(ip_key, 0) >= MAX_FAILURES_PER_IP
    )


def record_failed_login(*, username: str, ip: str) -> None:
    for key in (_username_key(username), _ip_key(ip)):
        # add() starts a window only when there is no counter; incr() keeps its expiry.
        cache.add(key, 0, timeout=WINDOW_SECONDS)
        try:
            cache.incr(key)
        except ValueError:  # the counter expired between add() and incr()
            cache.add(key, 1, timeout=WINDOW_SECONDS)


def clear_failed_logins(*, username: str) -> None:
    """Forget a username's failures once it logs in; the IP's count stands."""
    cache.delete(_username_key(username))
