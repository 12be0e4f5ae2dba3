"""Drawing the board: the view model the match template turns into inline SVG.

Points are numbered from the viewer's side (a spectator sees White's): the viewer's home
board is bottom right, their points 1-12 run along the bottom from right to left and
13-24 along the top from left to right. Coordinates are in SVG user units.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from games.engine import BAR, IN, OFF, Position, Step, opponent
from games.engine.game import SegmentKind
from games.engine.moves import PartialPlay, partial_play, position_after_steps
from games.engine.notation import format_point, format_steps

if TYPE_CHECKING:
    from .models import Match

POINT_W = 44
BAR_W = 44
MARGIN = 14
TRAY_W = 56
CHECKER_R = 20
WIDTH = 2 * TRAY_W + 2 * MARGIN + 12 * POINT_W + BAR_W
HEIGHT = 2 * MARGIN + 2 * 170 + 40
MAX_STACK = 5


@dataclass
class Checker:
    x: float
    y: float
    color: str  # "white" / "black"
    label: str = ""

    @property
    def left(self) -> float:
        return self.x - 18

    @property
    def top(self) -> float:
        return self.y - 8


@dataclass
class Point:
    own: int  # the viewer's number
    x: float
    top: bool
    count: int  # viewer's checkers positive, opponent's negative
    path: str
    number_y: float
    checkers: list[Checker] = field(default_factory=list)
    source: bool = False
    dest: bool = False
    selected: bool = False
    label: str = ""
    choice: dict[str, Any] | None = None  # the move that lands here, when it is a target

    @property
    def center(self) -> float:
        return self.x + POINT_W / 2


def _point_x(own: int) -> tuple[float, bool]:
    """Left edge of the viewer's point ``own`` and whether it is on the top row."""
    left = TRAY_W + MARGIN
    if own <= 12:
        column = 12 - own  # 12 at the far left, 1 at the far right
        top = False
    else:
        column = own - 13
        top = True
    x = left + column * POINT_W + (BAR_W if column >= 6 else 0)
    return x, top


def _stack(x: float, top: bool, count: int, color: str) -> list[Checker]:
    cx = x + POINT_W / 2
    checkers = []
    for i in range(min(count, MAX_STACK)):
        offset = MARGIN + CHECKER_R + i * 2 * CHECKER_R
        cy = offset if top else HEIGHT - offset
        label = str(count) if i == MAX_STACK - 1 and count > MAX_STACK else ""
        checkers.append(Checker(cx, cy, color, label))
    return checkers


def _describe(position: Position, viewer: str) -> str:
    """A plain-language description of the position for screen readers."""
    other = opponent(viewer)
    mine, theirs = [], []
    for own in range(24, 0, -1):
        n = position.checkers_at(viewer, own)
        if n:
            mine.append(f"{n} on your {own}-point")
        m = position.checkers_at(other, 25 - own)
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


def parse_steps(text: str) -> list[tuple[int, int]]:
    """Read the form's carried steps, ``"26-22 22-16"``; raise ValueError on garbage."""
    steps = []
    for part in text.split():
        source, _, dest = part.partition("-")
        step = (int(source), int(dest))
        if not (0 < step[0] <= IN and 0 <= step[1] <= 24) or len(steps) >= 4:
            raise ValueError("the carried moves are not valid")
        steps.append(step)
    return steps


def board_context(
    match: Match,
    *,
    viewer: Any,
    steps: list[tuple[int, int]],
    selected: int | None = None,
    replay: int | None = None,
) -> dict[str, Any]:
    """Everything the board partial draws, from ``viewer``'s side.

    ``steps`` is the partial play carried by the form (the player to move only);
    ``selected`` is the source the player clicked, whose destinations are highlighted;
    ``replay`` shows the position after that stored segment instead of the live one.
    """
    color = match.color_of(viewer) if getattr(viewer, "is_authenticated", False) else None
    side = color or "white"
    position = Position.from_dict(match.position)
    live = replay is None
    if not live:
        segment = match.segments.filter(number__lte=replay).order_by("-number").first()
        if segment is not None:
            position = Position.from_dict(segment.position)

    partial: PartialPlay | None = None
    to_move = live and match.is_active and color is not None and match.to_move_id == viewer.pk
    playing = to_move and match.phase == "play" and match.dice
    shown = position
    if playing:
        partial = partial_play(
            position,
            match.dice,
            steps,
            named_double=match.segment_kind == SegmentKind.NAMED_DOUBLE,
        )
        if steps:
            shown = _after_steps(position, steps, partial)

    next_steps = list(partial.next_steps) if partial else []
    sources = {s.source for s in next_steps}
    if selected not in sources:
        selected = None
    dests = {s.dest: s for s in next_steps if s.source == selected}
    points = []
    for own in range(1, 25):
        x, top = _point_x(own)
        n_mine = shown.checkers_at(side, own)
        n_theirs = shown.checkers_at(opponent(side), 25 - own)
        base = MARGIN if top else HEIGHT - MARGIN
        tip = MARGIN + 170 if top else HEIGHT - MARGIN - 170
        path = f"M{x},{base} L{x + POINT_W},{base} L{x + POINT_W / 2},{tip} Z"
        point = Point(
            own=own,
            x=x,
            top=top,
            count=n_mine - n_theirs,
            path=path,
            number_y=(MARGIN - 3) if top else (HEIGHT - 2),
            checkers=_stack(x, top, n_mine, side) + _stack(x, top, n_theirs, opponent(side)),
            source=own in sources,
            selected=own == selected,
            dest=own in dests,
            choice=_step_choice(dests[own], steps) if own in dests else None,
        )
        owner = "yours" if n_mine else ("opponent's" if n_theirs else "empty")
        point.label = f"Point {own}: {max(n_mine, n_theirs) or 'no'} checkers, {owner}"
        points.append(point)

    return {
        "width": WIDTH,
        "height": HEIGHT,
        "bar_x": TRAY_W + MARGIN + 6 * POINT_W,
        "bar_w": BAR_W,
        "tray_w": TRAY_W,
        "margin": MARGIN,
        "mid_y": HEIGHT / 2,
        "points": points,
        "side": side,
        "viewer_color": color,
        "position": shown,
        "bar_mine": shown.bar.of(side),
        "bar_theirs": shown.bar.of(opponent(side)),
        "off_mine": shown.off.of(side),
        "off_theirs": shown.off.of(opponent(side)),
        "waiting_mine": shown.waiting.of(side),
        "waiting_theirs": shown.waiting.of(opponent(side)),
        "pips_mine": shown.pip_count(side),
        "pips_theirs": shown.pip_count(opponent(side)),
        "description": _describe(shown, side),
        "to_move": to_move,
        "playing": bool(playing),
        "naming_double": to_move and match.phase == "name_double",
        "steps": steps,
        "steps_text": " ".join(f"{s}-{d}" for s, d in steps),
        "steps_notation": format_steps(_as_steps(steps)),
        "next_steps": [_step_choice(s, steps) for s in next_steps],
        "selected": selected,
        "bar_selected": selected == BAR,
        "in_selected": selected == IN,
        "off_choice": _step_choice(dests[OFF], steps) if OFF in dests else None,
        "can_submit": bool(partial and partial.complete is not None),
        "bar_source": BAR in sources,
        "in_source": IN in sources,
        "bar_x_mid": TRAY_W + MARGIN + 6 * POINT_W + BAR_W / 2,
        "right_tray_x": WIDTH - TRAY_W,
        "bar_checkers": _tray(TRAY_W + MARGIN + 6 * POINT_W + BAR_W / 2, shown.bar, side),
        "waiting_checkers": _tray(TRAY_W / 2, shown.waiting, side),
        "off_checkers": _tray(WIDTH - TRAY_W / 2, shown.off, side),
        "named_blot": _own_named_blot(position, side) if live else None,
        "replay": replay,
    }


def _tray(cx: float, pair: Any, side: str) -> list[Checker]:
    """A column of checkers in a tray or on the bar: the viewer's below the middle."""
    checkers = []
    for color, below in ((side, True), (opponent(side), False)):
        count = pair.of(color)
        for i in range(min(count, 4)):
            step = (i + 1) * 2 * CHECKER_R - CHECKER_R + 30
            cy = HEIGHT / 2 + step if below else HEIGHT / 2 - step
            label = str(count) if i == min(count, 4) - 1 and count > 1 else ""
            checkers.append(Checker(cx, cy, color, label))
    return checkers


def _step_choice(step: Step, steps: list[tuple[int, int]]) -> dict[str, Any]:
    """A clickable single move: its label and the carried steps once it is made."""
    text = f"{format_point(step.source)}/{format_point(step.dest)}{'*' if step.hit else ''}"
    return {
        "source": step.source,
        "dest": step.dest,
        "label": text,
        "steps_text": " ".join(f"{a}-{b}" for a, b in [*steps, (step.source, step.dest)]),
    }


def _own_named_blot(position: Position, side: str) -> int | None:
    """The named blot the viewer's opponent must hit, or that the viewer must hit, as the
    viewer's own point number."""
    if position.named_blot is None:
        return None
    return position.named_blot if side == "white" else 25 - position.named_blot


def _as_steps(steps: list[tuple[int, int]]) -> list[Step]:
    return [Step(source, dest, 0) for source, dest in steps]


def _after_steps(
    position: Position, steps: list[tuple[int, int]], partial: PartialPlay
) -> Position:
    """The position after the carried steps, shown while the play is being entered."""
    if partial.complete is not None:
        return partial.complete.result._replace(turn=position.turn, named_blot=None)
    return position_after_steps(position, steps)
