"""docs/RULES.md is a copy of the binding rules, ../shared/RULES.md, for clones that have
only the repository: the two must not drift apart."""

from __future__ import annotations

from pathlib import Path

import pytest

REPOSITORY = Path(__file__).resolve().parent.parent
BINDING = REPOSITORY.parent / "shared" / "RULES.md"


@pytest.mark.skipif(not BINDING.exists(), reason="no ../shared/RULES.md beside this clone")
def test_the_copy_of_the_rules_is_the_binding_text():
    assert (REPOSITORY / "docs" / "RULES.md").read_text() == BINDING.read_text()


def test_the_copy_of_the_rules_is_there():
    text = (REPOSITORY / "docs" / "RULES.md").read_text()

    assert "american" in text and "greek" in text
