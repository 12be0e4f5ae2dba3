"""Tournament pages for the organiser, another player and an anonymous visitor."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games import services as game_services
from games.models import Match, PlayerRating
from games.tournaments import services
from games.tournaments.brackets import Format
from games.tournaments.models import Entry, Tournament

from .helpers import (
    active_matches,
    lose,
    make_users,
    open_tournament,
    seeded_tournament,
    slot_match,
    started_tournament,
    swiss_that_ends_early,
)

pytestmark = pytest.mark.django_db


def _post(client, name: str, tournament: Tournament, **data):
    return client.post(reverse(name, args=[tournament.pk]), data)


# -- the list and the create form ---------------------------------------------------------------


def test_it_lists_open_running_and_finished_tournaments(client, alice):
    open_one = open_tournament(alice, name="Spring open")
    running = started_tournament(alice, make_users(2), format=Format.SWISS, name="Summer swiss")
    finished = started_tournament(alice, make_users(2), format=Format.ROUND_ROBIN, name="Old RR")
    match = active_matches(finished)[0]
    lose(match, match.white)

    response = client.get(reverse("tournament_list"))

    assert response.status_code == 200
    text = response.text
    assert text.index("Open for sign-up") < text.index(open_one.name) < text.index("Running")
    assert text.index("Running") < text.index(running.name) < text.index("Finished")
    assert text.index("Finished") < text.index(finished.name)
    assert f"Won by <bdi>{match.black}</bdi>." in text


def test_it_lists_cancelled_tournaments_last_the_latest_first(client, alice):
    older = open_tournament(alice, name="Rained off")
    services.cancel_tournament(older.pk, user=alice)
    newer = started_tournament(alice, make_users(2), format=Format.SWISS, name="Called off")
    services.cancel_tournament(newer.pk, user=alice)
    Tournament.objects.filter(pk=older.pk).update(finished_at=timezone.now() - timedelta(days=1))

    text = client.get(reverse("tournament_list")).text

    assert text.index("Finished") < text.index("Cancelled")
    assert text.index("Cancelled") < text.index(newer.name) < text.index(older.name)


@pytest.mark.parametrize(
    ("start_mode", "said"),
    [
        ("automatic", "Sign-up closed, starting soon."),
        ("manual", "Sign-up closed, waiting for the organiser to start it."),
    ],
)
def test_the_list_says_who_starts_a_tournament_whose_sign_up_closed(
    client, alice, start_mode, said
):
    cup = open_tournament(alice, name="Closed cup", start_mode=start_mode)
    for player in make_users(2):  # enough to start
        services.sign_up(cup.pk, user=player)
    Tournament.objects.filter(pk=cup.pk).update(
        signup_deadline=timezone.now() - timedelta(minutes=1)
    )

    response = client.get(reverse("tournament_list"))

    assert said in response.text


@pytest.mark.parametrize(
    ("signed_up", "said", "not_said"),
    [
        (1, "too few players signed up (it needs at least 2), so it will be cancelled.", "shortly"),
        (2, "starting shortly.", "cancelled"),
    ],
)
def test_a_closed_automatic_tournament_short_of_players_says_it_will_be_cancelled(
    client, alice, signed_up, said, not_said
):
    cup = open_tournament(alice, name="Closed cup", start_mode="automatic", min_players=2)
    for player in make_users(signed_up):
        services.sign_up(cup.pk, user=player)
    Tournament.objects.filter(pk=cup.pk).update(
        signup_deadline=timezone.now() - timedelta(minutes=1)
    )

    status = _status(client.get(cup.get_absolute_url()).text)
    listed = client.get(reverse("tournament_list")).text

    assert said in status and not_said not in status
    assert ("too few players: to be cancelled." in listed) == (signed_up < 2)
    assert ("starting soon." in listed) == (signed_up >= 2)


@pytest.mark.parametrize("how", ["organiser", "too few", "organiser's account closed"])
def test_a_cancelled_tournaments_page_says_when_and_why(client, alice, how):
    cup = open_tournament(alice, name="Rained off", start_mode="automatic", min_players=3)
    services.sign_up(cup.pk, user=make_users(1)[0])
    if how == "organiser":
        services.cancel_tournament(cup.pk, user=alice)
        why = "alice cancelled it"
    elif how == "too few":
        Tournament.objects.filter(pk=cup.pk).update(
            signup_deadline=timezone.now() - timedelta(minutes=1)
        )
        assert services.start_due_tournaments() == {"started": 0, "cancelled": 1}
        why = "too few players signed up"
    else:
        services.cancel_tournament(
            cup.pk, user=alice, reason=Tournament.CancelReason.ORGANISER_LEFT
        )
        why = "its organiser has closed their account"
    cup.refresh_from_db()

    status = _status(client.get(cup.get_absolute_url()).text)

    assert status == f"Cancelled on {cup.finished_at:%a %-d %b %Y}: {why}."


def test_a_cancelled_tournament_that_had_started_says_its_matches_no_longer_count(client, alice):
    cup = started_tournament(alice, make_users(2), format=Format.SWISS, name="Called off")
    services.cancel_tournament(cup.pk, user=alice)

    status = _status(client.get(cup.get_absolute_url()).text)

    assert status.endswith(
        "alice cancelled it. Matches already under way may be played to the end, but they no"
        " longer count for the tournament."
    )


def _status(page: str) -> str:
    """The tournament page's status line, its spaces run together."""
    found = re.search(r'<p class="tournament-status">(.*?)</p>', page, re.S)
    assert found
    return " ".join(found.group(1).split())


def test_it_asks_anonymous_visitors_to_log_in_to_create_a_tournament(client):
    response = client.get(reverse("tournament_new"))

    assert response.status_code == 302 and reverse("login") in response["Location"]


def test_it_creates_a_tournament_from_the_form(client, alice):
    client.force_login(alice)
    deadline = (timezone.now() + timedelta(days=2)).strftime("%Y-%m-%dT%H:%M")

    response = client.post(
        reverse("tournament_new"),
        {
            "name": "Winter knock-out",
            "format": "double_elimination",
            "variant": "greek",
            "points": "5",
            "days_per_move": "3",
            "rated": "on",
            "min_players": "3",
            "max_players": "8",
            "signup_deadline": deadline,
            "start_mode": "manual",
        },
    )

    tournament = Tournament.objects.get()
    assert response.status_code == 302 and response["Location"] == tournament.get_absolute_url()
    assert tournament.organiser == alice
    assert (tournament.format, tournament.variant, tournament.points) == (
        "double_elimination",
        "greek",
        5,
    )
    assert (tournament.min_players, tournament.max_players, tournament.rated) == (3, 8, True)
    assert tournament.start_mode == Tournament.StartMode.MANUAL


def _create(client, name: str):
    deadline = (timezone.now() + timedelta(days=2)).strftime("%Y-%m-%dT%H:%M")
    data = {"name": name, "format": "single_elimination", "variant": "american", "points": "3"}
    data |= {"days_per_move": "3", "min_players": "2", "max_players": "8", "start_mode": "manual"}
    return client.post(reverse("tournament_new"), data | {"signup_deadline": deadline})


def test_it_saves_a_name_on_one_line_without_invisible_characters(client, alice):
    client.force_login(alice)

    _create(client, "Evil\r\nBcc: x@evil.example\u200b\r\n  cup ")

    # A line break in a name made every email naming the tournament fail to send.
    assert Tournament.objects.get().name == "Evil Bcc: x@evil.example cup"


def test_it_refuses_a_name_that_shows_nothing(client, alice):
    client.force_login(alice)

    response = _create(client, "\u3164\u200b")

    assert "That name shows nothing: write it with letters that show." in response.text
    assert not Tournament.objects.exists()


def test_it_shows_the_form_again_with_the_reasons(client, alice):
    client.force_login(alice)

    response = client.post(
        reverse("tournament_new"),
        {"name": "Bad", "min_players": "6", "max_players": "4", "signup_deadline": "2001-01-01"},
    )

    assert response.status_code == 200
    assert "The maximum cannot be below the minimum." in response.text
    assert "The deadline must be in the future." in response.text
    assert not Tournament.objects.exists()


def test_a_refused_form_takes_the_focus_to_its_first_field_in_error(client, alice):
    client.force_login(alice)

    data = {"name": "Small cup", "format": "swiss", "variant": "american", "points": "1"}
    data |= {"days_per_move": "2", "min_players": "2", "max_players": "1", "start_mode": "manual"}
    deadline = timezone.localtime(timezone.now() + timedelta(days=3))

    response = client.post(
        reverse("tournament_new"), data | {"signup_deadline": f"{deadline:%Y-%m-%dT%H:%M}"}
    )

    # A phone opens the page there, not at the top with the reason far below.
    focused = re.findall(r"<[^>]* autofocus[ >][^>]*>", response.text)
    assert len(focused) == 1 and 'name="max_players"' in focused[0]
    assert "greater than or equal to 2" in response.text


@pytest.mark.parametrize("zone", ["America/Los_Angeles", "UTC", "Asia/Tokyo"])
def test_it_refuses_a_deadline_more_than_a_year_ahead(client, alice, zone):
    # 23:59 on 31 December 9999 in Los Angeles is in the year 10000 in UTC, where the
    # database is given it: saving it raised OverflowError (a server error). Stored from
    # UTC, the same moment could not be shown to a player east of Greenwich (another).
    alice.timezone = zone
    alice.save()
    client.force_login(alice)
    data = {"name": "Forever cup", "format": "swiss", "variant": "american", "points": "1"}
    data |= {"days_per_move": "2", "min_players": "2", "max_players": "4"}
    far = data | {"signup_deadline": "9999-12-31T23:59", "start_mode": "manual"}
    in_a_year = timezone.localtime(timezone.now() + timedelta(days=360))
    near = data | {"signup_deadline": in_a_year.strftime("%Y-%m-%dT%H:%M"), "start_mode": "manual"}

    refused = client.post(reverse("tournament_new"), far)
    assert refused.status_code == 200
    assert "Choose a date within 365 days." in refused.text
    assert not Tournament.objects.exists()
    assert client.post(reverse("tournament_new"), near).status_code == 302


# -- the tournament page ------------------------------------------------------------------------


def test_it_shows_an_open_tournament_to_each_kind_of_visitor(client, alice, bob):
    tournament = open_tournament(alice, name="Spring open")
    for player in make_users(2):
        Entry.objects.create(tournament=tournament, user=player)
    url = tournament.get_absolute_url()

    anonymous = client.get(url).text
    client.force_login(bob)
    other = client.get(url).text
    client.force_login(alice)
    owner = client.get(url).text

    assert "Log in to sign up" in anonymous and "Start early" not in anonymous
    assert reverse("tournament_sign_up", args=[tournament.pk]) in other
    assert "Start early" not in other and "Cancel the tournament" not in other
    assert "Start early" in owner and "Cancel the tournament" in owner
    assert "Enter a bot" not in other


@pytest.mark.parametrize(
    ("entered", "said"),
    [
        (0, "once 3 more players sign up: it needs at least 3."),
        (2, "once 1 more player signs up: it needs at least 3."),
    ],
)
def test_the_organiser_is_told_how_many_more_players_it_needs_to_start(
    client, alice, entered, said
):
    # Not a Start button that services.start_tournament would refuse.
    tournament = open_tournament(alice, min_players=3)
    for player in make_users(entered):
        Entry.objects.create(tournament=tournament, user=player)
    client.force_login(alice)

    page = " ".join(client.get(tournament.get_absolute_url()).text.split())
    for player in make_users(3 - entered, prefix="late"):
        Entry.objects.create(tournament=tournament, user=player)
    enough = " ".join(client.get(tournament.get_absolute_url()).text.split())

    assert "Start early" not in page and f"You can start it {said}" in page
    assert "Start early" in enough and "You can start it" not in enough


def test_a_manual_tournament_short_of_players_once_sign_up_closed_says_what_to_do(client, alice):
    tournament = open_tournament(alice, min_players=4)
    Entry.objects.create(tournament=tournament, user=make_users(1)[0])
    Tournament.objects.filter(pk=tournament.pk).update(
        signup_deadline=timezone.now() - timedelta(minutes=1)
    )
    client.force_login(alice)

    page = " ".join(client.get(tournament.get_absolute_url()).text.split())

    # Not "once 3 more players sign up": nobody can any more.
    assert (
        "Sign-up has closed 3 players short of the 4 it needs to start: enter bots below to"
        " make up the number, or cancel it."
    ) in page
    assert "It will not start, and everyone signed up is told by email." in page
    # Its players, and anyone, read the same in its status, not "waiting for the organiser".
    client.logout()
    seen = " ".join(client.get(tournament.get_absolute_url()).text.split())
    assert "the organiser may enter bots to make up the number, or cancel it." in seen
    assert "waiting for the organiser to start it" not in seen
    listed = " ".join(client.get(reverse("tournament_list")).text.split())
    assert "Sign-up closed, too few players: the organiser may enter bots, or cancel it." in listed


@pytest.mark.parametrize(
    ("least", "most", "said"), [(4, 4, "4 players."), (2, 8, "2 to 8 players.")]
)
def test_it_says_how_many_players_may_play(client, alice, least, most, said):
    tournament = open_tournament(alice, min_players=least, max_players=most)

    page = client.get(tournament.get_absolute_url()).text

    assert said in page
    assert "4 to 4" not in page


def test_it_shows_the_username_of_a_player_with_a_display_name(client, alice, bob):
    bob.display_name = "Expert bot"
    bob.save()
    tournament = open_tournament(alice)
    services.sign_up(tournament.pk, user=bob)

    page = client.get(tournament.get_absolute_url()).text

    assert 'Expert bot</bdi></a> <span class="muted">(<bdi>bob</bdi>)</span>' in page


BESIDE = '<span class="muted">(<bdi>{}</bdi>)</span>'


@pytest.mark.parametrize("format", [Format.SINGLE_ELIMINATION, Format.ROUND_ROBIN])
def test_the_draw_shows_the_username_beside_each_display_name(client, alice, format):
    players = make_users(2)
    for number, player in enumerate(players, 1):
        player.display_name = f"Player {number}"
        player.save()
    alice.display_name = "The organiser"
    alice.save()
    tournament = started_tournament(alice, players, format=format)
    match = active_matches(tournament)[0]
    lose(match, match.white)
    champion = match.black

    page = client.get(tournament.get_absolute_url()).text
    listed = client.get(reverse("tournament_list")).text

    # The bracket, or the standings and the rounds.
    draw = page[page.index('<div class="actions">') : page.index("<h2>Players</h2>")]
    for player in players:
        # A name, inside its link or not, then the username.
        beside = (
            f"<bdi>{player.display_name}</bdi>(</a>)? {re.escape(BESIDE.format(player.username))}"
        )
        assert draw.count(player.display_name) == len(re.findall(beside, draw)) >= 1
    assert f"<bdi>{champion.display_name}</bdi></strong> {BESIDE.format(champion.username)}" in page
    assert f"<bdi>The organiser</bdi></a> {BESIDE.format(alice.username)}" in page
    assert f"Won by <bdi>{champion.display_name}</bdi> {BESIDE.format(champion.username)}" in listed
    assert f"organised by <bdi>The organiser</bdi> {BESIDE.format(alice.username)}" in listed


def test_it_names_a_bot_once_as_a_bot(client, alice):
    bot = next(bot for bot in game_services.bot_users() if bot.username == "club-bot")
    tournament = open_tournament(alice)
    services.add_bot(tournament.pk, user=alice, bot=bot)

    page = client.get(tournament.get_absolute_url()).text

    # Not "Club bot (club-bot) (bot)": nobody's name may pass for a bot's.
    assert f'{bot.display_name}</bdi></a> <span class="muted">(bot)</span>' in page
    assert "(<bdi>club-bot</bdi>)" not in page


@pytest.mark.parametrize("format", [Format.SINGLE_ELIMINATION, Format.ROUND_ROBIN])
def test_the_draw_marks_a_bot_as_the_players_table_does(client, alice, format):
    bot = next(bot for bot in game_services.bot_users() if bot.username == "club-bot")
    tournament = open_tournament(alice, format=format)
    services.add_bot(tournament.pk, user=alice, bot=bot)
    Entry.objects.create(tournament=tournament, user=make_users(1)[0])
    services.start_tournament(tournament.pk, user=alice)

    page = client.get(tournament.get_absolute_url()).text

    draw = page[page.index('<div class="actions">') : page.index("<h2>Players</h2>")]
    # Its name, inside its link or not, then the mark.
    assert re.search(f'{bot.display_name}</bdi>(</a>)? <span class="muted">\\(bot\\)</span>', draw)
    assert "club-bot</bdi>)" not in page


@pytest.mark.parametrize("visitor", ["anonymous", "bob", "organiser"])
def test_a_full_tournament_says_it_is_full_where_sign_up_would_be(client, alice, bob, visitor):
    tournament = open_tournament(alice, min_players=2, max_players=2)
    for player in make_users(2):
        services.sign_up(tournament.pk, user=player)
    if visitor != "anonymous":
        client.force_login(bob if visitor == "bob" else alice)

    page = client.get(tournament.get_absolute_url()).text

    assert "The tournament is full: no more players can sign up." in page
    assert "sign up</a>" not in page and "Sign up</button>" not in page


def test_a_tournament_with_places_left_or_entered_says_nothing_of_full(client, alice, bob):
    tournament = open_tournament(alice, min_players=2, max_players=2)
    services.sign_up(tournament.pk, user=bob)
    client.force_login(alice)
    places_left = client.get(tournament.get_absolute_url()).text
    services.sign_up(tournament.pk, user=alice)
    entered = client.get(tournament.get_absolute_url()).text

    assert "is full" not in places_left and "Sign up</button>" in places_left
    assert "is full" not in entered and "Leave the tournament" in entered


def test_it_offers_the_organiser_the_bots(client, alice):
    bot = game_services.bot_users()[0]
    tournament = open_tournament(alice)
    client.force_login(alice)

    page = client.get(tournament.get_absolute_url()).text
    response = _post(client, "tournament_add_bot", tournament, bot=bot.pk)

    assert "Enter a bot" in page and f'value="{bot.pk}"' in page
    assert response.status_code == 302
    assert Entry.objects.filter(tournament=tournament, user=bot).exists()


def test_the_organiser_takes_a_bot_entered_by_mistake_out_before_the_start(client, alice, bob):
    bot = game_services.bot_users()[0]
    tournament = open_tournament(alice)
    services.sign_up(tournament.pk, user=bob)
    services.add_bot(tournament.pk, user=alice, bot=bot)
    client.force_login(alice)
    remove = reverse("tournament_remove_bot", args=[tournament.pk])

    page = client.get(tournament.get_absolute_url()).text
    response = _post(client, "tournament_remove_bot", tournament, bot=bot.pk)

    # One button a bot, in a form of its own that posts the bot's id.
    [form] = re.findall(rf'<form method="post" action="{remove}".*?</form>', page, re.S)
    assert "csrfmiddlewaretoken" in form and f'name="bot" value="{bot.pk}"' in form
    assert re.search(
        rf'<button type="submit"[^>]*>Remove<span class="visually-hidden"> {bot}<', form
    )
    assert response.status_code == 302
    assert not Entry.objects.filter(tournament=tournament, user=bot).exists()
    assert Entry.objects.filter(tournament=tournament, user=bob).exists()
    assert f"{bot} is taken out." in client.get(response["Location"]).text
    # The bot can be entered again.
    assert f'<option value="{bot.pk}">' in client.get(tournament.get_absolute_url()).text


def test_only_a_bot_can_be_taken_out_and_only_before_the_start(client, alice, bob):
    bot = game_services.bot_users()[0]
    tournament = open_tournament(alice, min_players=2)
    services.sign_up(tournament.pk, user=bob)
    services.add_bot(tournament.pk, user=alice, bot=bot)
    client.force_login(alice)

    not_a_bot = _post(client, "tournament_remove_bot", tournament, bot=bob.pk)
    refused = client.get(not_a_bot["Location"]).text
    services.start_tournament(tournament.pk, user=alice)
    started = _post(client, "tournament_remove_bot", tournament, bot=bot.pk)

    assert "Choose a bot." in refused
    assert "This tournament is running." in client.get(started["Location"]).text
    assert Entry.objects.filter(tournament=tournament).count() == 2
    assert "remove-bot" not in client.get(tournament.get_absolute_url()).text


def test_nobody_but_the_organiser_sees_or_may_take_a_bot_out(client, alice, bob):
    bot = game_services.bot_users()[0]
    tournament = open_tournament(alice)
    services.add_bot(tournament.pk, user=alice, bot=bot)
    client.force_login(bob)

    page = client.get(tournament.get_absolute_url()).text
    response = _post(client, "tournament_remove_bot", tournament, bot=bot.pk)

    assert "remove-bot" not in page
    assert response.status_code == 403
    assert Entry.objects.filter(tournament=tournament, user=bot).exists()


def test_it_signs_up_and_lets_leave_through_the_page(client, alice, bob):
    tournament = open_tournament(alice)
    client.force_login(bob)

    _post(client, "tournament_sign_up", tournament)
    signed_up = client.get(tournament.get_absolute_url()).text
    _post(client, "tournament_withdraw", tournament, before_start="1")

    assert "Leave the tournament" in signed_up
    assert '<input type="hidden" name="before_start" value="1">' in signed_up
    assert not Entry.objects.filter(tournament=tournament).exists()


def test_leave_sent_from_a_page_drawn_before_the_start_withdraws_nobody(client, alice):
    # The page said "Leave the tournament"; the organiser started it meanwhile. Leaving now
    # would resign a match: only the running tournament's "Withdraw…", confirmed, may.
    players = make_users(4)
    tournament = open_tournament(alice)
    for player in players:
        services.sign_up(tournament.pk, user=player)
    client.force_login(players[0])
    client.get(tournament.get_absolute_url())
    services.start_tournament(tournament.pk, user=alice)

    response = client.post(
        reverse("tournament_withdraw", args=[tournament.pk]), {"before_start": "1"}, follow=True
    )

    assert "The tournament has started meanwhile: to withdraw from it now" in response.text
    assert not Entry.objects.get(tournament=tournament, user=players[0]).withdrawn
    assert not Match.objects.filter(status=Match.Status.FINISHED).exists()


def test_it_shows_why_a_sign_up_was_refused(client, alice, bob):
    tournament = open_tournament(alice)
    client.force_login(bob)
    _post(client, "tournament_sign_up", tournament)

    response = client.post(reverse("tournament_sign_up", args=[tournament.pk]), follow=True)

    assert "You have already signed up." in response.text
    assert Entry.objects.filter(tournament=tournament).count() == 1


@pytest.mark.parametrize("action", ["tournament_start", "tournament_cancel", "tournament_add_bot"])
def test_it_forbids_organiser_actions_to_others(client, alice, bob, action):
    tournament = open_tournament(alice, min_players=2)
    for player in make_users(2):
        Entry.objects.create(tournament=tournament, user=player)
    client.force_login(bob)

    response = _post(client, action, tournament)

    assert response.status_code == 403
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.OPEN


@pytest.mark.parametrize("action", ["tournament_start", "tournament_cancel", "tournament_sign_up"])
def test_it_sends_anonymous_visitors_to_log_in_for_actions(client, alice, action):
    tournament = open_tournament(alice)

    response = _post(client, action, tournament)

    assert response.status_code == 302 and reverse("login") in response["Location"]


def test_it_lets_the_organiser_start_and_cancel_from_the_page(client, alice):
    tournament = open_tournament(alice, min_players=2)
    for player in make_users(3):
        Entry.objects.create(tournament=tournament, user=player)
    client.force_login(alice)

    started = _post(client, "tournament_start", tournament)
    tournament.refresh_from_db()
    status_after_start = tournament.status
    cancelled = _post(client, "tournament_cancel", tournament)

    assert started.status_code == 302 and cancelled.status_code == 302
    assert status_after_start == Tournament.Status.RUNNING
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.CANCELLED


def test_it_draws_a_single_elimination_bracket_with_byes_and_links(client, alice, bob):
    players = make_users(3)
    tournament = started_tournament(alice, players, format=Format.SINGLE_ELIMINATION)
    match = active_matches(tournament)[0]
    client.force_login(bob)

    text = client.get(tournament.get_absolute_url()).text

    assert "Semi-finals" in text and "Final" in text
    assert ">bye<" in text
    assert "to be decided" in text
    assert f'href="{match.get_absolute_url()}"' in text
    assert 'class="bracket" role="region"' in text


def test_it_highlights_the_winner_and_shows_the_champion(client, alice):
    players = make_users(2)
    tournament = started_tournament(alice, players, format=Format.SINGLE_ELIMINATION)
    match = active_matches(tournament)[0]
    lose(match, match.white)

    text = client.get(tournament.get_absolute_url()).text

    winner = re.search(r'class="slot-side winner">(.*?)</div>', text, re.S)
    assert winner and str(match.black) in winner.group(1) and ", winner<" in winner.group(1)
    assert f"Champion: <strong><bdi>{match.black}</bdi></strong>" in text
    assert f'href="{match.get_absolute_url()}"' in text


def _heard(html: str) -> str:
    """What a screen reader reads of ``html``: its text, with what is aria-hidden left out."""
    html = re.sub(r'<span aria-hidden="true">.*?</span>', "", html)
    return " ".join(re.sub(r"<[^>]+>", "", html).split())


def test_a_bracket_slot_reads_as_seeds_names_points_and_the_winner(client, alice):
    players = make_users(2)
    tournament = seeded_tournament(alice, players, format=Format.SINGLE_ELIMINATION)
    match = active_matches(tournament)[0]
    lose(match, players[1])

    text = client.get(tournament.get_absolute_url()).text

    sides = re.findall(r'<div class="slot-side[^"]*">(.*?)</div>', text, re.S)
    assert [_heard(side) for side in sides] == [
        f"seed 1, {players[0]}, 15 points, winner",
        f"seed 2, {players[1]}, 0 points",
    ]
    # The tick repeats "winner" on the screen: a screen reader does not hear it again.
    assert '<span aria-hidden="true"> ✓</span>' in sides[0]


def _better_seed_wins_every_match(tournament: Tournament) -> None:
    seed = dict(tournament.entries.values_list("user_id", "seed"))
    while matches := active_matches(tournament):
        for match in matches:
            lose(match, max(match.white, match.black, key=lambda user: seed[user.pk]))
        tournament.refresh_from_db()


def _placings(page: str) -> list[tuple[str, str, str]]:
    """The final placings table's rows: place, username, the round they went out in."""
    found = re.search(r'<table class="standings placings">.*?</table>', page, re.S)
    assert found
    row = (
        r'<td class="num">([^<]*)</td>\s*'  # the place
        r'<td[^>]*><a href="/players/([^/]*)/".*?</td>\s*'  # the player, by username
        r"<td>([^<]*)</td>"  # out in
    )
    return re.findall(row, found.group(0), re.S)


@pytest.mark.parametrize(
    ("format", "placings"),
    [
        (
            Format.SINGLE_ELIMINATION,
            [
                ("1", 0, "Champion"),
                ("2", 1, "Final"),
                ("3\u20134", 2, "Semi-finals"),
                ("3\u20134", 3, "Semi-finals"),
                ("5\u20136", 4, "Quarter-finals"),
                ("5\u20136", 5, "Quarter-finals"),
            ],
        ),
        (
            Format.DOUBLE_ELIMINATION,
            [
                ("1", 0, "Champion"),
                ("2", 1, "Grand final"),
                ("3", 2, "Losers round 4"),
                ("4", 3, "Losers round 3"),
                ("5\u20136", 4, "Losers round 2"),
                ("5\u20136", 5, "Losers round 2"),
            ],
        ),
    ],
)
def test_a_finished_elimination_shows_its_final_placings(client, alice, format, placings):
    players = make_users(6)
    tournament = seeded_tournament(alice, players, format=format)
    running_page = client.get(tournament.get_absolute_url()).text
    _better_seed_wins_every_match(tournament)

    page = client.get(tournament.get_absolute_url()).text

    assert "Final placings" not in running_page
    assert tournament.status == Tournament.Status.FINISHED
    assert page.index("Final placings") < page.index('<div class="bracket"')
    expected = [(place, players[index].username, out) for place, index, out in placings]
    assert _placings(page) == expected


def test_it_draws_both_brackets_of_a_double_elimination(client, alice):
    tournament = started_tournament(alice, make_users(4), format=Format.DOUBLE_ELIMINATION)

    text = client.get(tournament.get_absolute_url()).text

    positions = [
        text.index(title) for title in ("Winners bracket", "Losers bracket", "Grand final")
    ]
    assert positions == sorted(positions)
    assert "Losers round 1" in text
    # The grand final's possible second match, explained beneath its heading.
    note = "If the losers bracket&#x27;s finalist wins the grand final, each has lost once"
    assert text.index("Grand final</h2>") < text.index(note)


def test_a_two_player_double_elimination_draws_no_empty_losers_bracket(client, alice):
    tournament = started_tournament(alice, make_users(2), format=Format.DOUBLE_ELIMINATION)

    text = client.get(tournament.get_absolute_url()).text

    assert "Winners bracket" in text and "Grand final" in text
    assert "Losers bracket" not in text
    assert text.count('class="bracket"') == 2


def test_it_shows_swiss_standings_with_buchholz(client, alice):
    players = make_users(4)
    tournament = started_tournament(alice, players, format=Format.SWISS)
    for match in active_matches(tournament):
        lose(match, match.white)

    text = client.get(tournament.get_absolute_url()).text

    assert "Standings" in text and "Buchholz" in text and "Points against" in text
    assert "Round 2" in text
    for match in tournament.tournament_matches.all():
        assert f'href="{match.match.get_absolute_url()}"' in text


def _standings(page: str) -> list[tuple[str, ...]]:
    """The standings table's header and rows, each cell's text (a player by username)."""
    found = re.search(r'<table class="standings">.*?</table>', page, re.S)
    assert found
    rows = []
    for row in re.findall(r"<tr>(.*?)</tr>", found.group(0), re.S):
        cells = re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.S)
        rows.append(tuple(re.sub(r"<[^>]*>", "", cell).strip() for cell in cells))
    return rows


def test_swiss_standings_count_a_bye_apart_and_in_the_score(client, alice):
    one, two, three, _, five = players = make_users(5)
    tournament = seeded_tournament(alice, players, format=Format.SWISS)
    # Round 1: 1 v 3, 2 v 4, and 5 has the bye. 1 beats 3; 2 v 4 is still being played.
    lose(slot_match(tournament, "R1-1"), three)

    page = client.get(tournament.get_absolute_url()).text

    header, *rows = _standings(page)
    # Score beside the name: the first a phone shows of a table wider than it.
    assert header[2:8] == ("Score", "Buchholz", "Played", "Won", "Lost", "Byes")
    by_player = {row[1]: (row[2], *row[4:8]) for row in rows}
    assert by_player[one.username] == ("1", "1", "1", "0", "0")
    assert by_player[three.username] == ("0", "1", "0", "1", "0")
    assert by_player[five.username] == ("1", "0", "0", "0", "1")
    assert by_player[two.username] == ("0", "0", "0", "0", "0")
    assert "Score is Won plus Byes" in page


def test_round_robin_standings_have_no_byes_column(client, alice):
    tournament = started_tournament(alice, make_users(3), format=Format.ROUND_ROBIN)

    header, *_ = _standings(client.get(tournament.get_absolute_url()).text)

    assert header[2:6] == ("Score", "Played", "Won", "Lost")


@pytest.mark.parametrize(
    ("rounds", "least", "most", "said"),
    [
        (5, 3, 6, "Swiss of 2 to 5 rounds (by the number of players)"),
        (5, 6, 8, "Swiss of 5 rounds,"),
        (None, 4, 16, "Swiss of 3 to 5 rounds (by the number of players)"),
        (None, 2, 2, "Swiss of 1 round,"),
    ],
)
def test_an_open_swiss_says_how_many_rounds_it_may_have(client, alice, rounds, least, most, said):
    tournament = open_tournament(
        alice, format=Format.SWISS, swiss_rounds=rounds, min_players=least, max_players=most
    )

    page = client.get(tournament.get_absolute_url()).text

    assert said in page


def test_a_started_swiss_says_how_many_rounds_it_has_once_cut_to_its_players(client, alice):
    tournament = started_tournament(
        alice, make_users(3), format=Format.SWISS, swiss_rounds=5, max_players=6
    )

    page = client.get(tournament.get_absolute_url()).text
    listed = client.get(reverse("tournament_list")).text

    assert tournament.draw().total_rounds == 2
    assert "Swiss of 2 rounds," in page and "Swiss of 2 rounds," in listed


def test_a_swiss_that_ended_early_says_after_how_many_rounds_and_why(client, alice):
    tournament, _ = swiss_that_ends_early(alice)

    page = client.get(tournament.get_absolute_url()).text
    listed = client.get(reverse("tournament_list")).text

    assert tournament.status == Tournament.Status.FINISHED
    assert "Swiss of 3 rounds," in page and "Swiss of 3 rounds," in listed
    assert (
        "It ended after round 3 of the 4 planned: the players left could not be paired for"
        " round 4 without two of them meeting again"
    ) in page
    assert "Round 3" in page and "Round 4" not in page


def test_a_swiss_that_played_all_its_rounds_gives_no_reason_for_ending(client, alice):
    tournament = started_tournament(alice, make_users(4), format=Format.SWISS)
    while active := active_matches(tournament):
        lose(active[0], active[0].white)
    tournament.refresh_from_db()

    page = client.get(tournament.get_absolute_url()).text

    assert tournament.status == Tournament.Status.FINISHED
    assert "Swiss of 3 rounds," in page and "It ended after" not in page


def test_the_form_says_swiss_rounds_are_cut_to_one_fewer_than_the_players(client, alice):
    client.force_login(alice)

    page = client.get(reverse("tournament_new")).text

    assert "At most one fewer than the players who sign up" in page
    assert "Swiss only: at most 15; for everyone to meet everyone, choose a round robin." in page


def test_it_shows_round_robin_standings_without_buchholz(client, alice):
    tournament = started_tournament(alice, make_users(5), format=Format.ROUND_ROBIN)

    text = client.get(tournament.get_absolute_url()).text

    assert "Standings" in text and "Buchholz" not in text
    assert "has a bye" in text


def test_it_shows_no_bye_for_a_round_robin_player_who_has_withdrawn(client, alice):
    players = make_users(3)
    tournament = seeded_tournament(alice, players, format=Format.ROUND_ROBIN)
    # Of three, seed n sits out round n: seed 3 withdraws in round 1, and round 2 (seed 1
    # against seed 3, by walkover) is over at once, so round 3 opens with seed 3's bye.
    services.withdraw(tournament.pk, user=players[2])

    text = client.get(tournament.get_absolute_url()).text

    sat_out = text[text.index('id="slot-R3-2"') :]
    sat_out = sat_out[: sat_out.index("</li>")]
    assert f"{players[2]}" in sat_out
    assert "has withdrawn: no bye" in sat_out and "has a bye" not in sat_out
    assert text.count("has a bye") == 2  # rounds 1 and 2


def test_it_offers_withdrawal_to_a_player_of_a_running_tournament(client, alice):
    players = make_users(4)
    tournament = started_tournament(alice, players, format=Format.SINGLE_ELIMINATION)
    client.force_login(players[0])

    page = client.get(tournament.get_absolute_url()).text
    response = _post(client, "tournament_withdraw", tournament)

    assert "Withdraw…" in page
    assert response.status_code == 302
    assert Entry.objects.get(tournament=tournament, user=players[0]).withdrawn


@pytest.mark.parametrize(
    ("format", "said"),
    [
        (Format.SWISS, "and not be paired again; the standings place you below every player"),
        (Format.ROUND_ROBIN, "and lose every later one by walkover"),
        (Format.SINGLE_ELIMINATION, "and lose every later one by walkover"),
    ],
)
def test_the_withdrawal_says_what_it_does_in_the_format(client, alice, format, said):
    players = make_users(4)
    tournament = started_tournament(alice, players, format=format)
    client.force_login(players[0])

    page = client.get(tournament.get_absolute_url()).text

    confirm = page[page.index("Withdraw…") : page.index("Yes, withdraw")]
    assert f"You will resign your current match, if you have one, {said}" in confirm
    # A withdrawn Swiss player is not paired again: no later match of theirs is a walkover.
    assert ("walkover" in confirm) is (format != Format.SWISS)


@pytest.mark.parametrize(
    ("format", "still_in"),
    [(Format.SINGLE_ELIMINATION, False), (Format.DOUBLE_ELIMINATION, True)],
)
def test_it_offers_withdrawal_only_to_a_player_still_in(client, alice, format, still_in):
    tournament = started_tournament(alice, make_users(4), format=format)
    match = active_matches(tournament)[0]
    lose(match, match.white)  # out of single elimination; into the losers bracket of double

    client.force_login(match.white)
    loser_page = client.get(tournament.get_absolute_url()).text
    client.force_login(match.black)
    winner_page = client.get(tournament.get_absolute_url()).text

    assert ("Withdraw…" in loser_page) is still_in
    assert "Withdraw…" in winner_page


def _lose_twice(tournament: Tournament):
    """Of a double elimination of four: someone loses W1-1, then losers round 1. Returns them."""
    first, second = active_matches(tournament)  # W1-1 and W1-2
    lose(first, first.white)
    lose(second, second.white)
    [losers_round] = [m for m in active_matches(tournament) if first.white in (m.white, m.black)]
    lose(losers_round, first.white)
    return first.white


@pytest.mark.parametrize("format", [Format.SINGLE_ELIMINATION, Format.DOUBLE_ELIMINATION])
def test_withdrawing_after_being_knocked_out_changes_nothing(client, alice, format):
    tournament = started_tournament(alice, make_users(4), format=format)
    if format == Format.SINGLE_ELIMINATION:
        match = active_matches(tournament)[0]
        lose(match, match.white)
        out = match.white
    else:
        out = _lose_twice(tournament)
    tournament.refresh_from_db()
    state = tournament.state
    client.force_login(out)

    response = _post(client, "tournament_withdraw", tournament)

    assert response.status_code == 302
    page = client.get(response["Location"]).text
    assert "You are out of this tournament already: there is nothing to withdraw from." in page
    assert "You have withdrawn." not in page
    assert not Entry.objects.get(tournament=tournament, user=out).withdrawn
    tournament.refresh_from_db()
    assert tournament.state == state
    assert out.pk not in tournament.draw().withdrawn


def _finished(alice, bob) -> Tournament:
    tournament = started_tournament(alice, [bob, *make_users(1)], format=Format.SINGLE_ELIMINATION)
    [match] = active_matches(tournament)
    lose(match, bob)
    return tournament


def _cancelled(alice, bob) -> Tournament:
    tournament = started_tournament(alice, [bob, *make_users(3)], format=Format.ROUND_ROBIN)
    services.cancel_tournament(tournament.pk, user=alice)
    return tournament


def _cancelled_before_the_start(alice, bob) -> Tournament:
    tournament = open_tournament(alice)
    services.sign_up(tournament.pk, user=bob)
    services.cancel_tournament(tournament.pk, user=alice)
    return tournament


def _withdrawn(alice, bob) -> Tournament:
    tournament = started_tournament(alice, [bob, *make_users(3)], format=Format.SWISS)
    services.withdraw(tournament.pk, user=bob)
    return tournament


def _running_without_him(alice, bob) -> Tournament:
    return started_tournament(alice, make_users(4), format=Format.DOUBLE_ELIMINATION)


def _open_without_him(alice, bob) -> Tournament:
    return open_tournament(alice)


@pytest.mark.parametrize(
    ("made", "said"),
    [
        (_finished, "This tournament is over."),
        (_cancelled, "This tournament has been cancelled."),
        (_cancelled_before_the_start, "This tournament has been cancelled."),
        (_withdrawn, "You have already withdrawn."),
        (_running_without_him, "You are not playing in this tournament."),
        (_open_without_him, "You have not signed up for this tournament."),
    ],
)
def test_a_withdrawal_with_nothing_to_withdraw_from_changes_nothing(client, alice, bob, made, said):
    tournament = made(alice, bob)
    tournament.refresh_from_db()
    before = (tournament.status, tournament.state, tournament.champion_id)
    entries = list(Entry.objects.filter(tournament=tournament).values("user", "withdrawn"))
    client.force_login(bob)

    response = _post(client, "tournament_withdraw", tournament)

    assert response.status_code == 302
    page = client.get(response["Location"]).text
    assert said in page
    assert "You have withdrawn." not in page and "You have left" not in page
    tournament.refresh_from_db()
    assert (tournament.status, tournament.state, tournament.champion_id) == before
    assert list(Entry.objects.filter(tournament=tournament).values("user", "withdrawn")) == entries


def test_it_answers_404_for_an_unknown_tournament(client):
    response = client.get(reverse("tournament", args=[999]))

    assert response.status_code == 404


@pytest.mark.parametrize("sent", ["", "abc", "1.5", "99999999999999999999", "-3"])
def test_adding_a_bot_that_is_not_one_says_choose_a_bot(client, alice, sent):
    tournament = open_tournament(alice)
    client.force_login(alice)

    response = _post(client, "tournament_add_bot", tournament, bot=sent)

    assert response.status_code == 302
    assert not Entry.objects.filter(tournament=tournament).exclude(user=alice).exists()
    followed = client.get(response["Location"]).text
    assert "Choose a bot" in followed


def test_the_players_table_gives_the_ratings_they_were_seeded_by_as_such(client, alice):
    # The ratings the seeding read are kept with the entries; the players' ratings move on
    # with every rated match, so the table says which it shows.
    players = make_users(2)
    PlayerRating.objects.create(
        user=players[0], variant="american", rating=1712.4, rd=60, rated_at=timezone.now()
    )
    cup = started_tournament(alice, players, format=Format.ROUND_ROBIN)
    PlayerRating.objects.filter(user=players[0]).update(rating=1650)

    page = client.get(cup.get_absolute_url()).text

    assert '<th scope="col" class="num">Rating at the start</th>' in page
    assert '<td class="num">1712</td>' in page and "1650" not in page


def test_the_players_table_marks_a_provisional_rating_as_the_leaderboard_does(client, alice):
    # The RD as it stood at the start, grown for time idle (games.ratings.store.as_of): an
    # established rating left for years is provisional again, and an unrated player's 1500
    # is as provisional as can be.
    established, idle, new, unrated = make_users(4)
    now = timezone.now()
    for player, rated_at, rd in [
        (established, now, 60),
        (idle, now - timedelta(days=3650), 60),
        (new, now, 200),
    ]:
        PlayerRating.objects.create(
            user=player, variant="american", rating=1600, rd=rd, rated_at=rated_at
        )
    cup = started_tournament(alice, [established, idle, new, unrated], format=Format.SWISS)

    page = client.get(cup.get_absolute_url()).text
    table = page[page.index("<h2>Players</h2>") :]
    shown = dict(
        re.findall(r"<bdi>(p\d+)</bdi></a>.*?</td>\s*<td class=\"num\">([^<]*)</td>", table)
    )

    assert shown == {
        established.username: "1600",
        idle.username: "1600?",
        new.username: "1600?",
        unrated.username: "1500?",
    }
    assert 'A "?" marks a provisional rating' in page


def test_an_automatic_start_says_it_needs_its_minimum_of_players(client, alice):
    tournament = open_tournament(alice, start_mode=Tournament.StartMode.AUTOMATIC, min_players=4)

    text = " ".join(client.get(tournament.get_absolute_url()).text.split())

    assert "it starts then, if at least 4 have signed up (else it is cancelled)." in text


def test_an_entrant_is_told_where_they_stand(client, alice):
    one, two, three, four = players = make_users(4)
    tournament = seeded_tournament(alice, players, format=Format.SINGLE_ELIMINATION)
    semi = slot_match(tournament, "W1-1")  # one v four
    page = tournament.get_absolute_url()

    def said(player) -> str:
        client.force_login(player)
        return " ".join(client.get(page).text.split())

    playing = said(one)
    lose(semi, four)
    through, out = said(one), said(four)
    lose(slot_match(tournament, "W1-2"), three)
    lose(slot_match(tournament, "W2-1"), two)
    finished = said(two)

    assert f'Your match (Semi-finals): <a href="{semi.get_absolute_url()}">#{semi.pk} against' in (
        playing
    )
    assert "You are through: your next match starts when" in through
    assert "You are out of this tournament." in out
    assert "You finished 2nd of 4." in finished


def test_the_dashboard_lists_an_entrant_s_tournaments_with_where_they_stand(client, alice):
    # One waiting for a round to end, or for a start, has no match card to find it by.
    one, two, three, four = players = make_users(4)
    tournament = seeded_tournament(alice, players, format=Format.SINGLE_ELIMINATION)
    coming = open_tournament(alice, name="Winter cup")
    services.sign_up(coming.pk, user=one)
    left = open_tournament(alice, name="Left cup")
    services.sign_up(left.pk, user=one)
    services.withdraw(left.pk, user=one)

    def said(player) -> str:
        client.force_login(player)
        page = client.get(reverse("dashboard")).text
        section = page.partition('id="tournaments-h"')[2].partition("</section>")[0]
        return " ".join(section.split())

    playing = said(one)
    lose(slot_match(tournament, "W1-1"), four)  # one v four
    through, out = said(one), said(four)
    lose(slot_match(tournament, "W1-2"), three)
    lose(slot_match(tournament, "W2-1"), two)

    assert f'<a href="{tournament.get_absolute_url()}">{tournament.name}</a>' in playing
    assert "your match in it is listed above" in playing
    assert "Winter cup</a>" in playing
    assert "you are signed up; sign-up closes on" in playing
    assert "Left cup" not in playing  # left before the start
    assert "you are through: your next match starts when" in through
    assert "you are out; it goes on" in out
    assert "Winter cup" not in out
    # Once it is over, it is gone from the dashboard (the profile keeps it).
    assert tournament.name not in said(four)
    client.force_login(three)
    assert 'id="tournaments-h"' not in client.get(reverse("dashboard")).text
