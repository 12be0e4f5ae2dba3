"""Account changes that need more than a form save: confirming the address given at
sign-up, changing the email address, and telling the account's address when its password
has changed (or how long a link to reset it works).

An address is confirmed by a signed link sent to it (:func:`send_email_confirmation`),
which names the account and the address and works for EMAIL_CONFIRM_MAX_AGE; it is dead
once the address is confirmed, or once the account has another address. Until then, game
emails wait (games.notifications). Following any other link sent to the address (an
email change's, an undo's, a password reset's) confirms it too.

A new address takes effect only when its owner follows a signed link sent to it. The
link names the user, the new address and the address it replaces, and carries a keyed
hash of the account's address, password, undo key and the address the last link went to
(:func:`_link_state`), which is kept so that the settings page can say a change is waiting
(:func:`email_change_waiting`): one change waits at a time, a link to another address
ending the ones before it. A confirmed change alters the address, an undo the password
(the address alone was not enough: an undo puts the old one back), so each of them, and
any new password, ends every link sent before it: none can be replayed later to switch
back. A used link could come back only with the account as it was when the link was
made (the same address, password and undo window) and a link asked for again to the same
address: one that makes the very change just asked for. (A link made before that address
was part of the state, with no link asked for since, came back after changes that led the
account back to where it was; such links are dead two days after they were made.)
"""

from __future__ import annotations

import hashlib
import logging
import secrets
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING

from django.conf import settings
from django.contrib.auth.tokens import default_token_generator
from django.core import signing
from django.db import IntegrityError, transaction
from django.db.models import Q, QuerySet, Value
from django.db.models.functions import Lower
from django.http import Http404
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.crypto import constant_time_compare, salted_hmac
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from kombu.exceptions import OperationalError

from aceysite.links import absolute_url
from aceysite.mail import failure_in_words, send_now, send_or_log

from . import throttle
from .models import User, name_as_read

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser

logger = logging.getLogger(__name__)

EMAIL_CHANGE_SALT = "accounts.email_change"
EMAIL_CHANGE_MAX_AGE = timedelta(days=2)


class AccountClosed(Exception):
    """The account was closed, or deactivated by the staff, while a request of its owner's
    was under way: what the request would have written is not written."""


def locked_active_account(user_id: int) -> User:
    """The account's row, locked until the transaction ends (call it inside one); raises
    :class:`AccountClosed` if it is no longer active. For a form that writes to the
    account: saved on a row read earlier in its request, it would write that row's every
    column back, putting back a password changed, an address confirmed or an account
    closed meanwhile; on this row it writes its own fields only, after the other writer."""
    account = User.objects.select_for_update().get(pk=user_id)
    if not account.is_active:
        raise AccountClosed("this account is closed")
    return account


class EmailChangeError(ValueError):
    """A confirmation link that cannot be used; the message is for the player."""


class EmailChangeLimited(ValueError):
    """A confirmation link not sent: too many were asked for lately (accounts.throttle).
    The message is for the player."""


@dataclass(frozen=True)
class EmailChange:
    user_id: int
    new_email: str
    old_email: str
    state: str = ""  # _link_state() of the account when the link was made


def _in_any_case(field: str, value: str) -> QuerySet[User]:
    """The accounts with ``value`` in ``field`` in some case, compared as the database's
    unique constraints compare them (``LOWER`` of both), which Python's ``lower()`` and
    Django's ``iexact`` (``UPPER`` on PostgreSQL: dotless and dotted i are equal in upper
    case, not in lower) do not always agree with. For email addresses: names are compared
    by their keys (``_named``)."""
    return User.objects.alias(lowered=Lower(field)).filter(lowered=Lower(Value(value)))


def _taken(field: str, value: str, *, except_user: User | None = None, **more: object) -> bool:
    """Whether another account has ``value`` in ``field``, whatever its case (and matches
    the ``more`` filters)."""
    users = _in_any_case(field, value).filter(**more)
    if except_user is not None:
        users = users.exclude(pk=except_user.pk)
    return users.exists()


def _named(name: str, *, except_user: User | None = None) -> QuerySet[User]:
    """The account whose username reads as ``name`` (name_as_read, computed here rather than
    by the database, whose idea of case may know only ASCII): at most one, as its unique
    username_key holds."""
    users = User.objects.filter(username_key=name_as_read(name))
    return users.exclude(pk=except_user.pk) if except_user is not None else users


def player_named(name: str) -> User | None:
    """The active account whose username is ``name``, or reads as it, as people type names
    ("Bob" for bob, "ÉMILE" for émile)."""
    key = name_as_read(name)
    if not key:
        return None
    users = User.objects.filter(Q(username=name) | Q(username_key=key))
    # The very username first: an account kept without a key (see User.username_key) is
    # found by it, not taken for the older account that looks like it.
    return min(users.filter(is_active=True), key=lambda user: user.username != name, default=None)


def email_in_use(email: str, *, except_user: User | None = None) -> bool:
    """Whether another account has ``email``, whatever its case, or holds it to put back
    (an email change that can still be undone): nobody may sign up with an address to
    keep its owner from taking their account back."""
    return _taken("email", email, except_user=except_user) or _taken(
        "email_undo_address", email, except_user=except_user, email_undo_until__gt=timezone.now()
    )


def username_holder(username: str) -> User | None:
    """The account whose username is ``username`` or looks the same (name_as_read: in any
    case, letters of other alphabets read as the Latin ones they look like), if any."""
    return _named(username).first()


def named_in_any_case(username: str) -> User:
    """The player whose username ``username`` is, in any case (names are told apart in any
    case: sign-up refuses Alice beside alice, so /players/Alice/ names alice too); Http404
    for nobody, and for a look-alike name, which names another's account to nobody. A page
    reached by another case sends its reader to the username's own address."""
    person = User.objects.filter(username=username).first()
    if person is None:
        person = username_holder(username)
        if person is None or person.username.casefold() != username.casefold():
            raise Http404("no such player")
    return person


def username_in_use(username: str) -> bool:
    """Whether an account has ``username``, or one that looks the same (username_holder)."""
    return _named(username).exists()


def display_name_in_use(name: str, *, except_user: User) -> bool:
    """Whether ``name`` reads as another account's display name (name_as_read)."""
    key = name_as_read(name)
    return bool(key) and User.objects.exclude(pk=except_user.pk).filter(name_key=key).exists()


def name_in_use(name: str, *, except_user: User) -> bool:
    """Whether ``name`` reads as another account's username or display name, bots
    included: a display name must not let one player pass for another."""
    if not name_as_read(name):
        return False
    return _named(name, except_user=except_user).exists() or display_name_in_use(
        name, except_user=except_user
    )


def email_change_token(user: User, *, new_email: str) -> str:
    # Signed, not encrypted: anyone holding the link can read it. The address it replaces
    # stays out (a typo'd new address would hand its owner the player's real one); the
    # state pins it, hashed.
    payload = {"user": user.pk, "new": new_email, "state": _link_state(user)}
    return signing.TimestampSigner(salt=EMAIL_CHANGE_SALT).sign_object(payload)


def _link_state(user: User) -> str:
    """What an email-change link must find unchanged to be used: the account's address
    (a confirmed change alters it), its password hash (an undo replaces the password), its
    undo key (a first change opens an undo window) and the address the last link was sent
    to (a link to another address ends the ones before it: one change waits at a time);
    hashed, so that the link tells nothing of the password hash."""
    parts = [user.email, user.password, user.email_undo_key]
    # Without one, as links made before the last address was kept were: they still work.
    if user.email_change_to:
        parts.append(user.email_change_to)
    return salted_hmac(EMAIL_CHANGE_SALT, "\n".join(parts), algorithm="sha256").hexdigest()


def read_email_change_token(token: str) -> EmailChange:
    signer = signing.TimestampSigner(salt=EMAIL_CHANGE_SALT)
    try:
        payload = signer.unsign_object(token, max_age=EMAIL_CHANGE_MAX_AGE)
    except signing.SignatureExpired:
        raise EmailChangeError("This link has expired. Please ask for a new one.") from None
    except signing.BadSignature:
        raise EmailChangeError("This link is not valid.") from None
    return EmailChange(
        user_id=payload["user"],
        new_email=payload["new"],
        # Only links made before it was left out carry it: the account's address, now.
        old_email=payload.get("old", ""),
        state=payload.get("state", ""),  # none in a link made before states were
    )


def request_email_change(user: User, *, new_email: str) -> None:
    """Email a confirmation link to ``new_email``; nothing changes until it is followed.
    When another account has that address, its owner is told instead, with no link
    (:func:`_tell_address_taken`), and the rest is done as for any address: the player is
    told a link went, and the settings page shows it waiting, so that the form does not
    tell which addresses have accounts.

    Raises :class:`EmailChangeLimited`, and sends nothing, when the player or the address
    has had as many links lately as :mod:`accounts.throttle` allows: else anyone with an
    account could flood any inbox with them.
    """
    over_limit = throttle.count_email_change(user_id=user.pk, email=new_email)
    if over_limit == "player":
        raise EmailChangeLimited(
            f"You have asked for {throttle.MAX_EMAIL_CHANGES_PER_PLAYER} confirmation links"
            " in the last hour, as many as we send: follow one of those, or ask again in an"
            " hour."
        )
    if over_limit == "address":
        raise EmailChangeLimited(
            "That address has been sent as many confirmation links as we send to one address"
            " in an hour: follow one of those, or ask again in an hour."
        )
    with transaction.atomic():
        # Kept for the settings page (email_change_waiting), and undone with the rest
        # should the email not go: the page must not say a link was sent that was not.
        user.email_change_to = new_email
        user.email_change_until = timezone.now() + EMAIL_CHANGE_MAX_AGE
        user.email_change_state = _link_state(user)  # with the new address in it
        user.save(update_fields=["email_change_to", "email_change_until", "email_change_state"])
        if email_in_use(new_email, except_user=user):
            _tell_address_taken(user, new_email=new_email)
            return
        token = email_change_token(user, new_email=new_email)
        body = render_to_string(
            "accounts/email/email_change.txt",
            {
                "user": user,
                "new_email": new_email,
                "url": absolute_url(reverse("email_change_confirm", args=[token])),
                "days": EMAIL_CHANGE_MAX_AGE.days,
            },
        )
        send_now(
            "email change link", "Confirm your new email address for Acey-Deucey", body, new_email
        )


def _tell_address_taken(user: User, *, new_email: str) -> None:
    """Tell ``new_email``, which another account has, that ``user`` asked for it: no link
    (it could not be used), but what to do if its owner asked, having forgotten they have
    an account here. Sent at once, as the link would have been, so that the answer takes
    as long either way."""
    body = render_to_string(
        "accounts/email/email_change_taken.txt",
        {
            "user": user,
            "new_email": new_email,
            "login_url": absolute_url(reverse("login")),
            "reset_url": absolute_url(reverse("password_reset")),
            "site_url": settings.SITE_URL,
        },
    )
    send_now(
        "email change to an address in use",
        "An Acey-Deucey account asked to use your email address",
        body,
        new_email,
    )


@dataclass(frozen=True)
class EmailChangeWaiting:
    """An email change waiting for its link to be followed: the address, and until when."""

    new_email: str
    until: datetime


def email_change_waiting(user: User) -> EmailChangeWaiting | None:
    """The change the last email-change link sent for ``user`` would make, while that link
    still works: not once it has expired, or been used, or been ended by a change of the
    account's address or password (the state it needs is no longer the account's)."""
    if not user.email_change_to or user.email_change_until is None:
        return None
    if user.email_change_until <= timezone.now():
        return None
    if not constant_time_compare(user.email_change_state, _link_state(user)):
        return None
    return EmailChangeWaiting(new_email=user.email_change_to, until=user.email_change_until)


def pending_email_change(user: User, *, token: str) -> EmailChange:
    """The change a link describes, if ``user`` may apply it now.

    Raises :class:`EmailChangeError` if the link is forged, expired, for someone else,
    already used, or its address has since been taken by another account.
    """
    change = read_email_change_token(token)
    if change.user_id != user.pk:
        raise EmailChangeError("This link is for a different account.")
    moved = change.old_email and user.email != change.old_email
    if moved or not constant_time_compare(change.state, _link_state(user)):
        raise EmailChangeError("This link has already been used, or is out of date.")
    if email_in_use(change.new_email, except_user=user):
        raise EmailChangeError("Another account now uses that address.")
    # The state holds the address the link was made from: it is the account's still.
    return replace(change, old_email=user.email)


def confirm_email_change(user: User, *, token: str) -> str:
    """Apply the change a link describes (see :func:`pending_email_change`), tell the old
    address, and return the new one."""
    with transaction.atomic():
        user = User.objects.select_for_update().get(pk=user.pk)
        change = pending_email_change(user, token=token)
        # An old address never confirmed was never shown to be the player's: most often a
        # typo the player is mending. Whoever owns it is told nothing and given no link to
        # take the account back (which would hand it to the typo's owner).
        old_was_theirs = user.email_confirmed_at is not None
        user.email = change.new_email
        # The link was sent to the new address: it is confirmed (game emails go to it).
        user.email_confirmed_at = timezone.now()
        user.forget_email_change()  # done: nothing waits any more
        secret = _open_undo_window(user, old_email=change.old_email) if old_was_theirs else None
        try:
            user.save(
                update_fields=[
                    "email",
                    "email_confirmed_at",
                    "email_undo_address",
                    "email_undo_until",
                    "email_undo_key",
                    "email_change_to",
                    "email_change_until",
                    "email_change_state",
                ]
            )
        except IntegrityError:
            # Another account took the address since the check above; the database's
            # unique constraint caught it.
            raise EmailChangeError("Another account now uses that address.") from None
        if change.old_email and old_was_theirs:
            # robust: a mail server error must not turn the applied change into a 500.
            transaction.on_commit(
                lambda: _tell_old_address(user, change, secret=secret), robust=True
            )
    return change.new_email


def _open_undo_window(user: User, *, old_email: str) -> str | None:
    """Let ``old_email`` take the account back for EMAIL_UNDO_MAX_AGE, and return the
    secret of its link; or None, when a window is open already (a second change within
    it): the first address stays the one to put back, and only it has a link."""
    if not old_email or (user.email_undo_until and user.email_undo_until > timezone.now()):
        return None
    secret = secrets.token_urlsafe(32)
    user.email_undo_address = old_email
    user.email_undo_until = timezone.now() + EMAIL_UNDO_MAX_AGE
    user.email_undo_key = _undo_key(secret)
    return secret


def _undo_key(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def _tell_old_address(user: User, change: EmailChange, *, secret: str | None) -> None:
    # So that someone who took over the account cannot quietly move it to their address:
    # the old address is told, with a link that puts it back (undo_email_change), when it
    # is the address before a run of changes (``secret``).
    undo_url = absolute_url(reverse("email_change_undo", args=[user.pk, secret])) if secret else ""
    body = render_to_string(
        "accounts/email/email_changed.txt",
        {
            "user": user,
            "change": change,
            "site_url": settings.SITE_URL,
            "undo_url": undo_url,
            "days": EMAIL_UNDO_MAX_AGE.days,
        },
    )
    send_or_log(
        "email changed notice",
        "Your Acey-Deucey email address was changed",
        body,
        change.old_email,
    )


EMAIL_UNDO_MAX_AGE = timedelta(days=7)


def undo_pending(user_id: int, secret: str, *, lock: bool = False) -> User:
    """The account whose undo link this is, while the link can be used (``lock``: its row
    locked); else :class:`EmailChangeError` (forged, used, or expired)."""
    users = User.objects.select_for_update() if lock else User.objects
    user = users.filter(pk=user_id, is_active=True).first()
    if (
        user is None
        or not user.email_undo_key
        or not constant_time_compare(user.email_undo_key, _undo_key(secret))
    ):
        raise EmailChangeError("This link is not valid, or has been used.")
    if user.email_undo_until is None or user.email_undo_until <= timezone.now():
        raise EmailChangeError("This link has expired.")
    return user


def undo_email_change(user_id: int, secret: str) -> User:
    """Take back a run of address changes from the link sent to the address before it:
    that address is the account's again, its password is replaced by a random one nobody
    knows (which ends every session, the taker's too; an unusable one would stop Django's
    password reset from sending a link), its API keys are revoked, and the link is used
    up. The caller sends a password reset link to the address put back.

    Whatever changes followed within the window, it is the first address that comes back
    (and no other account could take it meanwhile: email_in_use holds it)."""
    with transaction.atomic():
        # Checked on the locked row: a link is used once, however many requests bring it.
        user = undo_pending(user_id, secret, lock=True)
        user.email = user.email_undo_address
        user.email_confirmed_at = timezone.now()  # the link was sent to that address
        user.forget_email_undo()
        user.forget_email_change()  # one the taker asked for is no change of the owner's
        user.set_password(secrets.token_urlsafe(32))
        try:
            user.save()
        except IntegrityError:
            raise EmailChangeError("Another account now uses that address.") from None
        revoke_api_keys(user)
    return user


EMAIL_CONFIRM_SALT = "accounts.email_confirm"
#: How long the link that confirms an address (sign-up's, or one sent again) works.
EMAIL_CONFIRM_MAX_AGE = timedelta(days=7)


class EmailConfirmationError(ValueError):
    """A link to confirm an address that cannot be used; the message is for the player."""


class AlreadyConfirmed(EmailConfirmationError):
    """The address a link would confirm is confirmed already: nothing is left to do."""


class EmailConfirmationLimited(ValueError):
    """A link to confirm an address not sent again: the player has asked for as many
    lately as :mod:`accounts.throttle` allows. The message is for the player."""


def email_confirmation_token(user: User) -> str:
    """The secret of a link that confirms ``user``'s present address. The address is
    signed with the account: a link for an address the account no longer has is dead."""
    payload = {"user": user.pk, "email": user.email}
    return signing.TimestampSigner(salt=EMAIL_CONFIRM_SALT).sign_object(payload)


EMAIL_CONFIRM_SUBJECT = "Confirm your email address for Acey-Deucey"


def send_email_confirmation(user: User, *, again: bool = False) -> None:
    """Email ``user``'s address a link that confirms it (:func:`confirm_email_address`),
    through the outbox (games.notifications): sent once the caller's transaction commits,
    and sent again should the mail server fail. The link is made as the email is sent, for
    the address the account has then (:func:`email_confirmation_text`).

    ``again``: the player asked for it again (sign-up sent the first), which
    :mod:`accounts.throttle` limits, else anyone could flood the address they signed up
    with: raises :class:`EmailConfirmationLimited` beyond it, and :class:`AlreadyConfirmed`
    for an address confirmed already, and sends nothing.
    """
    # A local import: the games app builds on this one, not the other way round.
    from games import notifications

    if again:
        if user.email_confirmed_at is not None:
            raise AlreadyConfirmed(f"Your email address {user.email} is confirmed already.")
        if throttle.count_email_confirmation(user_id=user.pk) is not None:
            raise EmailConfirmationLimited(
                f"We have sent you {throttle.MAX_EMAIL_CONFIRMATIONS_PER_PLAYER} links in the"
                " last hour, as many as we send: follow one of those, or ask again in an hour."
            )
    notifications.email_confirmation(user, subject=EMAIL_CONFIRM_SUBJECT)


def email_confirmation_text(user: User) -> str:
    """The body of the email that confirms ``user``'s present address, with its link."""
    path = reverse("email_verify", args=[email_confirmation_token(user)])
    return render_to_string(
        "accounts/email/email_confirm.txt",
        {
            "user": user,
            "url": absolute_url(path),
            "days": EMAIL_CONFIRM_MAX_AGE.days,
            "site_url": settings.SITE_URL,
        },
    )


def pending_email_confirmation(token: str, *, viewer: User | AnonymousUser) -> User:
    """The account whose address a link would confirm, if ``viewer`` (anyone not logged
    in, or that account's player) may confirm it now.

    Raises :class:`EmailConfirmationError` if the link is forged, expired, an account's
    that is closed or not the viewer's, or for an address the account no longer has; and
    :class:`AlreadyConfirmed` once the address is confirmed (the link has been used).
    """
    signer = signing.TimestampSigner(salt=EMAIL_CONFIRM_SALT)
    try:
        payload = signer.unsign_object(token, max_age=EMAIL_CONFIRM_MAX_AGE)
    except signing.SignatureExpired:
        raise EmailConfirmationError(
            "This link has expired. Log in and ask for a new one on your dashboard."
        ) from None
    except signing.BadSignature:
        raise EmailConfirmationError("This link is not valid.") from None
    user = User.objects.filter(pk=payload["user"], is_active=True).first()
    if user is None:
        raise EmailConfirmationError("This link is not valid.")
    if viewer.is_authenticated and viewer.pk != user.pk:
        # The link may have been opened in a browser someone else is logged in to.
        raise EmailConfirmationError(
            f"This link is for the account {user.get_username()}, and you are logged in as"
            f" {viewer.get_username()}. Log out, then follow the link again."
        )
    if user.email != payload["email"]:
        raise EmailConfirmationError(
            "This link is out of date: the account's email address has changed since it was sent."
        )
    if user.email_confirmed_at is not None:
        raise AlreadyConfirmed(f"The email address {user.email} is confirmed already.")
    return user


def confirm_email_address(token: str, *, viewer: User | AnonymousUser) -> User:
    """Confirm the address a link was sent to (see :func:`pending_email_confirmation`),
    from now on: game emails go to it. Returns the account."""
    user = pending_email_confirmation(token, viewer=viewer)
    # Only while the account still has that address unconfirmed: a change committed since
    # the check leaves it as it is, and the check says why.
    confirmed = User.objects.filter(
        pk=user.pk, email=user.email, email_confirmed_at=None, is_active=True
    ).update(email_confirmed_at=timezone.now())
    if not confirmed:
        # Changed since the check (confirmed meanwhile, a new address, closed): say how.
        pending_email_confirmation(token, viewer=viewer)
        raise EmailConfirmationError("This link is out of date.")
    user.refresh_from_db(fields=["email_confirmed_at"])
    return user


def confirm_email_after_reset(user: User) -> None:
    """Count ``user``'s address as confirmed, if it was not, once a password has been set
    through a reset link: the link was sent to it, and works only while the account has
    that address (Django's reset tokens hash it in)."""
    if user.email_confirmed_at is not None or not user.email:
        return
    now = timezone.now()
    if User.objects.filter(pk=user.pk, email=user.email, email_confirmed_at=None).update(
        email_confirmed_at=now
    ):
        user.email_confirmed_at = now


def shut_out_others(user: User, *, reset: bool, by_staff: bool = False) -> int:
    """What a new password does besides ending the sessions elsewhere (Django's, which
    hold a hash of the password): revoke every API key of the account and tell its
    address (:func:`tell_password_changed`). ``reset``: the password was set through an
    emailed link, else changed on the settings page; ``by_staff``: set (or disabled) by
    the site's staff, in the admin or with ``manage.py changepassword``. Returns how many
    keys were revoked, for the page that follows to say.

    A key outlives any session: one made by whoever had the account (its password, or
    an address they signed up with before its owner reset the password from it) must not
    keep them in once the password they knew is gone."""
    revoked = revoke_api_keys(user)
    tell_password_changed(user, reset=reset, by_staff=by_staff, keys_revoked=revoked)
    return revoked


def revoke_api_keys(user: User) -> int:
    """Delete every API key of ``user`` (the programs using them get 401 from now on);
    return how many there were."""
    revoked, _by_model = user.api_tokens.all().delete()
    return revoked


def tell_password_changed(user: User, *, reset: bool, by_staff: bool, keys_revoked: int) -> None:
    """Tell the account's address that its password was changed (``reset``: set through
    an emailed link; ``by_staff``: set or disabled by the site's staff), when, that its
    ``keys_revoked`` API keys were revoked, and what to do if it was not its owner; sent
    once the change is committed. Someone who took the account and changed its password
    must not lock the owner out unnoticed."""
    if not user.email:
        return
    disabled = not user.has_usable_password()
    # A change the staff made has a notice of its own: its owner did not make it, and what
    # they are to do next differs.
    template = (
        "accounts/email/password_changed_by_staff.txt"
        if by_staff
        else "accounts/email/password_changed.txt"
    )
    # In the player's own time, as their game emails give it.
    with timezone.override(user.zone or UTC):
        body = render_to_string(
            template,
            {
                "user": user,
                "reset": reset,
                "disabled": disabled,
                "keys_revoked": keys_revoked,
                "when": timezone.now(),
                "reset_url": absolute_url(reverse("password_reset")),
                "settings_url": absolute_url(reverse("settings")),
                "site_url": settings.SITE_URL,
            },
        )
    if by_staff:
        done = "disabled" if disabled else "changed"
        subject = f"Your Acey-Deucey password was {done} by the site's staff"
    else:
        subject = f"Your Acey-Deucey password was {'reset' if reset else 'changed'}"
    # robust: the password is changed already; a mail server error must not make the
    # page say otherwise (it is logged).
    transaction.on_commit(
        lambda: send_or_log("password changed notice", subject, body, user.email), robust=True
    )


def ask_for_password_reset(email: str) -> None:
    """Have the active account whose address is ``email`` (in any case), if any, sent a
    link to choose a new password, by a task (accounts.tasks) that makes the link and sends
    it. The same task is queued whether or not there is such an account (with none, it
    sends nothing), so that the answer takes as long either way: the reset page tells
    nobody whether an account has the address, and a link sent from the request made
    that answer slower when one had. The task gets the account's id, not a link: no token
    goes through the broker.

    With the broker down, the link is sent from here, as it was before: only then does
    the answer's time tell."""
    from .tasks import task_send_password_reset  # a local import: the task calls this module

    accounts = _in_any_case("email", email).filter(is_active=True)
    user_id = accounts.values_list("pk", flat=True).first()
    try:
        task_send_password_reset.apply_async(kwargs={"user_id": user_id})
    except OperationalError as error:
        logger.warning(
            "the broker is unreachable, a password reset is sent from the request: %s", error
        )
        send_password_reset(user_id)


def send_password_reset(user_id: int | None) -> bool:
    """Send the account ``user_id`` a link to choose a new password, made now; whether it
    went. Nothing goes to an account that is gone, closed or has no address since it was
    asked for, nor to one without a usable password, as Django's reset form would not."""
    user = User.objects.filter(pk=user_id, is_active=True).exclude(email="").first()
    if user is None or not user.has_usable_password():
        return False
    return send_password_reset_link(user, failed="A password reset link was not sent")


def send_password_reset_link(
    user: User, *, template: str = "registration/password_reset_email.txt", failed: str
) -> bool:
    """Email ``user``'s address a link to choose a new password (Django's reset token: it
    works once, for PASSWORD_RESET_TIMEOUT, and not after a login), written in
    ``template``; whether it went. A link the mail server would not take is logged as a
    warning, ``failed`` and why, without a traceback: its frames hold the link (and an
    error would email them to ADMINS)."""
    context = {
        "user": user,
        "uid": urlsafe_base64_encode(force_bytes(user.pk)),
        "token": default_token_generator.make_token(user),
        # Links in every email start with SITE_URL, never with a request's Host header.
        "site_url": settings.SITE_URL.rstrip("/"),
        "link_lifetime": reset_link_lifetime(),
    }
    subject = render_to_string("registration/password_reset_subject.txt", context)
    body = render_to_string(template, context)
    try:
        send_now("password reset link", "".join(subject.splitlines()), body, user.email)
    except OSError as error:  # smtplib's errors are OSErrors
        logger.warning("%s: %s", failed, failure_in_words(error))
        return False
    return True


def reset_link_lifetime() -> str:
    """How long a password-reset link works (settings.PASSWORD_RESET_TIMEOUT), in words:
    "3 days", "1 hour", "90 minutes"."""
    seconds = settings.PASSWORD_RESET_TIMEOUT
    for unit, size in (("day", 24 * 60 * 60), ("hour", 60 * 60), ("minute", 60)):
        if seconds >= size and seconds % size == 0:
            count = seconds // size
            return f"{count} {unit}{'' if count == 1 else 's'}"
    return f"{seconds} seconds"
