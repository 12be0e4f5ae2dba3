"""A tournament's match says so where its players look: the match page names the
tournament (a link to its bracket) and the round, and the dashboard's card names the
tournament. A loss there ends a player's tournament; nothing used to tell them whose it was."""

from __future__ import annotations

import pytest

from games.tournaments import services
from games.tournaments.brackets import Format

from .helpers import active_matches, lose, make_users, started_tournament

pytestmark = pytest.mark.django_db


def test_the_match_page_names_the_tournament_and_the_round(client, alice):
    players = make_users(4)
    tournament = started_tournament(
        alice, players, format=Format.SINGLE_ELIMINATION, name="Winter cup"
    )
    semi = active_matches(tournament)[0]
    client.force_login(semi.white)

    page = client.get(semi.get_absolute_url())

    assert page.context["stage"] == services.Stage(tournament, "Semi-finals")
    assert (
        f'<p class="match-stage"><a href="{tournament.get_absolute_url()}">Winter cup</a>'
        " · Semi-finals</p>" in page.text
    )
    for match in active_matches(tournament):
        lose(match, match.black)
    (final,) = active_matches(tournament)
    assert services.stage_of(final) == services.Stage(tournament, "Final")


def test_a_match_outside_tournaments_has_no_stage(client, alice, bob):
    from games import services as game_services

    match = game_services.start_match(
        white=alice, black=bob, variant="american", points=1, days_per_move=2
    )
    client.force_login(alice)

    page = client.get(match.get_absolute_url())

    assert page.context["stage"] is None
    assert "match-stage" not in page.text


def test_the_dashboard_card_names_the_tournament(client, alice):
    players = make_users(2)
    started_tournament(alice, players, format=Format.ROUND_ROBIN, name="Spring round robin")
    client.force_login(players[0])

    page = client.get("/dashboard/")

    assert "<bdi>Spring round robin</bdi> · " in page.text
