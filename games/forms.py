"""Forms for challenges and turns."""

from __future__ import annotations

from typing import Any

from django import forms
from django.urls import reverse_lazy

from accounts.services import player_named, username_holder

from .board import parse_steps
from .models import DAYS_PER_MOVE, MATCH_LENGTHS, Variant
from .services import TurnAction

#: The largest whole number a form or query parameter may carry (a PostgreSQL integer).
MAX_WHOLE_NUMBER = 2**31 - 1


def whole_number(
    text: str | None, *, maximum: int = MAX_WHOLE_NUMBER, above_as_maximum: bool = False
) -> int | None:
    """``text`` as a whole number from 0 to ``maximum``, or None if it is not one; with
    ``above_as_maximum``, a larger one is read as ``maximum`` (a place in a list, "after
    this id", where every number past the last id means the same: nothing after it).

    Only ASCII digits count: ``str.isdigit()`` alone also accepts "²" or "٣", and digit
    strings longer than ``int()`` reads (4,300), on which ``int()`` raises ValueError.
    """
    if text is None or not (text.isascii() and text.isdigit()):
        return None
    digits = text.lstrip("0") or "0"
    if len(digits) > len(str(maximum)) or int(digits) > maximum:
        return maximum if above_as_maximum else None
    return int(digits)


class ChallengeForm(forms.Form):
    opponent = forms.CharField(
        required=False,
        max_length=150,
        help_text="A username; leave empty for an open challenge in the lobby.",
        # Suggestions as the name is typed (the options of the page's <datalist>).
        widget=forms.TextInput(
            attrs={
                "list": "opponent-names",
                "autocomplete": "off",
                "hx-get": reverse_lazy("player_search"),
                "hx-trigger": "input changed delay:250ms",
                "hx-target": "#opponent-names",
                "hx-swap": "innerHTML",
                "hx-sync": "this:replace",
            }
        ),
    )
    private = forms.BooleanField(
        required=False,
        label="Private invite link",
        help_text=(
            "No opponent and not in the lobby: send the link to a friend. The match, as every"
            " match, is open to watch."
        ),
    )
    variant = forms.ChoiceField(choices=Variant.choices, initial=Variant.AMERICAN)
    points = forms.TypedChoiceField(
        label="Match length",
        coerce=int,
        choices=[(n, f"{n} point{'s' if n > 1 else ''}") for n in MATCH_LENGTHS],
        initial=1,
    )
    days_per_move = forms.TypedChoiceField(
        coerce=int,
        choices=[(n, f"{n} day{'s' if n > 1 else ''}") for n in DAYS_PER_MOVE],
        initial=2,
    )
    rated = forms.BooleanField(
        required=False,
        initial=True,
        help_text="Rated matches change both players' ratings; casual ones don't.",
    )

    def __init__(self, *args: Any, user: Any = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.user = user

    def clean_opponent(self) -> Any:
        name = self.cleaned_data["opponent"].strip()
        if not name:
            return None
        opponent = player_named(name)
        if opponent is None:
            holder = username_holder(name)  # the name as readers compare names
            if holder is not None and not holder.is_active:
                raise forms.ValidationError(f"{name} no longer plays here: the account is closed.")
            raise forms.ValidationError(f"There is no player called {name}.")
        if self.user is not None and opponent.pk == self.user.pk:
            raise forms.ValidationError("You cannot challenge yourself.")
        return opponent

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if data.get("private") and data.get("opponent"):
            # As the API says: it was silently dropped, the challenge sent to the name.
            self.add_error(
                "private",
                "A private invite link is for a friend without a name here: leave the"
                " opponent empty, or untick it to challenge them.",
            )
        return data

    def service_kwargs(self) -> dict[str, Any]:
        data = self.cleaned_data
        return {
            "opponent": data["opponent"],
            "variant": data["variant"],
            "points": data["points"],
            "days_per_move": data["days_per_move"],
            "private": data["private"],
            "rated": data["rated"],
        }


class TurnForm(forms.Form):
    """One submitted segment: clicked steps, notation, or a named double."""

    segment = forms.IntegerField(min_value=0, widget=forms.HiddenInput)
    steps = forms.CharField(required=False, max_length=100, widget=forms.HiddenInput)
    play = forms.CharField(
        required=False,
        max_length=100,
        label="Your play in notation",
        help_text="From your side, e.g. 13/7 8/7, bar/22, in/22, 6/off, 6/4(2).",
        error_messages={
            "max_length": "a play is written in at most %(limit_value)d characters: this one"
            " has %(show_value)d"
        },
    )
    double = forms.IntegerField(required=False, min_value=1, max_value=6)
    name_blot = forms.IntegerField(
        required=False,
        min_value=1,
        max_value=24,
        # In the engine's words: the page shows it beside the field, not after its name.
        error_messages={
            key: "name a blot by your point number, 1 to 24"
            for key in ("invalid", "min_value", "max_value")
        },
        label="Name a blot (optional)",
        help_text="Greek: your point whose single checker your opponent must hit next turn.",
    )

    def clean_steps(self) -> tuple[tuple[int, int], ...] | None:
        text = self.cleaned_data["steps"].strip()
        if not text:
            return None
        try:
            return tuple(parse_steps(text))
        except ValueError as error:
            raise forms.ValidationError(str(error)) from None

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        given = [key for key in ("steps", "play", "double") if data.get(key) not in (None, "")]
        if len(given) > 1 and "steps" in given and "play" in given:
            # The notation box wins when a player typed after clicking.
            data["steps"] = None
        return data

    def action(self) -> TurnAction:
        data = self.cleaned_data
        play = (data.get("play") or "").strip() or None
        steps = data.get("steps")
        if play is None and steps is None and data.get("double") is None:
            play = ""  # an empty submission: the engine says what is missing
        return TurnAction(
            segment=data["segment"],
            play=play,
            steps=steps,
            double=data.get("double"),
            name_blot=data.get("name_blot"),
        )

    def error_text(self) -> str:
        return " ".join(
            f"{'' if field == '__all__' else field + ': '}{message}"
            for field, errors in self.errors.items()
            for message in errors
        )
