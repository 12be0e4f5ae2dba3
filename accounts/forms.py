from __future__ import annotations

import importlib.resources
import secrets
import zoneinfo
from datetime import date, datetime, time, timedelta
from functools import cache
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any, ClassVar

from django import forms
from django.conf import settings
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.forms import (
    AuthenticationForm,
    PasswordChangeForm,
    SetPasswordForm,
    UserCreationForm,
)
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone

from . import throttle
from .models import (
    EMAIL_IN_USE,
    ApiToken,
    User,
    known_zone,
    scripts_mixed,
    shows_nothing,
    tidy_name,
)
from .services import (
    display_name_in_use,
    email_in_use,
    locked_active_account,
    name_in_use,
    player_named,
    username_holder,
)


class SignupForm(UserCreationForm):
    email = forms.EmailField(
        required=True,
        help_text=(
            "Used to tell you when it is your turn to move, once you have confirmed it: we"
            " email it a link."
        ),
        # The browser offers the player's own address (WCAG 1.3.5).
        widget=forms.EmailInput(attrs={"autocomplete": "email"}),
    )

    # Filled in by the browser (js/timezone.js), so that times are the player's own from
    # the start; the settings page can change it.
    timezone = forms.CharField(
        required=False, widget=forms.HiddenInput(attrs={"data-detect": "zone"})
    )

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "email", "timezone")

    def clean_timezone(self) -> str:
        """The browser's zone if it is one we know, by the name the settings offer (a
        browser may give a legacy alias: Chromium's "Asia/Calcutta" is Asia/Kolkata), else
        UTC (never a reason to refuse)."""
        zone = self.cleaned_data.get("timezone") or ""
        zone = zone_links().get(zone, zone)
        return zone if known_zone(zone) is not None and zone not in NOT_PLACES else "UTC"

    def clean_username(self) -> str:
        # Not Django's check (username__iexact): the database's idea of case may know only
        # ASCII (SQLite's), so "Émile" passed beside "émile". Names are compared by their
        # keys below, computed in Python.
        username = self.cleaned_data["username"]
        if shows_nothing(username):
            raise ValidationError(SHOWS_NOTHING, code="shows_nothing")
        # Not tidied quietly, as a display name is: a username is typed to find a player,
        # and one with a Hangul filler in it would look like the same name without.
        if tidy_name(username) != username:
            raise ValidationError(INVISIBLE_IN_USERNAME, code="invisible_characters")
        # A username stands beside display names as who a player really is: it may not
        # be made of look-alike letters from two alphabets ("alice" with a Cyrillic a).
        if scripts_mixed(username):
            raise ValidationError(ONE_ALPHABET, code="scripts_mixed")
        # Nor look the same as another's username, in any case or in other letters that
        # look the same ("ace" written in Cyrillic letters beside "ace").
        if (taken := self._username_taken_error(username)) is not None:
            raise taken
        # Nor read as another player's display name ("Expert bot").
        if display_name_in_use(username, except_user=self.instance):
            raise ValidationError(NAME_IN_USE, code="name_in_use")
        return username

    def clean_email(self) -> str:
        email = self.cleaned_data["email"]
        if email_in_use(email):
            raise self._email_in_use_error()
        return email

    def validate_password_for_user(self, user: User, **kwargs: Any) -> None:
        """Say why a password is too weak under the password, where it was chosen (Django
        says it under the confirmation), and so take the focus there (accounts.views)."""
        super().validate_password_for_user(user, password_field_name="password1")

    def save_unless_taken(self) -> User | None:
        """Create the account; or, when another sign-up took the address or the username
        after this form checked them, return None with the error on the form."""
        try:
            with transaction.atomic():
                return self.save()
        except IntegrityError:
            if email_in_use(self.cleaned_data["email"]):
                self.add_error("email", self._email_in_use_error())
            elif taken := self._username_taken_error(self.cleaned_data["username"]):
                self.add_error("username", taken)
            else:
                raise
            return None

    def _username_taken_error(self, username: str) -> ValidationError | None:
        """Why ``username`` cannot be had, if another account's username looks the same:
        Django's own words for the same name in another case, else that it looks the same."""
        holder = username_holder(username)
        if holder is None:
            return None
        if holder.username.casefold() == username.casefold():
            return self.instance.unique_error_message(User, ["username"])
        return ValidationError(LOOKS_TAKEN, code="looks_taken")

    @staticmethod
    def _email_in_use_error() -> ValidationError:
        return ValidationError(
            f"{EMAIL_IN_USE} Log in, or reset your password if you have forgotten it.",
            code="email_in_use",
        )


class ThrottledAuthenticationForm(AuthenticationForm):
    """The login form, refusing to check passwords while the username from the client's
    IP, the IP, or the username from everywhere has too many recent failures; or, from a
    browser the account has logged in from before, while that browser has (see
    :mod:`accounts.throttle`)."""

    error_messages: ClassVar[dict[str, str]] = {
        **AuthenticationForm.error_messages,
        # Django's says "both fields may be case-sensitive"; here only the password is.
        "invalid_login": (
            "Please enter a correct %(username)s and password. Note that the password is"
            " case-sensitive."
        ),
        # What will help: a reset lifts the blocks on the username at once (from anywhere,
        # accounts.throttle.lift_blocks_after_reset); waiting helps unless the failures
        # go on.
        "throttled": (
            "Too many failed login attempts. To log in now, reset your password by email"
            " (“Forgotten your password?” below): with the new one you can log in at once."
            " Or try again in 15 minutes."
        ),
    }

    def clean(self) -> dict:
        username = self.cleaned_data.get("username")
        if not username or not self.cleaned_data.get("password"):
            return super().clean()
        # Usernames are unique whatever their case: "Alice" is alice's account, and is
        # checked against her password as "alice" (Django's backend matches exactly). A
        # closed account is no player's: its name is left as typed, and fails as any
        # wrong password does.
        account = player_named(username)
        if account is not None:
            username = self.cleaned_data["username"] = account.get_username()
        ip = throttle.client_ip(self.request)
        device = throttle.known_device(self.request, account) if account is not None else None
        if throttle.is_login_blocked(username=username, ip=ip, device=device):
            raise ValidationError(self.error_messages["throttled"], code="throttled")
        try:
            cleaned_data = super().clean()
        except ValidationError:
            throttle.record_failed_login(username=username, ip=ip, device=device)
            raise
        throttle.clear_failed_logins(username=username, ip=ip, device=device)
        return cleaned_data


class ThrottledAdminAuthenticationForm(ThrottledAuthenticationForm, AdminAuthenticationForm):
    """The admin's login form (staff only, as Django's), counted with the site's login
    failures: else /admin/login/ would take guesses at any password without end."""

    error_messages: ClassVar[dict[str, str]] = {
        **AdminAuthenticationForm.error_messages,
        "throttled": "Too many failed login attempts. Please try again in 15 minutes.",
    }


NAME_IN_USE = "Another player, or a bot, goes by that name. Please choose another."
ONE_ALPHABET = "Write each word of your name in one alphabet."
SHOWS_NOTHING = "That name shows nothing: write it with letters that show."
INVISIBLE_IN_USERNAME = "A username may not hold characters that do not show."
LOOKS_TAKEN = "This username looks the same as an existing player's name. Please choose another."


# The tz database's areas of the world: its zones are named "Area/Location" in these, and
# its other names are not places to choose ("localtime" and "posixrules" are files beside
# the zones, "Factory" a zone for machines not yet set up) or are legacy aliases kept for
# old systems ("US/Eastern", "GB", "EST5EDT", "Etc/GMT+5", whose sign is backwards).
ZONE_AREAS = frozenset(
    {
        "Africa",
        "America",
        "Antarctica",
        "Arctic",
        "Asia",
        "Atlantic",
        "Australia",
        "Europe",
        "Indian",
        "Pacific",
    }
)
NOT_PLACES = frozenset({"localtime", "posixrules", "Factory"})
#: The tz database's tables of its zones for places, one line a zone, its name in the
#: third column: zone1970.tab by region, zone.tab one or more for each country (Europe/Oslo,
#: Asia/Kuwait, which share another zone's rules). Neither lists a legacy alias within the
#: areas ("Asia/Calcutta", "Europe/Kiev", "America/Buenos_Aires", "Australia/ACT"), which
#: zoneinfo offers beside the places and has no way to tell apart (it has no link data).
ZONE_TABLES = ("zone1970.tab", "zone.tab")


def _zone_tables() -> Traversable | None:
    """Where the zone tables are: beside the zones zoneinfo reads (the system's
    /usr/share/zoneinfo, from Debian's tzdata package, which Debian requires), else in
    the tzdata package from PyPI if it is installed; None if neither has them."""
    for root in zoneinfo.TZPATH:
        if (Path(root) / ZONE_TABLES[0]).is_file():
            return Path(root)
    try:
        tables = importlib.resources.files("tzdata").joinpath("zoneinfo")
    except ModuleNotFoundError:
        return None
    return tables if tables.joinpath(ZONE_TABLES[0]).is_file() else None


@cache
def place_zones() -> frozenset[str] | None:
    """The names of the tz database's zones for places ("Europe/Athens", "Asia/Kolkata"),
    as its zone tables list them; None where there are no tables to read."""
    tables = _zone_tables()
    if tables is None:
        return None
    names: set[str] = set()
    for table in ZONE_TABLES:
        for line in tables.joinpath(table).read_text(encoding="utf-8").splitlines():
            if line and not line.startswith("#"):
                names.add(line.split("\t")[2])
    return frozenset(names)


@cache
def zone_links() -> dict[str, str]:
    """The tz database's legacy names for places, each with the place's zone it stands for
    ("Asia/Calcutta": "Asia/Kolkata", "US/Eastern": "America/New_York"), read from its
    compiled source beside the tables (tzdata.zi: a line "L <zone> <alias>" a link); only
    those whose zone the settings offer. Empty where there is no source to read."""
    tables, places = _zone_tables(), place_zones()
    if tables is None or places is None or not tables.joinpath("tzdata.zi").is_file():
        return {}
    links = {}
    for line in tables.joinpath("tzdata.zi").read_text(encoding="utf-8").splitlines():
        kind, *names = line.split()
        if kind == "L" and len(names) == 2 and names[0] in places:
            links[names[1]] = names[0]
    return links


@cache
def timezone_choices() -> list[tuple[str, str]]:
    """The zones offered in the settings: UTC, and each place's zone by its name."""
    places = place_zones()
    names = {
        name
        for name in zoneinfo.available_timezones()
        # Without the tables (a system whose zones came without them), every name in the
        # areas: the aliases among them are still better than no choice at all.
        if name.split("/")[0] in ZONE_AREAS and (places is None or name in places)
    }
    return [(name, name.replace("_", " ")) for name in ["UTC", *sorted(names)]]


#: The game emails each choice but "none" sends, besides the turn emails or the digest
#: (games.notifications: a digest replaces turn emails only).
OTHER_GAME_EMAILS = (
    "deadline reminders, challenges to you and the answers to yours, an opponent's time"
    " away, match results and tournament news"
)


def email_preference_choices() -> list[tuple[str, str]]:
    """The game email choices as the settings page offers them, each saying what it sends
    (the model's short labels are for the admin)."""
    preference = User.EmailPreference
    return [
        (preference.EVERY_TURN, "An email each time it is my turn, and all other game emails"),
        (
            preference.DIGEST,
            "Instead of turn emails, one email each morning (about"
            f" {settings.DIGEST_HOUR}:00 my time) listing the matches waiting for my move, if"
            " any; all other game emails still come one by one",
        ),
        (preference.NONE, "No game emails at all, not even challenges"),
    ]


class ProfileForm(forms.ModelForm):
    timezone = forms.ChoiceField(
        choices=timezone_choices,
        initial="UTC",
        help_text=(
            "Dates and times on the site and in your emails are given in this timezone."
            " Your public profile shows it, with your local time."
        ),
    )

    class Meta:
        model = User
        fields = (
            "display_name",
            "about",
            "country",
            "timezone",
            "email_preference",
            "shows_messages",
        )
        widgets: ClassVar[dict] = {
            "about": forms.Textarea(attrs={"rows": 4}),
            "email_preference": forms.RadioSelect,
        }
        labels: ClassVar[dict[str, str]] = {"email_preference": "Game emails"}

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        from games.notifications import turn_email_wait

        # A zone saved before the list left it out (a legacy alias such as "US/Eastern",
        # which a browser may have sent at sign-up) stays the player's to keep.
        saved = self.instance.timezone
        field = self.fields["timezone"]
        if saved not in dict(field.choices) and known_zone(saved) is not None:
            field.choices = [*field.choices, (saved, saved.replace("_", " "))]
        emails = self.fields["email_preference"]
        emails.choices = email_preference_choices()
        # Account emails are not game emails: none of these choices stops them.
        emails.help_text = (
            f"Game emails besides turn emails: {OTHER_GAME_EMAILS}. Emails about your account"
            " (password resets, changes of address, security notices) come whatever you choose."
        )
        wait = turn_email_wait()
        if wait:
            emails.help_text += (
                f" A turn email waits {wait}, and is not sent if you have played by then."
            )

    def clean_display_name(self) -> str:
        # Saved as a page shows it (no invisible characters, one space at a time), and
        # checked only when changed: a name that collided before the check existed must
        # not keep its owner from changing their other settings.
        display_name = tidy_name(self.cleaned_data["display_name"])
        # Empty is fine (the player goes by their username); a name that shows nothing is
        # not (a Hangul filler alone left the player's name blank on every page).
        if self.cleaned_data["display_name"] and shows_nothing(display_name):
            raise ValidationError(
                f"{SHOWS_NOTHING} Or leave it empty to go by your username.", code="shows_nothing"
            )
        # Checked here, not left to the model's own check after this one: that counts the
        # tidied name, so a name typed within the limit whose characters fold into several
        # ("\ufdfa", one character, is 18 written out) was refused as longer than typed.
        limit = User._meta.get_field("display_name").max_length
        if len(display_name) > limit:
            raise ValidationError(
                f"Use at most {limit} characters. Written out as pages show it, this name has"
                f" {len(display_name)}: some characters stand for several (\u00bd is written"
                " 1\u20442).",
                code="max_length",
            )
        changed = display_name != tidy_name(self.instance.display_name)
        if changed and scripts_mixed(display_name):
            raise ValidationError(ONE_ALPHABET, code="scripts_mixed")
        if changed and name_in_use(display_name, except_user=self.instance):
            raise ValidationError(NAME_IN_USE, code="name_in_use")
        return display_name


def current_password_field() -> forms.CharField:
    """A field for the player's current password, asked before a change a session left
    open must not be enough for (see :func:`check_current_password`)."""
    return forms.CharField(
        label="Your password",
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )


def check_current_password(user: User, password: str, *, ip: str) -> None:
    """Raise a ValidationError unless ``password`` is ``user``'s. A wrong one is counted
    with the login form's failures from ``ip``, and while those are at their limit even
    the right one is refused: a session left open must not become a way round the
    login's limit on guessing the password."""
    username = user.get_username()
    if throttle.is_login_blocked(username=username, ip=ip):
        raise ValidationError(
            "Too many wrong passwords: try again in a quarter of an hour.", code="throttled"
        )
    if not user.check_password(password):
        throttle.record_failed_login(username=username, ip=ip)
        raise ValidationError("That is not your password.", code="wrong_password")


class AsksForPassword:
    """A form whose ``password`` field (:func:`current_password_field`) must be the
    player's ``self.user``'s, checked as :func:`check_current_password` checks it from
    ``self.ip``."""

    user: User
    ip: str
    cleaned_data: dict[str, Any]

    def clean_password(self) -> str:
        password = self.cleaned_data["password"]
        check_current_password(self.user, password, ip=self.ip)
        return password


class SavesThePasswordAlone:
    """A form setting an existing account's password (Django's SetPasswordForm and its
    subclasses) that writes the password alone, on the locked row of an account still
    active. Django's saves the user row the request read at its start, every column of
    it: a closure, an address confirmed or another new password that came in between
    was written over, the closed account opened again with its erased address back.
    Raises :class:`accounts.services.AccountClosed` if the account was closed meanwhile."""

    user: User
    cleaned_data: dict[str, Any]

    def set_password_and_save(
        self, user: User, password_field_name: str = "new_password1", commit: bool = True
    ) -> User:
        with transaction.atomic():
            account = locked_active_account(user.pk)
            account.set_password(self.cleaned_data[password_field_name])
            account.save(update_fields=["password"])
        # The request's copy too: the session's hash is taken from it (the password change
        # keeps its player logged in).
        user.password = account.password
        return user


class SetPasswordAloneForm(SavesThePasswordAlone, SetPasswordForm):
    """Django's new password from a reset link, written as :class:`SavesThePasswordAlone`
    writes it."""


class ThrottledPasswordChangeForm(SavesThePasswordAlone, PasswordChangeForm):
    """Django's password change, its old password checked as closing an account checks
    the password (:func:`check_current_password`): wrong ones count with the login
    failures."""

    def __init__(self, user: User, *args: Any, ip: str, **kwargs: Any) -> None:
        super().__init__(user, *args, **kwargs)
        self.ip = ip
        if self.is_bound:
            # Django's form always gives the focus to the old password; sent back with an
            # error, it goes to the first field with one (accounts.views._focus) instead.
            self.fields["old_password"].widget.attrs.pop("autofocus", None)

    def clean_old_password(self) -> str:
        old_password = self.cleaned_data["old_password"]
        check_current_password(self.user, old_password, ip=self.ip)
        return old_password


class EmailChangeForm(AsksForPassword, forms.Form):
    """A new address for the account, with the current password: else a session left open
    would be enough to move the account to another address, reset its password from there
    and close it."""

    email = forms.EmailField(
        label="New email address",
        widget=forms.EmailInput(attrs={"autocomplete": "email"}),
        help_text="We will send a link to this address; the change happens when you follow it.",
        # The column's length, not a form EmailField's default (320): a longer address
        # was sent its link, and following it failed to save (a server error on PostgreSQL).
        max_length=User._meta.get_field("email").max_length,
    )
    password = current_password_field()

    def __init__(self, *args: Any, user: User, ip: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.user, self.ip = user, ip

    def clean_email(self) -> str:
        email = self.cleaned_data["email"]
        if email.casefold() == self.user.email.casefold():
            raise ValidationError("That is already your email address.", code="unchanged")
        # An address another account has is not refused here: that would tell any player
        # which addresses have accounts. It is answered as any other, and its owner told
        # (accounts.services.request_email_change).
        return email


class ApiTokenForm(AsksForPassword, forms.ModelForm):
    """A new API key, with the current password: a key lasts until it is revoked, so a
    session left open must not be enough to make one (as for a new email address)."""

    # A fresh value each time the form is drawn, spent when a key is created with it: the
    # same form sent again (a reload of the page that shows the new key) creates nothing.
    once = forms.CharField(widget=forms.HiddenInput, required=False)
    password = current_password_field()

    class Meta:
        model = ApiToken
        fields = ("name",)
        labels: ClassVar[dict[str, str]] = {"name": "Name of the new key"}

    def __init__(self, *args: Any, user: User, ip: str, **kwargs: Any) -> None:
        # Its own ids: the settings page also holds the email form's password field.
        kwargs.setdefault("auto_id", "id_key_%s")
        super().__init__(*args, **kwargs)
        self.user, self.ip = user, ip
        if not self.is_bound:
            self.initial["once"] = secrets.token_urlsafe(16)


class AwayForm(forms.Form):
    """The day a player taking time away (games.away) will be back."""

    back_on = forms.DateField(
        label="Back on",
        widget=forms.DateInput(attrs={"type": "date"}),
        help_text="Your clocks stand still until that day begins, in your timezone.",
    )

    def __init__(self, *args, user: User, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.user = user
        self.zone = user.zone or zoneinfo.ZoneInfo("UTC")
        tomorrow = timezone.localdate(timezone=self.zone) + timedelta(days=1)
        self.fields["back_on"].widget.attrs["min"] = tomorrow.isoformat()
        self.initial.setdefault("back_on", tomorrow + timedelta(days=6))

    def clean_back_on(self) -> date:
        back_on = self.cleaned_data["back_on"]
        if back_on <= timezone.localdate(timezone=self.zone):
            raise ValidationError("Choose a day after today.", code="not_future")
        return back_on

    def until(self) -> datetime:
        """The moment the player is back: the start of the chosen day in their zone."""
        return datetime.combine(self.cleaned_data["back_on"], time(), tzinfo=self.zone)


class CloseAccountForm(AsksForPassword, forms.Form):
    """Closing an account asks for the password: it cannot be undone, and a session left
    open on a shared computer should not be enough to do it."""

    password = current_password_field()

    def __init__(self, *args: Any, user: User, ip: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.user, self.ip = user, ip
        # The page is about this one field: the focus starts there, and goes back to it
        # with the reason when the password was wrong.
        self.fields["password"].widget.attrs["autofocus"] = True
