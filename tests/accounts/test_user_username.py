"""One account per username, whatever its case, held by the database itself."""

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from accounts.models import User

pytestmark = pytest.mark.django_db


def test_it_refuses_a_username_in_use_in_another_case():
    User.objects.create_user(username="alice", email="alice@example.com")

    with pytest.raises(IntegrityError), transaction.atomic():
        User.objects.create_user(username="Alice", email="other-alice@example.com")

    assert list(User.objects.filter(username__iexact="alice").values_list("username")) == [
        ("alice",)
    ]


def test_it_refuses_to_rename_an_account_to_a_username_in_use(alice, bob):
    bob.username = "ALICE"

    with pytest.raises(IntegrityError), transaction.atomic():
        bob.save()

    bob.refresh_from_db()
    assert bob.username == "bob"


def test_model_validation_explains_the_refusal(alice):
    newcomer = User(username="aLiCe", email="newcomer@example.com")

    with pytest.raises(ValidationError) as refusal:
        newcomer.validate_constraints()

    assert refusal.value.messages == ["A user with that username already exists."]


def test_the_bots_usernames_differ_by_more_than_case():
    # Created by the games migrations; the constraint's migration would fail otherwise.
    bots = User.objects.filter(is_bot=True).values_list("username", flat=True)

    assert sorted(bots) == ["beginner-bot", "club-bot", "expert-bot"]
