"""Stepping through a replay from the keyboard on a phone: Enter on "Next" (or "Previous")
loads the next position with the focus on the same link, so that Enter again goes on, and
the sentence saying which position it is in view; at an end, where that link is gone, the
focus is on the other one. The arrows are not in their names."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _follow_the_focused_link(page: Page, number: int, count: int) -> None:
    with page.expect_navigation():
        page.keyboard.press("Enter")
    position = page.locator(".replay p").first
    expect(position).to_contain_text(f"Position after segment {number} of {count}")
    expect(position).to_be_in_viewport()


def test_enter_steps_through_a_replay_with_the_focus_kept_on_the_link(
    page: Page, live_server, match
):
    count = match.segment_count
    assert count >= 3  # a middle position, and both ends
    page.set_viewport_size({"width": 390, "height": 844})
    previous = page.get_by_role("link", name="Previous", exact=True)
    following = page.get_by_role("link", name="Next", exact=True)
    page.goto(f"{live_server.url}{match.get_absolute_url()}?replay=1")
    expect(following).to_be_visible()  # named by its word alone, without the arrow
    following.focus()

    for number in range(2, count):
        _follow_the_focused_link(page, number, count)
        expect(following).to_be_focused()
    _follow_the_focused_link(page, count, count)
    expect(following).to_have_count(0)  # the last position: back is the only way
    expect(previous).to_be_focused()

    for number in range(count - 1, 1, -1):
        _follow_the_focused_link(page, number, count)
        expect(previous).to_be_focused()
    _follow_the_focused_link(page, 1, count)
    expect(previous).to_have_count(0)
    expect(following).to_be_focused()
