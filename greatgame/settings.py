"""Django settings, read from the environment (12-factor) with django-environ.

With no environment at all the server runs embedded: SQLite in var/, Celery on kombu's
filesystem broker in var/broker/, a local-memory cache and e-mail printed to the console.
"""

from email.utils import parseaddr
from pathlib import Path

import environ
from csp.constants import NONCE, NONE, SELF

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = BASE_DIR / "var"
VAR_DIR.mkdir(exist_ok=True)

env = environ.Env()

DEBUG = env.bool("DEBUG", default=True)

if DEBUG:
    SECRET_KEY = env.str("SECRET_KEY", default="django-insecure-dev-only-NEVER-use-in-production")
else:
    # No default: production must set its own key.
    SECRET_KEY = env.str("SECRET_KEY")

ALLOWED_HOSTS = env.list(
    "ALLOWED_HOSTS", default=["localhost", "127.0.0.1", "[::1]"] if DEBUG else []
)
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])

# HTTPS in production (all off with DEBUG, so `make run` serves plain HTTP). X-Forwarded-For
# (the client address that rate limits count) and X-Forwarded-Proto ("is this HTTPS?") are
# believed only from these reverse proxies (addresses or networks); from anyone else they are
# dropped (games.middleware.ClientAddressMiddleware). None by default: the peer's address.
TRUSTED_PROXIES = env.list("TRUSTED_PROXIES", default=[])
if TRUSTED_PROXIES:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=not DEBUG)
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]  # load balancers probe over plain HTTP
SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=0 if DEBUG else 365 * 24 * 60 * 60)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=not DEBUG)
SECURE_HSTS_PRELOAD = env.bool("SECURE_HSTS_PRELOAD", default=not DEBUG)
SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = env.bool("SECURE_COOKIES", default=not DEBUG)

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    # runserver (make run) serves static files through WhiteNoise, as production does, not
    # through Django's own handler, which answered a path climbing out of static/ with a 500.
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "django_filters",  # the game search (games.search)
    "drf_spectacular",
    "drf_spectacular_sidecar",  # the API docs' Swagger UI, served from our own static files
    "csp",
    "games",
]

MIDDLEWARE = [
    # first: Server-Timing counts the time of the whole chain, the others' included
    "games.middleware.ServerTimingMiddleware",
    "games.middleware.RequestIdMiddleware",  # every log record carries the id
    # gzip pages and boards (not event streams); outermost but one, so it sees the final body.
    "games.middleware.CompressionMiddleware",
    "games.middleware.ClientAddressMiddleware",  # before anything reads the address or scheme
    "games.middleware.DatabaseUnavailableMiddleware",  # PostgreSQL down: 503, not 500
    "games.middleware.NulCharacterMiddleware",  # a NUL in a URL: 400, never the database's 500
    "games.middleware.UndecodableFormMiddleware",  # a form body that is not text: 400
    "django.middleware.security.SecurityMiddleware",
    "games.middleware.ContentSecurityPolicyMiddleware",  # django-csp's, its plain headers kept
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # The language: the one picked on the page (a cookie), else the browser's Accept-Language.
    "django.middleware.locale.LocaleMiddleware",
    "games.middleware.MissingSlashMiddleware",  # before CommonMiddleware's redirect
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "games.middleware.PrivateCacheMiddleware",
    "games.middleware.ErrorPageMiddleware",  # bare 400/403/405 text: the site's error page
    "games.middleware.PageMethodsMiddleware",  # a page PUT or DELETE: 405, not the page
    "games.middleware.ApiNotFoundMiddleware",  # JSON 404s under /api/, with DEBUG on too
    "greatgame.ratelimit.FormRateLimitMiddleware",
    "games.middleware.PageMessageMiddleware",  # Django's messages, for pages only
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "greatgame.urls"
# A stale sign-in form of the account already signed in (another tab) goes on, not a 403.
CSRF_FAILURE_VIEW = "games.csrf_failure.csrf_failure"

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
                "django.template.context_processors.i18n",
                "games.context_processors.script_words",  # static/live.js's words
                "csp.context_processors.nonce",  # {{ CSP_NONCE }} for a page's own script
            ],
        },
    },
]

WSGI_APPLICATION = "greatgame.wsgi.application"
ASGI_APPLICATION = "greatgame.asgi.application"

DATABASES = {
    "default": env.db_url("DATABASE_URL", default=f"sqlite:///{VAR_DIR / 'db.sqlite3'}"),
}
# Keep each worker's connection open between requests: a new PostgreSQL connection costs
# more than a whole order submission. A URL's own ?conn_max_age= wins; 0 turns it off.
DATABASES["default"].setdefault("CONN_MAX_AGE", env.int("CONN_MAX_AGE", default=60))
DATABASES["default"].setdefault("CONN_HEALTH_CHECKS", True)
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # Django's backend, its health check skipped for a connection busy a moment ago.
    DATABASES["default"]["ENGINE"] = "greatgame.postgresql"
    if env.bool("DATABASE_PREPARED_STATEMENTS", default=True):
        # Parameters bound by the server and a statement prepared once it has run twice on a
        # connection: planning the seat's five-table read cost PostgreSQL five times running
        # it, and a request's statements repeat on every request. Off behind a pooler that
        # shares connections between transactions (PgBouncer's transaction mode).
        DATABASES["default"].setdefault("OPTIONS", {}).update(
            server_side_binding=True, prepare_threshold=2
        )
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # The embedded default serves a few players at once: readers go on while one writes
    # (WAL), a writer waits its turn for up to 20 s instead of failing "database is locked",
    # and a transaction takes the write lock when it begins (IMMEDIATE), so that two of them
    # can never both read and then both need to write, which SQLite can only refuse.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL",
            "transaction_mode": "IMMEDIATE",
            "timeout": 20,
        }
    )
    # Tests on a file, as the server runs, not in memory: an in-memory database shared between
    # the browser tests' live server and the test refuses a table another connection holds
    # ("database table is locked") at once, where a file's writer waits its turn.
    DATABASES["default"].setdefault("TEST", {"NAME": str(VAR_DIR / "test.sqlite3")})
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Names are unique in any case, so signing in reads them in any case. Django's own backend
# stays listed for the sessions it signed in before (a session keeps its backend's path, and
# one no longer listed is signed out); it never judges a password (``AnyCaseModelBackend``).
AUTHENTICATION_BACKENDS = [
    "games.auth_backends.AnyCaseModelBackend",
    "django.contrib.auth.backends.ModelBackend",
]

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
    {"NAME": "games.passwords.MaximumLengthValidator"},  # 1,024 characters at most
]

# English, Simplified Chinese and Japanese (locale/; .mo files are committed, compiled from
# the .po files by `python manage.py compilemessages`). Province and power names stay as
# each variant names them.
LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("zh-hans", "简体中文"), ("ja", "日本語")]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = VAR_DIR / "static"
STATIC_ROOT.mkdir(exist_ok=True)  # whitenoise warns when it is missing
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        # Hashed, compressed files in production; plain files in development so that
        # nothing needs collectstatic first.
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage",
    },
}

# Redis when REDIS_URL is set; otherwise everything stays in-process or on disk in var/.
REDIS_URL = env.str("REDIS_URL", default="")

if REDIS_URL:
    CACHES = {
        "default": {"BACKEND": "greatgame.cache.SharedClientRedisCache", "LOCATION": REDIS_URL}
    }
    CELERY_BROKER_URL = REDIS_URL
    CELERY_RESULT_BACKEND = REDIS_URL
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    BROKER_DIR = VAR_DIR / "broker"
    for sub in ("queue", "processed", "control", "results"):
        (BROKER_DIR / sub).mkdir(parents=True, exist_ok=True)
    CELERY_BROKER_URL = "filesystem://"
    CELERY_BROKER_TRANSPORT = "greatgame.broker:Transport"  # messages written whole
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(BROKER_DIR / "queue"),
        "data_folder_out": str(BROKER_DIR / "queue"),
        "processed_folder": str(BROKER_DIR / "processed"),
        "control_folder": str(BROKER_DIR / "control"),
    }
    CELERY_RESULT_BACKEND = f"file://{BROKER_DIR / 'results'}"

CELERY_TIMEZONE = TIME_ZONE
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_BEAT_SCHEDULE_FILENAME = str(VAR_DIR / "celerybeat-schedule")
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# The worker logs through LOGGING above (JSON lines with the rest); anything printed is INFO.
CELERY_WORKER_HIJACK_ROOT_LOGGER = False
CELERY_WORKER_REDIRECT_STDOUTS_LEVEL = "INFO"
# The sweep processes overdue phases (a lost message or a restarted worker strands nothing)
# and sends deadline reminders; the digest collects a day's press.
CELERY_BEAT_SCHEDULE = {
    "sweep-overdue-phases": {"task": "games.tasks.sweep", "schedule": 60.0},
    "press-digest": {"task": "games.tasks.press_digest", "schedule": 24 * 60 * 60.0},
}
# /healthz answers 503 when the sweep (sent by beat each minute, run by a worker) has not run
# for this many seconds: deadlines are not being processed (games.health).
HEALTH_SWEEP_STALE_SECONDS = env.int("HEALTH_SWEEP_STALE_SECONDS", default=300)

EMAIL_CONFIG = env.email_url("EMAIL_URL", default="consolemail://")
vars().update(EMAIL_CONFIG)
if EMAIL_BACKEND == "django.core.mail.backends.console.EmailBackend":  # noqa: F821 (just set)
    # "Printed" mail becomes an INFO log record, one JSON line like every other.
    EMAIL_BACKEND = "greatgame.logs.LoggingEmailBackend"
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", default="Great Game <noreply@localhost>")
SERVER_EMAIL = env.str("SERVER_EMAIL", default=DEFAULT_FROM_EMAIL)
# Who is mailed each unhandled error with its traceback (DEBUG off): "Name <a@b>, c@d".
ADMINS = [parseaddr(admin) for admin in env.list("ADMINS", default=[])]

# Logs: JSON lines on stdout (LOG_FORMAT=text for plain lines), each with the request id.
# Unhandled errors are logged by "django.request" with their traceback (and mailed to ADMINS).
LOG_LEVEL = env.str("LOG_LEVEL", default="INFO").upper()
LOG_FORMAT = env.str("LOG_FORMAT", default="json")
# One access record per request (method, path, status, time, client); runserver has its own.
LOG_REQUESTS = env.bool("LOG_REQUESTS", default=not DEBUG)
# Django's SuspiciousOperation records that are a client's bad request, answered 400.
CLIENT_ERRORS = [
    "DisallowedHost",
    "DisallowedRedirect",
    "RequestDataTooBig",
    "TooManyFieldsSent",
    "TooManyFilesSent",
    "SuspiciousMultipartForm",
    "SuspiciousSession",
    "InvalidSessionKey",
]
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {
        "request_id": {"()": "greatgame.logs.RequestIdFilter"},
        "client_error": {"()": "greatgame.logs.ClientErrorFilter"},
        "require_debug_false": {"()": "django.utils.log.RequireDebugFalse"},
    },
    "formatters": {
        "json": {"()": "greatgame.logs.JsonFormatter"},
        "text": {"format": "%(asctime)s %(levelname)s %(name)s [%(request_id)s] %(message)s"},
    },
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "stream": "ext://sys.stdout",
            "filters": ["request_id"],
            "formatter": "text" if LOG_FORMAT == "text" else "json",
        },
        "mail_admins": {
            "class": "django.utils.log.AdminEmailHandler",
            "level": "ERROR",
            "filters": ["require_debug_false"],
        },
    },
    "root": {"handlers": ["console"], "level": LOG_LEVEL},
    "loggers": {
        # Django's own console handlers (DEBUG only) are replaced by the root's.
        "django": {"handlers": ["mail_admins"], "level": LOG_LEVEL, "propagate": True},
        "django.server": {"handlers": [], "level": LOG_LEVEL, "propagate": True},
        # A bad Host header, an oversize form, too many fields: the client's mistake, answered
        # 400. A warning without a traceback, never an error mailed to the admins. (A logger's
        # filter sees only the records logged to that very logger, so each is named.)
        **{
            f"django.security.{name}": {"filters": ["client_error"], "propagate": True}
            for name in CLIENT_ERRORS
        },
    },
}

# Error reports to Sentry (or a compatible service) when SENTRY_DSN is set; nothing otherwise.
SENTRY_DSN = env.str("SENTRY_DSN", default="")
if SENTRY_DSN:
    import sentry_sdk

    sentry_sdk.init(
        dsn=SENTRY_DSN,
        environment=env.str("SENTRY_ENVIRONMENT", default="production"),
        traces_sample_rate=env.float("SENTRY_TRACES_SAMPLE_RATE", default=0.0),
        send_default_pii=False,
    )

# No honest request comes near these (100 orders of 200 characters, or 5,000 characters of
# press, is some 60 KB form-encoded); games.parsers holds the API's bodies to the same cap.
DATA_UPLOAD_MAX_MEMORY_SIZE = 256 * 1024
DATA_UPLOAD_MAX_NUMBER_FIELDS = 1000

REST_FRAMEWORK = {
    # A game's paused_remaining as ISO 8601 ("P0DT01H30M00S"), like its dates, not Django's
    # own duration text ("01:30:00"), which no other JSON reader knows.
    "DURATION_FORMAT": "iso-8601",
    # Token first: its WWW-Authenticate header turns "not signed in" into 401, not 403.
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "games.seats.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_SCHEMA_CLASS": "games.schema.Schema",
    "EXCEPTION_HANDLER": "games.api.exception_handler",
    # DRF's parsers bounded: size (413), JSON depth and NUL characters (400).
    "DEFAULT_PARSER_CLASSES": [
        "games.parsers.JSONParser",
        "games.parsers.FormParser",
        "games.parsers.MultiPartParser",
    ],
    # Scopes of games.api's throttles, counted in the Django cache (Redis when REDIS_URL is set):
    # sign-in and sign-up per client address; order submissions, game creation, joins and press
    # per user (the pages share each budget). Empty: no limit.
    "DEFAULT_THROTTLE_RATES": {
        "auth": env.str("THROTTLE_AUTH", default="10/min") or None,
        "orders": env.str("THROTTLE_ORDERS", default="60/min") or None,
        "checks": env.str("THROTTLE_CHECKS", default="120/min") or None,
        "games": env.str("THROTTLE_GAMES", default="10/hour") or None,
        "joins": env.str("THROTTLE_JOINS", default="30/hour") or None,
        "press": env.str("THROTTLE_PRESS", default="20/min") or None,
        "payments": env.str("THROTTLE_PAYMENTS", default="20/min") or None,
    },
    # JSON only under /api/ (no browsable HTML pages), whatever the client accepts; the docs
    # (/api/docs/) and the schema name their own renderers.
    "DEFAULT_RENDERER_CLASSES": ["games.renderers.JSONRenderer"],
    "DEFAULT_CONTENT_NEGOTIATION_CLASS": "games.parsers.JSONAnyway",
    # Every list comes in pages: ?page=n (or "last"), ?page_size= up to 100 (games.pagination).
    "DEFAULT_PAGINATION_CLASS": "games.pagination.Pages",
    # ClientAddressMiddleware has already put the client's address in REMOTE_ADDR.
    "NUM_PROXIES": 0,
    "TEST_REQUEST_DEFAULT_FORMAT": "json",
}
# Games one account may have created and not yet started / not yet finished, when it creates
# one through the pages or the API (0: no cap).
MAX_FORMING_GAMES = env.int("MAX_FORMING_GAMES", default=5)
MAX_UNFINISHED_GAMES = env.int("MAX_UNFINISHED_GAMES", default=20)

SPECTACULAR_SETTINGS = {
    # Request bodies get components of their own, so that they can say what a request may not
    # hold (a blank string where one is refused) without saying it of every answer.
    "COMPONENT_SPLIT_REQUEST": True,
    "TITLE": "Great Game API",
    "DESCRIPTION": "Play Diplomacy variants set in Asia.",
    "VERSION": "0.1.0",
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "games.api.document_errors",
        "games.schema.options_per_variant",
    ],
    # Swagger UI from our own static files, not a CDN: works offline, nothing unpinned runs.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
}

# Content-Security-Policy on every answer: scripts only from our origin or with the page's
# nonce, nothing framed, no plugins. Styles may be inline: the board's SVG colours each
# province with a style attribute, and attributes cannot carry a nonce.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF, NONCE],
        "style-src": [SELF, "'unsafe-inline'"],
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    },
}

# Webhooks and web push (games.reach). Web push needs a VAPID key pair (e.g. from
# `vapid --gen`): the private key (PEM or base64url) and the public key the browser subscribes
# with; without them push is off. SITE_URL makes the links in notifications.
SITE_URL = env.str("SITE_URL", default="http://127.0.0.1:8000")
VAPID_PRIVATE_KEY = env.str("VAPID_PRIVATE_KEY", default="")
VAPID_PUBLIC_KEY = env.str("VAPID_PUBLIC_KEY", default="")
VAPID_SUBJECT = env.str("VAPID_SUBJECT", default="mailto:admin@localhost")
# Webhooks and push endpoints may point at private or loopback addresses only when this is on
# (tests and local development); otherwise they are refused (server-side request forgery).
WEBHOOK_ALLOW_PRIVATE = env.bool("WEBHOOK_ALLOW_PRIVATE", default=False)
