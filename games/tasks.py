"""Celery tasks: thin wrappers that take ids, re-read the rows and call a service."""

from __future__ import annotations

from datetime import UTC, datetime
from importlib import import_module

from celery import shared_task
from django.conf import settings
from django.utils import timezone

from . import closing, idempotency, notifications, services
from .models import Notification


def email_retry_countdown(retries: int) -> int:
    """The first retry of a failed email waits settings.EMAIL_RETRY_BASE_SECONDS, each later
    one twice as long, never more than an hour."""
    return min(3600, settings.EMAIL_RETRY_BASE_SECONDS * 2**retries)


@shared_task(bind=True, max_retries=8, acks_late=True)
def task_send_notification(self, *, notification_id: int) -> bool:
    """Send one outbox email; on an SMTP error retry with exponential backoff."""
    countdown = email_retry_countdown(self.request.retries)
    try:
        return notifications.send_notification(notification_id, retry_in=countdown)
    except Exception as error:
        # Celery logs the exception it retries on, and raises it after the last retry: this
        # one tells the error without the address a mail server's refusal may name.
        failed = notifications.EmailFailed(notifications.failure_in_words(error))
        raise self.retry(exc=failed, countdown=countdown) from error


@shared_task
def task_sweep_deadlines() -> dict[str, int]:
    """Beat: award timeouts and send 80% reminders."""
    return services.sweep_deadlines()


@shared_task
def task_expire_challenges() -> int:
    """Beat: close the challenges nobody has accepted in time
    (games.models.CHALLENGE_DAYS); returns how many."""
    return services.expire_challenges()


@shared_task
def task_resend_unsent() -> int:
    """Beat: re-queue emails whose task was lost (worker killed, broker restarted); not
    turn emails, which have no task: the turn email sweep sends those."""
    ids = notifications.unsent()
    for notification_id in ids:
        task_send_notification.delay(notification_id=notification_id)
    return len(ids)


#: The hours of a player's morning in which their digest may go out, from DIGEST_HOUR.
DIGEST_HOURS = 3


@shared_task
def task_daily_digest(now: str | None = None) -> int:
    """Beat, every hour: the digest email for each player who chose it (and has confirmed
    their address: games.notifications._queue) and whose own clock
    (their timezone) is in the DIGEST_HOURS from settings.DIGEST_HOUR (8:00 to 10:59 by
    default), once per day of theirs (the email's key holds that day); returns how many players were
    due. ``now``: an ISO datetime standing for the present (tests).

    Those hours after it catch a run beat missed (a restart, an hour down); no later, as
    a player with nothing waiting at 8 would otherwise get their "morning" email in the
    evening, when a move came in the afternoon (the settings promise it each morning)."""
    from accounts.models import User

    moment = datetime.fromisoformat(now) if now else timezone.now()
    users = User.objects.filter(
        email_preference=User.EmailPreference.DIGEST,
        is_active=True,
        email_confirmed_at__isnull=False,
    )
    due = []
    for user in users.iterator():
        local = moment.astimezone(user.zone or UTC)
        if settings.DIGEST_HOUR <= local.hour < settings.DIGEST_HOUR + DIGEST_HOURS:
            due.append((user, local.date().isoformat()))
    # Those whose digest of their day is written already are skipped in one query: the
    # task runs every hour, and each player gets one a day.
    keys = {notifications.digest_key(user.pk, day) for user, day in due}
    done = set(Notification.objects.filter(key__in=keys).values_list("key", flat=True))
    for user, day in due:
        if notifications.digest_key(user.pk, day) not in done:
            notifications.daily_digest(user, today=day)
    return len(due)


@shared_task(acks_late=True)
def task_play_bot_turn(*, match_id: int, segment: int) -> int:
    """Let the bot to move play its turn; a no-op unless it is still at ``segment``, so a
    retried or duplicated task never plays twice (services.play_bot_turn)."""
    return services.play_bot_turn(match_id, segment=segment)


@shared_task
def task_queue_stuck_bot_turns() -> int:
    """Beat: queue again bot turns whose task was lost (a crashed worker, a lost message)."""
    return services.queue_stuck_bot_turns()


@shared_task
def task_start_due_tournaments() -> dict[str, int]:
    """Beat: start tournaments whose sign-up deadline has passed (or cancel them: too few
    players)."""
    from .tournaments.services import start_due_tournaments

    return start_due_tournaments()


@shared_task
def task_forget_idempotency_keys() -> int:
    """Beat: delete the one-time keys of requests sent once that have expired
    (games.idempotency.KEY_LIFETIME); returns how many."""
    return idempotency.forget_expired()


@shared_task
def task_finish_closures() -> int:
    """Beat: end the play of closed or deactivated accounts that something still waits on
    (games.closing.finish_interrupted)."""
    return closing.finish_interrupted()


@shared_task
def task_forget_old_emails() -> int:
    """Beat: delete the emails sent or dropped more than notifications.EMAILS_KEPT ago
    (their whole bodies are kept until then); returns how many."""
    return notifications.forget_old_emails()


@shared_task
def task_clear_expired_sessions() -> None:
    """Beat: delete the expired sessions (what Django's clearsessions command does): an
    expired session is never read again, but its row stays until deleted."""
    import_module(settings.SESSION_ENGINE).SessionStore.clear_expired()


@shared_task(acks_late=True)
def task_sweep_turn_emails() -> int:
    """Send the turn emails that are due (notifications.send_due_turn_emails): woken after
    a turn's commit, and from beat; returns how many were sent."""
    return notifications.send_due_turn_emails()
