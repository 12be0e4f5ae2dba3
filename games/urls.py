"""Web pages of the games app (the JSON API is in games/api_urls.py)."""

from django.urls import path

from . import leaderboard, verify, views

urlpatterns = [
    path("dashboard/", views.dashboard, name="dashboard"),
    path("rules/", views.rules, name="rules"),
    # The JSON API's reference, a page beside the API it describes (/api/v1/).
    path("api/", views.api_docs, name="api_docs"),
    path("lobby/", views.lobby, name="lobby"),
    path("challenges/new/", views.challenge_new, name="challenge_new"),
    path("challenges/<int:challenge_id>/", views.challenge_detail, name="challenge"),
    path("challenges/<int:challenge_id>/accept/", views.challenge_accept, name="challenge_accept"),
    path(
        "challenges/<int:challenge_id>/decline/", views.challenge_decline, name="challenge_decline"
    ),
    path("challenges/<int:challenge_id>/cancel/", views.challenge_cancel, name="challenge_cancel"),
    path("invite/<str:token>/", views.invite, name="invite"),
    path("matches/<int:match_id>/", views.match_page, name="match"),
    path(
        "matches/<int:match_id>/history/<int:game>/",
        views.match_history_game,
        name="match_history_game",
    ),
    path("matches/<int:match_id>/click/", views.match_click, name="match_click"),
    path("matches/<int:match_id>/turn/", views.match_turn, name="match_turn"),
    path("matches/<int:match_id>/resign/", views.match_resign, name="match_resign"),
    path("matches/<int:match_id>/rematch/", views.match_rematch, name="match_rematch"),
    path("matches/<int:match_id>/messages/", views.match_messages, name="match_messages"),
    path(
        "matches/<int:match_id>/export.<str:fmt>",
        views.match_export,
        name="match_export",
    ),
    path("matches/<int:match_id>/dice/", verify.match_dice, name="match_dice"),
    # Not under players/: that is where profiles live, and "search" may be a username.
    path("search/players/", views.player_search, name="player_search"),
    # Beside the profiles (accounts.profile_urls), whose pages offer them.
    path("players/<str:username>/block/", views.player_block, name="player_block"),
    path("players/<str:username>/unblock/", views.player_unblock, name="player_unblock"),
    path("leaderboard/", leaderboard.leaderboard, name="leaderboard_default"),
    path("leaderboard/<str:variant>/", leaderboard.leaderboard, name="leaderboard"),
    path("unsubscribe/<str:token>/", views.unsubscribe, name="unsubscribe"),
]
