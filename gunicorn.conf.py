"""gunicorn's settings for the web process: the Procfile's ``web`` names this file, and
gunicorn reads it by itself when started from this directory (bench/load.py names it too).
The command line (``--bind``, ``--access-logfile``, ``--workers``) overrides it.
"""

import os

# Keeps the tokens of emailed links out of the access and error logs, sends the access
# log's "-" to standard error and logs the client's address, not the proxy's.
logger_class = "aceysite.gunicorn_logging.RedactingLogger"

# gunicorn reads WEB_CONCURRENCY itself, but defaults to a single sync worker: one slow
# request would hold up every other. Each worker is a process with its own PostgreSQL
# connection; about two per core (bench/load.py measured 2 to 4 alike on two cores).
workers = int(os.environ.get("WEB_CONCURRENCY", "4"))
