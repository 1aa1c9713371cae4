"""Issue 14 on the Action page (``/feerie/action/``) and its API: every refusal on its field, nothing dropped.

Seed ``004_6e592e6a2992f712.txt`` (« Les tactiques », « La séquence d'une Action », « Options de combat »).
Each test starts from the page's own form (what the browser sends) and changes what the game master would.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.core.management import call_command

from tests.test_table_mode import controls, form_data

pytestmark = pytest.mark.django_db

PAGE = "/feerie/action/"
API = "/api/rulesets/feerie-action/resolve"
NARROW = "\u202f"


@pytest.fixture(autouse=True)
def bestiary() -> None:
    call_command("loaddata", "fixtures/feerie.json", verbosity=0)


def the_page(client: Any) -> dict[str, str]:
    """The default page's form (Rübezahl and the Serpent à Sornettes), as the browser sends it."""
    return {"_f": "1", **form_data(controls(client.get(PAGE)))}


def field_errors(response: Any) -> dict[str, list[str]]:
    return {name: [str(e) for e in errors] for name, errors in response.context["form"].errors.items()}


def api(client: Any, scenario: dict[str, Any], dice: dict[str, int] | None = None) -> Any:
    body = {"scenario": scenario, "dice": dice or {}}
    return client.post(API, json.dumps(body), content_type="application/json")


def test_a_tactic_with_plafond_blank_is_refused_on_the_plafond_field(client: Any) -> None:
    """Item 1: « Plafond » blank (the default) no longer lets +10/−10 through."""
    data = the_page(client) | {"fighters.0.tactic.attack": "10", "fighters.0.tactic.defense": "-10"}
    assert data["fighters.0.tactic_cap"] == ""
    response = client.post(PAGE, data)
    assert response.status_code == 422
    assert field_errors(response) == {
        "fighters.0.tactic_cap": [
            f"Plafond de tactique à renseigner pour déclarer une tactique{NARROW}: le total des Affinités et maîtrises "
            "de Pouvoirs utilisées pour l'activité (0 sans aucune)."
        ]
    }


def test_a_tactic_with_plafond_blank_is_a_400_on_the_api(client: Any) -> None:
    fighters = [{"name": "A", "tactic": {"attack": 10, "defense": -10}}, {"name": "B"}]
    response = api(client, {"fighters": fighters, "activities": [{"actor": 0, "kind": "attack", "targets": "1"}]})
    assert response.status_code == 400
    assert list(response.json()["errors"]) == ["scenario.fighters.0.tactic_cap"]


def test_a_tactic_beyond_the_plafond_is_never_taken_as_it_is(client: Any) -> None:
    """With « Plafond » 0 (no Affinité, no Pouvoir) the page withdraws the tactic and says why."""
    data = the_page(client) | {
        "fighters.0.tactic_cap": "0",
        "fighters.0.tactic.attack": "10",
        "fighters.0.tactic.defense": "-10",
    }
    response = client.post(PAGE, {**data, "dice.init.0.plus.1": "10", "dice.init.0.moins.1": "10"}, follow=True)
    resolution = response.context["resolution"]
    assert resolution.scenario.fighters[0].tactic.is_declared is False
    notes = [str(m) for m in response.context["messages"]]
    assert any("Sans Affinité ni Pouvoir de combat pour cette activité, pas de tactique." in n for n in notes)


def test_fifty_combatants_are_refused_not_truncated_to_24(client: Any) -> None:
    """Item 2: a list over its maximum (24 combatants) is refused in French; nothing is resolved."""
    data = the_page(client)
    for i in range(50):
        data[f"fighters.{i}.name"] = f"Lutin {i}"
        data[f"fighters.{i}.vigilance"] = "10"
    response = client.post(PAGE, data)
    assert response.status_code == 400
    assert response.context["resolution"] is None
    refused = [str(e) for e in response.context["form"].non_field_errors()]
    assert len(refused) == 26 * 2  # rows 24 to 49, two fields each: every one said, none kept silently
    assert refused[0] == (
        "«\u202ffighters.24.name\u202f» désigne la ligne «\u202f24\u202f» de «\u202fCombattants\u202f», qui en compte "
        "24 au plus (numéros 0 à 23)."
    )


def test_fifty_combatants_are_a_400_on_the_api(client: Any) -> None:
    response = api(client, {"fighters": [{"name": f"Lutin {i}"} for i in range(50)]})
    assert response.status_code == 400
    assert response.json()["errors"] == {"scenario.fighters": f"Combattants{NARROW}: au plus 24\u00a0éléments."}


def test_a_typed_initiative_of_40_for_vigilance_10_is_refused_on_its_field(client: Any) -> None:
    """Item 3: « jet de Vigilance plus Affinités ou maîtrises de Pouvoirs appropriées »: 1 to 39 for
    Rübezahl's Vigilance 20 with 1d20 − 1d20; 40 for Vigilance 10 is out of reach."""
    data = the_page(client) | {"fighters.0.vigilance": "10", "fighters.0.initiative": "40"}
    response = client.post(PAGE, data)
    assert response.status_code == 422
    assert field_errors(response) == {
        "fighters.0.initiative": [
            f"Initiative 40 impossible{NARROW}: Vigilance 10 et le jet 1d20 − 1d20 (−19 à +19) donnent de −9 à 29."
        ]
    }
    fighters = [{"name": "A", "vigilance": 10, "initiative": 40}, {"name": "B"}]
    assert list(api(client, {"fighters": fighters}).json()["errors"]) == ["scenario.fighters.0.initiative"]


def test_an_anticipation_past_the_first_actors_rank_is_refused_on_its_field(client: Any) -> None:
    """Item 4: « Aucune activité ne peut avoir lieu à un rang d'Initiative supérieur à celui du plus haut jet
    d'Initiative »: Rübezahl (15) may anticipate to the Serpent's 17, not to 18 — no 200 with it dropped."""
    data = the_page(client) | {"fighters.0.initiative": "15", "fighters.1.initiative": "17", "activities.1.rank": "18"}
    response = client.post(PAGE, data)
    assert response.status_code == 422
    assert field_errors(response) == {
        "activities.1.rank": ["Rübezahl ne peut agir avant le plus haut jet d'Initiative (17), pas au rang 18."]
    }


def test_an_anticipation_past_the_rolled_top_is_refused_on_its_field_too(client: Any) -> None:
    """Rübezahl's Initiative rolled by the dice typed (20 + 5 − 10 = 15): the refusal comes with the roll."""
    data = the_page(client) | {"fighters.1.initiative": "17", "activities.1.rank": "18"}
    response = client.post(PAGE, {**data, "dice.init.0.plus.1": "5", "dice.init.0.moins.1": "10"})
    assert response.status_code == 422
    assert list(field_errors(response)) == ["activities.1.rank"]
    fighters = [{"name": "Rübezahl", "vigilance": 20}, {"name": "Serpent", "vigilance": 17, "initiative": 17}]
    acts = [{"actor": 0, "kind": "other", "rank": 18}]
    response = api(client, {"fighters": fighters, "activities": acts}, {"init.0.plus.1": 5, "init.0.moins.1": 10})
    assert response.status_code == 400
    assert list(response.json()["errors"]) == ["scenario.activities.0.rank"]


def test_an_extra_activity_at_the_rank_of_the_previous_one_is_refused_on_its_field(client: Any) -> None:
    """Item 4: « elle a lieu au plus tôt au rang d'Initiative suivant »."""
    data = the_page(client) | {
        "fighters.0.initiative": "15",
        "fighters.1.initiative": "17",
        "activities.2.actor": "1",
        "activities.2.kind": "other",
        "activities.2.rank": "17",
    }
    response = client.post(PAGE, data)
    assert response.status_code == 422
    assert field_errors(response) == {
        "activities.2.rank": [
            "Une activité supplémentaire du Serpent à Sornettes a lieu au plus tôt au rang suivant la précédente "
            "(16), pas au rang 17."
        ]
    }
    fighters = [{"name": "A", "initiative": 10}, {"name": "B", "initiative": 12}]
    acts = [{"actor": 1, "kind": "other"}, {"actor": 1, "kind": "other", "rank": 12}]
    response = api(client, {"fighters": fighters, "activities": acts})
    assert response.status_code == 400
    assert list(response.json()["errors"]) == ["scenario.activities.1.rank"]


def test_an_extra_activity_that_changes_intention_takes_minus_8_defense_on_the_page(client: Any) -> None:
    """Item 5: « avec un malus de 8 en Défense dès la déclaration »: the Serpent (17) declares at rank 12 a
    different extra activity (natural rank 9); Rübezahl's attack at rank 10 meets Défense 15 − 8."""
    data = the_page(client) | {
        "fighters.0.initiative": "10",
        "fighters.1.initiative": "17",
        "activities.0.kind": "other",
        "activities.0.label": "siffle",
        "activities.2.actor": "1",
        "activities.2.kind": "other",
        "activities.2.change.rank": "12",
        "activities.2.change.note": "fuir",
        "activities.1.term": "0",
    }
    response = client.post(PAGE, data, follow=True)
    result = response.context["resolution"].result
    change = result.events_of("change")[0]
    assert (change.data["rank"], change.data["defense_change"]) == (12, -8)
    rubezahl_attack = next(e for e in result.events_of("hit") + result.events_of("miss") if e.data["target"] == 1)
    assert rubezahl_attack.data["defense"] == 15 - 8
