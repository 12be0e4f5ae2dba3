"""aceysite.broker: kombu's Redis transport publishing through one client a channel."""

from __future__ import annotations

import uuid

import pytest
import redis
from celery import current_app
from kombu import Connection, Queue
from kombu.transport import redis as kombu_redis

from aceysite import broker
from aceysite import settings as site_settings

MESSAGES = 20


@pytest.mark.parametrize(
    ("url", "transport"),
    [
        ("redis://127.0.0.1:6379/1", "aceysite.broker:Transport"),
        # TLS: kombu's own transport, which checks the URL comes with its TLS settings.
        ("rediss://redis.example:6380/1", None),
        ("amqp://guest@127.0.0.1//", None),
        ("", None),
    ],
)
def test_only_a_plain_redis_broker_gets_the_shared_client_transport(url, transport):
    assert site_settings.broker_transport(url) == transport


def test_the_site_publishes_through_it(redis_url):
    with current_app.connection_for_write() as connection:
        assert isinstance(connection.default_channel, broker.Channel)


@pytest.mark.parametrize(
    ("transport", "clients_made"),
    # kombu's own: a new client a message (what aceysite.broker saves); the site's: none
    # after the first message's.
    [(kombu_redis.Transport, MESSAGES), (broker.Transport, 0)],
)
def test_messages_published_each_arrive_once_in_order(
    redis_url, monkeypatch, transport, clients_made
):
    made = []
    original_init = redis.Redis.__init__

    def counted_init(self, *args, **kwargs):
        made.append(self)
        original_init(self, *args, **kwargs)

    queue = Queue(f"test-broker-{uuid.uuid4().hex}")
    with Connection(redis_url, transport=transport) as connection:
        producer = connection.Producer()
        producer.publish({"n": 0}, routing_key=queue.name, declare=[queue])
        made.clear()
        monkeypatch.setattr(redis.Redis, "__init__", counted_init)
        for n in range(1, MESSAGES + 1):
            producer.publish({"n": n}, routing_key=queue.name)
        monkeypatch.setattr(redis.Redis, "__init__", original_init)
        clients = len(made)

        received = []
        with connection.SimpleQueue(queue) as simple:
            while len(received) < MESSAGES + 1:
                message = simple.get(timeout=5)
                received.append(message.payload["n"])
                message.ack()
            simple.queue.delete()

    assert received == list(range(MESSAGES + 1))
    assert clients == clients_made
