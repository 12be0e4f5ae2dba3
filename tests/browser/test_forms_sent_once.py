"""A plain form is sent once however often its button is pressed (games/static/js/forms.js),
while HTMX's forms stay theirs to disable and give back; and a form refused comes back with
the focus on its first reason, where a phone shows it, not at the top of the page."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, Route, expect

from games import services
from games.models import Challenge

from .helpers import PASSWORD, held_request, log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
SEND = "main form button[type=submit]"
FOCUSED = "() => document.activeElement.name || document.activeElement.className"


@pytest.fixture
def players(django_user_model):
    return [
        django_user_model.objects.create_user(name, f"{name}@example.com", PASSWORD)
        for name in ("alice", "carol")
    ]


def _hold_posts(page: Page, path: str) -> list[Route]:
    """Hold each POST to ``path`` until the test lets it go; the held requests."""
    held: list[Route] = []

    def handle(route: Route) -> None:
        if route.request.method == "POST":
            held.append(route)
        else:
            route.continue_()

    page.route(f"**{path}", handle)
    return held


def test_a_double_click_sends_a_challenge_once(page: Page, live_server, players):
    log_in(page, live_server.url, "alice")
    page.goto(f"{live_server.url}/challenges/new/")
    page.get_by_label("Opponent").fill("carol")
    held = _hold_posts(page, "/challenges/new/")
    # The button as it stands just after each press: told from the page, which cannot be
    # asked (page.evaluate waits) while its navigation is held.
    disabled: list[bool] = []
    page.expose_function("tellDisabled", lambda state: disabled.append(state))
    page.evaluate(
        "send => document.addEventListener('submit', () => setTimeout(() =>"
        " window.tellDisabled(document.querySelector(send).disabled), 50))",
        SEND,
    )

    page.dblclick(SEND)

    first = held_request(page, held)
    page.wait_for_timeout(300)  # time for a second press's request to be sent, if it were
    assert len(held) == 1
    assert disabled and all(disabled)
    first.continue_()
    page.wait_for_url(f"{live_server.url}/challenges/*/")
    expect(page.locator(".messages")).to_have_text("Challenge sent.")
    assert Challenge.objects.filter(opponent=players[1]).count() == 1


def test_the_button_pressed_still_sends_its_own_value(page: Page, live_server, players):
    log_in(page, live_server.url, "alice")
    page.goto(f"{live_server.url}/challenges/new/")
    page.get_by_label("Rated").uncheck()
    # A form whose buttons say which choice was made: the one pressed sends its name and
    # value only if it is not disabled yet while the form's data is gathered.
    page.evaluate(
        "() => { const b = document.querySelector('main form button[type=submit]');"
        " b.name = 'rated'; b.value = 'on'; }"
    )

    page.click(SEND)

    page.wait_for_url(f"{live_server.url}/challenges/*/")
    assert Challenge.objects.get().rated is True


def test_the_buttons_come_back_on_returning_to_the_page(page: Page, live_server, players):
    log_in(page, live_server.url, "alice")
    page.goto(f"{live_server.url}/challenges/new/")
    # A submit event alone, which sends nothing: the page stays, its button disabled.
    page.evaluate(
        "() => document.querySelector('main form').dispatchEvent("
        "new SubmitEvent('submit', {bubbles: true, cancelable: true}))"
    )
    expect(page.locator(SEND)).to_be_disabled()

    # Shown again from the browser's back-forward cache (which Playwright's Chromium
    # keeps off, hence the event made here): the page left as it was sent.
    page.evaluate(
        "() => window.dispatchEvent(new PageTransitionEvent('pageshow', {persisted: true}))"
    )

    expect(page.locator(SEND)).to_be_enabled()
    expect(page.locator("form[data-sending]")).to_have_count(0)


def test_the_lobby_s_one_time_keys_are_new_on_returning_to_the_page(
    page: Page, live_server, players
):
    bots = services.bot_users()  # (again, should a test before this have flushed them)
    log_in(page, live_server.url, "alice")
    page.goto(f"{live_server.url}/lobby/")
    read_keys = "() => [...document.querySelectorAll('[name=idempotency_key]')].map(i => i.value)"
    before = page.evaluate(read_keys)

    # Shown again from the back-forward cache (the event made here, as above): a bot played
    # from it again is a new match, not the one its old key started.
    page.evaluate(
        "() => window.dispatchEvent(new PageTransitionEvent('pageshow', {persisted: true}))"
    )

    after = page.evaluate(read_keys)
    assert len(before) == len(after) == len(bots)
    assert not set(before) & set(after) and len(set(after)) == len(after)
    assert all(len(key) == 48 for key in after)


def test_the_form_is_sent_without_javascript(browser: Browser, live_server, players):
    page = browser.new_context(java_script_enabled=False).new_page()
    log_in(page, live_server.url, "alice")
    page.goto(f"{live_server.url}/challenges/new/")
    page.get_by_label("Opponent").fill("carol")

    page.click(SEND)

    page.wait_for_url(f"{live_server.url}/challenges/*/")
    expect(page.locator(".messages")).to_have_text("Challenge sent.")
    page.context.close()


def test_an_htmx_form_is_sent_again_after_its_answer(page: Page, live_server, match):
    log_in(page, live_server.url, "alice")
    page.goto(live_server.url + match.get_absolute_url())

    for n, text in enumerate(("Good luck!", "And have fun."), start=1):
        page.get_by_label("Message to bob").fill(text)
        page.get_by_role("button", name="Send message").click()
        expect(page.locator("#chat-list li")).to_have_count(n)

    expect(page.get_by_role("button", name="Send message")).to_be_enabled()
    expect(page.locator("form[data-sending]")).to_have_count(0)


def test_a_refused_tournament_takes_the_focus_to_the_field_in_error(
    page: Page, live_server, players
):
    page.set_viewport_size(PHONE)
    log_in(page, live_server.url, "alice")
    page.goto(f"{live_server.url}/tournaments/new/")
    page.get_by_label("Name").fill("Small cup")
    page.get_by_label("Maximum players").fill("1")

    page.click(SEND)

    page.wait_for_selector("main form .errorlist")
    assert page.evaluate(FOCUSED) == "max_players"
    expect(page.get_by_label("Maximum players")).to_be_in_viewport()
    error = page.locator("main form div:has(> input[name=max_players]) .errorlist")
    expect(error).to_be_in_viewport()
    expect(error).to_contain_text("greater than or equal to 2")


def test_a_challenge_refused_takes_the_focus_to_the_reason(page: Page, live_server, players):
    alice, carol = players
    services.create_challenge(alice, opponent=carol, points=3)
    page.set_viewport_size(PHONE)
    log_in(page, live_server.url, "alice")
    page.goto(f"{live_server.url}/challenges/new/")
    page.get_by_label("Opponent").fill("carol")  # one point: another challenge

    page.click(SEND)

    reason = page.locator("main form .form-errors")
    expect(reason).to_be_focused()
    expect(reason).to_have_text(
        "You have already challenged carol: wait for their answer, or withdraw that"
        " challenge first."
    )
    expect(reason).to_be_in_viewport()
