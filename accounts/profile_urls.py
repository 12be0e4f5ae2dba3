"""The public player profile, mounted at the site root as ``players/`` (outside /accounts/)."""

from django.urls import path

from . import views

urlpatterns = [
    path("<str:username>/", views.profile, name="profile"),
]
