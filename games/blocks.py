"""Blocking a player: for strangers who challenge and write to each other, a way to have
nothing more to do with one of them.

A block works in both directions, so that neither can reach the other:

- no challenge to the other (a challenge waiting between them is withdrawn or declined
  when the block is made), no accepting the other's lobby challenge or private invite,
  and the lobby does not show either one the other's challenges;
- no rematch offers;
- messages close in their matches, and turn emails quote none of them;
- neither is suggested to the other as a name to challenge.

A block never resigns anything: matches in play go on to their end, and tournaments pair
the two as anyone else (a player who entered one agreed to play whoever it draws).

Reasons are worded so that the blocker is told why ("you have blocked bob") and the
blocked player only what they need to know, without naming the block.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.db import transaction
from django.db.models import Exists, OuterRef, Q, QuerySet

from .models import Block, Challenge, Match

if TYPE_CHECKING:
    from accounts.models import User


class BlockRefused(ValueError):
    """A block that cannot be made; the message says why, for the player."""


@dataclass(frozen=True)
class BlockMade:
    """A block, and what making it ended, for the page that confirms it."""

    block: Block
    #: The blocker's challenges to the blocked player, withdrawn.
    withdrawn: int = 0
    #: The blocked player's challenges to the blocker, declined.
    declined: int = 0


def _between(a: User | int, b: User | int) -> QuerySet[Block]:
    # Each side of the OR is a lookup of one pair on the unique (blocker, blocked) index.
    return Block.objects.filter(Q(blocker=a, blocked=b) | Q(blocker=b, blocked=a))


def blockers_between(a: User | int, b: User | int) -> set[int]:
    """The pks of whichever of ``a`` and ``b`` (users or their pks) has blocked the other:
    none, one or both. One query."""
    return set(_between(a, b).values_list("blocker_id", flat=True))


def blocked_between(a: User | int, b: User | int) -> bool:
    """Whether either of ``a`` and ``b`` (users or their pks) has blocked the other. One
    query."""
    return _between(a, b).exists()


def challenge_refusal(challenger: User, opponent: User) -> str:
    """Why ``challenger`` may not challenge ``opponent`` ("" if a block does not stand in
    the way). One query."""
    blockers = blockers_between(challenger, opponent)
    if challenger.pk in blockers:
        return _unblock_first(opponent)
    if blockers:
        return f"you cannot challenge {opponent.username}: they are not taking challenges from you"
    return ""


def acceptance_refusal(user: User, challenger: User) -> str:
    """Why ``user`` may not accept a challenge of ``challenger``'s ("" if a block does not
    stand in the way). One query."""
    blockers = blockers_between(user, challenger)
    if user.pk in blockers:
        return _unblock_first(challenger)
    if blockers:
        return (
            f"you cannot accept this challenge: {challenger.username} is not playing matches"
            " with you"
        )
    return ""


def messages_refusal(player: User, opponent: User) -> str:
    """Why ``player`` and ``opponent`` may not write to each other in a match ("" if a
    block does not stand in the way): the blocker is told why, the other only that
    messages are closed. One query."""
    blockers = blockers_between(player, opponent)
    if player.pk in blockers:
        return f"messages are closed in this match: you have blocked {opponent.username}"
    return "messages are closed in this match" if blockers else ""


def blocked_in_match(match_id: int) -> bool:
    """Whether either player of the match ``match_id`` has blocked the other (for an
    email that would quote their messages). One query."""
    match = Match.objects.filter(pk=match_id)
    white, black = match.values("white_id"), match.values("black_id")
    return Block.objects.filter(
        Q(blocker__in=white, blocked__in=black) | Q(blocker__in=black, blocked__in=white)
    ).exists()


def without_blocks(users: QuerySet[User], user: User) -> QuerySet[User]:
    """``users`` without the players ``user`` has blocked or is blocked by (for the names
    suggested to ``user``: neither may challenge the other)."""
    # One NOT EXISTS for each direction, not one with an OR of the two, as the lobby's
    # (ChallengeQuerySet.apart_from): each is an anti join on an index of its own, where
    # the OR may be run as a nested loop over every player and every block of the user's.
    blocked = Block.objects.filter(blocker=user, blocked=OuterRef("pk"))
    blocked_by = Block.objects.filter(blocker=OuterRef("pk"), blocked=user)
    return users.filter(~Exists(blocked), ~Exists(blocked_by))


def _unblock_first(other: User) -> str:
    return f"you have blocked {other.username}: unblock them first"


def blocks_of(user: User) -> QuerySet[Block]:
    """The players ``user`` has blocked, the latest first (with each one's user row)."""
    return Block.objects.filter(blocker=user).select_related("blocked")


def block(user: User, *, other: User) -> BlockMade:
    """``user`` blocks ``other``; a challenge waiting between them is withdrawn (theirs)
    or declined (the other's). Blocking again changes nothing.

    Raises :class:`BlockRefused` for oneself, a computer player or a closed account.
    """
    # A local import: games.services imports this module for its checks.
    from . import services

    if other.pk == user.pk:
        raise BlockRefused("you cannot block yourself")
    # Reasons do not start with a name: pages make them sentences (capfirst).
    if other.is_bot:
        raise BlockRefused(f"you cannot block {other.username}: it is a computer player")
    if not other.is_active:
        raise BlockRefused(f"you cannot block {other.username}: the account is closed")
    with transaction.atomic():
        # Both players locked, as a challenge between them locks them to check for a
        # block: one sent at the same moment either committed first (and is withdrawn
        # below) or waits, and then finds the block.
        active = services.lock_players(user, other)
        if not all(active):
            # Closed since the check above (games.closing deletes blocks under this lock):
            # a block made now would outlive the closure.
            raise BlockRefused(f"you cannot block {other.username}: the account is closed")
        made, _ = Block.objects.get_or_create(blocker=user, blocked=other)
        still_open = Challenge.objects.still_open().filter(
            Q(challenger=user, opponent=other) | Q(challenger=other, opponent=user)
        )
        withdrawn = declined = 0
        for challenge in still_open:
            if challenge.challenger_id == user.pk:
                services.cancel_challenge(challenge.pk, user=user, past_days_too=True)
                withdrawn += 1
            else:
                services.decline_challenge(challenge.pk, user=user, past_days_too=True)
                declined += 1
    return BlockMade(made, withdrawn=withdrawn, declined=declined)


def unblock(user: User, *, other: User) -> bool:
    """``user`` takes back their block of ``other``; whether there was one. A block
    ``other`` made of ``user`` is theirs, and stays."""
    deleted, _ = Block.objects.filter(blocker=user, blocked=other).delete()
    return bool(deleted)
