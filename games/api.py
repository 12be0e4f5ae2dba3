"""The JSON API under /api/v1/: challenges, match state and turns, for bots and scripts.

A request authenticates either with ``Authorization: Token <key>`` (an
:class:`accounts.models.ApiToken`) or with the browser session. Token requests are exempt
from CSRF, since a browser never adds that header on its own; session POSTs are checked as
CsrfViewMiddleware would check them. Every failure is ``{"error": "<readable reason>"}``
with a 4xx status. Writes go through :mod:`games.services`, which also checks whose turn it
is and rejects stale or duplicate submissions (409). Any POST may carry an
``Idempotency-Key`` header (games.idempotency): sent again with it, it gets its first answer
and is not done again.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from datetime import UTC
from functools import cache, wraps
from operator import attrgetter
from typing import Any
from urllib.parse import urlencode

from django.conf import settings
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.middleware.csrf import CsrfViewMiddleware, get_token
from django.urls import reverse
from django.views.decorators.csrf import csrf_exempt

from accounts import services as accounts
from accounts import throttle
from accounts.forms import AwayForm
from accounts.models import ApiToken, User
from accounts.services import player_named, username_holder
from aceysite.sql import Table, fetch_one, fits_key, select_list

from . import away, blocks, chat, idempotency, services
from .engine import format_play
from .engine.game import Phase
from .forms import MAX_WHOLE_NUMBER, whole_number
from .models import (
    DAYS_PER_MOVE,
    MATCH_LENGTHS,
    Challenge,
    Match,
    Message,
    Segment,
)

MAX_BODY = 64 * 1024
MAX_PLAY_LENGTH = 200
MAX_INT = MAX_WHOLE_NUMBER  # larger numbers are never a valid segment, id or option
MAX_MESSAGES = 100  # in one answer of the messages endpoint; ?after= pages on
FINISHED_PER_PAGE = 20  # finished matches in me/ and in each page of me/finished/
CHALLENGES_PER_PAGE = 50  # in each list of challenges/, and each page of one

JsonObject = dict[str, Any]


class ApiError(Exception):
    """A request the API refuses: ``status`` and a reason the caller can read."""

    def __init__(
        self,
        code: int,
        message: str,
        headers: dict[str, str] | None = None,
        **fields: Any,
    ):
        super().__init__(message)
        self.status = code
        self.headers = headers or {}
        self.fields = fields

    def response(self) -> JsonResponse:
        return _error(self.status, str(self), self.headers, **self.fields)


def _error(
    code: int, message: str, headers: dict[str, str] | None = None, **fields: Any
) -> JsonResponse:
    """The API's refusal: ``{"error": message}``, and any ``fields`` a client can act on."""
    return JsonResponse({"error": message, **fields}, status=code, headers=headers)


# -- authentication, CSRF, bodies ------------------------------------------------------------


class _CsrfCheck(CsrfViewMiddleware):
    """CsrfViewMiddleware's checks, answering a failure in JSON rather than an HTML page."""

    def _reject(self, request: HttpRequest, reason: str) -> JsonResponse:
        return _error(
            403,
            f"CSRF check failed ({reason}): send the csrftoken cookie's value in an"
            " X-CSRFToken header, or authenticate with 'Authorization: Token <key>'",
        )


_csrf_check = _CsrfCheck(lambda request: HttpResponse())


def _authenticate(request: HttpRequest) -> bool:
    """Set ``request.user``; return whether the request came with a token (so no CSRF)."""
    header = request.headers.get("Authorization")
    if header is None:
        if not request.user.is_authenticated:
            raise ApiError(
                401,
                "log in, or send your API key as 'Authorization: Token <key>'",
                {"WWW-Authenticate": "Token"},
            )
        return False
    scheme, _, key = header.strip().partition(" ")
    if scheme.lower() != "token" or not key.strip():
        raise ApiError(
            401, "send your API key as 'Authorization: Token <key>'", {"WWW-Authenticate": "Token"}
        )
    user = ApiToken.user_for_key(key.strip())
    if user is None:
        raise ApiError(401, "that API key is not valid", {"WWW-Authenticate": "Token"})
    request.user = user
    return True


def _body_bytes(request: HttpRequest) -> bytes:
    """The body as sent, at most MAX_BODY bytes of it (413 beyond)."""
    too_large = ApiError(413, f"the body is larger than {MAX_BODY // 1024} KiB")
    if "HTTP_TRANSFER_ENCODING" in request.META and "wsgi.input" in request.META:
        return _body_in_chunks(request, too_large)
    try:
        length = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        raise ApiError(400, "the Content-Length header is not a number") from None
    if length > MAX_BODY:
        raise too_large
    return request.body


def _body_in_chunks(request: HttpRequest, too_large: ApiError) -> bytes:
    # A body sent in chunks has no Content-Length, and Django's WSGI request reads only
    # Content-Length bytes of one: none, so that a turn would pass for an empty body. A
    # server whose wsgi.input ends where the body does says so with wsgi.input_terminated
    # (gunicorn, the site's web process): the body is then read to its end. Any other
    # (runserver's waits for bytes that never come) cannot be read that way: refused.
    if not request.META.get("wsgi.input_terminated"):
        raise ApiError(
            411,
            "send the body with a Content-Length header: this server cannot read a body"
            " sent in chunks (Transfer-Encoding: chunked)",
        )
    try:
        body = request.META["wsgi.input"].read(MAX_BODY + 1)
    except Exception:  # the server's own errors (gunicorn's InvalidChunkSize, say)
        # A chunk size that is no number, a body cut off: the client's fault, not a 500.
        raise ApiError(400, "the body sent in chunks is malformed or cut off") from None
    if len(body) > MAX_BODY:
        raise too_large
    return body


def _read_body(request: HttpRequest, fields: frozenset[str]) -> JsonObject:
    """The JSON object sent, holding only ``fields``; an empty body reads as ``{}``."""
    body = _body_bytes(request)
    if not body:
        # Nothing sent, whatever the type says: curl -X POST and many HTTP libraries label
        # an empty body as a form or as text.
        return {}
    if request.content_type != "application/json":
        raise ApiError(415, "send the body as JSON, with 'Content-Type: application/json'")
    try:
        data = json.loads(body, object_pairs_hook=_object_without_repeats)
    except _RepeatedKey as repeated:
        raise ApiError(400, f"the field {_quote(repeated.key)} is sent twice") from None
    except (ValueError, RecursionError) as error:
        raise ApiError(400, f"the body is not valid JSON: {error}") from None
    if not isinstance(data, dict):
        raise ApiError(400, 'the body must be a JSON object, e.g. {"segment": 3, ...}')
    unknown = sorted(set(data) - fields)
    if unknown:
        expected = ", ".join(sorted(fields)) or "no fields"
        raise ApiError(400, f"unknown field {_quote(unknown[0])}: this endpoint takes {expected}")
    return data


class _RepeatedKey(Exception):
    def __init__(self, key: str) -> None:
        self.key = key


def _object_without_repeats(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    # json.loads keeps the last of two equal keys; another parser (a proxy, a client's
    # own log) may keep the first, so {"segment": 3, "segment": 4} has no one meaning.
    data: dict[str, Any] = {}
    for key, value in pairs:
        if key in data:
            raise _RepeatedKey(key)
        data[key] = value
    return data


def _quote(text: str, limit: int = 30) -> str:
    """``text`` in double quotes for a refusal, shortened so a huge input cannot flood it:
    as typed ("Νίκος", not "\\u039d..."), but for what would not show as itself (control
    characters, the marks that turn text around, a lone surrogate), escaped as JSON
    escapes it, as the engine's notation errors escape it (repr)."""
    shown = json.dumps(text if len(text) <= limit else text[:limit] + "...", ensure_ascii=False)
    return "".join(char if char.isprintable() else json.dumps(char)[1:-1] for char in shown)


View = Callable[..., JsonResponse]


def _api_view(method: str, view: View, fields: frozenset[str] | None) -> View:
    @csrf_exempt  # token requests need none; session requests are checked below
    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        # HEAD is a GET whose body the server leaves out (monitors, link checkers).
        if request.method != method and not (method == "GET" and request.method == "HEAD"):
            allow = "GET, HEAD" if method == "GET" else method
            return _error(405, f"use {method} here, not {request.method}", {"Allow": allow})
        try:
            by_token = _authenticate(request)
            if fields is not None:
                # Before the CSRF check, which reads request.POST: once anything but JSON
                # is refused, that never parses a form or multipart body.
                kwargs["body"] = _read_body(request, fields)
            if not by_token:
                get_token(request)  # so a session script can read the csrftoken cookie
                rejected = _csrf_check.process_view(request, None, (), {})
                if rejected is not None:
                    return rejected
            key = _idempotency_key(request) if method == "POST" else None
        except ApiError as error:
            return error.response()
        if key is None:
            return _answer(view, request, *args, **kwargs)
        digest = idempotency.request_digest(
            request.method or "", request.get_full_path(), kwargs.get("body")
        )
        try:
            return idempotency.answer_once(
                request.user,
                key=key,
                digest=digest,
                respond=lambda: _answer(view, request, *args, **kwargs),
            )
        except idempotency.KeyReused:
            return _error(
                422,
                f"this {idempotency.HEADER} came before with another request (another address"
                " or body): send a new key with each new request, and the same key only with"
                " the same request sent again",
            )

    return wrapper


def _answer(view: View, request: HttpRequest, *args: Any, **kwargs: Any) -> JsonResponse:
    """The view's answer, or the refusal it raised, as JSON."""
    try:
        return view(request, *args, **kwargs)
    except ApiError as error:
        return error.response()
    except services.StillAway as away_refusal:
        # A program comes back through the API, not the settings page the message names.
        way_back = f"POST {reverse('api_me_away_end')}"
        return _error(away_refusal.status, f"{away_refusal.reason} ({way_back})")
    except services.TurnError as error:
        retry_after = getattr(error, "retry_after", None)  # a limit reached (429)
        headers = {"Retry-After": str(retry_after)} if retry_after else None
        return _error(error.status, str(error), headers)
    except Match.DoesNotExist:
        return _error(404, "there is no such match")
    except Challenge.DoesNotExist:
        return _error(404, "there is no such challenge")


def _idempotency_key(request: HttpRequest) -> str | None:
    """The ``Idempotency-Key`` header's key (games.idempotency), or None without one."""
    raw = request.headers.get(idempotency.HEADER)
    if raw is None:
        return None
    try:
        return idempotency.checked_key(raw)
    except idempotency.KeyRefused as refused:
        raise ApiError(400, f"the {idempotency.HEADER} header is not valid: {refused}") from None


def _read_or_write(request: HttpRequest, read: View, write: View, *args: Any) -> HttpResponse:
    """One address for two endpoints: ``read`` answers GET (and HEAD), ``write`` POST."""
    if request.method not in ("GET", "HEAD", "POST"):
        allow = {"Allow": "GET, HEAD, POST"}
        return _error(405, f"use GET or POST here, not {request.method}", allow)
    view = write if request.method == "POST" else read
    return view(request, *args)


def api_get(view: View) -> View:
    """An authenticated GET endpoint."""
    return _api_view("GET", view, None)


def api_post(*fields: str) -> Callable[[View], View]:
    """An authenticated POST endpoint taking a JSON object of ``fields`` as ``body``."""

    def decorator(view: View) -> View:
        return _api_view("POST", view, frozenset(fields))

    return decorator


# -- reading fields --------------------------------------------------------------------------


def _int(
    body: JsonObject,
    name: str,
    *,
    low: int = 1,
    high: int = MAX_INT,
    choices: Sequence[int] = (),
    required: bool = False,
) -> int | None:
    """The whole number ``body[name]``: from ``low`` to ``high``, or one of ``choices``
    when they are given (the error then lists them, whatever was wrong: ``"1"`` and
    ``1.0`` are refused, as JSON that is not a whole number)."""
    value = body.get(name)
    if value is None:
        if required:
            raise ApiError(400, f"{name} is required")
        return None
    whole = isinstance(value, int) and not isinstance(value, bool)
    if choices:
        if not whole or value not in choices:
            listed = ", ".join(map(str, choices))
            raise ApiError(400, f"{name} must be one of {listed}, as a JSON whole number")
    elif not whole or not low <= value <= high:
        raise ApiError(400, f"{name} must be a whole number from {low} to {high}")
    return value


def _str(body: JsonObject, name: str, *, max_length: int, required: bool = False) -> str | None:
    value = body.get(name)
    if value is None:
        if required:
            raise ApiError(400, f"{name} is required")
        return None
    if not isinstance(value, str):
        raise ApiError(400, f"{name} must be a string")
    if len(value) > max_length:
        raise ApiError(400, f"{name} is too long (at most {max_length} characters)")
    # PostgreSQL cannot hold a NUL, and an unpaired surrogate (JSON allows "\ud800") is
    # not UTF-8: either would fail in a query, or in constant_time_compare, as a 500.
    if "\x00" in value or _has_lone_surrogate(value):
        raise ApiError(400, f"{name} holds a character that is not text (NUL or a lone surrogate)")
    return value


def _has_lone_surrogate(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def _bool(body: JsonObject, name: str, *, default: bool) -> bool:
    """The true or false of field ``name``; ``default`` when it is null or left out (as
    for every field that may be left out: an opponent null is the lobby)."""
    value = body.get(name)
    if value is None:
        return default
    if not isinstance(value, bool):
        raise ApiError(400, f"{name} must be true or false")
    return value


def _query_number(
    request: HttpRequest, name: str, *, refusal: str, above_as_maximum: bool = False
) -> int | None:
    """The whole number of the query parameter ``name``, or None without one; anything
    else is refused (400) with ``refusal``, saying what it should be, and what it was.
    ``above_as_maximum``: see :func:`whole_number`."""
    raw = request.GET.get(name)
    if raw is None:
        return None
    number = whole_number(raw, above_as_maximum=above_as_maximum)
    if number is None:
        raise ApiError(400, f"{refusal}, not {_quote(raw)}")
    return number


def first_of[T](rows: QuerySet[Any, T], size: int) -> tuple[list[T], bool]:
    """The first ``size`` of ``rows``, and whether more follow: one more is read to tell,
    rather than all of them counted (a page of the lobby, or of the API's lists)."""
    found = list(rows[: size + 1])
    return found[:size], len(found) > size


def _page_url(request: HttpRequest, url_name: str, **query: int) -> str:
    """The full address of the endpoint ``url_name`` with ``query``: a next page's."""
    return request.build_absolute_uri(f"{reverse(url_name)}?{urlencode(query)}")


def _get_match(match_id: int) -> Match:
    """The match with its players (``select_related("white", "black")``), or a 404.

    In SQL written once (aceysite.sql): it is what a client or a bot polling a match asks
    for every few seconds (a state read cost 4.7 ms of CPU with the ORM's query, 2.0 ms
    with this one), and what a refused turn answers with.
    """
    found = fits_key(Match, match_id) and fetch_one(*_match_statement(), [match_id])
    if not found:
        raise ApiError(404, f"there is no match #{match_id}")
    match, white, black = found
    assert isinstance(match, Match)
    match.white, match.black = white, black
    return match


@cache
def _match_statement() -> tuple[tuple[Table, ...], str]:
    tables = match, white, black = Table(Match, "m"), Table(User, "w"), Table(User, "b")
    sql = (
        f"SELECT {select_list(tables)} FROM {match}"
        f" JOIN {white} ON {white.column('id')} = {match.column('white')}"
        f" JOIN {black} ON {black.column('id')} = {match.column('black')}"
        f" WHERE {match.column('id')} = %s"
    )
    return tables, sql


# -- match state -----------------------------------------------------------------------------


def _since(request: HttpRequest) -> int:
    """The ``?since=<n>`` query parameter: the history segments the client already has."""
    raw = request.GET.get("since")
    if raw is None:
        return 0
    since = whole_number(raw, above_as_maximum=True)  # any number past the last: none
    if since is None:
        raise ApiError(400, f"since must be a segment number, not {_quote(raw)}")
    return since


def match_state(match: Match, *, since: int = 0, fresh: list[Segment] | None = None) -> JsonObject:
    """Everything a client needs to show or play ``match`` (two queries: match, history).

    ``match`` must come with ``white`` and ``black`` loaded (see :func:`_get_match`).
    ``history`` holds the segments numbered above ``since`` (all of them by default): a
    client that keeps the history asks only for what it has not seen, and a long match
    costs no more to play than a short one. ``fresh``: the last segments of the match,
    just stored; when they hold all the history asked for, it is not read again.
    """
    usernames = {match.white_id: match.white.username, match.black_id: match.black.username}
    state: JsonObject = {
        "id": match.pk,
        "variant": match.variant,
        "points": match.points,
        "status": match.status,
        "players": {"white": match.white.username, "black": match.black.username},
        "score": match.score,
        "winner": usernames.get(match.winner_id),
        "to_move": usernames.get(match.to_move_id),
        "phase": match.phase,
        # How the match ended (borne_off, resignation, timeout); null while in play.
        "ending": match.ending or None,
        "game": match.game_number,
        "segment": match.segment_count,
        "dice": list(match.dice) if match.is_active and match.dice else None,
        "position": match.position,
        "legal_plays": [],
        "blots_to_name": None,
        "allowed_doubles": None,
        "deadline": match.deadline.isoformat() if match.deadline else None,
        # Players taking time away (games.away), with when they are back.
        "away_until": {
            color: player.away_until.isoformat()
            for color, player in (("white", match.white), ("black", match.black))
            if player.is_away() and player.away_until
        },
        "history": _history(match, since, fresh or ()),
        # Fair dice (games.dice): the seed's SHA-256 from the start, the seed itself once
        # the match is over, to recompute every roll (the dice page gives the formula).
        "seed_sha256": match.seed_hash,
        "seed": match.revealed_seed,
        "dice_url": reverse("match_dice", args=[match.pk]),
    }
    if match.is_active:
        game = services.load_game(match)
        plays = game.legal_plays()
        state["legal_plays"] = texts = [format_play(play) for play in plays]
        if game.may_name_blot:
            # Which blots each play would let a greek player name (R8.1), in their own
            # numbers: else a bot must move the checkers itself to know.
            state["blots_to_name"] = {
                text: play.blots_left() for text, play in zip(texts, plays, strict=True)
            }
        if game.phase is Phase.NAME_DOUBLE:
            state["allowed_doubles"] = game.allowed_doubles()
    return state


_PLAYED_KINDS = {Segment.Kind.ROLL, Segment.Kind.ACEY_DEUCEY, Segment.Kind.NAMED_DOUBLE}
_HISTORY_FIELDS = ("number", "game_number", "kind", "player", "dice", "play", "named_blot")
_history_row = attrgetter(*_HISTORY_FIELDS)  # the same fields from a Segment just stored


def _history(match: Match, since: int = 0, fresh: Sequence[Segment] = ()) -> list[JsonObject]:
    """The stored segments numbered above ``since``, oldest first. ``play`` is ``""`` for a
    dance and ``null`` for an opening roll or a named double, which are not plays.

    ``fresh`` are the match's last segments, just stored, oldest first: when the client
    has everything before them (the usual turn), the history is taken from them.
    """
    if since >= match.segment_count:
        return []  # nothing new: no query
    if fresh and fresh[0].number <= since + 1 and fresh[-1].number == match.segment_count:
        rows = [_history_row(s) for s in fresh if s.number > since]
    else:
        rows = (
            # Not beyond the match row's count: the state is drawn from that row.
            Segment.objects.filter(match=match, number__gt=since, number__lte=match.segment_count)
            .order_by("number")
            .values_list(*_HISTORY_FIELDS)
        )
    return [
        {
            "number": number,
            "game": game,
            "kind": kind,
            "player": player or None,
            "dice": dice,
            "play": play if kind in _PLAYED_KINDS else None,
            "named_blot": named_blot,
        }
        for number, game, kind, player, dice, play, named_blot in rows
    ]


# -- endpoints -------------------------------------------------------------------------------


@api_post("opponent", "variant", "points", "days_per_move", "private", "rated")
def challenge_create(request: HttpRequest, body: JsonObject) -> JsonResponse:
    """Challenge a player (``opponent``), the lobby (``null``), or a friend by invite link
    (``"private": true``, no opponent)."""
    username = _str(body, "opponent", max_length=150)
    variant = _str(body, "variant", max_length=20, required=True)
    points = _int(body, "points", choices=MATCH_LENGTHS, required=True)
    days_per_move = _int(body, "days_per_move", choices=DAYS_PER_MOVE, required=True)
    private = _bool(body, "private", default=False)
    rated = _bool(body, "rated", default=True)
    opponent = None
    if username is not None:
        # A closed account too, as its name reads: create_challenge refuses it saying it is
        # closed (as blocking it does), not as a name nobody has.
        opponent = player_named(username) or username_holder(username)
        if opponent is None:
            raise ApiError(400, f"there is no player called {_quote(username)}")
        if private:
            raise ApiError(400, "a private challenge is for an invite link: leave opponent null")
    assert variant is not None and points is not None and days_per_move is not None
    try:
        challenge = services.create_challenge(
            request.user,
            opponent=opponent,
            variant=variant,
            points=points,
            days_per_move=days_per_move,
            private=private,
            rated=rated,
        )
    except services.SameChallengeWaiting as same:
        # A retry after a lost answer learns the challenge its first copy made.
        waiting = same.challenge
        url = request.build_absolute_uri(waiting.get_absolute_url())
        raise ApiError(409, str(same), id=waiting.pk, url=url) from None
    answer = {
        "id": challenge.pk,
        "url": request.build_absolute_uri(challenge.get_absolute_url()),
        # The link to send a friend: a private challenge's only way in.
        "invite_url": (
            request.build_absolute_uri(challenge.invite_path()) if challenge.private else None
        ),
    }
    if challenge.match_id is not None:
        answer["match"] = challenge.match_id  # a bot accepts at once
    return JsonResponse(answer, status=201)


def _invite_url(request: HttpRequest, challenge: Challenge, status: str) -> str | None:
    """A private challenge's invite link, to its challenger alone (as its web page shows
    it), who may have lost the one its creation answered with; None otherwise. Anyone
    else holding it could accept the challenge meant for the friend it was sent to.
    ``status`` is its :attr:`~Challenge.current_status`: once it no longer waits (expired,
    withdrawn or accepted) the link lets nobody in, and is not given."""
    if not challenge.private or challenge.challenger_id != request.user.pk:
        return None
    if status != Challenge.Status.OPEN:
        return None
    return request.build_absolute_uri(challenge.invite_path())


def _challenge(request: HttpRequest, challenge: Challenge) -> JsonObject:
    """A challenge as the API shows it to the requester (``challenger`` and ``opponent``
    loaded)."""
    status = challenge.current_status
    expires_at = challenge.expires_at if status == Challenge.Status.OPEN else None
    return {
        "id": challenge.pk,
        "challenger": challenge.challenger.username,
        "opponent": challenge.opponent.username if challenge.opponent else None,
        "private": challenge.private,
        "variant": challenge.variant,
        "points": challenge.points,
        "days_per_move": challenge.days_per_move,
        "rated": challenge.rated,
        # Expired once its days are past, before the hourly sweep has marked it so too.
        "status": status,
        "match": challenge.match_id,
        "created_at": challenge.created_at.isoformat(),
        # When it expires unanswered (models.CHALLENGE_DAYS); null once settled.
        "expires_at": expires_at.isoformat() if expires_at else None,
        "invite_url": _invite_url(request, challenge, status),
    }


def _open_challenges(user: User) -> dict[str, QuerySet[Challenge]]:
    """The lists of open challenges the API shows ``user``, by name, oldest first: to
    them, from them, and others' in the lobby (but for players blocked either way)."""
    loaded = Challenge.objects.select_related("challenger", "opponent").order_by("pk")
    return {
        "received": loaded.addressed_to(user),
        "sent": loaded.issued_by(user),
        "lobby": loaded.open_in_lobby().exclude(challenger=user).apart_from(user),
    }


def _challenge_page(
    challenges: QuerySet[Challenge], *, after: int = 0
) -> tuple[list[Challenge], bool]:
    """The first CHALLENGES_PER_PAGE of ``challenges`` numbered above ``after``, and
    whether more wait. Any number will do for ``after``, not only an open challenge's:
    the last of a page may have been accepted or withdrawn since it was read."""
    return first_of(challenges.filter(pk__gt=after), CHALLENGES_PER_PAGE)


def _challenges_next(
    request: HttpRequest, name: str, page: list[Challenge], more: bool
) -> str | None:
    """The address of the page of the list ``name`` after ``page``, or None at its end."""
    return _page_url(request, f"api_challenges_{name}", after=page[-1].pk) if more else None


@api_get
def _challenges_list(request: HttpRequest) -> JsonResponse:
    answer: JsonObject = {}
    links: dict[str, str | None] = {}
    for name, challenges in _open_challenges(request.user).items():
        page, more = _challenge_page(challenges)
        answer[name] = [_challenge(request, c) for c in page]
        links[name] = _challenges_next(request, name, page, more)
    return JsonResponse({**answer, "next": links})


@api_get
def challenges_page(request: HttpRequest, name: str) -> JsonResponse:
    """One page of one list of open challenges (``name``: received, sent or lobby), oldest
    first: ``?after=<challenge id>``, those after that one (the last of the page before)."""
    after = (
        _query_number(
            request, "after", refusal="after must be a challenge id", above_as_maximum=True
        )
        or 0
    )
    page, more = _challenge_page(_open_challenges(request.user)[name], after=after)
    return JsonResponse(
        {
            name: [_challenge(request, c) for c in page],
            "more": more,
            "next": _challenges_next(request, name, page, more),
        }
    )


@csrf_exempt  # each method's view below does its own checks
def challenges(request: HttpRequest) -> HttpResponse:
    """GET: the open challenges to me, from me, and in the lobby (oldest first), a page of
    each with the address of the next; POST: make one (:func:`challenge_create`)."""
    return _read_or_write(request, _challenges_list, challenge_create)


def _visible_challenge(request: HttpRequest, challenge_id: int) -> Challenge:
    """The challenge if the user may see it: one of its two players, or anyone while it
    waits in the lobby. Otherwise 404, not 403: whether someone else's challenge (a
    private invite, say) exists is theirs to know."""
    challenge = (
        Challenge.objects.select_related("challenger", "opponent").filter(pk=challenge_id).first()
    )
    if challenge is None or not challenge.is_visible_to(request.user):
        raise ApiError(404, f"there is no challenge #{challenge_id}")
    return challenge


@api_get
def challenge_detail(request: HttpRequest, challenge_id: int) -> JsonResponse:
    """One challenge, to its two players, or to anyone while it is open in the lobby."""
    return JsonResponse(_challenge(request, _visible_challenge(request, challenge_id)))


@api_post()
def challenge_decline(request: HttpRequest, challenge_id: int, body: JsonObject) -> JsonResponse:
    """The player a challenge is addressed to turns it down."""
    challenge = _visible_challenge(request, challenge_id)
    return _answer_with(request, services.decline_challenge(challenge.pk, user=request.user))


@api_post()
def challenge_cancel(request: HttpRequest, challenge_id: int, body: JsonObject) -> JsonResponse:
    """The challenger withdraws a challenge nobody has accepted."""
    challenge = _visible_challenge(request, challenge_id)
    return _answer_with(request, services.cancel_challenge(challenge.pk, user=request.user))


def _answer_with(request: HttpRequest, challenge: Challenge) -> JsonResponse:
    loaded = Challenge.objects.select_related("challenger", "opponent").get(pk=challenge.pk)
    return JsonResponse(_challenge(request, loaded))


def _no_challenge_to_accept(challenge_id: int) -> ApiError:
    # As its detail answers, whatever its status: someone else's challenge is not this
    # caller's to know of. (A lobby challenge that someone else took is theirs now too.)
    return ApiError(
        404,
        f"there is no challenge #{challenge_id} for you to accept: none by that number,"
        " or it is someone else's (as a lobby challenge is once it no longer waits: taken by"
        " another player, withdrawn or expired)",
    )


@api_post("token")
def challenge_accept(request: HttpRequest, challenge_id: int, body: JsonObject) -> JsonResponse:
    """Accept a challenge; a private one needs its invite token as ``token``."""
    user = request.user
    token = _str(body, "token", max_length=100) or ""
    challenge = Challenge.objects.filter(pk=challenge_id).first()
    if challenge is None or not challenge.is_visible_to(user, invite_token=token):
        raise _no_challenge_to_accept(challenge_id)
    try:
        match = services.accept_challenge(challenge.pk, user=user, invite_token=token)
    except services.ChallengeGone:
        raise _no_challenge_to_accept(challenge_id) from None
    except services.StaleSegment as refused:
        challenge.refresh_from_db()
        taken = challenge.match
        if taken is not None and taken.is_player(user):
            # An accept sent again (its answer lost), or its challenger's: the match it
            # started is theirs.
            raise ApiError(409, str(refused), match=taken.pk) from None
        raise
    return JsonResponse({"match": match.pk})


@api_get
def match_detail(request: HttpRequest, match_id: int) -> JsonResponse:
    """A match's state; any signed-in user may read any match. ``?since=<n>``: only the
    history after segment n."""
    since = _since(request)
    match = _get_match(match_id)
    if services.end_if_time_ran_out(match):  # as the match page ends it
        match = _get_match(match_id)
    return JsonResponse(match_state(match, since=since))


@api_post("segment", "play", "double", "name_blot")
def match_turn(request: HttpRequest, match_id: int, body: JsonObject) -> JsonResponse:
    """Play the current segment (``play``) or name a double after a 1-2 (``double``);
    answer with the new state (``?since=<n>``: only the history after segment n)."""
    since = _since(request)
    segment = _int(body, "segment", low=0, high=MAX_INT, required=True)
    play = _str(body, "play", max_length=MAX_PLAY_LENGTH)
    double = _int(body, "double", low=1, high=6)
    name_blot = _int(body, "name_blot", low=1, high=24)
    if (play is None) == (double is None):
        raise ApiError(
            400, 'send either a play ({"play": "13/7 8/7"}) or a named double ({"double": 6})'
        )
    assert segment is not None
    action = services.TurnAction(segment=segment, play=play, double=double, name_blot=name_blot)
    stored: list[Segment] = []
    try:
        match = services.submit_segment(match_id, user=request.user, action=action, stored=stored)
    except Match.DoesNotExist:
        raise ApiError(404, f"there is no match #{match_id}") from None
    except services.StaleSegment as stale:
        # A client needs to know which: its own turn sent again (its first answer lost on
        # the way), played once, or a turn that came too late. Both stay 409, as a
        # duplicate is; the number to send now comes with either.
        match = _get_match(match_id)
        if services.already_played(match_id, user=request.user, action=action):
            raise ApiError(
                409,
                f"this turn was played already (sent with segment {segment}): it counts once",
                segment=match.segment_count,
                already_played=True,
                status=match.status,
            ) from None
        # status: a finished match takes no more turns, whatever the segment.
        raise ApiError(
            409,
            str(stale),
            segment=match.segment_count,
            already_played=False,
            status=match.status,
        ) from None
    # The service's match row is the one it saved, with both players loaded, and the
    # segments it stored are the history a client that sent ?since=<segment> lacks.
    return JsonResponse(match_state(match, since=since, fresh=stored))


@api_post()
def match_resign(request: HttpRequest, match_id: int, body: JsonObject) -> JsonResponse:
    """Resign the whole match (R9)."""
    match = _get_match(match_id)
    try:
        services.resign(match.pk, user=request.user)
    except services.StaleSegment as stale:
        # As a turn's 409 says: whether the match is over (it is, whoever resigned late).
        raise ApiError(409, str(stale), status=_get_match(match.pk).status) from None
    return JsonResponse(match_state(_get_match(match.pk)))


def _message(message: Message) -> JsonObject:
    return {
        "id": message.pk,
        "author": message.author.username,
        "text": message.text,
        "created_at": message.created_at.isoformat(),
    }


def _players_match(request: HttpRequest, match_id: int) -> Match:
    match = _get_match(match_id)
    if not match.is_player(request.user):
        raise ApiError(403, "only the match's two players read and write its messages")
    return match


@api_get
def _messages_read(request: HttpRequest, match_id: int) -> JsonResponse:
    match = _players_match(request, match_id)
    raw = request.GET.get("after", "0")
    after = whole_number(raw, above_as_maximum=True)
    if after is None:
        raise ApiError(400, f"after must be a message id, not {_quote(raw)}")
    conversation = chat.conversation(match, request.user, after=after, limit=MAX_MESSAGES)
    assert conversation is not None  # a player's
    if request.method == "GET":  # not a HEAD: that reads nothing
        chat.mark_read(match, request.user, conversation.last_id)
    return JsonResponse(
        {
            "messages": [_message(m) for m in conversation.messages],
            # Newer ones wait: ask again with ?after= the last id here.
            "more": conversation.more,
            "can_write": conversation.can_write,
            "closed_because": conversation.closed_because or None,
        }
    )


@api_post("text")
def _messages_write(request: HttpRequest, match_id: int, body: JsonObject) -> JsonResponse:
    match = _players_match(request, match_id)
    # No limit of the API's own beyond the body's: games.chat counts the message once
    # tidied (spaces, line breaks and control characters taken out) and states its limit.
    text = _str(body, "text", max_length=MAX_BODY, required=True)
    assert text is not None
    message = chat.post_message(match.pk, user=request.user, text=text)
    return JsonResponse({"message": _message(message)}, status=201)


@csrf_exempt  # each method's view below does its own checks
def match_messages(request: HttpRequest, match_id: int) -> HttpResponse:
    """The messages between the match's players (games.chat), to them only. GET
    ``?after=<id>``: those after that one, oldest first; POST ``{"text"}``: write one."""
    return _read_or_write(request, _messages_read, _messages_write, match_id)


def _player(username: str) -> User:
    """The player named ``username`` (exactly, as a profile's address has it, or in any
    case, as people type names), or 404."""
    person = User.objects.filter(username=username).first() or player_named(username)
    if person is None:
        raise ApiError(404, f"there is no player called {_quote(username)}")
    return person


@api_post()
def player_block(request: HttpRequest, username: str, body: JsonObject) -> JsonResponse:
    """Block a player (games.blocks); with how many challenges between the two it ended."""
    person = _player(username)
    try:
        made = blocks.block(request.user, other=person)
    except blocks.BlockRefused as refused:
        raise ApiError(400, str(refused)) from None
    return JsonResponse(
        {
            "username": person.username,
            "blocked": True,
            "withdrawn": made.withdrawn,
            "declined": made.declined,
        }
    )


@api_post()
def player_unblock(request: HttpRequest, username: str, body: JsonObject) -> JsonResponse:
    """Take back one's block of a player (nothing to take back is no error)."""
    person = _player(username)
    blocks.unblock(request.user, other=person)
    return JsonResponse({"username": person.username, "blocked": False})


@api_get
def my_blocks(request: HttpRequest) -> JsonResponse:
    """The players I have blocked (games.blocks), the latest first, each with when; not
    those who have blocked me, which nobody is told."""
    return JsonResponse(
        {
            "blocks": [
                {"username": block.blocked.username, "blocked_at": block.created_at.isoformat()}
                for block in blocks.blocks_of(request.user)
            ]
        }
    )


@api_post()
def my_email_confirmation(request: HttpRequest, body: JsonObject) -> JsonResponse:
    """Send the link that confirms my address again, as the web's "Send the link again"
    does (accounts.services.send_email_confirmation, with its limit): 202 once queued."""
    user = request.user
    if not user.email:
        raise ApiError(
            400, "your account has no email address to confirm: give one in your settings"
        )
    try:
        accounts.send_email_confirmation(user, again=True)
    except accounts.AlreadyConfirmed as done:
        raise ApiError(409, str(done)) from None
    except accounts.EmailConfirmationLimited as limited:
        # The count runs for an hour from the first link asked for: at most that long.
        wait = {"Retry-After": str(throttle.EMAIL_CONFIRMATION_WINDOW_SECONDS)}
        raise ApiError(429, str(limited), wait) from None
    return JsonResponse(
        {"email": user.email, "valid_days": accounts.EMAIL_CONFIRM_MAX_AGE.days}, status=202
    )


_BEFORE_IS = 'before must be the id of a match of yours that has ended (from "finished")'


def _finished_page(user: User, *, before: int | None = None) -> tuple[list[int], bool]:
    """The ids of one page of ``user``'s finished matches, the latest first, from the one
    that ended just before match ``before`` (from the latest without it); and whether
    older ones wait. One query, two with ``before``, however long the player's history:
    each page read from each colour's own index, not the whole history sorted
    (Match.objects.latest_finished)."""
    older_than = None
    if before is not None:
        # The cursor is a match id, as a client has it, and not the time it ended (which
        # the client may not have, nor write as the database does); the id also orders
        # the matches that ended in the same moment (a sweep ends many at once).
        ended = Match.objects.finished().involving(user).filter(pk=before)
        cursor = ended.values_list("finished_at", flat=True).first()
        if cursor is None:
            raise ApiError(400, f"{_BEFORE_IS}, not {before}")
        older_than = (cursor, before)
    latest = Match.objects.latest_finished(user, FINISHED_PER_PAGE + 1, older_than=older_than)
    return first_of(latest.values_list("pk", flat=True), FINISHED_PER_PAGE)


def _finished_next(request: HttpRequest, page: list[int], more: bool) -> str | None:
    """The address of the page of finished matches after ``page``, or None at the end."""
    return _page_url(request, "api_me_finished", before=page[-1]) if more else None


@api_get
def me(request: HttpRequest) -> JsonResponse:
    """Who I am, my active matches, those waiting for my move (most urgent first), the
    latest that ended (and where the older ones are), the matches with messages I have
    not read (match id: how many), and whether my address is confirmed (game emails wait
    for it)."""
    user = request.user
    active = Match.objects.active().involving(user).order_by("pk")
    unread = (
        Match.objects.involving(user)
        .filter(message_count__gt=0)
        .with_unread_messages(user)
        .filter(unread_messages__gt=0)
        .order_by("pk")
    )
    finished, more = _finished_page(user)
    return JsonResponse(
        {
            "username": user.get_username(),
            "matches": list(active.values_list("pk", flat=True)),
            "to_move": list(Match.objects.awaiting(user).values_list("pk", flat=True)),
            # The last FINISHED_PER_PAGE that ended, the latest first: one that ended while
            # the client was away (a timeout, a resignation) is found here.
            "finished": finished,
            # Where the older ones are (GET me/finished/): null when there are none.
            "next": {"finished": _finished_next(request, finished, more)},
            # Keys are strings, as JSON's are; read with GET .../messages/.
            "unread_messages": dict(unread.values_list("pk", "unread_messages")),
            # False: no game email goes to the account's address until it is confirmed.
            "email_confirmed": user.email_confirmed_at is not None,
        }
    )


@api_get
def my_finished_matches(request: HttpRequest) -> JsonResponse:
    """My finished matches, the latest first, a page at a time: ``?before=<match id>``,
    those that ended before that one (the last of the page before)."""
    before = _query_number(request, "before", refusal=_BEFORE_IS)
    finished, more = _finished_page(request.user, before=before)
    return JsonResponse(
        {
            "finished": finished,
            "more": more,
            "next": _finished_next(request, finished, more),
        }
    )


def _time_away(user: User) -> JsonObject:
    """Whether ``user`` is taking time away (games.away), until when, and the days of it
    they have left this year."""
    back = user.away_until if user.is_away() else None
    return {
        # In UTC, as every time the API gives (the return just taken is in the player's
        # timezone, as the day they gave begins there).
        "away_until": back.astimezone(UTC).isoformat() if back else None,
        "days_left": away.days_left(user),
        "days_per_year": settings.AWAY_DAYS_PER_YEAR,
    }


@api_get
def _away_read(request: HttpRequest) -> JsonResponse:
    return JsonResponse(_time_away(request.user))


@api_post("back_on")
def _away_start(request: HttpRequest, body: JsonObject) -> JsonResponse:
    # The settings page's form reads the day (a date after today in the player's
    # timezone, as the page asks for it) and says when that day begins: the same day
    # means the same return here as there, refused for the same reasons.
    day = _str(body, "back_on", max_length=40, required=True)
    form = AwayForm({"back_on": day}, user=request.user)
    if not form.is_valid():
        raise ApiError(400, f"back_on: {form.errors['back_on'][0]}")
    try:
        away.go_away(request.user, until=form.until())
    except away.AlreadyAway as refused:
        raise ApiError(409, str(refused)) from None
    except away.AwayError as refused:
        raise ApiError(400, str(refused)) from None
    return JsonResponse(_time_away(request.user))


@csrf_exempt  # each method's view below does its own checks
def my_time_away(request: HttpRequest) -> HttpResponse:
    """My time away (games.away): GET, whether I am away and the days I have left; POST
    ``{"back_on": "<date>"}``: stop my clocks until that day, as the settings page does."""
    return _read_or_write(request, _away_read, _away_start)


@api_post()
def my_time_away_end(request: HttpRequest, body: JsonObject) -> JsonResponse:
    """Come back from time away before the day chosen, as the settings page's button does:
    my clocks run again, with the time they had left."""
    try:
        away.come_back(request.user)
    except away.NotAway as refused:
        raise ApiError(409, str(refused)) from None
    return JsonResponse(_time_away(request.user))


def _docs_url(request: HttpRequest) -> str:
    return request.build_absolute_uri(reverse("api_docs"))


@csrf_exempt  # it changes nothing, whatever the method
def index(request: HttpRequest) -> JsonResponse:
    """/api/v1/ itself, to anyone: where the API's reference is (a page of the site)."""
    if request.method not in ("GET", "HEAD"):
        return _error(405, f"use GET here, not {request.method}", {"Allow": "GET, HEAD"})
    return JsonResponse({"version": 1, "docs": _docs_url(request)})


@csrf_exempt  # it does nothing, whatever the method
def not_found(request: HttpRequest) -> JsonResponse:
    hint = "" if request.path.endswith("/") else " (the API's paths end with a slash)"
    # With the reference's address: a client that took a wrong turn learns where the
    # right paths are listed.
    return _error(404, f"there is no API endpoint at {request.path}{hint}", docs=_docs_url(request))
