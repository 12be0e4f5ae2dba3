"""Game emails: composed here, stored in the outbox, sent by a Celery task after commit.

Functions are called from services inside their transaction. Each stores one
:class:`~games.models.Notification` row keyed by the event (so the same event cannot queue
two emails) and asks Celery to send it once the transaction commits.
"""

from __future__ import annotations

import contextlib
import threading
import time
from datetime import UTC, timedelta
from email.policy import Policy
from smtplib import SMTPResponseException, SMTPServerDisconnected
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from celery import current_app
from django.conf import settings
from django.core import mail, signing
from django.core.mail import EmailMultiAlternatives
from django.db import transaction
from django.db.models import F, OuterRef, Q, Subquery
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone

from games.engine import Position

from . import blocks
from .models import Challenge, Match, Message, Notification, Segment

if TYPE_CHECKING:
    from accounts.models import User
    from games.tournaments.models import Tournament

UNSUBSCRIBE_SALT = "games.unsubscribe"
#: How long an email's unsubscribe link works. Long enough for any inbox (the law asks for
#: at least 30 days, e.g. CAN-SPAM), short enough that an old leaked email cannot change a
#: player's settings for ever; after it, the page sends the player to their settings.
UNSUBSCRIBE_MAX_AGE = timedelta(days=90)
#: The resend sweep gives up on a notification after this many failed attempts; its
#: last_error stays on the row for an admin to read.
MAX_ATTEMPTS = 20
#: A sender keeps its connection to the mail server from one email to the next (opening one
#: costs a TCP handshake, EHLO, STARTTLS and a login, on both sides), but not once it has
#: been idle this long: servers drop idle clients. One found dropped anyway is reopened.
MAIL_CONNECTION_IDLE_SECONDS = 30.0


def _mail_domain() -> str:
    return urlsplit(settings.SITE_URL).hostname or "localhost"


def absolute_url(path: str) -> str:
    return settings.SITE_URL.rstrip("/") + path


class UnfoldedHeader(str):
    """A header value written on one line as it is.

    Python's email policy folds a header longer than 78 characters; a URL has no space to
    fold at, so it would become RFC 2047 encoded words (``=?utf-8?q?...``), which RFC 2369
    does not allow in List-Unsubscribe and mail clients do not decode there. RFC 5322
    allows lines of up to 998 characters. ``EmailPolicy.header_store_parse`` keeps a value
    that has a matching ``name`` as it is, and the generator writes it with its ``fold``.
    """

    name: str

    def __new__(cls, name: str, value: str) -> UnfoldedHeader:
        if not (value.isascii() and value.isprintable()) or len(name) + len(value) > 990:
            raise ValueError(f"{name} must be one short line of ASCII: {value!r}")
        header = super().__new__(cls, value)
        header.name = name
        return header

    def __getnewargs__(self) -> tuple[str, str]:
        # For copy and pickle (the in-memory test mailer deep-copies each message).
        return (self.name, str(self))

    def fold(self, *, policy: Policy) -> str:
        return f"{self.name}: {self}{policy.linesep}"


def list_unsubscribe_headers(url: str) -> dict[str, str]:
    """RFC 2369 and RFC 8058 (one-click) unsubscribe headers for ``url``."""
    value = f"<{url}>"
    try:
        unsubscribe: str = UnfoldedHeader("List-Unsubscribe", value)
    except ValueError:
        unsubscribe = value  # an odd SITE_URL: let the email library encode it
    return {"List-Unsubscribe": unsubscribe, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click"}


def unsubscribe_token(user: User) -> str:
    return signing.dumps({"user": user.pk}, salt=UNSUBSCRIBE_SALT)


def user_from_unsubscribe_token(token: str) -> int | None:
    """The user id in a valid unsubscribe token; None if it is forged or malformed.

    Raises :class:`django.core.signing.SignatureExpired` for a genuine token older than
    :data:`UNSUBSCRIBE_MAX_AGE`, so that the page can say so rather than call it invalid.
    """
    try:
        return signing.loads(token, salt=UNSUBSCRIBE_SALT, max_age=UNSUBSCRIBE_MAX_AGE)["user"]
    except signing.SignatureExpired:
        raise
    except (signing.BadSignature, KeyError, TypeError):
        return None


def turn_email_delay() -> int:
    """Seconds a turn email waits before it is sent, if the player has not moved by then
    (settings.TURN_EMAIL_DELAY_SECONDS); 0 when tasks run in-process (no worker to wait)."""
    if current_app.conf.task_always_eager:
        return 0
    return max(0, settings.TURN_EMAIL_DELAY_SECONDS)


def turn_email_wait() -> str:
    """The turn email's wait in words ("5 minutes"), or "" when it is sent at once."""
    seconds = turn_email_delay()
    if not seconds:
        return ""
    minutes = max(1, round(seconds / 60))
    return f"{minutes} minute{'' if minutes == 1 else 's'}"


def turn_email_note(user: User) -> str:
    """What a page waiting for the opponent tells ``user`` of the email they will get when
    it is their turn, by their preference ("" for none)."""
    if not user.email or user.email_preference == user.EmailPreference.NONE:
        return ""
    if user.email_preference == user.EmailPreference.DIGEST:
        return "your daily email lists the matches waiting for you"
    wait = turn_email_wait()
    if wait:
        return f"when it is your turn, we email you if you have not played within {wait}"
    return "we will also email you when it is your turn"


def _queue(user: User, kind: str, key: str, subject: str, template: str, context: dict) -> None:
    if not user.email or user.is_bot or user.email_preference == user.EmailPreference.NONE:
        return
    if kind == Notification.Kind.TURN and user.email_preference == user.EmailPreference.DIGEST:
        return
    # Times in the email in the addressee's own timezone (not the request's: a turn email
    # is written during the opponent's request).
    with timezone.override(user.zone or UTC):
        body = render_to_string(template, {"user": user, "site_url": settings.SITE_URL, **context})
    fields = {"user": user, "kind": kind, "subject": subject, "body": body}
    wait = 0
    if kind == Notification.Kind.TURN:
        wait = turn_email_delay()
        if wait:
            # Held from every sender (the resend sweep too) until its time comes.
            fields["claimed_until"] = timezone.now() + timedelta(seconds=wait)
        # Its key holds the segment count, which only grows under the match row's lock:
        # it cannot exist yet, so one INSERT will do (the unique key still guards it).
        notification = Notification.objects.create(key=key, match=context["match"], **fields)
        created = True
    else:
        notification, created = Notification.objects.get_or_create(
            key=key, defaults={**fields, "match": context.get("match")}
        )
    if created:
        from .tasks import task_send_notification

        pk = notification.pk
        # robust: with the broker down, the committed change must not become an error;
        # the row stays unsent and the resend sweep (task_resend_unsent) sends it later.
        transaction.on_commit(
            lambda: task_send_notification.apply_async(
                kwargs={"notification_id": pk}, countdown=wait or None
            ),
            robust=True,
        )


def _is_opponents_play(segment: Segment, color: str | None) -> bool:
    return (
        segment.player in ("white", "black")
        and segment.player != color
        and (segment.kind != Segment.Kind.DOUBLE)
    )


def turn_key(match_id: int, segment_count: int) -> str:
    """The outbox key of the turn email for a match at ``segment_count`` stored segments:
    one email a turn, and a way to tell, later, whether that turn is still to play."""
    return f"turn:{match_id}:{segment_count}"


def turn_passed(match: Match, *, recorded: list[Segment] | None = None) -> None:
    """Tell the player now to move that it is their turn.

    ``recorded``: the segments just stored, newest last, if the caller has them; the
    opponent's last play is looked up in them before asking the database.
    """
    user = match.to_move
    if user is None:
        return
    color = match.color_of(user)
    last = next((s for s in reversed(recorded or []) if _is_opponents_play(s, color)), None)
    if last is None:
        last = (
            Segment.objects.filter(match=match, player__in=["white", "black"])
            .exclude(player=color)
            .exclude(kind=Segment.Kind.DOUBLE)
            .order_by("-number")
            .first()
        )
    position = Position.from_dict(match.position)
    opponent = match.opponent_of(user)
    _queue(
        user,
        Notification.Kind.TURN,
        turn_key(match.pk, match.segment_count),
        f"Your turn against {opponent} (match #{match.pk})",
        "games/email/turn.txt",
        {
            "match": match,
            "opponent": opponent,
            "last": last,
            "dice": match.dice,
            "diagram": position.diagram(color or "white"),
            "url": absolute_url(match.get_absolute_url()),
        },
    )


def deadline_reminder(match: Match) -> None:
    user = match.to_move
    if user is None:
        return
    _queue(
        user,
        Notification.Kind.REMINDER,
        f"reminder:{match.pk}:{match.segment_count}",
        f"Reminder: your move against {match.opponent_of(user)} is due soon",
        "games/email/reminder.txt",
        {
            "match": match,
            "url": absolute_url(match.get_absolute_url()),
            # A tournament match lost on time also withdraws its loser from the tournament.
            "tournament": _tournament_of(match),
        },
    )


def _tournament_of(match: Match) -> Tournament | None:
    from games.tournaments.models import Tournament

    return Tournament.objects.filter(tournament_matches__match=match).first()


def challenge_received(challenge: Challenge) -> None:
    assert challenge.opponent is not None
    _queue(
        challenge.opponent,
        Notification.Kind.CHALLENGE,
        f"challenge:{challenge.pk}",
        f"{challenge.challenger} challenges you to Acey-Deucey",
        "games/email/challenge.txt",
        {"challenge": challenge, "url": absolute_url(challenge.get_absolute_url())},
    )


def challenge_accepted(challenge: Challenge) -> None:
    assert challenge.match is not None and challenge.opponent is not None
    _queue(
        challenge.challenger,
        Notification.Kind.ACCEPTED,
        f"accepted:{challenge.pk}",
        f"{challenge.opponent} accepted your challenge",
        "games/email/accepted.txt",
        {
            "challenge": challenge,
            "match": challenge.match,
            "url": absolute_url(challenge.match.get_absolute_url()),
        },
    )


def match_finished(match: Match) -> None:
    changes = {change.user_id: change for change in match.rating_changes.all()}
    for user in (match.white, match.black):
        _queue(
            user,
            Notification.Kind.FINISHED,
            f"finished:{match.pk}:{user.pk}",
            f"Match #{match.pk} against {match.opponent_of(user)} is over",
            "games/email/finished.txt",
            {
                "match": match,
                "won": match.winner_id == user.pk,
                # A player who closes their account resigns their matches as it closes.
                "opponent_closed": not match.opponent_of(user).is_active,
                "rating": changes.get(user.pk),
                "url": absolute_url(match.get_absolute_url()),
            },
        )


def digest_key(user_id: int, day: str) -> str:
    """The outbox key of a player's digest for one day of theirs: one digest a day."""
    return f"digest:{user_id}:{day}"


def daily_digest(user: User, *, today: str) -> None:
    """One email listing the matches waiting for ``user`` (digest preference)."""
    waiting = list(Match.objects.awaiting(user).select_related("white", "black"))
    if not waiting:
        return
    _queue(
        user,
        Notification.Kind.DIGEST,
        digest_key(user.pk, today),
        f"{len(waiting)} Acey-Deucey match{'es' if len(waiting) > 1 else ''} waiting for you",
        "games/email/digest.txt",
        {"matches": waiting, "dashboard": absolute_url(reverse("dashboard"))},
    )


def send_notification(notification_id: int, *, retry_in: int = 0) -> bool:
    """Send one queued email unless it was sent or another sender holds it; True if sent.

    The claim is an atomic UPDATE, so two workers (a retried or redelivered task) never
    both send; a sender that dies keeps the claim only for settings.EMAIL_CLAIM_SECONDS
    (``ACEY_EMAIL_CLAIM_SECONDS``). When sending
    fails, the row stays claimed for ``retry_in`` seconds, the caller's own retry delay, so
    that the resend sweep does not start a second round of retries beside it.
    """
    now = timezone.now()
    claimed = (
        Notification.objects.filter(pk=notification_id, sent_at=None)
        .exclude(claimed_until__gt=now)
        .update(claimed_until=now + timedelta(seconds=settings.EMAIL_CLAIM_SECONDS))
    )
    if not claimed:
        return False
    notification = (
        Notification.objects.select_related("user")
        .annotate(match_messages=F("match__message_count"))
        .filter(pk=notification_id)
        .first()
    )
    if notification is None:
        return False  # deleted since the claim (its addressee closed their account)
    # A turn email nobody waits for now, or an email queued just before its addressee
    # closed their account (games.closing erased the address), is not sent.
    if not notification.user.email or (
        notification.kind == Notification.Kind.TURN and not _still_waiting(notification)
    ):
        Notification.objects.filter(pk=notification_id).update(
            cancelled_at=timezone.now(), claimed_until=None
        )
        return False
    unsubscribe = absolute_url(reverse("unsubscribe", args=[unsubscribe_token(notification.user)]))
    # Most matches have no messages: then there is nothing to look for.
    quoting = notification.kind == Notification.Kind.TURN and notification.match_messages  # type: ignore[attr-defined]
    written = _messages_with_the_move(notification) if quoting else ""
    message = EmailMultiAlternatives(
        subject=notification.subject,
        body=notification.body + written + f"\n\nTo stop these emails: {unsubscribe}\n",
        to=[notification.user.email],
        headers={
            **list_unsubscribe_headers(unsubscribe),
            # The same Message-ID for every attempt: should a sender die between the
            # server's acceptance and marking the row sent, mail clients drop the resend.
            "Message-ID": f"<notification.{notification.pk}@{_mail_domain()}>",
        },
    )
    try:
        _deliver(message)
    except Exception as error:
        Notification.objects.filter(pk=notification_id).update(
            claimed_until=now + timedelta(seconds=retry_in) if retry_in else None,
            attempts=notification.attempts + 1,
            last_error=str(error)[:2000],
        )
        raise
    Notification.objects.filter(pk=notification_id).update(
        sent_at=timezone.now(), attempts=notification.attempts + 1, last_error=""
    )
    return True


class _KeptMailer(threading.local):
    """This thread's open mail backend, the MAILERS entry it was made from, and when it
    last sent (a Celery worker process sends from one thread; eager mode from several)."""

    def __init__(self) -> None:
        self.backend = None
        self.config: object = None
        self.used_at = 0.0

    def drop(self) -> None:
        backend, self.backend = self.backend, None
        if backend is not None:
            # A connection being thrown away may well be broken already.
            with contextlib.suppress(Exception):
                backend.close()


_kept = _KeptMailer()


def _deliver(message: EmailMultiAlternatives) -> None:
    """Send ``message`` over this thread's kept mail connection (opened if there is none, or
    the settings changed, or it sat idle past MAIL_CONNECTION_IDLE_SECONDS). A kept
    connection the server has closed (or answers 421 on) is reopened, once; any other
    error drops the connection and propagates to the caller's retries."""
    config = settings.MAILERS.get("default")
    reused = (
        _kept.backend is not None
        and _kept.config == config
        and time.monotonic() - _kept.used_at < MAIL_CONNECTION_IDLE_SECONDS
    )
    if not reused:
        _kept.drop()
        backend = mail.mailers.default
        # Opened here, the connection outlives send_messages(), which closes only the
        # connections it opened itself.
        backend.open()
        _kept.backend, _kept.config = backend, config
    try:
        _kept.backend.send_messages([message])
    except Exception as error:
        _kept.drop()
        if reused and _server_closed(error):
            _deliver(message)  # on a new connection, once (it is not reused)
            return
        raise
    _kept.used_at = time.monotonic()


def _server_closed(error: Exception) -> bool:
    """Whether ``error`` says the server closed the connection: dropped, or a 421 (what
    Postfix answers a client it is about to drop for idling)."""
    if isinstance(error, SMTPServerDisconnected | ConnectionError):
        return True
    return isinstance(error, SMTPResponseException) and error.smtp_code == 421


#: The most messages a turn email quotes (the newest); the match page has them all.
MESSAGES_IN_A_TURN_EMAIL = 5


def _messages_with_the_move(notification: Notification) -> str:
    """What the opponent wrote since the addressee last played in the match (games.chat),
    quoted at the end of their turn email: correspondence players write with their moves.
    Read when the email is sent, not when the turn queued it, so a message written just
    after the move is in it too. One query; "" when there is nothing to quote."""
    user = notification.user
    if notification.match_id is None or not user.shows_messages:
        return ""
    if blocks.blocked_in_match(notification.match_id):
        return ""  # one has blocked the other: no more messages between them, new or old
    last_played = (
        Segment.objects.filter(match=OuterRef("match"))
        .filter(Q(player="white", match__white=user) | Q(player="black", match__black=user))
        .order_by("-number")
        .values("created_at")[:1]
    )
    newest = list(
        Message.objects.filter(match_id=notification.match_id)
        .exclude(author=user)
        .annotate(since=Subquery(last_played))
        .filter(Q(since=None) | Q(created_at__gt=F("since")))
        .select_related("author")
        .order_by("-pk")[:MESSAGES_IN_A_TURN_EMAIL]
    )
    if not newest:
        return ""
    quoted = []
    for message in reversed(newest):
        lines = "\n".join(f"> {line}" for line in message.text.splitlines())
        quoted.append(f"{message.author} wrote:\n{lines}")
    return "\n\n" + "\n\n".join(quoted) + "\n(Answer on the match page.)"


def _still_waiting(notification: Notification) -> bool:
    """Whether a turn email is still worth sending: with a delay set, only while the match
    is still at the segment the email announced and waiting for its addressee."""
    if not settings.TURN_EMAIL_DELAY_SECONDS or notification.match_id is None:
        return True
    waiting = Match.objects.filter(
        pk=notification.match_id, status=Match.Status.ACTIVE, to_move_id=notification.user_id
    ).values_list("segment_count", flat=True)
    return any(notification.key == turn_key(notification.match_id, n) for n in waiting)


def unsent(older_than_seconds: int = 60) -> list[int]:
    """Notifications that should have gone out by now (for the retry sweep)."""
    cutoff = timezone.now() - timedelta(seconds=older_than_seconds)
    return list(
        Notification.objects.filter(
            sent_at=None, cancelled_at=None, created_at__lt=cutoff, attempts__lt=MAX_ATTEMPTS
        )
        .exclude(claimed_until__gt=timezone.now())
        .values_list("pk", flat=True)[:500]
    )
