from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    """Correspondence tournaments: the Django side of games.tournaments.brackets."""

    name = "games.tournaments"
    label = "tournaments"
    default_auto_field = "django.db.models.BigAutoField"
