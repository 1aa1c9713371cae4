"""Rows by key (issue 14, « Rows by key »): a request names a bestiary row by its key, the server
fills its numbers; an inline row is an explicit custom row; an unknown key is a 400 on its field."""

from __future__ import annotations

import io
import json
import sys
from typing import Any

import pytest
from django.apps import apps
from django.core.management import call_command
from django.db.models import ProtectedError

from bestiary.aventuriers import models as aventuriers_models
from bestiary.encore import models as encore_models
from bestiary.feerie import models as feerie_models
from bestiary.nephilim import models as nephilim_models
from bestiary.quadrature import models as quadrature_models
from calculator import bestiary_cache, plugins, services, tables
from calculator.plugins import Preset, PresetGroup
from rulesets.core.registry import get
from rulesets.core.request import result_data
from rulesets.core.schema import ScenarioError, Source

pytestmark = pytest.mark.django_db

SLUGS = ("nephilim", "encore", "feerie", "feerie-action", "quadrature", "aventuriers")


def _empty_the_bestiary() -> None:
    """Delete every bestiary row, the protected ones once those that point at them are gone."""
    models = [m for c in apps.get_app_configs() if c.name.startswith("bestiary.") for m in c.get_models()]
    for _round in range(len(models) + 1):
        left = False
        for model in models:
            try:
                model.objects.all().delete()
            except ProtectedError:
                left = True
        if not left:
            return


@pytest.fixture(scope="module")
def bestiary(django_db_setup, django_db_blocker):
    """The five fixtures, loaded once for the module (not once per test)."""
    with django_db_blocker.unblock():
        for slug in ("nephilim", "encore", "feerie", "quadrature", "aventuriers"):
            call_command("loaddata", f"fixtures/{slug}.json", verbosity=0)
    yield
    with django_db_blocker.unblock():
        _empty_the_bestiary()


def post(client, url: str, body: Any):
    return client.post(url, data=json.dumps(body), content_type="application/json")


def _at(path: str, value: Any) -> dict[str, Any]:
    """A scenario with ``value`` at ``path`` (``*``: the first row of a list)."""
    node: Any = value
    for step in reversed(path.split(".")):
        node = [node] if step == "*" else {step: node}
    return node


def _outcome(slug: str, scenario: dict[str, Any]) -> Any:
    """What a request of ``scenario`` answers: its result's data, or its errors."""
    try:
        resolution = services.resolution_resolve(
            ruleset=get(slug), payload={"scenario": scenario, "seed": 7}, source=Source.JSON
        )
    except ScenarioError as exc:
        return exc.errors
    return result_data(resolution)


@pytest.mark.parametrize("slug", SLUGS)
def test_every_row_by_key_resolves_exactly_as_its_row_inline(bestiary, slug, settings):
    """The property, for every row of every table, at every path where such a row goes."""
    settings.BESTIARY_CACHE_SECONDS = 600  # the tables read once, not on every request
    bestiary_cache.clear_local()
    found = tables.tables_of(plugins.get(slug))
    assert found, slug
    checked = 0
    for table in found:
        assert table.rows, (slug, table.key)
        for path in table.paths:
            for row in table.rows:
                by_key = _outcome(slug, _at(path, row.key))
                inline = _outcome(slug, _at(path, row.data))
                assert by_key == inline, (slug, table.key, path, row.key)
                checked += 1
    assert checked >= len(found)
    bestiary_cache.clear_local()


@pytest.mark.parametrize("slug", SLUGS)
def test_keys_are_unique_slugs_in_each_table(bestiary, slug):
    for table in tables.tables_of(plugins.get(slug)):
        keys = [r.key for r in table.rows]
        assert len(keys) == len(set(keys)), table.key
        assert all(k == tables.row_key(k) for k in keys), table.key


def test_row_key_is_a_slug_of_the_name():
    assert tables.row_key("Fusil d'assaut AK-47") == "fusil-d-assaut-ak-47"
    assert tables.row_key("Épée/hache") == "epee-hache"
    rows = tables.keyed_rows([("Épée/hache", "a", {}), ("Épée hache", "b", {}), ("Dague", "c", {})])
    assert [r.key for r in rows] == ["epee-hache", "epee-hache-2", "dague"]


def test_nephilim_weapon_by_key_fills_its_numbers_from_the_bestiary(client, bestiary):
    scenario = {
        "mode": "tir",
        "attacker": {"approach": "tir-visee-1r", "weapon": "fusil-d-assaut-ak-47"},
        "defenders": [{"defence": "encaisser-les-dommages-tir"}],
    }
    response = post(client, "/api/rulesets/nephilim/resolve", {"scenario": scenario, "seed": 1})
    assert response.status_code == 200, response.json()
    weapon = response.json()["scenario"]["attacker"]["weapon"]
    ak47 = nephilim_models.Weapon.objects.get(name="Fusil d'assaut AK-47")
    assert (weapon["name"], weapon["degree"], weapon["phys"], weapon["firearm"]) == (
        ak47.name,
        ak47.degree,
        ak47.phys,
        True,
    )


def test_nephilim_bazooka_by_name_alone_is_refused_naming_the_missing_fields(client, bestiary):
    """`{"name": "Bazooka"}` was a 1-PHYS weapon; a custom row gives every number of its row."""
    response = post(
        client, "/api/rulesets/nephilim/resolve", {"scenario": {"attacker": {"weapon": {"name": "Bazooka"}}}}
    )
    assert response.status_code == 400
    message = response.json()["errors"]["scenario.attacker.weapon"]
    for name in ("category", "degree", "phys", "mag"):
        assert name in message
    assert "/api/rulesets/nephilim/tables" in message


def test_nephilim_unknown_weapon_key_is_a_400_naming_the_field(client, bestiary):
    response = post(client, "/api/rulesets/nephilim/resolve", {"scenario": {"attacker": {"weapon": "bazooka"}}})
    assert response.status_code == 400
    message = response.json()["errors"]["scenario.attacker.weapon"]
    assert "«\u202fbazooka\u202f»" in message
    assert "epee-hache" in message or "fronde" in message
    assert "GET /api/rulesets/nephilim/tables" in message


def test_an_unknown_key_in_a_list_names_its_row(client, bestiary):
    body = {"scenario": {"defenders": [{"armour": "armure-de-cuir-legere"}, {"armour": "cotte-de-nuages"}]}}
    response = post(client, "/api/rulesets/nephilim/resolve", body)
    assert response.status_code == 400
    assert list(response.json()["errors"]) == ["scenario.defenders.1.armour"]


def test_a_creature_by_key_brings_its_own_weapon(client, bestiary):
    creature = nephilim_models.Creature.objects.filter(weapon__category="melee", category="animal").first()
    body = {"scenario": {"attacker": tables.row_key(creature.name)}, "seed": 3}
    response = post(client, "/api/rulesets/nephilim/resolve", body)
    assert response.status_code == 200, response.json()
    assert response.json()["scenario"]["attacker"]["weapon"]["name"] == creature.weapon.name


def test_other_rulesets_take_keys_too(client, bestiary):
    npc = encore_models.NPC.objects.order_by("pk").first()
    body = {"scenario": {"npcs": [tables.row_key(npc.name)]}, "seed": 2}
    response = post(client, "/api/rulesets/encore/resolve", body)
    assert response.status_code == 200, response.json()
    assert response.json()["scenario"]["npcs"][0]["sante"] == npc.sante
    adversary = quadrature_models.Adversary.objects.order_by("pk").first()
    response = post(
        client, "/api/rulesets/quadrature/resolve", {"scenario": {"adversary": tables.row_key(adversary.name)}}
    )
    assert response.status_code == 200, response.json()
    assert response.json()["scenario"]["adversary"]["guard"] == adversary.guard


@pytest.mark.parametrize("slug", SLUGS)
def test_tables_lists_every_fixture_row(client, bestiary, slug):
    response = client.get(f"/api/rulesets/{slug}/tables")
    assert response.status_code == 200
    listed = {t["key"]: t for t in response.json()}
    expected = {
        "nephilim": {
            "weapon": nephilim_models.Weapon.objects.count(),
            "approach": nephilim_models.Approach.objects.count(),
            "ammunition": nephilim_models.Ammunition.objects.count(),
            "defence": nephilim_models.DefenceType.objects.count(),
            "creature_attacker": nephilim_models.Creature.objects.count(),
            "creature_defender": nephilim_models.Creature.objects.count(),
        },
        "encore": {"npc": encore_models.NPC.objects.count()},
        "feerie": {
            "creature": 2 * feerie_models.Creature.objects.count(),
            "blow": feerie_models.SpecialBlow.objects.count(),
            "allure": feerie_models.Allure.objects.count(),
        },
        "feerie-action": {"fighter": feerie_models.Creature.objects.count()},
        "quadrature": {
            "adversary": quadrature_models.Adversary.objects.count(),
            "card": quadrature_models.ActionCard.objects.count(),
        },
        "aventuriers": {
            "monster": aventuriers_models.Monster.objects.count(),
            "weapon": aventuriers_models.Weapon.objects.count(),
            "protection": aventuriers_models.Protection.objects.count(),
        },
    }[slug]
    for key, count in expected.items():
        assert count > 0, key
        assert len(listed[key]["rows"]) == count, key
    if slug == "nephilim":
        protections = sum(len(listed[k]["rows"]) for k in ("armour", "shield", "other"))
        assert protections == nephilim_models.Protection.objects.count()
        effects = sum(len(listed[k]["rows"]) for k in ("attacker_effect", "defender_effect"))
        assert effects == nephilim_models.Effect.objects.count()
    for table in listed.values():
        for row in table["rows"]:
            assert set(row) == {"key", "label", "values"}


def test_openapi_document_includes_tables_and_the_keys(client, bestiary):
    doc = client.get("/api/openapi.json").json()
    for slug in SLUGS:
        operation = doc["paths"][f"/api/rulesets/{slug}/tables"]["get"]
        assert "200" in operation["responses"]
    body = doc["paths"]["/api/rulesets/nephilim/resolve"]["post"]["requestBody"]["content"]["application/json"]
    creature_keys, attacker = body["schema"]["properties"]["scenario"]["properties"]["attacker"]["anyOf"]
    assert tables.row_key("Mercenaire") in creature_keys["enum"]
    weapon = attacker["properties"]["weapon"]
    keys, custom = weapon["anyOf"]
    assert keys["type"] == "string"
    assert "fusil-d-assaut-ak-47" in keys["enum"]
    assert {"category", "degree", "phys", "mag"} <= set(custom["required"])
    # the same schema at /schema
    schema = client.get("/api/rulesets/nephilim/schema").json()
    assert schema["properties"]["scenario"]["properties"]["attacker"]["anyOf"][1]["properties"]["weapon"] == weapon


def test_the_cli_accepts_a_key(monkeypatch, bestiary):
    request = {"scenario": {"attacker": {"weapon": "marteau"}}, "seed": 4}
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(request)))
    out = io.StringIO()
    call_command("resolve", "nephilim", "-", stdout=out, stderr=io.StringIO())
    weapon = json.loads(out.getvalue())["scenario"]["attacker"]["weapon"]
    assert (weapon["name"], weapon["phys"]) == ("Marteau", nephilim_models.Weapon.objects.get(name="Marteau").phys)


def test_the_cli_refuses_an_unknown_key_naming_the_field(monkeypatch, bestiary):
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps({"scenario": {"attacker": {"weapon": "bazooka"}}})))
    err = io.StringIO()
    with pytest.raises(SystemExit):
        call_command("resolve", "nephilim", "-", stdout=io.StringIO(), stderr=err)
    assert "scenario.attacker.weapon" in json.loads(err.getvalue())["errors"]


def test_nephilim_unknown_preset_id_is_a_french_message_on_the_field():
    """`preset.weapon=9999` was silently ignored on the page."""
    group = PresetGroup("weapon", "attacker.weapon", "Arme", [Preset("1", "Dague", {"name": "Dague"})])
    refused = tables.unknown_preset({"_load": "preset.weapon", "preset.weapon": "9999"}, {"weapon": group})
    assert "«\u202f9999\u202f»" in refused["preset.weapon"] or "9999" in refused["preset.weapon"]
    assert tables.unknown_preset({"_load": "preset.weapon", "preset.weapon": "1"}, {"weapon": group}) == {}


def test_feerie_special_blow_and_allure_by_key_bring_the_seeds_numbers(client):
    """« Désarmer » named by its key is the −8 of the seed; « course » with a charge, −8 and +4."""
    by_key = {"scenario": {"blows": ["desarmer"]}, "seed": 1}
    by_name = {"scenario": {"blows": [{"kind": "desarmer"}]}, "seed": 1}
    a = client.post("/api/rulesets/feerie/resolve", by_key, content_type="application/json")
    b = client.post("/api/rulesets/feerie/resolve", by_name, content_type="application/json")
    assert a.status_code == b.status_code == 200, a.content
    assert a.json()["numbers"] == b.json()["numbers"]
    unknown = {"scenario": {"situation": {"movement": "galop-du-vent"}}}
    response = client.post("/api/rulesets/feerie/resolve", unknown, content_type="application/json")
    assert response.status_code == 400
    assert "clé inconnue" in response.json()["errors"]["scenario.situation.movement"]


# -- the page sends keys too: one path for page, API and CLI ----------------------------------


def _page_data(slug: str) -> Any:
    """The page's default form data (what a first visit posts)."""
    from bestiary.validation import _form_data
    from calculator.services import deep_merge
    from rulesets.core.schema import flatten, to_data

    defaults = deep_merge(to_data(get(slug).scenario_type()), plugins.get(slug).defaults())
    return _form_data(flatten(defaults))


def _table_path(group: PresetGroup, table: Any) -> str:
    """The table's path where the group's choice goes (``*`` → row 0)."""
    prefix = group.prefix.replace("{row}", "0")
    paths = [p.replace("*", "0") for p in table.paths]
    found = [p for p in paths if p == prefix or p.startswith(prefix + ".") or not prefix]
    assert len(found) == 1, (group.key, table.key, paths)
    return found[0]


def _groups_with_tables(slug: str) -> list[PresetGroup]:
    return [g for g in plugins.get(slug).presets() if g.table]


@pytest.mark.parametrize("slug", SLUGS)
def test_every_bestiary_choice_of_the_page_sends_its_rows_key(bestiary, slug):
    """The page's select of a bestiary row sends the row's key, the one the API and the CLI take
    (issue 14, « the page sends keys too »): no database id reaches the page."""
    by_key = {t.key: t for t in tables.tables_of(plugins.get(slug))}
    keyed = {t: {r.key for r in table.rows} for t, table in by_key.items()}
    for group in plugins.get(slug).presets():
        bestiary_rows = [p for p in group.presets if p.origin]
        if not group.table:
            assert all(not p.key.isdigit() for p in bestiary_rows), group.key
            continue
        assert group.table in by_key, group.key
        for preset in bestiary_rows:
            assert preset.key.partition(".")[0] in keyed[group.table], (group.key, preset.key)


def _as_posted(value: Any) -> str | None:
    """A row's value as the page's form holds it (a ticked box « on », an unticked one absent)."""
    if isinstance(value, bool):
        return "on" if value else None
    return "" if value is None else str(value)


@pytest.mark.parametrize("slug", SLUGS)
def test_loading_a_key_on_the_page_fills_what_the_api_puts_at_that_key(bestiary, slug):
    """For every bestiary choice whose group names a table, « Charger » on the page with the key the
    page sends fills exactly the fields the API fills for that key: one row, one set of numbers."""
    from calculator.forms import apply_form_actions
    from rulesets.core.schema import copy_data, flatten

    ruleset, plugin = get(slug), plugins.get(slug)
    by_key = {t.key: t for t in tables.tables_of(plugin)}
    groups = {g.key: g for g in plugin.presets()}
    checked = 0
    for group in _groups_with_tables(slug):
        table = by_key[group.table]
        path = _table_path(group, table)
        for preset in [p for p in group.presets if p.origin]:  # not « À pied », « Aucun coup spécial »
            data = _page_data(slug)
            row = "0" if "{row}" in group.prefix else ""
            name = ".".join(p for p in ("preset", group.key, row) if p)
            data["_load"] = name
            data[name] = preset.key
            loaded, _acted = apply_form_actions(data, ruleset.scenario_type, groups)
            key = preset.key.partition(".")[0]
            found = table.find(key)
            assert found is not None, (group.key, preset.key)
            brought = flatten(copy_data(found.data))
            page = {k: loaded.get(f"{path}.{k}") for k in brought}
            api = {k: _as_posted(v) for k, v in brought.items()}
            assert page == api, (group.key, preset.key)
            checked += 1
    assert checked or not _groups_with_tables(slug)
