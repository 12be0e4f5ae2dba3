"""The business of matches: challenges, turns, timeouts, and the one place a match ends.

Every function here wraps one transaction. A turn locks its match row, checks the segment
number the player saw, applies the action through the engine and stores the resulting
segments, so a stale or duplicate submission is rejected and never applied twice.
Notifications are queued for after the commit.
"""

from __future__ import annotations

import logging
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta
from functools import cache
from typing import TYPE_CHECKING

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import Q, QuerySet
from django.utils import timezone
from django.utils.crypto import constant_time_compare

from aceysite.celery import queue_after_commit
from aceysite.sql import Table, fetch_one, fits_key, for_update_of, insert, select_list, update
from games.engine import BlotNamingError, EngineError, Position, format_play
from games.engine.game import (
    DiceSource,
    DoubleNamed,
    Event,
    Game,
    GameState,
    OpeningRoll,
    Phase,
    SegmentKind,
    SegmentPlayed,
)
from games.engine.moves import Play, partial_play
from games.engine.notation import format_point, parse_play

from . import away, blocks, notifications
from .dice import SeededDice, new_seed
from .models import (
    CHALLENGE_DAYS,
    DAYS_PER_MOVE,
    MATCH_LENGTHS,
    Challenge,
    GameResult,
    Match,
    Segment,
    Variant,
)
from .ratings.store import rate_finished_match
from .tally import count_rolls

if TYPE_CHECKING:
    from datetime import datetime

    from accounts.models import User

    from .tournaments.models import Tournament

log = logging.getLogger(__name__)


class TurnError(Exception):
    """A request about a match or challenge that cannot be carried out; ``status`` is HTTP."""

    status = 400


class IllegalTurn(TurnError):
    """Malformed or illegal: the reason is the engine's, worded for the player."""


class IllegalBlot(IllegalTurn):
    """A legal play with a greek blot named against the rules: a page shows the reason
    beside the field where the blot was named."""


class NotAllowed(TurnError):
    status = 403


class StillAway(NotAllowed):
    """The player to move is taking time away (games.away): they come back before they
    play. The message points at the settings page; the API points at its own endpoint
    instead (``reason``, then how: games.api)."""

    reason = "you are taking time away: come back first"

    def __init__(self) -> None:
        super().__init__(f"{self.reason} (Settings, Time away)")


class LimitReached(TurnError):
    """More of something than one player may have at once: open challenges, matches
    against the bots. Nothing was done. HTTP 409, not 429: waiting will not help, making
    room (withdrawing a challenge, finishing a match) will, and clients retry a 429."""

    status = 409


class TooManyChallenges(TurnError):
    """The day's challenges from one player to another are sent (HTTP 429); nothing was
    done. ``retry_after``: the seconds until the oldest of them is a day old."""

    status = 429

    def __init__(self, message: str, *, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class SameChallengeWaiting(LimitReached):
    """The player's identical challenge already waits (``challenge``), in the lobby or for
    the player it names: a second would add nothing anyone could not accept in the first,
    so a form sent twice or a request retried after a lost answer makes one challenge, not
    two, and is told of the one."""

    def __init__(self, message: str, *, challenge: Challenge) -> None:
        super().__init__(message)
        self.challenge = challenge


class StaleSegment(TurnError):
    """The player acted on a segment that is no longer the current one (409)."""

    status = 409


class TimeRanOut(StaleSegment):
    """A turn or a resignation sent after the match's move deadline passed, before the
    sweep (every ACEY_SWEEP_SECONDS, or later when beat is down) came to it. The deadline's
    passing lost the match for the player to move (R9): what was sent is refused (409) and
    the match ended on time there and then, as the sweep would have ended it; the turn's
    player, or the opponent resigning a match already won, is told so."""

    def __init__(
        self, reason: str = "your time for this move had run out: you lost the match on time (R9)"
    ) -> None:
        super().__init__(reason)


class ChallengeGone(StaleSegment):
    """An accept of a challenge that, while it waited for the challenge's lock, became one
    the player may no longer know of (another player took it from the lobby): answered as
    one accepted a moment later, not with the 409 of its own players."""


# -- challenges ------------------------------------------------------------------------------


def create_challenge(
    challenger: User,
    *,
    opponent: User | None = None,
    variant: str = Variant.AMERICAN,
    points: int = 1,
    days_per_move: int = 2,
    private: bool = False,
    rated: bool = True,
    rematch_of: Match | None = None,
) -> Challenge:
    """Offer a match to ``opponent``, to the lobby (no opponent), or by invite link
    (private); ``rematch_of``: the finished match it offers to play again."""
    if variant not in Variant.values:
        raise IllegalTurn("variant must be 'american' or 'greek'")
    if points not in MATCH_LENGTHS:
        raise IllegalTurn(f"a match is played to {', '.join(map(str, MATCH_LENGTHS))} points")
    if days_per_move not in DAYS_PER_MOVE:
        raise IllegalTurn(f"days per move must be one of {', '.join(map(str, DAYS_PER_MOVE))}")
    if opponent is not None and opponent.pk == challenger.pk:
        raise IllegalTurn("you cannot challenge yourself")
    if opponent is not None and not opponent.is_active:
        # Found by name, the account would not be (accounts.services.player_named); a
        # rematch names the opponent of a finished match, who may have gone since.
        raise IllegalTurn(f"you cannot challenge {opponent.username}: the account is closed")
    options = {"variant": variant, "points": points, "days_per_move": days_per_move, "rated": rated}
    with transaction.atomic():
        _check_challenge_limits(challenger, opponent, private=private, options=options)
        challenge = Challenge.objects.create(
            challenger=challenger,
            opponent=opponent,
            private=private and opponent is None,
            rematch_of=rematch_of,
            **options,
        )
        if opponent is not None and opponent.is_bot:
            # A bot accepts at once; its first move (if it is to move) follows by task.
            accept_challenge(challenge.pk, user=opponent)
            challenge.refresh_from_db()
        elif opponent is not None:
            notifications.challenge_received(challenge)
    return challenge


#: Open challenges one player may have out at once (to players, the lobby, invite links):
#: each one to a player is an email to them, so a player cannot flood another's inbox.
MAX_OPEN_CHALLENGES = 20
#: Challenges (rematch offers too) one player may send another in a day, those withdrawn
#: or declined since included: each is an email to them, and withdrawing one to send
#: another must not make room for more. Those accepted are not counted: the opponent
#: wanted them.
MAX_CHALLENGES_TO_A_PLAYER_A_DAY = 3
#: Matches against the bots one player may have in play at once: each bot turn is a
#: worker's time.
MAX_BOT_MATCHES = 20


def lock_players(*players: User | int | None) -> list[bool]:
    """Lock the players' rows (users or their pks) for the rest of the transaction, in pk
    order, and before any challenge row: taken in other orders, two transactions could
    each hold a row the other waits for. Answers whether each is active, in pk order."""
    pks = sorted({p if isinstance(p, int) else p.pk for p in players if p is not None})
    locked = get_user_model().objects.select_for_update().filter(pk__in=pks).order_by("pk")
    return list(locked.values_list("is_active", flat=True))


def _check_challenge_limits(
    challenger: User, opponent: User | None, *, private: bool, options: dict[str, object]
) -> None:
    """Refuse a challenge beyond the limits (:class:`LimitReached`), or the same as one
    waiting (:class:`SameChallengeWaiting`, with ``options``: its variant, points, days
    per move and rated). Inside the caller's transaction, with the players' rows locked:
    two challenges sent at once are counted one after the other, and the second copy of
    one finds the first (a bot's is locked now too, for the match it starts at once), and
    one sent as either player blocks the other is refused or withdrawn by the block."""
    lock_players(challenger, opponent)
    if opponent is not None and opponent.is_bot:
        # A bot accepts at once: its challenge never waits, so it neither counts against
        # the challenges waiting nor is stopped by them. The bots have their own limit.
        _refuse_too_many_bot_matches(challenger)
        return
    if opponent is not None:
        refusal = blocks.challenge_refusal(challenger, opponent)
        if refusal:
            raise NotAllowed(refusal)
    waiting = Challenge.objects.issued_by(challenger)
    if opponent is None and not private:
        same = Challenge.objects.open_in_lobby().filter(challenger=challenger, **options).first()
        if same is not None:
            raise SameChallengeWaiting(
                "you already have this challenge waiting in the lobby", challenge=same
            )
    if opponent is not None:
        # One open challenge to a player at a time, and a few a day: each is an email to them.
        _refuse_a_second_challenge_to(opponent, waiting.filter(opponent=opponent), options)
        _refuse_too_many_challenges_to(challenger, opponent)
    if waiting.count() >= MAX_OPEN_CHALLENGES:
        raise LimitReached(
            f"you have {MAX_OPEN_CHALLENGES} challenges waiting for an answer:"
            " withdraw one before you send another"
        )


def _refuse_too_many_bot_matches(challenger: User) -> None:
    """Refuse (:class:`LimitReached`) a match against a bot to a player already playing
    :data:`MAX_BOT_MATCHES` of them: each bot turn is a worker's time."""
    playing_bots = Match.objects.active().filter(
        Q(white=challenger, black__is_bot=True) | Q(black=challenger, white__is_bot=True)
    )
    if playing_bots.count() >= MAX_BOT_MATCHES:
        raise LimitReached(
            f"you are playing {MAX_BOT_MATCHES} matches against the computer already:"
            " finish one before you start another"
        )


def _refuse_a_second_challenge_to(
    opponent: User, waiting: QuerySet[Challenge], options: dict[str, object]
) -> None:
    """Refuse a challenge to a player who has one of the challenger's (``waiting``) to
    answer already: the same one again, most likely the form sent twice, is told of the
    first (:class:`SameChallengeWaiting`); another waits until the first is answered."""
    first = waiting.first()
    if first is None:
        return
    if all(getattr(first, name) == value for name, value in options.items()):
        raise SameChallengeWaiting(
            f"you have already sent {opponent.username} this challenge: it waits for their answer",
            challenge=first,
        )
    raise LimitReached(
        f"you have already challenged {opponent.username}: wait for their answer,"
        " or withdraw that challenge first"
    )


def _refuse_too_many_challenges_to(challenger: User, opponent: User) -> None:
    """Refuse (:class:`TooManyChallenges`) a challenge from ``challenger`` to ``opponent``
    once :data:`MAX_CHALLENGES_TO_A_PLAYER_A_DAY` not accepted were sent them in the last
    24 hours (a rolling window, not the calendar day: the refusal says so), whether they
    still wait, were withdrawn or were declined."""
    now = timezone.now()
    sent = (
        Challenge.objects.filter(
            challenger=challenger, opponent=opponent, created_at__gt=now - timedelta(days=1)
        )
        .exclude(status=Challenge.Status.ACCEPTED)
        .order_by("-created_at")
    )
    # The oldest of the day's last few: once it is a day old, there is room for one more.
    counted = sent.values_list("created_at", flat=True)
    oldest = counted[MAX_CHALLENGES_TO_A_PLAYER_A_DAY - 1 : MAX_CHALLENGES_TO_A_PLAYER_A_DAY]
    if not oldest:
        return
    wait = oldest[0] + timedelta(days=1) - now
    raise TooManyChallenges(
        f"you have sent {opponent.username} {MAX_CHALLENGES_TO_A_PLAYER_A_DAY} challenges"
        f" in the last 24 hours: you can challenge them again"
        f" in {notifications.time_left_in_words(wait)}",
        retry_after=max(1, math.ceil(wait.total_seconds())),
    )


def accept_challenge(
    challenge_id: int,
    *,
    user: User,
    invite_token: str | None = None,
    dice: DiceSource | None = None,
) -> Match:
    """Accept an open challenge: the match starts at once with colours drawn at random.

    A private challenge is accepted only with its invite link's token. Raises
    :class:`ChallengeGone` for one taken meanwhile by someone else, which ``user`` may no
    longer know of.
    """
    with transaction.atomic():
        # The players first, then the challenge (the order every path takes: a rematch
        # offered back locks both players, then accepts).
        lock_players(
            Challenge.objects.values_list("challenger_id", flat=True).get(pk=challenge_id), user
        )
        challenge = Challenge.objects.select_for_update().get(pk=challenge_id)
        own = challenge.challenger_id == user.pk
        # The link is for the friend it is sent to: its challenger is told it is their own,
        # and the friend who accepted it, sending the accept again (its answer lost), that
        # it is accepted, with or without the token.
        if (
            challenge.private
            and not own
            and challenge.opponent_id != user.pk
            and not constant_time_compare(invite_token or "", challenge.invite_token)
        ):
            raise NotAllowed("a private challenge is accepted through its invite link")
        if challenge.current_status != Challenge.Status.OPEN:
            refusal = _no_longer_open(challenge)
            if not challenge.is_visible_to(user, invite_token=invite_token or ""):
                raise ChallengeGone(str(refusal))
            raise refusal
        if own:
            raise NotAllowed("you cannot accept your own challenge")
        if challenge.opponent_id is not None and challenge.opponent_id != user.pk:
            raise NotAllowed("this challenge is addressed to someone else")
        # Under the players' locks, as block() takes them: a block made meanwhile is seen.
        refusal = blocks.acceptance_refusal(user, challenge.challenger)
        if refusal:
            raise NotAllowed(refusal)
        players = [challenge.challenger, user]
        random.SystemRandom().shuffle(players)
        match = start_match(
            white=players[0],
            black=players[1],
            variant=challenge.variant,
            points=challenge.points,
            days_per_move=challenge.days_per_move,
            rated=challenge.rated,
            dice=dice,
            players_active=True,
        )
        challenge.status = Challenge.Status.ACCEPTED
        challenge.opponent = user
        challenge.match = match
        challenge.save(update_fields=["status", "opponent", "match", "updated_at"])
        notifications.challenge_accepted(challenge)
    return match


def decline_challenge(challenge_id: int, *, user: User, past_days_too: bool = False) -> Challenge:
    """The addressed opponent turns a challenge down.

    ``past_days_too``: one past its days that the sweep has not yet marked expired is
    declined as well (see :func:`_close_challenge`)."""
    return _close_challenge(
        challenge_id, user=user, status=Challenge.Status.DECLINED, past_days_too=past_days_too
    )


def cancel_challenge(challenge_id: int, *, user: User, past_days_too: bool = False) -> Challenge:
    """The challenger withdraws a challenge nobody has accepted yet.

    ``past_days_too``: one past its days that the sweep has not yet marked expired is
    withdrawn as well (see :func:`_close_challenge`)."""
    return _close_challenge(
        challenge_id, user=user, status=Challenge.Status.CANCELLED, past_days_too=past_days_too
    )


def _close_challenge(
    challenge_id: int, *, user: User, status: str, past_days_too: bool = False
) -> Challenge:
    """Withdraw or decline a challenge. A player answering one past its days is told it
    has expired; closing an account and blocking (``past_days_too``) close it all the same
    while its row is still OPEN, or the sweep, coming later, would email its challenger to
    challenge the player gone or blocked again."""
    with transaction.atomic():
        # The players first, then the challenge, the order accept_challenge and the expiry
        # sweep take: the email a decline stores refers to the challenger's row, which an
        # accept holds locked while it waits for the challenge's (the other order
        # deadlocked).
        lock_players(
            *Challenge.objects.values_list("challenger_id", "opponent_id").get(pk=challenge_id)
        )
        challenge = Challenge.objects.select_for_update().get(pk=challenge_id)
        allowed = (
            challenge.challenger_id
            if status == Challenge.Status.CANCELLED
            else challenge.opponent_id
        )
        if allowed != user.pk:
            raise NotAllowed("only the challenger can cancel, and only the opponent decline")
        still_open = challenge.status if past_days_too else challenge.current_status
        if still_open != Challenge.Status.OPEN:
            raise _no_longer_open(challenge)
        challenge.status = status
        challenge.save(update_fields=["status", "updated_at"])
        if status == Challenge.Status.DECLINED:
            notifications.challenge_declined(challenge)
    return challenge


def _no_longer_open(challenge: Challenge) -> StaleSegment:
    """The refusal of an answer to a challenge that has been answered, withdrawn or has
    expired (its days past, swept or not yet)."""
    if challenge.current_status == Challenge.Status.EXPIRED:
        return StaleSegment(
            f"this challenge has expired: nobody took it up within {CHALLENGE_DAYS} days"
        )
    return StaleSegment(f"this challenge has already been {challenge.status}")


def rematch_offers(match: Match, user: User) -> dict[str, Challenge | None]:
    """The rematch offers of ``match`` between ``user`` and their opponent: ``mine``
    (``user``'s to them, open), ``theirs`` (to ``user``, open) and ``played`` (the one
    accepted, whose match has started), each None if there is none. One query."""
    # An offer past its days is not one: it is expired, swept or not yet.
    offers = (
        Challenge.objects.filter(rematch_of=match, status=Challenge.Status.ACCEPTED)
        | Challenge.objects.filter(rematch_of=match).waiting()
    ).order_by("pk")
    found: dict[str, Challenge | None] = {"mine": None, "theirs": None, "played": None}
    for offer in offers:
        if offer.status == Challenge.Status.ACCEPTED:
            found["played"] = offer
        else:
            found["mine" if offer.challenger_id == user.pk else "theirs"] = offer
    return found


def offer_rematch(match: Match, *, user: User) -> Challenge:
    """After a finished match, challenge the same opponent with the same options.

    Pressed twice (a page reloaded, or opened twice), it is the one offer. If the
    opponent has offered a rematch already, theirs is accepted: the answer is then that
    challenge, with its match started. A match is played again once: once a rematch has
    started, the answer is that rematch.
    """
    if not match.is_player(user):
        raise NotAllowed("only the players can ask for a rematch")
    if match.is_active:
        raise IllegalTurn("the match is still being played")
    opponent = match.opponent_of(user)
    with transaction.atomic():
        # Both players locked: two offers made at once (one each, or one pressed twice)
        # are looked at one after the other, and the second finds the first.
        lock_players(user, opponent)
        offers = rematch_offers(match, user)
        if offers["played"] is not None:
            return offers["played"]
        if offers["theirs"] is not None:
            accept_challenge(offers["theirs"].pk, user=user)
            offers["theirs"].refresh_from_db()
            return offers["theirs"]
        if offers["mine"] is not None:
            return offers["mine"]
        return create_challenge(
            user,
            opponent=opponent,
            variant=match.variant,
            points=match.points,
            days_per_move=match.days_per_move,
            rated=match.rated,
            rematch_of=match,
        )


# -- starting and playing --------------------------------------------------------------------


def start_match(
    *,
    white: User,
    black: User,
    variant: str,
    points: int,
    days_per_move: int,
    rated: bool = True,
    dice: DiceSource | None = None,
    players_active: bool = False,
    tournament: Tournament | None = None,
    slot_id: str = "",
) -> Match:
    """Create a match and play its first game's opening roll (R1). ``players_active``:
    refuse (StaleSegment) if either player has closed their account (games.closing).
    ``tournament``: the tournament whose draw's slot ``slot_id`` the match plays; it is
    linked to it before the first turn is told, so that the turn's email names it."""
    with transaction.atomic():
        # Lock the players' rows (in one order, as everyone does): a player going away or
        # coming back meanwhile either finishes first, and the new clock reads their
        # return, or waits, and then moves the new match's clock with their others; one
        # closing their account either finished first (and is refused here) or waits,
        # and then resigns this match.
        active = lock_players(white, black)
        if players_active and not all(active):
            raise StaleSegment("the account of a player of this challenge is closed")
        seed = new_seed()
        game = Game(variant, dice or SeededDice(seed))
        match = Match(
            server_seed=seed,
            white=white,
            black=black,
            variant=variant,
            points=points,
            days_per_move=days_per_move,
            rated=rated,
        )
        _save_state(match, game)
        match.save()
        if tournament is not None:
            _link_to_tournament(match, tournament, slot_id)
        opening = _record(match, game.events)
        _go_on(match, game, previous_to_move=None, recorded=opening)
    return match


def _link_to_tournament(match: Match, tournament: Tournament, slot_id: str) -> None:
    # A local import: games.tournaments imports this module.
    from .tournaments.models import TournamentMatch

    # Created from the objects themselves, the link is cached on the match, with its
    # tournament: the turn email finds them without a query.
    TournamentMatch.objects.create(tournament=tournament, slot_id=slot_id, match=match)


def load_game(match: Match, dice: DiceSource | None = None) -> Game:
    """The engine's view of the match's current game, ready for the next action."""
    state = GameState(
        Position.from_dict(match.position),
        Phase(match.phase),
        tuple(match.dice) if match.dice else None,
        SegmentKind(match.segment_kind) if match.segment_kind else None,
    )
    return Game(match.variant, dice or SeededDice(match.server_seed, match.rolls), state=state)


@dataclass(frozen=True)
class TurnAction:
    """What a player submits for the current segment (exactly one of play/steps/double)."""

    segment: int
    play: str | None = None
    steps: tuple[tuple[int, int], ...] | None = None
    double: int | None = None
    name_blot: int | None = None


def submit_segment(
    match_id: int,
    *,
    user: User,
    action: TurnAction,
    dice: DiceSource | None = None,
    stored: list[Segment] | None = None,
) -> Match:
    """Apply one player action to the current segment, then any forced follow-ups.

    Raises :class:`StaleSegment` (409) when ``action.segment`` is not the number of stored
    segments (a duplicate or out-of-date submission), :class:`NotAllowed` (403) when it is
    not ``user``'s turn or match, :class:`IllegalTurn` (400) with the engine's reason.
    Nothing is stored unless the whole action is legal.

    ``stored``, if given, receives every segment row the action stored (forced follow-ups
    and the opening of a next game included), oldest first, once they are committed: the
    API answers with them instead of reading them back.
    """
    try:
        with transaction.atomic():
            match = _locked_for_turn(match_id)
            _check_turn(match, user, action.segment)
            game = load_game(match, dice)
            before = len(game.events)
            try:
                _apply(game, action)
            except BlotNamingError as error:
                raise IllegalBlot(str(error)) from None
            except EngineError as error:
                raise IllegalTurn(str(error)) from None
            recorded = _record(match, game.events[before:])
            _go_on(match, game, previous_to_move=match.to_move_id, recorded=recorded)
    except IntegrityError:
        # The unique (match, number) constraint caught a racing duplicate.
        raise StaleSegment("this segment has already been played") from None
    except TimeRanOut:
        # In a transaction of its own: the turn's, refused, has rolled back.
        award_timeout(match_id)
        raise
    if stored is not None:
        stored += recorded
    return match


def _locked_for_turn(match_id: int) -> Match:
    """The match, its row locked until the caller's transaction ends, with its players
    (the one to move among them) and its tournament, if any; :class:`Match.DoesNotExist`
    if there is none. A player's turn and a bot's lock it so.

    As ``Match.objects.select_for_update(of=("self",)).select_related("white", "black",
    "tournament_match__tournament").get(pk=match_id)`` gets it, in SQL written once
    (aceysite.sql: building that query cost a turn 2 ms of CPU of its 14).
    """
    tables, sql = _turn_lock_statement()
    found = fits_key(Match, match_id) and fetch_one(tables, sql, [match_id], locking=True)
    if not found:
        raise Match.DoesNotExist(f"no match {match_id}")
    match, white, black, link, tournament = found
    assert isinstance(match, Match)
    match.white, match.black = white, black
    if match.to_move_id is not None:  # one of them: a bot's turn asks who, without a query
        match.to_move = white if match.to_move_id == white.pk else black
    # The reverse one-to-one cached as select_related caches it, absent or not, so that
    # the turn email's asking for the tournament queries nothing.
    tournament_match = Match._meta.get_field("tournament_match")
    if link is not None:
        link.match = match
        link.tournament = tournament
    tournament_match.set_cached_value(match, link)
    return match


@cache
def _turn_lock_statement() -> tuple[tuple[Table, ...], str]:
    """:func:`_locked_for_turn`'s tables and SQL. Only the match row is locked; the
    players come along for the records, and the tournament for the turn email
    (games.notifications.turn_passed)."""
    from games.tournaments.models import Tournament, TournamentMatch

    user = get_user_model()
    tables = match, white, black, link, tournament = (
        Table(Match, "m"),
        Table(user, "w"),
        Table(user, "b"),
        Table(TournamentMatch, "tm"),
        Table(Tournament, "t"),
    )
    sql = (
        f"SELECT {select_list(tables)} FROM {match}"
        f" JOIN {white} ON {white.column('id')} = {match.column('white')}"
        f" JOIN {black} ON {black.column('id')} = {match.column('black')}"
        f" LEFT JOIN {link} ON {link.column('match')} = {match.column('id')}"
        f" LEFT JOIN {tournament} ON {tournament.column('id')} = {link.column('tournament')}"
        f" WHERE {match.column('id')} = %s{for_update_of('m')}"
    )
    return tables, sql


#: Segment numbers are a PositiveIntegerField's: above it, a query would fail.
MAX_SEGMENT_NUMBER = 2**31 - 1


def already_played(match_id: int, *, user: User, action: TurnAction) -> bool:
    """Whether ``action`` is what ``user`` already played as segment ``action.segment``:
    a request sent again because its answer was lost. The caller, which got
    :class:`StaleSegment` for it, can then answer as it answered the first time.

    Only the same play (the same checkers moved, however written or clicked) or the same
    named double of that segment counts; anything else was stale indeed.
    """
    if action.play is None and action.double is None and action.steps is None:
        return False
    if not 0 < action.segment < MAX_SEGMENT_NUMBER:  # a number no segment has
        return False
    rows = {
        row.number: row
        for row in Segment.objects.filter(
            match_id=match_id, number__in=(action.segment, action.segment + 1)
        ).select_related("match")
    }
    before, done = rows.get(action.segment), rows.get(action.segment + 1)
    if before is None or done is None or done.automatic:
        return False
    if done.player != done.match.color_of(user):
        return False
    if action.double is not None:
        return done.kind == Segment.Kind.DOUBLE and done.dice == [action.double] * 2
    if done.kind == Segment.Kind.DOUBLE or action.name_blot not in (None, done.named_blot):
        return False
    position = Position.from_dict(before.position)
    named_double = done.kind == Segment.Kind.NAMED_DOUBLE
    try:
        if action.steps is not None:  # clicked on the board
            play = clicked_play(position, done.dice, action.steps, named_double=named_double)
        else:
            play = parse_play(position, done.dice, action.play or "", named_double=named_double)
        if play is None:
            return False
        if format_play(play) == done.play:
            return True
        # Written another way: the stored play is kept as its player moved the checkers
        # ("in/19 19/14"), and a resend may take the other path to the same position
        # ("in/20 20/14"), the same play (R5.4; Play compares what it reaches).
        return play == parse_play(position, done.dice, done.play, named_double=named_double)
    except EngineError:
        return False


def clicked_play(
    position: Position,
    dice: Sequence[int],
    steps: Sequence[tuple[int, int]],
    *,
    named_double: bool = False,
) -> Play | None:
    """The legal play ``steps`` clicked on the board complete (``(source, dest)`` in the
    mover's numbering, one die each), with each checker moved by the die the player moved
    it by: read as their notation is (parse_play), not as the move generator happened to
    find the same play first (``bar/23 23/22*`` for a 1-2 clicked ``bar/24 24/22*``).
    None if they are not a whole play yet; raises EngineError if they start none."""
    complete = partial_play(position, dice, list(steps), named_double=named_double).complete
    if complete is None:
        return None
    written = " ".join(f"{format_point(source)}/{format_point(dest)}" for source, dest in steps)
    try:
        return parse_play(position, dice, written, plays=[complete])
    except EngineError:
        # Not expected (the steps reach this play, one die each): the play stands as the
        # generator found it rather than a turn refused.
        return complete


def _check_turn(match: Match, user: User, segment: int) -> None:
    if not match.is_player(user):
        raise NotAllowed("you are not playing in this match")
    if not match.is_active:
        raise StaleSegment("the match is over")
    if segment != match.segment_count:
        raise StaleSegment(
            f"segment {segment} is not the current one ({match.segment_count}): reload the match"
        )
    if match.to_move_id != user.pk:
        if match.deadline_passed():
            # The opponent's time ran out, the sweep not yet come to it: the match is this
            # player's, as a resignation sent now would find (resign), not a turn to wait.
            raise TimeRanOut(
                f"{match.opponent_of(user)}'s time to move had run out: you won the match on"
                " time (R9)"
            )
        raise NotAllowed("it is not your turn")
    if user.is_away():
        # Their clocks stand still; playing on would give them clocks nobody else has.
        raise StillAway
    if match.deadline_passed():
        # The sweep has not come to it yet: a turn sent now would undo a loss on time.
        raise TimeRanOut


def _apply(game: Game, action: TurnAction) -> None:
    if action.double is not None:
        if action.play or action.steps or action.name_blot is not None:
            raise IllegalTurn("name a double on its own")
        game.name_double(action.double)
        return
    if game.phase is Phase.NAME_DOUBLE:
        raise IllegalTurn("name a double first (1-1 to 6-6)")
    if action.steps is not None:
        play = clicked_play(
            game.position,
            game.dice or (),
            action.steps,
            named_double=game.kind is SegmentKind.NAMED_DOUBLE,
        )
        if play is None:
            raise IllegalTurn("that play is not finished: use all the dice you can")
        game.play(play, name_blot=action.name_blot)
        return
    if action.play is None:
        raise IllegalTurn("send a play in notation, e.g. 13/7 8/7")
    game.play(action.play, name_blot=action.name_blot)


def _go_on(
    match: Match, game: Game, *, previous_to_move: int | None, recorded: list[Segment]
) -> None:
    """Play forced segments, score finished games, start the next one, then save; then
    count the rolls stored in the players' dice tallies (games.tally).

    ``recorded`` holds the segments the caller's transaction has stored so far: the turn
    email quotes the opponent's last play from them instead of querying for it. The
    segments stored here are added to it.
    """
    _play_on(match, game, previous_to_move=previous_to_move, recorded=recorded)
    # Once for all the segments of the transaction, even those of a game that ended it:
    # the tallies are taken once, in one order.
    count_rolls(match, recorded)


def _play_on(
    match: Match, game: Game, *, previous_to_move: int | None, recorded: list[Segment]
) -> None:
    """All that :func:`_go_on` does but count the rolls."""
    while True:
        if game.phase is Phase.FINISHED:
            game = _end_game(match, game, recorded=recorded)
            if game is None:
                return  # the match is over; finish_match saved it
            continue
        before = len(game.events)
        if not _play_forced(game):
            break
        recorded += _record(match, game.events[before:], automatic=True)
    _save_state(match, game)
    if _new_turn(match, previous_to_move, recorded):
        allowed = timedelta(days=match.days_per_move)
        now = timezone.now()
        starts = now if match.to_move.is_bot else away.clock_start(match.to_move_id, now)
        match.deadline = starts + allowed
        match.set_reminder(clock_runs_from=starts)
        notifications.turn_passed(match, recorded=recorded, dance_left=_dance_left_to_player(game))
        _queue_bot_turn(match)
    update(match)  # match.save(), in SQL of its own (aceysite.sql): 0.8 ms of CPU less a turn


def _new_turn(match: Match, previous_to_move: int | None, recorded: list[Segment] | None) -> bool:
    """Whether the player now to move starts a new turn: someone else was to move, or the
    same player moves again after the opponent's turn was played for them (a dance, a
    forced play) or after a game ended and they won the next opening roll. Either way
    the turn gets its full time, its reminder and its email; only a player going on
    with their own turn (the rolls of an acey-deucey) keeps the clock they had."""
    if match.to_move_id != previous_to_move:
        return True
    mover = "white" if previous_to_move == match.white_id else "black"
    return any(
        segment.kind == Segment.Kind.OPENING or segment.player not in ("", mover)
        for segment in recorded or ()
    )


def _queue_bot_turn(match: Match) -> None:
    """If a bot is now to move, have a worker play its turn once this transaction commits."""
    if match.to_move is None or not match.to_move.is_bot:
        return
    from .tasks import task_play_bot_turn

    match_id, segment = match.pk, match.segment_count
    # With the broker down the turn stands, and queue_stuck_bot_turns queues it later.
    queue_after_commit(task_play_bot_turn, match_id=match_id, segment=segment)


def _play_forced(game: Game) -> bool:
    """Play the current decision if there is no choice to make; report whether it did."""
    if game.phase is Phase.NAME_DOUBLE:
        allowed = game.allowed_doubles()
        if len(allowed) == 1:
            game.name_double(allowed[0])
            return True
        return False
    only = game.forced_play()
    if only is None:
        return False
    mover = game.position.turn
    # A greek player who may name a blot still has a choice to make.
    if game.may_name_blot and not only.result.is_game_over and only.result.blots(mover):
        return False
    game.play(only)
    return True


def _dance_left_to_player(game: Game) -> bool:
    """Whether the player to move can move no checker but must still submit: a greek
    player with a blot they may name, whose dance :func:`_play_forced` leaves to them.
    Asked once it has played all it would (the legal plays are cached: no work again)."""
    only = game.forced_play()
    return only is not None and only.is_dance


def _end_game(match: Match, game: Game, *, recorded: list[Segment]) -> Game | None:
    """Score a finished game; start the next one (its opening segments are added to
    ``recorded``), or finish the match."""
    winner = game.winner
    assert winner is not None
    GameResult.objects.create(
        match=match,
        game_number=match.game_number,
        winner=winner,
        points=game.points,
        ending=Match.Ending.BORNE_OFF,
    )
    if winner == "white":
        match.score_white += game.points
    else:
        match.score_black += game.points
    if max(match.score_white, match.score_black) >= match.points:
        _save_state(match, game)
        finish_match(match, winner=winner, ending=Match.Ending.BORNE_OFF)
        return None
    match.game_number += 1
    following = Game(match.variant, game.dice_source)
    recorded += _record(match, following.events)
    return following


def _save_state(match: Match, game: Game) -> None:
    if isinstance(game.dice_source, SeededDice):
        match.rolls = game.dice_source.rolls
    match.position = game.position.to_dict()
    match.phase = game.phase.value
    match.dice = list(game.dice) if game.dice else None
    match.segment_kind = game.kind.value if game.kind else ""
    to_move = game.to_move
    match.to_move = None if to_move is None else match.player(to_move)


def _record(match: Match, events: list[Event], *, automatic: bool = False) -> list[Segment]:
    """Store engine events as numbered segments of the match; return the new rows.

    ``events`` follow on from ``match.position`` as last saved (the position the action
    began from), which is not yet the position the events lead to: each row's position
    is worked out along them (:func:`_positions_after`).
    """
    rows = []
    for event, position in zip(events, _positions_after(match, events), strict=True):
        match.segment_count += 1
        rows.append(_segment_row(match, event, position, automatic))
    insert(rows)  # Segment.objects.bulk_create(rows), in SQL of its own (aceysite.sql)
    if rows:
        # The next events (a double named automatically after this play, say) follow on
        # from here; the row's own fields are saved with the rest by _save_state.
        match.position = rows[-1].position
    return rows


def _positions_after(match: Match, events: list[Event]) -> list[dict]:
    """The position after each of ``events``, as stored with its segment.

    An opening roll leads to the new game's first position, with the winner of the roll
    to move (a tied roll, rolled again, to the same one: nobody moves in between). A
    named double changes nothing on the board: the position is the one it was named in.
    """
    positions: list[dict] = []
    current = match.position
    for index, event in enumerate(events):
        if isinstance(event, OpeningRoll):
            winner = next(
                e.winner for e in events[index:] if isinstance(e, OpeningRoll) and e.winner
            )
            current = Position.initial(match.variant, winner).to_dict()
        elif isinstance(event, SegmentPlayed):
            current = event.position.to_dict()
        positions.append(current)
    return positions


def _segment_row(match: Match, event: Event, position: dict, automatic: bool) -> Segment:
    common = {"match": match, "number": match.segment_count, "game_number": match.game_number}
    if isinstance(event, OpeningRoll):
        return Segment(
            **common,
            kind=Segment.Kind.OPENING,
            dice=[event.white, event.black],
            position=position,
            automatic=True,
        )
    if isinstance(event, DoubleNamed):
        return Segment(
            **common,
            kind=Segment.Kind.DOUBLE,
            player=event.player,
            dice=[event.value, event.value],
            position=position,
            automatic=automatic,
        )
    assert isinstance(event, SegmentPlayed)
    return Segment(
        **common,
        kind=event.kind.value,
        player=event.player,
        dice=list(event.dice),
        play=event.notation,
        named_blot=event.named_blot,
        position=position,
        automatic=automatic,
    )


# -- bots --------------------------------------------------------------------------------------


def play_bot_turn(match_id: int, *, segment: int) -> int:
    """Let the bot to move play its whole turn (a 1-2 chain included); return how many
    decisions it made.

    Safe to run twice or late: each decision is one transaction that locks the match and
    plays the current segment only while a bot is to move, so no segment is ever played
    twice and a duplicate task finds nothing to do. A task whose ``segment`` has already
    been played still plays on if a bot is to move: after a worker died between two
    segments of a bot's 1-2 chain, its redelivered task finishes the turn at once instead
    of leaving it to the stuck-turn sweep.
    """
    from .bots import make_bot, play_turn_segment

    decisions = 0
    bot_id = None
    while True:
        with transaction.atomic():
            match = _locked_for_turn(match_id)  # as a player's turn locks it
            mover = match.to_move
            if (
                not match.is_active
                or match.segment_count < segment
                or mover is None
                or not mover.is_bot
                or (bot_id is not None and mover.pk != bot_id)
            ):
                return decisions
            bot_id = mover.pk
            segment = match.segment_count
            # Seeded by match and segment: a replayed decision is the same decision.
            bot = make_bot(mover.bot.level, seed=match.pk * 100_003 + segment)
            game = load_game(match)
            before = len(game.events)
            play_turn_segment(game, bot)
            recorded = _record(match, game.events[before:])
            _go_on(match, game, previous_to_move=mover.pk, recorded=recorded)
            decisions += 1


def bot_users() -> list[User]:
    """The users the bots play as, one per level (created by a migration; recreated here
    if a test database was flushed)."""
    from accounts.models import User

    from .bots import BOTS
    from .models import BotPlayer

    names = {"beginner": "beginner-bot", "heuristic": "club-bot", "expert": "expert-bot"}
    users = []
    for level in BOTS:
        user, _ = User.objects.get_or_create(
            username=names.get(level, f"{level}-bot"),
            defaults={"display_name": f"{BOTS[level].name} bot", "is_bot": True},
        )
        if user.has_usable_password():
            user.set_unusable_password()
            user.save(update_fields=["password"])
        BotPlayer.objects.get_or_create(user=user, defaults={"level": level})
        users.append(user)
    return users


def queue_stuck_bot_turns(*, older_than: timedelta = timedelta(minutes=3)) -> int:
    """The sweep: queue again any bot turn that has waited too long (a lost task)."""
    from .tasks import task_play_bot_turn

    stuck = Match.objects.active().filter(
        to_move__is_bot=True, updated_at__lt=timezone.now() - older_than
    )
    count = 0
    for match_id, segment in stuck.values_list("pk", "segment_count"):
        task_play_bot_turn.delay(match_id=match_id, segment=segment)
        count += 1
    return count


# -- ending ----------------------------------------------------------------------------------


def resign(match_id: int, *, user: User) -> Match:
    """``user`` resigns the whole match (R9); :class:`TimeRanOut` if the deadline of the
    move it waits for has passed (the opponent of the player to move would resign a match
    they have won)."""
    with transaction.atomic():
        match = _locked_to_end(match_id)
        if not match.is_player(user):
            raise NotAllowed("you are not playing in this match")
        if not match.is_active:
            raise StaleSegment("the match is already over")
        if match.deadline_passed() and match.to_move is not None:
            # Ended as the sweep would have, and committed before the refusal is raised.
            _forfeit(match, loser=match.color_of(match.to_move), ending=Match.Ending.TIMEOUT)
        else:
            loser = match.color_of(user)
            assert loser is not None
            _forfeit(match, loser=loser, ending=Match.Ending.RESIGNATION)
    if match.ending == Match.Ending.TIMEOUT:
        if match.winner_id == user.pk:
            raise TimeRanOut(
                f"{match.opponent_of(user)}'s time to move had run out before you resigned:"
                " you won the match on time (R9)"
            )
        raise TimeRanOut(
            "your time to move had run out before you resigned: you lost the match on time (R9)"
        )
    return match


def end_if_time_ran_out(match: Match) -> bool:
    """End ``match`` on time (R9) if its mover's deadline has passed and the sweep (every
    minute; later while beat is down) has not come to it yet; True if it did. For a page
    or a read of the match, which would otherwise offer a move that a turn sent then is
    refused (a turn and a resignation end it so themselves, saying why: TimeRanOut). No
    query while the deadline is still ahead."""
    return match.deadline_passed() and award_timeout(match.pk)


def award_timeout(match_id: int, *, now: datetime | None = None) -> bool:
    """If the player to move has let the deadline pass, they lose the match (R9).

    Safe to call twice or concurrently: the locked re-check makes the second call a no-op.
    """
    with transaction.atomic():
        match = _locked_to_end(match_id)
        if not match.deadline_passed(now):
            return False
        loser = match.color_of(match.to_move) if match.to_move else None
        if loser is None:
            return False
        _forfeit(match, loser=loser, ending=Match.Ending.TIMEOUT)
    return True


def _locked_to_end(match_id: int) -> Match:
    """The match, its row locked, with what ending it reads: its players (the result's
    emails go to them) and its link to a tournament, if any (which hears the result). Ending
    many at once (games.closing resigns every match of a closed account) would otherwise
    read them match by match."""
    return (
        # Only the match row: PostgreSQL cannot lock the nullable side of an outer join.
        Match.objects.select_for_update(of=("self",))
        .select_related("white", "black", "tournament_match")
        .get(pk=match_id)
    )


def _forfeit(match: Match, *, loser: str, ending: str) -> None:
    winner = "black" if loser == "white" else "white"
    points = match.forfeit_points(loser)
    GameResult.objects.create(
        match=match, game_number=match.game_number, winner=winner, points=points, ending=ending
    )
    if winner == "white":
        match.score_white += points
    else:
        match.score_black += points
    finish_match(match, winner=winner, ending=ending)


def finish_match(match: Match, *, winner: str, ending: str) -> None:
    """The one place a match ends: result, state, ratings, tournament advancement and
    notifications all hang off this function. Call it inside the transaction that holds
    the match row's lock."""
    now = timezone.now()
    match.status = Match.Status.FINISHED
    match.winner = match.player(winner)
    match.ending = ending
    match.finished_at = now
    match.phase = Phase.FINISHED.value
    match.to_move = None
    match.deadline = None
    match.remind_at = None
    # match.dice stays: after a resignation or a timeout it is the roll the loser had to
    # play, which the match's record ends with (an export must replay through the engine,
    # whose record of a forfeited game keeps it). A game borne off has none.
    match.save()
    rating_changes = rate_finished_match(match, now=now)
    # The result first: the tournament's news it brings (the next match, a walkover, the
    # end) is queued after it, and its players read the cause before what follows.
    notifications.match_finished(match, rating_changes=rating_changes)
    # A local import: games.tournaments.services imports this module.
    from .tournaments.services import match_finished as advance_tournament

    advance_tournament(match)


def sweep_deadlines(now: datetime | None = None) -> dict[str, int]:
    """The periodic sweep: award timeouts, and remind players at 80% of their deadline."""
    now = now or timezone.now()
    overdue = Match.objects.overdue(now).values_list("pk", flat=True)
    timeouts = sum(award_timeout(pk, now=now) for pk in overdue)
    reminders = 0
    for match in Match.objects.due_for_reminder(now):
        # Claim the reminder so that overlapping sweeps send it once; only while it is still
        # due, since going away (games.away) may have moved it and the deadline since.
        with transaction.atomic():
            due = Match.objects.filter(pk=match.pk, remind_at__isnull=False, remind_at__lte=now)
            if due.update(remind_at=None):
                # Read again under the lock the claim took, with whom the email names and
                # its tournament, if any (games.notifications.deadline_reminder).
                claimed = Match.objects.select_related(
                    "to_move", "white", "black", "tournament_match__tournament"
                ).get(pk=match.pk)
                reminders += notifications.deadline_reminder(claimed, now=now)
    return {"timeouts": timeouts, "reminders": reminders}


def expire_challenges(now: datetime | None = None) -> int:
    """The periodic sweep: close as expired the challenges nobody has accepted within
    CHALLENGE_DAYS (in the lobby, to a player, or by invite link), and tell each
    challenger; returns how many. An expired challenge behaves as a withdrawn one
    (Challenge.is_visible_to): gone from the lobby and from its opponent's list, and
    refused to whoever would accept it. Its opponent is not told: to them it is a
    challenge they did not answer, gone as a withdrawn one goes. A challenge behaves so
    from the moment its days are past (models.challenge_expiry_cutoff): the sweep,
    coming within the hour, records the status and tells the challenger."""
    now = now or timezone.now()
    waiting_too_long = Challenge.objects.unanswered_too_long(now).values_list("pk", flat=True)
    return sum(_expire_challenge(pk, now=now) for pk in list(waiting_too_long))


def _expire_challenge(challenge_id: int, *, now: datetime) -> bool:
    """Close one challenge found waiting too long as expired, and email its challenger;
    False if it is no longer open."""
    with transaction.atomic():
        # The players first, then the challenge, the order accept_challenge takes: the
        # email stored refers to the challenger's row, which an accept holds locked while
        # it waits for the challenge's (the other order deadlocked).
        players = (
            Challenge.objects.filter(pk=challenge_id)
            .values_list("challenger_id", "opponent_id")
            .first()
        )
        if players is None:
            return False  # deleted since it was found (its challenger's account with it)
        lock_players(*players)
        # Claimed by one UPDATE on the row's own status: one being accepted or withdrawn at
        # this moment is waited for, then found no longer open and left as it was made; so
        # is one a sweep running beside this one expired first, which emailed its challenger.
        claimed = Challenge.objects.filter(pk=challenge_id, status=Challenge.Status.OPEN).update(
            status=Challenge.Status.EXPIRED, updated_at=now
        )
        if not claimed:
            return False
        challenge = Challenge.objects.select_related("challenger", "opponent").get(pk=challenge_id)
        notifications.challenge_expired(challenge, days=CHALLENGE_DAYS)
    return True
