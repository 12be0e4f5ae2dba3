"""GET /api/v1/me/."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import timezone

from games import api, services
from games.models import Match

from .conftest import start, token_client

pytestmark = pytest.mark.django_db


def test_it_lists_my_active_matches_and_those_waiting_for_me(alice, bob, charlie, alice_api):
    my_turn = start(alice, bob, [5, 2, 6, 3])  # Alice is white and won the opening
    their_turn = start(alice, charlie, [2, 5, 6, 3])  # Charlie (black) won it
    finished = start(alice, bob, [5, 2, 6, 3])
    services.resign(finished.pk, user=bob)
    start(bob, charlie, [5, 2, 6, 3])  # not Alice's

    response = alice_api.get(reverse("api_me"))

    assert response.status_code == 200
    assert response.json() == {
        "username": "alice",
        "matches": [my_turn.pk, their_turn.pk],
        "to_move": [my_turn.pk],
        "finished": [finished.pk],
        "next": {"finished": None},
        "unread_messages": {},
        "email_confirmed": True,
    }


def test_it_says_whether_my_address_is_confirmed(django_user_model):
    newcomer = django_user_model.objects.create_user(username="leo", email="leo@example.com")
    api = token_client(newcomer)

    before = api.get(reverse("api_me")).json()["email_confirmed"]
    django_user_model.objects.filter(pk=newcomer.pk).update(email_confirmed_at=timezone.now())
    after = api.get(reverse("api_me")).json()["email_confirmed"]

    assert (before, after) == (False, True)


def _finished(alice, bob) -> int:
    """A match of Alice's against Bob that Bob resigned: its id."""
    match = start(alice, bob, [5, 2, 6, 3])
    services.resign(match.pk, user=bob)
    return match.pk


def test_it_links_the_finished_matches_older_than_its_last_20(alice, bob, alice_api):
    ended = [_finished(alice, bob) for _ in range(api.FINISHED_PER_PAGE + 3)]
    latest_first = ended[::-1]

    me = alice_api.get(reverse("api_me")).json()
    older = alice_api.get(me["next"]["finished"]).json()

    assert me["finished"] == latest_first[: api.FINISHED_PER_PAGE]
    assert me["next"]["finished"] == (
        f"http://testserver/api/v1/me/finished/?before={latest_first[api.FINISHED_PER_PAGE - 1]}"
    )
    assert older == {
        "finished": latest_first[api.FINISHED_PER_PAGE :],
        "more": False,
        "next": None,
    }


def test_its_finished_pages_begin_as_me_does(alice, bob, alice_api):
    ended = [_finished(alice, bob) for _ in range(2)]

    page = alice_api.get(reverse("api_me_finished")).json()

    assert page == {"finished": ended[::-1], "more": False, "next": None}
    assert alice_api.get(reverse("api_me")).json()["next"] == {"finished": None}


def test_its_finished_pages_hold_each_match_once_when_several_ended_at_once(
    alice, bob, alice_api, monkeypatch
):
    # A timeout sweep ends many matches in one moment: the id orders those.
    ended = [_finished(alice, bob) for _ in range(7)]
    Match.objects.filter(pk__in=ended[1:6]).update(finished_at=timezone.now())
    monkeypatch.setattr(api, "FINISHED_PER_PAGE", 2)

    seen, url = [], reverse("api_me_finished")
    while url:
        page = alice_api.get(url).json()
        seen += page["finished"]
        url = page["next"]

    assert sorted(seen) == ended
    assert seen[:5] == ended[5:0:-1]  # the five that ended at once, the latest (by id) first


def test_its_finished_pages_leave_out_others_and_active_matches(alice, bob, charlie, alice_api):
    mine = _finished(alice, bob)
    _finished(bob, charlie)
    start(alice, charlie, [5, 2, 6, 3])

    page = alice_api.get(reverse("api_me_finished")).json()

    assert page["finished"] == [mine]


@pytest.mark.parametrize("before", ["abc", "-1", "1.5", "", "99999999999"])
def test_its_finished_pages_refuse_a_before_that_is_no_id(alice_api, before):
    response = alice_api.get(reverse("api_me_finished"), {"before": before})

    assert response.status_code == 400
    assert response.json()["error"].startswith("before must be the id of a match of yours")


def test_its_finished_pages_refuse_a_before_that_is_not_a_finished_match_of_mine(
    alice, bob, charlie, alice_api
):
    others = _finished(bob, charlie)
    in_play = start(alice, bob, [5, 2, 6, 3]).pk

    for before in (others, in_play, 999999):
        response = alice_api.get(reverse("api_me_finished"), {"before": before})

        assert response.status_code == 400
        assert response.json() == {
            "error": f"before must be the id of a match of yours that has ended (from"
            f' "finished"), not {before}'
        }
