"""``{% username_beside player %}``: after a player's display name, their username in
brackets, so that a list of strangers says who each one is (a display name is the
player's to choose and change); nothing for a player without a display name, whose name
shown is their username already. ``{% bot_or_username_beside player %}``: "(bot)" for a
bot instead. Loaded as a builtin (settings.TEMPLATES), so templates need no
``{% load %}``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe

if TYPE_CHECKING:
    from accounts.models import User

register = template.Library()


@register.simple_tag
def username_beside(player: User | None) -> SafeString | str:
    """`` <span class="muted">(<bdi>username</bdi>)</span>`` after a display name (with
    its leading space), or nothing (as for a deactivated account's: User.shown_display_name)."""
    if player is None or not player.shown_display_name:
        return ""
    return format_html(' <span class="muted">(<bdi>{}</bdi>)</span>', player.username)


@register.simple_tag
def bot_or_username_beside(player: User | None) -> SafeString | str:
    """`` <span class="muted">(bot)</span>`` after a bot's name, :func:`username_beside`
    after anyone else's: where bots play beside people (a tournament's page), each of its
    lists marks them the same way, and no display name may pass for a bot's."""
    if player is not None and player.is_bot:
        return mark_safe(' <span class="muted">(bot)</span>')
    return username_beside(player)
