"""Nephilim Légende in an encounter, driven through the real pages: the seed's margin > 10 example
carried to the next round, Attaque rapide and the Défense n° that follows, a continuous burst on
three columns, Attaque étrange and Prince de la spirale, aiming rounds, ripostes, holds, undo."""

import html
import re

import pytest
from django.core.management import call_command

from bestiary.nephilim.models import Creature
from calculator.tables import row_key
from encounters.models import Combatant
from rulesets.core.french import typography as fr
from rulesets.core.schema import flatten, parse, to_data
from rulesets.nephilim.encounter import CombatantState
from rulesets.nephilim.examples import CAVALIER, D_CONTRE, D_PARER, D_PARER_TIR, EPEE, PRINCE, RAPIDE, armour
from rulesets.nephilim.model import Approach, DefenceType, Effect
from tests.encounters.helpers import (
    add,
    advance,
    apply,
    chips_of,
    detail_url,
    open_calculator,
    play,
    redo,
    resolve,
    states,
    undo,
)
from tests.factories_encounters import EncounterFactory
from tests.pages import text

pytestmark = pytest.mark.django_db

PROPER_M = {"article": "propre", "gender": "m", "elision": "auto"}  # a name typed by hand


@pytest.fixture(autouse=True)
def bestiary():
    call_command("loaddata", "fixtures/nephilim.json", verbosity=0)


@pytest.fixture
def encounter(client):
    encounter = EncounterFactory(system="nephilim", clock={"round": 1})
    client.force_login(encounter.owner)
    return encounter


def fighter(encounter, kind="pj", **state):
    """A combatant typed by hand (the seed examples' Sahar by default)."""
    data = {"name": "Sahar", "type": "nephilim", "attack_degree": 6, "defence_degree": 6, "weapon": EPEE, **state}
    data = to_data(parse(CombatantState, data))
    return Combatant.objects.create(encounter=encounter, kind=kind, name=data["name"], state=data)


def from_bestiary(client, encounter, name, kind="pnj", rename=""):
    creature = Creature.objects.get(name=name)
    response = add(client, encounter, preset=f"combatant:{row_key(creature.name)}", kind=kind, name=rename, count="1")
    assert response.status_code == 303, response.content.decode()[:2000]
    return encounter.combatants.order_by("-pk").first()


def played(client, encounter, page, roles, dice=None, **changes):
    """The helpers' ``play`` (open, resolve, apply), which must land back on the encounter."""
    response = play(client, encounter, page, roles, dice, **changes)
    assert response.status_code == 303, response.content.decode()[:2000]
    return response


def row(prefix, cls, data):
    """A whole table row (approach, defence type, effect) as page fields under ``prefix``."""
    return {f"{prefix}.{k}": v for k, v in flatten(to_data(parse(cls, data))).items()}


def visible(page):
    """The visible text of a page's HTML."""
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", page)))


def threshold_line(page, who):
    """« Sahar : jet 5 contre seuil 140 (degré 14) » of the technical frame."""
    page = visible(page)
    match = re.search(rf"{re.escape(who)} : jet \d+ contre seuil (\d+) \(degré (-?\d+)\)", page)
    assert match, f"no roll line for {who}"
    return int(match.group(1)), int(match.group(2))


def last(encounter):
    return encounter.log.order_by("-seq").first()


def test_a_creature_of_the_bestiary_joins_with_its_attack_and_its_defence(client, encounter):
    agathe = from_bestiary(client, encounter, "Sœur Agathe")
    mercenary = from_bestiary(client, encounter, "Mercenaire")
    s = states(encounter)
    assert agathe.kind == "pnj"
    assert s["Sœur Agathe"]["type"] == "selenim"  # magic-sensitive, though she attacks as an « autre PNJ »
    assert s["Sœur Agathe"]["weapon"]["name"] == "Griffes"
    assert s["Mercenaire"]["weapon"]["name"] == "Fusil d'assaut AK-47"
    assert s["Mercenaire"]["weapon"]["cadences"] == {"unique": True, "cpc": True, "raf_ctrl": True, "raf_cont": True}
    assert s["Mercenaire"]["armour"]["name"] == "Gilet pare-balles lourd"
    assert (s["Mercenaire"]["attack_degree"], s["Mercenaire"]["defence_degree"]) == (6, 5)
    page = text(client.get(detail_url(encounter)))
    assert "Selenim" in page
    assert "insensible à la magie" in page  # the Mercenaire, an ordinary human
    url = open_calculator(client, encounter, "nephilim", attacker=mercenary, defenders=agathe)
    assert "mode=tir" in url
    assert "attacker.approach.name=Tir+%28sans+vis%C3%A9e%29" in url  # no aim yet: −4
    assert "defenders.0.kind=selenim" in url
    assert "defenders.0.defence.name=Encaisser+les+dommages" in url  # §10: the default against a shot


def test_the_seeds_margin_example_carries_both_choices_to_the_next_round_then_expires(client, encounter):
    # §14 Marge > 10 (examples « marge_superieure_10 »): Vécu 15 against 14, dice 5 and 12.
    sahar = fighter(encounter, attack_degree=15)
    rival = fighter(encounter, "pnj", name="Rival", defence_degree=14)
    response = played(
        client,
        encounter,
        "nephilim",
        {"attacker": sahar, "defenders": rival},
        {"attaque.1": 5, "defense.1": 12},
        **{
            "attacker.margin_damage": 2,
            "attacker.margin_malus": 2,
            "defenders.0.margin_damage": 1,
            "defenders.0.margin_malus": 1,
        },
    )
    assert response.status_code == 303
    s = states(encounter)
    assert s["Rival"]["phys_taken"] == 2  # 1 before the choices, +2 −1 in the Résultat final
    assert s["Rival"]["defences"] == 1
    assert s["Rival"]["modifiers_next"] == [
        {"source": "Marge > 10 : −1 défense adverse", "by": "Sahar", "attack": 0, "defence": -2, "by_grammar": PROPER_M}
    ]
    assert s["Sahar"]["modifiers_next"] == [
        {"source": "Marge > 10 : −1 attaque adverse", "by": "Rival", "attack": -1, "defence": 0, "by_grammar": PROPER_M}
    ]
    assert fr("Au round suivant, Rival subira −2 en défense (Marge > 10 : −1 défense adverse, par Sahar).") in (
        last(encounter).story
    )

    advance(client, encounter)
    assert encounter.clock == {"round": 2}
    s = states(encounter)
    assert s["Rival"]["defences"] == 0
    assert s["Rival"]["modifiers_now"][0]["defence"] == -2
    assert s["Rival"]["modifiers_next"] == []
    assert s["Sahar"]["modifiers_now"][0]["attack"] == -1

    # Round 2: Sahar attacks at 15 − 1 = 14, Rival defends at 14 − 2 = 12 (Défense n°1 again).
    url = open_calculator(client, encounter, "nephilim", attacker=sahar, defenders=rival)
    assert "attacker.carried_over=-1" in url
    assert "defenders.0.carried_over=-2" in url
    assert "defenders.0.defence_number=1&" in url
    page = resolve(client, url, {"attaque.1": 50, "defense.1": 90})
    assert threshold_line(page, "Sahar") == (140, 14)
    assert threshold_line(page, "Rival") == (120, 12)

    advance(client, encounter)
    s = states(encounter)
    assert s["Rival"]["modifiers_now"] == []
    assert s["Sahar"]["modifiers_now"] == []
    assert any("Rival ne subit plus −2 en défense" in line for line in last(encounter).story)


def test_attaque_rapide_takes_two_defences_and_leaves_the_attacker_without_one(client, encounter):
    # §14 Attaque rapide (examples « attaque_rapide »): Défense n°1 succeeds, n°2 at 5 − 2 = 3 fails.
    sahar = fighter(encounter)
    sbire = fighter(encounter, "pnj", name="Sbire", defence_degree=5)
    molosse = from_bestiary(client, encounter, "Molosse de garde")
    played(
        client,
        encounter,
        "nephilim",
        {"attacker": sahar, "defenders": sbire},
        {"attaque.1": 25, "defense.1": 45, "attaque.2": 38, "defense.2": 45},
        **row("attacker.approach", Approach, RAPIDE),
        **row("defenders.0.defence", DefenceType, D_PARER),
    )
    s = states(encounter)
    assert s["Sbire"]["phys_taken"] == 3  # 1 (parried, minimum 1) + 2
    assert s["Sbire"]["defences"] == 2
    assert s["Sbire"]["defence"]["name"] == "Parer"  # remembered for its next defence
    assert s["Sahar"]["cannot_defend"] is True
    assert s["Sahar"]["attacked"] is True
    assert s["Sahar"]["approach"]["name"] == "Attaque rapide"
    assert fr("Sahar — Ne peut plus se défendre ce round : non → oui") in last(encounter).lines

    # The Sbire strikes back: Sahar cannot defend, « Encaisser (déf. impossible) », no defence die.
    url = open_calculator(client, encounter, "nephilim", attacker=sbire, defenders=sahar)
    assert "defenders.0.defence.name=Encaisser+%28d%C3%A9f.+impossible%29" in url
    page = resolve(client, url, {"attaque.1": 20})
    assert "dice.defense.1" not in page
    assert apply(client, page).status_code == 303
    assert states(encounter)["Sahar"]["defences"] == 0

    # The mastiff attacks the Sbire: its third defence of the round, 5 − 4 = 1, seuil 10.
    url = open_calculator(client, encounter, "nephilim", attacker=molosse, defenders=sbire)
    assert "defenders.0.defence_number=3&" in url
    assert "defenders.0.defence.name=Parer" in url
    page = resolve(client, url, {"attaque.1": 20, "defense.1": 9})
    assert threshold_line(page, "Sbire") == (10, 1)
    assert apply(client, page).status_code == 303
    assert states(encounter)["Sbire"]["defences"] == 3

    advance(client, encounter)
    s = states(encounter)
    assert (s["Sbire"]["defences"], s["Sahar"]["cannot_defend"], s["Sahar"]["attacked"]) == (0, False, False)
    url = open_calculator(client, encounter, "nephilim", attacker=molosse, defenders=sbire)
    assert "defenders.0.defence_number=1&" in url


def test_a_continuous_burst_wounds_each_column_with_its_own_numbers(client, encounter):
    # §14 Cadence bonus / Multi-défenseurs (examples « rafale_trois_cibles »): 5, 1 and 3 PHYS.
    mercenary = from_bestiary(client, encounter, "Mercenaire")
    Combatant.objects.filter(pk=mercenary.pk).update(state={**mercenary.state, "aiming": 1})  # Tir (visée 1r)
    vigile = fighter(
        encounter, "pj", name="Vigile", type="autre", defence_degree=5, armour=armour("Gilet pare-balles léger", 2)
    )
    initiee = fighter(encounter, "pj", name="Initiée", type="initie", defence_degree=4, shield=CAVALIER)
    nephilim = fighter(
        encounter, "pj", name="Nephilim", defence_degree=5, armour=armour("Protection militaire intégrale", 4)
    )
    url = open_calculator(client, encounter, "nephilim", attacker=mercenary, defenders=[vigile, initiee, nephilim])
    assert "cadence=cpc" in url  # the first cadence of the AK-47 that reaches several targets
    assert "attacker.approach.name=Tir+%28vis%C3%A9e+1r%29" in url
    page = resolve(
        client,
        url,
        {"attaque.1": 42, "defense.2": 30},
        cadence="raf_cont",
        **row("defenders.1.defence", DefenceType, D_PARER_TIR),
    )
    assert apply(client, page).status_code == 303
    s = states(encounter)
    assert [s[n]["phys_taken"] for n in ("Vigile", "Initiée", "Nephilim")] == [5, 1, 3]
    assert [s[n]["defences"] for n in ("Vigile", "Initiée", "Nephilim")] == [0, 1, 0]
    assert s["Mercenaire"]["aiming"] == 0  # the shot ends the aim
    assert fr("Vigile encaisse 5\u00a0PHYS ; en tout, 5\u00a0PHYS et 0\u00a0MAG.") in last(encounter).story
    assert s["Mercenaire"]["grammar"] == {"article": "defini", "gender": "m", "elision": "auto"}  # the bestiary's


def test_attaque_etrange_costs_the_target_two_on_every_action_next_round(client, encounter):
    oriel = from_bestiary(client, encounter, "Maître Oriel", kind="pj")
    loup = from_bestiary(client, encounter, "Loup gris")
    etrange = {
        "kind": "etrange",
        "name": "Attaque étrange",
        "attack_modifier": -3,
        "opponent_next_round_malus": 2,
        "elements": {"lune": True},
    }
    # Vécu 8 + Ka-Lune 6 − 3 = 11: 30 hits; the wolf fails its defence.
    played(
        client,
        encounter,
        "nephilim",
        {"attacker": oriel, "defenders": loup},
        {"attaque.1": 30, "defense.1": 90},
        **row("attacker.approach", Approach, etrange),
        **{"attacker.approach_value": 6},
    )
    s = states(encounter)
    assert s["Loup gris"]["modifiers_next"] == [
        {"source": "Attaque étrange", "by": "Maître Oriel", "attack": -2, "defence": -2, "by_grammar": PROPER_M}
    ]
    assert s["Maître Oriel"]["approach"]["name"] == "Attaque étrange"
    # the remembered approach allows Lune: the Ka-Lune is filled by itself next time
    url = open_calculator(client, encounter, "nephilim", attacker=oriel, defenders=loup)
    assert "attacker.approach_value=6" in url
    advance(client, encounter)
    url = open_calculator(client, encounter, "nephilim", attacker=loup, defenders=oriel)
    assert "attacker.carried_over=-2" in url
    url = open_calculator(client, encounter, "nephilim", attacker=oriel, defenders=loup)
    assert "defenders.0.carried_over=-2" in url
    page = client.get(detail_url(encounter)).content.decode()
    # a chip on the wolf: what it suffers, from whom, and until when
    assert chips_of(page, loup) == [
        "−2 en attaque et −2 en défense (Attaque étrange, par Maître Oriel) ce round, jusqu'à la fin du round 2"
    ]


def test_prince_de_la_spirale_costs_three_on_the_next_rounds_attack(client, encounter):
    sahar = fighter(encounter, attack_degree=8)
    rival = fighter(encounter, "pnj", name="Rival", defence_degree=5)
    prince = row("attacker.effects.0", Effect, PRINCE)
    played(
        client,
        encounter,
        "nephilim",
        {"attacker": sahar, "defenders": rival},
        {"attaque.1": 20, "defense.1": 90},
        **prince,
    )
    s = states(encounter)
    assert s["Rival"]["modifiers_next"] == [
        {"source": "Prince de la spirale", "by": "Sahar", "attack": -3, "defence": 0, "by_grammar": PROPER_M}
    ]
    advance(client, encounter)
    url = open_calculator(client, encounter, "nephilim", attacker=rival, defenders=sahar)
    assert "attacker.carried_over=-3" in url
    assert "defenders.0.carried_over=0" in url


def test_an_aim_counts_at_each_end_of_round_and_fills_the_shot(client, encounter):
    chasseur = from_bestiary(client, encounter, "Chasseur des Cévennes")
    loup = from_bestiary(client, encounter, "Loup gris")
    sahar = fighter(encounter)
    Combatant.objects.filter(pk=chasseur.pk).update(state={**chasseur.state, "aiming_at": "Loup gris"})
    advance(client, encounter)
    advance(client, encounter)
    assert states(encounter)["Chasseur des Cévennes"]["aiming"] == 2
    # both bestiary names with their article (issue 15): « le Chasseur des Cévennes », « le Loup gris »
    assert (
        fr("Le Chasseur des Cévennes garde le Loup gris en ligne de mire : 2\u00a0rounds de visée.")
        in last(encounter).story
    )
    url = open_calculator(client, encounter, "nephilim", attacker=chasseur, defenders=loup)
    assert "attacker.approach.name=Tir+%28%2B2%2C+2r%29" in url
    assert "attacker.approach.attack_modifier=2&" in url
    other = open_calculator(client, encounter, "nephilim", attacker=chasseur, defenders=sahar)
    assert "attacker.approach.attack_modifier=-4&" in other  # the aim is on the wolf, not on Sahar
    page = resolve(client, url, {"attaque.1": 40})
    assert threshold_line(page, "Chasseur des Cévennes") == (60, 4 + 2)
    assert apply(client, page).status_code == 303
    s = states(encounter)
    assert (s["Chasseur des Cévennes"]["aiming"], s["Chasseur des Cévennes"]["aiming_at"]) == (0, "")
    advance(client, encounter)
    assert states(encounter)["Chasseur des Cévennes"]["aiming"] == 0


def test_a_successful_counter_attack_leaves_a_riposte_due_that_is_proposed_then_lost(client, encounter):
    sahar = fighter(encounter)
    rival = fighter(encounter, "pnj", name="Rival", defence_degree=6, initiative_ka=1)
    played(
        client,
        encounter,
        "nephilim",
        {"attacker": sahar, "defenders": rival},
        {"attaque.1": 20, "defense.1": 30},
        **row("defenders.0.defence", DefenceType, D_CONTRE),
    )
    s = states(encounter)
    assert s["Rival"]["phys_taken"] == 0
    assert (s["Rival"]["riposte"], s["Rival"]["riposte_round"]) == ("Sahar", 1)
    page = client.get(detail_url(encounter)).content.decode()
    attacker_select = re.search(r'name="role\.attacker".*?</select>', page, re.S).group(0)
    assert re.search(rf'value="{rival.pk}"\s+selected', attacker_select)  # the riposte comes first
    assert chips_of(client.get(detail_url(encounter)).content.decode(), rival) == [
        "Riposte due contre Sahar jusqu'à la fin du round 2"
    ]
    advance(client, encounter)
    assert states(encounter)["Rival"]["riposte"] == "Sahar"  # still due in the next round
    advance(client, encounter)
    assert states(encounter)["Rival"]["riposte"] == ""
    assert fr("Rival n'a pas riposté contre Sahar : l'occasion est passée.") in last(encounter).story


def test_a_riposte_taken_clears_it_without_spending_the_round_attack(client, encounter):
    sahar = fighter(encounter)
    rival = fighter(encounter, "pnj", name="Rival", riposte="Sahar", riposte_round=1)
    played(client, encounter, "nephilim", {"attacker": rival, "defenders": sahar}, {"attaque.1": 90, "defense.1": 90})
    s = states(encounter)
    assert (s["Rival"]["riposte"], s["Rival"]["attacked"]) == ("", False)
    assert "Rival porte sa riposte contre Sahar." in last(encounter).story


def test_immobiliser_holds_and_se_liberer_frees(client, encounter):
    sahar = fighter(encounter)
    golem = fighter(encounter, "pnj", name="Golem", type="creature_magique", attack_degree=6)
    hold = {
        "kind": "immobiliser",
        "name": "Immobiliser",
        "deals_damage": False,
        "elements": {"eau": True, "terre": True},
    }
    played(
        client,
        encounter,
        "nephilim",
        {"attacker": golem, "defenders": sahar},
        {"attaque.1": 20, "defense.1": 90},
        **row("attacker.approach", Approach, hold),
    )
    assert states(encounter)["Sahar"]["held_by"] == "Golem"
    assert "immobilisé par Golem" in text(client.get(detail_url(encounter)))
    free = {
        "name": "Se libérer",
        "style": "liberation",
        "success_reduce_phys": 0,
        "success_reduce_mag": 0,
        "success_cancel": True,
        "success_no_minimum": True,
    }
    played(
        client,
        encounter,
        "nephilim",
        {"attacker": golem, "defenders": sahar},
        {"attaque.1": 20, "defense.1": 10},
        **row("defenders.0.defence", DefenceType, free),
    )
    s = states(encounter)
    assert s["Sahar"]["held_by"] == ""
    assert s["Sahar"]["defences"] == 2


def test_a_successful_flight_takes_the_combatant_out_and_ends_the_fight(client, encounter):
    sahar = fighter(encounter)
    vigile = fighter(encounter, "pnj", name="Vigile", type="autre", defence_degree=5)
    flee = {"name": "Fuir", "style": "fuite", "success_reduce_phys": 0, "success_reduce_mag": 0, "escapes": True}
    played(
        client,
        encounter,
        "nephilim",
        {"attacker": sahar, "defenders": vigile},
        {"attaque.1": 20, "defense.1": 20},
        **row("defenders.0.defence", DefenceType, flee),
    )
    assert states(encounter)["Vigile"]["escaped"] is True
    page = text(client.get(detail_url(encounter)))
    assert "s'est échappé" in page
    assert "Plus aucun PNJ ne tient tête : le combat est fini." in page


def test_undo_and_redo_bring_back_defences_modifiers_and_damage_exactly(client, encounter):
    sahar = fighter(encounter, attack_degree=15)
    rival = fighter(encounter, "pnj", name="Rival", defence_degree=14)
    before = states(encounter)
    played(
        client,
        encounter,
        "nephilim",
        {"attacker": sahar, "defenders": rival},
        {"attaque.1": 5, "defense.1": 12},
        **{"attacker.margin_malus": 4},
    )
    advance(client, encounter)
    after = states(encounter)
    assert after["Rival"]["modifiers_now"][0]["defence"] == -4
    assert undo(client, encounter).status_code == 303
    assert states(encounter)["Rival"]["modifiers_next"][0]["defence"] == -4
    assert encounter.clock == {"round": 1}
    assert undo(client, encounter).status_code == 303
    assert states(encounter) == before
    redo(client, encounter)
    redo(client, encounter)
    assert states(encounter) == after
    assert encounter.clock == {"round": 2}


def test_a_hand_edit_with_an_impossible_approach_gets_a_french_message(client, encounter):
    vigile = fighter(encounter, "pnj", name="Vigile", type="autre")
    sheet = {**flatten(vigile.state), "approach_element": "feu", "approach_value": 3}
    fields = {
        f"c{vigile.pk}-{k}": "on" if v is True else str(v) for k, v in sheet.items() if v is not None and v is not False
    }
    response = client.post(f"{detail_url(encounter)}combatants/{vigile.pk}/", {"version": encounter.version, **fields})
    assert response.status_code == 422
    assert "Seuls un Nephilim et un humain initié ont une Approche." in text(response)
    vigile.refresh_from_db()
    assert vigile.state["approach_value"] == 0
