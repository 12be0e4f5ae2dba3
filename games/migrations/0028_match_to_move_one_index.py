"""Match.to_move loses its own index: the one on (to_move, status) serves every lookup by
to_move, and each index is one more for every turn's UPDATE of its match to keep.

The index is dropped by name with SQL of the operation's own
(aceysite.migration_operations.DropForeignKeyIndex, which says why).
"""

from django.conf import settings
from django.db import migrations

from aceysite.migration_operations import DropForeignKeyIndex


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0027_notification_kind_challenge_news"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [DropForeignKeyIndex("match", "to_move", "games_match_to_move_id_34518ba0")]
