"""The migrations: they describe the models as they are, and build the indexes meant."""

from __future__ import annotations

import pytest
from django.apps import apps
from django.core.management import call_command
from django.db import connection
from django.db.models import Model

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


def _partial_indexes(model: type[Model]) -> set[str]:
    """The names of ``model``'s indexes that cover only some rows (a ``condition``)."""
    meta = model._meta
    return {
        index.name
        for index in [*meta.indexes, *meta.constraints]
        if getattr(index, "condition", None) is not None
    }


#: Every model of the site's own apps (Django's own tables are Django's).
OUR_MODELS = [
    model
    for label in ("accounts", "games", "tournaments")
    for model in apps.get_app_config(label).get_models()
]


@pytest.mark.django_db
@pytest.mark.parametrize("model", OUR_MODELS, ids=lambda model: model.__name__)
def test_no_index_is_redundant(model):
    # An index whose columns begin another index's (Django's own index of a foreign key
    # beside a unique constraint that starts with it, or its LIKE index beside a unique
    # text column on PostgreSQL) serves nothing the other does not, and every write keeps
    # it up: a turn writes rows of Match, Segment, Notification and DiceTally.
    with connection.cursor() as cursor:
        constraints = connection.introspection.get_constraints(cursor, model._meta.db_table)
    # A unique constraint is an index too (PostgreSQL lists it as a constraint only).
    indexes = {
        name: c
        for name, c in constraints.items()
        if (c["index"] or c["unique"]) and c["columns"] and not c["check"]
    }
    # An index of some rows is smaller than one of them all, and serves what it was made for.
    partial = _partial_indexes(model)

    redundant = [
        (name, other)
        for name, index in indexes.items()
        if not index["unique"] and name not in partial
        for other, wider in indexes.items()
        if other != name
        and other not in partial
        and wider["columns"][: len(index["columns"])] == index["columns"]
    ]

    assert redundant == []
