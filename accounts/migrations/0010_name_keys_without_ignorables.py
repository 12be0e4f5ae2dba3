from django.db import migrations

from accounts.models import name_as_read, tidy_name


def tidy_and_key_display_names(apps, schema_editor):
    """Tidy and key every display name again: tidy_name now drops all of Unicode's default
    ignorable code points (a Hangul filler, a grapheme joiner) and reads a braille blank as
    a space, so names saved with them are keyed as they look. Only rows that change are
    written."""
    User = apps.get_model("accounts", "User")
    changed = []
    for user in User.objects.only("pk", "display_name", "name_key").iterator(chunk_size=2000):
        display_name = tidy_name(user.display_name)
        name_key = name_as_read(display_name)
        if (display_name, name_key) != (user.display_name, user.name_key):
            user.display_name, user.name_key = display_name, name_key
            changed.append(user)
    User.objects.bulk_update(changed, ["display_name", "name_key"], batch_size=1000)


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0009_email_undo"),
    ]

    operations = [
        migrations.RunPython(tidy_and_key_display_names, migrations.RunPython.noop),
    ]
