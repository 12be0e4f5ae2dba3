"""The business of tournaments: sign-up, the start, advancing the draw, withdrawal, cancel.

The draw itself is :mod:`games.tournaments.brackets` (pure); this module feeds it events and
keeps the site in step: it starts a site match for every slot the draw makes pending, and
hears about every finished match through :func:`match_finished`, which
``games.services.finish_match`` calls inside its transaction.

Every public function wraps one transaction. Lock order is match, then tournament (the
order ``finish_match`` takes them in), so a withdrawal resigns its match before it locks the
tournament. Emails are queued in the outbox and sent after commit (``emails``).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from django.db import transaction
from django.utils import timezone

from games import services as game_services
from games import tally
from games.models import DAYS_PER_MOVE, MATCH_LENGTHS, Match, PlayerRating, Variant
from games.ratings import Rating
from games.ratings.store import as_of

from . import brackets, emails
from .brackets import MAX_SWISS_ROUNDS, Bracket, Format, MatchSlot
from .brackets import Tournament as Draw
from .models import MAX_PLAYERS, Entry, Tournament, TournamentMatch

if TYPE_CHECKING:
    from accounts.models import User

#: The formats in which a loss on time also withdraws its loser (match_finished). Played
#: round by round, each has a match or a pairing for every player in every round to come,
#: and one who has stopped playing would hold each of those rounds up until its deadline.
#: In an elimination draw a loss on time is a loss like any other: it knocks the loser out,
#: or in double elimination drops them to the losers bracket, as the format says.
WITHDRAWN_ON_TIME = frozenset({Format.ROUND_ROBIN, Format.SWISS})
#: The rating a player without a rating in the tournament's variant is seeded with.
UNRATED = 1500.0
#: Tournaments one organiser may have open for sign-up or running at once: each is listed
#: for everyone on /tournaments/, which one player could otherwise fill with their own.
MAX_OPEN_TOURNAMENTS = 3


class TournamentRefused(Exception):
    """A request the tournament cannot take now, worded for the player (HTTP 400)."""

    status = 400


class StartedMeanwhile(TournamentRefused):
    """Leaving before the start was asked for, but the tournament started first: leaving
    now is a withdrawal from a running tournament (ask again)."""


class NotOrganiser(TournamentRefused):
    """Only the organiser may do this (HTTP 403)."""

    status = 403


# -- creating and signing up -------------------------------------------------------------------


def create_tournament(
    organiser: User,
    *,
    name: str,
    signup_deadline: datetime,
    format: str = Format.SINGLE_ELIMINATION,
    variant: str = Variant.AMERICAN,
    points: int = 3,
    days_per_move: int = 3,
    rated: bool = True,
    min_players: int = 4,
    max_players: int = 16,
    start_mode: str = Tournament.StartMode.AUTOMATIC,
    swiss_rounds: int | None = None,
) -> Tournament:
    """Open a tournament for sign-up until ``signup_deadline``; refused while the organiser
    has :data:`MAX_OPEN_TOURNAMENTS` open or running."""
    _check_settings(
        format=format,
        variant=variant,
        points=points,
        days_per_move=days_per_move,
        min_players=min_players,
        max_players=max_players,
        swiss_rounds=swiss_rounds,
    )
    if signup_deadline <= timezone.now():
        raise TournamentRefused("the sign-up deadline must be in the future")
    if start_mode not in Tournament.StartMode.values:
        raise TournamentRefused("start either manually or automatically")
    with transaction.atomic():
        # The organiser's row locked: two tournaments created at once are counted one
        # after the other.
        game_services.lock_players(organiser)
        _refuse_one_tournament_too_many(organiser)
        return Tournament.objects.create(
            organiser=organiser,
            name=name.strip() or "Tournament",
            format=format,
            variant=variant,
            points=points,
            days_per_move=days_per_move,
            rated=rated,
            min_players=min_players,
            max_players=max_players,
            signup_deadline=signup_deadline,
            start_mode=start_mode,
            swiss_rounds=swiss_rounds if format == Format.SWISS else None,
        )


def _refuse_one_tournament_too_many(organiser: User) -> None:
    not_over = Tournament.objects.filter(
        organiser=organiser, status__in=(Tournament.Status.OPEN, Tournament.Status.RUNNING)
    )
    if not_over.count() >= MAX_OPEN_TOURNAMENTS:
        raise TournamentRefused(
            f"you organise {MAX_OPEN_TOURNAMENTS} tournaments that are open or running already:"
            " wait until one has finished, or cancel one, before you create another"
        )


def _check_settings(
    *,
    format: str,
    variant: str,
    points: int,
    days_per_move: int,
    min_players: int,
    max_players: int,
    swiss_rounds: int | None,
) -> None:
    if format not in {kind.value for kind in Format}:
        raise TournamentRefused(f"unknown format {format!r}")
    if variant not in Variant.values:
        raise TournamentRefused("the variant is american or greek")
    if points not in MATCH_LENGTHS:
        raise TournamentRefused(f"a match is played to {', '.join(map(str, MATCH_LENGTHS))} points")
    if days_per_move not in DAYS_PER_MOVE:
        raise TournamentRefused(f"days per move is one of {', '.join(map(str, DAYS_PER_MOVE))}")
    if not 2 <= min_players <= max_players <= MAX_PLAYERS:
        raise TournamentRefused(
            f"players: at least 2, at most {MAX_PLAYERS}, and the minimum no more than the maximum"
        )
    if swiss_rounds is not None and format == Format.SWISS and swiss_rounds < 1:
        raise TournamentRefused("a Swiss tournament has at least one round")
    if swiss_rounds is not None and format == Format.SWISS and swiss_rounds > MAX_SWISS_ROUNDS:
        raise TournamentRefused(
            f"a Swiss tournament has at most {MAX_SWISS_ROUNDS} rounds; for everyone to meet"
            " everyone, choose a round robin"
        )


def sign_up(tournament_id: int, *, user: User) -> Entry:
    """``user`` enters an open tournament before its sign-up deadline."""
    with transaction.atomic():
        tournament = _locked(tournament_id)
        if tournament.signup_closed:
            raise TournamentRefused("sign-up for this tournament has closed")
        return _enter(tournament, user)


def add_bot(tournament_id: int, *, user: User, bot: User) -> Entry:
    """The organiser enters a bot (one of ``games.services.bot_users()``); allowed until the
    start, also after the sign-up deadline, to fill a field."""
    with transaction.atomic():
        tournament = _locked(tournament_id)
        _check_organiser(tournament, user)
        if not bot.is_bot:
            raise TournamentRefused(f"only a bot can be entered this way, and {bot} is not one")
        return _enter(tournament, bot, by_themselves=False)


def remove_bot(tournament_id: int, *, user: User, bot: User) -> None:
    """The organiser takes an entered bot out again (one entered by mistake); allowed,
    like entering one, until the start."""
    with transaction.atomic():
        tournament = _locked(tournament_id)
        _check_organiser(tournament, user)
        _check_open(tournament)
        if not bot.is_bot:
            raise TournamentRefused(f"only a bot can be taken out this way, and {bot} is not one")
        deleted, _ = Entry.objects.filter(tournament=tournament, user=bot).delete()
        if not deleted:
            # Not starting with a name: the page makes the reason a sentence (capfirst).
            raise TournamentRefused(f"this tournament has no {bot} entered")


def _enter(tournament: Tournament, user: User, *, by_themselves: bool = True) -> Entry:
    _check_open(tournament)
    if tournament.entries.filter(user=user).exists():
        # Not starting with a name: the page makes the reason a sentence (capfirst).
        raise TournamentRefused(
            "you have already signed up"
            if by_themselves
            else f"this tournament already has {user} signed up"
        )
    if tournament.entries.count() >= tournament.max_players:
        raise TournamentRefused("this tournament is full")
    return Entry.objects.create(tournament=tournament, user=user)


def _locked(tournament_id: int) -> Tournament:
    return Tournament.objects.select_for_update().get(pk=tournament_id)


def _check_open(tournament: Tournament) -> None:
    if not tournament.is_open:
        raise TournamentRefused(f"this tournament is {tournament.get_status_display().lower()}")


def _check_organiser(tournament: Tournament, user: User) -> None:
    if not tournament.is_organiser(user):
        raise NotOrganiser("only the organiser can do that")


# -- starting ------------------------------------------------------------------------------------


def start_tournament(tournament_id: int, *, user: User) -> Tournament:
    """The organiser starts an open tournament now (before the deadline, too)."""
    with transaction.atomic():
        tournament = _locked(tournament_id)
        _check_organiser(tournament, user)
        _check_open(tournament)
        count = tournament.entries.count()
        if not tournament.has_enough_players(count):
            raise TournamentRefused(
                f"{count} player{'s have' if count != 1 else ' has'} signed up: "
                f"the tournament needs at least {tournament.min_players}"
            )
        _start(tournament)
    return tournament


def start_due_tournaments(now: datetime | None = None) -> dict[str, int]:
    """The periodic sweep: start each automatic tournament whose sign-up deadline has
    passed, or cancel it if too few players signed up. Safe to run twice or concurrently:
    each tournament is re-checked under its row lock."""
    now = now or timezone.now()
    done = {"started": 0, "cancelled": 0}
    for pk in Tournament.objects.due_to_start(now).values_list("pk", flat=True):
        with transaction.atomic():
            tournament = _locked(pk)
            if not tournament.is_open:
                continue  # another sweep got there first
            if tournament.has_enough_players(tournament.entries.count()):
                _start(tournament, now=now)
                done["started"] += 1
            else:
                _cancel(tournament, reason=Tournament.CancelReason.TOO_FEW, now=now)
                done["cancelled"] += 1
    return done


def _start(tournament: Tournament, *, now: datetime | None = None) -> None:
    entries = seeded_entries(tournament)
    for seed, entry in enumerate(entries, 1):
        entry.seed = seed
    Entry.objects.bulk_update(entries, ["seed", "rating", "rd"])
    players = [entry.user_id for entry in entries]
    draw = Draw.create(tournament.format, players, **_draw_options(tournament, len(players)))
    tournament.status = Tournament.Status.RUNNING
    tournament.started_at = now or timezone.now()
    # A first-round bye is told by the start's email below, not by a bye email.
    started = _advance(tournament, draw, decided_before=_decided_ids(draw))
    waiting = [entry.user for entry in entries if entry.user_id not in started]
    emails.tournament_started_without_match(
        tournament,
        waiting,
        match_to_come={user.pk for user in waiting if _match_to_come(draw, user.pk)},
    )


def _draw_options(tournament: Tournament, players: int) -> dict[str, int]:
    if tournament.format != Format.SWISS:
        return {}
    return {"rounds": tournament.swiss_rounds_for(players)}


def seeded_entries(tournament: Tournament) -> list[Entry]:
    """The entries best first, by rating in the tournament's variant (unrated: 1500); ties
    are broken by a shuffle seeded by the tournament, so the seeding can be reproduced.
    Sets each entry's ``rating`` and its ``rd`` as of now (not saved), which its page
    shows, marked "?" if provisional as the leaderboard marks it."""
    entries = list(tournament.entries.select_related("user").order_by("user_id"))
    now = timezone.now()
    ratings = {
        row.user_id: as_of(row, now)
        for row in PlayerRating.objects.filter(
            variant=tournament.variant, user__in=[entry.user_id for entry in entries]
        )
    }
    random.Random(tournament.shuffle_seed).shuffle(entries)
    for entry in entries:
        rating = ratings.get(entry.user_id, Rating(UNRATED))
        entry.rating, entry.rd = rating.rating, rating.rd
    entries.sort(key=lambda entry: -entry.rating)  # stable: the shuffle breaks ties
    return entries


# -- advancing -------------------------------------------------------------------------------------


def match_finished(match: Match) -> None:
    """Report a finished match to its tournament, start what it makes pending, and finish
    the tournament if that was its last match.

    Called by ``games.services.finish_match`` inside its transaction. A no-op for a match
    that is not in a tournament, for a tournament that is not running (cancelled: its
    matches are left to finish but advance nothing), and for a result already reported, so
    calling it again is harmless. In a round robin or a Swiss a loss on time also
    withdraws the loser (:data:`WITHDRAWN_ON_TIME`) if it was not their last match: their
    remaining matches are lost by walkover, or they are not paired again, instead of each
    round waiting out their deadline; not in a Swiss whose next round could not be paired
    without them (:func:`_timeout_withdraws`). So does a resignation by a
    player who is withdrawing (``withdraw`` marks their entry first).
    """
    link = _link_of(match)
    loser_color = match.loser_color
    if link is None or loser_color is None:
        return
    with transaction.atomic():
        tournament = _locked(link.tournament_id)
        if not tournament.is_running:
            return
        draw = tournament.draw()
        assert draw is not None
        slot = draw.match(link.slot_id)
        if slot.is_decided:
            return
        decided_before = _decided_ids(draw)
        loser = match.player(loser_color)
        # Counted before the result is reported: the result may open the next round, or,
        # with the last match of a round robin's round, decide nothing of the loser's.
        left = _left_to_give_up(draw, slot, loser.pk)
        timed_out = match.ending == Match.Ending.TIMEOUT
        withdrawn_on_time = timed_out and _timeout_withdraws(draw, slot, loser.pk)
        leaving = Entry.objects.filter(tournament=tournament, user=loser)
        # The draw hears of the withdrawal with the result, not after it: the result may
        # complete a round, and the next one must be paired (and its byes and walkovers
        # given) without the loser.
        draw.report(
            slot.slot_id,
            match.winner_id,
            points=points_in_slot_order(match, slot),
            loser_withdraws=withdrawn_on_time or leaving.filter(withdrawn=True).exists(),
        )
        if withdrawn_on_time:
            leaving.update(withdrawn=True)
            emails.withdrawn_on_time(tournament, loser, match=match, left=left)
        _advance(tournament, draw, decided_before=decided_before)


def _timeout_withdraws(draw: Draw, slot: MatchSlot, player: int) -> bool:
    """Whether losing ``slot`` on time, counted before its result is reported, withdraws
    ``player``: in a round robin or a Swiss (:data:`WITHDRAWN_ON_TIME`), if they have
    something left to give up (:func:`_left_to_give_up`).

    In a Swiss, only if the next round can be paired without a rematch without them. If
    it can only with them, withdrawing them would end the tournament for everyone after
    this round: they stay and are paired. If it cannot either way, this round is the last,
    and the loss is a plain loss, as in a last round. Whether it could be paired with them
    does not count: one player fewer moves the bye, so a round that cannot be paired with
    them may be paired without them, and keeping them would then end it for everyone.
    """
    if draw.format not in WITHDRAWN_ON_TIME or _left_to_give_up(draw, slot, player) == 0:
        return False
    if isinstance(draw, brackets.Swiss):
        return draw.can_pair_next_round(without=player)
    return True


def _left_to_give_up(draw: Draw, slot: MatchSlot, player: int) -> int:
    """What ``player`` would give up by withdrawing as they lose ``slot``, counted before its
    result is reported: in a Swiss, the rounds still to be paired after this one; in a
    round robin, the other matches they have still to play, byes not counted.

    Nothing, and a loss on time is a plain loss, whether or not other matches of the round
    are still being played: their timing must not decide the loser's place.
    """
    if isinstance(draw, brackets.Swiss):
        return draw.total_rounds - slot.round
    return _matches_to_play(draw, player, besides=slot.slot_id)


def _matches_to_play(draw: Draw, player: int, *, besides: str | None = None) -> int:
    """The matches in ``draw`` that ``player`` has still to play (undecided, not byes),
    other than the slot ``besides``.

    A match against a player who has withdrawn is not counted: it will be a walkover,
    nothing to play, and withdrawing would not spare that opponent a wait.
    """
    withdrawn = set(draw.withdrawn)
    return sum(
        1
        for slot in draw.matches()
        if not slot.is_decided
        and player in slot.players
        and brackets.BYE not in slot.players
        and not withdrawn.intersection(slot.players)
        and slot.slot_id != besides
    )


def timeout_withdraws(match: Match, player: int | None = None) -> bool:
    """Whether losing ``match`` on time now would also withdraw ``player`` (by default the
    player to move) from its tournament, for its deadline reminder and its page: in a
    round robin or a Swiss (:data:`WITHDRAWN_ON_TIME`), unless it is their last match there
    or, in a Swiss, the next round could not be paired without them, by the rule of
    :func:`match_finished`. No query when ``match`` came with
    ``select_related("tournament_match__tournament")``."""
    player = match.to_move_id if player is None else player
    link = _link_of(match, "tournament")
    if link is None or not link.tournament.is_running or player is None or not match.is_active:
        return False  # a cancelled tournament's matches no longer count for it
    draw = link.tournament.draw()
    if draw is None:
        return False
    return _timeout_withdraws(draw, draw.match(link.slot_id), player)


def points_in_slot_order(match: Match, slot: MatchSlot) -> tuple[int, int]:
    """The match score, in the order of the slot's players."""
    score = {match.white_id: match.score_white, match.black_id: match.score_black}
    first, second = slot.players
    return (score[first], score[second])


def _advance(tournament: Tournament, draw: Draw, *, decided_before: set[str]) -> dict[int, Match]:
    """Start a match for every pending slot that has none, tell of the byes and walkovers
    given since ``decided_before`` (the ids of the draw's decided slots before this change),
    save the draw, and finish the tournament if the draw is over; return the matches
    started, by the id of each of their players.

    No match is started for a player whose entry is marked withdrawn: they are leaving in
    this transaction, and the draw is about to give that slot to their opponent.
    """
    started_slots = set(tournament.tournament_matches.values_list("slot_id", flat=True))
    entries = {entry.user_id: entry for entry in tournament.entries.select_related("user")}
    started: dict[int, Match] = {}
    # Before the matches start: each one's first turn email names its round from it.
    tournament.state = draw.to_dict()
    to_start: list[tuple[MatchSlot, Entry, Entry]] = []
    for slot in draw.pending_matches():
        first, second = (entries[player] for player in slot.players)  # type: ignore[index]
        if slot.slot_id not in started_slots and not first.withdrawn and not second.withdrawn:
            to_start.append((slot, first, second))
    # Every player of the round at once, in one order, before any match starts: taken
    # match by match (seeds 1 and 8, then 2 and 7), a transaction locking two of them the
    # other way round (an accept between them, another tournament's round) could each hold
    # a row the other waits for. Each start_match then finds its players locked already.
    game_services.lock_players(
        *(entry.user_id for _, first, second in to_start for entry in (first, second))
    )
    # Their rolls too (a forced opening play stores the next roll): see games.tally.
    with tally.together():
        for slot, first, second in to_start:
            match = _start_slot_match(tournament, slot, first.user, second.user)
            stage = round_title(draw, slot.bracket, slot.round)
            emails.match_ready(tournament, match, stage=stage)
            started[first.user_id] = started[second.user_id] = match
    if draw.is_finished:
        _finish(tournament, draw)
    else:
        _email_new_byes(tournament, draw, decided_before, entries=entries, started=started)
    # The walkovers before the end: a walkover that ends the tournament is why it ended, and
    # its email says so (who won), so its winner needs no second email of the end.
    told_the_end = _email_new_walkovers(
        tournament, draw, decided_before, entries=entries, started=started
    )
    if tournament.is_finished:
        emails.tournament_finished(tournament, told_already=told_the_end)
    tournament.save()
    return started


def _decided_ids(draw: Draw) -> set[str]:
    return {slot.slot_id for slot in draw.matches() if slot.is_decided}


def _email_new_byes(
    tournament: Tournament,
    draw: Draw,
    decided_before: set[str],
    *,
    entries: dict[int, Entry],
    started: dict[int, Match],
) -> None:
    """Email each player given a bye since ``decided_before``, unless they have withdrawn or
    their next match has just started (its email is the news). Each bye is keyed by its
    slot in the outbox, so replaying this cannot email it twice."""
    for slot in draw.byes():
        entry = entries[slot.winner]  # type: ignore[index]
        if slot.slot_id in decided_before or entry.withdrawn or entry.user_id in started:
            continue
        stage = round_title(draw, slot.bracket, slot.round)
        emails.bye(
            tournament,
            entry.user,
            slot_id=slot.slot_id,
            stage=stage,
            match_to_come=_match_to_come(draw, entry.user_id),
        )


def _match_to_come(draw: Draw, player: int) -> bool:
    """Whether ``player`` has a match still to play: one in the draw, undecided and not a
    bye, against a player who has not withdrawn, or, in a Swiss, a round still to be paired.
    A bye in a round robin's or a Swiss' last round leaves none."""
    if isinstance(draw, brackets.Swiss) and len(draw.rounds()) < draw.total_rounds:
        return True
    return _matches_to_play(draw, player) > 0


def _email_new_walkovers(
    tournament: Tournament,
    draw: Draw,
    decided_before: set[str],
    *,
    entries: dict[int, Entry],
    started: dict[int, Match],
) -> set[int]:
    """Email each player who has won a walkover since ``decided_before``, unless they have
    withdrawn (a tournament they have left is no news to them); return the ids of the
    players emailed. Unlike a bye, a walkover is emailed even when the winner's next match
    has just started: that match's email does not say why there was nothing to play. A
    match cut short by a withdrawal is no walkover: it ends by resignation, and
    finish_match emails its result. Each walkover is keyed by its slot in the outbox, so
    replaying this cannot email it twice."""
    emailed = set()
    for slot in draw.walkovers():
        entry = entries[slot.winner]  # type: ignore[index]
        if slot.slot_id in decided_before or entry.withdrawn:
            continue
        emails.walkover(
            tournament,
            entry.user,
            slot_id=slot.slot_id,
            stage=round_title(draw, slot.bracket, slot.round),
            opponent=entries[slot.loser].user,  # type: ignore[index]
            next_match=started.get(entry.user_id),
            match_to_come=_match_to_come(draw, entry.user_id),
        )
        emailed.add(entry.user_id)
    return emailed


def _start_slot_match(tournament: Tournament, slot: MatchSlot, first: User, second: User) -> Match:
    players = [first, second]
    random.SystemRandom().shuffle(players)  # colours, as for an accepted challenge
    return game_services.start_match(
        white=players[0],
        black=players[1],
        variant=tournament.variant,
        points=tournament.points,
        days_per_move=tournament.days_per_move,
        rated=tournament.rated,
        tournament=tournament,
        slot_id=slot.slot_id,
    )


@dataclass(frozen=True)
class Stage:
    """Where a match stands in its tournament: the tournament, and its round's name."""

    tournament: Tournament
    # "Semi-finals", "Round 2"; empty should the draw not know the slot, or once the
    # tournament is cancelled (its matches no longer count for it)
    title: str

    def __str__(self) -> str:
        return f"{self.tournament.name}, {self.title}" if self.title else self.tournament.name


def stage_of(match: Match) -> Stage | None:
    """The tournament ``match`` plays a slot of, and that slot's round, for the match's
    page and its turn emails: a player should know a loss ends their tournament, and find
    the bracket. None for a match outside tournaments. A cancelled tournament's match has
    no round: it is played on, but no longer counts for the tournament. One query; none
    when ``match`` came with ``select_related("tournament_match__tournament")`` (a turn's
    locked match does)."""
    link = _link_of(match, "tournament")
    if link is None:
        return None
    if link.tournament.is_cancelled:
        return Stage(link.tournament, "")
    draw = link.tournament.draw()
    try:
        slot = draw.match(link.slot_id) if draw is not None else None
    except brackets.TournamentError:
        slot = None
    title = round_title(draw, slot.bracket, slot.round) if draw and slot else ""
    return Stage(link.tournament, title)


def tournament_of(match: Match) -> Tournament | None:
    """The running tournament ``match`` plays in, or None, for its deadline reminder (which
    says what a loss on time does there: :func:`timeout_withdraws`). None once the
    tournament is cancelled: its matches are played on, but a loss there no longer does
    anything to anyone's tournament. One query; none when ``match`` came with
    ``select_related("tournament_match__tournament")`` (the reminder sweep's claimed match
    does)."""
    link = _link_of(match, "tournament")
    return link.tournament if link is not None and link.tournament.is_running else None


def _link_of(match: Match, *related: str) -> TournamentMatch | None:
    """``match``'s link to the tournament it plays in (with ``related`` loaded), or None: no
    query when it was selected with the match (games.services does, with the match it
    locks), where a cached None means there is none."""
    if Match.tournament_match.is_cached(match):
        return getattr(match, "tournament_match", None)
    links = TournamentMatch.objects.filter(match=match)
    # (select_related() with nothing named would load every relation.)
    return (links.select_related(*related) if related else links).first()


def round_title(draw: Draw, bracket: Bracket, number: int) -> str:
    """A round's name for people: "Round 2", "Semi-finals", "Losers round 3", "Grand final";
    in a double elimination, "Winners round 1" beside "Losers round 1"."""
    if bracket == Bracket.GRAND_FINAL:
        return "Grand final" if number == 1 else "Grand final, deciding match"
    if bracket == Bracket.LOSERS:
        return f"Losers round {number}"
    if bracket == Bracket.ROUNDS:
        return f"Round {number}"
    last = max(slot.round for slot in draw.matches() if slot.bracket == Bracket.WINNERS)
    names = {last: "Final", last - 1: "Semi-finals", last - 2: "Quarter-finals"}
    if draw.format == Format.DOUBLE_ELIMINATION:
        names = {last: "Winners final", last - 1: "Winners semi-finals"}
        return names.get(number, f"Winners round {number}")
    return names.get(number, f"Round {number}")


def _finish(tournament: Tournament, draw: Draw) -> None:
    """Record the end and the champion (not saved); :func:`_advance` emails it, after the
    walkovers that ended it."""
    tournament.status = Tournament.Status.FINISHED
    tournament.finished_at = timezone.now()
    tournament.champion_id = draw.champion


# -- withdrawing and cancelling ----------------------------------------------------------------


def withdraw(tournament_id: int, *, user: User, before_start: bool = False) -> None:
    """``user`` leaves a tournament: before the start their entry is removed; once it runs,
    their current match is resigned and every later one is lost by walkover.

    Refused, changing nothing, for someone not entered, a second time, once the tournament
    is over or cancelled, and for a player knocked out of an elimination draw (they have no
    match left: marking them withdrawn would only rewrite how they went out). With
    ``before_start`` (the page's "Leave the tournament", drawn before the start), refused
    with :class:`StartedMeanwhile` once it has started: leaving then resigns a match, which
    its own confirmation must ask for.
    """
    with transaction.atomic():
        status = Tournament.objects.values_list("status", flat=True).get(pk=tournament_id)
        if before_start and status == Tournament.Status.RUNNING:
            raise StartedMeanwhile(
                "the tournament has started meanwhile: to withdraw from it now, use Withdraw…"
                " and confirm"
            )
        if status == Tournament.Status.OPEN:
            _leave_before_start(tournament_id, user)
        elif status == Tournament.Status.RUNNING:
            _claim_withdrawal(tournament_id, user)
            resigned = _resign_current_matches(tournament_id, user)
            tournament = _locked(tournament_id)
            # Everything from here on may refuse: raising rolls back the claim above.
            if not tournament.is_running:
                if not resigned:  # it ended (or was cancelled) meanwhile, without them
                    raise TournamentRefused(_over(tournament.status))
                return  # their resignation ended it: they played all their matches
            draw = tournament.draw()
            assert draw is not None
            # Checked under the tournament's lock, after the resignation: a player who had
            # a match to resign is in the draw's withdrawn by now (match_finished), and one
            # knocked out, even by a result that came in meanwhile, has nothing left.
            if user.pk not in draw.withdrawn and not draw.in_contention(user.pk):
                raise TournamentRefused(
                    "you are out of this tournament already: there is nothing to withdraw from"
                )
            decided_before = _decided_ids(draw)
            _withdraw_from_draw(tournament, draw, user.pk)
            _advance(tournament, draw, decided_before=decided_before)
        else:
            raise TournamentRefused(_over(status))


def _over(status: str) -> str:
    """Why nobody can withdraw from a tournament that is no longer running."""
    if status == Tournament.Status.CANCELLED:
        return "this tournament has been cancelled"
    return "this tournament is over"


def _leave_before_start(tournament_id: int, user: User) -> None:
    tournament = _locked(tournament_id)
    if tournament.is_running:
        raise StartedMeanwhile("the tournament has started meanwhile: withdraw again")
    if not tournament.is_open:  # cancelled meanwhile: there is nothing to leave
        raise TournamentRefused(_over(tournament.status))
    deleted, _ = Entry.objects.filter(tournament=tournament, user=user).delete()
    if not deleted:
        raise TournamentRefused("you have not signed up for this tournament")


def _claim_withdrawal(tournament_id: int, user: User) -> None:
    """Mark the entry withdrawn, once: a second withdrawal (a double click) is refused."""
    entries = Entry.objects.filter(tournament_id=tournament_id, user=user)
    if not entries.filter(withdrawn=False).update(withdrawn=True):
        if entries.exists():
            raise TournamentRefused("you have already withdrawn")
        raise TournamentRefused("you are not playing in this tournament")


def _resign_current_matches(tournament_id: int, user: User) -> int:
    """Resign ``user``'s active matches in the tournament; return how many. This comes
    before locking the tournament: resigning locks the match, then finish_match locks the
    tournament."""
    active = (
        Match.objects.active().involving(user).filter(tournament_match__tournament_id=tournament_id)
    )
    resigned = 0
    for match_id in active.values_list("pk", flat=True):
        try:
            match = game_services.resign(match_id, user=user)
        except game_services.StaleSegment:
            continue  # it ended meanwhile, and finish_match reported it
        match_finished(match)  # a no-op once finish_match calls it
        resigned += 1
    return resigned


def _withdraw_from_draw(tournament: Tournament, draw: Draw, player: int) -> None:
    Entry.objects.filter(tournament=tournament, user_id=player).update(withdrawn=True)
    if not draw.is_finished and player not in draw.withdrawn:
        draw.withdraw(player)


def cancel_tournament(
    tournament_id: int,
    *,
    user: User,
    only_open: bool = False,
    reason: Tournament.CancelReason = Tournament.CancelReason.ORGANISER,
) -> Tournament:
    """The organiser calls a tournament off. Matches under way are left to finish, but the
    draw advances no further. ``only_open``: not once it has started (an organiser
    closing their account leaves a running tournament to its players). ``reason``: what
    its page and the entrants' emails say (by default, that the organiser cancelled it)."""
    with transaction.atomic():
        tournament = _locked(tournament_id)
        _check_organiser(tournament, user)
        if only_open and tournament.status == Tournament.Status.RUNNING:
            raise StartedMeanwhile("the tournament has started")
        if tournament.status not in (Tournament.Status.OPEN, Tournament.Status.RUNNING):
            raise TournamentRefused(f"this tournament is already {tournament.status}")
        _cancel(tournament, reason=reason, by=user)
    return tournament


def _cancel(
    tournament: Tournament,
    *,
    reason: Tournament.CancelReason,
    by: User | None = None,
    now: datetime | None = None,
) -> None:
    tournament.status = Tournament.Status.CANCELLED
    tournament.finished_at = now or timezone.now()
    tournament.cancel_reason = reason
    tournament.save(update_fields=["status", "finished_at", "cancel_reason"])
    emails.tournament_cancelled(tournament, by=by)
