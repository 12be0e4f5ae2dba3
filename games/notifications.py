"""Game emails: composed here, stored in the outbox, sent by a Celery worker after commit.

Functions are called from services inside their transaction. Each stores one
:class:`~games.models.Notification` row keyed by the event (so the same event cannot queue
two emails) and, once the transaction commits, asks Celery to send it: with a task of its
own, or for a turn email, which every turn stores, by waking the worker's sweep of the
outbox (:func:`send_due_turn_emails`). A turn email is written by its sender, from the
facts its turn stored (:func:`turn_passed`), not by the turn.

One account email goes through the outbox too, so that a mail server's failure is retried:
the link that confirms an address (:func:`email_confirmation`), written when it is sent.
"""

from __future__ import annotations

import contextlib
import logging
import secrets
import threading
import time
from collections.abc import Iterable
from datetime import UTC, datetime, timedelta
from email.policy import Policy
from functools import cache, partial
from itertools import groupby
from smtplib import SMTPResponseException, SMTPServerDisconnected
from typing import TYPE_CHECKING, NamedTuple
from urllib.parse import urlencode

import redis
from celery import current_app
from django.conf import settings
from django.core import mail, signing
from django.core.mail import EmailMultiAlternatives
from django.db import connection, transaction
from django.db.models import F, OuterRef, Q, QuerySet, Subquery
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.crypto import constant_time_compare, salted_hmac
from redis.backoff import NoBackoff
from redis.retry import Retry

from aceysite.celery import queue, queue_after_commit
from aceysite.links import absolute_url
from aceysite.mail import AUTOMATIC, failure_in_words, mail_domain
from aceysite.sql import (
    Table,
    db_value,
    execute,
    fetch_one,
    insert,
    select_list,
    table_and_columns,
    update_row,
)
from aceysite.text import left_to_right, subject_line
from games.engine import Position, absolute_point, format_dice, variant_named

from . import blocks
from .models import Absence, Challenge, Match, Message, Notification, RatingChange, Segment
from .ratings.store import UNPLAYED_UNRATED

if TYPE_CHECKING:
    from accounts.models import User
    from games.tournaments.models import Tournament
    from games.tournaments.services import Stage

log = logging.getLogger(__name__)

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
    """The signed token of the unsubscribe link in an email to ``user``'s address: the
    account, and (hashed) the address it was sent to. The link works while the account
    has that address: one left in the mailbox of an address the account has moved from
    (a typo mended, a takeover undone) must not turn its emails off unseen."""
    return signing.dumps({"user": user.pk, "to": _address_key(user.email)}, salt=UNSUBSCRIBE_SALT)


def _address_key(address: str) -> str:
    """An address, hashed and keyed (the token is signed, not encrypted), in any case."""
    return salted_hmac(UNSUBSCRIBE_SALT, address.casefold(), algorithm="sha256").hexdigest()[:20]


def user_from_unsubscribe_token(token: str) -> int | None:
    """The user id in a valid unsubscribe token; None if it is forged or malformed.

    Raises :class:`django.core.signing.SignatureExpired` for a genuine token older than
    :data:`UNSUBSCRIBE_MAX_AGE`, so that the page can say so rather than call it invalid.
    """
    payload = _unsubscribe_payload(token)
    return payload["user"] if payload else None


def unsubscribe_token_sent_to(token: str, address: str) -> bool:
    """Whether the valid ``token`` was sent to ``address``; True for one made before the
    tokens named their address (they expire within UNSUBSCRIBE_MAX_AGE)."""
    payload = _unsubscribe_payload(token)
    sent_to = payload.get("to") if payload else None
    return sent_to is None or constant_time_compare(sent_to, _address_key(address))


def _unsubscribe_payload(token: str) -> dict | None:
    try:
        payload = signing.loads(token, salt=UNSUBSCRIBE_SALT, max_age=UNSUBSCRIBE_MAX_AGE)
    except signing.SignatureExpired:
        raise
    except signing.BadSignature:
        return None
    return payload if isinstance(payload, dict) and isinstance(payload.get("user"), int) else None


def turn_email_delay() -> int:
    """Seconds a turn email waits before it is sent, if the player has not moved by then
    (settings.TURN_EMAIL_DELAY_SECONDS); 0 when tasks run in-process (no worker to wait)."""
    return _delay(settings.TURN_EMAIL_DELAY_SECONDS)


def challenge_email_delay() -> int:
    """Seconds the email offering a challenge waits before it is sent, if the challenge
    still waits by then (settings.CHALLENGE_EMAIL_DELAY_SECONDS); 0 when tasks run
    in-process."""
    return _delay(settings.CHALLENGE_EMAIL_DELAY_SECONDS)


def _delay(seconds: int) -> int:
    if current_app.conf.task_always_eager:
        return 0  # no worker to wait: the email would be sent at once anyway
    return max(0, seconds)


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
    if user.email_confirmed_at is None:
        return "once you confirm your email address, we will email you when it is your turn"
    if user.email_preference == user.EmailPreference.DIGEST:
        return "your daily email lists the matches waiting for you"
    wait = turn_email_wait()
    if wait:
        return f"when it is your turn, we email you if you have not played within {wait}"
    return "we will also email you when it is your turn"


def _queue(user: User, kind: str, key: str, subject: str, template: str, context: dict) -> None:
    """Store a game email to ``user`` keyed by its event, and send it after commit; unless
    they are to get none (:func:`_email_fields`)."""
    fields = _email_fields(user, kind, subject, template, context)
    if fields is None:
        return
    wait = _wait_of(kind, key)
    fields["claimed_until"] = _held_for(wait)
    notification, created = Notification.objects.get_or_create(
        key=key, defaults={**fields, "match": context.get("match")}
    )
    if created:
        _send_after_commit(notification.pk, wait=wait)


def _held_for(wait: int) -> datetime | None:
    """An email's claimed_until when it is stored to wait ``wait`` seconds: held from every
    sender until its time comes (None: no wait)."""
    return timezone.now() + timedelta(seconds=wait) if wait else None


def _wait_of(kind: str, key: str) -> int:
    """Seconds the email of ``kind`` keyed ``key`` waits before it is sent: a challenge's
    offer (not the news that one was declined or expired), dropped when its time comes if
    no longer needed (:func:`send_notification`). A turn email's wait: turn_passed."""
    if kind == Notification.Kind.CHALLENGE and _challenge_in(key) is not None:
        return challenge_email_delay()
    return 0


class Email(NamedTuple):
    """A game email for :func:`_queue_new`: :func:`_queue`'s arguments."""

    user: User
    kind: str
    key: str
    subject: str
    template: str
    context: dict


def _queue_new(emails: Iterable[Email]) -> None:
    """Store game emails whose keys cannot exist yet, in one INSERT, and send each after
    commit (none to a player who is to get none: :func:`_email_fields`). For an event
    that happens once, under a lock the caller holds (a match ending, say): the unique key
    still guards it, failing the transaction rather than emailing twice, where
    :func:`_queue` would look for the key first and store each email in a savepoint of
    its own."""
    rows = []
    for email in emails:
        fields = _email_fields(email.user, email.kind, email.subject, email.template, email.context)
        if fields is not None:
            rows.append(Notification(key=email.key, match=email.context.get("match"), **fields))
    for notification in Notification.objects.bulk_create(rows):
        _send_after_commit(notification.pk)


def _email_fields(
    user: User, kind: str, subject: str, template: str, context: dict
) -> dict[str, object] | None:
    """A game email's fields, written; None if ``user`` is to get none: they want none of
    its kind, or have no address, or one they have not confirmed (a typo, or someone
    else's: game mail must not go there; accounts.services)."""
    if not _gets_game_email(user, kind):
        return None
    return {
        "user": user,
        "kind": kind,
        "subject": subject,
        "body": _written(user, template, context),
    }


def _written(user: User, template: str, context: dict) -> str:
    """A game email's body for ``user``: ``template`` with ``context``, its times in the
    addressee's own timezone (not the request's or the worker's: a game email is often
    written during the other player's request)."""
    with timezone.override(user.zone or UTC):
        return render_to_string(template, {"user": user, "site_url": settings.SITE_URL, **context})


def _gets_game_email(user: User, kind: str) -> bool:
    """Whether ``user`` is to get a game email of ``kind`` (:func:`_email_fields`)."""
    if not user.email or user.is_bot or user.email_preference == user.EmailPreference.NONE:
        return False
    if not user.is_active:  # closed, or deactivated by the staff
        return False
    if user.email_confirmed_at is None:
        return False
    return kind != Notification.Kind.TURN or gets_turn_emails(user)


def gets_turn_emails(user: User) -> bool:
    """Whether ``user``'s preference has their turn emails sent (a digest player's daily
    email lists the matches waiting for them instead). Their address, and the preference
    for no email at all, hold back every game email alike (:func:`_email_fields`)."""
    return user.email_preference != user.EmailPreference.DIGEST


def _send_after_commit(notification_id: int, *, wait: int = 0) -> None:
    """Have a worker send the stored email ``notification_id`` once the transaction
    commits (``wait`` seconds later, if any)."""
    from .tasks import task_send_notification

    # With the broker down the row stays unsent, and the resend sweep (task_resend_unsent)
    # sends it later.
    queue_after_commit(
        task_send_notification, countdown=wait or None, notification_id=notification_id
    )


# -- turn emails: the outbox swept ---------------------------------------------------------
#
# Every turn writes an email, so turn emails are not each given a task: a worker sweeps the
# outbox for those due (send_due_turn_emails), woken after a turn's commit through a flag in
# Redis that a turn sets only when it is not set already (a SET NX, 0.2 ms of CPU, where
# publishing a task cost a turn 0.4-0.5 ms, and the worker its handling of a task an
# email); the sweep clears the flag before its last look. Whatever commits before a sweep
# clears the flag, that sweep finds; whatever commits after, finds the flag cleared and
# wakes another. Beat sweeps as well (settings.TURN_EMAIL_SWEEP_SECONDS): a turn email that
# waits (TURN_EMAIL_DELAY_SECONDS) goes out at the first sweep after its time, held
# meanwhile by its row's claimed_until rather than by a worker holding a countdown task; a
# failed one, at the first sweep after its retry delay; and any whose wake was lost (Redis
# down, a worker killed mid-sweep, its flag left set: it expires after WAKE_SECONDS).

#: How long a wake's flag stands if no sweep clears it (its sweep was lost).
WAKE_SECONDS = 60
#: The most turn emails one look at the outbox takes; a sweep looks again while it finds
#: as many.
SWEEP_BATCH = 100


def _sweep_after_commit(notification_id: int, *, wait: int) -> None:
    """Have turn email ``notification_id`` sent once the transaction commits: at once if
    ``wait`` is 0 (a sweep woken), otherwise by the first sweep after its time (the row is
    held till then). With tasks run in-process (the tests, bin/serve), its own task, now."""
    if current_app.conf.task_always_eager:
        _send_after_commit(notification_id)  # no worker, and no wait: _delay()
    elif not wait:
        transaction.on_commit(wake_turn_email_sweep, robust=True)


def wake_turn_email_sweep() -> bool:
    """Queue a sweep of the due turn emails unless one is queued already (its flag set);
    True if one was queued here. With Redis unreachable, one warning: beat's sweep sends
    the email later."""
    from .tasks import task_sweep_turn_emails

    client = _wake_redis()
    if client is None:
        return queue(task_sweep_turn_emails)  # a broker without the flag: a sweep a turn
    try:
        woken = client.set(_wake_key(), "1", nx=True, ex=WAKE_SECONDS)
    except redis.RedisError as error:
        log.warning(
            "the broker is unreachable, the turn emails' sweep is not woken"
            " (beat's sweeps will send them): %s",
            error,
        )
        return False
    if not woken:
        return False
    if not queue(task_sweep_turn_emails):
        _clear_wake()  # not queued: let the next turn try again
        return False
    return True


def send_due_turn_emails() -> int:
    """Send every turn email that is due (not sent, not dropped, not held by a sender, a
    wait or a retry delay, not given up on); return how many were sent. An email that fails
    is held for its retry delay (settings.EMAIL_RETRY_BASE_SECONDS, doubling with each
    attempt, at most an hour) and the others still go; a later sweep retries it."""
    from .tasks import email_retry_countdown

    sent = 0
    tried: set[int] = set()
    while True:
        due = _due_turn_emails(timezone.now())
        if len(due) < SWEEP_BATCH:
            # The last look: the flag cleared first, so what commits from now on wakes
            # another sweep, and what committed before is in this look. (Cleared before
            # every look, a sweep busy with a backlog would have each turn meanwhile queue
            # a sweep more, to find nothing.)
            _clear_wake()
            due = _due_turn_emails(timezone.now())
        # Each email once a sweep: one that failed with no retry delay is due again at once.
        fresh = [(pk, attempts) for pk, attempts in due if pk not in tried]
        for notification_id, attempts in fresh:
            tried.add(notification_id)
            try:
                retry_in = email_retry_countdown(attempts)
                sent += send_notification(notification_id, retry_in=retry_in, swept=True)
            except Exception:
                continue  # logged by send_notification, and held for a later sweep
        if len(due) < SWEEP_BATCH:
            return sent
        if not fresh:  # a full look of emails tried already: leave them to the next sweep
            _clear_wake()
            return sent


def _due_turn_emails(now: datetime) -> list[tuple[int, int]]:
    """The ids and attempts of the turn emails due at ``now``, oldest first."""
    due = _to_send(now).filter(kind=Notification.Kind.TURN)
    return list(due.order_by("pk").values_list("pk", "attempts")[:SWEEP_BATCH])


def _clear_wake() -> None:
    client = _wake_redis()
    # With Redis unreachable, beat's sweeps go on; a flag left set expires by itself.
    with contextlib.suppress(redis.RedisError):
        if client is not None:
            client.delete(_wake_key())


def _wake_key() -> str:
    # A queue's own: test runs and benchmarks share a Redis, each with its queue.
    return f"acey:turn-email-sweep:{current_app.conf.task_default_queue}"


def _wake_redis() -> redis.Redis | None:
    """A client of the broker's Redis (where the sweep's task is published: in tests a
    Redis of their own, CELERY_BROKER_WRITE_URL), kept: its connections are pooled. None
    for another broker, or none (tasks run in-process)."""
    conf = current_app.conf
    url = conf.broker_write_url or conf.broker_url or ""
    return _redis_at(url) if url.startswith(("redis://", "rediss://")) else None


@cache
def _redis_at(url: str) -> redis.Redis:
    # A rediss:// broker's TLS settings (CELERY_BROKER_USE_SSL: ssl_ca_certs and the like)
    # are redis-py's own names. No retries: with Redis down a turn's answer must not wait
    # for it (beat's sweep sends the email once it is back).
    tls = current_app.conf.get("broker_use_ssl") if url.startswith("rediss://") else None
    return redis.Redis.from_url(
        url,
        socket_timeout=5,
        socket_connect_timeout=5,
        retry=Retry(NoBackoff(), 0),
        **(tls if isinstance(tls, dict) else {}),
    )


#: The stored body of an email that confirms an address. The email is written when it is
#: sent, for the address the account has then, and its link is never stored: staff read
#: the outbox in the admin, and an address they type must wait for its owner to confirm it.
CONFIRMATION_WRITTEN_WHEN_SENT = (
    "(the link that confirms the address: written when the email is sent, and not kept)"
)


def email_confirmation(user: User, *, subject: str) -> None:
    """Queue the email with the link that confirms ``user``'s address
    (accounts.services.send_email_confirmation). Unlike game emails it goes to an address
    not yet confirmed, which is its point, and whatever the player's email preference;
    like them, one the mail server refuses is sent again."""
    if not user.email or user.is_bot:
        return
    notification = Notification.objects.create(
        user=user,
        kind=Notification.Kind.CONFIRM_ADDRESS,
        # Each link asked for is an email of its own (accounts.throttle limits them).
        key=f"confirm:{user.pk}:{secrets.token_hex(8)}",
        subject=subject,
        body=CONFIRMATION_WRITTEN_WHEN_SENT,
    )
    _send_after_commit(notification.pk)


def _confirmation_as_sent(user: User) -> str | None:
    """The body of an email that confirms ``user``'s address, with a link made now for the
    address they have now; None once it is confirmed (by an earlier link, say), or once
    the account is deactivated (whose links are refused)."""
    # A local import: accounts.services queues this email through this module.
    from accounts.services import email_confirmation_text

    if user.email_confirmed_at is not None or not user.is_active:
        return None
    return email_confirmation_text(user)


def _challenge_email_as_sent(notification: Notification) -> str | None:
    """The body of an email of kind CHALLENGE as it goes out, or None for the offer of a
    challenge that no longer waits for its addressee: withdrawn, declined, accepted or
    expired (past its days, swept or not yet) before its email went. Challenging,
    withdrawing and challenging again must not fill the opponent's inbox with links to
    withdrawn challenges. One query, for an offer."""
    challenge_id = _challenge_in(notification.key)
    if challenge_id is None:
        return notification.body  # news of a challenge (declined): still news
    waiting = Challenge.objects.waiting().filter(pk=challenge_id).exists()
    return notification.body if waiting else None


def turn_key(match_id: int, segment_count: int) -> str:
    """The outbox key of the turn email for a match at ``segment_count`` stored segments:
    one email a turn, and a way to tell, later, whether that turn is still to play."""
    return f"turn:{match_id}:{segment_count}"


def _segment_count_in(key: str) -> int | None:
    """The segment count a turn email's key holds (:func:`turn_key`); None for another key."""
    count = key.rsplit(":", 1)[-1]
    return int(count) if key.startswith("turn:") and count.isdigit() else None


#: A turn email's stored body until it is sent: the sender writes it from the match, its
#: segments and the facts the turn stored (:func:`turn_passed`), then keeps it as sent.
TURN_EMAIL_WRITTEN_WHEN_SENT = (
    "(written when the email is sent: what happened since the last move, the dice, the board)"
)
#: Stood, in the body of a turn email stored before turns stored their facts (migration
#: 0030), for what happened since its addressee last moved; the sender fills it in. The
#: record separators keep a name from imitating it.
HISTORY_TO_COME = "\x1e(what happened since your last move: written when sent)\x1e"
#: The most segments a turn email tells (the newest); the match page has them all. Only
#: a player whose every turn for long was played for them would have more.
SEGMENTS_IN_A_TURN_EMAIL = 60


def turn_passed(
    match: Match, *, recorded: list[Segment] | None = None, dance_left: bool = False
) -> None:
    """Tell the player now to move that it is their turn, and what happened since they
    last moved: store their email with its subject and the turn's facts, for the sender
    to write (:func:`_turn_email_text`). Called under the match's lock, with the match as
    the turn leaves it (its deadline set, not yet saved).

    ``dance_left``: they can move no checker, but the site left the dance to them (greek:
    they may name a blot first); the email says so, or they would look for a move.

    ``recorded``: the segments just stored, oldest first: whether they begin the match
    (a tournament's first turn says so in its subject).

    The story, the board and the template cost a turn 0.5-0.6 ms of CPU when the turn
    wrote them (bench.turn); written by the worker, they cost the turn nothing, and the
    facts only what the segments stored cannot tell: the dice then (the next roll may be
    stored by the time the email goes, with delay 0), the deadline then, the score then
    (a game may end meanwhile), whether the dance is left to them (the engine's word), and
    the tournament's round (a draw to read).
    """
    user = match.to_move
    if user is None or not _gets_game_email(user, Notification.Kind.TURN):
        return
    opponent = match.opponent_of(user)
    stage = _stage_of(match)
    # The first turn of a tournament's match (its segments stored from the first, the
    # opening roll, on) tells its round's start too: the start's own email goes to the other
    # player only (games.tournaments.emails.match_ready), so the player to move gets one,
    # not two. So does the player's first turn after a bot's (however many segments the
    # bot's took, each stored by a task of its own): the start's email skips a bot's
    # opponent, whom the bot's turn, played at once, reaches.
    first = recorded[0].number if recorded else None
    started = stage is not None and (
        first == 1
        or (
            first is not None
            and opponent.is_bot
            and _has_not_moved(match, match.color_of(user) or "", first)
        )
    )
    if started:
        subject = (
            f"{stage}: your match against {opponent} has started, your turn (match #{match.pk})"
        )
    else:
        subject = f"Your turn against {opponent} ({f'{stage}, ' if stage else ''}match #{match.pk})"
    facts = {
        "dice": match.dice,
        "dance_left": dance_left,
        "deadline": match.deadline.isoformat() if match.deadline else None,
        "score": [match.score_white, match.score_black],
        "started": started,
        "stage": (
            {
                "tournament": stage.tournament.name,
                "title": stage.title,
                "url": absolute_url(stage.tournament.get_absolute_url()),
            }
            if stage
            else None
        ),
    }
    # The key holds the segment count, which only grows under the match row's lock: it
    # cannot exist yet, so one INSERT will do (the unique key still guards it).
    # Notification.objects.create(), in SQL of its own (aceysite.sql): every turn does it.
    wait = turn_email_delay()
    notification = Notification(
        user=user,
        kind=Notification.Kind.TURN,
        key=turn_key(match.pk, match.segment_count),
        subject=subject,
        body=TURN_EMAIL_WRITTEN_WHEN_SENT,
        match=match,
        facts=facts,
        claimed_until=_held_for(wait),
    )
    insert([notification])
    _sweep_after_commit(notification.pk, wait=wait)


def _turn_email_text(
    notification: Notification, match: Match, color: str, told: list[Segment]
) -> str:
    """A turn email's body, written when it is sent: from its turn's facts, the match (its
    players came with the email) and ``told``, its segments from the addressee's last move
    of their own up to its turn's (:func:`_segments_for_turn_email`), whose last holds the
    position then."""
    user = notification.user
    facts = notification.facts
    assert facts is not None
    score = dict(zip(("white", "black"), facts["score"], strict=True))
    deadline = facts["deadline"]
    position = Position.from_dict(told[-1].position if told else match.position)
    return _written(
        user,
        "games/email/turn.txt",
        {
            "match": match,
            "opponent": match.opponent_of(user),
            # A tournament's match says so: a loss may end the player's tournament.
            "stage": facts["stage"],
            "started": facts["started"],
            # The challenge it began with, accepted: this email tells the challenger so.
            "accepted": facts.get("accepted", ""),
            "history": _history(match, color, told, score=score),
            "dice": format_dice(facts["dice"]) if facts["dice"] else "",
            "dance_left": facts["dance_left"],
            "color": color,
            "opponent_color": "black" if color == "white" else "white",
            "diagram": position.diagram(color),
            "url": absolute_url(match.get_absolute_url()),
            "deadline": datetime.fromisoformat(deadline) if deadline else None,
        },
    )


def _has_not_moved(match: Match, color: str, before: int) -> bool:
    """Whether the player of ``color`` has no segment of ``match`` numbered below ``before``
    (one query: asked only of a bot's turn in a tournament). A bot's first turn may be
    several segments (a 1-2, its double, an extra roll), each stored by a task of its own:
    the last of them alone does not follow the opening rolls."""
    return not Segment.objects.filter(match=match, number__lt=before, player=color).exists()


def _stage_of(match: Match) -> Stage | None:
    """The tournament and round of ``match``, if it plays in one that has not been
    cancelled (whose matches are played on, but no longer count for it: a turn email that
    named it would make it sound live). No query when the match came with its tournament:
    games.services selects it with the match it locks."""
    # A local import: games.tournaments.services imports games.services, which imports this.
    from games.tournaments.services import stage_of

    stage = stage_of(match)
    return None if stage is None or stage.tournament.is_cancelled else stage


def _is_own_move(segment: Segment, color: str) -> bool:
    """Whether ``segment`` is a move the player of ``color`` made (not one made for them)."""
    return segment.player == color and not segment.automatic


def _history(
    match: Match, color: str, segments: list[Segment], *, score: dict[str, int] | None = None
) -> str:
    """What happened since ``color``'s player last moved, for their turn email, then a
    blank line ("" if nothing happened). ``segments``: oldest first, up to the last stored
    when the email was queued, from the player's last move of their own (not told again,
    but a game it ended is), or from the first segment of the match if they have made
    none, or cut short at the newest few. ``score``: the match's score, by colour, after
    the last of them (the match row's by default)."""
    if not segments:
        return ""
    return _TurnStory(match, color, segments, score=score).text()


class _TurnStory:
    """What happened in a match since one of its players (the reader, by ``color``) last
    moved, as their turn email tells it: a line an event, in the notation of the match
    page and of RULES.md's turn records, the reader called "you"."""

    def __init__(
        self,
        match: Match,
        color: str,
        segments: list[Segment],
        *,
        score: dict[str, int] | None = None,
    ) -> None:
        self.match = match
        self.score = score or {"white": match.score_white, "black": match.score_black}
        self.segments = segments
        self.you = color
        self.other = "black" if color == "white" else "white"
        self.names = {color: "you", self.other: str(match.opponent_of(match.player(color)))}
        self.scores = self._scores_after_games()
        # The blot the reader must hit now, if any (R8), and the naming that can be it.
        self.binding_blot = Position.from_dict(segments[-1].position).obligation
        namings = [s.number for s in segments if s.named_blot and s.player == self.other]
        self.latest_naming = max(namings, default=None)

    def text(self) -> str:
        """A heading, the events a line each, then a blank line ("" if none)."""
        segments = self.segments
        lines = []
        if _is_own_move(segments[0], self.you):
            heading = "Since your last move:"
            own_move, segments = segments[0], segments[1:]
            lines += self._game_result(own_move)
        elif segments[0].number == 1:
            heading = "Since the match began:"
        else:
            heading = "Since your last move (the match page has the earlier ones):"
        for (_game, player), grouped in groupby(segments, key=lambda s: (s.game_number, s.player)):
            turn = list(grouped)
            if not player:
                lines.append(self._opening(turn))
                continue
            lines.append(self._turn(turn))
            lines += self._named_blots(turn)
            lines += self._game_result(turn[-1])
        if not lines:
            return ""
        return "\n".join([heading, *(f"- {line}" for line in lines)]) + "\n\n"

    def _turn(self, segments: list[Segment]) -> str:
        """One player's turn, or what of it is told, as a turn record has it: ``bob played
        1-2: in/24 in/23; named 4-4: in/21(4); 1-3: 24/21 21/20``. A segment the server
        played is marked as on the match page; all of the reader's are (else they would
        not be told)."""
        player = segments[0].player
        parts = []
        for segment, following in zip(segments, [*segments[1:], None], strict=True):
            if segment.kind == Segment.Kind.DOUBLE:
                if following is None or following.kind != Segment.Kind.NAMED_DOUBLE:
                    parts.append(f"named {format_dice(segment.dice)}")
                continue  # told with the double's play, which follows
            label = "named " if segment.kind == Segment.Kind.NAMED_DOUBLE else ""
            forced = " (forced)" if segment.automatic and player != self.you else ""
            parts.append(f"{label}{format_dice(segment.dice)}: {segment.play or 'no move'}{forced}")
        if player == self.you:
            return f"played for you (forced): {'; '.join(parts)}"
        return f"{self.names[player]} played {'; '.join(parts)}"

    def _named_blots(self, segments: list[Segment]) -> list[str]:
        """R8: a blot the opponent named, by their own numbering: the reader counts the
        same point from their side (25 - it). Only a naming that binds the reader's turn
        now asks them to hit it: an older one bound a turn played for them and lapsed,
        and one whose checker has been hit since binds nobody (R8.5)."""
        lines = []
        for segment in segments:
            if segment.player != self.other or not segment.named_blot:
                continue
            binding = segment.number == self.latest_naming and self.binding_blot == (
                absolute_point(segment.player, segment.named_blot)
            )
            lines.append(
                f"{self.names[segment.player]} named the blot on your"
                f" {25 - segment.named_blot}-point" + (": hit it if you can." if binding else ".")
            )
        return lines

    def _opening(self, segments: list[Segment]) -> str:
        """A game's opening roll (R1), with any ties rolled again, the reader's die first."""
        them = self.names[self.other]
        rolls = []
        for segment in segments:
            dice = dict(zip(("white", "black"), segment.dice, strict=True))
            rolls.append(f"you {dice[self.you]}, {them} {dice[self.other]}")
        first = "you move" if dice[self.you] > dice[self.other] else f"{them} moves"
        game = segments[0].game_number
        label = "Opening roll" if game == 1 else f"Game {game}, opening roll"
        return f"{label}: {' (a tie), then '.join(rolls)}; {first} first."

    def _game_result(self, segment: Segment) -> list[str]:
        """``Game 2: you won 2 points (borne off). Score: you 2, bob 1.`` if ``segment``
        ended a game (none otherwise), with the match score after it."""
        if segment.number not in self.scores:
            return []
        points = self._game_points(segment)
        score = self.scores[segment.number]
        return [
            f"Game {segment.game_number}: {self.names[segment.player]} won {points}"
            f" point{'' if points == 1 else 's'} (borne off). Score: you {score[self.you]},"
            f" {self.names[self.other]} {score[self.other]}."
        ]

    def _scores_after_games(self) -> dict[int, dict[str, int]]:
        """For each segment told that ended a game, by number: the match score after it,
        worked back from the score after the last segment told."""
        score = dict(self.score)
        after = {}
        for segment in reversed([s for s in self.segments if _ends_game(s)]):
            after[segment.number] = dict(score)
            score[segment.player] -= self._game_points(segment)
        return after

    def _game_points(self, segment: Segment) -> int:
        loser = "black" if segment.player == "white" else "white"
        return variant_named(self.match.variant).game_points(segment.position["off"][loser])


def _ends_game(segment: Segment) -> bool:
    """Whether ``segment`` bore off its player's last checker (R9)."""
    return segment.player in ("white", "black") and segment.position["off"][segment.player] == 15


def time_left_in_words(left: timedelta) -> str:
    """Roughly how long is left, for a reminder: "about 9 hours". Minutes under an hour and
    a half, hours under two days, days beyond (a reminder comes at 80% of the time allowed,
    so from about 5 hours before the deadline to about 3 days)."""
    minutes = max(0, round(left.total_seconds() / 60))
    if minutes < 90:
        amount, unit = max(1, minutes), "minute"
    elif minutes < 48 * 60:
        amount, unit = round(minutes / 60), "hour"
    else:
        amount, unit = round(minutes / (24 * 60)), "day"
    return f"about {amount} {unit}{'' if amount == 1 else 's'}"


#: How long a player must have been away since a turn's reminder went for it to be sent
#: again on their return (games.away sets it again): one back from a holiday may have
#: forgotten the match; one who left by mistake and came straight back has not.
REMIND_AGAIN_AFTER_AWAY = timedelta(days=1)


def deadline_reminder(match: Match, *, now: datetime | None = None) -> bool:
    """Remind the player to move in ``match`` that their deadline is near (at ``now``, the
    sweep's time): whom they play, how long is left, and that a timeout loses the match.
    Once a turn, but again for a player back from REMIND_AGAIN_AFTER_AWAY or more away
    since the last; True if it queued one."""
    user = match.to_move
    if user is None or match.deadline is None:
        return False
    turn = f"reminder:{match.pk}:{match.segment_count}:"
    last = (
        Notification.objects.filter(user=user, key__startswith=turn)
        .order_by("-created_at")
        .values_list("created_at", flat=True)
        .first()
    )
    if last is not None and not _away_since(user, last):
        return False
    opponent = match.opponent_of(user)
    # Keyed by the deadline too: the reminder sent again after time away (which moved the
    # deadline) must not find the first one's key taken.
    due_by = int(match.deadline.timestamp())
    _queue(
        user,
        Notification.Kind.REMINDER,
        f"{turn}{due_by}",
        f"Reminder: your move against {opponent} is due soon",
        "games/email/reminder.txt",
        {
            "match": match,
            "opponent": opponent,
            "left": time_left_in_words(match.deadline - (now or timezone.now())),
            "url": absolute_url(match.get_absolute_url()),
            # A tournament's match says what a loss on time does there: in a round robin or
            # a Swiss it also withdraws its loser from the tournament.
            "tournament": _tournament_of(match),
            "timeout_withdraws": _timeout_withdraws(match),
        },
    )
    return True


def _away_since(user: User, moment: datetime) -> bool:
    """Whether ``user`` has been away for REMIND_AGAIN_AFTER_AWAY or more, in one absence
    begun after ``moment``."""
    return any(
        absence.ends_at - absence.starts_at >= REMIND_AGAIN_AFTER_AWAY
        for absence in Absence.objects.filter(user=user, starts_at__gt=moment)
    )


def _tournament_of(match: Match) -> Tournament | None:
    """The tournament ``match`` plays in, if any (no query when the match came with it: the
    reminder sweep selects it with the match it claims)."""
    # A local import: games.tournaments.services imports games.services, which imports this.
    from games.tournaments.services import tournament_of

    return tournament_of(match)


def _timeout_withdraws(match: Match) -> bool:
    """Whether losing ``match`` on time would withdraw its loser from its tournament (no
    query when the match came with its tournament, as for :func:`_tournament_of`)."""
    from games.tournaments.services import timeout_withdraws

    return timeout_withdraws(match)


def challenge_key(challenge_id: int) -> str:
    """The outbox key of the email that offers a challenge to its opponent: one a
    challenge, and a way to tell, when it is sent, whether the challenge still waits."""
    return f"challenge:{challenge_id}"


def _challenge_in(key: str) -> int | None:
    """The challenge an offer's key names (:func:`challenge_key`); None for another key
    (the news that one was declined is of kind CHALLENGE too)."""
    challenge_id = key.removeprefix("challenge:")
    return int(challenge_id) if key.startswith("challenge:") and challenge_id.isdigit() else None


def challenge_received(challenge: Challenge) -> None:
    assert challenge.opponent is not None
    # A rematch offer is not a stranger's challenge: it names the match played.
    rematch = challenge.rematch_of_id
    _queue(
        challenge.opponent,
        Notification.Kind.CHALLENGE,
        challenge_key(challenge.pk),
        f"{challenge.challenger} offers you a rematch of match #{rematch}"
        if rematch
        else f"{challenge.challenger} challenges you to Acey-Deucey",
        "games/email/challenge.txt",
        {"challenge": challenge, "url": absolute_url(challenge.get_absolute_url())},
    )


def challenge_accepted(challenge: Challenge) -> None:
    """Tell the challenger their challenge (or rematch offer) was accepted, and whose move
    it is; call it in the transaction that starts the match, after its first turn is told.

    One email, as a tournament's start is: a challenger who moves first and gets turn
    emails has theirs say it (its subject and first line, changed here) instead of a second
    email; one on the daily digest gets this one, saying their move is due, as the digest
    may come after a one-day clock runs out."""
    match = challenge.match
    assert match is not None and challenge.opponent is not None
    if challenge.opponent.is_bot:
        # A bot accepts as the challenge is made, in the challenger's own request: the
        # match page is already in front of them.
        return
    challenger = challenge.challenger
    offer = "rematch offer" if challenge.rematch_of_id else "challenge"
    their_move = match.to_move_id == challenger.pk
    if their_move and _gets_game_email(challenger, Notification.Kind.TURN):
        told = Notification.objects.filter(key=turn_key(match.pk, match.segment_count))
        for turn in told:  # one: stored by this transaction, not sent before it commits
            turn.subject = (
                f"{challenge.opponent} accepted your {offer}: your turn (match #{match.pk})"
            )
            turn.facts = {**(turn.facts or {}), "accepted": offer}
            turn.save(update_fields=["subject", "facts"])
        if told:
            return
    _queue(
        challenger,
        Notification.Kind.ACCEPTED,
        f"accepted:{challenge.pk}",
        f"{challenge.opponent} accepted your {offer}",
        "games/email/accepted.txt",
        {
            "challenge": challenge,
            "match": match,
            "your_move": their_move,
            "url": absolute_url(match.get_absolute_url()),
        },
    )


def challenge_declined(challenge: Challenge) -> None:
    """Tell the challenger their challenge (or rematch offer) was turned down; call it in
    the transaction that declines it. One email a challenge, whoever calls it twice.

    Kind CHALLENGE: it is news of one (a kind of its own would need a migration).
    """
    assert challenge.opponent is not None
    offer = "rematch offer" if challenge.rematch_of_id else "challenge"
    # A player's account closing declines what was sent to them (games.closing): they did
    # not turn it down, and the subject does not say they did.
    closed = not challenge.opponent.is_active
    subject = (
        f"Your {offer} to {challenge.opponent} is off: the account is closed"
        if closed
        else f"{challenge.opponent} declined your {offer}"
    )
    _queue(
        challenge.challenger,
        Notification.Kind.CHALLENGE,
        f"declined:{challenge.pk}",
        subject,
        "games/email/declined.txt",
        {
            "challenge": challenge,
            "opponent_closed": closed,
            "url": absolute_url(reverse("challenge_new")),
        },
    )


def challenge_expired(challenge: Challenge, *, days: int) -> None:
    """Tell the challenger their challenge expired, nobody having accepted it within
    ``days``; call it in the transaction that expires it. One email a challenge, whoever
    calls it twice. Its opponent, if it named one, is not told.

    Kind CHALLENGE, as the news of one declined: a kind of its own would need a migration.
    """
    opponent = challenge.opponent
    if opponent is not None:
        offer = "rematch offer" if challenge.rematch_of_id else "challenge"
        subject = f"Your {offer} to {opponent} has expired"
        # The form filled in with the same player, to try them again.
        new = f"{reverse('challenge_new')}?{urlencode({'opponent': opponent.username})}"
    else:
        where = "private invite" if challenge.private else "challenge in the lobby"
        subject = f"Your {where} has expired"
        new = reverse("challenge_new")
    _queue(
        challenge.challenger,
        Notification.Kind.CHALLENGE,
        f"expired:{challenge.pk}",
        subject,
        "games/email/expired.txt",
        {"challenge": challenge, "days": days, "url": absolute_url(new)},
    )


def opponent_away(player: User, matches: list[Match], *, until: datetime, key: str) -> None:
    """Tell each opponent of ``player`` in ``matches`` (their matches in play) that they
    are taking time away until ``until``: one email an opponent, whatever the number of
    matches they share; none to a bot. Their clocks stand still meanwhile, so a player
    told only on the site, playing by email, would wait on a move not coming. ``key``:
    the absence's, so that each opponent hears of it once. Call it in the transaction
    that records the absence."""
    shared: dict[int, list[Match]] = {}
    for match in matches:
        opponent_id = match.black_id if match.white_id == player.pk else match.white_id
        shared.setdefault(opponent_id, []).append(match)
    for together in shared.values():
        opponent = together[0].opponent_of(player)
        if opponent.is_bot:
            continue
        _queue(
            opponent,
            Notification.Kind.AWAY,
            f"away:{key}:{opponent.pk}",
            f"{player} is taking time away",
            "games/email/away.txt",
            {
                "player": player,
                "until": until,
                "matches": [
                    (match, absolute_url(match.get_absolute_url()), match.to_move_id == player.pk)
                    for match in together
                ],
            },
        )


def match_finished(match: Match, *, rating_changes: list[RatingChange]) -> None:
    """Tell both players that ``match`` is over, and how their ratings moved:
    ``rating_changes``, as rating it stored them (none for an unrated match, nor for a
    rated one that ended before both players moved, which the email says). Both emails
    in one INSERT: a match ends once, under its row's lock, so neither key exists yet."""
    changes = {change.user_id: change for change in rating_changes}
    # A tournament's match says so, as its turn emails did: what it meant is on the
    # tournament's page (the tournament's own email follows if it moved anyone on).
    stage = _stage_of(match)
    # A player's withdrawal from a tournament resigns their match in it: their opponent
    # should not read that they simply gave up.
    withdrew = (
        stage is not None
        and match.ending == Match.Ending.RESIGNATION
        and stage.tournament.entries.filter(
            user=match.player(match.loser_color), withdrawn=True
        ).exists()
    )
    _queue_new(
        Email(
            user,
            Notification.Kind.FINISHED,
            f"finished:{match.pk}:{user.pk}",
            f"Match #{match.pk} against {match.opponent_of(user)} is over"
            + (f" ({stage})" if stage else ""),
            "games/email/finished.txt",
            {
                "match": match,
                "won": match.winner_id == user.pk,
                "how": _how_it_ended(match, user),
                # A player who closes their account resigns their matches as it closes.
                "opponent_closed": not match.opponent_of(user).is_active,
                "withdrew": withdrew,
                "opponent": match.opponent_of(user),
                "rating": changes.get(user.pk),
                "unplayed_unrated": UNPLAYED_UNRATED,
                "url": absolute_url(match.get_absolute_url()),
                "stage": stage,
                "stage_url": absolute_url(stage.tournament.get_absolute_url()) if stage else "",
            },
        )
        for user in (match.white, match.black)
    )


def _how_it_ended(match: Match, user: User) -> str:
    """Who won ``match`` and how, told to one of its players: "you won 15\u20139 (borne
    off)", "alice won: you resigned (final score 2\u20130)", "you won on time: alice's
    time to move ran out (...)". Who resigned or ran out of time is said, rather than
    "won by timeout", which leaves its reader to work out whose time it was."""
    won = match.winner_id == user.pk
    winner = "you" if won else str(match.winner)
    if match.ending == Match.Ending.BORNE_OFF:
        return f"{winner} won {match.result_words}"
    loser = str(match.opponent_of(user)) if won else "you"
    final = f"(final score {match.result_score})"
    if match.ending == Match.Ending.TIMEOUT:
        whose = f"{loser}'s" if won else "your"
        return f"{winner} won on time: {whose} time to move ran out {final}"
    return f"{winner} won: {loser} resigned {final}"


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


def send_notification(notification_id: int, *, retry_in: int = 0, swept: bool = False) -> bool:
    """Send one queued email unless it was sent or another sender holds it; True if sent.

    The claim is an atomic UPDATE, so two workers (a retried or redelivered task) never
    both send; a sender that dies keeps the claim only for settings.EMAIL_CLAIM_SECONDS
    (``ACEY_EMAIL_CLAIM_SECONDS``). When sending
    fails, the row stays claimed for ``retry_in`` seconds, the caller's own retry delay, so
    that the resend sweep does not start a second round of retries beside it.

    Each call logs one line: the email's id and kind, sent, not sent and why, or failed
    and how (never its address or its body); except, with ``swept`` (called by a sweep of
    the outbox, which found the email due a moment ago), for one another sender took
    meanwhile: two sweeps at once (beat's and a woken one, in two worker processes) each
    try every email due, and that is no news.
    """
    now = timezone.now()
    if not _claim(notification_id, now):
        if not swept:
            _log_unclaimed(notification_id)
        return False
    notification = _outbox_row(notification_id)
    if notification is None:
        # Deleted since the claim (its addressee closed their account).
        log.info(DELETED, notification_id)
        return False
    body: str | None = notification.body
    kind = notification.kind
    # An email queued just before its addressee closed their account (games.closing erased
    # the address), a turn email nobody waits for now, a challenge settled before its
    # offer went out, or a link to confirm an address confirmed meanwhile, is not sent.
    # An account the staff deactivated keeps its address, but hears no more from the site
    # (its owner cannot log in to act on it).
    reachable = bool(notification.user.email) and notification.user.is_active
    if reachable and kind == Notification.Kind.TURN:
        body = _turn_email_as_sent(notification)
    elif reachable and kind == Notification.Kind.CHALLENGE:
        body = _challenge_email_as_sent(notification)
    elif reachable and kind == Notification.Kind.CONFIRM_ADDRESS:
        body = _confirmation_as_sent(notification.user)
    if not reachable or body is None:
        Notification.objects.filter(pk=notification_id).update(
            cancelled_at=timezone.now(), claimed_until=None
        )
        if reachable:
            why = NOT_NEEDED.get(kind, "")
        else:
            why = INACTIVE if notification.user.email else NO_ADDRESS
        log.info("email %s (%s) not sent, dropped: %s", notification_id, kind, why)
        return False
    if kind == Notification.Kind.CONFIRM_ADDRESS:
        # An account email, which the unsubscribe link (game emails) does not stop; its
        # stored body stays as it was, without the link.
        text, headers, kept = body, {}, notification.body
    else:
        text, headers = _with_unsubscribe(notification, body)
        kept = body
    message = EmailMultiAlternatives(
        subject=subject_line(notification.subject),
        body=left_to_right(text),
        to=[notification.user.email],
        headers={
            **headers,
            **AUTOMATIC,
            "Message-ID": message_id(notification),
        },
    )
    attempt = notification.attempts + 1
    try:
        _deliver(message)
    except Exception as error:
        Notification.objects.filter(pk=notification_id).update(
            # The delay counts from the failure, not from the claim: an attempt's own
            # time (a slow server's answer) must not shorten the wait before the next.
            claimed_until=timezone.now() + timedelta(seconds=retry_in) if retry_in else None,
            attempts=attempt,
            last_error=str(error)[:2000],
        )
        log.warning(
            "email %s (%s) failed, attempt %s: %s",
            notification_id,
            kind,
            attempt,
            failure_in_words(error),
        )
        raise
    # The body as sent is kept (a turn email's history filled in), in the same UPDATE.
    _mark_sent(notification_id, attempts=attempt, body=kept)
    log.info("email %s (%s) sent, attempt %s", notification_id, kind, attempt)
    return True


# Every email's three statements, written once in SQL (aceysite.sql): as the ORM built
# them they cost the worker 2.5 ms of CPU an email.


def _claim(notification_id: int, now: datetime) -> bool:
    """Claim the email for this sender until EMAIL_CLAIM_SECONDS from ``now``, unless it
    was sent or another sender holds it: ``Notification.objects.filter(pk=...,
    sent_at=None).exclude(claimed_until__gt=now).update(claimed_until=...)``, atomic."""
    table, pk, sent_at, claimed_until = table_and_columns(
        Notification, "id", "sent_at", "claimed_until"
    )
    sql = (
        f"UPDATE {table} SET {claimed_until} = %s WHERE {pk} = %s AND {sent_at} IS NULL"
        f" AND ({claimed_until} IS NULL OR {claimed_until} <= %s)"
    )
    until = now + timedelta(seconds=settings.EMAIL_CLAIM_SECONDS)
    stamp = partial(db_value, Notification, "claimed_until")
    return bool(execute(sql, [stamp(until), notification_id, stamp(now)]))


def message_id(notification: Notification) -> str:
    """The Message-ID header of a stored email: the same for every attempt to send it
    (should a sender die between the server's acceptance and marking the row sent, mail
    clients drop the resend), and not another email's. Its row's id alone would not do:
    after a restore from a backup the ids after the backup's are handed out again, and a
    mail client that kept an email sent before the restore would drop a new one as the
    same; the time the row was written, to the microsecond, tells them apart."""
    written = int(notification.created_at.timestamp() * 1_000_000)
    return f"<notification.{notification.pk}.{written}@{mail_domain()}>"


def _outbox_row(notification_id: int) -> Notification | None:
    """The email with its addressee, and for a turn email its match and the match's
    players (what to tell, and whether it is still worth sending; for the other kinds the
    joins find none): ``Notification.objects.select_related("user", "match__white",
    "match__black").get(pk=...)``, or None if it is gone."""
    tables, sql = _outbox_row_statement()
    found = fetch_one(tables, sql, [notification_id])
    if not found:
        return None
    notification, user, match, white, black = found
    assert isinstance(notification, Notification)
    notification.user = user
    if isinstance(match, Match):
        match.white, match.black = white, black
    notification.match = match  # None caches None: no query for a match it has not
    return notification


@cache
def _outbox_row_statement() -> tuple[tuple[Table, ...], str]:
    from accounts.models import User

    tables = notification, user, match, white, black = (
        Table(Notification, "n"),
        Table(User, "u"),
        Table(Match, "m"),
        Table(User, "w"),
        Table(User, "b"),
    )
    sql = (
        f"SELECT {select_list(tables)} FROM {notification}"
        f" JOIN {user} ON {user.column('id')} = {notification.column('user')}"
        f" LEFT JOIN {match} ON {match.column('id')} = {notification.column('match')}"
        f" LEFT JOIN {white} ON {white.column('id')} = {match.column('white')}"
        f" LEFT JOIN {black} ON {black.column('id')} = {match.column('black')}"
        f" WHERE {notification.column('id')} = %s"
    )
    return tables, sql


def _mark_sent(notification_id: int, *, attempts: int, body: str) -> None:
    """``Notification.objects.filter(pk=...).update(sent_at=now, attempts=...,
    last_error="", body=...)``."""
    update_row(
        Notification,
        notification_id,
        sent_at=timezone.now(),
        attempts=attempts,
        last_error="",
        body=body,
    )


#: Why an email of each kind is dropped when its time comes (send_notification).
NOT_NEEDED = {
    Notification.Kind.TURN: "no longer needed, the turn it tells of has been played",
    Notification.Kind.CHALLENGE: "no longer needed, the challenge it offers was withdrawn,"
    " declined, accepted or has expired",
    Notification.Kind.CONFIRM_ADDRESS: "no longer needed, the address is confirmed"
    " (or the account closed)",
}
NO_ADDRESS = "its addressee has no address now, their account closed"
INACTIVE = "its addressee's account is deactivated"
#: An email whose row is gone: closing an account deletes its unsent emails (games.closing),
#: and beat those sent or dropped long ago (forget_old_emails).
DELETED = "email %s not sent: deleted (its addressee's account closed, or it was done long ago)"


def _log_unclaimed(notification_id: int) -> None:
    """Log why ``notification_id`` was not this sender's to send (one query: the case is
    rare, a task sent twice or run before its time)."""
    row = (
        Notification.objects.filter(pk=notification_id)
        .values("kind", "sent_at", "claimed_until")
        .first()
    )
    if row is None:
        log.info(DELETED, notification_id)
    elif row["sent_at"] is not None:
        log.info("email %s (%s) not sent again: sent already", notification_id, row["kind"])
    else:
        log.info(
            "email %s (%s) not sent now: held until %s (being sent, or waiting for a retry"
            " or for a turn or challenge email's delay)",
            notification_id,
            row["kind"],
            row["claimed_until"].isoformat(timespec="seconds"),
        )


class EmailFailed(Exception):
    """An email could not be sent; its message is :func:`failure_in_words`'s."""


def _with_unsubscribe(notification: Notification, body: str) -> tuple[str, dict[str, str]]:
    """A game email's text as sent (a turn email's with the messages it quotes) and its
    headers: both with the link that turns game emails off."""
    unsubscribe = absolute_url(reverse("unsubscribe", args=[unsubscribe_token(notification.user)]))
    # Most matches have no messages: then there is nothing to look for.
    turn = notification.kind == Notification.Kind.TURN
    quoting = turn and notification.match is not None and notification.match.message_count
    written = _messages_with_the_move(notification) if quoting else ""
    # One blank line before what is added: the template's own last line break, kept, made
    # two.
    text = body.rstrip("\n") + written + f"\n\nTo stop these emails: {unsubscribe}\n"
    return text, list_unsubscribe_headers(unsubscribe)


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
        lines = "\n".join(f"> {line}" if line else ">" for line in message.text.splitlines())
        quoted.append(f"{message.author} wrote:\n{lines}")
    return "\n\n" + "\n\n".join(quoted) + "\n(Answer on the match page.)"


#: How many segments the addressee of a delayed turn email may have played since it was
#: queued and still be in that turn: the rest of an acey-deucey (the 1-2, the double
#: named, its play, a roll it earned, again and again). More is not one turn any more.
SEGMENTS_OF_ONE_TURN = 20


def _turn_email_as_sent(notification: Notification) -> str | None:
    """A turn email's body as it goes out (written now, from the facts its turn stored), or
    None if it is not worth sending now.

    At most one query, for the match's segments (the match came with the email).
    """
    body = notification.body
    match = notification.match
    count = _segment_count_in(notification.key)
    delayed = bool(settings.TURN_EMAIL_DELAY_SECONDS)
    if match is None:
        return body  # not a match's (written by hand): nothing to add or check
    if count is None:
        return None if delayed else body  # no turn to tell it by
    written = notification.facts is not None
    # Stored before turns stored facts (migration 0030): its body as its turn wrote it,
    # what happened since the last move to fill in if the turn could not.
    to_come = not written and HISTORY_TO_COME in body
    story = written or to_come
    if delayed and not _still_to_move(match, notification.user, count):
        return None
    if not (story or delayed):
        return body
    color = match.color_of(notification.user) or "white"
    segments = _segments_for_turn_email(match, color, count, history=story, after=delayed)
    if delayed and not _still_waiting(segments, color, count):
        return None
    told = [segment for segment in segments if segment.number <= count]
    if written:
        return _turn_email_text(notification, match, color, told)
    if not to_come:
        return body
    return body.replace(HISTORY_TO_COME, _history(match, color, told), 1)


def _still_to_move(match: Match, user: User, count: int) -> bool:
    """What the match row says of a delayed turn email queued at ``count`` segments: its
    addressee is still to move, and has not played more since than one turn holds."""
    return (
        match.status == Match.Status.ACTIVE
        and match.to_move_id == user.pk
        and match.segment_count <= count + SEGMENTS_OF_ONE_TURN
    )


def _still_waiting(segments: list[Segment], color: str, count: int) -> bool:
    """Whether a delayed turn email queued at ``count`` segments is still worth sending:
    nothing has been stored since but the addressee's own segments (the rest of an
    acey-deucey they have begun). A segment of the opponent, or an opening roll, means
    the turn was played and another has come (with its own email)."""
    return all(segment.player == color for segment in segments if segment.number > count)


def _segments_for_turn_email(
    match: Match, color: str, count: int, *, history: bool, after: bool
) -> list[Segment]:
    """The segments a turn email queued at ``count`` needs, oldest first, in one query:
    with ``history``, those from the addressee's last own move up to ``count`` (the
    newest :data:`SEGMENTS_IN_A_TURN_EMAIL` at most); with ``after``, those stored since
    ``count`` (a turn's worth at most: see :func:`_still_to_move`)."""
    newest = count + SEGMENTS_OF_ONE_TURN if after else count
    if not history:
        rows = Segment.objects.filter(match=match, number__gt=count, number__lte=newest)
        return list(rows.order_by("number"))
    # Written as SQL: the ORM spelling (Greatest over a Subquery) cost 2 ms of CPU to
    # build on every turn email, this 0.3 ms in all, rows included (README, bench.turn).
    # The two lower bounds are GREATEST(...), which SQLite does not have.
    table = connection.ops.quote_name(Segment._meta.db_table)
    sql = (
        f"SELECT * FROM {table} WHERE match_id = %s AND number <= %s AND number >= %s"
        "  AND number >= COALESCE("
        f"   (SELECT number FROM {table} WHERE match_id = %s AND player = %s"
        "     AND NOT automatic AND number <= %s ORDER BY number DESC LIMIT 1), 1)"
        " ORDER BY number"
    )
    oldest = count - SEGMENTS_IN_A_TURN_EMAIL + 1
    return list(Segment.objects.raw(sql, [match.pk, newest, oldest, match.pk, color, count]))


#: How long the outbox keeps an email that was sent, or dropped when its time came (staff
#: read them in the admin): then beat deletes it (forget_old_emails), body and all.
EMAILS_KEPT = timedelta(days=90)


def forget_old_emails(*, now: datetime | None = None) -> int:
    """Delete the emails written more than :data:`EMAILS_KEPT` ago that were sent or
    dropped; return how many. An email still to send (waiting, held by a sender, failing,
    or given up on after MAX_ATTEMPTS, its error for staff to read) is kept however old:
    only a row that no sender will take again goes. Its key goes with it, but every key
    names one event (a turn, a match's end, a day's digest) that does not come again, so
    none can be queued a second time."""
    cutoff = (now or timezone.now()) - EMAILS_KEPT
    done = Q(sent_at__isnull=False) | Q(cancelled_at__isnull=False)
    deleted, _ = Notification.objects.filter(done, created_at__lt=cutoff).delete()
    return deleted


def unsent(older_than_seconds: int = 60) -> list[int]:
    """Notifications that should have gone out by now (for the resend sweep): not turn
    emails, which the turn email sweep takes, lost, failed or waiting alike (a task
    queued for one here would only race that sweep for its claim)."""
    now = timezone.now()
    cutoff = now - timedelta(seconds=older_than_seconds)
    due = _to_send(now).filter(created_at__lt=cutoff).exclude(kind=Notification.Kind.TURN)
    return list(due.values_list("pk", flat=True)[:500])


def _to_send(now: datetime) -> QuerySet[Notification]:
    """The emails a sender may take at ``now``: not sent, not dropped, not given up on
    (MAX_ATTEMPTS), and held by no sender, wait or retry delay (their claimed_until
    passed, or none)."""
    return Notification.objects.filter(
        sent_at=None, cancelled_at=None, attempts__lt=MAX_ATTEMPTS
    ).exclude(claimed_until__gt=now)
