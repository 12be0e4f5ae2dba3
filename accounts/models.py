from django.contrib.auth.models import AbstractUser
from django.db import models


class User(AbstractUser):
    """A player. Profile fields live here rather than in a separate model."""

    display_name = models.CharField(max_length=60, blank=True)
    about = models.TextField(blank=True)
    country = models.CharField(max_length=60, blank=True)
    timezone = models.CharField(max_length=64, default="UTC")

    def __str__(self) -> str:
        return self.display_name or self.username
