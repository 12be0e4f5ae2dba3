"""Reading Redis URLs, for the settings and the system checks."""

from __future__ import annotations

from urllib.parse import SplitResult


def database_number(parts: SplitResult) -> int | None:
    """The database a split Redis URL names (none given is 0), or None if its path is not
    a number."""
    number = parts.path.strip("/") or "0"
    return int(number) if number.isdigit() else None
