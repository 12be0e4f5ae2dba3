"""Site-wide error pages that need the request (Django's own render without it)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views import defaults


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """A form refused by the CSRF check (settings.CSRF_FAILURE_VIEW), in the site's layout.

    Django's default page is a developer's explanation. A player meets this after sending
    a form from a page left open across a log-in, a log-out or an expired session: say so,
    and how to go on. ``reason`` stays in the server's log (django.security.csrf).

    An HTMX request (a click on the board from a page whose token a log-in elsewhere has
    replaced) would swap this page into the board: it is told to reload the page instead,
    which brings a fresh token, and the player clicks again.
    """
    if request.headers.get("HX-Request") == "true":
        return HttpResponse(status=403, headers={"HX-Refresh": "true"})
    return render(request, "403_csrf.html", status=403)


def server_error(request: HttpRequest) -> HttpResponse:
    """A server error (handler500): the site's page, or for the JSON API the JSON error
    every other answer of the API is, so that a client reads it as it reads the others."""
    if request.path_info.startswith("/api/"):  # path_info: whatever prefix the site has
        return JsonResponse(
            {"error": "the server failed to answer (its administrators are told): try again"},
            status=500,
        )
    return defaults.server_error(request)
