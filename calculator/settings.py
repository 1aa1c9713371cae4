"""Estoc settings: one module, every deployment difference is an environment variable.

DEBUG            "1" for development (default off)
SECRET_KEY       required when DEBUG is off
ALLOWED_HOSTS    comma-separated (default "localhost,127.0.0.1" in DEBUG, none otherwise)
DATABASE_URL     e.g. postgres://postgres@127.0.0.1:5432/test (default: SQLite file db.sqlite3)
CSRF_TRUSTED_ORIGINS  comma-separated origins (https://estoc.example)
SECURE           "0" to serve production mode over plain HTTP behind no proxy (default on when DEBUG off)
BESTIARY_CACHE_SECONDS  how long a process keeps a bestiary copy at most (default 30; 0: no caching)
WARMUP           "1"/"0": warm each worker up before it serves (default: under gunicorn only; calculator/warmup.py)
WARMUP_SECONDS   the warm-up's time limit (default 10)
TRUSTED_PROXIES  our proxies: a count N (the client is the N-th X-Forwarded-For address from the right) or
                 comma-separated addresses/networks of the proxies; default none: only the socket address
                 counts and every X-Forwarded-* header is dropped (calculator/clientip.py). PROXY_COUNT:
                 its deprecated former name, read when TRUSTED_PROXIES is unset
API_RATE         requests per client to the API, every route (default 120/m; "0" or empty: no limit)
RESOLVE_RATE     resolves per client: « Résoudre », permalinks with their result, API resolve and odds
                 (default 60/m; calculator/limits.py)
PAGE_RATE        other calculator page requests per client: page views, live updates (default 300/m)
SHARE_RATE       shares created per client, POST /r/ (default 20/m)
SHARE_MAX_BYTES  largest share stored, in bytes of its JSON (request, result, summary; default 262144:
                 4 times the largest worked example; a larger one is a 413; calculator/sharing.py)
PERMALINK_MAX_BYTES  longest link to a result shown as it is (default 2000); a longer one is compacted
                 (?z=…) or, if even that is longer, made a short link /p/<id> (calculator/short_links.py)
"""

from __future__ import annotations

import os
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.csp import CSP

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool = False) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


DEBUG = env_bool("DEBUG")

SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY est obligatoire quand DEBUG est désactivé.")
    SECRET_KEY = "dev-only-insecure-key-never-used-in-production-0123456789abcdef"

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1],testserver" if DEBUG else "")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")


def _bestiary_apps() -> list[str]:
    """Each rule system's data lives in its own sub-app ``bestiary/<slug>/``."""
    root = BASE_DIR / "bestiary"
    return sorted(f"bestiary.{p.parent.name}" for p in root.glob("*/apps.py"))


INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "crispy_forms",
    "crispy_bootstrap5",
    "accounts.apps.AxesConfig",  # django-axes, its admin section named in French (accounts/apps.py)
    "calculator",
    "accounts",
    "encounters",
    "bestiary",
    *_bestiary_apps(),
]

MIDDLEWARE = [
    "calculator.clientip.TrustedProxyMiddleware",  # first: X-Forwarded-* only from TRUSTED_PROXIES
    "django.middleware.security.SecurityMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "calculator.api_errors.ApiErrorsMiddleware",  # /api/ errors as JSON, HEAD as GET (calculator/api_errors.py)
    "calculator.http.FormBodyMiddleware",  # a form's body read in one pass (calculator/http.py)
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "calculator.limits.RateLimitMiddleware",  # 429 past API_RATE, RESOLVE_RATE, PAGE_RATE, SHARE_RATE
    "axes.middleware.AxesMiddleware",  # last: locks out brute-forced logins (admin included)
]

AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = int(os.environ.get("AXES_FAILURE_LIMIT", "5"))
AXES_COOLOFF_TIME = float(os.environ.get("AXES_COOLOFF_HOURS", "1"))  # hours
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "registration/locked.html"
# per (username, client address), the address as the rate limits see it (calculator/clientip.py)
AXES_CLIENT_IP_CALLABLE = "calculator.clientip.client_address"
TRUSTED_PROXIES = os.environ.get("TRUSTED_PROXIES") or os.environ.get("PROXY_COUNT", "")

ROOT_URLCONF = "calculator.urls"
WSGI_APPLICATION = "calculator.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.csp",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "calculator.context_processors.rulesets",
            ],
        },
    }
]

DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL") or f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=int(os.environ.get("CONN_MAX_AGE", "60")),
        conn_health_checks=True,
    )
}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "fr"
LANGUAGES = [("fr", "Français")]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "Europe/Paris"
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT") or BASE_DIR / "staticfiles")
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if env_bool("PLAIN_STATIC")
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}
WHITENOISE_USE_FINDERS = DEBUG

# the live player view's publish/subscribe (encounters/live.py): Redis when set, else in-process
REDIS_URL = os.environ.get("REDIS_URL", "")
# two sites on one Redis server: their live channels apart (encounters/live.py::channel)
LIVE_CHANNEL_PREFIX = os.environ.get("LIVE_CHANNEL_PREFIX", "estoc")
# Local memory by default; REDIS_URL shares the cache (rate limits, bestiary cache) between workers.
CACHES = {
    "default": (
        # Django's Redis cache, one client per process instead of one per thread (calculator/cache.py)
        {"BACKEND": "calculator.cache.SharedRedisCache", "LOCATION": os.environ["REDIS_URL"]}
        if os.environ.get("REDIS_URL")
        else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "estoc"}
    )
}
# per client address (calculator/limits.py): "N/s", "N/m", "N/h", "N/d"; "0" or empty: no limit
API_RATE = os.environ.get("API_RATE", "120/m")  # every API route
RESOLVE_RATE = os.environ.get("RESOLVE_RATE", "60/m")  # « Résoudre », permalinks, API resolve and odds
PAGE_RATE = os.environ.get("PAGE_RATE", "300/m")  # page views and live updates of the calculator pages
SHARE_RATE = os.environ.get("SHARE_RATE", "20/m")  # POST /r/
SHARE_MAX_BYTES = int(os.environ.get("SHARE_MAX_BYTES") or 256 * 1024)  # issue 17, finding 2
PERMALINK_MAX_BYTES = int(os.environ.get("PERMALINK_MAX_BYTES") or 2000)  # issue 17, finding 9
BESTIARY_CACHE_SECONDS = int(os.environ.get("BESTIARY_CACHE_SECONDS", "30"))

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "encounters:list"
LOGOUT_REDIRECT_URL = "home"
# Password reset and invitation e-mails: printed on the console unless an SMTP server is set.
MAILERS = {
    "default": (
        {
            "BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "OPTIONS": {
                "host": os.environ["EMAIL_HOST"],
                "port": int(os.environ.get("EMAIL_PORT", "587")),
                "username": os.environ.get("EMAIL_HOST_USER", ""),
                "password": os.environ.get("EMAIL_HOST_PASSWORD", ""),
                "use_tls": env_bool("EMAIL_USE_TLS", default=True),
            },
        }
        if os.environ.get("EMAIL_HOST")
        else {"BACKEND": "django.core.mail.backends.console.EmailBackend"}
    )
}
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "estoc@localhost")
# Without EMAIL_HOST the reset and invitation links go to the server's log (the console backend),
# a deliberate default for a small self-hosted deployment: `check --deploy` is told so.
SILENCED_SYSTEM_CHECKS = [] if os.environ.get("EMAIL_HOST") else ["mail.E001"]
INVITATION_DAYS = int(os.environ.get("INVITATION_DAYS", "14"))

CRISPY_ALLOWED_TEMPLATE_PACKS = "bootstrap5"
CRISPY_TEMPLATE_PACK = "bootstrap5"

# Content-Security-Policy (Django's built-in middleware): no inline script, no third party.
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF, CSP.NONCE],
    "style-src": [CSP.SELF],
    "img-src": [CSP.SELF, "data:"],
    "connect-src": [CSP.SELF],
    "font-src": [CSP.SELF],
    "object-src": [CSP.NONE],
    "base-uri": [CSP.SELF],
    "form-action": [CSP.SELF],
    "frame-ancestors": [CSP.SELF],
}

SECURE = env_bool("SECURE", default=not DEBUG)
SESSION_COOKIE_SECURE = SECURE
CSRF_COOKIE_SECURE = SECURE
SECURE_SSL_REDIRECT = SECURE and env_bool("SECURE_SSL_REDIRECT", default=True)
# the container's health check asks gunicorn over plain HTTP (calculator/health.py)
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
# believed only from a trusted proxy: TrustedProxyMiddleware drops the header otherwise (calculator/clientip.py)
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https") if env_bool("BEHIND_PROXY", default=True) else None
SECURE_HSTS_SECONDS = 31536000 if SECURE else 0
SECURE_HSTS_INCLUDE_SUBDOMAINS = SECURE
SECURE_HSTS_PRELOAD = SECURE
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
}
