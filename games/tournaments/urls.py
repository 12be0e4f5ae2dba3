"""Tournament pages (views in games/tournaments/views.py), mounted at /tournaments/."""

from django.urls import path

from . import views

urlpatterns = [
    path("", views.tournament_list, name="tournament_list"),
    path("new/", views.tournament_new, name="tournament_new"),
    path("finished/", views.ended_tournaments, {"status": "finished"}, name="tournaments_finished"),
    path(
        "cancelled/", views.ended_tournaments, {"status": "cancelled"}, name="tournaments_cancelled"
    ),
    path("<int:tournament_id>/", views.tournament_detail, name="tournament"),
    path("<int:tournament_id>/sign-up/", views.tournament_sign_up, name="tournament_sign_up"),
    path("<int:tournament_id>/withdraw/", views.tournament_withdraw, name="tournament_withdraw"),
    path("<int:tournament_id>/start/", views.tournament_start, name="tournament_start"),
    path("<int:tournament_id>/cancel/", views.tournament_cancel, name="tournament_cancel"),
    path("<int:tournament_id>/add-bot/", views.tournament_add_bot, name="tournament_add_bot"),
    path(
        "<int:tournament_id>/remove-bot/",
        views.tournament_remove_bot,
        name="tournament_remove_bot",
    ),
]
