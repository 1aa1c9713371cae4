"""Contes de Fées: the turn order of an Action (issue 16), the Action sequence engine's countdown.

Seed 004, « La séquence d'une Action », 3) « Décompte des rangs d'Initiative » (highest rank first,
the priorities on an equal rank, an Initiative ≤ 0 cannot act, rank 1 is the last) and « Options de
combat » (anticipation, extra activities 8 ranks apart, the previous Action's carried malus).
"""

import html
import re

import pytest

from encounters.models import Combatant
from rulesets.core.dice import DiceRoll
from rulesets.core.encounter import Fighter
from rulesets.core.schema import parse, unflatten
from rulesets.feerie.action import ActionScenario, resolve
from rulesets.feerie.encounter import RULES, Clock, Declaration, FeeriqueState, fill_action
from rulesets.feerie.model import Attribute, AttributeKind, Tactic
from rulesets.feerie.turns import turns
from tests.factories_encounters import EncounterFactory

N = "\u202f"  # the narrow no-break space before « : ; ! ? »
M = "\u2212"  # the minus sign

ATTACK = Declaration(label="frappe", targets="Ogre")


def fighter(key: str, **state) -> Fighter:
    state.setdefault("name", key)
    return Fighter(key, state["name"], "feerique", FeeriqueState(**state))


def order(*fighters: Fighter, action: int = 1):
    return turns(tuple(fighters), Clock(action=action), None)


def keys(o) -> list[str]:
    return [t.key for t in o.turns]


def details(o) -> dict[str, str]:
    return {t.key: t.detail for t in o.turns}


# --- the countdown -------------------------------------------------------------------------------


def test_the_highest_initiative_acts_first_and_the_heading_is_the_action():
    o = order(
        fighter("Rübezahl", vigilance=20, initiative=15),
        fighter("Serpent", vigilance=17, initiative=17),
        fighter("Lutin", vigilance=12, initiative=9),
        action=3,
    )
    assert keys(o) == ["Serpent", "Rübezahl", "Lutin"]
    assert details(o) == {"Serpent": "rang 17", "Rübezahl": "rang 15", "Lutin": "rang 9"}
    assert o.heading == "Action 3"
    assert (o.now.key, o.next.key) == ("Serpent", "Rübezahl")


def test_the_previous_actions_carried_malus_is_shown_in_the_rank():
    """The stored Initiative is the roll with the malus in it: 17 before the −4, rank 13."""
    o = order(fighter("Redcap", vigilance=17, initiative=13, carried_malus=-4), fighter("Moi", initiative=14))
    assert keys(o) == ["Moi", "Redcap"]
    assert details(o)["Redcap"] == f"rang 13 (17 {M} 4 de l'Action précédente)"


def test_an_equal_rank_goes_to_the_best_vigilance():
    o = order(fighter("Serpent", vigilance=17, initiative=17), fighter("Rübezahl", vigilance=20, initiative=17))
    assert keys(o) == ["Rübezahl", "Serpent"]
    assert details(o) == {
        "Rübezahl": f"rang 17, priorité{N}: Vigilance 20",
        "Serpent": f"rang 17, priorité{N}: Vigilance 17",
    }


def test_then_to_the_best_affinites():
    flair = (Attribute(name="flair", kind=AttributeKind.AFFINITE, value=3, attack=True),)
    o = order(fighter("A", vigilance=15, initiative=16), fighter("B", vigilance=15, initiative=16, attributes=flair))
    assert keys(o) == ["B", "A"]
    assert details(o)["B"] == f"rang 16, priorité{N}: Affinités 3"


def test_then_to_the_best_tactic_modifier():
    hache = (Attribute(name="hache", kind=AttributeKind.AFFINITE, value=4, attack=True),)
    o = order(
        fighter("Calme", vigilance=15, initiative=16, attributes=hache),
        fighter("Vif", vigilance=15, initiative=16, attributes=hache, tactic=Tactic(initiative=2, attack=-2)),
    )
    assert keys(o) == ["Vif", "Calme"]
    assert details(o)["Vif"] == f"rang 16, priorité{N}: tactique +2"


def test_then_to_the_best_roll():
    """Both at rank 17 with Vigilance 17: the one carrying −4 rolled 4 better to get there."""
    o = order(fighter("A", vigilance=17, initiative=17), fighter("B", vigilance=17, initiative=17, carried_malus=-4))
    assert keys(o) == ["B", "A"]
    assert details(o)["B"] == f"rang 17 (21 {M} 4 de l'Action précédente), priorité{N}: jet +4"
    assert details(o)["A"] == f"rang 17, priorité{N}: jet +0"


def test_all_equal_is_simultaneous_in_the_order_given():
    o = order(fighter("A", vigilance=17, initiative=17), fighter("B", vigilance=17, initiative=17))
    assert keys(o) == ["A", "B"]
    assert details(o) == {"A": "rang 17, simultanément", "B": "rang 17, simultanément"}


def test_the_order_is_the_engines_resolution_order():
    """Through the Action page's own fields and :func:`action.resolve`: the same first activities."""
    flair = (Attribute(name="flair", kind=AttributeKind.AFFINITE, value=2, attack=True),)
    act = (Declaration(label="fuit", other=True),)
    fs = (
        fighter("A", vigilance=15, initiative=16, declarations=act),
        fighter("B", vigilance=15, initiative=16, attributes=flair, declarations=act),
        fighter("C", vigilance=20, initiative=16, declarations=act),
        fighter("D", vigilance=10, initiative=19, declarations=act),
        fighter("E", vigilance=15, initiative=12, carried_malus=-4, declarations=act),
    )
    s = parse(ActionScenario, unflatten(fill_action({"fighters": fs}, Clock())))
    result = resolve(s, DiceRoll({}))
    engine = [fs[s.activities[int(j)].actor].key for j in str(result.numbers["order"]).split(",")]
    assert keys(order(*fs)) == engine == ["D", "C", "B", "A", "E"]


# --- anticipation and extra activities ------------------------------------------------------------------


def test_extra_activities_come_8_ranks_apart_in_the_detail_of_one_turn():
    """« Chaque nouvelle activité se résout normalement 8 rangs d'Initiative après l'activité
    précédente »: 17, then 9 and 1; one turn per combatant (the page keys a turn by combatant)."""
    o = order(fighter("Redcap", initiative=17, declarations=(ATTACK, ATTACK, ATTACK)), fighter("Moi", initiative=12))
    assert keys(o) == ["Redcap", "Moi"]
    assert details(o)["Redcap"] == "rang 17, puis rangs 9 et 1 (activités supplémentaires)"
    assert any("ne fait pas de second tour" in n for n in o.notes)
    one = order(fighter("Redcap", initiative=17, declarations=(ATTACK, ATTACK)))
    assert details(one)["Redcap"] == "rang 17, puis rang 9 (activité supplémentaire)"


def test_an_extra_activity_after_rank_1_must_be_anticipated():
    """« Le rang 1 est le dernier auquel on peut agir »: 5 − 8 has no rank without anticipating."""
    o = order(fighter("Lent", initiative=5, declarations=(ATTACK, ATTACK)))
    assert details(o)["Lent"] == "rang 5, puis une activité supplémentaire à anticiper (le rang 1 est le dernier)"
    two = order(fighter("Lent", initiative=10, declarations=(ATTACK, ATTACK, ATTACK, ATTACK)))
    assert details(two)["Lent"] == (
        "rang 10, puis rang 2 (activité supplémentaire), "
        "puis 2\u00a0activités supplémentaires à anticiper (le rang 1 est le dernier)"
    )


def test_the_anticipation_note_names_the_highest_initiative():
    """« Aucune activité ne peut avoir lieu à un rang d'Initiative supérieur à celui du plus haut
    jet »; −1 per rank anticipated; the first to act cannot anticipate."""
    o = order(fighter("Rübezahl", vigilance=20, initiative=15), fighter("Serpent", vigilance=17, initiative=17))
    note = next(n for n in o.notes if n.startswith("Anticiper"))
    assert f"{M}1 par rang à l'activité et à la Défense" in note
    assert "personne n'agit avant le rang 17, le plus haut jet" in note
    alone = order(fighter("Seul", initiative=12))
    assert not any(n.startswith("Anticiper") for n in alone.notes)


# --- who has no turn, who is still to roll, who has acted ---------------------------------------------


def test_an_initiative_of_zero_or_less_cannot_act_this_action():
    o = order(
        fighter("Nain", vigilance=2, initiative=-2, carried_malus=-4),
        fighter("Zéro", initiative=0),
        fighter("Moi", initiative=8),
    )
    assert keys(o) == ["Moi"]
    assert [(t.key, t.detail) for t in o.aside] == [
        ("Nain", f"Initiative {M}2 (2 {M} 4 de l'Action précédente){N}: ne peut agir pendant cette Action"),
        ("Zéro", f"Initiative 0{N}: ne peut agir pendant cette Action"),
    ]


def test_out_of_the_fight_has_no_turn():
    o = order(fighter("Mort", essence=0, initiative=20), fighter("Moi", initiative=8))
    assert keys(o) == ["Moi"]
    assert [(t.key, t.detail) for t in o.aside] == [("Mort", "hors de combat, sans Essence")]


def test_initiatives_still_to_roll_come_after_by_their_initiative_before_the_dice():
    o = order(
        fighter("Lent", vigilance=8),
        fighter("Las", vigilance=17, carried_malus=-4, declarations=(ATTACK, ATTACK)),
        fighter("Vif", vigilance=15),
        fighter("Tiré", vigilance=5, initiative=3),
    )
    assert keys(o) == ["Tiré", "Vif", "Las", "Lent"]
    assert details(o) == {
        "Tiré": "rang 3",
        "Vif": f"Initiative à tirer{N}: 15 + dés",
        "Las": f"Initiative à tirer{N}: 13 + dés (17 {M} 4 de l'Action précédente), "
        "puis une activité supplémentaire 8 rangs après",
        "Lent": f"Initiative à tirer{N}: 8 + dés",
    }
    assert any("après ceux qui ont la leur" in n for n in o.notes)


def test_nobody_is_done_the_action_is_played_whole():
    o = order(fighter("A", initiative=12), fighter("B", initiative=8), action=2)
    assert not any(t.done for t in o.turns)
    assert o.now.key == "A"
    assert f"{N}»" in next(n for n in o.notes if n.startswith("Qui a déjà agi"))
    assert "Fin de l'Action 2" in next(n for n in o.notes if n.startswith("Qui a déjà agi"))


def test_registered_on_the_encounter_rules():
    assert RULES.turns is turns


# --- the encounter page -------------------------------------------------------------------------------------


def typed(encounter, name, **state):
    """A Féerique typed in by the game master, its Initiative of this Action already known."""
    data = {"name": name, "vigilance": 14, "habilete": 14, "puissance": 10, "resistance": 10, "essence": 20}
    data.update(state)
    data.setdefault("essence_max", data["essence"])
    return Combatant.objects.create(encounter=encounter, kind="feerique", name=name, state=data)


def _panel(client, encounter) -> str:
    page = client.get(f"/encounters/{encounter.pk}/").content.decode()
    match = re.search(r'<details class="panel panel-turns" id="turns">(.*?)</details>', page, re.S)
    assert match, "no #turns panel"
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", match.group(1))))


@pytest.mark.django_db
def test_the_page_shows_the_countdown_and_the_game_master_reorders_it(client):
    encounter = EncounterFactory(system="feerie", clock={"action": 2})
    client.force_login(encounter.owner)
    rubezahl = typed(encounter, "Rübezahl", vigilance=20, initiative=15)
    typed(encounter, "Serpent", vigilance=17, initiative=17, carried_malus=-4)
    panel = _panel(client, encounter)
    assert "Serpent agit" in panel
    assert "puis Rübezahl" in panel
    assert "Action 2" in panel
    assert f"rang 17 (21 {M} 4 de l'Action précédente)" in panel

    encounter.refresh_from_db()
    response = client.post(
        f"/encounters/{encounter.pk}/turns/", {"version": encounter.version, "move": str(rubezahl.pk), "by": "-1"}
    )
    assert response.status_code == 303
    panel = _panel(client, encounter)
    assert "Rübezahl agit" in panel
    assert "puis Serpent" in panel

    encounter.refresh_from_db()
    response = client.post(f"/encounters/{encounter.pk}/turns/", {"version": encounter.version, "reset": "1"})
    assert response.status_code == 303
    panel = _panel(client, encounter)
    assert "Serpent agit" in panel
    assert "puis Rübezahl" in panel
