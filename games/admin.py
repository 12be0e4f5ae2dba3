"""The admin's view of games: matches, challenges, blocks and the email outbox, to read.

Matches and challenges change only through the services (the engine checks every segment),
so the admin shows them without editing. An email that failed shows its last error, and
staff allowed to change emails can have an unsent one sent now.
"""

from __future__ import annotations

from django.contrib import admin, messages
from django.db.models import Q, QuerySet
from django.http import HttpRequest
from django.utils import timezone

from .models import Block, Challenge, Match, Notification


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:
        return False


@admin.register(Match)
class MatchAdmin(ReadOnlyAdmin):
    list_display = ("pk", "white", "black", "variant", "points", "status", "to_move", "deadline")
    list_filter = ("status", "variant", "rated")
    search_fields = ("white__username", "black__username")
    list_select_related = ("white", "black", "to_move")
    # The seed decides every roll still to come: staff who could read it in play could
    # tell a player their dice. Shown once the match is over, as the dice page shows it.
    exclude = ("server_seed",)
    readonly_fields = ("seed",)

    @admin.display(description="server seed")
    def seed(self, match: Match) -> str:
        return match.revealed_seed or f"secret until the match ends (SHA-256 {match.seed_hash})"


@admin.register(Challenge)
class ChallengeAdmin(ReadOnlyAdmin):
    list_display = ("pk", "challenger", "opponent", "variant", "points", "status", "private")
    list_filter = ("status", "variant", "private")
    search_fields = ("challenger__username", "opponent__username")
    list_select_related = ("challenger", "opponent")


@admin.register(Block)
class BlockAdmin(ReadOnlyAdmin):
    """Who has blocked whom (games.blocks): the players make and take back their own."""

    list_display = ("blocker", "blocked", "created_at")
    search_fields = ("blocker__username", "blocked__username")
    list_select_related = ("blocker", "blocked")
    date_hierarchy = "created_at"


@admin.register(Notification)
class NotificationAdmin(ReadOnlyAdmin):
    list_display = ("kind", "user", "subject", "created_at", "sent_at", "attempts", "last_error")
    list_filter = (
        "kind",
        ("sent_at", admin.EmptyFieldListFilter),
        ("cancelled_at", admin.EmptyFieldListFilter),
    )
    search_fields = ("user__username", "user__email", "subject", "key")
    list_select_related = ("user",)
    actions = ("send_again",)

    @admin.action(description="Send the selected unsent emails now", permissions=["send"])
    def send_again(self, request: HttpRequest, queryset: QuerySet[Notification]) -> None:
        """Queue a sending task for each selected email that is unsent and free. One that
        is held (being sent, waiting for its retry or for a turn email's delay) is left to
        its holder: taking it over could send it twice."""
        from aceysite.celery import queue

        from .tasks import task_send_notification

        unsent = queryset.filter(sent_at=None, cancelled_at=None)
        free = unsent.filter(Q(claimed_until=None) | Q(claimed_until__lte=timezone.now()))
        ids = list(free.values_list("pk", flat=True))
        # With the broker down, say so rather than fail the page: beat's resend sweep
        # queues them once it is back.
        queued = sum(queue(task_send_notification, notification_id=pk) for pk in ids)
        held = unsent.count() - len(ids)
        if queued < len(ids):
            self.message_user(
                request,
                f"{len(ids) - queued} email(s) could not be queued: the task queue (Redis) is"
                " unreachable. They go out by themselves once it is back.",
                messages.WARNING,
            )
        self.message_user(
            request,
            f"{queued} email(s) queued to be sent"
            + (f"; {held} held, to go out on their own." if held else "."),
            messages.SUCCESS,
        )

    def has_send_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm("games.change_notification")
