"""A first visit's fields are drawn once per version of the bestiary (templatetags.estoc.fields_block):
the page is the one drawn without that memory, and an admin's edit shows at once."""

import re
from pathlib import Path

import pytest
from django.core.management import call_command
from django.test import override_settings

from bestiary.encore.models import NPC
from calculator import bestiary_cache, plugins
from calculator.views import page_path
from rulesets.core.registry import load_all

pytestmark = pytest.mark.django_db
TEMPLATES = Path(__file__).resolve().parent.parent / "templates"


@pytest.fixture(autouse=True)
def bestiary():
    call_command("loadfixtures", verbosity=0)
    bestiary_cache.clear_local()
    yield
    bestiary_cache.clear_local()


def page(client, slug):
    """The page with what each request draws anew blanked: CSRF tokens and CSP nonces."""
    html = client.get(page_path(slug)).content.decode()
    html = re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", html)
    html = re.sub(r'"X-CSRFToken": "[^"]+"', "", html)
    return re.sub(r'nonce="[^"]+"', "", html)


@pytest.mark.parametrize("slug", sorted(load_all()))
def test_a_first_visit_is_the_page_drawn_without_memory(client, slug):
    fresh = page(client, slug)  # BESTIARY_CACHE_SECONDS=0 in the tests: drawn each time
    with override_settings(BESTIARY_CACHE_SECONDS=30):
        first, second = page(client, slug), page(client, slug)
    assert first == second == fresh


@override_settings(BESTIARY_CACHE_SECONDS=30)
def test_an_edit_of_the_bestiary_shows_on_the_next_first_visit(client):
    before = page(client, "encore")
    npc = NPC.objects.first()
    npc.name = "Sentinelle d'essai"
    npc.save()
    after = page(client, "encore")
    assert "Sentinelle d&#x27;essai" in after or "Sentinelle d'essai" in after
    assert after != before


def fields_templates():
    names = {plugins.get(slug).fields_template for slug in load_all()}
    out = []
    for name in sorted(names):
        text = (TEMPLATES / name).read_text()
        out.append((name, text))
        # the templates it includes
        for included in re.findall(r'{% include "([^"]+)"', text):
            out.append((included, (TEMPLATES / included).read_text()))
    return out


@pytest.mark.parametrize(("name", "text"), fields_templates())
def test_the_fields_templates_read_nothing_of_the_visitor(name, text):
    for word in ("csrf_token", "csp_nonce", "request", "user", "perms", "messages", "session"):
        assert not re.search(rf"\b{word}\b", text), f"{name} reads « {word} »"


def permalink_page(client, link):
    html = client.get(link).content.decode()
    html = re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", html)
    html = re.sub(r'"X-CSRFToken": "[^"]+"', "", html)
    return re.sub(r'nonce="[^"]+"', "", html)


@pytest.mark.parametrize("slug", sorted(load_all()))
def test_a_permalink_is_the_page_drawn_without_memory(client, slug):
    """A permalink's fields are kept per link (the table opens the same shared result): the page is
    the one drawn without that memory, and another link draws its own fields."""
    from bench.latency import example_form

    ruleset = load_all()[slug]
    links = []
    for example in ruleset.examples()[:2]:
        form = example_form(ruleset, example.request)
        answer = client.post(page_path(slug), form.urlencode(), content_type="application/x-www-form-urlencoded")
        assert answer.status_code == 303
        links.append(answer["Location"].split("#")[0])
    fresh = [permalink_page(client, link) for link in links]
    with override_settings(BESTIARY_CACHE_SECONDS=30):
        kept = [permalink_page(client, link) for link in links + links]
    assert kept == fresh + fresh


@override_settings(BESTIARY_CACHE_SECONDS=30)
def test_an_edit_of_the_bestiary_shows_on_a_permalink_opened_again(client):
    from bench.latency import example_form

    ruleset = load_all()["encore"]
    form = example_form(ruleset, ruleset.examples()[0].request)
    link = client.post(page_path("encore"), form.urlencode(), content_type="application/x-www-form-urlencoded")[
        "Location"
    ].split("#")[0]
    before = permalink_page(client, link)
    npc = NPC.objects.first()
    npc.name = "Sentinelle d'essai"
    npc.save()
    after = permalink_page(client, link)
    assert "Sentinelle d&#x27;essai" in after or "Sentinelle d'essai" in after
    assert after != before
