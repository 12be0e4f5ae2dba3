"""Errors raised by the rules engine, worded for the player who caused them."""


class EngineError(ValueError):
    """Base class of every error the engine raises on bad input."""


class InvalidPositionError(EngineError):
    """A position dict is malformed or breaks an invariant (e.g. 16 white checkers)."""


class InvalidNotationError(EngineError):
    """A play written in notation cannot be read at all (e.g. ``13-7``)."""


class IllegalPlayError(EngineError):
    """A play that can be read but is not allowed by the rules in this position."""


class BlotNamingError(IllegalPlayError):
    """A greek blot named against the rules (R8.1), with a play that is legal: the fault is
    in the point named, not in the play."""


class IllegalActionError(EngineError):
    """An action that does not fit the turn's phase (naming a double when dice are to be played)."""
