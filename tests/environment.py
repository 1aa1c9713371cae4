"""Loaded by pytest before Django (``-p tests.environment`` in pyproject): test-only environment.

Tests run in production mode (DEBUG off) with a throw-away key, plain HTTP and plain static
storage (the manifest is exercised by the browser tests, which run collectstatic first).
"""

import os

os.environ.setdefault("SECRET_KEY", "test-only-secret-key-not-for-production-0123456789")
os.environ.setdefault("SECURE", "0")
os.environ.setdefault("PLAIN_STATIC", "1")
os.environ.setdefault("ALLOWED_HOSTS", "testserver,localhost,127.0.0.1")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "calculator.settings")
os.environ.setdefault("BESTIARY_CACHE_SECONDS", "0")
os.environ.setdefault("API_RATE", "100000/m")
# no page, resolve or share limit: tests/test_limits_*.py set the rates they test (settings fixture)
for _rate in ("PAGE_RATE", "RESOLVE_RATE", "SHARE_RATE"):
    os.environ.setdefault(_rate, "0")
