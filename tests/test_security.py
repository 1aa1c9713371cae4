"""Security: CSRF on every form POST, brute-force lockout, API rate limit, bestiary round trip."""

import io
import json

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.core.management import call_command
from django.test import Client

pytestmark = pytest.mark.django_db


@pytest.fixture
def strict_client():
    return Client(enforce_csrf_checks=True)


@pytest.mark.parametrize("url", ["/encore/", "/nephilim/", "/feerie/", "/r/"])
def test_a_post_without_the_csrf_token_is_refused(strict_client, url):
    assert strict_client.post(url, {"_f": "1"}).status_code == 403


def test_an_htmx_post_passes_with_the_token_in_its_header(strict_client):
    strict_client.get("/encore/")
    token = strict_client.cookies["csrftoken"].value
    response = strict_client.post("/encore/", {"_f": "1"}, HTTP_HX_REQUEST="true", HTTP_X_CSRFTOKEN=token)
    assert response.status_code == 200
    assert strict_client.post("/encore/", {"_f": "1"}, HTTP_HX_REQUEST="true").status_code == 403


def test_the_page_gives_htmx_the_csrf_header(client):
    body = client.get("/encore/").content.decode()
    assert 'hx-headers=\'{"X-CSRFToken": "' in body


def test_admin_login_is_locked_after_repeated_failures(client, settings):
    User.objects.create_superuser("mj", "mj@example.org", "un-bon-mot-de-passe")
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        response = client.post("/admin/login/?next=/admin/", {"username": "mj", "password": "faux"})
        assert response.status_code == 200
    last = client.post("/admin/login/?next=/admin/", {"username": "mj", "password": "faux"})
    assert last.status_code == 429
    locked = client.post("/admin/login/?next=/admin/", {"username": "mj", "password": "un-bon-mot-de-passe"})
    assert locked.status_code == 429


def test_the_api_answers_429_in_french_past_the_rate(client, settings):
    settings.API_RATE = "3/m"
    cache.clear()
    for _ in range(3):
        assert client.get("/api/rulesets").status_code == 200
    response = client.get("/api/rulesets")
    assert response.status_code == 429
    assert "Trop de requêtes" in response.json()["message"]
    assert int(response["Retry-After"]) >= 1
    cache.clear()


def test_the_bestiary_dumps_flushes_and_loads_back_losslessly():
    call_command("loadfixtures", verbosity=0)
    apps = ["encore", "nephilim", "feerie"]
    first = io.StringIO()
    call_command("dumpdata", *apps, "--indent=1", stdout=first)
    path = "/tmp/estoc-bestiary-roundtrip.json"
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(first.getvalue())
    call_command("flush", "--noinput", verbosity=0)
    call_command("loaddata", path, verbosity=0)
    second = io.StringIO()
    call_command("dumpdata", *apps, "--indent=1", stdout=second)
    assert json.loads(second.getvalue()) == json.loads(first.getvalue())
    assert len(json.loads(first.getvalue())) > 200


SECRET_PATTERNS = {
    "private key": r"-----BEGIN [A-Z ]*PRIVATE KEY-----",
    "AWS access key": r"\bAKIA[0-9A-Z]{16}\b",
    "GitHub token": r"\bgh[pousr]_[A-Za-z0-9]{36,}\b",
    "Slack token": r"\bxox[abpr]-[A-Za-z0-9-]{10,}\b",
    "URL with a password": r"[a-z][a-z0-9+.-]*://[^/\s:@]+:[^/\s:@]{3,}@",
}


def test_no_secret_is_committed():
    """Keys come from the environment: no key, token or password in a tracked file (the
    placeholders of .env.example are not secrets), and no .env committed."""
    import re
    import subprocess
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    files = subprocess.run(["git", "ls-files"], cwd=root, capture_output=True, text=True, check=True).stdout.split()
    assert ".env" not in files
    found = []
    for name in files:
        path = root / name
        if not path.is_file() or path.stat().st_size > 2_000_000:
            continue
        text = path.read_text(encoding="utf-8", errors="ignore")
        found += [f"{name}: {what}" for what, pattern in SECRET_PATTERNS.items() if re.search(pattern, text)]
    assert found == []
