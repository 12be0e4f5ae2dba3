"""Account changes that need more than a form save: changing the email address.

A new address takes effect only when its owner follows a signed link sent to it. The
link names the user, the new address and the address it replaces, so it stops working
once the address has changed (it cannot be replayed later to switch back).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.core import signing
from django.core.mail import send_mail
from django.db import IntegrityError, transaction
from django.db.models import QuerySet, Value
from django.db.models.functions import Lower
from django.template.loader import render_to_string
from django.urls import reverse

from .models import User, name_as_read, tidy_name

EMAIL_CHANGE_SALT = "accounts.email_change"
EMAIL_CHANGE_MAX_AGE = timedelta(days=2)


class EmailChangeError(ValueError):
    """A confirmation link that cannot be used; the message is for the player."""


@dataclass(frozen=True)
class EmailChange:
    user_id: int
    new_email: str
    old_email: str


def _in_any_case(field: str, value: str) -> QuerySet[User]:
    """The accounts with ``value`` in ``field`` in some case, compared as the database's
    unique constraints compare them (``LOWER`` of both), which Python's ``lower()`` and
    Django's ``iexact`` (``UPPER`` on PostgreSQL: dotless and dotted i are equal in upper
    case, not in lower) do not always agree with."""
    return User.objects.alias(lowered=Lower(field)).filter(lowered=Lower(Value(value)))


def _taken(field: str, value: str, *, except_user: User | None = None) -> bool:
    """Whether another account has ``value`` in ``field``, whatever its case."""
    users = _in_any_case(field, value)
    if except_user is not None:
        users = users.exclude(pk=except_user.pk)
    return users.exists()


def player_named(name: str) -> User | None:
    """The active account whose username is ``name`` in some case, as people type names
    ("Bob" for bob); the unique constraint keeps it to one."""
    return _in_any_case("username", name).filter(is_active=True).first()


def email_in_use(email: str, *, except_user: User | None = None) -> bool:
    """Whether another account has ``email``, whatever its case."""
    return _taken("email", email, except_user=except_user)


def username_in_use(username: str) -> bool:
    """Whether an account has ``username``, whatever its case."""
    return _taken("username", username)


def display_name_in_use(name: str, *, except_user: User) -> bool:
    """Whether ``name`` reads as another account's display name (name_as_read)."""
    key = name_as_read(name)
    return bool(key) and User.objects.exclude(pk=except_user.pk).filter(name_key=key).exists()


def name_in_use(name: str, *, except_user: User) -> bool:
    """Whether ``name`` reads as another account's username or display name, bots
    included: a display name must not let one player pass for another."""
    name = tidy_name(name)
    if not name:
        return False
    return _taken("username", name, except_user=except_user) or display_name_in_use(
        name, except_user=except_user
    )


def email_change_token(user: User, *, new_email: str) -> str:
    payload = {"user": user.pk, "new": new_email, "old": user.email}
    return signing.TimestampSigner(salt=EMAIL_CHANGE_SALT).sign_object(payload)


def read_email_change_token(token: str) -> EmailChange:
    signer = signing.TimestampSigner(salt=EMAIL_CHANGE_SALT)
    try:
        payload = signer.unsign_object(token, max_age=EMAIL_CHANGE_MAX_AGE)
    except signing.SignatureExpired:
        raise EmailChangeError("This link has expired. Please ask for a new one.") from None
    except signing.BadSignature:
        raise EmailChangeError("This link is not valid.") from None
    return EmailChange(user_id=payload["user"], new_email=payload["new"], old_email=payload["old"])


def request_email_change(user: User, *, new_email: str) -> None:
    """Email a confirmation link to ``new_email``; nothing changes until it is followed."""
    path = reverse("email_change_confirm", args=[email_change_token(user, new_email=new_email)])
    body = render_to_string(
        "accounts/email/email_change.txt",
        {
            "user": user,
            "new_email": new_email,
            "url": settings.SITE_URL.rstrip("/") + path,
            "days": EMAIL_CHANGE_MAX_AGE.days,
        },
    )
    send_mail("Confirm your new email address", body, None, [new_email])


def pending_email_change(user: User, *, token: str) -> EmailChange:
    """The change a link describes, if ``user`` may apply it now.

    Raises :class:`EmailChangeError` if the link is forged, expired, for someone else,
    already used, or its address has since been taken by another account.
    """
    change = read_email_change_token(token)
    if change.user_id != user.pk:
        raise EmailChangeError("This link is for a different account.")
    if user.email != change.old_email:
        raise EmailChangeError("This link has already been used, or is out of date.")
    if email_in_use(change.new_email, except_user=user):
        raise EmailChangeError("Another account now uses that address.")
    return change


def confirm_email_change(user: User, *, token: str) -> str:
    """Apply the change a link describes (see :func:`pending_email_change`), tell the old
    address, and return the new one."""
    with transaction.atomic():
        user = User.objects.select_for_update().get(pk=user.pk)
        change = pending_email_change(user, token=token)
        user.email = change.new_email
        try:
            user.save(update_fields=["email"])
        except IntegrityError:
            # Another account took the address since the check above; the database's
            # unique constraint caught it.
            raise EmailChangeError("Another account now uses that address.") from None
        if change.old_email:
            # robust: a mail server error must not turn the applied change into a 500.
            transaction.on_commit(lambda: _tell_old_address(user, change), robust=True)
    return change.new_email


def _tell_old_address(user: User, change: EmailChange) -> None:
    # So that someone who took over the account cannot quietly move it to their address:
    # the old address is told, with a link that puts it back (undo_email_change).
    token = signing.TimestampSigner(salt=EMAIL_UNDO_SALT).sign_object(
        {"user": user.pk, "old": change.old_email, "new": change.new_email}
    )
    body = render_to_string(
        "accounts/email/email_changed.txt",
        {
            "user": user,
            "change": change,
            "site_url": settings.SITE_URL,
            "undo_url": settings.SITE_URL.rstrip("/") + reverse("email_change_undo", args=[token]),
            "days": EMAIL_UNDO_MAX_AGE.days,
        },
    )
    send_mail("Your email address was changed", body, None, [change.old_email])


EMAIL_UNDO_SALT = "accounts.email_change_undo"
EMAIL_UNDO_MAX_AGE = timedelta(days=7)


def read_email_undo_token(token: str) -> EmailChange:
    """The change an undo link (sent to the old address) would take back, or
    :class:`EmailChangeError` if the link is forged, expired or already used."""
    signer = signing.TimestampSigner(salt=EMAIL_UNDO_SALT)
    try:
        payload = signer.unsign_object(token, max_age=EMAIL_UNDO_MAX_AGE)
    except signing.SignatureExpired:
        raise EmailChangeError("This link has expired.") from None
    except signing.BadSignature:
        raise EmailChangeError("This link is not valid.") from None
    change = EmailChange(
        user_id=payload["user"], new_email=payload["new"], old_email=payload["old"]
    )
    user = User.objects.filter(pk=change.user_id, is_active=True).first()
    if user is None:
        raise EmailChangeError("This link is not valid.")
    if user.email.casefold() == change.old_email.casefold():
        raise EmailChangeError(f"The account already uses {change.old_email}.")
    return change


def undo_email_change(token: str) -> User:
    """Take back a change of address from the old address's link: the old address is the
    account's again, its password is replaced by a random one nobody knows (which ends
    every session, the taker's too; an unusable one would stop Django's password reset
    from sending a link) and its API keys are revoked; the caller sends a password reset
    link to the old address. It applies even if the address has changed again since
    (a taker may have moved it twice), but not once the old address is back, and only
    for a week (EMAIL_UNDO_MAX_AGE)."""
    change = read_email_undo_token(token)
    with transaction.atomic():
        user = User.objects.select_for_update().get(pk=change.user_id)
        if user.email.casefold() == change.old_email.casefold():
            raise EmailChangeError(f"The account already uses {change.old_email}.")
        if email_in_use(change.old_email, except_user=user):
            raise EmailChangeError("Another account now uses that address.")
        user.email = change.old_email
        user.set_password(secrets.token_urlsafe(32))
        try:
            user.save(update_fields=["email", "password"])
        except IntegrityError:
            raise EmailChangeError("Another account now uses that address.") from None
        user.api_tokens.all().delete()
    return user
