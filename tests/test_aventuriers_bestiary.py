"""Aventuriers data: the fixtures load, every table row plays in a scenario, the admin works."""

import json
from pathlib import Path

import pytest
from django.core.management import call_command

from bestiary.aventuriers import selectors, web
from bestiary.aventuriers.models import DieType, Monster, Protection, TableSettings, Weapon
from calculator import services
from rulesets.core.registry import get
from rulesets.core.schema import unflatten
from tests.factories_aventuriers import DieFaceFactory, DieTypeFactory

pytestmark = pytest.mark.django_db

RULESET = get("aventuriers")
HERO = {"name": "Elwen", "side": "aventurier", "pv": 8}
FAR = {"dx": 0, "dy": -3, "attacker_facing": "sud", "target_facing": "nord"}
FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "aventuriers.json"


@pytest.fixture
def fixtures():
    call_command("loaddata", "fixtures/aventuriers.json", verbosity=0)


def resolve(scenario):
    return services.resolution_resolve(ruleset=RULESET, payload={"scenario": scenario, "seed": 5})


def test_the_fixtures_hold_two_marked_default_dice_with_six_faces(fixtures):
    dice = selectors.die_type_list()
    assert [d.key for d in dice] == ["noir", "bleu"]
    assert all(d.faces.count() == 6 for d in dice)
    assert not any(d.verified for d in dice)
    blue = DieType.objects.get(key="bleu")
    assert set(blue.faces.values_list("lightning", flat=True)) == {0, 1, 2}


def test_the_fixtures_hold_at_least_eight_monsters_and_a_dozen_weapons_and_protections(fixtures):
    assert Monster.objects.count() >= 8
    assert Weapon.objects.count() + Protection.objects.count() >= 12
    assert Weapon.objects.filter(spell=True).exists()
    assert Weapon.objects.filter(reach="hybride").exists()
    assert Weapon.objects.filter(unblockable=True).exists()
    assert Weapon.objects.filter(flash=True).exists()
    assert Weapon.objects.filter(diagonals=True).exists()
    assert Monster.objects.filter(riposte=True, contrecoup=True).exists()


def test_the_table_settings_and_dice_become_scenario_defaults(fixtures):
    data = selectors.settings_data()
    assert [d["key"] for d in data["die_types"]] == ["noir", "bleu"]
    assert data["die_types"][1]["faces"][5] == {"damage": 0, "shield": 0, "lightning": 2}
    assert data["rules"] == {
        "zone_shape": "avant",
        "coup_bas_bonus": 1,
        "contrecoup_without_shield": True,
        "monster_stamina": False,
        "success_die": "bleu",
    }


def test_an_empty_database_leaves_the_engine_defaults():
    assert selectors.settings_data() == {}


def test_every_fixture_monster_attacks_and_defends(fixtures):
    for monster in selectors.monster_list():
        values = unflatten(web.monster_values(monster, "bleu"))
        mode = "distance" if monster.reach == "distance" else "melee"
        board = FAR if mode == "distance" else {}
        attack = resolve({"mode": mode, "attacker": values, "defender": HERO, "board": board})
        assert attack.result.outcome in {"tue", "blesse", "indemne"}, monster.name
        defence = resolve({"attacker": HERO, "defender": values})
        assert defence.result.outcome in {"tue", "blesse", "indemne"}, monster.name


def test_every_fixture_weapon_and_spell_resolves_in_its_reach(fixtures):
    for weapon in selectors.weapon_list():
        values = unflatten(web.weapon_values(weapon, "bleu"))
        mode = "distance" if weapon.reach == "distance" else "melee"
        board = FAR if mode == "distance" else {}
        resolution = resolve({"mode": mode, "attacker": {**HERO, "weapon": values}, "board": board})
        assert resolution.result.outcome in {"tue", "blesse", "indemne"}, weapon.name
        assert resolution.result.numbers["flash"] is weapon.flash


def test_every_fixture_protection_defends_first_in_a_flash_defence(fixtures):
    for protection in selectors.protection_list():
        values = unflatten(web.protection_values(protection, "bleu"))
        scenario = {
            "action": "sortie_de_zone",
            "attacker": {**HERO, "attaque_eclair": True},
            "defender": {"name": "Rival", "pv": 9, **values},
        }
        resolution = resolve(scenario)
        first = next(s for s in resolution.spec.slots if s.key.startswith("defense"))
        assert first.die.name == protection.dice.all()[0].die.name
        assert resolution.result.outcome in {"tue", "blesse", "indemne"}, protection.name


def test_the_die_position_orders_the_flash_defence(fixtures):
    DieType.objects.filter(key="bleu").update(position=0)
    defaults = selectors.settings_data()
    assert [d["key"] for d in defaults["die_types"]] == ["bleu", "noir"]
    scenario = {
        **defaults,
        "action": "debut_de_phase",
        "attacker": {**HERO, "attaque_opportunite": True},
        "defender": {"defence": [{"die": "noir", "count": 1}, {"die": "bleu", "count": 1}]},
    }
    resolution = resolve(scenario)
    defence = [s.die.name for s in resolution.spec.slots if s.key.startswith("defense")]
    assert defence == ["Dé bleu", "Dé noir"]


def test_a_die_type_made_in_the_admin_plays_on_the_page_defaults():
    die = DieTypeFactory(key="rouge", name="Dé rouge")
    DieFaceFactory(die=die, position=1, damage=2)
    DieFaceFactory(die=die, position=2, shield=1, damage=0)
    TableSettings.objects.create(success_die=None)
    data = selectors.settings_data()
    assert data["die_types"] == [
        {
            "key": "rouge",
            "name": "Dé rouge",
            "faces": [{"damage": 2, "shield": 0, "lightning": 0}, {"damage": 0, "shield": 1, "lightning": 0}],
        }
    ]
    scenario = {
        **data,
        "rules": {**data["rules"], "success_die": "rouge"},
        "attacker": {
            **HERO,
            "weapon": {"dice": [{"die": "rouge", "count": 1}]},
            "defence": [{"die": "rouge", "count": 1}],
        },
        "defender": {
            "pv": 3,
            "weapon": {"dice": [{"die": "rouge", "count": 1}]},
            "defence": [{"die": "rouge", "count": 1}],
        },
    }
    assert resolve(scenario).result.outcome


@pytest.mark.parametrize("model", ["dietype", "weapon", "protection", "monster", "tablesettings"])
def test_the_admin_lists_and_searches_each_table(fixtures, admin_client, model):
    response = admin_client.get(f"/admin/aventuriers/{model}/", {"q": "o"})
    assert response.status_code == 200


def test_the_admin_marks_default_faces_to_check(fixtures, admin_client):
    body = admin_client.get("/admin/aventuriers/dietype/").content.decode()
    assert "faces par défaut — à vérifier sur vos dés" in body


def test_the_admin_change_page_of_a_monster_shows_its_dice(fixtures, admin_client):
    chef = Monster.objects.get(name="Chef orc")
    response = admin_client.get(f"/admin/aventuriers/monster/{chef.pk}/change/")
    assert response.status_code == 200
    assert "Jet de défense" in response.content.decode()


# --- the grammar of the monsters' names (issue 15, item 2) ---------------------------------------------


def test_every_fixture_monster_says_its_grammar_explicitly():
    """Each row of fixtures/aventuriers.json names its article, gender and elision: none relies on
    the default of a new row."""
    rows = [r for r in json.loads(FIXTURE.read_text(encoding="utf-8")) if r["model"] == "aventuriers.monster"]
    assert rows
    for row in rows:
        assert {"article", "gender", "elision"} <= set(row["fields"]), row["fields"]["name"]


def test_the_monsters_are_said_with_their_article_and_gender(fixtures):
    said = {m.name: m.noun for m in Monster.objects.all()}
    assert said["Orc"].subject == "l'Orc"
    assert said["Gobelin"].de == "du Gobelin"
    assert said["Araignée géante"].subject == "l'Araignée géante"
    assert said["Araignée géante"].agree("tué") == "tuée"
    assert said["Troll des cavernes"].a == "au Troll des cavernes"


def test_a_new_monster_is_a_masculine_common_noun_elided_by_its_first_letter():
    ogre = Monster.objects.create(name="Ogre", pv=6)
    assert (ogre.article, ogre.gender, ogre.elision) == ("defini", "m", "auto")
    assert ogre.noun.de == "de l'Ogre"


def test_the_monster_preset_fills_the_grammar_and_the_story_uses_it(fixtures):
    spider = Monster.objects.get(name="Araignée géante")
    values = web.monster_values(spider, "bleu")
    assert (values["grammar.article"], values["grammar.gender"], values["grammar.elision"]) == ("defini", "f", "auto")
    scenario = {"attacker": HERO, "defender": unflatten(values)}
    resolution = resolve(scenario)
    told = " ".join((resolution.narrative.scene, *resolution.narrative.story))
    assert "l'Araignée géante" in told
    assert "Araignée géante" not in told.replace("l'Araignée géante", "").replace("L'Araignée géante", "")


def test_the_admin_edits_the_grammar_of_a_monster(fixtures, admin_client):
    orc = Monster.objects.get(name="Orc")
    body = admin_client.get(f"/admin/aventuriers/monster/{orc.pk}/change/").content.decode()
    assert "Grammaire du nom" in body
    for field in ("article", "gender", "elision"):
        assert f'name="{field}"' in body
