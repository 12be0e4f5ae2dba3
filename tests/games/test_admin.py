"""The admin shows matches, challenges and the email outbox to staff, without editing, and
sends a failed email again on request."""

from __future__ import annotations

import pytest
from django.core import mail
from django.urls import reverse

from games import services
from games.models import Notification
from tests.matches import opened_by_white

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(client, django_user_model):
    admin = django_user_model.objects.create_superuser("boss", "boss@example.com", "x")
    client.force_login(admin)
    return client


def _failed(user) -> Notification:
    return Notification.objects.create(
        user=user,
        kind="challenge",
        key="admin-test",
        subject="A challenge",
        body="Play.",
        attempts=3,
        last_error="421 try again later",
    )


def test_staff_read_a_failed_emails_error(staff, alice):
    failed = _failed(alice)

    listing = staff.get(reverse("admin:games_notification_changelist"))
    page = staff.get(reverse("admin:games_notification_change", args=[failed.pk]))

    assert listing.status_code == page.status_code == 200
    assert "421 try again later" in listing.text and "421 try again later" in page.text
    assert 'name="_save"' not in page.text  # to read, not to edit


def test_staff_send_a_failed_email_again(staff, alice):
    failed = _failed(alice)

    staff.post(
        reverse("admin:games_notification_changelist"),
        {"action": "send_again", "_selected_action": [failed.pk]},
    )

    failed.refresh_from_db()
    assert failed.sent_at is not None
    assert [m.subject for m in mail.outbox] == ["A challenge"]


def test_matches_and_challenges_are_shown_not_edited(staff, alice, bob):
    match = opened_by_white(alice, bob)

    page = staff.get(reverse("admin:games_match_change", args=[match.pk]))
    edit = staff.post(reverse("admin:games_match_change", args=[match.pk]), {"status": "finished"})

    assert page.status_code == 200 and 'name="_save"' not in page.text
    assert edit.status_code == 403
    match.refresh_from_db()
    assert match.status == "active"
    assert staff.get(reverse("admin:games_challenge_changelist")).status_code == 200


def test_players_cannot_open_the_admin(client, alice):
    client.force_login(alice)

    response = client.get(reverse("admin:games_notification_changelist"))

    assert response.status_code == 302 and "/admin/login/" in response["Location"]


def test_a_held_email_is_left_to_its_holder(staff, alice):
    from datetime import timedelta

    from django.utils import timezone

    held = _failed(alice)  # being sent right now, say, or waiting for its retry
    Notification.objects.filter(pk=held.pk).update(
        claimed_until=timezone.now() + timedelta(minutes=5)
    )

    response = staff.post(
        reverse("admin:games_notification_changelist"),
        {"action": "send_again", "_selected_action": [held.pk]},
        follow=True,
    )

    held.refresh_from_db()
    assert held.sent_at is None and mail.outbox == []
    assert "0 email(s) queued to be sent; 1 held, to go out on their own." in response.text


def test_staff_who_may_only_look_cannot_send(client, django_user_model, alice):
    from django.contrib.auth.models import Permission

    viewer = django_user_model.objects.create_user("clerk", "clerk@example.com", "x")
    viewer.is_staff = True
    viewer.save()
    viewer.user_permissions.add(Permission.objects.get(codename="view_notification"))
    client.force_login(viewer)
    failed = _failed(alice)

    listing = client.get(reverse("admin:games_notification_changelist"))
    client.post(
        reverse("admin:games_notification_changelist"),
        {"action": "send_again", "_selected_action": [failed.pk]},
    )

    assert listing.status_code == 200 and "send_again" not in listing.text
    failed.refresh_from_db()
    assert failed.sent_at is None and mail.outbox == []


def test_staff_cannot_read_the_seed_of_a_match_in_play(staff, alice, bob):
    match = opened_by_white(alice, bob)
    url = reverse("admin:games_match_change", args=[match.pk])

    in_play = staff.get(url).text
    services.resign(match.pk, user=alice)
    over = staff.get(url).text

    assert match.server_seed not in in_play  # it decides every roll still to come
    assert match.seed_hash in in_play
    assert match.server_seed in over
