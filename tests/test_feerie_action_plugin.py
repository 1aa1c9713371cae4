"""The Action sequence's web pieces (presets, summary, « Action suivante »), ready for its route.

The generic router serves one page per registered rule system; the Action sequence is a second
engine of the ``feerie`` package (``rulesets.feerie.ACTION``), so it is exercised here through the
core request and its plug-in functions, as its page will call them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command

from bestiary.feerie import models as m
from bestiary.feerie import web
from calculator import plugins
from calculator.tables import row_key
from rulesets.core.request import odds as request_odds
from rulesets.core.request import odds_data, resolve, result_data
from rulesets.core.schema import ScenarioError
from rulesets.feerie import ACTION

pytestmark = pytest.mark.django_db

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "feerie.json"


@pytest.fixture
def tables() -> None:
    call_command("loaddata", str(FIXTURE), verbosity=0)


def test_the_action_plugin_is_registered_with_its_template(tables: None) -> None:
    plugin = plugins.get("feerie-action")
    assert plugin.fields_template == "calculator/feerie-action_fields.html"
    assert plugin.hidden == ("surfaces",)
    assert plugin.defaults()["roll"] == {"plus": 1, "minus": 1, "sides": 20}


@pytest.mark.parametrize("example", ACTION.examples(), ids=[e.key for e in ACTION.examples()])
def test_every_action_example_resolves_as_json(example: Any) -> None:
    data = result_data(resolve(ACTION, example.request))
    for key, value in example.expected.items():
        got = data["outcome"] if key == "outcome" else data["numbers"].get(key)
        assert got == value


def test_action_odds_serialise_as_exact_fractions() -> None:
    _scenario, o = request_odds(ACTION, {"scenario": {}})
    data = odds_data(ACTION, o)
    assert sum(float(x["probability"]["value"]) for x in data["outcomes"]) == pytest.approx(1)


def test_a_bad_action_request_gives_french_field_errors() -> None:
    with pytest.raises(ScenarioError) as info:
        resolve(ACTION, {"scenario": {"fighters": [{"name": "A", "vigilance": 99}]}})
    assert info.value.errors["scenario.fighters.0.vigilance"] == "Vigilance\u202f: doit être entre 0 et 60 (reçu 99)."


def test_a_bestiary_creature_becomes_a_fighter_with_its_contact_values(tables: None) -> None:
    groups = {g.key: g for g in web.action_presets()}
    wichtln = m.Creature.objects.get(name="Wichtln")
    preset = groups["fighter"].find(row_key(wichtln.name))  # « wichtln », its key (issue 14)
    assert preset is not None
    assert {k: preset.values[k] for k in ("attack", "defense", "damage", "soak", "tactic_cap")} == {
        "attack": 23,
        "defense": 25,
        "damage": 12,
        "soak": 15,
        "tactic_cap": 3,
    }
    assert groups["fighter"].prefix == "fighters.{row}"


def test_the_summary_lists_every_fighter_and_the_next_action_link_carries_the_malus() -> None:
    example = ACTION.examples()[1]  # the extra attack at rank 9
    resolution = resolve(ACTION, example.request)
    rows = web.action_summary(resolution)
    assert rows[0] == ("top", "Début du décompte", "17")
    assert "malus de l'Action suivante −4" in rows[1][2]
    ((label, changes, _current),) = web.action_variations(resolution)
    assert "Action suivante" in label
    assert changes["fighters.0.carried_malus"] == -4
    assert changes["fighters.0.initiative"] is None


def test_the_action_sequence_has_its_page_and_its_api(client, tables: None) -> None:
    page = client.get("/feerie/action/")
    assert page.status_code == 200
    assert 'action="/feerie/action/"' in page.content.decode()
    assert client.get("/api/rulesets/feerie-action/examples").status_code == 200
    rulesets = {r["slug"]: r for r in client.get("/api/rulesets").json()}
    assert rulesets["feerie-action"]["links"]["page"] == "/feerie/action/"


def test_the_action_odds_panel_prints_the_cannot_act_chance_as_a_percentage(client, tables: None) -> None:
    html = client.get("/feerie/action/").content.decode()
    assert "Probabilité que" in html
    row = html.split("Probabilité que", 1)[1].split("</tr>", 1)[0]
    assert "%" in row


def test_the_action_page_opens_on_the_rubezahl_and_serpent_fight(client, tables: None) -> None:
    html = client.get("/feerie/action/").content.decode()
    for j in (0, 1):
        select = html.split(f'name="activities.{j}.kind"', 1)[1].split("</select>", 1)[0]
        assert '<option value="attack" selected>' in select
    assert "hypnotiser Rübezahl" in html
    assert "assomme le Serpent" in html


def test_the_dice_of_an_attack_count_activities_from_one_as_the_page_does() -> None:
    """The dice bar names « Activité n°1 » the activity the form shows as « Activité n°1 »."""
    import dataclasses

    from rulesets.feerie.action import Activity, ActivityKind

    attack = Activity(actor=0, kind=ActivityKind.ATTACK, targets="1")
    scenario = dataclasses.replace(
        ACTION.scenario_type(), activities=(attack, dataclasses.replace(attack, actor=1, targets="0"))
    )
    labels = [slot.label for slot in ACTION.dice_for(scenario).slots if slot.label.startswith("Activité")]
    assert labels[0].startswith("Activité n°1 (Rübezahl)")
    assert labels[-1].startswith("Activité n°2 (le Serpent à Sornettes)")  # with its article (issue 15)
