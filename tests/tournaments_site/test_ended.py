"""Tournaments that are over: the list's latest few, every one a page at a time, and those a
player entered on their profile."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games.tournaments import profile, services, views
from games.tournaments.brackets import Format
from games.tournaments.models import Entry, Tournament
from tests.queries.conftest import count_queries, get_ok

from .helpers import active_matches, lose, make_users, open_tournament, started_tournament

pytestmark = pytest.mark.django_db


def _over(organiser, name: str, players: list, *, days_ago: int, champion=None, status="finished"):
    """A tournament of ``players`` that ended ``days_ago`` days ago: its rows only (no
    bracket), as a page that lists it reads them."""
    tournament = open_tournament(organiser, name=name)
    for player in players:
        services.sign_up(tournament.pk, user=player)
    Tournament.objects.filter(pk=tournament.pk).update(
        status=status,
        champion=champion,
        finished_at=timezone.now() - timedelta(days=days_ago),
    )
    return tournament


def _names(text: str, names: list[str]) -> list[str]:
    """``names`` found in ``text``, in the order they appear there."""
    return sorted((name for name in names if name in text), key=text.index)


def test_the_list_links_to_every_finished_tournament_once_it_shows_only_the_latest(
    client, alice, monkeypatch
):
    monkeypatch.setattr(views, "LATEST_ENDED", 2)
    players = make_users(2)
    for days in (1, 2):
        _over(alice, f"Cup {days}", players, days_ago=days)
    link = reverse("tournaments_finished")

    assert link not in client.get(reverse("tournament_list")).text

    _over(alice, "Cup 3", players, days_ago=3)
    text = client.get(reverse("tournament_list")).text

    assert _names(text, ["Cup 1", "Cup 2", "Cup 3"]) == ["Cup 1", "Cup 2"]
    assert f'<a href="{link}">Every finished tournament</a>' in text


def test_every_finished_tournament_a_page_at_a_time_the_latest_first(client, alice, monkeypatch):
    monkeypatch.setattr(views, "ENDED_PER_PAGE", 2)
    players = make_users(3)
    names = [f"Cup {days}" for days in range(1, 6)]
    for days, name in enumerate(names, start=1):
        _over(alice, name, players, days_ago=days)
    _over(alice, "Called off", players, days_ago=0, status=Tournament.Status.CANCELLED)
    link = reverse("tournaments_finished")

    pages = [client.get(link, {"page": page}) for page in (1, 2, 3)]

    assert [response.status_code for response in pages] == [200, 200, 200]
    assert [_names(page.text, names) for page in pages] == [names[:2], names[2:4], names[4:]]
    assert all("Called off" not in page.text for page in pages)
    assert "5 in all" in pages[0].text
    assert "3 players" in pages[0].text  # each card's count of entries
    assert 'href="?page=2">Older</a>' in pages[0].text
    assert 'href="?page=2">Newer</a>' in pages[2].text
    cancelled = client.get(reverse("tournaments_cancelled")).text
    assert _names(cancelled, [*names, "Called off"]) == ["Called off"]


def test_a_players_finished_tournaments_only_with_every_entrant_counted(client, alice, bob):
    others = make_users(3)
    _over(alice, "Cup of bob", [bob, *others], days_ago=1, champion=bob)
    _over(alice, "Without bob", others, days_ago=2)
    link = reverse("tournaments_finished")

    response = client.get(link, {"player": bob.username})

    assert response.status_code == 200
    text = response.text
    assert _names(text, ["Cup of bob", "Without bob"]) == ["Cup of bob"]
    assert "4 players" in text  # not only bob's entry, which the filter joined
    assert f"tournaments <bdi>{bob}</bdi>" in text
    assert client.get(link, {"player": "nobody-of-that-name"}).status_code == 404
    # In any case, as the profile's address finds its player.
    assert "Cup of bob" in client.get(link, {"player": "BOB"}).text


def test_a_profile_lists_the_tournaments_its_player_entered(client, alice, bob, monkeypatch):
    monkeypatch.setattr(profile, "LATEST_FINISHED", 2)
    others = make_users(3)
    signing_up = open_tournament(alice, name="Winter open")
    services.sign_up(signing_up.pk, user=bob)
    running = started_tournament(alice, [bob, others[0]], format=Format.ROUND_ROBIN, name="Live")
    _over(alice, "Bob won", [bob, *others], days_ago=1, champion=bob)
    left = _over(alice, "Bob left", [bob, *others], days_ago=2, champion=others[1])
    Entry.objects.filter(tournament=left, user=bob).update(withdrawn=True)
    _over(alice, "Oldest", [bob, *others], days_ago=3, champion=bob)
    _over(alice, "Not bob", others, days_ago=0, champion=others[0])
    _over(alice, "Called off", [bob, *others], days_ago=0, status=Tournament.Status.CANCELLED)
    everything = ["Winter open", "Live", "Bob won", "Bob left", "Oldest", "Not bob", "Called off"]

    text = " ".join(client.get(reverse("profile", args=[bob.username])).text.split())

    # Running before open, then the latest finished; no cancelled one, no one else's.
    assert _names(text, everything) == ["Live", "Winter open", "Bob won", "Bob left"]
    assert running.status == Tournament.Status.RUNNING
    assert "per move: running." in text and "per move: open for sign-up." in text
    assert f"<bdi>{bob}</bdi> won 2 tournaments." in text
    assert "<strong>won it</strong>" in text
    assert f"won by <bdi>{others[1]}</bdi>" in text
    assert f"<bdi>{bob}</bdi> withdrew." in text
    assert f"{reverse('tournaments_finished')}?player={bob.username}" in text


def test_a_profile_without_tournaments_has_no_such_section(client, alice, bob):
    match = active_matches(started_tournament(alice, make_users(2), format=Format.SWISS))[0]
    lose(match, match.white)

    text = client.get(reverse("profile", args=[bob.username])).text

    assert 'id="tournaments-h"' not in text
    assert 'id="tournaments-h"' in client.get(reverse("profile", args=[match.black.username])).text


def test_a_profile_reads_its_players_tournaments_in_the_same_queries_however_many(
    client, alice, bob
):
    others = make_users(2)
    page = reverse("profile", args=[bob.username])
    _over(alice, "First", [bob, *others], days_ago=1, champion=bob)
    one = count_queries(get_ok(client, page))
    for days in range(2, 12):
        _over(alice, f"Cup {days}", [bob, *others], days_ago=days, champion=bob)
        organiser = make_users(1, prefix="organiser")[0]  # three open at most each
        services.sign_up(open_tournament(organiser, name=f"Open {days}").pk, user=bob)

    assert count_queries(get_ok(client, page)) == one


def test_the_menus_tournaments_link_marks_every_tournament_page(client, alice):
    tournament = open_tournament(alice)
    link = 'href="/tournaments/" aria-current="{}">Tournaments</a>'
    client.force_login(alice)

    pages = {
        "list": client.get(reverse("tournament_list")).text,
        "one": client.get(tournament.get_absolute_url()).text,
        "finished": client.get(reverse("tournaments_finished")).text,
        "new": client.get(reverse("tournament_new")).text,
    }

    assert link.format("page") in pages["list"]
    assert all(link.format("true") in pages[name] for name in ("one", "finished", "new"))
