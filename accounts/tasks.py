"""Celery tasks of the accounts app: thin wrappers that take ids, as games.tasks' do."""

from __future__ import annotations

from celery import shared_task

from . import services


@shared_task(acks_late=True)
def task_send_password_reset(*, user_id: int | None) -> bool:
    """Send the account ``user_id`` a link to choose a new password, made here, so that no
    token goes through the broker; None (no account has the address asked for) sends
    nothing, but was queued all the same (:func:`accounts.services.ask_for_password_reset`).
    Whether a link went."""
    return services.send_password_reset(user_id)
