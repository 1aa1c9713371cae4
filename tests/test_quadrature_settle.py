"""The Quadrature page keeps its scene valid (``bestiary.quadrature.settle``): each rule it follows,
the seed's rule it applies, and that it never fights a valid choice."""

import json
from dataclasses import replace

import pytest
from django.core.management import call_command
from django.http import QueryDict

from bestiary.quadrature import selectors
from bestiary.quadrature.models import Adversary as AdversaryRow
from bestiary.quadrature.settle import settle
from calculator.forms import apply_form_actions
from rulesets.core.schema import flatten, to_data

# the sheet these tests were written on (issue 14: the default is now the bestiary's wolf)
from rulesets.quadrature.examples import BASE as SHEET
from rulesets.quadrature.model import Adversary, Block, Capability, Card, Kind, Mode, Part, Pc, PcSource, Scenario


def page_data(scenario: Scenario | None = None) -> dict[str, str]:
    """What the page sends for ``scenario``: every field as text, a ticked box as "on" (an unticked
    one is left out), the marker, and the hidden inputs the fields template draws per row."""
    scenario = scenario or Scenario(adversary=SHEET)
    data = {"_f": "1"}
    for path, value in flatten(to_data(scenario)).items():
        if path.startswith(("faces.", "pc_faces.")):
            continue
        if isinstance(value, bool):
            if value:
                data[path] = "on"
        else:
            data[path] = str(value)
    adv = scenario.adversary
    for i, card in enumerate(adv.deck):
        data[f"adversary.deck.{i}._was"] = card.name
    for i in range(len(adv.parts)):
        data[f"adversary.parts.{i}._n"] = str(i + 1)
    data["adversary._parts"] = str(len(adv.parts))
    data["adversary._deck"] = json.dumps([c.name for c in adv.deck])
    return data


def test_a_valid_scene_is_left_alone():
    assert settle(page_data()).changes == {}
    assert settle(page_data(Scenario(mode=Mode.PC_ATTACK, target_part=4))).changes == {}
    assert settle(page_data(Scenario(mode=Mode.ROUND, adversary=SHEET))).changes == {}


@pytest.mark.django_db
def test_every_bestiary_creature_in_every_situation_is_left_alone():
    """A creature of the bestiary, fresh, is a valid scene: settle changes nothing on it."""
    call_command("loaddata", "fixtures/quadrature.json", verbosity=0)
    from rulesets.core.schema import parse

    for row in AdversaryRow.objects.all():
        adv = parse(Adversary, selectors.adversary_data(row))
        for mode in (Mode.ADVERSARY_ATTACK, Mode.PC_ATTACK, Mode.ROUND):
            scenario = Scenario(mode=mode, adversary=adv, card=1, target_part=1)
            assert settle(page_data(scenario)).changes == {}, (row.name, mode)


def test_a_deck_card_replaced_passes_its_blocks_to_its_successor():
    """§ Santé ♥️ et parties du corps: a block confers an action of the deck; the card loaded
    over « Harcèlement » (deck row 1) is the action its block (Pattes) now confers."""
    data = page_data() | {"adversary.deck.0.name": "Charge"}
    settled = settle(data)
    assert settled.changes == {"adversary.blocks.4.label": "Charge"}
    assert settled.notes == [
        "Bloc 5\u202f: «\u202fHarcèlement\u202f» a laissé place à «\u202fCharge\u202f» dans le deck\u202f;"
        " le bloc confère «\u202fCharge\u202f»."
    ]


def press(data: dict[str, str], button: str, value: str) -> dict[str, str]:
    """The page's row button (``_del=adversary.parts.1`` …), applied as the view applies it."""
    query = QueryDict(mutable=True)
    query.update(data | {button: value})
    out, _acted = apply_form_actions(query, Scenario, {})
    return dict(out.items())


def test_a_deck_card_removed_leaves_its_block_a_plain_capability():
    """The card « Morsure » is removed from the deck: the Mâchoires block keeps its text as a
    plain capability instead of naming an action the deck no longer has."""
    settled = settle(press(page_data(), "_del", "adversary.deck.3"))
    assert settled.changes == {"adversary.blocks.3.capability": Capability.OTHER.value}
    assert settled.notes == [
        "Bloc 4\u202f: «\u202fMorsure\u202f» a quitté le deck\u202f; le bloc garde «\u202fMorsure\u202f» comme capacité libre."
    ]


def test_a_block_label_typed_by_hand_is_left_to_its_error():
    """A label that never named a deck card (a typo) is not « corrected »: its field says why."""
    data = page_data() | {"adversary.blocks.4.label": "Harcèlment"}
    assert settle(data).changes == {}


def test_a_part_removed_takes_its_blocks_and_the_later_parts_keep_theirs():
    """Removing « Corps » (part 2 of 4): its two blocks go, the Mâchoires and Pattes blocks follow
    their parts, renumbered 2 and 3 — not silently attached to the part that took the number."""
    settled = settle(press(page_data(), "_del", "adversary.parts.1"))
    assert settled.changes == {
        "adversary.blocks.1.boxes": "0",
        "adversary.blocks.2.boxes": "0",
        "adversary.blocks.3.part": "2",
        "adversary.blocks.4.part": "3",
    }
    assert settled.notes == [
        "Bloc 2\u202f: sa partie du corps est retirée, le bloc aussi.",
        "Bloc 3\u202f: sa partie du corps est retirée, le bloc aussi.",
    ]


def test_the_last_part_removed_takes_its_blocks():
    settled = settle(press(page_data(), "_del", "adversary.parts.3"))
    assert settled.changes == {"adversary.blocks.4.boxes": "0"}


def test_the_card_played_follows_its_block():
    """§ Santé ♥️ (« une action quitte le deck »): Morsure's block is destroyed, so the card
    played becomes the first attack it can still play."""
    data = page_data(Scenario(adversary=SHEET, card=4)) | {"adversary.blocks.3.ticked": "3"}
    settled = settle(data)
    assert settled.changes == {"card": "1"}
    assert settled.notes == [
        "Carte jouée\u202f: «\u202fHarcèlement\u202f». «\u202fMorsure\u202f» a quitté le deck\u202f:"
        " le bloc qui la conférait est détruit."
    ]


def test_the_card_played_must_be_affordable_and_an_attack_comes_first():
    """§ Actions ⚫: a card costing more ⚫ than the creature has is not played; the first playable
    card that rolls against the Garde is preferred over a move."""
    adv = Adversary(
        action_points=1,
        deck=(
            Card("Bond", 1, 1, attack=False),
            Card("Frappe lourde", 2, 5),
            Card("Frappe vive", 1, 3),
        ),
        blocks=(Block(3, part=1), Block(3, part=2), Block(3, part=3), Block(3, part=4)),
    )
    settled = settle(page_data(Scenario(adversary=adv, card=2)))
    assert settled.changes == {"card": "3"}
    assert "coûte 2 ⚫" in settled.notes[0]


def test_a_card_that_would_fill_the_fatigue_track_is_not_played():
    """§ Fatigue 💧: « une créature ne peut pas jouer une action dont le coût remplirait sa piste »."""
    adv = Adversary(
        fatigue_boxes=2,
        endurance_tokens=0,
        deck=(Card("Cri strident", 1, 2, fatigue_cost=2), Card("Frappe vive", 1, 3)),
        blocks=(Block(3, part=1), Block(3, part=2), Block(3, part=3), Block(3, part=4)),
    )
    assert settle(page_data(Scenario(adversary=adv, card=1))).changes == {"card": "2"}


def test_a_card_it_cannot_afford_is_kept_while_it_does_not_attack():
    """Only the situation that plays the card reads it: a character's attack keeps the choice."""
    adv = replace(SHEET, action_points=1)
    data = page_data(Scenario(adversary=adv, mode=Mode.PC_ATTACK, card=3))  # Frappe lourde, 2 ⚫
    assert settle(data).changes == {}


def test_a_card_number_past_the_deck_comes_back_in_it_whatever_the_situation():
    data = page_data(Scenario(mode=Mode.ROUND, adversary=SHEET)) | {"card": "9"}
    settled = settle(data)
    assert settled.changes == {"card": "1"}
    assert "Le deck n'a que 4\u00a0cartes." in settled.notes[0]


def test_with_no_card_it_can_play_the_card_is_left_to_its_error():
    adv = replace(SHEET, action_points=0)
    assert settle(page_data(Scenario(adversary=adv, card=2))).changes == {}


def test_the_target_is_a_part_of_the_sheet_the_first_one_still_standing():
    """§ Cibler une partie: the part aimed at is one of the sheet's; the first with an intact block."""
    adv = replace(
        SHEET,
        parts=(Part("Tête"), Part("Corps")),
        blocks=(Block(3, ticked=3, part=1), Block(4, part=2)),
    )
    settled = settle(page_data(Scenario(adversary=adv, mode=Mode.PC_ATTACK, target_part=2)) | {"target_part": "4"})
    assert settled.changes == {"target_part": "2"}
    assert settled.notes == ["Partie visée\u202f: Corps (le Chacal des cendres n'a que 2\u00a0parties du corps)."]


def test_a_horde_is_struck_as_one():
    """§ Hordes: a horde is one mass of members; the target is the horde (part 1)."""
    horde = Adversary(
        name="Nuée",
        kind=Kind.HORDE,
        parts=(Part("Nuée"),),
        blocks=(Block(3), Block(3)),
        fatigue_boxes=0,
        endurance_tokens=0,
    )
    data = page_data(Scenario(adversary=horde, mode=Mode.PC_ATTACK, target_part=1)) | {"target_part": "3"}
    assert settle(data).changes == {"target_part": "1"}


def test_a_horde_dodges():
    """§ Hordes — Défenses simplifiées: « La seule défense des hordes est l'esquive »."""
    data = page_data() | {"adversary.kind": "horde", "adversary.guard_type": "parade"}
    settled = settle(data)
    assert settled.changes["adversary.guard_type"] == "esquive"


def test_the_hypnotic_gaze_needs_its_trait():
    """§ Traits mentaux — Regard hypnotique: a creature without the trait attacks instead."""
    settled = settle(page_data(Scenario(mode=Mode.HYPNOTIC_GAZE, adversary=SHEET)))
    assert settled.changes == {"mode": Mode.ADVERSARY_ATTACK.value}
    assert settled.notes[0].startswith("Le Chacal des cendres n'a pas le trait Regard hypnotique.")
    gazer = replace(SHEET, traits=replace(SHEET.traits, hypnotic_gaze=True))
    assert settle(page_data(Scenario(adversary=gazer, mode=Mode.HYPNOTIC_GAZE))).changes == {}


def test_only_skill_dice_are_upgraded():
    """Players' dice (rules/quadrature.md): the ⬆ upgrade a skill die, so no more than the skill."""
    rolled = Scenario(pc=Pc(source=PcSource.ROLLED, skill=2, skill_upgrades=2))
    data = page_data(rolled) | {"pc.skill": "1"}
    assert settle(data).changes == {"pc.skill_upgrades": "1"}
    typed = page_data(Scenario(pc=Pc(skill=2, skill_upgrades=2))) | {"pc.skill": "1"}
    assert settle(typed).changes == {}  # a typed score reads no die
