"""``{% timestamp when "j M" %}``: a date as people read it, inside a ``<time>`` element
whose ``datetime`` machines read (screen readers, browser extensions, tests). Loaded as a
builtin (settings.TEMPLATES), so templates need no ``{% load %}``."""

from __future__ import annotations

from datetime import datetime

from django import template
from django.template.defaultfilters import date as format_date
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.timezone import template_localtime

register = template.Library()


@register.simple_tag
def timestamp(when: datetime | None, shown: str) -> SafeString | str:
    """``<time datetime="ISO 8601">when, formatted as shown</time>``, in the reader's time
    zone as ``{{ when|date }}`` would be; nothing for no date."""
    if when is None:
        return ""
    # The date filter gets its value in local time from the template engine; a tag gets
    # it as stored (UTC), so it converts it the same way itself.
    local = template_localtime(when)
    return format_html(
        '<time datetime="{}">{}</time>', format_date(local, "c"), format_date(local, shown)
    )
