"""The Quadrature flow in a real browser: load a creature, attack it, carry the sheet to the next round;
the living sheet follows « Résoudre »; a printout is one A5 landscape page."""

import re
from urllib.parse import parse_qs, urlparse

import pytest
from playwright.sync_api import expect

from calculator.short_links import expand_query
from tests.e2e.conftest import DESKTOP, PHONE

pytestmark = pytest.mark.e2e


@pytest.mark.parametrize(("label", "viewport"), [("phone", PHONE), ("desktop", DESKTOP)])
def test_a_gm_attacks_a_bestiary_creature_and_follows_its_living_sheet(
    browser, live_server, bestiary, shot, label, viewport
):
    context = browser.new_context(viewport=viewport, locale="fr-FR")
    page = context.new_page()
    page.goto(f"{live_server.url}/quadrature/")
    page.click('summary:has-text("Table de puissance")')  # seven columns: they scroll inside their panel
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    page.select_option("select[name='preset.creature']", label="Brigand vétéran — Compétent")
    expect(page.locator("input[name='adversary.name']")).to_have_value("Brigand vétéran")
    page.wait_for_load_state("networkidle")
    page.select_option("select[name='mode']", "pc_attack")
    page.wait_for_load_state("networkidle")
    page.select_option("select[name='target_part']", "3")  # Bras armé: 🛡️ 1, Frappe vive
    page.click("details[data-adjust='pc_success'] > summary")
    page.fill("input[name='pc.score']", "14")
    page.fill("input[name='pc_success.light']", "3")
    page.fill("input[name='pc_success.bleed']", "1")
    page.locator("input[name='pc_success.bleed']").dispatch_event("change")
    page.wait_for_timeout(400)  # the live redraw fires 150 ms after a change
    page.wait_for_load_state("networkidle")
    page.click("button:has-text('Résoudre')")
    try:
        expect(page.locator("#story")).to_be_visible(timeout=60_000)
    except AssertionError:
        shot(page, f"quadrature-fail-{label}")
        raise
    assert "Bras armé" in page.inner_text("#technical")
    # The wound chain's sentences wrap: nothing scrolls sideways on a phone.
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    assert page.is_visible(".q-sheet")
    query = parse_qs(urlparse(page.url).query)
    assert query["r"] == ["1"]
    shot(page, f"quadrature-{label}")
    page.click("a:has-text('Fin de manche avec la fiche obtenue')")
    expect(page.locator("#technical")).to_contain_text("La plaie se referme")
    # a long result link packs its scenario in « z » (calculator/short_links.py)
    assert parse_qs(expand_query(urlparse(page.url).query))["mode"] == ["round"]
    context.close()


def pdf_pages(pdf: bytes) -> list[tuple[float, float]]:
    """The pages of a PDF, as (width, height) in points: with pypdf when installed, else by
    counting the ``/Type /Page`` objects (not ``/Pages``) and reading their media boxes."""
    try:
        from io import BytesIO

        from pypdf import PdfReader
    except ImportError:
        count = len(re.findall(rb"/Type\s*/Page(?![a-zA-Z])", pdf))
        boxes = [tuple(float(v) for v in m.group(1).split()) for m in re.finditer(rb"/MediaBox\s*\[([^\]]*)\]", pdf)]
        size = (boxes[0][2] - boxes[0][0], boxes[0][3] - boxes[0][1]) if boxes else (0.0, 0.0)
        return [size] * count
    return [(float(p.mediabox.width), float(p.mediabox.height)) for p in PdfReader(BytesIO(pdf)).pages]


A5_LANDSCAPE = (595.3, 419.5)  # 210 × 148 mm in points


def assert_one_a5_landscape_page(pdf: bytes) -> None:
    pages = pdf_pages(pdf)
    assert len(pages) == 1, f"{len(pages)} pages"
    (width, height) = pages[0]
    assert abs(width - A5_LANDSCAPE[0]) < 2, pages[0]
    assert abs(height - A5_LANDSCAPE[1]) < 2, pages[0]


def creature_option(page, name):
    return page.locator("select[name='preset.creature'] option", has_text=name).first.get_attribute("value")


def test_the_living_sheet_follows_resolve_without_a_reload_and_prints_on_one_a5_page(
    browser, live_server, bestiary, shot
):
    context = browser.new_context(viewport=DESKTOP, locale="fr-FR")
    page = context.new_page()
    page.goto(f"{live_server.url}/quadrature/")
    griffon = creature_option(page, "Griffon des falaises")
    page.goto(f"{live_server.url}/quadrature/?_f=1&_load=preset.creature&preset.creature={griffon}")
    page.wait_for_load_state("networkidle")
    sheet = page.locator("#q-sheet")
    expect(sheet).to_contain_text("Ailes")
    expect(sheet).to_contain_text("Évasion 🍀 1")
    page.select_option("select[name='mode']", "pc_attack")
    page.select_option("select[name='target_part']", "2")  # Ailes: no armour, the Évasion block
    page.fill("input[name='pc.score']", "20")
    page.click("details[data-adjust='pc_success'] > summary")
    page.fill("input[name='pc_success.light']", "0")
    page.fill("input[name='pc_success.heavy']", "1")
    page.locator("input[name='pc_success.heavy']").dispatch_event("change")
    page.wait_for_timeout(400)
    page.wait_for_load_state("networkidle")
    loads = []
    page.on("load", lambda _page: loads.append(1))
    page.click("#resolve-button")
    expect(page.locator("#story")).to_be_visible(timeout=60_000)
    # the 💔 is turned by the 🍀 into 3 💢 that fill the Ailes' block: the sheet says so at once
    expect(sheet).to_contain_text("Fiche après l'échange")
    expect(sheet).not_to_contain_text("Ailes")
    expect(sheet).not_to_contain_text("Évasion 🍀")
    expect(sheet).to_contain_text("🍀 0")
    assert loads == []  # no reload: htmx swapped the result and, out of band, the sheet
    assert page.locator("#q-sheet").count() == 1
    shot(page, "quadrature-sheet-after")
    # Ctrl+P prints the sheet after the exchange, alone, on one A5 landscape page
    page.emulate_media(media="print")
    assert page.locator(".q-sheet").is_visible()
    assert not page.locator("#story").is_visible()
    assert "Ailes" not in page.inner_text(".q-sheet")
    page.emulate_media(media=None)
    assert_one_a5_landscape_page(page.pdf(prefer_css_page_size=True))
    context.close()


@pytest.mark.parametrize("name", ["", "Wyrm des brumes", "Nuée de rats", "Scarabée-forteresse"])
def test_a_printed_sheet_is_one_a5_landscape_page(browser, live_server, bestiary, name):
    """The seed's sheet « tient sur une feuille A5 paysage »: the printout is that page, nothing else
    (no blank pages after it), for the default sheet, the longest creature and a horde."""
    context = browser.new_context(viewport=DESKTOP, locale="fr-FR")
    page = context.new_page()
    page.goto(f"{live_server.url}/quadrature/")
    if name:
        key = creature_option(page, name)  # the row's key (issue 14)
        page.goto(f"{live_server.url}/quadrature/?_f=1&_load=preset.creature&preset.creature={key}")
    page.wait_for_load_state("networkidle")
    assert_one_a5_landscape_page(page.pdf(prefer_css_page_size=True))
    # a closed « La fiche vivante » still prints its sheet
    page.click("details.q-sheet-section > summary")
    page.emulate_media(media="print")
    assert page.locator(".q-sheet").is_visible()
    assert page.locator(".q-sheet-head h3").is_visible()  # the sheet's own <header>, not the site's
    assert not page.locator("select[name='mode']").is_visible()
    page.emulate_media(media=None)
    assert_one_a5_landscape_page(page.pdf(prefer_css_page_size=True))
    context.close()
