"""Logging filters: keep the secrets in emailed links out of the logs, Django's (LOGGING in
settings) and gunicorn's (aceysite.gunicorn_logging) alike."""

from __future__ import annotations

import logging
import re

# Paths whose last segments are secrets: email-change, email-confirmation, email-undo and
# unsubscribe tokens, password reset links, private invites. A 404 or 403 on such a URL
# would otherwise log the token.
_SECRET_PATHS = re.compile(
    r"(/accounts/email/confirm/|/accounts/email/verify/|/accounts/email/undo/"
    r"|/accounts/password/reset/|/unsubscribe/|/invite/)[^\s'\"]+"
)


def redact(text: str) -> str:
    """``text`` with everything after the start of a secret link's path replaced by
    ``[redacted]``, up to the next space or quote (a log line's path, query and Referer)."""
    return _SECRET_PATHS.sub(r"\1[redacted]", text)


class RedactTokens(logging.Filter):
    """Rewrite a record's message with the tokens in its URLs replaced by ``[redacted]``."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        cleaned = redact(message)
        if cleaned != message:
            record.msg, record.args = cleaned, ()
        return True
