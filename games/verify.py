"""The dice page of a match: the seed commitment, the revealed seed, and every roll checked."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from django.contrib.auth import get_user_model
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_safe

from accounts.services import named_in_any_case

from .dice import roll_pair
from .models import DiceTally, Match, Segment
from .tally import tally_of

ROLLED = (Segment.Kind.OPENING, Segment.Kind.ROLL, Segment.Kind.ACEY_DEUCEY)


def dice_statistics(rolls: Iterable[tuple[int, int]]) -> dict[str, object]:
    """Faces, doubles and 1-2s among ``rolls`` (opening rolls are single dice per player,
    so callers pass only the segments' rolls for doubles and 1-2s), counted as a player's
    dice tally counts them (games.tally.tally_of)."""
    counted = sum((tally_of(dice) for dice in rolls), Counter[str]())
    return _figures(DiceTally(**counted))


def _figures(tally: DiceTally) -> dict[str, object]:
    """What the dice pages show of the rolls ``tally`` counts: how many came up with each
    face (each die counted), how many doubles and 1-2s, against how many were to be
    expected."""
    rolls, doubles = tally.rolls, tally.doubles
    return {
        "rolls": rolls,
        "faces": tally.faces,
        "doubles": doubles,
        "acey_deuceys": tally.acey_deuceys,
        "doubles_expected": round(rolls / 6, 1),
        "acey_deuceys_expected": round(rolls / 18, 1),
        "doubles_share": doubles / max(1, rolls),
    }


@require_safe
def match_dice(request: HttpRequest, match_id: int) -> HttpResponse:
    """Every roll of the match; once it is over, each recomputed from the revealed seed."""
    match = get_object_or_404(Match.objects.select_related("white", "black"), pk=match_id)
    seed = match.revealed_seed
    rows = []
    for roll, (segment, player, dice) in enumerate(_rolls(match), start=1):
        expected = roll_pair(seed, roll) if seed is not None else None
        rows.append(
            {
                "roll": roll,
                "segment": segment,
                "player": player,
                "dice": dice,
                "expected": expected,
                "ok": expected is None or expected == dice,
            }
        )
    # Counted as the players' own dice pages count (their tallies, games.tally): the rolls
    # of stored segments, not the one still to play nor one a match ended on unplayed
    # (listed, and checked against the seed, all the same).
    played = [row for row in rows if row["player"] and row["segment"] is not None]
    context = {
        "match": match,
        "rows": rows,
        "revealed": seed is not None,
        "all_ok": all(row["ok"] for row in rows),
        "openings": sum(1 for row in rows if not row["player"]),
        "unplayed": _unplayed_reason(match),
        "uncounted": any(row["player"] and row["segment"] is None for row in rows),
        "stats": dice_statistics(row["dice"] for row in played),
        "per_player": {
            color: dice_statistics(row["dice"] for row in played if row["player"] == color)
            for color in ("white", "black")
        },
    }
    return render(request, "games/dice.html", context)


def _rolls(match: Match) -> list[tuple[Segment | None, str, tuple[int, int]]]:
    """Every roll made, in order, as (segment, player, dice): ``player`` is ``""`` for an
    opening roll; the last roll has no segment while it is still to play, or when the match
    ended by resignation or timeout before it was played (services.finish_match keeps its
    dice). A named double is chosen, not rolled, so it has no roll number."""
    segments = match.segments.filter(kind__in=ROLLED).order_by("number")
    rolls = [(s, s.player, (s.dice[0], s.dice[1])) for s in segments]
    if match.dice and match.segment_kind != Segment.Kind.NAMED_DOUBLE:
        rolls.append((None, match.position["turn"], (match.dice[0], match.dice[1])))
    return rolls


def _unplayed_reason(match: Match) -> dict[str, object] | None:
    """Why a forfeited match's last roll was not played: who resigned or ran out of time."""
    loser = match.loser_color
    if match.is_active or match.ending == Match.Ending.BORNE_OFF or loser is None:
        return None
    return {"loser": match.player(loser), "timeout": match.ending == Match.Ending.TIMEOUT}


@require_safe
def player_dice(request: HttpRequest, username: str) -> HttpResponse:
    """The dice one player has rolled in all their matches (rolled segments only), as
    their tally has counted them (games.tally): one row, read with the player."""
    users = get_user_model().objects.select_related("dice_tally")
    person = users.filter(username=username).first()
    if person is None:  # as the profile's address, in any case: sent to its own
        return redirect("player_dice", named_in_any_case(username).username, permanent=True)
    # Someone who has never played has no tally: nothing rolled.
    tally = getattr(person, "dice_tally", None) or DiceTally(user=person)
    stats = _figures(tally)
    return render(request, "games/player_dice.html", {"person": person, "stats": stats})
