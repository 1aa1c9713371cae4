"""The enCORE page: full page and htmx, permalinks, errors on their field, presets."""

import re
from urllib.parse import parse_qs, urlparse

import pytest
from django.core.management import call_command

from bestiary.encore.models import NPC
from calculator.tables import row_key
from tests.pages import text

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}

ALDRIC = {
    "_f": "1",
    "action": "attaque",
    "pc.name": "Aldric",
    "pc.attribute": "3",
    "pc.speciality": "on",
    "pc.weapon": "3",
    "pc.armour": "1",
    "pc.cover": "2",
    "pc.sante": "8",
    "pc.sante_max": "8",
    "pc.stress": "0",
    "npcs.0.name": "Arbalétrier",
    "npcs.0.menace": "2",
    "npcs.0.sante": "4",
    "npcs.0.weapon": "3",
    "npcs.0.protection": "0",
    "strike.enabled": "on",
    "strike.striker": "1",
    "strike.attacks": "1",
    "dice.pc.1": "5",
    "dice.pc.2": "2",
    "dice.pc.3": "3",
    "dice.pc.4": "1",
    "dice.pc.5": "4",
}


@pytest.fixture(autouse=True)
def bestiary():
    call_command("loaddata", "fixtures/encore.json", verbosity=0)


def test_the_home_page_lists_only_real_rulesets(client):
    response = client.get("/")
    assert response.status_code == 200
    assert 'href="/encore/"' in response.content.decode()


def test_the_empty_page_shows_the_form_the_scene_the_dice_and_the_odds(client):
    response = client.get("/encore/")
    assert response.status_code == 200
    body = response.content.decode()
    assert 'name="pc.attribute"' in body
    assert "La scène" in body
    assert 'name="dice.pc.1"' in body
    assert "Les chances" in body
    assert "<svg" in body


def test_posting_without_javascript_redirects_to_a_permalink_that_shows_the_result(client):
    response = client.post("/encore/", ALDRIC)
    assert response.status_code == 303
    link = response["Location"]
    query = parse_qs(urlparse(link).query)
    assert query["r"] == ["1"]
    assert "seed" in query
    page = client.get(link)
    assert page.status_code == 200
    body = text(page)
    assert "Le récit" in body
    assert "Résolution technique" in body
    assert "Résultat final" in body
    assert "Réussite partielle" in body
    assert "Santé d'Aldric 8 → 7 / 8" in body


def test_the_permalink_reproduces_the_same_result_with_server_rolled_dice(client):
    data = {k: v for k, v in ALDRIC.items() if not k.startswith("dice.")}
    link = client.post("/encore/", data)["Location"]
    first, second = client.get(link), client.get(link)
    faces = re.findall(r'class="die-face[^"]*"[^>]*>(\d+)<', first.content.decode())
    assert len(faces) == 5
    assert faces == re.findall(r'class="die-face[^"]*"[^>]*>(\d+)<', second.content.decode())
    assert text(first).split("Les chances")[0] == text(second).split("Les chances")[0]


def test_htmx_resolve_returns_only_the_result_in_place_and_pushes_the_permalink(client):
    response = client.post("/encore/", ALDRIC, **HTMX)
    assert response.status_code == 200
    body = response.content.decode()
    assert body.lstrip().startswith('<div id="result">')
    assert "<html" not in body
    assert 'name="pc.name"' not in body
    assert "Réussite partielle" in body
    assert response["HX-Retarget"] == "#result"
    assert response["HX-Reswap"].startswith("outerHTML")
    assert response["HX-Push-Url"].startswith("/encore/?")


def test_htmx_live_update_returns_the_scene_the_dice_and_the_odds_out_of_band(client):
    data = {k: v for k, v in ALDRIC.items() if not k.startswith("dice.")}
    data["pc.attribute"] = "4"
    response = client.get("/encore/", data, **HTMX)
    body = response.content.decode()
    assert body.lstrip().startswith('<section id="live"')
    assert body.count('name="dice.pc.') == 6
    assert re.search(r'<section id="odds"\s+class="panel panel-odds" hx-swap-oob="true">', body)


def test_the_live_update_is_a_post_marked_live_and_resolves_nothing(client):
    """What the page sends while typing (a long sheet does not fit in a URL): the scene, the dice,
    the odds, never a result, even with every die typed."""
    data = {**ALDRIC, "pc.attribute": "4", "_live": "1"}
    response = client.post("/encore/", data, **HTMX)
    assert response.status_code == 200
    body = response.content.decode()
    assert body.lstrip().startswith('<section id="live"')
    assert body.count('name="dice.pc.') == 6
    assert 'hx-swap-oob="true"' in body
    assert "Le récit" not in body
    assert "HX-Push-Url" not in response


def test_the_page_tells_htmx_to_post_its_live_updates_and_keep_no_history_snapshot(client):
    body = client.get("/encore/").content.decode()
    assert 'hx-post="/encore/"' in body
    assert """hx-vals='{"_live": "1"}'""" in body
    assert 'hx-history="false"' in body
    assert '"refreshOnHistoryMiss": true' in body


def test_a_typed_die_that_is_not_a_face_comes_back_on_its_input_with_everything_kept(client):
    data = {**ALDRIC, "dice.pc.2": "9"}
    response = client.post("/encore/", data)
    assert response.status_code == 422
    body = response.content.decode()
    assert "«\u202f9\u202f» n&#x27;est pas une face du dé d6" in body
    assert 'name="dice.pc.2" value="9"' in body
    assert 'name="pc.name" value="Aldric"' in body


def test_a_bad_scenario_value_comes_back_on_its_field_in_french(client):
    response = client.post("/encore/", {**ALDRIC, "npcs.0.menace": "7", "pc.attribute": "trois"})
    assert response.status_code == 422
    body = text(response)
    assert "Menace : doit être entre 1 et 3 (reçu 7)" in body
    assert "Attribut (dés) : nombre entier attendu" in body
    assert 'value="trois"' in response.content.decode()


def test_a_bad_value_in_htmx_is_a_422_fragment_with_the_message(client):
    response = client.post("/encore/", {**ALDRIC, "npcs.0.menace": "0"}, **HTMX)
    assert response.status_code == 422
    assert "Menace : doit être entre 1 et 3" in text(response)


def test_loading_a_bestiary_npc_fills_its_row(client):
    ogre = NPC.objects.get(name="Ogre des collines")
    data = {**ALDRIC, "preset.npc.0": row_key(ogre.name), "_load": "preset.npc.0"}
    response = client.post("/encore/", data)
    assert response.status_code == 200
    body = response.content.decode()
    assert 'name="npcs.0.name" value="Ogre des collines"' in body
    assert 'name="npcs.0.menace" value="3"' in body
    assert "Le récit" not in body


def test_adding_and_removing_npc_rows(client):
    response = client.post("/encore/", {**ALDRIC, "_add": "npcs"})
    assert 'name="npcs.1.menace"' in response.content.decode()
    data = {**ALDRIC, "npcs.1.name": "Second", "npcs.1.menace": "1", "_del": "npcs.0"}
    body = client.post("/encore/", data).content.decode()
    assert 'name="npcs.0.name" value="Second"' in body
    assert 'name="npcs.1.name"' not in body


def test_the_breach_panel_offers_focus_and_interposition_with_the_same_dice(client):
    body = client.get(client.post("/encore/", ALDRIC)["Location"]).content.decode()
    assert "Concentrer 2 attaques" in body
    link = re.search(r'href="([^"]+)"[^>]*>\s*Concentrer 2 attaques', body).group(1).replace("&amp;", "&")
    focused = text(client.get(link))
    assert "Concentre 2 attaques" in focused
    assert "Santé d'Aldric 8 → 6 / 8" in focused


def test_an_area_attack_on_three_npcs_from_the_page(client):
    data = {
        **{k: v for k, v in ALDRIC.items() if not k.startswith("dice.")},
        "action": "zone",
        "pc.weapon_area": "on",
        "npcs.1.name": "B",
        "npcs.1.menace": "1",
        "npcs.2.name": "C",
        "npcs.2.menace": "1",
        "dice.pc.1": "6",
        "dice.pc.2": "6",
        "dice.pc.3": "6",
        "dice.pc.4": "1",
        "dice.pc.5": "1",
    }
    body = text(client.get(client.post("/encore/", data)["Location"]))
    assert "Cibles touchées 2" in body or "Cibles touchées 3" in body


def test_the_table_settings_come_from_the_database(client):
    from bestiary.encore.models import Settings

    Settings.objects.update(success_face=4)
    body = client.get("/encore/").content.decode()
    assert 'name="rules.success_face" value="4"' in body


def test_an_unknown_ruleset_is_a_404(client):
    assert client.get("/nope/").status_code == 404


def test_a_hand_made_url_cannot_ask_for_a_million_rows(client):
    """Row 999999 is refused with a French message (a 400, the form filled), never clamped to the
    list's last row in silence (issue 17, finding 4)."""
    response = client.get("/encore/", {"_f": "1", "npcs.999999.menace": "2"})
    assert response.status_code == 400
    body = response.content.decode()
    assert "désigne la ligne «\u202f999999\u202f»" in body
    assert 'name="npcs.0.menace"' in body
    assert 'name="npcs.1.menace"' not in body


@pytest.mark.parametrize(
    "params",
    [
        {"_f": "1", "action": "\x00", "pc.attribute": "1e9"},
        {"_f": "1", "seed": "-5", "r": "1"},
        {"_f": "1", "seed": "99999999999999999999", "r": "1"},
        {"_f": "1", "dice.pc.1": "💥", "r": "1", "seed": "1"},
        {"_f": "1", "_del": "npcs.abc", "_add": "zzz", "_load": "preset.nope.3"},
        {"_f": "1", "preset.npc.0": "999999", "_load": "preset.npc.0"},
        {"_f": "1", "rules.tiers.0.name": "x", "npcs.0.attacks_left": "9", "r": "1", "seed": "3"},
    ],
)
def test_garbage_in_the_url_never_gives_a_500(client, params):
    assert client.get("/encore/", params).status_code in (
        200,
        400,
        422,
    )  # 400: a refusal (an unknown preset row, issue 14)


def test_a_crowded_chart_keeps_about_eight_tick_labels():
    from fractions import Fraction

    from calculator.charts import chart_view
    from rulesets.core.odds import Chart

    bars = tuple((str(i), Fraction(1, 40)) for i in range(40))
    view = chart_view(Chart(key="k", title="t", bars=bars))
    assert 5 <= sum(b.show_label for b in view.bars) <= 9
    assert not any(b.show_percent for b in view.bars)


def test_a_valid_scenario_without_dice_shows_no_stale_dice_inputs(client):
    response = client.get("/encore/", {**ALDRIC, "pc.attribute": "0", "pc.speciality": "", "dice.pc.1": ""})
    body = response.content.decode()
    assert 'name="dice.pc.1"' not in body
    assert 'name="pc.attribute" value="0"' in body


def test_a_null_character_in_a_text_field_is_refused_on_that_field(client):
    """The form cleans only the fields that can fail Django's validation (choices, and any value
    holding a null character): the text field still says why it is refused."""
    response = client.get("/encore/", {"_f": "1", "pc.name": "Ald\x00ric", "r": "1", "seed": "1"})
    assert response.status_code == 422  # the engine refuses it too: no result (issue 17, finding 4)
    form = response.context["form"]
    assert "pc.name" in form.errors
    assert "choice" not in str(form.errors["pc.name"])  # Django's null-character message, not another


def test_an_unknown_choice_is_refused_on_its_field(client):
    response = client.get("/encore/", {"_f": "1", "action": "voler", "r": "1", "seed": "1"})
    form = response.context["form"]
    assert "action" in form.errors
