"""``manage.py resolve``: the API's request in, the API's JSON out."""

import io
import json
import sys

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from rulesets.core.registry import get

pytestmark = pytest.mark.django_db


def run(monkeypatch, *args, stdin=""):
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    out, err = io.StringIO(), io.StringIO()
    call_command("resolve", *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def test_the_cli_resolves_the_aldric_example_from_stdin(monkeypatch):
    request = get("encore").examples()[0].request
    out, _err = run(monkeypatch, "encore", "-", stdin=json.dumps(request))
    data = json.loads(out)
    assert data["outcome"] == "partielle"
    assert data["numbers"]["pc_sante_after"] == 7


def test_the_cli_reads_a_file_and_computes_odds(monkeypatch, tmp_path):
    path = tmp_path / "req.json"
    path.write_text(json.dumps({"scenario": {"pc": {"attribute": 2}}}), encoding="utf-8")
    out, _err = run(monkeypatch, "encore", str(path), "--odds")
    assert [o["code"] for o in json.loads(out)["outcomes"]] == ["reussite", "partielle", "echec"]


def test_bad_input_exits_2_with_french_messages(monkeypatch):
    with pytest.raises(SystemExit) as caught:
        run(monkeypatch, "encore", "-", stdin='{"scenario": {"pc": {"attribute": 99}}}')
    assert caught.value.code == 2


def test_an_unknown_ruleset_or_file_is_a_clear_error(monkeypatch):
    with pytest.raises(CommandError, match="Système de règles inconnu"):
        run(monkeypatch, "nope", "-")
    with pytest.raises(CommandError, match="Impossible de lire"):
        run(monkeypatch, "encore", "/nonexistent.json")
