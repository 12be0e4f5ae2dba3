"""Tournament emails, queued in the games outbox (``games.notifications``) and sent after
commit. Called from services inside their transaction; each email is keyed by its event,
so an event replayed cannot email twice."""

from __future__ import annotations

from typing import TYPE_CHECKING

from aceysite.links import absolute_url
from games.models import Match, Notification
from games.notifications import Email, _queue, _queue_new, gets_turn_emails

from .brackets import Format, places

if TYPE_CHECKING:
    from collections.abc import Collection, Iterable

    from accounts.models import User

    from .models import Tournament

KIND = Notification.Kind.TOURNAMENT

#: What a bye means for the player, by format (elimination: the default).
BYE_MEANING = {
    Format.SWISS: "A bye counts as a win: one point in the standings.",
    Format.ROUND_ROBIN: (
        "You sit this round out while the others play; a bye is neither a win nor a loss."
    ),
}
BYE_MEANING_ELIMINATION = "You go through to the next round without playing."


def match_ready(tournament: Tournament, match: Match, *, stage: str) -> None:
    """Tell the players their tournament match (in round ``stage``) has started, and whose
    move it is. The player to move hears it from the email of their first turn, which says
    so (games.notifications.turn_passed), unless they get no turn emails (a daily digest
    instead): then from this one, with their deadline. So does a bot's opponent when the
    bot has the first turn: the bot plays it at once, and an email saying the match has
    started and it is their turn would follow this one's "the bot is to move" in moments.
    In one INSERT: the match is new, so no key exists yet."""
    to_move = match.to_move
    bot_first = to_move is not None and to_move.is_bot

    def told_by_turn(user: User) -> bool:
        return (user.pk == match.to_move_id or bot_first) and gets_turn_emails(user)

    _queue_new(
        Email(
            user,
            KIND,
            f"tournament:{tournament.pk}:match:{match.pk}:{user.pk}",
            f"{tournament.name}, {stage}: your match against {match.opponent_of(user)} has started",
            "tournaments/email/match_ready.txt",
            {
                "tournament": tournament,
                "match": match,
                "opponent": match.opponent_of(user),
                "stage": stage,
                "colour": match.color_of(user),
                "your_move": user.pk == match.to_move_id,
                "digest": not gets_turn_emails(user),
                "url": absolute_url(match.get_absolute_url()),
                "tournament_url": absolute_url(tournament.get_absolute_url()),
            },
        )
        for user in (match.white, match.black)
        if not told_by_turn(user)
    )


def tournament_started_without_match(
    tournament: Tournament, users: Iterable[User], *, match_to_come: Collection[int]
) -> None:
    """The players with a first-round bye: the tournament has started without them
    playing. ``match_to_come``: the ids of those of them who have a match to play later
    (all, but in a Swiss of one round). In one INSERT, however many (none for none): a
    tournament starts once, under its lock, so no key exists yet."""
    context = {
        "tournament": tournament,
        "meaning": bye_meaning(tournament),
        "url": absolute_url(tournament.get_absolute_url()),
    }
    _queue_new(
        Email(
            user,
            KIND,
            f"tournament:{tournament.pk}:started:{user.pk}",
            f"{tournament.name} has started",
            "tournaments/email/started.txt",
            {**context, "match_to_come": user.pk in match_to_come},
        )
        for user in users
    )


def bye(
    tournament: Tournament, user: User, *, slot_id: str, stage: str, match_to_come: bool
) -> None:
    """A player has a bye (the draw's slot ``slot_id``) in round ``stage``, after the start:
    no match for them in that round. ``match_to_come``: they have a match to play later
    (not after a bye in a round robin's or a Swiss' last round, nor when all that is left
    is walkovers against withdrawn players). (A first-round bye is told by the start's
    email.)"""
    _queue(
        user,
        KIND,
        f"tournament:{tournament.pk}:bye:{slot_id}:{user.pk}",
        f"{tournament.name}, {stage}: you have a bye",
        "tournaments/email/bye.txt",
        {
            "tournament": tournament,
            "stage": stage,
            "meaning": bye_meaning(tournament),
            "match_to_come": match_to_come,
            "url": absolute_url(tournament.get_absolute_url()),
        },
    )


def bye_meaning(tournament: Tournament) -> str:
    return BYE_MEANING.get(Format(tournament.format), BYE_MEANING_ELIMINATION)


def walkover(
    tournament: Tournament,
    user: User,
    *,
    slot_id: str,
    stage: str,
    opponent: User,
    next_match: Match | None,
    match_to_come: bool = True,
) -> None:
    """``user`` won the draw's slot ``slot_id`` (in round ``stage``) by walkover: ``opponent``
    had withdrawn, and no match was played. ``next_match``: the match this started for them,
    if any; ``match_to_come``: they have a match to play later (a round robin's last
    walkover leaves none, and no next match is to be promised). Call it after the
    tournament's status is settled (over or not)."""
    finished = tournament.is_finished
    _queue(
        user,
        KIND,
        f"tournament:{tournament.pk}:walkover:{slot_id}:{user.pk}",
        # "is withdrawn", not "withdrew": a loss on time withdraws a player too.
        f"{tournament.name}, {stage}: {opponent} is withdrawn, you win by walkover",
        "tournaments/email/walkover.txt",
        {
            "tournament": tournament,
            "stage": stage,
            "opponent": opponent,
            "meaning": walkover_meaning(tournament, finished=finished),
            "finished": finished,
            "champion": tournament.champion if finished else None,
            "place": final_places(tournament).get(user.pk, "") if finished else "",
            "next_match": next_match,
            "next_opponent": next_match.opponent_of(user) if next_match else None,
            "next_url": absolute_url(next_match.get_absolute_url()) if next_match else "",
            "match_to_come": match_to_come,
            "url": absolute_url(tournament.get_absolute_url()),
        },
    )


def walkover_meaning(tournament: Tournament, *, finished: bool) -> str:
    if tournament.format == Format.SWISS:
        return "A walkover counts as a win: one point in the standings."
    if tournament.format == Format.ROUND_ROBIN:
        return "A walkover counts as a win in the standings."
    return "" if finished else "You go through to the next round."


def withdrawn_on_time(tournament: Tournament, user: User, *, match: Match, left: int) -> None:
    """``user`` lost ``match`` on time, which withdraws them from the tournament (a round
    robin or a Swiss): ``left`` is what they give up, one or more: the matches they had
    still to play (round robin) or the rounds still to pair (Swiss); with none, a loss on
    time withdraws nobody. The match's own email (finish_match's) says only that it is
    over."""
    _queue(
        user,
        KIND,
        f"tournament:{tournament.pk}:withdrawn:{user.pk}",
        f"{tournament.name}: you are withdrawn after losing match #{match.pk} on time",
        "tournaments/email/withdrawn_on_time.txt",
        {
            "tournament": tournament,
            "match": match,
            "opponent": match.opponent_of(user),
            "swiss": tournament.format == Format.SWISS,
            "left": left,
            "url": absolute_url(tournament.get_absolute_url()),
        },
    )


def tournament_finished(tournament: Tournament, *, told_already: Collection[int] = ()) -> None:
    """Everyone who played (and the organiser) hears who won; except the players whose ids
    are in ``told_already``, whose walkover email told them the end. In one INSERT: a
    tournament finishes once, under its lock, so no key exists yet."""
    champion = tournament.champion
    subject = f"{tournament.name} is over" + (f": {champion} won" if champion else "")
    places = final_places(tournament)
    _queue_new(
        Email(
            user,
            KIND,
            f"tournament:{tournament.pk}:finished:{user.pk}",
            subject,
            "tournaments/email/finished.txt",
            {
                "tournament": tournament,
                "champion": champion,
                "place": places.get(user.pk, ""),
                "url": absolute_url(tournament.get_absolute_url()),
            },
        )
        for user in _everyone(tournament)
        if user.pk not in told_already
    )


def final_places(tournament: Tournament) -> dict[int, str]:
    """Each player's place in the final standings, in words for their email: "You finished
    2nd of 8.", "You shared places 3 to 4 of 8." (those out in the same round of an
    elimination draw, or level on every tie-break)."""
    standings = tournament.draw().standings()
    field = len(standings)
    return {
        player: (
            f"You finished {_ordinal(first)} of {field}."
            if first == last
            else f"You shared places {first} to {last} of {field}."
        )
        for player, (first, last) in places(standings).items()
    }


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def tournament_cancelled(tournament: Tournament, *, by: User | None = None) -> None:
    """Everyone who signed up (and the organiser) hears that ``tournament`` is off, and why
    (``Tournament.cancelled_because``); except ``by``, whoever called it off (nobody, for
    the sweep's cancellation). In one INSERT: a tournament is called off once, under its
    lock, so no key exists yet."""
    _queue_new(
        Email(
            user,
            KIND,
            f"tournament:{tournament.pk}:cancelled:{user.pk}",
            f"{tournament.name} has been cancelled",
            "tournaments/email/cancelled.txt",
            {
                "tournament": tournament,
                "reason": tournament.cancelled_because(),
                "url": absolute_url(tournament.get_absolute_url()),
            },
        )
        for user in _everyone(tournament)
        if by is None or user.pk != by.pk
    )


def _everyone(tournament: Tournament) -> list[User]:
    users = [entry.user for entry in tournament.entries.select_related("user")]
    if all(user.pk != tournament.organiser_id for user in users):
        users.append(tournament.organiser)
    return users
