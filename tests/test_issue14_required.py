"""Issue 14, « Required means required; null is not a value »: the API, the CLI and the page.

Each test is named after the finding it reproduces; each failed on the main before the change (an empty
body resolved the default scenario, ``null`` became the default, ``"11"`` was read as 11, a blank field
on the page took its default).
"""

import io
import json

import pytest
from django.core.management import call_command

from rulesets.core.registry import load_all
from rulesets.core.schema import ScenarioError, Source, parse
from tests.pages import text
from tests.test_encore_pages import ALDRIC

pytestmark = pytest.mark.django_db

SLUGS = list(load_all())


@pytest.fixture(autouse=True)
def bestiary():
    call_command("loadfixtures", verbosity=0)


def post(client, url, body):
    data = body if isinstance(body, bytes | str) else json.dumps(body)
    return client.post(url, data, content_type="application/json")


@pytest.mark.parametrize("action", ["resolve", "odds"])
@pytest.mark.parametrize("slug", SLUGS)
@pytest.mark.parametrize("body", [b"", {}, {"scenario": None}, {"dice": {}}], ids=["empty", "{}", "null", "dice"])
def test_an_empty_body_or_no_scenario_is_a_400_naming_scenario(client, slug, action, body):
    response = post(client, f"/api/rulesets/{slug}/{action}", body)
    assert response.status_code == 400, response.content
    assert "champ obligatoire" in response.json()["errors"]["scenario"]


@pytest.mark.parametrize("slug", SLUGS)
def test_an_empty_scenario_object_still_takes_the_declared_defaults(client, slug):
    """``{}`` is a scenario: every field left out takes the default its JSON Schema declares."""
    assert post(client, f"/api/rulesets/{slug}/resolve", {"scenario": {}, "seed": 1}).status_code == 200


@pytest.mark.parametrize(
    ("slug", "scenario", "field"),
    [
        ("nephilim", {"attacker": {"degree": None}}, "scenario.attacker.degree"),
        ("encore", {"pc": {"attribute": None}}, "scenario.pc.attribute"),
        ("quadrature", {"adversary": None}, "scenario.adversary"),
        ("encore", {"pc": None}, "scenario.pc"),
        ("encore", {"npcs": None}, "scenario.npcs"),
    ],
)
def test_null_is_not_a_value_degree_attribute_adversary(client, slug, scenario, field):
    response = post(client, f"/api/rulesets/{slug}/resolve", {"scenario": scenario, "seed": 1})
    assert response.status_code == 400
    assert response.json()["errors"][field].endswith("valeur attendue, pas null.")


def test_strings_are_not_numbers_guard_11(client):
    response = post(client, "/api/rulesets/quadrature/resolve", {"scenario": {"adversary": {"guard": "11"}}})
    assert response.status_code == 400
    message = response.json()["errors"]["scenario.adversary.guard"]
    assert message == "Valeur de Garde\u202f: nombre entier attendu, pas le texte «\u202f11\u202f»."


def test_strings_are_not_booleans_in_json(client):
    response = post(client, "/api/rulesets/encore/resolve", {"scenario": {"pc": {"speciality": "true"}}})
    assert response.status_code == 400
    assert "true ou false attendu" in response.json()["errors"]["scenario.pc.speciality"]


def test_null_dice_are_refused_absent_dice_are_rolled(client):
    response = post(client, "/api/rulesets/encore/resolve", {"scenario": {}, "dice": None})
    assert response.status_code == 400
    assert "dice" in response.json()["errors"]
    assert post(client, "/api/rulesets/encore/resolve", {"scenario": {}}).status_code == 200


def test_a_list_over_its_maximum_is_refused_not_truncated(client):
    npcs = [{"menace": 1}] * 61
    response = post(client, "/api/rulesets/encore/resolve", {"scenario": {"npcs": npcs}})
    assert response.status_code == 400
    assert "au plus" in response.json()["errors"]["scenario.npcs"]


def test_an_optional_field_takes_null():
    """Where a field is optional, ``null`` is its value (no error): the rule is about defaults only."""
    for ruleset in load_all().values():
        for info in _optional_fields(ruleset.scenario_type):
            parse(ruleset.scenario_type, {info: None}, Source.JSON)


def _optional_fields(cls):
    from rulesets.core.schema import fields_of

    return [f.name for f in fields_of(cls) if f.optional]


def test_the_three_sources_read_a_blank_number_each_their_way():
    from rulesets.encore.model import Scenario

    assert parse(Scenario, {"pc": {"attribute": ""}}, Source.STORED).pc.attribute == 3  # as written
    with pytest.raises(ScenarioError) as form:
        parse(Scenario, {"pc": {"attribute": " "}}, Source.FORM)
    assert form.value.errors == {"pc.attribute": "Attribut (dés)\u202f: champ obligatoire."}
    with pytest.raises(ScenarioError) as api:
        parse(Scenario, {"pc": {"attribute": ""}}, Source.JSON)
    assert "nombre entier attendu" in api.value.errors["pc.attribute"]


@pytest.mark.parametrize("body", ["{}", '{"scenario": {"pc": {"attribute": null}}}'])
def test_the_cli_refuses_a_missing_scenario_and_null(body, monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", io.StringIO(body))
    with pytest.raises(SystemExit) as exit_:
        call_command("resolve", "encore", "-")
    assert exit_.value.code == 2
    errors = json.loads(capsys.readouterr().err)["errors"]
    assert ("scenario" in errors) or ("scenario.pc.attribute" in errors)


def test_a_blank_number_on_the_page_is_refused_on_its_field_with_the_form_filled(client):
    response = client.post("/encore/", {**ALDRIC, "pc.attribute": ""})
    assert response.status_code == 422
    body = text(response)
    assert "Attribut (dés) : champ obligatoire." in body
    html = response.content.decode()
    assert 'value="Aldric"' in html  # the rest of the form comes back as typed
    assert 'value="Arbalétrier"' in html


def test_a_blank_number_on_the_page_in_htmx_is_a_422_with_the_message(client):
    response = client.post("/encore/", {**ALDRIC, "npcs.0.sante": " "}, HTTP_HX_REQUEST="true")
    assert response.status_code == 422
    assert "champ obligatoire" in text(response)


def test_an_unknown_preset_id_on_the_page_is_refused_on_its_field_not_ignored(client):
    """« preset.weapon=9999 is silently ignored »: now a 400 with the message, the form filled."""
    form = "application/x-www-form-urlencoded"
    response = client.post("/nephilim/", "_f=1&preset.weapon=9999&_load=preset.weapon", content_type=form)
    assert response.status_code == 400
    assert "aucune ligne « 9999 » dans le bestiaire" in text(response)


def test_the_page_sends_the_rows_key_and_a_database_id_is_no_longer_a_choice(client):
    """The page sends keys too (issue 14): the weapon select offers ``fusil-d-assaut-ak-47``, the
    key the API takes; the row's database id is refused, under the select itself."""
    from bestiary.nephilim.models import Weapon

    form = "application/x-www-form-urlencoded"
    page = client.get("/nephilim/").content.decode()
    assert '<option value="fusil-d-assaut-ak-47">' in page
    loaded = client.post("/nephilim/", "_f=1&preset.weapon=fusil-d-assaut-ak-47&_load=preset.weapon", content_type=form)
    assert loaded.status_code == 200
    assert 'value="Fusil d&#x27;assaut AK-47"' in loaded.content.decode()
    ak = Weapon.objects.get(name="Fusil d'assaut AK-47")
    response = client.post("/nephilim/", f"_f=1&preset.weapon={ak.pk}&_load=preset.weapon", content_type=form)
    assert response.status_code == 400
    html = response.content.decode()
    start = html.index('<select class="form-select is-invalid" id="id_preset.weapon"')
    under = html[start : html.index("</div>", html.index("invalid-feedback", start))]
    assert f"aucune ligne «\u202f{ak.pk}\u202f» dans le bestiaire" in under


def test_a_blank_preset_choice_loads_nothing_and_says_nothing(client):
    form = "application/x-www-form-urlencoded"
    response = client.post("/nephilim/", "_f=1&preset.weapon=&_load=preset.weapon", content_type=form)
    assert response.status_code == 200


def test_ajouter_on_a_full_list_says_so_instead_of_doing_nothing(client):
    """« Ajouter » at the list's maximum (8 NPCs) was a silent no-op: now a 400 with the reason."""
    rows = {f"npcs.{i}.menace": "1" for i in range(8)}
    response = client.post("/encore/", {**ALDRIC, **rows, "_add": "npcs"})
    assert response.status_code == 400
    assert "« PNJ visés » : 8 lignes au plus ; retirez-en une avant d'en ajouter." in text(response)
    assert 'name="npcs.7.menace"' in response.content.decode()  # the rows typed are kept
    assert 'name="npcs.8.menace"' not in response.content.decode()
