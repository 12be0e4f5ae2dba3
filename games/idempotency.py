"""Requests safe to send twice: a copy sent with the same one-time key gets the first answer.

An API client sends ``Idempotency-Key: <key>`` with a POST (games.api), and the forms that
make something with no twin to find when sent twice (a challenge to a bot, which starts a
match at once: the lobby's and the challenge page's forms; a new tournament) carry a
hidden key rendered with the page (:data:`FORM_FIELD`, ``{% idempotency_key_field %}``).
The first request with a key does the work, and its answer is kept
(:class:`~games.models.SentOnce`); the same player sending the same key again within
:data:`KEY_LIFETIME` gets that answer again, marked with the header ``Idempotent-Replayed:
true``, and nothing is done; the same key with another request (another address or body)
is refused (:class:`KeyReused`). Two copies sent at the same instant meet at the unique
(user, key) row: the second waits for the first's transaction to commit, then reads its
answer, so the work is done once.

Only an answer that did something is kept (a success, or a form's redirect): a refusal
(the API's 4xx, a form drawn again with its errors) changed nothing, so its key stays free
and the request may be sent again with it, put right. Keys are forgotten after
:data:`KEY_LIFETIME` (:func:`forget_expired`, a beat task; an expired key met before then
counts as new).
"""

from __future__ import annotations

import hashlib
import json
import secrets
from collections.abc import Callable
from datetime import timedelta
from functools import wraps
from typing import TYPE_CHECKING, Any

from django.contrib import messages
from django.db import IntegrityError, transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils import timezone

from .models import SentOnce

if TYPE_CHECKING:
    from accounts.models import User

KEY_LIFETIME = timedelta(hours=24)
MAX_KEY_LENGTH = 255
#: The hidden field of a form sent once, and the API's header.
FORM_FIELD = "idempotency_key"
HEADER = "Idempotency-Key"
REPLAYED_HEADER = "Idempotent-Replayed"


class KeyRefused(ValueError):
    """A key that is not one: empty, too long, or holding more than visible ASCII."""


class KeyReused(Exception):
    """The same key sent with another request than the one it first came with."""


def new_key() -> str:
    """A fresh key for a form (32 URL-safe characters)."""
    return secrets.token_urlsafe(24)


def checked_key(raw: str) -> str:
    """``raw`` as a key (spaces around it dropped), or :class:`KeyRefused` saying why."""
    key = raw.strip()
    if not key:
        raise KeyRefused("the key is empty: send a unique string, such as a UUID")
    if len(key) > MAX_KEY_LENGTH:
        raise KeyRefused(f"the key is longer than {MAX_KEY_LENGTH} characters")
    # Visible ASCII only: what a header carries safely, and nothing a log or the
    # database would mangle (a NUL, a lone surrogate).
    if not all("!" <= character <= "~" for character in key):
        raise KeyRefused(
            "the key may hold only letters, digits and punctuation (visible ASCII, no"
            " spaces), such as a UUID"
        )
    return key


def request_digest(method: str, path: str, body: object) -> str:
    """What identifies a request for its key: SHA-256 of its method, its address (with the
    query) and its body, as JSON with sorted keys (so a retry need not repeat the spacing
    or the order of the fields, only their values)."""
    sent = json.dumps([method, path, body], sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(sent.encode()).hexdigest()


#: The answers kept: the API's successes, and a form's redirect (a form refused is drawn
#: again, as a 200).
API_SUCCESS = range(200, 300)
FORM_REDIRECT = range(300, 400)


def answer_once(
    user: User,
    *,
    key: str,
    digest: str,
    respond: Callable[[], HttpResponse],
    keep: range = API_SUCCESS,
) -> HttpResponse:
    """``respond()``'s answer, or, when ``user`` sent ``key`` before with the request of
    ``digest``, the answer it had then, without calling ``respond``. :class:`KeyReused`
    when ``key`` came with another request. ``respond`` runs inside this transaction; its
    answer is kept when its status is in ``keep`` (any other did nothing)."""
    with transaction.atomic():
        expired = timezone.now() - KEY_LIFETIME
        SentOnce.objects.filter(user=user, key=key, created_at__lt=expired).delete()
        try:
            with transaction.atomic():
                # A copy sent at the same time waits here until this transaction ends.
                record = SentOnce.objects.create(user=user, key=key, request_digest=digest)
        except IntegrityError:
            return _answered(user, key, digest)
        response = respond()
        if response.status_code not in keep:
            # A refusal changed nothing: the key stays free for the request put right.
            record.delete()
            return response
        record.status = response.status_code
        record.answer = _kept(response)
        record.save(update_fields=["status", "answer"])
        return response


def _kept(response: HttpResponse) -> str:
    """What is kept of an answer: a redirect's address, or any other's (JSON) body."""
    if 300 <= response.status_code < 400:
        return response["Location"]
    return response.content.decode()


def _answered(user: User, key: str, digest: str) -> HttpResponse:
    record = SentOnce.objects.get(user=user, key=key)
    if record.request_digest != digest:
        raise KeyReused(key)
    assert record.status is not None  # set before its transaction committed
    if 300 <= record.status < 400:
        replay = HttpResponse(status=record.status, headers={"Location": record.answer})
    else:
        replay = HttpResponse(record.answer, status=record.status, content_type="application/json")
    replay[REPLAYED_HEADER] = "true"
    return replay


def form_sent_once(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """A view whose form carries a one-time key (:data:`FORM_FIELD`): the form sent again
    (pressed twice without JavaScript, sent again from a reloaded answer) goes where the
    first went, saying so, instead of doing it twice. A POST without the field is answered
    as ever. For a signed-in player's forms (under ``login_required``)."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        raw = request.POST.get(FORM_FIELD) if request.method == "POST" else None
        if raw is None:
            return view(request, *args, **kwargs)
        sent = {
            name: request.POST.getlist(name)
            for name in request.POST
            if name not in (FORM_FIELD, "csrfmiddlewaretoken")
        }
        try:
            response = answer_once(
                request.user,
                key=checked_key(raw),
                digest=request_digest("POST", request.get_full_path(), sent),
                respond=lambda: view(request, *args, **kwargs),
                keep=FORM_REDIRECT,
            )
        except (KeyRefused, KeyReused):
            # Only a form altered by hand gets here: the page's own keys are new, one to
            # a form. A fresh page brings a fresh key.
            messages.error(request, "That form could not be sent as it was: please send it again.")
            return redirect(request.get_full_path())
        if response.has_header(REPLAYED_HEADER):
            messages.info(request, "The form was sent twice: it counted once.")
        return response

    return wrapper


def forget_expired() -> int:
    """Delete the keys older than :data:`KEY_LIFETIME`; how many."""
    deleted, _ = SentOnce.objects.filter(created_at__lt=timezone.now() - KEY_LIFETIME).delete()
    return deleted
