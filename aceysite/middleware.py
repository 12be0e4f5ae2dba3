"""Middleware of the site's own."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest, JsonResponse

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
