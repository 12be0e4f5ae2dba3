"""The rest of this app's indexes that another begins with, dropped (0031 dropped those a
turn keeps up; tests/test_migrations.py now holds every table to it).

- Seven foreign keys' own indexes: each column is the first of a unique constraint or an
  index of its model, which serves every lookup by it and every cascade on delete.
- Challenge.invite_token's ``varchar_pattern_ops`` index, which Django adds on PostgreSQL
  beside a unique text column for ``LIKE 'prefix%'``: a token is only looked up whole.

By name, with SQL of this migration's own, as 0028 and 0031 did: Django's AlterField would
drop each foreign key constraint and add it again around its DROP INDEX, checking every row
of the table while writers wait.
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

from aceysite.migration_operations import DropLikeIndexes

USER = settings.AUTH_USER_MODEL
# (model, field, its related_name, the model it points to, Django's name for its index: the
# same on every database, a hash of table and column)
FOREIGN_KEYS = [
    ("absence", "user", "absences", USER, "games_absence_user_id_ea5b78e0"),
    ("block", "blocker", "blocks_made", USER, "games_block_blocker_id_8a7cfde3"),
    ("gameresult", "match", "game_results", "games.match", "games_gameresult_match_id_9a29a270"),
    ("playerrating", "user", "ratings", USER, "games_playerrating_user_id_67a5bd99"),
    (
        "ratingchange",
        "match",
        "rating_changes",
        "games.match",
        "games_ratingchange_match_id_24d938bf",
    ),
    ("ratingchange", "user", "rating_changes", USER, "games_ratingchange_user_id_e2544ec8"),
    ("sentonce", "user", "+", USER, "games_sentonce_user_id_a2c970b2"),
]
INVITE_TOKEN_LIKE = ("games_challenge_invite_token_af324029_like", "games_challenge", "invite_token")


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0031_drop_redundant_indexes"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name=model,
                    name=field,
                    field=models.ForeignKey(
                        db_index=False,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name=related_name,
                        to=to,
                    ),
                )
                for model, field, related_name, to, _ in FOREIGN_KEYS
            ],
            database_operations=[
                migrations.RunSQL(
                    f'DROP INDEX IF EXISTS "{index}"',
                    reverse_sql=(
                        f'CREATE INDEX IF NOT EXISTS "{index}" ON "games_{model}" ("{field}_id")'
                    ),
                )
                for model, field, _, _, index in FOREIGN_KEYS
            ],
        ),
        DropLikeIndexes([INVITE_TOKEN_LIKE]),
    ]
