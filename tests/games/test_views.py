"""Web pages: each for its owner, another user, an anonymous visitor, and over HTMX."""

from __future__ import annotations

import re
import time
import zoneinfo
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from games import away, services
from games.engine import format_play
from games.engine.game import ScriptedDice
from games.models import Challenge, Match, RatingChange, Segment
from games.services import TurnAction
from tests.matches import opened_by_white, take_turn

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def match(alice, bob) -> Match:
    # Alice is white and opens with 6-3.
    return opened_by_white(alice, bob)


def test_it_shows_the_dashboard_with_my_turn_first(client, alice, match):
    client.force_login(alice)

    response = client.get(reverse("dashboard"))

    assert response.status_code == 200
    text = response.text
    assert text.index("Your turn") < text.index(f"#{match.pk}") < text.index("Waiting for")


def test_it_redirects_anonymous_visitors_from_the_dashboard(client):
    response = client.get(reverse("dashboard"))

    assert response.status_code == 302 and reverse("login") in response["Location"]


def test_it_shows_the_match_page_with_the_board_and_controls_to_the_player(client, alice, match):
    client.force_login(alice)

    response = client.get(match.get_absolute_url())

    assert response.status_code == 200
    assert "<svg" in response.text and "board-desc" in response.text
    assert "Your turn" in response.text
    assert 'name="play"' in response.text  # the notation box
    assert "in/22" in response.text and "in/19" in response.text  # clickable next moves


def test_it_shows_the_match_read_only_to_others(client, charlie, match):
    for viewer in (charlie, None):
        client.logout()
        if viewer:
            client.force_login(viewer)

        response = client.get(match.get_absolute_url())

        assert response.status_code == 200
        assert 'name="play"' not in response.text


def test_it_numbers_points_from_the_viewers_side(client, alice, bob, match):
    services.submit_segment(
        match.pk,
        user=alice,
        action=services.TurnAction(segment=1, play="in/22 in/19"),
        dice=ScriptedDice([4, 1]),
    )
    client.force_login(bob)

    response = client.get(match.get_absolute_url())

    # Black sees White's checkers on Black's 3- and 6-points.
    assert "1 on your 6-point" in response.text or "on your 6-point" in response.text
    assert "You play black" in response.text


def test_it_plays_a_turn_over_htmx_and_returns_the_board_fragment(client, alice, match):
    client.force_login(alice)

    response = client.post(
        reverse("match_turn", args=[match.pk]),
        {"segment": 1, "play": "in/22 in/19"},
        **HTMX,
    )

    assert response.status_code == 200
    assert response.text.lstrip().startswith('<div id="live"')
    assert Segment.objects.filter(match=match, number=2, play="in/22 in/19").exists()


def test_it_explains_an_illegal_play_and_changes_nothing(client, alice, match):
    client.force_login(alice)

    response = client.post(
        reverse("match_turn", args=[match.pk]), {"segment": 1, "play": "13/7"}, **HTMX
    )

    match.refresh_from_db()
    assert response.status_code == 400
    assert "13-point" in response.text
    assert match.segment_count == 1


def test_it_rejects_a_stale_segment_with_409(client, alice, match):
    client.force_login(alice)

    response = client.post(
        reverse("match_turn", args=[match.pk]), {"segment": 0, "play": "in/22 in/19"}, **HTMX
    )

    assert response.status_code == 409


def test_a_turn_sent_after_its_deadline_says_the_match_was_lost_on_time(client, alice, match):
    client.force_login(alice)
    past = timezone.now() - timedelta(minutes=1)  # the sweep has not come to it yet
    Match.objects.filter(pk=match.pk).update(deadline=past)

    response = client.post(
        reverse("match_turn", args=[match.pk]), {"segment": 1, "play": "in/22 in/19"}, **HTMX
    )

    assert response.status_code == 409
    assert "Your time for this move had run out: you lost the match on time (R9)." in response.text
    assert '<strong class="result"><bdi>bob</bdi> won</strong>' in response.text
    assert not Segment.objects.filter(match=match, player="white").exists()


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "poll"])
def test_the_page_of_a_match_past_its_deadline_ends_it_on_time(client, alice, bob, match, htmx):
    # Not a board offering alice a move that would only be refused (the sweep has not come
    # to it yet): the match is over, as a turn or a resignation sent now would find.
    client.force_login(alice)
    Match.objects.filter(pk=match.pk).update(deadline=timezone.now() - timedelta(minutes=1))
    seen = {"seen": f"{match.segment_count}-active"} if htmx else {}

    response = client.get(match.get_absolute_url(), seen, **(HTMX if htmx else {}))

    assert response.status_code == 200
    match.refresh_from_db()
    assert (match.status, match.ending, match.winner) == ("finished", "timeout", bob)
    assert '<strong class="result"><bdi>bob</bdi> won</strong>' in response.text
    assert "Your turn" not in response.text


def test_a_turn_sent_twice_from_the_board_says_it_was_played_once(client, alice, match):
    client.force_login(alice)
    turn = {"segment": 1, "steps": "26-22 26-19"}  # clicked on the board: in/22 in/19
    client.post(reverse("match_turn", args=[match.pk]), turn, **HTMX)

    again = client.post(reverse("match_turn", args=[match.pk]), turn, **HTMX)

    assert again.status_code == 409
    assert "You had already played this move" in again.text
    assert Segment.objects.filter(match=match, player="white").count() == 1


def test_a_turn_from_an_out_of_date_board_says_so(client, alice, bob, match):
    services.submit_segment(
        match.pk, user=alice, action=services.TurnAction(segment=1, play="in/22 in/19")
    )
    client.force_login(alice)

    # Another play for the segment already played, from a board drawn before it.
    stale = client.post(
        reverse("match_turn", args=[match.pk]), {"segment": 1, "play": "in/19 19/16"}, **HTMX
    )

    assert stale.status_code == 409
    assert "This board was out of date" in stale.text


def test_someone_watching_is_told_what_was_played_when_the_board_redraws(
    client, alice, bob, charlie, match
):
    action = services.TurnAction(segment=1, play="in/22 in/19")
    services.submit_segment(match.pk, user=alice, action=action)
    client.force_login(charlie)

    response = client.get(match.get_absolute_url(), **HTMX)

    announce = response.text.split('<div id="announce" hx-swap-oob="innerHTML">', 1)[1]
    assert announce.startswith("alice rolled 6-3 and played in/22 in/19. Waiting for bob")


def test_the_dashboard_gives_a_finished_matchs_score_winner_first(client, alice, bob, match):
    services.resign(match.pk, user=alice)
    match.refresh_from_db()
    client.force_login(alice)

    page = client.get(reverse("dashboard")).text

    score = f"{match.score_black}\u2013{match.score_white}"
    assert f"<bdi>bob</bdi> won by resignation (final score {score})" in page
    assert match.score_black > match.score_white


def test_a_play_refused_as_stale_is_not_given_back_to_send_again(client, alice, match):
    client.force_login(alice)

    response = client.post(
        reverse("match_turn", args=[match.pk]), {"segment": 0, "play": "in/22 in/19"}
    )

    assert response.status_code == 409
    assert 'value="in/22 in/19"' not in response.text
    assert " autofocus" not in response.text


def test_it_forbids_playing_in_someone_elses_match(client, charlie, match):
    client.force_login(charlie)

    response = client.post(
        reverse("match_turn", args=[match.pk]), {"segment": 1, "play": "in/22 in/19"}
    )

    assert response.status_code == 403


def test_it_tells_the_opponent_it_is_not_their_turn(client, bob, match):
    client.force_login(bob)

    response = client.post(
        reverse("match_turn", args=[match.pk]), {"segment": 1, "play": "in/22 in/19"}, **HTMX
    )

    assert response.status_code == 403
    assert "not your turn" in response.text


def test_it_validates_each_click_without_storing_anything(client, alice, match):
    client.force_login(alice)

    selected = client.post(
        reverse("match_click", args=[match.pk]), {"steps": "", "select": "26"}, **HTMX
    )
    moved = client.post(reverse("match_click", args=[match.pk]), {"steps": "26-22"}, **HTMX)

    assert selected.status_code == moved.status_code == 200
    assert "Move to point 22" in selected.text
    assert "Your play so far: <strong>in/22</strong>" in moved.text
    assert "Submit in/22" not in moved.text  # not a whole play yet: the 6 is still to play
    assert Match.objects.get(pk=match.pk).segment_count == 1


def test_a_complete_clicked_play_is_to_submit_or_undo(client, alice, match):
    client.force_login(alice)

    done = client.post(reverse("match_click", args=[match.pk]), {"steps": "26-22 26-19"}, **HTMX)

    assert '<p class="hint">Submit your play, or undo a move.</p>' in done.text
    assert "Submit in/22 in/19" in done.text


def test_it_submits_clicked_steps(client, alice, match):
    client.force_login(alice)

    client.post(reverse("match_turn", args=[match.pk]), {"segment": 1, "steps": "26-22 26-19"})

    assert Segment.objects.filter(match=match, number=2).get().play == "in/22 in/19"


def test_it_resigns_after_confirmation(client, alice, bob, match):
    client.force_login(alice)

    page = client.get(reverse("match_resign", args=[match.pk]))
    client.post(reverse("match_resign", args=[match.pk]))

    match.refresh_from_db()
    text = " ".join(page.text.split())
    assert "cannot be undone" in text
    assert f"Resign match #{match.pk} against <bdi>bob</bdi>?" in text
    # An american game with all of alice's checkers still to bear off: 15 points to bob,
    # the score the match then ends with.
    assert "with 15 points for the game in progress: a final score of you 0," in text
    assert "<bdi>bob</bdi> 15." in text
    assert match.winner == bob and match.ending == "resignation"
    assert match.score == {"white": 0, "black": 15}


def test_a_finished_match_gives_the_winners_score_first(client, alice, bob, match):
    services.resign(match.pk, user=alice)  # white resigns: black wins

    page = client.get(match.get_absolute_url()).text

    score = re.search(
        r'bob</bdi> won</strong> <span class="muted">[^(]+\(final score (\d+)\W(\d+)\)', page
    )
    assert score.groups() == ("15", "0")  # not 0-15, white's score first


def test_it_exports_the_match_as_text_and_json(client, match):
    text = client.get(reverse("match_export", args=[match.pk, "txt"]))
    data = client.get(reverse("match_export", args=[match.pk, "json"])).json()

    assert '[Variant "american"]' in text.text
    assert "opening: white 5, black 2" in text.text
    assert data["players"] == {"white": "alice", "black": "bob"}


def test_the_exports_download_as_files_named_after_the_match(client, match):
    for ext, content_type in (("txt", "text/plain"), ("json", "application/json")):
        response = client.get(reverse("match_export", args=[match.pk, ext]))

        assert response["Content-Disposition"] == (
            f'attachment; filename="acey-deucey-match-{match.pk}.{ext}"'
        )
        assert response["Content-Type"].startswith(content_type)


def test_it_creates_a_challenge_and_the_opponent_accepts_it(client, alice, bob):
    client.force_login(alice)
    client.post(
        reverse("challenge_new"),
        {"opponent": "bob", "variant": "greek", "points": 3, "days_per_move": 2},
    )
    challenge = Challenge.objects.get()
    client.force_login(bob)

    response = client.post(reverse("challenge_accept", args=[challenge.pk]))

    challenge.refresh_from_db()
    assert challenge.status == "accepted"
    assert response["Location"] == challenge.match.get_absolute_url()


@pytest.mark.parametrize(
    ("opponent", "said"),
    [("bob", "Challenge sent."), ("", "Challenge posted in the lobby: anyone may accept it.")],
)
def test_the_challenge_made_says_where_it_went(client, alice, bob, opponent, said):
    client.force_login(alice)

    data = {"opponent": opponent, "variant": "american", "points": 1, "days_per_move": 2}
    response = client.post(reverse("challenge_new"), data, follow=True)

    assert [str(message) for message in response.context["messages"]] == [said]


def test_a_name_typed_in_another_case_finds_the_player(client, alice, bob):
    client.force_login(alice)

    data = {"opponent": "BOB", "variant": "american", "points": 1, "days_per_move": 2}
    client.post(reverse("challenge_new"), data)

    assert Challenge.objects.get().opponent == bob


def test_the_challenge_form_sent_twice_makes_one_lobby_challenge(client, alice):
    client.force_login(alice)
    data = {"opponent": "", "variant": "greek", "points": 3, "days_per_move": 2}

    first = client.post(reverse("challenge_new"), data)
    second = client.post(reverse("challenge_new"), data, follow=True)

    challenge = Challenge.objects.get()
    assert first["Location"] == challenge.get_absolute_url()
    assert second.redirect_chain == [(challenge.get_absolute_url(), 302)]
    assert "You already have this challenge waiting in the lobby." in second.text


def test_the_challenge_form_to_a_player_sent_twice_shows_the_one_sent(client, alice, bob):
    client.force_login(alice)
    data = {"opponent": "bob", "variant": "greek", "points": 3, "days_per_move": 2}

    first = client.post(reverse("challenge_new"), data)
    second = client.post(reverse("challenge_new"), data, follow=True)

    # A double click: the second press is not an error, the challenge went.
    challenge = Challenge.objects.get()
    assert first["Location"] == challenge.get_absolute_url()
    assert second.redirect_chain == [(challenge.get_absolute_url(), 302)]
    assert "You have already sent bob this challenge: it waits for their answer." in second.text
    assert "errorlist" not in second.text


def test_another_challenge_to_the_same_player_is_refused_in_a_sentence(client, alice, bob):
    client.force_login(alice)
    data = {"opponent": "bob", "variant": "greek", "points": 3, "days_per_move": 2}
    client.post(reverse("challenge_new"), data)

    response = client.post(reverse("challenge_new"), data | {"points": 5})

    assert response.status_code == 200
    said = "You have already challenged bob: wait for their answer, or withdraw that challenge"
    assert f"{said} first." in response.text
    # The reason, above the fields, takes the focus: nothing else does.
    assert re.search(r'<div class="form-errors" [^>]*tabindex="-1" autofocus>', response.text)
    assert response.text.count("autofocus") == 1
    assert Challenge.objects.count() == 1


def test_a_private_link_for_a_named_opponent_is_refused_with_the_reason(client, alice, bob):
    client.force_login(alice)
    data = {"opponent": "bob", "private": "on", "points": 1, "days_per_move": 2}

    response = client.post(reverse("challenge_new"), data | {"variant": "american"})

    assert response.status_code == 200
    assert "A private invite link is for a friend without a name here" in response.text
    assert not Challenge.objects.exists()


def test_it_accepts_a_private_invite_only_through_its_link(client, alice, bob):
    challenge = services.create_challenge(alice, private=True)
    client.force_login(bob)

    without = client.post(reverse("challenge_accept", args=[challenge.pk]))
    invite_page = client.get(reverse("invite", args=[challenge.invite_token]))
    with_token = client.post(
        reverse("challenge_accept", args=[challenge.pk]), {"token": challenge.invite_token}
    )

    # As if there were none: it is the link's holders'.
    assert without.status_code == 302 and without.url == reverse("lobby")
    assert "Accept and play" in invite_page.text
    assert with_token.status_code == 302
    assert Challenge.objects.get().status == "accepted"


def test_it_hides_a_challenge_from_outsiders(client, alice, bob, charlie):
    challenge = services.create_challenge(alice, opponent=bob)
    client.force_login(charlie)

    # As if there were none (a 403 would say there is one).
    assert client.get(challenge.get_absolute_url()).status_code == 404


@pytest.mark.parametrize("settle", ["decline", "accept", "cancel"])
def test_a_settled_challenge_to_someone_else_is_a_404_on_every_page(
    client, alice, bob, charlie, settle
):
    # Charlie challenges Alice, who answers; Bob, an outsider, learns nothing of it: not
    # that it exists, nor how it ended (a message such as "already declined").
    challenge = services.create_challenge(charlie, opponent=alice)
    if settle == "decline":
        services.decline_challenge(challenge.pk, user=alice)
    elif settle == "cancel":
        services.cancel_challenge(challenge.pk, user=charlie)
    else:
        services.accept_challenge(challenge.pk, user=alice)
    client.force_login(bob)

    page = client.get(challenge.get_absolute_url())
    posted = [
        client.post(reverse(f"challenge_{action}", args=[challenge.pk]))
        for action in ("accept", "decline", "cancel")
    ]

    assert page.status_code == 404
    # An accept is sent back to the lobby, told what one for no challenge at all is told.
    assert [answer.status_code for answer in posted] == [302, 404, 404]
    assert posted[0].url == reverse("lobby")
    settled = {"decline": "declined", "accept": "accepted", "cancel": "cancelled"}[settle]
    assert Challenge.objects.get().status == settled


def test_it_lists_open_challenges_in_the_lobby(client, alice, bob):
    services.create_challenge(alice, variant="greek")
    services.create_challenge(alice, opponent=bob)
    client.force_login(bob)

    response = client.get(reverse("lobby"))

    assert response.text.count("Accept") == 1
    assert "Greek" in response.text


def test_a_challenge_says_whether_its_match_is_rated_wherever_it_is_offered(client, alice, bob):
    unrated = services.create_challenge(alice, opponent=bob, points=3, rated=False)
    services.create_challenge(alice, variant="greek")  # in the lobby, rated
    client.force_login(bob)

    page = client.get(unrated.get_absolute_url()).text
    dashboard = client.get(reverse("dashboard")).text
    lobby = client.get(reverse("lobby")).text

    assert "American (US Navy), 3 points, 2 days per move, casual." in page
    assert "American (US Navy), 3 points, 2 days per move, casual</span>" in dashboard
    assert "Greek, 1 point, 2 days per move, rated</span>" in lobby


def test_it_unsubscribes_with_a_signed_one_click_post(client, alice):
    from games.notifications import unsubscribe_token

    url = reverse("unsubscribe", args=[unsubscribe_token(alice)])

    bad = client.post(reverse("unsubscribe", args=["forged"]))
    client.post(url, {"List-Unsubscribe": "One-Click"})

    alice.refresh_from_db()
    assert bad.status_code == 400
    assert alice.email_preference == "none"


def test_an_unsubscribe_link_sent_to_an_address_the_account_has_left_changes_nothing(client, alice):
    # Left in the mailbox of the address the account moved from (a takeover undone, a
    # typo mended): it must not turn the owner's turn emails off unseen.
    from games.notifications import unsubscribe_token

    url = reverse("unsubscribe", args=[unsubscribe_token(alice)])
    alice.email = "Alice@Elsewhere.example"
    alice.save(update_fields=["email"])
    moved_url = reverse("unsubscribe", args=[unsubscribe_token(alice)])
    alice.email = "alice@elsewhere.example"  # the same address, in another case
    alice.save(update_fields=["email"])

    page = client.get(url)
    refused = client.post(url, {"List-Unsubscribe": "One-Click"})

    assert page.status_code == refused.status_code == 400
    assert "sent to an address its account no longer uses" in refused.text
    alice.refresh_from_db()
    assert alice.email_preference == "every_turn"
    client.post(moved_url, {"List-Unsubscribe": "One-Click"})
    alice.refresh_from_db()
    assert alice.email_preference == "none"


def test_it_offers_every_bot_in_the_lobby_and_a_challenge_starts_the_match(client, alice):
    bots = services.bot_users()
    client.force_login(alice)

    lobby = client.get(reverse("lobby"))
    response = client.post(
        reverse("challenge_new"),
        {
            "opponent": bots[-1].username,
            "variant": "greek",
            "points": 1,
            "days_per_move": 2,
            "rated": "on",
        },
    )

    assert all(f"Play <bdi>{bot}</bdi>" in lobby.text for bot in bots)
    match = Match.objects.get()
    assert response["Location"] == match.get_absolute_url()
    assert match.rated and match.is_player(bots[-1])


def test_the_lobby_says_a_bot_match_is_rated_and_lets_it_be_casual(client, alice):
    bot = services.bot_users()[0]
    client.force_login(alice)

    lobby = client.get(reverse("lobby")).text
    client.post(
        reverse("challenge_new"),
        {"opponent": bot.username, "variant": "american", "points": 1, "days_per_move": 2},
    )

    # Ticked unless the player unticks it: what is sent is what the card shows.
    assert lobby.count('<input type="checkbox" name="rated" checked> Rated') == len(
        services.bot_users()
    )
    assert 'name="rated" value="on"' not in lobby  # no hidden choice behind the card
    assert not Match.objects.get().rated  # unticked: sent without "rated"


def test_the_match_page_says_whether_the_match_is_rated(client, alice, bob):
    rated = opened_by_white(alice, bob)
    casual = opened_by_white(alice, bob, rated=False)
    client.force_login(alice)

    pages = [client.get(match.get_absolute_url()).text for match in (rated, casual)]

    assert "2 days per move · rated</p>" in pages[0]
    assert "2 days per move · casual</p>" in pages[1]


def test_while_a_bot_is_to_move_the_page_says_it_is_thinking_and_looks_again_soon(
    client, alice, bob, match
):
    bot = services.bot_users()[0]
    # The bot is white and to play its opening 6-3; its task has not run (no on-commit here).
    with_bot = opened_by_white(bot, alice)
    client.force_login(alice)

    waiting_on_bot = client.get(with_bot.get_absolute_url()).text
    client.force_login(bob)
    waiting_on_alice = client.get(match.get_absolute_url()).text

    assert f"{bot} is thinking" in waiting_on_bot and 'class="spinner"' in waiting_on_bot
    assert 'hx-trigger="every 2s"' in waiting_on_bot
    assert "is thinking" not in waiting_on_alice

    # Said in the turn's line too, above the board (the note is below it on a phone).
    def turn_line(page: str) -> str:
        return page.partition('id="turn-line"')[2].partition("</p>")[0]

    assert 'to move <span class="thinking">' in turn_line(waiting_on_bot)
    assert "thinking" not in turn_line(waiting_on_alice)
    assert 'hx-trigger="every 30s"' in waiting_on_alice
    assert "Waiting for alice to move" in waiting_on_alice


def test_the_waiting_pages_poll_gets_204_until_something_happens(client, alice, bob, match):
    client.force_login(bob)  # Alice is to move: Bob's page waits and polls
    page = client.get(match.get_absolute_url()).text
    poll = re.search(r'<span hidden hx-get="([^"]+)"', page).group(1).replace("&amp;", "&")

    quiet = client.get(poll, **HTMX)
    services.submit_segment(
        match.pk, user=alice, action=services.TurnAction(segment=1, play="in/22 in/19")
    )
    moved = client.get(poll, **HTMX)

    assert quiet.status_code == 204 and quiet.content == b""
    assert moved.status_code == 200 and 'id="live"' in moved.text
    assert "in/22 in/19" in moved.text or "Your turn" in moved.text


def test_the_poll_that_finds_the_opponents_move_announces_what_they_played(
    client, alice, bob, match
):
    client.force_login(bob)
    page = client.get(match.get_absolute_url()).text
    poll = re.search(r'<span hidden hx-get="([^"]+)"', page).group(1).replace("&amp;", "&")
    action = services.TurnAction(segment=1, play="in/22 in/19")
    services.submit_segment(match.pk, user=alice, action=action, dice=ScriptedDice([4, 2]))

    moved = client.get(poll, **HTMX)

    announce = re.search(r'<div id="announce" hx-swap-oob="innerHTML">([^<]*)</div>', moved.text)
    assert announce.group(1) == (
        "alice rolled 6-3 and entered a checker on your 3-point and a checker on your 6-point. "
        "Your turn: you rolled 4-2. "
        "Selected a waiting checker to enter. You can move to point 23 or move to point 21."
    )


def test_the_poll_sees_a_match_that_ends_without_a_new_segment(client, alice, bob, match):
    client.force_login(bob)
    page = client.get(match.get_absolute_url()).text
    poll = re.search(r'<span hidden hx-get="([^"]+)"', page).group(1).replace("&amp;", "&")

    services.resign(match.pk, user=alice)
    answer = client.get(poll, **HTMX)

    assert answer.status_code == 200 and 'id="live"' in answer.text


def _unsubscribe_link_sent(days_ago: float, user, monkeypatch) -> str:
    from games.notifications import unsubscribe_token

    then = time.time() - timedelta(days=days_ago).total_seconds()
    with monkeypatch.context() as patch:
        patch.setattr(time, "time", lambda: then)
        return reverse("unsubscribe", args=[unsubscribe_token(user)])


def test_an_unsubscribe_link_works_for_90_days_then_says_it_has_expired(client, alice, monkeypatch):
    still_valid = _unsubscribe_link_sent(89, alice, monkeypatch)
    expired = _unsubscribe_link_sent(91, alice, monkeypatch)

    page = client.get(still_valid)
    refused = client.post(expired, {"List-Unsubscribe": "One-Click"})

    alice.refresh_from_db()
    assert page.status_code == 200 and "Stop all game emails" in page.text
    assert refused.status_code == 400 and "has expired" in refused.text
    assert reverse("settings") in refused.text
    assert alice.email_preference != "none"
    client.post(still_valid, {"List-Unsubscribe": "One-Click"})
    alice.refresh_from_db()
    assert alice.email_preference == "none"


def test_a_click_keeps_the_history_the_page_shows_instead_of_drawing_it_again(client, alice, match):
    client.force_login(alice)
    url = reverse("match_click", args=[match.pk])
    shown = str(match.segment_count)

    with CaptureQueriesContext(connection) as kept_queries:
        kept = client.post(url, {"steps": "", "select": "26", "history": shown}, **HTMX)
    drawn = client.post(url, {"steps": "", "select": "26"}, **HTMX)
    stale = client.post(url, {"steps": "", "select": "26", "history": "0"}, **HTMX)

    assert kept.status_code == drawn.status_code == stale.status_code == 200
    placeholder = re.search(r'<section id="history"[^>]*>(.*?)</section>', kept.text, re.S)
    assert placeholder and "hx-preserve" in placeholder.group(0)
    assert placeholder.group(1).strip() == ""  # nothing drawn: the page keeps its own
    for full in (drawn.text, stale.text):
        assert "hx-preserve" not in full and "turn-entry" in full and "History" in full
    assert not [q for q in kept_queries if '"games_segment"' in q["sql"]]


@pytest.mark.parametrize("replay", ["²", "٣", "9" * 5000, "-1", "1.5", ""])
def test_a_replay_number_that_is_not_one_shows_the_live_board(client, match, replay):
    response = client.get(match.get_absolute_url(), {"replay": replay})

    assert response.status_code == 200
    assert 'data-mode="replay"' not in response.text


@pytest.mark.parametrize("how", ["resign at once", "resign mid-game", "timeout", "after a 1-2"])
def test_the_export_of_a_forfeited_match_imports_back_through_the_engine(client, alice, bob, how):
    from games.engine.record import import_json, import_text

    dice = [5, 2, 6, 3, 1, 2] if how == "after a 1-2" else [5, 2, 6, 3, 4, 1]
    match = opened_by_white(alice, bob, dice=dice, points=3)
    if how in ("resign mid-game", "after a 1-2"):
        play = services.TurnAction(segment=match.segment_count, play="in/22 in/19")
        match = services.submit_segment(
            match.pk, user=alice, action=play, dice=ScriptedDice(dice[4:])
        )
    if how == "after a 1-2":  # bob played his 1-2 and must name a double: nothing to play
        play = services.TurnAction(segment=match.segment_count, play="in/24 in/23")
        match = services.submit_segment(match.pk, user=bob, action=play)
        assert match.phase == "name_double"
    if how == "timeout":
        Match.objects.filter(pk=match.pk).update(deadline=timezone.now() - timedelta(seconds=1))
        assert services.award_timeout(match.pk)
    else:
        services.resign(match.pk, user=match.to_move)
    match.refresh_from_db()

    text = client.get(reverse("match_export", args=[match.pk, "txt"])).text
    data = client.get(reverse("match_export", args=[match.pk, "json"])).json()
    state = client.get(match.get_absolute_url()).text

    for replayed in (import_text(text), import_json(data)):
        assert replayed.is_over and replayed.winner == match.color_of(match.winner)
        assert (replayed.score.white, replayed.score.black) == (
            match.score_white,
            match.score_black,
        )
    assert 'class="dice"' not in state  # the loser's last roll is in the record, not shown
    # ...said not played, and why: "(to play)" is for a match in progress.
    loser = "white" if match.winner == bob else "black"
    verb = "timed out" if how == "timeout" else "resigned"
    assert "(to play)" not in text
    assert (f" (not played: {loser} {verb})\n" in text) == (how != "after a 1-2")


@pytest.mark.parametrize("select", ["²", "9" * 5000])
def test_a_selected_place_that_is_not_a_number_selects_nothing(client, alice, match, select):
    client.force_login(alice)

    url = reverse("match_click", args=[match.pk])
    response = client.post(url, {"steps": "", "select": select}, **HTMX)
    without = client.post(url, {"steps": ""}, **HTMX)

    assert response.status_code == 200
    assert "invalid literal" not in response.text
    # As if nothing had been selected: the same board state and the same announcement.
    state = re.compile(r'data-state="([^"]*)"|hx-swap-oob="innerHTML">([^<]*)<')
    assert state.findall(response.text) == state.findall(without.text)


def test_a_player_named_search_has_a_profile_page(client, django_user_model):
    django_user_model.objects.create_user("search", "search@example.com", "x")

    response = client.get(reverse("profile", args=["search"]))

    assert response.status_code == 200 and "search" in response.text


def test_the_challenge_form_suggests_opponents_as_a_name_is_typed(client, alice, bob, charlie):
    client.force_login(alice)
    form = client.get(reverse("challenge_new"))
    assert 'list="opponent-names"' in form.text and '<datalist id="opponent-names">' in form.text
    [url] = re.findall(r'hx-get="([^"]+)"', form.text)

    suggestions = client.get(url, {"opponent": "bo"}, HTTP_HX_REQUEST="true")
    everyone = client.get(url, {"opponent": ""}, HTTP_HX_REQUEST="true")

    assert suggestions.text.split() == ["<option", 'value="bob"></option>']
    assert "alice" not in everyone.text  # nobody challenges themselves
    assert 'value="charlie"' in everyone.text


def test_without_javascript_a_failed_typed_play_is_shown_again_in_the_open_box(
    client, alice, match
):
    client.force_login(alice)

    response = client.post(
        reverse("match_turn", args=[match.pk]), {"segment": 1, "play": "in/22 22/19x"}
    )

    assert response.status_code == 400
    box = response.text.split('<details class="notation-box"', 1)[1].split("</details>", 1)[0]
    assert box.startswith(" open>")
    assert 'value="in/22 22/19x"' in box
    assert 'aria-describedby="play-error play-help"' in box and " autofocus" in box
    assert re.search(r'<p id="play-error" class="error play-error">[^<]*19x', box)
    # The page is drawn at the turn's address: its links lead back to the match page.
    assert f'href="{match.get_absolute_url()}?replay=1"' in response.text


@pytest.mark.parametrize("sent_from", ["the box's button", "the board's"])
def test_an_empty_play_sent_from_the_typed_box_is_answered_beside_it(
    client, alice, match, sent_from
):
    # On a phone the box is below the board: a reason above it would be out of sight.
    client.force_login(alice)
    data = {"segment": 1, "play": ""}
    if sent_from == "the box's button":
        data["typed"] = "1"

    response = client.post(reverse("match_turn", args=[match.pk]), data, **HTMX)

    assert response.status_code == 400
    box = response.text.split('<details class="notation-box"', 1)[1].split("</details>", 1)[0]
    beside = re.search(r'<p id="play-error" class="error play-error">([^<]*)</p>', box)
    if sent_from == "the box's button":
        assert beside and "you cannot pass" in beside.group(1)
    else:  # "Submit (no move)" beside the board: answered there
        assert beside is None and "you cannot pass" in response.text


@pytest.mark.parametrize("typed", ["in/20 in/19", ""])
def test_a_refused_turn_keeps_the_moves_clicked_so_far(client, alice, match, typed):
    # A play typed over a half-clicked one, or the typed box sent empty: refused, with the
    # clicked move still on the board to go on from (it was thrown away).
    client.force_login(alice)
    data = {"segment": 1, "steps": "26-22", "play": typed, "typed": "1"}

    response = client.post(reverse("match_turn", args=[match.pk]), data, **HTMX)

    assert response.status_code == 400
    assert "Your play so far: <strong>in/22</strong>" in response.text
    assert 'name="steps" value="26-22"' in response.text


def test_a_play_typed_over_clicked_moves_is_refused_as_from_the_turns_start(client, alice, match):
    # in/22 clicked, then 22/16 typed: the box's play starts where the turn did, where
    # the 22-point is empty, though the board shows the checker clicked there.
    client.force_login(alice)
    data = {"segment": 1, "steps": "26-22", "play": "22/16", "typed": "1"}

    response = client.post(reverse("match_turn", args=[match.pk]), data, **HTMX)
    alone = client.post(reverse("match_turn", args=[match.pk]), {**data, "steps": ""}, **HTMX)

    said = "The box takes your whole play from the start of the turn"
    assert response.status_code == alone.status_code == 400
    assert "no checker on your 22-point" in response.text and said in response.text
    assert "no checker on your 22-point" in alone.text and said not in alone.text


def test_a_refused_turn_with_moves_the_engine_refuses_draws_the_board_without_them(
    client, alice, match
):
    client.force_login(alice)
    data = {"segment": 1, "steps": "26-21"}  # no 5 among the dice

    response = client.post(reverse("match_turn", args=[match.pk]), data, **HTMX)

    assert response.status_code == 400
    assert "Your play so far: <strong>nothing yet</strong>" in response.text


def test_the_unsubscribe_page_says_when_emails_are_already_off_and_whose_link_it_is(
    client, alice, bob
):
    from games.notifications import unsubscribe_token

    link = reverse("unsubscribe", args=[unsubscribe_token(alice)])
    client.force_login(bob)

    asked = client.get(link).text
    client.post(link)
    again = client.get(link).text

    assert (
        "This link is for the account <strong><bdi>alice</bdi></strong>, not yours (<bdi>bob</bdi>)"
        in asked
    )
    assert "Stop all game emails" in asked
    assert "Game emails to <bdi>alice</bdi> are already off." in again
    assert "Stop all game emails" not in again
    assert reverse("settings") in again


def test_an_old_unsubscribe_link_of_a_closed_account_says_it_is_closed(client, alice):
    from games import closing
    from games.notifications import unsubscribe_token

    link = reverse("unsubscribe", args=[unsubscribe_token(alice)])
    closing.close_account(alice)

    asked = client.get(link).text
    clicked = client.post(link).text  # a mail client's one-click POST

    for page in (asked, clicked):
        assert "The account <bdi>alice</bdi> is closed: it gets no emails from us." in page
        assert "already off" not in page and "Done:" not in page
        assert "turn them back on" not in page and reverse("settings") not in page
        assert "Stop game emails</button>" not in page


def test_challenging_a_closed_account_by_name_says_it_is_closed(client, alice, bob):
    from games import closing

    closing.close_account(bob)
    client.force_login(alice)

    response = client.post(
        reverse("challenge_new"),
        {"opponent": "BOB", "variant": "american", "points": 1, "days_per_move": 2},
    )

    assert "BOB no longer plays here: the account is closed." in response.text


def test_the_resign_page_of_a_finished_match_goes_back_to_the_match(client, alice, match):
    services.resign(match.pk, user=alice)
    client.force_login(alice)

    response = client.get(reverse("match_resign", args=[match.pk]), follow=True)

    assert response.redirect_chain == [(match.get_absolute_url(), 302)]
    assert "The match is over: there is nothing to resign." in response.text


def test_a_rating_change_shown_is_the_difference_of_the_ratings_shown():
    change = RatingChange(rating_before=1422.4, rating_after=1264.6, rd_before=90, rd_after=80)
    assert change.shown == ("1422", "1265", -157)  # rounded apart, the change read -158
    halves = RatingChange(rating_before=1500.5, rating_after=1510.49, rd_before=90, rd_after=80)
    assert halves.shown == ("1501", "1510", 9)


def test_a_rating_change_shown_marks_each_provisional_rating_as_the_leaderboard_does():
    becoming_established = RatingChange(
        rating_before=1213.4, rating_after=1963.2, rd_before=234, rd_after=110
    )

    assert becoming_established.shown == ("1213?", "1963", 750)
    assert becoming_established.shows_provisional


def test_the_match_page_has_headings_for_the_board_and_the_move(client, alice, bob, match):
    client.force_login(alice)
    mine = client.get(match.get_absolute_url()).text
    client.force_login(bob)
    theirs = client.get(match.get_absolute_url()).text

    headings = re.compile(r"<h2[^>]*>([^<]+)</h2>")
    assert headings.findall(mine)[:2] == ["Board", "Your move"]
    assert headings.findall(theirs)[:2] == ["Board", "Your match"]


def test_the_rules_page_explains_both_variants_to_anyone(client):
    page = client.get(reverse("rules"))

    assert page.status_code == 200
    headings = re.findall(r'<h2 id="([a-z-]+)">', page.text)
    assert headings == [
        "board",
        "start",
        "moving",
        "must-play",
        "bearing-off",
        "acey-deucey",
        "named-blot",
        "scoring",
        "notation",
    ]
    # Every entry of the page's contents leads to one of its sections.
    assert sorted(re.findall(r'<a href="#([a-z-]+)">', page.text)) == sorted(headings)
    assert f'href="{reverse("rules")}"' in client.get("/").text  # the header and home link it


def test_a_turn_for_a_match_that_ended_meanwhile_says_it_is_over(client, alice, bob, match):
    services.resign(match.pk, user=bob)  # while Alice's board still offers her turn
    client.force_login(alice)

    response = client.post(
        reverse("match_turn", args=[match.pk]), {"segment": 1, "play": "in/22 in/19"}, **HTMX
    )

    assert response.status_code == 409
    assert "The match is over." in response.text
    assert "out of date" not in response.text


def test_an_empty_challenge_form_is_told_what_is_missing(client, alice):
    client.force_login(alice)

    response = client.post(reverse("challenge_new"), {})

    assert response.status_code == 200
    assert "This field is required." in response.text
    assert not Challenge.objects.exists()


def test_a_challengers_own_lobby_challenge_is_hers_and_offers_no_invite_link(client, alice):
    lobby = services.create_challenge(alice)
    private = services.create_challenge(alice, private=True)
    client.force_login(alice)

    lobby_page = client.get(lobby.get_absolute_url()).text
    private_page = client.get(private.get_absolute_url()).text

    assert "<h1>Your challenge</h1>" in lobby_page
    assert "Invite link" not in lobby_page and "waits in the" in lobby_page
    assert "Invite link" in private_page and private.invite_token in private_page


def test_a_match_in_play_asks_a_visitor_who_is_not_logged_in_to_log_in_to_play(client, match):
    page = client.get(match.get_absolute_url()).text

    login = f'<a href="{reverse("login")}?next={match.get_absolute_url()}">Log in</a>'
    assert f"Playing in this match? {login} to make your move." in page


def test_a_logged_in_player_is_not_asked_to_log_in(client, match, alice):
    client.force_login(alice)

    assert "Playing in this match?" not in client.get(match.get_absolute_url()).text


def test_the_dashboard_tells_the_reader_it_is_their_move_not_who_they_are(
    client, alice, bob, match
):
    alice.display_name = "Alice W."
    alice.save()
    client.force_login(alice)

    mine = client.get(reverse("dashboard")).text
    client.force_login(bob)
    theirs = client.get(reverse("dashboard")).text

    assert "· Your move, due in <time" in mine
    assert "Alice W.</bdi> to move" not in mine
    assert "· <bdi>Alice W.</bdi> to move, due in <time" in theirs
    assert "Your move" not in theirs


def test_the_dashboard_and_match_page_give_the_deadline_itself_in_the_readers_zone(
    client, alice, bob, match
):
    alice.timezone = "Asia/Tokyo"
    alice.save()
    # 8 days 23 hours away: "1 week, 1 day" alone would put it nearly a day early.
    deadline = timezone.now().replace(microsecond=0) + timedelta(days=8, hours=23)
    Match.objects.filter(pk=match.pk).update(deadline=deadline)
    client.force_login(alice)

    card = client.get(reverse("dashboard")).text
    page = client.get(match.get_absolute_url()).text

    local = deadline.astimezone(zoneinfo.ZoneInfo("Asia/Tokyo"))
    shown = f'<time datetime="{local.isoformat()}">{local:%a} {local.day} {local:%b, %H:%M}</time>'
    left = "1\xa0week, 1\xa0day"  # as Django's timeuntil writes it
    assert f"{left}</time> (by {shown})" in card
    assert f"{left} left</time>, until {shown}</p>" in page


def test_a_deadline_passed_before_the_sweep_came_says_time_is_up_not_0_minutes_left(
    client, alice, match
):
    # On the dashboard; the match's own page ends the match (the test above).
    Match.objects.filter(pk=match.pk).update(deadline=timezone.now() - timedelta(seconds=30))
    client.force_login(alice)

    card = client.get(reverse("dashboard")).text

    assert "Your move: time is up" in card and "due in" not in card


def test_the_scoreboard_calls_the_player_you_without_their_name_again(client, alice, match):
    alice.display_name = "Alexandra Konstantinopoulou-Smith"  # a long name, said once
    alice.save()
    client.force_login(alice)

    page = client.get(match.get_absolute_url()).text

    scoreboard = page.split('<div class="scoreboard">', 1)[1].split('<div class="turnbar">', 1)[0]
    assert 'You <span class="muted">(white)</span>' in scoreboard
    assert "Konstantinopoulou" not in scoreboard


def test_the_dashboard_tells_a_reader_away_that_they_are(client, alice, match):
    away.go_away(alice, until=timezone.now() + timedelta(days=3))
    client.force_login(alice)

    page = client.get(reverse("dashboard")).text

    assert "· Your move (you are away until " in page


def test_a_lobby_challenge_no_longer_waiting_is_shown_to_its_challenger_alone(client, alice, bob):
    challenge = services.create_challenge(alice)
    services.cancel_challenge(challenge.pk, user=alice)

    client.force_login(alice)
    mine = client.get(challenge.get_absolute_url())
    client.force_login(bob)
    theirs = client.get(challenge.get_absolute_url())

    assert mine.status_code == 200
    assert theirs.status_code == 404


@pytest.mark.parametrize("gone", ["taken", "withdrawn", "never was"])
def test_accepting_a_lobby_challenge_no_longer_open_says_so_in_the_lobby(
    client, alice, bob, charlie, gone
):
    challenge = services.create_challenge(alice)  # in the lobby
    if gone == "taken":
        services.accept_challenge(challenge.pk, user=bob)  # a moment before charlie
    elif gone == "withdrawn":
        services.cancel_challenge(challenge.pk, user=alice)
    client.force_login(charlie)
    challenge_id = challenge.pk + 1 if gone == "never was" else challenge.pk

    answer = client.post(reverse("challenge_accept", args=[challenge_id]), follow=True)

    assert answer.redirect_chain == [(reverse("lobby"), 302)]
    assert (
        "That challenge is no longer open: another player may have taken it, its challenger"
        " withdrawn it, or it expired." in answer.text
    )
    assert not Match.objects.filter(black=charlie).exists()
    assert not Match.objects.filter(white=charlie).exists()


def test_an_invite_taken_tells_others_holding_its_link_nothing_of_who_took_it(
    client, alice, bob, charlie
):
    # Alice's link, passed on, reaches Charlie after Bob has taken it: the challenge is no
    # longer open, and whom Alice plays, and their match, are not Charlie's to know.
    challenge = services.create_challenge(alice, private=True)
    services.accept_challenge(challenge.pk, user=bob, invite_token=challenge.invite_token)
    challenge.refresh_from_db()
    match_url = challenge.match.get_absolute_url()

    client.force_login(charlie)
    outsider = client.get(challenge.invite_path()).text
    client.force_login(bob)
    player = client.get(challenge.invite_path()).text

    assert "Status: <strong>Accepted</strong> by another player" in outsider
    assert "bob" not in outsider and match_url not in outsider
    assert "Accept and play" not in outsider
    assert "To <bdi>bob</bdi>" in player and match_url in player


def test_the_history_says_each_play_is_in_its_movers_numbers(client, alice, bob, match):
    # Bob reads alice's in/22 in/19: her 22-point is his 3-point, as the board shows it.
    take_turn(match, alice, play="in/22 in/19")
    client.force_login(bob)

    page = client.get(match.get_absolute_url()).text

    history = page.split('<section id="history"', 1)[1].split("</section>", 1)[0]
    assert "Each play is written from its mover's side, in their point numbers" in history
    assert "in/22 in/19" in history


@pytest.mark.parametrize(
    ("variant", "said"),
    [
        (
            "american",
            "an acey-deucey: play the 1 and the 2 (both, or the turn ends there), then name",
        ),
        ("greek", "an acey-deucey: play the 1 and the 2, then name any double and play it"),
    ],
)
def test_a_1_2_to_play_says_it_is_an_acey_deucey_and_what_follows(
    client, alice, bob, variant, said
):
    match = opened_by_white(alice, bob, variant=variant)
    Match.objects.filter(pk=match.pk).update(dice=[1, 2], segment_kind="acey_deucey")
    client.force_login(alice)

    page = " ".join(client.get(match.get_absolute_url()).text.split())

    assert said in page
    client.force_login(bob)  # not to move: nothing to do
    assert "an acey-deucey:" not in client.get(match.get_absolute_url()).text


def test_pages_are_titled_as_their_headings_name_them(client, alice, bob, match):
    # Every challenge page was titled "Challenge"; a history link's name began otherwise
    # than its visible "#2" (WCAG 2.5.3).
    challenge = services.create_challenge(alice, opponent=bob)
    url = reverse("challenge", args=[challenge.pk])
    client.force_login(bob)
    received = client.get(url).text
    lobby = client.get(reverse("lobby")).text
    board = client.get(match.get_absolute_url()).text
    client.force_login(alice)
    sent = client.get(url).text

    assert re.search(r"<title>Challenge from alice ·", received)
    assert re.search(r"<title>Your challenge ·", sent)
    assert '<h2 id="open-h">Open challenges</h2>' in lobby
    assert 'aria-label="#1: show the position after segment 1">#1</a>' in board


def test_a_click_on_a_board_drawn_before_the_deadline_passed_ends_the_match_on_time(
    client, alice, bob, match
):
    # The board was open: its next click, not only a page opened afresh, finds the time up.
    client.force_login(alice)
    Match.objects.filter(pk=match.pk).update(deadline=timezone.now() - timedelta(minutes=1))

    response = client.post(
        reverse("match_click", args=[match.pk]),
        {"steps": "", "select": "26", "segment": str(match.segment_count)},
        **HTMX,
    )

    match.refresh_from_db()
    assert (match.status, match.ending, match.winner) == ("finished", "timeout", bob)
    assert "Your turn" not in response.text


def test_the_resign_page_says_whether_the_rating_counts_the_loss(client, alice, bob, match):
    client.force_login(alice)
    unplayed = " ".join(client.get(reverse("match_resign", args=[match.pk])).text.split())
    match = services.submit_segment(
        match.pk, user=alice, action=TurnAction(segment=match.segment_count, play="in/22 in/19")
    )
    assert match.to_move == bob
    played = services.load_game(match).legal_plays()[0]
    services.submit_segment(
        match.pk, user=bob, action=TurnAction(segment=match.segment_count, play=format_play(played))
    )

    both = " ".join(client.get(reverse("match_resign", args=[match.pk])).text.split())

    assert "Your rating stays as it is: you have not both moved in this match yet." in unplayed
    assert "Your rating counts it as a loss." in both
