"""The public player profile, mounted at the site root as ``players/`` (outside /accounts/)."""

from django.urls import path

from games import verify

from . import views

urlpatterns = [
    path("<str:username>/", views.profile, name="profile"),
    path("<str:username>/rating-<str:variant>.svg", views.rating_chart, name="rating_chart"),
    path("<str:username>/dice/", verify.player_dice, name="player_dice"),
]
