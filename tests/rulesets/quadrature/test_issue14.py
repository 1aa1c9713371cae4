"""Issue 14, Quadrature items: a destroyed creature does not act, a horde is the seed's horde, a ⚡ is
played as itself, Réflexes de prédateur's Frappe vive, Course, one Loup des cendres, Cuirasse naturelle."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from rulesets.core.dice import fixed_roll
from rulesets.core.encounter import Fighter
from rulesets.core.registry import get
from rulesets.core.request import resolve as request_resolve
from rulesets.core.schema import ScenarioError, parse, to_data
from rulesets.quadrature.encounter import Clock, Foe, fill
from rulesets.quadrature.engine import resolve
from rulesets.quadrature.examples import HORDE
from rulesets.quadrature.model import (
    Adversary,
    Capability,
    CuirasseReading,
    Effect,
    Kind,
    Mental,
    Mode,
    Part,
    Pc,
    Play,
    Scenario,
    Settings,
    Traits,
)
from tests.rulesets.quadrature.helpers import BASE, PRUDENT, attack, hit, sheet_after

FIXTURE = Path(__file__).resolve().parents[3] / "fixtures" / "quadrature.json"


def errors_of(scenario: Scenario) -> dict[str, str]:
    with pytest.raises(ScenarioError) as err:
        parse(Scenario, to_data(scenario))
    return err.value.errors


def all_ticked(adv: Adversary) -> Adversary:
    return replace(adv, blocks=tuple(replace(b, ticked=b.boxes) for b in adv.blocks))


# --- item 1: a destroyed creature, an empty horde, does not act --------------------------------------------


def test_a_creature_whose_every_block_is_destroyed_does_not_attack():
    dead = all_ticked(PRUDENT)
    errors = errors_of(Scenario(mode=Mode.ADVERSARY_ATTACK, adversary=dead, card=2))
    assert errors["adversary.blocks"] == (
        "Toutes les parties du Chacal des cendres sont détruites\u202f: il n'agit plus."
    )
    assert "adversary.blocks" in errors_of(Scenario(mode=Mode.COURSE, adversary=dead))
    gazer = replace(dead, traits=Traits(hypnotic_gaze=True))
    assert "adversary.blocks" in errors_of(Scenario(mode=Mode.HYPNOTIC_GAZE, adversary=gazer))


def test_a_horde_with_0_members_does_not_attack():
    gone = all_ticked(HORDE)
    errors = errors_of(Scenario(mode=Mode.ADVERSARY_ATTACK, adversary=gone, card=1))
    assert errors["adversary.blocks"] == (
        "Les Rats des égouts n'ont plus aucun membre\u202f: la horde est anéantie, elle n'agit plus."
    )


def test_a_destroyed_creature_still_takes_its_end_of_round_and_blows():
    dead = all_ticked(PRUDENT)
    assert resolve(Scenario(mode=Mode.ROUND, adversary=dead), fixed_roll({})).outcome == "destroyed"
    assert hit(dead, Effect(light=1)).outcome == "destroyed"


# --- item 2: a horde sheet is the seed's horde ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"reactions": 1}, "adversary.reactions"),
        ({"fatigue_boxes": 3}, "adversary.fatigue_boxes"),
        ({"action_points": 3}, "adversary.action_points"),
        ({"traits": Traits(predator_reflexes=True)}, "adversary.traits.predator_reflexes"),
        ({"endurance_tokens": 1}, "adversary.endurance_tokens"),
        ({"evasion_tokens": 1}, "adversary.evasion_tokens"),
        ({"parts": (Part("Meute", armour=1),)}, "adversary.parts.0.armour"),
    ],
)
def test_a_horde_sheet_refuses_reactions_fatigue_and_more_than_two_actions(change: dict[str, Any], field: str):
    errors = errors_of(Scenario(mode=Mode.PC_ATTACK, adversary=replace(HORDE, **change), target_part=1))
    assert field in errors


def test_a_horde_cannot_become_exhausted_since_it_has_no_fatigue_track():
    errors = errors_of(Scenario(mode=Mode.PC_ATTACK, adversary=replace(HORDE, fatigue_boxes=1, fatigue_ticked=1)))
    assert errors["adversary.fatigue_boxes"].startswith("Les hordes n'ont pas de fatigue")
    assert errors["adversary.fatigue_ticked"].startswith("Les hordes n'ont pas de fatigue")


def test_a_horde_block_granting_endurance_is_refused():
    blocks = (replace(HORDE.blocks[0], capability=Capability.ENDURANCE, value=1), *HORDE.blocks[1:])
    errors = errors_of(Scenario(mode=Mode.ROUND, adversary=replace(HORDE, blocks=blocks)))
    assert "adversary.blocks.0.capability" in errors


def test_a_horde_that_already_acted_has_fewer_than_two_actions_left():
    s = Scenario(mode=Mode.ADVERSARY_ATTACK, adversary=replace(HORDE, action_points=1), card=1)
    assert parse(Scenario, to_data(s)) == s


# --- item 3: a ⚡ reaction is played as itself --------------------------------------------------------------------


REACTIVE = replace(PRUDENT, reactions=1, action_points=0)


def test_a_reaction_is_playable_as_itself_without_faking_action_points():
    # 0 ⚫ left, 1 ⚡: Frappe vive (⚫) as a reaction; 4 + 3 + 2 + 1 = 10 ≥ 10
    res = attack(REACTIVE, 2, 10, [4, 3, 2, 1], play=Play.REACTION)
    assert res.outcome == "success"
    assert (res.numbers["play"], res.numbers["cost"], res.numbers["reaction_cost"]) == ("reaction", 0, 1)
    assert sheet_after(res)["reactions_spent"] == 1
    assert sheet_after(res)["action_points"] == 0
    cost = next(e for e in res.events if e.kind == "cost")
    assert cost.label == "Le Chacal des cendres joue «\u202fFrappe vive\u202f» en réaction ⚡"


def test_a_reaction_is_refused_when_the_round_s_reactions_are_spent():
    spent = replace(REACTIVE, reactions_spent=1)
    errors = errors_of(Scenario(adversary=spent, card=2, play=Play.REACTION, pc=Pc(score=10)))
    assert errors["play"] == "Le Chacal des cendres a déjà joué ses réactions ⚡ de la manche (1 en tout)."
    errors = errors_of(Scenario(adversary=replace(REACTIVE, reactions=0), card=2, play=Play.REACTION))
    assert errors["play"] == "Le Chacal des cendres n'a aucune réaction ⚡ sur sa fiche."


def test_a_card_played_as_an_action_still_needs_its_action_points():
    errors = errors_of(Scenario(adversary=REACTIVE, card=2))
    assert errors["card"].startswith("«\u202fFrappe vive\u202f» coûte 1 ⚫")


def test_the_round_gives_the_reactions_back():
    spent = replace(PRUDENT, reactions=1, reactions_spent=1)
    res = resolve(Scenario(mode=Mode.ROUND, adversary=spent), fixed_roll({}))
    assert sheet_after(res)["reactions_spent"] == 0
    assert res.numbers["reactions"] == 1


def test_the_encounter_fills_a_reaction_when_no_action_point_is_left():
    foe = Foe(**{k: getattr(REACTIVE, k) for k in Adversary.__dataclass_fields__}, ap_left=0)
    filled = fill({"adversary": (Fighter("1", foe.name, "adversaire", foe),)}, Clock())
    assert (filled["adversary.action_points"], filled["play"], filled["adversary.reactions_spent"]) == (
        0,
        "reaction",
        0,
    )


# --- item 4: Réflexes de prédateur's Frappe vive on leaving the Engagement serré -----------------------------


PREDATOR = replace(PRUDENT, traits=Traits(predator_reflexes=True), action_points=0)


def test_reflexes_de_predateur_offers_the_frappe_vive_on_leaving_the_engagement_serre():
    # whatever card is chosen (3: Frappe lourde), the trait's ⚡ strikes with the Frappe vive
    res = attack(PREDATOR, 3, 12, [5, 4, 2, 1], play=Play.PREDATOR)
    assert res.numbers["card"] == "Frappe vive"
    assert (res.numbers["pc_light"], res.numbers["pc_down"]) == (3, 1)  # ✅ 💢💢💢 + ⭐ 🔻
    assert res.numbers["cost"] == 0
    assert sheet_after(res)["reactions_spent"] == 1
    assert any(e.kind == "predator" and "Engagement serré (≬)" in e.label for e in res.events)


def test_reflexes_de_predateur_uses_the_seed_s_frappe_vive_when_the_deck_has_none():
    no_quick = replace(
        PREDATOR, deck=tuple(c for c in PREDATOR.deck if c.name != "Frappe vive"), blocks=PREDATOR.blocks
    )
    res = attack(no_quick, 1, 20, [0, 1, 0, 1], play=Play.PREDATOR)
    assert (res.numbers["card"], res.numbers["pc_light"]) == ("Frappe vive", 1)  # ❌ 💢


def test_reflexes_de_predateur_needs_the_trait_and_a_reaction_left():
    errors = errors_of(Scenario(adversary=replace(PREDATOR, traits=Traits()), play=Play.PREDATOR))
    assert errors["play"] == "Le Chacal des cendres n'a pas le trait Réflexes de prédateur."
    errors = errors_of(Scenario(adversary=replace(PREDATOR, reactions_spent=1), play=Play.PREDATOR))
    assert errors["play"] == "Le Chacal des cendres a déjà joué ses réactions ⚡ de la manche (1 en tout)."


# --- item 5: Course (⚫ + ▢💧) -------------------------------------------------------------------------------------


def test_course_spends_one_action_point_and_a_fatigue_box_absorbed_by_endurance():
    res = resolve(Scenario(mode=Mode.COURSE, adversary=PRUDENT), fixed_roll({}))
    assert res.outcome == "course"
    assert (res.numbers["cost"], res.numbers["endurance_spent"], res.numbers["cost_fatigue_boxes"]) == (1, 1, 0)
    assert sheet_after(res)["endurance_tokens"] == PRUDENT.endurance_tokens - 1


def test_course_without_endurance_ticks_a_fatigue_box():
    res = resolve(Scenario(mode=Mode.COURSE, adversary=replace(PRUDENT, endurance_tokens=0)), fixed_roll({}))
    assert (res.numbers["cost_fatigue_boxes"], sheet_after(res)["fatigue_ticked"]) == (1, 1)


def test_course_is_refused_when_it_would_fill_the_fatigue_track_or_without_action_point():
    tired = replace(PRUDENT, endurance_tokens=0, fatigue_ticked=PRUDENT.fatigue_boxes - 1)
    assert errors_of(Scenario(mode=Mode.COURSE, adversary=tired))["mode"].startswith("Payer le ▢💧 de la Course")
    idle = replace(PRUDENT, action_points=0)
    assert errors_of(Scenario(mode=Mode.COURSE, adversary=idle))["mode"].startswith("La Course coûte ⚫")
    assert "Bande II" in errors_of(Scenario(mode=Mode.COURSE, adversary=HORDE))["mode"]


# --- item 6: one Loup des cendres --------------------------------------------------------------------------------


def fixture_wolf() -> dict[str, Any]:
    """The bestiary's Loup des cendres as scenario data, read straight from the fixture (no database)."""
    rows = json.loads(FIXTURE.read_text(encoding="utf-8"))
    adv = next(r for r in rows if r["model"] == "quadrature.adversary" and r["fields"]["name"] == "Loup des cendres")
    f, pk = adv["fields"], adv["pk"]
    cards = {r["pk"]: r["fields"] for r in rows if r["model"] == "quadrature.actioncard"}
    effects = [r["fields"] for r in rows if r["model"] == "quadrature.cardeffect"]
    parts = sorted(
        (
            (r["pk"], r["fields"])
            for r in rows
            if r["model"] == "quadrature.bodypart" and r["fields"]["adversary"] == pk
        ),
        key=lambda p: p[1]["order"],
    )
    number = {p: i + 1 for i, (p, _f) in enumerate(parts)}
    blocks = sorted(
        (r["fields"] for r in rows if r["model"] == "quadrature.block" and r["fields"]["adversary"] == pk),
        key=lambda b: (number[b["part"]], b["order"]),
    )
    deck = sorted(
        (r["fields"] for r in rows if r["model"] == "quadrature.deckentry" and r["fields"]["adversary"] == pk),
        key=lambda d: d["order"],
    )

    def effect(card: int, slot: str) -> dict[str, Any]:
        row = next((e for e in effects if e["card"] == card and e["slot"] == slot), None)
        return {k: v for k, v in row.items() if k not in ("card", "slot")} if row else {}

    def card(pk: int) -> dict[str, Any]:
        c = cards[pk]
        keys = ("name", "cost", "initiative", "fatigue_cost", "attack", "star_fives", "text")
        return {**{k: c[k] for k in keys}, **{s: effect(pk, s) for s in ("star", "success", "failure")}}

    def tokens(capability: str) -> int:
        return sum(b["value"] for b in blocks if b["capability"] == capability)

    traits = ("predator_reflexes", "bloodthirsty", "exhausting_strike", "terror_aura", "hive_mind", "hypnotic_gaze")
    return {
        "name": f["name"],
        "grammar": {"article": f["article"], "gender": f["gender"], "elision": f["elision"]},
        **{k: f[k] for k in ("kind", "danger", "menace", "nuisance", "guard_type", "guard", "fatigue_boxes")},
        **{k: f[k] for k in ("tenacity", "action_points", "reactions", "speed")},
        "mental": f["disposition"],
        "parts": [{"name": p["name"], "armour": p["armour"], "natural_armour": p["natural_armour"]} for _k, p in parts],
        "blocks": [
            {
                "boxes": b["boxes"],
                "capability": b["capability"],
                "value": b["value"],
                "label": cards[b["card"]]["name"] if b["card"] else b["label"],
                "part": number[b["part"]],
            }
            for b in blocks
        ],
        "traits": {t: f[t] for t in traits},
        "deck": [card(d["card"]) for d in deck],
        "endurance_tokens": tokens("endurance"),
        "evasion_tokens": tokens("evasion"),
        "stability_tokens": tokens("stability"),
    }


def test_the_default_loup_des_cendres_equals_the_bestiary_s():
    wolf = parse(Adversary, fixture_wolf())
    assert Adversary() == wolf
    assert (wolf.danger, wolf.menace, wolf.nuisance, wolf.guard) == (0, 3, 1, 10)  # ⬜⬜⬜🟧, Garde 10


def test_the_page_s_default_scenario_resolves_the_bestiary_s_wolf():
    res = request_resolve(get("quadrature"), {"scenario": {}, "seed": 1})
    assert res.scenario.adversary == parse(Adversary, fixture_wolf())


# --- item 7: Cuirasse naturelle « est totalement ignorée » -----------------------------------------------------


CUIRASSE = replace(
    PRUDENT,
    parts=tuple(replace(p, natural_armour=True) if p.name == "Corps" else p for p in BASE.parts),
)  # Corps: Cuirasse naturelle (2)


def test_cuirasse_naturelle_ignores_the_whole_attack_its_fatigue_and_fear_included():
    res = hit(CUIRASSE, Effect(light=1, fatigue=1, down=1, bleed=1), part=2)
    assert (res.numbers["boxes_ticked"], res.numbers["fatigue_added"], res.numbers["stability_spent"]) == (0, 0, 0)
    assert res.numbers["bleeding"] == 0
    after = sheet_after(res)
    assert (after["endurance_tokens"], after["stability_tokens"]) == (CUIRASSE.endurance_tokens, 1)
    event = next(e for e in res.events if e.kind == "natural_armour")
    assert event.label == "Cuirasse naturelle (2)\u202f: l'attaque est totalement ignorée"


def test_cuirasse_naturelle_threshold_is_the_printed_x_not_the_armour_left():
    cracked = replace(
        CUIRASSE, parts=tuple(replace(p, armour_lost=1) if p.name == "Corps" else p for p in CUIRASSE.parts)
    )
    res = hit(cracked, Effect(light=1), part=2)
    assert res.numbers["boxes_ticked"] == 0  # 1 💢 < X = 2, although only 🛡️ 1 is left
    res = hit(cracked, Effect(light=2), part=2)
    assert res.numbers["boxes_ticked"] == 1  # 2 💢 − 🛡️ 1 left


def test_cuirasse_naturelle_never_ignores_a_heavy_wound():
    res = hit(CUIRASSE, Effect(heavy=1), part=2)
    assert res.numbers["armour_destroyed"] == 1


def test_cuirasse_naturelle_light_only_reading_is_a_visible_setting():
    s = Scenario(
        mode=Mode.PC_ATTACK,
        adversary=CUIRASSE,
        target_part=2,
        pc=Pc(score=20),
        pc_success=Effect(light=1, fatigue=1),
        settings=Settings(cuirasse=CuirasseReading.LIGHT_ONLY),
    )
    res = resolve(s, fixed_roll({}))
    # only the 💢 are ignored; the 💧 lands (at least one box)
    assert (res.numbers["boxes_ticked"], res.numbers["fatigue_added"]) == (0, 1)


def test_the_default_wolf_is_aggressive_and_bloodthirsty_as_in_the_bestiary():
    wolf = Adversary()
    assert wolf.mental is Mental.AGRESSIF
    assert wolf.traits.bloodthirsty
    assert wolf.kind is Kind.CREATURE
