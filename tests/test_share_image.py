"""Issue 19, items 1 and 5: the image of a shared result drawn on the server, ``/r/<id>.png`` and
``/r/<id>.svg`` (calculator/share_image.py, calculator/share_image_views.py)."""

import io
import itertools
import re
import xml.etree.ElementTree as ET

import pytest
from django.core.cache import cache
from django.core.management import call_command
from django.urls import resolve
from PIL import Image

from calculator import share_image
from calculator.forms import permalink_query
from calculator.management.commands.share_image_fonts import project_text
from calculator.models import SharedResult
from rulesets.core.registry import get, load_all
from tests.test_markup_injection import PAYLOAD, RAW_MARKERS, _named_example

pytestmark = pytest.mark.django_db
SVG = "{http://www.w3.org/2000/svg}"
IGNORABLE = "\u200d\ufe0e\ufe0f"  # joiner, variation selectors: never drawn (the shaper hides them)


@pytest.fixture(autouse=True)
def fixtures_and_empty_cache():
    call_command("loadfixtures", verbosity=0)
    cache.clear()


def _share(client, slug, scenario, dice) -> SharedResult:
    query = permalink_query({"scenario": scenario, "dice": dice}, 7)
    response = client.post("/r/", {"ruleset": slug, "q": query.urlencode()})
    assert response.status_code == 303, response.content.decode()[:500]
    return SharedResult.objects.get(pk=response["Location"].rsplit("/", 1)[1])


def _example_share(client, slug, index=0) -> SharedResult:
    example = get(slug).examples()[index]
    return _share(client, slug, example.request["scenario"], example.request.get("dice", {}))


def _every_example_share(client) -> list[SharedResult]:
    """A share of every worked example the share form accepts (a few are refused on purpose)."""
    shares = []
    for slug in sorted(load_all()):
        for example in get(slug).examples():
            query = permalink_query(
                {"scenario": example.request["scenario"], "dice": example.request.get("dice", {})}, 7
            )
            response = client.post("/r/", {"ruleset": slug, "q": query.urlencode()})
            if response.status_code == 303:
                shares.append(SharedResult.objects.get(pk=response["Location"].rsplit("/", 1)[1]))
    return shares


def _rgb(hex_colour: str) -> tuple[int, int, int]:
    return tuple(int(hex_colour[i : i + 2], 16) for i in (1, 3, 5))


def _svg_texts(svg: str) -> list[str]:
    root = ET.fromstring(svg.encode())
    return ["".join(node.itertext()) for node in root.iter(f"{SVG}text")]


@pytest.mark.parametrize("slug", sorted(load_all()))
def test_every_ruleset_png_is_1440_wide_not_blank_with_the_outcome_colour(client, slug):
    shared = _example_share(client, slug)
    response = client.get(f"/r/{shared.id}.png")
    assert response.status_code == 200
    assert response["Content-Type"] == "image/png"
    image = Image.open(io.BytesIO(response.content)).convert("RGB")
    assert image.width == 1440
    assert image.height > 400
    colours = image.getcolors(maxcolors=1 << 20)
    assert len(colours) > 20, "a blank or near-blank image"
    outcome = _rgb(share_image.TONE_COLOURS[shared.result["tone"]])
    badge_pixels = {rgb: n for n, rgb in colours}.get(outcome, 0)
    assert badge_pixels > 500, f"the outcome badge's colour {outcome} is missing"


@pytest.mark.parametrize("slug", sorted(load_all()))
def test_every_ruleset_svg_is_valid_xml_with_the_story_and_the_final_numbers(client, slug):
    shared = _example_share(client, slug)
    response = client.get(f"/r/{shared.id}.svg")
    assert response.status_code == 200
    assert response["Content-Type"] == "image/svg+xml; charset=utf-8"
    texts = _svg_texts(response.content.decode())
    drawn = " ".join(texts)
    for paragraph in shared.story:
        # wrapped at spaces, never at a no-break space: the lines join back
        assert re.sub(r"[ \t\r\n]+", " ", paragraph).strip() in drawn
    assert shared.result["outcome_label"] in drawn
    for _key, label, value in shared.summary:
        assert label in drawn
        assert all(word in drawn for word in value.split())


def test_the_svg_forbids_scripts_and_sniffing(client):
    shared = _example_share(client, "encore")
    response = client.get(f"/r/{shared.id}.svg")
    assert response["Content-Security-Policy"] == "default-src 'none'; style-src 'unsafe-inline'"
    assert response["X-Content-Type-Options"] == "nosniff"
    assert client.get(f"/r/{shared.id}.png")["X-Content-Type-Options"] == "nosniff"


@pytest.mark.parametrize("suffix", [".png", ".svg"])
def test_head_is_answered_and_the_image_is_cacheable_forever(client, suffix):
    shared = _example_share(client, "encore")
    head = client.head(f"/r/{shared.id}{suffix}")
    assert head.status_code == 200
    get = client.get(f"/r/{shared.id}{suffix}")
    assert get["Cache-Control"] == "public, max-age=31536000, immutable"
    assert re.fullmatch(r'"[0-9a-f]{32}"', get["ETag"]), "a strong ETag"
    assert head["ETag"] == get["ETag"]
    assert "Set-Cookie" not in get.headers
    assert "Cookie" not in get.get("Vary", "")
    again = client.get(f"/r/{shared.id}{suffix}", headers={"If-None-Match": get["ETag"]})
    assert again.status_code == 304
    assert client.post(f"/r/{shared.id}{suffix}").status_code == 405


def test_an_unknown_share_has_no_image(client):
    for suffix in (".png", ".svg"):
        assert client.get(f"/r/zzzzzzzz{suffix}").status_code == 404
        assert client.head(f"/r/zzzzzzzz{suffix}").status_code == 404
    assert client.get("/r/zz%00zz.png").status_code == 404


def test_the_share_page_route_does_not_swallow_the_images():
    assert resolve("/r/abc12345.png").url_name == "shared_png"
    assert resolve("/r/abc12345.png").kwargs == {"share_id": "abc12345"}
    assert resolve("/r/abc12345.svg").url_name == "shared_svg"
    assert resolve("/r/abc12345").url_name == "shared"


def test_the_second_request_is_served_from_the_cache(client, monkeypatch):
    shared = _example_share(client, "quadrature")
    calls = []
    real = share_image.render_png
    monkeypatch.setattr(share_image, "render_png", lambda svg: calls.append(svg) or real(svg))
    drawn = []
    real_svg = share_image.render_svg
    monkeypatch.setattr(share_image, "render_svg", lambda item: drawn.append(item.id) or real_svg(item))
    first = client.get(f"/r/{shared.id}.png")
    second = client.get(f"/r/{shared.id}.png")
    assert first.content == second.content
    assert len(calls) == 1, "the PNG was rendered again"
    client.get(f"/r/{shared.id}.svg")
    assert drawn == [shared.id], "the SVG was drawn again"


def test_the_renderer_loads_the_shipped_fonts_only(monkeypatch):
    import resvg_py

    seen = {}
    monkeypatch.setattr(resvg_py, "svg_to_bytes", lambda **kwargs: seen.update(kwargs) or b"png")
    share_image.render_png("<svg/>")
    assert seen["skip_system_fonts"] is True
    assert seen["zoom"] == 2
    assert seen["font_files"] == [str(p) for p in share_image.FONT_FILES.values()]
    assert all(share_image.FONT_DIR in p.parents and p.is_file() for p in share_image.FONT_FILES.values())
    assert (share_image.FONT_DIR / "LICENSE-DejaVu.txt").is_file()
    assert (share_image.FONT_DIR / "LICENSE-NotoColorEmoji.txt").is_file()


@pytest.mark.parametrize("slug", sorted(load_all()))
def test_a_typed_name_stays_text_in_the_svg(client, slug):
    scenario, dice = _named_example(slug)
    shared = _share(client, slug, scenario, dice)
    svg = client.get(f"/r/{shared.id}.svg").content.decode()
    for marker in RAW_MARKERS:
        assert marker not in svg
    assert PAYLOAD in " ".join(_svg_texts(svg)), "the name should be drawn as typed"


def test_control_characters_and_line_breaks_keep_the_svg_valid(client):
    shared = _example_share(client, "encore")
    shared.result["outcome_label"] = "Réussite\x01\x1b partielle\nsur deux lignes"
    shared.result["narrative"]["story"] = ["Un récit\x00 avec\ttabulation & <balise>"]
    svg = share_image.render_svg(shared)
    drawn = " ".join(_svg_texts(svg))
    assert "Réussite\ufffd\ufffd partielle sur deux lignes" in drawn
    assert "Un récit\ufffd avec tabulation & <balise>" in drawn


def _bounds_ok(layout: share_image.Layout) -> list[str]:
    """Texts that pass the right edge of their column (the page's for the header and the credit)."""
    out = []
    for t in layout.texts:
        right = share_image.WIDTH - share_image.MARGIN if t.x < share_image.CONTENT_X else share_image.CONTENT_RIGHT
        if t.x + t.width > right + 0.01 or t.x < share_image.MARGIN:
            out.append("".join(chunk for _family, chunk in t.runs))
    return out


def _frame_margin_is_clean(png: bytes) -> None:
    """The frames' right padding (layout px 686-689, clear of the rounded corners) holds only the
    page's and the frames' backgrounds: no glyph reached it."""
    image = Image.open(io.BytesIO(png)).convert("RGB")
    allowed = {_rgb(share_image.PAGE), _rgb(share_image.FRAME_BG)}
    strip = image.crop((686 * 2, 0, 690 * 2, image.height))
    assert {rgb for _n, rgb in strip.getcolors(maxcolors=1 << 16)} <= allowed


def test_the_longest_worked_example_stays_inside_the_image(client):
    shares = _every_example_share(client)
    longest = max(shares, key=lambda s: sum(len(p) for p in s.story))
    largest = max(shares, key=lambda s: s.size)
    for shared in {longest.id: longest, largest.id: largest}.values():
        layout = share_image.layout_for(shared)
        assert _bounds_ok(layout) == []
        assert not any("Image coupée" in "".join(c for _f, c in t.runs) for t in layout.texts)
        _frame_margin_is_clean(share_image.render_png(share_image.render_svg(shared)))


def test_an_unbreakable_word_and_long_badged_values_are_cut_to_their_column(client):
    shared = _example_share(client, "feerie")
    shared.result["narrative"]["story"] = ["Ж" * 400, "Ogre " + "Œ" * 150 + " fin"]
    shared.result["narrative"]["scene"] = "x" * 300
    shared.summary = [["k", "L" * 120, "PHYS " * 60 + "M" * 200 + " MAG"]]
    layout = share_image.layout_for(shared)
    assert _bounds_ok(layout) == []
    drawn = "".join("".join(c for _f, c in t.runs) for t in layout.texts)
    assert drawn.count("Ж") == 400, "the word is cut, never truncated"
    _frame_margin_is_clean(share_image.render_png(share_image.render_svg(shared)))


def test_a_share_taller_than_the_limit_is_cut_and_says_so(client):
    """The largest share the limits accept would be 21,654 px tall (3.5 s of resvg): the image stops
    at ``MAX_HEIGHT`` and tells how many lines it leaves out, and where they are."""
    shared = _example_share(client, "feerie")
    shared.result["narrative"]["story"] = ["Le combat continue encore et encore. " * 40] * 40
    layout = share_image.layout_for(shared)
    assert layout.y <= share_image.MAX_HEIGHT
    drawn = " ".join(_svg_texts(share_image.render_svg(shared)))
    notice = re.search(
        r"Image coupée à 6\u00a0000\u00a0pixels de haut\u202f: (\d+)\u00a0lignes de plus sur la page du résultat, /r/(\w+)\.",
        drawn,
    )
    assert notice, drawn[-400:]
    assert int(notice.group(1)) > 100
    assert notice.group(2) == shared.id
    png = share_image.render_png(share_image.render_svg(shared))
    image = Image.open(io.BytesIO(png))
    assert image.width == 1440
    assert image.height <= 6000
    _frame_margin_is_clean(png)


def test_the_measure_is_never_shorter_than_the_drawing(client):
    """The wrapping relies on it: resvg's ink of a line ends before the measured width."""
    shared = _example_share(client, "quadrature")
    lines = [(p, 16, False) for p in shared.story] + [(v, 15, True) for _k, _l, v in shared.summary]
    for text, size, bold in lines:
        width = share_image.text_width(text, size, bold)
        chunks = "".join(f'<tspan font-family="{f}">{c}</tspan>' for f, c in share_image.runs(text))
        weight = ' font-weight="bold"' if bold else ""
        svg = (
            f'<svg xmlns="http://www.w3.org/2000/svg" xml:space="preserve" width="720" height="40">'
            f'<rect width="720" height="40" fill="#fff"/><text x="0" y="28" font-size="{size}"{weight}'
            f' font-family="DejaVu Sans">{chunks}</text></svg>'
        )
        image = Image.open(io.BytesIO(share_image.render_png(svg))).convert("L")
        ink = image.point(lambda v: 255 if v < 250 else 0).getbbox()
        assert ink is not None
        assert ink[2] <= width * 2 + 1, (text, ink[2] / 2, width)


def test_every_character_of_every_worked_example_image_has_a_shipped_glyph(client):
    """No missing-glyph box: each character is in the font that draws it (fontTools' cmap)."""
    missing = set()
    for shared in _every_example_share(client):
        for t in share_image.layout_for(shared).texts:
            for family, chunk in t.runs:
                font = share_image.metrics("emoji" if family == share_image.EMOJI else "bold" if t.bold else "regular")
                missing |= {ch for ch in chunk if ord(ch) not in font.advances and ch not in IGNORABLE}
    assert missing == set()


def test_every_emoji_of_the_rule_texts_is_in_the_shipped_emoji_font():
    """Rule texts not in a worked example too: else run ``manage.py share_image_fonts``."""
    text = project_text()
    emoji = share_image.metrics("emoji").advances
    sans = share_image.metrics("regular").advances
    wanted = {
        ch
        for i, ch in enumerate(text)
        if share_image.wants_emoji(ch, text[i + 1 : i + 2], True, ord(ch) in sans) and ord(ch) > 0x7F
    }
    assert {"✅", "💢", "🟫"} <= wanted
    assert {ch for ch in wanted if ord(ch) not in emoji} == set()
    assert {ch for ch in text if not share_image.covered(ch) and ch not in "\n\r\t"} == set()


def test_emoji_are_drawn_by_the_emoji_font_and_text_by_dejavu():
    assert share_image.runs("✅ Réussite + ⭐") == [
        (share_image.EMOJI, "✅"),
        (share_image.SANS, " Réussite + "),
        (share_image.EMOJI, "⭐"),
    ]
    assert share_image.runs("♥ et ♥\ufe0f") == [(share_image.SANS, "♥ et "), (share_image.EMOJI, "♥\ufe0f")]


def test_the_odds_are_drawn_when_the_engine_is_the_shares(client):
    shared = _example_share(client, "encore")
    drawn = " ".join(_svg_texts(share_image.render_svg(shared)))
    assert "LES CHANCES" in drawn
    assert "Réussite partielle" in drawn
    assert re.search(r"\d+,\d\u00a0%", drawn)
    shared.engine_version = "0.9"
    assert "LES CHANCES" not in " ".join(_svg_texts(share_image.render_svg(shared)))


def test_the_share_page_links_the_server_images_and_keeps_the_browser_capture(client):
    shared = _example_share(client, "encore")
    body = client.get(f"/r/{shared.id}").content.decode()
    assert f'href="/r/{shared.id}.png"' in body
    assert f'href="/r/{shared.id}.svg"' in body
    assert "Image PNG" in body
    assert "Image SVG" in body
    assert 'id="download-png"' in body
    assert f'href="/r/{shared.id}/capture"' in body


def test_the_emoji_subset_takes_what_a_browser_draws_as_emoji():
    from calculator.management.commands.share_image_fonts import emoji_of

    emoji = {ord(c) for c in "✅⚔♥"}
    sans = {ord(c) for c in " é⚔♥\ufe0f"}
    assert emoji_of("✅ é ⚔\ufe0f ♥", emoji, sans) == {ord("✅"), ord("⚔"), 0xFE0F}


def test_the_emoji_subset_command_says_when_the_source_font_is_missing(tmp_path):
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match="Police introuvable"):
        call_command("share_image_fonts", source=str(tmp_path / "absente.ttf"))


def test_first_renders_count_as_resolves_and_drawn_images_are_always_served(client, settings):
    """A first render costs up to a second of CPU: past RESOLVE_RATE it is a 429 in French; an
    image already in the cache is served whatever the count."""
    shares = [_example_share(client, "encore", i) for i in range(3)]
    settings.RESOLVE_RATE = "2/m"
    cache.clear()  # the images and the counts
    assert client.get(f"/r/{shares[0].id}.png").status_code == 200
    assert client.get(f"/r/{shares[1].id}.svg").status_code == 200
    refused = client.get(f"/r/{shares[2].id}.png")
    assert refused.status_code == 429
    assert int(refused["Retry-After"]) >= 1
    assert "trop de résolutions" in refused.content.decode()
    for _ in range(3):
        assert client.get(f"/r/{shares[0].id}.png").status_code == 200
        assert client.get(f"/r/{shares[1].id}.svg").status_code == 200


def test_text_after_a_badge_starts_after_it_not_over_the_line_s_start():
    """Nephilim's « 0 PHYS 0 MAG »: the second number was drawn at the line's start, over the first."""
    from calculator import share_image

    layout = share_image.Layout()
    (line,) = share_image._rich_wrap("0 PHYS 0 MAG", 600, 16)
    share_image._rich_line(layout, line, 100, 0, 16, 24)
    spans = sorted(
        [(t.x, t.x + t.width) for t in layout.texts if t.fill != "#ffffff"]
        + [(r.x, r.x + r.width) for r in layout.rects]
    )
    assert len(spans) == 4
    for (_start, end), (next_start, _end) in itertools.pairwise(spans):
        assert next_start >= end - 0.01
