"""Production settings: check --deploy is clean, and the key is required."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run_manage(*args, **env):
    environment = {k: v for k, v in os.environ.items() if k not in {"SECURE", "PLAIN_STATIC", "DEBUG"}}
    environment.update(env)
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=environment, capture_output=True, text=True, timeout=120
    )


def test_check_deploy_reports_nothing_in_production_mode():
    done = run_manage(
        "check",
        "--deploy",
        "--fail-level",
        "DEBUG",
        SECRET_KEY="a-long-random-production-key-" + "x" * 40 + "-QWERTY-12345",
        ALLOWED_HOSTS="estoc.example",
        DEBUG="0",
        REDIS_URL="redis://127.0.0.1:6379/11",  # else estoc.W001: the rate limits counted per process
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "no issues" in done.stdout


def test_check_deploy_is_clean_with_an_smtp_server_too():
    done = run_manage(
        "check",
        "--deploy",
        "--fail-level",
        "DEBUG",
        SECRET_KEY="a-long-random-production-key-" + "x" * 40 + "-QWERTY-12345",
        ALLOWED_HOSTS="estoc.example",
        DEBUG="0",
        EMAIL_HOST="smtp.example.org",
        REDIS_URL="redis://127.0.0.1:6379/11",
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_emails_go_through_smtp_when_a_server_is_given():
    done = run_manage(
        "shell",
        "--no-imports",
        "-c",
        "from django.conf import settings; print(settings.MAILERS['default']['BACKEND'], settings.SILENCED_SYSTEM_CHECKS)",
        SECRET_KEY="k" * 60,
        DEBUG="0",
        EMAIL_HOST="smtp.example.org",
    )
    assert done.stdout.split() == ["django.core.mail.backends.smtp.EmailBackend", "[]"], done.stderr


def test_collectstatic_succeeds_with_the_production_storage(tmp_path):
    """The Docker image runs it at build time: hashed names and compressed copies, every referenced
    file present (a vendored CSS naming a missing source map once broke it)."""
    done = run_manage(
        "collectstatic", "--noinput", SECRET_KEY="k" * 60, DEBUG="0", STATIC_ROOT=str(tmp_path / "static")
    )
    assert done.returncode == 0, done.stdout + done.stderr
    manifest = (tmp_path / "static" / "staticfiles.json").read_text()
    assert "vendor/bootstrap/bootstrap.min.css" in manifest
    assert list((tmp_path / "static" / "css").glob("estoc.*.css.gz"))


def test_production_mode_refuses_to_start_without_a_secret_key():
    done = run_manage("check", SECRET_KEY="", DEBUG="0")
    assert done.returncode != 0
    assert "SECRET_KEY est obligatoire" in done.stderr


def test_the_csp_header_allows_no_inline_script(client):
    response = client.get("/")
    csp = response.headers["Content-Security-Policy"]
    script = next(d for d in csp.split(";") if d.strip().startswith("script-src"))
    assert "'unsafe-inline'" not in script
    assert "'nonce-" in script
