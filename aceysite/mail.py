"""Email sent at once rather than through the outbox, and the console email backend used
when no SMTP server is configured (local development)."""

from __future__ import annotations

import logging
import re
from email.message import EmailMessage as MimeMessage
from urllib.parse import urlsplit

from django.conf import settings
from django.core.mail import EmailMessage, make_msgid
from django.core.mail.backends.console import EmailBackend

from .text import left_to_right, subject_line

log = logging.getLogger(__name__)


def send_now(kind: str, subject: str, body: str, to: str) -> None:
    """Send one plain-text email to ``to`` now, from DEFAULT_FROM_EMAIL, and log a line
    naming its ``kind`` once it is sent. For the account emails sent without the outbox
    (links and notices about the account, sent by the web process, and reset links, by
    the worker: accounts.tasks): the outbox (games.notifications) logs a
    line for each email it sends, and an operator asked whether a reset link went out
    should find one for these too. The line leaves the address out, as the outbox's do.

    Raises what the mail backend raises (an OSError, smtplib's errors included); the
    caller logs that, knowing what failing means for its page."""
    # The site's domain in its Message-ID, as the outbox's emails have it, not the
    # machine's own name (Django's default), which the world need not know.
    headers = {"Message-ID": make_msgid(domain=mail_domain()), **AUTOMATIC}
    EmailMessage(subject_line(subject), left_to_right(body), None, [to], headers=headers).send()
    log.info("account email (%s) sent", kind)


#: Headers every email of the site carries: it is written by a machine, not a person
#: (RFC 3834), so that out-of-office and other automatic replies are not sent back to
#: an address nobody reads, one for every turn while its player is away. Exchange and
#: Outlook go by their own header rather than the RFC's.
AUTOMATIC = {"Auto-Submitted": "auto-generated", "X-Auto-Response-Suppress": "All"}


def mail_domain() -> str:
    """The domain in the Message-IDs of the site's emails: SITE_URL's host."""
    return urlsplit(settings.SITE_URL).hostname or "localhost"


def send_or_log(kind: str, subject: str, body: str, to: str) -> None:
    """:func:`send_now`, for an email sent after what it tells of is done (an on_commit
    callback): a mail server that cannot be reached, or refuses it, is logged here as a
    warning with the error's addresses replaced (:func:`failure_in_words`), and the
    caller goes on. Django's own line for a failed callback quotes the error whole, the
    recipient's address with it: an erased one, for a closed account."""
    try:
        send_now(kind, subject, body, to)
    except OSError as error:  # smtplib's errors are OSErrors
        log.warning("account email (%s) not sent: %s", kind, failure_in_words(error))


#: Anything shaped like an email address in an error's message (a refused recipient's).
_ADDRESS = re.compile(r"[^\s<>'\"(),;:\[\]]+@[^\s<>'\"(),;:\[\]]+")


def failure_in_words(error: Exception) -> str:
    """``error`` as the logs may tell it: its type and message, with any email address in
    it replaced by ``[address]`` (a mail server's refusal often names the recipient)."""
    return f"{type(error).__name__}: {_ADDRESS.sub('[address]', str(error))}"


#: The headers worth reading on the console; the rest (MIME, Message-ID) is for mail programs.
SHOWN_HEADERS = ("From", "To", "Cc", "Reply-To", "Subject", "Date")


class ReadableConsoleBackend(EmailBackend):
    """Django's console backend prints the message as sent: a body with a dash or an
    accent goes out quoted-printable, which wraps long lines with ``=`` and spells
    characters as ``=E2=80=93``, so a confirmation link has to be pieced together before
    it can be followed. This one prints the headers and the plain-text body decoded,
    and says what else the message carries (an HTML part, attachments)."""

    def write_message(self, message: EmailMessage) -> None:
        mime = message.message()
        lines = [f"{name}: {mime[name]}" for name in SHOWN_HEADERS if mime[name] is not None]
        text = mime.get_body(preferencelist=("plain",)) if isinstance(mime, MimeMessage) else None
        others = [
            part.get_content_type()
            for part in mime.walk()
            if not part.is_multipart() and part is not text
        ]
        if others:
            lines.append(f"(Also in the message: {', '.join(others)})")
        body = text.get_content() if text is not None else mime.as_string()
        self.stream.write("\n".join(lines) + "\n\n" + body.rstrip("\n") + "\n")
        self.stream.write("-" * 79 + "\n")
