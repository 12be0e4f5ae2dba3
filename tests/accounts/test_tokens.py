"""API keys on the settings page: create (shown once), list, revoke."""

import re

import pytest
from django.urls import reverse

from accounts.models import ApiToken, User

pytestmark = pytest.mark.django_db

PASSWORD = "correct horse battery"


def test_it_creates_a_key_and_shows_it_once(client, alice):
    client.force_login(alice)

    response = client.post(reverse("token_create"), {"name": "my bot", "password": PASSWORD})

    assert response.status_code == 200
    assert "it will not be shown again" in response.text
    assert "no-store" in response["Cache-Control"]
    token = ApiToken.objects.get(user=alice)
    key = response.context["key"]
    assert token.name == "my bot"
    assert key in response.text
    assert ApiToken.user_for_key(key) == alice
    settings_page = client.get(reverse("settings"))
    assert token.prefix in settings_page.text
    assert key not in settings_page.text


def test_sending_the_same_form_again_neither_shows_a_key_nor_makes_another(client, alice):
    client.force_login(alice)
    settings_page = client.get(reverse("settings")).text
    once = re.search(r'name="once" value="([^"]+)"', settings_page).group(1)
    form = {"name": "my bot", "once": once, "password": PASSWORD}
    key = client.post(reverse("token_create"), form).context["key"]

    again = client.post(reverse("token_create"), form, follow=True)  # the page reloaded

    assert again.redirect_chain == [(reverse("settings"), 302)]
    assert key not in again.text
    assert "That key was created already" in again.text
    assert ApiToken.objects.filter(user=alice).count() == 1
    assert key not in str(dict(client.session))  # the key itself is kept nowhere


def test_two_keys_of_one_player_may_not_share_a_name(client, alice, bob):
    ApiToken.issue(alice, "my bot")
    ApiToken.issue(bob, "my bot")  # another player's name does not count
    client.force_login(alice)

    response = client.post(reverse("token_create"), {"name": "my bot", "password": PASSWORD})

    assert response.status_code == 200
    assert "You already have a key with this name" in response.text
    assert ApiToken.objects.filter(user=alice).count() == 1


def test_it_requires_a_name_for_a_key(client, alice):
    client.force_login(alice)

    response = client.post(reverse("token_create"), {"name": "", "password": PASSWORD})

    assert response.status_code == 200
    assert "This field is required" in response.text
    assert not ApiToken.objects.exists()


def test_it_lists_only_my_keys(client, alice, bob):
    ApiToken.issue(alice, "alice's bot")
    ApiToken.issue(bob, "bob's bot")
    client.force_login(alice)

    response = client.get(reverse("settings"))

    assert "alice&#x27;s bot" in response.text
    assert "bob&#x27;s bot" not in response.text
    assert "never used" in response.text


def test_it_revokes_my_key(client, alice):
    token, key = ApiToken.issue(alice, "my bot")
    client.force_login(alice)

    response = client.post(reverse("token_revoke", args=[token.pk]))

    assert response.status_code == 302
    assert not ApiToken.objects.filter(pk=token.pk).exists()
    assert ApiToken.user_for_key(key) is None


def test_it_does_not_let_an_outsider_revoke_a_key(client, alice, charlie):
    token, _ = ApiToken.issue(alice, "my bot")
    client.force_login(charlie)

    response = client.post(reverse("token_revoke", args=[token.pk]), follow=True)

    assert "it may have been revoked already" in response.text  # as for a key of one's own gone
    assert ApiToken.objects.filter(pk=token.pk).exists()


def test_the_settings_page_asks_before_revoking_a_key(client, alice):
    token, _ = ApiToken.issue(alice, "my bot")
    client.force_login(alice)
    settings_page = client.get(reverse("settings")).text
    # The key's Revoke is a link to a page that asks, not a form that revokes at once.
    assert f'action="{reverse("token_revoke", args=[token.pk])}"' not in settings_page
    assert f'href="{reverse("token_revoke", args=[token.pk])}"' in settings_page

    response = client.get(reverse("token_revoke", args=[token.pk]))

    assert response.status_code == 200
    assert "Revoke the key “my bot”?" in response.text
    assert token.prefix in response.text
    assert '<form method="post">' in response.text
    assert "Yes, revoke the key" in response.text
    assert ApiToken.objects.filter(pk=token.pk).exists()


def test_an_outsider_is_not_asked_about_a_key_not_theirs(client, alice, charlie):
    token, _ = ApiToken.issue(alice, "alice's tournament bot")
    client.force_login(charlie)

    response = client.get(reverse("token_revoke", args=[token.pk]), follow=True)

    assert response.redirect_chain == [("/accounts/settings/#tokens-h", 302)]
    assert "tournament bot" not in response.text


def test_it_sends_anonymous_visitors_to_log_in_instead_of_revoking(client, alice):
    token, _ = ApiToken.issue(alice, "my bot")

    response = client.post(reverse("token_revoke", args=[token.pk]))

    assert response.status_code == 302
    assert ApiToken.objects.filter(pk=token.pk).exists()


def test_it_records_when_a_key_was_last_used_without_writing_on_every_request(alice):
    from datetime import timedelta

    from django.utils import timezone

    from accounts.models import ApiToken

    token, key = ApiToken.issue(alice, "bot")

    ApiToken.user_for_key(key)
    first = ApiToken.objects.get(pk=token.pk).last_used_at
    ApiToken.user_for_key(key)
    second = ApiToken.objects.get(pk=token.pk).last_used_at
    ApiToken.objects.filter(pk=token.pk).update(last_used_at=first - timedelta(hours=1))
    ApiToken.user_for_key(key)
    third = ApiToken.objects.get(pk=token.pk).last_used_at

    assert first is not None and second == first
    assert third > timezone.now() - timedelta(minutes=1)


def test_a_key_used_lately_says_so_rather_than_0_minutes_ago(client, alice):
    from datetime import timedelta

    from django.utils import timezone

    lately, _ = ApiToken.issue(alice, "lately")
    long_ago, _ = ApiToken.issue(alice, "long ago")
    ApiToken.objects.filter(pk=lately.pk).update(last_used_at=timezone.now())
    ApiToken.objects.filter(pk=long_ago.pk).update(last_used_at=timezone.now() - timedelta(hours=3))
    client.force_login(alice)

    text = client.get(reverse("settings")).text

    assert "used in the last 10 minutes" in text
    assert "last used <time" in text and "3\xa0hours ago" in text
    assert "0\xa0minutes ago" not in text


def test_a_key_asked_for_as_an_undo_ends_the_session_is_not_made(client, alice, monkeypatch):
    from accounts.forms import ApiTokenForm

    def undone_meanwhile(form):
        # As an email-change undo committing while this request runs: a new password.
        User.objects.filter(pk=alice.pk).update(password="!changed")
        return form.cleaned_data

    monkeypatch.setattr(ApiTokenForm, "clean", undone_meanwhile)
    client.force_login(alice)

    response = client.post(
        reverse("token_create"), {"name": "the taker's key", "password": PASSWORD}
    )

    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))
    assert not ApiToken.objects.filter(user=alice).exists()


def test_a_key_needs_the_players_password(client, alice):
    client.force_login(alice)

    without = client.post(reverse("token_create"), {"name": "my bot"})
    wrong = client.post(reverse("token_create"), {"name": "my bot", "password": "guess"})

    assert without.status_code == wrong.status_code == 200
    assert "This field is required" in without.text
    assert "That is not your password." in wrong.text
    assert not ApiToken.objects.exists()


def test_wrong_passwords_for_a_key_count_with_the_login_failures(client, alice):
    client.force_login(alice)
    for _ in range(5):
        client.post(reverse("token_create"), {"name": "my bot", "password": "guess"})

    response = client.post(reverse("token_create"), {"name": "my bot", "password": PASSWORD})

    assert "Too many wrong passwords" in response.text
    assert not ApiToken.objects.exists()
