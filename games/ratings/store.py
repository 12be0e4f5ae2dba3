"""Stored ratings: reading players' current ratings and rating a finished match.

The arithmetic is games.ratings.glicko2 (pure); this module keeps PlayerRating rows and
RatingChange history in step with it. Called from services.finish_match, inside the
transaction that finishes the match, so a match is rated exactly once.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING

from django.utils import timezone

from .glicko2 import PROVISIONAL_RD, SCALE, Rating, inflate_for_inactivity, rate_match

if TYPE_CHECKING:
    from games.models import Match, PlayerRating, RatingChange

#: One Glicko rating period for idle correspondence players: the RD grows per period.
RATING_PERIOD = timedelta(days=30)
#: "Never", in a date column.
NEVER = datetime(9000, 1, 1, tzinfo=UTC)
#: What the match page and the result's email say of a rated match that ended before both
#: players had moved (played_by_both).
UNPLAYED_UNRATED = "Ratings unchanged: the match ended before both players had moved."


def as_of(row: PlayerRating, now: datetime | None = None) -> Rating:
    """The row's rating with its RD grown for the time since it was last rated."""
    rating = Rating(row.rating, row.rd, row.volatility)
    if row.rated_at is None:
        return rating
    idle = ((now or timezone.now()) - row.rated_at) / RATING_PERIOD
    return inflate_for_inactivity(rating, idle) if idle > 0 else rating


def established_until(rating: Rating, rated_at: datetime | None) -> datetime | None:
    """Until when ``rating``, rated at ``rated_at``, stays established: its RD, grown for
    idleness as :func:`as_of` grows it, reaches PROVISIONAL_RD then. None if it is
    provisional already; far in the future if it never grows (never rated, no volatility).
    """
    if rating.rd > PROVISIONAL_RD:
        return None
    if rated_at is None or rating.volatility <= 0:
        return NEVER
    periods = ((PROVISIONAL_RD / SCALE) ** 2 - rating.phi**2) / rating.volatility**2
    return min(rated_at + RATING_PERIOD * min(periods, 12_000), NEVER)


def display(rating: Rating) -> str:
    """``1623`` for an established rating, ``1623?`` for a provisional one."""
    return f"{rating.rating:.0f}{'?' if rating.rd > PROVISIONAL_RD else ''}"


def rate_finished_match(match: Match, *, now: datetime | None = None) -> list[RatingChange]:
    """Update both players' ratings for a finished rated match (a resignation or a
    timeout is a loss), weighted by the match length, and store the changes; return them,
    which the players' emails quote: none for an unrated match, or for one that ended
    before both players had moved (:func:`played_by_both`)."""
    from games.models import PlayerRating, RatingChange

    if not match.rated or match.winner_id is None or not played_by_both(match):
        return []
    now = now or timezone.now()
    rows = {
        row.user_id: row
        for row in PlayerRating.objects.select_for_update().filter(
            user_id__in=[match.white_id, match.black_id], variant=match.variant
        )
    }
    for user_id in (match.white_id, match.black_id):
        if user_id not in rows:
            rows[user_id] = PlayerRating.objects.create(user_id=user_id, variant=match.variant)
    white, black = rows[match.white_id], rows[match.black_id]
    before_white, before_black = as_of(white, now), as_of(black, now)
    white_won = match.winner_id == match.white_id
    after_white, after_black = rate_match(
        before_white, before_black, white_won, points=match.points
    )
    changes = []
    for row, before, after, won in (
        (white, before_white, after_white, white_won),
        (black, before_black, after_black, not white_won),
    ):
        changes.append(
            RatingChange(
                match=match,
                user_id=row.user_id,
                variant=match.variant,
                rating_before=before.rating,
                rating_after=after.rating,
                rd_before=before.rd,
                rd_after=after.rd,
                created_at=now,
            )
        )
        row.rating, row.rd, row.volatility = after.rating, after.rd, after.volatility
        row.rated_at = now
        row.matches += 1
        row.wins += won
        row.losses += not won
        row.save()
    # Both in one INSERT.
    return RatingChange.objects.bulk_create(changes)


def played_by_both(match: Match) -> bool:
    """Whether each player of ``match`` has moved in it (a segment of their own, not one
    the server played for them). A match that ends before (resigned at once, its first
    turn let time out, a player's account closed) leaves the ratings as they were, as a
    game aborted does on other sites: otherwise a throwaway account could hand a rating
    a full win by challenging it and resigning, or closing the account, unplayed.
    """
    movers = (
        match.segments.filter(automatic=False)
        .exclude(player="")
        .order_by()  # DISTINCT would count the default ordering's columns too
        .values_list("player", flat=True)
        .distinct()
    )
    return len(set(movers)) == 2
