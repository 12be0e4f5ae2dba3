import pytest
from django.urls import reverse

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
