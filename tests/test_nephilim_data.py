"""Nephilim fixtures: every seed table row is in the database and becomes scenario data that resolves."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from bestiary.nephilim.models import Ammunition, Approach, Creature, DefenceType, Effect, Protection, Weapon
from bestiary.nephilim.web import combatant
from rulesets.core.registry import get
from rulesets.core.request import resolve
from rulesets.core.schema import parse
from rulesets.nephilim import model as m
from rulesets.nephilim.encounter import from_preset
from tests.nephilim_fixtures import nephilim_data  # noqa: F401  (fixture)
from tests.rulesets.nephilim import seed_tables as t

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("nephilim_data")]


def test_every_table_of_the_seed_has_all_its_rows() -> None:
    assert Approach.objects.count() == len(t.MELEE_APPROACHES) + len(t.RANGED_APPROACHES)
    assert Weapon.objects.count() == len(t.MELEE_WEAPONS) + len(t.RANGED_WEAPONS) + len(t.THROWN_WEAPONS)
    assert Ammunition.objects.count() == len(t.AMMUNITIONS)
    assert Protection.objects.count() == len(t.PROTECTIONS)
    assert DefenceType.objects.count() == len(t.DEFENCES)
    assert Effect.objects.filter(side="attaquant").count() == len(t.ATTACKER_EFFECTS)
    assert Effect.objects.filter(side="defenseur").count() == len(t.DEFENDER_EFFECTS)


def _same(cls: type, fixture_row: dict[str, Any], seed_row: dict[str, Any]) -> None:
    seed = {k: v for k, v in seed_row.items() if k != "slot"}
    assert parse(cls, fixture_row) == parse(cls, seed)


@pytest.mark.parametrize("row", t.MELEE_APPROACHES + t.RANGED_APPROACHES, ids=lambda r: r["name"])
def test_each_approach_fixture_matches_the_seed(row: dict[str, Any]) -> None:
    _same(m.Approach, Approach.objects.get(name=row["name"]).as_scenario(), row)


@pytest.mark.parametrize("row", t.MELEE_WEAPONS + t.RANGED_WEAPONS + t.THROWN_WEAPONS, ids=lambda r: r["name"])
def test_each_weapon_fixture_matches_the_seed(row: dict[str, Any]) -> None:
    _same(m.Weapon, Weapon.objects.get(name=row["name"]).as_scenario(), row)


@pytest.mark.parametrize("row", t.AMMUNITIONS, ids=lambda r: r["name"])
def test_each_ammunition_fixture_matches_the_seed(row: dict[str, Any]) -> None:
    _same(m.Ammunition, Ammunition.objects.get(name=row["name"]).as_scenario(), row)


@pytest.mark.parametrize("row", t.PROTECTIONS, ids=lambda r: r["name"])
def test_each_protection_fixture_matches_the_seed(row: dict[str, Any]) -> None:
    _same(m.Protection, Protection.objects.get(name=row["name"]).as_scenario(), row)


@pytest.mark.parametrize("row", t.DEFENCES, ids=lambda r: f"{r['name']}-{r['context']}")
def test_each_defence_fixture_matches_the_seed(row: dict[str, Any]) -> None:
    _same(m.DefenceType, DefenceType.objects.get(name=row["name"], context=row["context"]).as_scenario(), row)


@pytest.mark.parametrize(
    ("side", "row"),
    [("attaquant", r) for r in t.ATTACKER_EFFECTS] + [("defenseur", r) for r in t.DEFENDER_EFFECTS],
    ids=lambda v: v if isinstance(v, str) else v["name"],
)
def test_each_effect_fixture_matches_the_seed(side: str, row: dict[str, Any]) -> None:
    _same(m.Effect, Effect.objects.get(name=row["name"], side=side).as_scenario(), row)


def test_at_least_twelve_creatures_of_every_kind() -> None:
    assert Creature.objects.count() >= 12
    assert set(Creature.objects.values_list("category", flat=True)) == {c.value for c in Creature.Category}


def _unflat(flat: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in flat.items():
        node = out
        *parents, leaf = key.split(".")
        for p in parents:
            node = node.setdefault(p, {})
        node[leaf] = value
    return out


@pytest.mark.parametrize("pk", range(1, 17))
def test_each_creature_attacks_and_defends_through_the_engine(pk: int) -> None:
    creature = Creature.objects.get(pk=pk)
    mode = creature.weapon.category
    approach = Approach.objects.filter(kind={"melee": "standard", "tir": "tir", "lancer": "lancer"}[mode]).first()
    assert approach is not None
    defence = DefenceType.objects.get(context=mode, style="encaisser")
    attacker = _unflat(creature.as_attacker())
    attacker["approach"] = approach.as_scenario()
    if attacker["approach_value"] and attacker["kind"] == "nephilim":
        attacker["approach_value"] = 0  # a standard approach allows no element
        attacker["approach_element"] = "aucun"
    target = _unflat(Creature.objects.exclude(pk=pk).first().as_defender())  # type: ignore[union-attr]
    target["defence"] = defence.as_scenario()
    target["approach_value"] = 0
    payload = {"scenario": {"mode": mode, "attacker": attacker, "defenders": [target]}, "seed": pk}
    assert resolve(get("nephilim"), payload).result.numbers["strikes"] == 1
    defender = _unflat(creature.as_defender())
    defender["defence"] = DefenceType.objects.get(context="melee", name="Standard").as_scenario()
    if defender["approach_value"]:
        defender["approach_value"] = 0
    payload = {"scenario": {"defenders": [defender]}, "seed": pk}
    assert resolve(get("nephilim"), payload).result.numbers["strikes"] == 1


@pytest.mark.parametrize(
    "model", ["approach", "weapon", "ammunition", "protection", "defencetype", "effect", "creature"]
)
def test_each_admin_list_searches_and_filters(admin_client: Any, model: str) -> None:
    listing = admin_client.get(f"/admin/nephilim/{model}/")
    assert listing.status_code == 200
    assert admin_client.get(f"/admin/nephilim/{model}/?q=e").status_code == 200
    first = (
        {
            "approach": Approach,
            "weapon": Weapon,
            "ammunition": Ammunition,
            "protection": Protection,
            "defencetype": DefenceType,
            "effect": Effect,
            "creature": Creature,
        }[model]
        .objects.order_by("pk")
        .first()
    )
    assert first is not None
    assert admin_client.get(f"/admin/nephilim/{model}/{first.pk}/change/").status_code == 200


def test_a_new_simple_spell_needs_no_code(admin_client: Any) -> None:
    spell = Effect.objects.create(side="defenseur", kind="sort", name="Peau de pierre", protection_phys=2)
    scenario = {
        "defenders": [{"defence": {"name": "Encaisser", "style": "encaisser", "rolls": False}}],
        "attacker": {"weapon": {"name": "Marteau", "degree": 3, "phys": 3}},
        "defender_effects": [spell.as_scenario()],
    }
    result = resolve(get("nephilim"), {"scenario": scenario, "dice": {"attaque.1": 20}}).result
    assert result.numbers["phys_taken"] == 1


def _admin_form(**values: Any) -> dict[str, Any]:
    """The admin's add form for an effect as a game master would fill it: the defaults plus ``values``."""
    data: dict[str, Any] = {}
    for f in Effect._meta.concrete_fields:
        if f.primary_key:
            continue
        value = values.get(f.name, f.get_default())
        if isinstance(value, bool):
            if value:
                data[f.name] = "on"
        else:
            data[f.name] = "" if value is None else value
    return data


def test_a_new_simple_spell_is_added_through_the_admin_form_and_resolves(admin_client: Any) -> None:
    form = _admin_form(side="defenseur", kind="sort", name="Peau de pierre", protection_phys=2)
    response = admin_client.post("/admin/nephilim/effect/add/", form)
    assert response.status_code == 302, response.content.decode()[:2000]
    spell = Effect.objects.get(name="Peau de pierre", side="defenseur")
    scenario = {
        "defenders": [{"defence": {"name": "Encaisser", "style": "encaisser", "rolls": False}}],
        "attacker": {"weapon": {"name": "Marteau", "degree": 3, "phys": 3}},
        "defender_effects": [spell.as_scenario()],
    }
    result = resolve(get("nephilim"), {"scenario": scenario, "dice": {"attaque.1": 20}}).result
    assert result.numbers["phys_taken"] == 1  # 3 PHYS − 2, the new spell's protection


def test_a_named_behaviour_is_selectable_in_the_admin(admin_client: Any) -> None:
    page = admin_client.get("/admin/nephilim/effect/add/").content.decode()
    for behaviour in ("retenue_du_souffle", "eau_forte", "manteau_elementaire", "transmutation_du_fauve"):
        assert f'value="{behaviour}"' in page
    form = _admin_form(
        side="defenseur", kind="sort", name="Manteau d'eau du test", behaviour="manteau_elementaire", element="eau"
    )
    form["protection_phys"] = form["protection_mag"] = 3
    assert admin_client.post("/admin/nephilim/effect/add/", form).status_code == 302
    mantle = Effect.objects.get(name="Manteau d'eau du test").as_scenario()
    glaive = {"name": "Glaive élémentaire d'Eau", "degree": 3, "phys": 3, "mag": 3, "element": "eau", "magical": True}
    scenario = {
        "defenders": [{"kind": "nephilim", "defence": {"name": "Encaisser", "style": "encaisser", "rolls": False}}],
        "attacker": {"weapon": glaive},
        "defender_effects": [mantle],
    }
    result = resolve(get("nephilim"), {"scenario": scenario, "dice": {"attaque.1": 20}}).result
    assert (result.numbers["phys_taken"], result.numbers["mag_taken"]) == (0, 0)  # same element: total cancel


# --- issue 15: the grammar of the bestiary's names ------------------------------------------------

FIXTURE = json.loads(Path("fixtures/nephilim.json").read_text(encoding="utf-8"))


def test_every_creature_row_of_the_fixture_says_its_grammar() -> None:
    """Item 2: each name's article, gender and elision chosen for that name, never left to the default;
    no name carries its article (« Le Chevalier d'Airain » would read « du Le Chevalier »)."""
    rows = [r["fields"] for r in FIXTURE if r["model"] == "nephilim.creature"]
    assert len(rows) == 16
    for row in rows:
        assert {row["article"], row["gender"], row["elision"]} <= {"propre", "defini", "pluriel", "m", "f", "auto"}
        assert not row["name"].lower().startswith(("le ", "la ", "les ", "l'")), row["name"]
    said = {c.name: c.noun for c in Creature.objects.all()}
    assert said["Sœur Agathe"].de == "de Sœur Agathe"
    assert said["Sahar"].agree("blessé") == "blessée"
    assert said["Chevalier d'Airain"].de == "du Chevalier d'Airain"
    assert said["Effet-dragon de Feu"].subject == "l'Effet-dragon de Feu"
    assert said["Mercenaire"].a == "au Mercenaire"
    assert not [p.name for p in Protection.objects.all() if re.search(r"\bde [AEIOU]", p.name)]  # « d'Eau »


def test_the_presets_carry_the_grammar_to_the_page_and_the_encounter() -> None:
    agathe = Creature.objects.get(name="Sœur Agathe")
    grammar = {"grammar.article": "propre", "grammar.gender": "f", "grammar.elision": "auto"}
    assert grammar.items() <= agathe.as_attacker().items()
    assert grammar.items() <= agathe.as_defender().items()
    state = from_preset(combatant(agathe))
    assert state["grammar"] == {"article": "propre", "gender": "f", "elision": "auto"}


def test_the_admin_shows_the_grammar_of_a_creature(admin_client: Any) -> None:
    creature = Creature.objects.get(name="Mercenaire")
    page = admin_client.get(f"/admin/nephilim/creature/{creature.pk}/change/").content.decode()
    assert "Grammaire du nom" in page
    for name in ("article", "gender", "elision"):
        assert f'name="{name}"' in page
