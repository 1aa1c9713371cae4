"""Quadrature's turn order (issue 16, item 1): « l'initiative des cartes jouées ».

Unit tests of ``rulesets.quadrature.turns`` (one per rule), then the encounter page's « Ordre du
tour » panel through the Django test client, with the game master's ▲ and « l'ordre des règles »."""

import html
import re
from dataclasses import replace

import pytest
from django.core.management import call_command

from bestiary.quadrature.models import Adversary as BestiaryAdversary
from calculator.tables import row_key
from encounters.models import Combatant
from rulesets.core.encounter import Fighter, Turn, get
from rulesets.quadrature.encounter import Clock, Foe, PcState, fill
from rulesets.quadrature.model import (
    FRAPPE_LOURDE,
    FRAPPE_VIVE,
    HARCELEMENT,
    MORSURE,
    Block,
    Capability,
    Card,
    Kind,
    Part,
    Scenario,
    Traits,
)
from rulesets.quadrature.turns import ranking_card, turns
from tests.encounters.helpers import add, detail_url
from tests.factories_encounters import EncounterFactory

N = "\u202f"  # narrow no-break space

CLOCK = Clock()
TABLE = Scenario()

NOTE_ORDER = f"Ordre des cartes{N}: initiative croissante, la plus basse agit d'abord."
NOTE_CARD = (
    f"Carte d'un adversaire{N}: celle que propose l'échange (la première qu'il peut encore payer, une attaque "
    f"d'abord){N}; s'il en joue une autre, déplacez-le avec ▲▼. Ses ⚡ se jouent en réaction, hors de son tour."
)
NOTE_PCS = (
    f"Les personnages jouent leurs propres cartes, dont l'initiative n'est pas suivie ici{N}: ils viennent après "
    f"les adversaires, placez-les avec ▲▼. Rien ne marque qu'un personnage a agi{N}: son tour reste ouvert "
    "jusqu'à la fin de la manche."
)
PC_DETAIL = f"initiative de sa carte{N}: à placer (▲▼)"


def foe(key: str, *deck: Card, **state) -> Fighter:
    """An adversary whose deck is ``deck`` (no block grants a card unless ``blocks`` is given)."""
    sheet = Foe(name=key, deck=deck, blocks=state.pop("blocks", (Block(6),)), parts=(Part("Corps"),), **state)
    return Fighter(key, key, "adversaire", sheet)


def pc(key: str, **state) -> Fighter:
    return Fighter(key, key, "pj", PcState(name=key, **state))


def order(*fighters: Fighter):
    return turns(tuple(fighters), CLOCK, TABLE)


def keys(result) -> list[str]:
    return [t.key for t in result.turns]


# --- the rules, one by one -----------------------------------------------------------------------------


def test_the_lowest_initiative_acts_first():
    brute = foe("brute", FRAPPE_LOURDE)  # init. 5
    rat = foe("rat", HARCELEMENT)  # init. 2
    wolf = foe("wolf", FRAPPE_VIVE)  # init. 3
    result = order(brute, rat, wolf)
    assert result.turns == (
        Turn("rat", f"Harcèlement{N}: initiative 2"),
        Turn("wolf", f"Frappe vive{N}: initiative 3"),
        Turn("brute", f"Frappe lourde{N}: initiative 5"),
    )
    assert (result.now.key, result.next.key) == ("rat", "wolf")
    assert result.notes == (NOTE_ORDER, NOTE_CARD)
    assert result.aside == ()
    assert result.heading == ""


def test_the_card_is_the_one_the_exchange_page_proposes():
    """Same card as ``fill``: the first card in deck order it can pay with the ⚫ left."""
    brute = foe("brute", FRAPPE_LOURDE, FRAPPE_VIVE)
    spent = foe("spent", FRAPPE_LOURDE, FRAPPE_VIVE, ap_left=1)
    for f in (brute, spent):
        card = ranking_card(f.state)
        assert card is not None
        assert f.state.deck[fill({"adversary": (f,)}, CLOCK)["card"] - 1] == card
    assert [ranking_card(f.state).name for f in (brute, spent)] == ["Frappe lourde", "Frappe vive"]
    # with 1 ⚫ left the brute plays its Frappe vive next: it comes before a Frappe lourde at 2 ⚫
    assert keys(order(brute, spent)) == ["spent", "brute"]
    assert order(spent).turns[0].detail == f"Frappe vive{N}: initiative 3"


def test_an_attack_is_proposed_before_a_move():
    move = Card("Bond", 1, 1, attack=False)
    leaper = foe("leaper", move, FRAPPE_VIVE)
    rat = foe("rat", HARCELEMENT)
    assert order(leaper, rat).turns == (
        Turn("rat", f"Harcèlement{N}: initiative 2"),
        Turn("leaper", f"Frappe vive{N}: initiative 3"),
    )


def test_a_card_whose_blocks_are_destroyed_has_left_the_deck():
    jaws = Block(3, ticked=3, capability=Capability.ACTION, label="Harcèlement")
    wolf = foe("wolf", HARCELEMENT, MORSURE, blocks=(Block(4), jaws))
    assert order(wolf).turns == (Turn("wolf", f"Morsure{N}: initiative 3"),)


def test_a_card_it_cannot_pay_still_ranks_it_and_says_what_it_lacks():
    brute = foe("brute", FRAPPE_LOURDE, ap_left=1)
    assert order(brute).turns == (Turn("brute", f"Frappe lourde{N}: initiative 5 (2 ⚫, il n'en reste que 1)"),)


def test_no_card_left_in_the_deck_comes_after_the_cards():
    lost = Block(3, ticked=3, capability=Capability.ACTION, label="Morsure")
    toothless = foe("toothless", MORSURE, blocks=(Block(4), lost))
    brute = foe("brute", FRAPPE_LOURDE)
    assert order(toothless, brute).turns == (
        Turn("brute", f"Frappe lourde{N}: initiative 5"),
        Turn("toothless", "plus aucune carte dans son deck"),
    )


def test_no_action_point_left_is_done_and_keeps_the_place_of_its_opening_card():
    rat = foe("rat", HARCELEMENT, ap_left=0)
    wolf = foe("wolf", FRAPPE_VIVE)
    brute = foe("brute", FRAPPE_LOURDE, FRAPPE_VIVE, ap_left=0)
    result = order(brute, wolf, rat)
    assert result.turns == (
        Turn("rat", "plus de ⚫ cette manche", done=True),
        Turn("wolf", f"Frappe vive{N}: initiative 3"),
        Turn("brute", "plus de ⚫ cette manche", done=True),
    )
    assert result.now.key == "wolf"
    assert result.next is None


def test_reactions_left_give_no_turn_but_are_named():
    predator = foe("predator", FRAPPE_VIVE, ap_left=0, traits=Traits(predator_reflexes=True))
    assert order(predator).turns == (Turn("predator", "plus de ⚫ cette manche, 1\u00a0⚡ en réaction", done=True),)
    assert order(predator).now is None
    spent = foe("spent", FRAPPE_VIVE, ap_left=0, reactions_left=0, traits=Traits(predator_reflexes=True))
    assert order(spent).turns[0].detail == "plus de ⚫ cette manche"


def test_ties_keep_the_encounter_order_and_are_named():
    a, b, c = foe("Loup", FRAPPE_VIVE), foe("Griffon", MORSURE), foe("Rat", HARCELEMENT)
    result = order(a, b, c)
    assert keys(result) == ["Rat", "Loup", "Griffon"]
    assert keys(order(b, a, c)) == ["Rat", "Griffon", "Loup"]
    assert (
        result.notes[-1]
        == f"Égalité à l'initiative 3{N}: Loup et Griffon, dans l'ordre de la rencontre{N}; ▲▼ pour trancher."
    )
    # a tie with a combatant that has acted needs no note
    assert order(replace_state(a, ap_left=0), b).notes == (NOTE_ORDER, NOTE_CARD)


def replace_state(f: Fighter, **changes) -> Fighter:
    return replace(f, state=replace(f.state, **changes))


def test_the_pcs_come_after_the_adversaries_in_the_encounter_order_and_are_never_done():
    result = order(pc("Aldric"), foe("brute", FRAPPE_LOURDE), pc("Elwen"), foe("rat", HARCELEMENT, ap_left=0))
    assert result.turns == (
        Turn("rat", "plus de ⚫ cette manche", done=True),
        Turn("brute", f"Frappe lourde{N}: initiative 5"),
        Turn("Aldric", PC_DETAIL),
        Turn("Elwen", PC_DETAIL),
    )
    assert result.notes == (NOTE_ORDER, NOTE_CARD, NOTE_PCS)
    only_pcs = order(pc("Aldric"), pc("Elwen"))
    assert (keys(only_pcs), only_pcs.notes, only_pcs.now.key) == (["Aldric", "Elwen"], (NOTE_PCS,), "Aldric")


def test_out_of_the_fight_has_no_turn_and_is_listed_aside_with_the_reason():
    dead = foe("dead", FRAPPE_VIVE, blocks=(Block(3, ticked=3),))
    tired = foe("tired", FRAPPE_VIVE, fatigue_boxes=4, fatigue_ticked=4)
    horde = Fighter(
        "horde",
        "horde",
        "adversaire",
        Foe(name="Nuée", kind=Kind.HORDE, deck=(HARCELEMENT,), parts=(Part("Nuée"),), blocks=(Block(3, ticked=3),)),
    )
    elwen = Fighter("Elwen", "Elwen", "pj", PcState(name="Elwen", fatigue_boxes=5, fatigue_ticked=5))
    rat = foe("rat", HARCELEMENT)
    result = order(dead, tired, horde, elwen, rat, pc("Aldric"))
    assert keys(result) == ["rat", "Aldric"]
    assert result.aside == (
        Turn("dead", "toutes ses parties détruites — pas de tour"),
        Turn("tired", "Épuisé — hors de combat, pas de tour"),
        Turn("horde", "anéantie — pas de tour"),
        Turn("Elwen", "Épuisé — hors de combat, pas de tour"),
    )


def test_the_out_of_the_fight_reason_agrees_with_the_name():
    from rulesets.core.french import DEFINITE_F, PROPER_F

    harpy = Fighter(
        "h",
        "Harpie",
        "adversaire",
        Foe(name="Harpie", grammar=DEFINITE_F, deck=(FRAPPE_VIVE,), fatigue_boxes=2, fatigue_ticked=2),
    )
    elwen = Fighter("e", "Elwen", "pj", PcState(name="Elwen", grammar=PROPER_F, fatigue_boxes=1, fatigue_ticked=1))
    assert [t.detail for t in order(harpy, elwen).aside] == ["Épuisée — hors de combat, pas de tour"] * 2


def test_the_rules_register_the_order():
    assert get("quadrature").turns is turns


# --- through the encounter page ------------------------------------------------------------------------


@pytest.fixture
def bestiary():
    call_command("loaddata", "fixtures/quadrature.json", verbosity=0)


def _from_bestiary(client, encounter, name):
    preset = BestiaryAdversary.objects.get(name=name)
    response = add(client, encounter, preset=f"creature:{row_key(preset.name)}", count="1")
    assert response.status_code == 303, response.content.decode()[:2000]
    return encounter.combatants.order_by("-pk").first()


def _panel(client, encounter) -> str:
    page = client.get(detail_url(encounter)).content.decode()
    match = re.search(r'<details class="panel panel-turns" id="turns">.*?</details>', page, re.S)
    assert match, "no « Ordre du tour » panel"
    return re.sub(r"[ \t\r\n]+", " ", html.unescape(re.sub(r"<[^>]+>", " ", match.group(0))))  # keeps U+202F


@pytest.mark.django_db
def test_the_encounter_page_shows_the_cards_order_and_the_game_master_reorders_it(client, bestiary):
    encounter = EncounterFactory(system="quadrature", clock={"round": 1})
    client.force_login(encounter.owner)
    aldric = Combatant.objects.create(encounter=encounter, kind="pj", name="Aldric", state={"name": "Aldric"})
    wyrm = _from_bestiary(client, encounter, "Wyrm des brumes")  # Frappe vive, init. 3
    wolf = _from_bestiary(client, encounter, "Loup des cendres")  # Harcèlement, init. 2

    panel = _panel(client, encounter)
    assert "Loup des cendres agit" in panel
    assert ", puis le Wyrm des brumes" in panel
    assert f"Harcèlement{N}: initiative 2" in panel
    assert f"Frappe vive{N}: initiative 3" in panel
    assert PC_DETAIL in panel
    assert NOTE_PCS in panel

    encounter.refresh_from_db()
    response = client.post(
        f"{detail_url(encounter)}turns/", {"version": encounter.version, "move": str(wyrm.pk), "by": "-1"}
    )
    assert response.status_code == 303
    encounter.refresh_from_db()
    assert encounter.turn_order == [str(wyrm.pk), str(wolf.pk), str(aldric.pk)]
    panel = _panel(client, encounter)
    assert "Wyrm des brumes agit" in panel
    assert ", puis le Loup des cendres" in panel

    response = client.post(f"{detail_url(encounter)}turns/", {"version": encounter.version, "reset": "1"})
    assert response.status_code == 303
    encounter.refresh_from_db()
    assert encounter.turn_order == []
    panel = _panel(client, encounter)
    assert "Loup des cendres agit" in panel
    assert ", puis le Wyrm des brumes" in panel
