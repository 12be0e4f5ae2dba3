"""POST /api/v1/challenges/ and /api/v1/challenges/<id>/accept/."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games import closing, services
from games.models import CHALLENGE_DAYS, Challenge, Match

from .conftest import post_json

pytestmark = pytest.mark.django_db

OPTIONS = {"variant": "greek", "points": 3, "days_per_move": 5}


def _create(client, **data):
    return post_json(client, reverse("api_challenge_create"), {**OPTIONS, **data})


def test_it_challenges_a_player(alice_api, alice, bob):
    response = _create(alice_api, opponent="bob")

    assert response.status_code == 201
    body = response.json()
    challenge = Challenge.objects.get()
    assert body == {
        "id": challenge.pk,
        "url": f"http://testserver/challenges/{challenge.pk}/",
        "invite_url": None,  # a private challenge's, to send a friend
    }
    assert (challenge.challenger, challenge.opponent) == (alice, bob)
    assert (challenge.variant, challenge.points, challenge.days_per_move) == ("greek", 3, 5)
    assert not challenge.private


def test_a_name_in_another_case_finds_the_player(alice_api, bob):
    response = _create(alice_api, opponent="Bob")

    assert response.status_code == 201
    assert Challenge.objects.get().opponent == bob


@pytest.mark.parametrize("name", ["b0b", "b\u043eb", "B\u039fB"])  # a zero; Cyrillic o; Greek O
def test_a_name_written_with_look_alike_letters_finds_the_player(alice_api, bob, name):
    # As the docs say: sign-up refuses a name that reads as one taken, so it is Bob's.
    challenge = _create(alice_api, opponent=name)
    block = post_json(alice_api, reverse("api_player_block", args=[name]))

    assert challenge.status_code == 201
    assert Challenge.objects.get().opponent == bob
    assert (block.status_code, block.json()["username"]) == (200, "bob")


def test_it_challenges_the_lobby_and_by_invite(alice_api):
    lobby = _create(alice_api, opponent=None)
    private = _create(alice_api, private=True)

    assert lobby.status_code == private.status_code == 201
    assert Challenge.objects.get(pk=lobby.json()["id"]).opponent is None
    assert Challenge.objects.get(pk=private.json()["id"]).private


def test_a_null_true_or_false_is_read_as_left_out(alice_api):
    # As an opponent null is the lobby: null private, not private; null rated, rated.
    response = _create(alice_api, opponent=None, private=None, rated=None)

    assert response.status_code == 201
    challenge = Challenge.objects.get(pk=response.json()["id"])
    assert (challenge.private, challenge.rated) == (False, True)


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        ({"opponent": "nobody"}, "no player"),
        ({"opponent": "alice"}, "yourself"),
        ({"opponent": "bob", "private": True}, "private"),
        ({"points": 2}, "points"),
        ({"points": 10**40}, "points"),
        ({"points": "3"}, "points must be one of 1, 3, 5, 7"),
        ({"points": 1.0}, "points must be one of 1, 3, 5, 7"),
        ({"points": None}, "points is required"),
        ({"days_per_move": 4}, "days_per_move must be one of"),
        ({"days_per_move": "2"}, "days_per_move must be one of"),
        ({"variant": "russian"}, "variant"),
        ({"variant": ["greek"]}, "variant"),
        ({"private": "yes"}, "private must be true or false"),
        ({"rated": 0}, "rated must be true or false"),
        ({"opponent": 7}, "opponent"),
        ({"colour": "white"}, "unknown field"),
    ],
)
def test_it_explains_invalid_challenges(alice_api, bob, data, reason):
    response = _create(alice_api, **data)

    assert response.status_code == 400
    assert reason in response.json()["error"]
    assert not Challenge.objects.exists()


def test_it_accepts_a_challenge(alice, bob, bob_api):
    challenge = services.create_challenge(alice, opponent=bob)

    response = post_json(bob_api, reverse("api_challenge_accept", args=[challenge.pk]))

    assert response.status_code == 200
    match = Match.objects.get()
    assert response.json() == {"match": match.pk}
    assert {match.white, match.black} == {alice, bob}


def test_it_refuses_to_accept_twice(alice, bob, bob_api):
    challenge = services.create_challenge(alice, opponent=bob)
    url = reverse("api_challenge_accept", args=[challenge.pk])
    post_json(bob_api, url)

    response = post_json(bob_api, url)

    assert response.status_code == 409
    assert "already" in response.json()["error"]
    assert Match.objects.count() == 1


def test_it_refuses_a_challenge_addressed_to_someone_else(alice, bob, charlie_api):
    challenge = services.create_challenge(alice, opponent=bob)

    response = post_json(charlie_api, reverse("api_challenge_accept", args=[challenge.pk]))

    assert response.status_code == 404  # as if there were none: it is not Charlie's business
    assert not Match.objects.exists()


def test_it_refuses_to_accept_my_own_challenge(alice, alice_api):
    challenge = services.create_challenge(alice)

    response = post_json(alice_api, reverse("api_challenge_accept", args=[challenge.pk]))

    assert response.status_code == 403


@pytest.mark.parametrize("with_token", [False, True])
def test_it_refuses_to_accept_my_own_private_challenge_saying_so(alice, alice_api, with_token):
    challenge = services.create_challenge(alice, private=True)
    body = {"token": challenge.invite_token} if with_token else {}

    response = post_json(alice_api, reverse("api_challenge_accept", args=[challenge.pk]), body)

    assert response.status_code == 403
    assert response.json()["error"] == "you cannot accept your own challenge"
    assert not Match.objects.exists()


def test_the_challenger_accepting_once_it_is_accepted_is_told_the_match(alice, alice_api, bob_api):
    challenge = services.create_challenge(alice)
    url = reverse("api_challenge_accept", args=[challenge.pk])
    accepted = post_json(bob_api, url)

    late = post_json(alice_api, url)

    # Hers as much as Bob's: either player of the challenge is told the match it started.
    assert late.status_code == 409
    assert late.json()["match"] == accepted.json()["match"]


def test_it_answers_404_for_an_unknown_challenge(bob_api):
    response = post_json(bob_api, reverse("api_challenge_accept", args=[999]))

    assert response.status_code == 404
    assert "challenge" in response.json()["error"]


def test_it_accepts_a_private_challenge_only_with_its_token(alice, alice_api, bob_api):
    challenge = services.create_challenge(alice, private=True)
    url = reverse("api_challenge_accept", args=[challenge.pk])

    without = post_json(bob_api, url)
    wrong = post_json(bob_api, url, {"token": "guess"})
    right = post_json(bob_api, url, {"token": challenge.invite_token})

    assert without.status_code == wrong.status_code == 404
    assert right.status_code == 200
    made = _create(alice_api, private=True)
    assert made.json()["invite_url"].startswith("http://testserver/invite/")
    assert Match.objects.get().pk == right.json()["match"]


def test_the_friend_who_accepted_a_private_challenge_sending_it_again_is_told_the_match(
    alice, bob_api
):
    # The accept's answer lost, a client sends it again, the token left out this time.
    challenge = services.create_challenge(alice, private=True)
    url = reverse("api_challenge_accept", args=[challenge.pk])
    first = post_json(bob_api, url, {"token": challenge.invite_token})

    again = post_json(bob_api, url)

    assert again.status_code == 409
    assert again.json()["match"] == first.json()["match"] == Match.objects.get().pk
    assert "already been accepted" in again.json()["error"]


def test_the_api_answers_a_challenge_beyond_the_limit_with_409(alice, bob, alice_api):
    first = _create(alice_api, opponent="bob")
    second = _create(alice_api, opponent="bob", variant="american")

    assert first.status_code == 201
    assert second.status_code == 409
    assert "already challenged bob" in second.json()["error"]
    assert "id" not in second.json()  # another challenge: not the one waiting


def test_a_challenge_to_a_player_sent_again_is_told_the_one_waiting(alice, bob, alice_api):
    first = _create(alice_api, opponent="bob")
    again = _create(alice_api, opponent="bob")

    assert first.status_code == 201
    assert again.status_code == 409
    assert again.json() == {
        "error": "you have already sent bob this challenge: it waits for their answer",
        "id": first.json()["id"],
        "url": first.json()["url"],
    }
    assert Challenge.objects.count() == 1


def test_a_lobby_challenge_sent_again_is_told_the_one_waiting(alice_api):
    first = _create(alice_api)
    again = _create(alice_api)

    assert first.status_code == 201
    assert again.status_code == 409
    assert again.json() == {
        "error": "you already have this challenge waiting in the lobby",
        "id": first.json()["id"],
        "url": first.json()["url"],
    }
    assert Challenge.objects.count() == 1


def test_it_lists_the_challenges_to_me_from_me_and_in_the_lobby(alice, bob, charlie, bob_api):
    to_bob = services.create_challenge(alice, opponent=bob)
    from_bob = services.create_challenge(bob, opponent=charlie, variant="greek")
    lobby = services.create_challenge(charlie, points=3)
    services.create_challenge(bob)  # bob's own lobby challenge is among those he sent
    services.create_challenge(alice, private=True)  # an invite link is nobody's business

    listed = bob_api.get(reverse("api_challenge_create")).json()

    assert [c["id"] for c in listed["received"]] == [to_bob.pk]
    assert [c["opponent"] for c in listed["sent"]] == ["charlie", None]
    assert [c["id"] for c in listed["lobby"]] == [lobby.pk]
    assert listed["sent"][0] == {
        "id": from_bob.pk,
        "challenger": "bob",
        "opponent": "charlie",
        "private": False,
        "variant": "greek",
        "points": 1,
        "days_per_move": 2,
        "rated": True,
        "status": "open",
        "match": None,
        "created_at": from_bob.created_at.isoformat(),
        "expires_at": (from_bob.created_at + timedelta(days=CHALLENGE_DAYS)).isoformat(),
        "invite_url": None,  # a private challenge's, to its challenger
    }


def test_a_challenge_is_shown_to_its_players_and_a_lobby_one_to_anyone(
    alice, bob, alice_api, charlie_api
):
    to_bob = services.create_challenge(bob, opponent=alice)
    lobby = services.create_challenge(bob)
    invite = services.create_challenge(bob, private=True)

    assert alice_api.get(reverse("api_challenge", args=[to_bob.pk])).json()["challenger"] == "bob"
    assert charlie_api.get(reverse("api_challenge", args=[lobby.pk])).status_code == 200
    assert charlie_api.get(reverse("api_challenge", args=[to_bob.pk])).status_code == 404
    assert charlie_api.get(reverse("api_challenge", args=[invite.pk])).status_code == 404


def test_a_private_challenge_s_invite_link_is_given_back_to_its_challenger_alone(
    alice, alice_api, bob_api
):
    invite = services.create_challenge(alice, private=True)
    link = f"http://testserver/invite/{invite.invite_token}/"
    detail = reverse("api_challenge", args=[invite.pk])

    mine = alice_api.get(detail).json()
    sent = alice_api.get(reverse("api_challenges_sent")).json()["sent"]
    listed = alice_api.get(reverse("api_challenge_create")).json()["sent"]
    accept = reverse("api_challenge_accept", args=[invite.pk])
    post_json(bob_api, accept, {"token": invite.invite_token})
    friends = bob_api.get(detail).json()

    assert mine["invite_url"] == sent[0]["invite_url"] == listed[0]["invite_url"] == link
    # Its opponent once accepted sees the challenge, never the link: it was for them.
    assert friends["status"] == "accepted" and friends["invite_url"] is None


def test_a_private_challenge_no_longer_waiting_has_no_invite_link(alice, alice_api, bob_api):
    waiting = services.create_challenge(alice, private=True, variant="greek")
    expired = services.create_challenge(alice, private=True, points=3)
    withdrawn = services.create_challenge(alice, private=True, points=5)
    accepted = services.create_challenge(alice, private=True, points=7)
    # Past its days, and not yet marked expired by the hourly sweep: expired all the same.
    Challenge.objects.filter(pk=expired.pk).update(
        created_at=timezone.now() - timedelta(days=CHALLENGE_DAYS)
    )
    services.cancel_challenge(withdrawn.pk, user=alice)
    accept = reverse("api_challenge_accept", args=[accepted.pk])
    post_json(bob_api, accept, {"token": accepted.invite_token})

    shown = {
        challenge.pk: alice_api.get(reverse("api_challenge", args=[challenge.pk])).json()
        for challenge in (waiting, expired, withdrawn, accepted)
    }

    # The link no longer lets anyone in: given back, it would only be sent to a friend in vain.
    assert {pk: (c["status"], c["invite_url"]) for pk, c in shown.items()} == {
        waiting.pk: ("open", f"http://testserver/invite/{waiting.invite_token}/"),
        expired.pk: ("expired", None),
        withdrawn.pk: ("cancelled", None),
        accepted.pk: ("accepted", None),
    }


def test_the_opponent_declines_and_the_challenger_withdraws(alice, bob, alice_api, bob_api):
    declined = services.create_challenge(alice, opponent=bob)
    withdrawn = services.create_challenge(bob, opponent=alice)

    decline = post_json(bob_api, reverse("api_challenge_decline", args=[declined.pk]), {})
    cancel = post_json(bob_api, reverse("api_challenge_cancel", args=[withdrawn.pk]), {})
    again = post_json(bob_api, reverse("api_challenge_cancel", args=[withdrawn.pk]), {})
    not_hers = post_json(alice_api, reverse("api_challenge_decline", args=[withdrawn.pk]), {})

    assert (decline.status_code, decline.json()["status"]) == (200, "declined")
    assert (cancel.status_code, cancel.json()["status"]) == (200, "cancelled")
    assert again.status_code == 409 and "already been cancelled" in again.json()["error"]
    assert not_hers.status_code == 409  # settled already: nothing left to decline
    assert set(Challenge.objects.values_list("status", flat=True)) == {"declined", "cancelled"}


def test_an_expired_lobby_challenge_is_answered_as_a_withdrawn_one(alice, alice_api, bob_api):
    expired = services.create_challenge(alice, variant="greek")
    withdrawn = services.create_challenge(alice)
    services.cancel_challenge(withdrawn.pk, user=alice)
    Challenge.objects.filter(pk=expired.pk).update(created_at=timezone.now() - timedelta(days=31))
    assert services.expire_challenges() == 1

    answers = {
        challenge.pk: (
            bob_api.get(reverse("api_challenge", args=[challenge.pk])).status_code,
            post_json(bob_api, reverse("api_challenge_accept", args=[challenge.pk])).status_code,
        )
        for challenge in (expired, withdrawn)
    }
    lobby = bob_api.get(reverse("api_challenges_lobby")).json()["lobby"]
    own = alice_api.get(reverse("api_challenge", args=[expired.pk])).json()
    cancel = post_json(alice_api, reverse("api_challenge_cancel", args=[expired.pk]))

    assert answers == {expired.pk: (404, 404), withdrawn.pk: (404, 404)}
    refused = post_json(bob_api, reverse("api_challenge_accept", args=[expired.pk])).json()
    assert "taken by another player, withdrawn or expired" in refused["error"]
    assert lobby == []
    assert (own["status"], own["expires_at"]) == ("expired", None)
    assert cancel.status_code == 409 and "has expired" in cancel.json()["error"]
    assert not Match.objects.exists()


def test_a_challenge_past_its_days_is_expired_before_the_sweep_marks_it(
    alice, bob, alice_api, bob_api, charlie_api
):
    past = timezone.now() - timedelta(days=CHALLENGE_DAYS)
    to_bob = services.create_challenge(alice, opponent=bob)
    lobby = services.create_challenge(alice, variant="greek")
    Challenge.objects.update(created_at=past)

    bobs = post_json(bob_api, reverse("api_challenge_accept", args=[to_bob.pk]))
    charlies = post_json(charlie_api, reverse("api_challenge_accept", args=[lobby.pk]))
    shown = charlie_api.get(reverse("api_challenge", args=[lobby.pk]))
    own = alice_api.get(reverse("api_challenge", args=[to_bob.pk])).json()
    lists = [api.get(reverse("api_challenge_create")).json() for api in (alice_api, bob_api)]

    # As for one the sweep has marked: 409 with the reason to its player, 404 to others.
    assert bobs.status_code == 409
    assert bobs.json()["error"] == (
        f"this challenge has expired: nobody took it up within {CHALLENGE_DAYS} days"
    )
    assert charlies.status_code == shown.status_code == 404
    assert (own["status"], own["expires_at"]) == ("expired", None)
    assert [
        c for listed in lists for name in ("received", "sent", "lobby") for c in listed[name]
    ] == []
    assert not Match.objects.exists()


def test_an_accept_sent_again_is_told_the_match_it_started(alice, bob_api):
    challenge = services.create_challenge(alice)
    url = reverse("api_challenge_accept", args=[challenge.pk])

    first = post_json(bob_api, url)
    again = post_json(bob_api, url)

    assert first.status_code == 200
    assert again.status_code == 409
    assert again.json()["match"] == first.json()["match"]
    assert Match.objects.count() == 1


def test_a_lobby_challenge_taken_meanwhile_is_a_404_for_the_late_accepter(
    alice, bob_api, charlie_api
):
    challenge = services.create_challenge(alice)
    url = reverse("api_challenge_accept", args=[challenge.pk])

    first = post_json(bob_api, url)
    late = post_json(charlie_api, url)

    # Alice's and Bob's now, as its detail says: the same answer as for a made-up id, but
    # one that says a lobby challenge once taken is no longer there for anyone else.
    assert first.status_code == 200
    assert late.status_code == 404 and "taken by another player" in late.json()["error"]
    assert "match" not in late.json()  # not Charlie's match


@pytest.mark.parametrize("settle", ["decline", "accept", "cancel"])
def test_a_settled_challenge_to_someone_else_is_a_404_on_every_endpoint(
    alice, bob, charlie, bob_api, settle
):
    # Charlie challenges Alice, who answers; Bob, an outsider, learns nothing of it: not
    # that it exists, nor how it ended, whichever way he asks.
    challenge = services.create_challenge(charlie, opponent=alice)
    if settle == "decline":
        services.decline_challenge(challenge.pk, user=alice)
    elif settle == "cancel":
        services.cancel_challenge(challenge.pk, user=charlie)
    else:
        services.accept_challenge(challenge.pk, user=alice)
    made_up = challenge.pk + 1000

    answers = {
        (name, pk): post_json(bob_api, reverse(f"api_challenge_{name}", args=[pk]))
        for name in ("accept", "decline", "cancel")
        for pk in (challenge.pk, made_up)
    }
    answers["get", challenge.pk] = bob_api.get(reverse("api_challenge", args=[challenge.pk]))
    answers["get", made_up] = bob_api.get(reverse("api_challenge", args=[made_up]))

    for (name, pk), answer in answers.items():
        assert answer.status_code == 404, (name, answer.json())
        other = made_up if pk == challenge.pk else challenge.pk
        said = answers[name, other].json()["error"].replace(str(other), str(pk))
        assert answer.json()["error"] == said, name  # word for word a made-up id's
    assert Match.objects.count() == (settle == "accept")


def test_a_lobby_challenge_no_longer_waiting_is_its_challenger_s_alone(alice, alice_api, bob_api):
    challenge = services.create_challenge(alice)
    services.cancel_challenge(challenge.pk, user=alice)

    mine = alice_api.get(reverse("api_challenge", args=[challenge.pk]))
    answers = [bob_api.get(reverse("api_challenge", args=[challenge.pk]))] + [
        post_json(bob_api, reverse(f"api_challenge_{name}", args=[challenge.pk]))
        for name in ("accept", "decline", "cancel")
    ]

    assert (mine.status_code, mine.json()["status"]) == (200, "cancelled")
    assert [answer.status_code for answer in answers] == [404, 404, 404, 404]


@pytest.mark.parametrize("name", ["bob", "BOB"])
def test_a_closed_account_is_refused_as_closed_not_as_unknown(alice_api, bob, name):
    # As blocking it says, and the docs list it: a closed account, not "no player called".
    closing.close_account(bob)

    response = _create(alice_api, opponent=name)

    assert response.status_code == 400
    assert response.json()["error"] == "you cannot challenge bob: the account is closed"
    assert not Challenge.objects.exists()
