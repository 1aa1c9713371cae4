"""Issue 15 for Contes de Fées: the exchange and the Action sequence in careful French.

The text lint (``tests.french_lint``) over every text of every worked example (scene, récit, outcome,
technical labels and values, odds), then over a few hundred variations with names of every gender,
article and initial sound, in every situation the narrator tells; the encounter's log lines over a few
rounds; and a few exact sentences.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from rulesets.core import encounter as core
from rulesets.core.dice import DiceRoll
from rulesets.core.french import (
    DEFINITE_F,
    DEFINITE_M,
    NBSP,
    NNBSP,
    PROPER_F,
    Article,
    Elision,
    Gender,
    Grammar,
    typography,
)
from rulesets.core.registry import Ruleset
from rulesets.core.request import Resolution, resolve
from rulesets.core.schema import ScenarioError, flatten, parse, to_data, unflatten
from rulesets.feerie import ACTION, RULESET, action, engine, narrative
from rulesets.feerie import encounter as enc
from rulesets.feerie.action import ActionScenario, Activity, ActivityKind, Fighter
from rulesets.feerie.model import Blow, BlowKind, CoAttacker, Combatant, Exchange, Mode, Mount, Situation
from tests.french_lint import assert_clean, grammar_data, grammatical_names

PLURAL_F = Grammar(Article.PLURAL, Gender.FEMININE)


def texts(res: Resolution, where: str) -> list[tuple[str, str]]:
    """Every text a resolution shows: the scene, each paragraph of the récit, the outcome, each event's
    label, value and group."""
    out = [(f"{where} scène", res.narrative.scene), (f"{where} résultat", res.result.outcome_label)]
    out += [(f"{where} récit {i}", p) for i, p in enumerate(res.narrative.story)]
    for i, e in enumerate(res.result.events):
        out += [(f"{where} {e.kind} {i}", e.label), (f"{where} valeur {i}", e.value), (f"{where} groupe {i}", e.group)]
    return out


def odds_texts(ruleset: Ruleset, scenario: Any, where: str) -> list[tuple[str, str]]:
    o = ruleset.odds(scenario)
    out = [(f"{where} probabilité", label) for _code, label, _p in o.outcomes]
    out += [(f"{where} espérance", label) for _code, label, _p in o.expectations]
    out += [(f"{where} graphique", c.title) for c in o.charts]
    out += [(f"{where} barre", label) for c in o.charts for label, _p in c.bars]  # « −3…4 », never « -3 »
    return out


EXAMPLES = [(r, e) for r in (RULESET, ACTION) for e in r.examples()]


@pytest.mark.parametrize(("ruleset", "example"), EXAMPLES, ids=[f"{r.slug}-{e.key}" for r, e in EXAMPLES])
def test_every_worked_example_reads_as_careful_french(ruleset: Ruleset, example: Any) -> None:
    res = resolve(ruleset, example.request)
    assert_clean(texts(res, example.key) + odds_texts(ruleset, res.scenario, example.key))


# --- variations: names of every gender, article and initial sound, in every situation ----------------------

BLOWS = (
    Blow(BlowKind.DISARM, attack_malus=-8),
    Blow(BlowKind.TRIP, attack_malus=-6, effect_value=4),
    Blow(BlowKind.ENTANGLE, attack_malus=-8),
    Blow(BlowKind.STUN, attack_malus=-6),
    Blow(BlowKind.CRIPPLE, attack_malus=-8),
    Blow(BlowKind.RELENTLESS, defense_malus=-8),
    Blow(BlowKind.FRIGHTENING, attack_malus=-4, effect_value=3),
    Blow(BlowKind.KNOCKBACK, attack_malus=-4, effect_value=2),
)
SITUATIONS: dict[str, dict[str, Any]] = {
    "surprise": {"surprised": True},
    "sans défense": {"defender_helpless": True},
    "charge": {"movement": {"pace": "course", "malus": -8, "charge_bonus": 4, "divisor": 2}, "charge": True},
    "marche": {"movement": {"pace": "marche", "malus": -2, "divisor": 4}},
    "abri": {"cover": {"mode": "exposed", "exposed_modifier": 4}},
    "au travers": {"cover": {"mode": "through", "material": "porte (chêne)", "quarters": 3, "owner_encaissement": 12}},
    "pénombre": {"lighting": -4},
    "objet": {"target_inanimate": True, "object_encaissement": 12},
}


def with_name(data: dict[str, Any], name: tuple[str, Grammar]) -> dict[str, Any]:
    return {**data, "name": name[0], "grammar": grammar_data(name[1])}


@settings(max_examples=200, deadline=None, derandomize=True)
@given(
    example=st.sampled_from(RULESET.examples()),
    attacker=grammatical_names(),
    defender=grammatical_names(),
    mount=st.none() | grammatical_names(),
    situations=st.lists(st.sampled_from(sorted(SITUATIONS)), max_size=3, unique=True),
    blows=st.lists(st.sampled_from(BLOWS), max_size=2, unique_by=lambda b: b.kind),
    ranged=st.booleans(),
    tactic=st.sampled_from((None, (2, -2), (-2, 2))),
    dice=st.tuples(st.integers(1, 20), st.integers(1, 20)),
)
def test_an_exchange_between_any_names_in_any_situation_reads_as_careful_french(
    example: Any,
    attacker: tuple[str, Grammar],
    defender: tuple[str, Grammar],
    mount: tuple[str, Grammar] | None,
    situations: list[str],
    blows: list[Blow],
    ranged: bool,
    tactic: tuple[int, int] | None,
    dice: tuple[int, int],
) -> None:
    scenario = dict(example.request["scenario"])
    scenario["attacker"] = with_name(scenario["attacker"], attacker)
    scenario["defender"] = with_name(scenario["defender"], defender)
    if mount is not None:
        scenario["attacker"]["mount"] = {"mounted": True, "taille": 2, "habilete": 14, **with_name({}, mount)}
    if tactic is not None:
        duel = {"name": "duel", "kind": "affinite", "value": 4, "attack": True, "defense": True}
        scenario["attacker"] |= {"attributes": [duel], "tactic": {"attack": tactic[0], "defense": tactic[1]}}
    situation = dict(scenario.get("situation", {}))
    for key in situations:
        situation |= SITUATIONS[key]
    if ranged:
        scenario["mode"] = "ranged"
        situation.pop("co_attackers", None)
    scenario["situation"] = situation
    scenario["blows"] = [to_data(b) for b in blows]
    scenario["previous_loss"] = 8
    try:
        res = resolve(RULESET, {"scenario": scenario, "dice": {"plus.1": dice[0], "moins.1": dice[1]}})
    except ScenarioError:
        assume(False)  # a combination the rules refuse (a charge at range, a blow on an object…)
        raise
    assert_clean(texts(res, example.key))


@settings(max_examples=200, deadline=None, derandomize=True)
@given(
    example=st.sampled_from(ACTION.examples()),
    names=st.lists(grammatical_names(), min_size=24, max_size=24),
    blank=st.booleans(),
    surprised=st.booleans(),
    terms=st.sampled_from((None, -19, 10, 19)),
    event=st.booleans(),
)
def test_an_action_between_any_names_reads_as_careful_french(
    example: Any, names: list[tuple[str, Grammar]], blank: bool, surprised: bool, terms: int | None, event: bool
) -> None:
    """Any names, the activities described or not (« attaque le Lutin et l'Ogre »), surprise, incidents
    (a dice term of −19), an impersonal event at rank 0."""
    scenario = dict(example.request["scenario"])
    fighters = [with_name(f, names[i]) for i, f in enumerate(scenario["fighters"])]
    if surprised:
        fighters = [f if any(f["tactic"].values()) else {**f, "surprised": True} for f in fighters[:1]] + fighters[1:]
    scenario["fighters"] = fighters
    activities = [dict(a) for a in scenario["activities"]]
    for a in activities:
        if blank:
            a["label"] = ""
        if terms is not None and a["kind"] == "attack":
            a["term"] = terms
    scenario["activities"] = activities
    if event:
        scenario["impersonal"] = [{"label": "La grange brûle", "target": 0, "essence_loss": 3}]
    res = resolve(ACTION, {"scenario": scenario, "dice": {}})
    assert_clean(texts(res, example.key) + odds_texts(ACTION, res.scenario, example.key))


# --- the encounter's log over a few rounds -----------------------------------------------------------------


def state(name: str, grammar: Grammar, **values: Any) -> enc.FeeriqueState:
    data = {"name": name, "grammar": grammar_data(grammar), "habilete": 16, "essence": 12, "essence_max": 20}
    return parse(enc.FeeriqueState, {**data, **values})


def exchange_page(fill: dict[str, Any], **changes: Any) -> Exchange:
    flat = flatten(to_data(Exchange()))
    flat = {k: v for k, v in flat.items() if not k.startswith(("attacker.attributes", "defender.attributes"))}
    flat |= {k: v for k, v in fill.items() if v is not None} | changes
    return parse(Exchange, unflatten(flat))


def no_dice() -> DiceRoll:
    return DiceRoll({}, set(), 0)


def log(applied: core.Applied) -> list[tuple[str, str]]:
    """The story and the notes as the encounter writes them (in French typography, as the log does)."""
    return [("récit", typography(t)) for t in applied.story] + [("note", typography(t)) for t in applied.notes]


PAIRS = (
    (("Orc", DEFINITE_M), ("Harpie", DEFINITE_F)),
    (("Loups des cendres", Grammar(Article.PLURAL)), ("Hélène", PROPER_F)),
    (("Hurlevent", Grammar(Article.DEFINITE, elision=Elision.NEVER)), ("Ombres", PLURAL_F)),
    (("Aldric", Grammar()), ("Yéti", DEFINITE_M)),
)


@pytest.mark.parametrize(("first", "second"), PAIRS, ids=[f"{a[0]}-{b[0]}" for a, b in PAIRS])
def test_the_encounter_log_of_a_few_rounds_reads_as_careful_french(
    first: tuple[str, Grammar], second: tuple[str, Grammar]
) -> None:
    a = core.Fighter("a", first[0], enc.FEERIQUE, state(*first, surprised=True, puissance=30))
    d = core.Fighter("d", second[0], enc.FEERIQUE, state(*second, puissance=18))
    lines: list[tuple[str, str]] = []
    # round 1: a trip, then a blow that empties the defender
    bindings = {"attacker": (a,), "defender": (d,)}
    fill = enc.fill_exchange(bindings, enc.Clock())
    trip = exchange_page(fill, term=19, **{"blows.0.kind": "faire_tomber", "blows.0.effect_value": 4})
    applied = enc.apply_exchange(trip, engine.resolve(trip, no_dice()), bindings, enc.Clock())
    lines += log(applied)
    d = replace(d, state=applied.states.get("d", d.state))
    hit = exchange_page(enc.fill_exchange({"attacker": (a,), "defender": (d,)}, enc.Clock()), term=19)
    applied = enc.apply_exchange(hit, engine.resolve(hit, no_dice()), {"attacker": (a,), "defender": (d,)}, enc.Clock())
    lines += log(applied)
    # an incident of the defender's
    blunder = exchange_page(enc.fill_exchange({"attacker": (d,), "defender": (a,)}, enc.Clock()), term=-19)
    applied = enc.apply_exchange(
        blunder, engine.resolve(blunder, no_dice()), {"attacker": (d,), "defender": (a,)}, enc.Clock()
    )
    lines += log(applied)
    # an Action with an extra attack and an incident, then the end of the Action
    fighters = (a, replace(d, state=replace(d.state, essence=12)))
    fill = enc.fill_action({"fighters": fighters}, enc.Clock())
    page = parse(ActionScenario, unflatten({**flatten(to_data(ActionScenario(activities=()))), **fill}))
    page = replace(
        page,
        fighters=tuple(replace(f, initiative=17 - 5 * i) for i, f in enumerate(page.fighters)),
        activities=(
            Activity(0, ActivityKind.ATTACK, targets="1", term=-19),
            Activity(0, ActivityKind.ATTACK, targets="1", term=10),
        ),
    )
    applied = enc.apply_action(page, action.resolve(page, no_dice()), {"fighters": fighters}, enc.Clock())
    lines += log(applied)
    after = tuple(replace(f, state=applied.states.get(f.key, f.state)) for f in fighters)
    clock = enc.Clock(
        events=(
            enc.Recurring("Le feu", target=first[0], essence_loss=3),
            enc.Recurring("La noyade", target="Absent", essence_loss=3),
            enc.Recurring("Le vent tourne"),
        )
    )
    advanced = enc.advance(after, clock, None)
    lines += log(advanced)
    for f in after:
        lines += [("badge", typography(b)) for b in enc.badges(f, clock, None)]
    lines += [("état", typography(t)) for t in enc.status(after, clock)]
    told = " ".join(text for _where, text in lines)
    assert "n'a plus d'Essence" in told or "n'ont plus d'Essence" in told  # the knockout is told too
    assert_clean(lines)


# --- a few exact sentences ------------------------------------------------------------------------------------


def duel(attacker: Combatant, defender: Combatant, **values: Any) -> Exchange:
    return Exchange(attacker=attacker, defender=defender, **values)


ORC = Combatant(name="Orc", grammar=DEFINITE_M, habilete=14)
HARPIE = Combatant(name="Harpie", grammar=DEFINITE_F, habilete=12, essence=4)
LOUPS = Combatant(name="Loups des cendres", grammar=Grammar(Article.PLURAL), habilete=14)


def test_the_scene_says_each_name_with_its_article() -> None:
    assert narrative.scene(duel(ORC, HARPIE)) == "L'Orc fond sur la Harpie et engage le corps à corps."
    assert narrative.scene(duel(LOUPS, ORC)) == "Les Loups des cendres fondent sur l'Orc et engagent le corps à corps."
    nameless = narrative.scene(Exchange(attacker=Combatant(), defender=Combatant(), mode=Mode.RANGED))
    assert nameless == "L'attaquant prend le défenseur pour cible, à distance, sans le moindre contact."


def test_a_mount_and_a_crowd_are_said_with_their_grammar() -> None:
    rider = replace(ORC, mount=Mount(mounted=True, name="Hippogriffe", grammar=DEFINITE_M, taille=2))
    crowd = Situation(co_attackers=(CoAttacker(2, -2, "Sylphes"),))
    text = narrative.scene(duel(rider, HARPIE, situation=crowd))
    assert "L'Orc est en selle sur l'Hippogriffe." in text
    assert f"2{NBSP}autres assaillants se pressent autour de la Harpie." in text


def test_the_words_agree_with_a_feminine_or_a_plural_name() -> None:
    s = duel(ORC, HARPIE, blows=(Blow(BlowKind.DISARM, attack_malus=-8),), term=19)
    res = engine.resolve(s, no_dice())
    assert res.events_of("blow")[0].label == f"La Harpie est désarmée{NNBSP}: son arme vole à quelques pas."
    s = duel(ORC, replace(LOUPS, essence=4), blows=(Blow(BlowKind.TRIP, attack_malus=-6, effect_value=4),), term=19)
    label = engine.resolve(s, no_dice()).events_of("blow")[0].label
    assert label.startswith(f"Les Loups des cendres tombent à terre{NNBSP}: −4 à toutes leurs activités tant qu'ils")
    down = engine.resolve(duel(ORC, HARPIE, term=19), no_dice())
    assert down.numbers["essence_after"] == 0
    last = narrative.story(duel(ORC, HARPIE, term=19), down)[-1]
    assert last in (
        "La Harpie s'effondre, vidée de son Essence (10\u00a0points perdus) : le conte se referme sur elle.",
        "Il ne reste plus rien du Glamour de la Harpie : 10\u00a0points d'Essence, et le silence.",
    )


def test_counts_agree_and_signs_use_the_minus_sign() -> None:
    assert narrative.essence_lost(1) == f"1{NBSP}point d'Essence perdu"
    assert narrative.essence_lost(7) == f"7{NBSP}points d'Essence perdus"
    res = engine.resolve(duel(ORC, HARPIE, term=0), no_dice())
    assert any(e.label == "Essence perdue par la Harpie" for e in res.events)
    s = Exchange(situation=Situation(aim_ranks=1), mode=Mode.RANGED)
    assert "Visée (1\u00a0rang)" in [t.label for t in engine.derive(s).attack.terms]


def test_the_action_names_its_combatants_with_their_article() -> None:
    s = ActionScenario(
        fighters=(
            Fighter("Orc", DEFINITE_M, initiative=12),
            Fighter("Aldric", initiative=10),
            Fighter("", initiative=5),
        ),
        activities=(Activity(0, ActivityKind.ATTACK, targets="1,2", term=0, ranged=True, blunt=True),),
    )
    res = action.resolve(s, no_dice())
    labels = [e.label for e in res.events]
    assert f"Rang 12{NNBSP}: l'Orc attaque Aldric et le combattant n°3" in labels
    assert f"L'Orc{NNBSP}: Initiative" in labels
    spec = action.dice_for(replace(s, fighters=tuple(replace(f, initiative=None) for f in s.fighters)))
    assert spec.slots[0].label.startswith("Initiative de l'Orc")
    odds = [label for _c, label, _p in action.odds(s).expectations]
    assert odds[:2] == [
        "Probabilité que l'Orc ne puisse agir (Initiative ≤ 0)",
        "Probabilité qu'Aldric ne puisse agir (Initiative ≤ 0)",
    ]
    story = " ".join(ACTION.story(s, res))
    assert "l'Orc attaque Aldric et le combattant n°3" in story


def test_a_refusal_names_its_combatant_in_one_sentence() -> None:
    s = ActionScenario(
        fighters=(Fighter("Harpie", DEFINITE_F, initiative=-2), Fighter("Orc", DEFINITE_M, initiative=10)),
        activities=(Activity(0, ActivityKind.OTHER), Activity(0, ActivityKind.OTHER)),
    )
    refused = [e.label for e in action.resolve(s, no_dice()).events_of("refused")]
    assert refused == [
        f"Initiative nulle ou négative{NNBSP}: la Harpie ne peut agir pendant cette Action.",
        f"L'activité précédente de la Harpie n'a pas lieu{NNBSP}: celle-ci non plus.",
    ]
