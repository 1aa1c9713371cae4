"""Issue 14 on the Quadrature page (Django test client): the new choices are on the form and resolve."""

import pytest
from django.core.management import call_command

from bestiary.quadrature import selectors
from bestiary.quadrature.models import Adversary as AdversaryRow
from rulesets.core.schema import parse
from rulesets.quadrature.model import Adversary
from tests.test_quadrature_pages import form_values, load

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture(autouse=True)
def bestiary():
    call_command("loaddata", "fixtures/quadrature.json", verbosity=0)


def test_the_default_form_s_loup_des_cendres_is_the_bestiary_s(client):
    row = AdversaryRow.objects.get(name="Loup des cendres")
    assert parse(Adversary, selectors.adversary_data(row)) == Adversary()
    page = form_values(client.get("/quadrature/"))
    loaded = form_values(load(client, "Loup des cendres"))
    for key in ("adversary.danger", "adversary.menace", "adversary.nuisance", "adversary.guard"):
        assert page[key] == loaded[key], key
    assert (page["adversary.menace"], page["adversary.nuisance"], page["adversary.guard"]) == ("3", "1", "10")


def test_the_page_offers_the_reaction_the_predator_strike_the_course_and_the_cuirasse_reading(client):
    body = client.get("/quadrature/").content.decode()
    assert 'name="play"' in body
    assert 'value="predator"' in body
    assert 'value="course"' in body
    assert 'name="settings.cuirasse"' in body
    assert 'name="adversary.reactions_spent"' in body


def test_a_reaction_without_a_reaction_on_the_sheet_is_refused_on_its_field(client):
    values = form_values(client.get("/quadrature/"))
    values.update({"mode": "adversary_attack", "play": "reaction", "card": "2"})
    response = client.post("/quadrature/", values, **HTMX)
    assert response.status_code == 422
    assert "aucune réaction ⚡ sur sa fiche" in response.content.decode()


def test_the_griffon_s_predator_strike_resolves_on_the_page(client):
    values = form_values(load(client, "Griffon des falaises"))
    values.update({"mode": "adversary_attack", "play": "predator", "adversary.action_points": "0"})
    values.update({f"dice.adv.{i}": v for i, v in enumerate(("4", "3", "3", "2"), start=1)})
    response = client.post("/quadrature/", values, **HTMX)
    body = response.content.decode()
    assert response.status_code == 200
    assert "Engagement serré" in body
    assert "Frappe vive" in body


def test_a_course_resolves_on_the_page(client):
    values = form_values(client.get("/quadrature/"))
    values["mode"] = "course"
    response = client.post("/quadrature/", values, **HTMX)
    assert response.status_code == 200
    assert "Course" in response.content.decode()
