"""Ratings on the profile page and the rating history chart."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from datetime import datetime, timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games import services
from games.engine import Position
from games.engine.game import ScriptedDice
from games.models import Match, RatingChange
from tests.matches import each_moves, opened_by_white

pytestmark = pytest.mark.django_db


@pytest.fixture
def rated_result(alice, bob):
    match = each_moves(opened_by_white(alice, bob, variant="greek"))
    services.resign(match.pk, user=bob)
    return match


def test_the_profile_shows_a_provisional_rating_with_a_question_mark(client, rated_result):
    response = client.get(reverse("profile", args=["alice"]))

    assert "1662?" in response.text
    assert reverse("rating_chart", args=["alice", "greek"]) in response.text
    assert (
        'A "?" marks a provisional rating (few or long-ago rated matches): it moves a long way'
        " with each match, the more so the longer the match." in response.text
    )


def test_the_charts_figures_are_in_words_beside_it(client, alice, bob, rated_result):
    again = each_moves(opened_by_white(alice, bob, variant="greek"))
    services.resign(again.pk, user=alice)  # bob wins the second: alice's rating drops
    ratings = list(
        RatingChange.objects.filter(user=alice)
        .order_by("created_at")
        .values_list("rating_after", flat=True)
    )
    since = timezone.localtime(
        RatingChange.objects.filter(user=alice).earliest("created_at").created_at
    )

    text = " ".join(client.get(reverse("profile", args=["alice"])).text.split())

    assert "alt=\"Chart of alice's Greek" in text
    caption = re.search(r'<figcaption id="chart-greek"[^>]*>(.*?)</figcaption>', text).group(1)
    assert re.sub(r"<[^>]+>", "", caption) == (
        f"Greek: 2 rated matches since {since:%-d %b %Y}, lowest {min(ratings):.0f},"
        f" highest {max(ratings):.0f}, now {ratings[-1]:.0f}?."
    )
    assert max(ratings) > min(ratings)


def test_the_rating_chart_is_an_svg_image_of_the_history(client, rated_result):
    response = client.get(reverse("rating_chart", args=["bob", "greek"]))

    assert response["Content-Type"] == "image/svg+xml"
    assert response.content.startswith(b"<?xml") and b"<svg" in response.content
    assert b"1338" in response.content
    assert client.get("/players/bob/rating-chess.svg").status_code == 404


def test_the_rating_chart_starts_from_the_rating_before_the_first_match(client, rated_result):
    # One match: a line from 1500 to 1338, not a lone point at 1338.
    svg = client.get(reverse("rating_chart", args=["bob", "greek"])).content

    ns = {"svg": "http://www.w3.org/2000/svg"}
    values = [desc.text for desc in ET.fromstring(svg).iterfind(".//svg:desc[@class='value']", ns)]
    assert values == ["1500", "1338"]


def test_the_rating_charts_labels_are_readable_once_shrunk_to_a_phone(client, rated_result):
    svg = client.get(reverse("rating_chart", args=["bob", "greek"])).content.decode()

    axis = r"\.axis text(?:\.major)?\{[^}]*?font-size:(\d+)px"
    title = r"\.title\{[^}]*?font-size:(\d+)px"
    sizes = [int(size) for size in re.findall(axis, svg) + re.findall(title, svg)]
    # Shown 390 px wide of its 640: a 16 px label reads at about 10 px.
    assert len(sizes) == 3 and min(sizes) >= 16, sizes


def _history(white, black, times: list[datetime]) -> None:
    """A rated history of ``white``'s, one match at each of ``times``: rows written
    directly, as rating them one by one through services would take long."""
    for n, when in enumerate(times):
        match = Match.objects.create(
            variant="american",
            points=1,
            white=white,
            black=black,
            position=Position.initial("american").to_dict(),
            status=Match.Status.FINISHED,
            winner=white,
            finished_at=when,
        )
        RatingChange.objects.create(
            match=match,
            user=white,
            variant="american",
            rating_before=1500 + n,
            rating_after=1501 + n,
            rd_before=100,
            rd_after=100,
            created_at=when,
        )


def _x_labels(svg: bytes) -> list[str]:
    """The x-axis labels the chart draws, in order."""
    ns = {"svg": "http://www.w3.org/2000/svg"}
    axis = ET.fromstring(svg).find(".//svg:g[@class='axis x']", ns)
    assert axis is not None
    return [text.text or "" for text in axis.iterfind(".//svg:text", ns)]


@pytest.mark.parametrize(("days", "dates"), [(0, [1]), (20, [3, 4])], ids=["one-date", "months"])
def test_the_rating_chart_shows_at_most_four_date_labels_each_once(client, alice, bob, days, dates):
    # Twenty matches on one date, or over a year and more (labelled by month, a month's
    # matches alike), drew overlapping labels: pygal takes every label whose text is a
    # major label's for major. And one date labelled at four places read "3 Dec 3 Dec ...".
    start = timezone.now().replace(hour=12) - timedelta(days=700)
    _history(alice, bob, [start + timedelta(days=days * n, minutes=n) for n in range(20)])

    labels = _x_labels(client.get(reverse("rating_chart", args=["alice", "american"])).content)

    assert len(labels) in dates, labels
    assert all(labels) and len(set(labels)) == len(labels), labels


def test_the_finished_match_page_shows_both_rating_changes(client, rated_result):
    response = client.get(rated_result.get_absolute_url())

    assert "1500? → <strong>1662?</strong> (+162)" in response.text
    assert "1500? → <strong>1338?</strong> (-162)" in response.text


def test_the_match_finished_email_tells_each_player_their_new_rating(
    alice, bob, django_capture_on_commit_callbacks, mailoutbox
):
    match = services.start_match(
        white=alice,
        black=bob,
        variant="greek",
        points=1,
        days_per_move=2,
        dice=ScriptedDice([5, 2, 6, 3]),
    )
    match = each_moves(match)

    with django_capture_on_commit_callbacks(execute=True):
        services.resign(match.pk, user=bob)

    finished = {m.to[0]: m.body for m in mailoutbox if "is over" in m.subject}
    assert "Your Greek rating: 1500? -> 1662? (+162)" in finished["alice@example.com"]
    assert "Your Greek rating: 1500? -> 1338? (-162)" in finished["bob@example.com"]


def test_the_record_beside_a_rating_counts_rated_matches_only(client, alice, bob, rated_result):
    # Besides the rated greek win: a casual greek loss, which the rating never saw.
    Match.objects.create(
        variant="greek",
        points=1,
        rated=False,
        white=alice,
        black=bob,
        position=Position.initial("greek").to_dict(),
        status=Match.Status.FINISHED,
        winner=bob,
        score_black=1,
        finished_at=timezone.now(),
    )

    response = client.get(reverse("profile", args=["alice"]))

    greek = {r.variant: r for r in response.context["records"]}["greek"]
    # Rated 1-0, as the leaderboard counts (PlayerRating); all matches 1-1.
    assert (greek.rated_wins, greek.rated_losses, greek.wins, greek.losses) == (1, 0, 1, 1)
    row = re.search(r"<th scope=\"row\">Greek</th>(.*?)</tr>", response.text).group(1)
    assert re.findall(r"<td>(\d+\u2013\d+)</td>", row)[:2] == ["1\u20130", "1\u20131"]
    assert "Rated won\u2013lost" in response.text and "All won\u2013lost" in response.text


def test_the_rating_chart_has_no_script(client, rated_result):
    # Its Content-Security-Policy allows none: opened on its own, a browser would log the
    # config script pygal writes (whatever its js=[] says) as refused.
    svg = client.get(reverse("rating_chart", args=["bob", "greek"])).content.decode()

    assert "<script" not in svg and "window.pygal" not in svg
    assert "<style" in svg and "1338" in svg  # the rest of the chart is all there
