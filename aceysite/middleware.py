"""Middleware of the site's own."""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import urlencode, urlsplit

from django.conf import settings
from django.core.exceptions import TooManyFieldsSent
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest, JsonResponse
from django.shortcuts import resolve_url
from django.utils import timezone
from django.utils.functional import SimpleLazyObject, empty
from django_htmx.http import HttpResponseClientRedirect

from accounts.models import known_zone

from . import views

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
        try:
            query = request.GET
        except TooManyFieldsSent as refused:
            if settings.DEBUG and request.path_info.startswith("/api/"):
                # Django answers it through handler400 (views.bad_request: the API's JSON
                # 400), but under DEBUG (bin/serve) with its technical page instead, which
                # reads the query again, fails, and leaves a 500 in plain text. The API
                # answers here as handler400 does.
                return views.bad_request(request, refused)
            raise
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


#: The cookie naming the player's timezone ("Europe/Athens"), see UserTimezoneMiddleware.
ZONE_COOKIE = "tz"


class UserTimezoneMiddleware:
    """Dates and times on pages in the logged-in player's own timezone, the one their
    settings name; the default (UTC) for everyone else. After AuthenticationMiddleware.

    The zone's name rides in a cookie, so that a request need not load the player (a
    session and a user query) to know it: a poll, an image or a fragment that never looks
    at the player does not pay for it. Whenever a request has looked at the player anyway
    (a page, logging in or out, the settings), the cookie is set, changed or dropped to
    match; a logged-in request without it looks the player up. A forged cookie changes
    only the times that browser is shown.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        zone = known_zone(request.COOKIES.get(ZONE_COOKIE, ""))
        # A form is read in the player's zone itself: a stale cookie (from another device,
        # or before a change of settings) may only ever misdisplay a page, once.
        writes = request.method not in ("GET", "HEAD", "OPTIONS")
        if (zone is None or writes) and settings.SESSION_COOKIE_NAME in request.COOKIES:
            user = request.user  # type: ignore[attr-defined]
            if user.is_authenticated:
                zone = user.zone
        if zone is None:
            response = self.get_response(request)
        else:
            with timezone.override(zone):
                response = self.get_response(request)
        _keep_zone_cookie(request, response)
        return response


def _keep_zone_cookie(request: HttpRequest, response: HttpResponse) -> None:
    if request.path_info.startswith("/api/"):
        return  # the API's times carry their offset, and a script keeps no cookies
    user = getattr(request, "user", None)
    if user is None or (isinstance(user, SimpleLazyObject) and user._wrapped is empty):
        return  # nobody looked at the player: nothing new to know
    wanted = user.timezone if user.is_authenticated and user.zone is not None else ""
    current = request.COOKIES.get(ZONE_COOKIE, "")
    if wanted and wanted != current:
        response.set_cookie(
            ZONE_COOKIE,
            wanted,
            max_age=365 * 24 * 3600,
            secure=settings.SESSION_COOKIE_SECURE,
            httponly=True,
            samesite="Lax",
        )
    elif current and not wanted:
        response.delete_cookie(ZONE_COOKIE, samesite="Lax")
