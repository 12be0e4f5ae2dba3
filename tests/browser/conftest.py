"""Browser tests: Playwright drives Debian's Chromium against pytest-django's live server.

Playwright's browsers are not downloaded here; the system Chromium is launched instead.
Playwright's sync API runs an event loop in the test thread, so Django's guard against
ORM calls from async code must be lifted for tests that use both a page and the database.
"""

import os

import pytest

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": CHROMIUM_ARGS}
