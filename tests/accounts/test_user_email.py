"""One account per email address, whatever its case, held by the database itself."""

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from accounts.models import User
from accounts.services import email_in_use, username_in_use

pytestmark = pytest.mark.django_db


def test_it_refuses_an_address_in_use_in_another_case():
    User.objects.create_user(username="alice", email="alice@x.com")

    with pytest.raises(IntegrityError), transaction.atomic():
        User.objects.create_user(username="alice2", email="Alice@x.com")

    assert list(User.objects.filter(email__iexact="alice@x.com").values_list("username")) == [
        ("alice",)
    ]


def test_it_refuses_to_change_an_address_to_one_in_use(alice, bob):
    bob.email = "ALICE@example.com"

    with pytest.raises(IntegrityError), transaction.atomic():
        bob.save()

    bob.refresh_from_db()
    assert bob.email == "bob@example.com"


def test_model_validation_explains_the_refusal(alice):
    newcomer = User(username="alice2", email="Alice@Example.com")

    with pytest.raises(ValidationError) as refusal:
        newcomer.validate_constraints()

    assert refusal.value.messages == ["An account with this email address already exists."]


def test_accounts_without_an_address_may_be_many():
    # Bots (games.services.bot_users) have no email address.
    User.objects.create_user(username="bot-one", email="")
    User.objects.create_user(username="bot-two", email="")

    assert User.objects.filter(username__startswith="bot-", email="").count() == 2


def _refused(**fields: str) -> bool:
    """Whether the database refuses a new account with ``fields`` (one rolled back)."""
    try:
        with transaction.atomic():
            User.objects.create_user(**fields)
            transaction.set_rollback(True)
    except IntegrityError:
        return True
    return False


@pytest.mark.parametrize(
    ("held", "asked"),
    [
        ("alice@x.com", "ALICE@X.COM"),
        ("xi@x.com", "x\u0131@x.com"),  # dotless i: equal in upper case, not in lower
        ("\u00c4b@x.com", "\u00e4b@x.com"),
        ("stra\u00dfe@x.com", "STRASSE@x.com"),
        ("\u0130@x.com", "i\u0307@x.com"),
    ],
)
def test_the_in_use_checks_agree_with_the_database_constraints(held, asked):
    User.objects.create_user(username=held.split("@")[0], email=held)
    name = asked.split("@")[0]

    assert email_in_use(asked) == _refused(username="newcomer", email=asked)
    assert username_in_use(name) == _refused(username=name, email="")
