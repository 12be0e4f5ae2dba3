"""The ``{% timestamp %}`` tag: a date in the reader's time zone, inside a <time>."""

from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

from django.template import Context, Template
from django.utils import timezone


def _render(source: str, **context: object) -> str:
    return Template(source).render(Context(context))


def test_it_shows_the_date_in_the_readers_time_zone_with_its_iso_form():
    when = datetime(2026, 11, 30, 23, 30, tzinfo=UTC)

    with timezone.override(ZoneInfo("Asia/Tokyo")):
        html = _render('{% timestamp when "j M, H:i" %}', when=when)

    assert html == '<time datetime="2026-12-01T08:30:00+09:00">1 Dec, 08:30</time>'


def test_it_agrees_with_the_date_filter():
    when = datetime(2026, 7, 4, 12, 0, tzinfo=UTC)
    source = '{% timestamp when "l j F Y, H:i" %}|{{ when|date:"l j F Y, H:i" }}'

    with timezone.override(ZoneInfo("America/New_York")):
        shown, by_filter = _render(source, when=when).split("|")

    assert shown == f'<time datetime="2026-07-04T08:00:00-04:00">{by_filter}</time>'


def test_it_shows_nothing_for_no_date():
    assert _render('[{% timestamp when "j M" %}]', when=None) == "[]"
