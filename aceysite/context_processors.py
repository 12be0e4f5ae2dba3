"""Template context of the site's own."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest


def site(request: HttpRequest) -> dict[str, str]:
    """``site_name``: the site's name (settings.SITE_NAME), for page titles."""
    return {"site_name": settings.SITE_NAME}
