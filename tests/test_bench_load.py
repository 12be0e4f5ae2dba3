"""bench.load's reading of the Redis server's CPU."""

from __future__ import annotations

from pathlib import Path

from bench.load import CpuMeter, redis_server_pid


def test_the_redis_server_is_found_on_this_machine(redis_url):
    pid = redis_server_pid(redis_url)

    assert pid is not None
    assert Path(f"/proc/{pid}/comm").read_text().startswith("redis")


def test_a_redis_elsewhere_is_not_read():
    # Its process is on another machine: nothing to connect to, nothing to read.
    assert redis_server_pid("redis://redis.example:6379/0") is None


def test_the_meter_reads_redis_as_a_part_of_its_own(redis_url):
    pid = redis_server_pid(redis_url)
    meter = CpuMeter(gunicorn=0, worker=0, database="", redis=pid)

    assert meter.read_parts()["Redis"] == [pid]
    assert "Redis" not in CpuMeter(gunicorn=0, worker=0, database="").read_parts()
