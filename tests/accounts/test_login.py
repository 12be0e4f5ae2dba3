"""Logging in, and the limit on failed attempts (accounts.throttle)."""

import doctest
import time

import pytest
from django.urls import reverse

from accounts import throttle

pytestmark = pytest.mark.django_db

PASSWORD = "correct horse battery"
THROTTLED = "Too many failed login attempts"


def log_in(client, username: str, password: str, ip: str = "10.0.0.1"):
    return client.post(
        reverse("login"), {"username": username, "password": password}, REMOTE_ADDR=ip
    )


def test_it_logs_in(client, alice):
    response = log_in(client, "alice", PASSWORD)

    assert response.status_code == 302
    assert client.session["_auth_user_id"] == str(alice.pk)


def test_it_refuses_a_username_from_an_ip_after_five_failures_from_it(client, alice):
    for _ in range(5):
        response = log_in(client, "alice", "wrong", ip="10.0.0.66")
        assert response.status_code == 200

    response = log_in(client, "ALICE", PASSWORD, ip="10.0.0.66")

    assert response.status_code == 429
    assert THROTTLED in response.text
    assert "_auth_user_id" not in client.session


def test_five_failures_from_one_ip_do_not_lock_the_owner_out_from_another(client, alice, bob):
    for _ in range(5):
        log_in(client, "alice", "wrong", ip="10.0.0.66")
    assert log_in(client, "alice", PASSWORD, ip="10.0.0.66").status_code == 429

    owner = log_in(client, "alice", PASSWORD, ip="10.0.0.1")
    client.logout()
    other_user_from_that_ip = log_in(client, "bob", PASSWORD, ip="10.0.0.66")

    assert owner.status_code == 302
    assert other_user_from_that_ip.status_code == 302


def test_it_refuses_a_username_after_a_hundred_failures_from_anywhere(client, alice):
    # Four failures from each address: under the limits per address and per pair.
    for n in range(24):
        for _ in range(4):
            log_in(client, "alice", "wrong", ip=f"192.0.2.{n}")
    assert log_in(client, "alice", PASSWORD, ip="10.0.0.1").status_code == 302
    client.logout()
    # The owner's login did not wipe the count from everywhere: 96 + 4 reach the limit
    # (for browsers the account does not know: client.logout() dropped every cookie).
    for _ in range(4):
        log_in(client, "alice", "wrong", ip="192.0.2.99")

    response = log_in(client, "alice", PASSWORD, ip="10.0.0.1")

    assert response.status_code == 429
    assert THROTTLED in response.text


def test_it_refuses_an_ip_after_twenty_failures(client, alice, bob):
    for attempt in range(20):
        log_in(client, f"nobody{attempt}", "wrong", ip="10.0.0.7")

    refused = log_in(client, "bob", PASSWORD, ip="10.0.0.7")
    elsewhere = log_in(client, "bob", PASSWORD, ip="10.0.0.8")

    assert refused.status_code == 429
    assert elsewhere.status_code == 302


@pytest.mark.usefixtures("local_memory_cache")
def test_it_lets_a_user_in_again_once_the_window_has_passed(client, alice, monkeypatch):
    for _ in range(5):
        log_in(client, "alice", "wrong")
    assert log_in(client, "alice", PASSWORD).status_code == 429
    later = time.time() + throttle.WINDOW_SECONDS + 1
    monkeypatch.setattr(time, "time", lambda: later)

    response = log_in(client, "alice", PASSWORD)

    assert response.status_code == 302


def test_it_forgets_a_usernames_failures_after_a_successful_login(client, alice):
    for _ in range(4):
        log_in(client, "alice", "wrong")
    assert log_in(client, "alice", PASSWORD).status_code == 302
    client.logout()

    for _ in range(4):
        log_in(client, "alice", "wrong")
    response = log_in(client, "alice", PASSWORD)

    assert response.status_code == 302


def test_it_takes_the_client_ip_from_the_trusted_proxy(rf, settings):
    settings.TRUSTED_PROXY_COUNT = 1
    request = rf.get("/", HTTP_X_FORWARDED_FOR="6.6.6.6, 203.0.113.5", REMOTE_ADDR="10.0.0.1")

    assert throttle.client_ip(request) == "203.0.113.5"


def test_it_ignores_x_forwarded_for_without_a_trusted_proxy(rf):
    request = rf.get("/", HTTP_X_FORWARDED_FOR="6.6.6.6", REMOTE_ADDR="10.0.0.1")

    assert throttle.client_ip(request) == "10.0.0.1"


def test_it_counts_failures_from_one_ipv6_64_together(client, alice):
    # One subscriber's /64 holds billions of addresses: one fresh address per guess.
    for n in range(5):
        log_in(client, "alice", "wrong", ip=f"2001:db8:0:1::{n + 1:x}")

    same_64 = log_in(client, "alice", PASSWORD, ip="2001:db8:0:1:ffff:ffff:ffff:ffff")
    next_64 = log_in(client, "alice", PASSWORD, ip="2001:db8:0:2::1")

    assert same_64.status_code == 429
    assert next_64.status_code == 302


def test_it_refuses_an_ipv6_64_after_twenty_failures_from_anywhere_in_it(client, alice, bob):
    for n in range(20):
        log_in(client, f"nobody{n}", "wrong", ip=f"2001:db8:0:7:{n:x}::1")

    refused = log_in(client, "bob", PASSWORD, ip="2001:db8:0:7::b0b")
    elsewhere = log_in(client, "bob", PASSWORD, ip="2001:db8:0:8::b0b")

    assert refused.status_code == 429
    assert elsewhere.status_code == 302


def test_it_counts_an_ipv4_mapped_ipv6_address_as_the_ipv4_address(client, alice):
    for _ in range(5):
        log_in(client, "alice", "wrong", ip="::ffff:10.0.0.66")

    response = log_in(client, "alice", PASSWORD, ip="10.0.0.66")

    assert response.status_code == 429


def test_it_counts_by_the_remote_addr_even_when_it_is_not_an_address(client, alice):
    for _ in range(5):
        assert log_in(client, "alice", "wrong", ip="not an address").status_code == 200

    refused = log_in(client, "alice", PASSWORD, ip="not an address")
    elsewhere = log_in(client, "alice", PASSWORD, ip="")

    assert refused.status_code == 429
    assert elsewhere.status_code == 302


@pytest.mark.parametrize(
    ("ip", "block"),
    [
        ("203.0.113.5", "203.0.113.5"),
        ("::ffff:203.0.113.5", "203.0.113.5"),
        ("2001:db8:0:1::1", "2001:db8:0:1::/64"),
        ("2001:DB8:0:1:ffff:ffff:ffff:ffff", "2001:db8:0:1::/64"),
        ("fe80::1%eth0", "fe80::/64"),
        ("::1", "::/64"),
        ("", ""),
        ("10.0.0.1:5678", "10.0.0.1:5678"),
    ],
)
def test_address_block(ip, block):
    assert throttle.address_block(ip) == block


def test_address_block_keeps_neighbouring_ipv4_addresses_apart():
    assert throttle.address_block("203.0.113.5") != throttle.address_block("203.0.113.6")


def test_address_block_examples_hold():
    assert doctest.testmod(throttle).failed == 0
