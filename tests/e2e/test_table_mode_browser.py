"""Table mode (issue 13) in a real browser, on the six calculator pages, on a phone and a desktop:
the dice and « Résoudre » at hand on landing, the story in view after resolving, every navigation
link reachable, no console error, a dark theme that is dark — and the same after a bestiary pick."""

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.e2e.conftest import DESKTOP

pytestmark = pytest.mark.e2e

PAGES = ["/encore/", "/nephilim/", "/feerie/", "/feerie/action/", "/quadrature/", "/aventuriers/"]
PHONE_390 = {"width": 390, "height": 844}
VIEWPORTS = [("phone", PHONE_390, True), ("desktop", DESKTOP, False)]


@pytest.fixture
def contexts(browser):
    """Browser contexts closed at the end of the test, failed or not (before the database is flushed)."""
    opened = []
    yield opened
    for context in opened:
        context.close()


def open_page(browser, url, viewport, touch, opened, **options):
    context = browser.new_context(viewport=viewport, has_touch=touch, is_mobile=touch, locale="fr-FR", **options)
    opened.append(context)
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url)
    page.wait_for_load_state("networkidle")
    return context, page, errors


IN_VIEW = """selector => {
    const e = document.querySelector(selector);
    if (!e) return false;
    const r = e.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) return false;
    if (r.top < 0 || r.left < 0 || r.bottom > innerHeight || r.right > innerWidth) return false;
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + Math.min(r.height / 2, 10));
    return hit === e || e.contains(hit);
}"""


def in_view(page, selector: str, wait_ms: int = 2000) -> bool:
    """The element's box is inside the viewport, and it is what a tap at its centre reaches (within
    ``wait_ms``: the page scrolls smoothly)."""
    try:
        page.wait_for_function(IN_VIEW, arg=selector, timeout=wait_ms, polling=100)
    except PlaywrightTimeout:
        return False
    return True


def assert_at_hand(page, where: str) -> None:
    assert in_view(page, "input.die"), f"{where}: the first die is not in view"
    assert in_view(page, "#resolve-button"), f"{where}: « Résoudre » is not in view"
    size = page.eval_on_selector("#resolve-button", "e => parseFloat(getComputedStyle(e).fontSize)")
    assert size >= 14, f"{where}: « Résoudre » is written too small ({size}px)"


def resolve_and_see_the_story(page, where: str) -> None:
    page.click("#resolve-button")
    page.wait_for_selector("#story p")
    page.wait_for_load_state("networkidle")
    assert in_view(page, "#story p"), f"{where}: the first line of « Le récit » is not in view"
    # and « Résoudre » is still at hand for the next exchange
    assert in_view(page, "#resolve-button"), f"{where}: « Résoudre » is out of reach beside the result"
    page.wait_for_timeout(500)  # the smooth scroll ends before any screenshot


BROKEN_WORDS = """() => {
    // words of the technical panel split over two lines (« Rüb ezah l »), or a sign apart from its number
    const out = [];
    for (const cell of document.querySelectorAll('#technical td')) {
        if (!cell.getClientRects().length) continue;
        const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            const re = /[+\\u2212-]?\\d[^\\s-]*|[^\\s-]+/g;
            let m;
            while ((m = re.exec(node.data))) {
                const range = document.createRange();
                range.setStart(node, m.index);
                range.setEnd(node, m.index + m[0].length);
                const tops = new Set([...range.getClientRects()].filter(r => r.width > 0).map(r => Math.round(r.top)));
                if (tops.size > 1) out.push(m[0]);
            }
        }
    }
    return out;
}"""
OVERFLOW = """() => {
    const tables = [...document.querySelectorAll('#technical table')].filter(
        t => t.getBoundingClientRect().right > t.closest('.panel').getBoundingClientRect().right + 1);
    return {page: document.documentElement.scrollWidth - innerWidth, tables: tables.length};
}"""


def assert_readable_technical_panel(page, where: str) -> None:
    assert page.evaluate(BROKEN_WORDS) == [], f"{where}: words broken across lines in the technical panel"
    overflow = page.evaluate(OVERFLOW)
    assert overflow == {"page": 0, "tables": 0}, f"{where}: overflow {overflow}"


def pick_first_bestiary_entry(page) -> str:
    select = page.locator("#scenario-form select[data-load]").first
    name = select.get_attribute("name")
    value = select.locator("option:not([value=''])").first.get_attribute("value")
    select.select_option(value)
    page.wait_for_load_state("networkidle")
    page.wait_for_selector("input.die")
    return f"{name}={value}"


@pytest.mark.parametrize("path", PAGES)
@pytest.mark.parametrize(("label", "viewport", "touch"), VIEWPORTS)
def test_dice_and_resolve_at_hand_and_the_story_in_view(
    browser, contexts, live_server, bestiary, shot, path, label, viewport, touch
):
    _context, page, errors = open_page(browser, live_server.url + path, viewport, touch, contexts)
    name = path.strip("/").replace("/", "-")
    assert_at_hand(page, f"{path} {label} on landing")
    shot(page, f"table-{name}-{label}-landing")
    resolve_and_see_the_story(page, f"{path} {label}")
    assert_readable_technical_panel(page, f"{path} {label}")
    page.screenshot(path=str(shot.folder / f"table-{name}-{label}-result-viewport.png"))
    # the same after choosing a bestiary entry
    picked = pick_first_bestiary_entry(page)
    assert_at_hand(page, f"{path} {label} after {picked}")
    resolve_and_see_the_story(page, f"{path} {label} after {picked}")
    assert not page.locator("#scenario-form .is-invalid").count(), f"{path}: {picked} left a field in error"
    assert errors == [], f"{path} {label}: console errors {errors}"


UNREACHABLE_LINKS = """() => [...document.querySelectorAll('.site-nav a, .site-nav .nav-logout')].filter(e => {
    const r = e.getBoundingClientRect();
    if (!r.width || !r.height || r.left < 0 || r.right > innerWidth || r.top < 0 || r.bottom > innerHeight) return true;
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return !(hit === e || e.contains(hit));
}).map(e => e.textContent.trim())"""


@pytest.mark.parametrize(("label", "viewport", "touch"), VIEWPORTS)
def test_every_navigation_link_is_visible_or_one_tap_away(
    browser, contexts, live_server, bestiary, label, viewport, touch
):
    _context, page, errors = open_page(browser, live_server.url + "/nephilim/", viewport, touch, contexts)
    assert page.locator(".site-nav a").count() >= 8
    hidden = page.evaluate(UNREACHABLE_LINKS)
    if label == "desktop":
        assert hidden == [], f"links out of sight at 1366 px: {hidden}"
    if hidden:
        # the brand stays in sight; the rest is one tap on « Menu » away
        assert hidden != ["Estoc"]
        page.click(".nav-toggle")
        assert page.get_attribute(".nav-toggle", "aria-expanded") == "true"
        page.wait_for_timeout(100)
        assert page.evaluate(UNREACHABLE_LINKS) == [], "links still out of reach after « Menu »"
    assert errors == []


@pytest.mark.parametrize("path", PAGES)
def test_the_dark_theme_is_dark(browser, contexts, live_server, bestiary, shot, path):
    _context, page, errors = open_page(browser, live_server.url + path, PHONE_390, True, contexts, color_scheme="dark")
    rgb = page.evaluate("getComputedStyle(document.body).backgroundColor")
    r, g, b = (int(x) for x in rgb[rgb.index("(") + 1 : rgb.index(")")].split(",")[:3])
    assert (0.2126 * r + 0.7152 * g + 0.0722 * b) < 60, f"{path}: body background {rgb} is not dark"
    resolve_and_see_the_story(page, f"{path} dark")
    page.screenshot(path=str(shot.folder / f"table-{path.strip('/').replace('/', '-')}-dark.png"))
    assert errors == []


def test_enter_in_a_die_resolves_without_javascript(browser, contexts, live_server, bestiary):
    _context, page, _errors = open_page(
        browser, live_server.url + "/encore/", PHONE_390, True, contexts, java_script_enabled=False
    )
    page.fill("input[name='dice.pc.1']", "6")
    page.press("input[name='dice.pc.1']", "Enter")
    page.wait_for_selector("#story p")
    page.wait_for_load_state("load")
    assert page.url.endswith("#result")
    # the browser's own (smooth) scroll to the #result anchor; no page script runs to poll it
    for _ in range(30):
        page.wait_for_timeout(100)
        if page.eval_on_selector("#story p", "e => e.getBoundingClientRect().top") < 400:
            break
    page.wait_for_timeout(300)
    assert page.evaluate(IN_VIEW, "#story p")
    assert page.input_value("input[name='dice.pc.1']") == "6"


@pytest.mark.parametrize("path", ["/", "/accounts/login/", "/encounters/", "/accounts/password_reset/"])
@pytest.mark.parametrize(("label", "viewport", "touch"), VIEWPORTS)
def test_the_other_pages_have_no_console_error_and_no_sideways_scroll(
    browser, contexts, live_server, bestiary, path, label, viewport, touch
):
    _context, page, errors = open_page(browser, live_server.url + path, viewport, touch, contexts)
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    assert errors == [], f"{path} {label}: {errors}"


@pytest.mark.parametrize("path", ["/encore/", "/nephilim/"])
def test_a_bestiary_pick_keeps_the_place_and_the_open_panels(browser, contexts, live_server, bestiary, path):
    """The page does not jump when htmx redraws the calculator (Chrome's scroll anchoring on a
    focused <summary> sent it to the bottom), and the panels the game master opened stay open."""
    _context, page, errors = open_page(browser, live_server.url + path, PHONE_390, True, contexts)
    page.locator("#scenario-form details.adjust > summary").first.click()
    page.locator("#scenario-form summary").last.click()
    select = page.locator("#scenario-form select[data-load]:visible").first
    select.scroll_into_view_if_needed()
    before = page.evaluate("scrollY")
    opened = page.evaluate("[...document.querySelectorAll('#scenario-form details[open]')].length")
    select.select_option(index=1)
    page.wait_for_load_state("networkidle")
    page.wait_for_timeout(400)
    assert abs(page.evaluate("scrollY") - before) < 80
    assert page.evaluate("[...document.querySelectorAll('#scenario-form details[open]')].length") >= opened
    assert errors == []


@pytest.mark.parametrize("path", PAGES)
def test_a_number_typed_behind_ajuster_redraws_its_line_live(browser, contexts, live_server, bestiary, path):
    """A live change sends the « Ajuster » lines out of band: each must find its place (an
    out-of-band part without a target is a console error), and the line follows the number."""
    _context, page, errors = open_page(browser, live_server.url + path, PHONE_390, True, contexts)
    block = page.locator(
        "#scenario-form details.adjust:has(.adjust-line[data-key]):has(input.num) >> visible=true"
    ).first
    block.locator("summary").click()
    field = block.locator("input.num").first
    line = block.locator(".adjust-line")
    before = line.inner_text()
    value = field.input_value()
    field.fill(str(int(value) + 1) if value.lstrip("-").isdigit() else "1")
    field.dispatch_event("change")
    page.wait_for_timeout(400)
    page.wait_for_load_state("networkidle")
    assert errors == [], f"{path}: {errors}"
    assert page.locator(f"#{line.get_attribute('id')}").count() == 1
    if page.locator("#scenario-form .is-invalid").count() == 0:
        assert line.inner_text() != before or not before, f"{path}: « {before} » did not follow the number"
