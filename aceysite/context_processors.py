"""Template context of the site's own."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest

# Pages that a login or sign-up should not lead back to: the home page (the dashboard is
# better), the login and sign-up pages themselves, and the password pages; and pages whose
# address holds a secret, which ?next= would carry into the login page's address.
_NOT_BACK_TO = {
    "home",
    "login",
    "signup",
    "email_change_confirm",
    "email_change_undo",
    "unsubscribe",
}


def site(request: HttpRequest) -> dict[str, object]:
    """``site_title``: the site's name (settings.SITE_NAME), for page titles. Not
    ``site_name``: Django's auth views set that to the host's name.

    ``back_here``: for a visitor who is not logged in, this page, for the header's "Log in"
    and "Sign up" to come back to (a match opened from an email, an invite); "" where
    there is no point in coming back. A callable, which templates call only if they use
    it: working it out reads the session, which a page fragment need not."""
    return {"site_title": settings.SITE_NAME, "back_here": lambda: _back_here(request)}


def _back_here(request: HttpRequest) -> str:
    match = request.resolver_match
    name = match.url_name if match else None
    user = getattr(request, "user", None)
    if (
        request.method == "GET"
        and name
        and name not in _NOT_BACK_TO
        and not name.startswith("password_")
        and not (user and user.is_authenticated)
    ):
        return request.get_full_path()
    return ""
