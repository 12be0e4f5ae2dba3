from django.contrib import admin

from .models import Entry, Tournament, TournamentMatch


class EntryInline(admin.TabularInline):
    model = Entry
    extra = 0
    raw_id_fields = ("user",)


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
