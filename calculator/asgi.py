"""The ASGI entry point: ``uvicorn calculator.asgi:application``. The live player view's event
streams (encounters/live.py) are served here, where an open stream costs no thread; the rest of the
site works the same under it as under gunicorn (calculator/wsgi.py)."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "calculator.settings")

application = get_asgi_application()
