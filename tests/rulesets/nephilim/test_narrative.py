"""The two narrative frames of §15: "La scène" live, "Le récit" graded and reproducible."""

from __future__ import annotations

import inspect
import re

from rulesets.core.dice import DiceRoll
from rulesets.core.french import NBSP, quote
from rulesets.nephilim import narrative
from rulesets.nephilim.engine import resolve
from rulesets.nephilim.model import Scenario
from rulesets.nephilim.narrative import scene, story
from tests.rulesets.nephilim.helpers import (
    approach,
    att_fx,
    attacker,
    def_fx,
    defence,
    defender,
    protection,
    ranged,
    run,
    scenario,
    weapon,
)


def test_the_scene_names_both_sides_weapon_defence_protections_and_effects() -> None:
    scn = scenario(
        attacker(
            name="Sahar",
            weapon=weapon("Glaive élémentaire de Feu"),
            effects=[att_fx("Prince de la spirale")],
            approach=approach("Attaque en force"),
            approach_element="feu",
            approach_value=3,
            situation="Sous la pluie, dans la cour du cloître",
        ),
        defender(
            name="Brother Anselme",
            kind="initie",
            defence=defence("Parer"),
            protections=[protection("Gilet pare-balles lourd")],
            effects=[def_fx("Précognition")],
            defence_number=2,
        ),
    )
    text = scene(scn)
    for expected in (
        "Sahar",
        "Glaive élémentaire de Feu",
        "attaque en force",
        "Ka-Feu",
        "Prince de la spirale",
        "Brother Anselme",
        quote("Parer"),
        "Gilet pare-balles lourd",
        "Précognition",
        "défense n°2",
        "Sous la pluie",
    ):
        assert expected in text


def test_the_scene_mentions_aiming_and_the_burst_targets() -> None:
    defenders = [defender(name=n, defence=defence("Encaisser les dommages", "tir")) for n in ("Vigile", "Chauffeur")]
    scn = ranged(
        attacker(approach=approach("Tir (+4, 3r)"), weapon=weapon("Fusil d'assaut AK-47")),
        *defenders,
        cadence="raf_ctrl",
    )
    text = scene(scn)
    assert f"3{NBSP}rounds pour viser" in text
    assert "rafale contrôlée" in text
    assert "Vigile" in text
    assert "Chauffeur" in text


def test_the_scene_changes_when_a_field_changes() -> None:
    assert scene(scenario(attacker(name="Sahar"))) != scene(scenario(attacker(name="Ishtar")))


def _story(scn: Scenario, **dice: int) -> str:
    return " ".join(story(scn, run(scn, **dice)))


def test_each_kind_of_outcome_reads_differently() -> None:
    texts = {
        "maladresse": _story(scenario(attacker()), attaque_1=77),
        "raté": _story(scenario(attacker()), attaque_1=70),
        "parade": _story(
            scenario(attacker(), defender(defence=defence("Parer"), kind="autre")), attaque_1=20, defense_1=20
        ),
        "esquive": _story(scenario(attacker(), defender(defence=defence("Esquiver"))), attaque_1=20, defense_1=20),
        "éraflure": _story(scenario(attacker()), attaque_1=20),
        "critique": _story(scenario(attacker()), attaque_1=33),
        "choc terrible": _story(scenario(attacker(weapon=weapon("Glaive élémentaire de Feu"))), attaque_1=22),
        "accuse le coup": _story(scenario(attacker(weapon=weapon("Marteau"), ka_feu=10)), attaque_1=20),
    }
    assert len(set(texts.values())) == len(texts)
    assert "maladresse" in texts["maladresse"].lower()
    assert "critique" in texts["critique"].lower()


def test_the_story_is_the_same_for_the_same_seed_and_varies_between_seeds() -> None:
    scn = scenario(attacker(weapon=weapon("Marteau")))
    texts = set()
    for seed in range(1, 40):
        roll = DiceRoll(values={"attaque.1": 20}, typed=frozenset(), seed=seed)
        result = resolve(scn, roll)
        assert story(scn, result) == story(scn, resolve(scn, roll))
        texts.add(story(scn, result))
    assert len(texts) >= 3


def test_the_story_tells_when_magic_does_not_reach_an_ordinary_human() -> None:
    text = _story(
        scenario(attacker(weapon=weapon("Glaive élémentaire d'Eau")), defender(kind="autre", name="Passant")),
        attaque_1=20,
    )
    assert "Passant" in text
    assert "magi" in text


def test_the_story_of_a_rapid_attack_has_two_blows_and_a_closing() -> None:
    scn = scenario(attacker(approach=approach("Attaque rapide")), defender(defence=defence("Parer")))
    paragraphs = story(scn, run(scn, attaque_1=25, attaque_2=38, defense_1=45, defense_2=45))
    assert len(paragraphs) == 3
    assert paragraphs[0].startswith("Premier coup.")
    assert "ne pourra pas se défendre" in paragraphs[2]


def test_the_story_of_a_burst_has_one_paragraph_per_target_and_a_total() -> None:
    defenders = [defender(name=n, defence=defence("Encaisser les dommages", "tir")) for n in ("Vigile", "Chauffeur")]
    scn = ranged(
        attacker(approach=approach("Tir (visée 1r)"), weapon=weapon("Fusil d'assaut AK-47")),
        *defenders,
        cadence="raf_cont",
    )
    paragraphs = story(scn, run(scn, attaque_1=20))
    assert len(paragraphs) == 3
    assert "Chauffeur" in paragraphs[1]
    assert "au total" in paragraphs[2]


def test_variants_never_come_from_python_hash() -> None:
    assert "hash(" not in inspect.getsource(narrative)


def test_a_name_starting_with_a_vowel_is_elided_after_de_and_que() -> None:
    scn = scenario(attacker(name="Ondine"), defender(name="Anselme"))
    texts = [scene(scn)] + [" ".join(story(scn, run(scn, attaque_1=s))) for s in (20, 33, 70, 77)]
    for text in texts:
        for name in ("Ondine", "Anselme"):
            assert f"de {name}" not in text
            assert f"que {name}" not in text
    initiative = next(e for e in run(scn, attaque_1=20).events if e.kind == "initiative")
    assert initiative.label == "Initiative et MV d'Ondine (Ka-Eau × 2)"


def _longest_literal(template: str) -> str:
    return max(re.split(r"\{[^{}]*\}", template), key=len)


def test_the_two_blows_of_a_rapid_attack_never_read_the_same_sentence() -> None:
    scn = scenario(attacker(approach=approach("Attaque rapide")), defender(defence=defence("Parer")))
    templates = narrative.GRAZE + narrative.WOUND + narrative.OPENINGS_MELEE
    for first in range(1, 31):
        for second in (5, 18, 27, 38):
            text = " ".join(story(scn, run(scn, attaque_1=first, attaque_2=second, defense_1=90, defense_2=90)))
            for template in templates:
                assert text.count(_longest_literal(template)) <= 1, (first, second, text)
