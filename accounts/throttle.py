"""Limits on failed logins, password-reset requests and email-change links, kept in
Django's cache.

Failed logins are counted three ways, each counter expiring a fixed window after its first
failure: per username (case-insensitive) from one client IP, per client IP, and per
username from everywhere. While any of the three is at its limit, login attempts for that
username from that IP are refused without checking the password. The pair's limit is the
low one, so someone who knows a username can lock only their own address out of it, not
the owner; the per-IP limit stops one address trying many usernames, and the much higher
per-username limit stops guesses spread over many addresses.

Password resets: each email address (case-insensitive) and each client IP may ask for a
few reset emails an hour; beyond that, requests are answered as usual but send nothing.

Email changes: each player may ask for a few confirmation links an hour, and each address
(case-insensitive) be sent a few, whoever asks; beyond that, the player is told, and
nothing is sent.

"Each client IP" means each IPv4 address but each IPv6 /64 (see :func:`address_block`).

The counters must be shared by every web process for the limits to hold, so production
wants a shared cache (Redis); the default local-memory cache counts per process.
"""

from __future__ import annotations

import hashlib
import ipaddress

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest

WINDOW_SECONDS = 15 * 60
MAX_FAILURES_PER_USERNAME_AND_IP = 5
MAX_FAILURES_PER_IP = 20
MAX_FAILURES_PER_USERNAME = 100

RESET_WINDOW_SECONDS = 60 * 60
MAX_RESETS_PER_EMAIL = 3
MAX_RESETS_PER_IP = 20

EMAIL_CHANGE_WINDOW_SECONDS = 60 * 60
MAX_EMAIL_CHANGES_PER_PLAYER = 5
MAX_EMAIL_CHANGES_PER_ADDRESS = 3


def client_ip(request: HttpRequest) -> str:
    """The client's address. Behind ``TRUSTED_PROXY_COUNT`` reverse proxies, each of which
    appends to X-Forwarded-For, it is the entry that many places from the right; anything
    further left could have been written by the client."""
    proxies = getattr(settings, "TRUSTED_PROXY_COUNT", 0)
    forwarded = [part.strip() for part in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
    if proxies and len(forwarded) >= proxies and forwarded[-proxies]:
        return forwarded[-proxies]
    return request.META.get("REMOTE_ADDR", "")


def address_block(ip: str) -> str:
    """The addresses counted together with ``ip``: every limit per IP is a limit per block.

    An IPv4 address is its own block. An IPv6 address counts as its /64, since one
    subscriber is routinely given a whole /64 and could otherwise make billions of fresh
    addresses; an IPv4-mapped IPv6 address counts as the IPv4 address it maps. Anything
    that is not an address (a misconfigured proxy's header, say) is left as it is.

    >>> address_block("203.0.113.5"), address_block("::ffff:203.0.113.5")
    ('203.0.113.5', '203.0.113.5')
    >>> address_block("2001:DB8:0:1:abcd::9")
    '2001:db8:0:1::/64'
    >>> address_block("not an address")
    'not an address'
    """
    try:
        address = ipaddress.ip_address(ip)
    except ValueError:
        return ip
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((int(address) >> 64 << 64, 64)))
    return str(address)


def _username_key(username: str) -> str:
    return _hashed_key("login-failures:user:", username.casefold())


def _username_and_ip_key(username: str, ip: str) -> str:
    return _hashed_key("login-failures:user-ip:", f"{username.casefold()}\n{address_block(ip)}")


def _ip_key(ip: str) -> str:
    return _hashed_key("login-failures:ip:", address_block(ip))


def is_login_blocked(*, username: str, ip: str) -> bool:
    limits = {
        _username_and_ip_key(username, ip): MAX_FAILURES_PER_USERNAME_AND_IP,
        _ip_key(ip): MAX_FAILURES_PER_IP,
        _username_key(username): MAX_FAILURES_PER_USERNAME,
    }
    counts = cache.get_many(list(limits))
    return any(counts.get(key, 0) >= limit for key, limit in limits.items())


def record_failed_login(*, username: str, ip: str) -> None:
    for key in (_username_and_ip_key(username, ip), _ip_key(ip), _username_key(username)):
        _count(key, window=WINDOW_SECONDS)


def clear_failed_logins(*, username: str, ip: str) -> None:
    """Forget a username's failures from ``ip`` once it logs in from there. The IP's count
    stands, and so does the username's count from everywhere: else guesses spread over
    many addresses would start afresh each time the owner logs in."""
    cache.delete(_username_and_ip_key(username, ip))


def clear_failed_logins_after_reset(*, username: str, ip: str) -> None:
    """Forget a username's failures from everywhere and from ``ip`` once its owner has set
    a new password through an emailed link: guesses at the old one no longer matter. (The
    username's counts from other IPs cannot be listed in the cache; they expire.)"""
    cache.delete_many([_username_key(username), _username_and_ip_key(username, ip)])


def count_password_reset(*, email: str, ip: str) -> str | None:
    """Count a password-reset request for ``email`` from ``ip``. Return None while both are
    within their limits, else the one that is over: "ip" or "email". A request refused for
    its IP does not count against the address."""
    ip_key = _hashed_key("reset-requests:ip:", address_block(ip))
    if _count(ip_key, window=RESET_WINDOW_SECONDS) > MAX_RESETS_PER_IP:
        return "ip"
    email_key = _hashed_key("reset-requests:email:", email.strip().casefold())
    if _count(email_key, window=RESET_WINDOW_SECONDS) > MAX_RESETS_PER_EMAIL:
        return "email"
    return None


def count_email_change(*, user_id: int, email: str) -> str | None:
    """Count an email-change confirmation link asked by the player ``user_id`` for
    ``email``. Return None while both are within their limits, else the one that is over:
    "player" or "address". A request refused for its player does not count against the
    address, so that one player cannot use up another's links to it."""
    player_key = _hashed_key("email-change-requests:player:", str(user_id))
    if _count(player_key, window=EMAIL_CHANGE_WINDOW_SECONDS) > MAX_EMAIL_CHANGES_PER_PLAYER:
        return "player"
    address_key = _hashed_key("email-change-requests:address:", email.strip().casefold())
    if _count(address_key, window=EMAIL_CHANGE_WINDOW_SECONDS) > MAX_EMAIL_CHANGES_PER_ADDRESS:
        return "address"
    return None


def _hashed_key(prefix: str, value: str) -> str:
    # Hashed, so any value makes a valid cache key and the cache holds no addresses.
    return prefix + hashlib.sha256(value.encode()).hexdigest()


def _count(key: str, *, window: int) -> int:
    """Add one to the counter at ``key`` and return the new count. The window starts with
    the first count: add() creates a counter only when there is none, incr() keeps its
    expiry."""
    cache.add(key, 0, timeout=window)
    try:
        return cache.incr(key)
    except ValueError:  # the counter expired between add() and incr()
        cache.add(key, 1, timeout=window)
        return 1
