from django import forms
from django.contrib.auth.forms import UserCreationForm

from .models import User


class SignupForm(UserCreationForm):
    email = forms.EmailField(
        required=True, help_text="Used to tell you when it is your turn to move."
    )

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "email")
