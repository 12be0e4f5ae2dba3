"""aceysite.text: a service's reason worded as a sentence on a page."""

from __future__ import annotations

import pytest

from aceysite.text import (
    LRM,
    PDI,
    RLI,
    isolate_right_to_left,
    left_to_right,
    sentence,
    subject_line,
)


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
        ("سارة won", LRM + RLI + "سارة" + PDI + " won"),
        ("Match #4 against سارة is over", "Match #4 against " + RLI + "سارة" + PDI + " is over"),
        # The first letter decides, past digits and punctuation; each line on its own.
        ("#12: שרה moved\nHello", LRM + "#12: " + RLI + "שרה" + PDI + " moved\nHello"),
        ("Hello,\n\nשרה כהן wrote:\n", "Hello,\n\n" + LRM + RLI + "שרה כהן" + PDI + " wrote:\n"),
        ("", ""),
    ],
)
def test_a_line_whose_first_letter_is_right_to_left_gets_a_left_to_right_mark(text, sent):
    assert left_to_right(text) == sent


@pytest.mark.parametrize(
    ("text", "sent"),
    [
        # A score after a name stays after it: the digit is not in the name's run.
        ("Score: you 1, דוד כהן 0.", "Score: you 1, " + RLI + "דוד כהן" + PDI + " 0."),
        # Two names, each on its own; the punctuation between them is not in either.
        ("(דוד v سارة)", "(" + RLI + "דוד" + PDI + " v " + RLI + "سارة" + PDI + ")"),
        # A hyphen and a space inside a name are part of it; the space after it is not.
        ("won by בן-דוד כהן ", "won by " + RLI + "בן-דוד כהן" + PDI + " "),
        ('O\'Brien "Bob" 3', 'O\'Brien "Bob" 3'),
        # A number between right-to-left words is inside their run: split there, the
        # phrase read back to front.
        ("Spring cup: גביע 2026 אביב", "Spring cup: " + RLI + "גביע 2026 אביב" + PDI),
        ("> קבוצה 12 ניצחה היום", "> " + RLI + "קבוצה 12 ניצחה היום" + PDI),
    ],
)
def test_right_to_left_names_are_isolated_from_the_numbers_around_them(text, sent):
    assert isolate_right_to_left(text) == sent


@pytest.mark.parametrize(
    ("text", "subject"),
    [
        (
            "Your turn (Evil\r\nBcc: x@evil.example, Final)",
            "Your turn (Evil Bcc: x@evil.example, Final)",
        ),
        ("a\u2028b\tc  d\x85e", "a b c d e"),
        ("שרה כהן\nchallenges you", LRM + RLI + "שרה כהן" + PDI + " challenges you"),
    ],
)
def test_a_subject_is_one_line_read_left_to_right(text, subject):
    assert subject_line(text) == subject


def test_the_modules_examples_hold():
    import doctest

    import aceysite.text

    failures, tried = doctest.testmod(aceysite.text)

    assert tried > 0 and failures == 0
