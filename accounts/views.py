"""Sign-up, login, settings (profile, email, API keys) and the public player profile."""

from __future__ import annotations

import logging
import smtplib
from dataclasses import dataclass
from datetime import datetime
from typing import Any, ClassVar
from urllib.parse import urlsplit

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login, logout
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.paginator import Paginator
from django.db import transaction
from django.forms import Form
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import Resolver404, resolve, reverse
from django.utils import timezone
from django.utils.crypto import salted_hmac
from django.utils.csp import CSP
from django.utils.html import format_html
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.cache import never_cache
from django.views.decorators.csp import csp_override
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from aceysite.forms import focus_first_error
from aceysite.mail import failure_in_words
from aceysite.text import sentence
from games import away, blocks, closing
from games.models import Match, MatchQuerySet, RatingChange
from games.ratings.profile import head_to_head, rating_chart_svg, variant_records
from games.tournaments.profile import player_tournaments

from . import services, throttle
from .forms import (
    ApiTokenForm,
    AwayForm,
    CloseAccountForm,
    EmailChangeForm,
    ProfileForm,
    SetPasswordAloneForm,
    SignupForm,
    ThrottledAuthenticationForm,
    ThrottledPasswordChangeForm,
)
from .models import LAST_USED_RESOLUTION, ApiToken, User

MATCHES_PER_PAGE = 25

logger = logging.getLogger(__name__)


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    """Create an account and log in, then go on to ``next`` (a page of this site, e.g. the
    private invite that sent the newcomer here) or the home page."""
    next_url = _safe_next(request, request.POST.get("next") or request.GET.get("next", ""))
    if request.user.is_authenticated:
        return HttpResponseRedirect(next_url) if next_url else redirect("home")

    if request.method == "POST" and throttle.count_signup(ip=throttle.client_ip(request)):
        return _signup_refused(request, next_url)
    form = SignupForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid() and (user := form.save_unless_taken()):
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        services.send_email_confirmation(user)
        response = HttpResponseRedirect(next_url) if next_url else redirect("home")
        # Signing up logs in: this browser is the player's as much as one they logged in
        # from, and strangers' failed logins must not lock them out of it.
        throttle.remember_device(request, response, user)
        return response
    focus_first_error(form)
    return render(request, "accounts/signup.html", {"form": form, "next": next_url})


def _signup_refused(request: HttpRequest, next_url: str) -> HttpResponse:
    """The sign-up page, 429, when its IP has tried as many sign-ups lately as
    :mod:`accounts.throttle` allows: the form as sent (but the passwords), unchecked,
    since its errors would tell whether an account has the address."""
    form = SignupForm(initial={name: request.POST.get(name, "") for name in ("username", "email")})
    # The page takes the focus to the refusal (its alert), not back to the username, so
    # that a phone shows it and a screen reader reads it.
    form.fields["username"].widget.attrs.pop("autofocus", None)
    context = {"form": form, "next": next_url, "refused": True}
    return render(request, "accounts/signup.html", context, status=429)


def _safe_next(request: HttpRequest, url: str) -> str:
    """``url`` if it is a path on this site ("/invite/..."), checked as log-in checks it;
    else "". Only a path: redirect() would take a bare word for a view name."""
    allowed = url.startswith("/") and url_has_allowed_host_and_scheme(
        url, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )
    return url if allowed else ""


#: Why the login page came before a page a link in an email leads to, by the page's URL
#: name: the link opened logged out showed a login page and nothing of what it was for.
LOGIN_REASONS = {
    "email_change_confirm": (
        "Log in to confirm your new email address; the link then takes you on to it."
    ),
}


class LoginView(auth_views.LoginView):
    form_class = ThrottledAuthenticationForm
    redirect_authenticated_user = True

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        try:
            name = resolve(urlsplit(context.get("next") or "").path).url_name
        except Resolver404:
            name = None
        context["login_reason"] = LOGIN_REASONS.get(name or "", "")
        return context

    def form_valid(self, form: Form) -> HttpResponse:
        response = super().form_valid(form)
        # This browser is known for the account from now on (accounts.throttle).
        throttle.remember_device(self.request, response, form.get_user())
        return response

    def form_invalid(self, form: Form) -> HttpResponse:
        _point_to_login_errors(form)
        response = super().form_invalid(form)
        if form.has_error("__all__", code="throttled"):
            response.status_code = 429
        return response


#: The id of the login page's reason for a refusal (registration/login.html).
LOGIN_ERRORS_ID = "login-errors"


def _point_to_login_errors(form: Form) -> None:
    """Take a screen reader, and the typing, to why a login was refused. A reason about
    both fields (a wrong password, too many failures) is what each of them is described
    by, and the password (emptied; the username is kept) takes the focus; a missing field
    takes the focus itself, its error beside it."""
    form.fields["username"].widget.attrs.pop("autofocus", None)
    if form.non_field_errors():
        for name in ("username", "password"):
            form.fields[name].widget.attrs["aria-describedby"] = LOGIN_ERRORS_ID
        form.fields["password"].widget.attrs["autofocus"] = True
    else:
        focus_first_error(form)


class LogoutView(auth_views.LogoutView):
    # Django's answers a GET with an empty 405, which the browser shows as its own error.
    http_method_names: ClassVar[list[str]] = ["get", "post", "options"]

    def get(self, request: HttpRequest, *args, **kwargs) -> HttpResponse:
        """A page whose button logs out (only a POST does: a link must not), or the home
        page for someone not logged in."""
        if not request.user.is_authenticated:
            return redirect("home")
        return render(request, "registration/logout.html")

    def post(self, request: HttpRequest, *args, **kwargs) -> HttpResponse:
        response = super().post(request, *args, **kwargs)
        # Added after logging out, which empties the session: the message goes with the
        # redirect (in a cookie, as messages go when they can) to the page it lands on.
        messages.success(request, "You are logged out.")
        return response


class _FocusFirstField:
    """A form view whose form takes the focus where the player types next: its first field
    with an error, else its first field (Django's reset forms take none, and the page
    opened with the focus nowhere)."""

    def get_form(self, form_class: type[Form] | None = None) -> Form:
        form = super().get_form(form_class)  # type: ignore[misc]
        focus_first_error(form, or_first=True)
        return form


class PasswordChangeView(_FocusFirstField, auth_views.PasswordChangeView):
    form_class = ThrottledPasswordChangeForm

    def get_form_kwargs(self) -> dict:
        return {**super().get_form_kwargs(), "ip": throttle.client_ip(self.request)}

    def form_valid(self, form: Form) -> HttpResponse:
        try:
            response = super().form_valid(form)
        except services.AccountClosed:
            return _closed_meanwhile(self.request)
        _say_keys_revoked(self.request, services.shut_out_others(form.user, reset=False))
        # The browser stays known for the account with its new password (it gave the old).
        throttle.remember_device(self.request, response, form.user)
        return response


def _say_keys_revoked(request: HttpRequest, count: int) -> None:
    """Tell the player, on the page after a new password, that it revoked their API keys:
    the programs using them (their bot) are shut out until given a new one. The message
    links to where keys are made (Django's message storage keeps it marked safe)."""
    if not count:
        return
    if count == 1:
        keys, make = (
            "Your API key was",
            "make a new one in your {link} for the program that uses it",
        )
    else:
        keys, make = (
            f"Your {count} API keys were",
            "make new ones in your {link} for the programs that use them",
        )
    link = format_html('<a href="{}#tokens-h">settings</a>', reverse("settings"))
    messages.info(request, format_html(f"{keys} revoked with the old password: {make}.", link=link))


class PasswordResetView(_FocusFirstField, auth_views.PasswordResetView):
    # Django's form, for its field only: the link goes from a task, not its save().

    def form_valid(self, form: Form) -> HttpResponse:
        """Have the link sent (by a task: :func:`accounts.services.ask_for_password_reset`)
        unless the address or the client's IP has asked too often lately (see
        :mod:`accounts.throttle`). Either way the answer is the same page, so that it does
        not tell whether an account uses the address."""
        email, ip = form.cleaned_data["email"], throttle.client_ip(self.request)
        over_limit = throttle.count_password_reset(email=email, ip=ip)
        if over_limit is None:
            services.ask_for_password_reset(email)
        else:
            # The address itself stays out of the logs: a keyed hash tells repeats apart.
            logger.warning(
                "Password reset not sent: too many requests for the %s (address %s, IP %s)",
                "address" if over_limit == "email" else "IP",
                salted_hmac(
                    "accounts.password_reset", email.casefold(), algorithm="sha256"
                ).hexdigest()[:12],
                ip,
            )
        return redirect(self.get_success_url())


class PasswordResetConfirmView(_FocusFirstField, auth_views.PasswordResetConfirmView):
    form_class = SetPasswordAloneForm

    def get_user(self, uidb64: str) -> User | None:
        """The account the link is for; none (so the link is invalid) once it is closed or
        deactivated: a link sent before would otherwise set a password nobody can log in
        with, and tell its owner "Your password was reset"."""
        user = super().get_user(uidb64)
        return user if user is not None and user.is_active else None

    def form_valid(self, form: Form) -> HttpResponse:
        try:
            response = super().form_valid(form)
        except services.AccountClosed:
            return _closed_meanwhile(self.request)
        # Whoever followed the emailed link owns the account: let them log in at once,
        # here or wherever they were refused.
        throttle.lift_blocks_after_reset(username=form.user.get_username())
        services.confirm_email_after_reset(form.user)
        _say_keys_revoked(self.request, services.shut_out_others(form.user, reset=True))
        throttle.remember_device(self.request, response, form.user)
        return response


def _closed_meanwhile(request: HttpRequest) -> HttpResponse:
    """The answer to a form that would have written to an account closed while it was
    being sent (accounts.services.AccountClosed): nothing was written, and whoever sent it
    is logged out (the closure ended the account's sessions; this request began before)."""
    logout(request)
    messages.error(request, "This account is closed: nothing was changed.")
    return redirect("login")


# -- settings ---------------------------------------------------------------------------------


def _render_settings(request: HttpRequest, **forms: Form) -> HttpResponse:
    """The settings page, with any bound form (and its errors) in place of a blank one."""
    context = {
        "profile_form": ProfileForm(instance=request.user),
        "email_form": EmailChangeForm(user=request.user, ip=throttle.client_ip(request)),
        "token_form": ApiTokenForm(user=request.user, ip=throttle.client_ip(request)),
        "away_form": AwayForm(user=request.user),
        **forms,
        "email_change_waiting": services.email_change_waiting(request.user),
        "tokens": ApiToken.objects.filter(user=request.user),
        "blocks": blocks.blocks_of(request.user),
        "away_days_left": away.days_left(request.user),
        "away_days_per_year": settings.AWAY_DAYS_PER_YEAR,
        "last_used_minutes": int(LAST_USED_RESOLUTION.total_seconds() // 60),
    }
    for form in forms.values():
        focus_first_error(form)
    return render(request, "accounts/settings.html", context)


@login_required
@never_cache
@require_http_methods(["GET", "POST"])
def settings_page(request: HttpRequest) -> HttpResponse:
    """The player's settings; POST saves the profile form."""
    # A copy of the account, not request.user itself: validating a form writes what was
    # sent onto its instance, refused or not, and the rest of the request reads the player
    # from request.user (a refused Asia/Tokyo still set the timezone cookie to it).
    if request.method != "POST":
        account = User.objects.get(pk=request.user.pk)
        return _render_settings(request, profile_form=ProfileForm(instance=account))
    with transaction.atomic():
        try:
            # Locked, and only the form's fields saved: a save of every column of a row
            # read earlier would put back what changed meanwhile (an address confirmed,
            # a new password, a closure: games.closing erases on the same lock).
            account = services.locked_active_account(request.user.pk)
        except services.AccountClosed:
            return _closed_meanwhile(request)
        form = ProfileForm(request.POST, instance=account)
        if form.is_valid():
            form.save(commit=False)
            account.save(update_fields=ProfileForm.Meta.fields)
    if not form.is_valid():
        return _render_settings(request, profile_form=form)
    request.user.refresh_from_db()  # so that the cookie names the new zone at once
    messages.success(request, "Your settings are saved.")
    return redirect("settings")


@login_required
@require_POST
def away_start(request: HttpRequest) -> HttpResponse:
    """Take time away: the player's clocks stand still until the day they chose."""
    form = AwayForm(request.POST, user=request.user)
    if form.is_valid():
        try:
            away.go_away(request.user, until=form.until())
        except away.AwayError as error:
            form.add_error("back_on", sentence(error))
        else:
            messages.success(
                request,
                f"You are away until {form.cleaned_data['back_on']:%-d %B}. Your clocks stand"
                " still until then; come back here if you are back sooner.",
            )
            return redirect("settings")
    if request.user.is_away() or not away.days_left(request.user):
        # The page has no time-away form while the player is away or has no days left
        # (accounts/settings.html), so a reason beside its field would never be seen (a
        # second "Take time away" from another tab was refused without a word): say it
        # at the top of the page instead.
        for reason in form.errors.get("back_on", []):
            messages.error(request, reason)
        return redirect("settings")
    return _render_settings(request, away_form=form)


@login_required
@require_http_methods(["GET", "POST"])
def close_account(request: HttpRequest) -> HttpResponse:
    """Close the account (games.closing), once the player has seen what it ends and given
    their password; then log them out, with a word on what was done."""
    user = request.user
    # Bound to any POST, an empty one too (not ``request.POST or None``): a POST without a
    # password is answered with "This field is required.", not with the blank form.
    data = request.POST if request.method == "POST" else None
    form = CloseAccountForm(data, user=user, ip=throttle.client_ip(request))
    if request.method == "POST" and form.is_valid():
        done = closing.close_account(user)
        logout(request)
        ended = [
            _count(done.matches_resigned, "match resigned", "matches resigned"),
            _count(done.challenges_withdrawn, "challenge withdrawn", "challenges withdrawn"),
            _count(done.challenges_declined, "challenge declined", "challenges declined"),
            _count(done.tournaments_left, "tournament left", "tournaments left"),
            _count(done.tournaments_called_off, "tournament called off", "tournaments called off"),
        ]
        ended = [part for part in ended if part]
        messages.success(
            request,
            "Your account is closed" + (f" ({', '.join(ended)})" if ended else "") + ". Goodbye,"
            " and thank you for playing.",
        )
        return redirect("home")
    context = {"form": form, "in_play": closing.in_play(user)}
    return render(request, "accounts/close.html", context)


def _count(n: int, one: str, many: str) -> str:
    return "" if not n else f"1 {one}" if n == 1 else f"{n} {many}"


@login_required
@require_POST
def away_end(request: HttpRequest) -> HttpResponse:
    """Come back early: the player's clocks run again, with the time they had left; then
    go on to ``next`` (the match the player came back to play) or the settings."""
    try:
        away.come_back(request.user)
    except away.AwayError as error:
        messages.error(request, sentence(error))
    else:
        messages.success(request, "Welcome back: your clocks run again.")
    next_url = _safe_next(request, request.POST.get("next", ""))
    return HttpResponseRedirect(next_url) if next_url else redirect("settings")


@login_required
@require_POST
def email_change(request: HttpRequest) -> HttpResponse:
    """Send a confirmation link to the new address, once the player has given their
    password; the address changes when the link is used."""
    form = EmailChangeForm(request.POST, user=request.user, ip=throttle.client_ip(request))
    if not form.is_valid():
        return _render_settings(request, email_form=form)
    new_email = form.cleaned_data["email"]
    try:
        services.request_email_change(request.user, new_email=new_email)
    except services.EmailChangeLimited as error:
        form.add_error("email", str(error))
        response = _render_settings(request, email_form=form)
        response.status_code = 429
        return response
    except (smtplib.SMTPException, OSError) as error:
        # No traceback: its frames hold the link, and a link is as good as a password.
        logger.warning(
            "Could not send an email-change link for user %s: %s",
            request.user.pk,
            failure_in_words(error),
        )
        messages.error(request, "We could not send the email just now. Please try again later.")
        return redirect("settings")
    messages.success(
        request,
        f"We have sent a link to {new_email}. Follow it within "
        f"{services.EMAIL_CHANGE_MAX_AGE.days} days to start using that address.",
    )
    return redirect("settings")


@login_required
@never_cache
@require_http_methods(["GET", "POST"])
def email_change_confirm(request: HttpRequest, token: str) -> HttpResponse:
    """GET asks, POST changes the address. An unusable link is answered with 200, like
    Django's password reset: 4xx responses are logged with their path, which holds the token.
    """
    try:
        if request.method == "POST":
            new_email = services.confirm_email_change(request.user, token=token)
            messages.success(request, f"Your email address is now {new_email}.")
            return redirect("settings")
        change = services.pending_email_change(request.user, token=token)
    except services.EmailChangeError as error:
        return render(request, "accounts/email_change_confirm.html", {"error": str(error)})
    return render(request, "accounts/email_change_confirm.html", {"change": change})


@login_required
@require_POST
def email_verify_send(request: HttpRequest) -> HttpResponse:
    """Send the link that confirms the player's address again (the button beside the
    notice on the dashboard and the settings page), a few times an hour at most; then go
    back to ``next``, the page the button was on, with a word on what was done."""
    user = request.user
    try:
        if not user.email:
            raise services.EmailConfirmationError(
                "Your account has no email address to confirm: give one in your settings."
            )
        services.send_email_confirmation(user, again=True)
        messages.success(
            request,
            f"We have sent a new link to {user.email}. Follow it within"
            f" {services.EMAIL_CONFIRM_MAX_AGE.days} days to get your game emails.",
        )
    except services.AlreadyConfirmed as done:
        messages.info(request, str(done))
    except (services.EmailConfirmationError, services.EmailConfirmationLimited) as refused:
        messages.error(request, str(refused))
    next_url = _safe_next(request, request.POST.get("next", ""))
    return HttpResponseRedirect(next_url) if next_url else redirect("settings")


@never_cache
@require_http_methods(["GET", "POST"])
def email_verify(request: HttpRequest, token: str) -> HttpResponse:
    """The link sent to confirm an account's address: GET asks, POST confirms (mail
    scanners fetch the links in emails, and must not confirm an address nobody read).
    No login needed: the link proves the address; but a player logged in as someone else
    is refused. Unusable links get 200, as email_change_confirm's do."""
    template = "accounts/email_verify.html"
    try:
        if request.method == "POST":
            user = services.confirm_email_address(token, viewer=request.user)
            if not request.user.is_authenticated:
                return render(request, template, {"confirmed": user})
            messages.success(request, f"Your email address {user.email} is confirmed.")
            return redirect("dashboard")
        person = services.pending_email_confirmation(token, viewer=request.user)
    except services.AlreadyConfirmed as done:
        return render(request, template, {"already": str(done)})
    except services.EmailConfirmationError as error:
        return render(request, template, {"error": str(error)})
    return render(request, template, {"person": person})


@never_cache
@require_http_methods(["GET", "POST"])
def email_change_undo(request: HttpRequest, user_id: int, secret: str) -> HttpResponse:
    """The link sent to the address an account had before its address changed: GET asks,
    POST puts that address back, ends every session and sends it a password reset link.
    No login: its owner may no longer be able to log in. Unusable links get 200, as
    email_change_confirm's do (the path holds the secret; see aceysite.log_filters)."""
    template = "accounts/email_change_undo.html"
    try:
        if request.method == "POST":
            user = services.undo_email_change(user_id, secret)
            # Not the usual "ignore this if you did not ask": the old password is gone, and
            # this link is the way back in. The page says whether it went.
            sent = services.send_password_reset_link(
                user,
                template="accounts/email/undo_password_reset.txt",
                failed="The password reset link after an undo was not sent",
            )
            return render(request, template, {"undone": user, "reset_sent": sent})
        person = services.undo_pending(user_id, secret)
    except services.EmailChangeError as error:
        return render(request, template, {"error": str(error)})
    return render(request, template, {"person": person})


@login_required
@never_cache
@require_POST
def token_create(request: HttpRequest) -> HttpResponse:
    """Issue an API key and show it, this once: only its hash is kept (and the key itself
    never leaves this response). The form's ``once`` value is spent with it, so that the
    same form sent again (reloading this page) issues no second key."""
    form = ApiTokenForm(request.POST, user=request.user, ip=throttle.client_ip(request))
    once = request.POST.get("once", "")
    spent = request.session.get(SPENT_KEY_FORMS, [])
    if once and once in spent:
        messages.info(
            request,
            "That key was created already, and a key is shown only once. If you did not"
            " copy it, revoke it and create another.",
        )
        return redirect("settings")
    if form.is_valid() and request.user.api_tokens.filter(name=form.cleaned_data["name"]).exists():
        # Keys are told apart by name on the settings page and in its Revoke buttons.
        form.add_error("name", "You already have a key with this name: choose another.")
    if not form.is_valid():
        return _render_settings(request, token_form=form)
    with transaction.atomic():
        # Read afresh, under its lock: a closure or an email-change undo that committed
        # after this request was let in revokes every key, and must not be outlived by one
        # made now (both lock the account, and change its password).
        account = User.objects.select_for_update().get(pk=request.user.pk)
        if not account.is_active or account.password != request.user.password:
            logout(request)
            return redirect_to_login(reverse("settings"))
        token, key = ApiToken.issue(account, form.cleaned_data["name"])
    if once:
        request.session[SPENT_KEY_FORMS] = [*spent[-19:], once]
    return render(request, "accounts/token_created.html", {"token": token, "key": key})


SPENT_KEY_FORMS = "spent_api_key_forms"


@login_required
@require_http_methods(["GET", "POST"])
def token_revoke(request: HttpRequest, token_id: int) -> HttpResponse:
    """Revoke one of the player's API keys: GET asks first (the programs using the key stop
    at once, and a revoked key cannot be restored), POST revokes it."""
    token = ApiToken.objects.filter(pk=token_id, user=request.user).first()
    if token is None:
        # Most often revoked a moment ago (the form sent twice, or its page kept open): say
        # so where the keys are listed, as a "may": another player's key (a guessed id)
        # reads the same, so that nobody learns whether a key is there, and true for it.
        messages.info(
            request, "That key is not among your keys (it may have been revoked already)."
        )
        return redirect(reverse("settings") + "#tokens-h")
    if request.method == "GET":
        return render(request, "accounts/token_revoke.html", {"token": token})
    token.delete()
    messages.success(request, f"The key “{token.name}” ({token.prefix}…) no longer works.")
    return redirect(reverse("settings") + "#tokens-h")


# -- profile ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class PlayerMatch:
    """A match seen from one player's side."""

    match: Match
    opponent: User
    own_score: int
    opponent_score: int
    won: bool
    to_move: bool
    #: The player's rating change from a finished rated match: None for a match still
    #: under way, a casual one, or one that ended before both players had moved.
    rating_change: RatingChange | None = None

    @classmethod
    def of(
        cls, match: Match, player: User, rating_change: RatingChange | None = None
    ) -> PlayerMatch:
        as_white = match.white_id == player.pk
        return cls(
            rating_change=rating_change,
            match=match,
            opponent=match.black if as_white else match.white,
            own_score=match.score_white if as_white else match.score_black,
            opponent_score=match.score_black if as_white else match.score_white,
            won=match.winner_id == player.pk,
            to_move=match.to_move_id == player.pk,
        )


class FinishedMatches:
    """A player's finished matches, latest first, as Paginator reads them: counted, and a
    page read with the matches before it (MatchQuerySet.latest_finished), not sorted out
    of the player's whole history."""

    def __init__(self, matches: MatchQuerySet, player: User) -> None:
        # ``matches``: the player's, as Match.objects.involving(player) selects them.
        self.matches, self.player = matches, player

    def count(self) -> int:
        return self.matches.finished().count()

    def __getitem__(self, page: slice) -> MatchQuerySet:
        return self.matches.latest_finished(self.player, page.stop, start=page.start)


def _local_time(person: User) -> datetime | None:
    zone = person.zone
    return timezone.now().astimezone(zone) if zone is not None else None


@require_safe
# pygal styles its SVG with an inline <style>; the image runs no script.
@csp_override({"default-src": [CSP.NONE], "style-src": [CSP.UNSAFE_INLINE]})
def rating_chart(request: HttpRequest, username: str, variant: str) -> HttpResponse:
    """The player's rating history in one variant, as an SVG image."""
    if variant not in ("american", "greek"):
        raise Http404("no such variant")
    person = services.named_in_any_case(username)
    if person.username != username:  # as the profile's address, in any case
        return redirect("rating_chart", person.username, variant, permanent=True)
    return HttpResponse(rating_chart_svg(person, variant), content_type="image/svg+xml")


@require_safe
def profile(request: HttpRequest, username: str) -> HttpResponse:
    """A player's page: ratings, record and matches. A closed account's page stays, with
    its history, since its username stays on the matches that link here."""
    person = services.named_in_any_case(username)
    if person.username != username:  # /players/Alice/ for alice: sent to her own address
        return redirect("profile", person.username, permanent=True)
    if not person.is_active:
        # Closed, or deactivated by the staff: the page names the account by its username
        # only (str(User)) and shows nothing it said of itself.
        person.about = person.country = ""
    matches = Match.objects.involving(person).select_related("white", "black")
    finished = Paginator(FinishedMatches(matches, person), MATCHES_PER_PAGE).get_page(
        request.GET.get("page")
    )
    current = matches.active().order_by("deadline", "pk")
    # Each finished match's change to the player's rating, in one query: a rated match
    # without one ended before both had moved, which the list says rather than "rated".
    changes = {
        change.match_id: change
        for change in RatingChange.objects.filter(
            user=person, match__in=[match.pk for match in finished if match.rated]
        )
    }
    context = {
        "person": person,
        "local_time": _local_time(person) if person.is_active else None,
        "records": variant_records(person),
        "head_to_head": head_to_head(person, request.user),
        "page": finished,
        "results": [PlayerMatch.of(match, person, changes.get(match.pk)) for match in finished],
        "current": [PlayerMatch.of(match, person) for match in current],
        "tournaments": player_tournaments(person),
        # Who of the two has blocked the other (games.blocks): the Block or Unblock
        # button, and no "Challenge" link that would only be refused.
        "blockers": (
            blocks.blockers_between(request.user, person)
            if request.user.is_authenticated and request.user.pk != person.pk
            else set()
        ),
    }
    return render(request, "accounts/profile.html", context)
