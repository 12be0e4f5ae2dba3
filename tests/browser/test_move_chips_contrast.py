"""The move chips' borders, the only edge a chip has on its card, stand out from the card
and from the chip's own face by WCAG's 3:1 for a control's boundary (1.4.11); so do the
board's dark points and black checkers from what lies next to them."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from .helpers import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# A chip's border and face, and what is behind it: the first ancestor with a background.
COLOURS = """chip => {
  let behind = chip.parentElement;
  while (getComputedStyle(behind).backgroundColor === "rgba(0, 0, 0, 0)") {
    behind = behind.parentElement;
  }
  return [
    getComputedStyle(chip).borderTopColor,
    getComputedStyle(chip).backgroundColor,
    getComputedStyle(behind).backgroundColor,
  ];
}"""


def _luminance(css_colour: str) -> float:
    """WCAG's relative luminance of an opaque ``rgb(r, g, b)``."""
    channels = [int(c) / 255 for c in re.findall(r"\d+", css_colour)[:3]]
    r, g, b = (c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _contrast(one: str, other: str) -> float:
    lighter, darker = sorted((_luminance(one), _luminance(other)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


def test_contrast_is_computed_as_wcag_says():
    assert round(_contrast("rgb(0, 0, 0)", "rgb(255, 255, 255)"), 2) == 21
    assert round(_contrast("rgb(185, 174, 152)", "rgb(255, 253, 248)"), 2) == 2.16


@pytest.mark.parametrize("colours", ["light", "dark"])
def test_a_move_chip_s_border_has_3_to_1_against_its_face_and_the_card(
    page: Page, live_server, match, colours
):
    page.emulate_media(color_scheme=colours)  # as the device asks: site.css has both
    log_in(page, live_server.url, "alice")
    page.goto(live_server.url + match.get_absolute_url())
    chip = page.locator(".move-choices .chip").first
    expect(chip).to_be_visible()

    border, face, behind = chip.evaluate(COLOURS)

    assert _contrast(border, face) >= 3, (border, face)
    assert _contrast(border, behind) >= 3, (border, behind)


BOARD_COLOURS = """board => {
  const style = selector => getComputedStyle(board.querySelector(selector));
  return {
    felt: style(".felt").fill,
    darkPoint: style(".point-dark").fill,
    darkPointEdge: style(".point-dark").stroke,
    blackCheckerEdge: style(".checker-black").stroke,
  };
}"""


def test_the_boards_dark_points_and_black_checkers_stand_out_at_3_to_1(
    page: Page, live_server, match
):
    # WCAG 1.4.11: the dark points' red on the green felt was 1.3:1, the black checkers
    # 1.8:1 on it; their light edges tell them from what lies next to them.
    log_in(page, live_server.url, "alice")
    page.goto(live_server.url + match.get_absolute_url())
    expect(page.locator(".board .checker-black").first).to_be_visible()

    colours = page.locator("svg.board").evaluate(BOARD_COLOURS)

    assert _contrast(colours["darkPointEdge"], colours["felt"]) >= 3, colours
    assert _contrast(colours["blackCheckerEdge"], colours["felt"]) >= 3, colours
    assert _contrast(colours["blackCheckerEdge"], colours["darkPoint"]) >= 3, colours
