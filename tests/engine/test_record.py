"""Match records (games/engine/record.py): export, import and replay through the engine."""

from __future__ import annotations

import hashlib
import json
import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.errors import EngineError
from games.engine.game import DoubleNamed, OpeningRoll, Phase, SegmentKind
from games.engine.match import Ending, GameResult, Match
from games.engine.position import Pair, own_point
from games.engine.record import (
    FORMAT,
    GameRecord,
    MatchRecord,
    MatchResult,
    RecordDice,
    RecordError,
    SegmentRecord,
    from_json,
    from_text,
    import_json,
    import_text,
    record_from_match,
    replay,
    to_json,
    to_text,
)

PLAYERS = {"white": "Alice", "black": "Bob"}


class SeededDice:
    """A reproducible dice source."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def roll_die(self) -> int:
        return self.rng.randint(1, 6)


def play_random_match(
    variant: str, length: int, seed: int, *, actions: int | None = None, score: bool = True
) -> Match:
    """A match of random legal choices: to its end, or stopped after ``actions`` actions.

    Greek players name a random blot half of the time they may. With ``score=False`` the
    first game is played out without ``record_game_end()``.
    """
    rng = random.Random(seed)
    match = Match(variant, length, SeededDice(rng))
    done = 0
    while not match.is_over and (actions is None or done < actions):
        game = match.game
        if game.phase is Phase.FINISHED:
            break
        done += 1
        if game.phase is Phase.NAME_DOUBLE:
            game.name_double(rng.choice(game.allowed_doubles()))
            continue
        play = rng.choice(game.legal_plays())
        name = None
        mover = game.position.turn
        if game.may_name_blot and not play.result.is_game_over:
            blots = play.result.blots(mover)
            if blots and rng.random() < 0.5:
                name = own_point(mover, rng.choice(blots))
        game.play(play, name_blot=name)
        if score:
            match.record_game_end()
    return match


def assert_round_trip(match: Match) -> MatchRecord:
    """Export ``match`` to text and JSON, import both, and compare with the original."""
    record = record_from_match(match, players=PLAYERS)

    from_the_text = from_text(to_text(record))
    from_the_json = from_json(json.loads(json.dumps(to_json(record))))

    imported = replay(from_the_text)

    assert from_the_text == record
    assert from_the_json == record  # equal records replay alike
    assert imported.game.position == match.game.position
    assert imported.game.phase == match.game.phase
    assert imported.game.dice == match.game.dice
    assert imported.score == match.score
    assert imported.results == match.results
    assert imported.winner == match.winner
    assert record_from_match(imported, players=PLAYERS) == record
    return record


def segment_indices(record: MatchRecord, game: int = 0) -> list[int]:
    return [
        i
        for i, e in enumerate(record.games[game].events)
        if isinstance(e, SegmentRecord) and not e.is_pending
    ]


def turn_prefix(message: str) -> re.Match[str] | None:
    return re.match(r"game \d+, turn \d+ \((white|black) [^)]*\): ", message)


# -- round trips -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("variant", "length", "seed"),
    [("american", 1, 1), ("american", 3, 2), ("greek", 1, 1), ("greek", 3, 5)],
)
def test_complete_random_match_round_trips_through_text_and_json(variant, length, seed):
    match = play_random_match(variant, length, seed)

    record = assert_round_trip(match)

    assert match.is_over
    assert record.result == MatchResult(match.winner, Ending.BORNE_OFF, match.score)
    assert len(record.games) == len(match.games)
    assert all(game.result is not None for game in record.games)


def test_american_match_of_several_games_round_trips():
    match = play_random_match("american", 20, 1)

    record = assert_round_trip(match)

    assert len(record.games) >= 2
    assert [g.result for g in record.games] == match.results


def test_greek_record_names_blots_at_the_end_of_turns():
    match = play_random_match("greek", 1, 1)

    record = assert_round_trip(match)
    text = to_text(record)

    named = [e for e in record.games[0].events if isinstance(e, SegmentRecord) and e.named_blot]
    assert named
    assert re.search(r"^(white|black) .* \[name \d+\]$", text, re.MULTILINE)


def test_r1_opening_ties_are_recorded_and_replayed():
    # 3-3 ties, then 5-2: white opens with 6-3 (R1).
    match = Match("american", 1, RecordDice([3, 3, 5, 2, 6, 3]))

    record = record_from_match(match, players=PLAYERS)
    text = to_text(record)

    assert "opening: white 3, black 3\nopening: white 5, black 2\nwhite 6-3 (to play)" in text
    assert record.games[0].openings == (OpeningRoll(3, 3), OpeningRoll(5, 2))
    assert_round_trip(match)


def test_r7_text_record_with_a_named_double_chain_imports():
    text = """
        # an american game in progress, written by hand
        [Variant "american"]
        [Length "1"]
        [White "Alice"]
        [Black "Bob"]
        [Result "white 0, black 0; not finished"]

        Game 1
        opening: white 3, black 3
        opening: white 5, black 2
        white 6-3: in/22 in/19
        black 1-2: in/24 in/23; named 6-6: in/19(2) 24/18 23/17; 4-1: 19/18 19/15
        white 5-5 (to play)

        match: white 0, black 0; not finished
    """

    match = import_text(text)

    game = match.game
    assert game.to_move == "white"
    assert game.dice == (5, 5)
    assert game.position.waiting == Pair(13, 11)
    black = [e for e in game.events if not isinstance(e, OpeningRoll) and e.player == "black"]
    assert [type(e).__name__ for e in black] == [
        "SegmentPlayed",
        "DoubleNamed",
        "SegmentPlayed",
        "SegmentPlayed",
    ]
    assert [e.kind for e in black if not isinstance(e, DoubleNamed)] == [
        SegmentKind.ACEY_DEUCEY,
        SegmentKind.NAMED_DOUBLE,
        SegmentKind.ROLL,
    ]
    assert (
        to_text(record_from_match(match, players=PLAYERS))
        == "\n".join(line.strip() for line in text.strip().splitlines()[1:]) + "\n"
    )


def test_r7_match_stopped_before_the_double_is_named_round_trips():
    # White opens, rolls 1-2 and plays both dice: the double is still to be named.
    match = Match("american", 1, RecordDice([5, 2, 1, 2]))
    match.game.play(match.game.legal_plays()[0])

    record = assert_round_trip(match)

    assert match.game.phase is Phase.NAME_DOUBLE
    assert to_text(record).splitlines()[-3] == "white 1-2: in/24 in/23"


def test_dance_is_the_roll_with_nothing_after_the_colon():
    match = play_random_match("american", 1, 1)
    record = record_from_match(match, players=PLAYERS)

    dances = [e for e in record.games[0].events if isinstance(e, SegmentRecord) and e.play == ""]

    assert dances
    assert re.search(r"^(white|black) \d-\d:$", to_text(record), re.MULTILINE)


@pytest.mark.parametrize("variant", ["american", "greek"])
@pytest.mark.parametrize("ending", [Ending.RESIGNATION, Ending.TIMEOUT])
def test_r9_resignation_and_timeout_records_round_trip(variant, ending):
    match = play_random_match(variant, 3, 5, actions=60)
    if ending is Ending.RESIGNATION:
        forfeit = match.resign("black")
    else:
        forfeit = match.timeout("black")

    record = assert_round_trip(match)
    text = to_text(record)

    verb = "resigns" if ending is Ending.RESIGNATION else "times out"
    unit = "point" if forfeit.points == 1 else "points"
    assert record.games[-1].result == forfeit
    assert record.result == MatchResult("white", ending, match.score)
    assert f"white wins {forfeit.points} {unit} (black {verb})\n" in text
    assert text.endswith(f"; white wins (black {verb})\n")


@pytest.mark.parametrize(
    ("variant", "actions", "kind"),
    [
        ("american", 24, SegmentKind.ACEY_DEUCEY),
        ("american", 26, SegmentKind.NAMED_DOUBLE),
        ("greek", 30, SegmentKind.ROLL),
    ],
)
def test_match_in_progress_round_trips_with_the_segment_to_play(variant, actions, kind):
    match = play_random_match(variant, 1, 9, actions=actions)
    assert match.game.phase is Phase.PLAY
    assert match.game.kind is kind

    record = assert_round_trip(match)

    pending = record.games[-1].events[-1]
    assert record.result.winner is None
    assert record.games[-1].result is None
    assert pending.is_pending
    assert pending.kind is kind
    named = "named " if kind is SegmentKind.NAMED_DOUBLE else ""
    assert f"{named}{pending.dice[0]}-{pending.dice[1]} (to play)\n" in to_text(record)


@settings(max_examples=15, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    variant=st.sampled_from(["american", "greek"]),
    actions=st.none() | st.integers(0, 150),
    forfeit=st.sampled_from([None, "resign", "timeout"]),
)
def test_export_import_round_trip_property(seed, variant, actions, forfeit):
    if variant == "greek" and actions is None:
        actions = 200  # keep each example fast: random greek games can run long
    match = play_random_match(variant, 1, seed, actions=actions)
    if forfeit and not match.is_over:
        getattr(match, forfeit)(random.Random(seed).choice(["white", "black"]))

    assert_round_trip(match)


# -- header and shape ------------------------------------------------------------------------


def test_header_values_with_quotes_round_trip():
    match = Match("greek", 1, RecordDice([1, 6, 4, 2]))
    record = record_from_match(match, players={"white": 'Al "the ace"', "black": "B\\C"})
    record = MatchRecord(**{**record.__dict__, "event": "Club night", "date": "2025-01-31"})

    text = to_text(record)

    assert '[White "Al \\"the ace\\""]' in text
    assert '[Event "Club night"]' in text
    assert from_text(text) == record
    assert from_json(to_json(record)) == record


def test_json_has_a_format_version():
    record = record_from_match(Match("american", 1, RecordDice([5, 2, 6, 3])), players=PLAYERS)

    data = to_json(record)

    assert data["format"] == FORMAT
    assert data["games"][0]["events"][1] == {
        "type": "segment",
        "player": "white",
        "kind": "roll",
        "dice": [6, 3],
        "play": None,
        "named_blot": None,
    }


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.pop("players"), "record: missing players"),
        (lambda d: d.update(format="other/9"), "format: expected"),
        (lambda d: d.update(variant="russian"), "variant: expected 'american' or 'greek'"),
        (lambda d: d.update(length=0), "length: expected a whole number"),
        (lambda d: d["games"][0]["events"][0].update(white=7), "games[0].events[0].white: a die"),
        (lambda d: d["games"][0]["events"][1].update(dice=[6]), "games[0].events[1].dice"),
        (lambda d: d["games"][0]["events"][1].update(kind="bogus"), "games[0].events[1].kind"),
        (lambda d: d["games"][0]["events"][1].update(type="x"), "games[0].events[1].type"),
        (lambda d: d["result"].update(winner="white"), "result: a finished match has both"),
        (lambda d: d["players"].update(white=""), "players.white: expected a player's name"),
        (lambda d: d.update(variant=["american"]), "variant: expected 'american' or 'greek'"),
    ],
)
def test_from_json_rejects_a_bad_shape_with_the_field(change, message):
    data = to_json(
        record_from_match(Match("american", 1, RecordDice([5, 2, 6, 3])), players=PLAYERS)
    )
    change(data)

    with pytest.raises(RecordError) as error:
        from_json(data)

    assert message in str(error.value)


HUGE = "9" * 5000


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda t: t.replace('[Length "1"]\n', ""), "the header lacks Length"),
        (lambda t: t.replace('[Length "1"]', '[Colour "red"]'), "unknown header 'Colour'"),
        (lambda t: t.replace("Game 1", "Game 2"), "expected Game 1, not Game 2"),
        (lambda t: t.replace("white 6-3 (to play)", "white 6-3 play"), "cannot read"),
        (
            lambda t: t.replace('not finished"]', 'black wins (white resigns)"]'),
            "does not agree with the Result header",
        ),
        (lambda t: t.rsplit("match:", 1)[0], "the record ends before the match result line"),
        # More digits than int() reads (4300) were a ValueError; other scripts' digits
        # were read as numbers.
        (lambda t: t.replace("Game 1", "Game " + HUGE), "expected a header line"),
        (lambda t: t.replace("white 5,", f"white {HUGE},"), "cannot read"),
        (lambda t: t.replace("(to play)", f"(to play) [name {HUGE}]"), "cannot read"),
        (
            lambda t: t.replace("\nmatch:", f"\nwhite wins {HUGE} points (borne off)\nmatch:"),
            "cannot",
        ),
        (lambda t: t.replace("match: white 0", f"match: white {HUGE}"), "expected a match result"),
        (lambda t: t.replace('[Length "1"]', f'[Length "{HUGE}"]'), "Length: expected a whole"),
        (lambda t: t.replace('[Length "1"]', '[Length "1\u0663"]'), "Length: expected a whole"),
    ],
)
def test_from_text_rejects_a_bad_format_with_the_line(edit, message):
    text = to_text(
        record_from_match(Match("american", 1, RecordDice([5, 2, 6, 3])), players=PLAYERS)
    )

    with pytest.raises(RecordError) as error:
        from_text(edit(text))

    assert message in str(error.value)


def test_record_from_match_refuses_a_game_over_but_not_scored():
    match = play_random_match("american", 1, 1, score=False)
    assert match.game.winner is not None

    with pytest.raises(RecordError, match="record_game_end"):
        record_from_match(match, players=PLAYERS)


def test_record_error_is_an_engine_error():
    assert issubclass(RecordError, EngineError)


# -- tampered records -----------------------------------------------------------------------


def test_tampered_play_is_rejected_with_game_and_turn():
    match = play_random_match("american", 1, 1)
    data = to_json(record_from_match(match, players=PLAYERS))
    events = data["games"][0]["events"]
    index = next(i for i, e in enumerate(events) if e.get("dice") == [6, 3])
    events[index]["play"] = "13/4"
    player = events[index]["player"]
    tampered = from_json(data).games[0].events[index]
    turns = from_json(data).games[0].turns()
    turn = next(t for t, turn in enumerate(turns, 1) if any(e == tampered for e in turn))

    with pytest.raises(RecordError) as error:
        import_json(data)

    assert str(error.value).startswith(f"game 1, turn {turn} ({player} 6-3: 13/4): ")


def test_brief_example_illegal_opening_play():
    text = to_text(
        record_from_match(Match("american", 1, RecordDice([5, 2, 6, 3])), players=PLAYERS)
    )
    text = text.replace("white 6-3 (to play)", "white 6-3: 13/4\nblack 1-1 (to play)")

    with pytest.raises(RecordError) as error:
        import_text(text)

    assert str(error.value).startswith("game 1, turn 1 (white 6-3: 13/4): ")


def test_tampered_die_is_rejected_with_game_and_turn():
    match = play_random_match("american", 1, 1)
    data = to_json(record_from_match(match, players=PLAYERS))
    events = data["games"][0]["events"]
    event = next(
        e for e in events if e.get("kind") == "roll" and e["dice"][0] != e["dice"][1] and e["play"]
    )
    # A die no step of the play uses (and no double, no 1-2): the play cannot fit.
    new = next(d for d in (6, 5, 4, 3) if d not in event["dice"])
    event["dice"] = [new, event["dice"][1]]
    turns = from_json(data).games[0].turns()
    turn = next(t for t, turn in enumerate(turns, 1) if any(e.dice[0] == new for e in turn))
    expected = f"game 1, turn {turn} ({event['player']} {new}-{event['dice'][1]}: {event['play']})"

    with pytest.raises(RecordError) as error:
        import_json(data)

    assert str(error.value).startswith(expected + ": ")


def test_tampered_opening_die_gives_the_first_turn_to_the_other_player():
    text = to_text(
        record_from_match(Match("american", 1, RecordDice([5, 2, 6, 3])), players=PLAYERS)
    )

    with pytest.raises(RecordError) as error:
        import_text(text.replace("opening: white 5, black 2", "opening: white 2, black 5"))

    assert str(error.value) == (
        "game 1, turn 1 (white 6-3 (to play)): it is black's turn, not white's"
    )


def test_tampered_game_score_is_rejected_with_the_game():
    match = play_random_match("american", 1, 1)
    text = to_text(record_from_match(match, players=PLAYERS))
    points = match.results[0].points
    winner = match.results[0].winner

    tampered = text.replace(f"{winner} wins {points} points", f"{winner} wins {points - 1} points")

    with pytest.raises(RecordError) as error:
        import_text(tampered)

    assert str(error.value) == (
        f"game 1: the record says {winner} scores {points - 1}, the replay gives {points}"
    )


def test_tampered_match_score_is_rejected():
    match = play_random_match("greek", 1, 1)
    record = record_from_match(match, players=PLAYERS)
    wrong = MatchResult(record.result.winner, record.result.ending, Pair(5, 5))
    tampered = MatchRecord(**{**record.__dict__, "result": wrong})

    with pytest.raises(RecordError) as error:
        replay(from_text(to_text(tampered)))

    assert str(error.value).startswith("match: the record gives the score as white 5, black 5")


def test_tampered_ending_is_rejected():
    match = play_random_match("american", 3, 5, actions=30)
    match.resign("white")
    data = to_json(record_from_match(match, players=PLAYERS))
    data["games"][-1]["result"]["ending"] = "timeout"

    with pytest.raises(RecordError) as error:
        import_json(data)

    assert str(error.value) == (
        "match: the record says the match ended by resignation, the replay gives timeout"
    )


def test_truncated_record_is_rejected_with_game_and_turn():
    match = play_random_match("american", 1, 1)
    data = to_json(record_from_match(match, players=PLAYERS))
    del data["games"][0]["events"][-3:]

    with pytest.raises(RecordError) as error:
        import_json(data)

    message = str(error.value)
    assert turn_prefix(message), message
    assert "the record ends here, but the game goes on" in message


def test_truncated_text_is_rejected():
    match = play_random_match("american", 1, 1)
    text = to_text(record_from_match(match, players=PLAYERS))

    with pytest.raises(RecordError, match="ends before the match result line"):
        import_text(text[: len(text) // 2])


def test_turn_after_the_last_checker_is_rejected():
    match = play_random_match("american", 1, 1)
    record = record_from_match(match, players=PLAYERS)
    game = record.games[0]
    extra = SegmentRecord("white", (3, 1), SegmentKind.ROLL, "6/3 3/2")
    tampered = MatchRecord(
        **{**record.__dict__, "games": (GameRecord((*game.events, extra), game.result),)}
    )

    with pytest.raises(RecordError) as error:
        replay(tampered)

    assert "the game is already over" in str(error.value)
    assert turn_prefix(str(error.value))


def test_missing_next_game_is_rejected():
    match = play_random_match("american", 20, 1)
    record = record_from_match(match, players=PLAYERS)
    tampered = MatchRecord(**{**record.__dict__, "games": record.games[:1]})

    with pytest.raises(RecordError) as error:
        replay(tampered)

    assert str(error.value).startswith("game 1: the match goes on")
    assert "but the record has no game 2" in str(error.value)


def test_next_game_cut_after_its_opening_roll_is_rejected():
    match = play_random_match("american", 20, 1)
    record = record_from_match(match, players=PLAYERS)
    second = record.games[1]
    cut = GameRecord(second.openings)
    tampered = MatchRecord(**{**record.__dict__, "games": (record.games[0], cut)})

    with pytest.raises(RecordError) as error:
        replay(tampered)

    assert str(error.value) == "game 2: the record ends before the first roll"


def test_r1_opening_roll_after_the_deciding_one_is_rejected():
    text = to_text(
        record_from_match(Match("american", 1, RecordDice([5, 2, 6, 3])), players=PLAYERS)
    )
    text = text.replace(
        "opening: white 5, black 2", "opening: white 5, black 2\nopening: white 1, black 1"
    )

    with pytest.raises(RecordError) as error:
        import_text(text)

    assert str(error.value) == (
        "game 1: the opening roll 5-2 decides who starts, so no other opening roll may"
        " follow it (R1)"
    )


def test_r8_naming_a_point_that_is_not_a_blot_is_rejected():
    match = play_random_match("greek", 1, 1)
    record = record_from_match(match, players=PLAYERS)
    events = list(record.games[0].events)
    index = next(i for i, e in enumerate(events) if isinstance(e, SegmentRecord) and e.named_blot)
    segment = events[index]
    after = match.games[0].events[index].position
    not_a_blot = next(
        p
        for p in range(1, 25)
        if not after.is_blot_of(segment.player, p if segment.player == "white" else 25 - p)
    )
    events[index] = SegmentRecord(
        segment.player, segment.dice, segment.kind, segment.play, not_a_blot
    )
    tampered = MatchRecord(
        **{
            **record.__dict__,
            "games": (GameRecord(tuple(events), record.games[0].result),),
        }
    )

    with pytest.raises(RecordError) as error:
        import_text(to_text(tampered))

    message = str(error.value)
    assert turn_prefix(message), message
    assert f"[name {not_a_blot}]" in message
    assert "you can only name a blot" in message


def test_r1_opening_that_ends_in_a_tie_is_rejected():
    text = to_text(
        record_from_match(Match("american", 1, RecordDice([5, 2, 6, 3])), players=PLAYERS)
    )

    with pytest.raises(RecordError, match=r"game 1: the opening roll 4-4 is a tie"):
        import_text(text.replace("opening: white 5, black 2", "opening: white 4, black 4"))


def test_turn_by_the_wrong_player_is_rejected():
    match = Match("american", 1, RecordDice([5, 2, 6, 3]))
    record = record_from_match(match, players=PLAYERS)
    game = record.games[0]
    played = SegmentRecord("white", (6, 3), SegmentKind.ROLL, "in/22 in/19")
    extra = SegmentRecord("white", (4, 4), SegmentKind.ROLL, None)
    tampered = MatchRecord(
        **{**record.__dict__, "games": (GameRecord((*game.events[:-1], played, extra)),)}
    )

    with pytest.raises(RecordError) as error:
        replay(tampered)

    assert str(error.value) == (
        "game 1, turn 2 (white 4-4 (to play)): it is black's turn, not white's"
    )


def test_record_dice_refuse_to_roll_past_the_record():
    dice = RecordDice([6])

    assert dice.roll_die() == 6
    with pytest.raises(RecordError, match="the record ends here"):
        dice.roll_die()


def test_game_result_types_are_the_engine_ones():
    match = play_random_match("greek", 1, 1)

    record = record_from_match(match, players=PLAYERS)

    assert record.games[0].result == GameResult(match.winner, 1, Ending.BORNE_OFF)


@pytest.mark.parametrize(
    ("forfeit", "marker", "result"),
    [
        ("resign", "(not played: white resigned)", "black wins 15 points (white resigns)"),
        ("timeout", "(not played: white timed out)", "black wins 15 points (white times out)"),
    ],
)
def test_the_roll_a_forfeited_match_ended_on_is_marked_not_played(forfeit, marker, result):
    match = Match("american", 1, RecordDice([5, 2, 6, 3]))
    getattr(match, forfeit)("white")

    record = assert_round_trip(match)
    text = to_text(record)

    assert f"white 6-3 {marker}\n{result}\n" in text
    assert "(to play)" not in text


def test_a_forfeited_record_of_old_with_the_roll_to_play_still_imports():
    match = Match("american", 1, RecordDice([5, 2, 6, 3]))
    match.resign("white")
    record = record_from_match(match, players=PLAYERS)
    old = to_text(record).replace("(not played: white resigned)", "(to play)")

    assert from_text(old) == record
    assert import_text(old).winner == "black"


@pytest.mark.parametrize(
    "marker", ["(not played: black resigned)", "(not played: white timed out)"]
)
def test_a_roll_not_played_must_agree_with_how_the_game_ended(marker):
    match = Match("american", 1, RecordDice([5, 2, 6, 3]))
    match.resign("white")
    text = to_text(record_from_match(match, players=PLAYERS))

    with pytest.raises(RecordError) as error:
        from_text(text.replace("(not played: white resigned)", marker))

    assert str(error.value).startswith("line 9: ")
    assert "the game's result line says white resigns" in str(error.value)


def test_a_roll_not_played_in_a_game_in_progress_is_refused():
    text = to_text(
        record_from_match(Match("american", 1, RecordDice([5, 2, 6, 3])), players=PLAYERS)
    )

    with pytest.raises(RecordError) as error:
        from_text(text.replace("(to play)", "(not played: white resigned)"))

    assert str(error.value).startswith("line 9: ")
    assert "the game has no result line" in str(error.value)


SEED = "ab" * 32
SEED_SHA256 = hashlib.sha256(bytes.fromhex(SEED)).hexdigest()


def a_record(**fields) -> MatchRecord:
    record = record_from_match(Match("american", 1, RecordDice([5, 2, 6, 3])), players=PLAYERS)
    return MatchRecord(**{**record.__dict__, **fields})


@pytest.mark.parametrize("seed", [SEED, None])
def test_the_fair_dice_seed_and_its_sha256_round_trip(seed):
    record = a_record(seed_sha256=SEED_SHA256, seed=seed)

    text = to_text(record)
    data = to_json(record)

    assert f'[SeedSHA256 "{SEED_SHA256}"]' in text
    assert (f'[Seed "{SEED}"]' in text) == (seed is not None)
    assert (data["seed_sha256"], data["seed"]) == (SEED_SHA256, seed)
    assert from_text(text) == record
    assert from_json(json.loads(json.dumps(data))) == record
    assert import_text(text).game.dice == (6, 3)


def test_a_record_without_the_seed_reads_as_before():
    record = a_record()
    data = to_json(record)
    del data["seed_sha256"], data["seed"]

    assert "Seed" not in to_text(record)
    assert from_json(data) == record


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"seed_sha256": "ab" * 31}, "SeedSHA256: expected 64 hex digits"),
        ({"seed_sha256": SEED_SHA256, "seed": "xy" * 32}, "Seed: expected 64 hex digits"),
        ({"seed_sha256": "00" * 32, "seed": SEED}, "Seed: its SHA-256 is not SeedSHA256"),
    ],
)
def test_a_seed_that_is_malformed_or_not_the_committed_one_is_refused(fields, message):
    text = to_text(a_record(**fields))
    data = to_json(a_record(**fields))
    json_message = message.replace("SeedSHA256", "seed_sha256").replace("Seed:", "seed:")

    with pytest.raises(RecordError) as from_the_text:
        from_text(text)
    with pytest.raises(RecordError) as from_the_json:
        from_json(data)

    assert message in str(from_the_text.value)
    assert json_message in str(from_the_json.value)
