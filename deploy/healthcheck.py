"""The web container's health check (compose.yaml): exit 0 when ``/healthz`` answers 200.

Issue 17, the compose item. It asks gunicorn directly, in the container, over plain HTTP
(``/healthz`` is exempt from ``SECURE_SSL_REDIRECT``), with a ``Host`` the settings allow (the first
entry of ``ALLOWED_HOSTS``, as ``calculator/warmup.py`` picks it): Django refuses any other host.
Only the standard library, so that a check every few seconds costs no Django start-up.

    python deploy/healthcheck.py [URL]     (default http://127.0.0.1:8000/healthz)
"""

from __future__ import annotations

import os
import sys
import urllib.error
import urllib.request

DEFAULT_URL = "http://127.0.0.1:8000/healthz"
TIMEOUT_SECONDS = 5


def host(allowed: str) -> str:
    """A host name that ``ALLOWED_HOSTS`` (comma-separated) accepts; ``localhost`` for ``*`` or none."""
    for entry in (item.strip() for item in allowed.split(",")):
        if entry == "*":
            return "localhost"
        name = entry.lstrip(".")
        if name:
            return name
    return "localhost"


def check(url: str = DEFAULT_URL, environ: dict[str, str] | None = None) -> tuple[bool, str]:
    """Whether ``url`` answers 200, and what to print."""
    env = os.environ if environ is None else environ
    request = urllib.request.Request(url, headers={"Host": host(env.get("ALLOWED_HOSTS", ""))})
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT_SECONDS) as response:
            return response.status == 200, f"{response.status} {response.read(500).decode('utf-8', 'replace')}"
    except urllib.error.HTTPError as error:
        return False, f"{error.code} {error.read(500).decode('utf-8', 'replace')}"
    except (urllib.error.URLError, OSError) as error:
        return False, f"no answer: {error}"


def main(argv: list[str]) -> int:
    healthy, message = check(argv[1] if len(argv) > 1 else DEFAULT_URL)
    print(message)
    return 0 if healthy else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
