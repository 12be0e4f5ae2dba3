"""A player's ratings and record for the profile page, in a fixed number of queries."""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

import pygal
from django.db.models import Case, Count, F, Max, Min, Q, Sum, When
from django.utils import timezone

from .glicko2 import Rating, is_provisional
from .store import as_of, display

if TYPE_CHECKING:
    from xml.etree.ElementTree import Element

    from accounts.models import User

#: The chart shows at most this many of the latest rated matches.
CHART_POINTS = 200
#: The chart's size in pixels, as the profile's <img> gives it: a phone shows it at three
#: quarters of that (drawn 640 wide, its labels were read at half their size).
CHART_WIDTH, CHART_HEIGHT = 480, 240


@dataclass(frozen=True)
class VariantRecord:
    """One variant's row of the profile's table: the rating beside the record it rates."""

    variant: str
    label: str
    rating: Rating | None
    shown: str  # "1623" or "1623?" (provisional), "—" when unrated
    provisional: bool
    # Rated matches only (PlayerRating's counts, as the leaderboard shows them): the
    # record the rating stands for.
    rated_wins: int
    rated_losses: int
    # Every finished match, rated or not.
    wins: int
    losses: int
    points_for: int
    points_against: int
    # The rating's history, which the chart draws, in words (its text alternative).
    history: RatingHistory | None = None


@dataclass(frozen=True)
class RatingHistory:
    """A variant's rating history in figures: how many rated matches changed it since
    when, and the lowest and highest it has been after one."""

    changes: int
    since: datetime
    low: float
    high: float


def variant_records(person: User) -> list[VariantRecord]:
    """Rating (RD grown for idleness) and rated wins and losses, then wins, losses and
    points over all finished matches, rated or not, and the rating's history in figures,
    per variant: three queries."""
    from games.models import Match, PlayerRating, RatingChange, Variant

    now = timezone.now()
    stored = {row.variant: row for row in PlayerRating.objects.filter(user=person)}
    ratings = {variant: as_of(row, now) for variant, row in stored.items()}
    mine = Q(white=person)
    totals = {
        row["variant"]: row
        for row in Match.objects.finished()
        .involving(person)
        .values("variant")
        .annotate(
            wins=Count("pk", filter=Q(winner=person)),
            losses=Count("pk", filter=~Q(winner=person)),
            points_for=Sum(Case(When(mine, then=F("score_white")), default=F("score_black"))),
            points_against=Sum(Case(When(mine, then=F("score_black")), default=F("score_white"))),
        )
        .order_by()
    }
    histories = {
        row["variant"]: RatingHistory(row["changes"], row["since"], row["low"], row["high"])
        for row in RatingChange.objects.filter(user=person)
        .values("variant")
        .annotate(
            changes=Count("pk"),
            since=Min("created_at"),
            low=Min("rating_after"),
            high=Max("rating_after"),
        )
        .order_by()
    }
    records = []
    for variant, label in Variant.choices:
        rating = ratings.get(variant)
        row = totals.get(variant, {})
        rated = stored.get(variant)
        records.append(
            VariantRecord(
                variant=variant,
                label=label,
                rating=rating,
                shown=display(rating) if rating else "—",
                provisional=rating is None or is_provisional(rating),
                rated_wins=rated.wins if rated else 0,
                rated_losses=rated.losses if rated else 0,
                wins=row.get("wins", 0),
                losses=row.get("losses", 0),
                points_for=row.get("points_for") or 0,
                points_against=row.get("points_against") or 0,
                history=histories.get(variant),
            )
        )
    return records


def head_to_head(person: User, viewer: User) -> dict[str, int] | None:
    """``person``'s finished matches against ``viewer``: one query, None for oneself."""
    from games.models import Match

    if not viewer.is_authenticated or viewer.pk == person.pk:
        return None
    between = Match.objects.finished().filter(
        Q(white=person, black=viewer) | Q(white=viewer, black=person)
    )
    return between.aggregate(
        played=Count("pk"),
        person_won=Count("pk", filter=Q(winner=person)),
        viewer_won=Count("pk", filter=Q(winner=viewer)),
    )


def rating_chart_svg(person: User, variant: str) -> bytes:
    """The rating history of ``person`` in ``variant`` as an SVG chart (pygal)."""
    from games.models import RatingChange, Variant

    changes = list(
        RatingChange.objects.filter(user=person, variant=variant)
        .order_by("-created_at")
        .values_list("created_at", "rating_before", "rating_after")[:CHART_POINTS]
    )[::-1]
    # The line starts from the rating before the first match drawn (1500 for a new
    # player), dated as that match: from the first match's rating on, that match's own
    # move was not drawn.
    points = [(changes[0][0], changes[0][1])] if changes else []
    points += [(when, after) for when, _, after in changes]
    chart = pygal.Line(
        width=CHART_WIDTH,
        height=CHART_HEIGHT,
        show_legend=False,
        show_dots=len(changes) < 40,
        x_label_rotation=0,
        show_minor_x_labels=False,
        show_minor_y_labels=False,
        y_labels_major_count=5,
        # Whole dates (pygal shortens labels it thinks too wide), with room on the right
        # for the last one, which is centred on the last point.
        truncate_label=-1,
        margin_right=60,
        js=[],  # a static image: no scripts of pygal's (its config script: _no_scripts)
        title=f"{person} — {Variant(variant).label} rating",
        # The image is shrunk to fit a phone (366 of its 480 px): labels of pygal's 10 px
        # would be read at 7.5, these at 12.
        style=pygal.style.CleanStyle(
            label_font_size=16, major_label_font_size=16, title_font_size=20
        ),
    )
    # Four dates fit across a phone at this size: short ones within a year, else months.
    within_a_year = points and points[-1][0] - points[0][0] < timedelta(days=330)
    when_format = "%-d %b" if within_a_year else "%b %Y"
    # Every k-th point is labelled, the others get a blank label that pygal does not draw.
    # Not x_labels_major_every alone: pygal draws every label whose *text* is a major
    # label's, so twenty matches on one date drew that date twenty times, overlapping.
    # A date already labelled is not labelled again ("3 Dec 3 Dec 3 Dec" for matches all
    # played on one day).
    every = max(1, math.ceil(len(points) / 4))
    labels: list[str] = []
    for i, (when, _) in enumerate(points):
        text = when.strftime(when_format) if i % every == 0 else ""
        labels.append("" if text in labels else text)
    chart.x_labels = labels
    # The dates drawn: pygal takes a label for major by its text, so blanks are left out.
    chart.x_labels_major = [label for label in labels if label]
    chart.add("rating", [round(rating) for _, rating in points] or [None])
    chart.add_xml_filter(_no_scripts)
    return chart.render()


def _no_scripts(root: Element) -> Element:
    """The chart's SVG tree without its <script> elements. Whatever ``js`` says, pygal
    writes its config into one; the image's Content-Security-Policy allows no script, so
    a browser opening the image on its own would log it as refused."""
    for parent in list(root.iter()):
        for child in list(parent):
            if child.tag == "script":
                parent.remove(child)
    return root
