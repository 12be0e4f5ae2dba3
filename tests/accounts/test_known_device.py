"""The login throttle must not lock real players out (accounts.throttle): a browser they
have logged in from is known by a signed cookie and let past the blocks others' failures
bring about, and a password reset by email lifts the blocks on their username."""

from __future__ import annotations

import re

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse

from accounts import throttle
from accounts.models import User

pytestmark = pytest.mark.django_db

PASSWORD = "correct horse battery"
NEW = "a brand new passphrase"
HOME = "198.51.100.7"
NAT = "203.0.113.9"


def log_in(client: Client, username: str, password: str = PASSWORD, ip: str = HOME):
    return client.post(
        reverse("login"), {"username": username, "password": password}, REMOTE_ADDR=ip
    )


def known_browser(username: str = "alice", ip: str = HOME) -> Client:
    """A browser the player has logged in from before (and logged out of since)."""
    browser = Client()
    assert log_in(browser, username, ip=ip).status_code == 302
    browser.post(reverse("logout"))
    return browser


def spread_failures(username: str = "alice") -> None:
    """Failures for ``username`` from 20 addresses, each under its own limit: enough to
    block the username from everywhere."""
    for n in range(20):
        for _ in range(throttle.MAX_FAILURES_PER_USERNAME_AND_IP):
            log_in(Client(), username, "wrong", ip=f"192.0.2.{n}")


def block_the_address(ip: str = NAT) -> None:
    """Failures of made-up usernames from one address (a carrier's NAT, say)."""
    for n in range(throttle.MAX_FAILURES_PER_IP):
        log_in(Client(), f"nobody{n}", "wrong", ip=ip)


def reset_password(browser: Client, ip: str) -> None:
    """Set a new password for alice through the emailed link, in ``browser`` at ``ip``."""
    browser.post(reverse("password_reset"), {"email": "alice@example.com"}, REMOTE_ADDR=ip)
    link = re.search(r"https?://\S+?(/accounts/password/reset/\S+)", mail.outbox[-1].body)
    form_page = browser.get(link.group(1), follow=True, REMOTE_ADDR=ip)
    done = browser.post(
        form_page.redirect_chain[-1][0],
        {"new_password1": NEW, "new_password2": NEW},
        REMOTE_ADDR=ip,
    )
    assert done.status_code == 302


def test_failures_from_many_addresses_do_not_lock_the_owner_out_of_a_browser_she_knows(alice):
    browser = known_browser()
    spread_failures()

    owner = log_in(browser, "alice")
    stranger = log_in(Client(), "alice")

    assert owner.status_code == 302
    assert stranger.status_code == 429  # the username is still guarded from everywhere


def test_failures_from_a_shared_address_do_not_lock_out_those_it_knows(alice, bob):
    browser = known_browser(ip=NAT)
    block_the_address(NAT)

    owner = log_in(browser, "alice", ip=NAT)
    stranger = log_in(Client(), "bob", ip=NAT)

    assert owner.status_code == 302
    assert stranger.status_code == 429


def test_someone_at_the_same_address_cannot_lock_out_a_browser_it_knows(alice):
    browser = known_browser(ip=NAT)
    for _ in range(throttle.MAX_FAILURES_PER_USERNAME_AND_IP):
        log_in(Client(), "alice", "wrong", ip=NAT)

    response = log_in(browser, "alice", ip=NAT)

    assert response.status_code == 302


def test_a_known_browser_gets_no_more_guesses_than_one_address(alice):
    browser = known_browser()
    # From a new address each time: the cookie, not the address, is what is counted.
    for n in range(throttle.MAX_FAILURES_PER_USERNAME_AND_DEVICE):
        assert log_in(browser, "alice", "wrong", ip=f"192.0.2.{n}").status_code == 200

    response = log_in(browser, "alice", ip="192.0.2.99")

    assert response.status_code == 429


def test_a_browser_known_for_one_player_is_not_known_for_another(alice, bob):
    browser = known_browser("alice")
    spread_failures("bob")

    response = log_in(browser, "bob")

    assert response.status_code == 429


def test_a_forged_cookie_is_worth_nothing(alice):
    browser = known_browser()
    browser.cookies[throttle.KNOWN_DEVICE_COOKIE] = (
        browser.cookies[throttle.KNOWN_DEVICE_COOKIE].value + "x"
    )
    spread_failures()

    response = log_in(browser, "alice")

    assert response.status_code == 429


def test_a_browser_is_no_longer_known_once_the_password_has_changed(alice):
    browser = known_browser()  # a shared computer, say, that she has since left
    alice.set_password(NEW)
    alice.save()
    spread_failures()

    response = log_in(browser, "alice", NEW)

    assert response.status_code == 429


def test_the_cookie_is_long_lived_and_kept_from_scripts_and_other_sites(client, alice, settings):
    settings.SESSION_COOKIE_SECURE = True

    response = log_in(client, "alice")

    cookie = response.cookies[throttle.KNOWN_DEVICE_COOKIE]
    assert cookie["httponly"] and cookie["secure"]
    assert cookie["samesite"] == "Lax"
    assert cookie["max-age"] == 365 * 24 * 3600


def test_a_failed_login_sets_no_cookie(client, alice):
    response = log_in(client, "alice", "wrong")

    assert throttle.KNOWN_DEVICE_COOKIE not in response.cookies


def test_one_browser_is_known_for_each_player_who_logged_in_there(alice, bob):
    browser = known_browser("alice")
    assert log_in(browser, "bob").status_code == 302
    browser.post(reverse("logout"))
    spread_failures("alice")
    spread_failures("bob")

    assert log_in(browser, "alice").status_code == 302
    browser.post(reverse("logout"))
    assert log_in(browser, "bob").status_code == 302


def test_a_reset_lifts_the_blocks_on_the_username_where_it_was_made(alice):
    block_the_address(NAT)
    spread_failures()
    browser = Client()  # never logged in here
    assert log_in(browser, "alice", ip=NAT).status_code == 429

    reset_password(browser, ip=NAT)

    assert log_in(browser, "alice", NEW, ip=NAT).status_code == 302


def test_a_reset_made_on_another_device_lifts_the_blocks_too(alice):
    block_the_address(NAT)
    for _ in range(throttle.MAX_FAILURES_PER_USERNAME_AND_IP):
        log_in(Client(), "alice", "wrong", ip=NAT)
    laptop = Client()
    assert log_in(laptop, "alice", ip=NAT).status_code == 429

    reset_password(Client(), ip="192.0.2.200")  # on her phone, away from the NAT

    assert log_in(laptop, "alice", NEW, ip=NAT).status_code == 302


def test_a_reset_does_not_unblock_the_address_for_anyone_else(alice, bob):
    block_the_address(NAT)

    reset_password(Client(), ip=NAT)

    assert log_in(Client(), "bob", ip=NAT).status_code == 429


def test_the_browser_that_made_the_reset_is_known_afterwards(alice):
    browser = Client()
    reset_password(browser, ip=HOME)
    spread_failures()

    response = log_in(browser, "alice", NEW)

    assert response.status_code == 302


def test_a_password_changed_in_the_settings_keeps_the_browser_known(client, alice):
    assert log_in(client, "alice").status_code == 302
    client.post(
        reverse("password_change"),
        {"old_password": PASSWORD, "new_password1": NEW, "new_password2": NEW},
        REMOTE_ADDR=HOME,
    )
    client.post(reverse("logout"))
    spread_failures()

    response = log_in(client, "alice", NEW)

    assert response.status_code == 302


def test_the_refusal_says_what_will_help(alice):
    spread_failures()

    response = log_in(Client(), "alice")

    assert response.status_code == 429
    assert "Too many failed login attempts" in response.text
    assert "reset your password by email" in response.text
    assert "log in at once" in response.text


def test_a_players_cookie_outlives_an_unknown_username_lookup(alice):
    # A known browser trying a name nobody has is counted as any browser is.
    browser = known_browser()
    for _ in range(throttle.MAX_FAILURES_PER_USERNAME_AND_IP):
        log_in(browser, "nobody", "wrong")

    assert log_in(browser, "nobody", "wrong").status_code == 429
    assert User.objects.filter(username="nobody").count() == 0


def test_the_browser_that_signed_up_is_known_afterwards():
    browser = Client()
    signed_up = browser.post(
        reverse("signup"),
        {
            "username": "leo",
            "email": "leo@example.com",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
        REMOTE_ADDR=HOME,
    )
    assert signed_up.status_code == 302
    browser.post(reverse("logout"))
    spread_failures("leo")

    owner = log_in(browser, "leo")
    stranger = log_in(Client(), "leo")

    assert owner.status_code == 302
    assert stranger.status_code == 429
