"""Error reports (the pages of DEBUG, and the emails to ADMINS) without the passwords in
the service URLs the site is configured with, the tokens of emailed links, or cookies."""

from __future__ import annotations

import re
from typing import Any

from django.template.defaultfilters import pprint
from django.views.debug import ExceptionReporter, SafeExceptionReporterFilter

from .log_filters import redact

# A URL's scheme and network location: the location ends at the first "/", "?" or "#", and
# here at a quote or space too, so that a URL quoted in a repr() ends with its quote.
_URL_LOCATION = re.compile(r"(?P<scheme>\b[a-zA-Z][a-zA-Z0-9+.\-]*://)(?P<location>[^\s/?#'\"]*)")


def mask_url_passwords(text: str) -> str:
    """``text`` with the password of every ``scheme://user:password@host`` in it replaced
    by stars, the user and host kept (they help read a report, and are no secret).

    >>> mask_url_passwords("postgres://acey:s3cret@db:5432/acey and redis://:pw@cache/0")
    'postgres://acey:********************@db:5432/acey and redis://:********************@cache/0'
    """

    def mask(match: re.Match[str]) -> str:
        # The host follows the last "@": a password written unescaped may hold one too.
        userinfo, at, host = match["location"].rpartition("@")
        if not at or ":" not in userinfo:
            return match[0]
        user = userinfo.split(":", 1)[0]
        return f"{match['scheme']}{user}:{HideUrlPasswords.cleansed_substitute}@{host}"

    return _URL_LOCATION.sub(mask, text)


class _Masked:
    """A frame variable shown by its repr() with the URL passwords masked (the reporter
    prints each variable's repr)."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __repr__(self) -> str:
        return self.text


class HideUrlPasswords(SafeExceptionReporterFilter):
    """Django's filter (settings.DEFAULT_EXCEPTION_REPORTER_FILTER) hides the settings whose
    names look secret (``SECRET_KEY``, ``DATABASES["default"]["PASSWORD"]``), not the
    password inside ``DATABASE_URL``, ``REDIS_URL``, ``CELERY_BROKER_URL`` or a cache's
    ``LOCATION``, which every error email to ADMINS would carry. This one masks the
    password of any URL in a setting, in the request's META (runserver copies the whole
    environment into it) and cookies, and in the variables of the traceback's frames.
    """

    def cleanse_setting(self, key: Any, value: Any) -> Any:
        """Django's cleansing, then any URL's password masked (nested values come back
        through here)."""
        cleansed = super().cleanse_setting(key, value)
        if isinstance(cleansed, str):
            return mask_url_passwords(cleansed)
        return cleansed

    def get_safe_request_meta(self, request: Any) -> dict[str, Any]:
        """Django's, with the tokens of emailed links (PATH_INFO, RAW_URI, the Referer)
        redacted as the logs have them: a reset link in a report was a way into the
        account for whoever reads the operators' mailbox."""
        return {
            name: redact(value) if isinstance(value, str) else value
            for name, value in super().get_safe_request_meta(request).items()
        }

    def get_safe_cookies(self, request: Any) -> dict[str, Any]:
        """Every cookie's value hidden: Django hides those whose names look secret
        (sessionid, csrftoken), not the throttle's known_device, which vouches for a
        browser; no cookie's value helps to read a report."""
        return dict.fromkeys(getattr(request, "COOKIES", {}), self.cleansed_substitute)

    def get_traceback_frame_variables(self, request: Any, tb_frame: Any) -> list[tuple[str, Any]]:
        """Each frame's variables: hidden when their name looks secret (a view's
        ``token``), as Django hides settings; those whose repr() holds a URL's password
        or an emailed link's token masked."""
        variables = []
        for name, value in super().get_traceback_frame_variables(request, tb_frame):
            if self.hidden_settings.search(name):
                variables.append((name, self.cleansed_substitute))
                continue
            shown = pprint(value)
            masked = redact(mask_url_passwords(shown))
            variables.append((name, value if masked == shown else _Masked(masked)))
        return variables


class RedactingReporter(ExceptionReporter):
    """Django's reporter (settings.DEFAULT_EXCEPTION_REPORTER) with every emailed link's
    token in the report redacted as the logs have them: the report names the request's
    path in its first line and its URL beneath, which the filter above does not see."""

    def get_traceback_text(self) -> str:
        return redact(super().get_traceback_text())

    def get_traceback_html(self) -> str:
        return redact(super().get_traceback_html(), html=True)
