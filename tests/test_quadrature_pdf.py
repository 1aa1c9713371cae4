"""The Quadrature sheet as a PDF (issue 19, item 4): ``/quadrature/fiche.pdf?<the page's query>`` is
exactly one A5 landscape page (pypdf reads it), with the creature's name and Garde, for the default
sheet and every creature of the fixtures (the largest among them), the sheet after the exchange
for a result; linked from the living sheet with the state it shows; a bad query is a French 400,
HEAD is answered; the fonts are the project's and hold every character of the sheets."""

import html
import json
import re
from io import BytesIO
from urllib.parse import parse_qs, urlparse

import pytest
from django.core.management import call_command
from django.http import QueryDict
from pypdf import PdfReader

from bestiary.quadrature import pdf
from bestiary.quadrature.models import Adversary
from calculator.tables import row_key
from tests.pages import text

pytestmark = pytest.mark.django_db

A5_LANDSCAPE = (595.3, 419.5)  # 210 × 148 mm in points
URL = "/quadrature/fiche.pdf"


@pytest.fixture(autouse=True)
def bestiary():
    call_command("loaddata", "fixtures/quadrature.json", verbosity=0)


def largest_creature() -> str:
    """The fixtures' creature with the longest sheet: the most parts, blocks and cards."""
    with open("fixtures/quadrature.json", encoding="utf-8") as handle:
        rows = json.load(handle)
    names = {r["pk"]: r["fields"]["name"] for r in rows if r["model"] == "quadrature.adversary"}
    part_of = {r["pk"]: r["fields"]["adversary"] for r in rows if r["model"] == "quadrature.bodypart"}
    size = dict.fromkeys(names, 0)
    for r in rows:
        if r["model"] == "quadrature.bodypart":
            size[r["fields"]["adversary"]] += 1
        elif r["model"] == "quadrature.block":
            size[part_of[r["fields"]["part"]]] += 1
        elif r["model"] == "quadrature.deckentry":
            size[r["fields"]["adversary"]] += 1
    return names[max(size, key=lambda pk: size[pk])]


def creature_query(name: str) -> str:
    return f"_f=1&_load=preset.creature&preset.creature={row_key(Adversary.objects.get(name=name).name)}"


def read(response) -> PdfReader:
    assert response.status_code == 200, response.content[:500]
    assert response["Content-Type"] == "application/pdf"
    return PdfReader(BytesIO(response.content))


def assert_one_a5_landscape_page(reader: PdfReader) -> str:
    """The PDF is one page of 210 × 148 mm (1 pt of tolerance); its text, lines joined."""
    assert len(reader.pages) == 1
    box = reader.pages[0].mediabox
    assert abs(float(box.width) - A5_LANDSCAPE[0]) < 1, box
    assert abs(float(box.height) - A5_LANDSCAPE[1]) < 1, box
    return re.sub(r"\s+", " ", reader.pages[0].extract_text())


def test_the_default_sheet_is_one_a5_landscape_page_named_after_its_creature(client):
    response = client.get(URL)
    content = assert_one_a5_landscape_page(read(response))
    assert "Loup des cendres" in content
    assert "Garde Esquive 10" in content  # the bestiary's wolf (issue 14)
    assert response["Content-Disposition"] == 'inline; filename="quadrature-loup-des-cendres.pdf"'


def test_the_largest_creature_of_the_fixtures_holds_whole_on_its_page(client):
    name = largest_creature()
    assert name == "Wyrm des brumes"  # 5 parts, 7 blocks, 4 cards (fixtures/quadrature.json)
    content = assert_one_a5_landscape_page(read(client.get(f"{URL}?{creature_query(name)}")))
    assert name in content
    assert "Garde Esquive 13" in content
    # nothing left out: every part, block and card of the sheet is on the page
    for words in ("Tête", "Cou", "Corps", "Queue", "Ailes", "Évasion 🍀 1", "Stabilité ◇ 2"):
        assert words in content, words
    for card in ("Frappe vive", "Frappe lourde", "Coup de queue", "Souffle de brume"):
        assert f" {card} ⚫" in content, card


@pytest.mark.parametrize(
    "name",
    [
        "Rat géant des cales",
        "Loup des cendres",
        "Fourmi-soldat de la ruche",
        "Nécrophage au regard pâle",
        "Brigand vétéran",
        "Griffon des falaises",
        "Scarabée-forteresse",
        "Wyrm des brumes",
        "Nuée de rats",
        "Fanatiques du culte",
    ],
)
def test_every_creature_of_the_fixtures_is_one_a5_page_with_its_name_and_guard(client, name):
    creature = Adversary.objects.get(name=name)
    response = client.get(f"{URL}?{creature_query(name)}")
    content = assert_one_a5_landscape_page(read(response))
    assert name in content
    assert re.search(rf"Garde \w+ {creature.guard}\b", content), content[:300]


def test_a_result_gives_the_sheet_after_the_exchange_and_the_page_links_it(client):
    """A result's permalink: the PDF draws the sheet after the exchange (the Ailes' only block
    destroyed by the 💔 turned into 💢 by the 🍀), as the page's living sheet does, and the
    page's « PDF (A5) » link is that PDF."""
    from tests.test_quadrature_pages import form_values, load

    values = form_values(load(client, "Griffon des falaises"))
    values.update(
        {"mode": "pc_attack", "target_part": "2", "pc.score": "20", "pc_success.light": "0", "pc_success.heavy": "1"}
    )
    before = assert_one_a5_landscape_page(read(client.get(f"{URL}?{creature_query('Griffon des falaises')}")))
    assert "Ailes" in before
    link = client.post("/quadrature/", values)["Location"]
    assert parse_qs(urlparse(link).query)["r"] == ["1"]
    page = client.get(link)
    href = pdf_href(page)
    assert href.startswith(f"{URL}?")
    after = assert_one_a5_landscape_page(read(client.get(href)))
    assert "Griffon des falaises" in after
    assert "Ailes" not in after
    assert "🍀 0" in after
    # the same query as the page's own: the permalink itself, path changed
    assert (
        read(client.get(f"{URL}?{urlparse(link).query}")).pages[0].extract_text()
        == PdfReader(BytesIO(client.get(href).content)).pages[0].extract_text()
    )


def pdf_href(response) -> str:
    body = response.content.decode()
    match = re.search(r'<a class="[^"]*q-pdf"\s+href="([^"]+)"', body)
    assert match, "no « PDF (A5) » link"
    return html.unescape(match.group(1))


def test_the_living_sheet_links_the_pdf_of_the_state_it_shows(client):
    """The page as it opens links the bare address; a loaded creature, the same creature; a live
    redraw (htmx, the sheet typed) links the sheet as typed."""
    assert pdf_href(client.get("/quadrature/")) == URL
    wyrm = client.get(f"/quadrature/?{creature_query('Wyrm des brumes')}")
    assert "PDF (A5)" in text(wyrm)
    content = assert_one_a5_landscape_page(read(client.get(pdf_href(wyrm))))
    assert "Wyrm des brumes" in content
    from tests.test_quadrature_pages import form_values

    values = {**form_values(wyrm), "adversary.name": "Wyrm renommé", "adversary.guard": "17", "_live": "1"}
    live = client.post("/quadrature/", values, HTTP_HX_REQUEST="true")
    assert live.status_code == 200
    content = assert_one_a5_landscape_page(read(client.get(pdf_href(live))))
    assert "Wyrm renommé" in content
    assert "Garde Esquive 17" in content


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("_f=1&adversary.guard=abc", "Valeur de Garde\u202f: nombre entier attendu."),
        ("_f=1&adversary.guard=99", "Valeur de Garde\u202f: doit être entre 0 et 30 (reçu 99)."),
        ("_f=1&adversary.parts.999999.name=x", "999999"),
        ("_f=1&z=pas-un-lien", "Ce lien est abîmé ou incomplet"),
        ("_f=1&adversary.kind=dragon", "dragon"),
        ("_f=1&r=1", "Aucun résultat\u202f: résolvez d'abord l'échange."),
    ],
)
def test_a_bad_query_is_a_french_400_never_a_500(client, query, message):
    response = client.get(f"{URL}?{query}")
    assert response.status_code == 400
    assert response["Content-Type"].startswith("text/html")
    assert message in html.unescape(response.content.decode())
    if "z=" not in query:
        assert "Fiche PDF impossible" in text(response)


def test_head_is_answered_as_get_without_a_body(client):
    get, head = client.get(URL), client.head(URL)
    assert head.status_code == 200
    assert head["Content-Type"] == get["Content-Type"] == "application/pdf"
    assert head["Content-Disposition"] == get["Content-Disposition"]
    assert head.content == b""
    assert client.post(URL).status_code == 405


def test_a_sheet_too_long_for_any_setting_is_refused_not_cut(client, monkeypatch):
    """No setting holds the sheet (here: none is tried but the first, which fails): a French 422,
    never a PDF with part of the sheet."""
    monkeypatch.setattr(pdf, "FITS", 1)
    monkeypatch.setattr(pdf, "holds", lambda document, text: False)
    response = client.get(URL)
    assert response.status_code == 422
    assert "ne tient pas sur une page A5" in html.unescape(response.content.decode())


def test_a_long_sheet_sets_tighter_until_it_holds_whole(client):
    """The longest sheet the form allows (8 parts, 24 blocks of 20 boxes, 20 cards with every
    effect and long names) is one page, and every card is on it."""
    from rulesets.core.schema import parse
    from rulesets.quadrature.model import Adversary as Sheet

    effect = {"light": 3, "heavy": 2, "fatigue": 2, "up": 1, "down": 1, "bleed": 2, "stunned": True}
    adv = parse(
        Sheet,
        {
            "name": "Léviathan des profondeurs",
            "parts": [{"name": f"Partie {i} " + "p" * 40, "armour": 10} for i in range(8)],
            "blocks": [{"boxes": 20, "ticked": 3, "part": 1 + i % 8, "label": "L" * 60} for i in range(24)],
            "deck": [
                {"name": f"Carte {i} " + "n" * 60, "cost": 5, "star": effect, "success": effect, "failure": effect}
                for i in range(20)
            ],
        },
    )
    reader = PdfReader(BytesIO(pdf.render_pdf(adv)))
    content = assert_one_a5_landscape_page(reader)
    for i in range(20):
        assert f"n°{i + 1} Carte {i}" in content, i


def test_what_holds_is_checked_on_the_laid_out_text_not_the_page_count():
    """WeasyPrint leaves out what overflows a float on the last page: one page, part of the text."""
    from weasyprint import HTML

    long = "<p style='float:left;width:40%'>" + "mot " * 6000 + "fin</p>"
    document = HTML(string=f"<style>@page{{size:A5 landscape}}</style>{long}").render()
    assert not pdf.holds(document, pdf.html_text(long))
    short = "<p>Loup des cendres</p>"
    assert pdf.holds(HTML(string=short).render(), pdf.html_text(short))


def test_the_pdf_uses_the_project_fonts_and_they_hold_every_character_of_the_sheets(client):
    """No font looked up on the system: the embedded fonts are the @font-face ones, and every
    character of every fixture creature's sheet (and the default one) is in one of the shipped
    files (fontTools' cmap), so none is drawn as a missing-glyph box."""
    from fontTools.ttLib import TTFont

    cmaps = [set(TTFont(path, lazy=True).getBestCmap()) for path in pdf.FONT_FILES.values()]
    ignorable = {0x200D, 0xFE0F, 0xFE0E}  # joiners and variation selectors: no glyph of their own
    queries = ["", *(creature_query(a.name) for a in Adversary.objects.all())]
    missing: set[str] = set()
    for query in queries:
        adv = pdf.sheet_from_query(QueryDict(query))
        sheet, _fit = pdf.sheet_html(adv)
        missing |= {
            ch
            for ch in pdf.html_text(sheet)
            if not ch.isspace() and ord(ch) not in ignorable and not any(ord(ch) in c for c in cmaps)
        }
    assert missing == set(), "run manage.py share_image_fonts: " + "".join(sorted(missing))
    reader = read(client.get(f"{URL}?{creature_query('Wyrm des brumes')}"))
    fonts = reader.pages[0]["/Resources"]["/Font"]
    names = {str(fonts[key].get_object()["/BaseFont"]).split("+", 1)[-1] for key in fonts}
    # the emoji font is named by its @font-face family or by its own name, depending on Pango's version
    assert names <= {"Estoc-Sans", "Estoc-Sans-Bold", "Estoc-Emoji", "Noto-Color-Emoji"}, names


def test_a_name_typed_with_markup_stays_text_and_nothing_else_is_fetched(client):
    """The sheet's texts are escaped (a name with a tag is printed as typed), and WeasyPrint may
    load the shipped fonts only: any other address is refused before it is opened."""
    name = '<img src="file:///etc/hostname"> & Cie'
    content = assert_one_a5_landscape_page(read(client.get(URL, {"_f": "1", "adversary.name": name})))
    assert name in content
    with pytest.raises(ValueError, match="not fetched"):
        pdf._fetcher()("file:///etc/hostname")
    assert pdf._fetcher()(pdf.FONT_FILES["regular"].as_uri()).status in (None, 200)
