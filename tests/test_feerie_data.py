"""Féerie data: the fixtures hold every table of seed 004 and creatures that resolve."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.urls import reverse

from bestiary.feerie import models as m
from bestiary.feerie import web
from rulesets.core.dice import fixed_roll
from rulesets.core.schema import parse, unflatten
from rulesets.feerie import action, engine
from rulesets.feerie.action import ActionScenario
from rulesets.feerie.engine import derive
from rulesets.feerie.model import Exchange, Mode

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
def tables() -> None:
    call_command("loaddata", str(FIXTURE), verbosity=0)


def test_every_table_of_the_seed_is_in_the_fixtures(tables: None) -> None:
    assert m.Settings.objects.count() == 1
    assert list(m.SurfaceRow.objects.values_list("surface", flat=True)) == [1, 2, 4, 8, 16]
    assert list(m.Allure.objects.values_list("pace", "malus", "charge_bonus")) == [
        ("marche", 0, 0),
        ("trot", -4, 2),
        ("course", -8, 4),
        ("sprint", -12, 6),
    ]
    assert m.CoverMaterial.objects.count() == 6
    assert sorted(m.CoverOpacity.objects.values_list("malus", flat=True)) == [-8, -4]
    assert m.Lighting.objects.count() == 8
    assert list(m.RangedDifficulty.objects.values_list("modifier", flat=True)) == [-8, 0, 8, 16, 20, 24]
    assert list(m.RangeBand.objects.values_list("modifier", flat=True)) == [-4, 0, 4, 12, 20, 28]
    assert m.Terrain.objects.count() == 3
    assert m.SpecialBlow.objects.count() == 10
    assert m.TacticPreset.objects.count() == 13


def test_the_issue_creatures_are_in_the_bestiary(tables: None) -> None:
    names = set(m.Creature.objects.values_list("name", flat=True))
    assert {
        "Wichtln",
        "Redcap",
        "Ogre",
        "Sylphe",
        "Géant",
        "Feu follet",
        "Pixie",
        "Hippogriffe",
        "Serpent à Sornettes",
        "Lutin",
    } <= names
    assert len(names) >= 10


def test_the_bestiary_agrees_with_the_seed_examples(tables: None) -> None:
    by_name = {c.name: c for c in m.Creature.objects.all()}
    # the Tailles the multiple-opponents examples give
    tailles = {"Ogre": 2, "Sylphe": -2, "Géant": 4, "Feu follet": -4, "Farfadet": -4, "Lutin": -2}
    assert {name: by_name[name].taille for name in tailles} == tailles
    # « Rübezahl (Vigilance 20) fait face à un Serpent à Sornettes (Vigilance 17) »
    assert (by_name["Rübezahl"].vigilance, by_name["Serpent à Sornettes"].vigilance) == (20, 17)

    def attribute(creature: str, name: str) -> int:
        return by_name[creature].attributes.get(name=name).value

    # the Redcap's hache +3 and massacre +4 (a tactic cap of 7), Sire Didimus's duel +4, the Pixie's couardise +3
    assert (attribute("Redcap", "hache"), attribute("Redcap", "massacre")) == (3, 4)
    assert attribute("Sire Didimus", "duel") == 4
    assert attribute("Pixie", "couardise") == 3


def test_the_bestiary_wichtln_reproduces_the_seed_values(tables: None) -> None:
    w = m.Creature.objects.get(name="Wichtln")
    melee = derive(Exchange(attacker=web.combatant(w), defender=web.combatant(w)))
    ranged = derive(Exchange(attacker=web.combatant(w, ranged=True), defender=web.combatant(w), mode=Mode.RANGED))
    assert melee.attacker_initiative.total == 15
    assert (melee.attack.total, ranged.attack.total) == (23, 15)
    assert melee.defense.total == 25
    assert (melee.damage.total, ranged.damage.total) == (12, 7)
    assert melee.soak.total == 15


def test_every_creature_resolves_against_every_other_in_both_modes(tables: None) -> None:
    creatures = list(m.Creature.objects.prefetch_related("attributes"))
    roll = fixed_roll({"plus.1": 10, "moins.1": 10})
    for a in creatures:
        for d in creatures:
            for ranged in (False, True):
                data = {
                    "attacker": web.creature_values(a, ranged=ranged),
                    "defender": web.creature_values(d),
                    "mode": "ranged" if ranged else "melee",
                }
                scenario = parse(Exchange, unflatten(_flat(data)))
                assert engine.resolve(scenario, roll).outcome


def test_every_creature_can_join_an_action(tables: None) -> None:
    # a preset's values are the form's flat paths (« grammar.article »)
    fighters = [unflatten(web.fighter_values(c)) for c in m.Creature.objects.prefetch_related("attributes")[:12]]
    scenario = parse(ActionScenario, {"fighters": fighters})
    r = action.resolve(scenario, fixed_roll(dict.fromkeys(action.dice_for(scenario).keys(), 10)))
    assert r.outcome == "resolved"


def test_every_tactic_preset_is_zero_sum_and_within_its_cap(tables: None) -> None:
    for preset in web.tactic_presets():
        v = preset.values
        cap = int(preset.key.split(".")[1])
        assert v["initiative"] + v["attack"] + v["defense"] == 0
        assert max(abs(x) for x in v.values()) <= cap


def test_every_preset_group_fills_fields_of_the_scenario(tables: None) -> None:
    from calculator.forms import leaves

    # a creature's entry clears the rows beyond its own, up to the 16 Attributs a combatant may have
    rows = {"attacker.attributes": 16, "defender.attributes": 16, "blows": 1}
    paths = {leaf.path for leaf in leaves(Exchange, rows)}
    for group in web.presets():
        prefix = group.prefix.replace("{row}", "0")
        for preset in group.presets:
            for key in preset.values:
                assert f"{prefix}.{key}" in paths, (group.key, key)


def test_the_table_settings_become_the_page_defaults(tables: None) -> None:
    data = web.defaults()
    assert data["roll"] == {"plus": 1, "minus": 1, "sides": 20}
    assert len(data["situation"]["surfaces"]) == 5


def test_the_admin_lists_search_and_filter_the_tables(tables: None, admin_client: object) -> None:
    client = admin_client
    for model in ("creature", "specialblow", "tacticpreset", "lighting", "covermaterial", "allure", "surfacerow"):
        url = reverse(f"admin:feerie_{model}_changelist")
        assert client.get(url, {"q": "a"}).status_code == 200  # type: ignore[attr-defined]
    w = m.Creature.objects.get(name="Wichtln")
    assert client.get(reverse("admin:feerie_creature_change", args=[w.pk])).status_code == 200  # type: ignore[attr-defined]


def _flat(data: Mapping[str, Any], prefix: str = "") -> dict[str, object]:
    out: dict[str, object] = {}
    for k, v in data.items():
        if isinstance(v, dict):
            out.update(_flat(v, f"{prefix}{k}."))
        else:
            out[f"{prefix}{k}"] = v
    return out
