"""The dashboard takes as many SQL queries with many matches and challenges as with few."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games import services
from games.models import Match
from games.tournaments import services as tournaments
from tests.matches import opened_by_white
from tests.tournaments_site.helpers import make_users, open_tournament

from .conftest import count_queries, get_ok

pytestmark = pytest.mark.django_db


def _fill_dashboard(user, opponent, *, each: int) -> None:
    """``each`` matches on ``user``'s move, waiting for the opponent and finished, and
    ``each`` challenges received and sent (each with a player of its own: one challenge
    to a player waits at a time)."""
    for n in range(each):
        other = type(user).objects.create_user(f"{user.username}-{n}", f"{user.username}{n}@x.org")
        # White wins the opening roll (5 against 2) and is to move.
        mine = opened_by_white(user, opponent)
        theirs = opened_by_white(opponent, user, variant="greek", points=3, days_per_move=3)
        assert (mine.to_move, theirs.to_move) == (user, opponent)
        finished = services.start_match(
            white=opponent, black=user, variant="american", points=1, days_per_move=2
        )
        services.resign(finished.pk, user=opponent)
        services.create_challenge(other, opponent=user)
        services.create_challenge(user, opponent=other)
        # A tournament of theirs to come, and one running that waits on the others.
        coming = open_tournament(other, name=f"{user.username} coming {n}")
        tournaments.sign_up(coming.pk, user=user)
        running = open_tournament(other, name=f"{user.username} running {n}")
        for player in (user, *make_users(3)):
            tournaments.sign_up(running.pk, user=player)
        tournaments.start_tournament(running.pk, user=other)


def test_the_dashboard_queries_do_not_grow_with_the_number_of_matches(
    client, django_user_model, alice, bob, charlie, django_assert_num_queries
):
    dave = django_user_model.objects.create_user(username="dave", email="dave@example.com")
    _fill_dashboard(alice, charlie, each=1)
    _fill_dashboard(bob, dave, each=12)
    url = reverse("dashboard")
    client.force_login(alice)
    get_ok(client, url)()

    few = count_queries(get_ok(client, url))
    client.force_login(bob)
    get_ok(client, url)()

    with django_assert_num_queries(few):
        response = client.get(url)
    assert response.status_code == 200
    # The challenges, and the matches on his move (his tournament matches among them).
    on_his_move = Match.objects.awaiting(bob).count()
    assert on_his_move > 12
    assert response.text.count('class="card card-turn"') == 12 + on_his_move
    listed = response.text.partition('id="tournaments-h"')[2].partition("</section>")[0]
    assert listed.count("bob coming") == listed.count("bob running") == 12
