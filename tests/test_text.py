"""aceysite.text: a service's reason worded as a sentence on a page."""

from __future__ import annotations

import pytest

from aceysite.text import LRM, left_to_right, sentence, subject_line


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


@pytest.mark.parametrize(
    ("text", "sent"),
    [
        ("alice challenges you", "alice challenges you"),
        ("سارة won", LRM + "سارة won"),
        ("Match #4 against سارة is over", "Match #4 against سارة is over"),
        # The first letter decides, past digits and punctuation; each line on its own.
        ("#12: שרה moved\nHello", "\u200e#12: שרה moved\nHello"),
        ("Hello,\n\nשרה כהן wrote:\n", "Hello,\n\n\u200eשרה כהן wrote:\n"),
        ("", ""),
    ],
)
def test_a_line_whose_first_letter_is_right_to_left_gets_a_left_to_right_mark(text, sent):
    assert left_to_right(text) == sent


@pytest.mark.parametrize(
    ("text", "subject"),
    [
        (
            "Your turn (Evil\r\nBcc: x@evil.example, Final)",
            "Your turn (Evil Bcc: x@evil.example, Final)",
        ),
        ("a\u2028b\tc  d\x85e", "a b c d e"),
        ("שרה כהן\nchallenges you", LRM + "שרה כהן challenges you"),
    ],
)
def test_a_subject_is_one_line_read_left_to_right(text, subject):
    assert subject_line(text) == subject
