"""Quadrature writes correct French (issue 15): the text lint over every worked example, a few
hundred variations with names of every gender, article and initial sound, the encounter's log
lines over a few rounds, and exact sentences.

What is linted: the scene, every paragraph of the récit, the outcome label, the label and value of
every event, the dice labels, the example titles, the odds' labels, the sheet's threat terms and
the scenario's own refusals."""

from __future__ import annotations

import copy
from dataclasses import fields as dataclass_fields
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesets.core.dice import fixed_roll
from rulesets.core.encounter import Fighter
from rulesets.core.french import DEFINITE_F, DEFINITE_M, PROPER_F, Article, Elision, Gender, Grammar, typography
from rulesets.core.registry import get
from rulesets.core.request import Resolution, resolve
from rulesets.core.schema import ScenarioError, parse, to_data
from rulesets.quadrature.encounter import ADV, PJ, Clock, Foe, PcState, advance, apply, badges, bars, fill
from rulesets.quadrature.engine import resolve as engine_resolve
from rulesets.quadrature.examples import BASE as EXAMPLE_SHEET
from rulesets.quadrature.examples import examples
from rulesets.quadrature.model import Adversary, Capability, Effect, Kind, Mental, Mode, Pc, Scenario, Traits
from rulesets.quadrature.narrative import scene
from rulesets.quadrature.odds import odds
from rulesets.quadrature.sheet import threat
from tests.french_lint import assert_clean, grammar_data, grammatical_names

RULESET = get("quadrature")
EXAMPLES = examples()


def texts_of(resolution: Resolution, where: str) -> list[tuple[str, str]]:
    """Every text a resolution shows: scene, récit, outcome, events, dice labels."""
    out = [(f"{where} scène", resolution.narrative.scene)]
    out += [(f"{where} récit {i}", p) for i, p in enumerate(resolution.narrative.story)]
    out.append((f"{where} issue", resolution.result.outcome_label))
    for i, event in enumerate(resolution.result.events):
        out += [
            (f"{where} {event.kind} {i} (libellé)", event.label),
            (f"{where} {event.kind} {i} (valeur)", event.value),
        ]
    out += [(f"{where} dé {slot.key}", slot.label) for slot in resolution.spec.slots]
    return out


def odds_texts(scenario: Scenario, where: str) -> list[tuple[str, str]]:
    o = odds(scenario)
    out = [(f"{where} probabilités {code}", label) for code, label, _p in o.outcomes]
    out += [(f"{where} espérance {code}", label) for code, label, _v in o.expectations]
    out += [(f"{where} graphique {chart.key}", chart.title) for chart in o.charts]
    return out


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda e: e.key)
def test_every_worked_example_reads_as_correct_french(example):
    resolution = resolve(RULESET, example.request)
    texts = [("titre", example.title), *texts_of(resolution, example.key)]
    texts += odds_texts(resolution.scenario, example.key)
    assert_clean(texts)


def test_the_threat_terms_of_the_sheet_read_as_correct_french():
    for adv in {e.key: resolve(RULESET, e.request).scenario.adversary for e in EXAMPLES}.values():
        assert_clean([(label, label) for _code, label, _points in threat(adv).terms()])


# --- variations: names of every gender, article and initial sound -----------------------------------


def with_names(
    request: dict[str, Any], foe: tuple[str, Grammar], pc: tuple[str, Grammar], seed: int | None, rolled: bool
) -> dict[str, Any]:
    """``request`` with the adversary and the character renamed (and their grammar), a seed for the
    story's variants, the dice typed or left to the server."""
    out = copy.deepcopy(dict(request))
    scenario = out["scenario"]
    scenario["adversary"]["name"], scenario["adversary"]["grammar"] = foe[0], grammar_data(foe[1])
    scenario["pc"]["name"], scenario["pc"]["grammar"] = pc[0], grammar_data(pc[1])
    out["seed"] = seed
    if rolled:
        out["dice"] = {}
    return out


@settings(max_examples=200, deadline=None, derandomize=True)
@given(
    example=st.sampled_from(EXAMPLES),
    foe=grammatical_names(),
    pc=grammatical_names(),
    seed=st.integers(min_value=0, max_value=10_000),
    rolled=st.booleans(),
)
def test_every_example_reads_as_correct_french_whatever_the_names(example, foe, pc, seed, rolled):
    resolution = resolve(RULESET, with_names(example.request, foe, pc, seed, rolled))
    assert_clean(texts_of(resolution, f"{example.key} ({foe[0]} contre {pc[0]})"))
    assert foe[0] in resolution.narrative.scene or foe[0] in " ".join(resolution.narrative.story)


@settings(max_examples=60, deadline=None, derandomize=True)
@given(foe=grammatical_names(), mental=st.sampled_from(list(Mental)), horde=st.booleans())
def test_every_scene_and_every_bearing_reads_as_correct_french(foe, mental, horde):
    adv = replace(
        Adversary(),
        name=foe[0],
        grammar=foe[1],
        mental=mental,
        kind=Kind.HORDE if horde else Kind.CREATURE,
        traits=Traits(hypnotic_gaze=True),
    )
    scenes = [typography(scene(Scenario(mode=mode, adversary=adv))) for mode in Mode]  # as Narrative shows it
    assert_clean([(f"{foe[0]} {mental} scène", text) for text in scenes])


@settings(max_examples=40, deadline=None, derandomize=True)
@given(foe=grammatical_names())
def test_the_scenario_refusals_read_as_correct_french_whatever_the_name(foe):
    adv = replace(Adversary(), name=foe[0], grammar=foe[1])
    refusals = [
        Scenario(adversary=replace(adv, fatigue_ticked=5)),
        Scenario(adversary=replace(adv, action_points=1), card=3),
        Scenario(mode=Mode.PC_ATTACK, adversary=adv, target_part=7),
        Scenario(mode=Mode.HYPNOTIC_GAZE, adversary=adv),
        Scenario(mode=Mode.HYPNOTIC_GAZE, adversary=replace(adv, traits=Traits(hypnotic_gaze=True), action_points=0)),
    ]
    for scenario in refusals:
        with pytest.raises(ScenarioError) as err:
            parse(Scenario, to_data(scenario))
        assert_clean([(f"{foe[0]} {k}", v) for k, v in err.value.errors.items()])


# --- the encounter's log lines -------------------------------------------------------------------------


def fighter(key: str, state: Any) -> Fighter:
    return Fighter(key, state.name, PJ if isinstance(state, PcState) else ADV, state)


def play(bindings: dict[str, tuple[Fighter, ...]], **changes: Any) -> tuple[Any, Any]:
    """Fill the calculator from the states, resolve with the server's dice, apply the result."""
    from rulesets.core.encounter import fill_over
    from rulesets.core.schema import flatten, unflatten

    flat = fill_over(flatten(to_data(Scenario())), fill(bindings, Clock()))
    flat.update({k.replace("__", "."): v for k, v in changes.items()})
    scenario: Scenario = parse(Scenario, unflatten(flat))
    from rulesets.core.dice import roll_dice
    from rulesets.quadrature.engine import dice_for

    result = engine_resolve(scenario, roll_dice(dice_for(scenario), seed=7))
    return scenario, apply(scenario, result, bindings, Clock())


@settings(max_examples=25, deadline=None, derandomize=True)
@given(foe=grammatical_names(), pc=grammatical_names(), horde=st.booleans())
def test_the_encounter_log_of_a_few_rounds_reads_as_correct_french(foe, pc, horde):
    # the examples' sheet (Frappe lourde is its card 3); as a horde, without what the seed denies
    # hordes (issue 14, item 2: no fatigue, no Endurance, no armour)
    sheet = {f.name: getattr(EXAMPLE_SHEET, f.name) for f in dataclass_fields(Adversary)}
    if horde:
        sheet.update(
            parts=tuple(replace(p, armour=0) for p in EXAMPLE_SHEET.parts),
            blocks=tuple(
                replace(b, capability=Capability.OTHER, value=0) if b.value else b for b in EXAMPLE_SHEET.blocks
            ),
            endurance_tokens=0,
        )
    sheet.update(
        name=foe[0],
        grammar=foe[1],
        kind=Kind.HORDE if horde else Kind.CREATURE,
        fatigue_boxes=0 if horde else 5,
        traits=Traits(terror_aura=True, exhausting_strike=True, hive_mind=True),
        bleeding=1,
        stunned=True,
    )
    monster = Foe(**sheet, engaged=pc[0])
    hero = PcState(name=pc[0], grammar=pc[1], stability_tokens=0, stability=0, bleeding=1, stunned=True)
    fighters = {"1": monster, "2": hero}
    lines: list[tuple[str, str]] = []
    for step, changes in enumerate(
        (
            {"card": 3},  # Frappe lourde: 💔 or 💢💢, Sonné on a ⭐
            {
                "mode": "pc_attack",
                "pc__score": 30,
                "pc_success__heavy": 1,
                "pc_success__fatigue": 2,
                "pc_success__down": 2,
            },
            {"card": 1},
        )
    ):
        bindings = {"adversary": (fighter("1", fighters["1"]),), "pc": (fighter("2", fighters["2"]),)}
        _scenario, applied = play(bindings, **changes)
        fighters.update(applied.states)
        lines += [(f"échange {step}", line) for line in (*applied.story, *applied.notes)]
    for _round in range(2):
        applied = advance(tuple(fighter(k, v) for k, v in fighters.items()), Clock(), Scenario())
        fighters.update(applied.states)
        lines += [("fin de manche", line) for line in (*applied.story, *applied.notes)]
    for key, state in fighters.items():
        f = fighter(key, state)
        lines += [("badge", b) for b in badges(f, Clock(), Scenario())]
        lines += [("jauge", bar.label) for bar in bars(f)]
    assert_clean(lines)
    assert any(foe[0] in text for _w, text in lines)


# --- exact sentences ---------------------------------------------------------------------------------------

ORC = ("Orc", DEFINITE_M)
HARPY = ("Harpie", DEFINITE_F)
WOLVES = ("Loups des cendres", Grammar(Article.PLURAL, Gender.MASCULINE))


def resolved(key: str, foe: tuple[str, Grammar] | None = None, pc: tuple[str, Grammar] | None = None) -> Resolution:
    example = next(e for e in EXAMPLES if e.key == key)
    request = copy.deepcopy(dict(example.request))
    request["seed"] = 1  # the story's variants follow the seed
    if foe is not None:
        request["scenario"]["adversary"].update(name=foe[0], grammar=grammar_data(foe[1]))
    if pc is not None:
        request["scenario"]["pc"].update(name=pc[0], grammar=grammar_data(pc[1]))
    return resolve(RULESET, request)


def labels(resolution: Resolution) -> list[str]:
    return [e.label for e in resolution.result.events]


def test_the_guard_and_the_card_played_are_said_with_the_article_and_the_elision():
    assert "Garde de l'Orc\u202f: Esquive 11" in labels(resolved("attack_misses", ORC))
    assert "L'Orc joue «\u202fFrappe vive\u202f»" in labels(resolved("quick_strike_failure", ORC))
    assert "Garde du personnage (saisie)" in labels(resolved("quick_strike_failure", ORC))
    assert "Garde d'Isaure (saisie)" in labels(resolved("quick_strike_failure", pc=("Isaure", PROPER_F)))
    hurlevent = ("Hurlevent", Grammar(Article.DEFINITE, Gender.MASCULINE, Elision.NEVER))
    assert "Garde du Hurlevent\u202f: Esquive 11" in labels(resolved("attack_misses", hurlevent))


def test_the_scene_agrees_the_bearing_with_the_creature_and_reads_the_default_character_as_a_noun():
    aggressive = resolved("light_wounds_armour", HARPY).narrative.scene
    assert aggressive == (
        "Le personnage frappe en visant «\u202fCorps\u202f»\u202f; la Harpie, ramassée, prête à bondir,"
        " lui oppose sa Garde (Esquive 11)."
    )
    assert "contre le personnage, qui lève sa garde." in resolved("quick_strike_failure").narrative.scene
    assert "Le personnage" not in resolved("quick_strike_failure").narrative.scene[1:]


def test_a_plural_name_takes_plural_verbs_and_pronouns():
    res = resolved("horde_attack", WOLVES)
    assert res.narrative.scene.startswith("Les Loups des cendres — une horde de 9\u00a0membres, enragée — s'apprêtent")
    assert res.narrative.story[0] == "Les Loups des cendres trouvent l'ouverture\u202f: 9 quand il fallait 8."
    assert "Les Loups des cendres jouent «\u202fFrappe vive\u202f»" in labels(res)
    exhausted = resolved("exhaustion", WOLVES)
    assert exhausted.result.outcome_label == "Épuisés\u202f: hors de combat"
    assert "Les Loups des cendres sont Épuisés" in labels(exhausted)


def test_counts_agree_with_their_number():
    assert (
        resolved("light_wounds_armour").narrative.story[-1]
        == "Les entailles s'accumulent\u202f: 1\u00a0case cochée de plus."
    )
    cracked = resolved("heavy_cracks_plate")
    assert cracked.narrative.story[-1] == "Les entailles s'accumulent\u202f: 2\u00a0cases cochées de plus."
    assert "Mâchoires, bloc 1\u202f: 2\u00a0cases cochées" in labels(cracked)
    horde = next(e for e in EXAMPLES if e.key == "horde_light").request
    told = {resolve(RULESET, {**horde, "seed": seed}).narrative.story[-1] for seed in range(12)}
    assert told == {
        "1\u00a0membre de la horde tombe\u202f; il en reste 8.",
        "La masse se creuse\u202f: 1 de moins, 8 encore debout.",
    }
    fatigue = resolved("fatigue_no_endurance")
    assert "2 💧\u202f: 0\u00a0absorbée par l'Endurance 🫁, 2\u00a0cases cochées" in labels(fatigue)
    bleeding = resolved("bleeding_token").result.events_of("bleed")[0]
    assert bleeding.value == "1\u00a0jeton\u202f: saigne en fin de manche"


def test_a_feminine_character_and_creature_agree_their_states():
    gaze = resolved("hypnotic_gaze", HARPY, ("Elwen", PROPER_F))
    assert "Elwen tombe à 0 ◇\u202f: Entravée 🕸️" in labels(gaze)
    stunned = engine_resolve(
        Scenario(
            mode=Mode.PC_ATTACK,
            adversary=replace(Adversary(), name="Harpie", grammar=DEFINITE_F),
            pc=Pc(score=20),
            pc_success=Effect(stunned=True),
        ),
        fixed_roll({}),
    )
    assert "La Harpie est Sonnée 🫨" in [e.label for e in stunned.events]


def test_a_blank_or_role_name_reads_as_a_common_noun():
    blank = replace(Adversary(), name="", grammar=Grammar())
    assert scene(Scenario(adversary=blank, pc=Pc(name=""))).startswith(
        "L'adversaire, ramassé, prêt à bondir, s'apprête"
    )
    assert "contre le personnage," in scene(Scenario(pc=Pc(name="Personnage")))
    assert "contre la Bête du Gévaudan," in scene(Scenario(pc=Pc(name="La Bête du Gévaudan")))


def test_the_encounter_says_states_ending_with_the_negation_elided_or_not():
    shadows = PcState(name="Ombres", grammar=Grammar(Article.PLURAL, Gender.FEMININE), stunned=True)
    elwen = PcState(name="Elwen", grammar=PROPER_F, stunned=True)
    story = advance((fighter("1", shadows), fighter("2", elwen)), Clock(), Scenario()).story
    assert "Les Ombres ne sont plus Sonnées." in story
    assert "Elwen n'est plus Sonnée." in story
