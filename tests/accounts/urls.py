"""The site's URLs plus the player profiles, until aceysite/urls.py mounts
``accounts.profile_urls`` itself (then this module and the fixture using it can go)."""

from django.urls import include, path

from aceysite.urls import urlpatterns as site_urlpatterns

urlpatterns = [*site_urlpatterns, path("players/", include("accounts.profile_urls"))]
