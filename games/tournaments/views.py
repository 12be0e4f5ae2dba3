"""Tournament pages: the list, the create form, and one page per tournament with its
bracket or standings. Views fetch the tournament with an access helper, call one service
and redirect back to the tournament page."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any

from django import forms
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.paginator import Paginator
from django.db.models import Count, QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from accounts.services import named_in_any_case
from aceysite.forms import focus_first_error
from aceysite.text import sentence
from games import idempotency
from games.models import Match

from . import services
from .brackets import BYE, Bracket, Format, MatchSlot, Side, Standing, places
from .brackets import Tournament as Draw
from .emails import final_places
from .forms import TournamentForm
from .models import Entry, Tournament
from .services import TournamentRefused

if TYPE_CHECKING:
    from accounts.models import User

ELIMINATION = (Format.SINGLE_ELIMINATION, Format.DOUBLE_ELIMINATION)


# -- the list and the create form ---------------------------------------------------------------


@require_safe
def tournament_list(request: HttpRequest) -> HttpResponse:
    tournaments = Tournament.objects.select_related("organiser", "champion").annotate(
        players=Count("entries")
    )
    open_ones = list(tournaments.filter(status=Tournament.Status.OPEN).order_by("signup_deadline"))
    for tournament in open_ones:
        tournament.to_be_cancelled = tournament.will_be_cancelled(tournament.players)
        tournament.short_of_players = not tournament.has_enough_players(tournament.players)
    context = {
        "open": open_ones,
        "running": tournaments.filter(status=Tournament.Status.RUNNING).order_by("started_at"),
    }
    for status in ENDED:
        # The latest only, and one more to know whether to link to the rest.
        latest = list(_ended(tournaments, status)[: LATEST_ENDED + 1])
        context[status] = latest[:LATEST_ENDED]
        context[f"more_{status}"] = len(latest) > LATEST_ENDED
    return render(request, "tournaments/list.html", context)


#: The tournaments that are over, each listed in full on a page of its own
#: (:func:`ended_tournaments`), the latest few on the list's.
ENDED = (Tournament.Status.FINISHED, Tournament.Status.CANCELLED)
LATEST_ENDED = 20
ENDED_PER_PAGE = 50


def _ended(tournaments: QuerySet[Tournament], status: str) -> QuerySet[Tournament]:
    # Cancelling sets finished_at too: the latest first either way (pk for those ended
    # together, so that pages do not repeat or skip one).
    return tournaments.filter(status=status).order_by("-finished_at", "-pk")


@require_safe
def ended_tournaments(request: HttpRequest, status: str) -> HttpResponse:
    """Every finished (or cancelled) tournament, the latest first, a page at a time;
    ``?player=<username>`` lists only those the player entered (their profile links here)."""
    tournaments = Tournament.objects.select_related("organiser", "champion").annotate(
        players=Count("entries")
    )
    player = None
    if username := request.GET.get("player"):
        player = named_in_any_case(username)
        tournaments = tournaments.filter(entries__user=player)
    page = Paginator(_ended(tournaments, status), ENDED_PER_PAGE).get_page(request.GET.get("page"))
    context = {"status": status, "player": player, "page": page, "tournaments": list(page)}
    return render(request, "tournaments/ended.html", context)


@login_required
@require_http_methods(["GET", "POST"])
@never_cache  # a new one-time key with each page
# Sent twice without JavaScript (forms.js), the form would open two tournaments.
@idempotency.form_sent_once
def tournament_new(request: HttpRequest) -> HttpResponse:
    form = TournamentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            tournament = services.create_tournament(request.user, **form.cleaned_data)
        except TournamentRefused as error:
            form.add_error(None, sentence(error))
        else:
            messages.success(request, "Tournament created: it is open for sign-up.")
            return redirect(tournament)
    focus_first_error(form)
    return render(request, "tournaments/new.html", {"form": form})


# -- one tournament ------------------------------------------------------------------------------


def _get_tournament(tournament_id: int) -> Tournament:
    return get_object_or_404(
        Tournament.objects.select_related("organiser", "champion"), pk=tournament_id
    )


def _get_tournament_for_organiser(request: HttpRequest, tournament_id: int) -> Tournament:
    tournament = _get_tournament(tournament_id)
    if not tournament.is_organiser(request.user):
        raise PermissionDenied("only the organiser can do that")
    return tournament


@require_safe
def tournament_detail(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = _get_tournament(tournament_id)
    entries = list(tournament.entries.select_related("user"))
    user = request.user
    my_entry = next((entry for entry in entries if entry.user_id == user.pk), None)
    is_organiser = tournament.is_organiser(user)
    draw = tournament.draw()
    # Open to this visitor's sign-up, but for the places left.
    may_sign_up = tournament.is_open and not tournament.signup_closed and my_entry is None
    is_full = len(entries) >= tournament.max_players
    enough = tournament.has_enough_players(len(entries))
    context: dict[str, Any] = {
        "tournament": tournament,
        "entries": entries,
        "my_entry": my_entry,
        # The Start button only once it would be taken (services.start_tournament counts
        # the same entries); until then the organiser is told how many more it needs.
        "can_start": is_organiser and tournament.is_open and enough,
        "players_wanted": (
            tournament.min_players - len(entries)
            if is_organiser and tournament.is_open and not enough
            else 0
        ),
        "can_cancel": is_organiser and (tournament.is_open or tournament.is_running),
        "can_sign_up": may_sign_up and not is_full,
        # Said where the Sign-up button would be, to those who could otherwise sign up.
        "is_full": may_sign_up and is_full,
        "to_be_cancelled": tournament.will_be_cancelled(len(entries)),
        "short_of_players": not enough,
        "can_withdraw": my_entry is not None and _can_withdraw(tournament, draw, my_entry),
        "bots": _bots_to_add(tournament, entries) if is_organiser else [],
        "can_remove_bots": is_organiser and tournament.is_open,
        # A "?" in the players table is explained beneath it, once.
        "provisional_shown": any(entry.shows_provisional for entry in entries),
    }
    if draw is not None:
        context.update(_draw_context(tournament, draw, entries))
        if my_entry is not None:
            context["where_you_stand"] = _where_you_stand(tournament, draw, my_entry)
    return render(request, "tournaments/detail.html", context)


@dataclass(frozen=True)
class WhereYouStand:
    """An entrant's own line at the top of a started tournament's page: their match being
    played (``match``, with ``stage``), else what is said of them in ``words``: waiting for
    their next match, out, withdrawn, or their final place. They had to find themselves in
    the bracket or the standings."""

    words: str
    match: Match | None = None
    stage: str = ""
    opponent: User | None = None


def _where_you_stand(tournament: Tournament, draw: Draw, entry: Entry) -> WhereYouStand:
    player = entry.user_id
    if tournament.is_finished:
        return WhereYouStand(final_places(tournament).get(player, ""))
    if entry.withdrawn or player in draw.withdrawn:
        return WhereYouStand("You withdrew from this tournament.")
    if not tournament.is_running:
        return WhereYouStand("")
    match = (
        Match.objects.active()
        .involving(entry.user)
        .filter(tournament_match__tournament=tournament)
        .select_related("white", "black", "to_move", "tournament_match__tournament")
        .first()
    )
    if match is not None:
        stage = services.stage_of(match)
        return WhereYouStand(
            "",
            match=match,
            stage=stage.title if stage else "",
            opponent=match.opponent_of(entry.user),
        )
    if draw.in_contention(player):
        return WhereYouStand(
            "You are through: your next match starts when the round's other matches are over."
        )
    return WhereYouStand("You are out of this tournament.")


def _can_withdraw(tournament: Tournament, draw: Draw | None, entry: Entry) -> bool:
    """Offer 'Leave' or 'Withdraw…' only where services.withdraw would take it: before the
    start, or to a player still in contention (not one knocked out of an elimination draw,
    who has nothing left to withdraw from)."""
    if entry.withdrawn:
        return False
    if tournament.is_open:
        return True
    return tournament.is_running and draw is not None and draw.in_contention(entry.user_id)


def _bots_to_add(tournament: Tournament, entries: list[Entry]) -> list[User]:
    if not tournament.is_open or len(entries) >= tournament.max_players:
        return []
    entered = {entry.user_id for entry in entries}
    bots = get_user_model().objects.filter(is_bot=True).order_by("username")
    return [bot for bot in bots if bot.pk not in entered]


@login_required
@require_POST
def tournament_sign_up(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = _get_tournament(tournament_id)
    return _act(request, tournament, services.sign_up, "You are signed up.")


@login_required
@require_POST
def tournament_withdraw(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = _get_tournament(tournament_id)
    # "Leave the tournament", on a page drawn before the start, says so: a click on it once
    # the tournament has started must not withdraw without the confirmation it then needs.
    before_start = request.POST.get("before_start") == "1"
    done = "You have left the tournament." if before_start else "You have withdrawn."
    leave = partial(services.withdraw, before_start=before_start)
    return _act(request, tournament, leave, done)


@login_required
@require_POST
def tournament_start(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = _get_tournament_for_organiser(request, tournament_id)
    return _act(request, tournament, services.start_tournament, "The tournament has started.")


@login_required
@require_POST
def tournament_cancel(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = _get_tournament_for_organiser(request, tournament_id)
    return _act(request, tournament, services.cancel_tournament, "The tournament is cancelled.")


@login_required
@require_POST
def tournament_add_bot(request: HttpRequest, tournament_id: int) -> HttpResponse:
    return _act_on_posted_bot(request, tournament_id, services.add_bot, "{bot} is entered.")


@login_required
@require_POST
def tournament_remove_bot(request: HttpRequest, tournament_id: int) -> HttpResponse:
    return _act_on_posted_bot(request, tournament_id, services.remove_bot, "{bot} is taken out.")


def _act_on_posted_bot(
    request: HttpRequest, tournament_id: int, service: Callable[..., Any], done: str
) -> HttpResponse:
    """The organiser's entering or taking out the bot the form names (``done`` says which,
    with ``{bot}`` for its name)."""
    tournament = _get_tournament_for_organiser(request, tournament_id)
    bot = _posted_bot(request)
    if bot is None:
        messages.error(request, "Choose a bot.")
        return redirect(tournament)
    return _act(request, tournament, partial(service, bot=bot), done.format(bot=bot))


def _posted_bot(request: HttpRequest) -> User | None:
    """The bot whose id was posted as ``bot``, or None."""
    # A choice field reads the id: "abc" or "1.5" is no bot (and no ValueError, a 500).
    bots = forms.ModelChoiceField(queryset=get_user_model().objects.filter(is_bot=True))
    try:
        return bots.clean(request.POST.get("bot"))
    except ValidationError:
        return None


def _act(
    request: HttpRequest, tournament: Tournament, service: Callable[..., Any], done: str
) -> HttpResponse:
    try:
        service(tournament.pk, user=request.user)
    except services.NotOrganiser as error:
        raise PermissionDenied(str(error)) from None
    except TournamentRefused as error:
        messages.error(request, sentence(error))
    else:
        messages.success(request, done)
    return redirect(tournament)


# -- drawing the draw ----------------------------------------------------------------------------


@dataclass(frozen=True)
class SideView:
    """One side of a match as shown: a player, a bye, or nobody yet."""

    user: User | None
    label: str
    seed: int | None = None
    won: bool = False
    lost: bool = False
    points: int | None = None
    withdrawn: bool = False


@dataclass(frozen=True)
class SlotView:
    slot_id: str
    sides: tuple[SideView, SideView]
    match: Match | None
    walkover: bool
    is_bye: bool
    decided: bool


@dataclass(frozen=True)
class RoundView:
    title: str
    slots: list[SlotView]


@dataclass(frozen=True)
class BracketView:
    title: str
    rounds: list[RoundView]
    note: str = ""  # what the bracket's rounds alone do not say


#: Why a double elimination's grand final may have a second match, which its players and
#: emails otherwise met unexplained.
GRAND_FINAL_NOTE = (
    "The winners bracket's finalist has not lost a match; the losers bracket's finalist has"
    " lost one. If the losers bracket's finalist wins the grand final, each has lost once,"
    " and a deciding match is played."
)


def _draw_context(tournament: Tournament, draw: Draw, entries: list[Entry]) -> dict[str, Any]:
    entry_of = {entry.user_id: entry for entry in entries}
    matches = {
        link.slot_id: link.match
        for link in tournament.tournament_matches.select_related(
            "match", "match__white", "match__black"
        )
    }

    def slot_view(slot: MatchSlot) -> SlotView:
        return _slot_view(slot, entry_of, matches.get(slot.slot_id))

    def rounds_of(bracket: Bracket) -> list[RoundView]:
        rounds = []
        for part in draw.rounds(bracket):
            slots = [slot_view(slot) for slot in part.matches if not _nobody_plays(slot)]
            if slots:
                title = services.round_title(draw, part.bracket, part.number)
                rounds.append(RoundView(title, slots))
        return rounds

    if tournament.format in ELIMINATION:
        brackets = [BracketView("Winners bracket", rounds_of(Bracket.WINNERS))]
        if tournament.format == Format.DOUBLE_ELIMINATION:
            brackets.append(BracketView("Losers bracket", rounds_of(Bracket.LOSERS)))
            brackets.append(
                BracketView("Grand final", rounds_of(Bracket.GRAND_FINAL), GRAND_FINAL_NOTE)
            )
        else:
            brackets[0] = BracketView("Bracket", brackets[0].rounds)
        # Two players' double elimination has no losers bracket: no empty box for it.
        context: dict[str, Any] = {"brackets": [bracket for bracket in brackets if bracket.rounds]}
        if draw.is_finished:
            context["placings"] = _placings(draw, entry_of)
        return context
    standings = [(standing, entry_of[standing.player]) for standing in draw.standings()]
    return {
        "standings": standings,
        "rounds": rounds_of(Bracket.ROUNDS),
        "is_swiss": tournament.format == Format.SWISS,
    }


@dataclass(frozen=True)
class Placing:
    """A line of a finished elimination draw's final placings."""

    place: str  # "1", or "3\u20134" for a place shared by those out in the same round
    entry: Entry
    out_in: str  # the round they went out in; "" for the champion
    standing: Standing


def _placings(draw: Draw, entry_of: dict[int, Entry]) -> list[Placing]:
    """The champion, the runner-up, then the others by the round they went out in (the
    draw's own standings); those out in the same round share a place."""
    out_in: dict[int, str] = {}
    # Laid out feeders first, so a player's last loss, the one that put them out, is met
    # last. A double walkover (winner BYE) is lost by both.
    for slot in draw.matches():
        if not slot.is_decided:
            continue
        for side in slot.players:
            if side != slot.winner and side is not None and side != BYE:
                out_in[side] = services.round_title(draw, slot.bracket, slot.round)
    standings = draw.standings()
    place_of = places(standings)
    return [
        Placing(
            place=_place(*place_of[standing.player]),
            entry=entry_of[standing.player],
            out_in="" if standing.player == draw.champion else out_in[standing.player],
            standing=standing,
        )
        for standing in standings
    ]


def _place(first: int, last: int) -> str:
    return str(first) if first == last else f"{first}\u2013{last}"


def _nobody_plays(slot: MatchSlot) -> bool:
    """A double-elimination slot fed only by byes: nothing to draw."""
    return slot.players == (BYE, BYE)


def _slot_view(slot: MatchSlot, entry_of: dict[int, Entry], match: Match | None) -> SlotView:
    sides = tuple(
        _side_view(side, index, slot, entry_of) for index, side in enumerate(slot.players)
    )
    return SlotView(
        slot_id=slot.slot_id,
        sides=(sides[0], sides[1]),
        match=match,
        walkover=slot.walkover,
        is_bye=slot.is_bye,
        decided=slot.is_decided,
    )


def _side_view(side: Side, index: int, slot: MatchSlot, entry_of: dict[int, Entry]) -> SideView:
    if side is None:
        return SideView(None, "to be decided")
    if side == BYE:
        return SideView(None, "bye")
    entry = entry_of[side]
    return SideView(
        user=entry.user,
        label=str(entry.user),
        seed=entry.seed,
        won=slot.winner == side and not slot.is_bye,  # advancing on a bye is no win
        lost=slot.is_decided and slot.winner != side,
        points=slot.points[index] if slot.points else None,
        withdrawn=entry.withdrawn,
    )
