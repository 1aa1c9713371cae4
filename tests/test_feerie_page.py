"""The Féerie pages: exchange (/feerie/) and Action sequence (/feerie-action/)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest
from django.core.management import call_command
from django.test import Client

from bestiary.feerie import models as m
from calculator.tables import row_key
from rulesets.core.schema import flatten
from rulesets.feerie import RULESET

pytestmark = pytest.mark.django_db

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "feerie.json"


@pytest.fixture(autouse=True)
def plain_static(settings: Any) -> None:
    """Pages render without a collected static manifest (as with ``PLAIN_STATIC=1``)."""
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }


@pytest.fixture
def client_with_tables(client: Client) -> Client:
    call_command("loaddata", str(FIXTURE), verbosity=0)
    return client


def _form(example_request: dict[str, object]) -> dict[str, str]:
    data = {"_f": "1", "r": "1"}
    for key, value in flatten(example_request["scenario"]).items():
        if isinstance(value, bool):
            if value:
                data[key] = "on"
        elif value is not None:
            data[key] = str(value)
    for key, value in dict(example_request["dice"]).items():  # type: ignore[call-overload]
        data[f"dice.{key}"] = str(value)
    return data


def test_the_exchange_page_renders(client_with_tables: Client) -> None:
    response = client_with_tables.get("/feerie/")
    assert response.status_code == 200
    text = response.content.decode()
    assert "Contes de Fées" in text
    assert 'name="preset.attacker"' in text  # the bestiary's creatures, in the attacker's card
    assert "Wichtln" in text


def test_the_exchange_page_renders_as_an_htmx_partial(client_with_tables: Client) -> None:
    full = client_with_tables.get("/feerie/")
    partial = client_with_tables.get("/feerie/", headers={"HX-Request": "true"})
    assert partial.status_code == 200
    assert len(partial.content) < len(full.content)


def test_a_permalink_reproduces_the_wichtln_example(client_with_tables: Client) -> None:
    example = RULESET.examples()[0]
    response = client_with_tables.get("/feerie/?" + urlencode(_form(dict(example.request))))
    assert response.status_code == 200
    resolution = response.context["resolution"]
    assert resolution is not None
    assert resolution.result.numbers["attack"] == 23
    assert resolution.result.numbers["essence_lost"] == 7
    again = client_with_tables.get(response.context["permalink"])
    assert again.context["resolution"].result.numbers == resolution.result.numbers


def test_a_post_redirects_to_its_permalink(client_with_tables: Client) -> None:
    example = RULESET.examples()[0]
    data = _form(dict(example.request))
    del data["r"]
    response = client_with_tables.post("/feerie/", data)
    assert response.status_code == 303
    assert "r=1" in response["Location"]


def test_a_bad_value_comes_back_on_its_field_in_french(client_with_tables: Client) -> None:
    example = RULESET.examples()[0]
    data = _form(dict(example.request))
    data["attacker.attributes.0.damage"] = "on"  # the hammer on attack and damage
    response = client_with_tables.get("/feerie/?" + urlencode(data))
    assert response.status_code == 422
    errors = response.context["form"].errors["attacker.attributes.0.damage"]
    assert "porte déjà sur le jet d'Attaque" in errors[0]
    assert "porte déjà sur le jet d&#x27;Attaque" in response.content.decode()


def test_loading_a_bestiary_creature_fills_the_attacker(client_with_tables: Client) -> None:
    w = m.Creature.objects.get(name="Wichtln")
    response = client_with_tables.get(
        "/feerie/", {"_f": "1", "_load": "preset.attacker", "preset.attacker": f"{row_key(w.name)}.m"}
    )
    assert response.status_code == 200
    form = response.context["form"]
    assert form.raw("attacker.name") == "Wichtln"
    assert form.raw("attacker.habilete") == "20"
    assert form.raw("attacker.attributes.0.name") == "marteau"


def test_loading_a_special_blow_fills_its_row(client_with_tables: Client) -> None:
    response = client_with_tables.get("/feerie/", {"_f": "1", "_load": "preset.blow.0", "preset.blow.0": "desarmer"})
    form = response.context["form"]
    assert form.raw("blows.0.kind") == "desarmer"
    # issue 14: the name carries the seed's −8; the row leaves the number blank where it says the same
    assert form.raw("blows.0.attack_malus") == ""
    from tests.test_table_mode import controls, form_data

    again = client_with_tables.get("/feerie/", {**form_data(controls(response)), "_f": "1", "r": "1"})
    terms = [e for e in again.context["resolution"].result.events if e.data.get("quantity") == "attack"]
    assert [e.value for e in terms if "Désarmer" in e.label] == ["−8"]


def test_the_odds_panel_shows_the_chance_to_hit(client_with_tables: Client) -> None:
    response = client_with_tables.get("/feerie/")
    odds = response.context["odds"]
    assert odds is not None
    assert {c for c, _l, _p in odds.outcomes} >= {"hit", "miss"}


def test_every_example_resolves_through_the_api(client_with_tables: Client) -> None:
    for example in RULESET.examples():
        response = client_with_tables.post(
            "/api/rulesets/feerie/resolve",
            json.dumps(example.request),
            content_type="application/json",
        )
        assert response.status_code == 200, example.key
        body = response.json()
        for key, value in example.expected.items():
            got = body["outcome"] if key == "outcome" else body["numbers"][key]
            assert got == value, (example.key, key)


def test_the_api_refuses_bad_input_with_french_messages(client_with_tables: Client) -> None:
    response = client_with_tables.post(
        "/api/rulesets/feerie/resolve",
        json.dumps({"scenario": {"situation": {"aim_ranks": 9}}}),
        content_type="application/json",
    )
    assert response.status_code == 400
    assert response.json()["errors"]["scenario.situation.aim_ranks"].startswith(
        "Rangs de visée\u202f: doit être entre 0 et 8"
    )


def test_the_api_gives_exact_odds_and_the_schema(client_with_tables: Client) -> None:
    response = client_with_tables.post(
        "/api/rulesets/feerie/odds", json.dumps({"scenario": {}}), content_type="application/json"
    )
    assert response.status_code == 200
    outcomes = {o["code"]: o["probability"]["fraction"] for o in response.json()["outcomes"]}
    assert "hit" in outcomes
    schema = client_with_tables.get("/api/rulesets/feerie/schema").json()
    assert "attacker" in json.dumps(schema)


def test_the_odds_panel_prints_probabilities_as_percentages(client_with_tables: Client) -> None:
    html = client_with_tables.get("/feerie/").content.decode()
    row = html.split("Probabilité de toucher", 1)[1].split("</tr>", 1)[0]
    assert "%" in row
    mean = html.split("Essence perdue en moyenne", 1)[1].split("</tr>", 1)[0]
    assert "%" not in mean


# --- table mode: choices first, by name, only what may be taken -------------------------------------------


def _select(html: str, name: str) -> list[tuple[str, str, bool, bool]]:
    """A select's options: (value, label, selected, disabled)."""
    import html as html_module
    import re

    body = html.split(f'name="{name}"', 1)[1].split("</select>", 1)[0]
    return [
        (value, html_module.unescape(label), " selected" in attrs, " disabled" in attrs)
        for value, attrs, label in re.findall(r'<option value="([^"]*)"([^>]*)>(.*?)</option>', body)
    ]


def test_the_exchange_leads_with_the_choices_and_summarises_the_numbers(client_with_tables: Client) -> None:
    html = client_with_tables.get("/feerie/").content.decode()
    # the Wichtln of the page is the bestiary's: its entry is shown as chosen
    assert ("Wichtln (Taille −2)", True) in [(label, sel) for _v, label, sel, _d in _select(html, "preset.attacker")]
    assert "Vigilance\u00a015 · Habileté\u00a020 · Puissance\u00a010 · Résistance\u00a015 · Taille\u00a0−2" in html
    assert "marteau +3 (Attaque, Défense) · tablier de cuir +2 (Encaissement)" in html
    assert 'data-adjust="aspects.attacker"' in html


def test_the_tactics_offered_are_those_of_the_combatants_cap(client_with_tables: Client) -> None:
    """The Wichtln's marteau +3 (Attaque, Défense) caps its tactic at ±3: the seed's tactics, written for
    Sire Didimus's ±4, are offered scaled to ±3, and nothing beyond."""
    html = client_with_tables.get("/feerie/").content.decode()
    options = _select(html, "preset.attacker_tactic")
    labels = [label for _v, label, _s, _d in options]
    assert "Attaque brutale (Initiative\u00a0−2 · Attaque\u00a0+3 · Défense\u00a0−1)" in labels
    assert all(value.endswith(".3") for value, *_rest in options if value not in ("", "aucune"))


def test_a_combatant_without_combat_attributes_is_offered_no_tactic_and_told_why(
    client_with_tables: Client,
) -> None:
    """At range the Wichtln's marteau does not apply: no Attribut touches a combat competence."""
    w = m.Creature.objects.get(name="Wichtln")
    response = client_with_tables.get(
        "/feerie/",
        {
            "_f": "1",
            "mode": "ranged",
            "_load": "preset.attacker",
            "preset.attacker": f"{row_key(w.name + ' à distance')}.r",
        },
    )
    options = _select(response.content.decode(), "preset.attacker_tactic")
    assert [(v, d) for v, _l, _s, d in options] == [("", False), ("aucune", False), ("", True)]
    assert "Sans Affinité ni Pouvoir de combat pour cette activité, pas de tactique" in options[2][1]


def test_an_impossible_special_blow_is_disabled_with_its_reason(client_with_tables: Client) -> None:
    html = client_with_tables.get("/feerie/").content.decode()
    options = {v: (label, disabled) for v, label, _s, disabled in _select(html, "preset.blow.0")}
    assert options["desarmer"] == ("Désarmer (Attaque −8)", False)
    label, disabled = options["tenir_en_respect"]
    assert disabled
    assert "ne fonctionne que sur un adversaire de Taille inférieure ou égale" in label
    assert options["acharnement"][1]


def test_the_action_names_its_combatants_and_targets(client_with_tables: Client) -> None:
    """Combatants and targets by name, numbered from 1 where a number is shown."""
    html = client_with_tables.get("/feerie/action/").content.decode()
    assert _select(html, "activities.0.actor") == [
        ("0", "Rübezahl", False, False),
        ("1", "Serpent à Sornettes", True, False),
    ]
    assert "Activité n°1" in html
    assert "Activité n°0" not in html
    assert "Combattant n°1" in html
    assert "(numéro" not in html
    # the Serpent's targets: Rübezahl, ticked; not itself
    box = html.split('name="activities.0._targets.0"', 1)[1].split(">", 1)[0]
    assert "checked" in box
    assert 'name="activities.0._targets.1"' not in html
    assert '<input type="hidden" name="activities.0.targets" value="0">' in html


def test_the_action_summary_names_the_fighters_without_numbers() -> None:
    from bestiary.feerie import web
    from rulesets.core.request import resolve
    from rulesets.feerie import ACTION

    rows = web.action_summary(resolve(ACTION, ACTION.examples()[1].request))
    assert not any(label[:1].isdigit() for _k, label, _v in rows[1:])
