"""Wording shared by the apps' pages and emails."""

from __future__ import annotations

import unicodedata

from django.utils.text import capfirst

#: LEFT-TO-RIGHT MARK: a strong left-to-right letter that shows nothing.
LRM = "\u200e"


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


def left_to_right(text: str) -> str:
    """``text`` (an email's subject or plain-text body) with a left-to-right mark before
    each line whose first letter is right-to-left. A mail program sets a line's direction
    by its first letter, so a line opening with a Hebrew or Arabic name ("דוד כהן
    challenges you to Acey-Deucey") ran right to left, the English after the name; pages
    isolate names in ``<bdi>``, which plain text has not. Lines opening with a
    left-to-right letter, nearly all, are left as they are."""
    lines = text.split("\n")
    for index, line in enumerate(lines):
        if _first_strong(line) in ("R", "AL"):
            lines[index] = LRM + line
    return "\n".join(lines)


def subject_line(text: str) -> str:
    """``text`` as an email's subject: on one line (each run of spaces, tabs and line
    breaks one space: a header may not hold a line break, and the email package refuses
    to send one that does) and read left to right (:func:`left_to_right`). Names in a
    subject are tidied when saved; this keeps a name saved before that, or any text, from
    stopping an email."""
    return left_to_right(" ".join(text.split()))


def _first_strong(line: str) -> str:
    """The bidirectional class of the first letter of ``line`` with a direction of its
    own (L, R or AL), or "" for none (digits, punctuation, spaces only)."""
    for char in line:
        kind = unicodedata.bidirectional(char)
        if kind in ("L", "R", "AL"):
            return kind
    return ""
