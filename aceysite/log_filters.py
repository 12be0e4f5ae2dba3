"""Logging filters: keep the secrets in emailed links out of the logs, Django's (LOGGING in
settings) and gunicorn's (aceysite.gunicorn_logging) alike, and the error emails to ADMINS
for what needs someone to act."""

from __future__ import annotations

import logging
import re
import threading
import time
from typing import ClassVar

from django.conf import settings
from django.utils.log import AdminEmailHandler
from kombu.exceptions import OperationalError as BrokerUnreachable
from redis.exceptions import ConnectionError as RedisUnreachable
from redis.exceptions import TimeoutError as RedisTimeout

# Paths whose last segments are secrets: email-change, email-confirmation, email-undo and
# unsubscribe tokens, password reset links, private invites. A 404 or 403 on such a URL
# would otherwise log the token.
_SECRET_STARTS = (
    r"(/accounts/email/confirm/|/accounts/email/verify/|/accounts/email/undo/"
    r"|/accounts/password/reset/|/unsubscribe/|/invite/)"
)
_SECRET_PATHS = re.compile(_SECRET_STARTS + r"[^\s'\"]+")
# In HTML (an error report's page), up to the next tag or entity too.
_SECRET_PATHS_IN_HTML = re.compile(_SECRET_STARTS + r"[^\s'\"<&]+")


def redact(text: str, *, html: bool = False) -> str:
    """``text`` with everything after the start of a secret link's path replaced by
    ``[redacted]``, up to the next space or quote (a log line's path, query and Referer),
    or, in ``html``, the next tag or entity."""
    return (_SECRET_PATHS_IN_HTML if html else _SECRET_PATHS).sub(r"\1[redacted]", text)


class RedactTokens(logging.Filter):
    """Rewrite a record's message with the tokens in its URLs replaced by ``[redacted]``."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        cleaned = redact(message)
        if cleaned != message:
            record.msg, record.args = cleaned, ()
        return True


# A service the site talks to is down or unreachable: the broker (Celery gives up publishing
# with kombu's OperationalError), Redis, or anything at the socket's level (an SMTP server's
# errors are OSErrors too).
_OUTAGES = (BrokerUnreachable, RedisUnreachable, RedisTimeout, OSError)


class LogAsWarning(logging.Filter):
    """Lower an ERROR (or worse) record to a WARNING, so that it is logged but not emailed to
    ADMINS (Django's ``mail_admins`` handler takes ERROR and above). A logger's filter, it
    runs before any handler, the parents' included, sees the record.

    With ``outages_only``, only a record of an exception in ``_OUTAGES``, and without its
    traceback: an outage is expected now and then, is logged at each request while it
    lasts, and its message (the exception's) says all there is to say.
    """

    def __init__(self, outages_only: bool = False) -> None:
        super().__init__()
        self.outages_only = outages_only

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno <= logging.WARNING:
            return True
        if self.outages_only:
            error = record.exc_info[1] if record.exc_info else None
            if not isinstance(error, _OUTAGES):
                return True
            record.exc_info = record.exc_text = None
        record.levelno, record.levelname = logging.WARNING, logging.getLevelName(logging.WARNING)
        return True


class BeatOutage(logging.Filter):
    """celery.beat's error for a periodic task it could not send because the broker is
    unreachable: one line at WARNING, the broker's error its message. Beat logs each with
    its traceback and the whole stack besides, some 25 lines for each sweep every 15 s
    while Redis is down (1,139 lines in 45 s); the sweep runs at its next turn after the
    broker is back, and nobody need act for it."""

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        # Beat raises its SchedulingError inside the except of the broker's error: that is
        # its __context__ (its __cause__ had it been raised "from" it).
        cause = (error.__cause__ or error.__context__) if error is not None else None
        if record.levelno > logging.WARNING and isinstance(cause, _OUTAGES):
            record.msg, record.args = "%s (sent at its next turn once the broker is back)", (error,)
            record.exc_info = record.exc_text = None
            record.levelno, record.levelname = logging.WARNING, "WARNING"
        return True


class ThrottledAdminEmailHandler(AdminEmailHandler):
    """Django's handler that emails ADMINS each ERROR, sending one email a kind of error
    (its logger, and its exception's type, or its message without one) every
    settings.ADMIN_EMAIL_WINDOW_SECONDS in a process. A database outage failed every
    request, and emailed each, from the request: ten requests, ten emails. The errors
    not emailed are still logged, with their tracebacks, by the console handler."""

    _last_sent: ClassVar[dict[tuple[str, str], float]] = {}
    _lock: ClassVar[threading.Lock] = threading.Lock()

    def emit(self, record: logging.LogRecord) -> None:
        error = record.exc_info[1] if record.exc_info else None
        kind = (record.name, type(error).__qualname__ if error is not None else str(record.msg))
        now = time.monotonic()
        with self._lock:
            last = self._last_sent.get(kind)
            if last is not None and now - last < settings.ADMIN_EMAIL_WINDOW_SECONDS:
                return
            self._last_sent[kind] = now
        super().emit(record)

    @classmethod
    def forget(cls) -> None:
        """Forget what was sent: each test starts with no error emailed yet."""
        with cls._lock:
            cls._last_sent.clear()
