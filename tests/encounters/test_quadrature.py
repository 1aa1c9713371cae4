"""Quadrature in an encounter, through the pages: a bestiary creature and a PC over two rounds (cards
that spend ⚫, a part destroyed, bleeding at the end of the round, a plate that cracks), undo and
redo of whole sheets, a horde losing members, the gauges' buttons, the Aura de terreur, export and
re-import."""

import html
import re

import pytest
from django.core.management import call_command

from bestiary.quadrature.models import Adversary
from calculator.tables import row_key
from encounters.models import Combatant, Encounter
from tests.encounters import helpers
from tests.encounters.helpers import add, advance, detail_url, open_calculator, redo, states, undo
from tests.factories_encounters import EncounterFactory

pytestmark = pytest.mark.django_db

ALDRIC = {
    "name": "Aldric",
    "garde": 12,
    "attack": 10,
    "endurance": 1,
    "endurance_tokens": 1,
    "stability": 1,
    "stability_tokens": 1,
}


@pytest.fixture(autouse=True)
def bestiary():
    call_command("loaddata", "fixtures/quadrature.json", verbosity=0)


@pytest.fixture
def encounter(client):
    encounter = EncounterFactory(system="quadrature", clock={"round": 1})
    client.force_login(encounter.owner)
    return encounter


def visible(page):
    """The visible text of an HTML page, white space folded."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())


def play(client, encounter, roles, dice=None, **changes):
    """The shared helper on the Quadrature page: open, resolve with typed dice, apply (303)."""
    response = helpers.play(client, encounter, "quadrature", roles, dice, **changes)
    assert response.status_code == 303, response.content.decode()[:3000]
    return response


def pc(encounter, **state):
    data = {**ALDRIC, **state}
    return Combatant.objects.create(encounter=encounter, kind="pj", name=data["name"], state=data)


def from_bestiary(client, encounter, name, count="1"):
    preset = Adversary.objects.get(name=name)
    response = add(client, encounter, preset=f"creature:{row_key(preset.name)}", count=count)
    assert response.status_code == 303, response.content.decode()[:2000]
    return encounter.combatants.order_by("-pk").first()


def adv(*faces):
    return {f"adv.{i}": v for i, v in enumerate(faces, start=1)}


def strike(part, score, **effect):
    """A PC's attack on ``part`` (typed score) with the ✅ effects ``effect``."""
    return {
        "mode": "pc_attack",
        "target_part": part,
        "pc.score": score,
        **{f"pc_success.{k}": effect.get(k, 0) for k in ("light", "heavy", "fatigue", "bleed", "up", "down")},
    }


def ticks(state):
    return [b["ticked"] for b in state["blocks"]]


def last(encounter):
    return encounter.log.order_by("-seq").first()


def card_text(client, encounter, combatant):
    page = client.get(detail_url(encounter)).content.decode()
    start = page.index(f'id="c{combatant.pk}"')
    return visible(page[start : page.index("</article>", start)])


def test_the_bestiary_wolf_and_aldric_fight_two_rounds_through_the_pages(client, encounter):
    aldric = pc(encounter)
    wolf = from_bestiary(client, encounter, "Loup des cendres")
    s = states(encounter)["Loup des cendres"]
    assert (s["endurance_tokens"], s["stability_tokens"], s["ap_left"], s["mental"]) == (2, 1, None, "agressif")
    assert [p["name"] for p in s["parts"]] == ["Tête", "Corps", "Mâchoires", "Pattes"]
    roles = {"adversary": wolf, "pc": aldric}

    # Round 1. Frappe vive, Agressif ⬆ (⬜⬜⬜⬜): 5 + 4 + 3 + 1 = 13 ≥ Garde 12, one 5: 💢💢💢 and ⭐ 🔻.
    play(client, encounter, roles, adv(5, 4, 3, 1), card=2)
    s = states(encounter)
    assert (s["Aldric"]["light"], s["Aldric"]["stability_tokens"], s["Aldric"]["mental"]) == (3, 0, 0)
    assert (s["Loup des cendres"]["ap_left"], s["Loup des cendres"]["engaged"]) == (1, "Aldric")
    entry = last(encounter)
    assert entry.title == "Le Loup des cendres contre Aldric\u202f: ✅ Réussite + ⭐"
    assert "Aldric — Blessures légères 💢 reçues\u202f: 0 → 3" in entry.lines
    assert "Loup des cendres — Points d'action ⚫ restants cette manche\u202f: — → 1" in entry.lines
    assert (
        "Le Loup des cendres joue «\u202fFrappe vive\u202f»\u202f: 1 ⚫, il lui en reste 1 cette manche." in entry.story
    )

    # Aldric strikes the Mâchoires (no armour): 14 ≥ 10, 💢💢💢 tick the only block, 🩸 1. Morsure is gone.
    play(client, encounter, roles, **strike(3, 14, light=3, bleed=1))
    s = states(encounter)["Loup des cendres"]
    assert ticks(s) == [0, 0, 3, 0]
    assert s["bleeding"] == 1
    assert states(encounter)["Aldric"]["attack"] == 14
    assert "Loup des cendres — Blocs de cases (dans l'ordre de la fiche) n° 3 · Cases cochées\u202f: 0 → 3" in (
        last(encounter).lines
    )
    url = open_calculator(client, encounter, "quadrature", adversary=wolf, pc=aldric)
    assert "card=1" in url  # Harcèlement: the first card it can still pay
    assert "adversary.action_points=1" in url

    # Harcèlement: 0 + 1 + 2 + 2 = 5 < 12: ❌ 💧; Aldric's 🫁 cannot take it (at least one box).
    play(client, encounter, roles, adv(0, 1, 2, 2), card=1)
    s = states(encounter)
    assert (s["Aldric"]["fatigue_ticked"], s["Aldric"]["endurance_tokens"]) == (1, 1)
    assert s["Loup des cendres"]["ap_left"] == 0
    assert "mode=pc_attack" in open_calculator(client, encounter, "quadrature", adversary=wolf, pc=aldric)

    # End of round 1: 🩸 1 ticks the most damaged intact block (ties: fewest boxes, then sheet order:
    # the Tête), the wound closes one notch; round 2 brings back 🫁 2, ◇ 1 and ⚫ 2; Aldric's ◇ too.
    advance(client, encounter)
    assert encounter.clock["round"] == 2
    s = states(encounter)
    assert ticks(s["Loup des cendres"]) == [1, 0, 3, 0]
    assert (s["Loup des cendres"]["bleeding"], s["Loup des cendres"]["ap_left"]) == (0, None)
    assert s["Aldric"]["stability_tokens"] == 1
    entry = last(encounter)
    assert entry.title == "Fin de la manche 1"
    assert entry.story[0] == "Fin de la manche 1\u202f: la manche 2 commence."
    assert "Le Loup des cendres reprend son souffle\u202f: ⚫ 2 · 🫁 2 · ◇ 1." in entry.story

    # Round 2. 💔 + 💢💢 on the Corps (🛡️ 1): the plate gives, the 💢💢 pass unreduced.
    play(client, encounter, roles, **strike(2, 15, heavy=1, light=2))
    s = states(encounter)["Loup des cendres"]
    assert (s["parts"][1]["armour_lost"], ticks(s)) == (1, [1, 2, 3, 0])
    # Frappe vive misses: 2 + 2 + 1 + 0 = 5 < 12, ❌ 💢.
    play(client, encounter, roles, adv(2, 2, 1, 0), card=2)
    assert states(encounter)["Aldric"]["light"] == 4
    card = card_text(client, encounter, wolf)
    assert "Cases ▢ (3/4 blocs intacts) 7/13" in card
    assert "Points d'action ⚫ cette manche 1/2" in card
    assert "Deck : Harcèlement 1 ⚫, Frappe vive 1 ⚫" in card

    # Undo the miss, redo it: whole states come back exactly.
    undo(client, encounter)
    s = states(encounter)
    assert (s["Aldric"]["light"], s["Loup des cendres"]["ap_left"]) == (3, None)
    redo(client, encounter)
    assert (states(encounter)["Aldric"]["light"], states(encounter)["Loup des cendres"]["ap_left"]) == (4, 1)
    advance(client, encounter)
    assert encounter.clock["round"] == 3
    assert states(encounter)["Loup des cendres"]["parts"][1]["armour_lost"] == 1  # armour never comes back


def test_undo_walks_back_every_step_to_the_fresh_sheet(client, encounter):
    aldric = pc(encounter)
    wolf = from_bestiary(client, encounter, "Loup des cendres")
    fresh = states(encounter)["Loup des cendres"]
    roles = {"adversary": wolf, "pc": aldric}
    play(client, encounter, roles, **strike(2, 20, light=3, fatigue=3, bleed=2))
    play(client, encounter, roles, adv(5, 5, 5, 5), card=2)
    advance(client, encounter)
    after = states(encounter)
    assert after["Loup des cendres"]["fatigue_ticked"] == 1
    for _ in range(3):
        assert undo(client, encounter).status_code == 303
    assert states(encounter)["Loup des cendres"] == fresh
    assert states(encounter)["Aldric"] == {**states(encounter)["Aldric"], **ALDRIC, "light": 0, "mental": 0}
    assert encounter.clock["round"] == 1
    for _ in range(3):
        assert redo(client, encounter).status_code == 303
    assert states(encounter) == after


def test_a_bestiary_horde_loses_members_and_turns_from_rage_to_neutral(client, encounter):
    aldric = pc(encounter)
    rats = from_bestiary(client, encounter, "Nuée de rats")
    s = states(encounter)["Nuée de rats"]
    assert (sum(b["boxes"] for b in s["blocks"]), s["kind"]) == (12, "horde")
    assert "😠 Enragé" in card_text(client, encounter, rats)
    url = open_calculator(client, encounter, "quadrature", adversary=rats, pc=aldric)
    assert "card=2" in url  # Bande III, the attack (Bande II is a move)
    # 💔 → 1 💢 + 🔻 (no ◇ yet: one more member), 💢💢💢 → 1 💢: three members fall.
    play(client, encounter, {"adversary": rats, "pc": aldric}, **strike(1, 12, light=3, heavy=1))
    s = states(encounter)["Nuée de rats"]
    assert ticks(s) == [3, 0, 0, 0]
    card = card_text(client, encounter, rats)
    assert "Membres (3 jetons 🕷️) 9/12" in card
    play(client, encounter, {"adversary": rats, "pc": aldric}, **strike(1, 12, light=1))
    assert "😐 Neutre" in card_text(client, encounter, rats)


def test_the_gauge_buttons_tick_a_box_by_hand_and_refuse_what_the_sheet_cannot_hold(client, encounter):
    wolf = from_bestiary(client, encounter, "Loup des cendres")

    def press(field, delta):
        encounter.refresh_from_db()
        return client.post(
            f"{detail_url(encounter)}combatants/{wolf.pk}/adjust/",
            {"version": encounter.version, "field": field, "delta": delta},
        )

    assert press("boxes_left", "-1").status_code == 303
    s = states(encounter)["Loup des cendres"]
    assert ticks(s) == [1, 0, 0, 0]
    assert "boxes_left" not in s  # a gauge over the sheet, not a stored value
    assert "Loup des cendres — Blocs de cases (dans l'ordre de la fiche) n° 1 · Cases cochées\u202f: 0 → 1" in (
        last(encounter).lines
    )
    assert press("fatigue_left", "-1").status_code == 303
    assert states(encounter)["Loup des cendres"]["fatigue_ticked"] == 1
    assert press("ap_left", "-1").status_code == 303
    assert states(encounter)["Loup des cendres"]["ap_left"] == 1
    response = press("boxes_left", "1")
    assert response.status_code == 303
    response = press("boxes_left", "1")
    assert response.status_code == 422
    assert "Cases ▢ restantes : au plus 13." in visible(response.content.decode())
    assert ticks(states(encounter)["Loup des cendres"]) == [0, 0, 0, 0]


def test_the_necrophages_terror_aura_takes_the_engaged_pcs_stability_at_the_new_round(client, encounter):
    aldric = pc(encounter)
    ghoul = from_bestiary(client, encounter, "Nécrophage au regard pâle")
    # the gaze (⚫): Aldric spends his ◇ and is Entravé; the ghoul is now engaged with him
    play(client, encounter, {"adversary": ghoul, "pc": aldric}, mode="hypnotic_gaze")
    s = states(encounter)
    assert (s["Aldric"]["stability_tokens"], s["Aldric"]["entangled"]) == (0, True)
    assert (s["Nécrophage au regard pâle"]["ap_left"], s["Nécrophage au regard pâle"]["engaged"]) == (1, "Aldric")
    advance(client, encounter)
    s = states(encounter)
    assert s["Aldric"]["stability_tokens"] == 0  # 1 back with the new round, then taken by the aura
    assert s["Aldric"]["entangled"] is True  # Entravé lasts (a setting of the encounter)
    assert "Aura de terreur du Nécrophage au regard pâle\u202f: Aldric perd 1 ◇ (0\u00a0jeton restant)." in (
        last(encounter).story
    )
    advance(client, encounter)
    s = states(encounter)
    assert (s["Aldric"]["stability_tokens"], s["Aldric"]["mental"]) == (0, 0)
    encounter.clock = {**encounter.clock, "entangled_ends": True}
    encounter.save()
    advance(client, encounter)
    assert states(encounter)["Aldric"]["entangled"] is False


def test_an_exhausted_creature_is_out_and_the_page_says_the_fight_is_over(client, encounter):
    aldric = pc(encounter)
    rat = from_bestiary(client, encounter, "Rat géant des cales")
    # 3 fatigue boxes, 🫁 1: 💧 × 4 → 1 token, 3 boxes: Épuisé
    play(client, encounter, {"adversary": rat, "pc": aldric}, **strike(1, 12, fatigue=4))
    assert states(encounter)["Rat géant des cales"]["fatigue_ticked"] == 3
    page = visible(client.get(detail_url(encounter)).content.decode())
    assert "Épuisé — hors de combat" in page
    assert "Plus aucun adversaire ne tient (détruit ou épuisé) : le combat s'achève." in page


def test_a_quadrature_encounter_exports_and_imports_back_with_its_sheets(client, encounter):
    aldric = pc(encounter)
    wolf = from_bestiary(client, encounter, "Loup des cendres")
    play(client, encounter, {"adversary": wolf, "pc": aldric}, **strike(3, 14, light=3))
    exported = client.get(f"{detail_url(encounter)}export.json").content.decode()
    response = client.post("/encounters/import/", {"text": exported})
    assert response.status_code == 303, response.content.decode()[:2000]
    copy = Encounter.objects.exclude(pk=encounter.pk).get(owner=encounter.owner)
    assert copy.system == "quadrature"
    assert states(copy) == states(encounter)
    assert ticks(states(copy)["Loup des cendres"]) == [0, 0, 3, 0]
