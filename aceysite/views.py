"""Site-wide pages outside any app: the error pages that need the request (Django's own
render without it), and /favicon.ico."""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import TooManyFieldsSent
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.middleware.csrf import REASON_BAD_ORIGIN, REASON_BAD_REFERER
from django.shortcuts import render
from django.templatetags.static import static
from django.views import defaults
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_safe

# The beginnings of Django's reasons for refusing a form sent from a page at another address
# than the site's own ("Origin checking failed - https://... does not match any trusted
# origins.", and the Referer's, for a browser that sends no Origin).
_UNRECOGNISED_ADDRESS = tuple(
    reason.split(" - ")[0] for reason in (REASON_BAD_ORIGIN, REASON_BAD_REFERER)
)


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """A form refused by the CSRF check (settings.CSRF_FAILURE_VIEW), in the site's layout.

    Django's default page is a developer's explanation. A player meets this after sending
    a form from a page left open across a log-in, a log-out or an expired session: say so,
    and how to go on. ``reason`` stays in the server's log (django.security.csrf, a
    warning).

    A form sent from an address the site does not recognise (its Origin is not the site's
    own nor in CSRF_TRUSTED_ORIGINS: the site reached at another address, or a proxy that
    does not pass on the scheme) has not expired, and reloading will not help: the page
    says so, and asks a player who came by the usual address to tell the operators.

    An HTMX request (a click on the board from a page whose token a log-in elsewhere has
    replaced) would swap this page into the board: it is told to reload the page instead,
    which brings a fresh token, and the player clicks again. From an address the site does
    not recognise, a reload would change nothing, and every click would reload again: the
    page takes the whole window instead, saying why.
    """
    htmx = request.headers.get("HX-Request") == "true"
    unrecognised_address = reason.startswith(_UNRECOGNISED_ADDRESS)
    if htmx and not unrecognised_address:
        return HttpResponse(status=403, headers={"HX-Refresh": "true"})
    response = render(
        request, "403_csrf.html", {"unrecognised_address": unrecognised_address}, status=403
    )
    if htmx:
        # The body of the page replaces the body of the window (htmx takes a whole
        # document's <body> for its content), not the part the click would have updated.
        response.headers["HX-Retarget"] = "body"
        response.headers["HX-Reswap"] = "innerHTML"
    return response


def _for_the_api(request: HttpRequest) -> bool:
    return request.path_info.startswith("/api/")  # path_info: whatever prefix the site has


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    """A request Django refuses before any view answers it (handler400: a
    SuspiciousOperation, such as a query of more parameters than
    DATA_UPLOAD_MAX_NUMBER_FIELDS): Django's page, or for the JSON API a JSON error saying
    why, as every other answer of the API is."""
    if not _for_the_api(request):
        return defaults.bad_request(request, exception)
    if isinstance(exception, TooManyFieldsSent):
        limit = settings.DATA_UPLOAD_MAX_NUMBER_FIELDS
        reason = f"the request has more than {limit} parameters (in its query string or form)"
    else:
        # A Host that is not the site's, say: the server's log says which.
        reason = "the request is refused: a header or parameter of it is not accepted here"
    return JsonResponse({"error": reason}, status=400)


def server_error(request: HttpRequest) -> HttpResponse:
    """A server error (handler500): the site's page, or for the JSON API the JSON error
    every other answer of the API is, so that a client reads it as it reads the others."""
    if _for_the_api(request):
        return JsonResponse(
            {"error": "the server failed to answer (its administrators are told): try again"},
            status=500,
        )
    return defaults.server_error(request)


@require_safe
@cache_control(public=True, max_age=24 * 60 * 60)
def favicon(request: HttpRequest) -> HttpResponse:
    """/favicon.ico, which browsers ask for on pages that name no icon (the admin's), or
    that name only an SVG one (Safari): the static file, by its hashed name in production.
    A temporary redirect, kept a day: a permanent one would outlive the hashed name."""
    return HttpResponseRedirect(static("favicon.ico"))
