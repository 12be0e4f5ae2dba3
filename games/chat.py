"""Messages between the two players of a match: "good luck", "nice roll", "see you after
the holidays". Correspondence players write to each other with their moves; the match page
shows the conversation beside the board, to the two players only.

A player who would rather not read what strangers write turns messages off in their
settings (``User.shows_messages``): they then see none, cannot write, and their opponent is
told so instead of writing into the void.
"""

from __future__ import annotations

import math
import re
import unicodedata
from dataclasses import dataclass
from datetime import timedelta
from typing import TYPE_CHECKING

from django.db import transaction
from django.db.models import BigIntegerField, Exists, F, QuerySet, Subquery, Value
from django.db.models.functions import Coalesce, Least
from django.utils import timezone

from . import blocks, services
from .models import Match, Message
from .services import NotAllowed, TurnError

if TYPE_CHECKING:
    from datetime import datetime

    from accounts.models import User

MAX_LENGTH = 500
#: Messages one player may write in one match within a day: enough for any conversation,
#: few enough that nobody floods an opponent's page.
MAX_PER_DAY = 40
#: How long after a match ends its players may still write ("good game").
AFTER_THE_END = timedelta(days=7)
#: The messages the match page shows, the latest; the earlier ones of a long conversation
#: are a link away. All of 3,000 made an 840 KB page, drawn again with each message sent.
SHOWN = 50
#: The most the match page shows at once, when it goes back further than the latest SHOWN
#: to show every message the viewer has not read (eight days of both players writing all
#: they may): what does not fit is shown after, and only what is shown is marked read.
#: Also the size of each page of the conversation's past (:func:`page_of_messages`).
MOST_SHOWN = 300

# Control characters other than the line feed and tab (a NUL would fail PostgreSQL's text
# type; the others only hide or garble what a reader sees), the zero-width space, and the
# marks and overrides that turn text around (U+061C, U+200E-F, U+202A-E, U+2066-9).
# Not the zero-width joiner and non-joiner (U+200C-D): emoji sequences and Persian words
# are spelled with them.
_CONTROL = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200b\u200e\u200f\u202a-\u202e\u2066-\u2069]"
)
_BLANK_LINES = re.compile(r"\n{3,}")


# Letters and symbols that draw nothing (Hangul fillers, the blank braille pattern).
_BLANKS = frozenset("\u115f\u1160\u3164\uffa0\u2800")


def _visible(char: str) -> bool:
    return unicodedata.category(char)[0] in "LNPS" and char not in _BLANKS


class ChatRefused(TurnError):
    """A message that cannot be written, with the reason for the player (HTTP 400)."""


class TooManyMessages(ChatRefused):
    """The day's messages are written (HTTP 429); ``retry_after``: the seconds until the
    oldest of them is a day old and one more may be written."""

    status = 429

    def __init__(self, message: str, *, retry_after: int):
        super().__init__(message)
        self.retry_after = retry_after


@dataclass(frozen=True)
class Conversation:
    """What the match page shows ``viewer`` of a match's messages."""

    messages: list[Message]
    #: Who the viewer writes to.
    opponent: User
    #: Whether the viewer may write now (a player, messages on both sides, not too late).
    can_write: bool
    #: Why not, when the viewer is a player who may not ("" otherwise).
    closed_because: str
    #: Whether newer messages were left out (``conversation(limit=...)``, or unread ones
    #: beyond MOST_SHOWN with ``latest``).
    more: bool = False
    #: Whether earlier messages were left out (``conversation(latest=...)``).
    earlier: bool = False
    #: Whether this is a page of the past (:func:`page_of_messages`), not the latest: the
    #: page does not poll for new messages, which would not follow on from these.
    past: bool = False
    #: Whether messages the viewer has not read were left out before those shown (a page
    #: of the past asked for by a link out of date, or made up): showing these then marks
    #: none read, which would mark those read too.
    skips_unread: bool = False

    @property
    def first_id(self) -> int:
        """The oldest message shown, before which the page's link finds older ones."""
        return self.messages[0].pk if self.messages else 0

    @property
    def last_id(self) -> int:
        """The newest message shown, from which the page asks for newer ones."""
        return self.messages[-1].pk if self.messages else 0


def tidy(text: str) -> str:
    """``text`` as it is stored: line breaks as ``\\n``, no control or direction-changing
    characters, no run of blank lines, no space at either end."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    text = _CONTROL.sub("", text)
    return _BLANK_LINES.sub("\n\n", text).strip()


def length(text: str) -> int:
    """``text``'s length as a browser's ``maxlength`` counts it: in UTF-16 code units, so
    that an emoji outside the Basic Multilingual Plane counts two. The box on the page
    stops the player at the very limit the server holds them to."""
    return len(text.encode("utf-16-le")) // 2


def _too_long(text: str) -> str:
    """The refusal of a message over MAX_LENGTH, saying how it was counted when that is
    not what the writer would count: "😀" * 300 is 600, not 300."""
    counted = length(text)
    if counted == len(text):
        return f"a message is at most {MAX_LENGTH} characters (this is {counted})"
    return (
        f"a message is at most {MAX_LENGTH} characters (this is {counted}: most emoji,"
        " and some rarer characters, count as two)"
    )


def post_message(match_id: int, *, user: User, text: str, now: datetime | None = None) -> Message:
    """Store ``user``'s message in the match, or raise :class:`ChatRefused` (or
    :class:`NotAllowed` for someone not playing) saying why, storing nothing."""
    now = now or timezone.now()
    text = tidy(text)
    if not any(_visible(char) for char in text):
        # Nothing a reader would see: only spaces, joiners or blank-looking letters.
        raise ChatRefused("write something first")
    if length(text) > MAX_LENGTH:
        raise ChatRefused(_too_long(text))
    with transaction.atomic():
        # Locked, so that two messages sent at once cannot both pass the daily limit.
        # Only the match's row: locking the joined players too would take their rows in
        # white-black order, not the pk order that start_match locks them in.
        match = (
            Match.objects.select_for_update(of=("self",))
            .select_related("white", "black")
            .get(pk=match_id)
        )
        if not match.is_player(user):
            raise NotAllowed("only the match's players write in it")
        # Then the two players, in pk order, as games.blocks.block() locks them: a block
        # made at the same moment either committed first, and the check below finds it,
        # or waits until this message is stored. (The match before the players, as
        # games.away takes them: nothing holds a player and then waits for a match.)
        # Each account's state is the locked row's: one closed while this request ran
        # (its messages erased by games.closing) takes no message written after that.
        pks = sorted((match.white_id, match.black_id))
        active = dict(zip(pks, services.lock_players(*pks), strict=True))
        if not active[user.pk]:
            raise NotAllowed("your account is closed")
        match.white.is_active = active[match.white_id]
        match.black.is_active = active[match.black_id]
        reason = _closed_because(match, user, now)
        if reason:
            raise ChatRefused(reason)
        recent = Message.objects.filter(
            match=match, author=user, created_at__gt=now - timedelta(days=1)
        ).order_by("-created_at")
        # The 40th newest: once it is a day old, there is room for one more.
        oldest_counted = recent.values_list("created_at", flat=True)[MAX_PER_DAY - 1 : MAX_PER_DAY]
        if oldest_counted:
            wait = oldest_counted[0] + timedelta(days=1) - now
            raise TooManyMessages(
                f"you have written {MAX_PER_DAY} messages here in the last 24 hours: wait a while",
                retry_after=max(1, math.ceil(wait.total_seconds())),
            )
        message = Message.objects.create(match=match, author=user, text=text, created_at=now)
        Match.objects.filter(pk=match.pk).update(message_count=F("message_count") + 1)
        return message


def conversation(
    match: Match,
    viewer: User,
    now: datetime | None = None,
    *,
    after: int = 0,
    limit: int | None = None,
    latest: int | None = None,
) -> Conversation | None:
    """The messages ``viewer`` sees in ``match``, or None for anyone but its two players
    (spectators see no messages). One query, none when the viewer has turned them off.

    ``after``: only the messages after the one with that id; ``limit``: at most that
    many of them, the oldest first (``more`` says whether there were others);
    ``latest``: only the newest that many (``earlier`` says whether there were others),
    in order; or, when the viewer has not read further back than that, all from the first
    they have not read, at most MOST_SHOWN of them (``more`` says whether newer were left
    out). The page marks what it shows read, and must not mark read what it leaves out.
    ``match`` must come with ``white`` and ``black`` loaded.
    """
    sides = _sides(match, viewer, now)
    if sides is None:
        return None
    opponent, reason = sides
    if not viewer.shows_messages:
        return Conversation([], opponent, False, reason)
    found = match.messages.filter(pk__gt=after).select_related("author")
    if latest is not None:
        shown, earlier, more = _latest_or_unread(
            found, latest=latest, read_to=read_to(match, viewer)
        )
        return Conversation(shown, opponent, not reason, reason, more, earlier)
    found = found.order_by("pk")
    messages = list(found if limit is None else found[: limit + 1])
    more = limit is not None and len(messages) > limit
    return Conversation(messages[:limit], opponent, not reason, reason, more)


def page_of_messages(
    match: Match, viewer: User, *, before: int | None = None, after: int = 0
) -> Conversation | None:
    """A page of the past of ``viewer``'s conversation in ``match``, as the links around
    the messages ask for it: the MOST_SHOWN messages just before the one numbered
    ``before``, or else just after the one numbered ``after``, the oldest first; or None
    for anyone but the match's two players. One query, none when the viewer has turned
    messages off.

    ``earlier`` says whether older messages precede those shown, ``more`` whether newer
    follow: the page links to them only then. (Not whenever a page was asked for from
    either side: ``before`` or ``after`` may be out of date, the messages beyond it erased
    with a closed account, or made up.) The page marks what it shows read unless
    ``skips_unread``. ``match`` must come with ``white`` and ``black`` loaded.
    """
    sides = _sides(match, viewer)
    if sides is None:
        return None
    opponent, reason = sides
    if not viewer.shows_messages:
        return Conversation([], opponent, False, reason, past=True)
    messages = match.messages.select_related("author")
    others = Message.objects.filter(match=match)
    seen_to = read_to(match, viewer)
    if before is not None:
        # One more than fit, to tell that there are older ones, and whether it is unread;
        # each row saying whether any follow (the same for all: PostgreSQL asks once).
        found = list(
            messages.filter(pk__lt=before)
            .annotate(followed=Exists(others.filter(pk__gte=before)))
            .order_by("-pk")[: MOST_SHOWN + 1]
        )
        earlier = len(found) > MOST_SHOWN
        shown, more = found[:MOST_SHOWN][::-1], bool(found) and found[0].followed
        skips_unread = earlier and found[MOST_SHOWN].pk > seen_to
    else:
        # Those up to ``after`` are left out: unread among them are the other player's
        # after ``seen_to`` (asked in the same query, the same for every row).
        unread = others.filter(pk__gt=seen_to, pk__lte=after).exclude(author=viewer)
        found = list(
            messages.filter(pk__gt=after)
            .annotate(preceded=Exists(others.filter(pk__lte=after)), skips=Exists(unread))
            .order_by("pk")[: MOST_SHOWN + 1]
        )
        shown, more = found[:MOST_SHOWN], len(found) > MOST_SHOWN
        earlier = bool(found) and found[0].preceded
        skips_unread = bool(found) and found[0].skips
    return Conversation(
        shown, opponent, not reason, reason, more, earlier, past=True, skips_unread=skips_unread
    )


def _latest_or_unread(
    messages: QuerySet[Message], *, latest: int, read_to: int
) -> tuple[list[Message], bool, bool]:
    """The newest ``latest`` of ``messages``, or all after ``read_to`` when they go back
    further, at most MOST_SHOWN, the oldest first; whether earlier ones were left out, and
    whether newer ones were. One query."""
    newest_first = messages.order_by("-pk").values("pk")
    # Where to start: at the message just before the latest, or at the newest one read,
    # whichever is older; at the first (0) when there is no such message.
    before_latest = Coalesce(Subquery(newest_first[latest : latest + 1]), Value(0))
    newest_read = Coalesce(Subquery(newest_first.filter(pk__lte=read_to)[:1]), Value(0))
    start = Least(before_latest, newest_read, output_field=BigIntegerField())
    # The one before the messages shown comes too, to tell that there are earlier ones;
    # and one more than fit, to tell that there are newer.
    found = list(messages.filter(pk__gte=start).order_by("pk")[: MOST_SHOWN + 2])
    # The first found is the one before those shown when it is read and not one of the
    # latest (more follow it than those). Otherwise the start was 0: all are shown.
    earlier = len(found) > latest and found[0].pk <= read_to
    if earlier:
        found = found[1:]
    return found[:MOST_SHOWN], earlier, len(found) > MOST_SHOWN


def is_open(match: Match, viewer: User) -> bool:
    """Whether ``viewer`` plays in ``match`` and the two may write to each other now."""
    sides = _sides(match, viewer)
    return sides is not None and not sides[1]


def newer_messages(match: Match, viewer: User, *, after: int) -> Conversation | None:
    """The messages of ``match`` after the one numbered ``after`` (the newest a page
    shows, which polls for more), at most SHOWN of them, the oldest first; or None when
    there are none for ``viewer``: one query. A page that has missed more (its ``after``
    long gone by, or none) is brought the rest by its next polls, each asking for those
    after the last it was brought.

    ``match`` must come with ``white`` and ``black`` loaded.
    """
    if not is_open(match, viewer):
        return None
    found = match.messages.filter(pk__gt=after).select_related("author").order_by("pk")
    newer = list(found[:SHOWN])
    return Conversation(newer, _opponent(match, viewer), True, "") if newer else None


def read_to(match: Match, player: User) -> int:
    """The newest message of ``match`` that ``player`` has seen (its id; 0 for none)."""
    return match.white_read_to if match.white_id == player.pk else match.black_read_to


def mark_read(match: Match, player: User, up_to: int) -> None:
    """Record that ``player`` has seen ``match``'s messages up to the one numbered
    ``up_to``: they are no longer new on the dashboard. One UPDATE, only when that is news.

    The marker only moves forward: two pages of one player (a tab and its poll) may
    report out of order.
    """
    if not match.is_player(player) or up_to <= read_to(match, player):
        return
    field = "white_read_to" if match.white_id == player.pk else "black_read_to"
    Match.objects.filter(pk=match.pk, **{f"{field}__lt": up_to}).update(**{field: up_to})
    setattr(match, field, up_to)


def _sides(match: Match, viewer: User, now: datetime | None = None) -> tuple[User, str] | None:
    """Who ``viewer`` writes to in ``match`` and why they may not now ("" if they may);
    None for anyone but its two players."""
    if not viewer.is_authenticated or not match.is_player(viewer):
        return None
    return _opponent(match, viewer), _closed_because(match, viewer, now or timezone.now())


def _opponent(match: Match, player: User) -> User:
    return match.black if match.white_id == player.pk else match.white


def _closed_because(match: Match, player: User, now: datetime) -> str:
    """Why ``player`` may not write in ``match`` now ("" if they may)."""
    opponent = _opponent(match, player)
    # Reasons do not start with a name: pages make them sentences (capfirst).
    if not player.shows_messages:
        return "you have turned messages off in your settings"
    if not opponent.is_active:
        return f"no more messages here: {opponent.username}'s account is closed"
    if not opponent.shows_messages:
        return f"messages are off here: {opponent} has turned them off"
    if opponent.is_bot:
        return f"no messages here: {opponent} is a computer player"
    if match.finished_at is not None and now - match.finished_at > AFTER_THE_END:
        return "this match ended more than a week ago"
    # Last: the only reason that takes a query (games.blocks).
    return blocks.messages_refusal(player, opponent)
