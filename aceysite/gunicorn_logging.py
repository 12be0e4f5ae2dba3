"""gunicorn's logger for the web process (``logger_class`` in gunicorn.conf.py).

gunicorn writes its own logs, outside Django's LOGGING: the access log prints each request
line and its Referer, and its error log the path of a request that failed. An emailed
link (a password reset, an address to confirm, an unsubscribe, a private invite) carries
its secret in the path, and every static file the page loads repeats that path in its
Referer; so both logs go through the same filter as Django's loggers
(:class:`aceysite.log_filters.RedactTokens`).
"""

from __future__ import annotations

import sys
from datetime import timedelta
from typing import Any

from gunicorn.glogging import Logger

from accounts.throttle import client_ip_in

from .log_filters import RedactTokens

# One instance for both logs and every setup(): addFilter() ignores a filter already
# there, so a configuration reload (which runs setup() again) adds none twice.
_REDACT_TOKENS = RedactTokens()


class RedactingLogger(Logger):
    """gunicorn's logger with the tokens of emailed links redacted from both logs, the
    access log's ``-`` meaning standard error (with every other log) rather than standard
    output, and its ``%(h)s`` the client's address as the site counts it behind
    ``TRUSTED_PROXY_COUNT`` proxies (accounts.throttle.client_ip), not the proxy's."""

    def setup(self, cfg: Any) -> None:
        """Set up gunicorn's handlers, then redact and redirect them."""
        super().setup(cfg)
        for log in (self.error_log, self.access_log):
            log.addFilter(_REDACT_TOKENS)
        handler = self._get_gunicorn_handler(self.access_log)
        if cfg.accesslog == "-" and handler is not None:
            handler.setStream(sys.stderr)

    def atoms(
        self, resp: Any, req: Any, environ: dict[str, Any], request_time: timedelta
    ) -> dict[str, Any]:
        """gunicorn's format atoms, with ``h`` the client's address behind the proxies."""
        atoms = super().atoms(resp, req, environ, request_time)
        atoms["h"] = client_ip_in(environ) or "-"
        return atoms
