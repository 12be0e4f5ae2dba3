"""Two indexes that every turn kept up and no query reads, dropped.

- Segment.match's own index: the unique (match, number) constraint's index starts with the
  same column and serves every lookup by match (a match's history, a cascade on delete).
  Every turn inserts at least one segment, so four indexes to keep rather than three; and
  it is the largest table (about 200 rows a match), whose indexes would crowd the cache.
- Notification.key's ``varchar_pattern_ops`` index, which Django adds on PostgreSQL beside a
  unique text column for ``LIKE 'prefix%'`` searches: keys are only ever looked up whole,
  through the unique index. Every turn inserts its email into that table.

Dropped by name with SQL of the operations' own (aceysite.migration_operations), as 0028
dropped Match.to_move's.
"""

from django.db import migrations

from aceysite.migration_operations import DropForeignKeyIndex, DropLikeIndexes

# The LIKE index (PostgreSQL's only) with its table and column.
NOTIFICATION_KEY_LIKE = ("games_notification_key_c4471cad_like", "games_notification", "key")


class Migration(migrations.Migration):
    dependencies = [("games", "0030_notification_facts")]

    operations = [
        DropForeignKeyIndex("segment", "match", "games_segment_match_id_a48f3486"),
        DropLikeIndexes([NOTIFICATION_KEY_LIKE]),
    ]
