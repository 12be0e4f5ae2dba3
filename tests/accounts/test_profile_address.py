"""A player's page at their username in another case: names are told apart in any case,
so /players/Alice/ is alice's, sent on to her own address; a look-alike is not."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("typed", ["ALICE", "Alice", "aLiCe"])
def test_the_username_in_another_case_is_sent_to_the_players_page(client, alice, typed):
    answer = client.get(f"/players/{typed}/")

    assert answer.status_code == 301 and answer.url == "/players/alice/"
    assert client.get(answer.url).status_code == 200


@pytest.mark.parametrize("typed", ["al1ce", "nobody"])
def test_a_name_that_only_looks_alike_or_is_nobodys_is_not_found(client, alice, typed):
    assert client.get(f"/players/{typed}/").status_code == 404
