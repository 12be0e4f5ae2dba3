"""aceysite.text: a service's reason worded as a sentence on a page."""

from __future__ import annotations

import pytest

from aceysite.text import sentence


@pytest.mark.parametrize(
    ("reason", "shown"),
    [
        ("the match is over", "The match is over."),
        ("is that a question?", "Is that a question?"),
        ("in/19 moves 6 pips, but no die shows 6", "in/19 moves 6 pips, but no die shows 6."),
        ("bar/22: your 22-point is blocked", "bar/22: your 22-point is blocked."),
        ("13/7 8/7 is not a play of 6-1", "13/7 8/7 is not a play of 6-1."),
    ],
)
def test_a_reason_becomes_a_sentence_and_notation_keeps_its_case(reason, shown):
    assert sentence(reason) == shown
