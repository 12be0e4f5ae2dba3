"""Web pages: home, dashboard, lobby, challenges and the match page with HTMX turns.

Views are short: an access helper fetches the object or raises 404/403, a service does the
work, and HTMX requests get a named partial of the same page template.
"""

from __future__ import annotations

import json
from datetime import timedelta
from typing import TYPE_CHECKING

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core import signing
from django.core.exceptions import PermissionDenied
from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import (
    require_GET,
    require_http_methods,
    require_POST,
    require_safe,
)

from accounts import throttle
from aceysite.forms import focus_first_error
from aceysite.text import sentence
from games.engine import EngineError

from . import api, blocks, chat, idempotency, services
from .board import board_context, game_turns, parse_steps
from .forms import ChallengeForm, TurnForm, whole_number
from .models import (
    CHALLENGE_DAYS,
    DAYS_PER_MOVE,
    MATCH_LENGTHS,
    BotPlayer,
    Challenge,
    Match,
)
from .notifications import (
    turn_email_note,
    unsubscribe_token_sent_to,
    user_from_unsubscribe_token,
)
from .ratings.store import UNPLAYED_UNRATED, played_by_both
from .records import match_record_json, match_record_text
from .services import TurnError
from .tournaments import services as tournaments
from .tournaments.profile import dashboard_tournaments

if TYPE_CHECKING:
    from accounts.models import User


@require_safe
def home(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("dashboard")
    return render(request, "home.html")


@require_safe
def rules(request: HttpRequest) -> HttpResponse:
    """The rules of both variants, in a player's words (the site follows RULES.md)."""
    return render(request, "games/rules.html")


@require_safe
def api_docs(request: HttpRequest) -> HttpResponse:
    """The JSON API's reference, for players who write bots and scripts. Its figures come
    from the code that enforces them; tests/api/test_docs.py checks that it lists every
    endpoint of games/api_urls.py."""
    context = {
        "api_base": request.build_absolute_uri(reverse("api_root")),
        "docs_url": request.build_absolute_uri(reverse("api_docs")),
        "max_body_kib": api.MAX_BODY // 1024,
        # Beyond it Django refuses to read a query (aceysite.views.bad_request answers).
        "max_query_parameters": settings.DATA_UPLOAD_MAX_NUMBER_FIELDS,
        "max_messages": api.MAX_MESSAGES,
        "max_play_length": api.MAX_PLAY_LENGTH,
        "finished_per_page": api.FINISHED_PER_PAGE,
        "challenges_per_page": api.CHALLENGES_PER_PAGE,
        "away_days_per_year": settings.AWAY_DAYS_PER_YEAR,
        "message_length": chat.MAX_LENGTH,
        "messages_per_day": chat.MAX_PER_DAY,
        "confirmations_per_hour": throttle.MAX_EMAIL_CONFIRMATIONS_PER_PLAYER,
        "max_open_challenges": services.MAX_OPEN_CHALLENGES,
        "challenges_to_a_player_a_day": services.MAX_CHALLENGES_TO_A_PLAYER_A_DAY,
        "challenge_days": CHALLENGE_DAYS,
        "max_bot_matches": services.MAX_BOT_MATCHES,
        "max_key_length": idempotency.MAX_KEY_LENGTH,
        "key_hours": int(idempotency.KEY_LIFETIME.total_seconds() // 3600),
        "match_lengths": MATCH_LENGTHS,
        "days_per_move": DAYS_PER_MOVE,
        # Challenged by name like anyone else: a bot writer needs to know what to send.
        "bots": BotPlayer.objects.select_related("user").order_by("user__username"),
    }
    return render(request, "games/api_docs.html", context)


# -- dashboard and lobby ----------------------------------------------------------------------


@login_required
@require_safe
# Never from a cache, Back and Forward included: a turn played by HTMX changes this page
# and the match page without a navigation, and the browser's copy would show the turn
# still to play. (Likewise the match page.)
@never_cache
def dashboard(request: HttpRequest) -> HttpResponse:
    """The player's matches: their turn first (by deadline), then waiting, then finished;
    each with the opponent's messages the player has not read yet."""
    user = request.user
    # With its tournament, if any: the card names it, in the same query.
    related = ("white", "black", "to_move", "tournament_match__tournament")
    matches = Match.objects.with_unread_messages(user).select_related(*related)
    my_turn = list(matches.awaiting(user))
    waiting = list(matches.waiting_for_opponent(user))
    playing = {
        link.tournament_id
        for match in my_turn + waiting
        if (link := getattr(match, "tournament_match", None)) is not None
    }
    context = {
        "my_turn": my_turn,
        "waiting": waiting,
        "tournaments": dashboard_tournaments(user, playing=playing),
        "finished": matches.select_related("winner").latest_finished(user, 10),
        "received": Challenge.objects.addressed_to(user).select_related("challenger"),
        "sent": Challenge.objects.issued_by(user).select_related("opponent"),
    }
    return render(request, "games/dashboard.html", context)


#: Open challenges on a page of the lobby: a page a phone scrolls through, with the bots
#: not far below (5,000 challenges on one page made 2.7 MB of it).
LOBBY_PER_PAGE = 30


@require_safe
# Its bot forms' one-time keys (games.idempotency) are this page's own: Back loads the page
# again, with new keys, so that a bot played again starts a new match.
@never_cache
def lobby(request: HttpRequest) -> HttpResponse:
    """Open challenges anyone may accept, the newest first, LOBBY_PER_PAGE a page
    (``?before=<challenge id>``: those older than that one, the last of the page before),
    and the bots to play."""
    before = whole_number(request.GET.get("before"))
    waiting = (
        Challenge.objects.open_in_lobby()
        .apart_from(request.user)
        .select_related("challenger")
        .order_by("-pk")
    )
    if before is not None:
        waiting = waiting.filter(pk__lt=before)
    challenges, more = api.first_of(waiting, LOBBY_PER_PAGE)
    context = {
        "challenges": challenges,
        "older": challenges[-1].pk if more else None,
        "paged": before is not None,
        "challenge_days": CHALLENGE_DAYS,
        "bots": BotPlayer.objects.select_related("user").order_by("user__username"),
    }
    return render(request, "games/lobby.html", context)


# -- challenges ---------------------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
@never_cache  # a new one-time key with each page, as the lobby's
# A challenge to a bot starts a match at once: sent twice, it would start two (a challenge
# to anyone else sent twice finds the first waiting: SameChallengeWaiting).
@idempotency.form_sent_once
def challenge_new(request: HttpRequest) -> HttpResponse:
    initial = {"opponent": request.GET.get("opponent", "")}
    form = ChallengeForm(
        request.POST if request.method == "POST" else None, user=request.user, initial=initial
    )
    if request.method == "POST" and form.is_valid():
        try:
            challenge = services.create_challenge(request.user, **form.service_kwargs())
        except services.SameChallengeWaiting as same:
            # Most likely the form sent twice (a double click, a reload): not an error,
            # the challenge went. Show the one, saying so.
            messages.info(request, sentence(same))
            return redirect(same.challenge)
        except TurnError as error:
            form.add_error(None, sentence(error))
        else:
            if challenge.match_id is not None:
                return redirect(challenge.match)  # a bot accepted at once
            if challenge.private:
                messages.success(request, "Send the invite link to your friend.")
            elif challenge.opponent_id is None:
                messages.success(request, "Challenge posted in the lobby: anyone may accept it.")
            else:
                messages.success(request, "Challenge sent.")
            return redirect(challenge)
    focus_first_error(form)
    context = {
        "form": form,
        "challenge_days": CHALLENGE_DAYS,
        "expires_if_sent_now": timezone.now() + timedelta(days=CHALLENGE_DAYS),
    }
    return render(request, "games/challenge_new.html", context)


def _get_challenge_for_user(
    request: HttpRequest, challenge_id: int, *, invite_token: str = ""
) -> Challenge:
    """The challenge if this user may see it (Challenge.is_visible_to: its challenger, its
    opponent, anyone for a lobby challenge, the holder of a private one's link); a 404 for
    anyone else, as for a challenge that does not exist, whatever its status."""
    challenge = get_object_or_404(
        Challenge.objects.select_related("challenger", "opponent", "match"), pk=challenge_id
    )
    if not challenge.is_visible_to(request.user, invite_token=invite_token):
        raise Http404("no such challenge")
    return challenge


#: Accepting a challenge this player may not see (Challenge.is_visible_to), or none.
CHALLENGE_GONE = (
    "That challenge is no longer open: another player may have taken it, its challenger"
    " withdrawn it, or it expired."
)


@login_required
@require_safe
def challenge_detail(request: HttpRequest, challenge_id: int) -> HttpResponse:
    challenge = _get_challenge_for_user(request, challenge_id)
    context = {
        "challenge": challenge,
        "invite_url": request.build_absolute_uri(challenge.invite_path()),
        "refusal": _acceptance_refusal(request, challenge),
        "challenge_days": CHALLENGE_DAYS,
    }
    return render(request, "games/challenge.html", context)


@require_safe
def invite(request: HttpRequest, token: str) -> HttpResponse:
    """A private invite link: shows the challenge and lets the friend accept it."""
    challenge = get_object_or_404(
        Challenge.objects.select_related("challenger"), invite_token=token
    )
    player = request.user.pk is not None and request.user.pk in (
        challenge.challenger_id,
        challenge.opponent_id,
    )
    context = {
        "challenge": challenge,
        "via_invite": True,
        # The link, passed on, may reach anyone: it does not lead them to who accepted it or
        # to the match (which is open to watch, as every match is: the form says so, and
        # both players' profiles list it), only says the challenge was taken.
        "outsider": not player,
        "refusal": _acceptance_refusal(request, challenge),
        "challenge_days": CHALLENGE_DAYS,
    }
    return render(request, "games/challenge.html", context)


def _acceptance_refusal(request: HttpRequest, challenge: Challenge) -> str:
    """Why this visitor may not accept the open challenge, when a block between them
    stands in the way: said in place of an Accept button that would only be refused."""
    user = request.user
    if (
        not user.is_authenticated
        or user.pk == challenge.challenger_id
        or challenge.current_status != Challenge.Status.OPEN
    ):
        return ""
    refusal = blocks.acceptance_refusal(user, challenge.challenger)
    return sentence(refusal) if refusal else ""


@login_required
@require_POST
def challenge_accept(request: HttpRequest, challenge_id: int) -> HttpResponse:
    token = request.POST.get("token", "")
    challenge = Challenge.objects.filter(pk=challenge_id).first()
    if challenge is None or not challenge.is_visible_to(request.user, invite_token=token):
        return _challenge_gone(request)
    try:
        match = services.accept_challenge(challenge.pk, user=request.user, invite_token=token)
    except services.NotAllowed as error:
        raise PermissionDenied(str(error)) from None
    except services.ChallengeGone:
        return _challenge_gone(request)
    except TurnError as error:
        messages.error(request, sentence(error))
        return redirect("dashboard")
    return redirect(match)


def _challenge_gone(request: HttpRequest) -> HttpResponse:
    # Most often a lobby challenge another player took a moment before, one its
    # challenger withdrew, or one expired, pressed on a lobby drawn before: "Page not
    # found" told the player nothing. The same words for each, and for one that never
    # was: whose a challenge is, and how it ended, stay its players' to know.
    messages.error(request, CHALLENGE_GONE)
    return redirect("lobby")


@login_required
@require_POST
def challenge_decline(request: HttpRequest, challenge_id: int) -> HttpResponse:
    return _close(request, challenge_id, services.decline_challenge, "Challenge declined.")


@login_required
@require_POST
def challenge_cancel(request: HttpRequest, challenge_id: int) -> HttpResponse:
    return _close(request, challenge_id, services.cancel_challenge, "Challenge cancelled.")


def _close(request: HttpRequest, challenge_id: int, close, done: str) -> HttpResponse:
    _get_challenge_for_user(request, challenge_id)
    try:
        close(challenge_id, user=request.user)
    except services.NotAllowed as error:
        raise PermissionDenied(str(error)) from None
    except TurnError as error:
        messages.error(request, sentence(error))
    else:
        messages.success(request, done)
    return redirect("dashboard")


# -- the match page ---------------------------------------------------------------------------


def _get_match(match_id: int) -> Match:
    return get_object_or_404(
        Match.objects.select_related("white", "black", "to_move", "winner"), pk=match_id
    )


def _over_if_time_ran_out(match: Match) -> Match:
    """``match``, ended on time first if its deadline has passed
    (services.end_if_time_ran_out), read again if so."""
    return _get_match(match.pk) if services.end_if_time_ran_out(match) else match


def _get_match_for_player(request: HttpRequest, match_id: int) -> Match:
    match = _get_match(match_id)
    if not match.is_player(request.user):
        raise PermissionDenied("you are not playing in this match")
    return match


def _match_context(request: HttpRequest, match: Match, **extra) -> dict:
    steps = extra.pop("steps", [])
    selected = extra.pop("selected", None)
    typed_play = extra.pop("typed_play", "")
    typed_blot = extra.pop("typed_blot", "")
    blot_refused = extra.pop("blot_refused", False)
    from_typed_box = extra.pop("from_typed_box", False)
    board = board_context(
        match,
        viewer=request.user,
        steps=steps,
        selected=selected,
        replay=extra.get("replay"),
        game=extra.get("game"),
        with_history=not extra.get("keep_history"),
        # Only HTMX requests announce the news: said once, not again with each update.
        news_since=_shown_segment(request) if request.htmx else None,
    )
    rating_changes = (
        [] if match.is_active else list(match.rating_changes.select_related("user").order_by("pk"))
    )
    # Drawn whole only: the heading is outside the board an HTMX request redraws.
    stage = None if request.htmx else tournaments.stage_of(match)
    context = {
        "match": match,
        "board": board,
        "turn_form": TurnForm(initial={"segment": match.segment_count}),
        # A player waiting for the opponent is told what email their turn will bring.
        "email_note": (
            turn_email_note(request.user)
            if board["viewer_color"] and board["mode"] == "wait"
            else ""
        ),
        # The page's links are relative to it, unless it is drawn at another address (a
        # turn that failed without JavaScript is answered at the turn's own).
        "links_base": match.get_absolute_url() if request.method == "POST" else "",
        "rating_changes": rating_changes,
        "unplayed_unrated": UNPLAYED_UNRATED,
        # A "?" shown is explained beneath them, once.
        "provisional_shown": any(change.shows_provisional for change in rating_changes),
        "stage": stage,
        # Said where the clock is, as the reminder email says it: in a round robin or a
        # Swiss a loss on time may withdraw its loser (not from a last match or round).
        "timeout_withdraws_you": (
            stage is not None
            and stage.tournament.format in tournaments.WITHDRAWN_ON_TIME
            and board["viewer_color"] is not None
            and tournaments.timeout_withdraws(match, request.user.pk)
        ),
        # A finished match's players: who has offered the other a rematch.
        "rematch": (
            _rematch_context(match, request.user)
            if not match.is_active and board["viewer_color"]
            else None
        ),
        "typed_play": "",
        "play_error": None,
        "typed_blot": "",
        "blot_error": None,
        # The players' messages, on a page drawn whole (HTMX redraws only the board; the
        # messages have a poll of their own).
        **_chat_context(
            request,
            match,
            conversation=None if request.htmx else _shown_conversation(request, match),
        ),
        **extra,
    }
    if board["playing"]:
        _give_back_refused_turn(
            context,
            typed_play,
            typed_blot,
            blot_refused=blot_refused,
            from_typed_box=from_typed_box,
        )
    context["form_has_blot"] = _form_has_blot(board, context["typed_blot"])
    return context


def _shown_segment(request: HttpRequest) -> int | None:
    """The segment count of the board the page shows, which every request from it carries
    (#live's hx-vals, the poll's too): what came up to it is in the page's history and was
    in its last announcement, and is not announced again."""
    params = request.POST if request.method == "POST" else request.GET
    return whole_number(params.get("segment"))


def _form_has_blot(board: dict, typed_blot: str) -> bool:
    """Whether the turn's form has a ``name_blot`` field: the one shown for naming a greek
    blot, or a hidden one keeping a number typed before the first click through the clicks
    that hide its field, for the choice the whole play brings (a 1-2, which names none,
    does not carry it). The board is outside the form: its clicks include the field then
    (match_click keeps it), and only then, or HTMX logs an error for each click."""
    return bool(board["blot_field"] or (typed_blot and not board["can_submit"]))


def _give_back_refused_turn(
    context: dict,
    typed_play: str,
    typed_blot: str,
    *,
    blot_refused: bool,
    from_typed_box: bool = False,
) -> None:
    """A turn refused: the play typed and the blot named come back in their fields, so the
    player corrects them where they typed them instead of typing them all again, and the
    reason goes beside the field at fault (the blot's, else the typed play's). The typed
    play's box answers for a play sent from it (``from_typed_box``) even when empty: the
    reason above the board would be out of sight, below it on a phone."""
    context["typed_play"] = typed_play
    context["typed_blot"] = typed_blot
    if blot_refused and context["board"]["blot_field"]:
        context["blot_error"], context["error"] = context.get("error"), None
    elif typed_play or from_typed_box:
        context["play_error"], context["error"] = context.get("error"), None


def _rematch_context(match: Match, player: User) -> dict:
    """A finished match's player: who has offered the other a rematch, and why none may
    be offered (a block either way: the reason stands in place of the button)."""
    opponent = match.opponent_of(player)
    return {
        "opponent": opponent,
        **services.rematch_offers(match, player),
        "refused": blocks.challenge_refusal(player, opponent),
    }


def _version(match: Match) -> str:
    """What the waiting page's poll sends back as ``?seen=``: it changes with every
    segment stored and when the match ends without one (resignation, timeout)."""
    return f"{match.segment_count}-{match.status}"


# GET only, not HEAD: drawing the page for a player marks their opponent's messages read
# (_chat_context), which a HEAD (a link checker's, a preview's) must not do.
@require_GET
@never_cache
def match_page(request: HttpRequest, match_id: int) -> HttpResponse:
    """The board, the controls for the player to move, the history. Public to watch."""
    match = _over_if_time_ran_out(_get_match(match_id))
    if request.htmx and request.GET.get("seen") == _version(match):
        # The waiting page's poll, and nothing has happened since it was drawn: 204 tells
        # HTMX to leave the board as it is, and the board is not drawn again for nothing.
        return HttpResponse(status=204)
    context = _match_context(
        request,
        match,
        replay=whole_number(request.GET.get("replay")),
        game=whole_number(request.GET.get("game")),
    )
    if request.htmx:
        return render(request, "games/match.html#live", context)
    return render(request, "games/match.html", context)


@require_safe
def match_history_game(request: HttpRequest, match_id: int, game: int) -> HttpResponse:
    """The turns of one earlier game, which the history loads when its reader opens it.
    Public to watch, as the match page is."""
    match = _get_match(match_id)
    turns = game_turns(match, game)
    if not turns:
        raise Http404("this match has no such game")
    return render(request, "games/match.html#turns", {"match": match, "turns": turns})


@login_required
@require_POST
def match_click(request: HttpRequest, match_id: int) -> HttpResponse:
    """One click on the board: validate the partial play so far and redraw the board.

    Nothing is stored: the steps travel in the form until the player submits them.
    """
    match = _over_if_time_ran_out(_get_match_for_player(request, match_id))
    template = "games/match.html#live" if request.htmx else "games/match.html"
    shown = request.POST.get("segment")
    if shown is not None and whole_number(shown) != match.segment_count:
        # Drawn before a move made since (in another window): its carried steps belong to
        # other dice, and checked against these they would blame the player's move. The
        # board as it stands instead, with the reason a Submit from it is given.
        context = _match_context(
            request, match, error=_stale_reason(match, request.user), stale=True
        )
        return render(request, template, context, status=409)
    # The page sends the segment count of the history it shows: while that is current, the
    # history (a row per segment, on every click of a long match) is not drawn again but
    # kept in the page (hx-preserve).
    keep_history = request.POST.get("history") == str(match.segment_count)
    try:
        steps = parse_steps(request.POST.get("steps", ""))
        selected = whole_number(request.POST.get("select"))
        context = _match_context(
            request,
            match,
            steps=steps,
            selected=selected,
            keep_history=keep_history,
            # A greek blot number typed before the play is clicked, kept for the choice
            # of blots the whole play brings: it was dropped at the first click.
            typed_blot=request.POST.get("name_blot", "")[:2],
        )
    except (ValueError, EngineError) as error:
        context = _match_context(request, match, error=sentence(error), keep_history=keep_history)
    return render(request, template, context)


@login_required
@require_POST
def match_turn(request: HttpRequest, match_id: int) -> HttpResponse:
    """Submit the current segment: a play (clicked steps or notation) or a named double."""
    match = _get_match_for_player(request, match_id)
    form = TurnForm(request.POST)
    status = 200
    error = None
    blot_refused = False  # the reason is the named blot's, not the play's
    if not form.is_valid():
        status = 400
        if "name_blot" in form.errors:
            error, blot_refused = sentence(form.errors["name_blot"][0]), True
        elif "play" in form.errors:
            error = sentence(form.errors["play"][0])  # said whole, not after "play: "
        else:
            error = form.error_text()
    else:
        action = form.action()
        try:
            match = services.submit_segment(match.pk, user=request.user, action=action)
        except services.TimeRanOut as failure:
            error, status = sentence(failure), failure.status
        except services.StaleSegment:
            status = 409
        except TurnError as failure:
            error, status = sentence(failure), failure.status
            blot_refused = isinstance(failure, services.IllegalBlot)
        match = _get_match(match.pk)
        if status == 409 and error is None:
            error = _stale_reason(match, request.user, action)
    if not request.htmx and not error:
        return redirect(match)
    # Only an illegal or unreadable play is given back to correct, with the blot named
    # with it: after a 409 the board has moved on (new dice), and a play typed for the old
    # one must not be one Enter away.
    refused = status == 400
    typed = request.POST.get("play", "").strip()
    clicked = _clicked_steps(request) if refused else []
    if error and typed and not blot_refused and clicked:
        # Its reason is about the turn's start (no checker on a point the board now shows
        # one on, say): the box does not go on from the moves clicked.
        error = f"{error} {TYPED_FROM_THE_START}"
    drawn = {
        "error": error,
        "typed_play": typed if refused else "",
        "typed_blot": request.POST.get("name_blot", "").strip() if refused else "",
        "blot_refused": blot_refused,
        # The box's own button sends its name (the board's buttons and Enter, none).
        "from_typed_box": refused and "typed" in request.POST,
        "stale": status == 409,
    }
    try:
        # The moves clicked so far come back too (a typed play refused over them, say),
        # for the player to go on from, as a reload brings them back.
        context = _match_context(request, match, steps=clicked, **drawn)
    except (ValueError, EngineError):  # they were what the engine refused
        context = _match_context(request, match, **drawn)
    # HTMX swaps error responses too (see base.html), so the reason is shown in place.
    # Without JavaScript the whole page is drawn here, as a form with errors is, so the
    # box keeps what the player typed.
    template = "games/match.html#live" if request.htmx else "games/match.html"
    return render(request, template, context, status=status)


#: Said after the reason a typed play was refused when moves had been clicked on the board.
TYPED_FROM_THE_START = (
    "The box takes your whole play from the start of the turn, without the moves clicked"
    " on the board."
)


def _clicked_steps(request: HttpRequest) -> list[tuple[int, int]]:
    """The moves a turn's form carried as clicked so far; none if they cannot be read."""
    try:
        return parse_steps(request.POST.get("steps", ""))
    except ValueError:
        return []


def _stale_reason(match: Match, user: User, action: services.TurnAction | None = None) -> str:
    """Why a turn (``action``) or a click (None) refused as stale was not played, for the
    player who sees the board drawn again as ``match`` now stands."""
    if action is not None and services.already_played(match.pk, user=user, action=action):
        return (
            "You had already played this move (in another window, or the page sent it"
            " twice): it was played once, and here is the match as it stands."
        )
    if not match.is_active:
        return "The match is over."
    return (
        "This board was out of date: a move was made since it was drawn (in another"
        " window?). Here is the match as it stands."
    )


# htmx stops polling when a poll is answered with this status.
STOP_POLLING = 286


@require_http_methods(["GET", "POST"])
def match_messages(request: HttpRequest, match_id: int) -> HttpResponse:
    """POST: write a message to the opponent (games.chat). With HTMX the messages section
    is drawn again in place; without, the match page, at the messages.

    GET ``?after=<id>``: the page's poll for newer messages; 204 while there are none."""
    if not request.user.is_authenticated:
        if request.method == "GET":
            # A poll from a page whose session has ended (logged out in another tab):
            # stop it quietly rather than take the page, and a half-typed message, to
            # the login page, as login_required's redirect would through HTMX.
            return HttpResponse(status=STOP_POLLING)
        return redirect_to_login(request.get_full_path())
    match = _get_match_for_player(request, match_id)
    if request.method == "GET":
        if not chat.is_open(match, request.user):
            return HttpResponse(status=STOP_POLLING)  # no new message can come now
        after = whole_number(request.GET.get("after"))
        newer = chat.newer_messages(match, request.user, after=after or 0)
        if newer is None:
            return HttpResponse(status=204)
        context = _chat_context(request, match, conversation=newer)
        return render(request, "games/match.html#chat_new", context)
    text = request.POST.get("text", "")
    try:
        chat.post_message(match.pk, user=request.user, text=text)
    except TurnError as refusal:
        # The text stays in the box, with the reason beside it, to be put right.
        error = sentence(refusal)
        if request.htmx:
            context = _chat_context(request, match, message_error=error, message_text=text)
            return render(request, "games/match.html#chat", context, status=refusal.status)
        # Without JavaScript the whole page is drawn, as a form with errors is.
        context = _match_context(request, match, message_error=error, message_text=text)
        return render(request, "games/match.html", context, status=refusal.status)
    if not request.htmx:
        return redirect(match.get_absolute_url() + "#messages")
    context = _chat_context(request, match, message_sent=True)
    return render(request, "games/match.html#chat", context)


def _shown_conversation(request: HttpRequest, match: Match) -> chat.Conversation | None:
    """The viewer's latest messages (chat.SHOWN, or back to the first they have not read),
    or a page of those before or after a message when the page is asked for one
    (``?before=<id>``, ``?after=<id>``: the links around the messages)."""
    before = whole_number(request.GET.get("before"))
    after = whole_number(request.GET.get("after"))
    if before is None and after is None:
        return chat.conversation(match, request.user, latest=chat.SHOWN)
    return chat.page_of_messages(match, request.user, before=before, after=after or 0)


def _chat_context(request: HttpRequest, match: Match, **extra) -> dict:
    """What the messages section needs, on its own or on the match page; the viewer's
    latest messages (the section drawn again after a message sent: no longer than the page
    drew it first) unless ``extra`` gives a conversation (or None)."""
    if "conversation" not in extra:
        extra["conversation"] = chat.conversation(match, request.user, latest=chat.SHOWN)
    conversation = extra["conversation"]
    read_to = 0
    if conversation and conversation.messages:
        # Drawn for the player, so seen: marked as read, and those new until now marked
        # on the page (chat_item).
        read_to = chat.read_to(match, request.user)
        if not conversation.skips_unread:
            chat.mark_read(match, request.user, conversation.last_id)
    return {
        "match": match,
        "read_to": read_to,
        "chat_max_length": chat.MAX_LENGTH,
        "chat_poll_seconds": settings.CHAT_POLL_SECONDS,
        **extra,
    }


@login_required
@require_http_methods(["GET", "POST"])
def match_resign(request: HttpRequest, match_id: int) -> HttpResponse:
    """Resign the whole match, after a confirmation page."""
    match = _get_match_for_player(request, match_id)
    if request.method == "POST":
        try:
            services.resign(match.pk, user=request.user)
        except TurnError as error:
            messages.error(request, sentence(error))
        else:
            messages.info(request, "You resigned the match.")
        return redirect(match)
    match = _over_if_time_ran_out(match)
    if not match.is_active:
        # The confirmation reached again (Back, a bookmark) after the match ended.
        messages.info(request, "The match is over: there is nothing to resign.")
        return redirect(match)
    own = match.color_of(request.user)
    assert own is not None  # a player's (_get_match_for_player)
    other = "black" if own == "white" else "white"
    points = match.forfeit_points(own)
    context = {
        "match": match,
        "opponent": match.opponent_of(request.user),
        "points": points,
        # The final score were the match resigned now: the game's points to the opponent.
        "own_score": match.score[own],
        "their_score": match.score[other] + points,
        # A rated match ended before both have moved changes no rating (ratings.store).
        "rating_counts": match.rated and played_by_both(match),
    }
    return render(request, "games/resign.html", context)


@login_required
@require_POST
def match_rematch(request: HttpRequest, match_id: int) -> HttpResponse:
    match = _get_match_for_player(request, match_id)
    played = None if match.is_active else services.rematch_offers(match, request.user)["played"]
    if played is not None and played.match_id is not None:
        # Pressed on a page drawn before the rematch began (or reopened since).
        messages.info(request, "The rematch has started already.")
        return redirect("match", match_id=played.match_id)
    try:
        challenge = services.offer_rematch(match, user=request.user)
    except TurnError as error:
        messages.error(request, sentence(error))
        return redirect(match)
    if challenge.match_id is not None:  # a bot accepted at once
        messages.success(request, "Rematch started.")
        return redirect("match", match_id=challenge.match_id)
    messages.success(request, "Rematch offered.")
    return redirect(challenge)


@require_safe
def match_export(request: HttpRequest, match_id: int, fmt: str) -> HttpResponse:
    """The whole match record as readable text or JSON (RULES.md notation)."""
    if fmt not in ("txt", "json"):
        raise Http404("export as .txt or .json")
    match = _get_match(match_id)
    # An attachment: a record is a file to keep (the links say "Download"), saved under this
    # name by any browser or `curl -OJ`, not only by a click on a link with `download`.
    filename = f"acey-deucey-match-{match.pk}"
    if fmt == "json":
        response = JsonResponse(match_record_json(match), json_dumps_params={"indent": 1})
        response["Content-Disposition"] = f'attachment; filename="{filename}.json"'
        return response
    response = HttpResponse(match_record_text(match), content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}.txt"'
    return response


# -- people -------------------------------------------------------------------------------------


@require_safe
def player_search(request: HttpRequest) -> HttpResponse:
    """Up to ten usernames starting with ``q`` (or ``opponent``, the challenge form's field),
    or whose display name does: a JSON list, or for HTMX the ``<option>``s of the challenge
    form's list of suggestions. The player asking is left out (nobody challenges
    themselves), and so are the players they have blocked or who have blocked them
    (games.blocks: neither may challenge the other)."""
    query = (request.GET.get("q") or request.GET.get("opponent") or "").strip()
    users = get_user_model().objects.filter(is_active=True)
    if request.user.is_authenticated:
        users = blocks.without_blocks(users.exclude(pk=request.user.pk), request.user)
    if query:
        users = users.filter(Q(username__istartswith=query) | Q(display_name__istartswith=query))
    names = list(users.order_by("username").values_list("username", flat=True)[:10])
    if request.htmx:
        return render(request, "games/player_options.html", {"names": names})
    return HttpResponse(json.dumps(names), content_type="application/json")


def _get_player(username: str) -> User:
    return get_object_or_404(get_user_model(), username=username)


@login_required
@require_POST
def player_block(request: HttpRequest, username: str) -> HttpResponse:
    """Block a player, from their profile page (games.blocks), and say what it ended."""
    person = _get_player(username)
    try:
        made = blocks.block(request.user, other=person)
    except blocks.BlockRefused as refused:
        messages.error(request, sentence(refused))
    else:
        messages.success(request, _blocked_news(person, made))
    return redirect("profile", username=person.username)


def _blocked_news(person: User, made: blocks.BlockMade) -> str:
    news = [
        f"You have blocked {person.username}.",
        *(["Your challenge to them is withdrawn."] if made.withdrawn else []),
        *(["Their challenge to you is declined."] if made.declined else []),
        "Your matches in play together go on.",
    ]
    return " ".join(news)


@login_required
@require_POST
def player_unblock(request: HttpRequest, username: str) -> HttpResponse:
    """Take back a block, from the player's profile or the settings page (``back``)."""
    person = _get_player(username)
    if blocks.unblock(request.user, other=person):
        messages.success(request, f"You have unblocked {person.username}.")
    else:
        messages.info(request, f"You had not blocked {person.username}.")
    if request.POST.get("back") == "settings":
        return redirect(reverse("settings") + "#blocks-h")
    return redirect("profile", username=person.username)


@csrf_exempt  # RFC 8058 one-click POSTs come from mail clients, without a CSRF token
@require_http_methods(["GET", "POST"])
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    """Turn game emails off for the user named in a signed token (GET asks, POST does)."""
    user_model = get_user_model()
    try:
        user_id = user_from_unsubscribe_token(token)
    except signing.SignatureExpired:
        return render(request, "games/unsubscribe.html", {"expired": True}, status=400)
    user = user_model.objects.filter(pk=user_id).first() if user_id else None
    if user is None:
        return render(request, "games/unsubscribe.html", {"invalid": True}, status=400)
    # A closed account's address is erased: its page says it is closed, whatever the link.
    if user.is_active and not unsubscribe_token_sent_to(token, user.email):
        return render(request, "games/unsubscribe.html", {"moved": True}, status=400)
    if request.method == "POST":
        user_model.objects.filter(pk=user.pk).update(
            email_preference=user_model.EmailPreference.NONE
        )
        return render(request, "games/unsubscribe.html", {"done": True, "person": user})
    return render(request, "games/unsubscribe.html", {"person": user})
