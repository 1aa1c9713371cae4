"""enCORE in table mode (issue 13): the choices first, the table values behind « Ajuster », the
strike and the action that follow the NPCs targeted (settle)."""

import html
import re

import pytest
from django.core.management import call_command

from bestiary.encore import table_mode
from bestiary.encore.models import NPC, Protection, Weapon
from bestiary.encore.table_mode import settle
from calculator.tables import row_key
from tests.pages import NBSP, plain
from tests.test_table_mode import controls, form_data

URL = "/encore/"
NNBSP = "\u202f"


def flat(text):
    """``plain``, the narrow no-break spaces (before « : », inside « ») read as spaces too; the
    exact typography has its own test below."""
    if isinstance(text, list):
        return [flat(t) for t in text]
    return plain(text).replace(NNBSP, " ")


ONE = {
    "action": "attaque",
    "npcs.0.name": "Arbalétrier",
    "npcs.0.grammar.article": "defini",
    "npcs.0.grammar.gender": "m",
    "npcs.0.menace": "2",
    "strike.enabled": "on",
    "strike.striker": "1",
    "strike.attacks": "1",
}


# --- settle: the rules it follows --------------------------------------------------------------


def test_an_attack_on_several_npcs_becomes_an_area_attack():
    """« Armes de zone »: a weapon that hits one target more per success beyond the Menace; a
    plain attack targets one NPC (the engine refuses several)."""
    data = {**ONE, "npcs.1.name": "Brigand", "npcs.1.menace": "1"}
    settled = settle(data)
    assert settled.changes == {"action": "zone"}
    assert flat(settled.notes) == ["Plusieurs PNJ visés : action « Arme de zone contre plusieurs PNJ »."]


def test_a_manoeuvre_on_several_npcs_is_left_to_the_game_master():
    """A manoeuvre targets one NPC and has no area form: the engine's refusal stays on its field."""
    data = {**ONE, "action": "manoeuvre", "npcs.1.name": "Brigand"}
    assert settle(data).changes == {}


def test_the_striker_is_one_of_the_npcs_targeted():
    """« La brèche »: an NPC targeted strikes; a number beyond the list (a row removed) becomes the
    last NPC."""
    settled = settle({**ONE, "strike.striker": "2"})
    assert settled.changes == {"strike.striker": "1"}
    assert flat(settled.notes) == ["PNJ qui frappe : le n°1, le dernier des PNJ visés."]


def test_a_focused_strike_is_not_lowered_by_the_page():
    """« Les attaques des PNJ »: « Le MJ peut concentrer … jusqu'à autant d'attaques que la Menace
    du PNJ ». Issue 14: the count is the game master's choice; the page no longer lowers it (to the
    Menace or to the attacks left), ``Scenario.check`` refuses it on « Attaques concentrées »."""
    assert settle({**ONE, "npcs.0.menace": "1", "strike.attacks": "3"}).changes == {}
    assert settle({**ONE, "npcs.0.menace": "3", "npcs.0.attacks_left": "2", "strike.attacks": "3"}).changes == {}
    assert settle({**ONE, "npcs.0.attacks_left": "0", "strike.attacks": "2"}).changes == {}


def test_nobody_interposes_before_a_boss():
    """« Le coup de boss et les manifestations d'une calamité frappent chacun : on ne s'interpose pas. »"""
    settled = settle({**ONE, "npcs.0.name": "Ogre des collines", "npcs.0.boss": "on", "strike.interpose": "on"})
    assert settled.changes == {"strike.interpose": None}
    assert flat(settled.notes) == ["Personne ne s'interpose devant le coup de boss de l'Ogre des collines."]


def test_an_npc_row_added_without_a_name_is_named_after_its_number():
    """The narration names every NPC targeted (« sur Arbalétrier, Brigand »): a row just added
    (« Ajouter un PNJ ») is « PNJ n°2 » until it is chosen in the bestiary or named."""
    settled = settle({**ONE, "action": "zone", "npcs.1.name": ""})
    assert settled.changes == {"npcs.1.name": "PNJ n°2"}
    assert flat(settled.notes) == ["PNJ n°2 : à choisir dans le bestiaire ou à nommer."]


def test_a_valid_scene_is_never_changed():
    assert settle(ONE).changes == {}
    assert settle({**ONE, "action": "zone", "npcs.1.name": "Brigand"}).changes == {}
    assert settle({**ONE, "action": "zone"}).changes == {}  # an area weapon on one target
    # the strike is off: its numbers wait, untouched
    assert settle({**ONE, "strike.enabled": "", "strike.attacks": "3", "strike.interpose": "on"}).changes == {}
    assert settle({"_f": "1"}).changes == {}


# --- the page ------------------------------------------------------------------------------------


@pytest.fixture
def bestiary(db):
    call_command("loaddata", "fixtures/encore.json", verbosity=0)


def page_data(client, **changes):
    return {"_f": "1", **form_data(controls(client.get(URL))), **changes}


def visible_fields(response):
    scenario = {n for n in response.context["form"].fields if not n.startswith("dice.") and n != "seed"}
    return [c["name"] for c in controls(response) if not c["hidden"] and c["name"] in scenario]


@pytest.mark.usefixtures("bestiary")
def test_the_page_leads_with_the_action_the_roll_and_the_names(client):
    response = client.get(URL)
    assert visible_fields(response) == [
        "action",
        "pc.name",
        "pc.attribute",
        "pc.speciality",
        "pc.bonus_dice",
        "npcs.0.name",
    ]
    body = flat(html.unescape(response.content.decode()))
    for line in (
        "À mains nues : 1 dégât",
        "Sans Protection",
        "Santé 8 / 8 (Valide), Stress 0",
        "Menace 1, Santé 3, arme 2, Protection 0",
    ):
        assert line in body


@pytest.mark.usefixtures("bestiary")
def test_the_summary_lines_follow_the_bestiary_picks(client):
    sword = Weapon.objects.get(name="Épée longue")
    data = page_data(client, **{"_load": "preset.weapon", "preset.weapon": row_key(sword.name)})
    response = client.post(URL, data)
    assert "Lourde : 3 dégâts" in flat(html.unescape(response.content.decode()))
    pavois = Protection.objects.get(name="Pavois")
    data = {
        **form_data(controls(response)),
        "_f": "1",
        "pc.armour": "1",
        "_load": "preset.cover",
        "preset.cover": row_key(pavois.name),
    }
    response = client.post(URL, data)
    assert "Protection 2 (armure 1, couvert 2)" in flat(html.unescape(response.content.decode()))
    ogre = NPC.objects.get(name="Ogre des collines")
    data = {**form_data(controls(response)), "_f": "1", "_load": "preset.npc.0", "preset.npc.0": row_key(ogre.name)}
    body = flat(html.unescape(client.post(URL, data).content.decode()))
    assert "Menace 3, Santé 10, arme 4, Protection 1, boss" in body


def test_the_summary_lines_speak_french(db):
    assert plain(
        table_mode.describe_weapon({"{row}.weapon": "3", "{row}.weapon_area": True, "{row}.weapon_limit": "2"})
    ) == ("3 dégâts, arme de zone, 2 cibles au plus")
    assert (
        plain(table_mode.describe_weapon({"{row}.weapon": 0, "{row}.weapon_area": False, "{row}.weapon_limit": 0}))
        == "0 dégât"
    )
    assert plain(table_mode.describe_protection({"{row}.armour": "0", "{row}.cover": "3"})) == "Protection 3 (couvert)"
    npc = {
        "npcs.{row}.menace": "2",
        "npcs.{row}.sante": "4",
        "npcs.{row}.weapon": "3",
        "npcs.{row}.protection": "0",
        "npcs.{row}.cover": "2",
        "npcs.{row}.attacks_left": "1",
        "npcs.{row}.boss": False,
    }
    assert (
        plain(table_mode.describe_npc(npc))
        == "Menace 2, Santé 4, arme 3, Protection 0, à couvert (\u22122 dés), 1 attaque restante"
    )
    assert plain(table_mode.describe_health({"{row}.sante": "2", "{row}.sante_max": "8", "{row}.stress": "3"})) == (
        "Santé 2 / 8 (Grave), Stress 3"
    )


@pytest.mark.usefixtures("bestiary")
def test_adding_an_npc_makes_an_area_attack_and_says_what_it_needs(client):
    response = client.post(URL, page_data(client, _add="npcs"))
    assert response.status_code == 200
    assert flat(response.context["settle_notes"]) == [
        "PNJ n°2 : à choisir dans le bestiaire ou à nommer.",
        "Plusieurs PNJ visés : action « Arme de zone contre plusieurs PNJ ».",
    ]
    assert 'name="npcs.1.name" value="PNJ n°2"' in response.content.decode()
    body = flat(html.unescape(response.content.decode()))
    assert re.search(r'<option value="zone" selected>', body)
    # the unarmed PC has no area weapon: its weapon's « Ajuster » opens on the reason
    assert re.search(r'<details class="adjust" data-adjust="weapon.pc" open>', body)
    assert "Une attaque sur plusieurs PNJ demande une arme de zone." in body
    grenade = Weapon.objects.get(name="Grenade")
    data = {
        **form_data(controls(response)),
        "_f": "1",
        "_load": "preset.weapon",
        "preset.weapon": row_key(grenade.name),
    }
    response = client.post(URL, data)
    assert response.context["scenario"] is not None
    assert not response.context["form"].errors


@pytest.mark.usefixtures("bestiary")
def test_loading_a_boss_untick_the_interposition_and_opens_nothing_in_error(client):
    ogre = NPC.objects.get(name="Ogre des collines")
    data = page_data(client, **{"strike.interpose": "on", "_load": "preset.npc.0", "preset.npc.0": row_key(ogre.name)})
    response = client.post(URL, data)
    assert response.context["scenario"] is not None
    assert not response.context["form"].errors
    assert flat(response.context["settle_notes"]) == [
        "Personne ne s'interpose devant le coup de boss de l'Ogre des collines."
    ]
    assert not re.search(r'name="strike.interpose"[^>]*checked', response.content.decode())


@pytest.mark.usefixtures("bestiary")
def test_a_new_npc_does_not_inherit_the_attacks_left_of_the_previous_one(client):
    brigand = NPC.objects.get(name="Brigand")  # Menace 1
    data = page_data(
        client,
        **{
            "npcs.0.menace": "3",
            "npcs.0.attacks_left": "3",
            "_load": "preset.npc.0",
            "preset.npc.0": row_key(brigand.name),
        },
    )
    response = client.post(URL, data)
    assert not response.context["form"].errors
    assert response.context["scenario"].npcs[0].attacks_left is None


@pytest.mark.usefixtures("bestiary")
def test_a_strike_in_error_opens_its_section(client):
    data = page_data(client, **{"strike.attacks": "abc", "_refresh": "1"})
    body = client.post(URL, data).content.decode()
    assert re.search(r'<details class="card-section" open>\s*<summary>\s*La frappe dans la brèche', body)


def test_the_lines_and_notes_keep_french_typography(db):
    """No-break spaces before « : », inside « », between a number and its unit or its label."""
    assert settle({**ONE, "npcs.1.name": "Brigand"}).notes == [
        f"Plusieurs PNJ visés{NNBSP}: action «{NNBSP}Arme de zone contre plusieurs PNJ{NNBSP}»."
    ]
    assert table_mode.describe_weapon({"{row}.weapon": "3"}) == f"3{NBSP}dégâts"
    assert table_mode.describe_health({"{row}.sante": "8", "{row}.sante_max": "8", "{row}.stress": "0"}) == (
        f"Santé{NBSP}8{NBSP}/{NBSP}8 (Valide), Stress{NBSP}0"
    )


# --- the name's grammar (issue 15) ------------------------------------------------------------------


def option_selected(body, name):
    select = re.search(rf'<select name="{re.escape(name)}".*?</select>', body, re.S).group(0)
    return re.search(r'<option value="([^"]*)" selected>', select).group(1)


@pytest.mark.usefixtures("bestiary")
def test_each_name_has_its_grammar_behind_ajuster_said_as_the_story_says_it(client):
    body = html.unescape(client.get(URL).content.decode())
    lines = dict(
        re.findall(r'data-adjust="([^"]+)"><summary><span class="adjust-label">[^<]*</span> <span[^>]*>([^<]*)<', body)
    )
    assert flat(lines["name.pc"]) == "se dit « le PJ », au masculin"
    assert flat(lines["npc_name.0"]) == "se dit « le PNJ », au masculin"
    assert flat(lines["name.opponent"]) == "se dit « l'autre PJ », au masculin"
    assert flat(lines["interposer_name"]) == "se dit « l'allié », au masculin"
    # the three fields wait in the closed disclosure, once each
    hidden = {c["name"] for c in controls(client.get(URL)) if c["hidden"]}
    for prefix in ("pc.grammar.", "npcs.0.grammar.", "opponent.grammar.", "strike.interposer_grammar."):
        assert {prefix + leaf for leaf in ("article", "gender", "elision")} <= hidden


@pytest.mark.usefixtures("bestiary")
def test_a_bestiary_npc_fills_its_names_grammar_and_the_story_says_it(client):
    witch = NPC.objects.get(name="Sorcière des marais")
    data = page_data(client, **{"_load": "preset.npc.0", "preset.npc.0": row_key(witch.name)})
    response = client.post(URL, data)
    body = html.unescape(response.content.decode())
    assert option_selected(body, "npcs.0.grammar.article") == "defini"
    assert option_selected(body, "npcs.0.grammar.gender") == "f"
    assert "se dit «\u202fla Sorcière des marais\u202f», au féminin" in body
    resolved = client.post(URL, {**form_data(controls(response)), "_f": "1", "dice.pc.1": "1", "dice.pc.2": "1"})
    page = flat(html.unescape(client.get(resolved["Location"]).content.decode()))
    assert "attaque la Sorcière des marais (Menace 3" in page
    assert "Menace de la Sorcière des marais" in page


@pytest.mark.usefixtures("bestiary")
def test_the_name_line_follows_what_is_typed(client):
    data = page_data(
        client,
        **{
            "npcs.0.name": "Harpie",
            "npcs.0.grammar.article": "defini",
            "npcs.0.grammar.gender": "f",
            "pc.name": "Isaure",
            "pc.grammar.gender": "f",
            "_live": "1",
            "_adjusted": "npc_name:0,name:pc",
        },
    )
    body = html.unescape(client.post(URL, data, HTTP_HX_REQUEST="true").content.decode())
    assert re.search(r'id="adjust-npc_name-0"[^>]*hx-swap-oob="true">se dit «\u202fla Harpie\u202f», au féminin<', body)
    assert re.search(r'id="adjust-name-pc"[^>]*hx-swap-oob="true">se dit «\u202fIsaure\u202f», au féminin<', body)


def test_the_name_line_of_a_row_just_added_says_its_role():
    assert flat(table_mode.describe_name({"npcs.{row}.name": "PNJ n°2"}, "PNJ")) == "se dit « le PNJ n°2 », au masculin"
    assert flat(
        table_mode.describe_name({"strike.interposer_name": "Brenna", "strike.interposer_grammar.gender": "f"}, "allié")
    ) == ("se dit « Brenna », au féminin")
