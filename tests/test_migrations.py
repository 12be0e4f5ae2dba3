"""The migrations: they describe the models as they are, and build the indexes meant."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.db import connection

from games.models import Match


@pytest.mark.django_db
def test_the_models_have_no_change_without_its_migration():
    # Exits with status 1 (SystemExit) if a model differs from what its migrations build.
    call_command("makemigrations", "--check", "--dry-run", verbosity=0)


@pytest.mark.django_db
def test_a_match_is_found_by_its_player_to_move_through_one_index():
    with connection.cursor() as cursor:
        constraints = connection.introspection.get_constraints(cursor, Match._meta.db_table)
    indexes = [c["columns"] for c in constraints.values() if c["index"] and not c["primary_key"]]

    assert ["to_move_id", "status"] in indexes
    # Its own index would be redundant: one more for every turn's UPDATE to keep.
    assert ["to_move_id"] not in indexes
