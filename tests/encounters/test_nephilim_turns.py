"""Nephilim Légende's turn order (issue 16): by the initiative the calculator shows (seed ``002``
§1: Ka-Eau × 2, Ka-Soleil, Menace), ties in the list's order, a riposte due first, those who attacked
done, those out of the fight aside; and the encounter page's « Ordre du tour » panel."""

import html
import re
from dataclasses import replace

import pytest

from encounters.models import Combatant
from rulesets.core.encounter import Fighter, Table, Turn
from rulesets.core.french import DEFINITE_M, PROPER_F, Article, Grammar
from rulesets.core.schema import parse, to_data, unflatten
from rulesets.nephilim.encounter import RULES, Clock, CombatantState, attacker_fields, suggest
from rulesets.nephilim.engine import initiative_of
from rulesets.nephilim.model import Attacker, DefenderKind, Mode, Scenario
from rulesets.nephilim.turns import turns
from tests.encounters.helpers import detail_url
from tests.factories_encounters import EncounterFactory

NNBSP = "\u202f"


def one(key, name, kind="pj", **state):
    return Fighter(key, name, kind, CombatantState(name=name, **state))


def sahar(**state):
    """A Nephilim, Ka-Eau 4: initiative 8."""
    return one("1", "Sahar", type=DefenderKind.NEPHILIM, initiative_ka=4, **state)


def vigile(**state):
    """An ordinary human, Menace 9: initiative 9."""
    return one("2", "Vigile", "pnj", type=DefenderKind.AUTRE, initiative_ka=9, grammar=DEFINITE_M, **state)


def ysolde(**state):
    """A humain initié, Ka-Soleil 7: initiative 7."""
    return one("3", "Ysolde", type=DefenderKind.INITIE, initiative_ka=7, grammar=PROPER_F, **state)


def order(*fighters):
    return turns(tuple(fighters), Clock(round=1), Scenario())


def keys(o):
    return [t.key for t in o.turns]


def test_the_order_is_by_initiative_highest_first_with_the_calculators_words():
    o = order(sahar(), vigile(), ysolde())
    assert o.turns == (
        Turn("2", "initiative 9 (Menace ou Ka-élément)"),
        Turn("1", "initiative 8 (Ka-Eau 4 × 2)"),
        Turn("3", "initiative 7 (Ka-Soleil)"),
    )
    assert (o.now.key, o.next.key) == ("2", "1")
    assert (o.aside, o.heading, o.notes) == ((), "", ())


@pytest.mark.parametrize("kind", list(DefenderKind))
def test_the_initiative_is_the_one_the_calculator_shows(kind):
    """The state's number is the engine's « Initiative et MV » base for the attacker it fills."""
    state = CombatantState(type=kind, initiative_ka=6)
    fields = attacker_fields(state, Mode.MELEE, "", Table(scenario=Scenario()))
    scn = replace(Scenario(), attacker=parse(Attacker, unflatten(fields)))
    base, bonuses = initiative_of(scn)
    assert (base, bonuses) == (state.initiative, [])
    (turn,) = order(Fighter("1", "X", "pj", state)).turns
    assert turn.detail.startswith(f"initiative {base} (")


def test_equal_initiatives_keep_the_lists_order_and_say_so():
    a = one("1", "Sahar", type=DefenderKind.NEPHILIM, initiative_ka=4)  # 8
    b = one("2", "Vigile", "pnj", initiative_ka=8, type=DefenderKind.AUTRE, grammar=DEFINITE_M)  # 8
    c = one("3", "Ysolde", type=DefenderKind.INITIE, initiative_ka=9)  # 9
    d = one("4", "Rival", "pnj", type=DefenderKind.AUTRE, initiative_ka=8)  # 8
    o = order(a, b, c, d)
    assert keys(o) == ["3", "1", "2", "4"]
    assert o.notes == (
        f"À initiative égale (8), l'ordre de la liste des combattants départage{NNBSP}: Sahar, puis le Vigile, "
        "puis Rival.",
    )
    assert keys(order(d, c, b, a)) == ["3", "4", "2", "1"]


def test_who_attacked_this_round_is_done_and_keeps_its_place():
    o = order(sahar(), vigile(attacked=True), ysolde())
    assert keys(o) == ["2", "1", "3"]
    assert [t.done for t in o.turns] == [True, False, False]
    assert (o.now.key, o.next.key) == ("1", "3")


def test_when_everyone_attacked_no_one_acts_now():
    o = order(sahar(attacked=True), vigile(attacked=True))
    assert all(t.done for t in o.turns)
    assert (o.now, o.next) == (None, None)


def test_a_riposte_due_comes_first_and_is_not_done_even_after_the_rounds_attack():
    o = order(sahar(), vigile(), ysolde(attacked=True, riposte="Vigile", riposte_round=1))
    assert keys(o) == ["3", "2", "1"]
    assert o.turns[0] == Turn("3", f"riposte due contre le Vigile{NNBSP}; initiative 7 (Ka-Soleil)", done=False)
    assert o.now.key == "3"
    assert o.notes == (
        f"Une riposte due (Contre-attaquer réussi) passe avant les attaques du round{NNBSP}; "
        "elle ne compte pas comme l'attaque du round.",
    )


def test_several_ripostes_due_come_in_the_lists_order():
    o = order(sahar(riposte="Vigile", riposte_round=1), vigile(), ysolde(riposte="Vigile", riposte_round=1))
    assert keys(o) == ["1", "3", "2"]


def test_who_is_out_of_the_fight_has_no_turn_and_is_aside_with_why():
    o = order(
        sahar(out=True),
        vigile(),
        ysolde(escaped=True),
        one("4", "Loups", "pnj", escaped=True, grammar=Grammar(article=Article.PLURAL), initiative_ka=5),
    )
    assert keys(o) == ["2"]
    assert o.aside == (
        Turn("1", f"hors de combat{NNBSP}: pas de tour", done=True),
        Turn("3", f"s'est échappée{NNBSP}: pas de tour", done=True),
        Turn("4", f"se sont échappés{NNBSP}: pas de tour", done=True),
    )
    assert o.now.key == "2"
    assert o.next is None


def test_an_initiative_left_at_zero_is_pointed_out():
    o = order(sahar(), one("5", "Rival", "pnj"), one("6", "Garde", "pnj", grammar=DEFINITE_M))
    assert keys(o) == ["1", "5", "6"]
    assert o.notes == (
        f"À initiative égale (0), l'ordre de la liste des combattants départage{NNBSP}: Rival, puis le Garde.",
        f"Initiative 0 pour Rival et le Garde{NNBSP}: vérifiez le Ka-Eau, le Ka-Soleil ou la Menace sur leurs fiches.",
    )
    assert order(one("5", "Rival", "pnj"), sahar()).notes[-1].endswith("sur sa fiche.")


@pytest.mark.parametrize(
    "cast",
    [
        (sahar(), vigile(), ysolde()),
        (sahar(), vigile(attacked=True), ysolde()),
        (sahar(attacked=True), vigile(attacked=True), ysolde()),
        (sahar(), vigile(), ysolde(attacked=True, riposte="Vigile", riposte_round=1)),
        (sahar(out=True), vigile(escaped=True), ysolde()),
        (one("1", "A", initiative_ka=3), one("2", "B", initiative_ka=3), one("3", "C", initiative_ka=1)),
    ],
)
def test_the_one_acting_now_is_the_attacker_suggest_proposes(cast):
    assert (order(*cast).now.key,) == suggest("attacker", cast, Clock(round=1))


def test_the_rules_register_the_turn_order():
    assert RULES.turns is turns


# --- the encounter page ---------------------------------------------------------------------------


def combatant(encounter, kind, name, **state):
    data = to_data(parse(CombatantState, {"name": name, **state}))
    return Combatant.objects.create(encounter=encounter, kind=kind, name=name, state=data)


def panel(client, encounter):
    """The « Ordre du tour » panel: who acts now and next (its summary), and its visible text."""
    page = client.get(detail_url(encounter))
    assert page.status_code == 200
    match = re.search(r'<details class="panel panel-turns" id="turns">.*?</details>', page.content.decode(), re.S)
    assert match, "no « Ordre du tour » panel"
    visible = re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", match.group(0))))
    now = re.search(r'<span class="turn-now">(.*?)</span>', match.group(0), re.S).group(1).strip()
    upcoming = re.search(r'<span class="turn-next">(.*?)</span>', match.group(0), re.S).group(1).strip()
    return (html.unescape(now), html.unescape(upcoming)), visible


@pytest.mark.django_db
def test_the_encounter_page_shows_the_order_and_the_game_master_reorders_it(client):
    encounter = EncounterFactory(system="nephilim", clock={"round": 1})
    client.force_login(encounter.owner)
    sahar = combatant(encounter, "pj", "Sahar", type="nephilim", initiative_ka=4)
    combatant(encounter, "pnj", "Vigile", type="autre", initiative_ka=9)
    combatant(encounter, "pj", "Ysolde", type="initie", initiative_ka=7)

    summary, shown = panel(client, encounter)
    assert summary == (": Vigile agit", ", puis Sahar")
    assert shown.index("initiative 9 (Menace ou Ka-élément)") < shown.index("initiative 8 (Ka-Eau 4 × 2)")
    assert shown.index("initiative 8 (Ka-Eau 4 × 2)") < shown.index("initiative 7 (Ka-Soleil)")

    encounter.refresh_from_db()
    url = f"{detail_url(encounter)}turns/"
    response = client.post(url, {"version": encounter.version, "move": str(sahar.pk), "by": "-1"})
    assert response.status_code == 303
    assert panel(client, encounter)[0] == (": Sahar agit", ", puis Vigile")

    encounter.refresh_from_db()
    response = client.post(url, {"version": encounter.version, "reset": "1"})
    assert response.status_code == 303
    assert panel(client, encounter)[0] == (": Vigile agit", ", puis Sahar")
