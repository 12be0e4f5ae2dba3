"""Template context of the site's own."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest


def site(request: HttpRequest) -> dict[str, str]:
    """``site_title``: the site's name (settings.SITE_NAME), for page titles. Not
    ``site_name``: Django's auth views set that to the host's name."""
    return {"site_title": settings.SITE_NAME}
