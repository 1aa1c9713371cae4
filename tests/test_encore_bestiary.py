"""enCORE data: the fixtures load, and every NPC and weapon plays in a scenario."""

import pytest
from django.core.management import call_command

from bestiary.encore import selectors
from bestiary.encore.models import NPC, Weapon
from calculator import services
from calculator.tables import row_key
from rulesets.core.registry import get
from tests.factories import EncoreNPCFactory, EncoreSettingsFactory, HealthTierFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def fixtures():
    call_command("loaddata", "fixtures/encore.json", verbosity=0)


def test_the_fixtures_hold_the_seed_crossbowman_and_npcs_across_menace_one_to_three(fixtures):
    crossbowman = NPC.objects.get(name="Arbalétrier")
    assert (crossbowman.menace, crossbowman.sante, crossbowman.weapon.damage, crossbowman.protection) == (2, 4, 3, 0)
    assert NPC.objects.count() >= 9
    assert set(NPC.objects.values_list("menace", flat=True)) == {1, 2, 3}


def test_every_fixture_npc_resolves_against_aldric(fixtures):
    ruleset = get("encore")
    for npc in NPC.objects.select_related("weapon"):
        payload = {
            "scenario": {
                "pc": {"name": "Aldric", "attribute": 3, "speciality": True, "weapon": 3, "armour": 1},
                "npcs": [
                    {
                        "name": npc.name,
                        "menace": npc.menace,
                        "sante": npc.sante,
                        "weapon": npc.weapon.damage,
                        "protection": npc.protection,
                        "boss": npc.boss,
                    }
                ],
            },
            "seed": 1,
        }
        assert services.resolution_resolve(ruleset=ruleset, payload=payload).result.outcome


def test_every_fixture_weapon_resolves(fixtures):
    ruleset = get("encore")
    for weapon in Weapon.objects.all():
        action = "zone" if weapon.area else "attaque"
        npcs = [{"menace": 1}, {"menace": 2}] if weapon.area else [{"menace": 1}]
        payload = {
            "scenario": {
                "action": action,
                "pc": {"weapon": weapon.damage, "weapon_area": weapon.area, "weapon_limit": weapon.target_limit},
                "npcs": npcs,
            },
            "seed": 3,
        }
        assert services.resolution_resolve(ruleset=ruleset, payload=payload).result.outcome


def test_settings_become_the_rules_of_the_scenario():
    settings = EncoreSettingsFactory(success_face=4, speciality_dice=1)
    HealthTierFactory(settings=settings, name="Sonné", numerator=3, denominator=4)
    data = selectors.settings_data()
    assert data["rules"]["success_face"] == 4
    assert data["rules"]["tiers"] == [{"name": "Sonné", "numerator": 3, "denominator": 4}]


def test_without_settings_the_engine_defaults_apply():
    assert selectors.settings_data() == {}


def test_a_factory_npc_appears_in_the_presets():
    from bestiary.encore.web import presets

    npc = EncoreNPCFactory(name="Gobelin")
    group = next(g for g in presets() if g.key == "npc")
    assert group.find(row_key(npc.name)).values["name"] == "Gobelin"


def test_every_fixture_npc_says_its_name_with_an_explicit_grammar():
    """Issue 15, item 2: each row of fixtures/encore.json chooses its article, gender and elision."""
    import json
    from pathlib import Path

    data = json.loads(Path("fixtures/encore.json").read_text(encoding="utf-8"))
    rows = [r for r in data if r["model"] == "encore.npc"]
    assert rows
    for row in rows:
        assert {"article", "gender", "elision"} <= set(row["fields"]), row["fields"]["name"]
    said = {r["fields"]["name"]: r for r in rows}
    assert said["Sorcière des marais"]["fields"]["gender"] == "f"
    assert said["Hors-la-loi"]["fields"]["elision"] == "non"  # « le hors-la-loi »: an aspirated h


def test_the_fixture_names_read_with_their_article(fixtures):
    nouns = {n.name: n.noun for n in NPC.objects.all()}
    assert nouns["Arbalétrier"].de == "de l'Arbalétrier"
    assert nouns["Hors-la-loi"].de == "du Hors-la-loi"
    assert nouns["Ogre des collines"].a == "à l'Ogre des collines"
    assert nouns["Chien de garde"].a == "au Chien de garde"
    assert nouns["Sorcière des marais"].Subject == "La Sorcière des marais"


def test_a_new_npc_defaults_to_a_masculine_common_noun():
    npc = EncoreNPCFactory(name="Gobelin")
    assert npc.noun.subject == "le Gobelin"


def test_the_npc_presets_carry_the_names_grammar(fixtures):
    from bestiary.encore.web import presets

    witch = NPC.objects.get(name="Sorcière des marais")
    values = next(g for g in presets() if g.key == "npc").find(row_key(witch.name)).values
    assert (values["grammar.article"], values["grammar.gender"], values["grammar.elision"]) == ("defini", "f", "auto")


def test_the_admin_shows_the_names_grammar(admin_client, fixtures):
    witch = NPC.objects.get(name="Sorcière des marais")
    body = admin_client.get(f"/admin/encore/npc/{witch.pk}/change/").content.decode()
    assert "Grammaire du nom" in body
    for field in ("article", "gender", "elision"):
        assert f'name="{field}"' in body
