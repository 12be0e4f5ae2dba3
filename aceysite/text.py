"""Wording shared by the apps' pages."""

from __future__ import annotations

from django.utils.text import capfirst


def sentence(reason: object) -> str:
    """A service's reason ("this challenge has already been accepted", worded to follow a
    colon, and never starting with a name) as a sentence on a page: a capital and a full
    stop. A reason that starts with a move in notation ("in/19 moves 6 pips...") keeps it
    as written: notation is lower case, and "In/19" is no move."""
    text = str(reason)
    if "/" not in text.split(" ", 1)[0]:
        text = capfirst(text)
    # Some reasons end on their own ("... from/to…", a quoted example ending in "?").
    return text if text.endswith((".", "!", "?", "…")) else f"{text}."
