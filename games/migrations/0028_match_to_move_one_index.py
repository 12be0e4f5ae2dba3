"""Match.to_move loses its own index: the one on (to_move, status) serves every lookup by
to_move, and each index is one more for every turn's UPDATE of its match to keep.

The index is dropped by name with SQL of this migration's own. Django's AlterField would
drop the column's foreign key constraint and add it again around the DROP INDEX, and on
PostgreSQL adding it checks every row of games_match while turns wait for their UPDATE.
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

# Django's name for the index, the same on every database (a hash of table and column).
INDEX = "games_match_to_move_id_34518ba0"


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0027_notification_kind_challenge_news"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="match",
                    name="to_move",
                    field=models.ForeignKey(
                        blank=True,
                        db_index=False,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            database_operations=[
                migrations.RunSQL(
                    f'DROP INDEX IF EXISTS "{INDEX}"',
                    reverse_sql=f'CREATE INDEX IF NOT EXISTS "{INDEX}" ON "games_match" ("to_move_id")',
                ),
            ],
        ),
    ]
