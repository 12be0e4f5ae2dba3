"""A player's tournaments, as their profile lists them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.db.models import Count, F

from .models import Entry, Tournament

if TYPE_CHECKING:
    from accounts.models import User

#: How many of a player's finished tournaments their profile lists; a link leads to the
#: rest (games.tournaments.views.ended_tournaments).
LATEST_FINISHED = 5


@dataclass(frozen=True)
class PlayerTournaments:
    """``current``: the entries in tournaments open or running, the earliest begun first;
    ``finished``: the latest of those finished; ``more``: whether there are older ones;
    ``won``: how many the player won."""

    current: list[Entry]
    finished: list[Entry]
    more: bool
    won: int

    def __bool__(self) -> bool:
        return bool(self.current or self.finished)


def player_tournaments(person: User) -> PlayerTournaments:
    """The tournaments ``person`` entered (cancelled ones left out: nobody played them to
    the end), in three queries whatever their number."""
    entries = Entry.objects.filter(user=person).select_related("tournament__champion")
    current = list(
        entries.filter(tournament__status__in=[Tournament.Status.OPEN, Tournament.Status.RUNNING])
        # Those running first (open ones have no start yet: last on any database).
        .order_by(
            F("tournament__started_at").asc(nulls_last=True),
            "tournament__signup_deadline",
            "tournament__pk",
        )
    )
    finished = list(
        entries.filter(tournament__status=Tournament.Status.FINISHED).order_by(
            "-tournament__finished_at", "-tournament__pk"
        )[: LATEST_FINISHED + 1]
    )
    won = Tournament.objects.filter(status=Tournament.Status.FINISHED, champion=person).aggregate(
        won=Count("pk")
    )["won"]
    return PlayerTournaments(
        current=current,
        finished=finished[:LATEST_FINISHED],
        more=len(finished) > LATEST_FINISHED,
        won=won,
    )
