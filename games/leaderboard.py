"""Leaderboard pages per variant: established ratings ranked best first, then the
provisional ones, listed apart and unranked."""

from __future__ import annotations

from typing import NamedTuple

from django.core.paginator import Paginator
from django.db.models import BooleanField, Case, Q, Value, When
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.views.decorators.http import require_safe

from .models import PlayerRating, Variant
from .ratings import Rating, glicko2
from .ratings.glicko2 import PROVISIONAL_RD
from .ratings.store import RATING_PERIOD, as_of

PAGE_SIZE = 50


class LeaderboardRow(NamedTuple):
    """One player's line: their rank (None for a provisional rating, which has none), the
    stored row (rating, wins, losses) and the rating as of now (its RD grown for idleness)."""

    rank: int | None
    row: PlayerRating
    current: Rating


@require_safe
def leaderboard(request: HttpRequest, variant: str = Variant.AMERICAN) -> HttpResponse:
    """The players who have a rating in ``variant``, paginated: those whose rating is
    established first, ranked best first, then those whose rating is still provisional.

    Established: RD at most the provisional threshold once grown for the time since they
    last played, as their profile shows it (``established_until``, which the row keeps);
    each row is shown with that grown RD. Provisional: rated matches played, but the RD
    still above the threshold (or grown back above it by idleness).

    Two queries whatever the number of players or matches: the count and the page.
    """
    if variant not in Variant.values:
        raise Http404("no such variant")
    now = timezone.now()
    established = Q(established_until__gt=now)
    # One list, established ratings first, paginated as one: pages stay two queries, and
    # the ranks of the established ratings run on from page to page. A serious game site
    # ranks only the ratings it is sure of (a player's first win or two can put a
    # provisional rating at the top by luck), but a ladder that shows nobody for weeks
    # looks dead: the provisional ratings come beneath, marked and unranked, so that they
    # are seen without being read as a place on the ladder.
    ratings = (
        # Not closed accounts (games.closing): the ladder is of players who can be played.
        PlayerRating.objects.filter(variant=variant, user__is_active=True)
        .filter(established | Q(matches__gt=0))
        # A Case, not the bare condition: a null established_until (provisional) would
        # compare as null, which PostgreSQL sorts first in a descending order.
        .annotate(
            established=Case(
                When(established, then=Value(True)),
                default=Value(False),
                output_field=BooleanField(),
            )
        )
        .select_related("user")
        .order_by("-established", "-rating", "user__username")
    )
    page = Paginator(ratings, PAGE_SIZE).get_page(request.GET.get("page"))
    first_rank = (page.number - 1) * PAGE_SIZE + 1
    ranked: list[LeaderboardRow] = []
    provisional: list[LeaderboardRow] = []
    for i, row in enumerate(page.object_list):
        # The RD as of now, as the profile shows it (games.ratings.profile), not the stored
        # one of the last rated match: an idle player's is larger.
        if row.established:
            ranked.append(LeaderboardRow(first_rank + i, row, as_of(row, now)))
        else:
            provisional.append(LeaderboardRow(None, row, as_of(row, now)))
    return render(
        request,
        "games/leaderboard.html",
        {
            "variant": variant,
            "variant_label": Variant(variant).label,
            "variants": Variant.choices,
            "page": page,
            "ranked": ranked,
            "provisional": provisional,
            "threshold": PROVISIONAL_RD,
            # The system's figures, for the page's account of how a rating is computed:
            # read from the code that uses them, so the page cannot tell other ones.
            "system": {
                "rating": glicko2.DEFAULT_RATING,
                "rd": glicko2.DEFAULT_RD,
                "volatility": glicko2.DEFAULT_VOLATILITY,
                "tau": glicko2.DEFAULT_TAU,
                "max_rd": glicko2.MAX_RD,
                "period_days": RATING_PERIOD.days,
            },
        },
    )
