"""The admin's lists and change pages cost a fixed number of queries, however many rows
they show: each row's related objects come with it, not with a query of their own."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib import admin
from django.contrib.auth.models import Group
from django.db import connection
from django.db.models import Model
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from games import services
from games.models import Block, Challenge, Match, Notification
from games.tournaments.models import Entry, Tournament, TournamentMatch
from tests.matches import opened_by_white

pytestmark = pytest.mark.django_db

FEW, MANY = 2, 20
MODELS = sorted(admin.site._registry, key=lambda model: model._meta.label)


@pytest.fixture
def staff(client, django_user_model) -> Client:
    boss = django_user_model.objects.create_superuser("boss", "boss@example.com", "x")
    client.force_login(boss)
    return client


def grow_to(rows: int) -> None:
    """``rows`` rows of each model the admin shows, each naming other rows (players,
    matches, a tournament); the first tournament has ``rows`` entries and matches."""
    while User.objects.filter(username__startswith="p").count() <= rows:
        n = User.objects.count()
        User.objects.create_user(f"p{n}", f"p{n}@example.com", "x")
    players = list(User.objects.filter(username__startswith="p").order_by("pk"))
    cup, _ = Tournament.objects.get_or_create(
        name="The cup",
        defaults={"organiser": players[0], "signup_deadline": timezone.now() + timedelta(days=1)},
    )
    for n in range(Match.objects.count(), rows):
        white, black = players[n], players[n + 1]
        match = opened_by_white(white, black)
        services.resign(match.pk, user=black)
        TournamentMatch.objects.create(tournament=cup, slot_id=f"W1-{n}", match=match)
        Entry.objects.create(tournament=cup, user=white, seed=n + 1)
        Challenge.objects.create(challenger=white, opponent=black, rematch_of=match)
        Block.objects.create(blocker=white, blocked=black)
        Notification.objects.create(
            user=white, kind="challenge", key=f"k{n}", subject="s", body="b", match=match
        )
        Group.objects.create(name=f"group {n}")
        Tournament.objects.create(
            name=f"cup {n}", organiser=white, signup_deadline=timezone.now(), champion=black
        )


def admin_url(model: type[Model], page: str, *args: object) -> str:
    return reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_{page}", args=args)


def queries(staff: Client, url: str) -> int:
    staff.get(url)  # what a first visit caches (the content types) is not counted
    with CaptureQueriesContext(connection) as captured:
        assert staff.get(url).status_code == 200
    return len(captured)


def test_every_admin_list_costs_as_much_with_many_rows_as_with_few(staff):
    grow_to(FEW)
    few = {model: queries(staff, admin_url(model, "changelist")) for model in MODELS}
    grow_to(MANY)
    many = {model: queries(staff, admin_url(model, "changelist")) for model in MODELS}

    assert many == few


def test_every_admin_page_costs_as_much_with_many_related_rows_as_with_few(staff):
    def pages() -> dict[type[Model], int]:
        first = {model: model._default_manager.order_by("pk").first() for model in MODELS}
        return {
            model: queries(staff, admin_url(model, "change", first[model].pk)) for model in MODELS
        }

    grow_to(FEW)
    few = pages()
    grow_to(MANY)
    many = pages()

    assert many == few


def column(model: type[Model], name: str) -> str:
    name = name.lstrip("-")
    return (model._meta.pk if name == "pk" else model._meta.get_field(name)).column


@pytest.mark.parametrize("model", [Notification, Challenge], ids=lambda model: model.__name__)
def test_the_long_admin_lists_are_read_in_the_order_of_an_index(staff, model):
    listing = staff.get(admin_url(model, "changelist"))

    # Newest first, as the admin shows them, ties by id.
    ordering = listing.context["cl"].result_list.query.order_by
    with connection.cursor() as cursor:
        constraints = connection.introspection.get_constraints(cursor, model._meta.db_table)
    indexes = [c["columns"] for c in constraints.values() if c["index"]]
    assert [column(model, name) for name in ordering] in indexes
