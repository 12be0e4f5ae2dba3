from django.contrib import admin
from django.contrib.auth.admin import UserAdmin
from django.contrib.auth.forms import AdminUserCreationForm, UserChangeForm
from django.core.exceptions import ValidationError

from .forms import LOOKS_TAKEN
from .models import User
from .services import username_holder


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
