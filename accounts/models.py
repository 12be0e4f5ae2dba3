from __future__ import annotations

import bisect
import hashlib
import re
import secrets
import unicodedata
import zoneinfo
from datetime import datetime, timedelta
from functools import cache, lru_cache
from typing import Any

from django.contrib.auth.models import AbstractUser
from django.db import models
from django.db.models.functions import Lower
from django.utils import timezone

from aceysite.sql import Table, fetch_one, select_list

EMAIL_IN_USE = "An account with this email address already exists."
USERNAME_TAKEN = "A user with that username already exists."  # Django's own wording


# Unicode's Default_Ignorable_Code_Point (DerivedCoreProperties.txt; the same from Unicode
# 14 to 16), as (first, last) ranges: code points a browser draws as nothing, whether or not
# its font knows them. Most are format characters (category Cf, dropped anyway); the others
# (the combining grapheme joiner, the Hangul fillers, variation selectors...) are why this
# list exists: "heidi" with a grapheme joiner after it looked exactly like "heidi".
DEFAULT_IGNORABLE: tuple[tuple[int, int], ...] = (
    (0x00AD, 0x00AD),  # soft hyphen
    (0x034F, 0x034F),  # combining grapheme joiner
    (0x061C, 0x061C),  # Arabic letter mark
    (0x115F, 0x1160),  # Hangul choseong and jungseong fillers
    (0x17B4, 0x17B5),  # Khmer inherent vowels
    (0x180B, 0x180F),  # Mongolian free variation selectors, vowel separator
    (0x200B, 0x200F),  # zero-width space, joiners, direction marks
    (0x202A, 0x202E),  # direction embeddings and overrides
    (0x2060, 0x206F),  # word joiner, invisible operators, direction isolates...
    (0x3164, 0x3164),  # Hangul filler
    (0xFE00, 0xFE0F),  # variation selectors 1-16
    (0xFEFF, 0xFEFF),  # zero-width no-break space (byte order mark)
    (0xFFA0, 0xFFA0),  # halfwidth Hangul filler
    (0xFFF0, 0xFFF8),  # unassigned, reserved as ignorable
    (0x1BCA0, 0x1BCA3),  # shorthand format controls
    (0x1D173, 0x1D17A),  # musical beam and phrase controls
    (0xE0000, 0xE0FFF),  # tags, variation selectors 17-256, and reserved
)
_IGNORABLE_STARTS = [first for first, _last in DEFAULT_IGNORABLE]

# Characters that are drawn, but blank, as wide as a letter: read as the space they look
# like ("Club" braille-blank "bot" is "Club bot").
BLANK_LOOKING = frozenset(
    {
        "\u2800",  # braille pattern blank
        "\U00016fe4",  # Khitan small script filler
        "\U0001d159",  # musical symbol null notehead
    }
)


def _invisible(c: str) -> bool:
    """Whether ``c`` is drawn as nothing: a format character or a default ignorable one."""
    if unicodedata.category(c) == "Cf":
        return True
    at = bisect.bisect_right(_IGNORABLE_STARTS, ord(c)) - 1
    return at >= 0 and ord(c) <= DEFAULT_IGNORABLE[at][1]


def tidy_name(name: str) -> str:
    """``name`` as a page shows it: compatibility characters folded (a full-width E is
    a plain E), characters drawn as nothing dropped (zero-width spaces, Hangul fillers,
    variation selectors: see DEFAULT_IGNORABLE), blank-looking ones read as spaces, and
    a run of spaces one space, none at either end."""
    folded = unicodedata.normalize("NFKC", name)
    shown = "".join(" " if c in BLANK_LOOKING else c for c in folded if not _invisible(c))
    return " ".join(shown.split())


def shows_nothing(name: str) -> bool:
    """Whether ``name``, tidied, has no letter, digit, punctuation or symbol to show: it
    is empty, or only marks with nothing to sit on."""
    return not any(unicodedata.category(c)[0] in "LNPS" for c in tidy_name(name))


def scripts_mixed(name: str) -> bool:
    """Whether a word of ``name`` mixes Latin, Greek and Cyrillic letters, as a name made
    to look like another does ("Expert" with Cyrillic letters for E, x, p and e); a name
    written in one alphabet, Greek say, is fine."""
    for word in name.split():
        scripts = {unicodedata.name(c, "").split(" ", 1)[0] for c in word if c.isalpha()} & {
            "LATIN",
            "GREEK",
            "CYRILLIC",
        }
        if len(scripts) > 1:
            return True
    return False


# Letters that look like a Latin letter, as its lower case (names are compared case folded,
# so a letter is here if it or its capital looks like the Latin one: Cyrillic te for its
# capital, which is a T): a short list after Unicode's confusables (UTS #39) for the
# alphabets a name is likely to be spoofed in. Accented letters need no entry of their own:
# names are taken apart (NFD) first, so Cyrillic io is ie and a diaeresis, read as Latin e
# with one. 0 and 1 are read as o and l too: in the site's sans-serif face "B0B" and "BOB",
# "1" and "l" are told apart by little more than width, and names that differ only there are
# far likelier a copy than a choice. Capital I and small l, just as alike, are not: the
# comparison is case-blind, and reading i as l would make "ali" the same name as "all".
LOOK_ALIKES = str.maketrans(
    {
        unicodedata.lookup(letter): latin
        for letter, latin in (
            # Cyrillic
            ("CYRILLIC SMALL LETTER A", "a"),
            ("CYRILLIC SMALL LETTER VE", "b"),
            ("CYRILLIC SMALL LETTER ES", "c"),
            ("CYRILLIC SMALL LETTER KOMI DE", "d"),
            ("CYRILLIC SMALL LETTER IE", "e"),
            ("CYRILLIC SMALL LETTER SHHA", "h"),
            ("CYRILLIC SMALL LETTER EN", "h"),
            ("CYRILLIC SMALL LETTER BYELORUSSIAN-UKRAINIAN I", "i"),
            ("CYRILLIC SMALL LETTER JE", "j"),
            ("CYRILLIC SMALL LETTER KA", "k"),
            ("CYRILLIC SMALL LETTER PALOCHKA", "l"),
            ("CYRILLIC SMALL LETTER EM", "m"),
            ("CYRILLIC SMALL LETTER O", "o"),
            ("CYRILLIC SMALL LETTER ER", "p"),
            ("CYRILLIC SMALL LETTER QA", "q"),
            ("CYRILLIC SMALL LETTER DZE", "s"),
            ("CYRILLIC SMALL LETTER TE", "t"),
            ("CYRILLIC SMALL LETTER U", "y"),
            ("CYRILLIC SMALL LETTER STRAIGHT U", "y"),
            ("CYRILLIC SMALL LETTER WE", "w"),
            ("CYRILLIC SMALL LETTER HA", "x"),
            # Greek
            ("GREEK SMALL LETTER ALPHA", "a"),
            ("GREEK SMALL LETTER BETA", "b"),
            ("GREEK SMALL LETTER EPSILON", "e"),
            ("GREEK SMALL LETTER ETA", "h"),
            ("GREEK SMALL LETTER IOTA", "i"),
            ("GREEK LETTER YOT", "j"),
            ("GREEK SMALL LETTER KAPPA", "k"),
            ("GREEK SMALL LETTER MU", "m"),
            ("GREEK SMALL LETTER NU", "v"),
            ("GREEK SMALL LETTER OMICRON", "o"),
            ("GREEK SMALL LETTER RHO", "p"),
            ("GREEK SMALL LETTER TAU", "t"),
            ("GREEK SMALL LETTER UPSILON", "u"),
            ("GREEK SMALL LETTER CHI", "x"),
            ("GREEK SMALL LETTER GAMMA", "y"),
            ("GREEK SMALL LETTER ZETA", "z"),
            # Armenian, which the one-alphabet-per-word check lets sit in a Latin word
            ("ARMENIAN SMALL LETTER HO", "h"),
            ("ARMENIAN SMALL LETTER VO", "n"),
            ("ARMENIAN SMALL LETTER OH", "o"),
            ("ARMENIAN SMALL LETTER SEH", "u"),
            ("ARMENIAN SMALL LETTER CO", "g"),
            # Latin letters that NFKC leaves alone
            ("LATIN SMALL LETTER ALPHA", "a"),
            ("LATIN SMALL LETTER SCRIPT G", "g"),
            ("LATIN SMALL LETTER DOTLESS I", "i"),
            ("LATIN SMALL LETTER IOTA", "i"),
            ("LATIN LETTER SMALL CAPITAL I", "i"),
            ("LATIN SMALL LETTER DOTLESS J", "j"),
            ("LATIN LETTER SMALL CAPITAL O", "o"),
            # Digits
            ("DIGIT ZERO", "o"),
            ("DIGIT ONE", "l"),
        )
    }
)


def name_as_read(name: str) -> str:
    """``name`` as a reader compares names: tidied, in any case ("Straße" is "STRASSE"),
    and letters of other alphabets that look like Latin ones read as those (LOOK_ALIKES:
    "ace" in Cyrillic letters is "ace"). Accents are kept ("Émile" is not "Emile"); a dot
    over an i is not one ("İ" is "i", as its small letter shows it)."""
    taken_apart = unicodedata.normalize("NFD", tidy_name(name).casefold())
    read = taken_apart.translate(LOOK_ALIKES)
    # A capital İ case-folds to i and a combining dot above, which the i's own dot hides.
    read = re.sub("(?<=[ij])\u0307", "", read)
    return unicodedata.normalize("NFC", read)


@lru_cache(maxsize=512)
def known_zone(name: str) -> zoneinfo.ZoneInfo | None:
    """The timezone called ``name`` ("Europe/Athens"), or None if there is none such."""
    try:
        return zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return None


class User(AbstractUser):
    """A player. Profile fields live here rather than in a separate model."""

    class EmailPreference(models.TextChoices):
        EVERY_TURN = "every_turn", "An email every time it is my turn"
        DIGEST = "digest", "One daily digest of matches waiting for me"
        NONE = "none", "No game emails"

    display_name = models.CharField(max_length=60, blank=True)
    name_key = models.CharField(
        max_length=180,
        blank=True,
        db_index=True,
        editable=False,
        help_text="The display name as a reader compares names (name_as_read), set on save",
    )
    # Unique, so that no two accounts have usernames that look the same; NULL (of which
    # there may be any number) only for an account made without save() (bulk_create) or
    # kept by migration 0011 though its username looked the same as an older account's:
    # the older one holds the key, and with it the name.
    username_key = models.CharField(  # noqa: DJ001 - NULL is no key, and unique allows many
        max_length=450,  # case folding can make a character three: "ΐ"
        null=True,
        unique=True,
        editable=False,
        help_text="The username as a reader compares names (name_as_read), set on save",
    )
    about = models.TextField(blank=True)
    country = models.CharField(max_length=60, blank=True)
    timezone = models.CharField(max_length=64, default="UTC")
    email_preference = models.CharField(
        max_length=10, choices=EmailPreference.choices, default=EmailPreference.EVERY_TURN
    )
    is_bot = models.BooleanField(default=False, help_text="A computer player (games.bots)")
    shows_messages = models.BooleanField(
        "Messages from opponents",
        default=True,
        help_text="Show the messages opponents write beside the board, and let me write to them",
    )
    # After a change of email address, the address before it can be put back for a while
    # by a link sent to it (accounts.services.undo_email_change): the address, until when,
    # and the SHA-256 of the link's secret. One window per run of changes: a later change
    # within it keeps the first address, so no link sent to a taker's address can ever
    # restore the taker's address over the owner's.
    email_undo_address = models.EmailField(blank=True)
    email_undo_until = models.DateTimeField(null=True, blank=True)
    email_undo_key = models.CharField(max_length=64, blank=True)
    # The address the last email-change link was sent to (accounts.services.
    # request_email_change), until when it works, and the state of the account the link
    # needs (services._link_state): the settings page says a change is waiting, on every
    # device, while that link would still be taken. Asking for a link to another address
    # ends the one before it (the address is part of the state).
    email_change_to = models.EmailField(blank=True)
    email_change_until = models.DateTimeField(null=True, blank=True)
    email_change_state = models.CharField(max_length=64, blank=True)
    away_until = models.DateTimeField(
        null=True,
        blank=True,
        help_text="Taking time away until then: the player's clocks stand still (games.away)",
    )
    # When the present address was shown to be the player's (a link sent to it was
    # followed: accounts.services.confirm_email_address, an email change, a password
    # reset); None until then, and game emails wait for it (games.notifications._queue).
    email_confirmed_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="When the email address was confirmed by a link sent to it; game emails"
        " go only to a confirmed address",
    )

    @property
    def zone(self) -> zoneinfo.ZoneInfo | None:
        """The player's own timezone (settings page), in which they are shown dates and
        times; None if the name is not a known zone."""
        return known_zone(self.timezone)

    def forget_email_undo(self) -> None:
        """Drop the address held for an email-change undo, and the link's key (not saved)."""
        self.email_undo_address, self.email_undo_until, self.email_undo_key = "", None, ""

    def forget_email_change(self) -> None:
        """Drop the email change waiting for its link to be followed (not saved)."""
        self.email_change_to, self.email_change_until, self.email_change_state = "", None, ""

    def is_away(self, now: datetime | None = None) -> bool:
        """Whether the player is taking time away (their match clocks stand still)."""
        return self.away_until is not None and self.away_until > (now or timezone.now())

    class Meta(AbstractUser.Meta):
        constraints = [
            # One account per username, whatever its case, or "Alice" could pass for
            # "alice". The sign-up form checks first; this holds against races.
            models.UniqueConstraint(
                Lower("username"),
                name="accounts_user_username_ci_unique",
                violation_error_code="username_taken",
                violation_error_message=USERNAME_TAKEN,
            ),
            # One account per address, whatever its case; the forms check first, this
            # holds against races and other ways in. Bots have no address (empty email).
            models.UniqueConstraint(
                Lower("email"),
                name="accounts_user_email_ci_unique",
                condition=~models.Q(email=""),
                violation_error_code="email_in_use",
                violation_error_message=EMAIL_IN_USE,
            ),
        ]

    def __str__(self) -> str:
        """The name every page shows for the player (``{{ user }}``)."""
        return self.shown_display_name or self.username

    @property
    def shown_display_name(self) -> str:
        """The display name others are shown: "" once the account is closed or deactivated
        by the staff, as it is something its owner said of themselves. (Closing erases it,
        games.closing; the staff's deactivating keeps it, for an account let back in.)"""
        return self.display_name if self.is_active else ""

    def save(self, *args: Any, **kwargs: Any) -> None:
        # The keys follow the names, so that the check for a name in use is one indexed
        # lookup of each (accounts.services.name_in_use), whatever the database's own idea
        # of case.
        self.name_key = name_as_read(self.display_name)
        self._key_username()
        update_fields = kwargs.get("update_fields")
        if update_fields is not None:
            also = {"display_name": "name_key", "username": "username_key"}
            kwargs["update_fields"] = {
                *update_fields,
                *(also[f] for f in also if f in update_fields),
            }
        super().save(*args, **kwargs)

    def _key_username(self) -> None:
        key = name_as_read(self.username)
        if key == self.username_key:
            return
        if (
            self.username_key is None
            and not self._state.adding
            and User.objects.filter(username_key=key).exclude(pk=self.pk).exists()
        ):
            # Kept without a key (see username_key), and still a look-alike of the account
            # holding it: its other settings must still save. A rename ends this.
            return
        self.username_key = key


LAST_USED_RESOLUTION = timedelta(minutes=10)


class ApiToken(models.Model):
    """A key for the JSON API (``Authorization: Token <key>``). Only a hash is stored, so
    a database leak does not leak usable keys; the key is shown once, when created."""

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="api_tokens")
    name = models.CharField(max_length=60, help_text="What the key is for, e.g. 'my bot'")
    prefix = models.CharField(
        max_length=8, help_text="The key's first characters, to tell keys apart"
    )
    key_hash = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…)"

    @property
    def used_lately(self) -> bool:
        """Used within LAST_USED_RESOLUTION: ``last_used_at`` is written no more often, so
        nothing finer can be said of it."""
        return (
            self.last_used_at is not None
            and timezone.now() - self.last_used_at < LAST_USED_RESOLUTION
        )

    @staticmethod
    def hash_key(key: str) -> str:
        return hashlib.sha256(key.encode()).hexdigest()

    @classmethod
    def issue(cls, user: User, name: str) -> tuple[ApiToken, str]:
        """Create a token; return it and the raw key (never stored)."""
        key = secrets.token_urlsafe(32)
        token = cls.objects.create(user=user, name=name, prefix=key[:8], key_hash=cls.hash_key(key))
        return token, key

    @classmethod
    def user_for_key(cls, key: str) -> User | None:
        """The active user owning ``key``, or None; records when the key was last used.

        Read as ``ApiToken.objects.select_related("user").filter(key_hash=...,
        user__is_active=True).first()`` would read it, in SQL written once (aceysite.sql:
        every API request asks, and the ORM's query cost it 1.5 ms of CPU)."""
        tables, sql = _token_statement()
        found = fetch_one(tables, sql, [cls.hash_key(key), True])
        if not found:
            return None
        token, user = found
        assert isinstance(token, ApiToken) and isinstance(user, User)
        now = timezone.now()
        # Write at most every ten minutes: a write and a commit on every API request cost
        # more than the key's "last used" needs to be exact.
        if token.last_used_at is None or now - token.last_used_at > LAST_USED_RESOLUTION:
            cls.objects.filter(pk=token.pk).update(last_used_at=now)
        return user


@cache
def _token_statement() -> tuple[tuple[Table, Table], str]:
    """:meth:`ApiToken.user_for_key`'s tables and SQL: the key's id and last use, and
    its user if active."""
    token, user = tables = Table(ApiToken, "k", ["last_used_at"]), Table(User, "u")
    sql = (
        f"SELECT {select_list(tables)} FROM {token}"
        f" JOIN {user} ON {user.column('id')} = {token.column('user')}"
        f" WHERE {token.column('key_hash')} = %s AND {user.column('is_active')} = %s"
    )
    return tables, sql
