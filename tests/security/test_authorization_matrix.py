"""Who may do what, for every URL of the site: anonymous, player, opponent, outsider, staff.

Each case gets fresh objects: a match alice (white, to move) v bob, a challenge from alice
to bob, and an API key of alice's. A refused request must change nothing. A URL added to
the site without a row here fails ``test_every_url_is_in_the_matrix``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import date, timedelta

import pytest
from django.core.cache import cache
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from django.utils import timezone

from accounts.models import ApiToken, User
from accounts.services import email_confirmation_token
from games import services
from games.models import Challenge, Match
from games.notifications import unsubscribe_token
from games.tournaments.models import Tournament
from games.tournaments.services import create_tournament, sign_up
from tests.matches import opened_by_white

pytestmark = pytest.mark.django_db

ROLES = ("anonymous", "player", "opponent", "outsider", "staff")


@dataclass(frozen=True)
class Case:
    name: str  # the URL name
    method: str
    path: str  # formatted with {match}, {challenge}, {invite}, {token}, {unsubscribe}, {verify}
    expected: dict[str, int]
    body: dict | None = None
    htmx: bool = False

    @property
    def is_api(self) -> bool:
        return self.path.startswith("/api/")


def every(code: int, **others: int) -> dict[str, int]:
    return {role: others.get(role, code) for role in ROLES}


LOGIN = 302  # login_required sends anonymous visitors to the login page
PRIVATE = every(200, anonymous=LOGIN)
PLAYERS_ONLY = every(403, anonymous=LOGIN, player=200, opponent=200)

CASES = [
    Case("home", "GET", "/", every(302, anonymous=200)),
    Case("rules", "GET", "/rules/", every(200)),
    Case("favicon", "GET", "/favicon.ico", every(302)),  # to the static file
    Case("api_docs", "GET", "/api/", every(200)),
    Case("signup", "GET", "/accounts/signup/", every(302, anonymous=200)),
    Case("login", "GET", "/accounts/login/", every(302, anonymous=200)),
    Case("logout", "POST", "/accounts/logout/", every(302)),
    # A page with a Log out button; anonymous visitors are sent home.
    Case("logout", "GET", "/accounts/logout/", every(200, anonymous=302)),
    Case("password_change", "GET", "/accounts/password/change/", PRIVATE),
    Case("password_change_done", "GET", "/accounts/password/change/done/", PRIVATE),
    Case("password_reset", "GET", "/accounts/password/reset/", every(200)),
    Case("password_reset_done", "GET", "/accounts/password/reset/sent/", every(200)),
    Case("password_reset_confirm", "GET", "/accounts/password/reset/MQ/forged-token/", every(200)),
    Case("password_reset_complete", "GET", "/accounts/password/reset/done/", every(200)),
    Case("settings", "GET", "/accounts/settings/", PRIVATE),
    Case("away_start", "POST", "/accounts/settings/away/", PRIVATE, body={}),
    Case("away_end", "POST", "/accounts/settings/away/end/", every(302)),
    Case("close_account", "GET", "/accounts/settings/close/", PRIVATE),
    Case("close_account", "POST", "/accounts/settings/close/", PRIVATE, body={"password": "x"}),
    Case("email_change", "POST", "/accounts/settings/email/", PRIVATE, body={}),
    Case("email_change_confirm", "GET", "/accounts/email/confirm/forged/", PRIVATE),
    Case("email_change_undo", "GET", "/accounts/email/undo/1/forged/", every(200)),
    Case(
        "email_verify_send", "POST", "/accounts/settings/email/verify/", every(302, anonymous=LOGIN)
    ),
    Case("email_verify", "GET", "/accounts/email/verify/forged/", every(200)),
    # The link itself is the proof (no login), but not for another player logged in: they
    # are told so, with a 200 as every unusable link is answered.
    Case("email_verify", "GET", "/accounts/email/verify/{verify}/", every(200)),
    Case("email_verify", "POST", "/accounts/email/verify/{verify}/", every(200, player=302)),
    Case("token_create", "POST", "/accounts/settings/tokens/", PRIVATE, body={}),
    # Asks first: the key's owner sees it named; anyone else is sent to their own keys, as
    # an owner whose key is gone is, and learns nothing of it.
    Case(
        "token_revoke",
        "GET",
        "/accounts/settings/tokens/{token}/revoke/",
        every(302, anonymous=LOGIN, player=200),
    ),
    Case(
        "token_revoke",
        "POST",
        "/accounts/settings/tokens/{token}/revoke/",
        every(302, anonymous=LOGIN),
    ),
    Case("dashboard", "GET", "/dashboard/", PRIVATE),
    Case("lobby", "GET", "/lobby/", every(200)),
    Case("challenge_new", "GET", "/challenges/new/", PRIVATE),
    # Someone else's challenge is answered as one that does not exist (404), not 403; its
    # players may see it, and are refused with 403 what is the other one's to do.
    Case(
        "challenge",
        "GET",
        "/challenges/{challenge}/",
        every(404, anonymous=LOGIN, player=200, opponent=200),
    ),
    # Accepting one is sent back to the lobby, saying it is no longer open (as for one
    # that never was): most often a lobby challenge someone else took a moment before.
    Case(
        "challenge_accept",
        "POST",
        "/challenges/{challenge}/accept/",
        every(302, anonymous=LOGIN, player=403),
    ),
    Case(
        "challenge_decline",
        "POST",
        "/challenges/{challenge}/decline/",
        every(404, anonymous=LOGIN, player=403, opponent=302),
    ),
    Case(
        "challenge_cancel",
        "POST",
        "/challenges/{challenge}/cancel/",
        every(404, anonymous=LOGIN, player=302, opponent=403),
    ),
    Case("invite", "GET", "/invite/{invite}/", every(200)),
    Case("match", "GET", "/matches/{match}/", every(200)),
    Case("match_history_game", "GET", "/matches/{match}/history/1/", every(200)),
    Case("match_history_game", "GET", "/matches/{match}/history/2/", every(404)),
    Case("match_click", "POST", "/matches/{match}/click/", PLAYERS_ONLY, body={"steps": ""}),
    Case(
        "match_messages",
        "POST",
        "/matches/{match}/messages/",
        every(403, anonymous=LOGIN, player=302, opponent=302),
        body={"text": "Good luck"},
    ),
    Case(
        "match_turn",
        "POST",
        "/matches/{match}/turn/",
        every(403, anonymous=LOGIN, player=200),
        body={"segment": 1, "play": "in/22 in/19"},
        htmx=True,
    ),
    Case("match_resign", "GET", "/matches/{match}/resign/", PLAYERS_ONLY),
    Case(
        "match_resign",
        "POST",
        "/matches/{match}/resign/",
        every(403, anonymous=LOGIN, player=302, opponent=302),
    ),
    Case(
        "match_rematch",
        "POST",
        "/matches/{match}/rematch/",
        every(403, anonymous=LOGIN, player=302, opponent=302),
    ),
    Case("match_export", "GET", "/matches/{match}/export.txt", every(200)),
    Case("match_export", "GET", "/matches/{match}/export.json", every(200)),
    Case("match_dice", "GET", "/matches/{match}/dice/", every(200)),
    Case("player_search", "GET", "/search/players/?q=a", every(200)),
    Case("leaderboard_default", "GET", "/leaderboard/", every(200)),
    Case("leaderboard", "GET", "/leaderboard/greek/", every(200)),
    Case("profile", "GET", "/players/alice/", every(200)),
    Case("rating_chart", "GET", "/players/alice/rating-american.svg", every(200)),
    Case("player_dice", "GET", "/players/alice/dice/", every(200)),
    # Each player blocks for themselves (bob, as "opponent", is told he cannot block himself).
    Case("player_block", "POST", "/players/bob/block/", every(302, anonymous=LOGIN)),
    Case("player_unblock", "POST", "/players/bob/unblock/", every(302, anonymous=LOGIN)),
    Case("unsubscribe", "GET", "/unsubscribe/{unsubscribe}/", every(200)),
    Case("api_match", "GET", "/api/v1/matches/{match}/", every(200, anonymous=401)),
    Case(
        "api_match_turn",
        "POST",
        "/api/v1/matches/{match}/turn/",
        every(403, anonymous=401, player=200),
        body={"segment": 1, "play": "in/22 in/19"},
    ),
    Case(
        "api_match_resign",
        "POST",
        "/api/v1/matches/{match}/resign/",
        every(403, anonymous=401, player=200, opponent=200),
        body={},
    ),
    Case("api_me", "GET", "/api/v1/me/", every(200, anonymous=401)),
    # Always the caller's own list: the URL names nobody else's to ask for.
    Case("api_me_blocks", "GET", "/api/v1/me/blocks/", every(200, anonymous=401)),
    Case("api_me_finished", "GET", "/api/v1/me/finished/", every(200, anonymous=401)),
    # Each player's own time away: none is away, so each may go, and none come back.
    Case("api_me_away", "GET", "/api/v1/me/away/", every(200, anonymous=401)),
    Case(
        "api_me_away",
        "POST",
        "/api/v1/me/away/",
        every(200, anonymous=401),
        body={"back_on": str(date.today() + timedelta(days=7))},
    ),
    Case("api_me_away_end", "POST", "/api/v1/me/away/end/", every(409, anonymous=401), body={}),
    # Alice (and Dave) have not confirmed their addresses; the others have.
    Case(
        "api_me_confirm_email",
        "POST",
        "/api/v1/me/confirm-email/",
        every(409, anonymous=401, player=202, staff=202),
        body={},
    ),
    Case(
        "api_match_messages",
        "GET",
        "/api/v1/matches/{match}/messages/",
        every(403, anonymous=401, player=200, opponent=200),
    ),
    Case(
        "api_match_messages",
        "POST",
        "/api/v1/matches/{match}/messages/",
        every(403, anonymous=401, player=201, opponent=201),
        body={"text": "Good luck"},
    ),
    Case(
        "api_challenge_accept",
        "POST",
        "/api/v1/challenges/{challenge}/accept/",
        every(404, anonymous=401, player=403, opponent=200),
        body={},
    ),
    Case(
        "api_challenge_create",
        "POST",
        "/api/v1/challenges/",
        every(201, anonymous=401),
        body={"opponent": None, "variant": "greek", "points": 1, "days_per_move": 2},
    ),
    Case("api_challenge_create", "GET", "/api/v1/challenges/", every(200, anonymous=401)),
    # Always the caller's own lists (the lobby's leaving out the caller's own challenges).
    Case(
        "api_challenges_received",
        "GET",
        "/api/v1/challenges/received/",
        every(200, anonymous=401),
    ),
    Case("api_challenges_sent", "GET", "/api/v1/challenges/sent/", every(200, anonymous=401)),
    Case("api_challenges_lobby", "GET", "/api/v1/challenges/lobby/", every(200, anonymous=401)),
    Case(
        "api_challenge",
        "GET",
        "/api/v1/challenges/{challenge}/",
        every(404, anonymous=401, player=200, opponent=200),
    ),
    Case(
        "api_challenge_decline",
        "POST",
        "/api/v1/challenges/{challenge}/decline/",
        every(404, anonymous=401, player=403, opponent=200),
        body={},
    ),
    Case(
        "api_challenge_cancel",
        "POST",
        "/api/v1/challenges/{challenge}/cancel/",
        every(404, anonymous=401, player=200, opponent=403),
        body={},
    ),
    # Each player blocks for themselves (bob, as "opponent", is refused blocking himself).
    Case(
        "api_player_block",
        "POST",
        "/api/v1/players/bob/block/",
        every(200, anonymous=401, opponent=400),
        body={},
    ),
    Case(
        "api_player_unblock",
        "POST",
        "/api/v1/players/bob/unblock/",
        every(200, anonymous=401),
        body={},
    ),
    Case("api_not_found", "GET", "/api/v1/nothing-here/", every(404)),
    Case("api_without_slash", "POST", "/api/v1", every(404), body={}),
    # Where the reference is, to anyone (no key needed to learn that).
    Case("api_root", "GET", "/api/v1/", every(200)),
    Case("tournament_list", "GET", "/tournaments/", every(200)),
    Case("tournament_new", "GET", "/tournaments/new/", PRIVATE),
    Case("tournaments_finished", "GET", "/tournaments/finished/?player=alice", every(200)),
    Case("tournaments_cancelled", "GET", "/tournaments/cancelled/", every(200)),
    Case("tournament", "GET", "/tournaments/{tournament}/", every(200)),
    Case("tournament_sign_up", "POST", "/tournaments/{tournament}/sign-up/", every(302)),
    Case("tournament_withdraw", "POST", "/tournaments/{tournament}/withdraw/", every(302)),
    Case(
        "tournament_start",
        "POST",
        "/tournaments/{tournament}/start/",
        every(403, anonymous=LOGIN, player=302),
    ),
    Case(
        "tournament_cancel",
        "POST",
        "/tournaments/{tournament}/cancel/",
        every(403, anonymous=LOGIN, player=302),
    ),
    Case(
        "tournament_add_bot",
        "POST",
        "/tournaments/{tournament}/add-bot/",
        every(403, anonymous=LOGIN, player=302),
    ),
    Case(
        "tournament_remove_bot",
        "POST",
        "/tournaments/{tournament}/remove-bot/",
        every(403, anonymous=LOGIN, player=302),
    ),
]


@pytest.fixture
def people(django_user_model, alice, bob, charlie):
    dave = django_user_model.objects.create_user("dave", "dave@example.com", is_staff=True)
    return {"anonymous": None, "player": alice, "opponent": bob, "outsider": charlie, "staff": dave}


@pytest.fixture
def objects(people):
    # The limits on links sent again count in the cache, for an hour: not across cases.
    cache.clear()
    alice, bob = people["player"], people["opponent"]
    match = opened_by_white(alice, bob)
    challenge = services.create_challenge(alice, opponent=bob)
    token, _ = ApiToken.issue(alice, "matrix")
    # Alice has not confirmed her address yet: the link sent to her works.
    User.objects.filter(pk=alice.pk).update(email_confirmed_at=None)
    alice.refresh_from_db()
    tournament = create_tournament(
        alice,
        name="Matrix cup",
        signup_deadline=timezone.now() + timedelta(days=1),
        min_players=2,
    )
    sign_up(tournament.pk, user=alice)
    sign_up(tournament.pk, user=bob)
    return {
        "tournament": tournament.pk,
        "match": match.pk,
        "challenge": challenge.pk,
        "invite": challenge.invite_token,
        "token": token.pk,
        "unsubscribe": unsubscribe_token(alice),
        "verify": email_confirmation_token(alice),
    }


def _request(client, case: Case, path: str):
    if case.method == "GET":
        return client.get(path)
    headers = {"HTTP_HX_REQUEST": "true"} if case.htmx else {}
    if case.is_api:
        return client.post(path, json.dumps(case.body or {}), content_type="application/json")
    return client.post(path, case.body or {}, **headers)


def _state(objects) -> tuple:
    match = Match.objects.get(pk=objects["match"])
    challenge = Challenge.objects.get(pk=objects["challenge"])
    tournament = Tournament.objects.get(pk=objects["tournament"])
    entries = sorted(tournament.entries.values_list("user_id", "withdrawn"))
    return (
        match.segment_count,
        match.status,
        match.position,
        challenge.status,
        tournament.status,
        entries,
    )


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("case", CASES, ids=[f"{c.method} {c.name}" for c in CASES])
def test_it_allows_and_refuses_as_the_matrix_says(client, people, objects, case, role):
    if people[role] is not None:
        client.force_login(people[role])
    before = _state(objects)

    response = _request(client, case, case.path.format(**objects))

    if case.htmx and case.expected[role] == LOGIN:
        # HTMX is told to load the login page as a page (aceysite.middleware), not redirected.
        assert response.status_code == 200
        assert response["HX-Redirect"].startswith(reverse("login") + "?next=")
    else:
        assert response.status_code == case.expected[role], response.content[:300]
    if case.method == "POST" and response.status_code in (401, 403, 404):
        assert _state(objects) == before  # a refused request changes nothing


@pytest.mark.parametrize("role", ROLES)
def test_no_page_tells_anyone_the_seed_of_the_match_in_play(client, people, objects, role):
    # The seed decides every roll still to come (games.dice): until the match ends, no page,
    # export or API answer may hold it, whoever asks (the admin: tests/games/test_admin.py).
    if people[role] is not None:
        client.force_login(people[role])
    seed = Match.objects.get(pk=objects["match"]).server_seed

    told = [
        case.path
        for case in CASES
        if case.method == "GET"
        and seed in _request(client, case, case.path.format(**objects)).content.decode()
    ]

    assert told == []


def _url_names(patterns, prefix="") -> set[str]:
    names = set()
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            if str(pattern.pattern).startswith("admin"):
                continue  # Django's admin has its own staff-only checks
            names |= _url_names(pattern.url_patterns)
        elif isinstance(pattern, URLPattern) and pattern.name:
            names.add(pattern.name)
    return names


def test_every_url_is_in_the_matrix():
    covered = {case.name for case in CASES}

    assert _url_names(get_resolver().url_patterns) - covered == set()
