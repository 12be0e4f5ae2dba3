"""``celery -A aceysite worker`` for the fault tests, with Redis transport options of their own.

    python -m tests.faults.worker --pool=solo ...

Kombu's Redis transport keeps a delivered task in its ``unacked`` hash until the worker
acknowledges it; a task whose worker was killed becomes visible to other workers again only
after ``visibility_timeout`` (an hour by default), and the scan for such tasks runs every
``unacked_restore_interval * unacked_restore_throttle`` seconds (100 by default). With
ACEY_TEST_VISIBILITY_TIMEOUT set, a worker restores a killed worker's task after that many
seconds and looks every second. The site's settings have no such option, hence this script.
"""

from __future__ import annotations

import os
import sys


def main(argv: list[str]) -> None:
    from aceysite.celery import app

    visibility_timeout = os.getenv("ACEY_TEST_VISIBILITY_TIMEOUT")
    if visibility_timeout:
        app.conf.broker_transport_options = {
            "visibility_timeout": float(visibility_timeout),
            "unacked_restore_interval": 1,
            "unacked_restore_throttle": 1,
        }
    app.worker_main(["worker", *argv])


if __name__ == "__main__":
    main(sys.argv[1:])
