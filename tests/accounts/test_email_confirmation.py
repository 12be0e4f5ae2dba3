"""Confirming the address given at sign-up, through a signed link sent to it (through the
outbox, games.notifications)."""

import html
import re
import smtplib
import time
from datetime import timedelta

import pytest
from django.core import mail, signing
from django.core.mail.backends.base import BaseEmailBackend
from django.test import Client, TestCase
from django.urls import reverse
from django.utils import timezone

from accounts import services
from accounts.models import User
from games import notifications, tasks
from games.models import Notification

pytestmark = pytest.mark.django_db

PASSWORD = "a long enough passphrase"
LINK = re.compile(r"https?://[^/\s]+(/accounts/email/verify/\S+/)")


def sending():
    """Send the emails queued within: the outbox sends each once its transaction commits,
    which a test's never does."""
    return TestCase.captureOnCommitCallbacks(execute=True)


def sign_up(client: Client, username: str = "leo", email: str = "someone-elses@example.net"):
    data = {"username": username, "email": email, "password1": PASSWORD, "password2": PASSWORD}
    with sending():
        return client.post(reverse("signup"), data)


def send_again(client: Client, **data: str):
    with sending():
        return client.post(reverse("email_verify_send"), data, follow=True)


def link_in(message: mail.EmailMessage) -> str:
    return LINK.search(message.body).group(1)


@pytest.fixture
def leo(client: Client) -> User:
    """A player just signed up (logged in, in ``client``), a confirmation link sent."""
    sign_up(client)
    return User.objects.get(username="leo")


def test_it_emails_a_link_to_the_address_given_at_sign_up(client, settings):
    settings.SITE_URL = "https://acey.example"

    response = sign_up(client)

    assert response.status_code == 302  # in at once, as before
    leo = User.objects.get(username="leo")
    assert client.session["_auth_user_id"] == str(leo.pk)
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["someone-elses@example.net"]
    assert message.subject == "Confirm your email address for Acey-Deucey"
    assert "Hello leo," in message.body
    assert re.search(r"https://acey\.example/accounts/email/verify/\S+/", message.body)
    assert f"within {services.EMAIL_CONFIRM_MAX_AGE.days} days" in message.body
    assert "no game emails" in message.body
    assert leo.email_confirmed_at is None


def test_it_asks_first_then_confirms_the_address_for_a_visitor_not_logged_in(leo):
    link = link_in(mail.outbox[0])
    visitor = Client()

    page = visitor.get(link)
    leo.refresh_from_db()
    assert leo.email_confirmed_at is None  # a GET (a mail scanner's, say) only asks
    response = visitor.post(link)

    assert page.status_code == 200
    assert "<strong>someone-elses@example.net</strong>" in page.text
    assert "<bdi>leo</bdi>" in page.text
    assert response.status_code == 200
    assert "Your email address someone-elses@example.net is confirmed" in response.text
    leo.refresh_from_db()
    assert leo.email_confirmed_at is not None


def test_it_confirms_the_address_of_the_player_logged_in_and_says_so(client, leo):
    link = link_in(mail.outbox[0])

    response = client.post(link, follow=True)

    assert response.redirect_chain[-1][0] == reverse("dashboard")
    assert "Your email address someone-elses@example.net is confirmed" in response.text
    leo.refresh_from_db()
    assert leo.email_confirmed_at is not None


def test_it_refuses_a_player_logged_in_as_someone_else(leo, alice):
    link = link_in(mail.outbox[0])
    other = Client()
    other.force_login(alice)
    alice_confirmed = alice.email_confirmed_at

    page = other.get(link)
    response = other.post(link)

    for answer in (page, response):
        assert answer.status_code == 200
        assert "This link is for the account leo, and you are logged in as alice" in answer.text
    leo.refresh_from_db()
    alice.refresh_from_db()
    assert leo.email_confirmed_at is None
    assert alice.email_confirmed_at == alice_confirmed


def test_it_takes_a_link_once(leo):
    link = link_in(mail.outbox[0])
    Client().post(link)
    leo.refresh_from_db()
    first = leo.email_confirmed_at

    response = Client().post(link)

    assert "already" in response.text
    leo.refresh_from_db()
    assert leo.email_confirmed_at == first


def test_it_refuses_a_link_once_the_address_has_changed(leo):
    link = link_in(mail.outbox[0])
    User.objects.filter(pk=leo.pk).update(email="leo@example.org")

    response = Client().post(link)

    assert "out of date" in response.text
    leo.refresh_from_db()
    assert leo.email_confirmed_at is None


def test_it_refuses_an_expired_link(leo, monkeypatch):
    too_long_ago = (
        time.time() - (services.EMAIL_CONFIRM_MAX_AGE + timedelta(hours=1)).total_seconds()
    )
    with monkeypatch.context() as patch:
        patch.setattr(time, "time", lambda: too_long_ago)
        token = services.email_confirmation_token(leo)

    response = Client().post(reverse("email_verify", args=[token]))

    assert response.status_code == 200
    assert "expired" in response.text
    leo.refresh_from_db()
    assert leo.email_confirmed_at is None


def test_it_refuses_a_forged_link(leo):
    forged = signing.TimestampSigner(salt="something else").sign_object(
        {"user": leo.pk, "email": leo.email}
    )

    response = Client().post(reverse("email_verify", args=[forged]))

    assert "not valid" in response.text
    leo.refresh_from_db()
    assert leo.email_confirmed_at is None


def test_it_refuses_the_link_of_a_closed_account(leo):
    link = link_in(mail.outbox[0])
    User.objects.filter(pk=leo.pk).update(is_active=False)

    response = Client().post(link)

    assert "not valid" in response.text
    leo.refresh_from_db()
    assert leo.email_confirmed_at is None


class BrokenMailServer(BaseEmailBackend):
    def send_messages(self, email_messages):
        raise smtplib.SMTPServerDisconnected("gone")


def test_a_link_the_mail_server_refused_at_sign_up_goes_out_once_it_is_back(client, settings):
    settings.SITE_URL = "https://acey.example"
    working = settings.MAILERS
    settings.MAILERS = {"default": {"BACKEND": f"{__name__}.BrokenMailServer"}}

    response = sign_up(client)

    assert response.status_code == 302  # signed up and in, all the same
    leo = User.objects.get(username="leo")
    assert client.session["_auth_user_id"] == str(leo.pk)
    assert mail.outbox == []
    queued = Notification.objects.get(user=leo, kind=Notification.Kind.CONFIRM_ADDRESS)
    assert queued.sent_at is None and queued.attempts >= 1 and "gone" in queued.last_error
    # Later: the server is back, and the resend sweep finds the email.
    settings.MAILERS = working
    Notification.objects.filter(pk=queued.pk).update(
        created_at=timezone.now() - timedelta(minutes=10), claimed_until=None
    )

    assert tasks.task_resend_unsent() == 1

    [message] = mail.outbox
    assert message.to == ["someone-elses@example.net"]
    Client().post(link_in(message))
    leo.refresh_from_db()
    assert leo.email_confirmed_at is not None


def test_the_link_is_made_as_the_email_is_sent_and_never_stored(client, leo):
    [message] = mail.outbox
    token = link_in(message).rstrip("/").rsplit("/", 1)[-1]

    [stored] = Notification.objects.filter(user=leo)

    assert stored.kind == Notification.Kind.CONFIRM_ADDRESS
    assert stored.sent_at is not None
    assert stored.subject == message.subject
    # Staff read the outbox in the admin: an address they type waits for its owner.
    assert token not in stored.body and "/email/verify/" not in stored.body
    assert stored.body == notifications.CONFIRMATION_WRITTEN_WHEN_SENT


def test_it_is_an_account_email_with_no_unsubscribe_link(leo):
    [message] = mail.outbox

    assert "List-Unsubscribe" not in message.extra_headers
    assert "/unsubscribe/" not in message.body
    assert message.extra_headers["Message-ID"].startswith("<notification.")


def test_it_goes_to_an_address_not_confirmed_whatever_the_email_preference(alice):
    User.objects.filter(pk=alice.pk).update(
        email_confirmed_at=None, email_preference=User.EmailPreference.NONE
    )
    alice.refresh_from_db()

    with sending():
        services.send_email_confirmation(alice)

    [message] = mail.outbox
    assert message.to == ["alice@example.com"]
    Client().post(link_in(message))
    alice.refresh_from_db()
    assert alice.email_confirmed_at is not None


def test_a_link_waiting_to_be_sent_is_for_the_address_the_account_has_when_it_goes(leo):
    mail.outbox.clear()
    with TestCase.captureOnCommitCallbacks(execute=False):
        services.send_email_confirmation(leo, again=True)
    queued = Notification.objects.filter(sent_at=None).get()
    # Staff change the address in the admin meanwhile: it waits for its owner.
    User.objects.filter(pk=leo.pk).update(email="leo@example.org")

    assert notifications.send_notification(queued.pk) is True

    [message] = mail.outbox
    assert message.to == ["leo@example.org"]
    assert "(leo@example.org)" in message.body
    Client().post(link_in(message))
    leo.refresh_from_db()
    assert leo.email_confirmed_at is not None


@pytest.mark.parametrize("meanwhile", ["confirmed", "deactivated"])
def test_a_link_waiting_to_be_sent_is_dropped_once_it_could_not_be_used(leo, meanwhile):
    first_link = link_in(mail.outbox[0])
    mail.outbox.clear()
    with TestCase.captureOnCommitCallbacks(execute=False):
        services.send_email_confirmation(leo, again=True)
    queued = Notification.objects.filter(sent_at=None).get()
    if meanwhile == "confirmed":
        Client().post(first_link)
    else:  # by staff, say: the link would be refused
        User.objects.filter(pk=leo.pk).update(is_active=False)

    assert notifications.send_notification(queued.pk) is False

    assert mail.outbox == []
    queued.refresh_from_db()
    assert queued.cancelled_at is not None


# -- the notice, and the link sent again ---------------------------------------------------

NOTICE = (
    "Confirm your email address: we sent a link to someone-elses@example.net. Until then you"
    " get no game emails."
)


def _text(page) -> str:
    """The page's words, its markup and runs of spaces taken out."""
    return " ".join(re.sub(r"<[^>]+>", " ", page.content.decode()).split())


@pytest.mark.parametrize("where", ["dashboard", "settings"])
def test_it_asks_on_the_dashboard_and_settings_with_a_button_to_send_the_link_again(
    client, leo, where
):
    page = client.get(reverse(where))

    assert NOTICE in _text(page)
    form = re.search(
        rf'<form method="post" action="{reverse("email_verify_send")}"[^>]*>(.*?)</form>',
        page.text,
        re.DOTALL,
    )
    assert "csrfmiddlewaretoken" in form.group(1)
    assert f'name="next" value="{reverse(where)}"' in form.group(1)
    assert ">Send the link again</button>" in form.group(1)


@pytest.mark.parametrize("where", ["dashboard", "settings"])
def test_it_shows_no_notice_for_a_confirmed_address(client, alice, where):
    client.force_login(alice)

    page = client.get(reverse(where))

    assert "Confirm your email address" not in page.text
    assert reverse("email_verify_send") not in page.text


def test_it_drops_the_notice_once_the_link_is_followed(client, leo):
    client.post(link_in(mail.outbox[0]))

    page = client.get(reverse("dashboard"))

    assert "Confirm your email address" not in page.text


def test_it_sends_a_new_link_that_works_when_asked_again(client, leo):
    mail.outbox.clear()

    response = send_again(client, next="/dashboard/")

    assert response.redirect_chain == [("/dashboard/", 302)]
    assert (
        "We have sent a new link to someone-elses@example.net. Follow it within 7 days"
        in response.text
    )
    [message] = mail.outbox
    assert message.to == ["someone-elses@example.net"]
    client.post(link_in(message))
    leo.refresh_from_db()
    assert leo.email_confirmed_at is not None


def test_it_sends_the_link_again_at_most_three_times_an_hour(client, leo):
    mail.outbox.clear()
    for _ in range(3):
        send_again(client, next=reverse("settings"))

    response = send_again(client)

    assert len(mail.outbox) == 3
    assert response.redirect_chain[-1][0] == reverse("settings")
    assert (
        "We have sent you 3 links in the last hour, as many as we send: follow one of those,"
        " or ask again in an hour." in html.unescape(response.text)
    )
    assert '<li class="message-error">' in response.text


def test_it_sends_the_link_again_only_for_a_post_with_its_csrf_token(leo):
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(leo)
    mail.outbox.clear()

    with sending():
        forged = browser.post(reverse("email_verify_send"))
        got = browser.get(reverse("email_verify_send"))

    assert forged.status_code == 403
    assert got.status_code == 405
    assert mail.outbox == []


def test_it_sends_no_link_again_for_a_confirmed_address(client, alice):
    client.force_login(alice)

    response = send_again(client)

    assert "Your email address alice@example.com is confirmed already." in response.text
    assert mail.outbox == []


# -- an address confirmed another way --------------------------------------------------------


def test_it_confirms_a_new_address_once_its_email_change_is_completed(client, leo):
    client.post(reverse("email_change"), {"email": "leo@example.org", "password": PASSWORD})
    leo.refresh_from_db()
    assert leo.email_confirmed_at is None  # asking proves nothing
    change_link = re.search(r"/accounts/email/confirm/\S+/", mail.outbox[-1].body).group(0)

    client.post(change_link)

    leo.refresh_from_db()
    assert leo.email == "leo@example.org"
    assert leo.email_confirmed_at is not None


def test_it_confirms_a_confirmed_players_new_address_afresh(client, alice):
    before = alice.email_confirmed_at
    client.force_login(alice)
    token = services.email_change_token(alice, new_email="alice@example.org")

    client.post(reverse("email_change_confirm", args=[token]))

    alice.refresh_from_db()
    assert alice.email == "alice@example.org"
    assert alice.email_confirmed_at > before


def test_it_confirms_the_address_once_a_password_is_reset_by_its_link(leo):
    visitor = Client()
    visitor.post(reverse("password_reset"), {"email": "someone-elses@example.net"})
    reset_link = re.search(r"https?://[^/\s]+(/accounts/password/reset/\S+/)", mail.outbox[-1].body)
    form_page = visitor.get(reset_link.group(1), follow=True)
    leo.refresh_from_db()
    assert leo.email_confirmed_at is None  # following it is not enough: it is used up by a post

    visitor.post(
        form_page.redirect_chain[-1][0],
        {"new_password1": "another long passphrase", "new_password2": "another long passphrase"},
    )

    leo.refresh_from_db()
    assert leo.check_password("another long passphrase")
    assert leo.email_confirmed_at is not None


def test_it_confirms_the_address_an_undo_puts_back(client, leo, django_capture_on_commit_callbacks):
    # Only a confirmed address is offered the account back (test_email_change_undo).
    User.objects.filter(pk=leo.pk).update(email_confirmed_at=timezone.now() - timedelta(days=1))
    leo.refresh_from_db()
    token = services.email_change_token(leo, new_email="leo@example.org")
    with django_capture_on_commit_callbacks(execute=True):
        client.post(reverse("email_change_confirm", args=[token]))
    undo_link = re.search(r"/accounts/email/undo/\S+/", mail.outbox[-1].body).group(0)
    assert mail.outbox[-1].to == ["someone-elses@example.net"]
    leo.refresh_from_db()
    changed_at = leo.email_confirmed_at  # leo@example.org's

    Client().post(undo_link)

    leo.refresh_from_db()
    assert leo.email == "someone-elses@example.net"
    assert leo.email_confirmed_at > changed_at  # its owner followed a link sent to it
