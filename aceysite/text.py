"""Wording shared by the apps' pages and emails."""

from __future__ import annotations

import unicodedata

from django.utils.text import capfirst

#: LEFT-TO-RIGHT MARK: a strong left-to-right letter that shows nothing.
LRM = "\u200e"
#: RIGHT-TO-LEFT ISOLATE and POP DIRECTIONAL ISOLATE: what lies between them is laid out
#: on its own, right to left, and its neighbours as if it were one neutral character.
RLI, PDI = "\u2067", "\u2069"

#: The bidirectional classes of a right-to-left run: its letters (Hebrew, Arabic) and what
#: may come between them (spaces, marks, punctuation, digits: "גביע 2026 אביב" is one run,
#: and split at its number it read back to front). A run ends at its last right-to-left
#: letter, so that "you 1, דוד כהן 0" keeps the score after the name, outside it.
_RIGHT_TO_LEFT = frozenset({"R", "AL"})
_INSIDE_A_RUN = _RIGHT_TO_LEFT | {"WS", "NSM", "ES", "CS", "ON", "BN", "AN", "EN", "ET"}


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
    """``text`` (an email's subject or plain-text body) read left to right, its
    right-to-left names kept apart from what is around them: a left-to-right mark before
    each line whose first letter is right-to-left, and each run of right-to-left letters
    isolated (:func:`isolate_right_to_left`). A mail program sets a line's direction by its
    first letter, so a line opening with a Hebrew or Arabic name ("דוד כהן challenges you
    to Acey-Deucey") ran right to left, the English after the name; and a number after a
    name joined it ("Score: you 1, דוד כהן 0" showed the 0 before the name). Pages isolate
    names in ``<bdi>``, which plain text has not. Lines of left-to-right letters only,
    nearly all, are left as they are."""
    lines = text.split("\n")
    for index, line in enumerate(lines):
        first = _first_strong(line)
        line = isolate_right_to_left(line)
        lines[index] = LRM + line if first in _RIGHT_TO_LEFT else line
    return "\n".join(lines)


def isolate_right_to_left(line: str) -> str:
    """``line`` with each run of right-to-left text (from a Hebrew or Arabic letter to the
    last of them before anything else: a European digit or a Latin letter) between RLI and
    PDI, which mail programs draw as nothing.

    >>> isolate_right_to_left("Score: you 1, דוד כהן 0.") == f"Score: you 1, {RLI}דוד כהן{PDI} 0."
    True
    >>> isolate_right_to_left("alice v bob")
    'alice v bob'
    """
    out: list[str] = []
    start = 0
    index = 0
    while index < len(line):
        if unicodedata.bidirectional(line[index]) not in _RIGHT_TO_LEFT:
            index += 1
            continue
        last = index
        end = index + 1
        while end < len(line) and unicodedata.bidirectional(line[end]) in _INSIDE_A_RUN:
            if unicodedata.bidirectional(line[end]) in _RIGHT_TO_LEFT:
                last = end
            end += 1
        out += [line[start:index], RLI, line[index : last + 1], PDI]
        start = index = last + 1
    out.append(line[start:])
    return "".join(out)


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
