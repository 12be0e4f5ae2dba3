"""Settings for aceysite, driven by environment variables.

Every value has a default that runs the site locally with no setup: SQLite,
Celery tasks run eagerly in-process, and email printed to the console.
"""

import os
from pathlib import Path
from urllib.parse import urlsplit

import dj_database_url
from celery.schedules import crontab
from django.utils.csp import CSP

from aceysite.redis_urls import database_number


def env(name: str, default: str) -> str:
    """The variable's value; a blank one (``FOO=`` in an env file) reads as unset."""
    return os.getenv(name, "").strip() or default


def envbool(name: str, default: str) -> bool:
    return env(name, default).lower() in ("1", "true", "yes", "on")


def envint(name: str, default: str) -> int:
    value = env(name, default)
    try:
        return int(value)
    except ValueError:
        raise RuntimeError(f"{name} must be a whole number, not {value!r}") from None


def envlist(name: str, default: str) -> list[str]:
    return [item.strip() for item in env(name, default).split(",") if item.strip()]


def next_redis_database(url: str) -> str:
    """``url`` with the Redis database after its own (no database given counts as 0); empty
    stays empty. ``redis://host:6379/2`` gives ``redis://host:6379/3``."""
    if not url:
        return ""
    parts = urlsplit(url)
    number = database_number(parts)
    if number is None:
        raise ValueError(f"not a Redis database number in {url!r}")
    return parts._replace(path=f"/{number + 1}").geturl()


def broker_transport(url: str) -> str | None:
    """The kombu transport for the broker at ``url``: for ``redis://``, kombu's Redis
    transport with one client a channel instead of a new one per task published
    (aceysite.broker); otherwise None, the one its scheme names. Not for ``rediss://``:
    naming a transport bypasses kombu's check that a TLS URL comes with
    CELERY_BROKER_USE_SSL."""
    return "aceysite.broker:Transport" if url.startswith("redis://") else None


def database_from_url(url: str) -> dict:
    # Persistent connections help PostgreSQL; SQLite gains nothing from them.
    conn_max_age = 0 if url.startswith("sqlite") else envint("DB_CONN_MAX_AGE", "600")
    config = dj_database_url.parse(url, conn_max_age=conn_max_age, conn_health_checks=True)
    if url.startswith("sqlite"):
        # A transaction that reads and then writes (a turn: the match row, then the new
        # segment) must take SQLite's write lock when it begins: begun as a reader, it
        # fails at once with "database is locked" when another request writes first,
        # which no busy timeout can wait out. Writers queue instead, for up to 20 s.
        config["OPTIONS"] = {"transaction_mode": "IMMEDIATE", "timeout": 20}
    if not url.startswith("sqlite"):
        # psycopg prepares a statement a connection has run this many times, if the
        # statement binds its parameters on the server: only the turn's statements
        # written by hand (aceysite.sql) do, the ORM's bind on the client. Unset
        # (DB_PREPARED_STATEMENTS=false) behind a pooler that cannot keep a connection's
        # prepared statements (PgBouncer before 1.21, or without max_prepared_statements).
        prepare = envbool("DB_PREPARED_STATEMENTS", "true")
        config.setdefault("OPTIONS", {})["prepare_threshold"] = 5 if prepare else None
    if os.getenv("DB_APPLICATION_NAME") and not url.startswith("sqlite"):
        # Names this process's connections in pg_stat_activity (e.g. "web", "worker").
        config.setdefault("OPTIONS", {})["application_name"] = os.environ["DB_APPLICATION_NAME"]
    return config


def mailers_from_env() -> dict:
    if not os.getenv("SMTP_HOST"):
        return {"default": {"BACKEND": "aceysite.mail.ReadableConsoleBackend"}}
    return {
        "default": {
            "BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "OPTIONS": {
                "host": os.environ["SMTP_HOST"],
                "port": envint("SMTP_PORT", "587"),
                "username": os.getenv("SMTP_USER", ""),
                "password": os.getenv("SMTP_PASSWORD", ""),
                # STARTTLS on the submission port (587), or SMTP_USE_SSL=true for TLS
                # from the first byte (port 465); never both.
                "use_ssl": envbool("SMTP_USE_SSL", "false"),
                "use_tls": envbool(
                    "SMTP_USE_TLS", "false" if envbool("SMTP_USE_SSL", "false") else "true"
                ),
                "timeout": envint("SMTP_TIMEOUT", "10"),
            },
        }
    }


BASE_DIR = Path(__file__).resolve().parent.parent

DEBUG = envbool("DEBUG", "true")
SECRET_KEY = os.getenv("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise RuntimeError("SECRET_KEY must be set when DEBUG is off")
    SECRET_KEY = "insecure-local-development-key-do-not-use-in-production"
# The keys SECRET_KEY replaced, comma-separated: what they signed still holds (sessions,
# password-reset, confirmation and unsubscribe links) while they stay listed. To rotate:
# the old key here, a new SECRET_KEY, and the old one dropped once its links have expired.
SECRET_KEY_FALLBACKS = envlist("SECRET_KEY_FALLBACKS", "")

ALLOWED_HOSTS = envlist("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]")
CSRF_TRUSTED_ORIGINS = envlist("CSRF_TRUSTED_ORIGINS", "")
# A refused form gets the site's page, which knows who is logged in (Django's does not).
CSRF_FAILURE_VIEW = "aceysite.views.csrf_failure"
SITE_NAME = env("SITE_NAME", "Acey-Deucey by post")
# Absolute links in emails are built from this.
SITE_URL = env("SITE_URL", "http://127.0.0.1:8000")

INSTALLED_APPS = [
    # First: its changepassword command takes the place of django.contrib.auth's.
    "accounts",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django_htmx",
    "games",
    "games.tournaments",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "aceysite.middleware.RefuseNulMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "aceysite.middleware.UserTimezoneMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "aceysite.middleware.HtmxLoginRedirectMiddleware",
]

# bench/load.py serves the site plus a bare "floor" view from bench.urls.
ROOT_URLCONF = env("ACEY_URLCONF", "aceysite.urls")
WSGI_APPLICATION = "aceysite.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "aceysite.context_processors.site",
            ],
            "builtins": [
                "games.templatetags.timestamps",
                "games.templatetags.idempotency",
                "games.templatetags.players",
                "games.templatetags.ratings",
            ],
        },
    },
]

DATABASE_URL = env("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}")
DATABASES = {"default": database_from_url(DATABASE_URL)}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_USER_MODEL = "accounts.User"
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
if not DEBUG:
    # WhiteNoise serves /static/ from STATIC_ROOT (collectstatic at build time), with hashed
    # file names so browsers may cache them for ever; in DEBUG, runserver serves them.
    MIDDLEWARE.insert(1, "whitenoise.middleware.WhiteNoiseMiddleware")
    STORAGES = {
        "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
        "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
    }
STATICFILES_DIRS = [BASE_DIR / "static"] if (BASE_DIR / "static").is_dir() else []

# Celery: with no broker configured, tasks run eagerly in-process so the site
# works locally without Redis.
REDIS_URL = os.getenv("REDIS_URL", "")
# Without a broker URL of its own, the broker takes the Redis database after the cache's:
# a cache may be cleared (cache.clear(), a test run) or evicted when memory runs short, and
# queued emails and bot turns must not go with it (games.checks refuses a shared one).
CELERY_BROKER_URL = os.getenv("CELERY_BROKER_URL") or next_redis_database(REDIS_URL)
CELERY_RESULT_BACKEND = os.getenv("CELERY_RESULT_BACKEND") or None
CELERY_TASK_ALWAYS_EAGER = envbool(
    "CELERY_TASK_ALWAYS_EAGER", "false" if CELERY_BROKER_URL else "true"
)
CELERY_TASK_EAGER_PROPAGATES = True
# A task is acknowledged only after it finishes, so a worker that dies mid-task
# leaves it for another worker; tasks must therefore be idempotent.
CELERY_TASK_ACKS_LATE = True
# A hung Redis must not hang a web request that publishes after its commit.
CELERY_BROKER_TRANSPORT_OPTIONS = {"socket_timeout": 5, "socket_connect_timeout": 5}
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_BROKER_TRANSPORT = broker_transport(CELERY_BROKER_URL)
# Celery's Django fixup closes the database connection around every task unless this is
# set, so each email or bot turn would open a new PostgreSQL connection (a process forked
# on the server: more CPU than sending the email). With it, the fixup closes only every
# 2 x 1000 tasks; aceysite.celery recycles connections per task as Django does per request
# (CONN_MAX_AGE, health checks).
CELERY_DB_REUSE_MAX = 1000
CELERY_TIMEZONE = TIME_ZONE
# Celery's own format for the worker's and beat's lines, with the logger's name added.
CELERY_WORKER_LOG_FORMAT = "[%(asctime)s: %(levelname)s/%(processName)s] %(name)s: %(message)s"
# The integration tests give each run its own queue on a shared Redis.
CELERY_TASK_DEFAULT_QUEUE = env("CELERY_TASK_DEFAULT_QUEUE", "celery")
# A failed email is retried after this many seconds, doubling each time (up to an hour).
EMAIL_RETRY_BASE_SECONDS = envint("ACEY_EMAIL_RETRY_BASE", "30")
# A turn email waits this long, and when its time comes goes out only if the player has
# still not moved: a player who is on the site and answers at once gets no email for each
# turn. 0 sends at once, unconditionally. Read by the web (the wait) and the worker (the
# check). Eager mode (no broker: local development) sends at once.
TURN_EMAIL_DELAY_SECONDS = envint("ACEY_TURN_EMAIL_DELAY", "300")
# Beat sweeps the outbox for turn emails this often: those whose wait (above) or retry delay
# is over, and any whose sweep a turn could not wake (games.notifications).
TURN_EMAIL_SWEEP_SECONDS = envint("ACEY_TURN_EMAIL_SWEEP_SECONDS", "15")
# The email offering a challenge to its opponent waits this long, and when its time comes
# goes out only if the challenge still waits: one withdrawn at once (a slip, an option
# chosen wrong) sends nothing. 0 sends at once (then only a challenge withdrawn before the
# worker takes its email sends none). Read where challenges are made (the web); eager mode
# sends at once.
CHALLENGE_EMAIL_DELAY_SECONDS = envint("ACEY_CHALLENGE_EMAIL_DELAY", "120")
# How long a sender holds a claimed email; after a sender dies mid-send the resend sweep
# picks the email up once this has passed. Longer than any send (SMTP_TIMEOUT) can take.
EMAIL_CLAIM_SECONDS = envint("ACEY_EMAIL_CLAIM_SECONDS", "300")
# The daily digest goes out at this hour of each player's own day (their timezone).
DIGEST_HOUR = envint("ACEY_DIGEST_HOUR", "8")
# Days of time away (games.away) a player may take each calendar year.
AWAY_DAYS_PER_YEAR = envint("ACEY_AWAY_DAYS_PER_YEAR", "30")
# How often a match page asks for new messages between the players (games.chat).
CHAT_POLL_SECONDS = envint("ACEY_CHAT_POLL_SECONDS", "30")
# Deadlines live in the database and are found by these sweeps, never as long countdowns.
# Beat keeps its schedule in memory (the Procfile), so each restart starts it afresh: an
# interval counts from beat's start, and a deploy more often than every interval would put
# a sweep off for ever. So every sweep but the minute or two apart ones (put off by that
# much at most, and ACEY_SWEEP_SECONDS may be under a minute) runs at set minutes of the
# clock (crontab), spread over the hour.
CELERY_BEAT_SCHEDULE = {
    "sweep-deadlines": {
        "task": "games.tasks.task_sweep_deadlines",
        "schedule": float(envint("ACEY_SWEEP_SECONDS", "60")),
    },
    "resend-unsent-email": {"task": "games.tasks.task_resend_unsent", "schedule": 120.0},
    # Turn emails whose wait is over, or whose retry delay, or whose wake was lost: a turn
    # email waits at most this long past its time (games.notifications).
    "sweep-turn-emails": {
        "task": "games.tasks.task_sweep_turn_emails",
        "schedule": float(TURN_EMAIL_SWEEP_SECONDS),
    },
    # Hourly: each digest player gets theirs once a day, at DIGEST_HOUR in their own
    # timezone. (A 24-hour interval counted from beat's start: each restart postponed it.)
    "daily-digest": {"task": "games.tasks.task_daily_digest", "schedule": crontab(minute=0)},
    "start-due-tournaments": {
        "task": "games.tasks.task_start_due_tournaments",
        "schedule": 60.0,
    },
    "requeue-stuck-bot-turns": {
        "task": "games.tasks.task_queue_stuck_bot_turns",
        "schedule": 120.0,
    },
    "finish-account-closures": {
        "task": "games.tasks.task_finish_closures",
        "schedule": crontab(minute="5-59/10"),
    },
    "forget-idempotency-keys": {
        "task": "games.tasks.task_forget_idempotency_keys",
        "schedule": crontab(minute=30),
    },
    # Hourly: a challenge expires within the hour after its days are up
    # (games.models.CHALLENGE_DAYS).
    "expire-challenges": {
        "task": "games.tasks.task_expire_challenges",
        "schedule": crontab(minute=50),
    },
    # What nothing else deletes: expired sessions, and emails sent or dropped long ago
    # (games.notifications.EMAILS_KEPT). Hourly, each run deletes an hour's worth.
    "clear-expired-sessions": {
        "task": "games.tasks.task_clear_expired_sessions",
        "schedule": crontab(minute=20),
    },
    "forget-old-emails": {
        "task": "games.tasks.task_forget_old_emails",
        "schedule": crontab(minute=40),
    },
}

# The cache holds the failed-login counters: shared through Redis when there is one, so
# that every web worker counts the same attempts.
if REDIS_URL:
    CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL}
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
# Behind N reverse proxies, the client's address is the Nth from the right in
# X-Forwarded-For (accounts.throttle); 0 trusts no proxy.
TRUSTED_PROXY_COUNT = envint("TRUSTED_PROXY_COUNT", "0")

MAILERS = mailers_from_env()
DEFAULT_FROM_EMAIL = env("DEFAULT_FROM_EMAIL", "Acey-Deucey <noreply@localhost>")
SERVER_EMAIL = env("SERVER_EMAIL", DEFAULT_FROM_EMAIL)
# Who gets an email with the traceback of each server error (from SERVER_EMAIL).
ADMINS = envlist("ADMINS", "")
# One error email a kind of error (logger and exception type) in this many seconds, per
# process: an outage fails every request (aceysite.log_filters.ThrottledAdminEmailHandler).
ADMIN_EMAIL_WINDOW_SECONDS = envint("ACEY_ADMIN_EMAIL_WINDOW_SECONDS", "600")
# Those emails list the settings and the request: without the passwords in the service URLs
# (DATABASE_URL, REDIS_URL, ...), which Django's own filter shows since their names do not
# look secret.
DEFAULT_EXCEPTION_REPORTER_FILTER = "aceysite.error_reports.HideUrlPasswords"
DEFAULT_EXCEPTION_REPORTER = "aceysite.error_reports.RedactingReporter"

# Outside DEBUG, assume HTTPS behind a proxy that sets X-Forwarded-Proto.
SECURE = not DEBUG
SECURE_SSL_REDIRECT = envbool("SECURE_SSL_REDIRECT", str(SECURE))
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https") if SECURE else None
# Cookies only over HTTPS. SECURE_COOKIES=false is for a trial over plain HTTP on a
# private network; browsers drop secure cookies sent over HTTP to any host but localhost.
SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = envbool("SECURE_COOKIES", str(SECURE))
SECURE_HSTS_SECONDS = envint("SECURE_HSTS_SECONDS", "31536000" if SECURE else "0")
# Both on by default (check --deploy asks for them), and each may be turned off: a site on
# a domain with subdomains that are not all HTTPS (includeSubDomains would lock browsers out
# of them), or whose domain is not for the preload list, which is hard to leave.
SECURE_HSTS_INCLUDE_SUBDOMAINS = envbool("SECURE_HSTS_INCLUDE_SUBDOMAINS", str(SECURE))
SECURE_HSTS_PRELOAD = envbool("SECURE_HSTS_PRELOAD", str(SECURE))
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
# Scripts and styles only from our own static files: no inline code, no third parties.
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF],
    "style-src": [CSP.SELF],
    "img-src": [CSP.SELF, "data:"],
    "connect-src": [CSP.SELF],
    "form-action": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
    "base-uri": [CSP.SELF],
    "object-src": [CSP.NONE],
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {
        "redact_tokens": {"()": "aceysite.log_filters.RedactTokens"},
        "as_warning": {"()": "aceysite.log_filters.LogAsWarning"},
        "outages_as_warnings": {"()": "aceysite.log_filters.LogAsWarning", "outages_only": True},
        "require_debug_false": {"()": "django.utils.log.RequireDebugFalse"},
    },
    "formatters": {
        # gunicorn's own lines' time and level, so that the web process's lines read alike,
        # and the logger's name: where the line comes from.
        "timed": {
            "format": "[%(asctime)s] [%(process)d] [%(levelname)s] %(name)s: %(message)s",
            "datefmt": "%Y-%m-%d %H:%M:%S %z",
        }
    },
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "filters": ["redact_tokens"],
            "formatter": "timed",
        },
        # Django's mail_admins, one email a kind of error every ADMIN_EMAIL_WINDOW_SECONDS.
        "mail_admins": {
            "level": "ERROR",
            "filters": ["require_debug_false"],
            "class": "aceysite.log_filters.ThrottledAdminEmailHandler",
        },
    },
    # Django's defaults stand: its "django" logger emails ADMINS each ERROR (mail_admins),
    # server errors above all. Two kinds of ERROR below are logged as warnings instead, so
    # that nobody is emailed for what needs nobody to act, once per request.
    "loggers": {
        # Django's own logger with the throttled mail_admins in place of Django's (its lines
        # reach the console through the root, as every logger's do).
        "django": {"handlers": ["mail_admins"], "level": "INFO"},
        # A request for a host not in ALLOWED_HOSTS (400): scanners send them all day.
        "django.security.DisallowedHost": {"filters": ["as_warning"]},
        # A robust on_commit callback that failed (Django logs it here) for an outage, once
        # per request while it lasts. A safety net: the known ones log their own outages
        # as warnings where they happen (an account email sent after a commit, in
        # aceysite.mail.send_or_log; a task queued after a commit, in
        # aceysite.celery.queue). Other errors still email ADMINS.
        "django.db.backends.base": {"filters": ["outages_as_warnings"]},
        # Django logs the path of every 4xx/5xx response; some paths carry emailed tokens.
        "django.request": {"filters": ["redact_tokens"]},
        "django.security": {"filters": ["redact_tokens"]},
        # runserver's request log (bin/serve) prints every path, 200s too.
        "django.server": {"filters": ["redact_tokens"]},
    },
    "root": {"handlers": ["console"], "level": env("LOG_LEVEL", "INFO")},
}
