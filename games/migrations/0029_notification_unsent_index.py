"""The outbox's index for the emails still to send: a partial one, over the unsent and
undropped rows only, which the turn email sweep reads every few seconds (the old one on
(sent_at, claimed_until) held every dropped email too, kept for 90 days). Built before the
old one goes, so that the sweeps always have one."""

from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0028_match_to_move_one_index"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddIndex(
            model_name="notification",
            index=models.Index(
                condition=models.Q(("cancelled_at", None), ("sent_at", None)),
                fields=["id"],
                name="notification_unsent_idx",
            ),
        ),
        migrations.RemoveIndex(
            model_name="notification",
            name="games_notif_sent_at_f048d1_idx",
        ),
    ]
