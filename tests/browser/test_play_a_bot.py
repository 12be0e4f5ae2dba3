"""A new player challenges a bot from the lobby, on a phone, and plays the match to its end.

The bot's turns are its Celery task, run in-process here (the tests run tasks eagerly), so
each answer already shows the bot's reply; should a bot's turn still be pending, the page
says the bot is thinking and looks for its move every 2 s.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from games import services
from games.models import Match

from .helpers import board_state, mode, play_by_clicking, sign_up, wait_for_redraw

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

MAX_ACTIONS = 4000


@pytest.mark.parametrize(("bot", "variant"), [("expert-bot", "greek")])
def test_a_player_challenges_a_bot_from_the_lobby_and_plays_it_to_the_end(
    browser, live_server, bot, variant
):
    services.bot_users()  # created by a migration, which an earlier test's flush undid
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.set_default_timeout(15_000)
    try:
        base = live_server.url
        sign_up(page, base, "cleo")
        page.goto(f"{base}/lobby/")
        card = page.locator("li.card").filter(has_text=f"({bot})")
        card.locator("select[name=variant]").select_option(variant)
        card.get_by_role("button", name=re.compile(r"^Play ")).click()
        page.wait_for_url(re.compile(r"/matches/\d+/$"))

        actions = 0
        while mode(page) != "finished":
            if mode(page) == "wait":
                expect(page.locator(".bot-thinking")).to_contain_text("is thinking")
                wait_for_redraw(page, board_state(page))
                continue
            actions += play_by_clicking(page)
            assert actions < MAX_ACTIONS

        expect(page.locator(".turnbar")).to_contain_text("won")
        match = Match.objects.get()
        assert match.status == Match.Status.FINISHED and match.variant == variant
        assert bot in (match.white.username, match.black.username)
        bot_color = "white" if match.white.username == bot else "black"
        assert match.segments.filter(player=bot_color, automatic=False).exists()
        assert actions > 0
    finally:
        context.close()
