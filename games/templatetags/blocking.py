"""Blocks on the pages that offer them (games.blocks), for their partials
(``games/_block_profile.html``, ``games/_block_settings.html``): each partial reads what it
shows itself, so that the profile and settings pages only include it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django import template

from games.blocks import blocks_of
from games.models import Block

if TYPE_CHECKING:
    from accounts.models import User

register = template.Library()


@register.simple_tag
def has_blocked(viewer: User, person: User) -> bool:
    """Whether ``viewer`` has blocked ``person`` (``{% has_blocked user person as x %}``)."""
    return Block.objects.filter(blocker=viewer, blocked=person).exists()


@register.simple_tag
def blocked_players(viewer: User) -> list[Block]:
    """``viewer``'s blocks, the latest first (``{% blocked_players user as blocks %}``)."""
    return list(blocks_of(viewer))
