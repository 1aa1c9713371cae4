"""Quadrature's printable sheet in a real browser (issue 19, item 4): Chromium's print of the page is
exactly one A5 landscape page, the whole sheet on it, for the default sheet and the largest creature
of the fixtures, on a phone and a desktop, with every section of the form open, after « Résoudre »;
and the sheet's « PDF (A5) » link gives the server's PDF of the same sheet, one page too.

The finding: « Quadrature's printable A5 sheet prints with 5–7 blank pages after it » — the rest of
the page stayed laid out behind the sheet (hidden with ``visibility``, the sheet positioned over
it), so each A5 page of the long form printed blank. Pages are counted with pypdf."""

import json
from io import BytesIO
from pathlib import Path

import pytest
from playwright.sync_api import expect
from pypdf import PdfReader

from tests.e2e.conftest import DESKTOP, PHONE

pytestmark = pytest.mark.e2e

A5_LANDSCAPE = (595.3, 419.5)  # 210 × 148 mm in points
FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "quadrature.json"


def largest_creature() -> str:
    """The fixtures' creature with the longest sheet (the most parts, blocks and cards)."""
    rows = json.loads(FIXTURES.read_text(encoding="utf-8"))
    names = {r["pk"]: r["fields"]["name"] for r in rows if r["model"] == "quadrature.adversary"}
    part_of = {r["pk"]: r["fields"]["adversary"] for r in rows if r["model"] == "quadrature.bodypart"}
    size = dict.fromkeys(names, 0)
    for r in rows:
        owner = {
            "quadrature.bodypart": lambda f: f["adversary"],
            "quadrature.block": lambda f: part_of[f["part"]],
            "quadrature.deckentry": lambda f: f["adversary"],
        }.get(r["model"])
        if owner is not None:
            size[owner(r["fields"])] += 1
    return names[max(size, key=lambda pk: size[pk])]


def pages_of(pdf: bytes) -> list[tuple[float, float]]:
    return [(float(p.mediabox.width), float(p.mediabox.height)) for p in PdfReader(BytesIO(pdf)).pages]


def assert_one_a5_landscape_page(pdf: bytes, what: str) -> None:
    pages = pages_of(pdf)
    assert len(pages) == 1, f"{what}: {len(pages)} pages"
    width, height = pages[0]
    assert abs(width - A5_LANDSCAPE[0]) < 1.5, (what, pages[0])
    assert abs(height - A5_LANDSCAPE[1]) < 1.5, (what, pages[0])


def assert_prints_on_one_a5_page(page, what: str) -> None:
    """Ctrl+P as Chromium does it: print media, the sheet's own page size, and A5 landscape asked
    for; one page each time, the sheet whole on it (nothing cut by its frame), the link left out."""
    page.emulate_media(media="print")
    try:
        assert page.locator(".q-sheet").is_visible(), what
        assert not page.locator(".q-pdf").is_visible(), what
        clipped = page.evaluate(
            "(() => { const s = document.querySelector('.q-sheet'); return s.scrollHeight - s.clientHeight; })()"
        )
        assert clipped <= 1, f"{what}: {clipped} px of the sheet cut off"
        assert_one_a5_landscape_page(page.pdf(prefer_css_page_size=True), f"{what}, CSS page size")
        assert_one_a5_landscape_page(page.pdf(format="A5", landscape=True), f"{what}, A5 landscape")
    finally:
        page.emulate_media(media=None)


def open_sheet(page, live_server, name: str) -> None:
    page.goto(f"{live_server.url}/quadrature/")
    if name:
        pk = page.locator("select[name='preset.creature'] option", has_text=name).first.get_attribute("value")
        page.goto(f"{live_server.url}/quadrature/?_f=1&_load=preset.creature&preset.creature={pk}")
        expect(page.locator(".q-sheet-head h3")).to_contain_text(name)
    page.wait_for_load_state("networkidle")


@pytest.mark.parametrize(("label", "viewport"), [("phone", PHONE), ("desktop", DESKTOP)])
@pytest.mark.parametrize("which", ["default", "largest"])
def test_the_printed_sheet_is_one_a5_landscape_page_whatever_is_open(
    browser, live_server, bestiary, which, label, viewport
):
    name = largest_creature() if which == "largest" else ""
    assert which == "default" or name == "Wyrm des brumes"
    context = browser.new_context(viewport=viewport, locale="fr-FR")
    page = context.new_page()
    open_sheet(page, live_server, name)
    assert_prints_on_one_a5_page(page, f"{which} sheet, {label}")
    # every section of the form open (« Ajuster la fiche », the deck, the power table…): the form
    # is long, the printout still one page
    page.evaluate("document.querySelectorAll('details').forEach(d => { d.open = true; })")
    assert_prints_on_one_a5_page(page, f"{which} sheet, {label}, every section open")
    # the sheet's own section closed: it still prints
    page.evaluate("document.querySelector('details.q-sheet-section').open = false")
    assert_prints_on_one_a5_page(page, f"{which} sheet, {label}, its section closed")
    context.close()


def test_after_resolve_the_printout_and_the_pdf_link_follow_the_sheet(browser, live_server, bestiary):
    """« Résoudre » (htmx, no reload): the printout is the sheet after the exchange on one page, and
    the « PDF (A5) » link, swapped with the sheet, gives that sheet as one A5 landscape PDF."""
    context = browser.new_context(viewport=DESKTOP, locale="fr-FR")
    page = context.new_page()
    open_sheet(page, live_server, largest_creature())
    link = page.locator("#q-sheet a.q-pdf")
    expect(link).to_be_visible()
    before = link.get_attribute("href")
    response = page.request.get(f"{live_server.url}{before}")
    assert response.status == 200
    assert response.headers["content-type"] == "application/pdf"
    assert response.headers["content-disposition"] == 'inline; filename="quadrature-wyrm-des-brumes.pdf"'
    assert_one_a5_landscape_page(response.body(), "the PDF link")
    assert "Wyrm des brumes" in PdfReader(BytesIO(response.body())).pages[0].extract_text()
    page.select_option("select[name='mode']", "pc_attack")
    page.wait_for_load_state("networkidle")
    page.select_option("select[name='target_part']", "5")  # Ailes: no armour, the Évasion block
    page.fill("input[name='pc.score']", "20")
    page.click("details[data-adjust='pc_success'] > summary")
    page.fill("input[name='pc_success.light']", "0")
    page.fill("input[name='pc_success.heavy']", "1")
    page.locator("input[name='pc_success.heavy']").dispatch_event("change")
    page.wait_for_timeout(400)  # the live redraw fires 150 ms after a change
    page.wait_for_load_state("networkidle")
    page.click("#resolve-button")
    expect(page.locator("#story")).to_be_visible(timeout=60_000)
    expect(page.locator("#q-sheet")).to_contain_text("Fiche après l'échange")
    assert_prints_on_one_a5_page(page, "after resolve")
    after = link.get_attribute("href")
    assert after != before
    assert "r=1" in after
    body = page.request.get(f"{live_server.url}{after}").body()
    assert_one_a5_landscape_page(body, "the PDF link after resolve")
    assert "Ailes" not in PdfReader(BytesIO(body)).pages[0].extract_text()
    context.close()
