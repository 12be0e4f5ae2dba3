"""A stored match as an engine match record (games.engine.record), for export."""

from __future__ import annotations

from typing import Any

from games.engine import Pair
from games.engine.game import DoubleNamed, OpeningRoll, SegmentKind
from games.engine.match import Ending, GameResult
from games.engine.record import (
    GameRecord,
    MatchRecord,
    MatchResult,
    SegmentRecord,
    to_json,
    to_text,
)

from .models import Match, Segment


def match_record(match: Match) -> MatchRecord:
    """Every stored segment and result of ``match`` as a :class:`MatchRecord`."""
    events: dict[int, list] = {}
    for segment in match.segments.order_by("number"):
        events.setdefault(segment.game_number, []).append(_event(segment))
    # The roll still to play: of the match in progress (there is none while a double is
    # being named), or the one the loser of a resignation or a timeout had (kept for this
    # by services.finish_match; a game borne off leaves none).
    if match.dice:
        pending = SegmentRecord(
            match.position["turn"], tuple(match.dice), SegmentKind(match.segment_kind), None
        )
        events.setdefault(match.game_number, []).append(pending)
    results = {
        r.game_number: GameResult(r.winner, r.points, Ending(r.ending))
        for r in match.game_results.all()
    }
    games = tuple(
        GameRecord(tuple(game_events), results.get(number))
        for number, game_events in sorted(events.items())
    )
    winner = match.color_of(match.winner) if match.winner else None
    return MatchRecord(
        variant=match.variant,
        length=match.points,
        players={"white": match.white.username, "black": match.black.username},
        games=games,
        result=MatchResult(
            winner,
            Ending(match.ending) if match.ending else None,
            Pair(match.score_white, match.score_black),
        ),
        event=f"Match #{match.pk}",
        date=match.created_at.date().isoformat(),
        # Fair dice (games.dice), so that a downloaded record can be checked on its own:
        # the commitment always, the seed only once the match is over, as the dice page
        # and the API give them (in play it would tell every roll to come).
        seed_sha256=match.seed_hash,
        seed=match.revealed_seed,
    )


def _event(segment: Segment) -> OpeningRoll | DoubleNamed | SegmentRecord:
    if segment.kind == Segment.Kind.OPENING:
        return OpeningRoll(segment.dice[0], segment.dice[1])
    if segment.kind == Segment.Kind.DOUBLE:
        return DoubleNamed(segment.player, segment.dice[0])
    return SegmentRecord(
        segment.player,
        tuple(segment.dice),
        SegmentKind(segment.kind),
        segment.play,
        segment.named_blot,
    )


def match_record_text(match: Match) -> str:
    return to_text(match_record(match))


def match_record_json(match: Match) -> dict[str, Any]:
    return to_json(match_record(match))
