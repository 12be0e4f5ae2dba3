"""Matches, their stored segments, and challenges.

A match keeps the state needed to go on (position, phase, dice) in its own row, so a turn
is one locked row read, not a replay; every segment is also stored, so the whole history
can be replayed and exported (``games.engine.record``).
"""

from __future__ import annotations

import math
import secrets
from datetime import timedelta
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.db import models
from django.db.models import Case, Count, Exists, F, OuterRef, Q, Subquery, Value, When
from django.db.models.functions import Coalesce
from django.urls import reverse
from django.utils import timezone
from django.utils.crypto import constant_time_compare

from .dice import new_seed, seed_hash
from .engine import Position

if TYPE_CHECKING:
    from datetime import datetime

    from accounts.models import User


class Variant(models.TextChoices):
    AMERICAN = "american", "American (US Navy)"
    GREEK = "greek", "Greek"


MATCH_LENGTHS = (1, 3, 5, 7, 11, 15, 25)
DAYS_PER_MOVE = (1, 2, 3, 5, 7, 14)
#: Days a challenge waits for someone to accept it: in the lobby, for the player it names,
#: or for the friend given its invite link. After them it has expired, and behaves as a
#: withdrawn one does (challenge_expiry_cutoff); the hourly sweep
#: (games.services.expire_challenges) marks it so and tells its challenger. Abandoned
#: challenges would otherwise pile up in the lobby, and hang in the lists of both players,
#: for ever.
CHALLENGE_DAYS = 30


def challenge_expiry_cutoff(now: datetime | None = None) -> datetime:
    """The one rule for when a challenge expires: an open challenge made at or before the
    moment this answers (CHALLENGE_DAYS before ``now``) has expired, whether or not the
    hourly sweep (games.services.expire_challenges) has yet marked it so and told its
    challenger. Until the sweep comes, it is refused, listed and shown as one it has
    marked (ChallengeQuerySet.waiting, Challenge.current_status)."""
    return (now or timezone.now()) - timedelta(days=CHALLENGE_DAYS)


#: The share of a turn's time after which the player to move is sent a reminder
#: (games.services) and the pages say their time is short (Match.time_is_short).
REMINDER_AT = 0.8


def new_invite_token() -> str:
    return secrets.token_urlsafe(24)


class ChallengeQuerySet(models.QuerySet["Challenge"]):
    def still_open(self) -> ChallengeQuerySet:
        """Challenges whose row is still OPEN, those past their days too: the expiry sweep
        marks those later, and tells their challengers so. Ending a player's or a pair's
        challenges (closing an account, a block) takes these, or that email would invite a
        challenge to a player gone or blocked."""
        return self.filter(status=Challenge.Status.OPEN)

    def waiting(self) -> ChallengeQuerySet:
        """Open challenges that have not expired: those still waiting for an answer."""
        return self.still_open().filter(created_at__gt=challenge_expiry_cutoff())

    def open_in_lobby(self) -> ChallengeQuerySet:
        """Open challenges anyone may accept (not addressed to someone, not private)."""
        return self.waiting().filter(
            opponent=None,
            private=False,
            # A closed account's challenges are withdrawn as it closes (games.closing); this
            # keeps them out of the lobby should that be interrupted.
            challenger__is_active=True,
        )

    def addressed_to(self, user: User) -> ChallengeQuerySet:
        return self.waiting().filter(opponent=user)

    def issued_by(self, user: User) -> ChallengeQuerySet:
        return self.waiting().filter(challenger=user)

    def unanswered_too_long(self, now: datetime) -> ChallengeQuerySet:
        """Open challenges made CHALLENGE_DAYS or more before ``now``: the expiry sweep's."""
        return self.still_open().filter(created_at__lte=challenge_expiry_cutoff(now))

    def apart_from(self, user: User) -> ChallengeQuerySet:
        """Without the challenges of players ``user`` has blocked or is blocked by
        (games.blocks): the lobby does not show either one the other's."""
        if not user.is_authenticated:
            return self
        # One NOT EXISTS for each direction, not one with an OR of the two: each is then an
        # anti join on the (blocker, blocked) index, where PostgreSQL ran the OR as a nested
        # loop over every challenge and every block of the user's (5,000 challenges and 200
        # blocks: a million pairs, 200 ms).
        blocked = Block.objects.filter(blocker=user, blocked=OuterRef("challenger"))
        blocked_by = Block.objects.filter(blocker=OuterRef("challenger"), blocked=user)
        return self.filter(~Exists(blocked), ~Exists(blocked_by))


class Challenge(models.Model):
    """An offer to play a match: to one user, to the lobby, or by a private invite link."""

    class Status(models.TextChoices):
        OPEN = "open"
        ACCEPTED = "accepted"
        DECLINED = "declined"
        CANCELLED = "cancelled"
        # Nobody accepted it within CHALLENGE_DAYS.
        EXPIRED = "expired"

    challenger = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="challenges_sent"
    )
    opponent = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="challenges_received",
        null=True,
        blank=True,
    )
    private = models.BooleanField(default=False, help_text="Only reachable by its invite link")
    invite_token = models.CharField(max_length=64, unique=True, default=new_invite_token)
    variant = models.CharField(max_length=10, choices=Variant.choices, default=Variant.AMERICAN)
    points = models.PositiveSmallIntegerField(
        default=1, choices=[(n, f"{n} point{'s' if n > 1 else ''}") for n in MATCH_LENGTHS]
    )
    days_per_move = models.PositiveSmallIntegerField(
        default=2, choices=[(n, f"{n} day{'s' if n > 1 else ''}") for n in DAYS_PER_MOVE]
    )
    rated = models.BooleanField(default=True, help_text="Rated matches change both ratings")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    match = models.OneToOneField(
        "Match", on_delete=models.SET_NULL, null=True, blank=True, related_name="challenge"
    )
    rematch_of = models.ForeignKey(
        "Match",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="rematch_offers",
        help_text="The finished match this challenge offers to play again",
    )
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(auto_now=True)

    objects = ChallengeQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at"]
        indexes = [
            # The expiry sweep (games.services.expire_challenges), hourly: the few open
            # challenges made before a date, not every challenge ever made before it.
            models.Index(
                fields=["created_at"], name="challenge_open_by_age", condition=Q(status="open")
            ),
            # The lobby (open_in_lobby), a page at a time in either order of id (the site's
            # newest first, the API's oldest first): only the challenges waiting there, a
            # few thousand, of every challenge ever made. Without it PostgreSQL read the
            # whole table, or walked its primary key past every challenge long settled.
            models.Index(
                fields=["id"],
                name="challenge_open_in_lobby",
                condition=Q(status="open", opponent=None, private=False),
            ),
            # The admin's list, newest first (ties by id): read off the index, not sorted.
            models.Index(fields=["-created_at", "-id"]),
        ]

    def __str__(self) -> str:
        return f"{self.challenger} challenges {self.opponent or 'anyone'} ({self.describe()})"

    def get_absolute_url(self) -> str:
        return reverse("challenge", args=[self.pk])

    def is_visible_to(self, user: User, *, invite_token: str = "") -> bool:
        """Whether ``user`` may know of this challenge: its two players; anyone while it
        waits in the lobby; whoever holds its invite link's token (``invite_token``), for a
        private one. Anyone else is answered as if it did not exist (404, not 403),
        whatever its status: whether someone else's challenge exists, and how it ended, is
        theirs to know."""
        if user.pk is not None and user.pk in (self.challenger_id, self.opponent_id):
            return True
        if self.private:
            return constant_time_compare(invite_token, self.invite_token)
        # Once it no longer waits (withdrawn or expired; a lobby challenge taken has an
        # opponent).
        return self.opponent_id is None and self.current_status == self.Status.OPEN

    @property
    def expires_at(self) -> datetime | None:
        """When an open challenge expires unanswered (CHALLENGE_DAYS after it was made);
        None for one settled."""
        if self.status != self.Status.OPEN:
            return None
        return self.created_at + timedelta(days=CHALLENGE_DAYS)

    @property
    def current_status(self) -> str:
        """Its status as of now: ``expired`` for one open past its ``expires_at``, which the
        hourly sweep has yet to mark so (challenge_expiry_cutoff)."""
        if self.status == self.Status.OPEN and self.created_at <= challenge_expiry_cutoff():
            return self.Status.EXPIRED
        return self.status

    def get_current_status_display(self) -> str:
        return self.Status(self.current_status).label

    def players_away(self) -> list[User]:
        """The challenger and opponent who are taking time away (games.away)."""
        return [p for p in (self.challenger, self.opponent) if p is not None and p.is_away()]

    def describe(self) -> str:
        """The options in words, for the pages and emails that offer the challenge:
        "American (US Navy), 3 points, 2 days per move, rated"."""
        return (
            f"{self.get_variant_display()}, {self.get_points_display()}, "
            f"{self.get_days_per_move_display()} per move, {'rated' if self.rated else 'casual'}"
        )

    def invite_path(self) -> str:
        return reverse("invite", args=[self.invite_token])


#: A player's finished matches, latest first: of two that ended at the same moment (a
#: sweep ends many), the later id first.
LATEST_FINISHED = ("-finished_at", "-pk")


class MatchQuerySet(models.QuerySet["Match"]):
    def involving(self, user: User) -> MatchQuerySet:
        return self.filter(Q(white=user) | Q(black=user))

    def active(self) -> MatchQuerySet:
        return self.filter(status=Match.Status.ACTIVE)

    def finished(self) -> MatchQuerySet:
        return self.filter(status=Match.Status.FINISHED)

    def latest_finished(
        self,
        user: User,
        stop: int,
        *,
        start: int = 0,
        older_than: tuple[datetime, int] | None = None,
    ) -> MatchQuerySet:
        """``user``'s finished matches, latest first (of two that ended at the same moment,
        the later id first), from the ``start``-th latest up to the ``stop``-th (counted
        from 0, ``stop`` left out), as this queryset selects them. ``older_than``: only
        those that come after, in that order, the match that ended at that moment with
        that id (the API's pages ``before`` a match).

        Picked from the ``stop`` latest of each colour, which hold the ``stop`` latest of
        all, each read in order from its own index: the query costs the same however
        many matches the player has finished before those (or, with ``older_than``,
        since).
        Filtered on either colour at once, all of them would be read and sorted
        (PostgreSQL: 11 ms for 2,000).
        """

        def latest_as(colour: str) -> MatchQuerySet:
            latest = Match.objects.finished().filter(**{colour: user})
            if older_than is not None:
                ended_at, pk = older_than
                # The first condition alone starts the index's range at the moment; the
                # second leaves out those of that moment from the match on.
                latest = latest.filter(finished_at__lte=ended_at).filter(
                    Q(finished_at__lt=ended_at) | Q(pk__lt=pk)
                )
            latest = latest.order_by(*LATEST_FINISHED).values("pk")[:stop]
            # Wrapped: SQLite allows no LIMIT in a part of a UNION.
            return Match.objects.filter(pk__in=latest).values("pk")

        among = latest_as("white").union(latest_as("black"))
        # The window's ids first, so that only its own matches are read whole.
        window = Match.objects.filter(pk__in=among).order_by(*LATEST_FINISHED).values("pk")
        return self.filter(pk__in=window[start:stop]).order_by(*LATEST_FINISHED)

    def awaiting(self, user: User) -> MatchQuerySet:
        """Active matches where it is ``user``'s turn, most urgent first."""
        return self.active().filter(to_move=user).order_by("deadline")

    def waiting_for_opponent(self, user: User) -> MatchQuerySet:
        return self.active().involving(user).exclude(to_move=user).order_by("deadline")

    def with_unread_messages(self, user: User) -> MatchQuerySet:
        """Each match annotated with ``unread_messages``: how many messages its other
        player has written that ``user`` has not seen yet (0 for a player who has turned
        messages off). In the same query: a subquery, looked at only in a match that has
        messages."""
        if not user.shows_messages:
            return self.annotate(unread_messages=Value(0))
        read_to = Case(When(white=user, then=F("white_read_to")), default=F("black_read_to"))
        newer = (
            Message.objects.filter(match=OuterRef("pk"), pk__gt=OuterRef("read_to"))
            .exclude(author=user)
            .order_by()
            .values("match")
            .annotate(n=Count("pk"))
            .values("n")
        )
        return self.annotate(
            read_to=read_to,
            unread_messages=Case(
                When(message_count=0, then=Value(0)),
                default=Coalesce(Subquery(newer), Value(0)),
            ),
        )

    def overdue(self, now: datetime | None = None) -> MatchQuerySet:
        return self.active().filter(deadline__lt=now or timezone.now())

    def due_for_reminder(self, now: datetime | None = None) -> MatchQuerySet:
        return self.active().filter(remind_at__lte=now or timezone.now())


class Match(models.Model):
    """A match between two players, to ``points`` points, and where it stands now."""

    class Status(models.TextChoices):
        ACTIVE = "active"
        FINISHED = "finished"

    class Ending(models.TextChoices):
        BORNE_OFF = "borne_off", "borne off"
        # Lower case, as "borne off": the labels are read inside sentences ("won by timeout").
        RESIGNATION = "resignation", "resignation"
        TIMEOUT = "timeout", "timeout"

    variant = models.CharField(max_length=10, choices=Variant.choices)
    points = models.PositiveSmallIntegerField(help_text="The match is played to this many points")
    days_per_move = models.PositiveSmallIntegerField(default=2)
    rated = models.BooleanField(default=True)
    white = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="matches_as_white"
    )
    black = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="matches_as_black"
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.ACTIVE)
    score_white = models.PositiveSmallIntegerField(default=0)
    score_black = models.PositiveSmallIntegerField(default=0)
    winner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="matches_won",
        null=True,
        blank=True,
    )
    ending = models.CharField(max_length=12, choices=Ending.choices, blank=True)

    # Where the current game stands: enough to go on without replaying the history.
    game_number = models.PositiveSmallIntegerField(default=1)
    segment_count = models.PositiveIntegerField(
        default=0, help_text="Stored segments; a submission must name this number"
    )
    position = models.JSONField(help_text="RULES.md position format")
    phase = models.CharField(max_length=12, default="play")  # games.engine.game.Phase
    dice = models.JSONField(null=True, blank=True)
    segment_kind = models.CharField(max_length=12, blank=True)
    to_move = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="+",
        null=True,
        blank=True,
        # The index on (to_move, status) below serves every lookup by to_move: one of its
        # own would be one more index for every turn's UPDATE to keep.
        db_index=False,
    )
    deadline = models.DateTimeField(null=True, blank=True)
    server_seed = models.CharField(
        max_length=64, default=new_seed, help_text="Secret until the match ends (games.dice)"
    )
    rolls = models.PositiveIntegerField(default=0, help_text="Dice pairs rolled so far")
    message_count = models.PositiveIntegerField(
        default=0,
        help_text="Messages the players have written (games.chat): a turn email looks for"
        " some to quote only when there are any",
    )
    # The newest message each player has seen (games.chat.mark_read), by id: the dashboard
    # counts the opponent's messages after it as new. An id rather than a count, because
    # a closed account's messages are deleted.
    white_read_to = models.PositiveBigIntegerField(
        default=0, help_text="The newest message white has seen (its id)"
    )
    black_read_to = models.PositiveBigIntegerField(
        default=0, help_text="The newest message black has seen (its id)"
    )
    remind_at = models.DateTimeField(
        null=True, blank=True, help_text="When to send the 80% reminder; cleared once sent"
    )

    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(auto_now=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    objects = MatchQuerySet.as_manager()

    class Meta:
        verbose_name_plural = "matches"
        indexes = [
            models.Index(fields=["status", "deadline"]),
            models.Index(fields=["remind_at"]),
            models.Index(fields=["to_move", "status"]),
            # A player's latest finished matches, read in order (latest_finished).
            models.Index(
                fields=["white", "finished_at", "id"],
                condition=Q(status="finished"),
                name="match_white_finished_idx",
            ),
            models.Index(
                fields=["black", "finished_at", "id"],
                condition=Q(status="finished"),
                name="match_black_finished_idx",
            ),
        ]
        constraints = [
            models.CheckConstraint(
                condition=~Q(white=models.F("black")), name="match_players_differ"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.white} v {self.black}, {self.points}-point {self.variant}"

    def get_absolute_url(self) -> str:
        return reverse("match", args=[self.pk])

    def color_of(self, user: User) -> str | None:
        """``"white"``, ``"black"`` or ``None`` for someone not playing."""
        if user.pk == self.white_id:
            return "white"
        if user.pk == self.black_id:
            return "black"
        return None

    def player(self, color: str) -> User:
        return self.white if color == "white" else self.black

    def opponent_of(self, user: User) -> User:
        return self.black if user.pk == self.white_id else self.white

    def forfeit_points(self, loser: str) -> int:
        """The points the game in progress gives the winner should ``loser`` (a colour)
        resign it or run out of time now (R9): what winning it now would score (american:
        one a checker the loser has not borne off; greek: 1)."""
        position = Position.from_dict(self.position)
        return position.variant.game_points(position.off.of(loser))

    def is_player(self, user: User) -> bool:
        return user.is_authenticated and user.pk in (self.white_id, self.black_id)

    @property
    def is_active(self) -> bool:
        return self.status == self.Status.ACTIVE

    def set_reminder(self, *, clock_runs_from: datetime) -> None:
        """Set when the reminder email goes for the turn due by ``self.deadline``, whose
        clock runs from ``clock_runs_from``: once REMINDER_AT of the time per move has
        passed, when the time left becomes short (:attr:`time_is_short`). A clock that
        starts short already, one given back after time away (games.away), reminds as it
        starts: never while the player is away, and always before they lose on time."""
        assert self.deadline is not None
        short = self.deadline - timedelta(days=self.days_per_move) * (1 - REMINDER_AT)
        self.remind_at = max(short, clock_runs_from)

    def deadline_passed(self, now: datetime | None = None) -> bool:
        """Whether the move's deadline has passed (at ``now``): the player to move has lost
        the match on time (R9), whether or not the sweep has come to end it yet."""
        return (
            self.is_active and self.deadline is not None and self.deadline < (now or timezone.now())
        )

    @property
    def time_is_up(self) -> bool:
        """The deadline passed, the sweep (every minute) not yet come to end the match on
        time: the pages say so, not "0 minutes left"."""
        return self.deadline_passed()

    @property
    def time_is_short(self) -> bool:
        """Whether the player to move has less than a fifth of a turn's time left: from when
        their reminder email goes (REMINDER_AT), so that the pages say it when the email
        does. A share of the time per move rather than a fixed number of hours: a day would
        mark every turn of a 1-day match from its start, and come late in a 14-day one."""
        if not self.is_active or self.deadline is None:
            return False
        left = self.deadline - timezone.now()
        return left < timedelta(days=self.days_per_move) * (1 - REMINDER_AT)

    @property
    def score(self) -> dict[str, int]:
        return {"white": self.score_white, "black": self.score_black}

    @property
    def result_score(self) -> str:
        """A finished match's score, the winner's points first ("15-0", with an en dash);
        a match in play's, white's first."""
        if self.winner_id is not None and self.winner_id == self.black_id:
            return f"{self.score_black}\u2013{self.score_white}"
        return f"{self.score_white}\u2013{self.score_black}"

    @property
    def result_words(self) -> str:
        """How a finished match was won, said after "<winner> won": "15\u20139 (borne off)",
        or "by resignation (final score 4\u20137)". A match resigned or run out of time on
        ends wherever its score stood, the game in progress's points given to the winner
        (R9), and that score said first read as the result ("won 4\u20137", "won
        15\u201315", as a draw), so the ending comes first."""
        if self.ending == self.Ending.BORNE_OFF:
            return f"{self.result_score} ({self.get_ending_display()})"
        return f"by {self.get_ending_display()} (final score {self.result_score})"

    @property
    def loser_color(self) -> str | None:
        """The colour of the player who lost a decided match, however it ended (borne off,
        resigned, run out of time); None while nobody has won."""
        if self.winner_id is None:
            return None
        return "black" if self.winner_id == self.white_id else "white"

    @property
    def seed_hash(self) -> str:
        return seed_hash(self.server_seed)

    @property
    def revealed_seed(self) -> str | None:
        """The server seed once the match is over (anyone may then check its rolls); None
        while it is played, as it would tell the rolls to come."""
        return None if self.is_active else self.server_seed


class Segment(models.Model):
    """One stored step of a match: an opening roll, a played segment or a named double."""

    class Kind(models.TextChoices):
        OPENING = "opening", "opening roll"
        ROLL = "roll"
        ACEY_DEUCEY = "acey_deucey", "acey-deucey"
        DOUBLE = "double", "named double"
        NAMED_DOUBLE = "named_double", "named double played"

    # No index of its own: the unique (match, number) index serves every lookup by match
    # (migration 0031).
    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, related_name="segments", db_index=False
    )
    number = models.PositiveIntegerField(help_text="1, 2, ... within the match")
    game_number = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=12, choices=Kind.choices)
    player = models.CharField(max_length=5, blank=True)  # "white" / "black"; blank: opening
    dice = models.JSONField(help_text="[a, b]; opening: [white die, black die]; double: [d, d]")
    play = models.CharField(max_length=120, blank=True, help_text="Canonical notation")
    named_blot = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Greek (R8): the mover's own point named at turn end"
    )
    position = models.JSONField(help_text="The position after this segment")
    automatic = models.BooleanField(default=False, help_text="Forced, played by the server")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["match", "number"]
        constraints = [
            # One segment per number: a duplicate or racing submission cannot be stored twice.
            models.UniqueConstraint(fields=["match", "number"], name="segment_number_unique"),
        ]
        # The match page's history: one game's segments in order, and each game's first
        # and last segment, without reading the other games' rows.
        indexes = [models.Index(fields=["match", "game_number", "number"])]

    def __str__(self) -> str:
        return f"#{self.number} {self.kind} {self.dice} {self.play}"


#: The fields of DiceTally that count each face, 1 to 6.
FACE_FIELDS = ("ones", "twos", "threes", "fours", "fives", "sixes")


class DiceTally(models.Model):
    """What one player has rolled in all their matches, counted as the rolls are stored
    (games.tally): their dice page reads this row, not every segment they have played.
    Their own segments' rolls only: not the opening rolls (one die each), nor named
    doubles (chosen, not rolled)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="dice_tally",
    )
    rolls = models.PositiveIntegerField(default=0)
    # Each die counted: a double of 3s counts two threes.
    ones = models.PositiveIntegerField(default=0)
    twos = models.PositiveIntegerField(default=0)
    threes = models.PositiveIntegerField(default=0)
    fours = models.PositiveIntegerField(default=0)
    fives = models.PositiveIntegerField(default=0)
    sixes = models.PositiveIntegerField(default=0)
    doubles = models.PositiveIntegerField(default=0)
    acey_deuceys = models.PositiveIntegerField(default=0, help_text="Rolls of 1-2")

    class Meta:
        verbose_name_plural = "dice tallies"

    def __str__(self) -> str:
        return f"{self.user_id}: {self.rolls} rolls"

    @property
    def faces(self) -> list[tuple[int, int]]:
        """(face, how many dice came up with it), for faces 1 to 6."""
        return [(face, getattr(self, field)) for face, field in enumerate(FACE_FIELDS, 1)]


class Message(models.Model):
    """A note from one player of a match to the other, shown beside the board to the two
    of them only (games.chat)."""

    # No index of its own: message_match_id_idx begins with it.
    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, related_name="messages", db_index=False
    )
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="match_messages"
    )
    text = models.TextField()
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["match", "pk"]
        indexes = [
            # The match page reads one match's messages in order, the latest or a page
            # before or after one (games.chat): off this index, a few rows, where
            # PostgreSQL walked the primary key back through every later message of
            # every match, or read all of the match's and sorted them.
            models.Index(fields=["match", "id"], name="message_match_id_idx"),
            # The rate limit counts one author's recent ones in a match.
            models.Index(fields=["match", "author", "created_at"]),
        ]

    def __str__(self) -> str:
        return f"{self.author} in match #{self.match_id}: {self.text[:40]}"


class GameResult(models.Model):
    """How one game of a match ended."""

    # No index of its own: (match, game_number)'s unique one begins with it (migration 0032,
    # as for the other foreign keys below that say db_index=False).
    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, related_name="game_results", db_index=False
    )
    game_number = models.PositiveSmallIntegerField()
    winner = models.CharField(max_length=5)  # "white" / "black"
    points = models.PositiveSmallIntegerField()
    ending = models.CharField(max_length=12, choices=Match.Ending.choices)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["match", "game_number"]
        constraints = [
            models.UniqueConstraint(fields=["match", "game_number"], name="game_result_unique"),
        ]

    def __str__(self) -> str:
        return f"game {self.game_number}: {self.winner} wins {self.points} ({self.ending})"


class Notification(models.Model):
    """An email to send, stored in the same transaction as the event that caused it.

    The outbox makes sending safe to retry: a task claims the row atomically before
    sending and marks it sent afterwards, and ``key`` keeps one event from queueing the
    same email twice. ``claimed_until`` holds the row from every sender until then: a
    sender's claim, a failed send's retry delay, or a turn or challenge email's wait
    (settings.TURN_EMAIL_DELAY_SECONDS, settings.CHALLENGE_EMAIL_DELAY_SECONDS).
    """

    class Kind(models.TextChoices):
        TURN = "turn", "your turn"
        REMINDER = "reminder", "deadline reminder"
        # Received, declined or expired: a kind for each would need the rows migrated.
        CHALLENGE = "challenge", "challenge news"
        ACCEPTED = "accepted", "challenge accepted"
        FINISHED = "finished", "match finished"
        DIGEST = "digest", "daily digest"
        TOURNAMENT = "tournament", "tournament news"
        AWAY = "away", "opponent away"
        # Not a game email: an account's (accounts.services.send_email_confirmation).
        CONFIRM_ADDRESS = "confirm", "address confirmation"

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications"
    )
    kind = models.CharField(max_length=10, choices=Kind.choices)
    key = models.CharField(max_length=120, unique=True, help_text="One email per event")
    subject = models.CharField(max_length=200)
    body = models.TextField()
    match = models.ForeignKey(Match, on_delete=models.CASCADE, null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    claimed_until = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    sent_at = models.DateTimeField(null=True, blank=True)
    cancelled_at = models.DateTimeField(
        null=True, blank=True, help_text="Not sent: when its time came, the turn was played"
    )
    last_error = models.TextField(blank=True)
    facts = models.JSONField(
        null=True,
        blank=True,
        help_text="A turn email's: what its turn knew that the sender cannot read later"
        " (the dice, the deadline, the score); the sender writes the email from them",
    )

    class Meta:
        ordering = ["-created_at"]
        indexes = [
            # The emails still to send, read by the sweeps (games.notifications): a small
            # part of the outbox, which keeps those sent and dropped for EMAILS_KEPT.
            models.Index(
                fields=["id"],
                condition=Q(sent_at=None, cancelled_at=None),
                name="notification_unsent_idx",
            ),
            # The admin's list, newest first (ties by id): read off the index, not sorted.
            models.Index(fields=["-created_at", "-id"]),
        ]

    def __str__(self) -> str:
        return f"{self.kind} to {self.user}: {self.subject}"


class Absence(models.Model):
    """A spell of time away (games.away): while it lasts, the player's clocks stand still.

    ``User.away_until`` says whether a player is away now (read with the match, for no
    query); these rows are the record, from which the yearly allowance is counted.
    """

    # The (user, starts_at) index begins with it.
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="absences", db_index=False
    )
    starts_at = models.DateTimeField()
    ends_at = models.DateTimeField(help_text="Moved forward to the return if they come back early")

    class Meta:
        ordering = ["-starts_at"]
        indexes = [models.Index(fields=["user", "starts_at"])]
        constraints = [
            models.CheckConstraint(
                condition=Q(ends_at__gte=models.F("starts_at")), name="absence_ends_after_start"
            )
        ]

    def __str__(self) -> str:
        return f"{self.user} away {self.starts_at:%Y-%m-%d} to {self.ends_at:%Y-%m-%d}"


class Block(models.Model):
    """``blocker`` wants nothing more to do with ``blocked`` (games.blocks): in both
    directions, no challenges, no rematches, no messages. Matches in play go on."""

    # The unique (blocker, blocked) begins with it.
    blocker = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="blocks_made",
        db_index=False,
    )
    blocked = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="blocks_received"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created_at", "-pk"]
        constraints = [
            # Its index serves games.blocks.blocked_between: each side of its OR is a
            # lookup of one (blocker, blocked) pair.
            models.UniqueConstraint(fields=["blocker", "blocked"], name="block_pair_unique"),
            models.CheckConstraint(
                condition=~Q(blocker=models.F("blocked")), name="block_not_self"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.blocker} blocks {self.blocked}"


class PlayerRating(models.Model):
    """A player's Glicko-2 rating in one variant (games.ratings), as of ``rated_at``."""

    # The unique (user, variant) begins with it.
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings", db_index=False
    )
    variant = models.CharField(max_length=10, choices=Variant.choices)
    rating = models.FloatField(default=1500.0)
    rd = models.FloatField(default=350.0, help_text="Rating deviation when last rated")
    volatility = models.FloatField(default=0.06)
    rated_at = models.DateTimeField(null=True, blank=True)
    established_until = models.DateTimeField(
        null=True,
        blank=True,
        help_text="When idleness makes the rating provisional again (null: it is already);"
        " kept by save() from the fields above, for the leaderboard",
    )
    matches = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    losses = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "variant"], name="one_rating_per_variant"),
        ]
        indexes = [models.Index(fields=["variant", "-rating"])]

    def __str__(self) -> str:
        return f"{self.user} {self.variant} {self.rating:.0f} (RD {self.rd:.0f})"

    def save(self, *args: Any, **kwargs: Any) -> None:
        from .ratings import Rating
        from .ratings.store import established_until

        current = Rating(self.rating, self.rd, self.volatility)
        self.established_until = established_until(current, self.rated_at)
        update_fields = kwargs.get("update_fields")
        if update_fields is not None:
            kwargs["update_fields"] = {*update_fields, "established_until"}
        super().save(*args, **kwargs)


class RatingChange(models.Model):
    """How one rated match moved one player's rating (for history charts and results)."""

    # The unique (match, user) begins with the one, the (user, variant, created_at) index
    # with the other.
    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, related_name="rating_changes", db_index=False
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="rating_changes",
        db_index=False,
    )
    variant = models.CharField(max_length=10, choices=Variant.choices)
    rating_before = models.FloatField()
    rating_after = models.FloatField()
    rd_before = models.FloatField()
    rd_after = models.FloatField()
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["created_at"]
        constraints = [
            models.UniqueConstraint(fields=["match", "user"], name="one_change_per_match_player"),
        ]
        indexes = [models.Index(fields=["user", "variant", "created_at"])]

    def __str__(self) -> str:
        return f"{self.user}: {self.rating_before:.0f} -> {self.rating_after:.0f}"

    @property
    def delta(self) -> float:
        return self.rating_after - self.rating_before

    @property
    def shown(self) -> tuple[str, str, int]:
        """The ratings before and after as pages and emails show them (whole numbers,
        halves up, each marked "?" if provisional, as the leaderboard and the profile mark
        it), and the change between those two: rounded on its own, the change would not
        always add up (1422.4 -> 1264.6 read "1422 -> 1265 (-158)")."""
        before, after = _whole(self.rating_before), _whole(self.rating_after)
        return (
            f"{before}{_mark(self.rd_before)}",
            f"{after}{_mark(self.rd_after)}",
            after - before,
        )

    @property
    def shows_provisional(self) -> bool:
        """Whether either rating :attr:`shown` is marked provisional: then the "?" wants a
        word on what it means."""
        return bool(_mark(self.rd_before) or _mark(self.rd_after))


def _whole(value: float) -> int:
    return math.floor(value + 0.5)


def _mark(rd: float) -> str:
    """The mark after a rating whose deviation is ``rd``: "?" if it is provisional."""
    from .ratings import Rating, is_provisional

    return "?" if is_provisional(Rating(rd=rd)) else ""


class BotPlayer(models.Model):
    """A site user played by a computer (games.bots): challengeable like anyone else."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="bot"
    )
    level = models.CharField(max_length=20, help_text="A key of games.bots.BOTS")

    def __str__(self) -> str:
        return f"{self.user} ({self.level})"

    @property
    def description(self) -> str:
        from .bots import BOTS

        return BOTS[self.level].description


class SentOnce(models.Model):
    """A request sent with a one-time key (games.idempotency): the API's ``Idempotency-Key``
    header, or the hidden key of a form that starts something. The same key sent again by
    the same player gets ``status`` and ``answer`` back instead of doing the work again."""

    # The unique (user, key) begins with it.
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", db_index=False
    )
    key = models.CharField(max_length=255)
    # SHA-256 of what was sent (method, path, body): the same key with another request
    # is a client's mistake, refused rather than answered with the first one's answer.
    request_digest = models.CharField(max_length=64)
    # Both set before the row commits: nobody else ever reads a row without them.
    status = models.PositiveSmallIntegerField(null=True)
    answer = models.TextField(blank=True, help_text="The API's JSON body, or a form's redirect")
    created_at = models.DateTimeField(default=timezone.now, db_index=True)

    class Meta:
        constraints = [
            # The lock two requests with one key meet at: the second waits for the first
            # to commit, then reads its answer.
            models.UniqueConstraint(fields=["user", "key"], name="sent_once_user_key_unique")
        ]

    def __str__(self) -> str:
        return f"{self.user}: {self.key}"
