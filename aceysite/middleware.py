"""Middleware of the site's own."""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import urlencode, urlsplit

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest, JsonResponse
from django.shortcuts import resolve_url
from django.utils import timezone
from django_htmx.http import HttpResponseClientRedirect

NUL = "\x00"
REASON = "the address holds a NUL character (%00), which no address of this site has"


class RefuseNulMiddleware:
    """Answer 400 to a request whose path or query string holds a NUL character.

    PostgreSQL can neither store nor compare text holding NUL: such a value reaching a
    query (a username from the URL, a search term) raises DataError, a 500. No address of
    the site has a use for one, so it is refused here, before any view, rather than in
    every view that reads the URL. (Form fields refuse NUL themselves: Django's CharField
    validates it; the JSON API checks its string fields.)
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        query = request.GET
        if NUL in request.path or any(
            NUL in key or any(NUL in value for value in values) for key, values in query.lists()
        ):
            if request.path.startswith("/api/"):
                return JsonResponse({"error": REASON}, status=400)
            return HttpResponseBadRequest(f"Bad request: {REASON}.", content_type="text/plain")
        return self.get_response(request)


class HtmxLoginRedirectMiddleware:
    """Send an HTMX request that ``login_required`` turns away to the login page, as a page.

    When a session has ended (or the player logged out in another tab), a click on the
    board is redirected to the login page; the browser would follow that redirect inside
    the request and HTMX would swap the whole login page into the board. Instead the page
    is told to load the login page, coming back to the page the player was on.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if request.headers.get("HX-Request") != "true" or response.status_code != 302:
            return response
        login = resolve_url(settings.LOGIN_URL)
        if urlsplit(response["Location"]).path != login:
            return response
        # The page the player was on, not the endpoint the click posted to.
        page = urlsplit(request.headers.get("HX-Current-URL", ""))
        back = page.path + (f"?{page.query}" if page.query else "") if page.path else "/"
        return HttpResponseClientRedirect(f"{login}?{urlencode({'next': back})}")


class UserTimezoneMiddleware:
    """Dates and times on pages in the logged-in player's own timezone, the one their
    settings name; the default (UTC) for everyone else. After AuthenticationMiddleware."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        user = getattr(request, "user", None)
        zone = user.zone if user is not None and user.is_authenticated else None
        if zone is None:
            return self.get_response(request)
        with timezone.override(zone):
            return self.get_response(request)
