"""The warm-up at server start (calculator/warmup.py): every step runs, no row is written, a
failure is a warning and never stops the server."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.apps import apps
from django.core.handlers.wsgi import WSGIHandler
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext

from calculator import warmup
from rulesets.core.registry import load_all

ROOT = Path(__file__).resolve().parent.parent

# transaction=True: the warm-up closes the connections at its end, as a real server's requests
# do when they finish; inside the test case's transaction that would break the test itself
pytestmark = pytest.mark.django_db(transaction=True)


# WSGIHandler(), not get_wsgi_application(): the latter sets Django up again, and configuring the
# logging again would take caplog's handler away


def row_counts() -> dict[str, int]:
    return {model._meta.label: model._default_manager.count() for model in apps.get_models()}


def test_the_warmup_runs_every_step_and_writes_no_row():
    call_command("loadfixtures", verbosity=0)
    before = row_counts()
    with CaptureQueriesContext(connection) as queries:
        report = warmup.warm(WSGIHandler())
    assert report.failed == {}
    assert report.skipped == []
    expected = ["home", *(f"{slug}: {part}" for slug in load_all() for part in warmup.PER_RULESET), "templates"]
    assert report.done == expected
    writes = [q["sql"] for q in queries if q["sql"].lstrip().split(" ", 1)[0].upper() in {"INSERT", "UPDATE", "DELETE"}]
    assert writes == []
    assert row_counts() == before  # no session, no axes attempt, no share, no encounter


def test_every_page_request_of_the_warmup_answers_as_a_browser_would():
    """The requests it builds pass the CSRF check and give results (not only a 200 on the page)."""
    call_command("loadfixtures", verbosity=0)
    client = warmup.Client(WSGIHandler())
    pairs, _request = warmup.example_pairs("encore")
    answer = client.post_form("/encore/", pairs, HTTP_HX_REQUEST="true", HTTP_HX_TARGET="calculator")
    assert answer.headers["HX-Push-Url"].startswith("/encore/?")
    assert b'id="result"' in answer.body
    assert "sessionid" not in answer.headers.get("Set-Cookie", "")  # no session started


def test_a_failing_step_is_a_warning_and_the_others_still_run(monkeypatch, caplog):
    call_command("loadfixtures", verbosity=0)

    def broken(client: Any, slug: str) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(warmup, "page_round", broken)
    with caplog.at_level(logging.WARNING, logger="calculator.warmup"):
        report = warmup.warm(WSGIHandler())
    slugs = list(load_all())
    assert set(report.failed) == {f"{slug}: resolve, permalink, live update" for slug in slugs}
    assert all(reason == "RuntimeError: boom" for reason in report.failed.values())
    assert f"{slugs[-1]}: API" in report.done
    assert "templates" in report.done
    failures = [r for r in caplog.records if r.levelno == logging.WARNING and "failed" in r.getMessage()]
    assert len(failures) == len(slugs)
    assert failures[0].exc_info is not None  # the traceback is in the log


def test_a_warmup_that_cannot_even_start_is_a_warning(monkeypatch, caplog):
    def broken(client: Any) -> list[Any]:
        raise RuntimeError("no steps")

    monkeypatch.setattr(warmup, "steps", broken)
    with caplog.at_level(logging.WARNING, logger="calculator.warmup"):
        report = warmup.warm(WSGIHandler())
    assert report.done == []
    assert "warm-up" in report.failed
    assert any("server starts anyway" in r.getMessage() for r in caplog.records)


def test_steps_past_the_budget_are_skipped_with_a_warning(caplog):
    with caplog.at_level(logging.WARNING, logger="calculator.warmup"):
        report = warmup.warm(WSGIHandler(), seconds=0)
    assert report.done == []
    assert report.skipped[-1] == "templates"
    assert any("skipped" in r.getMessage() for r in caplog.records)


def test_the_wsgi_entry_point_serves_even_when_every_step_fails(tmp_path):
    """calculator.wsgi with WARMUP=1 on a database without tables: warnings, then it serves."""
    env = {
        **{k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}},
        "DJANGO_SETTINGS_MODULE": "calculator.settings",
        "DEBUG": "0",
        "SECRET_KEY": "warmup-test-only-0123456789abcdefghijklmnopqrstuvwxyz",
        "ALLOWED_HOSTS": "localhost",
        "SECURE": "0",
        "PLAIN_STATIC": "1",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'empty.sqlite3'}",
        "WARMUP": "1",
        "PYTHONPATH": str(ROOT),
    }
    script = (
        "from calculator.wsgi import application\n"
        "from calculator import warmup\n"
        "print('served', warmup.Client(application).request('GET', '/offline/').status)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], env=env, cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert "served 200" in done.stdout
    assert "failed, the server starts anyway" in done.stderr


@pytest.mark.parametrize(
    ("value", "under_gunicorn", "expected"),
    [
        ("1", False, True),
        ("on", False, True),
        ("0", True, False),
        ("", True, True),
        ("", False, False),
    ],
)
def test_warmup_is_on_under_gunicorn_unless_told_otherwise(monkeypatch, value, under_gunicorn, expected):
    if under_gunicorn:
        monkeypatch.setitem(sys.modules, "gunicorn", sys.modules[__name__])
    else:
        monkeypatch.delitem(sys.modules, "gunicorn", raising=False)
    assert warmup.enabled({"WARMUP": value}) is expected


@pytest.mark.parametrize(
    ("allowed", "expected"),
    [
        (["estoc.example", "localhost"], "estoc.example"),
        ([".estoc.example"], "estoc.example"),
        (["*"], "localhost"),
        ([], "localhost"),
    ],
)
def test_the_requests_name_a_host_the_settings_allow(allowed, expected):
    assert warmup.host(allowed) == expected
