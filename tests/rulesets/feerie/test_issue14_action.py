"""Issue 14, the Action sequence: no silent default, no silent drop (seed 004, « Les tactiques »,
« La séquence d'une Action », « Options de combat »)."""

from __future__ import annotations

from typing import Any

import pytest

from rulesets.core.dice import fixed_roll
from rulesets.core.request import resolve as request_resolve
from rulesets.core.schema import ScenarioError, Source, parse
from rulesets.feerie import ACTION
from rulesets.feerie.action import ActionScenario, Activity, ActivityKind, Change, Fighter, resolve
from rulesets.feerie.model import Tactic

ATTACK = ActivityKind.ATTACK
OTHER = ActivityKind.OTHER
NARROW = "\u202f"


def errors_of(data: dict[str, Any]) -> dict[str, str]:
    with pytest.raises(ScenarioError) as info:
        parse(ActionScenario, data)
    return info.value.errors


def api_errors(scenario: dict[str, Any], dice: dict[str, int] | None = None) -> dict[str, str]:
    with pytest.raises(ScenarioError) as info:
        request_resolve(ACTION, {"scenario": scenario, "dice": dice or {}}, source=Source.JSON)
    return info.value.errors


TWO = [{"name": "A", "vigilance": 10}, {"name": "B", "vigilance": 10}]
A_ATTACKS_B = [{"actor": 0, "kind": "attack", "targets": "1"}]


# --- 1. the tactic cap ---------------------------------------------------------------------------------------


def test_a_tactic_with_plafond_blank_is_refused_on_the_cap_field() -> None:
    """« Un modificateur ne peut être supérieur à la somme des Affinités et des maîtrises de Pouvoirs utilisées
    pour l'activité » : a blank « Plafond » no longer lets +10/−10 through."""
    fighters = [{**TWO[0], "tactic": {"attack": 10, "defense": -10}}, TWO[1]]
    errors = errors_of({"fighters": fighters, "activities": A_ATTACKS_B})
    assert errors == {
        "fighters.0.tactic_cap": "Plafond de tactique à renseigner pour déclarer une tactique\u202f: le total des "
        "Affinités et maîtrises de Pouvoirs utilisées pour l'activité (0 sans aucune)."
    }


def test_a_tactic_with_plafond_blank_is_a_400_on_the_api() -> None:
    fighters = [{**TWO[0], "tactic": {"attack": 10, "defense": -10}}, TWO[1]]
    errors = api_errors({"fighters": fighters, "activities": A_ATTACKS_B})
    assert "scenario.fighters.0.tactic_cap" in errors


def test_a_character_without_affinites_or_pouvoirs_takes_no_tactic() -> None:
    """« Un personnage qui a quelque aptitude au combat (i.e. des Affinités ou des Pouvoirs […]) peut choisir
    […] une tactique » : a cap of 0, no tactic, each modification refused on its field."""
    fighters = [{**TWO[0], "tactic_cap": 0, "tactic": {"attack": 10, "defense": -10}}, TWO[1]]
    errors = errors_of({"fighters": fighters, "activities": A_ATTACKS_B})
    rule = "Sans Affinité ni Pouvoir de combat pour cette activité, pas de tactique."
    assert errors == {"fighters.0.tactic.attack": rule, "fighters.0.tactic.defense": rule}


def test_each_tactic_modifier_is_bounded_by_the_cap() -> None:
    """The Redcap: « hache à +3 et massacre à +4 » — « plus ou moins sept points »."""
    ok = [{**TWO[0], "tactic_cap": 7, "tactic": {"initiative": -2, "attack": 7, "defense": -5}}, TWO[1]]
    assert parse(ActionScenario, {"fighters": ok, "activities": A_ATTACKS_B}).fighters[0].tactic.attack == 7
    over = [{**TWO[0], "tactic_cap": 7, "tactic": {"initiative": -3, "attack": 8, "defense": -5}}, TWO[1]]
    errors = errors_of({"fighters": over, "activities": A_ATTACKS_B})
    assert errors == {
        "fighters.0.tactic.attack": "Une modification de tactique ne peut dépasser le plafond (7), reçu +8."
    }


def test_a_changed_tactic_with_plafond_blank_is_refused_on_the_cap_field() -> None:
    change = {"rank": 5, "new_tactic": True, "tactic": {"attack": 3, "defense": -3}}
    errors = errors_of({"fighters": TWO, "activities": [{**A_ATTACKS_B[0], "change": change}]})
    assert list(errors) == ["fighters.0.tactic_cap"]


def test_no_tactic_needs_no_cap() -> None:
    assert parse(ActionScenario, {"fighters": TWO, "activities": A_ATTACKS_B}).fighters[0].tactic_cap is None


# --- 3. a typed Initiative the Vigilance cannot give ---------------------------------------------------------------


def test_a_typed_initiative_of_40_for_vigilance_10_is_refused() -> None:
    """« L'Initiative d'un personnage est égale au total d'un jet de Vigilance plus Affinités ou maîtrises de
    Pouvoirs appropriées » : Vigilance 10 and the dice term 1d20 − 1d20 give −9 to 29."""
    errors = errors_of({"fighters": [{**TWO[0], "initiative": 40}, TWO[1]]})
    assert errors == {
        "fighters.0.initiative": f"Initiative 40 impossible{NARROW}: Vigilance 10 et le jet 1d20 − 1d20 (−19 à +19) "
        "donnent de −9 à 29."
    }


def test_a_typed_initiative_is_bounded_by_the_roll_and_every_modifier() -> None:
    assert parse(ActionScenario, {"fighters": [{**TWO[0], "initiative": 29}, TWO[1]]}).fighters[0].initiative == 29
    assert parse(ActionScenario, {"fighters": [{**TWO[0], "initiative": -9}, TWO[1]]}).fighters[0].initiative == -9
    assert "fighters.0.initiative" in errors_of({"fighters": [{**TWO[0], "initiative": 30}, TWO[1]]})
    assert "fighters.0.initiative" in errors_of({"fighters": [{**TWO[0], "initiative": -10}, TWO[1]]})
    # surprised: −8 (« un malus de -8 à son Initiative »), and the Attributs applicable: +3
    surprised = {**TWO[0], "surprised": True, "initiative_bonus": 3, "initiative": 25}
    errors = errors_of({"fighters": [surprised, TWO[1]]})
    assert errors["fighters.0.initiative"] == (
        f"Initiative 25 impossible{NARROW}: Vigilance 10, Attributs applicables +3, Surpris −8 (total 5) et le jet "
        "1d20 − 1d20 (−19 à +19) donnent de −14 à 24."
    )
    # a dice term of 2d20 − 1d20 gives more room
    assert parse(ActionScenario, {"fighters": [{**TWO[0], "initiative": 40}, TWO[1]], "roll": {"plus": 2}})


def test_a_typed_initiative_out_of_reach_is_a_400_on_the_api() -> None:
    assert "scenario.fighters.0.initiative" in api_errors({"fighters": [{**TWO[0], "initiative": 40}, TWO[1]]})


# --- 4. anticipation past the first actor, an extra activity at the previous one's rank -------------------------------

RUBEZAHL = {"name": "Rübezahl", "vigilance": 20, "initiative": 15}
SERPENT = {"name": "Serpent", "vigilance": 17, "initiative": 17}


def test_an_anticipation_past_the_first_actors_rank_is_a_field_error() -> None:
    """« Aucune activité ne peut avoir lieu à un rang d'Initiative supérieur à celui du plus haut jet
    d'Initiative » : Rübezahl may anticipate to 17, not to 18."""
    acts = [{"actor": 0, "kind": "attack", "targets": "1", "rank": 18}]
    errors = errors_of({"fighters": [RUBEZAHL, SERPENT], "activities": acts})
    assert errors == {
        "activities.0.rank": "Rübezahl ne peut agir avant le plus haut jet d'Initiative (17), pas au rang 18."
    }
    acts[0]["rank"] = 17
    assert parse(ActionScenario, {"fighters": [RUBEZAHL, SERPENT], "activities": acts})


def test_the_first_actor_cannot_anticipate() -> None:
    """« le premier personnage à agir dans l'Action […] ne peut-il anticiper ses actes »."""
    acts = [{"actor": 1, "kind": "other", "rank": 18}]
    errors = errors_of({"fighters": [RUBEZAHL, SERPENT], "activities": acts})
    assert "le premier à agir ne peut anticiper" in errors["activities.0.rank"]


def test_an_anticipation_past_the_first_actors_rank_is_a_400_after_the_initiative_roll() -> None:
    """With the Initiatives rolled by the server, the refusal comes with the roll: a 400 on the rank, never a
    200 with the activity dropped."""
    rolled = {"name": "Rübezahl", "vigilance": 20}
    acts = [{"actor": 0, "kind": "other", "rank": 18}]
    errors = api_errors({"fighters": [rolled, SERPENT], "activities": acts}, {"init.0.plus.1": 5, "init.0.moins.1": 10})
    assert errors == {
        "scenario.activities.0.rank": "Rübezahl ne peut agir avant le plus haut jet d'Initiative (17), pas au rang 18."
    }


def test_an_extra_activity_at_the_rank_of_the_previous_one_is_a_field_error() -> None:
    """« l'activité supplémentaire ne peut être simultanée avec l'activité initiale (elle a lieu au plus tôt au
    rang d'Initiative suivant) »."""
    acts = [{"actor": 1, "kind": "other"}, {"actor": 1, "kind": "other", "rank": 17}]
    errors = errors_of({"fighters": [RUBEZAHL, SERPENT], "activities": acts})
    assert errors == {
        "activities.1.rank": "Une activité supplémentaire de Serpent a lieu au plus tôt au rang suivant la "
        "précédente (16), pas au rang 17."
    }
    acts[1]["rank"] = 16
    assert parse(ActionScenario, {"fighters": [RUBEZAHL, SERPENT], "activities": acts})


def test_an_extra_activity_at_the_rank_of_the_previous_one_is_a_400_on_the_api() -> None:
    acts = [{"actor": 1, "kind": "other"}, {"actor": 1, "kind": "other", "rank": 17}]
    assert "scenario.activities.1.rank" in api_errors({"fighters": [RUBEZAHL, SERPENT], "activities": acts})


def test_an_activity_before_its_change_of_intention_is_a_field_error() -> None:
    """« on ne peut agir avant d'avoir choisi d'agir ! »"""
    acts = [{"actor": 1, "kind": "other", "rank": 17, "change": {"rank": 12}}]
    errors = errors_of({"fighters": [RUBEZAHL, SERPENT], "activities": acts})
    assert "avant d'avoir choisi d'agir (changement au rang 12), pas au rang 17" in errors["activities.0.rank"]


# --- 5. an extra activity that is also a change of intention ------------------------------------------------------


def test_an_extra_activity_that_changes_intention_takes_minus_8_defense_from_the_declaration() -> None:
    """« L'activité supplémentaire peut donc avoir lieu, mais 8 rangs […] après la précédente, à –8 et avec un
    malus de 8 en Défense dès la déclaration » : declared at rank 12, the Adversaire's attack at rank 10 meets
    Défense 16 − 8, not 16 − 4."""
    me = Fighter("Moi", initiative=17, vigilance=15, attack=18, defense=16)
    foe = Fighter("Adversaire", initiative=10, vigilance=12, attack=14, defense=14)
    s = ActionScenario(
        fighters=(me, foe),
        activities=(
            Activity(0, OTHER),
            Activity(0, OTHER, change=Change(12, note="aider le Compagnon")),
            Activity(1, ATTACK, targets="0", term=0),
        ),
    )
    r = resolve(s, fixed_roll({}))
    change = r.events_of("change")[0]
    assert (change.data["rank"], change.data["defense_change"], change.data["defense"]) == (12, -8, 8)
    attack = next(e for e in r.events_of("hit") + r.events_of("miss") if e.data["target"] == 0)
    assert attack.data["defense"] == 8
    rows = {rank: e.data for e in r.events_of("rank") for rank in e.data["ranks"]}
    assert [rows[k]["defense"]["Moi"] for k in (13, 12, 10, 9, 1)] == [16, 8, 8, 8, 8]
    assert (r.numbers["activity_1_rank"], r.numbers["activity_1_modifier"]) == (9, -8)
    assert (r.numbers["defense_0"], r.numbers["next_malus_0"]) == (8, -8)


def test_an_extra_activity_without_change_still_takes_its_minus_4_from_its_resolution() -> None:
    """« contre toutes les attaques de l'Action en cours postérieures à la résolution de cette nouvelle
    activité »."""
    me = Fighter("Moi", initiative=17, vigilance=15, defense=16)
    foe = Fighter("Adversaire", initiative=10, vigilance=12, attack=14)
    s = ActionScenario(fighters=(me, foe), activities=(Activity(0, OTHER), Activity(0, OTHER), Activity(1, OTHER)))
    rows = {rank: e.data for e in resolve(s, fixed_roll({})).events_of("rank") for rank in e.data["ranks"]}
    assert [rows[k]["defense"]["Moi"] for k in (10, 9)] == [16, 12]


def test_plafond_blank_with_a_tactic_no_longer_resolves_through_the_request() -> None:
    """The issue's reproduction: a character without Affinités, +10/−10, « Plafond » blank."""
    fighters = [{**TWO[0], "initiative": 10, "tactic": {"initiative": 10, "defense": -10}}, TWO[1]]
    errors = api_errors({"fighters": fighters, "activities": A_ATTACKS_B})
    assert list(errors) == ["scenario.fighters.0.tactic_cap"]
    assert Tactic(10, 0, -10).is_declared
