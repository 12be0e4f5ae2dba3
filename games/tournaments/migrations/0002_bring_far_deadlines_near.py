# Written by hand: tournaments saved before the form's 365-day limit on sign-up deadlines.

from datetime import timedelta

from django.db import migrations
from django.utils import timezone


def bring_far_deadlines_near(apps, schema_editor):
    """A sign-up deadline more than a year ahead becomes a year ahead.

    The form let organisers type one as far as 31 December 9999, which a page cannot
    show in a timezone east of UTC (the year 10000): the tournament list and page failed
    for those players. Nobody signs up for a tournament that far off anyway.
    """
    Tournament = apps.get_model("tournaments", "Tournament")
    latest = timezone.now() + timedelta(days=365)
    Tournament.objects.filter(signup_deadline__gt=latest).update(signup_deadline=latest)


class Migration(migrations.Migration):

    dependencies = [
        ("tournaments", "0001_initial"),
    ]

    operations = [
        migrations.RunPython(bring_far_deadlines_near, migrations.RunPython.noop),
    ]
