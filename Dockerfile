# Estoc — production image: gunicorn, static files collected at build time, non-root user.
FROM python:3.12-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app
COPY pyproject.toml ./
RUN pip install .
COPY . .

# collectstatic needs settings but no secret worth keeping: a build-only key.
RUN SECRET_KEY=build-only-not-secret python manage.py collectstatic --noinput \
    && useradd --system --uid 10001 --home /app estoc \
    && chown -R estoc /app
USER estoc

EXPOSE 8000
# The container expects SECRET_KEY, ALLOWED_HOSTS and DATABASE_URL from the environment.
# A calculator page is its URL (every field, the dice, the seed): a Quadrature sheet opened from an
# encounter runs past gunicorn's default 4094-byte request line, hence 8190 (its maximum).
# Threaded workers: a client that opens a connection and says nothing no longer holds a whole
# worker (four silent connections could stop four sync workers, docs/reliability.md).
CMD ["sh", "-c", "python manage.py migrate --noinput && python manage.py loadfixtures && exec gunicorn calculator.wsgi --bind 0.0.0.0:8000 --workers ${WEB_CONCURRENCY:-4} --worker-class gthread --threads ${THREADS:-4} --limit-request-line 8190 --access-logfile -"]
