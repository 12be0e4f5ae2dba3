"""Links to the site from outside a request (emails), built on settings.SITE_URL."""

from __future__ import annotations

from django.conf import settings


def absolute_url(path: str) -> str:
    """``path`` (e.g. "/matches/3/") as the address a reader of an email can follow."""
    return settings.SITE_URL.rstrip("/") + path
