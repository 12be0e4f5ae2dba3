"""``{{ rating.rd|rd }}``: a rating deviation (RD) as the pages show it, a whole number
rounded up. Loaded as a builtin (settings.TEMPLATES), so templates need no ``{% load %}``."""

from __future__ import annotations

import math

from django import template

register = template.Library()


@register.filter
def rd(value: float) -> int:
    """``value`` rounded up: a rating is provisional while its RD is above the threshold
    (110), and 110.4 rounded to the nearest would show "110" beside its "?".

    >>> rd(110.0), rd(110.4), rd(59.2)
    (110, 111, 60)
    """
    return math.ceil(value)
