"""Move notation (RULES.md "Move notation"): formatting plays and reading a player's text.

Points are written from the mover's own side: ``13/7``, ``13/7*`` (a hit), ``bar/22``,
``in/22`` (a waiting checker enters, american), ``5/off``; identical steps repeat as
``6/4(2)``.
"""

from __future__ import annotations

from collections.abc import Iterable

from .moves import BAR, IN, OFF, Play, Step


def format_point(point: int) -> str:
    """``bar``, ``in``, ``off`` or the point number."""
    if point == BAR:
        return "bar"
    if point == IN:
        return "in"
    if point == OFF:
        return "off"
    return str(point)


def _order(step: Step) -> tuple[int, int]:
    # Bar first (R3), then waiting checkers, then from the back of the board forward.
    source = {BAR: 28, IN: 27}.get(step.source, step.source)
    return (-source, -step.dest)


def canonical_steps(steps: Iterable[Step]) -> list[Step]:
    """The steps in a fixed order, the hit marked on the first landing on each hit point."""
    steps = list(steps)
    hit_points = {s.dest for s in steps if s.hit}
    ordered = []
    for step in sorted(steps, key=_order):
        hit = step.dest in hit_points
        hit_points.discard(step.dest)
        ordered.append(step._replace(hit=hit))
    return ordered


def format_steps(steps: Iterable[Step]) -> str:
    """Canonical notation of a sequence of steps, e.g. ``6/4(2) 13/7*``."""
    parts: list[str] = []
    last: str | None = None
    count = 0
    for step in canonical_steps(steps):
        text = f"{format_point(step.source)}/{format_point(step.dest)}" + ("*" if step.hit else "")
        if text == last:
            count += 1
            continue
        if last is not None:
            parts.append(last if count == 1 else f"{last}({count})")
        last, count = text, 1
    if last is not None:
        parts.append(last if count == 1 else f"{last}({count})")
    return " ".join(parts)


def format_play(play: Play) -> str:
    """Canonical notation of a play; the empty string for a dance."""
    return format_steps(play.steps)


def parse_play(position, dice, text, *, plays=None):  # placeholder until the parser lands
    raise NotImplementedError
