"""Time away: a player stops their clocks for a while (a holiday, a move, a hospital stay),
up to ``settings.AWAY_DAYS_PER_YEAR`` days a calendar year.

While a player is away:

- each match waiting for their move keeps the time it had left: its deadline moves on by
  the time away, and its 80% reminder is due again by the new deadline (on their return
  if they come back with less than a fifth of the time per move left, even if it went out
  before they left);
- a match whose turn passes to them starts their clock when they are back;
- no timeout is awarded against them.

Coming back early gives the time not used back to their opponents: the clocks run again
from then, and only the days used count against the allowance.

``User.away_until`` says whether a player is away now; :class:`~games.models.Absence` rows
are the record the allowance is counted from.
"""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta
from functools import cache
from typing import TYPE_CHECKING

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from aceysite.sql import Table, fetch_one

from . import notifications
from .models import Absence, Match

if TYPE_CHECKING:
    from accounts.models import User

DAY = timedelta(days=1)


class AwayError(ValueError):
    """Time away refused; the message says why, for the player."""


class AlreadyAway(AwayError):
    """Time away asked for by a player who is away already."""


class NotAway(AwayError):
    """A return asked for by a player who is not away."""


def days_charged(starts_at: datetime, ends_at: datetime) -> int:
    """Whole days an absence asked for needs from the allowance: any part of a day is a
    day.

    >>> from datetime import datetime, UTC
    >>> days_charged(datetime(2026, 7, 1, 9, tzinfo=UTC), datetime(2026, 7, 3, 8, tzinfo=UTC))
    2
    """
    return math.ceil((ends_at - starts_at) / DAY)


def days_left(user: User, *, now: datetime | None = None) -> int:
    """Days of time away ``user`` has left in this calendar year (UTC); an absence counts
    in the year it began.

    The year's absences are added up first and the total charged in whole days (any part
    of a day a day): charged one by one, each short absence would cost a day of its own,
    and a player who went away by mistake and came straight back, twice, lost two days
    for minutes away.
    """
    used = _used_this_year(user, now or timezone.now())
    return max(settings.AWAY_DAYS_PER_YEAR - math.ceil(used / DAY), 0)


def _used_this_year(user: User, now: datetime) -> timedelta:
    """The time away ``user``'s absences begun in ``now``'s calendar year (UTC) add up to."""
    # Bounds in UTC: a __year lookup would follow the request's timezone.
    year = datetime(now.astimezone(UTC).year, 1, 1, tzinfo=UTC)
    this_year = Absence.objects.filter(
        user=user, starts_at__gte=year, starts_at__lt=year.replace(year=year.year + 1)
    )
    return sum((absence.ends_at - absence.starts_at for absence in this_year), timedelta())


def clock_start(player_id: int, now: datetime) -> datetime:
    """When the clock of a player whose turn it has just become starts: now, or when they
    are back if they are away.

    Read from the database, not from a user row loaded with the match: a player going away
    first waits for the matches they play in (see :func:`go_away`), so a turn that waited
    for that reads their return here.
    """
    (player,) = fetch_one(*_away_until_statement(), [player_id])
    away_until = player.away_until  # type: ignore[union-attr]
    return max(now, away_until) if away_until else now


@cache
def _away_until_statement() -> tuple[tuple[Table], str]:
    """:func:`clock_start`'s table and SQL: ``User.objects.values_list("away_until",
    flat=True).get(pk=...)`` written by hand (aceysite.sql: it is read on every turn, and
    the ORM's query cost 0.5 ms of CPU)."""
    from accounts.models import User

    (user,) = tables = (Table(User, "u", ["away_until"]),)
    return tables, f"SELECT {user.columns} FROM {user} WHERE {user.column('id')} = %s"


def go_away(user: User, *, until: datetime, now: datetime | None = None) -> Absence:
    """Stop ``user``'s clocks from now until ``until``.

    Raises :class:`AwayError` for a bot, a player already away (:class:`AlreadyAway`), a
    return not in the future, or more days than the allowance has left.
    """
    now = now or timezone.now()
    if user.is_bot:
        raise AwayError("bots do not take time away")
    if until <= now:
        raise AwayError("choose a return in the future")
    with transaction.atomic():
        player, matches = _lock(user)
        if player.is_away(now):
            raise AlreadyAway(
                f"you are already away until {_local(player.away_until, player)}:"
                " come back first to change it"
            )
        # Added to the year's time away before it is charged, as days_left counts it: 12
        # hours used and 29 days 9 hours asked for make 30 days, not 1 and 30.
        used = _used_this_year(player, now)
        if math.ceil((used + (until - now)) / DAY) > settings.AWAY_DAYS_PER_YEAR:
            needed, left = days_charged(now, until), days_left(player, now=now)
            raise AwayError(f"that is {_days(needed)} away; you have {_days(left)} left this year")
        # A deadline already passed stays passed: the time ran out before they left, and
        # the sweep awards the match.
        _move_clocks(user, matches, beyond=now, by=until - now)
        player.away_until = until
        player.save(update_fields=["away_until"])
        absence = Absence.objects.create(user=player, starts_at=now, ends_at=until)
        # Not a match whose time ran out before they left: it waits for nobody, lost on time
        # at the sweep's next turn.
        going_on = [
            match
            for match in matches
            if not (match.to_move_id == player.pk and match.deadline_passed(now))
        ]
        notifications.opponent_away(player, going_on, until=until, key=str(absence.pk))
    user.away_until = until
    return absence


def come_back(user: User, *, now: datetime | None = None) -> None:
    """End ``user``'s time away now: their clocks run again, with the time they had left.

    Raises :class:`NotAway` (an :class:`AwayError`) if they are not away.
    """
    now = now or timezone.now()
    with transaction.atomic():
        player, matches = _lock(user)
        if not player.is_away(now):
            raise NotAway("you are not away")
        back = player.away_until
        assert back is not None
        # Only clocks the absence stopped run on the return: a deadline moved when they
        # left, or set while they were away, lies beyond it (one that had passed does not).
        _move_clocks(user, matches, beyond=back, by=now - back)
        Absence.objects.filter(user=player, ends_at=back).update(ends_at=now)
        player.away_until = None
        player.save(update_fields=["away_until"])
    user.away_until = None


def _lock(user: User) -> tuple[User, list[Match]]:
    """Lock ``user``'s row and their active matches, in an order that cannot deadlock.

    The matches first: a turn holding one finishes before this goes on (and its deadline
    is moved here), one that comes after waits, then reads their return (clock_start);
    a match being finished may start the next tournament match, which locks its players
    (start_match), so the user's row must not be held while waiting for it. Then the
    user's row: a match being started for them finishes first. Then the matches again,
    now including any such new one. Always in primary-key order, like any two players
    going away at once who share matches.
    """
    from accounts.models import User

    involving = Match.objects.active().involving(user).select_for_update().order_by("pk")
    list(involving)
    player = User.objects.select_for_update().get(pk=user.pk)
    return player, list(involving.all())


def _move_clocks(user: User, matches: list[Match], *, beyond: datetime, by: timedelta) -> None:
    """Move by ``by`` the deadline of each of ``matches`` that waits for ``user`` with a
    deadline later than ``beyond``, and set its reminder by the new deadline."""
    waiting = [
        match
        for match in matches
        if match.to_move_id == user.pk and match.deadline and match.deadline > beyond
    ]
    # When the clocks run again: the planned return on leaving, now on coming back early.
    runs_from = beyond + by
    for match in waiting:
        match.deadline += by
        # Set again even if the reminder went before they left: a player back with little
        # time left is reminded on their return, not left to lose on time unwarned.
        match.set_reminder(clock_runs_from=runs_from)
    Match.objects.bulk_update(waiting, ["deadline", "remind_at"])


def _days(n: int) -> str:
    return f"{n} day" if n == 1 else f"{n} days"


def _local(moment: datetime, user: User) -> str:
    local = timezone.localtime(moment, user.zone or timezone.get_current_timezone())
    return f"{local:%-d %b %Y %H:%M}"
