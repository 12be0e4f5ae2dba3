"""The examples in the module's docstrings (pytest collects doctests only under games/engine)."""

import doctest

from games.tournaments import brackets


def test_docstring_examples_hold():
    failures, tried = doctest.testmod(brackets)

    assert tried > 0
    assert failures == 0
