"""Issue 15 for Nephilim Légende: the scene, the récit, the technical labels and the encounter log in
correct French — every name with its grammar, counts that agree, labels in « », sentences composed
from parts, a weapon that sounds as it is used.

The lint (tests.french_lint) runs over every worked example, then over a few hundred variations
with names of every gender, article and initial sound; exact sentences pin what the lint cannot see
(agreement of verbs, participles and pronouns)."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesets.core.dice import DiceRoll
from rulesets.core.encounter import Fighter
from rulesets.core.french import DEFINITE_F, DEFINITE_M, NBSP, PROPER_F, Article, Gender, Grammar, typography
from rulesets.core.registry import get
from rulesets.core.request import resolve as resolve_request
from rulesets.core.results import Example
from rulesets.core.schema import ScenarioError
from rulesets.nephilim import narrative
from rulesets.nephilim.conditions import CONDITIONS
from rulesets.nephilim.encounter import PJ, PNJ, Clock, Modifier, advance, badges
from rulesets.nephilim.engine import dice_for, resolve
from rulesets.nephilim.language import who
from rulesets.nephilim.model import Scenario
from rulesets.nephilim.narrative import scene, story
from rulesets.nephilim.odds import odds
from tests.french_lint import assert_clean, grammar_data, grammatical_names, problems
from tests.rulesets.nephilim.helpers import approach, attacker, defence, defender, ranged, run, scenario, weapon
from tests.rulesets.nephilim.test_encounter import ROUND_1, exchange, f

EXAMPLES = get("nephilim").examples()
PLURAL_F = Grammar(article=Article.PLURAL, gender=Gender.FEMININE)


def texts_of(request: dict[str, Any], where: str) -> list[tuple[str, str]]:
    """Every text a resolution shows: scene, each paragraph of the récit, the outcome, each event's
    label, value and group, each die's label."""
    resolution = resolve_request(get("nephilim"), request)
    out = [(f"{where}, scène", resolution.narrative.scene)]
    out += [(f"{where}, récit {i}", p) for i, p in enumerate(resolution.narrative.story)]
    out.append((f"{where}, issue", resolution.result.outcome_label))
    for i, e in enumerate(resolution.result.events):
        out += [(f"{where}, étape {i}", e.label), (f"{where}, valeur {i}", e.value), (f"{where}, groupe {i}", e.group)]
    out += [(f"{where}, dé {s.key}", typography(s.label)) for s in dice_for(resolution.scenario).slots]
    chances = odds(resolution.scenario)
    out += [(f"{where}, chances", typography(c.title)) for c in chances.charts]
    out += [(f"{where}, chances", typography(label)) for _key, label, _p in chances.expectations]
    return out


# --------------------------------------------------------------------------- the worked examples


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda e: e.key)
def test_every_worked_example_reads_in_correct_french(example: Example) -> None:
    assert_clean(texts_of(example.request, example.key))


def test_the_lint_sees_the_faults_it_is_meant_to_see() -> None:
    """The test above can fail: the old narration's sentences are faults."""
    assert problems("La parade de Orc, Il a pris 1 round(s) pour viser.")
    assert problems("Le fracas de l'arme (Taurus (sort Péché d'Aldebaran)) déchire l'air")
    assert problems("Sahar fond sur Garde du corps. sous la pluie.")


# --------------------------------------------------------------------------- variations

# a variation: an example, a name and grammar for the attacker and for each defender, and either
# the example's own dice or dice rolled from a seed (every outcome: fumbles, misses, criticals)
VARIATION = st.tuples(
    st.sampled_from(EXAMPLES),
    grammatical_names(),
    st.lists(grammatical_names(), min_size=6, max_size=6),
    st.one_of(st.none(), st.integers(min_value=1, max_value=10_000)),
)


def _renamed(example: Example, att: tuple[str, Grammar], defs: list[tuple[str, Grammar]], seed: int | None) -> dict:
    request = copy.deepcopy(example.request)
    scn = request["scenario"]
    scn["attacker"] = {**scn["attacker"], "name": att[0], "grammar": grammar_data(att[1])}
    scn["defenders"] = [
        {**d, "name": name, "grammar": grammar_data(g)} for d, (name, g) in zip(scn["defenders"], defs, strict=False)
    ]
    if seed is not None:
        request.pop("dice", None)
        request["seed"] = seed
    return request


@settings(max_examples=200, deadline=None, derandomize=True)
@given(VARIATION)
def test_any_name_of_any_gender_and_initial_reads_in_correct_french(variation: tuple) -> None:
    example, att, defs, seed = variation
    request = _renamed(example, att, defs, seed)
    assert_clean(texts_of(request, f"{example.key}, {att[0]} contre {[d[0] for d in defs]}"))


# --------------------------------------------------------------------------- exact sentences


def _all_stories(scn: Scenario, dice: dict[str, int], seeds: range = range(1, 60)) -> list[str]:
    """The récit of the same dice told with many seeds (every variant of every template)."""
    out = []
    for seed in seeds:
        roll = DiceRoll(values=dice, typed=frozenset(), seed=seed)
        out.append(" ".join(story(scn, resolve(scn, roll))))
    return out


def test_names_take_their_article_and_elide() -> None:
    scn = scenario(
        attacker(name="Ondine", grammar=grammar_data(PROPER_F)),
        defender(name="Orc", grammar=grammar_data(DEFINITE_M), defence=defence("Esquiver")),
    )
    texts = " ".join(_all_stories(scn, {"attaque.1": 20, "defense.1": 20}))
    texts += " ".join(_all_stories(scn, {"attaque.1": 20, "defense.1": 90}))
    assert "de Ondine" not in texts
    assert "de Orc" not in texts
    assert " Orc" not in texts.replace("l'Orc", "").replace("L'Orc", "")
    assert "porte son coup à l'Orc" in texts
    dodged = ("L'Orc se dérobe au dernier instant", "l'Orc esquive ; rien ne le touche", "derrière lui")
    assert all(sentence in texts for sentence in dodged)
    initiative = next(e for e in run(scn, attaque_1=20, defense_1=20).events if e.kind == "initiative")
    assert initiative.label == "Initiative et MV d'Ondine (Ka-Eau × 2)"
    taken = next(e for e in run(scn, attaque_1=20, defense_1=90).events if e.kind == "taken")
    assert taken.label == "L'Orc encaisse"


def test_verbs_participles_and_pronouns_agree_with_the_name() -> None:
    ombres = defender(name="Ombres", grammar=grammar_data(PLURAL_F), defence=defence("Esquiver"))
    scn = scenario(attacker(approach=approach("Attaque rapide")), ombres)
    text = " ".join(_all_stories(scn, {"attaque.1": 20, "defense.1": 20, "attaque.2": 20, "defense.2": 20}))
    assert "les Ombres esquivent ; rien ne les touche" in text or "Les Ombres se dérobent" in text
    closing = story(scn, run(scn, attaque_1=20, defense_1=20, attaque_2=20, defense_2=20))[-1]
    assert closing == "Tout à son assaut, Sahar s'est découvert : il ne pourra pas se défendre ce round."
    sahar = attacker(approach=approach("Attaque rapide"), grammar=grammar_data(PROPER_F))
    both = scenario(sahar, ombres)
    closing = story(both, run(both, attaque_1=90, attaque_2=90, defense_1=90, defense_2=90))[-1]
    assert closing == "Tout à son assaut, Sahar s'est découverte : elle ne pourra pas se défendre ce round."
    harpie = defender(name="Harpie", grammar=grammar_data(DEFINITE_F), wounds=-2, kind="creature_magique")
    assert "En face, la Harpie, une créature magique, choisit la défense" in scene(scenario(attacker(), harpie))
    assert f"blessée (−2{NBSP}degrés)" in scene(scenario(attacker(), harpie))


def test_a_role_name_is_a_common_noun_mid_sentence() -> None:
    """A blank name reads as the role: « l'attaquant fond sur le défenseur », never « sur Défenseur »."""
    scn = scenario(attacker(name=""), defender(name=""))
    text = " ".join(_all_stories(scn, {"attaque.1": 20}))
    assert "Défenseur" not in text
    assert "Attaquant" not in text
    assert "le défenseur" in text
    assert who("Défenseur").de == "du défenseur"
    assert who("Attaquant").Subject == "L'attaquant"
    assert f"{who('Défenseur'):est/sont} {who('Défenseur'):~blessé}" == "est blessé"
    assert f"{who('Ombres', PLURAL_F):il/elle/ils/elles} {who('Ombres', PLURAL_F):~blessé}" == "elles blessées"


def test_counts_agree_and_signs_are_true_minus_signs() -> None:
    one = ranged(
        attacker(approach=approach("Tir (visée 1r)"), weapon=weapon("Arc")),
        defender(defence=defence("Encaisser les dommages", "tir")),
    )
    three = ranged(
        attacker(approach=approach("Tir (+4, 3r)"), weapon=weapon("Arc")),
        defender(defence=defence("Encaisser les dommages", "tir")),
    )
    assert f"a pris 1{NBSP}round pour viser" in scene(one)
    assert f"a pris 3{NBSP}rounds pour viser" in scene(three)
    wounded = scene(scenario(attacker(wounds=-1)))
    assert f"Ses blessures le gênent (−1{NBSP}degré)." in wounded


def test_labels_are_quoted_and_parentheses_never_nest() -> None:
    taurus = ranged(
        attacker(approach=approach("Tir (visée 1r)"), weapon=weapon("Taurus (sort Péché d'Aldebaran)")),
        defender(defence=defence("Encaisser les dommages", "tir")),
    )
    texts = [scene(taurus), *_all_stories(taurus, {"attaque.1": 30})]
    for text in texts:
        assert not problems(typography(text)), text
        assert "((" not in text
        assert "))" not in text
    assert "(tir, visée 1r)" in texts[0]
    assert any("(Taurus, sort Péché d'Aldebaran)" in t for t in texts[1:])
    assert "choisit la défense « Encaisser les dommages »" in texts[0].replace("\u202f", " ")


def test_a_situation_typed_in_lower_case_becomes_its_own_sentence() -> None:
    text = scene(scenario(attacker(situation="sous la pluie battante")))
    assert "Épée/hache. Sous la pluie battante. En face," in text
    text = scene(scenario(attacker(situation="Sous la pluie battante.")))
    assert "Sous la pluie battante. En face," in text
    assert ".." not in text


def test_a_weapon_sounds_as_it_is_used() -> None:
    """Issue 15, item 3: a shot fired in melee (Tir instinctif) does not whistle through the air;
    claws are not held « au poing »; a crossbow has no gunfire."""
    point_blank = scenario(attacker(approach=approach("Tir instinctif"), weapon=weapon("Pistolet 9mm")))
    claws = scenario(attacker(weapon=weapon("Griffes")))
    crossbow = ranged(
        attacker(approach=approach("Tir (visée 1r)"), weapon=weapon("Arbalète")),
        defender(defence=defence("Encaisser les dommages", "tir")),
    )
    gun = ranged(
        attacker(approach=approach("Tir (visée 1r)"), weapon=weapon("Fusil d'assaut AK-47")),
        defender(defence=defence("Encaisser les dommages", "tir")),
    )
    for text in _all_stories(point_blank, {"attaque.1": 20}):
        assert "siffle dans l'air" not in text, text
        assert "bout portant" in text or "d'instinct" in text, text
    assert "le corps à corps (standard), sans autre arme que son corps : Griffes." in scene(claws)
    for text in _all_stories(claws, {"attaque.1": 20}):
        for held in ("au poing", "l'arme haute", "en main"):
            assert held not in text, text
    for text in _all_stories(crossbow, {"attaque.1": 20}) + _all_stories(crossbow, {"attaque.1": 99}):
        for gunfire in ("fracas", "s'enraye", "parler son arme"):
            assert gunfire not in text, text
    assert any("fracas" in t or "fait parler son arme" in t for t in _all_stories(gun, {"attaque.1": 20}))
    assert set(narrative.OPENINGS_POINT_BLANK).isdisjoint(narrative.OPENINGS_MELEE)


def test_the_messages_quote_the_names_of_the_table_rows() -> None:
    scn_data = {
        "mode": "tir",
        "attacker": attacker(weapon=weapon("Arc"), approach=approach("Standard")),
        "defenders": [defender(defence=defence("Parer"))],
    }
    with pytest.raises(ScenarioError) as err:
        resolve_request(get("nephilim"), {"scenario": scn_data})
    messages = list(err.value.errors.values())
    assert typography("L'approche « Standard » ne s'emploie pas au tir.") in messages
    assert typography("La défense « Parer » ne répond pas à un tir.") in messages
    assert_clean([("message", m) for m in messages])


# --------------------------------------------------------------------------- the encounter log


def _log(applied: Any) -> list[tuple[str, str]]:
    """The log as the encounter writes it (encounters/services.py: typography on every line)."""
    return [("journal", typography(line)) for line in (*applied.story, *applied.notes)]


def test_the_encounter_log_says_each_name_with_its_grammar() -> None:
    harpie = f("h", PNJ, name="Harpie", grammar=grammar_data(DEFINITE_F), type="creature_magique", defence_degree=14)
    orc = f("o", PNJ, name="Orc", grammar=grammar_data(DEFINITE_M), type="autre", attack_degree=15)
    _scn, _result, applied = exchange(
        {"attacker": (orc,), "defenders": (harpie,)},
        {"attaque.1": 5, "defense.1": 12},
        **{"attacker.margin_malus": 2, "defenders.0.margin_malus": 1},
    )
    assert_clean(_log(applied))
    story_ = [typography(line) for line in applied.story]
    assert typography("La Harpie encaisse 1\u00a0PHYS ; en tout, 1\u00a0PHYS et 0\u00a0MAG.") in story_
    assert typography("Prochaine défense de la Harpie ce round : la n°2 (−2).") in story_
    assert (
        typography("Au round suivant, la Harpie subira −2 en défense (Marge > 10 : −1 défense adverse, par l'Orc).")
        in story_
    )
    assert (
        typography("Au round suivant, l'Orc subira −1 en attaque (Marge > 10 : −1 attaque adverse, par la Harpie).")
        in story_
    )
    fighters = tuple(Fighter(key, state.name, PNJ, state) for key, state in applied.states.items())
    moved = advance(fighters, ROUND_1, Scenario())
    assert_clean(_log(moved))
    assert "La Harpie subit ce round −2 en défense (Marge > 10 : −1 défense adverse, par l'Orc)." in moved.story


def test_the_log_of_aims_holds_and_ripostes_reads_in_french() -> None:
    hurlevent = f(
        "c", PNJ, name="Chasseurs", grammar=grammar_data(Grammar(Article.PLURAL)), type="autre", aiming_at="Ondine"
    )
    ondine = f("o", PJ, name="Ondine", grammar=grammar_data(PROPER_F), riposte="Chasseurs", riposte_round=1)
    moved = advance((hurlevent, ondine), Clock(round=2), Scenario())
    assert_clean(_log(moved))
    assert f"Les Chasseurs gardent Ondine en ligne de mire : 1{NBSP}round de visée." in moved.story
    assert "Ondine n'a pas riposté contre les Chasseurs : l'occasion est passée." in moved.story
    held = f("h", PJ, name="Ondine", grammar=grammar_data(PROPER_F), held_by="Golem", escaped=True, attacked=True)
    shown = badges(held, ROUND_1, Scenario())
    for badge in ("s'est échappée", "a attaqué"):
        assert badge in shown
    assert_clean([("badge", typography(b)) for b in shown])
    chips = CONDITIONS.chips(held, ROUND_1)
    assert [(c.label, c.remaining) for c in chips] == [("Immobilisée par Golem", "jusqu'à ce qu'elle se libère")]
    assert_clean([("chip", typography(f"{c.label} {c.remaining}")) for c in chips])
    assert Modifier("Attaque étrange", "Orc", -2, -2, DEFINITE_M).describe() == (
        "−2 en attaque et −2 en défense (Attaque étrange, par l'Orc)"
    )
