"""Aventuriers in table mode (issue 13): the choices first, the table values behind « Ajuster »,
the attack that follows its weapon (settle), the dice chosen among the table's, the die boxes that
follow the weapon and the protection."""

import html
import json
import re

import pytest
from django.core.management import call_command

from bestiary.aventuriers import table_mode
from bestiary.aventuriers.models import Monster, Protection, Weapon
from bestiary.aventuriers.table_mode import settle
from calculator.tables import row_key
from tests.pages import NBSP, plain
from tests.test_table_mode import Fields, controls, form_data

HTMX = {"HTTP_HX_REQUEST": "true"}
NNBSP = "\u202f"


def unspaced(text):
    """A page's text with its French spacing read as plain spaces: the narrow no-break space the
    views and the summary lines add before « : ; » and inside « » (issue 15), and the no-break
    space. The spacing itself is checked in test_the_lines_and_notes_keep_french_typography and
    tests/rulesets/aventuriers/test_french.py."""
    if isinstance(text, list):
        return [unspaced(t) for t in text]
    return plain(text).replace(NNBSP, " ")


URL = "/aventuriers/"

# a ranged attack on the grid: the attacker adjacent north of the target, both facing each other
MELEE = {
    "action": "attaque",
    "mode": "melee",
    "attacker.weapon.name": "Épée",
    "attacker.weapon.reach": "melee",
    "board.dx": "0",
    "board.dy": "-1",
    "board.attacker_facing": "sud",
    "board.target_facing": "nord",
    "board.line_of_sight": "on",
    "board.enforce": "on",
}


def bow(**extra):
    return {**MELEE, "attacker.weapon.name": "Arc court", "attacker.weapon.reach": "distance", **extra}


# --- settle: the rules it follows --------------------------------------------------------------


def test_a_weapon_that_only_shoots_makes_the_attack_a_ranged_one():
    """Livret Aventure p. 17: melee, ranged, spell and hybrid attack; only the hybrid weapon
    chooses. The engine refuses « Arc court » in melee: the attack switches to ranged."""
    settled = settle(bow(**{"board.enforce": ""}))
    assert settled.changes == {"mode": "distance"}
    assert plain(settled.notes) == ["Attaque à distance : « Arc court » ne s'utilise qu'à distance."]


def test_a_melee_only_weapon_makes_the_attack_a_melee_one():
    """Livret Aventure p. 17 (the reverse): a sword is not shot."""
    data = {**MELEE, "mode": "distance", "board.dy": "-1"}
    settled = settle(data)
    assert settled.changes == {"mode": "melee"}
    assert plain(settled.notes) == ["Attaque de mêlée : « Épée » ne s'utilise qu'en mêlée."]


def test_a_hybrid_weapon_keeps_the_mode_chosen():
    """Livret Aventure p. 17: the hybrid attack is made « au choix en mêlée ou à distance »: even a
    ranged attack on an adjacent enemy is the game master's choice (the engine says why not)."""
    for mode in ("melee", "distance"):
        data = {**MELEE, "attacker.weapon.reach": "hybride", "mode": mode}
        assert settle(data).changes == {}


def test_a_shooter_next_to_its_target_steps_back_one_square():
    """Livret Aventure p. 21: no ranged attack on an adjacent enemy, « il doit alors se déplacer »:
    the shooter steps back along the same line (its facing kept)."""
    settled = settle(bow())
    assert settled.changes == {"mode": "distance", "board.dx": "0", "board.dy": "-2"}
    assert plain(settled.notes[1]) == "L'attaquant recule d'une case : on ne tire pas sur un ennemi adjacent."
    diagonal = settle(bow(**{"board.dx": "1", "board.dy": "1"}))
    assert (diagonal.changes["board.dx"], diagonal.changes["board.dy"]) == ("2", "2")


def test_stepping_back_ends_the_engagement_with_the_target():
    """Livret Aventure p. 19: the engagement ends when one leaves the other's attack zone (and an
    engaged character cannot shoot the enemy it is engaged with)."""
    settled = settle(bow(**{"board.engaged_together": "on"}))
    assert settled.changes["board.engaged_together"] is None
    assert "l'engagement prend fin" in plain(settled.notes[1])


def test_a_melee_fighter_away_from_its_target_steps_next_to_it_and_faces_it():
    """Livret Aventure p. 18: a melee attack strikes a target in the attack zone; the fighter steps
    to the square next to the target on its side, and turns to it when it looked elsewhere."""
    data = {**MELEE, "mode": "distance", "board.dx": "-3", "board.dy": "1", "board.attacker_facing": "sud"}
    settled = settle(data)
    assert settled.changes == {"mode": "melee", "board.dx": "-1", "board.dy": "0", "board.attacker_facing": "est"}
    assert plain(settled.notes[1]).startswith("L'attaquant s'avance au contact de la cible et se tourne vers elle")
    facing = settle({**data, "board.attacker_facing": "est"})
    assert "board.attacker_facing" not in facing.changes


def test_the_squares_are_left_alone_when_the_zones_are_only_advice():
    """docs/rules/aventuriers.md: with the zones as advice, the grid only comments."""
    assert settle(bow(**{"board.enforce": ""})).changes == {"mode": "distance"}


def test_a_valid_scene_is_never_changed():
    """Only what is invalid changes: a ranged attack with a bow, wherever the shooter stands, and
    any exchange that is not an attack (the mode is not read there)."""
    assert settle(bow(mode="distance")).changes == {}
    assert settle(bow(mode="distance", **{"board.dy": "-1"})).changes == {}
    assert settle(MELEE).changes == {}
    assert settle({**bow(), "action": "sortie_de_zone"}).changes == {}
    assert settle({**bow(), "action": "test_de_reussite"}).changes == {}


def test_settle_reads_blanks_and_missing_values_as_the_form_does():
    """A blank or missing mode is the default (melee); a missing box is unticked."""
    assert settle({"attacker.weapon.reach": "distance"}).changes == {"mode": "distance"}
    assert settle({"attacker.weapon.reach": "distance", "mode": ""}).changes == {"mode": "distance"}
    bad = settle({**bow(), "board.dx": "loin"})
    assert bad.changes == {"mode": "distance"}  # the typo shows on its field, the mode still follows


# --- the page ------------------------------------------------------------------------------------


@pytest.fixture
def bestiary(db):
    call_command("loaddata", "fixtures/aventuriers.json", verbosity=0)


def page_data(client, **changes):
    """What the default page sends, with ``changes``."""
    return {"_f": "1", **form_data(controls(client.get(URL))), **changes}


def selected(body, name):
    match = re.search(rf'<select name="{re.escape(name)}"[^>]*>(.*?)</select>', body, re.S)
    assert match, f"no select {name}"
    chosen = re.search(r'<option value="([^"]*)" selected>', match.group(1))
    return chosen.group(1) if chosen else None


def die_inputs(body):
    """(name, id, title) of the die boxes of a response body."""
    parser = Fields()
    parser.feed(body)
    return [
        (c["name"], c["attrs"]["id"], c["attrs"].get("title", ""))
        for c in parser.controls
        if c["name"].startswith("dice.")
    ]


def visible_fields(response):
    scenario = {n for n in response.context["form"].fields if not n.startswith("dice.") and n != "seed"}
    return [c["name"] for c in controls(response) if not c["hidden"] and c["name"] in scenario]


@pytest.mark.usefixtures("bestiary")
def test_the_page_leads_with_the_situation_and_the_names(client):
    response = client.get(URL)
    assert visible_fields(response) == ["action", "attacker.name", "defender.name"]
    body = unspaced(html.unescape(response.content.decode()))
    for line in (
        "se dit « l'aventurier », au masculin",
        "aventurier, 10 PV, stamina 0",
        "« Épée » : mêlée, 2 dés bleus",
        "1 dé noir de protection + 1 dé bleu",
        "se dit « le Gobelin », au masculin",
        "monstre, 3 PV, 2 PX",
        "« Coutelas » : mêlée, 1 dé bleu",
        "de face, au contact",
    ):
        assert line in body
    # the bestiary pickers sit above the line they fill
    assert (
        body.index('name="preset.atk_weapon"')
        < body.index("« Épée » : mêlée")
        < body.index('name="preset.atk_protection"')
    )


@pytest.mark.usefixtures("bestiary")
def test_a_hybrid_weapon_puts_the_mode_among_the_choices(client):
    javelin = Weapon.objects.get(name="Javelot")
    response = client.post(
        URL, page_data(client, **{"_load": "preset.atk_weapon", "preset.atk_weapon": row_key(javelin.name)})
    )
    assert "mode" in visible_fields(response)
    assert "« Javelot » : hybride, 1 dé noir + 1 dé bleu" in unspaced(html.unescape(response.content.decode()))


@pytest.mark.usefixtures("bestiary")
def test_loading_a_bow_makes_a_ranged_attack_from_two_squares_and_says_so(client):
    bow_ = Weapon.objects.get(name="Arc court")
    response = client.post(
        URL, page_data(client, **{"_load": "preset.atk_weapon", "preset.atk_weapon": row_key(bow_.name)})
    )
    assert response.status_code == 200
    assert response.context["scenario"] is not None
    assert not response.context["form"].errors
    body = response.content.decode()
    assert selected(body, "mode") == "distance"
    assert re.search(r'name="board.dy" value="-2"', body)
    notes = unspaced(response.context["settle_notes"])
    assert notes == [
        "Attaque à distance : « Arc court » ne s'utilise qu'à distance.",
        "L'attaquant recule d'une case : on ne tire pas sur un ennemi adjacent.",
    ]
    resolved = client.post(URL, {**form_data(controls(response)), "_f": "1"})
    assert resolved.status_code == 303
    story = plain(html.unescape(client.get(resolved["Location"]).content.decode()))
    assert "Attaque impossible" not in story


@pytest.mark.usefixtures("bestiary")
def test_an_archer_monster_as_attacker_shoots(client):
    archer = Monster.objects.get(name="Gobelin archer")
    response = client.post(
        URL, page_data(client, **{"_load": "preset.atk_monster", "preset.atk_monster": row_key(archer.name)})
    )
    assert selected(response.content.decode(), "mode") == "distance"
    assert response.context["scenario"].mode.value == "distance"


@pytest.mark.usefixtures("bestiary")
def test_the_grid_opens_and_says_why_when_the_zones_forbid_the_attack(client):
    data = page_data(client, **{"attacker.weapon.reach": "hybride", "mode": "distance"})
    body = unspaced(html.unescape(client.post(URL, {**data, "_refresh": "1"}).content.decode()))
    assert re.search(r'<details class="card-section" open>\s*<summary>\s*Orientation, zones et engagement', body)
    assert "impossible : jamais contre un ennemi adjacent" in body


@pytest.mark.usefixtures("bestiary")
def test_a_die_is_chosen_among_the_table_dice_by_name(client):
    body = client.get(URL).content.decode()
    for name in ("attacker.weapon.dice.0.die", "attacker.defence.0.die", "defender.defence.0.die", "rules.success_die"):
        options = re.search(rf'<select name="{re.escape(name)}"[^>]*>(.*?)</select>', body, re.S).group(1)
        assert re.findall(r'<option value="([^"]*)"[^>]*>([^<]*)<', options) == [
            ("noir", "Dé noir"),
            ("bleu", "Dé bleu"),
        ]
    assert selected(body, "attacker.weapon.dice.0.die") == "bleu"
    assert selected(body, "rules.success_die") == "bleu"


@pytest.mark.usefixtures("bestiary")
def test_an_unknown_die_stays_selected_with_a_french_error(client):
    data = page_data(client, **{"attacker.weapon.dice.0.die": "rouge"})
    response = client.post(URL, data)
    assert response.status_code == 422
    body = unspaced(html.unescape(response.content.decode()))
    assert selected(body, "attacker.weapon.dice.0.die") == "rouge"
    assert "« rouge » : dé inconnu" in body
    assert "Dé : « rouge » inconnu (dés définis : noir, bleu)." in body
    # the weapon's « Ajuster » opens on its error
    assert re.search(r'<details class="adjust" data-adjust="weapon.attacker" open>', body)


@pytest.mark.usefixtures("bestiary")
def test_the_api_refuses_an_unknown_die_in_french(client):
    payload = {"scenario": {"attacker": {"weapon": {"dice": [{"die": "rouge", "count": 2}]}}}}
    response = client.post("/api/rulesets/aventuriers/resolve", json.dumps(payload), content_type="application/json")
    assert response.status_code == 400
    assert response.json()["errors"]["scenario.attacker.weapon.dice.0.die"] == (
        "Dé\u202f: «\u202frouge\u202f» inconnu (dés définis\u202f: noir, bleu)."
    )


@pytest.mark.usefixtures("bestiary")
def test_the_die_boxes_follow_the_weapon_changed_live(client):
    """Switching from the Épée (2 dés bleus) to an épée longue (2 dés noirs) while typing: the die
    boxes of the redrawn scene are those of the black die (titles, and ids that change with the
    faces, so that htmx does not keep the blue boxes)."""
    before = client.post(URL, {**page_data(client), "_live": "1"}, **HTMX).content.decode()
    blue = die_inputs(before)
    assert [n for n, _i, _t in blue] == ["dice.attaque.1", "dice.attaque.2", "dice.defense.1"]
    assert all("0 🛡 0 ⚡" not in t for _n, _i, t in blue)
    data = page_data(
        client,
        **{"attacker.weapon.name": "Épée longue", "attacker.weapon.dice.0.die": "noir", "_live": "1"},
    )
    response = client.post(URL, data, **HTMX)
    assert response.status_code == 200
    body = response.content.decode()
    assert body.lstrip().startswith('<section id="live"')
    black = die_inputs(body)
    assert [n for n, _i, _t in black] == ["dice.attaque.1", "dice.attaque.2", "dice.defense.1"]
    noir_faces = "1 (💥), 2 (💥💥), 3 (💥💥💥), 4 (🛡), 5 (🛡🛡), 6 (💥 🛡 ⚡)"
    assert [t for n, _i, t in black if n.startswith("dice.attaque.")] == [
        f"Faces{NNBSP}: {noir_faces}. Vide{NNBSP}: lancé par le serveur."
    ] * 2
    assert black[2][2] == blue[2][2]  # the Gobelin's blue defence die is unchanged
    assert black[0][1] != blue[0][1]
    assert black[1][1] != blue[1][1]
    assert black[2][1] == blue[2][1]  # its box is kept (what was typed in it stays)
    assert "Attaque — Dé noir n°1" in plain(html.unescape(body))


@pytest.mark.usefixtures("bestiary")
def test_the_die_boxes_follow_the_weapon_and_the_protection_loaded(client):
    """What the bestiary selects do with JavaScript: the whole calculator comes back (htmx), with
    one box per die of the new weapon and of the target's new protection."""
    longsword = Weapon.objects.get(name="Épée longue")
    response = client.post(
        URL, page_data(client, **{"_load": "preset.atk_weapon", "preset.atk_weapon": row_key(longsword.name)}), **HTMX
    )
    boxes = die_inputs(response.content.decode())
    assert [n for n, _i, _t in boxes] == ["dice.attaque.1", "dice.attaque.2", "dice.defense.1"]
    assert all("3 (💥💥💥)" in t for n, _i, t in boxes if n.startswith("dice.attaque."))
    harness = Protection.objects.get(name="Harnois")  # 2 dés noirs
    data = {
        **form_data(controls(response)),
        "_f": "1",
        "_load": "preset.def_protection",
        "preset.def_protection": row_key(harness.name),
    }
    boxes = die_inputs(client.post(URL, data, **HTMX).content.decode())
    assert [n for n, _i, _t in boxes] == ["dice.attaque.1", "dice.attaque.2", "dice.defense.1", "dice.defense.2"]
    assert all("3 (💥💥💥)" in t for _n, _i, t in boxes)


@pytest.mark.usefixtures("bestiary")
def test_the_summary_lines_speak_french():
    names = dict(table_mode.die_types())
    assert names == {"noir": "Dé noir", "bleu": "Dé bleu"}
    weapon = {
        "{row}.weapon.name": "Onde de choc",
        "{row}.weapon.reach": "hybride",
        "{row}.weapon.spell": True,
        "{row}.weapon.diagonals": True,
        "{row}.weapon.unblockable": False,
        "{row}.weapon.flash": True,
        "{row}.weapon.dice.0.die": "noir",
        "{row}.weapon.dice.0.count": "1",
        "{row}.weapon.dice.1.die": "bleu",
        "{row}.weapon.dice.1.count": "0",
    }
    assert (
        table_mode.describe_weapon(weapon)
        == f"«{NNBSP}Onde de choc{NNBSP}»{NNBSP}: sort hybride, 1{NBSP}dé noir, diagonales, dégâts-éclairs"
    )
    defence = {"{row}.defence.0.die": "noir", "{row}.defence.0.count": 2, "{row}.defence.0.protection": True}
    assert plain(table_mode.describe_defence(defence)) == "2 dés noirs de protection"
    assert plain(table_mode.describe_defence({})) == "aucun dé"
    sheet = {
        "{row}.side": "monstre",
        "{row}.pv": 8,
        "{row}.px": 8,
        "{row}.stamina": 0,
        "{row}.riposte": True,
        "{row}.contrecoup": "on",
    }
    assert plain(table_mode.describe_sheet(sheet)) == "monstre, 8 PV, 8 PX · Riposte, Contrecoup"
    hero = {"{row}.side": "aventurier", "{row}.pv": "7", "{row}.stamina": "2", "{row}.stamina_max": "5"}
    assert plain(table_mode.describe_sheet(hero)) == "aventurier, 7 PV, stamina 2/5"
    board = {"board.dx": "2", "board.dy": "-3", "board.attacker_facing": "sud", "board.target_facing": "ouest"}
    assert unspaced(table_mode.describe_board(board)) == (
        "attaquant au nord-est de la cible, à 3 cases ; il regarde vers le sud, la cible vers l'ouest"
    )
    said = {"{row}.name": "Araignée géante", "{row}.side": "monstre", "{row}.grammar.article": "defini"}
    said |= {"{row}.grammar.gender": "f", "{row}.grammar.elision": "auto"}
    assert table_mode.describe_name(said) == f"se dit «{NNBSP}l'Araignée géante{NNBSP}», au féminin"
    role = {**said, "{row}.name": "Aventurier", "{row}.side": "aventurier", "{row}.grammar.article": "propre"}
    assert table_mode.describe_name({**role, "{row}.grammar.gender": "m"}) == (
        f"se dit «{NNBSP}l'aventurier{NNBSP}», au masculin"
    )


def test_the_lines_and_notes_keep_french_typography():
    """No-break spaces before « : » and « ; », inside « », between a number and its unit."""
    notes = settle(bow()).notes
    assert notes[0] == f"Attaque à distance{NBSP}: «{NBSP}Arc court{NBSP}» ne s'utilise qu'à distance."
    assert f"d'une case{NBSP}: on" in notes[1]
    board = {"board.dx": "0", "board.dy": "-2", "board.attacker_facing": "sud", "board.target_facing": "nord"}
    assert f"à{NBSP}2{NBSP}cases{NNBSP}; il regarde" in table_mode.describe_board(board)
    assert table_mode.dice_text(2, "bleu", {"bleu": "Dé bleu"}) == f"2{NBSP}dés bleus"


@pytest.mark.usefixtures("bestiary")
def test_a_dice_row_added_gets_the_first_die_of_the_table(client):
    """The die of a roll is one of the table's (the die table): a new row is not left blank."""
    settled = settle({**MELEE, "attacker.defence.2.die": ""})
    assert settled.changes == {"attacker.defence.2.die": "noir"}
    assert plain(settled.notes) == ["Dé noir ajouté au jet de défense de l'attaquant (à changer au besoin)."]
    response = client.post(URL, page_data(client, _add="attacker.weapon.dice"))
    assert not response.context["form"].errors
    assert selected(response.content.decode(), "attacker.weapon.dice.1.die") == "noir"


@pytest.mark.usefixtures("bestiary")
def test_the_name_s_grammar_waits_behind_ajuster_and_a_monster_fills_it(client):
    """Issue 15: the three grammar fields of a name are table values, filled by a bestiary monster,
    summed up as the récit says the name."""
    body = client.get(URL).content.decode()
    assert re.search(r'<details class="adjust" data-adjust="name.defender"', body)
    assert selected(body, "defender.grammar.article") == "defini"
    assert selected(body, "attacker.grammar.article") == "propre"
    spider = Monster.objects.get(name="Araignée géante")
    response = client.post(
        URL, page_data(client, **{"_load": "preset.def_monster", "preset.def_monster": row_key(spider.name)})
    )
    body = response.content.decode()
    assert (selected(body, "defender.grammar.article"), selected(body, "defender.grammar.gender")) == ("defini", "f")
    assert "se dit « l'Araignée géante », au féminin" in unspaced(html.unescape(body))
