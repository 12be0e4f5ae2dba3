"""The site's icon: named by every page, and at /favicon.ico for the pages that name none
(the admin's), which browsers ask for there."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.contrib.staticfiles import finders
from django.templatetags.static import static

pytestmark = pytest.mark.django_db


def test_favicon_ico_leads_to_the_icon_in_the_static_files(client):
    response = client.get("/favicon.ico")

    assert response.status_code == 302
    assert response["Location"] == static("favicon.ico")
    assert "max-age=86400" in response["Cache-Control"]
    icon = Path(finders.find("favicon.ico")).read_bytes()
    assert icon[:4] == b"\x00\x00\x01\x00"  # an ICO file's header


def test_pages_name_the_icon_from_their_own_origin(client):
    response = client.get("/rules/")

    icons = re.findall(r'<link rel="icon" href="([^"]+)"', response.text)
    assert icons == [static("favicon.ico"), static("favicon.svg")]
    assert all(finders.find(href.removeprefix("/static/")) for href in icons)
    # The icons are images from the site itself, which its policy allows.
    assert "img-src 'self'" in response["Content-Security-Policy"]
