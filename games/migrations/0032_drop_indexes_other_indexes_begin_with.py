"""The rest of this app's indexes that another begins with, dropped (0031 dropped those a
turn keeps up; tests/test_migrations.py now holds every table to it).

- Seven foreign keys' own indexes: each column is the first of a unique constraint or an
  index of its model, which serves every lookup by it and every cascade on delete.
- Challenge.invite_token's ``varchar_pattern_ops`` index, which Django adds on PostgreSQL
  beside a unique text column for ``LIKE 'prefix%'``: a token is only looked up whole.

By name, with SQL of the operations' own (aceysite.migration_operations), as 0028 and 0031
did.
"""

from django.conf import settings
from django.db import migrations

from aceysite.migration_operations import DropForeignKeyIndex, DropLikeIndexes

# (model, field, Django's name for its index)
FOREIGN_KEYS = [
    ("absence", "user", "games_absence_user_id_ea5b78e0"),
    ("block", "blocker", "games_block_blocker_id_8a7cfde3"),
    ("gameresult", "match", "games_gameresult_match_id_9a29a270"),
    ("playerrating", "user", "games_playerrating_user_id_67a5bd99"),
    ("ratingchange", "match", "games_ratingchange_match_id_24d938bf"),
    ("ratingchange", "user", "games_ratingchange_user_id_e2544ec8"),
    ("sentonce", "user", "games_sentonce_user_id_a2c970b2"),
]
INVITE_TOKEN_LIKE = ("games_challenge_invite_token_af324029_like", "games_challenge", "invite_token")


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0031_drop_redundant_indexes"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        *(DropForeignKeyIndex(model, field, index) for model, field, index in FOREIGN_KEYS),
        DropLikeIndexes([INVITE_TOKEN_LIKE]),
    ]
