"""Take the match page screenshots in docs/: a desktop and a phone view of a game in play.

    .venv/bin/python docs/make_screenshots.py

Builds a throwaway SQLite database in a temporary directory, plays a seeded random game
part-way through games.services, serves it with ``manage.py runserver`` on a free port,
photographs the page of the player to move with Playwright and Debian's Chromium, and
stops the server again.
"""

from __future__ import annotations

import os
import random
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
PASSWORD = "correct horse battery"
SEGMENTS = 46  # how far into the game to photograph


class SeededDice:
    """Repeatable dice, so the screenshots only change when the page does."""

    def __init__(self, seed: int) -> None:
        self.random = random.Random(seed)

    def roll_die(self) -> int:
        return self.random.randint(1, 6)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def build_database(env: dict[str, str]) -> tuple[int, str]:
    """Migrate, create two players and play into the middle of a game.

    Returns the match id and the username of the player to move.
    """
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--verbosity", "0"], cwd=ROOT, env=env, check=True
    )
    os.environ.update(env)
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.contrib.auth import get_user_model

    from games import services
    from games.engine import format_play

    users = get_user_model().objects
    alice = users.create_user(username="alice", email="alice@example.com", password=PASSWORD)
    bob = users.create_user(username="bob", email="bob@example.com", password=PASSWORD)
    dice = SeededDice(2024)
    choose = random.Random(7)
    match = services.start_match(
        white=alice, black=bob, variant="american", points=3, days_per_move=3, dice=dice
    )
    while match.segment_count < SEGMENTS or match.phase != "play":
        game = services.load_game(match)
        if match.phase == "name_double":
            action = services.TurnAction(segment=match.segment_count, double=choose.randint(1, 6))
        else:
            play = choose.choice(game.legal_plays())
            action = services.TurnAction(segment=match.segment_count, play=format_play(play))
        match = services.submit_segment(match.pk, user=match.to_move, action=action, dice=dice)
    return match.pk, match.to_move.username


def wait_for(url: str, timeout: float = 20) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            urllib.request.urlopen(url, timeout=2)
            return
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)


def photograph(base: str, match_id: int, username: str) -> None:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for name, width, height in (("desktop", 1280, 900), ("phone", 390, 844)):
            context = browser.new_context(
                viewport={"width": width, "height": height},
                device_scale_factor=1,
            )
            page = context.new_page()
            page.goto(f"{base}/accounts/login/")
            page.fill("input[name=username]", username)
            page.fill("input[name=password]", PASSWORD)
            page.click("form.stack button[type=submit]")
            page.wait_for_url(f"{base}/**")
            page.goto(f"{base}/matches/{match_id}/")
            # Select a checker, so the picture shows the highlighted destinations.
            before = page.get_attribute("#live", "data-state")
            page.locator("rect.target-source").first.click()
            page.wait_for_function(
                "before => document.querySelector('#live').dataset.state !== before", arg=before
            )
            page.mouse.move(0, 0)
            page.screenshot(path=str(DOCS / f"match-{name}.png"), full_page=name == "desktop")
            context.close()
        browser.close()


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        env = {
            **os.environ,
            "DATABASE_URL": f"sqlite:///{tmp}/screenshots.sqlite3",
            "DJANGO_SETTINGS_MODULE": "aceysite.settings",
            "DEBUG": "true",
            "CELERY_BROKER_URL": "",
            "SMTP_HOST": "",
        }
        match_id, username = build_database(env)
        port = free_port()
        server = subprocess.Popen(
            [sys.executable, "manage.py", "runserver", "--noreload", f"127.0.0.1:{port}"],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            base = f"http://127.0.0.1:{port}"
            wait_for(base + "/")
            photograph(base, match_id, username)
        finally:
            server.terminate()
            server.wait(timeout=10)
    print(f"wrote {DOCS / 'match-desktop.png'} and {DOCS / 'match-phone.png'}")


if __name__ == "__main__":
    main()
