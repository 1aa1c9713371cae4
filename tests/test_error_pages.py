"""Issue 17, finding 6: the error pages are French, the 500 shows with the database down, every
error of ``/api/`` is the API's JSON (``{"message", "errors"}``), and HEAD is answered wherever GET is.
"""

import logging
from contextlib import contextmanager
from unittest import mock
from urllib.parse import urlencode, urlparse

import pytest
from django.core.management import call_command
from django.db import OperationalError
from django.db.backends.base.base import BaseDatabaseWrapper
from django.test import Client

from calculator.api import ErrorOut
from calculator.views import page_path
from rulesets.core.registry import load_all
from tests.encounters.helpers import detail_url
from tests.factories_encounters import CombatantFactory, EncounterFactory
from tests.test_encore_pages import ALDRIC

pytestmark = pytest.mark.django_db

FORM = "application/x-www-form-urlencoded"
JSON = "application/json"


@pytest.fixture
def anonymous():
    return Client(raise_request_exception=False)


@contextmanager
def database_down():
    """Every new cursor fails as it does when PostgreSQL is unreachable."""
    refused = OperationalError('connection to server at "db" failed: Connection refused')
    with mock.patch.object(BaseDatabaseWrapper, "ensure_connection", side_effect=refused):
        yield


def assert_api_error(response, status):
    assert response.status_code == status
    assert response["Content-Type"].startswith(JSON)
    body = response.json()
    ErrorOut.model_validate(body)
    assert body["message"]
    assert all(body["errors"].values())
    return body


# --- the pages -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("path", ["/", "/encore/", "/quadrature/", "/r/abcdefgh"])
def test_with_the_database_down_a_page_is_a_french_500_not_djangos_bare_english(anonymous, path):
    with database_down():
        response = anonymous.get(path)
    body = response.content.decode()
    if path == "/":  # the home page reads no table: it still shows
        assert response.status_code == 200
        return
    assert response.status_code == 500
    assert "Server Error" not in body
    assert "Erreur du serveur" in body
    assert "Estoc n'a pas pu répondre à cette demande" in body.replace("&#x27;", "'")


def test_the_500_page_needs_no_request_and_no_database():
    from django.template.loader import render_to_string

    with database_down():
        body = render_to_string("500.html")
    assert "Erreur du serveur" in body
    assert "/static/css/estoc.css" in body


def test_an_unknown_page_is_a_french_404_with_the_navigation(client):
    response = client.get("/nulle-part/")
    assert response.status_code == 404
    body = response.content.decode()
    assert "Page introuvable" in body
    assert "/nulle-part/" in body
    for ruleset in load_all().values():
        assert f'href="{page_path(ruleset.slug)}"' in body


def test_another_game_masters_encounter_is_the_french_404(client):
    encounter = EncounterFactory()
    client.force_login(EncounterFactory().owner)
    response = client.get(detail_url(encounter))
    assert response.status_code == 404
    assert "Page introuvable" in response.content.decode()


def test_a_form_too_large_is_a_french_400(client, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    response = client.post("/encore/", urlencode({**ALDRIC, "pc.name": "x" * 2000}), content_type=FORM)
    assert response.status_code == 400
    assert "Requête refusée" in response.content.decode()


# --- the API: every error is JSON ------------------------------------------------------------------------


def test_an_unknown_api_path_is_a_json_404(client):
    for path in ("/api/nope/", "/api/rulesets/encore/nope/more", "/api/"):
        body = assert_api_error(client.get(path), 404)
        assert body["message"].startswith("Adresse inconnue de l'API")


@pytest.mark.parametrize(
    ("method", "path", "allowed"),
    [
        ("get", "/api/rulesets/encore/resolve", "POST"),
        ("put", "/api/rulesets/encore/odds", "POST"),
        ("post", "/api/rulesets", "GET"),
        ("delete", "/api/rulesets/encore/schema", "GET"),
    ],
)
def test_a_method_an_operation_does_not_take_is_a_json_405_with_allow(client, method, path, allowed):
    response = getattr(client, method)(path)
    body = assert_api_error(response, 405)
    assert allowed in response["Allow"]
    assert (
        body["message"] == f"Méthode {method.upper()} refusée à cette adresse (acceptées\u202f: {response['Allow']})."
    )


@pytest.mark.parametrize("content_type", [JSON, FORM])
def test_a_body_of_5_mb_is_a_json_413(client, content_type):
    """Read by the operation (JSON) or by the form middleware before it (urlencoded): the same answer."""
    body = b'{"scenario": {"pc": {"name": "' + b"x" * (5 * 1024 * 1024) + b'"}}}'
    if content_type == FORM:
        body = b"scenario=" + b"x" * (5 * 1024 * 1024)
    response = client.post("/api/rulesets/encore/resolve", body, content_type=content_type)
    answer = assert_api_error(response, 413)
    assert answer["message"] == "Corps de la requête trop volumineux\u202f: 2621440\u00a0octets au plus."


def test_a_server_error_in_an_operation_is_a_json_500_and_is_logged(anonymous, caplog):
    with (
        mock.patch("calculator.services.resolution_resolve", side_effect=RuntimeError("boom")),
        caplog.at_level(logging.ERROR),
    ):
        response = anonymous.post("/api/rulesets/encore/resolve", "{}", content_type=JSON)
    body = assert_api_error(response, 500)
    assert body["message"].startswith("Erreur interne du serveur")
    assert "boom" not in response.content.decode()
    assert any(record.exc_info and "boom" in str(record.exc_info[1]) for record in caplog.records)


@pytest.mark.parametrize("route", ["resolve", "odds"])
def test_with_the_database_down_the_api_still_answers_json(anonymous, route):
    """The API reads the table settings from the database (kept a while in the bestiary cache): it
    answers from there, or with its JSON 500, never Django's HTML page."""
    with database_down():
        response = anonymous.post(f"/api/rulesets/encore/{route}", '{"scenario": {}}', content_type=JSON)
    assert response["Content-Type"].startswith(JSON)
    if response.status_code != 200:
        assert_api_error(response, 500)


def test_the_api_keeps_its_own_answers(client):
    """An operation's 400 (messages per field) and 404 (the unknown ruleset) pass unchanged."""
    response = client.post("/api/rulesets/encore/resolve", '{"scenario": {}, "zzz": 1}', content_type=JSON)
    assert assert_api_error(response, 400)["errors"] == {"zzz": "Champ inconnu."}
    response = client.post("/api/rulesets/nope/resolve", "{}", content_type=JSON)
    assert "nope" in assert_api_error(response, 404)["errors"]["slug"]


def test_the_openapi_document_declares_the_413_of_the_posts(client):
    doc = client.get("/api/openapi.json").json()
    for route in ("resolve", "odds"):
        responses = doc["paths"][f"/api/rulesets/encore/{route}"]["post"]["responses"]
        assert {"200", "400", "413"} <= set(responses)


# --- HEAD wherever GET is allowed ------------------------------------------------------------------------


@pytest.fixture
def site(client):
    """A logged-in game master with an encounter, and a shared result: every GET URL of the site."""
    call_command("loaddata", "fixtures/encore.json", verbosity=0)
    encounter = EncounterFactory(system="encore", clock={"turn": 1})
    CombatantFactory(encounter=encounter, kind="pj", state={"name": "Aldric"})
    client.force_login(encounter.owner)
    link = client.post("/encore/", ALDRIC)["Location"]
    share = client.post("/r/", {"ruleset": "encore", "q": urlparse(link).query})["Location"]
    base = detail_url(encounter)
    pages = [page_path(slug) for slug in load_all()]
    return [
        "/",
        *pages,
        link,
        share,
        f"{share}/capture",
        f"{share}/wiki.txt",
        f"{share}/markdown.md",
        "/encounters/",
        base,
        f"{base}log.md",
        f"{base}log.json",
        f"{base}export.json",
        "/accounts/invite/",
        "/sw.js",
        "/manifest.webmanifest",
        "/offline/",
        "/api/rulesets",
        "/api/rulesets/encore/schema",
        "/api/rulesets/encore/examples",
        "/api/openapi.json",
    ]


def test_head_is_answered_wherever_get_is(client, site):
    for url in site:
        get, head = client.get(url), client.head(url)
        assert get.status_code == 200, url
        assert head.status_code == 200, (url, head.status_code)
        assert head["Content-Type"] == get["Content-Type"], url
        assert head.content == b"", url
