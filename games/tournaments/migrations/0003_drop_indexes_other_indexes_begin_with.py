"""Two foreign keys' own indexes dropped: each column is the first of a unique constraint
of its model ((tournament, user), (tournament, slot_id)), which serves every lookup by it
and every cascade on delete (tests/test_migrations.py holds every table to it).

By name, with SQL of the operation's own (aceysite.migration_operations.DropForeignKeyIndex),
as games 0028 did.
"""

from django.db import migrations

from aceysite.migration_operations import DropForeignKeyIndex


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0002_bring_far_deadlines_near")]

    operations = [
        DropForeignKeyIndex("entry", "tournament", "tournaments_entry_tournament_id_8241213d"),
        DropForeignKeyIndex(
            "tournamentmatch",
            "tournament",
            "tournaments_tournamentmatch_tournament_id_d38548a2",
        ),
    ]
