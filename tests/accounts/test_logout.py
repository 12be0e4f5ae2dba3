import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_it_says_so_on_the_page_after_logging_out(client, alice):
    client.force_login(alice)

    response = client.post(reverse("logout"), follow=True)

    assert response.redirect_chain == [(reverse("home"), 302)]
    assert '<li class="message-success">You are logged out.</li>' in response.text
    assert "_auth_user_id" not in client.session


def test_the_message_is_shown_once(client, alice):
    client.force_login(alice)
    client.post(reverse("logout"), follow=True)

    again = client.get(reverse("home"))

    assert "You are logged out." not in again.text
