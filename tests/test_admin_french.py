"""Issue 15, item 4: the admin in French — its header and title (« Administration d'Estoc », never
« Administration de Django »), and every section named in French, django-axes' included (it said
« Axes »)."""

import re

import pytest
from django.contrib import admin
from django.contrib.auth import get_user_model

from tests.french_lint import assert_clean
from tests.pages import visible_texts

pytestmark = pytest.mark.django_db

# every app the admin index shows, by label, with the French name it must show
APP_NAMES = {
    "auth": "Authentification et autorisation",
    "axes": "Verrouillage des connexions",
    "calculator": "Partages et liens courts",
    "accounts": "Comptes des MJ",
    "encounters": "Rencontres",
    "aventuriers": "Aventuriers",
    "encore": "enCORE",
    "feerie": "Contes de Fées (Féerie)",
    "nephilim": "Nephilim Légende",
    "quadrature": "Quadrature — adversaires",
}
# django-axes' models, in its own French translation
AXES_MODELS = {"tentatives de connexion", "connexions", "échecs de connexion"}


@pytest.fixture
def admin_client(client):
    user = get_user_model().objects.create_superuser("admin", "admin@example.org", "un-mot-de-passe-solide-42")
    client.force_login(user)
    return client


def test_the_admin_index_is_in_french(admin_client):
    response = admin_client.get("/admin/")
    assert response.status_code == 200
    body = response.content.decode()
    title = re.search(r"<title>(.*?)</title>", body, re.S).group(1)
    header = re.search(r'<div id="site-name">(.*?)</div>', body, re.S).group(1)
    assert "Administration d&#x27;Estoc" in header or "Administration d'Estoc" in header
    assert "Django" not in title
    assert "Django" not in header
    assert "Estoc" in title
    apps = {app["app_label"]: app for app in response.context["app_list"]}
    assert {label: str(app["name"]) for label, app in apps.items()} == APP_NAMES
    assert {str(m["name"]).lower() for m in apps["axes"]["models"]} == AXES_MODELS
    assert admin.site.site_header == admin.site.site_title == "Administration d'Estoc"
    # the names the index shows are written as the rest of the site is (issue 15's lint); Django's
    # own sentences (its French translation) are not the project's
    names = [(f"app {label}", str(app["name"])) for label, app in apps.items()]
    names += [(f"modèle {label}", str(m["name"])) for label, app in apps.items() for m in app["models"]]
    assert len(names) > 30
    assert_clean(names)
    shown = " ".join(text for _where, text in visible_texts(response))
    for name in APP_NAMES.values():
        assert name in shown
    assert "Axes" not in shown


def test_every_admin_section_page_is_titled_in_french(admin_client):
    """Each app's page of the admin (its models' list) is titled with its French name."""
    for label, name in APP_NAMES.items():
        response = admin_client.get(f"/admin/{label}/")
        assert response.status_code == 200, label
        title = re.search(r"<title>(.*?)</title>", response.content.decode(), re.S).group(1)
        assert name.replace("'", "&#x27;") in title, (label, title)
        assert "Django" not in title
