from django.contrib.auth.models import AbstractUser
from django.db import models


class User(AbstractUser):
    """A player. Profile fields live here rather than in a separate model."""

    class EmailPreference(models.TextChoices):
        EVERY_TURN = "every_turn", "An email every time it is my turn"
        DIGEST = "digest", "One daily digest of matches waiting for me"
        NONE = "none", "No game emails"

    display_name = models.CharField(max_length=60, blank=True)
    about = models.TextField(blank=True)
    country = models.CharField(max_length=60, blank=True)
    timezone = models.CharField(max_length=64, default="UTC")
    email_preference = models.CharField(
        max_length=10, choices=EmailPreference.choices, default=EmailPreference.EVERY_TURN
    )
    is_bot = models.BooleanField(default=False, help_text="A computer player (games.bots)")

    def __str__(self) -> str:
        return self.display_name or self.username
