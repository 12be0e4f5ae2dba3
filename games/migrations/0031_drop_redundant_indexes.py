"""Two indexes that every turn kept up and no query reads, dropped.

- Segment.match's own index: the unique (match, number) constraint's index starts with the
  same column and serves every lookup by match (a match's history, a cascade on delete).
  Every turn inserts at least one segment, so four indexes to keep rather than three; and
  it is the largest table (about 200 rows a match), whose indexes would crowd the cache.
- Notification.key's ``varchar_pattern_ops`` index, which Django adds on PostgreSQL beside a
  unique text column for ``LIKE 'prefix%'`` searches: keys are only ever looked up whole,
  through the unique index. Every turn inserts its email into that table.

Dropped by name with SQL of this migration's own, as 0028 dropped Match.to_move's: Django's
AlterField would drop the foreign key constraint and add it again around the DROP INDEX,
and adding it checks every row of games_segment while turns wait.
"""

from django.db import migrations, models

from aceysite.migration_operations import DropLikeIndexes

# Django's names, the same on every database (a hash of table and column); the LIKE index
# (PostgreSQL's only) with its table and column.
SEGMENT_MATCH = "games_segment_match_id_a48f3486"
NOTIFICATION_KEY_LIKE = ("games_notification_key_c4471cad_like", "games_notification", "key")


class Migration(migrations.Migration):
    dependencies = [("games", "0030_notification_facts")]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="segment",
                    name="match",
                    field=models.ForeignKey(
                        db_index=False,
                        on_delete=models.deletion.CASCADE,
                        related_name="segments",
                        to="games.match",
                    ),
                ),
            ],
            database_operations=[
                migrations.RunSQL(
                    f'DROP INDEX IF EXISTS "{SEGMENT_MATCH}"',
                    reverse_sql=(
                        f'CREATE INDEX IF NOT EXISTS "{SEGMENT_MATCH}"'
                        ' ON "games_segment" ("match_id")'
                    ),
                ),
            ],
        ),
        DropLikeIndexes([NOTIFICATION_KEY_LIKE]),
    ]
