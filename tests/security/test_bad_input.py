"""Bad input on the web forms: never a 500, always a reason, nothing changed; CSRF on every
form and HTMX post."""

from __future__ import annotations

import pytest
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.models import Match
from tests.matches import opened_by_white

pytestmark = pytest.mark.django_db

FIELDS = st.dictionaries(
    st.sampled_from(["segment", "play", "steps", "double", "name_blot", "select", "junk"]),
    st.one_of(st.text(max_size=60), st.integers().map(str), st.just(""), st.just("1")),
    max_size=5,
)


@pytest.fixture
def match(alice, bob) -> Match:
    return opened_by_white(alice, bob)


@settings(max_examples=80, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=FIELDS, endpoint=st.sampled_from(["turn", "click"]))
def test_the_htmx_turn_and_click_endpoints_answer_any_form_without_a_500(
    client, alice, match, data, endpoint
):
    client.force_login(alice)
    before = Match.objects.filter(pk=match.pk).values_list("segment_count", "position").get()

    response = client.post(f"/matches/{match.pk}/{endpoint}/", data, HTTP_HX_REQUEST="true")

    assert response.status_code < 500
    if response.status_code >= 400:
        assert 'role="alert"' in response.text or "error" in response.text
    after = Match.objects.filter(pk=match.pk).values_list("segment_count", "position").get()
    if data.get("play") not in ("in/22 in/19", "in/19 19/16") and "steps" not in data:
        assert after == before  # only a legal play may change the match


FORMS = [
    ("/accounts/signup/", {"username": "eve", "email": "e@example.com"}),
    ("/accounts/login/", {"username": "alice", "password": "x"}),
    ("/accounts/settings/", {"display_name": "Eve"}),
    ("/challenges/new/", {"variant": "greek", "points": 1, "days_per_move": 2}),
    ("/matches/{match}/turn/", {"segment": 1, "play": "in/22 in/19"}),
    ("/matches/{match}/click/", {"steps": ""}),
    ("/matches/{match}/resign/", {}),
    ("/matches/{match}/messages/", {"text": "Good luck"}),
    ("/tournaments/new/", {"name": "Cup"}),
]


@pytest.mark.parametrize(("path", "data"), FORMS)
@pytest.mark.parametrize("htmx", [False, True])
def test_every_form_and_htmx_post_needs_the_csrf_token(alice, match, path, data, htmx):
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}

    response = client.post(path.format(match=match.pk), data, **headers)

    assert response.status_code == 403
    assert Match.objects.get(pk=match.pk).segment_count == match.segment_count
