"""Match records: a whole match as readable text or JSON, and back through the engine.

A :class:`MatchRecord` holds everything needed to rebuild a match: the players, the
variant, the match length, every roll (the R1 opening rolls included), every named double
and play, every blot named under R8, each game's result and how the match ended. It is
built from a live :class:`~games.engine.match.Match` with :func:`record_from_match`,
written with :func:`to_text` / :func:`to_json`, read with :func:`from_text` /
:func:`from_json`, and checked by :func:`replay`, which plays it through the engine again
with the recorded dice. :func:`import_text` and :func:`import_json` read and replay in one
call. Every problem raises :class:`RecordError`, naming the game and turn (or the text
line) and the reason.

Text format
===========

Lines are read one by one; blank lines and lines starting with ``#`` are ignored::

    [Variant "american"]
    [Length "3"]
    [White "alice"]
    [Black "bob"]
    [Event "Match #12"]
    [Date "2025-01-31"]
    [SeedSHA256 "e2c73baf8a4a6eb72c041934b698e26ffa93acb8952f5b8e83cc576a5fc84587"]
    [Seed "06fd584e10da8f1de4c4fd8805b163a0e1f107a1ffe5ff9ff8421a510bba9311"]
    [Result "white 0, black 15; black wins (white resigns)"]

    Game 1
    opening: white 6, black 6
    opening: white 3, black 6
    black 2-5: in/23 in/20
    white 5-1: in/24 in/20
    black 2-1: in/24 in/23; named 6-6: in/19(4); 6-5: in/20 in/19
    white 6-2 (not played: white resigned)
    black wins 15 points (white resigns)

    match: white 0, black 15; black wins (white resigns)

* **Header**: ``[Key "value"]`` lines before the first game. ``Variant`` (``american`` or
  ``greek``), ``Length`` (match points), ``White``, ``Black`` (the players' names) and
  ``Result`` (the match result, as on the ``match:`` line) are required; ``Event``,
  ``Date``, ``SeedSHA256`` and ``Seed`` are optional; no other key is accepted. In a
  value, ``\\"`` is a quote and ``\\\\`` a backslash; a value cannot hold a line break.
* ``SeedSHA256`` and ``Seed`` are the fair-dice commitment of the site that rolled the
  dice (64 lower-case hex digits each): the SHA-256 of the secret seed every roll is
  derived from, published from the start, and the seed itself, given only once the match
  is over (never for a match in progress, whose rolls to come it would tell). The reader
  keeps them and checks their form and that the seed's SHA-256 is the one given, but not
  the dice: how a site derives its rolls from the seed is its own (this site's formula is
  in ``games/dice.py``, whose ``check_record_rolls`` checks a record's rolls with it).
* ``Game N``: starts game N (numbered from 1, in order).
* ``opening: white W, black B``: one R1 opening roll, each player's single die; a tie is
  recorded and followed by the next opening roll.
* **A turn** is one line: the player, then the turn's dice segments in order, separated
  by ``; `` (RULES.md "Move notation", a turn record per line). A rolled segment is
  ``D1-D2: play``, with the dice in the order they were rolled; a double named after a
  1-2 (R7.3) and its four moves are ``named D-D: play``; an american turn goes on with
  the extra roll on the same line. A play is written from the mover's side (``13/7*``,
  ``bar/22``, ``in/22``, ``5/off``, ``6/4(2)``); a dance is the segment with nothing after
  the colon (``white 6-6:``).
* ``[name P]`` at the end of a turn: a greek player names their own blot on their
  P-point (R8.1), e.g. ``white 6-3: 13/7 13/10 [name 7]``.
* ``(to play)`` in place of the colon and play marks the segment to play next in a
  match still in progress: ``black 4-1 (to play)`` or ``...; named 6-6 (to play)``.
  Only the record's last turn may end that way.
* ``(not played: L resigned)`` or ``(not played: L timed out)`` marks instead the segment
  a match ended on: its dice were rolled (or its double named), but L resigned or let the
  move deadline pass before it was played (R9), so the game's result line follows and
  must say the same (``W wins N points (L resigns)``): ``white 1-5 (not played: white
  resigned)``. Records written before this marker existed say ``(to play)`` there; they
  are read alike.
* ``W wins N points (borne off)`` ends a game that W won by bearing off all 15 checkers
  (``1 point`` in the singular); ``W wins N points (L resigns)`` and
  ``W wins N points (L times out)`` end the game (and the match) in which the loser L
  resigned or let a move deadline pass (R9). A game still in progress has no result line.
* ``match: white A, black B; W wins (ENDING)`` is the last line: the final score, the
  match winner and how the match ended (``borne off``, ``L resigns``, ``L times out``),
  or ``match: white A, black B; not finished``.

Turns are numbered from 1 in each game (opening rolls are not turns); a new turn starts
when the player changes, or with a rolled segment that does not follow an american named
double.

JSON format
===========

:func:`to_json` gives a JSON-ready dict::

    {"format": "acey-deucey-match/1", "variant": "american", "length": 3,
     "players": {"white": "Alice", "black": "Bob"}, "event": null, "date": null,
     "seed_sha256": "e2c7...", "seed": "06fd...",
     "games": [{"events": [
         {"type": "opening", "white": 6, "black": 6},
         {"type": "opening", "white": 3, "black": 6},
         {"type": "segment", "player": "black", "kind": "roll", "dice": [2, 5],
          "play": "in/23 in/20", "named_blot": null},
         ...
         {"type": "double", "player": "black", "value": 6},
         ...],
       "result": {"winner": "black", "points": 15, "ending": "resignation"}}],
     "result": {"winner": "black", "ending": "resignation",
                "score": {"white": 0, "black": 15}}}

``kind`` is ``roll``, ``acey_deucey`` or ``named_double``; ``play`` is ``null`` for a
segment not played: the one still to play in a match in progress or, in a game whose
result is a resignation or a timeout, the one the match ended on (as ``(to play)`` and
``(not played: ...)`` in the text); ``ending`` is ``borne_off``, ``resignation`` or ``timeout``; an
unfinished game or match has ``"result": null`` and ``"winner": null, "ending": null``.
``event``, ``date``, ``seed_sha256`` and ``seed`` may be ``null`` or left out;
``seed_sha256`` and ``seed`` are the header's ``SeedSHA256`` and ``Seed``.
"""

from __future__ import annotations

import hashlib
import re
from collections import deque
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .errors import EngineError
from .game import DoubleNamed, Game, OpeningRoll, Phase, SegmentKind
from .match import Ending, GameResult, Match
from .moves import Play
from .notation import format_play
from .position import BLACK, COLORS, VARIANTS, WHITE, Color, Pair, opponent

FORMAT = "acey-deucey-match/1"

#: Characters that never appear in move notation and would break a text record's line.
_NOT_IN_A_PLAY = re.compile(r"[;\[\]\r\n]")


class RecordError(EngineError):
    """A match record that cannot be read, or that the engine's replay contradicts."""


# -- the record --------------------------------------------------------------------------


@dataclass(frozen=True)
class SegmentRecord:
    """One dice segment: who played it, the dice, the play and any R8 naming.

    ``dice`` are in the order rolled (a named double's are ``(d, d)``); ``play`` is the
    notation, ``""`` for a dance and ``None`` for a segment not played: still to play in a
    match in progress, or never played in a game that ended by resignation or timeout;
    ``named_blot`` is the mover's own point named at the end of a greek turn.
    """

    player: Color
    dice: tuple[int, int]
    kind: SegmentKind
    play: str | None
    named_blot: int | None = None

    @property
    def is_pending(self) -> bool:
        """Is this segment not played (still to play, or never, the match having ended)?"""
        return self.play is None


RecordEvent = OpeningRoll | DoubleNamed | SegmentRecord


@dataclass(frozen=True)
class GameRecord:
    """One game: its events in order (opening rolls first) and its result, if any."""

    events: tuple[RecordEvent, ...]
    result: GameResult | None = None

    @property
    def openings(self) -> tuple[OpeningRoll, ...]:
        return tuple(e for e in self.events if isinstance(e, OpeningRoll))

    def turns(self) -> list[list[DoubleNamed | SegmentRecord]]:
        """The events after the opening rolls, grouped into turns (see the module docs)."""
        turns: list[list[DoubleNamed | SegmentRecord]] = []
        previous: DoubleNamed | SegmentRecord | None = None
        for event in self.events:
            if isinstance(event, OpeningRoll):
                continue
            if previous is None or event.player != previous.player or _starts_turn(event, previous):
                turns.append([])
            turns[-1].append(event)
            previous = event
        return turns


def _starts_turn(event: DoubleNamed | SegmentRecord, previous: DoubleNamed | SegmentRecord) -> bool:
    """Does ``event`` (same player as ``previous``) start a new turn?"""
    if not isinstance(event, SegmentRecord) or event.kind == SegmentKind.NAMED_DOUBLE:
        return False
    # A rolled segment goes on with the turn only after a named double (R7.5).
    return not (isinstance(previous, SegmentRecord) and previous.kind == SegmentKind.NAMED_DOUBLE)


@dataclass(frozen=True)
class MatchResult:
    """How the match stands at the end of the record.

    ``winner`` and ``ending`` are ``None`` while the match is not over; ``score`` is the
    points per colour, a forfeited game's points included.
    """

    winner: Color | None
    ending: Ending | None
    score: Pair


@dataclass(frozen=True)
class MatchRecord:
    """A whole match: players (``{"white": name, "black": name}``), rules and games.

    ``seed_sha256`` and ``seed`` are the fair-dice commitment of the site that rolled the
    dice, if it gives one (see the module docs): 64 hex digits each; the seed only once the
    match is over.
    """

    variant: str
    length: int
    players: dict[str, str]
    games: tuple[GameRecord, ...]
    result: MatchResult
    event: str | None = None
    date: str | None = None
    seed_sha256: str | None = None
    seed: str | None = None


# -- from a live match ---------------------------------------------------------------------


def record_from_match(match: Match, *, players: Mapping[str, str]) -> MatchRecord:
    """The record of ``match`` so far (finished, forfeited or still in progress).

    ``players`` maps ``"white"`` and ``"black"`` to the players' names. Raises
    :class:`RecordError` if the last game is over but not yet scored (call
    :meth:`Match.record_game_end` after each play).
    """
    names = _check_players(players, "players")
    games = []
    for index, game in enumerate(match.games):
        number = index + 1
        result = match.results[index] if index < len(match.results) else None
        if game.winner is not None and (result is None or result.ending != Ending.BORNE_OFF):
            raise RecordError(
                f"game {number} was won by bearing off, but the match has not scored it:"
                " call Match.record_game_end() after each play"
            )
        events: list[RecordEvent] = []
        for event in game.events:
            if isinstance(event, OpeningRoll | DoubleNamed):
                events.append(event)
            else:
                events.append(
                    SegmentRecord(
                        event.player,
                        event.dice,
                        event.kind,
                        event.notation,
                        event.named_blot,
                    )
                )
        if game.phase is Phase.PLAY and game.dice is not None and game.kind is not None:
            events.append(SegmentRecord(game.position.turn, game.dice, game.kind, None))
        games.append(GameRecord(tuple(events), result))
    return MatchRecord(
        variant=match.variant.name,
        length=match.length,
        players=names,
        games=tuple(games),
        result=_match_result(match),
    )


def _match_result(match: Match) -> MatchResult:
    if match.forfeit is not None:
        ending: Ending | None = match.forfeit.ending
    elif match.winner is not None:
        ending = Ending.BORNE_OFF
    else:
        ending = None
    return MatchResult(match.winner, ending, match.score)


# -- replay ---------------------------------------------------------------------------------


class _OutOfDice(RecordError):
    """The engine asked for a die the record does not hold."""


class RecordDice:
    """A dice source serving exactly the dice of a record, game by game.

    :func:`replay` loads each game's recorded dice before the engine opens the game; a
    request beyond them raises :class:`RecordError`, and :attr:`remaining` shows dice the
    engine never used.
    """

    def __init__(self, values: Iterable[int] = ()) -> None:
        self._values: deque[int] = deque(values)

    def load(self, values: Iterable[int]) -> None:
        """Serve ``values`` next (in place of anything left)."""
        self._values = deque(values)

    @property
    def remaining(self) -> tuple[int, ...]:
        return tuple(self._values)

    def roll_die(self) -> int:
        if not self._values:
            raise _OutOfDice("the record ends here, but the game goes on with another roll")
        value = self._values.popleft()
        if not _is_int(value) or not 1 <= value <= 6:
            raise RecordError(f"a die shows 1 to 6, not {value!r}")
        return value


def _game_dice(game: GameRecord) -> list[int]:
    """The dice the engine rolls in this game, in the order it rolls them."""
    dice: list[int] = []
    for event in game.events:
        if isinstance(event, OpeningRoll):
            dice += [event.white, event.black]
        elif isinstance(event, SegmentRecord) and event.kind != SegmentKind.NAMED_DOUBLE:
            dice += list(event.dice)
    return dice


def replay(record: MatchRecord) -> Match:
    """Rebuild the match of ``record`` through the engine, checking every step.

    The dice come from the record; each recorded play must be legal (it is matched with
    :func:`~games.engine.notation.format_play` of the legal plays, or read with
    ``parse_play``), and the recorded results, scores and ending must be what the replay
    gives. Raises :class:`RecordError` naming the game and turn otherwise.
    """
    _check_record(record)
    dice = RecordDice(_game_dice(record.games[0]))
    try:
        match = Match(record.variant, record.length, dice)
    except _OutOfDice:
        raise RecordError("game 1: the record ends before the first roll") from None
    except EngineError as error:
        raise RecordError(f"game 1: {error}") from None
    count = len(record.games)
    for index, game_record in enumerate(record.games):
        number = index + 1
        _replay_game(match, number, game_record, last=number == count)
        if dice.remaining:
            raise RecordError(
                f"game {number}: the record holds dice the replay never used"
                f" ({', '.join(map(str, dice.remaining))})"
            )
        _replay_result(match, number, game_record, record, dice)
    _check_match_result(match, record.result)
    return match


def _check_record(record: MatchRecord) -> None:
    if record.variant not in VARIANTS:
        raise RecordError(f"unknown variant {record.variant!r}: expected 'american' or 'greek'")
    if not _is_int(record.length) or record.length < 1:
        raise RecordError(f"a match is played to 1 point or more, not {record.length!r}")
    if not record.games:
        raise RecordError("the record holds no game")
    for index, game in enumerate(record.games):
        _check_openings(index + 1, game)


def _check_openings(number: int, game: GameRecord) -> None:
    openings = game.openings
    if not openings:
        raise RecordError(f"game {number}: the record has no opening roll (R1)")
    count = len(openings)
    if any(not isinstance(e, OpeningRoll) for e in game.events[:count]):
        raise RecordError(f"game {number}: the opening rolls must come before the first turn")
    for i, opening in enumerate(openings, 1):
        for die in (opening.white, opening.black):
            if not _is_int(die) or not 1 <= die <= 6:
                raise RecordError(f"game {number}: a die shows 1 to 6, not {die!r}")
        tie = opening.winner is None
        if tie and i == count:
            raise RecordError(
                f"game {number}: the opening roll {opening.white}-{opening.black} is a tie,"
                " so it must be rolled again (R1)"
            )
        if not tie and i < count:
            raise RecordError(
                f"game {number}: the opening roll {opening.white}-{opening.black} decides who"
                " starts, so no other opening roll may follow it (R1)"
            )


def _replay_game(match: Match, number: int, record: GameRecord, *, last: bool) -> None:
    game = match.games[number - 1]
    recorded = [e for e in record.events if isinstance(e, OpeningRoll)]
    replayed = [e for e in game.events if isinstance(e, OpeningRoll)]
    if recorded != replayed:
        raise RecordError(f"game {number}: the opening rolls do not replay as recorded")
    where = f"game {number}"
    pending = _pending_text(record.result)
    for turn_number, turn in enumerate(record.turns(), 1):
        for event in turn:
            where = f"game {number}, turn {turn_number} ({_describe(event, pending)})"
            _check_turn_order(game, event, where)
            if isinstance(event, DoubleNamed):
                try:
                    game.name_double(event.value)
                except EngineError as error:
                    raise RecordError(f"{where}: {error}") from None
                continue
            if event.is_pending:
                if not last or event is not record.events[-1]:
                    raise RecordError(
                        f"{where}: only the last segment of the record can be still to play"
                    )
                continue
            play = _find_play(game, event, where)
            try:
                game.play(play, name_blot=event.named_blot)
            except EngineError as error:  # an illegal naming, or the record's dice ran out
                raise RecordError(f"{where}: {error}") from None
    final = record.events[-1]
    if game.phase is Phase.PLAY and not (isinstance(final, SegmentRecord) and final.is_pending):
        raise RecordError(
            f"{where}: the record ends here, but the game goes on with"
            f" {game.position.turn}'s {_dice(game.dice)}"
        )


def _check_turn_order(game: Game, event: DoubleNamed | SegmentRecord, where: str) -> None:
    """Is ``event`` what the engine expects next: the right player, phase, dice and kind?"""
    phase = game.phase
    if phase is Phase.FINISHED:
        raise RecordError(f"{where}: the game is already over ({game.winner} bore off)")
    mover = game.position.turn
    if event.player != mover:
        raise RecordError(f"{where}: it is {mover}'s turn, not {event.player}'s")
    if isinstance(event, DoubleNamed):
        if phase is not Phase.NAME_DOUBLE:
            raise RecordError(f"{where}: a double can only be named right after a 1-2 (R7.3)")
        return
    if phase is Phase.NAME_DOUBLE:
        raise RecordError(f"{where}: {mover} must name a double first (R7.3)")
    if tuple(event.dice) != game.dice:
        raise RecordError(
            f"{where}: the dice to play are {_dice(game.dice)}, not {_dice(event.dice)}"
        )
    if event.kind != game.kind:
        raise RecordError(
            f"{where}: the segment is a {SegmentKind(game.kind).value} segment,"
            f" not {SegmentKind(event.kind).value}"
        )


def _find_play(game: Game, event: SegmentRecord, where: str) -> Play:
    """The legal play the record names: its canonical notation, or as ``parse_play`` reads it."""
    text = " ".join((event.play or "").split())
    plays = game.legal_plays()
    for play in plays:
        if format_play(play) == text:
            return play
    if not text:
        example = format_play(plays[0]) if plays else ""
        raise RecordError(
            f"{where}: the record shows no move, but a play is possible (e.g. {example})"
        )
    from . import notation

    try:
        return notation.parse_play(game.position, game.dice, text, plays=plays)
    except NotImplementedError:
        raise RecordError(f"{where}: not a legal play") from None
    except EngineError as error:
        raise RecordError(f"{where}: {error}") from None


def _replay_result(
    match: Match, number: int, game_record: GameRecord, record: MatchRecord, dice: RecordDice
) -> None:
    game = match.games[number - 1]
    recorded = game_record.result
    has_next = number < len(record.games)
    if game.winner is not None:
        dice.load(_game_dice(record.games[number]) if has_next else ())
        try:
            result = match.record_game_end()
        except _OutOfDice:
            if has_next:
                raise RecordError(
                    f"game {number + 1}: the record ends before the first roll"
                ) from None
            score = match.score
            raise RecordError(
                f"game {number}: the match goes on (white {score.white}, black {score.black},"
                f" to {match.length}), but the record has no game {number + 1}"
            ) from None
        assert result is not None
        if recorded is None:
            raise RecordError(
                f"game {number}: the record gives no result, but {result.winner} bore off"
                f" and scores {result.points}"
            )
        _compare_result(number, recorded, result)
        if has_next and match.is_over:
            raise RecordError(
                f"game {number}: {match.winner} has won the match, but the record goes on"
                f" with game {number + 1}"
            )
        return
    if has_next:
        raise RecordError(
            f"game {number}: the game is not over, but the record goes on with game {number + 1}"
        )
    if recorded is None:
        return
    if recorded.ending == Ending.BORNE_OFF:
        raise RecordError(
            f"game {number}: the record says {recorded.winner} bore off, but the replay's"
            " game is not over"
        )
    loser = opponent(recorded.winner)
    try:
        if recorded.ending == Ending.RESIGNATION:
            result = match.resign(loser)
        else:
            result = match.timeout(loser)
    except EngineError as error:
        raise RecordError(f"game {number}: {error}") from None
    _compare_result(number, recorded, result)


def _compare_result(number: int, recorded: GameResult, replayed: GameResult) -> None:
    if recorded.winner != replayed.winner:
        raise RecordError(
            f"game {number}: the record says {recorded.winner} wins, the replay gives"
            f" {replayed.winner}"
        )
    if recorded.ending != replayed.ending:
        raise RecordError(
            f"game {number}: the record says the game ended by {_ENDING_WORDS[recorded.ending]},"
            f" the replay gives {_ENDING_WORDS[replayed.ending]}"
        )
    if recorded.points != replayed.points:
        raise RecordError(
            f"game {number}: the record says {recorded.winner} scores {recorded.points},"
            f" the replay gives {replayed.points}"
        )


_ENDING_WORDS = {
    Ending.BORNE_OFF: "bearing off",
    Ending.RESIGNATION: "resignation",
    Ending.TIMEOUT: "timeout",
}


def _check_match_result(match: Match, recorded: MatchResult) -> None:
    replayed = _match_result(match)
    if tuple(recorded.score) != tuple(replayed.score):
        raise RecordError(
            f"match: the record gives the score as white {recorded.score[0]},"
            f" black {recorded.score[1]}; the replay gives white {replayed.score.white},"
            f" black {replayed.score.black}"
        )
    if recorded.winner != replayed.winner:
        said = f"{recorded.winner} wins" if recorded.winner else "the match is not finished"
        gives = f"{replayed.winner} wins" if replayed.winner else "the match is not finished"
        raise RecordError(f"match: the record says {said}, the replay gives: {gives}")
    if recorded.ending != replayed.ending:
        raise RecordError(
            f"match: the record says the match ended by {_ENDING_WORDS.get(recorded.ending)},"
            f" the replay gives {_ENDING_WORDS.get(replayed.ending)}"
        )


def import_text(text: str) -> Match:
    """Read a text record and replay it: the rebuilt :class:`Match`."""
    return replay(from_text(text))


def import_json(data: Mapping[str, Any]) -> Match:
    """Read a JSON record (a parsed dict) and replay it: the rebuilt :class:`Match`."""
    return replay(from_json(data))


# -- JSON --------------------------------------------------------------------------------


def to_json(record: MatchRecord) -> dict[str, Any]:
    """The record as a JSON-ready dict (see the module docs)."""
    return {
        "format": FORMAT,
        "variant": record.variant,
        "length": record.length,
        "players": {"white": record.players["white"], "black": record.players["black"]},
        "event": record.event,
        "date": record.date,
        "seed_sha256": record.seed_sha256,
        "seed": record.seed,
        "games": [
            {
                "events": [_event_to_json(e) for e in game.events],
                "result": _game_result_to_json(game.result),
            }
            for game in record.games
        ],
        "result": {
            "winner": record.result.winner,
            "ending": None if record.result.ending is None else Ending(record.result.ending).value,
            "score": {"white": record.result.score[0], "black": record.result.score[1]},
        },
    }


def _event_to_json(event: RecordEvent) -> dict[str, Any]:
    if isinstance(event, OpeningRoll):
        return {"type": "opening", "white": event.white, "black": event.black}
    if isinstance(event, DoubleNamed):
        return {"type": "double", "player": event.player, "value": event.value}
    return {
        "type": "segment",
        "player": event.player,
        "kind": SegmentKind(event.kind).value,
        "dice": list(event.dice),
        "play": event.play,
        "named_blot": event.named_blot,
    }


def _game_result_to_json(result: GameResult | None) -> dict[str, Any] | None:
    if result is None:
        return None
    return {"winner": result.winner, "points": result.points, "ending": result.ending.value}


def from_json(data: Any) -> MatchRecord:
    """Read a dict made by :func:`to_json`, checking its shape (not yet the rules).

    Raises :class:`RecordError` naming the offending field, e.g.
    ``games[0].events[4].dice: expected two dice from 1 to 6``.
    """
    _expect_keys(
        data,
        "record",
        required={"format", "variant", "length", "players", "games", "result"},
        optional={"event", "date", "seed_sha256", "seed"},
    )
    if data["format"] != FORMAT:
        raise RecordError(f"format: expected {FORMAT!r}, not {data['format']!r}")
    variant = data["variant"]
    if not isinstance(variant, str) or variant not in VARIANTS:
        raise RecordError(f"variant: expected 'american' or 'greek', not {variant!r}")
    length = data["length"]
    if not _is_int(length) or length < 1:
        raise RecordError(f"length: expected a whole number of points, 1 or more, not {length!r}")
    players = _check_players(data["players"], "players")
    games = data["games"]
    if not isinstance(games, list) or not games:
        raise RecordError("games: expected a list of at least one game")
    seed_sha256, seed = _check_seed(
        data.get("seed_sha256"), data.get("seed"), names=("seed_sha256", "seed")
    )
    return MatchRecord(
        variant=variant,
        length=length,
        players=players,
        games=tuple(_game_from_json(g, f"games[{i}]") for i, g in enumerate(games)),
        result=_match_result_from_json(data["result"], "result"),
        event=_optional_text(data.get("event"), "event"),
        date=_optional_text(data.get("date"), "date"),
        seed_sha256=seed_sha256,
        seed=seed,
    )


def _game_from_json(data: Any, path: str) -> GameRecord:
    _expect_keys(data, path, required={"events", "result"})
    events = data["events"]
    if not isinstance(events, list):
        raise RecordError(f"{path}.events: expected a list")
    parsed = tuple(_event_from_json(e, f"{path}.events[{i}]") for i, e in enumerate(events))
    result = data["result"]
    return GameRecord(
        parsed, None if result is None else _game_result_from_json(result, f"{path}.result")
    )


def _event_from_json(data: Any, path: str) -> RecordEvent:
    if not isinstance(data, Mapping) or "type" not in data:
        raise RecordError(f"{path}: expected an object with a 'type'")
    kind = data["type"]
    if kind == "opening":
        _expect_keys(data, path, required={"type", "white", "black"})
        return OpeningRoll(
            _die(data["white"], f"{path}.white"), _die(data["black"], f"{path}.black")
        )
    if kind == "double":
        _expect_keys(data, path, required={"type", "player", "value"})
        return DoubleNamed(
            _color(data["player"], f"{path}.player"), _die(data["value"], f"{path}.value")
        )
    if kind == "segment":
        _expect_keys(data, path, required={"type", "player", "kind", "dice", "play", "named_blot"})
        dice = data["dice"]
        if not isinstance(dice, list) or len(dice) != 2:
            raise RecordError(f"{path}.dice: expected two dice from 1 to 6, not {dice!r}")
        pair = (_die(dice[0], f"{path}.dice"), _die(dice[1], f"{path}.dice"))
        try:
            segment_kind = SegmentKind(data["kind"])
        except ValueError:
            raise RecordError(
                f"{path}.kind: expected 'roll', 'acey_deucey' or 'named_double',"
                f" not {data['kind']!r}"
            ) from None
        play = data["play"]
        if play is not None and (not isinstance(play, str) or _NOT_IN_A_PLAY.search(play)):
            raise RecordError(f"{path}.play: expected a play's notation or null, not {play!r}")
        blot = data["named_blot"]
        if blot is not None and (not _is_int(blot) or not 1 <= blot <= 24):
            raise RecordError(f"{path}.named_blot: expected a point from 1 to 24 or null")
        if blot is not None and play is None:
            raise RecordError(f"{path}.named_blot: a blot is named only after a play")
        return SegmentRecord(
            _color(data["player"], f"{path}.player"), pair, segment_kind, play, blot
        )
    raise RecordError(f"{path}.type: expected 'opening', 'double' or 'segment', not {kind!r}")


def _game_result_from_json(data: Any, path: str) -> GameResult:
    _expect_keys(data, path, required={"winner", "points", "ending"})
    points = data["points"]
    if not _is_int(points) or points < 1:
        raise RecordError(f"{path}.points: expected a whole number of points, not {points!r}")
    return GameResult(
        _color(data["winner"], f"{path}.winner"), points, _ending(data["ending"], f"{path}.ending")
    )


def _match_result_from_json(data: Any, path: str) -> MatchResult:
    _expect_keys(data, path, required={"winner", "ending", "score"})
    score = data["score"]
    _expect_keys(score, f"{path}.score", required={"white", "black"})
    for color in COLORS:
        if not _is_int(score[color]) or score[color] < 0:
            raise RecordError(f"{path}.score.{color}: expected a whole number of points")
    winner = data["winner"]
    ending = data["ending"]
    if (winner is None) != (ending is None):
        raise RecordError(f"{path}: a finished match has both a winner and an ending")
    return MatchResult(
        None if winner is None else _color(winner, f"{path}.winner"),
        None if ending is None else _ending(ending, f"{path}.ending"),
        Pair(score["white"], score["black"]),
    )


def _expect_keys(
    data: Any, path: str, *, required: set[str], optional: frozenset[str] | set[str] = frozenset()
) -> None:
    if not isinstance(data, Mapping):
        raise RecordError(f"{path}: expected an object")
    missing = required - data.keys()
    if missing:
        raise RecordError(f"{path}: missing {', '.join(sorted(missing))}")
    extra = data.keys() - required - optional
    if extra:
        raise RecordError(f"{path}: unknown keys {', '.join(sorted(map(str, extra)))}")


def _die(value: Any, path: str) -> int:
    if not _is_int(value) or not 1 <= value <= 6:
        raise RecordError(f"{path}: a die shows 1 to 6, not {value!r}")
    return value


def _color(value: Any, path: str) -> Color:
    if value not in COLORS:
        raise RecordError(f"{path}: expected 'white' or 'black', not {value!r}")
    return WHITE if value == WHITE else BLACK


def _ending(value: Any, path: str) -> Ending:
    try:
        return Ending(value)
    except ValueError:
        raise RecordError(
            f"{path}: expected 'borne_off', 'resignation' or 'timeout', not {value!r}"
        ) from None


def _optional_text(value: Any, path: str) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str) or "\n" in value or "\r" in value:
        raise RecordError(f"{path}: expected a line of text or null")
    return value


_HEX_64 = re.compile(r"[0-9a-f]{64}")


def _check_seed(
    seed_sha256: Any, seed: Any, *, names: tuple[str, str]
) -> tuple[str | None, str | None]:
    """The fair-dice commitment and seed, each 64 lower-case hex digits or ``None``; a
    seed given with its commitment must be the one committed to."""
    for value, name in zip((seed_sha256, seed), names, strict=True):
        if value is not None and not (isinstance(value, str) and _HEX_64.fullmatch(value)):
            raise RecordError(f"{name}: expected 64 hex digits (0-9, a-f), not {value!r}")
    committed = seed_sha256 is not None and seed is not None
    if committed and hashlib.sha256(bytes.fromhex(seed)).hexdigest() != seed_sha256:
        raise RecordError(f"{names[1]}: its SHA-256 is not {names[0]}")
    return seed_sha256, seed


def _check_players(players: Any, path: str) -> dict[str, str]:
    _expect_keys(players, path, required={"white", "black"})
    for color in COLORS:
        name = players[color]
        if not isinstance(name, str) or not name.strip() or "\n" in name or "\r" in name:
            raise RecordError(f"{path}.{color}: expected a player's name (one line of text)")
    return {"white": players["white"], "black": players["black"]}


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


# -- text ----------------------------------------------------------------------------------


_ENDING_TEXT = {Ending.RESIGNATION: "resigns", Ending.TIMEOUT: "times out"}
_UNPLAYED_TEXT = {Ending.RESIGNATION: "resigned", Ending.TIMEOUT: "timed out"}


def to_text(record: MatchRecord) -> str:
    """The record as readable text (see the module docs).

    Raises :class:`RecordError` for a record the format cannot express (a header value
    with a line break, a named-double segment without its naming, a play holding ``;``).
    """
    header = [
        ("Variant", record.variant),
        ("Length", str(record.length)),
        ("White", record.players["white"]),
        ("Black", record.players["black"]),
    ]
    if record.event is not None:
        header.append(("Event", record.event))
    if record.date is not None:
        header.append(("Date", record.date))
    if record.seed_sha256 is not None:
        header.append(("SeedSHA256", record.seed_sha256))
    if record.seed is not None:
        header.append(("Seed", record.seed))
    header.append(("Result", _match_result_text(record.result)))
    lines = [f'[{key} "{_escape(value)}"]' for key, value in header]
    for number, game in enumerate(record.games, 1):
        lines += ["", f"Game {number}"]
        lines += [f"opening: white {o.white}, black {o.black}" for o in game.openings]
        pending = _pending_text(game.result)
        try:
            lines += [_turn_text(turn, pending) for turn in game.turns()]
        except RecordError as error:
            raise RecordError(f"game {number}: {error}") from None
        if game.result is not None:
            lines.append(_game_result_text(game.result))
    lines += ["", f"match: {_match_result_text(record.result)}"]
    return "\n".join(lines) + "\n"


def _escape(value: str) -> str:
    if "\n" in value or "\r" in value:
        raise RecordError("a header value cannot hold a line break")
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _dice(dice: Sequence[int] | None) -> str:
    return "-".join(map(str, dice or ()))


def _pending_text(result: GameResult | None) -> str:
    """What a segment not played says: still to play, unless the game (and so the match)
    ended by resignation or timeout before it was played."""
    if result is None or result.ending == Ending.BORNE_OFF:
        return "to play"
    return f"not played: {opponent(result.winner)} {_UNPLAYED_TEXT[Ending(result.ending)]}"


def _segment_text(event: DoubleNamed | SegmentRecord, pending: str = "to play") -> str:
    """One segment as on a turn line, without the player; ``pending`` is what a segment
    not played says in place of its play (see :func:`_pending_text`)."""
    if isinstance(event, DoubleNamed):
        return f"named {event.value}-{event.value}"
    prefix = "named " if event.kind == SegmentKind.NAMED_DOUBLE else ""
    if event.play is not None and _NOT_IN_A_PLAY.search(event.play):
        raise RecordError(f"{event.player} {_dice(event.dice)}: {event.play!r} is no play")
    if event.play is None:
        return f"{prefix}{_dice(event.dice)} ({pending})"
    return f"{prefix}{_dice(event.dice)}: {event.play}".rstrip()


def _describe(event: DoubleNamed | SegmentRecord, pending: str = "to play") -> str:
    """An event as shown in an error message: ``white 6-3: 13/4``."""
    text = f"{event.player} {_segment_text(event, pending)}"
    if isinstance(event, SegmentRecord) and event.named_blot is not None:
        text += f" [name {event.named_blot}]"
    return text


def _turn_text(turn: list[DoubleNamed | SegmentRecord], pending: str) -> str:
    parts: list[str] = []
    blot = None
    for i, event in enumerate(turn):
        if isinstance(event, DoubleNamed):
            following = turn[i + 1] if i + 1 < len(turn) else None
            if (
                isinstance(following, SegmentRecord)
                and following.kind == SegmentKind.NAMED_DOUBLE
                and following.dice == (event.value, event.value)
            ):
                continue  # written together with its segment: "named 6-6: ..."
            parts.append(_segment_text(event))
            continue
        if event.kind == SegmentKind.NAMED_DOUBLE and not _follows_naming(turn, i, event):
            raise RecordError(
                f"{event.player} {_segment_text(event)}: a named-double segment must follow"
                " the naming of its double"
            )
        parts.append(_segment_text(event, pending))
        if event.named_blot is not None:
            if i != len(turn) - 1:
                raise RecordError(
                    f"{_describe(event)}: a blot can only be named at the end of a turn"
                )
            blot = event.named_blot
    line = f"{turn[0].player} " + "; ".join(parts)
    if blot is not None:
        line += f" [name {blot}]"
    return line


def _follows_naming(turn: list[DoubleNamed | SegmentRecord], i: int, event: SegmentRecord) -> bool:
    previous = turn[i - 1] if i > 0 else None
    return isinstance(previous, DoubleNamed) and event.dice == (previous.value, previous.value)


def _game_result_text(result: GameResult) -> str:
    unit = "point" if result.points == 1 else "points"
    return f"{result.winner} wins {result.points} {unit} ({_ending_text(result)})"


def _ending_text(result: GameResult | MatchResult) -> str:
    assert result.winner is not None and result.ending is not None
    if result.ending == Ending.BORNE_OFF:
        return "borne off"
    return f"{opponent(result.winner)} {_ENDING_TEXT[Ending(result.ending)]}"


def _match_result_text(result: MatchResult) -> str:
    score = f"white {result.score[0]}, black {result.score[1]}"
    if result.winner is None:
        return f"{score}; not finished"
    return f"{score}; {result.winner} wins ({_ending_text(result)})"


# Numbers are ASCII digits, and short: int() refuses (ValueError) more than 4300 digits,
# and "\d" alone would read other scripts' digits as well.
_NUMBER = r"([0-9]{1,9})"
_HEADER = re.compile(r'\[(\w+)\s+"((?:[^"\\]|\\.)*)"\]')
_GAME = re.compile(rf"Game {_NUMBER}")
_OPENING = re.compile(rf"opening: white {_NUMBER}, black {_NUMBER}")
_ENDING = r"(borne off|(white|black) resigns|(white|black) times out)"
_GAME_RESULT = re.compile(rf"(white|black) wins {_NUMBER} points? \({_ENDING}\)")
_MATCH_RESULT = re.compile(
    rf"white {_NUMBER}, black {_NUMBER}; (?:(white|black) wins \({_ENDING}\)|not finished)"
)
_TURN = re.compile(rf"(white|black) (.*?)(?:\s*\[name {_NUMBER}\])?")
_SEGMENT = re.compile(
    r"(named )?([0-9])-([0-9])"
    r"(?:\s*(:)(.*)|\s+\((to play|not played: (white|black) (resigned|timed out))\))?"
)
_REQUIRED_HEADER = ("Variant", "Length", "White", "Black", "Result")
_OPTIONAL_HEADER = ("Event", "Date", "SeedSHA256", "Seed")


def from_text(text: str) -> MatchRecord:
    """Read a record written by :func:`to_text` (or by hand in that format).

    Checks the format only; :func:`replay` checks the rules. Raises :class:`RecordError`
    naming the line, e.g. ``line 12: ...``.
    """
    if not isinstance(text, str):
        raise RecordError("a text record must be a string")
    header: dict[str, str] = {}
    games: list[GameRecord] = []
    events: list[RecordEvent] | None = None
    result: GameResult | None = None
    # A segment marked "(not played: L resigned)": its line, L and the ending it names.
    unplayed: tuple[int, Color, Ending] | None = None
    match_line: tuple[int, MatchResult] | None = None

    def close_game() -> None:
        if events is not None:
            if unplayed is not None:
                _check_unplayed(*unplayed, result)
            games.append(GameRecord(tuple(events), result))

    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        where = f"line {number}"
        if match_line is not None:
            raise RecordError(f"{where}: nothing may follow the match result line")
        if line.startswith("["):
            if events is not None:
                raise RecordError(f"{where}: header lines come before the first game")
            key, value = _header_line(line, where)
            if key in header:
                raise RecordError(f"{where}: the header {key} is given twice")
            header[key] = value
            continue
        if m := _GAME.fullmatch(line):
            close_game()
            if int(m[1]) != len(games) + 1:
                raise RecordError(f"{where}: expected Game {len(games) + 1}, not Game {m[1]}")
            events, result, unplayed = [], None, None
            continue
        if line.startswith("match:"):
            close_game()
            events = None
            match_line = (number, _match_result_line(line[len("match:") :].strip(), where))
            continue
        if events is None:
            raise RecordError(f"{where}: expected a header line or 'Game 1', not {line!r}")
        if result is not None:
            raise RecordError(f"{where}: the game's result line must be its last line")
        if m := _OPENING.fullmatch(line):
            if any(not isinstance(e, OpeningRoll) for e in events):
                raise RecordError(f"{where}: the opening rolls come before the first turn")
            events.append(OpeningRoll(_die(int(m[1]), where), _die(int(m[2]), where)))
            continue
        if m := _GAME_RESULT.fullmatch(line):
            result = _game_result_line(m, where)
            continue
        if m := _TURN.fullmatch(line):
            turn, marked = _turn_line(m, where)
            events += turn
            if marked is not None:
                unplayed = (number, *marked)
            continue
        raise RecordError(f"{where}: cannot read {line!r}")
    if match_line is None:
        raise RecordError("the record ends before the match result line ('match: ...')")
    missing = [k for k in _REQUIRED_HEADER if k not in header]
    if missing:
        raise RecordError(f"the header lacks {', '.join(missing)}")
    if not games:
        raise RecordError("the record holds no game")
    final = match_line[1]
    if _match_result_line(header["Result"], "the Result header") != final:
        raise RecordError(
            f"line {match_line[0]}: the match result line does not agree with the Result header"
        )
    variant = header["Variant"]
    if variant not in VARIANTS:
        raise RecordError(f"Variant: expected 'american' or 'greek', not {variant!r}")
    if not re.fullmatch(r"[1-9][0-9]{0,8}", header["Length"]):
        raise RecordError(f"Length: expected a whole number of points, not {header['Length']!r}")
    players = _check_players({"white": header["White"], "black": header["Black"]}, "header")
    seed_sha256, seed = _check_seed(
        header.get("SeedSHA256"), header.get("Seed"), names=("SeedSHA256", "Seed")
    )
    return MatchRecord(
        variant=variant,
        length=int(header["Length"]),
        players=players,
        games=tuple(games),
        result=final,
        event=header.get("Event"),
        date=header.get("Date"),
        seed_sha256=seed_sha256,
        seed=seed,
    )


def _header_line(line: str, where: str) -> tuple[str, str]:
    m = _HEADER.fullmatch(line)
    if not m:
        raise RecordError(f'{where}: expected a header line like [White "Alice"], not {line!r}')
    key = m[1]
    if key not in _REQUIRED_HEADER + _OPTIONAL_HEADER:
        raise RecordError(
            f"{where}: unknown header {key!r}"
            f" (expected {', '.join(_REQUIRED_HEADER + _OPTIONAL_HEADER)})"
        )
    return key, re.sub(r"\\(.)", r"\1", m[2])


def _parse_ending(winner: Color, m: re.Match[str], group: int, where: str) -> Ending:
    text = m[group]
    if text == "borne off":
        return Ending.BORNE_OFF
    loser = m[group + 1] or m[group + 2]
    if loser == winner:
        raise RecordError(f"{where}: {winner} cannot both win and {text.split(' ', 1)[1]}")
    return Ending.RESIGNATION if m[group + 1] else Ending.TIMEOUT


def _game_result_line(m: re.Match[str], where: str) -> GameResult:
    winner = _color(m[1], where)
    points = int(m[2])
    if points < 1:
        raise RecordError(f"{where}: a game is won by 1 point or more")
    return GameResult(winner, points, _parse_ending(winner, m, 3, where))


def _match_result_line(text: str, where: str) -> MatchResult:
    m = _MATCH_RESULT.fullmatch(text)
    if not m:
        raise RecordError(
            f"{where}: expected a match result like 'white 3, black 1; white wins (borne off)'"
            f" or 'white 1, black 0; not finished', not {text!r}"
        )
    score = Pair(int(m[1]), int(m[2]))
    if m[3] is None:
        return MatchResult(None, None, score)
    winner = _color(m[3], where)
    return MatchResult(winner, _parse_ending(winner, m, 4, where), score)


def _turn_line(
    m: re.Match[str], where: str
) -> tuple[list[DoubleNamed | SegmentRecord], tuple[Color, Ending] | None]:
    """The events of a turn line, and who ended the match before its last segment was
    played and how, if it is marked ``(not played: L resigned)`` or ``... timed out)``."""
    player = _color(m[1], where)
    unplayed: tuple[Color, Ending] | None = None
    blot = None if m[3] is None else int(m[3])
    if blot is not None and not 1 <= blot <= 24:
        raise RecordError(f"{where}: a named blot is a point from 1 to 24, not {blot}")
    events: list[DoubleNamed | SegmentRecord] = []
    parts = m[2].split(";")
    for i, part in enumerate(parts):
        last = i == len(parts) - 1
        segment = _SEGMENT.fullmatch(part.strip())
        if not segment or not (segment[1] or segment[4] or segment[6]):
            raise RecordError(
                f"{where}: cannot read the segment {part.strip()!r}"
                " (expected e.g. '6-3: 13/7 13/10' or 'named 6-6: 24/18(4)')"
            )
        named, a, b = segment[1], int(segment[2]), int(segment[3])
        dice = (_die(a, where), _die(b, where))
        if named:
            if a != b:
                raise RecordError(f"{where}: a named double has two equal dice, not {a}-{b}")
            events.append(DoubleNamed(player, a))
            kind = SegmentKind.NAMED_DOUBLE
            if not (segment[4] or segment[6]):
                continue  # the double is named; its segment is not in the record
        elif sorted(dice) == [1, 2]:
            kind = SegmentKind.ACEY_DEUCEY
        else:
            kind = SegmentKind.ROLL
        play = None if segment[4] is None else " ".join(segment[5].split())
        if play is None and not last:
            raise RecordError(f"{where}: only the turn's last segment can be still to play")
        if segment[7]:
            ending = Ending.RESIGNATION if segment[8] == "resigned" else Ending.TIMEOUT
            unplayed = (_color(segment[7], where), ending)
        if last and blot is not None and play is None:
            raise RecordError(f"{where}: a blot is named only at the end of a played turn")
        events.append(SegmentRecord(player, dice, kind, play, blot if last else None))
    if blot is not None and not isinstance(events[-1], SegmentRecord):
        raise RecordError(f"{where}: a blot is named only at the end of a played turn")
    return events, unplayed


def _check_unplayed(line: int, loser: Color, ending: Ending, result: GameResult | None) -> None:
    """A segment marked not played because ``loser`` resigned or timed out: the game's
    result line must say so."""
    said = f"{loser} {_UNPLAYED_TEXT[ending]}"
    if result is None:
        raise RecordError(
            f"line {line}: the segment was not played because {said}, but the game has no"
            " result line"
        )
    if result.ending != ending or opponent(result.winner) != loser:
        actual = _ending_text(result)
        raise RecordError(
            f"line {line}: the segment was not played because {said}, but the game's result"
            f" line says {actual}"
        )
