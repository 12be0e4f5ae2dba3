import re

import pytest
from django.urls import reverse

from accounts import throttle
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


@pytest.mark.parametrize("username", ["bob", "BOB"])
def test_it_answers_a_taken_username_with_the_form_and_its_error(client, username):
    User.objects.create_user(username="bob", email="robert@example.com")
    users = User.objects.count()

    response = client.post(reverse("signup"), signup_data(username, "newcomer@example.com"))

    assert response.status_code == 200
    assert "A user with that username already exists." in response.text
    assert User.objects.count() == users
    assert "_auth_user_id" not in client.session


def test_it_refuses_a_username_taken_after_the_form_checked_it():
    form = SignupForm(signup_data("bob", "bob@example.com"))
    assert form.is_valid()
    User.objects.create_user(username="bob", email="robert@example.com")

    user = form.save_unless_taken()

    assert user is None
    assert form.errors["username"] == ["A user with that username already exists."]
    assert User.objects.get(username="bob").email == "robert@example.com"


def test_it_refuses_a_username_taken_in_another_case_after_the_form_checked_it():
    form = SignupForm(signup_data("bob", "bob@example.com"))
    assert form.is_valid()
    User.objects.create_user(username="BOB", email="robert@example.com")

    user = form.save_unless_taken()

    assert user is None
    assert form.errors["username"] == ["A user with that username already exists."]
    assert list(User.objects.filter(username__iexact="bob").values_list("username")) == [("BOB",)]


class SignsUpBobMeanwhile:
    """A password validator that, as the last of the form's checks, signs up "BOB": a
    stand-in for another request that commits between the form's checks and its save."""

    def validate(self, password: str, user: User | None = None) -> None:
        User.objects.create_user(username="BOB", email="robert@example.com")

    def get_help_text(self) -> str:
        return ""


def test_it_answers_a_race_for_a_username_with_the_form_and_its_error(client, settings):
    settings.AUTH_PASSWORD_VALIDATORS = [{"NAME": f"{__name__}.SignsUpBobMeanwhile"}]

    response = client.post(reverse("signup"), signup_data("bob", "bob@example.com"))

    assert response.status_code == 200
    assert "A user with that username already exists." in response.text
    assert list(User.objects.filter(username__iexact="bob").values_list("username")) == [("BOB",)]
    assert "_auth_user_id" not in client.session


@pytest.mark.parametrize(
    ("sent", "kept"),
    [
        ("Asia/Tokyo", "Asia/Tokyo"),
        # Legacy names, as a browser may give (Chromium: Asia/Calcutta), saved as the
        # settings offer them.
        ("Asia/Calcutta", "Asia/Kolkata"),
        ("Europe/Kiev", "Europe/Kyiv"),
        ("US/Eastern", "America/New_York"),
        ("", "UTC"),
        ("Mars/Olympus_Mons", "UTC"),
        ("../etc", "UTC"),
        ("Europe/" + "x" * 300, "UTC"),
    ],
)
def test_it_keeps_the_browsers_timezone_if_it_is_a_known_one(client, sent, kept):
    data = signup_data("alice", "alice@example.com") | {"timezone": sent}

    response = client.post(reverse("signup"), data)

    assert response.status_code == 302
    assert User.objects.get(username="alice").timezone == kept


def test_a_newcomer_from_a_private_invite_signs_up_and_comes_back_to_it(client, alice):
    from games import services

    challenge = services.create_challenge(alice, private=True)
    invite = challenge.invite_path()
    page = client.get(invite)
    # The notice's link and the header's both come back to the invite.
    [signup_link] = set(re.findall(r'href="(/accounts/signup/\?next=[^"]*)"', page.text))

    form = client.get(signup_link)
    assert f'name="next" value="{invite}"' in form.text
    data = signup_data("newcomer", "newcomer@example.com") | {"next": invite}
    response = client.post(reverse("signup"), data)

    assert response.status_code == 302 and response["Location"] == invite
    assert "Accept" in client.get(invite).text


@pytest.mark.parametrize(
    "next_url",
    [
        "https://elsewhere.example/",
        "//elsewhere.example/x",
        "/\\elsewhere.example/x",
        "javascript:alert(1)",
        "foo",  # a bare word: redirect() would look for a view of that name (a 500)
        "dashboard2",
        "home",
    ],
)
def test_it_never_sends_a_newcomer_off_the_site(client, next_url):
    form = client.get(reverse("signup"), {"next": next_url})
    assert 'name="next"' not in form.text

    data = signup_data("newcomer", "newcomer@example.com") | {"next": next_url}
    response = client.post(reverse("signup"), data)

    assert response.status_code == 302 and response["Location"] == reverse("home")


def test_a_logged_in_player_sent_to_sign_up_goes_on_to_next_or_home(client, alice):
    client.force_login(alice)

    onward = client.get(reverse("signup"), {"next": "/dashboard/"})
    junk = client.get(reverse("signup"), {"next": "foo"})

    assert onward.status_code == 302 and onward["Location"] == "/dashboard/"
    assert junk.status_code == 302 and junk["Location"] == reverse("home")


def test_an_empty_post_is_told_what_is_missing(client):
    accounts = User.objects.count()  # the bots'

    response = client.post(reverse("signup"), {})

    assert response.status_code == 200
    assert "This field is required." in response.text
    assert User.objects.count() == accounts


def test_it_says_a_link_will_come_to_confirm_the_address(client):
    page = client.get(reverse("signup"))

    assert (
        "Used to tell you when it is your turn to move, once you have confirmed it: we email"
        " it a link." in page.text
    )


def test_one_ip_may_try_a_few_sign_ups_an_hour(client):
    for n in range(throttle.MAX_SIGNUPS_PER_IP):
        client.logout()
        response = client.post(
            reverse("signup"),
            signup_data(f"player{n}", f"p{n}@example.com"),
            REMOTE_ADDR="10.0.0.7",
        )
        assert response.status_code == 302
    client.logout()

    refused = client.post(
        reverse("signup"), signup_data("one-too-many", "more@example.com"), REMOTE_ADDR="10.0.0.7"
    )
    elsewhere = client.post(
        reverse("signup"), signup_data("elsewhere", "else@example.com"), REMOTE_ADDR="10.0.0.8"
    )

    assert refused.status_code == 429
    assert "Too many sign-ups from your network in the last hour" in refused.text
    assert 'value="one-too-many"' in refused.text  # kept, to send again later
    assert not User.objects.filter(username="one-too-many").exists()
    assert elsewhere.status_code == 302
    assert User.objects.filter(username="elsewhere").exists()


def test_a_sign_up_refused_for_its_form_counts_too(client, alice):
    # Else the limit would not bound how many addresses one IP can try.
    for _ in range(throttle.MAX_SIGNUPS_PER_IP):
        client.post(
            reverse("signup"), signup_data("alice", "x@example.com"), REMOTE_ADDR="10.0.0.7"
        )

    refused = client.post(
        reverse("signup"), signup_data("newcomer", "alice@example.com"), REMOTE_ADDR="10.0.0.7"
    )

    assert refused.status_code == 429
    assert "already exists" not in refused.text  # the form is not checked


def test_a_refused_sign_up_links_to_log_in_and_takes_the_focus_to_the_refusal(client):
    for n in range(throttle.MAX_SIGNUPS_PER_IP):
        client.logout()
        client.post(
            reverse("signup"),
            signup_data(f"player{n}", f"p{n}@example.com"),
            REMOTE_ADDR="10.0.0.7",
        )
    client.logout()

    refused = client.post(
        reverse("signup"),
        {**signup_data("one-too-many", "more@example.com"), "next": "/invite/abc/"},
        REMOTE_ADDR="10.0.0.7",
    )

    assert refused.status_code == 429
    login = f'<a href="{reverse("login")}?next=/invite/abc/">log in</a>'
    assert f"If you have an account already, {login}." in refused.text
    assert re.findall(r"<(\w+)[^>]*\bautofocus\b", refused.text) == ["p"]
    assert 'id="signup-refused" tabindex="-1" autofocus' in refused.text


def test_the_browser_may_fill_in_the_address(client):
    form = client.get(reverse("signup")).text

    assert re.search(r'<input type="email" name="email"[^>]*autocomplete="email"', form)
