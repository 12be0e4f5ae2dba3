"""Small defects a phone walkthrough found: a comment shown on a page, "1 doubles", names
written right to left that scrambled the numbers beside them, and a rating chart whose
labels a phone shrank to a few pixels."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.template.loader import render_to_string
from django.test import RequestFactory
from django.urls import reverse

from games import services
from games.ratings.profile import CHART_HEIGHT, CHART_WIDTH
from games.verify import dice_statistics
from tests.matches import each_moves, opened_by_white

ARABIC = "الحلبي"
# What a 390px phone gives the profile's content (0.75rem of padding either side).
PHONE_CONTENT_WIDTH = 366


def _templates() -> list[Path]:
    folders = [Path(folder) for engine in settings.TEMPLATES for folder in engine["DIRS"]]
    folders += [Path(settings.BASE_DIR) / app / "templates" for app in ("accounts", "games")]
    return sorted(path for folder in folders if folder.is_dir() for path in folder.rglob("*.*"))


def test_no_template_has_a_comment_django_would_show_as_text():
    # {# ... #} ends on its own line or Django prints it: longer comments use {% comment %}.
    unclosed = [
        f"{path.relative_to(settings.BASE_DIR)}:{number}"
        for path in _templates()
        for number, line in enumerate(path.read_text().splitlines(), start=1)
        if "{#" in line and "#}" not in line[line.index("{#") :]
    ]

    assert len(_templates()) > 20
    assert unclosed == []


def _render(template: str, context: dict) -> str:
    request = RequestFactory().get("/")
    request.user = AnonymousUser()
    return render_to_string(template, context, request=request)


@pytest.mark.django_db
def test_the_dice_pages_count_one_double_and_one_acey_deucey_in_the_singular(alice, bob):
    match = opened_by_white(alice, bob)
    one_each = dice_statistics([(4, 4), (2, 1)])
    just_one = dice_statistics([(6, 5)])

    match_page = _render(
        "games/dice.html",
        {
            "match": match,
            "rows": [],
            "revealed": False,
            "stats": one_each,
            "per_player": {},
            "openings": 1,
        },
    )
    player_page = _render("games/player_dice.html", {"person": alice, "stats": just_one})
    text = " ".join((match_page + player_page).split())

    assert "2 rolls played, other than the opening roll: 1 double (about 0.3 expected)" in text
    assert "1 acey-deucey (about 0.1 expected)" in text
    assert "1 roll by <bdi>alice</bdi>, in all their matches" in text
    assert "0 doubles" in text and "0 acey-deuceys" in text
    assert "{#" not in match_page


@pytest.mark.django_db
def test_names_written_right_to_left_are_kept_apart_from_the_numbers_beside_them(
    client, alice, bob
):
    alice.display_name = ARABIC
    alice.save()
    opened_by_white(alice, bob)  # alice to move
    client.force_login(bob)

    dashboard = client.get(reverse("dashboard")).text
    alices_profile = client.get(reverse("profile", args=["alice"])).text
    bobs_profile = client.get(reverse("profile", args=["bob"])).text

    assert f"<bdi>{ARABIC}</bdi> v <bdi>bob</bdi>" in dashboard
    assert f"<h1><bdi>{ARABIC}</bdi>" in alices_profile
    assert f"<bdi>{ARABIC}</bdi> to move" in alices_profile
    assert f"><bdi>{ARABIC}</bdi></a>" in bobs_profile


@pytest.mark.django_db
def test_the_rating_charts_labels_are_readable_on_a_phone(client, alice, bob):
    services.resign(each_moves(opened_by_white(alice, bob)).pk, user=bob)

    svg = client.get(reverse("rating_chart", args=["alice", "american"])).content.decode()
    profile = client.get(reverse("profile", args=["alice"])).text

    root = ET.fromstring(svg.encode())
    width = float(root.get("width") or root.get("viewBox").split()[2])
    label = int(re.search(r"\.axis text\{[^}]*?font-size:(\d+)px", svg).group(1))
    # The chart shrinks to the phone's width: its labels are read at this size.
    assert label * PHONE_CONTENT_WIDTH / width >= 12, (label, width)
    assert f'width="{CHART_WIDTH}" height="{CHART_HEIGHT}"' in profile
