"""The JSON API, mounted at /api/v1/ (views in games/api.py).

Each endpoint here is documented on the page at /api/ (templates/games/api_docs.html):
tests/api/test_docs.py fails for one that is not.
"""

from django.urls import path, re_path

from . import api

urlpatterns = [
    # A pointer to the reference (/api/, a page: everything under /api/v1/ answers JSON).
    path("", api.index, name="api_root"),
    path("challenges/", api.challenges, name="api_challenge_create"),
    # Each list of GET challenges/, a page at a time (api.challenges_page).
    path(
        "challenges/received/",
        api.challenges_page,
        {"name": "received"},
        name="api_challenges_received",
    ),
    path("challenges/sent/", api.challenges_page, {"name": "sent"}, name="api_challenges_sent"),
    path("challenges/lobby/", api.challenges_page, {"name": "lobby"}, name="api_challenges_lobby"),
    path("challenges/<int:challenge_id>/", api.challenge_detail, name="api_challenge"),
    path(
        "challenges/<int:challenge_id>/accept/",
        api.challenge_accept,
        name="api_challenge_accept",
    ),
    path(
        "challenges/<int:challenge_id>/decline/",
        api.challenge_decline,
        name="api_challenge_decline",
    ),
    path(
        "challenges/<int:challenge_id>/cancel/",
        api.challenge_cancel,
        name="api_challenge_cancel",
    ),
    path("matches/<int:match_id>/", api.match_detail, name="api_match"),
    path("matches/<int:match_id>/turn/", api.match_turn, name="api_match_turn"),
    path("matches/<int:match_id>/resign/", api.match_resign, name="api_match_resign"),
    path("matches/<int:match_id>/messages/", api.match_messages, name="api_match_messages"),
    path("me/", api.me, name="api_me"),
    path("me/finished/", api.my_finished_matches, name="api_me_finished"),
    path("me/away/", api.my_time_away, name="api_me_away"),
    path("me/away/end/", api.my_time_away_end, name="api_me_away_end"),
    path("me/blocks/", api.my_blocks, name="api_me_blocks"),
    path("me/confirm-email/", api.my_email_confirmation, name="api_me_confirm_email"),
    path("players/<str:username>/block/", api.player_block, name="api_player_block"),
    path("players/<str:username>/unblock/", api.player_unblock, name="api_player_unblock"),
    # Anything else under /api/v1/ answers in JSON too (and is never redirected to add a
    # slash, which Django cannot do for a POST).
    re_path(r"^.*$", api.not_found, name="api_not_found"),
]
