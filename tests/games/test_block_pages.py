"""Blocking on the site: the Block button on a profile, the list on the settings page,
and what the lobby, the challenge form and the match page say once a block stands."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games import blocks, services
from games.models import Block, Challenge
from tests.matches import opened_by_white

pytestmark = pytest.mark.django_db


def _form_to(page, url: str) -> bool:
    """Whether ``page`` holds a POST form to ``url`` with its CSRF token."""
    forms = re.findall(
        r'<form method="post" action="([^"]+)"[^>]*>\s*<input type="hidden" name="csrf', page.text
    )
    return url in forms


def test_another_players_profile_offers_a_block_that_says_what_it_does(client, alice, bob):
    client.force_login(alice)

    page = client.get(reverse("profile", args=["bob"]))

    assert _form_to(page, reverse("player_block", args=["bob"]))
    text = " ".join(re.sub(r"<[^>]+>", "", page.text).split())
    assert "Yes, block bob" in text
    assert "never resigns" in text
    assert "Tournaments" in text


@pytest.mark.parametrize("whose", ["own", "bot", "visitor"])
def test_no_block_is_offered_on_ones_own_profile_a_bots_or_to_a_visitor(client, alice, whose):
    bot = services.bot_users()[0]
    if whose != "visitor":
        client.force_login(alice)
    username = {"own": "alice", "bot": bot.username, "visitor": "alice"}[whose]

    page = client.get(reverse("profile", args=[username]))

    assert page.status_code == 200
    assert "/block/" not in page.text


def test_blocking_from_the_profile_then_offers_to_unblock(client, alice, bob):
    client.force_login(alice)

    page = client.post(reverse("player_block", args=["bob"]), follow=True)

    assert page.redirect_chain == [(reverse("profile", args=["bob"]), 302)]
    assert Block.objects.filter(blocker=alice, blocked=bob).exists()
    assert "You have blocked bob." in page.text
    assert _form_to(page, reverse("player_unblock", args=["bob"]))
    assert not _form_to(page, reverse("player_block", args=["bob"]))


def test_the_page_says_which_challenges_the_block_ended(client, alice, bob):
    services.create_challenge(alice, opponent=bob)
    services.create_challenge(bob, opponent=alice)
    client.force_login(alice)

    page = client.post(reverse("player_block", args=["bob"]), follow=True)

    text = " ".join(page.text.split())
    assert "Your challenge to them is withdrawn." in text
    assert "Their challenge to you is declined." in text
    assert not Challenge.objects.filter(status=Challenge.Status.OPEN).exists()


def test_a_block_that_cannot_be_made_says_why(client, alice):
    client.force_login(alice)

    page = client.post(reverse("player_block", args=["alice"]), follow=True)

    assert "You cannot block yourself." in page.text
    assert not Block.objects.exists()


def test_unblocking_from_the_profile_goes_back_to_it(client, alice, bob):
    blocks.block(alice, other=bob)
    client.force_login(alice)

    page = client.post(reverse("player_unblock", args=["bob"]), follow=True)

    assert page.redirect_chain == [(reverse("profile", args=["bob"]), 302)]
    assert "You have unblocked bob." in page.text
    assert not Block.objects.exists()


def test_the_settings_list_ones_blocks_with_an_unblock_button_each(client, alice, bob, charlie):
    blocks.block(alice, other=bob)
    blocks.block(alice, other=charlie)
    blocks.block(bob, other=alice)  # bob's own, not alice's to see
    client.force_login(alice)

    page = client.get(reverse("settings"))

    assert _form_to(page, reverse("player_unblock", args=["bob"]))
    assert _form_to(page, reverse("player_unblock", args=["charlie"]))
    assert page.text.count(">Unblock<") == 2


def test_unblocking_from_the_settings_goes_back_to_them(client, alice, bob):
    blocks.block(alice, other=bob)
    client.force_login(alice)

    page = client.post(reverse("player_unblock", args=["bob"]), {"back": "settings"}, follow=True)

    assert page.redirect_chain == [(reverse("settings") + "#blocks-h", 302)]
    assert "You have unblocked bob." in page.text
    assert not Block.objects.exists()


def test_the_settings_say_when_nobody_is_blocked(client, alice):
    client.force_login(alice)

    page = client.get(reverse("settings"))

    assert "You have not blocked anyone." in page.text


def test_the_lobby_does_not_show_either_one_the_others_challenges(client, alice, bob, charlie):
    challenge = services.create_challenge(alice, variant="greek")
    blocks.block(alice, other=bob)
    accept = reverse("challenge_accept", args=[challenge.pk])

    client.force_login(bob)
    for_bob = client.get(reverse("lobby"))
    client.force_login(charlie)
    for_charlie = client.get(reverse("lobby"))

    assert accept not in for_bob.text
    assert accept in for_charlie.text


def test_the_names_suggested_leave_out_players_blocked_either_way(
    client, alice, bob, charlie, django_user_model
):
    django_user_model.objects.create_user("bella", "bella@example.com")
    blocks.block(alice, other=bob)
    blocks.block(charlie, other=alice)

    client.force_login(alice)
    for_alice = client.get(reverse("player_search"), {"q": ""}).json()
    as_options = client.get(reverse("player_search"), {"opponent": "b"}, HTTP_HX_REQUEST="true")
    client.force_login(bob)
    for_bob = client.get(reverse("player_search"), {"q": "a"}).json()
    client.force_login(charlie)
    for_charlie = client.get(reverse("player_search"), {"q": ""}).json()

    assert "bella" in for_alice and "bob" not in for_alice and "charlie" not in for_alice
    assert '<option value="bella">' in as_options.text and "bob" not in as_options.text
    assert for_bob == []
    assert "alice" not in for_charlie and "bob" in for_charlie


def test_the_challenge_form_says_why_it_refuses(client, alice, bob):
    blocks.block(alice, other=bob)
    client.force_login(bob)
    data = {"opponent": "alice", "variant": "american", "points": "1", "days_per_move": "2"}

    page = client.post(reverse("challenge_new"), data)

    assert page.status_code == 200
    assert "You cannot challenge alice: they are not taking challenges from you." in page.text
    assert not Challenge.objects.exists()


def test_accepting_the_others_invite_is_refused_with_the_reason(client, alice, bob):
    invite = services.create_challenge(alice, private=True)
    blocks.block(bob, other=alice)
    client.force_login(bob)

    page = client.post(
        reverse("challenge_accept", args=[invite.pk]), {"token": invite.invite_token}
    )

    assert page.status_code == 403
    assert "You have blocked alice: unblock them first." in page.text
    invite.refresh_from_db()
    assert invite.status == Challenge.Status.OPEN


def test_the_match_page_says_messages_are_closed(client, alice, bob):
    match = opened_by_white(alice, bob)
    blocks.block(alice, other=bob)

    client.force_login(alice)
    for_alice = client.get(match.get_absolute_url())
    client.force_login(bob)
    for_bob = client.get(match.get_absolute_url())

    assert "Messages are closed in this match: you have blocked bob." in for_alice.text
    assert "Messages are closed in this match." in for_bob.text
    assert "blocked" not in for_bob.text
    assert 'name="text"' not in for_alice.text + for_bob.text


def test_a_finished_matchs_page_offers_no_rematch_and_says_why(client, alice, bob):
    match = services.resign(opened_by_white(alice, bob).pk, user=alice)
    blocks.block(alice, other=bob)

    client.force_login(alice)
    for_alice = client.get(match.get_absolute_url())
    client.force_login(bob)
    for_bob = client.get(match.get_absolute_url())

    rematch = reverse("match_rematch", args=[match.pk])
    assert rematch not in for_alice.text and rematch not in for_bob.text
    assert "You have blocked bob: unblock them first." in for_alice.text
    assert "You cannot challenge alice: they are not taking challenges from you." in for_bob.text


def test_staff_see_blocks_in_the_admin(client, alice, bob, django_user_model):
    blocks.block(alice, other=bob)
    staff = django_user_model.objects.create_superuser("boss", "boss@example.com", "x")
    client.force_login(staff)

    listing = client.get(reverse("admin:games_block_changelist"))

    assert listing.status_code == 200
    assert "alice" in listing.text and "bob" in listing.text


def test_a_blocked_players_lobby_challenge_says_why_in_place_of_accept(client, alice, bob):
    challenge = services.create_challenge(bob)
    blocks.block(bob, other=alice)
    client.force_login(alice)

    page = client.get(challenge.get_absolute_url()).text

    assert "Accept and play" not in page
    assert "You cannot accept this challenge: bob is not playing matches with you." in page


def test_a_blocked_players_profile_offers_no_challenge_link(client, alice, bob):
    blocks.block(bob, other=alice)
    client.force_login(alice)

    page = client.get(reverse("profile", args=["bob"])).text

    assert f"{reverse('challenge_new')}?opponent=bob" not in page
