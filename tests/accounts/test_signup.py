import pytest
from django.urls import reverse

from accounts.forms import SignupForm
from accounts.models import User

pytestmark = pytest.mark.django_db


def signup_data(username: str, email: str) -> dict:
    password = "a long enough passphrase"
    return {"username": username, "email": email, "password1": password, "password2": password}


def test_it_creates_an_account_and_logs_in(client):
    response = client.post(reverse("signup"), signup_data("alice", "alice@example.com"))

    assert response.status_code == 302
    user = User.objects.get(username="alice")
    assert user.email == "alice@example.com"
    assert client.session["_auth_user_id"] == str(user.pk)


def test_it_refuses_an_email_already_in_use_whatever_its_case(client, alice):
    response = client.post(reverse("signup"), signup_data("bob", "Alice@Example.COM"))

    assert response.status_code == 200
    assert "An account with this email address already exists" in response.text
    assert not User.objects.filter(username="bob").exists()


def test_it_refuses_an_address_taken_after_the_form_checked_it():
    form = SignupForm(signup_data("bob", "bob@example.com"))
    assert form.is_valid()
    # Another sign-up with the same address commits between the form's check and the save.
    User.objects.create_user(username="robert", email="BOB@example.com")

    user = form.save_unless_taken()

    assert user is None
    assert form.errors["email"][0].startswith("An account with this email address already")
    assert not User.objects.filter(username="bob").exists()


def test_it_refuses_a_username_taken_after_the_form_checked_it():
    form = SignupForm(signup_data("bob", "bob@example.com"))
    assert form.is_valid()
    User.objects.create_user(username="bob", email="robert@example.com")

    user = form.save_unless_taken()

    assert user is None
    assert form.errors["username"] == ["A user with that username already exists."]
    assert User.objects.get(username="bob").email == "robert@example.com"
