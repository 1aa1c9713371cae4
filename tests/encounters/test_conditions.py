"""Issue 16, lasting conditions on the encounter page: each combatant's chips with what remains, put,
changed and lifted by hand (a logged change that undo covers), refused in French on the field with
the form back filled, carried into the calculator the encounter opens, worn off by the end of the
round, and shown to the players as their visibility allows."""

import html
import re

import pytest
from django.test import Client

from encounters import player
from encounters.models import Combatant
from tests.encounters.helpers import (
    advance,
    chips_of,
    detail_url,
    lift_condition,
    open_calculator,
    put_condition,
    states,
    undo,
)
from tests.factories_encounters import EncounterFactory

pytestmark = pytest.mark.django_db
NNBSP = "\u202f"


def visible(page: str) -> str:
    return re.sub(r"[ \t\r\n]+", " ", html.unescape(re.sub(r"<[^>]+>", " ", page))).strip()


def last(encounter):
    return encounter.log.order_by("-seq").first()


def make(client, system, clock, *cast):
    encounter = EncounterFactory(system=system, clock=clock)
    client.force_login(encounter.owner)
    made = [
        Combatant.objects.create(encounter=encounter, kind=kind, name=state["name"], state=state, position=i)
        for i, (kind, state) in enumerate(cast, 1)
    ]
    return encounter, made


def page(client, encounter):
    return client.get(detail_url(encounter)).content.decode()


# --- Féerie -----------------------------------------------------------------------------------------


def test_a_stun_put_by_hand_is_shown_changed_carried_and_undone(client):
    encounter, (redcap, lutin) = make(
        client,
        "feerie",
        {"action": 1},
        ("feerique", {"name": "Redcap", "initiative": 17}),
        ("feerique", {"name": "Lutin", "initiative": 9}),
    )
    assert put_condition(client, encounter, lutin, "etourdir", "−6", "Redcap").status_code == 303
    entry = last(encounter)
    assert entry.title == f"Lutin{NNBSP}: effet ajouté à la main, «{NNBSP}Étourdi −6{NNBSP}»"
    assert entry.action == "condition"
    assert chips_of(page(client, encounter), lutin) == ["Étourdi −6 −1 par rang d'Initiative écoulé"]
    # present since the top of the Action (rank 17): at the Lutin's rank 9, −6 + 8 leaves nothing
    assert "attacker.modifiers.attack=0" in open_calculator(
        client, encounter, "feerie", attacker=lutin, defender=redcap
    )
    # changed: the chip's « Modifier »
    assert put_condition(client, encounter, lutin, "etourdir", "-20", "Redcap", path="conditions.0").status_code == 303
    assert last(encounter).title == (
        f"Lutin{NNBSP}: effet modifié à la main, «{NNBSP}Étourdi −6{NNBSP}» → «{NNBSP}Étourdi −20{NNBSP}»"
    )
    assert "attacker.modifiers.attack=-12" in open_calculator(
        client, encounter, "feerie", attacker=lutin, defender=redcap
    )
    # the end of the Action: 17 ranks gone by, −3 left for the next one
    advance(client, encounter)
    assert [(c["malus"], c["rank"]) for c in states(encounter)["Lutin"]["conditions"]] == [(-3, None)]
    undo(client, encounter)
    undo(client, encounter)
    assert states(encounter)["Lutin"]["conditions"][0]["malus"] == -6


def test_a_condition_by_hand_refused_says_why_on_its_field_and_keeps_what_was_typed(client):
    encounter, (lutin,) = make(client, "feerie", {"action": 1}, ("feerique", {"name": "Lutin"}))
    version = encounter.version
    for lasting, value, note, message in (
        ("etourdir", "abc", "", "Valeur\u202f: un nombre entier (−4, 3…), ou rien pour la valeur habituelle."),
        ("etourdir", "4", "", "Un malus est négatif ou nul (reçu +4)."),
        ("etourdir", "", "", "Un étourdissement a un malus (les Dommages du coup, comptés en malus)."),
        ("desarmer", "-2", "", "Cet effet n'a pas de valeur à saisir\u202f: laissez ce champ vide."),
        ("volant", "", "", "Effet\u202f: choisissez-en un de la liste."),
        ("autre", "-2", "x" * 81, "Texte\u202f: 80\u00a0caractères au plus."),
    ):
        response = put_condition(client, encounter, lutin, lasting, value, note)
        assert response.status_code == 422, (lasting, value)
        body = response.content.decode()
        assert message in visible(body), (lasting, visible(body)[-1500:])
        assert encounter.version == version
        form = re.search(r'<details class="condition-add"\s+open>.*?</details>', body, re.S)
        assert form, "the form is open again"
        if value:
            assert f'value="{value}"' in form.group(0)
    assert states(encounter)["Lutin"].get("conditions", []) == []


def test_a_stale_chip_is_refused_not_guessed(client):
    encounter, (lutin,) = make(client, "feerie", {"action": 1}, ("feerique", {"name": "Lutin"}))
    response = lift_condition(client, encounter, lutin, "conditions.3")
    assert response.status_code == 422
    assert "Cet effet n'est plus sur la fiche" in visible(response.content.decode())


# --- Nephilim ---------------------------------------------------------------------------------------


def test_a_next_round_modifier_becomes_this_rounds_then_expires(client):
    encounter, (sahar, loup) = make(
        client,
        "nephilim",
        {"round": 1},
        ("pj", {"name": "Sahar"}),
        ("pnj", {"name": "Loup", "type": "autre"}),
    )
    assert put_condition(client, encounter, loup, "attack_next", "-3", "Prince de la spirale").status_code == 303
    assert chips_of(page(client, encounter), loup) == [
        "−3 en attaque (Prince de la spirale) au round suivant (round 2)"
    ]
    assert "attacker.carried_over=0" in open_calculator(client, encounter, "nephilim", attacker=loup, defenders=sahar)
    advance(client, encounter)
    assert chips_of(page(client, encounter), loup) == [
        "−3 en attaque (Prince de la spirale) ce round, jusqu'à la fin du round 2"
    ]
    assert "attacker.carried_over=-3" in open_calculator(client, encounter, "nephilim", attacker=loup, defenders=sahar)
    advance(client, encounter)
    assert chips_of(page(client, encounter), loup) == []
    refused = put_condition(client, encounter, loup, "held")
    assert refused.status_code == 422
    assert "Par qui\u202f: son nom." in visible(refused.content.decode())


# --- Quadrature -------------------------------------------------------------------------------------


def test_sonne_ends_with_the_round_and_entrave_waits_for_the_character_to_free_himself(client):
    encounter, (ysolde,) = make(client, "quadrature", {"round": 1}, ("pj", {"name": "Ysolde"}))
    put_condition(client, encounter, ysolde, "stunned")
    put_condition(client, encounter, ysolde, "entangled")
    assert chips_of(page(client, encounter), ysolde) == [
        "Sonné 🫨 jusqu'à la fin de la manche",
        "Entravé 🕸️ jusqu'à ce qu'on le retire (réglage de la rencontre)",
    ]
    advance(client, encounter)
    s = states(encounter)["Ysolde"]
    assert (s["stunned"], s["entangled"]) == (False, True)
    assert lift_condition(client, encounter, ysolde, "entangled").status_code == 303
    assert states(encounter)["Ysolde"]["entangled"] is False
    assert last(encounter).title == f"Ysolde{NNBSP}: fin de l'effet «{NNBSP}Entravé 🕸️{NNBSP}»"


def test_bleeding_tokens_show_what_the_end_of_the_round_will_do(client):
    encounter, (ysolde,) = make(client, "quadrature", {"round": 1}, ("pj", {"name": "Ysolde", "bleeding": 2}))
    assert chips_of(page(client, encounter), ysolde) == [
        "Hémorragie 🩸 × 2 fin de manche\u202f: 2 💢 sans armure, puis un jeton de moins"
    ]
    advance(client, encounter)
    s = states(encounter)["Ysolde"]
    assert (s["light"], s["bleeding"]) == (2, 1)


# --- Aventuriers -------------------------------------------------------------------------------------


def test_an_engagement_ended_by_hand_ends_on_both_figures(client):
    encounter, (elwen, gobelin) = make(
        client,
        "aventuriers",
        {"turn": 1},
        ("aventurier", {"name": "Elwen", "engaged_with": "Gobelin"}),
        ("monstre", {"name": "Gobelin", "engaged_with": "Elwen"}),
    )
    assert chips_of(page(client, encounter), gobelin)[0].startswith("Engagé avec Elwen")
    assert lift_condition(client, encounter, elwen, "engaged_with=Gobelin").status_code == 303
    s = states(encounter)
    assert (s["Elwen"]["engaged_with"], s["Gobelin"]["engaged_with"]) == ("", "")
    assert last(encounter).story == ["Elwen et le Gobelin ne sont plus engagés."]
    undo(client, encounter)
    assert states(encounter)["Gobelin"]["engaged_with"] == "Elwen"


# --- enCORE ------------------------------------------------------------------------------------------


def test_an_advantage_given_by_hand_helps_every_pc_until_the_end_of_its_turn(client):
    encounter, (aline, brigand) = make(
        client,
        "encore",
        {"turn": 1},
        ("pj", {"name": "Aline"}),
        ("pnj", {"name": "Brigand", "menace": 2, "sante": 3, "sante_max": 3}),
    )
    assert put_condition(client, encounter, brigand, "advantage", "1", "à terre").status_code == 303
    assert chips_of(page(client, encounter), brigand) == ["à terre (+1d6 à tous les PJ) jusqu'à la fin du tour 1"]
    assert "pc.bonus_dice=1" in open_calculator(client, encounter, "encore", pc=aline, npcs=brigand)
    assert put_condition(client, encounter, aline, "advantage", "", "x").status_code == 422  # not on a PC
    advance(client, encounter)
    assert chips_of(page(client, encounter), brigand) == []


# --- the players' view ------------------------------------------------------------------------------


def test_players_see_a_condition_as_their_view_of_the_combatant_allows(client):
    encounter, (redcap, lutin, guetteur) = make(
        client,
        "feerie",
        {"action": 1},
        ("feerique", {"name": "Redcap"}),
        ("feerique", {"name": "Lutin"}),
        ("feerique", {"name": "Guetteur"}),
    )
    Combatant.objects.filter(pk=redcap.pk).update(visibility="exact")
    Combatant.objects.filter(pk=lutin.pk).update(visibility="tier")
    Combatant.objects.filter(pk=guetteur.pk).update(visibility="hidden")
    put_condition(client, encounter, redcap, "etourdir", "-5", "")
    put_condition(client, encounter, lutin, "etourdir", "-7", "")
    put_condition(client, encounter, lutin, "tenir_en_respect", "", "Guetteur")
    link = player.link_create(encounter)
    text = visible(Client().get(f"/live/{link.token}/").content.decode())
    assert "Étourdi −5 −1 par rang d'Initiative écoulé" in text  # shown exactly
    assert "Étourdi −7" not in text
    assert "Lutin" in text
    lutin_card = text[text.index("Lutin") :]
    assert "Étourdi" in lutin_card  # in words: the condition, not its numbers
    assert "Guetteur" not in text  # a hidden combatant's name is in no chip
    assert f"Lutin{NNBSP}: effets en cours modifiés" in text
