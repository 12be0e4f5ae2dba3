"""Driving tournaments through the Django layer: sign-up, random results, invariants.

Results are given by resigning (``games.services.resign``), which ends the match in
``finish_match``. Until ``finish_match`` calls ``games.tournaments.services.match_finished``
itself, the helpers call it after each resignation; once it does, the second call is a
no-op (the slot already has its result), so these tests pass either way.
"""

from __future__ import annotations

import random
from collections import Counter
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.utils import timezone

from games import services as game_services
from games.models import Match, PlayerRating
from games.tournaments import services
from games.tournaments.brackets import BYE, Format
from games.tournaments.models import Entry, Tournament, TournamentMatch

_made = Counter()


def make_users(count: int, prefix: str = "p") -> list:
    """``count`` new players named ``<prefix><n>``, numbered on from earlier calls, each
    with a confirmed address (their game emails go out)."""
    model = get_user_model()
    users = []
    for _ in range(count):
        _made[prefix] += 1
        name = f"{prefix}{_made[prefix]}"
        users.append(
            model.objects.create_user(
                username=name,
                email=f"{name}@example.com",
                password="x",
                email_confirmed_at=timezone.now(),
            )
        )
    return users


def open_tournament(organiser, *, format: str = Format.SINGLE_ELIMINATION, **options) -> Tournament:
    settings = {
        "name": f"{format} cup",
        "signup_deadline": timezone.now() + timedelta(days=3),
        "format": format,
        "points": 1,
        "min_players": 2,
        "max_players": 64,
        "start_mode": Tournament.StartMode.MANUAL,
        **options,
    }
    tournament = services.create_tournament(organiser, **settings)
    # The seeding shuffle (for ties in rating) is random in production; fixed here so that a
    # failing simulation can be replayed.
    Tournament.objects.filter(pk=tournament.pk).update(shuffle_seed=12345)
    tournament.refresh_from_db()
    return tournament


def started_tournament(organiser, players, *, format: str, **options) -> Tournament:
    tournament = open_tournament(organiser, format=format, **options)
    for player in players:
        services.sign_up(tournament.pk, user=player)
    services.start_tournament(tournament.pk, user=organiser)
    tournament.refresh_from_db()
    return tournament


def seeded_tournament(organiser, players, *, format: str, **options) -> Tournament:
    """A started tournament of ``players`` seeded in the order given (by their ratings)."""
    for seed, player in enumerate(players):
        PlayerRating.objects.create(user=player, variant="american", rating=1900 - 100 * seed)
    tournament = open_tournament(organiser, format=format, **options)
    for player in players:
        if player.is_bot:
            services.add_bot(tournament.pk, user=organiser, bot=player)
        else:
            services.sign_up(tournament.pk, user=player)
    services.start_tournament(tournament.pk, user=organiser)
    tournament.refresh_from_db()
    return tournament


def active_matches(tournament: Tournament) -> list[Match]:
    return list(
        Match.objects.active()
        .filter(tournament_match__tournament=tournament)
        .select_related("white", "black")
        .order_by("pk")
    )


def lose(match: Match, loser) -> Match:
    """``loser`` resigns ``match``; the tournament hears of it (see the module docstring)."""
    finished = game_services.resign(match.pk, user=loser)
    services.match_finished(finished)
    return finished


def swiss_that_ends_early(organiser) -> tuple[Tournament, list]:
    """A Swiss of five players seeded in order, planned for four rounds, that ends after
    three: seed 3 withdraws in round 1, and the four left cannot then play a fourth round
    without a rematch. The tournament, and its players by seed."""
    players = make_users(5)
    _, two, three, four, _ = players
    tournament = seeded_tournament(organiser, players, format=Format.SWISS, swiss_rounds=4)
    # Round 1: 1 v 3, 2 v 4, and 5 has the bye.
    services.withdraw(tournament.pk, user=three)  # resigns to 1
    # Round 2: 1 v 2, 5 v 4; round 3: 1 v 4, 5 v 2. Round 4 could only be 1 v 5, 2 v 4 again.
    for slot_id, loser in [("R1-2", four), ("R2-1", two), ("R2-2", four), ("R3-1", four)]:
        lose(slot_match(tournament, slot_id), loser)
    lose(slot_match(tournament, "R3-2"), two)
    tournament.refresh_from_db()
    return tournament, players


def slot_match(tournament: Tournament, slot_id: str) -> Match:
    return Match.objects.select_related("white", "black").get(
        tournament_match__tournament=tournament, tournament_match__slot_id=slot_id
    )


def play_out(tournament: Tournament, rng: random.Random, *, withdrawals: int = 0) -> list[int]:
    """Finish random active matches by resignation of a random player until the tournament
    is over; withdraw up to ``withdrawals`` random players still in on the way (one after
    the first result, and so on every other step). Returns the ids of the players who
    withdrew."""
    withdrawn: list[int] = []
    for step in range(10_000):
        tournament.refresh_from_db()
        if tournament.status != Tournament.Status.RUNNING:
            return withdrawn
        active = active_matches(tournament)
        assert active, "a running tournament always has a match being played"
        if len(withdrawn) < withdrawals and step % 2 == 1:
            # Only a player still in: one knocked out has nothing to withdraw from.
            draw = tournament.draw()
            entries = Entry.objects.filter(tournament=tournament, withdrawn=False)
            still_in = [e for e in entries.select_related("user") if draw.in_contention(e.user_id)]
            entry = rng.choice(still_in)
            services.withdraw(tournament.pk, user=entry.user)
            withdrawn.append(entry.user_id)
            continue
        match = rng.choice(active)
        # Players in id order, not colour order: colours are drawn by the site at random.
        lose(match, rng.choice(sorted([match.white, match.black], key=lambda user: user.pk)))
    raise AssertionError("the tournament did not finish")


def check_invariants(tournament: Tournament, *, withdrawn: list[int] = ()) -> None:
    """What must hold for any finished tournament, whatever the results."""
    tournament.refresh_from_db()
    draw = tournament.draw()
    entries = {entry.user_id: entry for entry in tournament.entries.all()}
    players = set(entries)

    # One champion, who did not withdraw, and the site agrees with the draw.
    assert tournament.status == Tournament.Status.FINISHED
    assert draw.is_finished
    assert tournament.champion_id is not None
    assert tournament.champion_id == draw.champion
    assert tournament.champion_id not in withdrawn
    assert tournament.finished_at is not None

    # Seeds 1..n, in the draw's order.
    assert [entries[player].seed for player in draw.players] == list(range(1, len(players) + 1))

    # Every site match belongs to exactly one slot, played by that slot's players, with the
    # slot's result; and every slot that was played has its match.
    links = list(TournamentMatch.objects.filter(tournament=tournament).select_related("match"))
    tournament_match_ids = [link.match_id for link in links]
    assert len(set(tournament_match_ids)) == len(links)
    all_matches = Match.objects.filter(white_id__in=players, black_id__in=players)
    assert set(all_matches.values_list("pk", flat=True)) == set(tournament_match_ids)
    played_slots = {
        slot.slot_id: slot
        for slot in draw.matches()
        if slot.is_decided and not slot.is_bye and not slot.walkover
    }
    assert {link.slot_id for link in links} == set(played_slots)
    for link in links:
        slot, match = played_slots[link.slot_id], link.match
        assert match.status == Match.Status.FINISHED
        assert {match.white_id, match.black_id} == set(slot.players)
        assert slot.winner == match.winner_id
        assert slot.points == services.points_in_slot_order(match, slot)

    # Each player's matches on the site are the slots they played.
    per_player = Counter()
    for link in links:
        per_player.update([link.match.white_id, link.match.black_id])
    standings = {standing.player: standing for standing in draw.standings()}
    for player in players:
        walkovers = sum(
            1
            for slot in draw.matches()
            if slot.walkover and player in slot.players and BYE not in slot.players
        )
        assert per_player[player] + walkovers == standings[player].played, player

    # Standings: everyone once, ranks from 1, wins and losses add up.
    assert sorted(standings) == sorted(players)
    assert draw.standings()[0].player == tournament.champion_id
    assert draw.standings()[0].rank == 1
    for standing in standings.values():
        assert standing.wins + standing.losses == standing.played
    total_wins = sum(standing.wins for standing in standings.values())
    total_losses = sum(standing.losses for standing in standings.values())
    double_walkovers = sum(1 for slot in draw.matches() if slot.winner == BYE and slot.walkover)
    assert total_losses == total_wins + 2 * double_walkovers  # both lose a double walkover
    points_for = sum(standing.points_for for standing in standings.values())
    assert points_for == sum(standing.points_against for standing in standings.values())

    # Withdrawn players are marked; every walkover is lost by a withdrawn player (a walkover
    # won by a withdrawn player was awarded before they withdrew themselves).
    for player in withdrawn:
        assert entries[player].withdrawn
        # ... and in the draw, unless their resignation ended the tournament.
        assert player in draw.withdrawn or _nothing_left_to_withdraw_from(draw, player)
    order = {player: index for index, player in enumerate(draw.withdrawn)}
    for slot in draw.matches():
        if not slot.walkover:
            continue
        first, second = slot.players
        if slot.winner == BYE:
            assert first in order and second in order
            continue
        loser = second if slot.winner == first else first
        assert loser in order
        assert slot.winner not in order or order[slot.winner] > order[loser]

    _check_format(tournament, draw, standings, withdrawn)


def _nothing_left_to_withdraw_from(draw, player: int) -> bool:
    """Resigning their match ended the tournament: they played all their matches."""
    theirs = [slot for slot in draw.matches() if player in slot.players]
    return all(slot.is_decided and not slot.walkover for slot in theirs)


def _check_format(tournament, draw, standings, withdrawn) -> None:
    count = len(standings)
    champion = tournament.champion_id
    if tournament.format == Format.SINGLE_ELIMINATION:
        decided = [slot for slot in draw.matches() if not slot.is_bye]
        assert len(decided) == count - 1
        for player, standing in standings.items():
            assert standing.losses == (0 if player == champion else 1)
    elif tournament.format == Format.DOUBLE_ELIMINATION:
        for player, standing in standings.items():
            if player == champion:
                assert standing.losses <= 1
            else:
                assert standing.losses == 2 or (player in withdrawn and standing.losses >= 1)
    elif tournament.format == Format.ROUND_ROBIN:
        for standing in standings.values():
            assert standing.played == count - 1
    else:
        rounds = draw.total_rounds
        for player, standing in standings.items():
            if player not in withdrawn:
                assert standing.played + standing.byes == rounds
            assert standing.byes <= 1 or count <= 2
