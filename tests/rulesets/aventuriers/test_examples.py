"""Every worked example of the seed reproduces exactly, through the request layer and step by step."""

from __future__ import annotations

import pytest

from rulesets.aventuriers.examples import examples
from rulesets.core import request
from rulesets.core.registry import get
from rulesets.core.results import Example

RULESET = get("aventuriers")
EXAMPLES = examples()


@pytest.mark.parametrize("example", EXAMPLES, ids=[e.key for e in EXAMPLES])
def test_each_worked_example_gives_its_expected_outcome_and_numbers(example: Example) -> None:
    resolution = request.resolve(RULESET, example.request)
    result = resolution.result
    assert result.outcome == example.expected["outcome"]
    for key, value in example.expected["numbers"].items():
        assert result.numbers[key] == value, key
    assert resolution.narrative.story
    assert resolution.narrative.scene


@pytest.mark.parametrize("example", EXAMPLES, ids=[e.key for e in EXAMPLES])
def test_each_worked_example_marks_every_listed_die_as_typed(example: Example) -> None:
    resolution = request.resolve(RULESET, example.request)
    for key in example.request["dice"]:
        assert resolution.dice.was_typed(key)


def test_examples_cover_every_section_of_the_seed() -> None:
    sources = " ".join(e.source for e in EXAMPLES)
    for section in (
        "Jets d'attaque et de défense",
        "imparable",
        "Orientation et zones",
        "Attaque de mêlée",
        "Attaque à distance",
        "Engagement",
        "Dégâts-éclairs",
        "Riposte",
        "Contrecoup",
        "Attaque éclair",
        "Attaque d'opportunité",
        "Test de réussite",
    ):
        assert section in sources, section


def test_example_keys_are_unique() -> None:
    keys = [e.key for e in EXAMPLES]
    assert len(keys) == len(set(keys))


def _by_key(key: str) -> Example:
    return next(e for e in EXAMPLES if e.key == key)


def test_melee_example_step_by_step_two_blue_dice_against_one_blue_die() -> None:
    # Dé bleu 3 = 💥💥, dé bleu 2 = 💥⚡ → 3 💥 and 1 ⚡; the Gobelin's dé bleu 4 = 🛡.
    result = request.resolve(RULESET, _by_key("attaque_de_melee").request).result
    attack = result.events_of("attack_roll")[0]
    assert (attack.data["damage"], attack.data["shield"], attack.data["lightning"]) == (3, 0, 1)
    defence = result.events_of("defence_roll")[0]
    assert (defence.data["shield"], defence.data["lightning"]) == (1, 0)
    damage = result.events_of("damage")[0]
    assert (damage.data["damage"], damage.data["blocked"], damage.data["unblocked"]) == (3, 1, 2)
    assert result.numbers["defender_pv_after"] == 3 - 2
    assert result.numbers["attacker_stamina_after"] == 1 + 1
    assert result.events_of("engagement")[0].data["engaged"] is True


def test_riposte_example_step_by_step_chains_contrecoup_and_caps_the_flash_defence() -> None:
    # The Orc's dé noir 2 = 💥💥; Elwen's noir 5 = 🛡🛡 and bleu 4 = 🛡 → 3 🛡, no PV lost.
    result = request.resolve(RULESET, _by_key("riposte_contrecoup").request).result
    kinds = [e.kind for e in result.events]
    assert kinds.index("defence_roll") < kinds.index("riposte") < kinds.index("contrecoup")
    assert kinds.index("contrecoup") < kinds.index("flash_defence")
    flash = result.events_of("flash_defence")[0]
    assert flash.data["dice"] == 2  # 4 flash damage, but the Orc rolls 2 defence dice
    assert flash.data["cap"] == 2
    assert flash.data["order"] == "Dé noir · Dé bleu"
    assert flash.data["shield"] == 1  # noir 4 = 🛡, bleu 1 = 💥
    assert result.numbers["attacker_pv_lost"] == 4 - 1
    assert result.numbers["attacker_pv_after"] == 2


def test_attaque_eclair_example_step_by_step_takes_black_before_blue() -> None:
    result = request.resolve(RULESET, _by_key("attaque_eclair").request).result
    attack = result.events_of("attack_roll")[0]
    assert attack.data["flash"] is True
    assert (attack.data["damage"], attack.data["shield"], attack.data["lightning"]) == (2, 1, 1)
    assert result.numbers["attacker_stamina_gained"] == 0  # 🛡 and ⚡ of a flash attack are ignored
    flash = result.events_of("flash_defence")[0]
    assert flash.data["order"] == "Dé noir · Dé bleu"
    assert flash.data["cap"] == 3
    assert result.numbers["pv_lost"] == 1


def test_success_test_example_step_by_step_reads_two_lightning_and_no_stamina() -> None:
    resolution = request.resolve(RULESET, _by_key("test_de_reussite_deux_eclairs").request)
    result = resolution.result
    assert result.events_of("test_roll")[0].data["lightning"] == 2
    assert result.events_of("test_effect")[0].value == "Le sort frappe toute la salle."
    assert result.numbers["attacker_stamina_gained"] == 0
    assert [s.key for s in resolution.spec.slots] == ["test"]
