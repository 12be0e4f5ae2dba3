"""Forms that write to an account racing another writer of it, against real PostgreSQL:
a settings save, a new password, a closure. Each writes on the account's locked row, and
only its own fields: none puts back what another wrote meanwhile (a closed account open
again with its erased address, a new password undone), and a closure sent twice at once
closes once, with one email."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client
from django.urls import reverse

from games import closing

from .locks import all_waiting_on

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

OLD = "correct horse battery"  # the alice fixture's password
NEW = "a new and long passphrase"


def _logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _fresh(user):
    return get_user_model().objects.get(pk=user.pk)


def _save_settings(client: Client):
    return client.post(
        reverse("settings"),
        {
            "display_name": "Alice L",
            "about": "",
            "country": "",
            "timezone": "UTC",
            "email_preference": "every_turn",
        },
    )


def test_a_settings_save_does_not_undo_a_new_password_set_meanwhile(postgres_url, alice):
    client = _logged_in(alice)

    def new_password() -> None:
        account = get_user_model().objects.select_for_update().get(pk=alice.pk)
        account.set_password(NEW)
        account.save(update_fields=["password"])

    [answer] = all_waiting_on(new_password, lambda: _save_settings(client))

    assert answer.status_code == 302, answer
    account = _fresh(alice)
    assert account.display_name == "Alice L"  # the settings saved
    assert account.check_password(NEW)  # and the password kept
    assert not account.check_password(OLD)


def test_a_settings_save_does_not_open_again_an_account_closed_meanwhile(postgres_url, alice):
    client = _logged_in(alice)

    [answer] = all_waiting_on(
        lambda: closing.close_account(_fresh(alice)), lambda: _save_settings(client)
    )

    assert answer.status_code == 302 and answer.url == reverse("login"), answer
    account = _fresh(alice)
    assert not account.is_active
    assert (account.email, account.display_name) == ("", "")


def test_a_new_password_does_not_open_again_an_account_closed_meanwhile(postgres_url, alice):
    client = _logged_in(alice)

    def change_password():
        return client.post(
            reverse("password_change"),
            {"old_password": OLD, "new_password1": NEW, "new_password2": NEW},
        )

    [answer] = all_waiting_on(lambda: closing.close_account(_fresh(alice)), change_password)

    assert answer.status_code == 302 and answer.url == reverse("login"), answer
    account = _fresh(alice)
    assert not account.is_active
    assert account.email == ""
    assert not account.has_usable_password()


def test_an_account_closed_from_two_tabs_at_once_is_closed_once_with_one_email(postgres_url, alice):
    # Each request holds the account as it read it, before either closed it.
    tabs = [_fresh(alice), _fresh(alice)]
    mail.outbox = []

    def hold() -> None:
        get_user_model().objects.select_for_update().get(pk=alice.pk)

    results = all_waiting_on(
        hold, *(lambda tab=tab: closing.close_account(tab) for tab in tabs), in_turn=True
    )

    assert not [result for result in results if isinstance(result, Exception)], results
    closed = [message for message in mail.outbox if "account is closed" in message.subject]
    assert [message.to for message in closed] == [["alice@example.com"]]
    assert not _fresh(alice).is_active
