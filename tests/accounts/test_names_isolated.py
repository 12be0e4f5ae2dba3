"""Every name a page draws is isolated in a <bdi>, so that a right-to-left one keeps to its
place: with the display name "علي الحسن 2" and the username "علي", the challenge page read
"Challenge from علي الحسن (علي) 2", the number and the brackets carried into the name."""

from __future__ import annotations

import re
from datetime import timedelta
from html.parser import HTMLParser

import pytest
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from games import chat, services
from games.models import PlayerRating
from games.tournaments import services as tournaments
from tests.matches import opened_by_white

pytestmark = pytest.mark.django_db

RIGHT_TO_LEFT = re.compile("[\u0590-\u08ff]")
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source"}
# Text no page draws as a line of its own: the window's title, an SVG's description, and what
# is there only for a screen reader (which reads in logical order, whatever the direction).
NOT_DRAWN = {"title", "desc", "script", "style", "option", "textarea"}


class _NamesOutsideBdi(HTMLParser):
    """The drawn text holding right-to-left letters that is in no <bdi>."""

    def __init__(self) -> None:
        super().__init__()
        self.open: list[tuple[str, bool]] = []  # (tag, whether for a screen reader only)
        self.found: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in VOID:
            hidden = "visually-hidden" in (dict(attrs).get("class") or "").split()
            self.open.append((tag, hidden))

    def handle_endtag(self, tag: str) -> None:
        for at in range(len(self.open) - 1, -1, -1):
            if self.open[at][0] == tag:
                del self.open[at:]
                return

    def handle_data(self, data: str) -> None:
        isolated = any(tag == "bdi" or tag in NOT_DRAWN or hidden for tag, hidden in self.open)
        if RIGHT_TO_LEFT.search(data) and not isolated:
            self.found.append(" ".join(data.split()))


def names_outside_bdi(page: str) -> list[str]:
    parser = _NamesOutsideBdi()
    parser.feed(page)
    return parser.found


@pytest.fixture
def ali(django_user_model) -> User:
    return django_user_model.objects.create_user(
        "\u0639\u0644\u064a",  # علي
        "ali@example.com",
        "correct horse battery",
        display_name="\u0639\u0644\u064a \u0627\u0644\u062d\u0633\u0646 2",  # علي الحسن 2
    )


@pytest.fixture
def samir(django_user_model) -> User:
    """A right-to-left username, and no display name."""
    return django_user_model.objects.create_user(
        "\u0633\u0645\u064a\u0631", "samir@example.com", "correct horse battery"
    )


def test_the_checker_finds_a_name_outside_bdi():
    assert names_outside_bdi("<h1>Challenge from \u0639\u0644\u064a</h1>") == [
        "Challenge from \u0639\u0644\u064a"
    ]
    assert names_outside_bdi("<h1>Challenge from <bdi>\u0639\u0644\u064a</bdi></h1>") == []


def test_the_challenge_pages_isolate_every_name(client, ali, bob, samir):
    received = services.create_challenge(ali, opponent=bob)
    sent = services.create_challenge(ali, opponent=samir)
    client.force_login(bob)

    page = client.get(received.get_absolute_url()).text
    client.force_login(ali)
    own = client.get(sent.get_absolute_url()).text

    assert (
        "Challenge from <bdi>\u0639\u0644\u064a \u0627\u0644\u062d\u0633\u0646 2</bdi>"
        ' <span class="muted">(<bdi>\u0639\u0644\u064a</bdi>)</span></h1>'
    ) in page
    assert names_outside_bdi(page) == []
    assert names_outside_bdi(own) == []


def test_the_dashboard_and_lobby_isolate_every_name(client, ali, bob, samir):
    services.create_challenge(ali, opponent=bob)
    services.create_challenge(ali, opponent=samir)
    services.create_challenge(samir, variant="greek")
    opened_by_white(ali, bob)
    client.force_login(bob)

    dashboard = client.get(reverse("dashboard")).text
    lobby = client.get(reverse("lobby")).text
    client.force_login(ali)
    own_dashboard = client.get(reverse("dashboard")).text

    assert names_outside_bdi(dashboard) == []
    assert names_outside_bdi(lobby) == []
    assert names_outside_bdi(own_dashboard) == []


def test_the_profile_isolates_every_name(client, ali, bob):
    finished = opened_by_white(ali, bob)
    services.resign(finished.pk, user=bob)
    opened_by_white(ali, bob)
    User.objects.filter(pk=ali.pk).update(away_until=timezone.now() + timedelta(days=3))
    client.force_login(bob)

    profile = client.get(reverse("profile", args=[ali.username])).text
    dice = client.get(reverse("player_dice", args=[ali.username])).text

    assert names_outside_bdi(profile) == []
    assert names_outside_bdi(dice) == []


def test_a_profile_with_no_match_between_them_isolates_the_name_in_its_challenge_link(
    client, ali, bob
):
    client.force_login(bob)

    profile = client.get(reverse("profile", args=[ali.username])).text

    assert "You have not finished a match against <bdi>" in profile
    assert names_outside_bdi(profile) == []


def test_a_closed_accounts_profile_isolates_its_username(client, bob, samir):
    User.objects.filter(pk=samir.pk).update(is_active=False)
    client.force_login(bob)

    profile = client.get(reverse("profile", args=[samir.username])).text

    assert names_outside_bdi(profile) == []


def test_the_leaderboard_isolates_every_name(client, ali, samir):
    now = timezone.now()
    for player in (ali, samir):
        PlayerRating.objects.create(
            user=player, variant="american", rating=1600, rd=40, rated_at=now
        )

    page = client.get(reverse("leaderboard_default")).text

    assert "<bdi>\u0633\u0645\u064a\u0631</bdi>" in page
    assert names_outside_bdi(page) == []


def test_the_match_page_isolates_every_name(client, ali, samir, bob):
    match = opened_by_white(ali, samir)
    chat.post_message(match.pk, user=samir, text="Good luck!")
    # Ali, to move, is away: the page says so under the board.
    User.objects.filter(pk=ali.pk).update(away_until=timezone.now() + timedelta(days=3))
    client.force_login(ali)
    player_view = client.get(match.get_absolute_url()).text
    client.force_login(bob)
    spectator_view = client.get(match.get_absolute_url()).text

    assert names_outside_bdi(player_view) == []
    assert names_outside_bdi(spectator_view) == []


def test_a_finished_matchs_rematch_offer_isolates_the_name(client, ali, samir):
    match = opened_by_white(ali, samir)
    match = services.resign(match.pk, user=samir)
    services.offer_rematch(match, user=samir)
    client.force_login(ali)

    page = client.get(match.get_absolute_url()).text

    assert names_outside_bdi(page) == []


def test_the_header_and_the_closing_page_isolate_the_players_own_username(client, samir):
    client.force_login(samir)

    page = client.get(reverse("close_account")).text

    assert names_outside_bdi(page) == []


def test_a_tournaments_player_list_isolates_every_name(client, ali, bob):
    tournament = tournaments.create_tournament(
        bob,
        name="Spring cup",
        signup_deadline=timezone.now() + timedelta(days=3),
        format="single_elimination",
        points=1,
        min_players=2,
        max_players=8,
        start_mode="manual",
    )
    tournaments.sign_up(tournament.pk, user=ali)
    client.force_login(bob)

    page = client.get(tournament.get_absolute_url()).text

    assert names_outside_bdi(page) == []


def test_a_tournaments_draw_isolates_every_name(client, ali, bob, samir):
    """The bracket, the standings and the rounds drew their names bare."""
    pages = []
    for format in ("single_elimination", "round_robin"):
        tournament = tournaments.create_tournament(
            bob,
            name=f"{format} cup",
            signup_deadline=timezone.now() + timedelta(days=3),
            format=format,
            points=1,
            min_players=2,
            max_players=8,
            start_mode="manual",
        )
        for player in (ali, samir):
            tournaments.sign_up(tournament.pk, user=player)
        tournaments.start_tournament(tournament.pk, user=bob)
        match = tournament.tournament_matches.get().match
        tournaments.match_finished(services.resign(match.pk, user=samir))
        pages.append(client.get(tournament.get_absolute_url()).text)
    pages.append(client.get(reverse("tournament_list")).text)

    assert [names_outside_bdi(page) for page in pages] == [[], [], []]
