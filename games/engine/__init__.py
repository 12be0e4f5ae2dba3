"""The Acey-Deucey rules engine: pure Python, no Django (RULES.md is the specification).

>>> from games.engine import Position, legal_plays
>>> start = Position.initial("american")
>>> sorted(format_play(p) for p in legal_plays(start, (6, 3)))
['in/19 19/16', 'in/22 in/19']
"""

from .errors import (
    BlotNamingError,
    EngineError,
    IllegalActionError,
    IllegalPlayError,
    InvalidNotationError,
    InvalidPositionError,
)
from .moves import (
    BAR,
    IN,
    OFF,
    Play,
    Step,
    allowed_doubles,
    can_hit_named_blot,
    legal_plays,
    named_double_can_hit,
)
from .notation import (
    WrittenStep,
    dice_as_written,
    format_dice,
    format_play,
    format_steps,
    read_steps,
)
from .position import (
    AMERICAN,
    BLACK,
    COLORS,
    GREEK,
    VARIANTS,
    WHITE,
    American,
    Color,
    Greek,
    Pair,
    Position,
    Variant,
    absolute_point,
    opponent,
    own_point,
    variant_named,
)

__all__ = [
    "AMERICAN",
    "BAR",
    "BLACK",
    "COLORS",
    "GREEK",
    "IN",
    "OFF",
    "VARIANTS",
    "WHITE",
    "American",
    "BlotNamingError",
    "Color",
    "EngineError",
    "Greek",
    "IllegalActionError",
    "IllegalPlayError",
    "InvalidNotationError",
    "InvalidPositionError",
    "Pair",
    "Play",
    "Position",
    "Step",
    "Variant",
    "WrittenStep",
    "absolute_point",
    "allowed_doubles",
    "can_hit_named_blot",
    "dice_as_written",
    "format_dice",
    "format_play",
    "format_steps",
    "legal_plays",
    "named_double_can_hit",
    "opponent",
    "own_point",
    "read_steps",
    "variant_named",
]
