"""Issue 15, item 2, for Contes de Fées: the bestiary's names carry their grammar (fixture, admin, presets),
the pages hold it behind « Ajuster » (« se dit « le Wichtln », au masculin ») and the story uses it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from bestiary.feerie import models as m
from bestiary.feerie import web
from calculator.tables import row_key
from rulesets.core.french import NNBSP, Article, Elision, Gender
from rulesets.feerie import encounter as enc
from tests.test_table_mode import controls, form_data

pytestmark = pytest.mark.django_db

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "feerie.json"
PROPER_NAMES = {"Rübezahl", "Sire Didimus"}  # the seed's named characters; every other row is a kind of creature


@pytest.fixture(autouse=True)
def bestiary() -> None:
    call_command("loaddata", str(FIXTURE), verbosity=0)


def creatures_in_the_fixture() -> list[dict[str, Any]]:
    rows = json.loads(FIXTURE.read_text(encoding="utf-8"))
    return [r["fields"] for r in rows if r["model"] == "feerie.creature"]


def test_every_creature_of_the_fixture_says_how_its_name_is_said() -> None:
    rows = creatures_in_the_fixture()
    assert rows
    for row in rows:
        assert {"article", "gender", "elision"} <= row.keys(), row["name"]
        assert row["article"] == (Article.PROPER.value if row["name"] in PROPER_NAMES else Article.DEFINITE.value)
        assert row["gender"] in {g.value for g in Gender}
        assert row["elision"] in {e.value for e in Elision}
    assert {r["name"]: r["gender"] for r in rows}["Pixie"] == "m"  # « Un Pixie taquin »


def test_a_new_creature_is_a_masculine_common_noun_by_default() -> None:
    c = m.Creature(name="Ondin", vigilance=1, habilete=1, puissance=1, resistance=1, taille=0, essence=1)
    assert c.noun.subject == "l'Ondin"
    assert m.Creature.objects.get(name="Hippogriffe").noun.de == "de l'Hippogriffe"
    assert m.Creature.objects.get(name="Rübezahl").noun.de == "de Rübezahl"


def test_every_preset_hands_the_grammar_on() -> None:
    ogre = m.Creature.objects.get(name="Ogre")
    grammar = {"grammar.article": "defini", "grammar.gender": "m", "grammar.elision": "auto"}
    assert web.creature_values(ogre).items() >= grammar.items()
    assert web.fighter_values(ogre).items() >= grammar.items()
    mounts = next(g for g in web.presets() if g.key == "attacker_mount").presets
    hippogriffe = next(p for p in mounts if p.values.get("name") == "Hippogriffe")
    assert hippogriffe.values.items() >= grammar.items()
    # the encounter's « Du bestiaire » makes a Féerique of it, grammar included
    state = enc.from_preset(web.creature_preset_values(ogre))
    assert state["grammar"] == {"article": "defini", "gender": "m", "elision": "auto"}


def test_the_admin_shows_the_grammar_of_a_creature(client: Any) -> None:
    admin = get_user_model().objects.create_superuser("meneur", "meneur@example.org", "mot-de-passe-long")
    client.force_login(admin)
    ogre = m.Creature.objects.get(name="Ogre")
    page = client.get(f"/admin/feerie/creature/{ogre.pk}/change/").content.decode()
    assert "Grammaire du nom" in page
    for field in ("article", "gender", "elision"):
        assert f'name="{field}"' in page


def test_the_exchange_page_says_how_each_name_is_said_behind_ajuster(client: Any) -> None:
    page = client.get("/feerie/").content.decode()
    assert f"se dit «{NNBSP}le Wichtln{NNBSP}», au masculin" in page
    assert f"se dit «{NNBSP}le Redcap{NNBSP}», au masculin" in page
    for side in ("attacker", "defender"):
        for field in ("article", "gender", "elision"):
            assert f'name="{side}.grammar.{field}"' in page
    action = client.get("/feerie/action/").content.decode()
    assert f"se dit «{NNBSP}Rübezahl{NNBSP}», au masculin" in action
    assert f"se dit «{NNBSP}le Serpent à Sornettes{NNBSP}», au masculin" in action


def test_a_creature_loaded_on_the_page_is_told_with_its_article(client: Any) -> None:
    data = {"_f": "1", **form_data(controls(client.get("/feerie/")))}
    ogre = m.Creature.objects.get(name="Ogre")
    loaded = form_data(
        controls(
            client.post("/feerie/", {**data, "_load": "preset.defender", "preset.defender": f"{row_key(ogre.name)}.m"})
        )
    )
    assert loaded["defender.name"] == "Ogre"
    assert loaded["defender.grammar.article"] == "defini"
    response = client.post("/feerie/", {"_f": "1", **loaded, "dice.plus.1": "10", "dice.moins.1": "10"})
    assert response.status_code == 303
    resolution = client.get(response["Location"]).context["resolution"]
    assert resolution.narrative.scene.startswith("Le Wichtln fond sur l'Ogre")
    # typed as a proper name, the same creature is « Ogre »
    loaded["defender.grammar.article"] = "propre"
    response = client.post("/feerie/", {"_f": "1", **loaded, "dice.plus.1": "10", "dice.moins.1": "10"})
    assert client.get(response["Location"]).context["resolution"].narrative.scene.startswith("Le Wichtln fond sur Ogre")
