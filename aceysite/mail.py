"""The console email backend used when no SMTP server is configured (local development)."""

from __future__ import annotations

from email.message import EmailMessage as MimeMessage

from django.core.mail import EmailMessage
from django.core.mail.backends.console import EmailBackend

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
