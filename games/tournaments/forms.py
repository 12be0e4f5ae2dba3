"""The form to create a tournament."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from django import forms
from django.utils import timezone

from accounts.forms import SHOWS_NOTHING
from accounts.models import shows_nothing, tidy_name
from games.models import DAYS_PER_MOVE, MATCH_LENGTHS, Variant

from .brackets import MAX_SWISS_ROUNDS
from .models import MAX_PLAYERS, Tournament

#: How far ahead a tournament's sign-up may close.
LONGEST_SIGNUP = timedelta(days=365)


def default_deadline() -> str:
    """Noon a week from today in the organiser's timezone (the current one, which is also
    the one the typed value is read in), as a datetime-local input wants it. Noon: clocks
    never change then, so the time is never ambiguous nor missing."""
    day = timezone.localtime(timezone.now() + timedelta(days=7))
    return day.strftime("%Y-%m-%dT12:00")


class TournamentForm(forms.Form):
    name = forms.CharField(max_length=100)
    format = forms.ChoiceField(choices=Tournament._meta.get_field("format").choices)
    variant = forms.ChoiceField(choices=Variant.choices, initial=Variant.AMERICAN)
    points = forms.TypedChoiceField(
        label="Match length",
        coerce=int,
        choices=[(n, f"{n} point{'s' if n > 1 else ''}") for n in MATCH_LENGTHS],
        initial=3,
    )
    days_per_move = forms.TypedChoiceField(
        coerce=int,
        choices=[(n, f"{n} day{'s' if n > 1 else ''}") for n in DAYS_PER_MOVE],
        initial=3,
    )
    rated = forms.BooleanField(
        required=False, initial=True, help_text="Rated matches change the players' ratings."
    )
    min_players = forms.IntegerField(
        label="Minimum players", min_value=2, max_value=MAX_PLAYERS, initial=4
    )
    max_players = forms.IntegerField(
        label="Maximum players", min_value=2, max_value=MAX_PLAYERS, initial=16
    )
    swiss_rounds = forms.IntegerField(
        label="Swiss rounds",
        required=False,
        min_value=1,
        max_value=MAX_SWISS_ROUNDS,
        help_text=(
            f"Swiss only: at most {MAX_SWISS_ROUNDS}; for everyone to meet everyone, choose a"
            " round robin. At most one fewer than the players who sign up: a larger number is"
            " cut to that at the start. Leave empty for the usual number (log2 of the players,"
            " plus 1). Nobody meets the same opponent twice: if the players left cannot be"
            " paired for the next round without a rematch (after withdrawals, say), it ends"
            " early."
        ),
    )
    signup_deadline = forms.DateTimeField(
        label="Sign-up deadline",
        initial=default_deadline,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
    )
    start_mode = forms.ChoiceField(
        label="Start",
        choices=Tournament.StartMode.choices,
        initial=Tournament.StartMode.AUTOMATIC,
        widget=forms.RadioSelect,
        help_text="You can always start it early, once enough players have signed up.",
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # A typed date and time is read in the current timezone: the organiser's own.
        zone = timezone.get_current_timezone_name()
        self.fields["signup_deadline"].help_text = f"In your timezone, {zone} (see Settings)."

    def clean_name(self) -> str:
        # Tidied as a display name is: the name goes into email subjects, where a line
        # break (posted, as no text box types one) made every email naming the tournament
        # fail to send, and onto pages, where invisible characters could make it pass for
        # another tournament.
        name = tidy_name(self.cleaned_data["name"])
        if shows_nothing(name):
            raise forms.ValidationError(SHOWS_NOTHING, code="shows_nothing")
        return name

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        least, most = data.get("min_players"), data.get("max_players")
        if least is not None and most is not None and least > most:
            self.add_error("max_players", "The maximum cannot be below the minimum.")
        deadline = data.get("signup_deadline")
        now = timezone.now()
        if deadline is not None and not storable(deadline):
            self.add_error("signup_deadline", f"Choose a date within {LONGEST_SIGNUP.days} days.")
        elif deadline is not None and deadline <= now:
            self.add_error("signup_deadline", "The deadline must be in the future.")
        elif deadline is not None and deadline > now + LONGEST_SIGNUP:
            # Nobody waits longer for a tournament to start; and a date at the end of the
            # year 9999 could not be shown in a timezone east of the organiser's.
            self.add_error("signup_deadline", f"Choose a date within {LONGEST_SIGNUP.days} days.")
        return data


def storable(moment: datetime) -> bool:
    """Whether ``moment`` can be saved. The database is given it in UTC, and the last
    hours of 31 December 9999 in a zone west of Greenwich are in the year 10000 in UTC,
    beyond what a Python datetime holds: saving them raised OverflowError, a server error.
    """
    try:
        moment.astimezone(UTC)
    except OverflowError:
        return False
    return True
