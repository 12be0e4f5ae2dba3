"""Drawing the board: the view model the match template turns into inline SVG.

Points are numbered from the viewer's side (a spectator sees White's): the viewer's home
board is bottom right, their points 1-12 run along the bottom from right to left and
13-24 along the top from left to right. The viewer's checkers, bar, waiting and borne-off
trays are in the bottom half, the opponent's in the top half. Coordinates are SVG user
units; the template scales the whole drawing to the width of the screen.

Layout, left to right: the waiting tray ("in", american), a frame, six points, the bar, six
points, a frame, the borne-off tray ("off"). Point numbers sit in bands above and below.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple

from django.db.models import Max, Min

from games.engine import (
    BAR,
    IN,
    OFF,
    InvalidNotationError,
    Position,
    Step,
    allowed_doubles,
    can_hit_named_blot,
    dice_as_written,
    format_dice,
    format_play,
    legal_plays,
    named_double_can_hit,
    opponent,
)
from games.engine.game import SegmentKind
from games.engine.moves import PartialPlay, partial_play, position_after_steps
from games.engine.notation import format_point, format_steps, read_steps
from games.engine.position import absolute_point, own_point

if TYPE_CHECKING:
    from collections.abc import Collection, Iterable

    from django.db.models import QuerySet

    from .models import GameResult, Match, Segment

POINT_W = 44
BAR_W = 44
TRAY_W = 52
FRAME = 10  # wood between a tray and the playing field
BAND = 28  # the bands above and below the field that hold the point numbers
HALF = 210  # height of each half of the playing field
POINT_H = 178  # length of a point's triangle
CHECKER_R = 19  # drawn radius; checkers are stacked 2 * STACK_R apart
STACK_R = 20
MAX_STACK = 5  # checkers drawn on one point; the last shows the count when there are more
MAX_BAR = 3
SLAB_H = 11  # a checker in a tray is drawn edge-on, as a slab
SLAB_GAP = 2

FIELD_LEFT = TRAY_W + FRAME
FIELD_TOP = BAND
MID_Y = BAND + HALF
FIELD_BOTTOM = BAND + 2 * HALF
BAR_X = FIELD_LEFT + 6 * POINT_W
RIGHT_FIELD_X = BAR_X + BAR_W
RIGHT_TRAY_X = RIGHT_FIELD_X + 6 * POINT_W + FRAME
WIDTH = RIGHT_TRAY_X + TRAY_W
HEIGHT = FIELD_BOTTOM + BAND

#: where the pips of a die face sit, on a face 0-10 wide
_PIPS = {
    1: [(5, 5)],
    2: [(2.5, 2.5), (7.5, 7.5)],
    3: [(2.5, 2.5), (5, 5), (7.5, 7.5)],
    4: [(2.5, 2.5), (7.5, 2.5), (2.5, 7.5), (7.5, 7.5)],
    5: [(2.5, 2.5), (7.5, 2.5), (5, 5), (2.5, 7.5), (7.5, 7.5)],
    6: [(2.5, 2.5), (7.5, 2.5), (2.5, 5), (7.5, 5), (2.5, 7.5), (7.5, 7.5)],
}


@dataclass
class Checker:
    x: float
    y: float
    color: str  # "white" / "black"
    label: str = ""


@dataclass
class Slab:
    """A checker edge-on in a tray (waiting or borne off)."""

    x: float
    y: float
    color: str


@dataclass
class Target:
    """A focusable, clickable area of the board: a source to select or a destination."""

    key: str  # a stable name, so that focus can follow the same place after a redraw
    x: float
    y: float
    width: float
    height: float
    label: str  # what a screen reader announces
    values: dict[str, str]  # posted to match_click
    dest: bool = False
    selected: bool = False  # the source selected: a click deselects it

    @property
    def vals(self) -> str:
        return json.dumps(self.values)


@dataclass
class Point:
    own: int  # the viewer's number
    x: float
    top: bool
    count: int  # viewer's checkers positive, opponent's negative
    path: str
    number_y: float
    shade: str  # "light" / "dark", alternating
    checkers: list[Checker] = field(default_factory=list)
    source: bool = False
    dest: bool = False
    selected: bool = False
    label: str = ""
    choice: dict[str, Any] | None = None  # the move that lands here, when it is a target
    ghost: Checker | None = None  # where the moving checker would land

    @property
    def center(self) -> float:
        return self.x + POINT_W / 2


def point_x(own: int) -> tuple[float, bool]:
    """Left edge of the viewer's point ``own`` and whether it is on the top row."""
    if own <= 12:
        column = 12 - own  # 12 at the far left, 1 at the far right
        top = False
    else:
        column = own - 13
        top = True
    x = FIELD_LEFT + column * POINT_W + (BAR_W if column >= 6 else 0)
    return x, top


def _stack_y(top: bool, index: int) -> float:
    offset = STACK_R + index * 2 * STACK_R
    return FIELD_TOP + offset if top else FIELD_BOTTOM - offset


def _stack(x: float, top: bool, count: int, color: str) -> list[Checker]:
    cx = x + POINT_W / 2
    checkers = []
    for i in range(min(count, MAX_STACK)):
        label = str(count) if i == MAX_STACK - 1 and count > MAX_STACK else ""
        checkers.append(Checker(cx, _stack_y(top, i), color, label))
    return checkers


def _point_path(x: float, top: bool) -> str:
    base = FIELD_TOP if top else FIELD_BOTTOM
    tip = base + POINT_H if top else base - POINT_H
    return f"M{x},{base} L{x + POINT_W},{base} L{x + POINT_W / 2},{tip} Z"


def _checkers(position: Position, color: str, own: int) -> int:
    """How many of ``color``'s checkers stand on their own point ``own`` (never negative:
    ``Position.checkers_at`` reads the opponent's checkers there as a negative count)."""
    return max(0, position.checkers_at(color, own))


def _describe(position: Position, viewer: str) -> str:
    """A plain-language description of the position for screen readers, for a player."""
    other = opponent(viewer)
    mine, theirs = [], []
    for own in range(24, 0, -1):
        n = _checkers(position, viewer, own)
        if n:
            mine.append(f"{n} on your {own}-point")
        m = _checkers(position, other, 25 - own)
        if m:
            theirs.append(f"{m} on your {own}-point")
    parts = [
        f"You play {viewer}.",
        "Your checkers: " + (", ".join(mine) or "none on the board") + ".",
        "Opponent's checkers: " + (", ".join(theirs) or "none on the board") + ".",
    ]
    for label, pair in (("on the bar", position.bar), ("borne off", position.off)):
        parts.append(f"{label.capitalize()}: you {pair.of(viewer)}, opponent {pair.of(other)}.")
    if position.variant.name == "american":
        waiting = position.waiting
        parts.append(f"Waiting to enter: you {waiting.of(viewer)}, opponent {waiting.of(other)}.")
    parts.append(
        f"Pip counts: you {position.pip_count(viewer)}, opponent {position.pip_count(other)}."
    )
    return " ".join(parts)


def _describe_for_spectator(position: Position, names: dict[str, str], turn: str) -> str:
    """The position for someone watching, for screen readers: both players by name, on
    White's numbering, and ``turn``, the sentence that says whose turn it is."""
    parts = ["Points are numbered from white's side.", *([turn] if turn else [])]
    for color in ("white", "black"):
        where = []
        for point in range(24, 0, -1):
            # White's point p is Black's own 25 - p.
            n = _checkers(position, color, point if color == "white" else 25 - point)
            if n:
                where.append(f"{n} on the {point}-point")
        checkers = ", ".join(where) or "none on the board"
        parts.append(f"{names[color]} ({color}): {checkers}.")
    counts = [("On the bar", position.bar), ("Borne off", position.off)]
    if position.variant.name == "american":
        counts.append(("Waiting to enter", position.waiting))
    white, black = names["white"], names["black"]
    for label, pair in counts:
        parts.append(f"{label}: {white} {pair.of('white')}, {black} {pair.of('black')}.")
    pips = (position.pip_count("white"), position.pip_count("black"))
    parts.append(f"Pip counts: {white} {pips[0]}, {black} {pips[1]}.")
    return " ".join(parts)


def _score_before(match: Match, game_number: int) -> dict[str, int]:
    """Each colour's points from the games of ``match`` before game ``game_number``."""
    score = {"white": 0, "black": 0}
    earlier = match.game_results.filter(game_number__lt=game_number)
    for winner, points in earlier.values_list("winner", "points"):
        score[winner] += points
    return score


def parse_steps(text: str) -> list[tuple[int, int]]:
    """Read the form's carried steps, ``"26-22 22-16"``; raise ValueError on garbage."""
    steps = []
    for part in text.split():
        source, _, dest = part.partition("-")
        if not (source.isdecimal() and dest.isdecimal()):
            raise ValueError("the carried moves are not valid")
        step = (int(source), int(dest))
        if not (0 < step[0] <= IN and 0 <= step[1] <= 24) or len(steps) >= 4:
            raise ValueError("the carried moves are not valid")
        steps.append(step)
    return steps


def steps_text(steps: Iterable[tuple[int, int]]) -> str:
    return " ".join(f"{source}-{dest}" for source, dest in steps)


def board_context(
    match: Match,
    *,
    viewer: Any,
    steps: list[tuple[int, int]],
    selected: int | None = None,
    replay: int | None = None,
    game: int | None = None,
    with_history: bool = True,
    news_since: int | None = None,
) -> dict[str, Any]:
    """Everything the board partial draws, from ``viewer``'s side.

    ``steps`` is the partial play carried by the form (the player to move only);
    ``selected`` is the source the player clicked, whose destinations are highlighted;
    ``replay`` shows the position after that stored segment instead of the live one.
    The history shows the latest game in full (``turns``) and each earlier game as a
    summary (``earlier_games``); ``game`` and the replayed segment's game are shown in
    full too. ``with_history=False`` leaves out the history (``turns`` is None, no
    ``earlier_games``): for a page that already shows it. ``news_since`` is the segment
    count of the board the page showed before: the news tells only what came after it.
    """
    color = match.color_of(viewer) if getattr(viewer, "is_authenticated", False) else None
    side = color or "white"
    other = opponent(side)
    position = Position.from_dict(match.position)
    live = replay is None
    replayed: Segment | None = None
    if not live:
        replayed = match.segments.filter(number__lte=replay).order_by("-number").first()
        if replayed is not None:
            position = Position.from_dict(replayed.position)

    partial: PartialPlay | None = None
    to_move = live and match.is_active and color is not None and match.to_move_id == viewer.pk
    # A player taking time away (games.away) must come back before playing: no controls.
    away = bool(to_move and viewer.is_away())
    playing = bool(to_move and not away and match.phase == "play" and match.dice)
    naming = bool(to_move and not away and match.phase == "name_double")
    # A finished match keeps the loser's last roll for its record, not to show.
    dice = match.dice if live and match.is_active else None
    named_double = match.segment_kind == SegmentKind.NAMED_DOUBLE
    shown = position
    if playing:
        partial = partial_play(position, match.dice, steps, named_double=named_double)
        if steps:
            shown = _after_steps(position, steps, partial)

    next_steps = list(partial.next_steps) if partial else []
    sources = sorted({s.source for s in next_steps}, reverse=True)
    if selected not in sources:
        # With a single checker (or the bar) to move, there is nothing to choose.
        selected = sources[0] if len(sources) == 1 else None
    dests = {s.dest: s for s in next_steps if s.source == selected}
    points = [_point(own, shown, side, sources, selected, dests, steps) for own in range(1, 25)]
    can_submit = bool(partial and partial.complete is not None)
    names = _player_names(match)
    games: list[HistoryGame] = []
    if with_history:
        opened = {game, replayed.game_number if replayed else None} - {None}
        games = history_games(match, names, current=replay, shown=opened)
    # Asked of the player to move only, whose colour ``side`` then is.
    named_for_you = (
        to_move and bool(dice) and named_double and _double_named_for(match, games, side)
    )
    extra_roll = (
        to_move
        and bool(dice)
        and not named_double
        # Only the american game earns one: a greek board asks nothing (a click's board
        # would otherwise read the last segment).
        and position.variant.extra_roll_after_named_double
        and _extra_roll_for(match, games, side)
    )

    # A replay shows the score as it stood then: the games finished before the replayed
    # one (a query, in a replay only).
    score = match.score if replayed is None else _score_before(match, replayed.game_number)

    board = {
        "width": WIDTH,
        "height": HEIGHT,
        "field_left": FIELD_LEFT,
        "field_top": FIELD_TOP,
        "half": HALF,
        "field_h": 2 * HALF,
        "half_w": 6 * POINT_W,
        "right_field_x": RIGHT_FIELD_X,
        "bar_x": BAR_X,
        "bar_w": BAR_W,
        "tray_w": TRAY_W,
        "mid_y": MID_Y,
        "band_bottom_y": HEIGHT - BAND / 2 + 6,
        "right_tray_x": RIGHT_TRAY_X,
        "tray_xs": [0, RIGHT_TRAY_X],
        "tray_mid_left": TRAY_W / 2,
        "tray_mid_right": RIGHT_TRAY_X + TRAY_W / 2,
        "points": points,
        "side": side,
        "other": other,
        "viewer_color": color,
        "names": names,
        "name_mine": names[side],
        "score_mine": score[side],
        "score_theirs": score[other],
        "to_move_color": match.color_of(match.to_move) if match.to_move_id else None,
        "american": match.variant == "american",
        "opponent_name": names[other],
        # How the caption under the board names the bottom side's player.
        "mine_label": "you" if color else names[side],
        "position": shown,
        "bar_mine": shown.bar.of(side),
        "bar_theirs": shown.bar.of(other),
        "off_mine": shown.off.of(side),
        "off_theirs": shown.off.of(other),
        "waiting_mine": shown.waiting.of(side),
        "waiting_theirs": shown.waiting.of(other),
        "pips_mine": shown.pip_count(side),
        "pips_theirs": shown.pip_count(other),
        "description": (
            _describe(shown, color)
            if color
            else _describe_for_spectator(shown, names, _whose_turn(match, shown, live, names))
        ),
        "to_move": to_move,
        "playing": playing,
        "naming_double": naming,
        "acey_deucey_danced": naming and _acey_deucey_danced(match),
        **_doubles(position, naming=naming),
        "mode": "away" if away else _mode(match, live, playing, bool(to_move)),
        "steps": steps,
        "steps_text": steps_text(steps),
        "undo_steps_text": steps_text(steps[:-1]),
        "steps_notation": format_steps(_as_steps(position, steps) if playing else []),
        "next_steps": [_step_choice(s, steps) for s in next_steps],
        "selected": selected,
        "selected_name": _place_name(selected) if selected is not None else "",
        "can_submit": can_submit,
        "must_submit": can_submit and not next_steps,
        "dice": _dice_faces(dice, steps) if dice else [],
        "double_named_for_you": named_for_you,
        "extra_roll": extra_roll,
        "dice_text": (
            _dice_text(dice, named_double, for_you=named_for_you, extra_roll=extra_roll)
            if dice
            else ""
        ),
        "your_dice": (
            _your_dice(dice, named_double, for_you=named_for_you, extra_roll=extra_roll)
            if dice
            else ""
        ),
        "bar_checkers": _bar(shown, side),
        "waiting_slabs": _tray(0, shown.waiting, side),
        "off_slabs": _tray(RIGHT_TRAY_X, shown.off, side),
        "targets": (
            _targets(points, sources, selected, dests, steps, off_board=_off_board(shown, side))
            if playing
            else []
        ),
        "off_dest": OFF in dests,
        "in_selected": selected == IN,
        # Outlined as a point a checker may move from is: the tray's checkers can enter.
        "in_source": IN in sources and selected != IN,
        "bar_selected": selected == BAR,
        "named_blot": (
            _hit_already(position, steps, names)
            or named_blot_notice(position, color, names, can_hit=_can_hit(match, position, dice))
            if live and match.is_active  # a finished match binds nobody to hit anything
            else ""
        ),
        "blots_to_name": _blots_to_name(match, partial) if playing else [],
        "example_plays": _example_plays(position, match.dice, named_double) if playing else [],
        "replay": replay,
        "replayed": _segment_text(replayed, names) if replayed else "",
        "latest_game": games[-1] if games else None,
        "turns": (games[-1].turns if games else []) if with_history else None,
        "earlier_games": games[:-1],
        "forfeit": _forfeit(match, names),
    }
    board["dice_label"] = _dice_label(board["dice_text"], board["dice"])
    board["blot_field"] = _blot_field(match, board["blots_to_name"], steps) if playing else ""
    board["hint"] = _hint(board) if playing else ""
    # A game before the last is told with the score after it: the match's while it is
    # played, not once it is over (its last game counted in, its final score said after).
    news_score = score if match.is_active else None
    board["news"] = _news(games, names, color, news_score, since=news_since) if live else ""
    board["announcement"] = _announcement(match, board)
    return board


def _point(
    own: int,
    shown: Position,
    side: str,
    sources: list[int],
    selected: int | None,
    dests: dict[int, Step],
    steps: list[tuple[int, int]],
) -> Point:
    x, top = point_x(own)
    n_mine = _checkers(shown, side, own)
    n_theirs = _checkers(shown, opponent(side), 25 - own)
    point = Point(
        own=own,
        x=x,
        top=top,
        count=n_mine - n_theirs,
        path=_point_path(x, top),
        number_y=(BAND / 2 + 6) if top else (HEIGHT - BAND / 2 + 6),
        shade="dark" if own % 2 else "light",
        checkers=_stack(x, top, n_mine, side) + _stack(x, top, n_theirs, opponent(side)),
        source=own in sources,
        selected=own == selected,
        dest=own in dests,
        choice=_step_choice(dests[own], steps) if own in dests else None,
    )
    if point.dest:
        # A hit sends the blot to the bar, so the mover's checker lands at the foot.
        index = min(n_mine, MAX_STACK - 1)
        point.ghost = Checker(point.center, _stack_y(top, index), side)
    if n_mine or n_theirs:
        owner = "yours" if n_mine else "your opponent's"
        count = n_mine or n_theirs
        point.label = f"point {own}, {count} checker{'s' if count > 1 else ''} {owner}"
    else:
        point.label = f"point {own}, empty"
    return point


def _whose_turn(match: Match, shown: Position, live: bool, names: dict[str, str]) -> str:
    """Whose turn it is on the board shown, in a sentence (or who won a finished match)."""
    if live and not match.is_active:
        return f"{match.winner} won the match." if match.winner_id else ""
    if not live:
        color: str | None = shown.turn
    else:
        color = match.color_of(match.to_move) if match.to_move_id else None
    return f"{names[color]} ({color}) to move." if color else ""


def _mode(match: Match, live: bool, playing: bool, to_move: bool) -> str:
    """What the page is for now: a hook for styling and for the browser tests."""
    if not live:
        return "replay"
    if not match.is_active:
        return "finished"
    if playing:
        return "play"
    if to_move:
        return "double"
    return "wait"


def _targets(
    points: list[Point],
    sources: list[int],
    selected: int | None,
    dests: dict[int, Step],
    steps: list[tuple[int, int]],
    *,
    off_board: dict[int, int],
) -> list[Target]:
    """Click targets, in reading order for the keyboard: destinations first, then sources.

    Each one's name says what is on its point, which the board shows and a screen reader
    would not otherwise hear: whether a move makes a point or leaves a blot, and how many
    checkers are on a point, the bar or waiting to enter (``off_board``: the mover's on
    the last two) to select one from."""
    selecting = steps_text(steps)
    # The viewer's checkers on each point (the opponent's negative), on the board shown.
    counts = {point.own: point.count for point in points} | off_board
    found = []
    for dest, step in sorted(dests.items(), key=lambda item: -item[0]):
        choice = _step_choice(step, steps)
        x, y, w, h = _area(dest)
        label = "Bear off" if dest == OFF else f"Move to point {dest}"
        if step.hit:
            # Said in words: a lone "*" in the notation is all a screen reader had of it,
            # and the announcement of where a checker can go leaves the notation out.
            label += " and hit your opponent's blot"
        label += f" ({choice['label']})"
        if dest != OFF and not step.hit:
            label += f": {_yours_there(counts[dest])}"
        found.append(
            Target(
                key=f"to-{dest}",
                x=x,
                y=y,
                width=w,
                height=h,
                label=label,
                values={"steps": choice["steps_text"]},
                dest=True,
            )
        )
    for source in sources:
        if source in dests:
            continue  # the same area already moves a checker there
        x, y, w, h = _area(source)
        there = f": {counts[source]} there" if source in counts else ""
        label = f"Select {_place_name(source)}{there}"
        values = {"steps": selecting, "select": str(source)}
        letting_go = source == selected and len(sources) > 1
        if letting_go:
            # Selected already: a click (or Enter, or Escape anywhere on the board) lets
            # go of it, the play so far kept. Not the only source, selected for the player:
            # there is nothing else to pick.
            label, values = f"Deselect {_place_name(source)}{there}", {"steps": selecting}
        elif source == selected:
            label += ", selected"
        found.append(
            Target(
                key=f"from-{source}",
                x=x,
                y=y,
                width=w,
                height=h,
                label=label,
                values=values,
                selected=letting_go,
            )
        )
    return found


def _off_board(position: Position, side: str) -> dict[int, int]:
    """``side``'s checkers on the bar and waiting to enter, keyed as sources are."""
    return {BAR: position.bar.of(side), IN: position.waiting.of(side)}


def _yours_there(count: int) -> str:
    """What a checker moved to a point finds there, ``count`` of the mover's checkers (not
    the opponent's: a move onto their blot hits it, and onto their point is no move)."""
    if not count:
        return "empty"
    return f"{count} of your checkers there"


def _area(place: int) -> tuple[float, float, float, float]:
    """The clickable rectangle of a point, the bar, the waiting tray or the off tray."""
    if place == BAR:
        return BAR_X, MID_Y, BAR_W, HALF
    if place == IN:
        return 0, MID_Y, TRAY_W, HALF
    if place == OFF:
        return RIGHT_TRAY_X, MID_Y, TRAY_W, HALF
    x, top = point_x(place)
    return x, FIELD_TOP if top else MID_Y, POINT_W, HALF


def _place_name(place: int) -> str:
    if place == BAR:
        return "your checker on the bar"
    if place == IN:
        return "a waiting checker to enter"
    return f"your checker on point {place}"


def _bar(position: Position, side: str) -> list[Checker]:
    """Checkers on the bar: the viewer's below the middle, the opponent's above."""
    cx = BAR_X + BAR_W / 2
    checkers = []
    for color, sign in ((side, 1), (opponent(side), -1)):
        count = position.bar.of(color)
        shown = min(count, MAX_BAR)
        for i in range(shown):
            cy = MID_Y + sign * (STACK_R + 12 + i * 2 * STACK_R)
            label = str(count) if i == shown - 1 and count > 1 else ""
            checkers.append(Checker(cx, cy, color, label))
    return checkers


def _tray(left: float, pair: Any, side: str) -> list[Slab]:
    """Slabs stacked from the outer edge of a tray: the viewer's at the bottom."""
    slabs = []
    for color, bottom in ((side, True), (opponent(side), False)):
        for i in range(pair.of(color)):
            offset = 6 + i * (SLAB_H + SLAB_GAP)
            y = FIELD_BOTTOM - offset - SLAB_H if bottom else FIELD_TOP + offset
            slabs.append(Slab(left + 6, y, color))
    return slabs


def _dice_faces(dice: list[int], steps: list[tuple[int, int]]) -> list[dict[str, Any]]:
    """The dice to draw, doubles as four, each marked used once a carried step played it."""
    # In the order the roll is written beside them (format_dice), not the order rolled.
    values = list(dice_as_written(dice)) * (2 if dice[0] == dice[1] else 1)
    used = [False] * len(values)
    for source, dest in steps:
        pips = (25 - dest) if source in (BAR, IN) else source - dest
        # Bearing off may use a larger die than the distance: take the smallest that fits.
        fits = [
            i
            for i, v in enumerate(values)
            if not used[i] and (v == pips or (dest == OFF and v > pips))
        ]
        if fits:
            used[min(fits, key=lambda i: values[i])] = True
    return [
        {"value": v, "used": u, "pips": [(x * 3 + 1, y * 3 + 1) for x, y in _PIPS[v]]}
        for v, u in zip(values, used, strict=True)
    ]


def _doubles(position: Position, *, naming: bool) -> dict[str, Any]:
    """The doubles the mover may name after a 1-2, each with what it can play when that
    is less than its four moves (the board shows where checkers can go: a double that
    cannot move at all is no less plain), and, when R8.2 applies (greek: a blot named
    against the mover must be hit if a double can), the sentence that says why."""
    if not naming:
        return {"doubles": [], "double_choices": [], "doubles_note": ""}
    doubles = allowed_doubles(position)
    choices = [(double, _double_moves(position, double)) for double in doubles]
    # All six are allowed when none can hit a named blot, and also when every one can.
    if len(doubles) == 6 and not (
        position.obligation is not None and named_double_can_hit(position, doubles[0])
    ):
        return {"doubles": doubles, "double_choices": choices, "doubles_note": ""}
    point = own_point(position.turn, position.obligation or 0)
    return {
        "doubles": doubles,
        "double_choices": choices,
        "doubles_note": (
            f"Only a double that can hit the named blot on your {point}-point may be named."
        ),
    }


def _double_moves(position: Position, double: int) -> str:
    """How much of ``double`` named now can be played, when not all four moves: "no move",
    "1 move", "2 of 4 moves"; "" for all four (or a play that wins, R5.5)."""
    plays = legal_plays(position, (double, double), named_double=True)
    most = max((4 if play.wins else len(play.steps) for play in plays), default=0)
    if most == 4:
        return ""
    if most == 0:
        return "no move"
    return f"{most} of 4 moves" if most > 1 else "1 of 4 moves"


def _acey_deucey_danced(match: Match) -> bool:
    """Whether the 1-2 before the double now to name could not be played at all (greek
    names a double all the same, R7.2)."""
    play = (
        match.segments.filter(kind=SegmentKind.ACEY_DEUCEY)
        .order_by("-number")
        .values_list("play", flat=True)
        .first()
    )
    return play == ""


def _dice_text(
    dice: list[int], named_double: bool, *, for_you: bool = False, extra_roll: bool = False
) -> str:
    if for_you:
        return f"{format_dice(dice)} (named for you)"
    if extra_roll:
        return f"{format_dice(dice)} (your extra roll)"
    return format_dice(dice) + (" (named double)" if named_double else "")


def _your_dice(
    dice: list[int], named_double: bool, *, for_you: bool = False, extra_roll: bool = False
) -> str:
    """The dice to play, in the words of the turn's announcement: a double named after a
    1-2 was chosen, not rolled; one named for the player (``for_you``) is played; the
    ``extra_roll`` a played acey-deucey earned is said to be one, as the turn goes on."""
    if named_double and for_you:
        return f"you play {format_dice(dice)}"
    if extra_roll:
        return f"you rolled {format_dice(dice)}, the extra roll your acey-deucey earned"
    return f"you {'named' if named_double else 'rolled'} {format_dice(dice)}"


def _double_named_for(match: Match, games: list[HistoryGame], mover: str) -> bool:
    """Whether the named double that ``mover``, the player to move, now plays was named for
    them (the only one allowed, R8.2), from the drawn history or, when none is drawn (a
    click's board), from the stored double: the last up to the match row as read, not
    one stored since (as the history goes no further)."""
    turns = games[-1].turns if games else None
    if turns:
        doubles = [segment for segment in turns[-1]["segments"] if segment["kind"] == "double"]
        return turns[-1]["player"] == mover and bool(doubles) and doubles[-1]["automatic"]
    automatic = (
        match.segments.filter(kind="double", number__lte=match.segment_count)
        .order_by("-number")
        .values_list("automatic", flat=True)
        .first()
    )
    return bool(automatic)


def _extra_roll_for(match: Match, games: list[HistoryGame], mover: str) -> bool:
    """Whether the roll that ``mover``, the player to move, now plays is the extra roll
    their acey-deucey earned (R7.5, american: all four moves of the named double played):
    their named double is the last segment stored, in the drawn history or, when none is
    drawn (a click's board), in the stored segments. After a named double not played in
    full, or a greek one, the other player rolls."""
    turns = games[-1].turns if games else None
    if turns:
        last = turns[-1]
        return last["player"] == mover and last["segments"][-1]["kind"] == "named_double"
    stored = (
        match.segments.filter(number__lte=match.segment_count)
        .order_by("-number")
        .values_list("player", "kind")
        .first()
    )
    return stored == (mover, "named_double")


def _dice_label(text: str, faces: list[dict[str, Any]]) -> str:
    """The dice as the picture shows them, for a screen reader: the roll and which of its
    dice the moves clicked so far have used (greyed in the picture).
    ``Dice: 4-1, 4 used``; a double counts its four moves: ``Dice: 3-3, 2 of 4 used``."""
    if not faces:
        return ""
    used = [face["value"] for face in faces if face["used"]]
    if not used:
        return f"Dice: {text}"
    if len(used) == len(faces):
        return f"Dice: {text}, {'both' if len(faces) == 2 else 'all 4'} used"
    if len(faces) == 4:
        return f"Dice: {text}, {len(used)} of 4 used"
    return f"Dice: {text}, {used[0]} used"


def _hit_already(position: Position, steps: list[tuple[int, int]], names: dict[str, str]) -> str:
    """What the named-blot notice says once the steps clicked so far (the mover's own: only
    they click) have hit the blot named against them: that it is done, rather than "you
    must hit" above a board that shows it hit. "" otherwise."""
    blot = position.obligation
    if blot is None or not steps:
        return ""
    own = own_point(position.turn, blot)
    if not any(step.hit and step.dest == own for step in _as_steps(position, steps)):
        return ""
    return f"You have hit the blot on your {own}-point that {names[opponent(position.turn)]} named."


def _can_hit(match: Match, position: Position, dice: list[int] | None) -> bool | None:
    """Whether the turn to play can hit a blot named against its mover (R8.2): asked of
    the dice rolled, or of the doubles a 1-2 may name; None when no naming binds, or no
    dice are known."""
    if position.obligation is None:
        return None
    if match.phase == "name_double":
        return can_hit_named_blot(position, None)
    return can_hit_named_blot(position, dice) if dice else None


def _step_choice(step: Step, steps: list[tuple[int, int]]) -> dict[str, Any]:
    """A clickable single move: its label and the carried steps once it is made."""
    text = f"{format_point(step.source)}/{format_point(step.dest)}{'*' if step.hit else ''}"
    return {
        "source": step.source,
        "dest": step.dest,
        "label": text,
        "hit": step.hit,
        "steps_text": steps_text([*steps, (step.source, step.dest)]),
    }


def named_blot_notice(
    position: Position, viewer: str | None, names: dict[str, str], *, can_hit: bool | None = None
) -> str:
    """R8 in words for this viewer: who must hit which checker, on whose numbering.
    ``can_hit`` says whether this turn's dice can hit it (:func:`can_hit_named_blot`):
    when they cannot, the naming lapses (R8.3) and the notice says so rather than "must
    hit"; None, not known, gives the rule with "if they can"."""
    blot = position.obligation
    if blot is None:
        return ""
    mover = position.turn
    namer = opponent(mover)
    when = {None: " if you can", True: " this turn"}.get(can_hit, "")
    if viewer == mover:
        point = own_point(mover, blot)
        if can_hit is False:
            return (
                f"{names[namer]} named their blot on your {point}-point, but no play this turn"
                " can hit it: play as you like."
            )
        return f"You must hit the blot on your {point}-point{when}: {names[namer]} named it."
    when = when.replace("you", "they")
    if viewer == namer:
        point = own_point(namer, blot)
        if can_hit is False:
            return (
                f"You named your blot on your {point}-point, but no play of your opponent's"
                " turn can hit it."
            )
        return f"Your opponent must hit your blot on your {point}-point{when}: you named it."
    # A spectator's board is numbered from White's side, the absolute numbers (as its
    # description says): the point as written there, not as the player to hit it counts it.
    where = f"the {blot}-point (numbered from white's side, as on this board)"
    if can_hit is False:
        return (
            f"{names[namer]} named their blot on {where}, but no play of {names[mover]}'s turn"
            " can hit it."
        )
    return f"{names[mover]} must hit {names[namer]}'s blot on {where}{when}."


def _blots_to_name(match: Match, partial: PartialPlay | None) -> list[int]:
    """The viewer's blots after the clicked play, when this greek segment ends the turn."""
    if match.variant != "greek" or match.segment_kind == SegmentKind.ACEY_DEUCEY:
        return []
    if partial is None or partial.complete is None:
        return []
    return partial.complete.blots_left()


def _blot_field(match: Match, blots: list[int], steps: list[tuple[int, int]]) -> str:
    """How a greek player to move may name a blot: "select" among the ``blots`` the clicked
    play leaves, a "number" typed with a play not yet clicked, or "" (no naming now)."""
    if blots:
        return "select"
    if match.variant == "greek" and match.segment_kind != SegmentKind.ACEY_DEUCEY and not steps:
        return "number"
    return ""


def _example_plays(position: Position, dice: list[int], named_double: bool) -> list[str]:
    """A few whole plays in notation, to show the typing player what the box expects."""
    plays = legal_plays(position, dice, named_double=named_double)
    return [text for text in (format_play(p) for p in plays[:3]) if text]


def _hint(board: dict[str, Any]) -> str:
    """The line above the play so far: what the player entering a play can do next, in
    words for a tap, a click or the keyboard's Enter alike."""
    if board["selected"] is not None:
        return f"Now choose a highlighted point to move {board['selected_name']}."
    if board["must_submit"] and not board["steps"]:
        return "None of your checkers can move with this roll: submit to pass the turn."
    if board["must_submit"]:
        return "Submit your play, or undo a move."
    if board["can_submit"]:
        return "Submit your play, or choose a checker to move next."
    if board["steps"]:
        return "Choose a checker to move next."
    return "Choose a checker to move, then where it goes."


def _news(
    games: list[HistoryGame],
    names: dict[str, str],
    viewer: str | None,
    score: dict[str, int] | None = None,
    *,
    since: int | None = None,
) -> str:
    """What the viewer has not seen played, for the live region.

    A player hears everything played in this game since the last move they made
    themselves: the other player's turns, the plays made for them in between (a forced
    play, a dance, a double that was the only one to name: the game goes on without them,
    the other player's bot may have answered at once). When that move was in the game
    before, they hear how it ended, with the ``score`` (its turns are not drawn; its last,
    which ended it, is in how it ended). A spectator hears the last turn, or how the last
    game ended when the next has only its opening roll so far.

    ``since`` is the segment count of the board the page showed before this one, whose
    announcement told what came up to it: only what came after is told, to a player and
    a spectator alike. A page that polls while the other player's turn comes in segment by
    segment (a 1-2, its double, an extra roll; a bot's, seconds apart) hears each once.
    """
    turns = games[-1].turns if games else None
    if not turns:
        return ""  # no history drawn (a click), or none yet
    start = _news_start(turns, viewer, since)
    sentences = []
    previous = games[-2] if len(games) > 1 else None
    if previous and previous.result and start < games[-1].first:
        # The game before ended since: its last turn is not drawn, how it ended is said.
        sentences.append(_game_end_words(previous, names, viewer, score))
    for turn in turns:
        player = turn["player"]
        segments = [segment for segment in turn["segments"] if segment["number"] > start]
        if not segments or not player:
            continue  # the opening roll says nothing the turn after it does not
        if viewer is None:
            sentences.append(_turn_in_words(names[player], segments))
        elif player == viewer:
            sentences.append(_made_for_you(segments, viewer))
        else:
            sentences.append(
                _turn_for_opponent(names[player], segments, mover=player, listener=viewer)
            )
    return " ".join(sentence for sentence in sentences if sentence)


def _news_start(turns: list[dict[str, Any]], viewer: str | None, since: int | None) -> int:
    """The number of the last segment the viewer has heard of, whose news is not said
    again: the page's last board (``since``) or, for a player, their last move made by hand
    in this game if later (0 when neither is known). A spectator's page with no board
    before it hears the last turn."""
    if viewer is None:
        if since is not None:
            return since
        played = [turn for turn in turns if turn["player"]]
        return played[-1]["segments"][0]["number"] - 1 if played else 0
    by_hand = [
        segment["number"]
        for turn in turns
        if turn["player"] == viewer
        for segment in turn["segments"]
        if not segment["automatic"]
    ]
    return max(since or 0, by_hand[-1] if by_hand else 0)


def _game_end_words(
    game: HistoryGame, names: dict[str, str], viewer: str | None, score: dict[str, int] | None
) -> str:
    """How ``game`` ended, told to ``viewer`` ("you won", as the score after it says "you")."""
    if viewer is None:
        return f"Game {game.number}: {game.result}."
    winner = "you" if game.winner == viewer else game.winner_name
    score_words = _score_words(score, names, viewer) if score else ""
    return f"Game {game.number}: {winner} {game.won}.{score_words}"


def _score_words(score: dict[str, int], names: dict[str, str], viewer: str) -> str:
    other = opponent(viewer)
    return f" The score is you {score[viewer]}, {names[other]} {score[other]}."


def _made_for_you(segments: list[dict[str, Any]], viewer: str) -> str:
    """The viewer's own segments played for them (the only play there was, or none), a
    sentence each: ``You rolled 5-3 and your only play was made for you: you moved from
    your 7-point to your 2-point, hitting your opponent's checker there.``"""
    sentences = []
    for segment in segments:
        dice = format_dice(segment["dice"])
        if segment["kind"] == "double":
            # Named for them when it was the only one allowed (R8: the one double that
            # can hit a named blot).
            sentences.append(f"{dice} was named for you, the only double you could name.")
            continue
        verb = "named" if segment["kind"] == "named_double" else "rolled"
        if not segment["play"]:
            sentences.append(f"You {verb} {dice} and could not move.")
            continue
        moves = _play_in_words(segment["play"], mover=viewer, listener=viewer)
        sentences.append(f"You {verb} {dice} and your only play was made for you: you {moves}.")
    return " ".join(sentences)


def _turn_in_words(name: str, segments: list[dict[str, Any]]) -> str:
    """One turn of the history as a sentence: ``bob rolled 6-5 and played 13/7 13/8.``"""
    parts = []
    for segment in segments:
        dice = format_dice(segment["dice"])
        played = f"played {segment['play']}" if segment["play"] else "could not move"
        if segment["kind"] == "double":
            parts.append(f"named {dice}")
        elif segment["kind"] == "named_double":
            parts.append(played)
        else:
            parts.append(f"rolled {dice} and {played}")
        if segment["named_blot"]:
            parts.append(f"named the blot on their {segment['named_blot']}-point")
    return f"{name} {', '.join(parts)}."


def _turn_for_opponent(
    name: str, segments: list[dict[str, Any]], *, mover: str, listener: str
) -> str:
    """The other player's turn told to a player in their own numbers, one sentence a
    segment: ``bob rolled 6-1 and moved from your 12-point to your 18-point, hitting your
    checker there, and from your 17-point to your 18-point.``

    The notation is in the mover's numbers: a listener would have to work out 25 - n for
    each point, when all else they hear (the description, the targets, the notices) is in
    theirs, and a hit on their checker would be a lone ``*``."""
    sentences = []
    for i, segment in enumerate(segments):
        dice = format_dice(segment["dice"])
        if segment["kind"] == "double" and segment["automatic"]:
            # The site named it, the only one allowed (R8): not the player's choice.
            sentences.append(f"{dice} was named for {name}, the only double they could name.")
        elif segment["kind"] != "double":
            verb = "named" if segment["kind"] == "named_double" else "rolled"
            if verb == "named" and (i == 0 or segments[i - 1]["automatic"]):
                # Its naming was said just before, or in the announcement before this one.
                verb = "played"
            moves = _play_in_words(segment["play"], mover=mover, listener=listener)
            sentences.append(f"{name} {verb} {dice} and {moves}.")
        elif i == len(segments) - 1:
            sentences.append(f"{name} named {dice}.")  # else said with its play, next
        if segment["named_blot"]:
            point = _listeners_point(segment["named_blot"], mover=mover, listener=listener)
            sentences.append(
                f"{name} named their blot on your {point}-point, which you must hit if you can."
            )
    return " ".join(sentences)


_CHECKERS = {1: "a checker", 2: "two checkers", 3: "three checkers", 4: "four checkers"}


def _play_in_words(play: str, *, mover: str, listener: str) -> str:
    """A segment's stored play (the mover's notation) in the listener's words and numbers:
    to the opponent ``moved from your 3-point to your 6-point, hitting your checker there,
    and entered a checker on your 21-point``; to the mover (a play made for them) the hit is
    ``your opponent's checker``; ``could not move`` for a dance. A hit is told with the move
    that made it: told at the end of the sentence, it read as the last move's (a checker
    borne off "hitting" one)."""
    if not play:
        return "could not move"
    try:
        steps = read_steps(play)
    except InvalidNotationError:
        return f"played {play}"  # not canonical notation: say it as stored, not a guess
    moves: list[tuple[int, int, int, bool]] = []
    for step in steps:
        if moves and moves[-1][:2] == (step.source, step.dest):
            # Alike steps are told as one move of several checkers: 13/7* 13/7, 6/4(2).
            source, dest, count, hit = moves[-1]
            moves[-1] = (source, dest, count + 1, hit or step.hit)
        else:
            moves.append((step.source, step.dest, 1, step.hit))
    whose = "your opponent's" if mover == listener else "your"
    text, said, hit_before = "", "", False
    for index, (source, dest, count, hit) in enumerate(moves):
        kind, verb, words = _move_words(source, dest, count, mover=mover, listener=listener)
        # "entered a checker on your 1-point and a checker on your 4-point": the verb once
        # for a run of moves of one kind.
        clause = words if kind == said else f"{verb} {words}"
        if index == 0:
            text = clause
        elif index == len(moves) - 1:
            # After a hit's ", hitting ... there", the "and" that follows takes a comma.
            text += f"{',' if hit_before else ''} and {clause}"
        else:
            text += f", {clause}"
        if hit:
            text += f", hitting {whose} checker there"
        said, hit_before = kind, hit
    return text


def _move_words(
    source: int, dest: int, count: int, *, mover: str, listener: str
) -> tuple[str, str, str]:
    """One move of the notation (``count`` checkers alike) in the listener's numbers: its
    kind, its verb and the rest of its words."""
    checkers = _CHECKERS[count]
    if dest == OFF:
        point = _listeners_point(source, mover=mover, listener=listener)
        return "off", "bore off", f"{checkers} from your {point}-point"
    to = _listeners_point(dest, mover=mover, listener=listener)
    if source == BAR:
        return "bar", "entered", f"{checkers} from the bar on your {to}-point"
    if source == IN:
        # A waiting checker (american) comes onto the board from outside it.
        return "in", "entered", f"{checkers} on your {to}-point"
    start = _listeners_point(source, mover=mover, listener=listener)
    which = "" if count == 1 else f"{checkers} "
    return "move", "moved", f"{which}from your {start}-point to your {to}-point"


def _listeners_point(point: int, *, mover: str, listener: str) -> int:
    """The mover's own ``point`` as the listener numbers it (RULES.md: each side counts
    from its own side)."""
    return own_point(listener, absolute_point(mover, point))


def _and_list(words: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def _or_list(words: list[str]) -> str:
    """``a``, ``a or b``, ``a, b or c``."""
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"


def _announcement(match: Match, board: dict[str, Any]) -> str:
    """One sentence for the screen reader's live region after each click or turn; when the
    board is drawn after the other player moved, what they played comes first."""
    mode = board["mode"]
    if mode == "finished":
        # How it ended too, as the history's last line says: a resignation or a timeout
        # is not in the last turn a screen reader user may have heard.
        # Told to a player as "you", as the page's heading tells them "You won".
        forfeit, viewer, loser = board["forfeit"], board["viewer_color"], match.loser_color
        lost_by = "you" if viewer is not None and viewer == loser else None
        won_by = "you" if viewer is not None and viewer != loser else match.winner
        how = f"{lost_by or forfeit['loser']} {forfeit['lost']}; " if forfeit else ""
        over = f"The match is over: {how}{won_by} won {match.result_words}."
        # The last turn first, when not told yet: the other player's, which bore off
        # their last checker (or a bot's, segment by segment), ended the match.
        return " ".join(part for part in (board["news"], over) if part)
    if mode == "replay":
        return ""
    return " ".join(part for part in (board["news"], _what_now(match, board)) if part)


def _what_now(match: Match, board: dict[str, Any]) -> str:
    """What the viewer of a live board can do now, or whom they wait for."""
    mode = board["mode"]
    if mode == "wait":
        return f"Waiting for {match.to_move} to move." if match.to_move else ""
    if mode == "away":
        return "Your turn, but you are taking time away: come back to play."
    if mode == "double":
        return _naming_words(board)
    if board["selected"] is not None and board["targets"]:
        moves = _or_list([t.label.split(" (")[0].lower() for t in board["targets"] if t.dest])
        selected = f"Selected {board['selected_name']}. You can {moves}."
        if board["steps"]:
            return selected
        # The start of the turn, with the only checker that can move chosen already.
        return f"Your turn: {board['your_dice']}. {selected}"
    # A greek player may name a blot before submitting: the choice sits before the Submit
    # button the focus goes to, where it would be passed over unheard.
    naming = (
        "You may first name one of your blots for your opponent to hit, in the choice "
        "before the Submit button. "
        if board["blot_field"]
        else ""
    )
    if board["must_submit"] and not board["steps"]:
        # No legal play: an american dance is played for the player, a greek one waits for
        # them when they have a blot they could name.
        dice = board["your_dice"]
        return f"Your turn: {dice}, and none of your checkers can move. {naming}Submit to pass."
    if board["must_submit"]:
        return f"Your play is complete: {board['steps_notation']}. {naming}Submit it, or undo."
    if board["steps"]:
        return f"Your play so far: {board['steps_notation']}. Choose the next checker."
    return f"Your turn: {board['your_dice']}. Choose a checker to move."


def _naming_words(board: dict[str, Any]) -> str:
    """What the player naming a double after their 1-2 hears: the 1-2, then the doubles."""
    if not board["acey_deucey_danced"]:
        begin = "You played your 1-2. Name"
    elif board["news"]:
        # A 1-2 that cannot move is played for the player (a forced dance), so the news,
        # drawn with the history, has just said "You rolled 1-2 and could not move".
        begin = "All the same, name"
    else:
        begin = "You rolled 1-2 and could not move. All the same, name"
    if board["doubles_note"]:
        choices = ", ".join(f"{d}-{d}" for d in board["doubles"])
        return f"{begin} a double: {choices}. {board['doubles_note']}"
    return f"{begin} a double: choose 1-1 to 6-6."


# -- history ----------------------------------------------------------------------------------


class HistoryRow(NamedTuple):
    """The fields of a stored segment that the history shows."""

    number: int
    game_number: int
    kind: str
    player: str
    dice: list[int]
    play: str
    named_blot: int | None
    automatic: bool


def _history_rows(segments: QuerySet[Segment]) -> list[HistoryRow]:
    # Plain rows, not Segment objects: a long match has a thousand segments, and building
    # a model instance (with its position) for each took longer than the query itself.
    rows = segments.order_by("number").values_list(*HistoryRow._fields)
    return [HistoryRow(*row) for row in rows]


@dataclass
class HistoryGame:
    """One game of a match's history: its first and last segment, how it ended, and its
    turns when they are shown (an earlier game's are loaded when the reader opens it)."""

    number: int
    first: int
    last: int
    turns: list[dict[str, Any]] | None = None
    # How it ended, in parts, so that a sentence may name the winner its own way ("you");
    # all empty while it is played.
    winner: str = ""  # the winner's colour
    winner_name: str = ""
    won: str = ""  # e.g. "won 3 points (borne off)"

    @property
    def result(self) -> str:
        """How the game ended, e.g. "alice won 3 points (borne off)"; empty while played."""
        return f"{self.winner_name} {self.won}" if self.won else ""

    @property
    def summary(self) -> str:
        result = f": {self.result}" if self.result else ""
        return f"Game {self.number}{result} · segments {self.first} to {self.last}"


def history_games(
    match: Match,
    names: dict[str, str],
    *,
    current: int | None = None,
    shown: Collection[int] = (),
) -> list[HistoryGame]:
    """The match's games in order, the latest with its turns, and the earlier games in
    ``shown`` too; segment ``current`` is marked. Three queries however long the match:
    the games' spans, their results, and the segments of the games shown."""
    # Only the segments the match row counts: one stored since it was read (a bot's reply,
    # committed meanwhile) would show a history ahead of the board drawn from that row.
    segments = match.segments.filter(number__lte=match.segment_count)
    spans = (
        segments.values("game_number")
        .annotate(first=Min("number"), last=Max("number"))
        .order_by("game_number")
    )
    results = {
        result.game_number: result
        for result in match.game_results.all()
        # Likewise a game ended meanwhile, which the match row still shows in play.
        if not match.is_active or result.game_number < match.game_number
    }
    games = [_history_game(span, results.get(span["game_number"]), names) for span in spans]
    if not games:
        return []
    wanted = {games[-1].number} | {game.number for game in games if game.number in shown}
    rows = _history_rows(segments.filter(game_number__in=wanted))
    for game in games:
        if game.number in wanted:
            game.turns = history(
                (row for row in rows if row.game_number == game.number), names, current=current
            )
    return games


#: The endings of a match lost without its last game borne off (Match.Ending's values: the
#: models are not imported here at run time), with what the loser did.
FORFEITS = {"resignation": "resigned the match", "timeout": "ran out of time"}


def _forfeit(match: Match, names: dict[str, str]) -> dict[str, str] | None:
    """Who lost a finished match by resigning or running out of time, for the line that
    closes its history and the screen reader's last sentence: such a match stops after a
    turn that does not say why it ended. None for a match in play, or one whose last game
    was borne off (its last play says so). ``{"loser": name, "lost": "ran out of time"}``."""
    loser = match.loser_color
    if match.is_active or loser is None or match.ending not in FORFEITS:
        return None
    return {"loser": names[loser], "lost": FORFEITS[match.ending]}


def game_turns(match: Match, number: int) -> list[dict[str, Any]]:
    """The turns of game ``number`` of the match (empty if it has no segments)."""
    rows = _history_rows(match.segments.filter(game_number=number))
    return history(rows, _player_names(match))


def _player_names(match: Match) -> dict[str, str]:
    """The players' names by colour, as the board and the history show them."""
    return {"white": str(match.white), "black": str(match.black)}


def _history_game(
    span: dict[str, int], result: GameResult | None, names: dict[str, str]
) -> HistoryGame:
    """One game of the history from its ``span`` of segments and its ``result``, if over."""
    game = HistoryGame(span["game_number"], span["first"], span["last"])
    if result is not None:
        points = f"{result.points} point{'' if result.points == 1 else 's'}"
        game.winner = result.winner
        game.winner_name = names.get(result.winner, result.winner)
        game.won = f"won {points} ({result.get_ending_display()})"
    return game


def history(
    segments: Iterable[Segment | HistoryRow],
    names: dict[str, str],
    *,
    current: int | None = None,
) -> list[dict[str, Any]]:
    """Stored segments grouped into turns: an opening roll alone, then each run of
    segments by one player (a 1-2, its named double and any extra roll make one turn)."""
    turns: list[dict[str, Any]] = []
    for segment in segments:
        opening = segment.kind == "opening"
        last = turns[-1] if turns else None
        same_turn = (
            last is not None
            and not opening
            and last["player"] == segment.player
            and last["game_number"] == segment.game_number
        )
        if not same_turn:
            who = f"Game {segment.game_number}" if opening else names.get(segment.player, "")
            last = {
                "player": "" if opening else segment.player,
                "who": who,
                "game_number": segment.game_number,
                "segments": [],
            }
            turns.append(last)
        assert last is not None
        last["segments"].append(
            {
                "number": segment.number,
                "text": _segment_text(segment, names, with_player=False),
                "automatic": segment.automatic and not opening,
                "current": segment.number == current,
                "kind": segment.kind,
                "dice": segment.dice,
                "play": segment.play,
                "named_blot": segment.named_blot,
            }
        )
    return turns


def _segment_text(
    segment: Segment | HistoryRow, names: dict[str, str], *, with_player: bool = True
) -> str:
    """A segment in words and notation, e.g. ``alice 6-3: in/22 in/19``."""
    if segment.kind == "opening":
        white, black = segment.dice
        tie = " (a tie: roll again)" if white == black else ""
        return f"Opening roll: white {white}, black {black}{tie}"
    who = f"{names.get(segment.player, segment.player)} " if with_player else ""
    dice = format_dice(segment.dice)
    if segment.kind == "double":
        return f"{who}names {dice}"
    named = " (named)" if segment.kind == "named_double" else ""
    text = f"{who}{dice}{named}: {segment.play or 'no move'}"
    if segment.named_blot:
        text += f"; names the blot on their {segment.named_blot}-point"
    return text


def _as_steps(position: Position, steps: list[tuple[int, int]]) -> list[Step]:
    """The carried steps of the mover in ``position``, each marked when it hits (lands on
    a single opposing checker), so that the play so far is written as it will be stored."""
    found = []
    for i, (source, dest) in enumerate(steps):
        before = position_after_steps(position, steps[:i])
        hit = 1 <= dest <= 24 and before.checkers_at(position.turn, dest) == -1
        found.append(Step(source, dest, 0, hit))
    return found


def _after_steps(
    position: Position, steps: list[tuple[int, int]], partial: PartialPlay
) -> Position:
    """The position after the carried steps, shown while the play is being entered."""
    if partial.complete is not None:
        return partial.complete.result._replace(turn=position.turn, named_blot=None)
    return position_after_steps(position, steps)
