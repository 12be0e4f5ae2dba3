"""Messages between the players on a 390px phone, with the keyboard: one writes, the
section is drawn again in place with the focus back in the box, and the other reads it."""

from __future__ import annotations

import contextlib
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import Browser, Page, expect
from playwright.sync_api import Error as PlaywrightError

from games import blocks, chat
from games.models import Match, Message

from .helpers import act, axe_violations, held_request, log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}


def test_a_player_writes_and_the_opponent_reads(page: Page, browser: Browser, live_server, match):
    page.set_viewport_size(PHONE)
    log_in(page, live_server.url, "alice")
    page.goto(live_server.url + match.get_absolute_url())
    expect(page.locator("#messages")).to_contain_text("No messages yet.")

    box = page.get_by_label("Message to bob")
    box.focus()
    page.keyboard.type("Good luck, and enjoy the game!")
    page.keyboard.press("Tab")  # to the button
    page.keyboard.press("Enter")

    expect(page.locator("#chat-list li")).to_have_count(1)
    expect(page.locator("#chat-list")).to_contain_text("Good luck, and enjoy the game!")
    expect(page.locator("#chat-announce")).to_have_text("Message sent.")
    expect(page.get_by_label("Message to bob")).to_be_focused()
    expect(page.get_by_label("Message to bob")).to_have_value("")
    expect(page.locator(".chat-empty")).to_have_count(0)
    assert axe_violations(page) == {}

    # Too long: refused, the text kept in the box with the reason beside it.
    page.get_by_label("Message to bob").fill("x" * 501)  # the browser's maxlength is 500...
    page.evaluate("document.getElementById('message-text').removeAttribute('maxlength')")
    page.get_by_label("Message to bob").fill("x" * 501)  # ...a script may send more
    page.get_by_role("button", name="Send message").click()
    expect(page.locator("#message-error")).to_contain_text("at most 500 characters")
    # Read once, through the box the error describes: the live region is emptied of
    # "Message sent.", not given the reason as well.
    expect(page.locator("#chat-announce")).to_have_text("")
    expect(page.get_by_label("Message to bob")).to_have_value("x" * 501)
    expect(page.locator("#chat-list li")).to_have_count(1)

    opponent = browser.new_context(viewport=PHONE).new_page()
    log_in(opponent, live_server.url, "bob")
    opponent.goto(live_server.url + match.get_absolute_url())
    expect(opponent.locator("#chat-list li.chat-theirs")).to_contain_text("Good luck")
    expect(opponent.get_by_label("Message to alice")).to_be_visible()
    widths = opponent.evaluate("[document.documentElement.scrollWidth, innerWidth]")
    assert widths[0] <= widths[1], widths
    opponent.context.close()


def test_a_long_conversation_shows_the_latest_and_older_ones_a_link_away(
    page: Page, live_server, match
):
    ago = timezone.now() - timedelta(days=2)
    made = Message.objects.bulk_create(
        Message(
            match=match, author=(match.white, match.black)[n % 2], text=f"note {n}", created_at=ago
        )
        for n in range(chat.SHOWN + 10)
    )
    # Read long since: the page shows the latest, not back to the first unread.
    Match.objects.filter(pk=match.pk).update(white_read_to=made[-1].pk, black_read_to=made[-1].pk)
    page.set_viewport_size(PHONE)
    log_in(page, live_server.url, "alice")
    page.goto(live_server.url + match.get_absolute_url())
    expect(page.locator("#chat-list li")).to_have_count(chat.SHOWN)

    box = page.get_by_label("Message to bob")
    box.focus()
    page.keyboard.type("Still here")
    page.keyboard.press("Tab")  # to the button
    page.keyboard.press("Enter")

    expect(page.locator("#chat-announce")).to_have_text("Message sent.")
    expect(page.get_by_label("Message to bob")).to_be_focused()
    expect(page.locator("#chat-list li")).to_have_count(chat.SHOWN)
    expect(page.locator("#chat-list li").last).to_contain_text("Still here")
    # The latest begin at note 11: the ten before them, and the first, are a page back.
    page.get_by_role("link", name="Older messages").focus()
    page.keyboard.press("Enter")
    expect(page.locator("#chat-list li")).to_have_count(11)
    expect(page.locator("#chat-list li").first).to_contain_text("note 0")
    expect(page.locator("#chat-list li").last).to_contain_text("note 10")
    expect(page.get_by_role("link", name="Older messages")).to_have_count(0)
    widths = page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
    assert widths[0] <= widths[1], widths
    assert axe_violations(page) == {}
    page.get_by_role("link", name="Newer messages").focus()
    page.keyboard.press("Enter")
    expect(page.locator("#chat-list li")).to_have_count(chat.SHOWN)
    expect(page.locator("#chat-list li").last).to_contain_text("Still here")
    page.get_by_role("link", name="Back to the latest messages").focus()
    page.keyboard.press("Enter")
    expect(page.locator("#chat-list li")).to_have_count(chat.SHOWN)
    expect(page.get_by_label("Message to bob")).to_be_visible()


def test_a_message_reaches_the_other_players_open_page(
    page: Page, browser: Browser, live_server, match, settings
):
    settings.CHAT_POLL_SECONDS = 1  # the live server runs in this process
    page.set_viewport_size(PHONE)
    log_in(page, live_server.url, "alice")  # alice is to move: her board does not poll
    page.goto(live_server.url + match.get_absolute_url())
    page.get_by_label("Message to bob").fill("Half a thought")  # typed, not sent

    writer = browser.new_context(viewport=PHONE).new_page()
    log_in(writer, live_server.url, "bob")
    writer.goto(live_server.url + match.get_absolute_url())
    writer.get_by_label("Message to alice").fill("Take your time!")
    writer.get_by_role("button", name="Send message").click()
    expect(writer.locator("#chat-announce")).to_have_text("Message sent.")
    writer.context.close()

    expect(page.locator("#chat-list li.chat-theirs")).to_contain_text("Take your time!")
    expect(page.locator("#chat-announce")).to_contain_text("bob wrote: Take your time!")
    expect(page.locator(".chat-empty")).to_be_hidden()
    expect(page.get_by_label("Message to bob")).to_have_value("Half a thought")
    page.wait_for_timeout(2500)  # two more polls: the message is not appended again
    expect(page.locator("#chat-list li")).to_have_count(1)
    expect(page.locator("#chat-list .chat-new")).to_have_count(1)

    # The next message brought by the poll is the new one; the first has been read.
    chat.post_message(match.pk, user=match.black, text="Still there?")
    expect(page.locator("#chat-list li")).to_have_count(2)
    expect(page.locator("#chat-list li").nth(0).locator(".chat-new")).to_have_count(0)
    expect(page.locator("#chat-list li").nth(1).locator(".chat-new")).to_have_count(1)


def test_a_poll_in_flight_when_the_player_sends_brings_nothing_twice(
    page: Page, live_server, match, settings
):
    from games import chat

    settings.CHAT_POLL_SECONDS = 1
    page.set_viewport_size(PHONE)
    log_in(page, live_server.url, "alice")
    held: list = []

    def hold_the_first_poll(route):
        if held:
            route.continue_()
        else:
            held.append(route)

    page.route("**/messages/?after=*", hold_the_first_poll)
    page.goto(live_server.url + match.get_absolute_url())
    poll = held_request(page, held)  # the first poll, in flight
    chat.post_message(match.pk, user=match.black, text="from bob")
    answer = poll.fetch()  # the server's answer now: bob's message, and ?after= it

    page.get_by_label("Message to bob").fill("from alice")
    page.get_by_role("button", name="Send message").click()
    expect(page.locator("#chat-announce")).to_have_text("Message sent.")
    # The poll's answer comes late, after the send's; if the send cancelled the poll (as
    # it should), nothing is waiting for it.
    with contextlib.suppress(PlaywrightError):
        poll.fulfill(response=answer)
    page.wait_for_timeout(2500)  # two more polls

    texts = page.locator("#chat-list li p").all_inner_texts()
    assert texts == ["from bob", "from alice"]


def test_a_message_arriving_does_not_take_the_place_of_the_boards_news(
    page: Page, live_server, match, settings
):
    settings.CHAT_POLL_SECONDS = 1
    page.set_viewport_size(PHONE)
    log_in(page, live_server.url, "alice")
    page.goto(live_server.url + match.get_absolute_url())
    act(page, page.locator(".move-choices .chip").first)
    said = page.locator("#announce").inner_text()
    assert said.startswith("Your play so far"), said

    chat.post_message(match.pk, user=match.black, text="Nice board")

    expect(page.locator("#chat-announce")).to_have_text("bob wrote: Nice board")
    expect(page.locator("#announce")).to_have_text(said)  # both are there to be read


def test_a_message_refused_by_a_block_takes_the_focus_to_the_reason_said_once(
    page: Page, live_server, match
):
    page.set_viewport_size(PHONE)
    log_in(page, live_server.url, "alice")
    page.goto(live_server.url + match.get_absolute_url())
    blocks.block(match.black, other=match.white)  # bob, while alice's page is open

    page.get_by_label("Message to bob").focus()
    page.keyboard.type("Are you still there?")
    page.keyboard.press("Tab")  # to the button
    page.keyboard.press("Enter")

    # The box is gone: the focus goes to the reason, not back to the top of the page.
    error = page.locator("#message-error")
    expect(error).to_have_text("Messages are closed in this match.")
    expect(error).to_be_focused()
    assert page.locator("#messages").inner_text().count("Messages are closed") == 1
    expect(page.locator(".chat-unsent")).to_have_text("Are you still there?")
    assert axe_violations(page) == {}
