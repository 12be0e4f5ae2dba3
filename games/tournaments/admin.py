from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest

from .models import Entry, Tournament, TournamentMatch


class EntryInline(admin.TabularInline):
    """A tournament's entries, the player shown, not chosen: an entry is made by signing up
    (games.tournaments.services, which checks the tournament is open and has room). A
    raw id field would look up each row's player with a query of its own, 64 of them on a
    64-player tournament's page; shown read-only, the player comes with the entries."""

    model = Entry
    extra = 0
    fields = ("user", "seed", "rating", "withdrawn", "created_at")
    readonly_fields = ("user",)

    def get_queryset(self, request: HttpRequest) -> QuerySet[Entry]:
        # Each row is headed by the entry's name, which names its player and tournament.
        return super().get_queryset(request).select_related("user", "tournament")

    def has_add_permission(self, request: HttpRequest, obj: Tournament | None = None) -> bool:
        return False


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ("name", "format", "variant", "status", "signup_deadline", "champion")
    list_filter = ("status", "format", "variant")
    search_fields = ("name", "organiser__username")
    raw_id_fields = ("organiser", "champion")
    readonly_fields = ("state",)
    inlines = (EntryInline,)


@admin.register(TournamentMatch)
class TournamentMatchAdmin(admin.ModelAdmin):
    list_display = ("tournament", "slot_id", "match")
    raw_id_fields = ("tournament", "match")
    # A match is named by its two players.
    list_select_related = ("tournament", "match__white", "match__black")
