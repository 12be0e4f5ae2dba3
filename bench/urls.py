"""The site's URLs plus the floor view of bench.load (served with ACEY_URLCONF=bench.urls)."""

from django.urls import path

from aceysite.urls import urlpatterns as site_urlpatterns

from .floor import floor

urlpatterns = [path("bench/floor/", floor, name="bench_floor"), *site_urlpatterns]
