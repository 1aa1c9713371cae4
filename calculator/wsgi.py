"""WSGI entry point (gunicorn calculator.wsgi).

Under gunicorn (or with ``WARMUP=1``) each process warms the application up before it serves
(``calculator/warmup.py``): its first request then costs what a warm one does.
"""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "calculator.settings")
application = get_wsgi_application()

from calculator import warmup  # noqa: E402  (after Django is set up)

if warmup.enabled():
    warmup.warm(application)
