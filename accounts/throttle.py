"""Limits on failed logins, password-reset requests, sign-ups, email-change links and
links that confirm an address, kept in Django's cache.

Failed logins are counted per username (case-insensitive) from one client IP, per client
IP, and per username from everywhere, each counter expiring a fixed window after its first
failure. While any of the three is at its limit, login attempts for that username from
that IP are refused without checking the password. The pair's limit is the low one, so
someone who knows a username can lock only their own address out of it; the per-IP limit
stops one address trying many usernames, and the much higher per-username limit stops
guesses spread over many addresses.

Those blocks would lock the owner out too (failures for her username spread over many
addresses, or made-up usernames from the carrier NAT she shares), so a browser she has
logged in from is exempt from them. Each successful login leaves a signed, long-lived,
HttpOnly "known device" cookie (:func:`remember_device`) naming the browser and, by a keyed
hash, each account logged in there with its present password (a new password makes every
browser a stranger to it again, a shared computer the owner has left included). For an
account its cookie names, a browser's failures are counted per username and browser
instead, with the pair's limit, and nothing else blocks it: not the username's count from
everywhere, not its address's count, and not its address's count for the username, so
that nobody sharing her address can lock her out of her own browser. The cookie is the
browser's, whatever its address: copied elsewhere it brings no more guesses. (Its failures
still count in the other counters, against browsers the account does not know.)

A password set through an emailed reset link lifts the blocks on its username: the
username's counts, from everywhere and from each address and browser, start again (a
guess at the old password no longer matters), and for :data:`RESET_PASS_SECONDS` the
username is let past its address's block (as a known browser would be; the pair's limit
still holds there). The browser that set the new password is a known device afterwards.

Password resets: each email address (case-insensitive) and each client IP may ask for a
few reset emails an hour; beyond that, requests are answered as usual but send nothing.

Sign-ups: each client IP may try a few an hour, those the form refuses included (else
one IP could try any number of addresses to learn which have accounts); beyond that, the
page says so, and the form is neither checked nor saved. Each sign-up sends its address a
link: without a limit, one client could send any number of them, to any addresses.

Email changes: each player may ask for a few confirmation links an hour, and each address
(case-insensitive) be sent a few, whoever asks; beyond that, the player is told, and
nothing is sent.

Email confirmations: each player may have the link that confirms their address sent again
a few times an hour (the one sent at sign-up is not counted); beyond that, the player is
told, and nothing is sent.

"Each client IP" means each IPv4 address but each IPv6 /64 (see :func:`address_block`).

The counters must be shared by every web process for the limits to hold, so production
wants a shared cache (Redis); the default local-memory cache counts per process. While the
cache cannot be reached, the limits are off (each such call is logged as a warning): a
player logging in during a Redis outage gets in, rather than a server error.
"""

from __future__ import annotations

import hashlib
import ipaddress
import logging
import secrets
from collections.abc import Callable, Mapping
from functools import wraps
from typing import TYPE_CHECKING

from django.conf import settings
from django.core import signing
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.utils.crypto import salted_hmac
from redis.exceptions import RedisError

if TYPE_CHECKING:
    from .models import User

WINDOW_SECONDS = 15 * 60
MAX_FAILURES_PER_USERNAME_AND_IP = 5
MAX_FAILURES_PER_IP = 20
MAX_FAILURES_PER_USERNAME = 100
MAX_FAILURES_PER_USERNAME_AND_DEVICE = MAX_FAILURES_PER_USERNAME_AND_IP
#: After a password reset, how long its username is let past its address's block.
RESET_PASS_SECONDS = 24 * 60 * 60

KNOWN_DEVICE_COOKIE = "known_device"
KNOWN_DEVICE_MAX_AGE = 365 * 24 * 60 * 60
#: The accounts one browser's cookie remembers, the latest logged in: a family computer's.
KNOWN_ACCOUNTS_PER_DEVICE = 5
_KNOWN_DEVICE_SALT = "accounts.throttle.known_device"

RESET_WINDOW_SECONDS = 60 * 60
MAX_RESETS_PER_EMAIL = 3
MAX_RESETS_PER_IP = 20

SIGNUP_WINDOW_SECONDS = 60 * 60
MAX_SIGNUPS_PER_IP = 20

EMAIL_CHANGE_WINDOW_SECONDS = 60 * 60
MAX_EMAIL_CHANGES_PER_PLAYER = 5
MAX_EMAIL_CHANGES_PER_ADDRESS = 3

EMAIL_CONFIRMATION_WINDOW_SECONDS = 60 * 60
MAX_EMAIL_CONFIRMATIONS_PER_PLAYER = 3


logger = logging.getLogger(__name__)


def _unless_cache_down[R](fallback: R) -> Callable[[Callable[..., R]], Callable[..., R]]:
    """Answer ``fallback`` (not limited) when the cache cannot be reached: with Redis down,
    logging in and asking for a reset go on without their limits, each call logged as a
    warning, rather than failing with a server error until it is back."""

    def decorate(function: Callable[..., R]) -> Callable[..., R]:
        @wraps(function)
        def guarded(*args: object, **kwargs: object) -> R:
            try:
                return function(*args, **kwargs)
            except (RedisError, OSError) as error:
                # An outage, not a bug: one line each time, without the traceback.
                logger.warning(
                    "the cache is unreachable, %s goes on unlimited: %s", function.__name__, error
                )
                return fallback

        return guarded

    return decorate


def client_ip(request: HttpRequest) -> str:
    """The client's address. Behind ``TRUSTED_PROXY_COUNT`` reverse proxies, each of which
    appends to X-Forwarded-For, it is the entry that many places from the right; anything
    further left could have been written by the client."""
    return client_ip_in(request.META)


def client_ip_in(environ: Mapping[str, object]) -> str:
    """:func:`client_ip` read from a WSGI environ (or ``request.META``): gunicorn's access
    log names the client by it too (aceysite.gunicorn_logging)."""
    proxies = getattr(settings, "TRUSTED_PROXY_COUNT", 0)
    forwarded = [part.strip() for part in str(environ.get("HTTP_X_FORWARDED_FOR", "")).split(",")]
    if proxies and len(forwarded) >= proxies and forwarded[-proxies]:
        return forwarded[-proxies]
    return str(environ.get("REMOTE_ADDR", ""))


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


def _username_key(username: str, epoch: str) -> str:
    return _hashed_key("login-failures:user:", f"{username.casefold()}\n{epoch}")


def _username_and_ip_key(username: str, ip: str, epoch: str) -> str:
    return _hashed_key(
        "login-failures:user-ip:", f"{username.casefold()}\n{address_block(ip)}\n{epoch}"
    )


def _username_and_device_key(username: str, device: str, epoch: str) -> str:
    return _hashed_key("login-failures:user-device:", f"{username.casefold()}\n{device}\n{epoch}")


def _ip_key(ip: str) -> str:
    return _hashed_key("login-failures:ip:", address_block(ip))


def _reset_key(username: str) -> str:
    return _hashed_key("login-reset:", username.casefold())


def _epoch(username: str) -> str:
    """The mark of the username's last password reset, in each of its counters' keys: a
    reset starts them all afresh, from addresses that cannot be listed too. "" when there
    was none lately; when the mark expires (RESET_PASS_SECONDS after the reset), the
    counts made under it are forgotten with it, at most one window's worth."""
    return cache.get(_reset_key(username)) or ""


@_unless_cache_down(False)
def is_login_blocked(*, username: str, ip: str, device: str | None = None) -> bool:
    """Whether a login as ``username`` from ``ip`` must be refused unchecked. ``device``:
    the browser's id if it is known for this account (:func:`known_device`), which only
    its own count for the username can block."""
    epoch = _epoch(username)
    if device is not None:
        failures = cache.get(_username_and_device_key(username, device, epoch)) or 0
        return failures >= MAX_FAILURES_PER_USERNAME_AND_DEVICE
    limits = {
        _username_and_ip_key(username, ip, epoch): MAX_FAILURES_PER_USERNAME_AND_IP,
        _username_key(username, epoch): MAX_FAILURES_PER_USERNAME,
    }
    if not epoch:  # a username whose password was reset lately is let past the IP's block
        limits[_ip_key(ip)] = MAX_FAILURES_PER_IP
    counts = cache.get_many(list(limits))
    return any(counts.get(key, 0) >= limit for key, limit in limits.items())


@_unless_cache_down(None)
def record_failed_login(*, username: str, ip: str, device: str | None = None) -> None:
    epoch = _epoch(username)
    keys = [_username_and_ip_key(username, ip, epoch), _ip_key(ip), _username_key(username, epoch)]
    if device is not None:
        keys.append(_username_and_device_key(username, device, epoch))
    for key in keys:
        _count(key, window=WINDOW_SECONDS)


@_unless_cache_down(None)
def clear_failed_logins(*, username: str, ip: str, device: str | None = None) -> None:
    """Forget a username's failures from ``ip`` (and from ``device``) once it logs in
    from there. The IP's count stands, and so does the username's count from everywhere:
    else guesses spread over many addresses would start afresh each time the owner logs
    in."""
    epoch = _epoch(username)
    keys = [_username_and_ip_key(username, ip, epoch)]
    if device is not None:
        keys.append(_username_and_device_key(username, device, epoch))
    cache.delete_many(keys)


@_unless_cache_down(None)
def lift_blocks_after_reset(*, username: str) -> None:
    """Lift the blocks on a username once its owner has set a new password through an
    emailed link: guesses at the old one no longer matter. Its counts from everywhere and
    from every address and browser start again, and for RESET_PASS_SECONDS its address's
    count blocks it no longer (nor anyone else's username: the address stays blocked for
    them)."""
    cache.set(_reset_key(username), secrets.token_hex(8), timeout=RESET_PASS_SECONDS)


def known_device(request: HttpRequest, user: User) -> str | None:
    """The browser's id if its cookie says ``user`` has logged in from it with their
    present password; else None."""
    cookie = _read_device_cookie(request)
    if cookie is None:
        return None
    device, accounts = cookie
    return device if _account_tag(user) in accounts else None


def remember_device(request: HttpRequest, response: HttpResponse, user: User) -> None:
    """Leave the "known device" cookie on ``response``: the browser's id (kept if it had
    one), now naming ``user`` with their present password among the accounts it knows."""
    device, accounts = _read_device_cookie(request) or (secrets.token_urlsafe(16), [])
    tag = _account_tag(user)
    accounts = [*(known for known in accounts if known != tag), tag]
    payload = {"device": device, "accounts": accounts[-KNOWN_ACCOUNTS_PER_DEVICE:]}
    response.set_cookie(
        KNOWN_DEVICE_COOKIE,
        signing.dumps(payload, salt=_KNOWN_DEVICE_SALT),
        max_age=KNOWN_DEVICE_MAX_AGE,
        # Only the login and password pages read it.
        path="/accounts/",
        secure=settings.SESSION_COOKIE_SECURE,
        httponly=True,
        samesite="Lax",
    )


def _read_device_cookie(request: HttpRequest) -> tuple[str, list[str]] | None:
    """The browser's id and the tags of the accounts it knows, from a genuine cookie less
    than KNOWN_DEVICE_MAX_AGE old (it is signed again at each login); else None."""
    value = request.COOKIES.get(KNOWN_DEVICE_COOKIE)
    if not value:
        return None
    try:
        payload = signing.loads(value, salt=_KNOWN_DEVICE_SALT, max_age=KNOWN_DEVICE_MAX_AGE)
    except signing.BadSignature:
        return None
    if not isinstance(payload, dict):
        return None
    device, accounts = payload.get("device"), payload.get("accounts")
    if not isinstance(device, str) or not isinstance(accounts, list):
        return None
    return device, [tag for tag in accounts if isinstance(tag, str)]


def _account_tag(user: User) -> str:
    # The account with its password hash, keyed: the cookie does not say whose it is, and
    # a new password (a reset by its owner, say) leaves no browser knowing the account.
    return salted_hmac(
        _KNOWN_DEVICE_SALT, f"{user.pk}\n{user.password}", algorithm="sha256"
    ).hexdigest()[:32]


@_unless_cache_down(None)
def count_password_reset(*, email: str, ip: str) -> str | None:
    """Count a password-reset request for ``email`` from ``ip``. Return None while both are
    within their limits, else the one that is over: "ip" or "email". A request refused for
    its IP does not count against the address."""
    return _first_over(
        RESET_WINDOW_SECONDS,
        ("ip", _hashed_key("reset-requests:ip:", address_block(ip)), MAX_RESETS_PER_IP),
        (
            "email",
            _hashed_key("reset-requests:email:", email.strip().casefold()),
            MAX_RESETS_PER_EMAIL,
        ),
    )


@_unless_cache_down(None)
def count_signup(*, ip: str) -> str | None:
    """Count a sign-up from ``ip``. Return None while within the limit, else "ip"."""
    return _first_over(
        SIGNUP_WINDOW_SECONDS,
        ("ip", _hashed_key("signup-requests:ip:", address_block(ip)), MAX_SIGNUPS_PER_IP),
    )


@_unless_cache_down(None)
def count_email_change(*, user_id: int, email: str) -> str | None:
    """Count an email-change confirmation link asked by the player ``user_id`` for
    ``email``. Return None while both are within their limits, else the one that is over:
    "player" or "address". A request refused for its player does not count against the
    address, so that one player cannot use up another's links to it."""
    return _first_over(
        EMAIL_CHANGE_WINDOW_SECONDS,
        (
            "player",
            _hashed_key("email-change-requests:player:", str(user_id)),
            MAX_EMAIL_CHANGES_PER_PLAYER,
        ),
        (
            "address",
            _hashed_key("email-change-requests:address:", email.strip().casefold()),
            MAX_EMAIL_CHANGES_PER_ADDRESS,
        ),
    )


@_unless_cache_down(None)
def count_email_confirmation(*, user_id: int) -> str | None:
    """Count a link that confirms the address of the player ``user_id``, sent again at
    their asking. Return None while within the limit, else "player". (Per player only: the
    address is the account's own, and a player has one.)"""
    return _first_over(
        EMAIL_CONFIRMATION_WINDOW_SECONDS,
        (
            "player",
            _hashed_key("email-confirmation-requests:player:", str(user_id)),
            MAX_EMAIL_CONFIRMATIONS_PER_PLAYER,
        ),
    )


def _first_over(window: int, *limits: tuple[str, str, int]) -> str | None:
    """Count one more request against each ``(name, key, limit)`` in turn, for ``window``
    seconds; return the name of the first over its limit, or None. The ones after it are
    not counted: a request refused on the first count does not use up the next."""
    for name, key, limit in limits:
        if _count(key, window=window) > limit:
            return name
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
