"""Create the site users that the bots play as (one per level of games.bots)."""

from django.contrib.auth.hashers import make_password
from django.db import migrations

BOT_USERS = [
    ("beginner-bot", "Beginner bot", "beginner"),
    ("club-bot", "Club bot", "heuristic"),
    ("expert-bot", "Expert bot", "expert"),
]


def create_bots(apps, schema_editor):
    User = apps.get_model("accounts", "User")
    BotPlayer = apps.get_model("games", "BotPlayer")
    for username, display_name, level in BOT_USERS:
        user, _ = User.objects.get_or_create(
            username=username,
            defaults={
                "display_name": display_name,
                "is_bot": True,
                # Nobody logs in as a bot: an unusable password.
                "password": make_password(None),
            },
        )
        BotPlayer.objects.get_or_create(user=user, defaults={"level": level})


def remove_bots(apps, schema_editor):
    User = apps.get_model("accounts", "User")
    User.objects.filter(username__in=[u for u, _, _ in BOT_USERS], is_bot=True).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0003_api_token"),
        ("games", "0004_bot_players"),
    ]

    operations = [migrations.RunPython(create_bots, remove_bots)]
