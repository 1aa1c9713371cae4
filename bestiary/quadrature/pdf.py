"""The Quadrature creature sheet as a PDF: exactly one A5 landscape page (issue 19, item 4).

``/quadrature/fiche.pdf?<query>`` reads the same query as the calculator page (``/quadrature/?…``:
a creature loaded, a sheet typed, a result's permalink ``r=1`` with its seed, compact ``z`` links)
and draws the living sheet the page shows for it, the sheet after the exchange when the query is a
result. The page links it (« PDF (A5) », :func:`pdf_link`) with the state it shows.

Drawn by WeasyPrint from the living sheet's own partial (``calculator/quadrature_sheet.html#sheet``)
in ``calculator/quadrature_sheet_pdf.html``, with the project's fonts only (``calculator/fonts/``:
DejaVu Sans, Bold, and a subset of Noto Color Emoji for the sheet's symbols), declared with
``@font-face``, so that two machines draw the same page.

One page, never a clipped one: a long sheet is set tighter (:data:`FITS` settings: smaller type,
then the deck in two columns, then the whole sheet in three to five columns) until the page shows
all of its text (:func:`holds`); the longest sheet the form allows holds at the tightest, and a
sheet that would hold at none is refused with a French message (422), never cut. A query the page
would refuse is a French 400 (the page's own messages), never a 500.
"""

from __future__ import annotations

import threading
import time
from functools import cache
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.http import content_disposition_header
from django.utils.text import slugify
from django.views.decorators.http import require_safe

from bestiary.quadrature.web import sheet_of
from calculator import bestiary_cache, plugins, services, short_links
from calculator.forms import (
    MARKER,
    ScenarioForm,
    apply_form_actions,
    encoded_field,
    encoded_pair,
    refused_input,
    under_hidden,
)
from calculator.views import permalink, settle
from rulesets.core.french import typography
from rulesets.core.registry import Ruleset, load_all
from rulesets.core.request import Resolution
from rulesets.core.schema import ScenarioError, flatten, parse, to_data
from rulesets.quadrature.model import Adversary, Scenario

SLUG = "quadrature"
FONT_DIR = Path(__file__).resolve().parents[2] / "calculator" / "fonts"
FONT_FILES = {
    "regular": FONT_DIR / "DejaVuSans.ttf",
    "bold": FONT_DIR / "DejaVuSans-Bold.ttf",
    "emoji": FONT_DIR / "NotoColorEmoji-Estoc.ttf",
}
# What the sheet's template (calculator/quadrature_sheet.html) draws besides the engine's and the
# bestiary's texts: named here so that the shipped emoji subset holds it (``manage.py
# share_image_fonts`` reads bestiary/*.py; tests/test_quadrature_pdf.py checks every sheet's text).
TEMPLATE_SYMBOLS = "🏃"
# The settings (the body's class ``fit-<n>``, quadrature_sheet_pdf.html), from the print's own
# (9.5 pt, two halves) to the tightest (3.6 pt in five columns: the longest sheet the form allows,
# 20 cards of 300 characters and 24 blocks, holds there).
FITS = 8
# Letters (white space aside) past which a sheet seldom holds at setting 0, 1, 2…: measured on
# sheets of every size. Only a first guess: the search loosens a guess too tight, tightens one too
# loose.
LETTERS = (800, 1800, 2300, 3300, 3800, 5400, 9000)

ERROR_TITLE = "Fiche PDF impossible"
ERROR_NO_SHEET = "Cette adresse ne décrit pas de fiche d'adversaire."
ERROR_TOO_LONG = (
    "La fiche de « {name} » ne tient pas sur une page A5, même en tout petits caractères : "
    "raccourcissez les textes des cartes ou retirez des cartes, puis redemandez le PDF."
)


class SheetRefused(Exception):
    """A query that names no sheet the page would draw: its French messages, the HTTP status."""

    def __init__(self, messages: tuple[str, ...], status: int = 400) -> None:
        messages = tuple(typography(m) for m in messages)  # French spacing, as every message (issue 15)
        super().__init__(*messages)
        self.messages = messages
        self.status = status


# --- the state: the page's query read as the page reads it -------------------------------------------


def _ruleset() -> Ruleset:
    return load_all()[SLUG]


def sheet_from_query(data: QueryDict) -> Adversary:
    """The adversary the calculator page's living sheet shows for ``data`` (its GET query, a
    compact ``z`` already expanded): the form's defaults without the marker ``_f``, the buttons
    that edit the form applied (a creature loaded ``_load``…), the page's dependent fields
    settled except for a permalink, and after the exchange for a result (``r=1``, its seed).

    Raises :class:`SheetRefused` with the page's French messages when the page would refuse it."""
    ruleset = _ruleset()
    plugin = plugins.get(SLUG)
    groups = {g.key: g for g in bestiary_cache.presets(plugin)}
    bound: QueryDict | None = data if MARKER in data else None
    acted = False
    replay = bound is not None and bound.get("r") == "1"  # a result's permalink
    if bound is not None:
        refused = refused_input(ruleset.scenario_type, bound, groups)
        if refused:
            raise SheetRefused(tuple(refused.values()))
        bound, acted = apply_form_actions(bound, ruleset.scenario_type, groups)
        if plugin.settle is not None and not replay:
            settle(plugin, bound)
    defaults, flat = services.flat_defaults(ruleset=ruleset)
    form = ScenarioForm(ruleset, plugin, defaults, bound, flat_defaults=flat)
    if form.is_bound and not form.is_valid():  # an unknown choice: Django's own message
        raise SheetRefused(tuple(str(e) for errors in form.errors.values() for e in errors))
    payload = form.payload()
    try:
        scenario: Scenario = parse(ruleset.scenario_type, payload["scenario"])
    except ScenarioError as exc:
        raise SheetRefused(tuple(str(m) for m in exc.errors.values())) from None
    resolution: Resolution | None = None
    if replay and not acted:
        if not str(bound.get("seed", "") if bound is not None else "").strip():
            raise SheetRefused((services.ERROR_NOTHING_RESOLVED,))
        try:
            resolution = services.resolution_resolve(ruleset=ruleset, payload=payload, parsed=scenario)
        except ScenarioError as exc:
            raise SheetRefused(tuple(str(m) for m in exc.errors.values())) from None
    adv = sheet_of(resolution, scenario)
    if adv is None:  # pragma: no cover - a parsed scenario always has its adversary
        raise SheetRefused((ERROR_NO_SHEET,))
    return adv


def pdf_link(
    scenario: Scenario | None, resolution: Resolution | None, share_query: str = "", *, default: bool = False
) -> str:
    """The PDF of the sheet the page shows: ``/quadrature/fiche.pdf`` with the result's permalink
    query (``share_query`` when the caller has it: the sheet after the exchange) or the scenario's
    fields, packed into a compact ``z`` when long. Empty when there is no sheet, or when even
    packed it would pass what a request line holds (the page then says to print it).
    ``default``: the page as it opens, whose sheet the bare address draws."""
    path = reverse("quadrature_sheet_pdf")
    hidden = plugins.get(SLUG).hidden
    if default and resolution is None:
        return path
    if resolution is not None:
        query = share_query or permalink(_ruleset(), resolution, hidden).partition("?")[2]
    elif scenario is not None:
        fields = flatten(to_data(scenario))
        encoded = (encoded_field(k, v) for k, v in fields.items() if not under_hidden(k, hidden))
        query = "&".join([encoded_pair(MARKER, "1"), *(e for e in encoded if e is not None)])
    else:
        return ""
    url = f"{path}?{query}"
    if len(url.encode("utf-8")) <= short_links.permalink_max_bytes():
        return url
    packed = short_links.compact(url, short_links.NAVIGATION_MAX_BYTES)
    if packed is not None:
        return packed
    return url if len(url.encode("utf-8")) <= short_links.NAVIGATION_MAX_BYTES else ""


# --- the drawing ------------------------------------------------------------------------------------


# One render at a time per process: the font configuration (Pango's font map) is shared, and
# Pango is not thread-safe (gunicorn's gthread workers); it also bounds what one worker spends.
_RENDER_LOCK = threading.Lock()


@cache
def _fonts() -> Any:
    """WeasyPrint's font configuration, made once per process (the ``@font-face`` files are read
    into it on the first render)."""
    from weasyprint.text.fonts import FontConfiguration

    return FontConfiguration()


@cache
def _fetcher() -> Any:
    """What WeasyPrint may load: the shipped font files, nothing else (a text of the sheet is
    escaped, but no address in it, should one ever get through, is ever fetched)."""
    from weasyprint import URLFetcher

    allowed = {path.as_uri() for path in FONT_FILES.values()}

    class ShippedFontsOnly(URLFetcher):  # type: ignore[misc]
        def fetch(self, url: str, headers: Any = None) -> Any:
            if url not in allowed:
                raise ValueError(f"not fetched: {url}")
            return super().fetch(url, headers)

    return ShippedFontsOnly(allowed_protocols=("file",))


def sheet_html(adv: Adversary) -> tuple[str, int]:
    """The living sheet's partial for the PDF, and the setting to try first: from the sheet's
    length as the print reckons it (``density``: q-dense, q-denser)."""
    from bestiary.quadrature.templatetags.quadrature import sheet_context

    context = sheet_context(adv)
    html = render_to_string("calculator/quadrature_sheet.html#sheet", {**context, "pdf": True})
    return html, {"": 0, "q-dense": 1, "q-denser": 2}[context["density"]]


def document_html(adv: Adversary, sheet: str, fit: int) -> str:
    """The PDF's HTML: ``sheet`` in a page of its own, at setting ``fit``."""
    fonts = {name: path.as_uri() for name, path in FONT_FILES.items()}
    context = {"adv": adv, "sheet": sheet, "fonts": fonts, "fit": fit}
    return render_to_string("calculator/quadrature_sheet_pdf.html", context)


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []

    def handle_data(self, data: str) -> None:
        self.parts.append(data)


def html_text(fragment: str) -> str:
    """The text of an HTML fragment, entities decoded: what the page must show of it."""
    parser = _Text()
    parser.feed(fragment)
    parser.close()
    return "".join(parser.parts)


def _letters(text: str) -> str:
    return "".join(text.split())


def holds(document: Any, text: str) -> bool:
    """Whether ``document`` is one page that shows the whole ``text`` (its letters, in order),
    every line inside the page. The page count alone does not tell: WeasyPrint leaves out what
    overflows a float or a column on the last page instead of carrying it to a next one."""
    from weasyprint.formatting_structure.boxes import TextBox

    if len(document.pages) != 1:
        return False
    page = document.pages[0]
    laid: list[str] = []
    for box in page._page_box.descendants():
        if isinstance(box, TextBox):
            if box.position_y + box.height > page.height or box.position_x + box.width > page.width + 0.5:
                return False
            laid.append(box.text)
    return _letters("".join(laid)) == _letters(text)


def first_guess(text: str, density_fit: int) -> int:
    """The setting to try first: the print's own estimate (``density``), or the one the sheet's
    length in letters points to (:data:`LETTERS`), whichever is tighter."""
    letters = len(_letters(text))
    return max(density_fit, sum(1 for limit in LETTERS if letters > limit))


def render_pdf(adv: Adversary) -> bytes:
    """The sheet of ``adv`` on exactly one A5 landscape page, whole; :class:`SheetRefused` (422)
    when it holds at no setting.

    The loosest setting that holds is searched by halving (a tighter setting holds whenever a
    looser one does) from :func:`first_guess`: one render for the bestiary's sheets, three or four
    for the longest the form allows."""
    from weasyprint import HTML

    sheet, density_fit = sheet_html(adv)
    text = html_text(sheet)

    def attempt(fit: int) -> Any | None:
        source = HTML(string=document_html(adv, sheet, fit), base_url=str(FONT_DIR), url_fetcher=_fetcher())
        document = source.render(font_config=_fonts())
        return document if holds(document, text) else None

    with _RENDER_LOCK:
        guess = first_guess(text, density_fit)
        best = attempt(guess)
        # ``low`` does not hold (-1: none looser to try), ``high`` holds (FITS: none found yet)
        low, high = (-1, guess) if best is not None else (guess, FITS)
        while high - low > 1:
            middle = (low + high) // 2
            document = attempt(middle)
            if document is None:
                low = middle
            else:
                high, best = middle, document
        if best is None:
            raise SheetRefused((ERROR_TOO_LONG.format(name=adv.name),), status=422)
        return bytes(best.write_pdf())


def filename(adv: Adversary) -> str:
    """``quadrature-<creature-slug>.pdf`` (``quadrature-fiche.pdf`` for a name without letters)."""
    return f"quadrature-{slugify(adv.name) or 'fiche'}.pdf"


# --- the view ---------------------------------------------------------------------------------------


def refused(request: HttpRequest, exc: SheetRefused) -> HttpResponse:
    query = request.META.get("QUERY_STRING", "")
    page = reverse("calculator", args=[SLUG]) + (f"?{query}" if query else "")
    context = {"title": ERROR_TITLE, "messages_list": exc.messages, "page": page}
    return render(request, "calculator/quadrature_pdf_error.html", context, status=exc.status)


@require_safe
@short_links.expands_compact_links
def sheet_pdf(request: HttpRequest) -> HttpResponse:
    """``GET|HEAD /quadrature/fiche.pdf?<the page's query>``: the sheet, one A5 landscape page,
    inline, named after the creature. A refused query: the French page of its messages (400/422)."""
    try:
        adv = sheet_from_query(request.GET)
        started = time.perf_counter()
        body = render_pdf(adv)
    except SheetRefused as exc:
        return refused(request, exc)
    response = HttpResponse(body, content_type="application/pdf")
    response["Content-Disposition"] = content_disposition_header(False, filename(adv)) or "inline"
    response["Server-Timing"] = f"pdf;dur={(time.perf_counter() - started) * 1000:.0f}"
    return response
