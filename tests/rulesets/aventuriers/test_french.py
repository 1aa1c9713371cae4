"""Issue 15 for Aventuriers: the scene, the récit, the technical labels, the odds and the encounter's
lines in careful French — names with their article and gender (« la parade de l'Orc », « frappe
le Gobelin »), verbs and participles agreed (« Elwen est tuée », « les Ombres reculent »), counts
agreed (« 1 dégât », « 3 dégâts »), the minus sign, no « (s) », no nested parentheses.

The lint (tests/french_lint.py) runs over every worked example, then over a few hundred variations
with names of every gender, article and initial sound, and over the lines of an encounter."""

from __future__ import annotations

import copy
from dataclasses import replace
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from rulesets.aventuriers import encounter as enc
from rulesets.aventuriers.encounter import AventurierState, Clock, MonsterState, Phase
from rulesets.aventuriers.examples import examples
from rulesets.aventuriers.model import Scenario
from rulesets.aventuriers.speech import figure_noun
from rulesets.core import request
from rulesets.core.encounter import Applied, Fighter
from rulesets.core.french import DEFINITE_F, DEFINITE_M, PROPER_F, PROPER_M, Article, Counted, Gender, Grammar, Noun
from rulesets.core.registry import get
from rulesets.core.request import Resolution
from rulesets.core.schema import flatten, parse, to_data, unflatten
from tests.french_lint import NAMES, assert_clean, grammar_data, grammatical_names
from tests.rulesets.aventuriers.helpers import play

RULESET = get("aventuriers")
EXAMPLES = examples()
PLURAL_F = Grammar(article=Article.PLURAL, gender=Gender.FEMININE)


def texts(resolution: Resolution, where: str = "") -> list[tuple[str, str]]:
    """Every text a resolution shows: scene, story, outcome, each event's label and value, the odds."""
    out = [(f"{where} scène", resolution.narrative.scene)]
    out += [(f"{where} récit {i}", p) for i, p in enumerate(resolution.narrative.story)]
    out.append((f"{where} résultat", resolution.result.outcome_label))
    for i, e in enumerate(resolution.result.events):
        out += [(f"{where} étape {i} ({e.kind})", e.label), (f"{where} valeur {i} ({e.kind})", e.value)]
    return out


def odds_texts(scenario_data: dict[str, Any], where: str) -> list[tuple[str, str]]:
    scenario = parse(Scenario, scenario_data)
    odds = RULESET.odds(scenario)
    out = [(f"{where} chances", label) for _code, label, _p in odds.outcomes]
    out += [(f"{where} graphique", c.title) for c in odds.charts]
    out += [(f"{where} espérance", label) for _key, label, _v in odds.expectations]
    return out


# --- every worked example --------------------------------------------------------------------------


def test_every_worked_example_reads_as_careful_french() -> None:
    found: list[tuple[str, str]] = []
    for ex in EXAMPLES:
        found += texts(request.resolve(RULESET, ex.request), ex.key)
        found += odds_texts(ex.request["scenario"], ex.key)
    assert len(found) > 300
    assert_clean(found)


# --- names of every gender, article and initial sound -----------------------------------------------


def _named(ex_request: dict[str, Any], attacker: tuple[str, Grammar], defender: tuple[str, Grammar]) -> dict[str, Any]:
    out = copy.deepcopy(ex_request)
    for role, (name, grammar) in (("attacker", attacker), ("defender", defender)):
        out["scenario"].setdefault(role, {})
        out["scenario"][role] = {**out["scenario"][role], "name": name, "grammar": grammar_data(grammar)}
    return out


@settings(max_examples=200, deadline=None, derandomize=True)
@given(
    st.sampled_from(EXAMPLES),
    grammatical_names(),
    grammatical_names(),
    st.integers(min_value=0, max_value=2**16),
)
def test_any_name_of_any_gender_and_initial_reads_as_careful_french(
    ex: Any, attacker: tuple[str, Grammar], defender: tuple[str, Grammar], seed: int
) -> None:
    """The examples with bestiary names substituted (their grammar with them), with the example's
    dice and with dice the server rolls (other branches of the récit)."""
    named = _named(ex.request, attacker, defender)
    found = texts(request.resolve(RULESET, named), f"{ex.key} {attacker[0]}/{defender[0]}")
    rolled = {**named, "dice": {}, "seed": seed}
    found += texts(request.resolve(RULESET, rolled), f"{ex.key} (graine {seed})")
    found += odds_texts(named["scenario"], ex.key)
    assert_clean(found)
    told = " ".join(t for _w, t in found)
    assert "{" not in told
    assert attacker[0] in told
    if ex.request["scenario"].get("action") != "test_de_reussite":
        assert defender[0] in told


# --- a few exact sentences ---------------------------------------------------------------------------


def _example(key: str) -> dict[str, Any]:
    return next(e.request for e in EXAMPLES if e.key == key)


def test_a_bestiary_name_has_its_article_and_a_count_agrees() -> None:
    told = request.resolve(RULESET, _example("attaque_de_melee"))
    assert told.narrative.scene == "Elwen avance, «\u202fÉpée longue\u202f» au poing, face au Gobelin, au contact."
    labels = {e.kind: e for e in told.result.events}
    assert labels["defence_roll"].label == "Jet de défense du Gobelin (1\u00a0dé)"
    assert labels["attack_roll"].label == "Jet d'attaque («\u202fÉpée longue\u202f», 2\u00a0dés)"
    assert labels["damage"].label == "Dégâts\u202f: 3 − 1\u00a0bloqué"
    assert labels["damage"].value == "2\u00a0PV perdus"
    assert labels["position"].value == "1\u00a0case"
    assert labels["pv_left"].label == "PV restants du Gobelin"


def test_the_parry_of_the_orc_is_elided() -> None:
    told = request.resolve(RULESET, _example("coup_bas_attaque_de_dos"))
    assert told.narrative.scene == "Elwen se glisse derrière l'Orc, «\u202fÉpée longue\u202f» au poing."
    rolled = {**_example("coup_bas_attaque_de_dos"), "dice": {}}
    stories = [" ".join(request.resolve(RULESET, {**rolled, "seed": seed}).narrative.story) for seed in range(120)]
    assert any("La parade de l'Orc arrête 1\u00a0dégât, pas davantage\u202f; le reste passe." in s for s in stories)
    assert any("La parade de l'Orc arrête 2\u00a0dégâts, pas davantage" in s for s in stories)
    assert not any("de Orc" in s or "le Orc" in s for s in stories)


def test_a_kill_agrees_with_the_gender_of_the_victim() -> None:
    goblin = request.resolve(RULESET, _example("monstre_tue_px"))
    assert [e.label for e in goblin.result.events_of("kill")] == ["Le Gobelin est tué"]
    spider = _named(_example("monstre_tue_px"), ("Elwen", PROPER_F), ("Araignée géante", DEFINITE_F))
    kill = request.resolve(RULESET, spider).result.events_of("kill")[0]
    assert (kill.label, kill.value) == ("L'Araignée géante est tuée", "+2\u00a0PX pour Elwen")


def test_the_riposte_that_kills_names_the_attacker_with_its_article() -> None:
    told = request.resolve(RULESET, _example("riposte_tue_l_attaquant"))
    assert told.narrative.story[-1] == (
        "Et la parade devient contre-attaque\u202f: 3\u00a0dégâts-éclairs foudroient le Gobelin, qui s'écroule."
    )
    assert told.result.events_of("riposte")[0].value == "3 🛡 → 3\u00a0dégâts-éclairs"


def test_a_plural_name_takes_plural_verbs() -> None:
    ombres = _named(_example("attaque_de_melee"), ("Ombres", PLURAL_F), ("Orc", DEFINITE_M))
    told = request.resolve(RULESET, ombres)
    assert told.narrative.scene.startswith("Les Ombres avancent, «\u202fÉpée longue\u202f» au poing, face à l'Orc")
    attacked = _named(_example("monstre_tue_px"), ("Aldric", PROPER_M), ("Ombres", PLURAL_F))
    kill = request.resolve(RULESET, attacked).result.events_of("kill")[0]
    assert kill.label == "Les Ombres sont tuées"


def test_a_monster_attack_is_named_as_a_label_not_held_in_the_fist() -> None:
    """« Morsure » is no weapon « au poing »: a monster's card attack is named after a colon."""
    bite = copy.deepcopy(_example("defense_sans_degat"))
    bite["scenario"]["attacker"] = {
        **bite["scenario"]["attacker"],
        "name": "Rat géant",
        "weapon": {"name": "Morsure", "dice": [{"die": "bleu", "count": 1}]},
    }
    scene = request.resolve(RULESET, bite).narrative.scene
    assert scene == "Le Rat géant fond sur Elwen, au contact, et attaque\u202f: «\u202fMorsure\u202f»."
    assert "au poing" not in scene


def test_a_default_role_name_reads_as_a_common_noun() -> None:
    """« Aventurier » (the page's default) and « Monstre 2 » (the encounter's) are roles, said with
    an article in lower case; a typed name keeps its grammar."""
    assert figure_noun("Aventurier", PROPER_M).subject == "l'aventurier"
    assert figure_noun("Monstre 2", PROPER_M, monster=True).subject == "le monstre 2"
    assert figure_noun("", PROPER_M, monster=True).de == "du monstre"
    assert figure_noun("Aventurier", PROPER_F).subject == "l'aventurière"
    assert figure_noun("Aventurière", PROPER_F).Subject == "L'aventurière"
    assert figure_noun("", PLURAL_F).subject == "les aventurières"
    assert figure_noun("Monstre", Grammar(article=Article.PLURAL), monster=True).a == "aux monstres"
    assert figure_noun("Elwen", PROPER_F).subject == "Elwen"
    assert figure_noun("Aventuriers de Brume", PROPER_M).subject == "Aventuriers de Brume"
    told = request.resolve(RULESET, {"scenario": {}, "seed": 3})
    assert told.narrative.scene.startswith("L'aventurier avance, «\u202fÉpée\u202f» au poing, face au Gobelin")


def test_the_format_specs_pick_the_agreed_forms() -> None:
    orc, elwen, ombres = figure_noun("Orc", DEFINITE_M), figure_noun("Elwen", PROPER_F), figure_noun("Ombres", PLURAL_F)
    line = "{a:S} {a:est|sont} {a:tué|tuée|tués|tuées} {b:de}, {b:à}, {b:que}"
    assert line.format(a=orc, b=elwen) == "L'Orc est tué d'Elwen, à Elwen, qu'Elwen"
    assert line.format(a=elwen, b=orc) == "Elwen est tuée de l'Orc, à l'Orc, que l'Orc"
    assert line.format(a=ombres, b=ombres) == "Les Ombres sont tuées des Ombres, aux Ombres, que les Ombres"
    assert "{n} {n:menace|menacent}".format(n=Counted(1, "dégât")) == "1\u00a0dégât menace"
    assert "{n} {n:menace|menacent}".format(n=Counted(3, "dégât")) == "3\u00a0dégâts menacent"
    assert isinstance(orc, Noun)
    assert str(orc) == "l'Orc"


# --- the encounter's lines ------------------------------------------------------------------------------

TURN_1 = Clock(turn=1, phase=Phase.AVENTURIERS, opening=True)
HERO: dict[str, Any] = {
    "pv": 8,
    "pv_max": 8,
    "stamina": 1,
    "weapon": {"name": "Épée longue", "reach": "melee", "dice": [{"die": "bleu", "count": 2}]},
    "defence": [{"die": "noir", "count": 1, "protection": True}, {"die": "bleu", "count": 1}],
}
BEAST: dict[str, Any] = {
    "pv": 3,
    "pv_max": 3,
    "px": 2,
    "weapon": {"name": "Coutelas", "dice": [{"die": "bleu", "count": 1}]},
    "defence": [{"die": "bleu", "count": 1}],
}


def _fighter(kind: str, name: str, grammar: Grammar, base: dict[str, Any], **changes: Any) -> Fighter:
    state_type = AventurierState if kind == "aventurier" else MonsterState
    data = {**base, "name": name, "grammar": grammar_data(grammar), **changes}
    return Fighter(name, name, kind, parse(state_type, data))


def _exchange(clock: Clock, a: Fighter, d: Fighter, dice: dict[str, int], everyone: tuple[Fighter, ...]) -> Applied:
    bindings = {"attacker": (a,), "defender": (d,)}
    flat = flatten(to_data(Scenario()))
    flat.update(enc.fill(bindings, clock))
    scenario = parse(Scenario, unflatten(flat))
    return enc.apply(scenario, play(scenario, dice), bindings, clock, everyone)


def _lines(applied: Applied, where: str) -> list[tuple[str, str]]:
    return [(f"{where} récit", t) for t in applied.story] + [(f"{where} note", t) for t in applied.notes]


@settings(max_examples=60, deadline=None, derandomize=True)
@given(grammatical_names(), grammatical_names(), grammatical_names())
def test_the_encounter_lines_of_a_few_rounds_read_as_careful_french(
    hero_name: tuple[str, Grammar], beast_name: tuple[str, Grammar], other_name: tuple[str, Grammar]
) -> None:
    """Two turns: a blow that engages, a monster acting out of its phase, a kill and its PX, the end
    of each phase, an engagement a shot ends, the statuses and the badges."""
    if len({hero_name[0], beast_name[0], other_name[0]}) < 3:
        return
    hero = _fighter("aventurier", *hero_name, HERO, x=3, y=3, facing="sud", attaque_opportunite=True)
    beast = _fighter("monstre", *beast_name, BEAST, x=3, y=4, facing="nord")
    other = _fighter("monstre", *other_name, BEAST, x=5, y=5, facing="nord", engaged_with=hero_name[0])
    hero = replace(hero, state=replace(hero.state, engaged_with=other_name[0]))
    everyone = (hero, beast, other)
    found: list[tuple[str, str]] = []
    # a blow that engages (3 − 1 = 2 PV)
    applied = _exchange(TURN_1, hero, beast, {"attaque.1": 3, "attaque.2": 2, "defense.1": 4}, everyone)
    found += _lines(applied, "coup")
    beast2 = replace(beast, state=applied.states[beast.key])
    hero2 = replace(hero, state=applied.states[hero.key])
    # the monster answers in the Aventuriers' phase, after the hero has acted: two notes
    applied = _exchange(TURN_1, beast2, hero2, {"attaque.1": 3, "defense.1": 4, "defense.2": 4}, everyone)
    found += _lines(applied, "hors de sa phase")
    # the hero kills the monster
    applied = _exchange(TURN_1, hero2, beast2, {"attaque.1": 3, "attaque.2": 3, "defense.1": 6}, everyone)
    found += _lines(applied, "mort")
    after = {f.key: replace(f, state=applied.states.get(f.key, f.state)) for f in everyone}
    fighters = tuple(after.values())
    found += [("statut", t) for t in enc.RULES.status(fighters, TURN_1)]
    found += [("badge", t) for f in fighters for t in enc.RULES.badges(f, TURN_1, Scenario())]
    for clock in (TURN_1, Clock(turn=1, phase=Phase.OMBRES, opening=False)):
        found += [(f"fin de phase {clock.phase}", t) for t in enc.RULES.advance(fighters, clock, Scenario()).story]
    found += [("horloge", enc.clock_label(TURN_1)), ("bouton", enc.advance_label(TURN_1))]
    assert any(beast_name[0] in t for _w, t in found)
    assert_clean(found)


def test_the_encounter_says_the_kill_and_the_engagement_with_the_articles() -> None:
    elwen = _fighter("aventurier", "Elwen", PROPER_F, HERO, x=3, y=3, facing="sud", px=3)
    spider = _fighter("monstre", "Araignée géante", DEFINITE_F, BEAST, x=3, y=4, facing="nord")
    applied = _exchange(TURN_1, elwen, spider, {"attaque.1": 3, "attaque.2": 2, "defense.1": 4}, (elwen, spider))
    assert applied.story == ("Elwen et l'Araignée géante sont engagées au combat.",)
    spider = replace(spider, state=replace(applied.states[spider.key], pv=1))
    elwen = replace(elwen, state=replace(applied.states[elwen.key], acted=False))
    applied = _exchange(TURN_1, elwen, spider, {"attaque.1": 3, "attaque.2": 3, "defense.1": 6}, (elwen, spider))
    assert applied.story == (
        "L'Araignée géante est tuée et retirée du plateau\u202f: Elwen gagne 2\u00a0PX (5 en tout).",
    )


def test_every_name_of_the_lint_is_said_with_its_own_article() -> None:
    for name, grammar in NAMES:
        subject = figure_noun(name, grammar).subject
        assert subject.endswith(name)
        if grammar.article is Article.PLURAL:
            assert subject.startswith("les ")
