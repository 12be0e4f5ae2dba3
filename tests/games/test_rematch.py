"""Offering a rematch from a finished match's page."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games import services
from games.models import Challenge, Match
from tests.matches import opened_by_white

pytestmark = pytest.mark.django_db


def _finished(white, black) -> Match:
    match = opened_by_white(white, black, points=3)
    return services.resign(match.pk, user=white)


def test_a_rematch_offered_to_a_player_goes_to_the_challenge(client, alice, bob):
    match = _finished(alice, bob)
    client.force_login(alice)

    response = client.post(reverse("match_rematch", args=[match.pk]), follow=True)

    challenge = Challenge.objects.get(challenger=alice)
    assert (challenge.opponent, challenge.points, challenge.match) == (bob, 3, None)
    assert response.redirect_chain == [(challenge.get_absolute_url(), 302)]
    assert "Rematch offered." in response.text


def test_a_rematch_against_a_bot_goes_straight_to_the_new_match(client, alice):
    bot = services.bot_users()[0]
    match = _finished(alice, bot)
    client.force_login(alice)

    response = client.post(reverse("match_rematch", args=[match.pk]), follow=True)

    new = Match.objects.exclude(pk=match.pk).get()
    assert {new.white, new.black} == {alice, bot}
    assert response.redirect_chain == [(new.get_absolute_url(), 302)]
    assert "Rematch started." in response.text


def test_no_rematch_while_the_match_is_played(client, alice, bob):
    match = opened_by_white(alice, bob)
    client.force_login(alice)

    response = client.post(reverse("match_rematch", args=[match.pk]), follow=True)

    assert response.redirect_chain == [(match.get_absolute_url(), 302)]
    assert "The match is still being played." in response.text
    assert not Challenge.objects.exists()


def test_a_rematch_offered_twice_is_one_offer_and_the_page_says_it_waits(client, alice, bob):
    match = _finished(alice, bob)
    client.force_login(alice)

    for _ in range(2):  # pressed again from a page reloaded or opened twice
        client.post(reverse("match_rematch", args=[match.pk]))
    page = client.get(match.get_absolute_url()).text

    assert Challenge.objects.filter(challenger=alice, status="open").count() == 1
    assert "You offered <bdi>bob</bdi> a rematch" in page and "Offer a rematch" not in page


def test_a_rematch_offered_by_both_starts_one_match(client, alice, bob):
    match = _finished(alice, bob)
    services.offer_rematch(match, user=bob)
    client.force_login(alice)
    page = client.get(match.get_absolute_url()).text
    assert "<bdi>bob</bdi> offers you a rematch." in page and "Accept the rematch" in page

    response = client.post(reverse("match_rematch", args=[match.pk]), follow=True)

    new = Match.objects.exclude(pk=match.pk).get()
    assert {new.white, new.black} == {alice, bob}
    assert response.redirect_chain == [(new.get_absolute_url(), 302)]
    assert "Rematch started." in response.text
    assert not Challenge.objects.filter(status="open").exists()


def test_once_the_rematch_started_the_old_match_links_to_it_and_offers_no_other(client, alice, bob):
    match = _finished(alice, bob)
    offer = services.offer_rematch(match, user=alice)
    rematch = services.accept_challenge(offer.pk, user=bob)
    client.force_login(bob)

    page = client.get(match.get_absolute_url()).text
    pressed = client.post(reverse("match_rematch", args=[match.pk]), follow=True)

    assert f'The rematch is being played: <a href="{rematch.get_absolute_url()}"' in page
    assert "Offer a rematch" not in page
    assert pressed.redirect_chain == [(rematch.get_absolute_url(), 302)]
    assert "The rematch has started already." in pressed.text
    assert not Challenge.objects.filter(status="open").exists()


def test_an_offer_shows_on_the_match_it_was_made_from_only(client, alice, bob):
    first = _finished(alice, bob)
    second = _finished(alice, bob)  # the same two, the same options
    services.offer_rematch(first, user=bob)
    client.force_login(alice)

    on_first = client.get(first.get_absolute_url()).text
    on_second = client.get(second.get_absolute_url()).text

    assert "<bdi>bob</bdi> offers you a rematch." in on_first
    assert "offers you a rematch" not in on_second and "Offer a rematch" in on_second
