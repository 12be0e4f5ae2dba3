"""``manage.py recount_dice_tallies``: players' dice tallies counted afresh from their
stored rolls, and corrected where they say otherwise."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db.models import F

from games import tally
from games.models import DiceTally

from .test_dice_tally import play_on, start

pytestmark = pytest.mark.django_db


def _tallies(*players) -> dict[str, dict[str, int]]:
    return {
        row.user.username: {field: getattr(row, field) for field in tally.FIELDS}
        for row in DiceTally.objects.filter(user__in=players).select_related("user")
    }


def _recount(*usernames: str) -> str:
    out = io.StringIO()
    call_command("recount_dice_tallies", *usernames, stdout=out)
    return out.getvalue()


@pytest.fixture
def played(alice, bob, charlie) -> dict[str, dict[str, int]]:
    """Three players' matches, and their tallies as kept while they rolled."""
    play_on(start(alice, bob, "greek", points=3))
    play_on(start(charlie, alice, "american"), turns=20)
    return _tallies(alice, bob, charlie)


def test_it_corrects_a_tally_made_wrong_and_leaves_the_others(played, alice, bob, charlie):
    DiceTally.objects.filter(user=alice).update(rolls=F("rolls") + 5, sixes=F("sixes") - 1)
    DiceTally.objects.filter(user=charlie).delete()

    said = _recount()

    assert _tallies(alice, bob, charlie) == played
    assert said == "Corrected alice's tally.\nCorrected charlie's tally.\n" + (
        "Recounted 3 tallies: 2 corrected.\n"
    )


def test_it_counts_the_rolls_as_they_were_counted_when_rolled(played, alice, bob, charlie):
    assert all(
        tally.rolls_of(player) == played[player.username] for player in (alice, bob, charlie)
    )


def test_running_it_again_changes_nothing(played, alice, bob, charlie):
    DiceTally.objects.filter(user=bob).update(doubles=0)
    _recount()

    said = _recount()

    assert _tallies(alice, bob, charlie) == played
    assert said == "Recounted 3 tallies: 0 corrected.\n"


def test_it_recounts_only_the_players_named(played, alice, bob, charlie):
    DiceTally.objects.update(rolls=0)

    said = _recount("bob", "charlie")

    assert _tallies(bob, charlie) == {name: played[name] for name in ("bob", "charlie")}
    assert _tallies(alice)["alice"]["rolls"] == 0
    assert said.endswith("Recounted 2 tallies: 2 corrected.\n")


def test_a_name_no_account_has_recounts_nothing(played, alice, bob, charlie):
    DiceTally.objects.update(rolls=0)

    with pytest.raises(CommandError, match="No such player: nobody"):
        _recount("alice", "nobody")

    assert all(row["rolls"] == 0 for row in _tallies(alice, bob, charlie).values())
