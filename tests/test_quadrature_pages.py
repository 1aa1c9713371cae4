"""The Quadrature page: full page and htmx, presets, permalinks, the living sheet, errors in French."""

import html
import re
from urllib.parse import parse_qs, urlparse

import pytest
from django.core.management import call_command

from bestiary.quadrature.models import Adversary
from calculator.tables import row_key
from tests.pages import text

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture(autouse=True)
def bestiary():
    call_command("loaddata", "fixtures/quadrature.json", verbosity=0)


def load(client, name):
    key = row_key(Adversary.objects.get(name=name).name)
    response = client.get(f"/quadrature/?_f=1&_load=preset.creature&preset.creature={key}")
    assert response.status_code == 200
    return response


def form_values(response):
    """The inputs of the page as a dict, ready to post back."""
    body = response.content.decode()
    values = {}
    for m in re.finditer(r'<input[^>]*name="([^"]+)"[^>]*>', body):
        tag = m.group(0)
        name = m.group(1)
        if 'type="checkbox"' in tag:
            if "checked" in tag:
                values[name] = "on"
            continue
        v = re.search(r'value="([^"]*)"', tag)
        values[name] = html.unescape(v.group(1)) if v else ""
    for m in re.finditer(r'<select[^>]*name="([^"]+)"[^>]*>(.*?)</select>', body, re.S):
        sel = re.search(r'<option value="([^"]*)"[^>]*selected', m.group(2))
        values[m.group(1)] = html.unescape(sel.group(1)) if sel else ""
    values.pop("csrfmiddlewaretoken", None)
    return values


def test_the_page_shows_the_form_the_living_sheet_the_power_table_and_the_odds(client):
    response = client.get("/quadrature/")
    assert response.status_code == 200
    body = response.content.decode()
    assert 'name="adversary.blocks.0.boxes"' in body
    assert 'class="q-sheet"' in body
    assert "Table de puissance" in body
    assert "Élite" in body
    assert 'name="dice.adv.1"' in body
    assert "<svg" in body
    assert '<div class="q-power-wrap">' in body  # the seven-column table scrolls inside its panel on a phone
    assert "css/quadrature.css" in body


def test_loading_a_bestiary_creature_fills_its_sheet(client):
    response = load(client, "Griffon des falaises")
    values = form_values(response)
    assert values["adversary.name"] == "Griffon des falaises"
    assert values["adversary.danger"] == "2"
    assert values["adversary.parts.1.name"] == "Ailes"
    body = text(response)
    assert "Évasion 🍀 1" in body


def test_loading_a_small_creature_over_a_large_one_blanks_the_extra_rows(client):
    wyrm = form_values(load(client, "Wyrm des brumes"))
    rat = row_key(Adversary.objects.get(name="Rat géant des cales").name)
    response = client.get("/quadrature/", {**wyrm, "_load": "preset.creature", "preset.creature": rat})
    values = form_values(response)
    assert values["adversary.blocks.2.boxes"] == "0"
    assert "Souffle de brume" not in text(response).split("La fiche vivante")[1].split("Ajuster la fiche")[0]


def test_posting_without_javascript_redirects_to_a_permalink_that_shows_the_result(client):
    values = form_values(load(client, "Brigand vétéran"))
    values.update(
        {
            "mode": "adversary_attack",
            "card": "2",
            "pc.score": "12",
            "dice.adv.1": "5",
            "dice.adv.2": "4",
            "dice.adv.3": "3",
            "dice.adv.4": "2",
        }
    )
    response = client.post("/quadrature/", values)
    assert response.status_code == 303
    link = response["Location"]
    assert parse_qs(urlparse(link).query)["r"] == ["1"]
    page = client.get(link)
    body = text(page)
    assert "Le récit" in body
    assert "Frappe vive" in body
    assert "Niveau de menace 💀" in body
    again = client.get(link)
    assert text(again) == body


def test_a_pc_attack_shows_the_wound_chain_and_offers_the_other_parts(client):
    values = form_values(load(client, "Scarabée-forteresse"))
    values.update(
        {"mode": "pc_attack", "target_part": "2", "pc.score": "20", "pc_success.heavy": "1", "pc_success.light": "2"}
    )
    response = client.post("/quadrature/", values, **HTMX)
    assert response.status_code == 200
    body = text(response)
    assert "💔 sans armure ni Évasion" in body
    assert "Viser : Carapace" in body
    assert "Fin de manche avec la fiche obtenue" in body
    assert response["HX-Push-Url"].startswith("/quadrature/?")


def test_the_end_of_round_link_carries_the_sheet_after_the_exchange(client):
    values = form_values(load(client, "Loup des cendres"))
    values.update(
        {"mode": "pc_attack", "target_part": "3", "pc.score": "20", "pc_success.light": "3", "pc_success.bleed": "1"}
    )
    page = client.get(client.post("/quadrature/", values)["Location"])
    link = next(
        html.unescape(m.group(1))
        for m in re.finditer(r'href="([^"]+)"[^>]*>\s*Fin de manche avec la fiche obtenue', page.content.decode())
    )
    query = parse_qs(urlparse(link).query)
    assert query["mode"] == ["round"]
    assert query["adversary.bleeding"] == ["1"]
    result = text(client.get(link))
    assert "La plaie se referme d'un cran" in result


def test_the_living_sheet_shows_only_what_the_creature_still_has(client):
    values = form_values(load(client, "Loup des cendres"))
    values.update({"adversary.blocks.2.ticked": "3"})  # Mâchoires: Morsure destroyed
    body = text(client.get("/quadrature/", values))
    sheet = body.split("La fiche vivante")[1].split("Ajuster la fiche")[0]
    assert "Morsure" not in sheet
    assert "Harcèlement" in sheet


def test_a_cost_block_reads_as_a_cheaper_action_and_its_price_when_lost(client):
    sheet = text(load(client, "Brigand vétéran")).split("La fiche vivante")[1].split("Ajuster la fiche")[0]
    assert "Harcèlement à coût réduit (+1 ⚫ si ce bloc tombe)" in sheet
    assert "coût −" not in sheet


def test_the_sheet_reminds_the_price_of_a_run_for_creatures_not_hordes(client):
    def sheet(name):
        return text(load(client, name)).split("La fiche vivante")[1].split("Ajuster la fiche")[0]

    assert "🚶 6 (🏃 Course : ⚫ + 💧)" in sheet("Brigand vétéran")
    assert "Course" not in sheet("Nuée de rats")


def test_a_bad_value_comes_back_on_its_field_in_french(client):
    values = form_values(client.get("/quadrature/"))
    values.update({"adversary.guard": "99"})
    response = client.post("/quadrature/", values)
    assert response.status_code == 422
    assert "Valeur de Garde : doit être entre 0 et 30 (reçu 99)." in text(response)


def test_a_card_whose_block_is_destroyed_is_refused_on_its_field(client):
    """A permalink replays exactly what it names (no settle): the engine refuses the card."""
    values = form_values(client.get("/quadrature/"))
    values.update({"mode": "adversary_attack", "card": "4", "adversary.blocks.3.ticked": "3", "r": "1"})
    response = client.get("/quadrature/", values)
    assert response.status_code == 422
    assert "a quitté le deck" in text(response)


def test_a_card_whose_block_is_destroyed_gives_way_to_a_playable_one_and_is_offered_disabled(client):
    values = form_values(client.get("/quadrature/"))
    # the default is the bestiary's wolf (issue 14): Morsure is card 3, granted by the Mâchoires (block 3)
    values.update({"mode": "adversary_attack", "card": "3", "adversary.blocks.2.ticked": "3", "_live": "1"})
    response = client.post("/quadrature/", values, **HTMX)
    assert response.status_code == 200
    assert response["HX-Retarget"] == "#calculator"  # the card moved: the whole form is drawn again
    body = response.content.decode()
    assert "Carte jouée\u202f: «\u202fHarcèlement\u202f». «\u202fMorsure\u202f» a quitté le deck" in html.unescape(body)
    assert re.search(r'<option value="1" selected>Harcèlement \(', html.unescape(body))
    assert re.search(
        r'<option value="3" disabled>Morsure — «\u202fMorsure\u202f» a quitté le deck', html.unescape(body)
    )


def test_htmx_live_update_returns_the_scene_dice_and_odds(client):
    values = form_values(client.get("/quadrature/"))
    values.update({"mode": "adversary_attack", "matchup": "1"})
    response = client.get("/quadrature/", values, **HTMX)
    assert response.status_code == 200
    body = response.content.decode()
    assert 'id="live"' in body
    assert 'hx-swap-oob="true"' in body
    assert "Frappe vive" in text(response)


def test_a_horde_on_the_page(client):
    values = form_values(load(client, "Nuée de rats"))
    values.update({"mode": "pc_attack", "target_part": "1", "pc.score": "20", "pc_success.heavy": "1"})
    page = client.get(client.post("/quadrature/", values)["Location"])
    body = text(page)
    assert "Évasion ∞" in body
    assert "membres" in body


def test_a_deck_card_can_be_loaded_from_the_bestiary(client):
    values = form_values(client.get("/quadrature/"))
    from bestiary.quadrature.models import ActionCard

    card = ActionCard.objects.get(name="Charge")
    response = client.get("/quadrature/", {**values, "_load": "preset.card.1", "preset.card.1": row_key(card.name)})
    assert form_values(response)["adversary.deck.1.name"] == "Charge"


def test_the_printable_sheet_has_a5_landscape_print_css(client):
    from pathlib import Path

    from django.contrib.staticfiles import finders

    css = Path(finders.find("css/quadrature.css")).read_text(encoding="utf-8")
    assert "@page { size: A5 landscape" in css


def sheet_in(body: str) -> str:
    """The text of the living sheet's block (``#q-sheet``) in a page or an htmx answer."""
    start = body.index('<div id="q-sheet"')
    end = body.index("</article>", start)
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", body[start:end])))


def test_resolving_with_htmx_sends_the_sheet_after_the_exchange_out_of_band(client):
    """The htmx answer to « Résoudre » carries the result and, out of band, the living sheet after
    the exchange: the 🍀 spent, the Ailes' block destroyed (and the printout follows)."""
    values = form_values(load(client, "Griffon des falaises"))
    values.update(
        {"mode": "pc_attack", "target_part": "2", "pc.score": "20", "pc_success.light": "0", "pc_success.heavy": "1"}
    )
    before = sheet_in(client.get("/quadrature/", values).content.decode())
    assert "Évasion 🍀 1" in before
    assert "🍀 1" in before
    assert "Ailes" in before
    response = client.post("/quadrature/", values, **HTMX)
    assert response.status_code == 200
    body = response.content.decode()
    assert body.lstrip().startswith('<div id="result">')
    assert re.search(r'<div id="q-sheet"\s+class="q-sheet-wrap"\s+hx-swap-oob="true">', body)
    after = sheet_in(body)
    assert "Fiche après l'échange" in after
    assert "Ailes" not in after  # its only block is destroyed: the sheet shows what it still has
    assert "Évasion 🍀" not in after
    assert "🍀 0" in after
    # the permalink of the result draws the same sheet
    page = client.get(response["HX-Push-Url"]).content.decode()
    assert sheet_in(page) == after


def test_the_form_draws_the_sheet_without_out_of_band_marker(client):
    body = client.get("/quadrature/").content.decode()
    assert body.count('id="q-sheet"') == 1
    assert 'id="q-sheet" class="q-sheet-wrap" hx-swap-oob' not in re.sub(r"\s+", " ", body)


def test_the_decisions_come_first_by_name(client):
    body = html.unescape(client.get("/quadrature/").content.decode())
    assert re.search(r'<select name="card"[^>]*>.*<option value="2" selected>Frappe vive \(⚫, init\. 3\)', body, re.S)
    assert re.search(r'<select name="target_part"[^>]*>.*<option value="2" selected>Corps \(Armure 1\)', body, re.S)
    assert re.search(r'<option value="hypnotic_gaze" disabled>Regard hypnotique — Le Loup des cendres n\'a pas', body)
    assert '<option value="-1">🟥 −1</option>' in body
    # the character's dice and effects are summary lines behind « Ajuster »
    assert re.search(r'data-adjust="pc_success".*?<span class="adjust-line"[^>]*>3 💢</span>', body, re.S)
    assert re.search(r'data-adjust="pc_failure".*?<span class="adjust-line"[^>]*>aucun effet</span>', body, re.S)
    assert re.search(
        r'data-adjust="pc_dice".*?<span class="adjust-line"[^>]*>2 🟦 · 2 🟨 · sans 🟩 ni 🟥</span>', body, re.S
    )
    assert re.search(r'data-adjust="pc_state".*?<span class="adjust-line"[^>]*>🫁 1 · ◇ 1</span>', body, re.S)


def test_a_horde_is_aimed_at_as_one(client):
    body = html.unescape(load(client, "Nuée de rats").content.decode())
    options = re.search(r'<select name="target_part"[^>]*>(.*?)</select>', body, re.S).group(1)
    assert re.findall(r"<option[^>]*>([^<]*)</option>", options) == ["La horde entière"]


def test_loading_a_card_over_one_a_block_grants_moves_the_block_to_it(client):
    """The sweep's old failure: loading « Charge » over « Harcèlement » left the Pattes block
    granting a card the deck no longer had."""
    from bestiary.quadrature.models import ActionCard

    values = form_values(client.get("/quadrature/"))
    charge = ActionCard.objects.get(name="Charge")
    response = client.post("/quadrature/", {**values, "_load": "preset.card.0", "preset.card.0": row_key(charge.name)})
    assert response.status_code == 200
    assert response.context["scenario"] is not None
    assert form_values(response)["adversary.blocks.3.label"] == "Charge"
    assert "le bloc confère « Charge »" in text(response)
    assert "Action : Charge" in sheet_in(response.content.decode())


def test_a_field_in_error_opens_its_closed_section(client):
    values = form_values(client.get("/quadrature/"))
    values.update({"adversary.guard": "99"})
    body = client.post("/quadrature/", values).content.decode()
    assert re.search(r'<details class="card-section q-adjust-sheet" open>', body)
    assert re.search(r'<details class="q-sub" open>\s*<summary>Dés, Garde', body)
    assert not re.search(r'<details class="q-sub" open>\s*<summary>Deck', body)


def test_a_bestiary_name_carries_its_grammar_into_the_form_the_summary_and_the_story(client):
    """Issue 15: the preset fills the name's grammar, the page summarises it under the name in an
    « Ajuster » disclosure, and the scene says the name with its article and agreement."""
    response = load(client, "Fanatiques du culte")
    values = form_values(response)
    assert (values["adversary.grammar.article"], values["adversary.grammar.gender"]) == ("pluriel", "m")
    body = html.unescape(response.content.decode())
    line = re.search(r'data-adjust="adversary_grammar".*?<span class="adjust-line"[^>]*>(.*?)</span>', body, re.S)
    assert line.group(1) == "se dit «\u202fles Fanatiques du culte\u202f», au masculin"
    pc_line = re.search(r'data-adjust="pc_grammar".*?<span class="adjust-line"[^>]*>(.*?)</span>', body, re.S)
    assert pc_line.group(1) == "se dit «\u202fle personnage\u202f», au masculin"
    assert re.search(
        r'<p class="scene">Les Fanatiques du culte — une horde de 9\u00a0membres, paniquée — s\'apprêtent', body
    )
    values.update({"pc.name": "Elwen", "pc.grammar.gender": "f"})
    scene = html.unescape(client.get("/quadrature/", values).content.decode())
    assert "contre Elwen, qui lève sa garde." in scene


def test_the_swarm_is_feminine_on_the_page(client):
    body = html.unescape(load(client, "Nuée de rats").content.decode())
    assert re.search(r'<p class="scene">La Nuée de rats — une horde de \d+\u00a0membres, enragée — s\'apprête', body)
