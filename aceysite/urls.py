from django.contrib import admin
from django.urls import include, path

from games import views as game_views

urlpatterns = [
    path("", game_views.home, name="home"),
    path("accounts/", include("accounts.urls")),
    path("api/v1/", include("games.api_urls")),
    path("tournaments/", include("games.tournaments.urls")),
    path("", include("games.urls")),
    path("players/", include("accounts.profile_urls")),
    path("admin/", admin.site.urls),
]

# The JSON API answers a server error in JSON too.
handler500 = "aceysite.views.server_error"
