"""Two foreign keys' own indexes dropped: each column is the first of a unique constraint
of its model ((tournament, user), (tournament, slot_id)), which serves every lookup by it
and every cascade on delete (tests/test_migrations.py holds every table to it).

By name, with SQL of this migration's own, as games 0028 did: Django's AlterField would
drop each foreign key constraint and add it again around its DROP INDEX, checking every row
of the table while writers wait.
"""

import django.db.models.deletion
from django.db import migrations, models

# (model, its related_name, Django's name for its tournament's index: the same on every
# database, a hash of table and column)
TOURNAMENT_KEYS = [
    ("entry", "entries", "tournaments_entry_tournament_id_8241213d"),
    ("tournamentmatch", "tournament_matches", "tournaments_tournamentmatch_tournament_id_d38548a2"),
]


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0002_bring_far_deadlines_near")]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name=model,
                    name="tournament",
                    field=models.ForeignKey(
                        db_index=False,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name=related_name,
                        to="tournaments.tournament",
                    ),
                )
                for model, related_name, _ in TOURNAMENT_KEYS
            ],
            database_operations=[
                migrations.RunSQL(
                    f'DROP INDEX IF EXISTS "{index}"',
                    reverse_sql=(
                        f'CREATE INDEX IF NOT EXISTS "{index}"'
                        f' ON "tournaments_{model}" ("tournament_id")'
                    ),
                )
                for model, _, index in TOURNAMENT_KEYS
            ],
        ),
    ]
