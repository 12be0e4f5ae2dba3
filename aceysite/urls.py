from django.contrib import admin
from django.urls import include, path

from accounts.forms import ThrottledAdminAuthenticationForm
from aceysite import views as site_views
from games import api as game_api
from games import views as game_views

# Staff log in at /admin/login/ too: counted with the site's login failures there.
admin.site.login_form = ThrottledAdminAuthenticationForm

urlpatterns = [
    path("", game_views.home, name="home"),
    path("accounts/", include("accounts.urls")),
    path("api/v1/", include("games.api_urls")),
    # The API's own address without its slash answers as its other paths do without theirs
    # (404 in JSON, with the hint), not with APPEND_SLASH's redirect: an HTML 301, and for a
    # POST, which cannot be redirected with its body, a 500 in DEBUG.
    path("api/v1", game_api.not_found, name="api_without_slash"),
    path("tournaments/", include("games.tournaments.urls")),
    path("", include("games.urls")),
    path("players/", include("accounts.profile_urls")),
    path("admin/", admin.site.urls),
    path("favicon.ico", site_views.favicon, name="favicon"),
]

# The JSON API answers a request Django refuses, and a server error, in JSON too.
handler400 = "aceysite.views.bad_request"
handler500 = "aceysite.views.server_error"
