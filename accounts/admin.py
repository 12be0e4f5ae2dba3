from django.contrib import admin
from django.contrib.auth.admin import UserAdmin

from .models import User


@admin.register(User)
class PlayerAdmin(UserAdmin):
    fieldsets = (
        *UserAdmin.fieldsets,
        ("Profile", {"fields": ("display_name", "about", "country", "timezone")}),
    )
    list_display = ("username", "display_name", "email", "country", "is_staff")
