"""``manage.py recount_dice_tallies [username ...]``: count players' dice tallies afresh
from the rolls stored (games.tally.recount) and correct those that say otherwise; every
player who has played or has a tally, or those named. Safe to run again, and while the
site runs: each player is recounted in a transaction of their own."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db.models import Exists, OuterRef, QuerySet

from games.models import DiceTally, Match
from games.tally import recount

if TYPE_CHECKING:
    from accounts.models import User


class Command(BaseCommand):
    help = "Count players' dice tallies afresh from their stored rolls and correct them."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "usernames", nargs="*", help="the players to recount (everyone who has played without)"
        )

    def handle(self, *args, usernames: list[str], **options) -> None:
        counted = corrected = 0
        for player in _players(usernames).only("pk", "username").iterator():
            counted += 1
            if recount(player):
                corrected += 1
                self.stdout.write(f"Corrected {player.username}'s tally.")
        self.stdout.write(
            f"Recounted {counted} tall{'y' if counted == 1 else 'ies'}: {corrected} corrected."
        )


def _players(usernames: list[str]) -> QuerySet[User]:
    """The players named, or everyone who may have rolled; a CommandError for a name no
    account has, before anything is recounted."""
    users = get_user_model().objects.order_by("pk")
    if usernames:
        unknown = set(usernames) - set(
            users.filter(username__in=usernames).values_list("username", flat=True)
        )
        if unknown:
            raise CommandError(f"No such player: {', '.join(sorted(unknown))}. Nothing recounted.")
        return users.filter(username__in=usernames)
    # Those who have played, and any other with a tally: anyone else has rolled nothing.
    return users.filter(
        Exists(Match.objects.filter(white=OuterRef("pk")))
        | Exists(Match.objects.filter(black=OuterRef("pk")))
        | Exists(DiceTally.objects.filter(user=OuterRef("pk")))
    )
