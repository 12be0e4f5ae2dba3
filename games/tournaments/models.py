"""Tournament models: the Django side of :mod:`games.tournaments.brackets`.

A running tournament keeps its whole draw as ``Tournament.state`` (``brackets.Tournament
.to_dict()``); the rows here record what the draw cannot: who signed up, with what seed,
and which site match plays each slot of the draw. The business is in services.py.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone

from games.models import DAYS_PER_MOVE, MATCH_LENGTHS, Variant
from games.ratings import Rating, is_provisional
from games.ratings.store import display

from .brackets import MAX_SWISS_ROUNDS, Format, Swiss, default_swiss_rounds
from .brackets import Tournament as Draw

if TYPE_CHECKING:
    from datetime import datetime

    from accounts.models import User

#: The largest field a tournament may have (the bracket engine avoids early rematches in
#: double elimination up to 128 players).
MAX_PLAYERS = 128


def new_shuffle_seed() -> int:
    return random.SystemRandom().randrange(2**31)


class TournamentQuerySet(models.QuerySet["Tournament"]):
    def open_for_signup(self, now: datetime | None = None) -> TournamentQuerySet:
        return self.filter(status=Tournament.Status.OPEN, signup_deadline__gt=now or timezone.now())

    def due_to_start(self, now: datetime | None = None) -> TournamentQuerySet:
        """Open tournaments that start by themselves and whose sign-up deadline has passed."""
        return self.filter(
            status=Tournament.Status.OPEN,
            start_mode=Tournament.StartMode.AUTOMATIC,
            signup_deadline__lte=now or timezone.now(),
        )


class Tournament(models.Model):
    """A tournament: its settings, where it stands, and its draw."""

    class Status(models.TextChoices):
        OPEN = "open", "open for sign-up"
        RUNNING = "running"
        FINISHED = "finished"
        CANCELLED = "cancelled"

    class CancelReason(models.TextChoices):
        ORGANISER = "organiser", "its organiser cancelled it"
        TOO_FEW = "too_few", "too few players signed up"
        ORGANISER_LEFT = "organiser_left", "its organiser has closed their account"

    class StartMode(models.TextChoices):
        MANUAL = "manual", "when the organiser starts it"
        AUTOMATIC = "automatic", "automatically at the sign-up deadline"

    name = models.CharField(max_length=100)
    organiser = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="tournaments_organised"
    )
    variant = models.CharField(max_length=10, choices=Variant.choices, default=Variant.AMERICAN)
    points = models.PositiveSmallIntegerField(
        default=3,
        choices=[(n, f"{n} point{'s' if n > 1 else ''}") for n in MATCH_LENGTHS],
        help_text="Each match is played to this many points",
    )
    days_per_move = models.PositiveSmallIntegerField(
        default=3, choices=[(n, f"{n} day{'s' if n > 1 else ''}") for n in DAYS_PER_MOVE]
    )
    rated = models.BooleanField(default=True, help_text="Its matches change ratings")
    format = models.CharField(
        max_length=20,
        choices=[
            (Format.SINGLE_ELIMINATION.value, "Single elimination"),
            (Format.DOUBLE_ELIMINATION.value, "Double elimination"),
            (Format.ROUND_ROBIN.value, "Round robin"),
            (Format.SWISS.value, "Swiss"),
        ],
        default=Format.SINGLE_ELIMINATION.value,
    )
    swiss_rounds = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text="Swiss only; blank for the usual number (log2 of the players, plus one)",
    )
    min_players = models.PositiveSmallIntegerField(default=4)
    max_players = models.PositiveSmallIntegerField(default=16)
    signup_deadline = models.DateTimeField()
    start_mode = models.CharField(
        max_length=10, choices=StartMode.choices, default=StartMode.AUTOMATIC
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    shuffle_seed = models.PositiveIntegerField(
        default=new_shuffle_seed, help_text="Breaks ties in rating when seeding"
    )
    state = models.JSONField(null=True, blank=True, help_text="The draw (brackets.to_dict)")
    champion = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="tournaments_won",
        null=True,
        blank=True,
    )
    created_at = models.DateTimeField(default=timezone.now)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # A reason of a few kinds rather than the email's words, which may name the organiser:
    # a name that closing their account erases must not live on in a tournament's row.
    cancel_reason = models.CharField(
        max_length=20, choices=CancelReason.choices, blank=True, help_text="Why it was cancelled"
    )

    objects = TournamentQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["status", "signup_deadline"])]
        constraints = [
            models.CheckConstraint(
                condition=Q(min_players__gte=2) & Q(max_players__gte=models.F("min_players")),
                name="tournament_player_limits",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("tournament", args=[self.pk])

    def describe(self) -> str:
        return (
            f"{self._format_described()}, {self.get_variant_display()}, "
            f"{self.get_points_display()}, {self.get_days_per_move_display()} per move"
        )

    def _format_described(self) -> str:
        """The format, and for a Swiss how many rounds it has: once started, the draw's (the
        rounds played, if it ended early); before, what the number of players who sign up
        may make it."""
        if self.format != Format.SWISS:
            return self.get_format_display()
        draw = self.draw()
        if isinstance(draw, Swiss):
            fewest = most = draw.total_rounds
        else:
            fewest = self.swiss_rounds_for(self.min_players)
            most = self.swiss_rounds_for(self.max_players)
        if fewest == most:
            return f"Swiss of {most} round{'s' if most > 1 else ''}"
        return f"Swiss of {fewest} to {most} rounds (by the number of players)"

    def cancelled_because(self) -> str:
        """Why it was cancelled, in words for its page and the entrants' emails ("too few
        players signed up"); empty if it was not, or before reasons were kept."""
        if self.cancel_reason == self.CancelReason.ORGANISER:
            return f"{self.organiser} cancelled it"  # the name as it is now
        return self.get_cancel_reason_display() if self.cancel_reason else ""

    def ended_early_reason(self) -> str:
        """Why a Swiss ended before the rounds planned, for its page and its final email;
        empty if it did not, and for the other formats."""
        draw = self.draw()
        if not isinstance(draw, Swiss) or not draw.ended_early:
            return ""
        played = draw.total_rounds
        return (
            f"It ended after round {played} of the {draw.planned_rounds} planned: the players"
            f" left could not be paired for round {played + 1} without two of them meeting"
            " again, and in a Swiss nobody plays the same opponent twice."
        )

    def swiss_rounds_for(self, players: int) -> int:
        """How many rounds this Swiss has with ``players`` playing: the number the organiser
        chose, but at most one fewer than the players (by then everyone has met everyone),
        or by default log2 of the players, plus one. Never more than
        :data:`~games.tournaments.brackets.MAX_SWISS_ROUNDS`: a Swiss opened for more before
        there was a limit starts with that many."""
        if self.swiss_rounds is None:
            return default_swiss_rounds(players)
        return min(self.swiss_rounds, players - 1, MAX_SWISS_ROUNDS)

    def draw(self) -> Draw | None:
        """The bracket engine's tournament, or ``None`` before the start."""
        return Draw.from_dict(self.state) if self.state else None

    def is_organiser(self, user: User) -> bool:
        return user.is_authenticated and user.pk == self.organiser_id

    @property
    def is_open(self) -> bool:
        return self.status == self.Status.OPEN

    @property
    def is_running(self) -> bool:
        return self.status == self.Status.RUNNING

    @property
    def is_finished(self) -> bool:
        return self.status == self.Status.FINISHED

    @property
    def is_cancelled(self) -> bool:
        return self.status == self.Status.CANCELLED

    @property
    def signup_closed(self) -> bool:
        return timezone.now() >= self.signup_deadline

    def has_enough_players(self, players: int) -> bool:
        """Whether ``players`` signed up are enough to start it: at least its minimum."""
        return players >= self.min_players

    def will_be_cancelled(self, players: int) -> bool:
        """Whether the sweep (``services.start_due_tournaments``) will cancel it rather than
        start it: open, starting by itself, its sign-up closed with ``players`` too few."""
        return (
            self.is_open
            and self.start_mode == self.StartMode.AUTOMATIC
            and self.signup_closed
            and not self.has_enough_players(players)
        )


class Entry(models.Model):
    """A player signed up for a tournament; ``seed`` is set at the start (1 is the best)."""

    # No index of its own: the unique (tournament, user) begins with it (migration 0003).
    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="entries", db_index=False
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tournament_entries"
    )
    seed = models.PositiveSmallIntegerField(null=True, blank=True)
    rating = models.FloatField(null=True, blank=True, help_text="Seeding rating at the start")
    rd = models.FloatField(
        null=True, blank=True, help_text="That rating's deviation (RD), grown for time idle"
    )
    withdrawn = models.BooleanField(default=False)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name_plural = "entries"
        ordering = ["tournament", "seed", "created_at"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "user"], name="one_entry_per_player"),
        ]

    def __str__(self) -> str:
        return f"{self.user} in {self.tournament}"

    @property
    def rating_shown(self) -> str:
        """The rating at the start as the leaderboard shows a rating (``1623``, ``1500?``
        for a provisional one); "" before the start. An entry seeded before its RD was kept
        (migration 0005) shows no mark."""
        if self.rating is None:
            return ""
        if self.rd is None:
            return f"{self.rating:.0f}"
        return display(Rating(self.rating, self.rd))

    @property
    def shows_provisional(self) -> bool:
        """Whether :attr:`rating_shown` is marked provisional: the "?" wants a word."""
        return (
            self.rating is not None
            and self.rd is not None
            and is_provisional(Rating(self.rating, self.rd))
        )


class TournamentMatch(models.Model):
    """The site match that plays one slot of a tournament's draw."""

    # No index of its own: the unique (tournament, slot_id) begins with it (migration 0003).
    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="tournament_matches", db_index=False
    )
    slot_id = models.CharField(max_length=12)
    match = models.OneToOneField(
        "games.Match", on_delete=models.CASCADE, related_name="tournament_match"
    )

    class Meta:
        verbose_name_plural = "tournament matches"
        constraints = [
            models.UniqueConstraint(fields=["tournament", "slot_id"], name="one_match_per_slot"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} {self.slot_id}: match #{self.match_id}"
