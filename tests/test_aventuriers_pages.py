"""The Aventuriers page, API and CLI: full page and htmx, permalinks, French errors, presets, grid."""

import html
import io
import json
import re
import sys
from urllib.parse import parse_qs, urlparse

import pytest
from django.core.management import call_command

from bestiary.aventuriers.models import Monster, Weapon
from calculator.tables import row_key
from rulesets.core.registry import get
from tests.pages import text

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
URL = "/aventuriers/"

# Elwen (2 dés bleus) strikes an Orc in melee; bleu 3 = 💥💥, bleu 2 = 💥⚡; the Orc's noir 4 = 🛡, bleu 1 = 💥.
ELWEN = {
    "_f": "1",
    "action": "attaque",
    "mode": "melee",
    "entry": "des",
    "attacker.name": "Elwen",
    "attacker.grammar.article": "propre",
    "attacker.grammar.gender": "f",
    "attacker.grammar.elision": "auto",
    "attacker.side": "aventurier",
    "attacker.pv": "8",
    "attacker.stamina": "1",
    "attacker.weapon.name": "Épée longue",
    "attacker.weapon.reach": "melee",
    "attacker.weapon.dice.0.die": "bleu",
    "attacker.weapon.dice.0.count": "2",
    "attacker.defence.0.die": "noir",
    "attacker.defence.0.count": "1",
    "attacker.defence.0.protection": "on",
    "defender.name": "Orc",
    "defender.grammar.article": "defini",
    "defender.grammar.gender": "m",
    "defender.grammar.elision": "auto",
    "defender.side": "monstre",
    "defender.pv": "5",
    "defender.px": "4",
    "defender.weapon.name": "Hache",
    "defender.weapon.dice.0.die": "noir",
    "defender.weapon.dice.0.count": "1",
    "defender.defence.0.die": "noir",
    "defender.defence.0.count": "1",
    "defender.defence.1.die": "bleu",
    "defender.defence.1.count": "1",
    "board.dx": "0",
    "board.dy": "-1",
    "board.attacker_facing": "sud",
    "board.target_facing": "nord",
    "board.line_of_sight": "on",
    "board.enforce": "on",
    "dice.attaque.1": "3",
    "dice.attaque.2": "2",
    "dice.defense.1": "4",
    "dice.defense.2": "1",
}


@pytest.fixture(autouse=True)
def bestiary():
    call_command("loaddata", "fixtures/aventuriers.json", verbosity=0)


def selected(body, name):
    """The chosen option of the select ``name`` (a die is chosen among the table's dice)."""
    match = re.search(rf'<select name="{re.escape(name)}"[^>]*>(.*?)</select>', body, re.S)
    assert match, f"no select {name}"
    chosen = re.search(r'<option value="([^"]*)" selected>', match.group(1))
    return chosen.group(1) if chosen else None


def without_dice(data):
    return {k: v for k, v in data.items() if not k.startswith("dice.")}


def test_the_home_page_links_the_aventuriers_page(client):
    assert 'href="/aventuriers/"' in client.get("/").content.decode()


def test_the_empty_page_shows_fields_grid_dice_table_scene_and_odds(client):
    response = client.get(URL)
    assert response.status_code == 200
    body = response.content.decode()
    assert 'name="attacker.weapon.dice.0.die"' in body
    assert 'name="board.attacker_facing"' in body
    assert 'class="avt-grid"' in body
    assert "faces par défaut — à vérifier sur vos dés" in body
    assert 'name="dice.attaque.1"' in body
    assert "Les chances" in body
    assert "<svg" in body
    assert 'name="die_types.0.key"' not in body  # the dice come from the database


def test_posting_without_javascript_redirects_to_a_permalink_showing_the_result(client):
    response = client.post(URL, ELWEN)
    assert response.status_code == 303
    query = parse_qs(urlparse(response["Location"]).query)
    assert query["r"] == ["1"]
    assert query["dice.attaque.1"] == ["3"]
    body = text(client.get(response["Location"]))
    assert "Le récit" in body
    assert "Cible blessée" in body
    assert "PV restants de l'Orc 3" in body
    assert "Stamina d'Elwen 1 → 2 (+1)" in body
    assert "Engagés ensemble ensuite oui" in body


def test_the_permalink_reproduces_server_rolled_dice(client):
    link = client.post(URL, without_dice(ELWEN))["Location"]
    first, second = client.get(link), client.get(link)
    faces = re.findall(r'class="die-face[^"]*"[^>]*>(\d+)<', first.content.decode())
    assert len(faces) == 4
    assert faces == re.findall(r'class="die-face[^"]*"[^>]*>(\d+)<', second.content.decode())
    assert text(first).split("Les chances")[0] == text(second).split("Les chances")[0]


def test_htmx_resolve_returns_the_result_in_place_and_pushes_the_permalink(client):
    response = client.post(URL, ELWEN, **HTMX)
    assert response.status_code == 200
    body = response.content.decode()
    assert body.lstrip().startswith('<div id="result"')
    assert response["HX-Retarget"] == "#result"
    assert "<html" not in body
    assert response["HX-Push-Url"].startswith("/aventuriers/?")


def test_htmx_live_update_names_the_dice_of_a_riposte(client):
    data = {**without_dice(ELWEN), "defender.riposte": "on"}
    response = client.get(URL, data, **HTMX)
    body = response.content.decode()
    assert body.lstrip().startswith('<section id="live"')
    assert 'name="dice.riposte.1"' in body
    assert "guette l&#x27;ouverture pour riposter" in body
    assert 'hx-swap-oob="true"' in body


def test_a_riposte_with_contrecoup_from_the_page(client):
    data = {
        **without_dice(ELWEN),
        "attacker.name": "Orc",
        "attacker.grammar.article": "defini",
        "attacker.grammar.gender": "m",
        "attacker.side": "monstre",
        "attacker.weapon.dice.0.die": "noir",
        "attacker.weapon.dice.0.count": "1",
        "attacker.defence.0.protection": "",
        "defender.name": "Elwen",
        "defender.grammar.article": "propre",
        "defender.grammar.gender": "f",
        "defender.side": "aventurier",
        "defender.riposte": "on",
        "defender.contrecoup": "on",
        "dice.attaque.1": "4",
        "dice.defense.1": "5",
        "dice.defense.2": "4",
        "dice.riposte.1": "1",
    }
    body = text(client.get(client.post(URL, data)["Location"]))
    assert "Riposte : dégâts-éclairs 4" in body
    assert "PV restants de l'Orc" in body


def test_a_face_that_does_not_exist_comes_back_on_its_die_with_everything_kept(client):
    response = client.post(URL, {**ELWEN, "dice.attaque.2": "9"})
    assert response.status_code == 422
    body = response.content.decode()
    assert "«\u202f9\u202f» n'est pas une face du dé Dé bleu" in html.unescape(body)
    assert 'name="dice.attaque.2" value="9"' in body
    assert 'name="attacker.name" value="Elwen"' in body


def test_bad_scenario_values_come_back_on_their_fields_in_french(client):
    response = client.post(URL, {**ELWEN, "defender.pv": "0", "attacker.stamina": "beaucoup"})
    assert response.status_code == 422
    body = text(response)
    assert "PV actuels : doit être entre 1 et 99 (reçu 0)" in body
    assert "Stamina actuelle : nombre entier attendu" in body
    assert 'value="beaucoup"' in response.content.decode()


def test_a_cross_field_mistake_comes_back_on_its_field_in_french(client):
    response = client.post(URL, {**ELWEN, "attacker.weapon.dice.0.die": "rouge"})
    assert response.status_code == 422
    body = response.content.decode()
    assert "Dé\u202f: «\u202frouge\u202f» inconnu (dés définis\u202f: noir, bleu)" in html.unescape(body)
    assert re.search(
        r'name="attacker.weapon.dice.0.die"[^>]*is-invalid|is-invalid[^>]*name="attacker.weapon.dice.0.die"', body
    )


def test_an_impossible_attack_says_why_and_offers_to_play_anyway(client):
    data = {**ELWEN, "mode": "distance", "attacker.weapon.reach": "hybride"}
    body = client.get(client.post(URL, without_dice(data))["Location"]).content.decode()
    assert "Attaque impossible" in body
    assert "jamais contre un ennemi adjacent" in html.unescape(body)
    assert "Jouer quand même (avis)" in body
    assert "En mêlée" in body


def test_a_back_attack_shows_on_the_grid_and_in_the_result(client):
    data = {**ELWEN, "board.dy": "1", "board.attacker_facing": "nord", "attacker.coup_bas": "on"}
    response = client.post(URL, data)
    body = text(client.get(response["Location"]))
    assert "Attaque de dos oui" in body
    assert "Coup bas (attaque de dos) +1 💥" in body
    assert "Engagés ensemble ensuite non" in body


def test_entry_by_totals_needs_no_die_inputs(client):
    data = {
        **without_dice(ELWEN),
        "entry": "totaux",
        "attack_totals.damage": "3",
        "attack_totals.lightning": "1",
        "defence_totals.shield": "1",
    }
    live = client.get(URL, data, **HTMX).content.decode()
    assert 'name="dice.attaque.1"' not in live
    body = text(client.get(client.post(URL, data)["Location"]))
    assert "PV restants de l'Orc 3" in body


def test_the_success_test_reads_the_blue_die(client):
    data = {"_f": "1", "action": "test_de_reussite", "effect_two": "Le pont s'effondre.", "dice.test": "6"}
    body = text(client.get(client.post(URL, data)["Location"]))
    assert "Deux éclairs" in body
    assert "Le pont s'effondre." in body


def test_loading_a_monster_fills_the_target_and_its_four_dice_rows(client):
    chef = Monster.objects.get(name="Chef orc")
    data = {**without_dice(ELWEN), "preset.def_monster": row_key(chef.name), "_load": "preset.def_monster"}
    response = client.post(URL, data)
    assert response.status_code == 200
    body = response.content.decode()
    assert 'name="defender.name" value="Chef orc"' in body
    assert 'name="defender.pv" value="8"' in body
    assert 'name="defender.riposte" checked' in body or re.search(r'name="defender.riposte"[^>]*checked', body)
    assert 'name="defender.defence.3.count" value="0"' in body
    assert "Le récit" not in body


def test_loading_a_weapon_fills_the_attackers_weapon(client):
    bow = Weapon.objects.get(name="Arc long")
    data = {**without_dice(ELWEN), "preset.atk_weapon": row_key(bow.name), "_load": "preset.atk_weapon"}
    body = client.post(URL, data).content.decode()
    assert 'name="attacker.weapon.name" value="Arc long"' in body
    assert 'name="attacker.weapon.dice.1.count" value="2"' in body


def test_adding_and_removing_dice_rows(client):
    body = client.post(URL, {**without_dice(ELWEN), "_add": "attacker.defence"}).content.decode()
    assert 'name="attacker.defence.1.die"' in body
    data = {**without_dice(ELWEN), "_del": "defender.defence.0"}
    body = client.post(URL, data).content.decode()
    assert selected(body, "defender.defence.0.die") == "bleu"
    assert 'name="defender.defence.1.die"' not in body


def test_the_table_dice_come_from_the_database(client):
    from bestiary.aventuriers.models import DieFace

    face = DieFace.objects.get(die__key="noir", position=1)
    face.damage, face.lightning = 0, 2
    face.save()  # an admin edit: the bestiary cache is cleared
    request = {"scenario": {"action": "test_de_reussite", "rules": {"success_die": "noir"}}}
    odds = client.post("/api/rulesets/aventuriers/odds", json.dumps(request), content_type="application/json").json()
    two = next(o for o in odds["outcomes"] if o["code"] == "deux_eclairs")
    assert two["probability"]["fraction"] == "1/6"
    face = DieFace.objects.get(die__key="bleu", position=6)
    face.lightning, face.shield = 1, 1
    face.save()
    request = {"scenario": {"action": "test_de_reussite"}}
    response = client.post("/api/rulesets/aventuriers/odds", json.dumps(request), content_type="application/json")
    assert response.status_code == 400
    assert response.json()["errors"]["scenario.rules.success_die"] == (
        "Dé du test de réussite\u202f: «\u202fDé bleu\u202f» doit pouvoir montrer 0, 1 et 2 éclairs."
    )


def test_the_api_resolves_every_example_and_gives_exact_odds(client):
    for example in get("aventuriers").examples():
        response = client.post(
            "/api/rulesets/aventuriers/resolve", json.dumps(example.request), content_type="application/json"
        )
        assert response.status_code == 200, example.key
        assert response.json()["outcome"] == example.expected["outcome"], example.key
    odds = client.post(
        "/api/rulesets/aventuriers/odds", json.dumps({"scenario": {}}), content_type="application/json"
    ).json()
    assert [o["code"] for o in odds["outcomes"]] == ["tue", "blesse", "indemne"]
    assert odds["outcomes"][0]["probability"]["fraction"] == "11/108"
    assert [c["key"] for c in odds["charts"]] == ["pv_lost", "attacker_stamina"]


def test_the_api_refuses_bad_input_with_french_messages_per_field(client):
    payload = {"scenario": {"attacker": {"pv": 0}, "board": {"dx": 0, "dy": 0}}, "dice": {"attaque.1": "x"}}
    response = client.post("/api/rulesets/aventuriers/resolve", json.dumps(payload), content_type="application/json")
    assert response.status_code == 400
    errors = response.json()["errors"]
    assert errors["scenario.attacker.pv"] == "PV actuels\u202f: doit être entre 1 et 99 (reçu 0)."
    assert errors["scenario.board.dx"] == "Attaquant\u202f: il ne peut pas occuper la case de la cible."


def test_the_schema_describes_the_aventuriers_scenario(client):
    schema = client.get("/api/rulesets/aventuriers/schema").json()
    scenario = schema["properties"]["scenario"]
    text_schema = json.dumps(scenario, ensure_ascii=False)
    assert "Talent\u202f: Riposte" in text_schema
    assert "test_de_reussite" in text_schema


def test_the_cli_resolves_an_example_from_stdin(monkeypatch):
    example = next(e for e in get("aventuriers").examples() if e.key == "riposte_contrecoup")
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(example.request)))
    out = io.StringIO()
    call_command("resolve", "aventuriers", "-", stdout=out, stderr=io.StringIO())
    data = json.loads(out.getvalue())
    assert data["numbers"]["riposte_damage"] == 4
    assert data["numbers"]["attacker_pv_after"] == 2


def _next_links(body):
    return [
        html.unescape(u)
        for u in re.findall(r'class="btn btn-sm btn-outline-primary me-2 mb-1 avt-next" href="([^"]+)"', body)
    ]


def test_the_encounter_goes_on_with_pv_stamina_and_engagement_carried_over(client):
    page = client.get(client.post(URL, ELWEN)["Location"]).content.decode()
    same, swapped = _next_links(page)
    query = parse_qs(urlparse(same).query)
    assert query["defender.pv"] == ["3"]
    assert query["attacker.stamina"] == ["2"]
    assert query["board.engaged_together"] == ["on"]
    assert "r" not in query
    assert not any(k.startswith("dice.") or k.startswith("die_types.") for k in query)
    following = client.get(same)
    assert following.status_code == 200
    assert "Le récit" not in text(following)
    back = parse_qs(urlparse(swapped).query)
    assert back["attacker.name"] == ["Orc"]
    assert back["attacker.pv"] == ["3"]
    assert back["defender.name"] == ["Elwen"]
    assert back["board.dy"] == ["1"]
    assert back["board.attacker_facing"] == ["nord"]
    assert back["board.target_facing"] == ["sud"]
    answer = text(client.get(swapped))
    assert "L'Orc fond sur Elwen, au contact, et attaque : « Hache »." in answer


def test_the_next_exchange_links_stay_out_of_the_result_and_of_shared_exports(client):
    response = client.post(URL, ELWEN, **HTMX)
    assert response["HX-Retarget"] == "#result"
    assert _next_links(response.content.decode()) == []
    page = client.get(client.post(URL, ELWEN)["Location"]).content.decode()
    assert "Elwen (8\u00a0PV) continue contre l'Orc (3\u00a0PV)" in html.unescape(page)
    assert "L'Orc (3\u00a0PV) répond à Elwen (8\u00a0PV)" in html.unescape(page)


def test_no_next_exchange_after_a_kill(client):
    data = {**ELWEN, "defender.pv": "1"}
    page = client.get(client.post(URL, data)["Location"]).content.decode()
    assert "Cible tuée" in page
    assert _next_links(page) == []


def test_clicking_a_square_of_the_grid_places_the_attacker(client):
    body = client.get(URL).content.decode()
    assert 'name="_load" value="preset.pos.1_1"' in body
    data = {**without_dice(ELWEN), "preset.pos.1_1": "1_1", "_load": "preset.pos.1_1"}
    body = client.post(URL, data).content.decode()
    assert re.search(r'name="board.dx"[^>]*value="1"', body)
    assert re.search(r'name="board.dy"[^>]*value="1"', body)
    assert "Le récit" not in body


def test_the_arrows_turn_each_figure(client):
    data = {**without_dice(ELWEN), "preset.tfacing.sud": "sud", "_load": "preset.tfacing.sud"}
    body = client.post(URL, data).content.decode()
    assert re.search(r'<option value="sud" selected>', body.split('name="board.target_facing"')[1])
    assert "Attaque de dos" in html.unescape(body)  # the attacker, north of the target, now behind it


def test_the_success_test_odds_draw_the_lightning(client):
    body = text(client.get(URL, {"_f": "1", "action": "test_de_reussite"}))
    assert "Éclairs du test de réussite" in body
    assert "Deux éclairs 16,7 %" in body


def test_a_shared_result_exports_clean_wikitext_and_markdown(client):
    link = client.post(URL, ELWEN)["Location"]
    response = client.post("/r/", {"ruleset": "aventuriers", "q": urlparse(link).query})
    assert response.status_code in (302, 303)
    shared_url = response["Location"]
    assert client.get(shared_url).status_code == 200
    wiki = client.get(f"{shared_url}/wiki.txt").content.decode()
    markdown = client.get(f"{shared_url}/markdown.md").content.decode()
    for export in (wiki, markdown):
        assert "Orc" in export
        assert "<a " not in export
    assert "PV restants de l'Orc" in wiki


def test_the_face_legend_is_visible_outside_the_folded_settings(client):
    body = client.get(URL).content.decode()
    settings_start = body.index("Réglages de la table et dés")
    settings_end = body.index("</details>", settings_start)
    legend = body.index('<div class="avt-legend">')
    assert legend > settings_end  # not hidden in the folded settings: a GM reads the face numbers
    assert "faces par défaut — à vérifier sur vos dés" in body[legend:]
    assert "le numéro de face à taper" in body[legend:]


def test_the_engagement_row_keeps_a_short_value_for_phones(client):
    body = client.get(client.post(URL, ELWEN)["Location"]).content.decode()
    row = re.search(r'<tr class="ev-engagement".*?</tr>', body, re.S)
    assert row is not None
    cells = re.findall(r"<td[^>]*>(.*?)</td>", row.group(0), re.S)
    assert "attaque de mêlée faite et subie" in html.unescape(cells[0])
    assert any(c.strip() == "oui" for c in cells)


def test_the_odds_show_probabilities_as_percentages(client):
    body = text(client.get(client.post(URL, {**ELWEN, "defender.riposte": "on", "dice.riposte.1": "1"})["Location"]))
    odds = body.split("Les chances")[1]
    assert re.search(r"Probabilité de tuer l'Orc \d+,\d %", odds)
    assert re.search(r"Probabilité d'une Riposte \d+,\d %", odds)
    assert re.search(r"Probabilité que la Riposte tue Elwen \d+,\d %", odds)
    assert re.search(r"PV perdus en moyenne \d+,\d\d(?! %)", odds)  # a mean stays a decimal
