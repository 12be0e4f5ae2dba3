"""A turn email's facts (games.notifications.turn_passed): the turn stores them and the
sender writes the email from them, rather than the turn writing it. A nullable column:
added without rewriting the outbox; the rows stored before it keep the bodies their turns
wrote."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("games", "0029_notification_unsent_index")]

    operations = [
        migrations.AddField(
            model_name="notification",
            name="facts",
            field=models.JSONField(
                blank=True,
                help_text="A turn email's: what its turn knew that the sender cannot read"
                " later (the dice, the deadline, the score); the sender writes the email"
                " from them",
                null=True,
            ),
        ),
    ]
