from django.db import migrations, models

from accounts.models import name_as_read, tidy_name


def fill_name_keys(apps, schema_editor):
    """Tidy every display name as the settings form now saves them, and key it."""
    User = apps.get_model("accounts", "User")
    users = list(User.objects.all().only("pk", "display_name"))
    for user in users:
        user.display_name = tidy_name(user.display_name)
        user.name_key = name_as_read(user.display_name)
    User.objects.bulk_update(users, ["display_name", "name_key"], batch_size=1000)


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0006_away"),
        # The bots the games app creates have display names to key too.
        ("games", "0005_create_bot_users"),
    ]

    operations = [
        migrations.AddField(
            model_name="user",
            name="name_key",
            field=models.CharField(
                blank=True,
                db_index=True,
                editable=False,
                help_text="The display name as a reader compares names (name_as_read), set on save",
                max_length=180,
            ),
        ),
        migrations.RunPython(fill_name_keys, migrations.RunPython.noop),
    ]
