"""A player's tournaments, as their profile and their dashboard list them."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING

from django.db.models import Count, F

from .models import Entry, Tournament

if TYPE_CHECKING:
    from collections.abc import Collection

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


def current_entries(person: User) -> list[Entry]:
    """``person``'s entries in tournaments open or running, those running first, the
    earliest begun first; in one query whatever their number."""
    return list(
        Entry.objects.filter(
            user=person,
            tournament__status__in=[Tournament.Status.OPEN, Tournament.Status.RUNNING],
        )
        .select_related("tournament__champion")
        # Open ones have no start yet: last, on any database.
        .order_by(
            F("tournament__started_at").asc(nulls_last=True),
            "tournament__signup_deadline",
            "tournament__pk",
        )
    )


class Standing(StrEnum):
    """Where a player stands in a tournament of theirs, for their dashboard."""

    SIGNED_UP = "signed_up"  # it has not started
    PLAYING = "playing"  # a match of theirs in it is in play
    WAITING = "waiting"  # still in, their next match not yet begun
    OUT = "out"  # knocked out; it goes on without them


def dashboard_tournaments(person: User, *, playing: Collection[int]) -> list[tuple[Entry, str]]:
    """``person``'s tournaments not over, each with where they stand (:class:`Standing`),
    for their dashboard: one who waits for a round to end, or has signed up for one to
    come, has no match card to find it by. ``playing``: the ids of the tournaments with a
    match of theirs in play (the dashboard's cards have them). Withdrawals are left out:
    the player is done with those. One query; the draws are read from their rows."""
    shown: list[tuple[Entry, str]] = []
    for entry in current_entries(person):
        tournament = entry.tournament
        if entry.withdrawn:
            continue
        if tournament.is_open:
            standing = Standing.SIGNED_UP
        elif tournament.pk in playing:
            standing = Standing.PLAYING
        else:
            draw = tournament.draw()
            in_it = draw is not None and draw.in_contention(person.pk)
            standing = Standing.WAITING if in_it else Standing.OUT
        shown.append((entry, standing))
    return shown


def player_tournaments(person: User) -> PlayerTournaments:
    """The tournaments ``person`` entered (cancelled ones left out: nobody played them to
    the end), in three queries whatever their number."""
    entries = Entry.objects.filter(user=person).select_related("tournament__champion")
    current = current_entries(person)
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
