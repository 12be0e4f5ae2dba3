from django.contrib import admin, messages
from django.contrib.admin.utils import unquote
from django.contrib.auth.admin import UserAdmin
from django.contrib.auth.forms import AdminUserCreationForm, UserChangeForm
from django.core.exceptions import ValidationError
from django.db import transaction
from django.http import HttpRequest, HttpResponse

from .forms import LOOKS_TAKEN
from .models import User
from .services import shut_out_others, username_holder


def _refuse_look_alike(username: str, account: User) -> str:
    """Staff naming an account are held to what sign-up holds players to: no username that
    reads as another account's (the database's unique username_key would refuse it with a
    server error)."""
    holder = username_holder(username) if username else None
    if holder is not None and holder.pk != account.pk:
        raise ValidationError(LOOKS_TAKEN, code="looks_taken")
    return username


class PlayerChangeForm(UserChangeForm):
    def clean_username(self) -> str:
        return _refuse_look_alike(self.cleaned_data["username"], self.instance)

    def save(self, commit: bool = True) -> User:
        if "email" in self.changed_data:
            # An address staff typed is nobody's proof: game emails wait until its owner
            # confirms it (their dashboard asks them to).
            self.instance.email_confirmed_at = None
        return super().save(commit)


class PlayerCreationForm(AdminUserCreationForm):
    def clean_username(self) -> str:
        return _refuse_look_alike(super().clean_username(), self.instance)


@admin.register(User)
class PlayerAdmin(UserAdmin):
    form = PlayerChangeForm
    add_form = PlayerCreationForm
    fieldsets = (
        *UserAdmin.fieldsets,
        ("Email address", {"fields": ("email_confirmed_at",)}),
        ("Profile", {"fields": ("display_name", "about", "country", "timezone")}),
    )
    # Only a link sent to the address confirms it.
    readonly_fields = ("email_confirmed_at",)
    list_display = ("username", "display_name", "email", "country", "is_staff")

    def user_change_password(
        self, request: HttpRequest, id: str, form_url: str = ""
    ) -> HttpResponse:
        """Django's page for staff to set or disable an account's password; a new one (or
        none) revokes the account's API keys and is told to its address, as a player's own
        change is (:func:`accounts.services.shut_out_others`)."""
        with transaction.atomic():
            account = self.get_object(request, unquote(id))
            before = account.password if account is not None else None
            response = super().user_change_password(request, id, form_url)
            if account is None or request.method != "POST":
                return response
            account.refresh_from_db()
            # Every password set, and every disabling, stores a new hash (a fresh salt or
            # random marker): a form refused, or a conflicting submission, stores none.
            if account.password != before:
                revoked = shut_out_others(account, reset=False, by_staff=True)
                messages.info(request, _what_the_new_password_did(account, revoked))
        return response


def _what_the_new_password_did(account: User, revoked: int) -> str:
    keys = {0: "It had no API keys", 1: "Its API key was revoked"}.get(
        revoked, f"Its {revoked} API keys were revoked"
    )
    told = " and its address was told" if account.email else " (it has no address to tell)"
    return f"{keys}{told}."
