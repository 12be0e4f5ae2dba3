"""Wording shared by the apps' pages."""

from __future__ import annotations

from django.utils.text import capfirst


def sentence(reason: object) -> str:
    """A service's reason ("this challenge has already been accepted", worded to follow a
    colon, and never starting with a name) as a sentence on a page: a capital and a full
    stop."""
    text = capfirst(str(reason))
    # Some reasons end on their own ("... from/to…", a quoted example ending in "?").
    return text if text.endswith((".", "!", "?", "…")) else f"{text}."
