"""Production settings for the live measurements (``bench/server.py``), with two changes only.

``collectstatic`` writes to a throw-away directory instead of the working tree's ``staticfiles/``,
so a load test never changes what the tests and ``make run`` of the same checkout serve; and the
manifest storage leaves source-map comments alone (``bench/static_storage.py``).
"""

import os
from pathlib import Path

from calculator.settings import *  # noqa: F403

STATIC_ROOT = Path(os.environ.get("BENCH_STATIC_ROOT", "/tmp/estoc-bench/staticfiles"))
# the vendored Bootstrap names a source map it does not ship: see bench/static_storage.py
STORAGES = {**STORAGES, "staticfiles": {"BACKEND": "bench.static_storage.SourceMapTolerantStorage"}}  # noqa: F405
