"""The JSON API: every ruleset's routes, examples, French 400s, OpenAPI."""

import json

import pytest
from django.core.management import call_command

from rulesets.core.registry import load_all

pytestmark = pytest.mark.django_db

SLUGS = list(load_all())


@pytest.fixture(autouse=True)
def bestiary():
    call_command("loadfixtures", verbosity=0)


def post(client, url, payload):
    return client.post(url, json.dumps(payload), content_type="application/json")


def test_the_ruleset_list_names_every_registered_ruleset(client):
    data = client.get("/api/rulesets").json()
    assert [r["slug"] for r in data] == SLUGS
    assert data[0]["links"]["resolve"].endswith("/resolve")


@pytest.mark.parametrize("slug", SLUGS)
def test_every_example_posts_and_gives_its_expected_outcome(client, slug):
    examples = client.get(f"/api/rulesets/{slug}/examples").json()
    assert examples
    for example in examples:
        response = post(client, f"/api/rulesets/{slug}/resolve", example["request"])
        assert response.status_code == 200, response.content
        data = response.json()
        expected = dict(example["expected"])
        if "outcome" in expected:
            assert data["outcome"] == expected.pop("outcome"), example["key"]
        numbers = expected.pop("numbers", expected)  # {"numbers": {...}} or the numbers themselves
        for key, value in numbers.items():
            assert data["numbers"].get(key) == value, (example["key"], key)


@pytest.mark.parametrize("slug", SLUGS)
def test_odds_are_exact_fractions_summing_to_one(client, slug):
    example = client.get(f"/api/rulesets/{slug}/examples").json()[0]
    data = post(client, f"/api/rulesets/{slug}/odds", {"scenario": example["request"]["scenario"]}).json()
    total = sum(eval(o["probability"]["fraction"].replace("/", "/"), {}) for o in data["outcomes"])
    assert abs(total - 1) < 1e-12


@pytest.mark.parametrize("slug", SLUGS)
def test_the_schema_is_a_json_schema_of_the_request(client, slug):
    schema = client.get(f"/api/rulesets/{slug}/schema").json()
    assert schema["type"] == "object"
    assert "scenario" in schema["properties"]


def test_the_same_seed_gives_the_same_dice(client):
    payload = {"scenario": {"pc": {"attribute": 4}}, "seed": 77}
    first = post(client, "/api/rulesets/encore/resolve", payload).json()
    second = post(client, "/api/rulesets/encore/resolve", payload).json()
    assert first["dice"] == second["dice"]
    assert first["seed"] == 77
    assert all(not d["typed"] for d in first["dice"])


def test_bad_values_are_a_400_with_french_messages_per_field(client):
    response = post(
        client,
        "/api/rulesets/encore/resolve",
        {"scenario": {"pc": {"attribute": "x"}, "npcs": [{"menace": 9}]}, "seed": "abc", "zzz": 1},
    )
    assert response.status_code == 400
    errors = response.json()["errors"]
    # French spacing (issue 15): a narrow no-break space before « : »
    assert (
        errors["scenario.pc.attribute"] == "Attribut (dés)\u202f: nombre entier attendu, pas le texte «\u202fx\u202f»."
    )
    assert errors["scenario.npcs.0.menace"] == "Menace\u202f: doit être entre 1 et 3 (reçu 9)."
    assert errors["seed"] == "La graine doit être un entier."
    assert errors["zzz"] == "Champ inconnu."


def test_a_typed_die_that_is_not_a_face_is_a_400_naming_the_die(client):
    response = post(client, "/api/rulesets/encore/resolve", {"scenario": {"pc": {"attribute": 2}}, "dice": {"pc.1": 7}})
    assert response.status_code == 400
    assert "d6 du PJ n°1\u202f: «\u202f7\u202f» n'est pas une face" in response.json()["errors"]["dice.pc.1"]


@pytest.mark.parametrize("body", [b"not json", b"[1, 2]", b'"text"', b"null", b'{"scenario": 3}'])
def test_malformed_bodies_are_a_400_never_a_500(client, body):
    for route in ("resolve", "odds"):
        response = client.post(f"/api/rulesets/encore/{route}", body, content_type="application/json")
        assert response.status_code == 400, (route, body)
        assert response.json()["errors"]


def test_an_unknown_ruleset_is_a_json_404(client):
    response = post(client, "/api/rulesets/nope/resolve", {})
    assert response.status_code == 404
    assert "nope" in response.json()["errors"]["slug"]


def test_openapi_describes_each_ruleset_request_from_its_dataclasses(client):
    doc = client.get("/api/openapi.json").json()
    for slug in SLUGS:
        operation = doc["paths"][f"/api/rulesets/{slug}/resolve"]["post"]
        schema = operation["requestBody"]["content"]["application/json"]["schema"]
        assert "scenario" in schema["properties"]
        assert "400" in operation["responses"]


@pytest.mark.parametrize("slug", SLUGS)
def test_every_answer_fits_the_schema_the_openapi_document_declares(client, slug):
    """The resolve and odds answers skip pydantic's re-validation (for speed): they must still be
    exactly the declared ``ResolveOut`` / ``OddsOut``, field for field."""
    from calculator.api import OddsOut, ResolveOut

    for example in load_all()[slug].examples():
        for route, schema in (("resolve", ResolveOut), ("odds", OddsOut)):
            data = post(client, f"/api/rulesets/{slug}/{route}", dict(example.request)).json()
            assert schema.model_validate(data).model_dump(mode="json") == data, (example.key, route)
