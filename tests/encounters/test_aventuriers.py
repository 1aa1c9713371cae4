"""Aventuriers in an encounter, through the pages: Monsters from the bestiary, figures placed on the
board in their sheets, whole fights over two turns (melee, Riposte, a kill and its PX, the two
phases), the Attaque d'opportunité at the start of the Aventuriers' phase, engagements started and
ended, undo of a kill, gauges, export and import."""

import html
import json

import pytest
from django.core.management import call_command

from bestiary.aventuriers.models import Monster
from calculator.tables import row_key
from encounters import services
from encounters.models import Combatant
from rulesets.core.schema import flatten
from tests.encounters.helpers import add, advance, chips_of, detail_url, open_calculator, play, redo, states, undo
from tests.factories_encounters import EncounterFactory

pytestmark = pytest.mark.django_db

ELWEN = {
    "name": "Elwen",
    "pv": 8,
    "pv_max": 8,
    "stamina": 1,
    "weapon": {"name": "Épée longue", "reach": "melee", "dice": [{"die": "bleu", "count": 2}]},
    "defence": [{"die": "noir", "count": 1, "protection": True}, {"die": "bleu", "count": 1}],
}
AVENTURIERS = {"turn": 1, "phase": "aventuriers", "opening": True}
SHADOWS = {"turn": 1, "phase": "maitre_des_ombres", "opening": False}


@pytest.fixture(autouse=True)
def bestiary():
    call_command("loaddata", "fixtures/aventuriers.json", verbosity=0)


@pytest.fixture
def encounter(client):
    encounter = EncounterFactory(system="aventuriers", clock=dict(AVENTURIERS))
    client.force_login(encounter.owner)
    return encounter


def aventurier(encounter, **state):
    """An Aventurier typed in, its sheet as the encounter stores it (every field spelled out)."""
    data = services.state_parse(services.rules_for(encounter), "aventurier", {**ELWEN, **state})
    return Combatant.objects.create(encounter=encounter, kind="aventurier", name=data["name"], state=data)


def monster(client, encounter, card, name="", count=1):
    preset = Monster.objects.get(name=card)
    response = add(client, encounter, preset=f"def_monster:{row_key(preset.name)}", name=name, count=str(count))
    assert response.status_code == 303, response.content.decode()[:2000]
    return encounter.combatants.order_by("-pk").first()


def edit(client, encounter, combatant, **changes):
    """The « Fiche » form, submitted with every field of the sheet as shown and ``changes`` typed."""
    combatant.refresh_from_db()
    encounter.refresh_from_db()
    data = {"version": encounter.version}
    for path, value in flatten({**combatant.state, **changes}).items():
        if value is True:
            data[f"c{combatant.pk}-{path}"] = "on"
        elif value is not False and value is not None:  # 0 is a value (a pool's empty row)
            data[f"c{combatant.pk}-{path}"] = str(value)
    response = client.post(f"{detail_url(encounter)}combatants/{combatant.pk}/", data)
    assert response.status_code == 303, response.content.decode()[:3000]
    combatant.refresh_from_db()
    return combatant


def last(encounter):
    return encounter.log.order_by("-seq").first()


def page(client, encounter):
    return client.get(detail_url(encounter)).content.decode()


def test_a_bestiary_monster_joins_with_its_card_pv_px_dice_and_talents(client, encounter):
    goblins = Monster.objects.get(name="Gobelin")
    add(client, encounter, preset=f"def_monster:{row_key(goblins.name)}", count="2")
    s = states(encounter)
    assert set(s) == {"Gobelin 1", "Gobelin 2"}
    goblin = s["Gobelin 1"]
    assert (goblin["pv"], goblin["pv_max"], goblin["px"]) == (3, 3, 2)
    assert goblin["weapon"]["name"] == "Coutelas"
    assert [(g["die"], g["count"]) for g in goblin["weapon"]["dice"] if g["count"]] == [("bleu", 1)]
    assert [(g["die"], g["count"]) for g in goblin["defence"] if g["count"]] == [("bleu", 1)]
    assert goblin["coup_bas"] is True
    assert goblin["x"] is None
    spider = monster(client, encounter, "Araignée géante")
    assert spider.state["attaque_opportunite"] is True
    assert spider.state["opportunity"] is True
    assert spider.state["weapon"]["diagonals"] is True
    # the card's grammar comes with it (issue 15): the page and the log say « l'Araignée géante »
    assert goblin["grammar"] == {"article": "defini", "gender": "m", "elision": "auto"}
    assert spider.state["grammar"] == {"article": "defini", "gender": "f", "elision": "auto"}
    url = open_calculator(
        client, encounter, "aventuriers", attacker=spider, defender=encounter.combatants.get(name="Gobelin 1")
    )
    assert "attacker.grammar.gender=f" in url
    assert "defender.grammar.article=defini" in url


def test_elwen_fights_a_goblin_and_an_orc_over_two_turns_through_the_pages(client, encounter):
    elwen = aventurier(encounter, x=3, y=3, facing="sud", riposte=True)
    goblin = edit(client, encounter, monster(client, encounter, "Gobelin"), x=3, y=4, facing="nord")
    orc = edit(client, encounter, monster(client, encounter, "Orc"), x=4, y=4, facing="nord")

    # Turn 1, Aventuriers' phase. Bleu 3 = 💥💥, bleu 2 = 💥⚡ against the Goblin's bleu 4 = 🛡:
    # 3 − 1 = 2 PV, Elwen gains 1 stamina; a melee attack made and suffered engages both.
    url = open_calculator(client, encounter, "aventuriers", attacker=elwen, defender=goblin)
    assert "board.dx=0&board.dy=-1&board.attacker_facing=sud&board.target_facing=nord" in url
    play(
        client,
        encounter,
        "aventuriers",
        {"attacker": elwen, "defender": goblin},
        {"attaque.1": 3, "attaque.2": 2, "defense.1": 4},
    )
    s = states(encounter)
    assert s["Gobelin"]["pv"] == 1
    assert s["Elwen"]["stamina"] == 2
    assert (s["Elwen"]["engaged_with"], s["Gobelin"]["engaged_with"]) == ("Gobelin", "Elwen")
    assert s["Elwen"]["acted"] is True
    entry = last(encounter)
    assert entry.title == "Elwen contre le Gobelin\u202f: Cible blessée"
    assert "Gobelin — PV actuels\u202f: 3 → 1" in entry.lines
    assert "Elwen — Engagé avec\u202f: — → Gobelin" in entry.lines
    assert "Rencontre — Début de la phase des Aventuriers (Attaques d'opportunité)\u202f: oui → non" in entry.lines
    assert "Elwen et le Gobelin sont engagés au combat." in entry.story
    text = page(client, encounter)
    assert chips_of(text, elwen)[0].startswith("Engagé avec Gobelin tant que l'un est dans la zone d'attaque")
    assert "case 3, 3 · Sud ↓" in text

    advance(client, encounter)
    assert encounter.clock == SHADOWS
    assert last(encounter).title == "Fin de la phase des Aventuriers"
    assert "Tour 1 — phase du Maître des Ombres" in page(client, encounter)

    # Maître des Ombres: the Orc, south-east of Elwen, strikes (noir 2 = 💥💥, bleu 4 = 🛡); Elwen's
    # noir 5 = 🛡🛡 and bleu 4 = 🛡 block all: Riposte, 3 flash damage; the Orc's flash defence,
    # noir 4 = 🛡 and bleu 1 = 💥, blocks 1: 5 − 2 = 3 PV.
    url = open_calculator(client, encounter, "aventuriers", attacker=orc, defender=elwen)
    assert "board.dx=1&board.dy=1&board.attacker_facing=nord&board.target_facing=sud" in url
    dice = {"attaque.1": 2, "attaque.2": 4, "defense.1": 5, "defense.2": 4, "riposte.1": 4, "riposte.2": 1}
    play(client, encounter, "aventuriers", {"attacker": orc, "defender": elwen}, dice)
    s = states(encounter)
    assert (s["Orc"]["pv"], s["Elwen"]["pv"]) == (3, 8)
    assert s["Elwen"]["engaged_with"] == "Gobelin, Orc"
    assert s["Orc"]["acted"] is True
    assert "Orc — PV actuels\u202f: 5 → 3" in last(encounter).lines

    # The Goblin: bleu 3 = 💥💥 against noir 4 = 🛡 and bleu 6 = ⚡⚡: 1 PV, +2 stamina, no Riposte.
    play(
        client,
        encounter,
        "aventuriers",
        {"attacker": goblin, "defender": elwen},
        {"attaque.1": 3, "defense.1": 4, "defense.2": 6},
    )
    s = states(encounter)
    assert (s["Elwen"]["pv"], s["Elwen"]["stamina"]) == (7, 4)

    advance(client, encounter)
    assert encounter.clock == {"turn": 2, "phase": "aventuriers", "opening": False}
    assert last(encounter).title == "Fin du tour 1"
    assert not any(state["acted"] for state in states(encounter).values())

    # Turn 2: 💥 + 💥 on the Goblin's last PV (bleu 6 = ⚡⚡, no 🛡): killed, removed, 2 PX for Elwen.
    play(
        client,
        encounter,
        "aventuriers",
        {"attacker": elwen, "defender": goblin},
        {"attaque.1": 1, "attaque.2": 1, "defense.1": 6},
    )
    s = states(encounter)
    assert s["Gobelin"]["pv"] == 0
    assert (s["Gobelin"]["x"], s["Gobelin"]["y"]) == (None, None)
    assert s["Elwen"]["px"] == 2
    assert (s["Elwen"]["engaged_with"], s["Orc"]["engaged_with"]) == ("Orc", "Elwen")
    entry = last(encounter)
    assert entry.title == "Elwen contre le Gobelin\u202f: Cible tuée"
    assert "Le Gobelin est tué et retiré du plateau\u202f: Elwen gagne 2\u00a0PX (2 en tout)." in entry.story
    text = page(client, encounter)
    assert "mort — retiré du plateau" in text
    assert "retirés du plateau : le combat est gagné" not in text  # the Orc still stands


def test_undo_brings_a_killed_goblin_back_on_its_square_and_takes_its_px_back(client, encounter):
    elwen = aventurier(encounter, x=3, y=3, facing="sud", engaged_with="Gobelin")
    goblin = edit(client, encounter, monster(client, encounter, "Gobelin"), x=3, y=4, pv=1, engaged_with="Elwen")
    before = states(encounter)
    play(
        client,
        encounter,
        "aventuriers",
        {"attacker": elwen, "defender": goblin},
        {"attaque.1": 1, "attaque.2": 1, "defense.1": 6},
    )
    killed = states(encounter)
    assert (killed["Gobelin"]["pv"], killed["Elwen"]["px"]) == (0, 2)
    assert undo(client, encounter).status_code == 303
    assert states(encounter) == before
    assert redo(client, encounter).status_code == 303
    assert states(encounter) == killed


def test_a_riposte_that_kills_the_attacking_monster_gives_its_px_to_the_defender(client, encounter):
    encounter.clock = dict(SHADOWS)
    encounter.save()
    elwen = aventurier(encounter, riposte=True)
    goblin = monster(client, encounter, "Gobelin")
    # bleu 1 = 💥 against 🛡🛡 + 🛡: Riposte, 3 flash damage; the Goblin's one die, bleu 1 = 💥: 3 PV.
    play(
        client,
        encounter,
        "aventuriers",
        {"attacker": goblin, "defender": elwen},
        {"attaque.1": 1, "defense.1": 5, "defense.2": 4, "riposte.1": 1},
    )
    s = states(encounter)
    assert (s["Gobelin"]["pv"], s["Elwen"]["pv"], s["Elwen"]["px"]) == (0, 8, 2)
    assert "Le Gobelin est tué et retiré du plateau\u202f: Elwen gagne 2\u00a0PX (2 en tout)." in last(encounter).story
    assert "Tous les monstres sont retirés du plateau\u202f: le combat est gagné." in page(client, encounter)


def test_an_attaque_d_opportunite_opens_the_aventuriers_phase_and_the_first_blow_closes_it(client, encounter):
    encounter.clock = dict(SHADOWS)
    encounter.save()
    elwen = aventurier(encounter, x=3, y=3, facing="nord")
    spider = edit(
        client, encounter, monster(client, encounter, "Araignée géante"), x=3, y=2, facing="sud", opportunity=False
    )

    advance(client, encounter)
    assert encounter.clock == {"turn": 2, "phase": "aventuriers", "opening": True}
    assert (
        "L'Araignée géante, libre de tout engagement, peut porter une Attaque d'opportunité (Elwen dans sa zone "
        "d'attaque)." in last(encounter).story
    )
    text = page(client, encounter)
    assert "Tour 2 — début de la phase des Aventuriers" in text
    assert "Attaque d&#x27;opportunité possible pour l&#x27;Araignée géante." in text

    # The spider's noir 3 = 💥💥💥 and bleu 3 = 💥💥: 5 flash damage; Elwen's flash defence takes
    # 2 dice, her protection first: noir 4 = 🛡, bleu 1 = 💥 → 4 PV.
    url = open_calculator(client, encounter, "aventuriers", attacker=spider, defender=elwen)
    assert "action=debut_de_phase" in url
    dice = {"attaque.1": 3, "attaque.2": 3, "defense.1": 4, "defense.2": 1}
    play(client, encounter, "aventuriers", {"attacker": spider, "defender": elwen}, dice)
    s = states(encounter)
    assert s["Elwen"]["pv"] == 4
    assert s["Araignée géante"]["opportunity"] is False
    assert s["Araignée géante"]["acted"] is False
    assert s["Elwen"]["engaged_with"] == ""  # flash damage does not engage
    assert encounter.clock["opening"] is True

    # Elwen's own blow (bleu 4 = 🛡 twice: no damage) is the phase going on: its start is over.
    url = open_calculator(client, encounter, "aventuriers", attacker=elwen, defender=spider)
    assert "action=debut_de_phase" not in url
    play(
        client,
        encounter,
        "aventuriers",
        {"attacker": elwen, "defender": spider},
        {"attaque.1": 4, "attaque.2": 4, "defense.1": 4},
    )
    assert encounter.clock == {"turn": 2, "phase": "aventuriers", "opening": False}
    assert states(encounter)["Elwen"]["engaged_with"] == "Araignée géante"
    assert "Tour 2 — phase des Aventuriers" in page(client, encounter)


def test_shooting_another_target_ends_the_engagement_on_both_sheets(client, encounter):
    elwen = aventurier(encounter, x=3, y=3, facing="sud", engaged_with="Gobelin")
    edit(client, encounter, monster(client, encounter, "Gobelin"), x=3, y=4, facing="nord", engaged_with="Elwen")
    archer = edit(client, encounter, monster(client, encounter, "Gobelin archer"), x=3, y=8, facing="nord")
    # Elwen takes her bow on the page (her phase: free) and shoots the archer five squares south:
    # bleu 3 = 💥💥 and bleu 1 = 💥 against bleu 4 = 🛡: 2 PV.
    bow = {
        "attacker.weapon.name": "Arc court",
        "attacker.weapon.reach": "distance",
        "mode": "distance",
    }
    play(
        client,
        encounter,
        "aventuriers",
        {"attacker": elwen, "defender": archer},
        {"attaque.1": 3, "attaque.2": 1, "defense.1": 4},
        **bow,
    )
    s = states(encounter)
    assert s["Gobelin archer"]["pv"] == 1
    assert s["Elwen"]["engaged_with"] == ""
    assert s["Elwen"]["weapon"]["name"] == "Arc court"
    assert s["Elwen"]["weapon"]["reach"] == "distance"
    assert s["Gobelin archer"]["engaged_with"] == ""  # a ranged attack does not engage
    assert (
        "En attaquant une autre cible à distance ou par un sort, Elwen rompt son engagement avec le Gobelin."
        in last(encounter).story
    )
    # the Gobelin lets go at once: the exchange saw every figure present
    assert s["Gobelin"]["engaged_with"] == ""
    assert "Le Gobelin n'est plus engagé avec Elwen." in last(encounter).story
    assert "mais pas l&#x27;inverse" not in page(client, encounter)


def test_walking_away_in_the_sheet_ends_the_engagement(client, encounter):
    elwen = aventurier(encounter, x=3, y=3, facing="sud", engaged_with="Orc")
    orc = edit(client, encounter, monster(client, encounter, "Orc"), x=3, y=4, facing="nord", engaged_with="Elwen")
    assert "board.engaged_together=on" in open_calculator(
        client, encounter, "aventuriers", attacker=elwen, defender=orc
    )
    elwen = edit(client, encounter, elwen, y=1)  # two squares north: out of each other's attack zone
    assert "board.engaged_together" not in open_calculator(
        client, encounter, "aventuriers", attacker=elwen, defender=orc
    )
    advance(client, encounter)
    s = states(encounter)
    assert (s["Elwen"]["engaged_with"], s["Orc"]["engaged_with"]) == ("", "")
    assert (
        "L'engagement entre Elwen et l'Orc prend fin\u202f: aucun des deux n'est plus dans la zone d'attaque de l'autre."
        in last(encounter).story
    )


def test_the_gauges_spend_stamina_and_px_and_refuse_to_go_below_zero(client, encounter):
    elwen = aventurier(encounter, stamina=1, px=3)
    url = f"{detail_url(encounter)}combatants/{elwen.pk}/adjust/"
    for field, delta in (("stamina", "-1"), ("px", "-1"), ("px", "-1")):
        encounter.refresh_from_db()
        assert client.post(url, {"version": encounter.version, "field": field, "delta": delta}).status_code == 303
    assert (states(encounter)["Elwen"]["stamina"], states(encounter)["Elwen"]["px"]) == (0, 1)
    encounter.refresh_from_db()
    refused = client.post(url, {"version": encounter.version, "field": "stamina", "delta": "-1"})
    assert refused.status_code == 422
    assert "Stamina\u202f: doit être entre 0 et 99 (reçu \u22121)." in html.unescape(refused.content.decode())


def test_an_encounter_exported_mid_fight_imports_with_its_board_and_engagements(client, encounter):
    elwen = aventurier(encounter, x=3, y=3, facing="sud")
    goblin = edit(client, encounter, monster(client, encounter, "Gobelin"), x=3, y=4, facing="nord")
    play(
        client,
        encounter,
        "aventuriers",
        {"attacker": elwen, "defender": goblin},
        {"attaque.1": 3, "attaque.2": 2, "defense.1": 4},
    )
    exported = client.get(f"{detail_url(encounter)}export.json").content.decode()
    response = client.post("/encounters/import/", {"text": exported})
    assert response.status_code == 303
    copy = type(encounter).objects.exclude(pk=encounter.pk).get()
    assert states(copy) == states(encounter)
    assert copy.clock == encounter.clock
    assert json.loads(exported)["clock"] == {"turn": 1, "phase": "aventuriers", "opening": False}
