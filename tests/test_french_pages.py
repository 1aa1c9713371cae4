"""Issue 15, « Proof »: the text lint over the site's pages as a reader sees them — each
calculator page, one resolved result per page (the fragment « Résoudre » swaps in), the home page,
the encounter list and detail pages (combatants, gauges, a played exchange and a round in the log),
the log's Markdown, the login and password pages, the 404 page, the offline page.

The visible text is read with :func:`tests.pages.visible_texts` (paragraphs, and the ``title``,
``placeholder``, ``aria-label`` and ``alt`` attributes), then linted with
:func:`tests.french_lint.assert_clean`. The generic templates are the site's; a fault in a text a
ruleset writes (its own template, labels, engine texts) marks that ruleset's page in
``PAGE_FAULTS`` or ``ENCOUNTER_FAULTS`` until its helper fixes it.
"""

from __future__ import annotations

import html
import re
from urllib.parse import urlencode

import pytest
from django.core.cache import cache
from django.core.management import call_command
from django.template.loader import render_to_string

from calculator.forms import permalink_query
from calculator.views import page_path
from encounters import services
from rulesets.core import encounter as core
from rulesets.core.registry import load_all
from rulesets.core.schema import parse, to_data
from tests.encounters.helpers import open_calculator
from tests.factories_encounters import UserFactory
from tests.french_lint import assert_clean, problems
from tests.pages import visible_texts

pytestmark = pytest.mark.django_db

# Pages whose faults come from a ruleset's own texts (its template, labels or engine), not from the
# generic templates: the lead removes an entry once that ruleset's helper has fixed it.
PAGE_FAULTS: dict[str, str] = {}
ENCOUNTER_FAULTS: dict[str, str] = {}


def _mark(faults: dict[str, str], slug: str) -> pytest.MarkDecorator | tuple[()]:
    reason = faults.get(slug)
    return pytest.mark.xfail(reason=reason, strict=False) if reason else ()


SLUGS = [pytest.param(s, marks=_mark(PAGE_FAULTS, s)) for s in sorted(load_all())]
SYSTEMS = [pytest.param(s, marks=_mark(ENCOUNTER_FAULTS, s)) for s in sorted(core.all_rules())]


@pytest.fixture
def bestiary():
    call_command("loadfixtures", verbosity=0)
    cache.clear()


def _page(client, url: str, *, status: int = 200, **extra) -> list[tuple[str, str]]:
    response = client.get(url, **extra)
    assert response.status_code == status, (url, response.status_code)
    return [(f"{url} {where}", text) for where, text in visible_texts(response)]


def _example_pairs(slug: str, index: int = 0) -> list[tuple[str, str]]:
    ruleset = load_all()[slug]
    example = ruleset.examples()[index]
    whole = to_data(parse(ruleset.scenario_type, example.request["scenario"]))
    form = permalink_query({"scenario": whole, "dice": example.request.get("dice", {})}, 11)
    return [(k, v) for k, vs in form.lists() for v in vs]


# --- the calculator pages --------------------------------------------------------------------------


@pytest.mark.parametrize("slug", SLUGS)
def test_the_calculator_page_and_its_result_read_as_careful_french(client, bestiary, slug):
    """The page as first drawn, and the result of its first worked example as « Résoudre » swaps
    it in (htmx) and as its permalink shows it whole."""
    texts = _page(client, page_path(slug))
    pairs = _example_pairs(slug)
    fragment = client.post(
        page_path(slug), urlencode(pairs), content_type="application/x-www-form-urlencoded", HTTP_HX_REQUEST="true"
    )
    assert fragment.status_code == 200, fragment.content.decode()[:500]
    assert "Le récit" in fragment.content.decode()
    texts += [(f"{slug} résultat (htmx) {w}", t) for w, t in visible_texts(fragment)]
    texts += _page(client, f"{page_path(slug)}?{urlencode(pairs)}&r=1")
    assert len(texts) > 30
    assert_clean(texts)


def test_the_site_pages_read_as_careful_french(client, bestiary):
    """Home, login, password reset, offline and 404 pages: the site's own templates."""
    texts = _page(client, "/")
    texts += _page(client, "/accounts/login/")
    texts += _page(client, "/accounts/password_reset/")
    texts += _page(client, "/accounts/password_reset/done/")
    texts += _page(client, "/offline/")
    texts += _page(client, "/une/page/qui/n-existe/pas/", status=404)
    assert any("Page introuvable" in t for _w, t in texts)
    client.force_login(UserFactory())
    texts += _page(client, "/encounters/")
    texts += _page(client, "/accounts/invite/")
    assert_clean(texts)


def test_the_error_pages_read_as_careful_french(client, settings):
    """The 400, 429 (past a rate limit) and 500 pages, and the lockout page of django-axes."""
    from django.test import RequestFactory

    request = RequestFactory().get("/")
    texts = [(f"400 {w}", t) for w, t in visible_texts(render_to_string("400.html", {}, request))]
    texts += [(f"500 {w}", t) for w, t in visible_texts(render_to_string("500.html", {}))]
    locked = render_to_string("registration/locked.html", {"failure_limit": 5, "cooloff_time": "1 h"}, request)
    texts += [(f"verrouillage {w}", t) for w, t in visible_texts(locked)]
    settings.PAGE_RATE = "1/m"
    cache.clear()
    client.get("/encore/")
    throttled = client.get("/encore/")
    assert throttled.status_code == 429
    texts += [(f"429 {w}", t) for w, t in visible_texts(throttled)]
    assert any("Trop de requêtes" in t for _w, t in texts)
    assert_clean(texts)


# --- the encounter pages ---------------------------------------------------------------------------


def _populate(encounter) -> None:
    """One combatant of each kind (the bestiary's first entry where the kind has one), then a
    round's end: the detail page shows cards, gauges, badges, the log."""
    rules = services.rules_for(encounter)
    table = services.table_of(rules.system)
    for kind in rules.kinds:
        entries = table.group(kind.preset_group) if kind.preset_group else ()
        encounter.refresh_from_db()
        services.combatants_join(
            encounter=encounter,
            version=encounter.version,
            kind=kind.key,
            entry=entries[0] if entries else None,
            name="",
            count=2 if kind is rules.kinds[-1] else 1,
        )
    encounter.refresh_from_db()
    services.encounter_advance(encounter=encounter, version=encounter.version)
    encounter.refresh_from_db()


def _play(client, encounter) -> None:
    """« Ouvrir le calculateur » on the system's first page with the first combatants its roles
    take, « Résoudre » with a fixed seed, then « Appliquer à la rencontre »."""
    rules = services.rules_for(encounter)
    page = rules.pages[0]
    present = list(encounter.combatants.filter(present=True).order_by("position"))
    roles, used = {}, set()
    for role in page.roles:
        fit = [c for c in present if c.kind in role.kinds and c.pk not in used][: max(1, min(role.many, 1))]
        if fit:
            roles[role.key] = fit
            used.update(c.pk for c in fit)
    url = open_calculator(client, encounter, page.slug, **roles)
    path, query = url.split("?", 1)
    response = client.post(path, f"{query}&seed=11", content_type="application/x-www-form-urlencoded")
    assert response.status_code == 303, response.content.decode()[:2000]
    result = client.get(response["Location"])
    body = result.content.decode()
    match = re.search(r'<form method="post"\s+action="([^"]+)"\s+class="apply-form[^"]*".*?</form>', body, re.S)
    assert match, "no « Appliquer » form"
    fields = {k: html.unescape(v) for k, v in re.findall(r'name="([^"]+)" value="([^"]*)"', match.group(0))}
    applied = client.post(html.unescape(match.group(1)), fields)
    assert applied.status_code == 303, applied.content.decode()[:2000]
    encounter.refresh_from_db()


@pytest.mark.parametrize("system", SYSTEMS)
def test_the_encounter_pages_read_as_careful_french(client, bestiary, system):
    """An encounter of ``system``: its detail page with every kind of combatant, an exchange
    played through its first calculator page and a round ended, its log as Markdown, and the
    list page that shows it."""
    user = UserFactory()
    client.force_login(user)
    encounter = services.encounter_create(owner=user, system=system, name="La nuit des Ombres")
    _populate(encounter)
    _play(client, encounter)
    assert encounter.log.count() >= 3
    url = f"/encounters/{encounter.pk}/"
    texts = _page(client, url)
    texts += _page(client, "/encounters/")
    log = client.get(f"{url}log.md").content.decode()
    lines = [re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", line) for line in log.splitlines()]  # a link: its text
    texts += [(f"log.md ligne {n}", line.lstrip("#*- ").rstrip("*")) for n, line in enumerate(lines, 1)]
    entries = list(encounter.log.all())
    texts += [(f"journal n° {e.seq}", t) for e in entries for t in (e.title, e.clock_label, *e.story, *e.lines)]
    assert_clean(texts)


# --- the extraction itself -------------------------------------------------------------------------


def test_the_visible_text_is_what_a_reader_sees():
    """Paragraphs with their inline parts joined, attributes a reader meets, no script or style:
    a fault anywhere there reaches the lint."""
    page = (
        "<html><head><title>Estoc : accueil</title><style>a::before { content: 'x : y' }</style></head>"
        '<body><p>Le <code>Brigand</code> frappe <strong>de Orc</strong> !</p><script>var a = "b : c";</script>'
        '<input placeholder="Nom : vide" aria-label="Champ ; nom"><img alt="Carte (s)" src="x">'
        '<textarea>{| class="wikitable" |}</textarea>'
        '<button title="Relancer : tout">Relancer</button></body></html>'
    )
    texts = {t for _w, t in visible_texts(page)}
    assert "Le Brigand frappe de Orc !" in texts
    assert {"Estoc : accueil", "Nom : vide", "Champ ; nom", "Carte (s)", "Relancer : tout", "Relancer"} <= texts
    assert not any("var a" in t or "content" in t or "wikitable" in t for t in texts)
    assert sum(len(problems(t)) for t in texts) >= 6
