"""Issue 16, « Fix what was found »: who strikes first in the log's title, no one offered in two
roles, no phantom « PNJ » applied, several defenders only with a weapon that reaches them, the
bestiary listed once with its « Sorte » obeyed, back to the health after « Appliquer », and the
gauges each log entry moved."""

import html
import re

import pytest
from django.core.management import call_command

from bestiary.encore.models import NPC
from bestiary.nephilim.models import Creature
from bestiary.quadrature.models import Adversary
from calculator.tables import row_key
from encounters import services
from encounters.models import Combatant
from rulesets.core.schema import parse, to_data
from rulesets.nephilim.encounter import CombatantState
from rulesets.nephilim.examples import EPEE
from tests.encounters import helpers
from tests.encounters.helpers import add, apply, detail_url, open_calculator, resolve, states
from tests.factories_encounters import EncounterFactory

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def bestiary():
    for name in ("encore", "nephilim", "quadrature"):
        call_command("loaddata", f"fixtures/{name}.json", verbosity=0)


def encounter_of(client, system, clock):
    encounter = EncounterFactory(system=system, clock=clock)
    client.force_login(encounter.owner)
    return encounter


def visible(page):
    """The visible text of an HTML page, ASCII white space folded (narrow no-break spaces kept)."""
    return re.sub(r"[ \t\r\n]+", " ", html.unescape(re.sub(r"<[^>]+>", " ", page))).strip()


def last(encounter):
    return encounter.log.order_by("-seq").first()


def select_options(page, name):
    """The options of the select ``name``: (value, label), grouped labels flattened."""
    match = re.search(rf'<select name="{re.escape(name)}".*?</select>', page, re.S)
    assert match, f"no select {name}"
    return [
        (v, visible(label).strip())
        for v, label in re.findall(r'<option value="([^"]*)"[^>]*>(.*?)</option>', match[0], re.S)
    ]


# --- Quadrature: the PC's attack is told as the PC's, the wolf is no ally of itself ------------------


ALDRIC = {"name": "Aldric", "garde": 12, "attack": 10, "endurance": 1, "endurance_tokens": 1, "stability": 1}


def test_a_pcs_attack_on_the_wolf_is_logged_as_the_pcs(client):
    encounter = encounter_of(client, "quadrature", {"round": 1})
    aldric = Combatant.objects.create(encounter=encounter, kind="pj", name="Aldric", state=ALDRIC)
    wolf = Adversary.objects.get(name="Loup des cendres")
    assert add(client, encounter, preset=f"creature:{row_key(wolf.name)}", count="1").status_code == 303
    wolf = encounter.combatants.get(name="Loup des cendres")
    roles = {"adversary": wolf, "pc": aldric}
    strike = {"mode": "pc_attack", "target_part": 3, "pc.score": 14, "pc_success.light": 3}
    assert helpers.play(client, encounter, "quadrature", roles, **strike).status_code == 303
    assert last(encounter).title.startswith("Aldric contre le Loup des cendres\u202f:")
    # the wolf's own attack still names the wolf first
    assert helpers.play(client, encounter, "quadrature", roles, {"adv.1": 5, "adv.2": 4}, card=2).status_code == 303
    assert last(encounter).title.startswith("Le Loup des cendres contre Aldric\u202f:")


def test_the_adversary_is_not_offered_as_its_own_ally(client):
    encounter = encounter_of(client, "quadrature", {"round": 1})
    for _ in range(2):
        assert add(client, encounter, preset=f"creature:{row_key('Loup des cendres')}", count="1").status_code == 303
    first, second = encounter.combatants.order_by("pk")
    page = client.get(detail_url(encounter)).content.decode()
    ally = re.search(rf'<input type="checkbox"\s+name="role.allies"\s+value="{first.pk}"[^>]*>', page).group(0)
    assert "disabled" in ally  # the suggested adversary: taken, and said so beside it
    assert "(adversaire)" in visible(page[page.index(ally) : page.index("</label>", page.index(ally))])
    other = re.search(rf'<input type="checkbox"\s+name="role.allies"\s+value="{second.pk}"[^>]*>', page).group(0)
    assert "disabled" not in other
    # the server refuses it anyway, with its French message on the role
    response = client.get(
        f"{detail_url(encounter)}act/", {"page": "quadrature", "role.adversary": first.pk, "role.allies": first.pk}
    )
    assert response.status_code == 422
    assert "ne peut tenir deux rôles dans le même échange" in visible(response.content.decode())


# --- enCORE: no phantom « PNJ » ------------------------------------------------------------------------


ALINE = {"name": "Aline", "attribute": 3, "weapon": 2, "sante": 8, "sante_max": 8, "stress": 0, "acted": False}


def test_a_pc_with_no_target_acts_outside_the_conflict_and_no_default_npc_strikes(client):
    encounter = encounter_of(client, "encore", {"turn": 1})
    aline = Combatant.objects.create(encounter=encounter, kind="pj", name="Aline", state=ALINE)
    add(client, encounter, preset=f"npc:{row_key(NPC.objects.get(name='Arbalétrier').name)}", count="1")
    url = open_calculator(client, encounter, "encore", pc=aline)  # the pre-ticked NPC unticked
    assert "action=hors_conflit" in url
    assert "strike.enabled" not in url  # unticked: no NPC of the page's defaults strikes in the breach
    npc = encounter.combatants.get(name="Arbalétrier")
    assert "strike.enabled=" in open_calculator(client, encounter, "encore", pc=aline, npcs=[npc])
    page = resolve(client, url, {"pc.1": 1, "pc.2": 1, "pc.3": 1})  # a failure: no NPC strikes in the breach
    assert apply(client, page).status_code == 303
    s = states(encounter)
    assert (s["Aline"]["sante"], s["Aline"]["acted"]) == (8, True)
    assert s["Arbalétrier"]["sante"] == NPC.objects.get(name="Arbalétrier").sante
    assert "PNJ" not in last(encounter).title


def test_a_result_against_a_npc_absent_from_the_encounter_is_refused_and_not_logged(client):
    encounter = encounter_of(client, "encore", {"turn": 1})
    aline = Combatant.objects.create(encounter=encounter, kind="pj", name="Aline", state=ALINE)
    url = open_calculator(client, encounter, "encore", pc=aline)
    # the game master turns it into an attack in the calculator: against the page's default « PNJ »
    page = resolve(client, url, {"pc.1": 6, "pc.2": 6, "pc.3": 6}, action="attaque")
    entries = encounter.log.count()
    response = apply(client, page)
    assert response.status_code == 400
    said = visible(response.content.decode())
    assert (
        "absent de la rencontre\u202f: cochez le PNJ dans «\u202fPNJ visés\u202f», puis rouvrez le calculateur" in said
    )
    assert "Revenir au résultat" in said
    assert encounter.log.count() == entries
    assert states(encounter)["Aline"]["acted"] is False


# --- Nephilim: several defenders only with a weapon that reaches several --------------------------------


def nephilim_fighter(encounter, kind="pj", **state):
    data = {"name": "Sahar", "type": "nephilim", "attack_degree": 6, "defence_degree": 6, "weapon": EPEE, **state}
    data = to_data(parse(CombatantState, data))
    return Combatant.objects.create(encounter=encounter, kind=kind, name=data["name"], state=data)


def test_two_defenders_for_a_sword_are_refused_on_the_encounter_page(client):
    encounter = encounter_of(client, "nephilim", {"round": 1})
    sahar = nephilim_fighter(encounter)
    a, b = (nephilim_fighter(encounter, "pnj", name=n) for n in ("Sbire", "Vigile"))
    response = client.get(
        f"{detail_url(encounter)}act/", {"page": "nephilim", "role.attacker": sahar.pk, "role.defenders": [a.pk, b.pk]}
    )
    assert response.status_code == 422
    page = response.content.decode()
    said = visible(page)
    assert (
        "Défenseurs\u202f: l'arme «\u202fÉpée/hache\u202f» ne vise qu'un défenseur (ni coup par coup ni rafale)" in said
    )
    # the choice comes back as it was
    for pk in (a.pk, b.pk):
        assert re.search(rf'name="role.defenders"\s+value="{pk}"\s+checked', page)
    # one defender opens the calculator
    assert open_calculator(client, encounter, "nephilim", attacker=sahar, defenders=[a])


def test_two_defenders_for_a_burst_weapon_open_the_calculator(client):
    encounter = encounter_of(client, "nephilim", {"round": 1})
    creature = Creature.objects.get(name="Mercenaire")
    assert add(client, encounter, preset=f"combatant:{row_key(creature.name)}", count="1").status_code == 303
    mercenary = encounter.combatants.get(name="Mercenaire")
    a, b = (nephilim_fighter(encounter, "pj", name=n) for n in ("Vigile", "Initiée"))
    assert "cadence=cpc" in open_calculator(client, encounter, "nephilim", attacker=mercenary, defenders=[a, b])


def test_the_attacker_is_offered_as_taken_among_the_defenders(client):
    encounter = encounter_of(client, "nephilim", {"round": 1})
    sahar = nephilim_fighter(encounter, initiative_ka=9)
    nephilim_fighter(encounter, "pnj", name="Sbire")
    page = client.get(detail_url(encounter)).content.decode()
    box = re.search(rf'<input type="checkbox"\s+name="role.defenders"\s+value="{sahar.pk}"[^>]*>', page).group(0)
    assert "disabled" in box
    assert "(attaquant)" in visible(page[page.index(box) : page.index("</label>", page.index(box))])


# --- the bestiary, listed once, and « Sorte » obeyed ------------------------------------------------------


def test_the_bestiary_lists_each_creature_once_and_sorte_decides_pj_or_pnj(client):
    encounter = encounter_of(client, "nephilim", {"round": 1})
    page = client.get(detail_url(encounter)).content.decode()
    labels = [label for value, label in select_options(page, "preset") if value]
    assert len(labels) == len(set(labels)) == Creature.objects.count()
    kinds = select_options(page, "kind")
    assert kinds[0] == ("", "— selon le bestiaire —")
    assert "«\u202fSelon le bestiaire\u202f»\u202f: PNJ\u202f; à la main, choisissez la sorte." in visible(page)
    key = f"combatant:{row_key('Mercenaire')}"
    assert add(client, encounter, preset=key, count="1").status_code == 303
    assert add(client, encounter, preset=key, kind="pj", name="Mercenaire joueur", count="1").status_code == 303
    kinds_of = dict(encounter.combatants.values_list("name", "kind"))
    assert kinds_of == {"Mercenaire": "pnj", "Mercenaire joueur": "pj"}


def test_a_sorte_the_entry_cannot_make_is_refused_on_the_field_with_the_form_filled(client):
    encounter = encounter_of(client, "quadrature", {"round": 1})
    key = f"creature:{row_key('Loup des cendres')}"
    response = add(client, encounter, preset=key, kind="pj", name="Croc", count="2")
    assert response.status_code == 422
    page = response.content.decode()
    said = visible(page)
    assert (
        "Sorte\u202f: «\u202fLoup des cendres — Novice\u202f» du bestiaire est de sorte Adversaire\u202f; "
        "choisissez-la, ou «\u202fselon le bestiaire\u202f»." in said
    )
    assert re.search(rf'<option value="{re.escape(key)}"\s+selected', page)
    assert 'value="Croc"' in page
    assert not encounter.combatants.exists()
    # left to the bestiary: an adversary
    assert add(client, encounter, preset=key, count="1").status_code == 303
    assert encounter.combatants.get().kind == "adversaire"


def test_a_combatant_typed_in_needs_its_sorte(client):
    encounter = encounter_of(client, "encore", {"turn": 1})
    response = add(client, encounter, name="Bruno", count="1")
    assert response.status_code == 422
    assert "Sorte\u202f: choisissez-la pour un combattant saisi à la main." in visible(response.content.decode())
    assert add(client, encounter, kind="pj", name="Bruno", count="1").status_code == 303
    assert encounter.combatants.get().kind == "pj"


def test_a_one_kind_system_needs_no_sorte(client):
    encounter = encounter_of(client, "feerie", {})
    assert add(client, encounter, name="Lutin", count="1").status_code == 303
    assert encounter.combatants.get().kind == "feerique"


# --- after « Appliquer »: the health, and what each entry moved -------------------------------------------


def test_apply_lands_on_the_card_it_changed_and_the_log_shows_the_health_before_and_after(client):
    encounter = encounter_of(client, "encore", {"turn": 1})
    aline = Combatant.objects.create(encounter=encounter, kind="pj", name="Aline", state=ALINE)
    add(client, encounter, preset=f"npc:{row_key('Arbalétrier')}", count="1")
    npc = encounter.combatants.get(name="Arbalétrier")
    url = open_calculator(client, encounter, "encore", pc=aline, npcs=[npc])
    response = apply(client, resolve(client, url, {"pc.1": 6, "pc.2": 6, "pc.3": 6}))
    assert response.status_code == 303
    changed = [c["combatant"] for c in last(encounter).changes]
    assert response["Location"].endswith(f"#c{changed[0]}")
    gauges = last(encounter).detail["gauges"]
    before = NPC.objects.get(name="Arbalétrier").sante
    after = states(encounter)["Arbalétrier"]["sante"]
    assert after < before
    assert {"name": "Arbalétrier", "label": "Santé", "before": before, "after": after} in [
        {k: g[k] for k in ("name", "label", "before", "after")} for g in gauges
    ]
    page = visible(client.get(detail_url(encounter)).content.decode())
    assert f"Arbalétrier · Santé {before} → {after} / {before}" in page


def test_an_entry_logged_without_its_gauges_gets_them_from_its_changes(client):
    encounter = encounter_of(client, "encore", {"turn": 1})
    aline = Combatant.objects.create(encounter=encounter, kind="pj", name="Aline", state=ALINE)
    encounter.refresh_from_db()
    client.post(
        f"{detail_url(encounter)}combatants/{aline.pk}/adjust/",
        {"version": encounter.version, "field": "sante", "delta": "-1"},
    )
    entry = last(encounter)
    assert [(g["before"], g["after"]) for g in entry.detail["gauges"]] == [(8, 7)]
    entry.detail = {"gauges": [{"name": 3}]}  # an old or malformed entry
    entry.save()
    assert [
        (g["label"], g["before"], g["after"]) for g in services.entry_gauges(services.rules_for(encounter), entry)
    ] == [("Santé", 8, 7)]


def test_agir_proposes_who_the_turn_order_says_acts_now_the_game_masters_order_included(client):
    encounter = encounter_of(client, "nephilim", {"round": 1})
    sahar = nephilim_fighter(encounter, initiative_ka=4)
    sbire = nephilim_fighter(encounter, "pnj", name="Sbire", initiative_ka=5)

    def proposed():
        page = client.get(detail_url(encounter)).content.decode()
        attacker = re.search(r'<select name="role.attacker".*?</select>', page, re.S)[0]
        chosen = re.search(r'<option value="(\d+)"\s+selected', attacker)[1]
        defenders = re.findall(r'name="role.defenders"\s+value="(\d+)"\s+checked', page)
        return int(chosen), [int(d) for d in defenders]

    assert proposed() == (sbire.pk, [sahar.pk])  # the quicker acts, against the other side
    encounter.refresh_from_db()
    moved = client.post(f"{detail_url(encounter)}turns/", {"version": encounter.version, "move": sahar.pk, "by": "-1"})
    assert moved.status_code == 303
    assert proposed() == (sahar.pk, [sbire.pk])  # Sahar moved first: she attacks, the Sbire defends
