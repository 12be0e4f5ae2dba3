"""Matches with scripted dice, as many tests start them."""

from __future__ import annotations

import operator
from typing import TYPE_CHECKING

from games import services
from games.dice import roll_pair
from games.engine import format_play
from games.engine.game import Phase, ScriptedDice

if TYPE_CHECKING:
    from games.models import Match

#: An opening roll white wins (5 against 2), then white's first roll, 6-3.
WHITE_OPENS = (5, 2, 6, 3)


def opened_by_white(white, black, *, dice=WHITE_OPENS, **options) -> Match:
    """A 1-point american match (``options`` may say otherwise) in which white wins the
    opening roll and is to play the last two ``dice`` (6-3 by default)."""
    settings = {"variant": "american", "points": 1, "days_per_move": 2, **options}
    return services.start_match(white=white, black=black, dice=ScriptedDice(list(dice)), **settings)


def take_turn(match: Match, user, dice: list[int] | None = None, **action) -> Match:
    """``user`` acts on ``match``'s current segment, as a page or the API would send it
    (``action``: ``play="13/7 8/7"``, ``double=6``, ``steps=...``, ``name_blot=...``), with
    ``dice`` for the rolls that follow (the match's own seed without). Returns the match as
    the service saved it."""
    return services.submit_segment(
        match.pk,
        user=user,
        action=services.TurnAction(segment=match.segment_count, **action),
        dice=ScriptedDice(list(dice)) if dice else None,
    )


def each_moves(match: Match) -> Match:
    """Both players of ``match`` move, each playing the first legal play of their turn's
    segments (or naming the first double allowed), on the match's own dice: a result after
    that is rated (games.ratings.store.played_by_both), one before it is not. Each plays a
    whole turn: the player to move at the start is to move again at the end (a 1-2 is
    followed by its double, and an american one by its extra roll). Returns the match as
    the service saved it."""
    first = match.to_move_id
    moved = set()
    while len(moved) < 2 or match.to_move_id != first:
        game = services.load_game(match)
        user = match.to_move
        if game.phase is Phase.NAME_DOUBLE:
            match = take_turn(match, user, double=game.allowed_doubles()[0])
        else:
            match = take_turn(match, user, play=format_play(game.legal_plays()[0]))
        moved.add(user.pk)
    return match


def set_position(
    match: Match,
    turn: str,
    points: list[int],
    *,
    variant: str = "american",
    bar: dict[str, int] | None = None,
    off: dict[str, int] | None = None,
    named_blot: int | None = None,
) -> Match:
    """Put ``match`` in a position made for a test, ``turn`` to move: ``points`` as in the
    position format (absolute numbers, white's checkers positive, black's negative), ``bar``
    and ``off`` by colour (none unless given), and each colour's other checkers waiting to
    enter, which the greek game has none of."""
    none = {"white": 0, "black": 0}
    bar, off = bar or none, off or none
    on_board = {
        "white": sum(n for n in points if n > 0),
        "black": -sum(n for n in points if n < 0),
    }
    waiting = {c: 15 - on_board[c] - bar[c] - off[c] for c in ("white", "black")}
    if min(waiting.values()) < 0 or (variant == "greek" and any(waiting.values())):
        raise ValueError(f"the checkers do not add up to 15 each: {waiting} left waiting")
    match.position = {
        "variant": variant,
        "turn": turn,
        "points": points,
        "bar": bar,
        "off": off,
        "waiting": waiting,
        "named_blot": named_blot,
    }
    match.save()
    return match


def accepter_moves_first(monkeypatch) -> None:
    """Have the next challenge accepted start with its challenger as white and black (the
    player who accepts) winning the opening roll: the colours' shuffle left out, and the
    match's seed one whose first roll is higher for black. Its challenger then gets an
    email of the accept of its own (one who moves first is told in their turn's email)."""
    black_opens = next(
        seed for seed in (f"{n:064x}" for n in range(1, 100)) if operator.lt(*roll_pair(seed, 1))
    )
    monkeypatch.setattr("random.SystemRandom.shuffle", lambda self, players: None)
    monkeypatch.setattr("games.services.new_seed", lambda: black_opens)
