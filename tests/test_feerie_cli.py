"""``manage.py resolve`` for Féerie: the exchange and the Action sequence from the command line."""

import io
import json
import sys

import pytest
from django.core.management import call_command

from rulesets.core.registry import get

pytestmark = pytest.mark.django_db


def run(monkeypatch, *args, stdin=""):
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    out, err = io.StringIO(), io.StringIO()
    call_command("resolve", *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def example(slug, key):
    return next(e for e in get(slug).examples() if e.key == key)


def test_the_cli_reproduces_the_wichtln_hammer_blow(monkeypatch):
    out, _err = run(monkeypatch, "feerie", "-", stdin=json.dumps(example("feerie", "wichtln_contact").request))
    data = json.loads(out)
    assert data["outcome"] == "hit"
    assert (data["numbers"]["attack"], data["numbers"]["damage"], data["numbers"]["essence_lost"]) == (23, 12, 7)


def test_the_cli_gives_the_exchange_odds(monkeypatch, tmp_path):
    path = tmp_path / "wichtln.json"
    path.write_text(json.dumps(example("feerie", "wichtln_contact").request), encoding="utf-8")
    out, _err = run(monkeypatch, "feerie", str(path), "--odds")
    codes = [o["code"] for o in json.loads(out)["outcomes"]]
    assert codes == ["hit", "hit_no_loss", "miss", "incident"]


def test_the_cli_runs_the_rubezahl_action(monkeypatch):
    request = example("feerie-action", "rubezahl_serpent").request
    out, _err = run(monkeypatch, "feerie-action", "-", stdin=json.dumps(request))
    numbers = json.loads(out)["numbers"]
    assert (numbers["top"], numbers["order"], numbers["activity_0_modifier"]) == (17, "0,1", -2)


def test_a_bad_feerie_request_exits_2(monkeypatch):
    with pytest.raises(SystemExit) as caught:
        run(monkeypatch, "feerie", "-", stdin='{"scenario": {"attacker": {"taille": 9}}}')
    assert caught.value.code == 2
