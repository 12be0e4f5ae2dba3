"""``{% idempotency_key_field %}``: the hidden one-time key of a form sent once
(games.idempotency.form_sent_once), new with each page. A builtin (settings.TEMPLATES)."""

from __future__ import annotations

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString

from games.idempotency import FORM_FIELD, new_key

register = template.Library()


@register.simple_tag
def idempotency_key_field() -> SafeString:
    """A hidden input holding a new key: the form sent twice is answered once."""
    return format_html('<input type="hidden" name="{}" value="{}">', FORM_FIELD, new_key())
