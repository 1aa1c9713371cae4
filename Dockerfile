# Estoc — production image: gunicorn (deploy/gunicorn.conf.py), static files collected at build
# time, non-root user. compose.yaml runs it behind nginx; docs/deploy.md.
FROM python:3.12-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app
# Pango, which WeasyPrint draws the Quadrature sheet's PDF with (bestiary/quadrature/pdf.py; the
# fonts are the project's, calculator/fonts/)
RUN apt-get update \
    && apt-get install -y --no-install-recommends libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz-subset0 \
    && rm -rf /var/lib/apt/lists/*
COPY pyproject.toml ./
RUN pip install .
COPY . .

# collectstatic needs settings but no secret worth keeping: a build-only key. The manifest it
# writes (staticfiles/staticfiles.json) is what {% static %} reads; compose.yaml's release job
# collects the same files again into the volume nginx serves (/srv/static, owned by estoc so that a
# new named volume mounted there is too).
RUN SECRET_KEY=build-only-not-secret python manage.py collectstatic --noinput \
    && useradd --system --uid 10001 --home /app estoc \
    && mkdir -p /srv/static \
    && chown -R estoc /app /srv/static
USER estoc

EXPOSE 8000
# The container expects SECRET_KEY, ALLOWED_HOSTS, DATABASE_URL and REDIS_URL from the
# environment, and the migrations run first (compose.yaml's release job, or
# `python manage.py migrate --noinput && python manage.py loadfixtures` in a one-off container).
# gunicorn's settings (gthread workers, preload, the per-worker warm-up, 8190-byte request lines,
# timeouts) are in deploy/gunicorn.conf.py. It must sit behind a buffering proxy (deploy/nginx.conf):
# 64 silent connections held gunicorn alone for 45 s (docs/reliability.md).
# The same image serves the players' live view (/live/, its event streams) under uvicorn on 8001:
# compose.yaml's live service sets its own command and health check.
HEALTHCHECK --interval=15s --timeout=6s --start-period=60s --retries=3 \
    CMD ["python", "deploy/healthcheck.py"]
CMD ["gunicorn", "-c", "deploy/gunicorn.conf.py"]
