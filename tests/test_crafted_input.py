"""Issue 17, finding 4: crafted input answers 4xx with a French message, never a 500.

Each test reproduces one of the crafted requests that raised (a traceback in the log, a 500): a row
index of thousands of digits (``int`` refuses past 4,300) or a unicode digit ('²' is a digit to
``str.isdigit``, not to ``int``), JSON nested past the parser's recursion, ``NaN``/``Infinity``, a NUL
character headed for PostgreSQL, a made-up id too large for its column.
"""

import contextlib
import html
import json
from urllib.parse import urlencode, urlparse

import pytest
from django.core.management import call_command
from django.db import connection

from calculator.json_input import MAX_DEPTH
from encounters.models import Combatant, Encounter
from rulesets.core.request import parse_seed
from rulesets.core.schema import ScenarioError, ascii_number, parse_index, unflatten
from tests.encounters.helpers import detail_url
from tests.factories_encounters import CombatantFactory, EncounterFactory
from tests.test_encore_pages import ALDRIC

pytestmark = pytest.mark.django_db

DIGITS = "9" * 5000
FORM = "application/x-www-form-urlencoded"
HTMX = {"HTTP_HX_REQUEST": "true"}


def page(client, params, method="get", **extra):
    if method == "get":
        return client.get("/encore/", params, **extra)
    return client.post("/encore/", urlencode(params), content_type=FORM, **extra)


# --- strict, bounded integers -------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["²", "٣", "", "-1", "+1", " 1", "1.0", "1_000", DIGITS, "1234"])
def test_an_index_is_one_to_three_ascii_digits(text):
    assert parse_index(text) is None


def test_an_index_and_an_id_are_read_when_they_are_plain_digits():
    assert parse_index("007") == 7
    assert ascii_number("123456789012345678", 18) == 123456789012345678
    assert ascii_number("1234567890123456789", 18) is None


def test_unflatten_refuses_a_word_where_a_list_needs_an_index():
    with pytest.raises(ScenarioError) as refused:
        unflatten({"npcs.0.menace": "1", "npcs.x.menace": "2"})
    assert "numéro de ligne attendu" in refused.value.errors["npcs.x.menace"]
    # 4 digits are no index: a key, which the scenario's parser then calls unknown
    assert unflatten({f"npcs.{DIGITS}.menace": "1"}) == {"npcs": {DIGITS: {"menace": "1"}}}


@pytest.mark.parametrize("seed", [float("inf"), float("-inf"), float("nan"), 1.5, "²", "١٢", "1e3", DIGITS, True])
def test_a_seed_is_an_integer_never_truncated_nor_an_overflow(seed):
    with pytest.raises(ScenarioError) as refused:
        parse_seed(seed)
    assert refused.value.errors["seed"].startswith("La graine doit être")


def test_a_seed_typed_with_its_sign_or_as_a_whole_float_is_read():
    assert parse_seed(" +12 ") == 12
    assert parse_seed(12.0) == 12


# --- the calculator page ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "crafted",
    [
        {f"npcs.{DIGITS}.menace": "1"},
        {"npcs.².menace": "1"},
        {"npcs.٣.menace": "1"},
        {"npcs.8.menace": "1"},  # the list holds 8 rows: 0 to 7
        {"_del": f"npcs.{DIGITS}"},
        {"_del": "npcs.²"},
        {"_load": "preset.npc.40", "preset.npc.40": "1"},
    ],
)
@pytest.mark.parametrize(("method", "extra"), [("get", {}), ("post", {}), ("post", HTMX)])
def test_a_row_no_list_may_have_is_a_400_with_a_french_message_and_the_form_filled(client, crafted, method, extra):
    response = page(client, {**ALDRIC, **crafted}, method, **extra)
    assert response.status_code == 400
    body = response.content.decode()
    assert "désigne la ligne" in body
    assert "qui en compte 8 au plus (numéros 0 à 7)" in body
    assert 'value="Aldric"' in body  # the rest of the form comes back as typed
    assert DIGITS not in body  # a made-up key is quoted shortened


def test_the_last_row_a_list_may_have_is_accepted(client):
    response = page(client, {**ALDRIC, "npcs.7.menace": "2"})
    assert response.status_code == 200
    assert 'name="npcs.7.menace"' in response.content.decode()


def test_a_word_in_place_of_an_index_stays_an_unknown_key_ignored(client):
    assert page(client, {**ALDRIC, "npcs.abc.menace": "1", "_del": "npcs.abc"}).status_code == 200


def test_a_huge_number_in_a_field_is_refused_on_that_field(client):
    response = page(client, {**ALDRIC, "pc.attribute": DIGITS, "r": "1", "seed": "1"})
    assert response.status_code == 422
    assert "nombre entier attendu" in response.content.decode()


# --- the API -----------------------------------------------------------------------------------------


def api(client, route, body):
    return client.post(f"/api/rulesets/encore/{route}", body, content_type="application/json")


@pytest.mark.parametrize("route", ["resolve", "odds"])
@pytest.mark.parametrize(
    "body",
    ['{"scenario": ' * 1500 + "{}" + "}" * 1500, "[" * 5000 + "]" * 5000, '{"x": ' + "[" * 300 + "]" * 300 + "}"],
)
def test_json_nested_too_deep_is_a_french_400(client, route, body):
    response = api(client, route, body)
    assert response.status_code == 400
    assert (
        response.json()["errors"]["__all__"] == f"JSON imbriqué trop profondément\u202f: {MAX_DEPTH} niveaux au plus."
    )


def test_json_nested_as_a_scenario_is_is_read(client):
    assert api(client, "resolve", json.dumps({"scenario": {"npcs": [{"menace": 2}]}, "seed": 3})).status_code == 200


@pytest.mark.parametrize("route", ["resolve", "odds"])
@pytest.mark.parametrize(
    "body",
    [
        '{"seed": Infinity}',
        '{"seed": -Infinity}',
        '{"seed": NaN}',
        '{"seed": 1e400}',
        '{"scenario": {"npcs": [{"menace": Infinity}]}}',
        '{"dice": {"pc.1": NaN}}',
    ],
)
def test_nan_and_infinity_are_a_french_400(client, route, body):
    response = api(client, route, body)
    assert response.status_code == 400
    assert "nombres finis" in response.json()["errors"]["__all__"]


@pytest.mark.parametrize("deck", ["[" * 5000 + "]" * 5000, "[NaN]", '["²", ' + "9" * 5000 + "]"])
def test_a_page_hidden_json_input_nested_deep_is_no_500(client, deck):
    """Quadrature's page keeps the deck it drew in a hidden input, as JSON (``adversary._deck``)."""
    response = client.post(
        "/quadrature/", urlencode({"_f": "1", "_refresh": "1", "adversary._deck": deck}), content_type=FORM
    )
    assert response.status_code == 200


def test_a_fractional_seed_is_refused_not_truncated(client):
    response = api(client, "resolve", '{"seed": 1.5}')
    assert response.status_code == 400
    assert response.json()["errors"]["seed"] == "La graine doit être un entier."


def test_a_nul_in_a_scenario_text_is_refused_on_its_field(client):
    response = api(client, "resolve", json.dumps({"scenario": {"pc": {"name": "Al\x00dric"}}}))
    assert response.status_code == 400
    assert response.json()["errors"]["scenario.pc.name"].endswith("caractère nul interdit dans un texte.")


def test_a_unicode_digit_in_feerie_targets_is_refused_on_the_field(client):
    body = {"scenario": {"activities": [{"kind": "attack", "targets": "²"}]}}
    response = client.post("/api/rulesets/feerie-action/resolve", json.dumps(body), content_type="application/json")
    assert response.status_code == 400


# --- sharing, encounters: what would reach PostgreSQL --------------------------------------------------


@pytest.fixture
def encore_bestiary():
    call_command("loaddata", "fixtures/encore.json", verbosity=0)


class NulWatch:
    """PostgreSQL refuses a NUL in a query's parameters (a DataError, a 500); SQLite takes it: this
    records, on any database, the queries that would carry one."""

    def __init__(self):
        self.seen = []

    def __call__(self, execute, sql, params, many, context):
        rows = params if many else [params]
        if any("\x00" in str(value) for row in rows or [] for value in (row or [])):
            self.seen.append(sql)
        return execute(sql, params, many, context)


@contextlib.contextmanager
def nul_watch():
    watch = NulWatch()
    with connection.execute_wrapper(watch):
        yield watch


def test_sharing_a_result_with_a_nul_in_a_name_is_a_french_400(client, encore_bestiary):
    link = client.post("/encore/", ALDRIC)["Location"]
    query = urlparse(link).query.replace("pc.name=Aldric", "pc.name=Al%00dric")
    with nul_watch() as watch:
        response = client.post("/r/", {"ruleset": "encore", "q": query})
    assert response.status_code == 400
    assert "caractère nul interdit" in response.content.decode()
    assert not watch.seen


@pytest.mark.parametrize("path", ["/r/ab%00cd", "/r/ab%00cd/capture", "/r/ab%00cd/wiki.txt"])
def test_a_nul_in_a_share_id_is_a_404_without_a_query(client, path):
    with nul_watch() as watch:
        assert client.get(path).status_code == 404
    assert not watch.seen


def test_a_nul_in_an_invitation_token_is_an_invalid_invitation(client):
    with nul_watch() as watch:
        assert client.get("/accounts/invitation/ab%00cd/").status_code == 410
    assert not watch.seen


@pytest.fixture
def encounter(client):
    encounter = EncounterFactory(system="encore", clock={"turn": 1})
    client.force_login(encounter.owner)
    return encounter


def test_adding_a_combatant_named_with_a_nul_is_refused_in_french(client, encounter):
    url = f"{detail_url(encounter)}combatants/"
    with nul_watch() as watch:
        response = client.post(url, {"version": encounter.version, "kind": "pj", "name": "Al\x00dric", "count": "1"})
    assert response.status_code == 422
    assert "caractère nul" in response.content.decode().lower()
    assert not encounter.combatants.exists()
    assert not watch.seen


@pytest.mark.parametrize("count", ["²", DIGITS, "٣"])
def test_a_count_that_is_no_plain_number_is_refused_in_french(client, encounter, count):
    url = f"{detail_url(encounter)}combatants/"
    response = client.post(url, {"version": encounter.version, "kind": "pj", "count": count})
    assert response.status_code == 422
    assert "Combien\u202f: un nombre entier entre 1 et 12." in response.content.decode()


def test_an_encounter_named_with_a_nul_is_refused(client, encounter):
    from encounters import services

    with pytest.raises(ScenarioError) as refused:
        services.encounter_create(owner=encounter.owner, system="encore", name="a\x00b")
    assert refused.value.errors == {"name": services.ERROR_NUL}
    response = client.post("/encounters/", {"system": "encore", "name": "a\x00b"})
    assert response.status_code == 422
    assert Encounter.objects.count() == 1


@pytest.mark.parametrize("where", ["name", "title"])
def test_an_import_holding_a_nul_anywhere_is_refused_in_french(client, encounter, where):
    CombatantFactory(encounter=encounter, kind="pj", state={"name": "Aldric"})
    client.post(f"{detail_url(encounter)}advance/", {"version": encounter.version})
    data = json.loads(client.get(f"{detail_url(encounter)}export.json").content)
    if where == "name":
        data["name"] = "a\x00b"
    else:
        data["log"][0]["title"] = "a\x00b"
    with nul_watch() as watch:
        response = client.post("/encounters/import/", {"text": json.dumps(data)})
    assert response.status_code == 400
    assert "Ce fichier est refusé\u202f: Caractère nul (\\u0000) interdit dans un texte." in response.content.decode()
    assert Encounter.objects.count() == 1
    assert not watch.seen


@pytest.mark.parametrize(
    ("payload", "message"),
    [
        ("[" * 300 + "]" * 300, "JSON imbriqué trop profondément"),
        ('{"format": "estoc.encounter", "version": NaN}', "nombres finis"),
        (
            '{"format": "estoc.encounter",\n "version": }',
            "Ce fichier n'est pas du JSON lisible (erreur ligne 2, colonne",
        ),
    ],
)
def test_an_import_that_is_no_plain_json_is_refused_in_french(client, encounter, payload, message):
    response = client.post("/encounters/import/", {"text": payload})
    assert response.status_code == 400
    assert message in html.unescape(response.content.decode())


def test_applying_a_query_holding_a_nul_is_refused(client, encounter):
    with nul_watch() as watch:
        response = client.post(
            f"{detail_url(encounter)}apply/", {"version": encounter.version, "page": "encore", "q": "_f=1&x=\x00"}
        )
    assert response.status_code == 400
    assert "Caractère nul interdit dans un texte." in response.content.decode()
    assert not watch.seen


@pytest.mark.parametrize("version", ["99999999999999999999", DIGITS, "²"])
def test_a_made_up_version_is_a_stale_form_not_an_overflow(client, encounter, version):
    response = client.post(f"{detail_url(encounter)}advance/", {"version": version})
    assert response.status_code == 409


@pytest.mark.parametrize("add", ["", "advantages"])
@pytest.mark.parametrize("row", ["²", DIGITS, "8"])
def test_a_sheet_row_no_list_may_have_is_refused_on_the_sheet(client, encounter, row, add):
    npc = CombatantFactory(encounter=encounter, kind="pnj", state={"name": "Gobelin"})
    fields = {"version": encounter.version, f"c{npc.pk}-name": "Gobelin", f"c{npc.pk}-advantages.{row}.label": "x"}
    fields["_add"] = add  # « Ajouter une ligne » redraws the sheet: the message is there too
    response = client.post(f"{detail_url(encounter)}combatants/{npc.pk}/", urlencode(fields), content_type=FORM)
    assert response.status_code == 422
    assert "désigne la ligne" in response.content.decode()
    assert Combatant.objects.get(pk=npc.pk).state == {"name": "Gobelin"}


@pytest.mark.parametrize("roles", ["²", DIGITS, "99999999999999999999", "1,²"])
@pytest.mark.parametrize("enc", ["own", DIGITS, "99999999999999999999", "٣"])
def test_made_up_encounter_and_role_ids_on_a_calculator_page_are_ignored(client, encounter, roles, enc):
    pk = str(encounter.pk) if enc == "own" else enc
    response = client.get("/encore/", {**ALDRIC, "_enc": pk, "_role.pc": roles})
    assert response.status_code == 200


@pytest.mark.parametrize("typed", ["1_0", "٣", "３", "1.0", "0x1", " 1 2 "])
def test_a_number_is_written_in_ascii_digits(typed):
    """Issue 17, finding 4: ``int`` reads ``1_0`` as 10 and ``٣`` as 3; a field refuses them."""
    from rulesets.core.dice import D10
    from rulesets.core.schema import int_text

    assert int_text(typed) is None
    with pytest.raises(ValueError, match="n'est pas une face du dé"):
        D10.parse(typed)


@pytest.mark.parametrize(("typed", "value"), [("12", 12), (" -3 ", -3), ("\u22123", -3), ("+4", 4)])
def test_a_number_may_carry_a_sign_and_spaces_around_it(typed, value):
    from rulesets.core.schema import int_text

    assert int_text(typed) == value
