"""Tables, the match history and small links on a 390px phone: the columns a reader came
for are on the screen without scrolling sideways, a long name takes at most two lines of
the history, and the links under the history have room for a finger."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import Locator, Page, expect

from games import services
from games.engine.game import ScriptedDice
from games.models import Match, PlayerRating
from games.tournaments import services as tournaments
from tests.engine.helpers import make
from tests.matches import each_moves

from .helpers import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
# Greek words, 60 characters: the longest display name allowed.
GREEK_NAME = "Κωνσταντίνος Παπαδόπουλος Θεσσαλονικεύς Αρχιπελαγίτης Ξανθός"
# A display name of 60 characters without a space, and a username of 100 (shown as it is:
# its player sets no display name).
UNBROKEN_NAME = "Bartholomew_the_Magnificent_Champion_of_the_Seven_Seas_xxxxx"
UNBROKEN_USERNAME = "bob_" + "b" * 96


def _off_screen(cells: Locator, region: Locator) -> list[str]:
    """The cells among ``cells`` that reach past the right edge of the phone's screen, or
    of the table's scrolling region (what it hides is seen only by scrolling it)."""
    shown = region.bounding_box()
    assert shown is not None
    right = min(PHONE["width"], shown["x"] + shown["width"])
    off = []
    for i in range(cells.count()):
        cell = cells.nth(i)
        box = cell.bounding_box()
        assert box is not None and box["width"] > 0
        if box["x"] < 0 or box["x"] + box["width"] > right:
            off.append(f"{cell.inner_text()!r} at {box['x']:.0f}+{box['width']:.0f}")
    return off


def test_the_dice_and_the_check_of_every_roll_are_on_a_phones_screen(
    page: Page, live_server, match
):
    match = services.resign(match.pk, user=match.black)  # over: the seed is revealed
    page.set_viewport_size(PHONE)

    page.goto(f"{live_server.url}{match.get_absolute_url()}dice/")
    region = page.get_by_role("region", name="Every roll")
    table = region.locator("table")
    headers = [text.strip() for text in table.locator("thead th").all_inner_texts()]
    dice, seed = headers.index("Dice") + 1, headers.index("From the seed") + 1
    columns = table.locator(
        f"thead th:nth-child({dice}), thead th:nth-child({seed}), "
        f"tbody td:nth-child({dice}), tbody td:nth-child({seed})"
    )

    assert table.locator("tbody tr").count() >= 3
    assert region.evaluate("box => box.scrollWidth <= box.clientWidth")  # it fits
    assert _off_screen(columns, region) == []


def test_the_whole_record_of_a_rated_player_is_on_a_phones_screen(page: Page, live_server, match):
    # A rated result (both have moved): alice has a rating.
    services.resign(each_moves(match).pk, user=match.black)
    page.set_viewport_size(PHONE)

    page.goto(f"{live_server.url}/players/alice/")
    region = page.get_by_role("region", name="Ratings and records")
    table = region.locator("table")
    headers = [" ".join(text.split()) for text in table.locator("thead th").all_inner_texts()]
    pairs = [f"{counted} won\u2013lost" for counted in ("Rated", "All", "Points")]
    assert headers == ["Variant", "Rating", *pairs]

    assert "1662?" in table.inner_text()
    assert region.evaluate("box => box.scrollWidth <= box.clientWidth")  # no column hidden
    assert _off_screen(table.locator("th, td"), region) == []


def test_a_name_of_ten_letters_takes_one_line_of_the_history(page: Page, live_server, match):
    # At the names' column's old 6.5rem, "kbnewbie" broke as "kbnewbi / e" on every line,
    # and at 8.5rem "kbnewbie10" as "kbnewbie1 / 0".
    match.white.display_name = "kbnewbie10"
    match.white.save()
    page.set_viewport_size(PHONE)

    page.goto(live_server.url + match.get_absolute_url())
    names = page.locator(".turn-name", has_text="kbnewbie10")
    line = float(names.first.evaluate("el => parseFloat(getComputedStyle(el).lineHeight)"))
    heights = [box["height"] for box in (n.bounding_box() for n in names.all()) if box]

    assert heights and max(heights) <= line + 1, (heights, line)


def test_a_long_display_name_takes_at_most_two_lines_of_the_history(page: Page, live_server, match):
    match.white.display_name = GREEK_NAME
    match.white.save()
    page.set_viewport_size(PHONE)

    page.goto(live_server.url + match.get_absolute_url())
    names = page.locator(".turn-who", has_text="Κωνσταντίνος")
    line = float(names.first.evaluate("el => parseFloat(getComputedStyle(el).lineHeight)"))
    heights = [box["height"] for box in (n.bounding_box() for n in names.all()) if box]

    assert heights and max(heights) <= 2 * line + 2, (heights, line)
    assert GREEK_NAME in page.locator("main").inner_text()  # in full elsewhere on the page


def test_the_links_under_the_history_have_room_for_a_finger(page: Page, live_server, match):
    page.set_viewport_size(PHONE)
    log_in(page, live_server.url, "alice")

    page.goto(live_server.url + match.get_absolute_url())
    links = page.locator(".history-links a")
    sizes = {
        link.inner_text(): (round(box["width"]), round(box["height"]))
        for link in links.all()
        if (box := link.bounding_box())
    }

    assert set(sizes) >= {"Replay from the start", "text", "JSON", "Check every roll"}
    assert {name: size for name, size in sizes.items() if min(size) < 24} == {}


def test_a_forced_segment_in_the_history_keeps_its_mark_and_link_whole(
    page: Page, live_server, match
):
    # Black (bob) dances against White's closed entry points: a forced segment. On the
    # narrowest phones (320px), its text, its mark and its link fill the row.
    match.position = make(white={n: 2 for n in range(1, 7)}, waiting=(3, 15)).to_dict()
    match.save()
    services.submit_segment(
        match.pk,
        user=match.white,
        action=services.TurnAction(segment=match.segment_count, play="in/20 in/19"),
        dice=ScriptedDice([3, 4, 5, 3]),
    )
    page.set_viewport_size({"width": 320, "height": 640})

    page.goto(live_server.url + match.get_absolute_url())
    marks = page.locator(".turn-segments li .muted", has_text="(forced)")
    line = float(marks.first.evaluate("el => parseFloat(getComputedStyle(el).lineHeight)"))
    box = page.locator(".turns").first.bounding_box()
    links = [b for b in (link.bounding_box() for link in page.locator(".replay-link").all()) if b]

    assert marks.count() >= 1
    assert all(m.bounding_box()["height"] <= line + 2 for m in marks.all())  # one line each
    assert box is not None and all(b["x"] + b["width"] <= box["x"] + box["width"] for b in links)


#: Each table of the leaderboard holds one of each (username, display name, rating deviation):
#: an established player and a provisional one.
LEADERBOARD_NAMES = {
    # The longest display names, in words.
    "spaced": [
        ("steady", f"{GREEK_NAME[:50]} steady", 60),
        ("newbie", f"{GREEK_NAME[:50]} newbie", 250),
    ],
    # Names without a space: a display name, and a username shown as it is.
    "unbroken": [
        ("steady", UNBROKEN_NAME, 60),
        (UNBROKEN_USERNAME, "", 60),
        ("newbie", UNBROKEN_NAME, 250),
        (UNBROKEN_USERNAME[:-1], "", 250),
    ],
}


@pytest.mark.parametrize("names", LEADERBOARD_NAMES)
def test_both_tables_of_the_leaderboard_fit_a_phones_screen(
    page: Page, live_server, django_user_model, names
):
    for username, display_name, rd in LEADERBOARD_NAMES[names]:
        user = django_user_model.objects.create_user(
            username, f"{username[:20]}{rd}@example.com", display_name=display_name
        )
        PlayerRating.objects.create(
            user=user, variant="american", rating=1500, rd=rd, matches=3, wins=2, losses=1
        )
    page.set_viewport_size(PHONE)

    page.goto(f"{live_server.url}/leaderboard/american/")

    for label in ("American established ratings", "American provisional ratings"):
        region = page.get_by_role("region", name=label)
        expect(region.get_by_role("link").first).to_be_visible()
        assert region.evaluate("box => box.scrollWidth <= box.clientWidth"), label
        assert _off_screen(region.locator("th, td"), region) == [], label
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def test_the_counts_of_each_face_fit_a_phone_beside_a_long_name(page: Page, live_server, match):
    # A username of 60 letters without a space heads a row: it pushed the counts off.
    long_name = "alice_" + "w" * 54
    match.white.username = long_name
    match.white.save()
    page.set_viewport_size(PHONE)

    page.goto(f"{live_server.url}{match.get_absolute_url()}dice/")
    region = page.get_by_role("region", name="Statistics")
    table = region.get_by_role("table", name="How often each face came up")

    expect(table.get_by_role("rowheader", name=long_name)).to_be_visible()  # still a table
    assert table.get_by_role("columnheader").all_inner_texts() == ["Face", *"123456"]
    assert region.evaluate("box => box.scrollWidth <= box.clientWidth")
    assert _off_screen(table.locator("th, td"), region) == []


def test_the_check_of_every_roll_fits_a_phone_beside_long_names(page: Page, live_server, match):
    # The Who column names the players, and the roll a resignation left unplayed the loser:
    # a username of 60 letters without a space pushed the dice and their check off.
    long_name = "alice_" + "w" * 54
    match.white.username = long_name
    match.white.save()
    match = services.resign(match.pk, user=match.white)  # alice resigns holding her 6-5
    page.set_viewport_size(PHONE)

    page.goto(f"{live_server.url}{match.get_absolute_url()}dice/")
    region = page.get_by_role("region", name="Every roll")
    table = region.locator("table")

    expect(table.get_by_text(f"not played: {long_name} resigned")).to_be_visible()
    assert region.evaluate("box => box.scrollWidth <= box.clientWidth")
    assert _off_screen(table.locator("th, td"), region) == []


@pytest.mark.parametrize("size", [PHONE, {"width": 1280, "height": 800}])
def test_forced_follows_its_play_when_the_play_takes_two_lines(
    page: Page, live_server, match, size
):
    # White enters both checkers from the bar, hitting; Black's 5-5 is then forced, and
    # long: "5-5: bar/20 20/15 15/10 10/5*" takes two lines of the history at both widths.
    match.position = make(
        white={2: 7, 3: 3, 4: 2, 14: 1}, black={20: 1, 22: 1, 23: 1, 24: 11}, bar=(2, 0)
    ).to_dict()
    match.save()
    services.submit_segment(
        match.pk,
        user=match.white,
        action=services.TurnAction(segment=match.segment_count, play="bar/20* bar/19"),
        dice=ScriptedDice([5, 5, 3, 4]),
    )
    page.set_viewport_size(size)

    page.goto(live_server.url + match.get_absolute_url())
    segment = page.locator(".turn-segments li", has_text="(forced)").last
    play = segment.locator(".segment-text")
    # The play's lines of text, not its box (which a flex layout stretches).
    lines = play.evaluate(
        """el => { const range = document.createRange(); range.selectNodeContents(el);
            return [...range.getClientRects()].map(r => [r.left, r.top, r.right, r.bottom]); }"""
    )
    mark = segment.get_by_text("(forced)").bounding_box()
    top, right, bottom = lines[-1][1:]

    assert play.inner_text() == "5-5: bar/20 20/15 15/10 10/5*"
    assert len({round(line[1]) for line in lines}) >= 2, lines  # it does take two lines
    assert mark is not None
    # On the play's last line, just after it; or, with no room left there, starting the next.
    after_it = abs(mark["y"] + mark["height"] / 2 - (top + bottom) / 2) < 4 and (
        0 <= mark["x"] - right < 16
    )
    below_it = abs(mark["x"] - lines[0][0]) < 2 and 0 <= mark["y"] - bottom < 8
    assert after_it or below_it, (lines, mark)


def _table_widths(page: Page) -> dict[str, tuple[int, int]]:
    """Each table region of the page, by its heading: its content's width and its own."""
    return page.evaluate(
        """() => Object.fromEntries([...document.querySelectorAll(".table-wrap")].map(box =>
            [document.getElementById(box.getAttribute("aria-labelledby"))?.textContent
                ?? box.getAttribute("aria-label"), [box.scrollWidth, box.clientWidth]]))"""
    )


@pytest.mark.parametrize("format", ["single_elimination", "round_robin"])
def test_names_without_spaces_do_not_widen_a_tournaments_tables(
    page: Page, live_server, django_user_model, format
):
    organiser = django_user_model.objects.create_user("olga", "olga@example.com")
    named = django_user_model.objects.create_user(
        "bart", "bart@example.com", display_name=UNBROKEN_NAME
    )
    unnamed = django_user_model.objects.create_user(UNBROKEN_USERNAME, "bob@example.com")
    tournament = tournaments.create_tournament(
        organiser,
        name="Long names cup",
        signup_deadline=timezone.now() + timedelta(days=1),
        format=format,
        points=1,
        min_players=2,
    )
    for player in (named, unnamed):
        tournaments.sign_up(tournament.pk, user=player)
    tournaments.start_tournament(tournament.pk, user=organiser)
    match = Match.objects.get(tournament_match__tournament=tournament)
    tournaments.match_finished(services.resign(match.pk, user=unnamed))
    page.set_viewport_size(PHONE)
    page.goto(live_server.url + tournament.get_absolute_url())
    expect(page.get_by_role("link", name=UNBROKEN_NAME).first).to_be_visible()
    with_long_names = _table_widths(page)

    # The same page with short names: the round robin's standings, with their eight
    # columns, scroll sideways on a phone whatever the names; the long ones add nothing.
    django_user_model.objects.filter(pk=named.pk).update(display_name="Bart")
    django_user_model.objects.filter(pk=unnamed.pk).update(username="bob")
    page.reload()
    with_short_names = _table_widths(page)

    # Placings (elimination) or standings (round robin), and the players.
    assert len(with_long_names) == 2 and with_long_names.keys() == with_short_names.keys()
    wider = {
        table: (width, with_short_names[table][0])
        for table, (width, _) in with_long_names.items()
        if width > with_short_names[table][0]
    }
    assert wider == {}
