"""Leaderboard pages: established ratings per variant, best first."""

from __future__ import annotations

from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.views.decorators.http import require_GET

from .models import PlayerRating, Variant
from .ratings.store import as_of

PAGE_SIZE = 50


@require_GET
def leaderboard(request: HttpRequest, variant: str = Variant.AMERICAN) -> HttpResponse:
    """Players with an established rating, paginated: RD at most the provisional threshold
    once grown for the time since they last played, as their profile shows it
    (``established_until``, which the row keeps), each shown with that grown RD.

    Two queries whatever the number of players or matches: the count and the page.
    """
    if variant not in Variant.values:
        raise Http404("no such variant")
    now = timezone.now()
    ratings = (
        # Not closed accounts (games.closing): the ladder is of players who can be played.
        PlayerRating.objects.filter(
            variant=variant, established_until__gt=now, user__is_active=True
        )
        .select_related("user")
        .order_by("-rating", "user__username")
    )
    page = Paginator(ratings, PAGE_SIZE).get_page(request.GET.get("page"))
    first_rank = (page.number - 1) * PAGE_SIZE + 1
    # The RD as of now, as the profile shows it (games.ratings.profile), not the stored
    # one of the last rated match: an idle player's is larger.
    rows = [(first_rank + i, row, as_of(row, now)) for i, row in enumerate(page.object_list)]
    return render(
        request,
        "games/leaderboard.html",
        {"variant": variant, "variants": Variant.choices, "page": page, "rows": rows},
    )
