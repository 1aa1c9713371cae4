"""Shared results: frozen short links, the capture view, wikitext and Markdown exports."""

import html
import re
from urllib.parse import urlparse

import markdown as markdown_lib
import pytest
from django.core.management import call_command

from calculator import sharing
from calculator.models import SharedResult
from rulesets.core.registry import load_all
from tests.pages import text
from tests.test_encore_pages import ALDRIC

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def bestiary():
    call_command("loaddata", "fixtures/encore.json", verbosity=0)


@pytest.fixture
def shared(client):
    link = client.post("/encore/", ALDRIC)["Location"]
    response = client.post("/r/", {"ruleset": "encore", "q": urlparse(link).query})
    assert response.status_code == 303
    return SharedResult.objects.get(pk=response["Location"].rsplit("/", 1)[1])


def test_the_result_panel_offers_to_share(client):
    body = client.get(client.post("/encore/", ALDRIC)["Location"]).content.decode()
    assert 'action="/r/"' in body
    assert 'name="q" value="_f=1' in body


def test_sharing_freezes_inputs_dice_seed_outcome_narrative_and_engine_version(shared):
    assert len(shared.id) == 8
    assert shared.ruleset == "encore"
    assert shared.engine_version == "1.0"
    assert shared.request["dice"] == {"pc.1": 5, "pc.2": 2, "pc.3": 3, "pc.4": 1, "pc.5": 4}
    assert shared.request["seed"] == shared.result["seed"]
    assert shared.result["outcome"] == "partielle"
    assert shared.result["narrative"]["story"]
    assert ["pc_sante_after", "Santé d'Aldric", "7 — Valide, Stress 1"] in shared.summary


def test_the_short_link_shows_the_four_frames_and_the_tools(client, shared):
    response = client.get(f"/r/{shared.id}")
    assert response.status_code == 200
    body = text(response)
    for frame in ("La scène", "Le récit", "Résolution technique", "Résultat final"):
        assert frame in body
    assert "Télécharger en PNG" in body
    assert "Copier le wikitexte" in body
    assert "Une nouvelle" not in body
    assert 'id="drift"' not in response.content.decode()


def test_the_shared_result_stays_frozen_when_the_bestiary_changes(client, shared):
    from bestiary.encore.models import Settings

    Settings.objects.update(success_face=2, speciality_dice=0)
    body = text(client.get(f"/r/{shared.id}"))
    assert "Réussite partielle" in body
    assert "7 — Valide, Stress 1" in body


def test_the_page_says_when_a_re_resolution_would_now_differ(client, shared):
    shared.result["outcome"] = "reussite"
    shared.engine_version = "0.9"
    shared.save()
    response = client.get(f"/r/{shared.id}")
    assert 'id="drift"' in response.content.decode()
    assert "donnerait un autre résultat (moteur 0.9 → 1.0)" in text(response)


def test_the_capture_view_is_frames_only_and_the_only_embeddable_page(client, shared):
    capture = client.get(f"/r/{shared.id}/capture")
    assert capture.status_code == 200
    assert "X-Frame-Options" not in capture.headers
    assert "frame-ancestors *" in capture.headers["Content-Security-Policy"]
    body = capture.content.decode()
    assert "site-header" not in body
    assert body.count('class="frame ') == 4
    page = client.get(f"/r/{shared.id}")
    assert page.headers["X-Frame-Options"] == "DENY"
    assert "frame-ancestors 'self'" in page.headers["Content-Security-Policy"]


def test_the_wikitext_has_the_frames_as_sections_and_wikitables(shared):
    wiki = sharing.wikitext(shared, "https://estoc.example/r/x")
    # level 3 by default: a level-2 heading would add sections to the host page's contents (issue 19)
    assert wiki.startswith("=== La scène ===\n")
    assert wiki.count('{| class="wikitable"') == 2
    assert wiki.count("\n|}") == 2
    for heading in ("=== Le récit ===", "=== Résolution technique ===", "=== Résultat final ==="):
        assert heading in wiki
    rows = [line for line in wiki.splitlines() if line.startswith("| ") and " || " in line]
    assert len(rows) == len(shared.result["events"]) + 1  # + the dice row
    assert "'''Réussite partielle'''" in wiki


def test_wikitext_escapes_what_a_user_typed(shared):
    shared.result["events"][0]["label"] = "Nom|avec [[lien]] et {{modèle}}"
    wiki = sharing.wikitext(shared, "https://estoc.example/r/x")
    assert "Nom&#124;avec &#91;&#91;lien&#93;&#93; et &#123;&#123;modèle&#125;&#125;" in wiki


def test_phys_and_mag_become_coloured_spans():
    out = sharing.wiki_badges("Dégâts PHYS +2, MAG +1")
    assert re.search(r'<span style="[^"]*background:#C0524E[^"]*">PHYS</span> \+2', out)
    assert re.search(r'<span style="[^"]*background:#6B4E8A[^"]*">MAG</span> \+1', out)


def test_the_markdown_renders_to_headings_prose_and_tables(client, shared):
    md = client.get(f"/r/{shared.id}/markdown.md")
    assert md["Content-Type"].startswith("text/plain")
    rendered = markdown_lib.markdown(md.content.decode(), extensions=["tables"])
    assert rendered.count("<table>") == 2
    assert "<h3>Le récit</h3>" in rendered
    assert "<strong>Réussite partielle</strong>" in rendered
    assert "Santé d'Aldric" in html.unescape(rendered)


def test_the_wikitext_download(client, shared):
    response = client.get(f"/r/{shared.id}/wiki.txt")
    assert response.content.decode().startswith("=== La scène ===")


def test_the_embed_snippet_points_at_the_capture_view(client, shared):
    body = html.unescape(client.get(f"/r/{shared.id}").content.decode())
    assert f'<iframe src="http://testserver/r/{shared.id}/capture"' in body


def test_sharing_nothing_or_garbage_is_a_400_in_french(client):
    response = client.post("/r/", {"ruleset": "encore", "q": "_f=1&pc.attribute=99"})
    assert response.status_code == 400
    assert "Aucun résultat à partager" in response.content.decode()
    response = client.post("/r/", {"ruleset": "encore", "q": "_f=1&seed=5&pc.attribute=99"})
    assert response.status_code == 400
    assert "doit être entre 0 et 10" in html.unescape(response.content.decode())
    assert client.post("/r/", {"ruleset": "nope", "q": ""}).status_code == 400


def test_an_unknown_share_is_a_404(client):
    assert client.get("/r/zzzzzzzz").status_code == 404
    assert client.get("/r/zzzzzzzz/capture").status_code == 404


def test_the_shared_page_relaxes_styles_only_never_scripts(client, shared):
    csp = client.get(f"/r/{shared.id}").headers["Content-Security-Policy"]
    directives = {d.split()[0]: d for d in (part.strip() for part in csp.split(";")) if d}
    assert "'unsafe-inline'" not in directives["script-src"]
    assert "'nonce-" in directives["script-src"]


def test_phys_and_mag_are_badges_on_the_page():
    from calculator.templatetags.estoc import badges

    out = str(badges("Dégâts PHYS <3> et MAG"))
    assert '<span class="badge badge-phys">PHYS</span>' in out
    assert '<span class="badge badge-mag">MAG</span>' in out
    assert "&lt;3&gt;" in out


@pytest.mark.parametrize(
    ("raw", "escaped"),
    [
        ("n'atteint", "n'atteint"),
        ("''gras''", "&#39;&#39;gras&#39;&#39;"),
        ("* liste", "&#42; liste"),
        ("== titre", "&#61;= titre"),
    ],
)
def test_wiki_escape_keeps_french_apostrophes_and_neutralises_markup(raw, escaped):
    assert sharing.wiki_escape(raw) == escaped


@pytest.mark.parametrize(
    ("raw", "escaped"),
    [
        ("corps (standard)", "corps (standard)"),
        ("*gras*", "\\*gras\\*"),
        ("a|b", "a\\|b"),
        ("# titre", "\\# titre"),
        ("1. un", "1\\. un"),
    ],
)
def test_markdown_escape_neutralises_only_what_markdown_reads(raw, escaped):
    assert sharing.md_escape(raw) == escaped


@pytest.mark.parametrize("slug", sorted(load_all()))
def test_every_ruleset_shares_its_first_worked_example(client, slug):
    from calculator.forms import permalink_query
    from rulesets.core.registry import get

    call_command("loadfixtures", verbosity=0)
    example = get(slug).examples()[0]
    query = permalink_query({"scenario": example.request["scenario"], "dice": example.request.get("dice", {})}, 7)
    response = client.post("/r/", {"ruleset": slug, "q": query.urlencode()})
    assert response.status_code == 303, response.content.decode()[:500]
    page = client.get(response["Location"])
    assert page.status_code == 200
    wiki = client.get(response["Location"] + "/wiki.txt").content.decode()
    assert wiki.count('{| class="wikitable"') == 2
