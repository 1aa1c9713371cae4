"""The image of a shared result, drawn on the server (issue 19, items 1 and 5): ``/r/<id>.svg`` and
``/r/<id>.png``, from one SVG template (``templates/calculator/share_image.svg``).

The layout is 720 px wide (the browser capture's width); the PNG is that SVG rendered by resvg at
zoom 2, 1,440 px wide. Its height follows the content: the lines are wrapped here, measured with the
advance widths of the shipped fonts (fontTools reads them from the TTF files), so no text ever passes
its column. Kerning only brings glyphs closer, so the measure is never shorter than the drawing; a
word wider than its column is cut between characters. An image taller than ``MAX_HEIGHT`` stops
there and says so in it (see :func:`_cut`).

Fonts are the project's, never the system's (``calculator/fonts/``, resvg's system fonts disabled):
DejaVu Sans and DejaVu Sans Bold, and for the emoji of the rule texts (Quadrature's 💢, ✅…) a subset
of Noto Color Emoji (``manage.py share_image_fonts`` rebuilds it). Each character is drawn by the
font that would draw it in a browser: an emoji-style character (Unicode's Emoji_Presentation, or
one followed by U+FE0F) by the emoji font, the rest by DejaVu.

Images are cached in the Django cache after the first render (a share never changes): see
:func:`png_bytes`.
"""

from __future__ import annotations

import functools
import hashlib
import re
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from django.core.cache import cache
from django.template.loader import render_to_string

from calculator.models import SharedResult
from calculator.sharing import MAG_COLOUR, PHYS_COLOUR
from rulesets.core.french import count, typography
from rulesets.core.i18n import fr_percent
from rulesets.core.registry import load_all
from rulesets.core.schema import ScenarioError

# Bump when the drawing changes: cached images of the previous version are then never served.
IMAGE_VERSION = "1"
# How long a rendered image stays in the cache. A share never changes, so this only bounds the
# cache's memory: an image evicted or expired is drawn again, identical, on its next request.
CACHE_SECONDS = 30 * 24 * 3600

WIDTH = 720  # the SVG's layout width; the PNG is rendered at ZOOM
ZOOM = 2

FONT_DIR = Path(__file__).resolve().parent / "fonts"
SANS = "DejaVu Sans"
EMOJI = "Noto Color Emoji"
FONT_FILES = {
    "regular": FONT_DIR / "DejaVuSans.ttf",
    "bold": FONT_DIR / "DejaVuSans-Bold.ttf",
    "emoji": FONT_DIR / "NotoColorEmoji-Estoc.ttf",
}

# Colours of the browser capture (static/css/capture.css): the outcome badge by tone.
TONE_COLOURS = {"success": "#2e7d32", "partial": "#9a5800", "failure": "#9e2a2b", "neutral": "#555555"}
INK, MUTED, PAGE, FRAME_BG, RULE = "#1f1a17", "#6d5d50", "#ffffff", "#faf7f2", "#e9e1d5"
ACCENTS = {"scene": "#8c7b6b", "story": "#8a2f1d", "final": "#2b211c", "odds": "#4a5a6a"}
BAR_OTHER, BAR_TRACK = "#b9ab9c", "#efe8de"
BADGE_COLOURS = {"PHYS": PHYS_COLOUR, "MAG": MAG_COLOUR}

MARGIN = 24  # page margin
PAD_LEFT, PAD_RIGHT, PAD_Y = 17, 14, 12  # inside a frame (its 5 px accent bar included on the left)
CONTENT_X = MARGIN + PAD_LEFT
CONTENT_RIGHT = WIDTH - MARGIN - PAD_RIGHT
CONTENT_WIDTH = CONTENT_RIGHT - CONTENT_X

# Unicode's Emoji_Presentation=Yes below U+1F000 (emoji-data.txt): drawn as emoji without U+FE0F.
# Every character from U+1F000 on that the emoji font has is drawn by it too.
_EMOJI_PRESENTATION_BMP = {
    *range(0x231A, 0x231C), *range(0x23E9, 0x23ED), 0x23F0, 0x23F3, 0x25FD, 0x25FE, 0x2614, 0x2615,
    *range(0x2648, 0x2654), 0x267F, 0x2693, 0x26A1, 0x26AA, 0x26AB, 0x26BD, 0x26BE, 0x26C4, 0x26C5,
    0x26CE, 0x26D4, 0x26EA, 0x26F2, 0x26F3, 0x26F5, 0x26FA, 0x26FD, 0x2705, 0x270A, 0x270B, 0x2728,
    0x274C, 0x274E, *range(0x2753, 0x2756), 0x2757, *range(0x2795, 0x2798), 0x27B0, 0x27BF, 0x2B1B,
    0x2B1C, 0x2B50, 0x2B55,
}  # fmt: skip
_JOINERS = {0x200D, 0xFE0E, 0xFE0F}  # zero width: they belong to the character before them
_XML_ILLEGAL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
_BADGE = re.compile(r"\b(PHYS|MAG)\b")


# --- fonts and text measure -------------------------------------------------------------------


@dataclass(frozen=True)
class FontMetrics:
    """A font's advance width per code point, in font units."""

    advances: dict[int, int]
    units_per_em: int
    notdef: int  # the advance of the missing-glyph box


@functools.cache
def metrics(name: str) -> FontMetrics:
    """The metrics of a shipped font (``regular``, ``bold``, ``emoji``), read once per process."""
    from fontTools.ttLib import TTFont

    with TTFont(FONT_FILES[name], lazy=True) as font:
        hmtx = font["hmtx"].metrics
        advances = {cp: hmtx[glyph][0] for cp, glyph in font.getBestCmap().items()}
        return FontMetrics(advances, font["head"].unitsPerEm, hmtx[font.getGlyphOrder()[0]][0])


def covered(ch: str) -> bool:
    """Whether a shipped font has a glyph for ``ch`` (else it would be drawn as a missing-glyph box)."""
    cp = ord(ch)
    return cp in metrics("regular").advances or cp in metrics("emoji").advances


def wants_emoji(ch: str, following: str, in_emoji: bool, in_sans: bool) -> bool:
    """Whether a browser would draw ``ch`` as an emoji: the emoji font has it and it is emoji-style
    (from U+1F000, or Emoji_Presentation, or asked by a U+FE0F after it), or DejaVu lacks it."""
    cp = ord(ch)
    return in_emoji and (cp >= 0x1F000 or cp in _EMOJI_PRESENTATION_BMP or following == "\ufe0f" or not in_sans)


def family_of(ch: str, following: str = "") -> str:
    """The font that draws ``ch`` (``following``: the next character, U+FE0F asks for the emoji)."""
    cp = ord(ch)
    if wants_emoji(ch, following, cp in metrics("emoji").advances, cp in metrics("regular").advances):
        return EMOJI
    return SANS


def runs(text: str) -> list[tuple[str, str]]:
    """``text`` as (font family, text) runs; a joiner or variation selector stays with what it joins."""
    out: list[list[str]] = []
    for i, ch in enumerate(text):
        if out and (ord(ch) in _JOINERS or unicodedata.combining(ch)):
            out[-1][1] += ch
            continue
        if out and out[-1][1].endswith("\u200d"):  # the rest of a ZWJ sequence
            out[-1][1] += ch
            continue
        family = family_of(ch, text[i + 1 : i + 2])
        if out and out[-1][0] == family:
            out[-1][1] += ch
        else:
            out.append([family, ch])
    return [(family, chunk) for family, chunk in out]


def text_width(text: str, size: float, bold: bool = False) -> float:
    """The advance width of ``text`` at ``size`` px, without kerning (never shorter than drawn)."""
    total = 0.0
    for family, chunk in runs(text):
        m = metrics("emoji" if family == EMOJI else "bold" if bold else "regular")
        for ch in chunk:
            cp = ord(ch)
            if cp in _JOINERS or unicodedata.combining(ch):
                continue
            total += m.advances.get(cp, m.notdef) / m.units_per_em
    return total * size


def clean(text: Any) -> str:
    """A text as SVG can hold it: XML 1.0 forbids most control characters (they become U+FFFD),
    and a line break or tab is a space (an SVG text is one line; the wrapping is done here)."""
    out = str(text).replace("\r\n", " ").replace("\n", " ").replace("\r", " ").replace("\t", " ")
    return _XML_ILLEGAL.sub("\ufffd", out)


def _split_long(word: str, width: float, size: float, bold: bool) -> list[str]:
    """A word wider than ``width`` cut between characters (never inside a joined emoji)."""
    pieces: list[str] = []
    current = ""
    for family, chunk in runs(word):
        clusters = [chunk] if family == EMOJI and "\u200d" in chunk else _clusters(chunk)
        for cluster in clusters:
            if current and text_width(current + cluster, size, bold) > width:
                pieces.append(current)
                current = ""
            current += cluster
    if current:
        pieces.append(current)
    return pieces


def _clusters(text: str) -> list[str]:
    out: list[str] = []
    for ch in text:
        if out and (ord(ch) in _JOINERS or unicodedata.combining(ch)):
            out[-1] += ch
        else:
            out.append(ch)
    return out


def wrap(text: str, width: float, size: float, bold: bool = False) -> list[str]:
    """Greedy line breaking at spaces (a no-break space never breaks); at least one line.

    Widths add up (advances, no kerning): a line's width is its words' and spaces' sum."""
    lines: list[str] = []
    current, used = "", 0.0
    space = text_width(" ", size, bold)
    for word in clean(text).split(" "):
        if not word:
            continue
        needed = text_width(word, size, bold)
        if current and used + space + needed <= width:
            current, used = f"{current} {word}", used + space + needed
            continue
        if current:
            lines.append(current)
        if needed <= width:
            current, used = word, needed
        else:
            *full, current = _split_long(word, width, size, bold)
            lines.extend(full)
            used = text_width(current, size, bold)
    lines.append(current)
    return lines


# --- layout -----------------------------------------------------------------------------------


@dataclass
class Text:
    x: float
    y: float  # baseline
    size: float
    fill: str
    bold: bool
    runs: list[tuple[str, str]]
    width: float  # measured, for the tests' bounds


@dataclass
class Rect:
    x: float
    y: float
    width: float
    height: float
    fill: str
    rx: float = 0


@dataclass
class Layout:
    """What the template draws: rectangles first, then texts; ``y``: the cursor."""

    rects: list[Rect] = field(default_factory=list)
    texts: list[Text] = field(default_factory=list)
    y: int = MARGIN

    def text(self, x: float, top: float, line_height: int, line: str, size: float, fill: str, bold: bool) -> None:
        baseline = top + line_height / 2 + 0.345 * size  # DejaVu: ascender .928, descender .236 em
        self.texts.append(
            Text(round(x, 2), round(baseline, 2), size, fill, bold, runs(line), text_width(line, size, bold))
        )

    def paragraph(
        self, text: str, x: float, width: float, size: float, line_height: int, *, fill: str = INK, bold: bool = False
    ) -> int:
        """Wrapped lines from the cursor down; returns the height used."""
        lines = wrap(text, width, size, bold)
        for i, line in enumerate(lines):
            self.text(x, self.y + i * line_height, line_height, line, size, fill, bold)
        return len(lines) * line_height


def _frame(layout: Layout, title: str) -> tuple[int, int]:
    """Open a frame at the cursor: its title drawn; returns (its top, where its rectangles go)."""
    top = layout.y
    index = len(layout.rects)
    layout.y += PAD_Y
    layout.y += layout.paragraph(title.upper(), CONTENT_X, CONTENT_WIDTH, 11, 16, fill=MUTED, bold=True) + 6
    return top, index


def _close(layout: Layout, frame: tuple[int, int], accent: str) -> None:
    top, index = frame
    layout.y += PAD_Y - 6
    height = layout.y - top
    layout.rects[index:index] = [
        Rect(MARGIN, top, WIDTH - 2 * MARGIN, height, FRAME_BG, 6),
        Rect(MARGIN, top, 5, height, accent, 0),
    ]
    layout.y += 10


def _rich_line(
    layout: Layout, words: list[list[tuple[str, str]]], x: float, top: int, size: float, line_height: int
) -> None:
    """One line of words whose PHYS/MAG tokens are badges (white on the page's badge colours)."""
    space = text_width(" ", size, True)
    pending = ""
    pending_x = x
    cursor = x
    for w, word in enumerate(words):
        if w:
            if not pending:  # after a badge: the text resumes here, not where the line began
                pending_x = cursor
            pending += " "
            cursor += space
        for kind, part in word:
            if kind == "text":
                if not pending:
                    pending_x = cursor
                pending += part
                cursor += text_width(part, size, True)
                continue
            if pending.strip():
                layout.text(pending_x, top, line_height, pending, size, INK, True)
            pending = ""
            width = text_width(part, 11, True) + 8
            layout.rects.append(
                Rect(round(cursor, 2), top + (line_height - 16) / 2, round(width, 2), 16, BADGE_COLOURS[part], 3)
            )
            layout.text(cursor + 4, top, line_height, part, 11, "#ffffff", True)
            cursor += width
    if pending.strip():
        layout.text(pending_x, top, line_height, pending, size, INK, True)


def _rich_wrap(text: str, width: float, size: float) -> list[list[list[tuple[str, str]]]]:
    """``text`` in lines of words, each word a list of ("text" | "badge", part)."""

    def parts(word: str) -> list[tuple[str, str]]:
        out = []
        for i, piece in enumerate(_BADGE.split(word)):
            if piece:
                out.append(("badge" if i % 2 else "text", piece))
        return out

    def measure(word: list[tuple[str, str]]) -> float:
        return sum(text_width(p, size, True) if k == "text" else text_width(p, 11, True) + 8 for k, p in word)

    lines: list[list[list[tuple[str, str]]]] = [[]]
    used = 0.0
    space = text_width(" ", size, True)
    for raw in clean(text).split(" "):
        if not raw:
            continue
        word = parts(raw)
        needed = measure(word) + (space if lines[-1] else 0)
        if lines[-1] and used + needed > width:
            lines.append([])
            used, needed = 0.0, measure(word)
        if needed > width:  # a word wider than the column: plain text, cut between characters
            for piece in _split_long(raw, width, size, True):
                if lines[-1]:
                    lines.append([])
                lines[-1].append([("text", piece)])
                used = text_width(piece, size, True)
            continue
        lines[-1].append(word)
        used += needed
    return lines


def _header(layout: Layout, ruleset_name: str, share_id: str) -> None:
    layout.y += layout.paragraph(ruleset_name, MARGIN, WIDTH - 2 * MARGIN, 20, 28, bold=True)
    layout.y += layout.paragraph(f"Résultat partagé {share_id}", MARGIN, WIDTH - 2 * MARGIN, 12, 18, fill=MUTED) + 10


def _story(layout: Layout, outcome: str, tone: str, story: list[str]) -> None:
    frame = _frame(layout, "Le récit")
    if outcome.strip():  # the outcome badge, in its tone's colour
        lines = wrap(outcome, CONTENT_WIDTH - 24, 14, True)
        width = max(text_width(line, 14, True) for line in lines) + 24
        height = 8 + 20 * len(lines)
        layout.rects.append(
            Rect(CONTENT_X, layout.y, round(width, 2), height, TONE_COLOURS.get(tone, TONE_COLOURS["neutral"]), 12)
        )
        for i, line in enumerate(lines):
            layout.text(CONTENT_X + 12, layout.y + 4 + 20 * i, 20, line, 14, "#ffffff", True)
        layout.y += height + 10
    for paragraph in story:
        layout.y += layout.paragraph(paragraph, CONTENT_X, CONTENT_WIDTH, 16, 24) + 6
    _close(layout, frame, ACCENTS["story"])


LABEL_WIDTH = 220
VALUE_X = CONTENT_X + LABEL_WIDTH + 16
VALUE_WIDTH = CONTENT_RIGHT - VALUE_X


def _final(layout: Layout, summary: list[list[str]], seed: Any) -> None:
    frame = _frame(layout, "Résultat final")
    for i, (_key, label, value) in enumerate(summary):
        if i:
            layout.rects.append(Rect(CONTENT_X, layout.y, CONTENT_WIDTH, 1, RULE))
        top = layout.y + 5
        layout.y = top
        label_height = layout.paragraph(label, CONTENT_X, LABEL_WIDTH, 13, 21, fill=MUTED)
        value_lines = _rich_wrap(value, VALUE_WIDTH, 15)
        for n, words in enumerate(value_lines):
            _rich_line(layout, words, VALUE_X, top + 21 * n, 15, 21)
        layout.y = top + max(label_height, 21 * len(value_lines)) + 5
    if seed is not None:
        layout.y += 4
        layout.y += layout.paragraph(f"Graine {seed}", CONTENT_X, CONTENT_WIDTH, 11, 16, fill=MUTED)
    _close(layout, frame, ACCENTS["final"])


def odds_rows(shared: SharedResult) -> list[tuple[str, float, bool]]:
    """The odds of the share's situation (label, probability, is it the outcome), as the calculator
    page showed them before « Résoudre »; none when today's engine is not the share's (the image
    would then mix two versions) or no longer reads its situation."""
    from calculator.services import scenario_odds
    from rulesets.core import request as core_request

    ruleset = load_all().get(shared.ruleset)
    if ruleset is None or ruleset.engine_version != shared.engine_version:
        return []
    try:
        _scenario, odds = core_request.odds(
            ruleset, {"scenario": shared.request.get("scenario")}, odds_of=scenario_odds
        )
    except ScenarioError:
        return []
    outcome = shared.result.get("outcome")
    return [(typography(label), float(p), code == outcome) for code, label, p in odds.outcomes]


BAR_X = CONTENT_X + 270
BAR_WIDTH = CONTENT_RIGHT - 64 - BAR_X  # 64 px left for the percentage


def _odds(layout: Layout, rows: list[tuple[str, float, bool]], tone: str) -> None:
    frame = _frame(layout, "Les chances")
    for label, p, is_outcome in rows:
        top = layout.y
        height = layout.paragraph(label, CONTENT_X, 256, 13, 20, bold=is_outcome)
        bar_top = top + 3
        layout.rects.append(Rect(BAR_X, bar_top, BAR_WIDTH, 14, BAR_TRACK, 2))
        if p > 0:
            colour = TONE_COLOURS.get(tone, TONE_COLOURS["neutral"]) if is_outcome else BAR_OTHER
            layout.rects.append(Rect(BAR_X, bar_top, round(max(2.0, BAR_WIDTH * p), 2), 14, colour, 2))
        layout.text(BAR_X + BAR_WIDTH + 8, top, 20, fr_percent(p), 13, INK, is_outcome)
        layout.y = top + height + 4
    _close(layout, frame, ACCENTS["odds"])


# The image's height at most (layout px; the PNG is twice as tall). The tallest worked example is
# 2,346 px; the largest share the limits accept (feerie-action: 24 fighters, 60 activities) would be
# 10,800: 3.5 s of resvg and 125 MB of canvas, for an image no chat or wiki shows whole.
MAX_HEIGHT = 3000
FOOTER_ROOM = 90  # the cut notice and the credit line
CUT_NOTICE = (
    "Image coupée à {height}\u00a0pixels de haut\u202f: {lines} de plus sur la page du résultat, /r/{share_id}."
)


def _cut(layout: Layout, share_id: str) -> None:
    """Stop the image at ``MAX_HEIGHT``, and say so in it: the lines left out are counted, and the
    page that shows them all is named (never a silent truncation)."""
    bottom = MAX_HEIGHT - FOOTER_ROOM
    kept = [t for t in layout.texts if t.y + 0.3 * t.size <= bottom]
    left_out = len({t.y for t in layout.texts} - {t.y for t in kept})  # lines: a row's columns are one
    layout.texts = kept
    rects = []
    for r in layout.rects:
        if r.y < bottom:
            rects.append(r if r.y + r.height <= bottom else Rect(r.x, r.y, r.width, bottom - r.y, r.fill, r.rx))
    layout.rects = rects
    layout.y = bottom + 8
    lines = count(left_out, "ligne")
    height = f"{MAX_HEIGHT * ZOOM:,}".replace(",", "\u00a0")
    notice = CUT_NOTICE.format(height=height, lines=lines, share_id=share_id)
    layout.y += layout.paragraph(notice, MARGIN, WIDTH - 2 * MARGIN, 13, 19, bold=True) + 8


def layout_for(shared: SharedResult) -> Layout:
    """Where everything of the share's image goes: the title, the scene, the outcome and the story,
    the « Résultat final » rows (PHYS/MAG as badges), the odds, the credit line."""
    ruleset = load_all().get(shared.ruleset)
    r = shared.result
    tone = str(r.get("tone", "neutral"))
    layout = Layout()
    _header(layout, typography(ruleset.name) if ruleset else shared.ruleset, shared.id)
    if shared.scene:
        frame = _frame(layout, "La scène")
        layout.y += layout.paragraph(shared.scene, CONTENT_X, CONTENT_WIDTH, 14, 21)
        _close(layout, frame, ACCENTS["scene"])
    _story(layout, str(r.get("outcome_label", "")), tone, shared.story)
    if shared.summary:
        _final(layout, shared.summary, r.get("seed"))
    if rows := odds_rows(shared):
        _odds(layout, rows, tone)
    if layout.y > MAX_HEIGHT - FOOTER_ROOM:
        _cut(layout, shared.id)
    layout.y += layout.paragraph(f"Estoc · {shared.id}", MARGIN, WIDTH - 2 * MARGIN, 11, 16, fill=MUTED)
    layout.y += MARGIN - 8
    return layout


# --- SVG, PNG, cache ----------------------------------------------------------------------------


def render_svg(shared: SharedResult) -> str:
    """The SVG document (every text escaped by the template's autoescape)."""
    layout = layout_for(shared)
    ruleset = load_all().get(shared.ruleset)
    context = {
        "width": WIDTH,
        "height": layout.y,
        "layout": layout,
        "sans": SANS,
        "page": PAGE,
        "title": clean(
            typography(f"{ruleset.name if ruleset else shared.ruleset} — {shared.result.get('outcome_label', '')}")
        ),
        "description": clean(" ".join(shared.story)),
    }
    return render_to_string("calculator/share_image.svg", context)


def render_png(svg: str) -> bytes:
    """``svg`` as a PNG at zoom 2 by resvg, with the shipped fonts only (system fonts never loaded)."""
    import resvg_py

    png = resvg_py.svg_to_bytes(
        svg_string=svg,
        zoom=ZOOM,
        skip_system_fonts=True,
        font_files=[str(path) for path in FONT_FILES.values()],
        font_family=SANS,
        serif_family=SANS,
        sans_serif_family=SANS,
        monospace_family=SANS,
        cursive_family=SANS,
        fantasy_family=SANS,
    )
    return bytes(png)


def _key(kind: str, share_id: str) -> str:
    return f"estoc:share-image:{IMAGE_VERSION}:{kind}:{share_id}"


def cached(kind: str, share_id: str) -> Any:
    """The share's ``"svg"`` (text) or ``"png"`` (bytes) from the cache, or None."""
    return cache.get(_key(kind, share_id))


def svg_text(shared: SharedResult) -> str:
    """The share's SVG, from the cache or drawn and cached."""
    svg = cached("svg", shared.id)
    if svg is None:
        svg = render_svg(shared)
        cache.set(_key("svg", shared.id), svg, CACHE_SECONDS)
    return str(svg)


def png_bytes(shared: SharedResult) -> bytes:
    """The share's PNG, from the cache or rendered once and cached.

    The Django cache (Redis with ``REDIS_URL``: shared by every worker), not a column or a file: a
    share never changes, so a lost image is only drawn again, identical (tens of milliseconds:
    docs/performance.md); no migration, no media storage to back up, nothing left behind when
    ``purge_shares`` deletes a share (the entry expires after ``CACHE_SECONDS``)."""
    png = cached("png", shared.id)
    if png is None:
        png = render_png(svg_text(shared))
        cache.set(_key("png", shared.id), png, CACHE_SECONDS)
    return bytes(png)


def etag(body: bytes) -> str:
    """A strong ETag: the hash of the bytes served."""
    return '"' + hashlib.sha256(body).hexdigest()[:32] + '"'
