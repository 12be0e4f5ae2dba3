"""Every form of the web site, posted with hostile values and with realistic collisions.

What must hold for every post: no server error (never a status of 500 or more); a refusal
(a 4xx page, the form drawn again with its errors, or a redirect to a page with an error
message) says why in words; and a refused post changes nothing (the rows any of these
forms could touch are compared before and after).

The JSON API has its own fuzz (tests/api/test_fuzz.py), but for its time away, which reads
the settings page's day through the page's own form: it is posted here the same values as
the page, and must take or refuse each as the page does. The match page's HTMX turn and
click endpoints are fuzzed in test_bad_input.py. Every other POST endpoint of the site is
listed in ``FORMS`` (``test_every_post_endpoint_is_fuzzed`` keeps the list complete).
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, timedelta
from urllib.parse import quote

import pytest
from django.contrib.auth.tokens import default_token_generator
from django.core.cache import cache
from django.db import transaction
from django.http import HttpResponse
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from django.utils import timezone
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from accounts.models import ApiToken, User
from accounts.services import email_change_token, email_confirmation_token
from aceysite.text import sentence
from games import blocks, services
from games.models import Absence, Block, Challenge, Match, Message
from games.notifications import unsubscribe_token
from games.tournaments.models import Entry, Tournament
from games.tournaments.services import create_tournament, sign_up
from tests.matches import opened_by_white

pytestmark = pytest.mark.django_db

PASSWORD = "correct horse battery"  # the conftest users' password


# -- the world every post is made in ---------------------------------------------------------------


@dataclass(frozen=True)
class World:
    """Alice (the poster, mostly), Bob and Charlie, a bot, and something of each kind for
    the forms to act on."""

    alice: User
    bob: User
    charlie: User
    bot: User
    match: Match  # alice (white, to move) v bob
    finished: Match  # alice v charlie, charlie resigned
    received: Challenge  # from bob to alice, open
    sent: Challenge  # from alice to bob, open
    invite: Challenge  # charlie's private invite
    tournament: Tournament  # alice's, open, manual start; alice and bob are in
    token: ApiToken  # alice's

    def paths(self) -> dict[str, object]:
        return {
            "match": self.match.pk,
            "finished": self.finished.pk,
            "received": self.received.pk,
            "sent": self.sent.pk,
            "invite": self.invite.pk,
            "tournament": self.tournament.pk,
            "token": self.token.pk,
            "unsubscribe": unsubscribe_token(self.alice),
            "email_change": email_change_token(self.alice, new_email="alice.new@example.com"),
            # A link of alice's with a secret that is not hers: refused, with a reason.
            "email_undo": f"{self.alice.pk}/not-the-secret",
        }


@pytest.fixture
def world(alice, bob, charlie) -> World:
    bot = services.bot_users()[-1]
    bob.display_name = "Bobby"
    bob.save()
    finished = opened_by_white(alice, charlie)
    services.resign(finished.pk, user=charlie)
    tournament = create_tournament(
        alice,
        name="Fuzz cup",
        signup_deadline=timezone.now() + timedelta(days=3),
        min_players=2,
        start_mode=Tournament.StartMode.MANUAL,
    )
    sign_up(tournament.pk, user=alice)
    sign_up(tournament.pk, user=bob)
    return World(
        alice=alice,
        bob=bob,
        charlie=charlie,
        bot=bot,
        match=opened_by_white(alice, bob),
        finished=finished,
        received=services.create_challenge(bob, opponent=alice),
        sent=services.create_challenge(alice, opponent=bob),
        invite=services.create_challenge(charlie, private=True),
        tournament=tournament,
        token=ApiToken.issue(alice, "fuzz")[0],
    )


def state() -> dict[str, list[tuple]]:
    """Every row a form of the site may change."""
    return {
        "users": list(
            User.objects.order_by("pk").values_list(
                "pk",
                "username",
                "email",
                "password",
                "display_name",
                "about",
                "country",
                "timezone",
                "email_preference",
                "away_until",
                "is_active",
                "shows_messages",
                "email_confirmed_at",
            )
        ),
        "tokens": list(ApiToken.objects.order_by("pk").values_list("pk", "user_id", "name")),
        "challenges": list(
            Challenge.objects.order_by("pk").values_list("pk", "status", "opponent_id", "match_id")
        ),
        "matches": list(
            Match.objects.order_by("pk").values_list(
                "pk", "status", "segment_count", "deadline", "winner_id"
            )
        ),
        "tournaments": list(
            Tournament.objects.order_by("pk").values_list("pk", "status", "name", "organiser_id")
        ),
        "entries": list(
            Entry.objects.order_by("pk").values_list("pk", "tournament_id", "user_id", "withdrawn")
        ),
        "absences": list(Absence.objects.order_by("pk").values_list("pk", "starts_at", "ends_at")),
        "messages": list(Message.objects.order_by("pk").values_list("pk", "author_id", "text")),
        "blocks": list(Block.objects.order_by("pk").values_list("pk", "blocker_id", "blocked_id")),
    }


# -- what a response says --------------------------------------------------------------------------

ERRORS = re.compile(
    r'<ul class="errorlist[^"]*"[^>]*>(.*?)</ul>'
    r'|<p [^>]*class="error"[^>]*>(.*?)</p>'
    r'|<li class="message-error">(.*?)</li>',
    re.DOTALL,
)
MAIN = re.compile(r"<main[^>]*>(.*?)</main>", re.DOTALL)


def _text(markup: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", markup)).split())


def errors_shown(page: HttpResponse) -> str:
    """The error messages a page shows: a form's errors, or an error message."""
    content = page.content.decode()
    return " ".join(_text("".join(groups)) for groups in ERRORS.findall(content)).strip()


def readable(reason: str) -> bool:
    """Whether ``reason`` is words a person can read, not empty and not a stack trace."""
    return bool(re.search(r"[A-Za-z]{3,}", reason)) and "Traceback" not in reason


@dataclass(frozen=True)
class Outcome:
    status: int
    refused: bool
    reason: str
    changed: bool
    response: HttpResponse


def post(
    client: Client,
    path: str,
    data: dict[str, str],
    *,
    htmx: bool = False,
    success_renders: bool = False,
) -> Outcome:
    """Post ``data`` to ``path`` and check what must hold for every post: no server error,
    a reason for a refusal, and no change from a refused post.

    A refusal is a 4xx, a form drawn again (a 200, unless the view answers success with a
    page of its own: ``success_renders``; then only a page showing errors), or a redirect
    to a page showing an error message.
    """
    before = state()
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}

    response = client.post(path, data, **headers)

    assert response.status_code < 500, (path, data)
    changed = state() != before
    if response.status_code in (301, 302, 303):
        reason = errors_shown(client.get(response["Location"], follow=True))
        refused = bool(reason)
    elif response.status_code >= 400:
        found = MAIN.search(response.content.decode())
        reason = errors_shown(response) or _text(found.group(1) if found else response.text)
        refused = True
    else:
        reason = errors_shown(response)
        refused = bool(reason) or not success_renders
    if refused:
        assert readable(reason), (path, data, response.status_code, reason)
        assert not changed, (path, data, response.status_code, reason)
    return Outcome(response.status_code, refused, reason, changed, response)


# -- the fuzz --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Form:
    """A POST endpoint, who posts to it, and its fields with a value each that it takes."""

    name: str  # the URL name
    path: str  # formatted with World.paths()
    fields: dict[str, str]
    poster: str | None = "alice"  # an attribute of World, or None for a visitor
    success_renders: bool = False
    prepare: Callable[[Client, World], str] | None = None  # returns the path to post to


def _set_password_path(client: Client, world: World) -> str:
    """Follow alice's emailed reset link: Django keeps its token in the session and sends
    the browser on to the address the new password is posted to."""
    uid = urlsafe_base64_encode(force_bytes(world.alice.pk))
    token = default_token_generator.make_token(world.alice)
    return client.get(f"/accounts/password/reset/{uid}/{token}/")["Location"]


def _unconfirmed_address_path(client: Client, world: World) -> str:
    """The link that confirms alice's address, which she has not confirmed yet."""
    User.objects.filter(pk=world.alice.pk).update(email_confirmed_at=None)
    world.alice.refresh_from_db()
    return f"/accounts/email/verify/{email_confirmation_token(world.alice)}/"


def _send_again_path(client: Client, world: World) -> str:
    """Alice has not confirmed her address yet: her dashboard offers to send the link again."""
    User.objects.filter(pk=world.alice.pk).update(email_confirmed_at=None)
    return "/accounts/settings/email/verify/"


def _unblock_path(client: Client, world: World) -> str:
    """Alice has blocked Charlie (nothing waits between them that the block would end)."""
    blocks.block(world.alice, other=world.charlie)
    return "/players/charlie/unblock/"


def _next_week() -> str:
    return (timezone.localtime() + timedelta(days=7)).strftime("%Y-%m-%dT%H:%M")


FORMS = [
    Form(
        "signup",
        "/accounts/signup/",
        {
            "username": "eve",
            "email": "eve@example.com",
            "password1": "a long enough passphrase",
            "password2": "a long enough passphrase",
            "timezone": "Europe/Athens",
            "next": "/lobby/",
        },
        poster=None,
    ),
    Form("login", "/accounts/login/", {"username": "alice", "password": PASSWORD}, poster=None),
    Form("logout", "/accounts/logout/", {"next": "/lobby/"}),
    Form(
        "password_change",
        "/accounts/password/change/",
        {
            "old_password": PASSWORD,
            "new_password1": "another long passphrase",
            "new_password2": "another long passphrase",
        },
    ),
    Form("password_reset", "/accounts/password/reset/", {"email": "alice@example.com"}, None),
    Form(
        "password_reset_confirm",
        "(followed from the emailed link)",
        {"new_password1": "another long passphrase", "new_password2": "another long passphrase"},
        poster=None,
        prepare=_set_password_path,
    ),
    Form(
        "settings",
        "/accounts/settings/",
        {
            "display_name": "Alice A.",
            "about": "I play on Sundays.",
            "country": "Greece",
            "timezone": "Europe/Athens",
            "email_preference": "digest",
        },
    ),
    Form("away_start", "/accounts/settings/away/", {"back_on": str(date.today() + timedelta(7))}),
    Form("away_end", "/accounts/settings/away/end/", {"next": "/dashboard/"}),
    Form(
        "email_change",
        "/accounts/settings/email/",
        {"email": "alice2@example.com", "password": PASSWORD},
    ),
    Form("email_change_confirm", "/accounts/email/confirm/{email_change}/", {}),
    Form(
        "email_verify_send",
        "(alice's address not yet confirmed)",
        {"next": "/dashboard/"},
        prepare=_send_again_path,
    ),
    Form(
        "email_verify",
        "(alice's link, her address not yet confirmed)",
        {},
        poster=None,
        success_renders=True,
        prepare=_unconfirmed_address_path,
    ),
    Form(
        "email_change_undo",
        "/accounts/email/undo/{email_undo}/",
        {},
        poster=None,
        success_renders=True,
    ),
    Form(
        "token_create",
        "/accounts/settings/tokens/",
        {"name": "my bot", "password": PASSWORD},
        success_renders=True,
    ),
    Form("token_revoke", "/accounts/settings/tokens/{token}/revoke/", {}),
    Form(
        "challenge_new",
        "/challenges/new/",
        {
            "opponent": "bob",
            "private": "",
            "variant": "greek",
            "points": "3",
            "days_per_move": "2",
            "rated": "on",
        },
    ),
    Form("challenge_accept", "/challenges/{received}/accept/", {"token": ""}),
    Form("challenge_decline", "/challenges/{received}/decline/", {}),
    Form("challenge_cancel", "/challenges/{sent}/cancel/", {}),
    Form("match_resign", "/matches/{match}/resign/", {}),
    Form("match_rematch", "/matches/{finished}/rematch/", {}),
    # With HTMX, a message sent is answered with the conversation drawn again.
    Form("match_messages", "/matches/{match}/messages/", {"text": "Hi!"}, success_renders=True),
    Form(
        "tournament_new",
        "/tournaments/new/",
        {
            "name": "Spring cup",
            "format": "swiss",
            "variant": "american",
            "points": "3",
            "days_per_move": "3",
            "rated": "on",
            "min_players": "2",
            "max_players": "8",
            "swiss_rounds": "3",
            "signup_deadline": "(next week)",
            "start_mode": "manual",
        },
    ),
    Form("tournament_sign_up", "/tournaments/{tournament}/sign-up/", {}, poster="charlie"),
    Form("tournament_withdraw", "/tournaments/{tournament}/withdraw/", {}, poster="bob"),
    Form("tournament_start", "/tournaments/{tournament}/start/", {}),
    Form("tournament_cancel", "/tournaments/{tournament}/cancel/", {}),
    Form("tournament_add_bot", "/tournaments/{tournament}/add-bot/", {"bot": "(the bot)"}),
    Form("tournament_remove_bot", "/tournaments/{tournament}/remove-bot/", {"bot": "(the bot)"}),
    Form("player_block", "/players/bob/block/", {}),
    Form(
        "player_unblock", "(alice's block of charlie)", {"back": "settings"}, prepare=_unblock_path
    ),
    Form("unsubscribe", "/unsubscribe/{unsubscribe}/", {}, poster=None, success_renders=True),
    Form("close_account", "/accounts/settings/close/", {"password": PASSWORD}),
]

# Fuzzed elsewhere (test_bad_input.py), or not a form of ours (Django's admin, the API's
# address without its slash: a 404 in JSON to anything, as the API's other paths).
NOT_HERE = {"match_turn", "match_click", "api_without_slash"}

WORDS = [
    "",
    " ",
    "\t\n ",
    "\x00",
    "a\x00b",
    "x" * 5000,
    "é" * 400,
    "😀" * 70,
    "\ufdfa" * 8,  # one character that NFKC turns into eighteen
    "\u200b",
    "-1",
    "0",
    "1",
    "2",
    "129",
    "2147483648",
    "-2147483649",
    "9" * 40,
    "1e308",
    "NaN",
    "1.5",
    "0001-01-01",
    "9999-12-31",
    "10000-01-01",
    "2026-02-30",
    "31/12/2026",
    "0001-01-01T00:00",
    "9999-12-31T23:59",
    "1970-01-01T00:00",
    "not a date",
    "<script>alert(1)</script>",
    "' OR 1=1 --",
    "https://evil.example/",
    "on",
    "true",
    "alice",
    "ALICE",
    " alice ",
    "bob",
    "Bobby",
    "\uff42\uff4f\uff42",
    "expert-bot",
    "Expert bot",
    "nobody",
    "alice@example.com",
    "BOB@EXAMPLE.COM",
    "x" * 250 + "@example.com",
    "a" * 64 + "@" + ("b" * 63 + ".") * 3 + "com",  # valid, and longer than the column
    "/\x00",
    "/\r\nSet-Cookie: x=1",
    "//evil.example/",
    "/\\evil.example",
    "/" + "x" * 5000,
    "american",
    "greek",
    "single_elimination",
    "double_elimination",
    "round_robin",
    "swiss",
    "manual",
    "automatic",
    "every_turn",
    "none",
    "UTC",
    "Etc/GMT+12",
    "Pacific/Kiritimati",
    "../../etc/passwd",
]
VALUES = st.one_of(
    st.sampled_from(WORDS),
    st.text(max_size=80),
    st.integers(min_value=-(10**20), max_value=10**20).map(str),
    st.dates().map(date.isoformat),
    st.datetimes().map(lambda moment: moment.isoformat(timespec="minutes")),
)


def _realistic(form: Form, world: World) -> dict[str, str]:
    fields = dict(form.fields)
    if "signup_deadline" in fields:
        fields["signup_deadline"] = _next_week()
    if "bot" in fields:
        fields["bot"] = str(world.bot.pk)
    return fields


@st.composite
def _posts(draw: st.DrawFn, form: Form, world: World) -> dict[str, str]:
    """The form's own values, some replaced by hostile ones, some left out, and junk."""
    data = _realistic(form, world)
    for field in list(data):
        kind = draw(st.sampled_from(["keep", "keep", "hostile", "drop"]))
        if kind == "hostile":
            data[field] = draw(VALUES)
        elif kind == "drop":
            del data[field]
    junk = draw(st.dictionaries(st.sampled_from(["junk", "id", "user", "pk"]), VALUES, max_size=2))
    # A browser's post always carries the CSRF token (the test client does not check it),
    # so no post from a page is ever empty: "request.POST or None" reads it as a post.
    return {**junk, **data, "csrfmiddlewaretoken": "x"}


def _client_for(form: Form, world: World) -> Client:
    client = Client()
    if form.poster is not None:
        client.force_login(getattr(world, form.poster))
    return client


@pytest.mark.parametrize("form", FORMS, ids=[form.name for form in FORMS])
@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_every_form_answers_hostile_values_without_a_500_and_refuses_with_a_reason(
    world, form, data
):
    posted = data.draw(_posts(form, world), label="posted")
    htmx = data.draw(st.booleans(), label="htmx")
    # Each example starts from the same world: what one post changes is rolled back.
    with transaction.atomic():
        cache.clear()  # the login and password-reset throttles count across examples
        client = _client_for(form, world)
        path = form.prepare(client, world) if form.prepare else form.path
        path = path.format(**world.paths())

        post(client, path, posted, htmx=htmx, success_renders=form.success_renders)

        transaction.set_rollback(True)


@settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    token=st.one_of(st.text(min_size=1, max_size=200), st.sampled_from(["a" * 5000, ":", "."])),
    where=st.sampled_from(
        [
            "/unsubscribe/{}/",
            "/accounts/email/confirm/{}/",
            "/accounts/email/verify/{}/",
            "/accounts/email/undo/1/{}/",
        ]
    ),
)
def test_a_forged_link_is_refused_with_a_reason(world, token, where):
    with transaction.atomic():
        client = Client()
        client.force_login(world.alice)

        outcome = post(client, where.format(quote(token, safe="")), {})

        assert outcome.refused
        transaction.set_rollback(True)


def _post_names(patterns) -> set[str]:
    names = set()
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            if not str(pattern.pattern).startswith(("admin", "api/")):
                names |= _post_names(pattern.url_patterns)
        elif isinstance(pattern, URLPattern) and pattern.name:
            names.add(pattern.name)
    return names


# Pages that only answer GET (require_GET, or a Django view without a form).
GET_ONLY = {
    "home",
    "password_change_done",
    "password_reset_done",
    "password_reset_complete",
    "dashboard",
    "lobby",
    "challenge",
    "invite",
    "match",
    "match_history_game",
    "match_export",
    "match_dice",
    "player_search",
    "leaderboard_default",
    "leaderboard",
    "profile",
    "rating_chart",
    "player_dice",
    "tournament_list",
    "tournaments_finished",
    "tournaments_cancelled",
    "tournament",
    "rules",
    "api_docs",
    "favicon",
}


def test_every_post_endpoint_is_fuzzed():
    fuzzed = {form.name for form in FORMS}

    assert _post_names(get_resolver().url_patterns) - GET_ONLY - NOT_HERE - fuzzed == set()


# -- collisions ------------------------------------------------------------------------------------


def _as(world: World, who: str | None) -> Client:
    client = Client()
    if who is not None:
        client.force_login(getattr(world, who))
    return client


def signup_data(username: str, email: str) -> dict[str, str]:
    password = "a long enough passphrase"
    return {"username": username, "email": email, "password1": password, "password2": password}


@pytest.mark.parametrize(
    ("username", "said"),
    [
        ("alice", "already exists"),
        ("ALICE", "already exists"),
        (" Alice ", "already exists"),
        # Full-width letters (NFKC makes them plain), and one Cyrillic a.
        ("\uff41\uff4c\uff49\uff43\uff45", "already exists"),
        ("\u0430lice", "one alphabet"),
        ("bobby", "goes by that name"),  # bob's display name
        ("Expert-Bot", "already exists"),
        ("EXPERT BOT", "goes by that name"),  # the bot's display name
    ],
)
def test_sign_up_refuses_a_username_someone_has(world, username, said):
    outcome = post(_as(world, None), "/accounts/signup/", signup_data(username, "eve@example.com"))

    assert outcome.refused
    assert said in outcome.reason


@pytest.mark.parametrize("email", ["alice@example.com", "ALICE@Example.com", " bob@example.com "])
def test_sign_up_refuses_an_email_someone_has(world, email):
    outcome = post(_as(world, None), "/accounts/signup/", signup_data("eve", email))

    assert outcome.refused
    assert "already exists" in outcome.reason


@pytest.mark.parametrize("path", ["/accounts/signup/", "/accounts/settings/email/"])
def test_an_address_longer_than_an_account_keeps_is_refused(world, path):
    long_address = "a" * 64 + "@" + ("b" * 63 + ".") * 3 + "com"  # valid, 260 characters
    who = None if path == "/accounts/signup/" else "alice"

    # With the password too, which the email form asks for and sign-up ignores.
    data = {**signup_data("eve", long_address), "password": PASSWORD}

    outcome = post(_as(world, who), path, data)

    assert outcome.refused
    assert "at most 254 characters" in outcome.reason


@pytest.mark.parametrize(
    "display_name",
    # bob's username in other cases, spaced, in full-width letters; his display name; a
    # bot's display name and username.
    ["bob", "BOB", "  bob ", "\uff42\uff4f\uff42", "Bobby", "bobby", "Expert bot", "expert-bot"],
)
def test_settings_refuse_a_display_name_someone_has(world, display_name):
    data = {"display_name": display_name, "timezone": "UTC", "email_preference": "none"}

    outcome = post(_as(world, "alice"), "/accounts/settings/", data)

    assert outcome.refused
    assert "goes by that name" in outcome.reason


def test_settings_keep_a_display_name_within_its_column_however_it_is_written(world):
    # Each of these characters is one when posted and eighteen once NFKC has folded it.
    data = {"display_name": "\ufdfa" * 10, "timezone": "UTC", "email_preference": "none"}

    post(_as(world, "alice"), "/accounts/settings/", data)

    world.alice.refresh_from_db()
    assert len(world.alice.display_name) <= User._meta.get_field("display_name").max_length


# Not another account's address (BOB@example.com): that is answered as any other, so that
# the form does not tell which addresses have accounts (tests/accounts/test_email_change.py).
@pytest.mark.parametrize(
    ("email", "said"),
    [
        ("ALICE@example.com", "already your email address"),
        ("bot@", "valid email"),
    ],
)
def test_email_change_refuses_its_own_address_or_none(world, email, said):
    data = {"email": email, "password": PASSWORD}

    outcome = post(_as(world, "alice"), "/accounts/settings/email/", data)

    assert outcome.refused
    assert said in outcome.reason


@pytest.mark.parametrize(
    ("opponent", "said"),
    [
        ("alice", "cannot challenge yourself"),
        (" ALICE ", "cannot challenge yourself"),
        ("nobody", "no player called nobody"),
        ("Bobby", "no player called Bobby"),  # a display name is not a username
        ("x" * 151, "at most 150 characters"),
    ],
)
def test_a_challenge_to_nobody_or_to_yourself_is_refused(world, opponent, said):
    data = {"opponent": opponent, "variant": "american", "points": "1", "days_per_move": "2"}

    outcome = post(_as(world, "alice"), "/challenges/new/", data)

    assert outcome.refused
    assert said in outcome.reason


def test_a_challenge_to_a_bot_starts_a_match(world):
    data = {"opponent": "EXPERT-BOT", "variant": "american", "points": "1", "days_per_move": "2"}

    outcome = post(_as(world, "alice"), "/challenges/new/", data)

    assert not outcome.refused
    match = Match.objects.latest("pk")
    assert {match.white_id, match.black_id} == {world.alice.pk, world.bot.pk}


def test_a_private_invite_to_a_named_opponent_is_refused(world):
    data = {"opponent": "bob", "private": "on", "variant": "american", "points": "1"}
    data["days_per_move"] = "2"

    outcome = post(_as(world, "alice"), "/challenges/new/", data)

    assert outcome.refused
    assert "private invite link is for a friend" in outcome.reason


@pytest.mark.parametrize(
    ("who", "challenge", "action", "status", "said"),
    [
        ("alice", "sent", "accept", 403, "cannot accept your own challenge"),
        # Someone else's challenge, or a private one without its link: as if there were none
        # (back to the lobby, saying it is no longer open).
        ("charlie", "received", "accept", 302, "no longer open"),
        ("bob", "invite", "accept", 302, "no longer open"),
        ("bob", "received", "decline", 403, "only the opponent decline"),
        ("bob", "sent", "cancel", 403, "only the challenger can cancel"),
    ],
)
def test_a_challenge_is_refused_to_whoever_may_not_answer_it(
    world, who, challenge, action, status, said
):
    path = f"/challenges/{getattr(world, challenge).pk}/{action}/"

    outcome = post(_as(world, who), path, {"token": "forged"})

    assert outcome.status == status
    assert said in outcome.reason.casefold()


@pytest.mark.parametrize("first", ["accept", "decline"])
@pytest.mark.parametrize("then", ["accept", "decline"])
def test_a_challenge_answered_already_is_refused(world, first, then):
    alice = _as(world, "alice")
    path = f"/challenges/{world.received.pk}/"
    post(alice, path + f"{first}/", {})

    outcome = post(alice, path + f"{then}/", {})

    assert outcome.refused
    assert "This challenge has already been" in outcome.reason


@pytest.mark.parametrize("then", ["accept", "cancel"])
def test_a_cancelled_challenge_is_refused(world, then):
    post(_as(world, "alice"), f"/challenges/{world.sent.pk}/cancel/", {})
    who = "bob" if then == "accept" else "alice"

    outcome = post(_as(world, who), f"/challenges/{world.sent.pk}/{then}/", {})

    assert outcome.refused
    assert "This challenge has already been cancelled." in outcome.reason


def test_a_challenge_that_is_gone_is_said_to_be_no_longer_open(world):
    outcome = post(_as(world, "alice"), "/challenges/999999/accept/", {})

    assert outcome.status == 302 and outcome.refused
    assert "That challenge is no longer open" in outcome.reason


def test_a_match_resigned_twice_is_refused_the_second_time(world):
    alice = _as(world, "alice")
    post(alice, f"/matches/{world.match.pk}/resign/", {})

    outcome = post(alice, f"/matches/{world.match.pk}/resign/", {})

    assert outcome.refused
    assert "already over" in outcome.reason


@pytest.mark.parametrize(
    ("username", "said"),
    [
        ("alice", "You cannot block yourself."),
        ("expert-bot", "You cannot block expert-bot: it is a computer player."),
    ],
)
def test_a_block_of_oneself_or_a_bot_is_refused(world, username, said):
    outcome = post(_as(world, "alice"), f"/players/{username}/block/", {})

    assert outcome.refused
    assert said in outcome.reason


def test_a_block_of_nobody_is_a_404(world):
    outcome = post(_as(world, "alice"), "/players/nobody/block/", {})

    assert outcome.status == 404


def test_a_rematch_of_a_match_still_played_is_refused(world):
    outcome = post(_as(world, "alice"), f"/matches/{world.match.pk}/rematch/", {})

    assert outcome.refused
    assert "still being played" in outcome.reason


def test_a_rematch_asked_by_an_outsider_is_refused(world):
    outcome = post(_as(world, "bob"), f"/matches/{world.finished.pk}/rematch/", {})

    assert outcome.status == 403


@pytest.mark.parametrize(
    ("who", "action", "data", "said"),
    [
        ("alice", "sign-up", {}, "You have already signed up."),
        ("bob", "start", {}, "only the organiser"),
        ("bob", "cancel", {}, "only the organiser"),
        ("bob", "add-bot", {"bot": "(the bot)"}, "only the organiser"),
        ("charlie", "withdraw", {}, "not signed up"),
        ("alice", "add-bot", {"bot": "(bob)"}, "Choose a bot"),
        ("alice", "add-bot", {"bot": "-1"}, "Choose a bot"),
        ("alice", "add-bot", {"bot": "9" * 30}, "Choose a bot"),
    ],
)
def test_a_tournament_refuses_what_the_player_may_not_do(world, who, action, data, said):
    ids = {"(the bot)": str(world.bot.pk), "(bob)": str(world.bob.pk)}
    data = {key: ids.get(value, value) for key, value in data.items()}

    outcome = post(_as(world, who), f"/tournaments/{world.tournament.pk}/{action}/", data)

    assert outcome.refused
    assert said.casefold() in outcome.reason.casefold()


def test_a_bot_entered_twice_is_refused_the_second_time(world):
    alice = _as(world, "alice")
    path = f"/tournaments/{world.tournament.pk}/add-bot/"
    post(alice, path, {"bot": str(world.bot.pk)})

    outcome = post(alice, path, {"bot": str(world.bot.pk)})

    assert outcome.refused
    assert "signed up" in outcome.reason and "already has" in outcome.reason


@pytest.mark.parametrize("action", ["start", "cancel", "sign-up", "add-bot"])
def test_a_cancelled_tournament_refuses_everything_but_a_look(world, action):
    alice = _as(world, "alice")
    post(alice, f"/tournaments/{world.tournament.pk}/cancel/", {})
    who = "charlie" if action == "sign-up" else "alice"

    outcome = post(
        _as(world, who), f"/tournaments/{world.tournament.pk}/{action}/", {"bot": world.bot.pk}
    )

    assert outcome.refused
    assert "cancelled" in outcome.reason


def test_a_tournament_started_twice_is_refused_the_second_time(world):
    alice = _as(world, "alice")
    post(alice, f"/tournaments/{world.tournament.pk}/start/", {})

    outcome = post(alice, f"/tournaments/{world.tournament.pk}/start/", {})

    assert outcome.refused
    assert "running" in outcome.reason


def test_a_tournament_with_too_few_players_does_not_start(world):
    post(_as(world, "bob"), f"/tournaments/{world.tournament.pk}/withdraw/", {})

    outcome = post(_as(world, "alice"), f"/tournaments/{world.tournament.pk}/start/", {})

    assert outcome.refused
    assert "needs at least 2" in outcome.reason


@pytest.mark.parametrize(
    ("changes", "said"),
    [
        ({"min_players": "9", "max_players": "8"}, "cannot be below the minimum"),
        ({"signup_deadline": "2001-01-01T12:00"}, "must be in the future"),
        ({"max_players": "129"}, "less than or equal to 128"),
        ({"swiss_rounds": "0"}, "greater than or equal to 1"),
        ({"format": "swiss", "swiss_rounds": "16"}, "less than or equal to 15"),
        ({"name": "   "}, "This field is required"),
    ],
)
def test_a_new_tournament_with_impossible_settings_is_refused(world, changes, said):
    data = {**_realistic(FORMS_BY_NAME["tournament_new"], world), **changes}

    outcome = post(_as(world, "alice"), "/tournaments/new/", data)

    assert outcome.refused
    assert said in outcome.reason


@pytest.mark.parametrize("zone", ["America/Los_Angeles", "Pacific/Kiritimati", "UTC"])
def test_a_tournament_deadline_at_the_end_of_time_is_answered(world, zone):
    User.objects.filter(pk=world.alice.pk).update(timezone=zone)
    data = {**_realistic(FORMS_BY_NAME["tournament_new"], world)}
    data["signup_deadline"] = "9999-12-31T23:59"

    outcome = post(_as(world, "alice"), "/tournaments/new/", data)

    assert outcome.status < 500


def test_time_away_taken_twice_is_refused_the_second_time(world):
    alice = _as(world, "alice")
    back_on = str(timezone.localdate() + timedelta(days=5))
    post(alice, "/accounts/settings/away/", {"back_on": back_on})

    outcome = post(alice, "/accounts/settings/away/", {"back_on": back_on})

    assert outcome.refused
    assert "already away" in outcome.reason


@pytest.mark.parametrize(
    ("back_on", "said"),
    [
        ("1970-01-01", "Choose a day after today"),
        ("0001-01-01", "Choose a day after today"),
        ("9999-12-31", "days left this year"),
        ("2026-02-30", "Enter a valid date"),
    ],
)
def test_time_away_refuses_a_day_it_cannot_take(world, back_on, said):
    outcome = post(_as(world, "alice"), "/accounts/settings/away/", {"back_on": back_on})

    assert outcome.refused
    assert said in outcome.reason


def test_coming_back_when_not_away_is_refused(world):
    outcome = post(_as(world, "alice"), "/accounts/settings/away/end/", {})

    assert outcome.refused
    assert "not away" in outcome.reason


# -- the API's time away, beside the page's ------------------------------------------------------


def _api_as(world: World, who: str) -> Client:
    _, key = ApiToken.issue(getattr(world, who), "fuzz")
    return Client(headers={"authorization": f"Token {key}"})


def api_post(client: Client, path: str, body: object) -> Outcome:
    """Post ``body`` as JSON to the API's ``path``, and check what :func:`post` checks: no
    server error, a reason for a refusal, and no change from a refused post."""
    before = state()

    response = client.post(path, json.dumps(body), content_type="application/json")

    assert response.status_code < 500, (path, body)
    changed = state() != before
    refused = response.status_code >= 400
    reason = response.json()["error"] if refused else ""
    if refused:
        assert readable(reason), (path, body, response.status_code, reason)
        assert not changed, (path, body, response.status_code, reason)
    return Outcome(response.status_code, refused, reason, changed, response)


def _page_and_api_away(world: World, back_on: str) -> tuple[Outcome, Outcome]:
    """Alice takes time away until ``back_on`` on the settings page, and (from the same
    world) through the API."""
    outcomes = []
    for send in (
        lambda: post(_as(world, "alice"), "/accounts/settings/away/", {"back_on": back_on}),
        lambda: api_post(_api_as(world, "alice"), "/api/v1/me/away/", {"back_on": back_on}),
    ):
        with transaction.atomic():
            outcomes.append(send())
            transaction.set_rollback(True)
    page, api = outcomes
    return page, api


def _as_the_page_says(api_reason: str) -> str:
    # The API names the field it refuses and words a service's reason to follow a colon;
    # the page shows either as a sentence beside the field.
    return sentence(api_reason.removeprefix("back_on: "))


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(back_on=VALUES)
def test_the_api_takes_or_refuses_a_day_away_as_the_settings_page_does(world, back_on):
    page, api = _page_and_api_away(world, back_on)

    if api.reason.startswith(("back_on holds", "back_on is too long")):
        return  # refused as any text of the API is (NUL, length), before the day is read
    assert (api.refused, api.status) == (page.refused, 400 if page.refused else 200), back_on
    if page.refused:
        assert _as_the_page_says(api.reason) == page.reason


@pytest.mark.parametrize("back_on", ["1970-01-01", "0001-01-01", "9999-12-31", "2026-02-30", " "])
def test_the_api_refuses_a_day_away_with_the_settings_page_s_reason(world, back_on):
    page, api = _page_and_api_away(world, back_on)

    assert page.refused and api.status == 400
    assert _as_the_page_says(api.reason) == page.reason


def test_the_api_takes_a_day_away_the_settings_page_takes(world):
    page, api = _page_and_api_away(world, str(timezone.localdate() + timedelta(days=7)))

    assert not page.refused and api.status == 200


def test_the_api_refuses_time_away_taken_twice_as_the_page_does(world):
    back_on = str(timezone.localdate() + timedelta(days=5))
    post(_as(world, "alice"), "/accounts/settings/away/", {"back_on": back_on})

    page = post(_as(world, "alice"), "/accounts/settings/away/", {"back_on": back_on})
    api = api_post(_api_as(world, "alice"), "/api/v1/me/away/", {"back_on": back_on})

    assert api.status == 409
    assert _as_the_page_says(api.reason) == page.reason


def test_the_api_refuses_coming_back_when_not_away_as_the_page_does(world):
    page = post(_as(world, "alice"), "/accounts/settings/away/end/", {})
    api = api_post(_api_as(world, "alice"), "/api/v1/me/away/end/", {})

    assert api.status == 409
    assert _as_the_page_says(api.reason) == page.reason


@pytest.mark.parametrize("who", ["alice", "bob"])
def test_a_key_revoked_twice_or_by_another_says_it_is_not_theirs(world, who):
    if who == "alice":
        post(_as(world, "alice"), f"/accounts/settings/tokens/{world.token.pk}/revoke/", {})

    browser = _as(world, who)
    answer = browser.post(f"/accounts/settings/tokens/{world.token.pk}/revoke/", {}, follow=True)

    assert answer.redirect_chain[-1] == ("/accounts/settings/#tokens-h", 302)
    assert "That key is not among your keys (it may have been revoked already)." in answer.text
    # bob's try leaves alice's key as it was.
    assert ApiToken.objects.filter(pk=world.token.pk).exists() == (who == "bob")


def test_an_unsubscribe_link_for_a_deleted_player_is_refused(world, django_user_model):
    dave = django_user_model.objects.create_user("dave", "dave@example.com")
    link = f"/unsubscribe/{unsubscribe_token(dave)}/"
    dave.delete()

    outcome = post(Client(), link, {})

    assert outcome.status == 400


def test_an_email_change_link_whose_address_was_taken_meanwhile_is_refused(world):
    link = f"/accounts/email/confirm/{email_change_token(world.alice, new_email='c@x.org')}/"
    User.objects.filter(pk=world.charlie.pk).update(email="C@X.ORG")

    outcome = post(_as(world, "alice"), link, {})

    assert outcome.refused
    assert "Another account now uses that address" in outcome.reason


@pytest.mark.parametrize(
    ("username", "password"),
    [("ALICE", "wrong"), (" alice ", "wrong"), ("alice\x00", PASSWORD), ("nobody", "x")],
)
def test_a_failed_login_says_why(world, username, password):
    outcome = post(Client(), "/accounts/login/", {"username": username, "password": password})

    assert outcome.refused


def test_a_throttled_login_says_why(world):
    client = Client()
    cache.clear()
    for _ in range(5):
        post(client, "/accounts/login/", {"username": "alice", "password": "wrong"})

    outcome = post(client, "/accounts/login/", {"username": "alice", "password": PASSWORD})

    assert outcome.status == 429
    assert "Too many failed login attempts" in outcome.reason
    cache.clear()


FORMS_BY_NAME = {form.name: form for form in FORMS}
