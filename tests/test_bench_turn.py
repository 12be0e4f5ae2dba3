"""bench.turn's step timers (the benchmark itself is not a test)."""

from __future__ import annotations

import gc
import time

import pytest

from bench.turn import Collector, Steps, email_steps, turn_steps


def busy(seconds: float) -> None:
    """Spend about ``seconds`` of this thread's CPU."""
    until = time.thread_time() + seconds
    while time.thread_time() < until:
        pass


class Base:
    def inherited(self) -> str:
        return "base"


class Owner(Base):
    @classmethod
    def made(cls) -> str:
        busy(0.02)
        return cls.__name__

    @staticmethod
    def outer() -> str:
        busy(0.02)
        return Owner.made() + Owner().inherited()


def test_a_step_leaves_out_the_steps_timed_inside_it():
    steps = Steps()
    with steps.timing([(Owner, "outer", "outer"), (Owner, "made", "made")]):
        assert Owner.outer() == "Ownerbase"  # the class method still gets its class

    assert steps.spent["made"] >= 0.02
    # Its own 20 ms, not the 40 with the step inside it.
    assert 0.02 <= steps.spent["outer"] < 0.035


def test_what_was_timed_is_put_back_as_it_was():
    made, outer = Owner.__dict__["made"], Owner.__dict__["outer"]
    steps = Steps()
    with steps.timing([(Owner, "made", "made"), (Owner, "inherited", "inherited")]):
        assert "inherited" in Owner.__dict__
        Owner().inherited()
    assert Owner.__dict__["made"] is made and Owner.__dict__["outer"] is outer
    assert "inherited" not in Owner.__dict__  # Base's again
    assert steps.spent["inherited"] > 0


def test_put_back_after_an_error_too():
    made = Owner.__dict__["made"]
    with pytest.raises(RuntimeError), Steps().timing([(Owner, "made", "made")]):
        raise RuntimeError
    assert Owner.__dict__["made"] is made


def test_a_step_that_names_nothing_stops_it_and_puts_back_the_others():
    made = Owner.__dict__["made"]
    steps = [(Owner, "made", "made"), (Owner, "inherited", "inherited"), (Owner, "gone", "x")]
    with pytest.raises(AttributeError), Steps().timing(steps):
        pass
    assert Owner.__dict__["made"] is made and "inherited" not in Owner.__dict__


@pytest.mark.parametrize("steps", [turn_steps, email_steps])
def test_every_step_names_a_callable_the_site_has(steps):
    # A step renamed in the site would stop the benchmark; this says which.
    for owner, name, label in steps():
        assert callable(getattr(owner, name, None)), f"{label}: {owner!r} has no {name}"


@pytest.mark.django_db
def test_every_turn_step_is_on_a_turns_path(
    alice, bob, tasks_published, django_capture_on_commit_callbacks
):
    # A step that names a callable the turn no longer calls would time nothing, and the
    # benchmark would put its share under "the rest" without a word.
    from django.urls import reverse

    from tests.api.conftest import post_json, token_client
    from tests.matches import opened_by_white

    match = opened_by_white(alice, bob)  # alice to play 6-3
    api = token_client(alice)
    url = reverse("api_match_turn", args=[match.pk])
    steps = Steps()
    with steps.timing(turn_steps()), django_capture_on_commit_callbacks(execute=True):
        response = post_json(api, url, {"segment": 1, "play": "in/22 in/19"})

    assert response.status_code == 200, response.content
    labels = {label for _, _, label in turn_steps()}
    assert labels - set(steps.spent) == set()


def test_postgresqls_share_is_not_guessed_when_the_connection_changed():
    from bench.turn import backend_ms

    assert backend_ms((10, 1.0), (10, 1.5), 100) == "PostgreSQL's 5.00 ms"
    assert "not measured" in backend_ms((10, 1.0), (11, 0.2), 100)


@pytest.mark.django_db
def test_the_backend_read_is_this_connections():
    from django.db import connection

    from bench.turn import backend_cpu

    if connection.vendor != "postgresql":
        pytest.skip("a PostgreSQL backend's")
    pid, cpu = backend_cpu()
    assert pid == connection.connection.info.backend_pid
    assert cpu >= 0


def test_the_collector_counts_the_time_inside_collections_only_while_counting():
    def garbage() -> None:
        for _ in range(200_000):
            cycle: list = []
            cycle.append(cycle)

    collector = Collector()
    began = time.thread_time()
    with collector.counting():
        busy(0.1)  # no collection: not counted
        garbage()
        gc.collect()
    counted, spent = collector.seconds, time.thread_time() - began
    assert 0 < counted < spent - 0.09
    garbage()
    gc.collect()
    assert collector.seconds == counted and collector._callback not in gc.callbacks
