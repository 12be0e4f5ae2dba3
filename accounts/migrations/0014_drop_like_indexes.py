"""The ``varchar_pattern_ops`` indexes Django adds on PostgreSQL beside an indexed or unique
text column, for ``LIKE 'prefix%'``, dropped: these columns are only ever compared whole
(an API key's hash, a username or its look-alike key, a display name's key), and a search
by a name's start (``istartswith``) compares ``UPPER()`` of it, which they do not serve.
Another index on the same column serves every lookup (tests/test_migrations.py holds every
table to it).
"""

from django.db import migrations

from aceysite.migration_operations import DropLikeIndexes

# (Django's name for the index, its table, its column)
LIKE_INDEXES = [
    ("accounts_apitoken_key_hash_f9a7d03c_like", "accounts_apitoken", "key_hash"),
    ("accounts_user_username_6088629e_like", "accounts_user", "username"),
    ("accounts_user_name_key_ea81cca0_like", "accounts_user", "name_key"),
    ("accounts_user_username_key_f8e97232_like", "accounts_user", "username_key"),
]


class Migration(migrations.Migration):
    dependencies = [("accounts", "0013_user_email_change_waiting")]

    operations = [DropLikeIndexes(LIKE_INDEXES)]
