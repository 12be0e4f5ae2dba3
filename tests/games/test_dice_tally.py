"""Each player's dice tally (games.tally), kept as rolls are stored, says what counting
their segments says, and makes their dice page one query however much they have played."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.models import Q
from django.test.utils import CaptureQueriesContext

from games import services, tally
from games.engine import format_play
from games.models import DiceTally, Match, Segment
from games.services import TurnAction
from games.verify import dice_statistics

pytestmark = pytest.mark.django_db


def recounted(user) -> dict[str, object]:
    """The statistics of ``user``'s rolls counted afresh from the stored segments."""
    rolled = Segment.objects.filter(
        Q(match__white=user, player="white") | Q(match__black=user, player="black"),
        kind__in=("roll", "acey_deucey"),
    )
    return dice_statistics([tuple(segment.dice) for segment in rolled])


def play_on(match: Match, *, turns: int | None = None) -> Match:
    """The players play the first legal play (or double) ``turns`` times, or to the end."""
    while match.is_active and (turns is None or turns > 0):
        game = services.load_game(match)
        if match.phase == "name_double":
            action = TurnAction(segment=match.segment_count, double=game.allowed_doubles()[0])
        else:
            action = TurnAction(
                segment=match.segment_count, play=format_play(game.legal_plays()[0])
            )
        match = services.submit_segment(match.pk, user=match.to_move, action=action)
        turns = None if turns is None else turns - 1
    return match


def start(white, black, variant: str, points: int = 1) -> Match:
    return services.start_match(
        white=white, black=black, variant=variant, points=points, days_per_move=2
    )


def test_the_tallies_agree_with_a_recount_after_several_matches(client, alice, bob, charlie):
    # Games played out (forced plays, a game's end and the next one's opening stored with
    # the play that ended it), one given up halfway, and one still being played.
    play_on(start(alice, bob, "greek", points=3))
    play_on(start(bob, alice, "american"))
    resigned = play_on(start(charlie, alice, "greek"), turns=15)
    services.resign(resigned.pk, user=charlie)
    play_on(start(alice, charlie, "american"), turns=25)

    pages = {
        user: client.get(f"/players/{user}/dice/").context["stats"]
        for user in (alice, bob, charlie)
    }

    assert pages == {user: recounted(user) for user in (alice, bob, charlie)}
    assert all(stats["rolls"] > 0 for stats in pages.values())


def test_a_players_dice_page_is_one_query_however_many_matches_they_have_played(client, alice, bob):
    def page_queries() -> list[str]:
        with CaptureQueriesContext(connection) as queries:
            client.get("/players/alice/dice/")
        return [query["sql"] for query in queries]

    play_on(start(alice, bob, "greek"), turns=6)
    one_match = page_queries()
    for _ in range(3):
        play_on(start(bob, alice, "greek"), turns=6)
    four_matches = page_queries()

    # The player with their tally.
    assert len(one_match) == len(four_matches) == 1
    assert "games_segment" not in four_matches[0]


def test_rolls_counted_together_take_each_tally_once_at_the_end_in_player_order(
    alice, bob, charlie
):
    # A round's matches start in seed order: here charlie v alice, then bob v alice.
    first = start(charlie, alice, "greek")
    second = start(bob, alice, "greek")
    # Tallies made already (a player's first roll makes theirs: an UPDATE more).
    DiceTally.objects.bulk_create(
        [DiceTally(user=player) for player in (alice, bob, charlie)], ignore_conflicts=True
    )
    before = {row.user_id: row.rolls for row in DiceTally.objects.all()}

    def rolled(player: str, dice: tuple[int, int]) -> Segment:
        return Segment(kind=Segment.Kind.ROLL, player=player, dice=list(dice))

    statements: list[tuple[str, list]] = []

    def record(execute, sql, params, many, context):
        statements.append((sql, list(params or ())))
        return execute(sql, params, many, context)

    with connection.execute_wrapper(record), tally.together():
        tally.count_rolls(first, [rolled("white", (6, 5)), rolled("black", (2, 2))])
        tally.count_rolls(second, [rolled("white", (1, 2)), rolled("black", (3, 4))])
        written_inside = len(statements)

    assert written_inside == 0  # nothing taken until the end
    # The player is the UPDATE's last parameter (WHERE user_id = %s).
    updated = [
        params[-1] for sql, params in statements if sql.startswith('UPDATE "games_dicetally"')
    ]
    players = [first.white_id, first.black_id, second.white_id, second.black_id]
    ids = sorted(set(players))
    # One UPDATE a player (alice's two rolls in one), in player id order.
    assert updated == ids
    after = {row.user_id: row.rolls for row in DiceTally.objects.all()}
    assert {p: after[p] - before[p] for p in ids} == {p: players.count(p) for p in ids}
