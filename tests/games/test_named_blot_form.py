"""A greek player's turn refused: the play typed and the blot named come back in their
fields, and a reason that is the blot's goes beside the blot field, tied to it."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games.models import Match
from tests.matches import opened_by_white

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
NOT_A_BLOT = "You can only name a blot: your 7-point will not hold exactly one checker."


@pytest.fixture
def match(alice, bob) -> Match:
    """A greek match: alice (white) to play 6-5 from her 24-point."""
    return opened_by_white(alice, bob, dice=(5, 2, 6, 5), variant="greek")


def _turn(client, match: Match, headers: dict | None = None, **data) -> object:
    data = {"segment": match.segment_count, **data}
    return client.post(reverse("match_turn", args=[match.pk]), data, **(headers or {}))


def _tag(page: str, element_id: str) -> str:
    found = re.search(rf'<[a-z]+ id="{element_id}"[^>]*>', page)
    assert found, f"no #{element_id}"
    return found.group(0)


def test_a_blot_that_is_no_blot_is_refused_beside_the_blot_field(client, alice, match):
    client.force_login(alice)

    response = _turn(client, match, play="24/18 24/19", name_blot="7")

    assert response.status_code == 400
    blot = _tag(response.text, "name-blot")
    assert 'value="7"' in blot
    assert 'aria-invalid="true"' in blot and 'aria-describedby="blot-error"' in blot
    assert " autofocus" in blot  # without JavaScript, the page opens on the field at fault
    assert f'<p id="blot-error" class="error blot-error">{NOT_A_BLOT}</p>' in response.text
    # The play typed stays in its box, which is not the one at fault.
    play = _tag(response.text, "play-text")
    assert 'value="24/18 24/19"' in play
    assert "aria-invalid" not in play and "autofocus" not in play
    assert 'id="play-error"' not in response.text
    assert response.text.count(NOT_A_BLOT) == 1
    assert Match.objects.get(pk=match.pk).segment_count == match.segment_count


def test_over_htmx_the_blots_reason_is_announced_and_nothing_is_autofocused(client, alice, match):
    client.force_login(alice)

    response = _turn(client, match, HTMX, play="24/18 24/19", name_blot="7")

    assert response.status_code == 400
    assert 'aria-describedby="blot-error"' in _tag(response.text, "name-blot")
    assert "autofocus" not in response.text
    assert f'<div id="announce" hx-swap-oob="innerHTML">{NOT_A_BLOT}</div>' in response.text


def test_a_play_refused_keeps_the_blot_named_with_it(client, alice, match):
    client.force_login(alice)

    response = _turn(client, match, play="24/18 24/17", name_blot="18")

    assert response.status_code == 400
    assert 'value="18"' in _tag(response.text, "name-blot")
    assert "aria-invalid" not in _tag(response.text, "name-blot")
    assert 'aria-invalid="true"' in _tag(response.text, "play-text")
    assert 'id="blot-error"' not in response.text


@pytest.mark.parametrize("blot", ["99", "seven"])
def test_a_blot_that_is_no_point_number_is_refused_beside_the_blot_field(
    client, alice, match, blot
):
    client.force_login(alice)

    response = _turn(client, match, play="24/18 24/19", name_blot=blot)

    assert response.status_code == 400
    assert 'aria-invalid="true"' in _tag(response.text, "name-blot")
    assert (
        '<p id="blot-error" class="error blot-error">'
        "Name a blot by your point number, 1 to 24.</p>" in response.text
    )
    assert "name_blot:" not in response.text


def test_a_turn_refused_as_out_of_date_gives_back_neither_play_nor_blot(client, alice, match):
    client.force_login(alice)

    response = _turn(client, match, segment=0, play="24/18 24/19", name_blot="18")

    assert response.status_code == 409
    assert 'value=""' in _tag(response.text, "name-blot")
    assert 'value=""' in _tag(response.text, "play-text")


def test_a_blot_number_typed_before_the_play_is_clicked_is_kept_for_its_choice(
    client, alice, match
):
    client.force_login(alice)
    url = reverse("match_click", args=[match.pk])
    segment = {"segment": match.segment_count}

    # Typed in the number field, then the play clicked: the field goes with the first move.
    first = client.post(url, {**segment, "steps": "24-18", "name_blot": "19"})
    assert '<input type="hidden" name="name_blot" value="19">' in first.text
    whole = client.post(url, {**segment, "steps": "24-18 24-19", "name_blot": "19"})

    assert '<option value="19" selected>Your 19-point</option>' in whole.text
    assert 'type="hidden" name="name_blot"' not in whole.text


def _includes_blot(page: str) -> bool:
    """Whether the board's clicks send the form's blot field along."""
    found = re.search(r'<g class="targets"[^>]*>', page)
    assert found, "no clickable board"
    return "hx-include=\"[name='name_blot']\"" in found.group(0)


@pytest.mark.parametrize(
    ("steps", "typed", "field"),
    [
        ("", "", 'id="name-blot" type="number"'),  # nothing clicked: the number field
        ("24-18", "19", 'type="hidden" name="name_blot" value="19"'),  # typed, then clicked
        ("24-18", "", None),  # clicked, nothing typed: no field until the play is whole
    ],
)
def test_the_boards_clicks_send_the_blot_field_when_the_form_has_one(
    client, alice, match, steps, typed, field
):
    client.force_login(alice)

    response = client.post(
        reverse("match_click", args=[match.pk]),
        {"segment": match.segment_count, "steps": steps, "name_blot": typed},
    )

    assert response.context["form_has_blot"] == (field is not None)
    assert _includes_blot(response.text) == (field is not None)
    if field is None:
        assert 'name="name_blot"' not in response.text
    else:
        assert field in response.text


def test_an_american_board_never_sends_a_blot_field(client, alice, bob):
    match = opened_by_white(alice, bob)
    client.force_login(alice)

    page = client.get(match.get_absolute_url())

    assert page.context["form_has_blot"] is False
    assert not _includes_blot(page.text)
