"""Quadrature through the JSON API and the CLI: same requests, same French errors."""

import io
import json
import sys

import pytest
from django.core.management import call_command

pytestmark = pytest.mark.django_db


def post(client, url, payload):
    return client.post(url, json.dumps(payload), content_type="application/json")


def test_the_api_resolves_a_pc_attack_with_the_full_wound_chain(client):
    payload = {
        "scenario": {
            "mode": "pc_attack",
            "target_part": 1,  # Tête, 🛡️ 1 (the default is the bestiary's wolf, issue 14)
            "pc": {"score": 15},
            "pc_success": {"heavy": 1, "light": 2},
        },
        "seed": 9,
    }
    data = post(client, "/api/rulesets/quadrature/resolve", payload).json()
    assert data["outcome"] == "hit"
    assert data["numbers"]["armour_destroyed"] == 1
    assert data["numbers"]["boxes_ticked"] == 2
    assert [e["kind"] for e in data["events"]][-1] == "sheet"
    assert data["events"][-1]["data"]["sheet"]["parts"][0]["armour_lost"] == 1


def test_the_api_gives_card_odds_against_a_garde(client):
    data = post(client, "/api/rulesets/quadrature/odds", {"scenario": {"card": 3, "pc": {"score": 12}}}).json()
    codes = [e["code"] for e in data["expectations"]]
    assert "card.3.success" in codes
    assert "card.3.star" in codes
    assert {c["key"] for c in data["charts"]} == {"total"}


def test_the_api_refuses_bad_input_with_per_field_french_messages(client):
    response = post(client, "/api/rulesets/quadrature/resolve", {"scenario": {"adversary": {"danger": 0, "menace": 1}}})
    assert response.status_code == 400
    assert "au moins quatre dés" in json.dumps(response.json(), ensure_ascii=False)


def test_the_cli_resolves_a_quadrature_request(monkeypatch):
    request = {"scenario": {"mode": "round", "adversary": {"bleeding": 2}}}
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(request)))
    out = io.StringIO()
    call_command("resolve", "quadrature", "-", stdout=out, stderr=io.StringIO())
    data = json.loads(out.getvalue())
    assert data["outcome"] == "round"
    assert data["numbers"]["bleed_ticked"] == 2
