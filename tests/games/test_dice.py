"""Verifiable dice: every stored roll can be recomputed from the match's revealed seed."""

from __future__ import annotations

import hashlib
from collections import Counter
from datetime import timedelta

import pytest
from django.conf import settings
from django.utils import timezone

import games.dice
from games import services
from games.dice import SeededDice, die, new_seed, roll_pair, seed_hash
from games.engine import format_play
from games.models import Match, Segment
from games.services import IllegalTurn, TurnAction
from games.verify import dice_statistics
from tests.matches import opened_by_white

ZERO_SEED = "00" * 32


def test_dice_are_uniform_over_many_rolls():
    counts = Counter(die(ZERO_SEED, roll, index) for roll in range(1, 30001) for index in (1, 2))

    assert set(counts) == {1, 2, 3, 4, 5, 6}
    assert all(abs(n - 10000) < 300 for n in counts.values())  # about 3 standard deviations


def test_the_commitment_is_the_sha256_of_the_seed_bytes():
    seed = new_seed()

    assert seed_hash(seed) == hashlib.sha256(bytes.fromhex(seed)).hexdigest()
    assert len(seed) == 64 and seed != new_seed()


def test_seeded_dice_serve_the_rolls_in_order_and_can_resume():
    dice = SeededDice(ZERO_SEED)
    first_three = [(dice.roll_die(), dice.roll_die()) for _ in range(3)]
    resumed = SeededDice(ZERO_SEED, rolls=2)

    assert first_three == [roll_pair(ZERO_SEED, r) for r in (1, 2, 3)]
    assert (resumed.roll_die(), resumed.roll_die()) == roll_pair(ZERO_SEED, 3)
    assert dice.rolls == 3


@pytest.mark.django_db
def test_every_stored_roll_of_a_match_is_recomputable_from_its_seed(alice, bob):
    match = services.start_match(
        white=alice, black=bob, variant="american", points=1, days_per_move=2
    )
    for _ in range(12):
        match.refresh_from_db()
        if match.phase == "name_double":
            action = TurnAction(segment=match.segment_count, double=5)
        else:
            play = services.load_game(match).legal_plays()[0]
            action = TurnAction(segment=match.segment_count, play=format_play(play))
        services.submit_segment(match.pk, user=match.to_move, action=action)

    match.refresh_from_db()
    rolled = Segment.objects.filter(match=match).exclude(kind__in=["double", "named_double"])
    # The dice waiting to be played were rolled too, unless they are a named double.
    pending = tuple(match.dice or ()) if match.segment_kind != "named_double" else ()
    dice = [tuple(s.dice) for s in rolled.order_by("number")] + [pending]
    recomputed = [roll_pair(match.server_seed, r) for r in range(1, match.rolls + 1)]
    assert [d for d in dice if d] == recomputed


@pytest.mark.django_db
def test_an_illegal_submission_cannot_reroll_the_dice(alice, bob):
    match = services.start_match(white=alice, black=bob, variant="greek", points=1, days_per_move=2)
    mover = match.to_move
    with pytest.raises(IllegalTurn):
        services.submit_segment(
            match.pk, user=mover, action=TurnAction(segment=match.segment_count, play="13/1")
        )

    assert Match.objects.get(pk=match.pk).dice == match.dice
    assert Match.objects.get(pk=match.pk).rolls == match.rolls


@pytest.mark.django_db
def test_the_dice_page_hides_the_seed_until_the_end_then_checks_every_roll(client, alice, bob):
    match = services.start_match(white=alice, black=bob, variant="greek", points=1, days_per_move=2)
    url = f"/matches/{match.pk}/dice/"

    during = client.get(url)
    services.resign(match.pk, user=alice)
    after = client.get(url)

    assert match.seed_hash in during.text and match.server_seed not in during.text
    assert match.server_seed in after.text
    assert "Every roll below matches the seed" in after.text


@pytest.mark.django_db
def test_a_players_dice_page_counts_their_rolls_only(client, alice, bob):
    match = services.start_match(white=alice, black=bob, variant="greek", points=1, days_per_move=2)
    for _ in range(6):
        match.refresh_from_db()
        if match.phase == "name_double":
            action = TurnAction(segment=match.segment_count, double=5)
        else:
            play = services.load_game(match).legal_plays()[0]
            action = TurnAction(segment=match.segment_count, play=format_play(play))
        services.submit_segment(match.pk, user=match.to_move, action=action)
    rolled = Segment.objects.filter(match=match, player="white", kind__in=["roll", "acey_deucey"])
    alice_rolls = rolled.count()

    response = client.get("/players/alice/dice/")

    assert response.context["stats"]["rolls"] == alice_rolls > 0
    # Counted by the database, as counted roll by roll.
    assert response.context["stats"] == dice_statistics([tuple(s.dice) for s in rolled])
    assert sum(n for _, n in response.context["stats"]["faces"]) == 2 * alice_rolls
    # Her own rolls, not all the rolls of her matches.
    assert "by <bdi>alice</bdi>, in all their matches (their opponents'" in response.text


def _play_segments(match: Match, count: int) -> Match:
    """``match`` after ``count`` segments (the first legal play, 5-5 after a 1-2), and
    then until a roll waits to be played (not a double to name, nor a named one to play,
    which is not a roll): its last roll unplayed."""
    played = 0
    named = Segment.Kind.NAMED_DOUBLE
    while played < count or match.phase == "name_double" or match.segment_kind == named:
        if match.phase == "name_double":
            action = TurnAction(segment=match.segment_count, double=5)
        else:
            play = services.load_game(match).legal_plays()[0]
            action = TurnAction(segment=match.segment_count, play=format_play(play))
        match = services.submit_segment(match.pk, user=match.to_move, action=action)
        played += 1
    return match


@pytest.mark.django_db
@pytest.mark.parametrize("over", [False, True], ids=["roll-to-play", "ended-on-it"])
def test_a_players_rows_on_their_matches_dice_pages_add_up_to_their_own_page(
    client, alice, bob, over
):
    # The last roll, to play or one the match ended on unplayed, is listed on the match's
    # page but counted on neither: a player's page counts what they played (their tally).
    match = services.start_match(white=alice, black=bob, variant="greek", points=1, days_per_move=2)
    match = _play_segments(match, 4)
    if over:
        match = services.resign(match.pk, user=match.to_move)

    on_match = client.get(f"/matches/{match.pk}/dice/")
    per_player = on_match.context["per_player"]

    assert on_match.context["rows"][-1]["segment"] is None  # listed
    for player, color in ((alice, "white"), (bob, "black")):
        own = client.get(f"/players/{player.username}/dice/").context["stats"]
        assert per_player[color] == own, color
    assert on_match.context["stats"]["rolls"] == sum(p["rolls"] for p in per_player.values())
    assert "is not counted: a player" in on_match.text


@pytest.mark.django_db
def test_the_match_page_shows_the_seed_commitment_from_the_start(client, alice, bob):
    match = services.start_match(white=alice, black=bob, variant="greek", points=1, days_per_move=2)

    response = client.get(match.get_absolute_url())

    assert match.seed_hash in response.text
    assert match.server_seed not in response.text
    assert f"/matches/{match.pk}/dice/" in response.text


@pytest.mark.django_db
@pytest.mark.parametrize("ending", ["resignation", "timeout"])
def test_the_dice_page_lists_and_checks_the_roll_a_forfeited_match_ended_on(
    client, alice, bob, ending
):
    match = services.start_match(white=alice, black=bob, variant="greek", points=1, days_per_move=2)
    holder = match.to_move
    if ending == "timeout":
        Match.objects.filter(pk=match.pk).update(deadline=timezone.now() - timedelta(seconds=1))
        assert services.award_timeout(match.pk)
    else:
        services.resign(match.pk, user=holder)
    match.refresh_from_db()

    response = client.get(f"/matches/{match.pk}/dice/")

    rows = response.context["rows"]
    last = rows[-1]
    assert len(rows) == match.rolls
    assert [row["expected"] for row in rows] == [
        roll_pair(match.server_seed, r) for r in range(1, match.rolls + 1)
    ]
    assert last["dice"] == tuple(match.dice) and last["ok"] and last["segment"] is None
    verb = "resigned" if ending == "resignation" else "ran out of time"
    assert f"not played: <bdi>{holder}</bdi> {verb}" in response.text
    assert "Every roll below matches the seed" in response.text


@pytest.mark.django_db
def test_the_dice_page_lists_the_roll_to_play_of_a_match_in_progress(client, alice, bob):
    match = services.start_match(white=alice, black=bob, variant="greek", points=1, days_per_move=2)

    response = client.get(f"/matches/{match.pk}/dice/")

    rows = response.context["rows"]
    assert len(rows) == match.rolls
    assert rows[-1]["dice"] == tuple(match.dice) and rows[-1]["expected"] is None
    assert "to play" in response.text


@pytest.mark.django_db
def test_the_exports_carry_the_seeds_sha256_and_the_seed_only_once_the_match_is_over(
    client, alice, bob
):
    from games.engine.record import import_json, import_text

    match = services.start_match(white=alice, black=bob, variant="greek", points=1, days_per_move=2)
    txt, json_url = (f"/matches/{match.pk}/export.{ext}" for ext in ("txt", "json"))

    during = (client.get(txt).text, client.get(json_url).json())
    services.resign(match.pk, user=alice)
    after = (client.get(txt).text, client.get(json_url).json())

    assert f'[SeedSHA256 "{match.seed_hash}"]' in during[0]
    assert during[1]["seed_sha256"] == match.seed_hash
    assert match.server_seed not in during[0] and during[1]["seed"] is None
    assert f'[Seed "{match.server_seed}"]' in after[0]
    assert after[1]["seed"] == match.server_seed
    assert import_text(after[0]).is_over and import_json(after[1]).is_over


def _played_a_while(alice, bob) -> Match:
    match = services.start_match(white=alice, black=bob, variant="greek", points=3, days_per_move=2)
    match = _play_segments(match, 8)
    return services.resign(match.pk, user=match.to_move)


@pytest.mark.django_db
def test_every_roll_of_an_export_is_checked_against_the_seed_it_reveals(client, alice, bob):
    from games.engine.record import from_json, from_text

    match = _played_a_while(alice, bob)
    text = client.get(f"/matches/{match.pk}/export.txt").text
    data = client.get(f"/matches/{match.pk}/export.json").json()

    # Every roll the match made: the opening ones and the one it ended on included.
    assert games.dice.check_record_rolls(from_text(text)) == match.rolls
    assert games.dice.check_record_rolls(from_json(data)) == match.rolls


@pytest.mark.django_db
def test_a_roll_changed_in_an_export_is_found(client, alice, bob):
    from games.engine.record import RecordError, from_json

    match = _played_a_while(alice, bob)
    data = client.get(f"/matches/{match.pk}/export.json").json()
    last = data["games"][-1]["events"][-1]  # the roll the resignation left unplayed
    assert last["play"] is None
    rolled = tuple(last["dice"])
    last["dice"] = [rolled[1], rolled[0]] if rolled[0] != rolled[1] else [7 - rolled[0]] * 2

    with pytest.raises(RecordError, match=rf"roll {match.rolls} \(game 1, "):
        games.dice.check_record_rolls(from_json(data))


@pytest.mark.django_db
def test_a_record_of_a_match_in_progress_cannot_be_checked(client, alice, bob):
    from games.engine.record import RecordError, from_json

    match = services.start_match(white=alice, black=bob, variant="greek", points=1, days_per_move=2)
    data = client.get(f"/matches/{match.pk}/export.json").json()

    with pytest.raises(RecordError, match="reveals no seed"):
        games.dice.check_record_rolls(from_json(data))
    data["seed"] = "00" * 32  # not the one committed to: refused as it is read
    with pytest.raises(RecordError, match="SHA-256"):
        games.dice.check_record_rolls(from_json(data))


@pytest.mark.django_db
def test_the_dice_page_says_who_is_white_and_who_is_black_and_names_each_roller(client, alice, bob):
    match = services.start_match(white=alice, black=bob, variant="greek", points=1, days_per_move=2)
    white_rolls = match.position["turn"] == "white"

    page = client.get(f"/matches/{match.pk}/dice/").text

    assert "<bdi>alice</bdi> (white) v <bdi>bob</bdi> (black)" in page
    assert "<td>opening (<bdi>alice</bdi>, <bdi>bob</bdi>&#8288;)</td>" in page
    assert f"<td><bdi>{'alice' if white_rolls else 'bob'}</bdi></td>" in page
    assert "<td>white</td>" not in page and "<td>black</td>" not in page


@pytest.mark.django_db
def test_the_dice_page_counts_the_rolls_other_than_the_opening_rolls(client, alice, bob):
    match = opened_by_white(alice, bob, dice=(3, 3, 5, 2, 6, 3))  # a tie, then 5-2

    page = client.get(f"/matches/{match.pk}/dice/").text

    # The 6-3 rolled is still to play: listed, not counted (as alice's own page counts).
    assert "0 rolls played, other than the opening rolls (the last roll, still to play, is" in page


@pytest.mark.django_db
def test_the_roll_numbering_reads_the_same_on_the_page_in_the_readme_and_the_code(
    client, alice, bob
):
    match = services.start_match(white=alice, black=bob, variant="greek", points=1, days_per_move=2)
    rule = (
        "numbered in the order the rolls were made, across the games of the match: opening"
        " rolls, tied ones included, and the segments' rolls alike, the last one too if the"
        " match ended before it was played; a named double is chosen, not rolled, and has no"
        " number)"
    )

    page = client.get(f"/matches/{match.pk}/dice/").text.replace("&#x27;", "'")
    readme = (settings.BASE_DIR / "README.md").read_text()

    for text in (page, readme, games.dice.__doc__):
        assert rule in " ".join(text.split())


@pytest.mark.django_db
def test_a_players_dice_table_has_headers_for_its_faces_and_its_row(client, alice):
    page = client.get("/players/alice/dice/").text

    table = page[page.index("<table") : page.index("</table>")]
    assert "<caption>How often each face came up</caption>" in table
    assert '<thead><tr><th scope="col">Face</th><th scope="col">1</th>' in table
    assert '<tbody><tr><th scope="row"><bdi>alice</bdi></th><td>0</td>' in table


@pytest.mark.django_db
def test_the_dice_page_checks_the_rolls_of_every_game_in_order(client, alice, bob):
    match = services.start_match(white=alice, black=bob, variant="greek", points=2, days_per_move=2)
    while match.game_number == 1:
        game = services.load_game(match)
        if match.phase == "name_double":
            action = TurnAction(segment=match.segment_count, double=game.allowed_doubles()[0])
        else:
            play = game.legal_plays()[0]
            action = TurnAction(segment=match.segment_count, play=format_play(play))
        match = services.submit_segment(match.pk, user=match.to_move, action=action)
    services.resign(match.pk, user=match.to_move)
    match.refresh_from_db()

    response = client.get(f"/matches/{match.pk}/dice/")

    rows = response.context["rows"]
    openings = [row["segment"].game_number for row in rows if not row["player"]]
    assert len(rows) == match.rolls and response.context["all_ok"]
    assert openings[0] == 1 and openings[-1] == 2  # game 2's opening follows game 1's rolls
    assert rows[-1]["segment"] is None  # the roll the resignation left unplayed
    played = len(rows) - len(openings) - 1
    assert f"{played} rolls played, other than the opening rolls (the last roll, not played," in (
        response.text
    )
