import logging
import re
import time

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse

from accounts import throttle
from accounts.models import ApiToken

pytestmark = pytest.mark.django_db

PASSWORD = "correct horse battery"


def ask_for_reset(client, email: str, ip: str = "10.0.0.1"):
    return client.post(reverse("password_reset"), {"email": email}, REMOTE_ADDR=ip)


def log_in(client, password: str, ip: str = "127.0.0.1"):
    return client.post(
        reverse("login"), {"username": "alice", "password": password}, REMOTE_ADDR=ip
    )


def reset_alices_password(client, new_password: str) -> None:
    client.post(reverse("password_reset"), {"email": "alice@example.com"})
    link = re.search(r"https?://\S+?(/\S+)", mail.outbox[-1].body).group(1)
    form_page = client.get(link, follow=True)
    client.post(
        form_page.redirect_chain[-1][0],
        {"new_password1": new_password, "new_password2": new_password},
    )


def test_it_emails_a_reset_link_that_sets_a_new_password(client, alice, settings):
    settings.SITE_URL = "https://acey.example"

    response = client.post(reverse("password_reset"), {"email": "ALICE@example.com"})

    assert response.status_code == 302
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["alice@example.com"]
    assert message.subject == "Reset your Acey-Deucey password"
    link = re.search(r"https://acey\.example(/\S+)", message.body).group(1)

    form_page = client.get(link, follow=True)
    assert 'name="new_password1"' in form_page.text
    done = client.post(
        form_page.redirect_chain[-1][0],
        {"new_password1": "a brand new secret", "new_password2": "a brand new secret"},
    )

    assert done.status_code == 302
    alice.refresh_from_db()
    assert alice.check_password("a brand new secret")


def test_a_link_sent_before_the_staff_deactivated_the_account_no_longer_works(client, alice):
    client.post(reverse("password_reset"), {"email": "alice@example.com"})
    link = re.search(r"https?://\S+?(/\S+)", mail.outbox[-1].body).group(1)
    alice.is_active = False
    alice.save(update_fields=["is_active"])
    mail.outbox = []

    form_page = client.get(link, follow=True)
    # Valid, the link would lead on to the form's own address.
    sent = client.post(
        form_page.redirect_chain[-1][0] if form_page.redirect_chain else link,
        {"new_password1": "a brand new secret", "new_password2": "a brand new secret"},
    )

    assert 'name="new_password1"' not in form_page.text
    assert "new_password1" not in sent.text
    alice.refresh_from_db()
    assert alice.check_password(PASSWORD)
    assert mail.outbox == []  # no "your password was reset" for a password nobody can use


def test_it_sends_nothing_for_an_unknown_address_and_says_the_same(client, alice):
    response = client.post(reverse("password_reset"), {"email": "nobody@example.com"})

    assert response.status_code == 302
    assert response["Location"] == reverse("password_reset_done")
    assert mail.outbox == []


def test_it_rejects_a_forged_reset_link(client, alice):
    response = client.get(
        reverse("password_reset_confirm", args=["MQ", "forged-token"]), follow=True
    )

    assert "This link is not valid" in response.text
    assert 'name="new_password1"' not in response.text


def test_it_lets_a_user_locked_out_by_failures_log_in_after_a_reset(client, alice):
    for _ in range(5):
        log_in(client, "wrong")
    locked = log_in(client, PASSWORD)
    reset_alices_password(client, "a brand new secret")

    response = log_in(client, "a brand new secret")

    assert locked.status_code == 429
    assert response.status_code == 302


def test_it_lets_a_user_locked_out_by_failures_from_everywhere_log_in_after_a_reset(client, alice):
    # Four failures from each of 25 addresses: the limit per username from everywhere.
    for n in range(25):
        for _ in range(4):
            log_in(client, "wrong", ip=f"192.0.2.{n}")
    locked = log_in(client, PASSWORD)
    reset_alices_password(client, "a brand new secret")

    response = log_in(client, "a brand new secret")

    assert locked.status_code == 429
    assert response.status_code == 302


def test_it_sends_at_most_three_links_an_hour_to_one_address(client, alice, bob, caplog):
    for email in ("alice@example.com", "ALICE@example.com", "alice@example.com"):
        ask_for_reset(client, email)
    assert len(mail.outbox) == 3

    refused = ask_for_reset(client, "Alice@Example.com", ip="10.0.0.2")
    ask_for_reset(client, "bob@example.com")

    # The same answer as for a link sent: nothing tells whether the account exists.
    assert refused.status_code == 302
    assert refused["Location"] == reverse("password_reset_done")
    assert [message.to for message in mail.outbox[3:]] == [["bob@example.com"]]
    [warning] = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert "too many requests for the address" in warning.getMessage()
    assert "alice" not in warning.getMessage().lower()


def test_it_sends_at_most_twenty_links_an_hour_from_one_ip(client, alice, caplog):
    for n in range(20):
        ask_for_reset(client, f"nobody{n}@example.com", ip="10.0.0.7")

    refused = ask_for_reset(client, "alice@example.com", ip="10.0.0.7")
    elsewhere = ask_for_reset(client, "alice@example.com", ip="10.0.0.8")

    assert refused.status_code == elsewhere.status_code == 302
    assert refused["Location"] == elsewhere["Location"] == reverse("password_reset_done")
    assert len(mail.outbox) == 1  # from 10.0.0.8
    assert "too many requests for the IP" in caplog.text
    assert "alice@example.com" not in caplog.text


@pytest.mark.usefixtures("local_memory_cache")
def test_it_sends_links_again_once_the_hour_has_passed(client, alice, monkeypatch):
    for _ in range(4):
        ask_for_reset(client, "alice@example.com")
    assert len(mail.outbox) == 3
    later = time.time() + throttle.RESET_WINDOW_SECONDS + 1
    monkeypatch.setattr(time, "time", lambda: later)

    ask_for_reset(client, "alice@example.com")

    assert len(mail.outbox) == 4


def test_it_sends_at_most_twenty_links_an_hour_from_one_ipv6_64(client, alice):
    for n in range(20):
        ask_for_reset(client, f"nobody{n}@example.com", ip=f"2001:db8:0:7:{n:x}::1")

    ask_for_reset(client, "alice@example.com", ip="2001:db8:0:7::a11c")
    assert mail.outbox == []
    ask_for_reset(client, "alice@example.com", ip="2001:db8:0:8::a11c")

    assert [message.to for message in mail.outbox] == [["alice@example.com"]]


def test_it_answers_a_reset_request_whose_remote_addr_is_not_an_address(client, alice):
    response = ask_for_reset(client, "alice@example.com", ip="not an address")

    assert response.status_code == 302
    assert len(mail.outbox) == 1


def test_the_reset_pages_put_the_focus_where_the_player_types(client, alice):
    asked = client.get(reverse("password_reset"))
    assert 'name="email"' in asked.text and "autofocus" in asked.text

    client.post(reverse("password_reset"), {"email": "alice@example.com"})
    link = re.search(r"http://\S+/accounts/password/reset/\S+/", mail.outbox[-1].body).group(0)
    form_page = client.get(link, follow=True)
    field = re.search(r"<input[^>]*name=\"new_password1\"[^>]*>", form_page.text).group(0)
    assert "autofocus" in field

    mismatch = client.post(
        form_page.redirect_chain[-1][0],
        {"new_password1": "a long correspondence", "new_password2": "something else"},
    )
    second = re.search(r"<input[^>]*name=\"new_password2\"[^>]*>", mismatch.text).group(0)
    assert "autofocus" in second  # the field with the error


def test_the_sent_page_says_how_many_links_an_hour_are_sent(client):
    response = client.post(reverse("password_reset"), {"email": "nobody@example.com"}, follow=True)

    assert "at most 3 links an hour" in response.text


def test_a_reset_password_revokes_every_api_key(client, alice):
    # Whoever made a key while they had the account (its password, or an address they
    # signed up with before its owner confirmed it) loses it with the reset.
    _, key = ApiToken.issue(alice, "someone's bot")
    api = Client(headers={"authorization": f"Token {key}"})
    assert api.get(reverse("api_me")).status_code == 200

    reset_alices_password(client, "a brand new secret")

    alice.refresh_from_db()
    assert alice.check_password("a brand new secret")
    assert api.get(reverse("api_me")).status_code == 401
    assert not ApiToken.objects.filter(user=alice).exists()


def test_the_page_after_a_reset_says_the_keys_were_revoked(client, alice):
    ApiToken.issue(alice, "my bot")
    client.post(reverse("password_reset"), {"email": "alice@example.com"})
    link = re.search(r"https?://\S+?(/\S+)", mail.outbox[-1].body).group(1)
    form_page = client.get(link, follow=True)

    done = client.post(
        form_page.redirect_chain[-1][0],
        {"new_password1": "a brand new secret", "new_password2": "a brand new secret"},
        follow=True,
    )

    settings_link = f'<a href="{reverse("settings")}#tokens-h">settings</a>'
    assert (
        "Your API key was revoked with the old password: make a new one in your"
        f" {settings_link} for the program that uses it."
    ) in done.text


def test_the_request_queues_the_same_task_whether_or_not_an_account_has_the_address(
    client, alice, monkeypatch
):
    # A link sent from the request itself (an exchange with the mail server) made its
    # answer slower when an account had the address: the reset page told by its timing
    # what its words do not. The worker makes and sends the link instead.
    from accounts import tasks
    from aceysite.celery import app

    app.conf.task_always_eager = False  # put back by celery_runs_tasks_in_process
    queued = []
    monkeypatch.setattr(
        tasks.task_send_password_reset,
        "apply_async",
        lambda *args, kwargs, **options: queued.append(kwargs),
    )

    known = ask_for_reset(client, "ALICE@example.com")
    unknown = ask_for_reset(client, "nobody@example.com")

    assert known.status_code == unknown.status_code == 302
    assert known["Location"] == unknown["Location"] == reverse("password_reset_done")
    assert mail.outbox == []  # nothing sent by the request itself
    assert queued == [{"user_id": alice.pk}, {"user_id": None}]  # ids only: no token
    for kwargs in queued:  # as the worker runs them
        tasks.task_send_password_reset(**kwargs)
    [sent] = mail.outbox
    assert sent.to == ["alice@example.com"]
    link = re.search(r"https?://\S+?(/\S+)", sent.body).group(1)
    assert 'name="new_password1"' in client.get(link, follow=True).text


def test_the_worker_sends_no_link_to_an_account_closed_since_it_was_asked(alice):
    from accounts import tasks
    from games import closing

    closing.close_account(alice)
    mail.outbox = []

    assert tasks.task_send_password_reset(user_id=alice.pk) is False
    assert mail.outbox == []


def test_with_the_broker_down_the_link_is_sent_from_the_request(client, alice, monkeypatch, caplog):
    from kombu.exceptions import OperationalError

    from accounts import tasks
    from aceysite.celery import app

    app.conf.task_always_eager = False  # put back by celery_runs_tasks_in_process

    def broker_down(*args, **kwargs):
        raise OperationalError("Error 111 connecting to localhost:6379. Connection refused.")

    monkeypatch.setattr(tasks.task_send_password_reset, "apply_async", broker_down)

    response = ask_for_reset(client, "alice@example.com")

    assert response.status_code == 302
    [sent] = mail.outbox
    assert sent.to == ["alice@example.com"]
    assert "the broker is unreachable, a password reset is sent from the request" in caplog.text
