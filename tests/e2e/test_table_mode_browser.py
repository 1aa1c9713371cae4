"""Table mode (issue 13) in a real browser, on the six calculator pages, on a phone and a desktop:
the dice and « Résoudre » at hand on landing, the story in view after resolving, every navigation
link reachable, no console error, a dark theme that is dark — and the same after a bestiary pick."""

import pytest

from tests.e2e.conftest import DESKTOP

pytestmark = pytest.mark.e2e

PAGES = ["/encore/", "/nephilim/", "/feerie/", "/feerie/action/", "/quadrature/", "/aventuriers/"]
PHONE_390 = {"width": 390, "height": 844}
VIEWPORTS = [("phone", PHONE_390, True), ("desktop", DESKTOP, False)]


def open_page(browser, url, viewport, touch, **options):
    context = browser.new_context(viewport=viewport, has_touch=touch, is_mobile=touch, locale="fr-FR", **options)
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url)
    page.wait_for_load_state("networkidle")
    return context, page, errors


def in_view(page, selector: str) -> bool:
    """The element's box is inside the viewport, and it is what a tap at its centre reaches."""
    return page.eval_on_selector(
        selector,
        """e => {
            const r = e.getBoundingClientRect();
            if (r.width === 0 || r.height === 0) return false;
            if (r.top < 0 || r.left < 0 || r.bottom > innerHeight || r.right > innerWidth) return false;
            const hit = document.elementFromPoint(r.left + r.width / 2, r.top + Math.min(r.height / 2, 10));
            return hit === e || e.contains(hit);
        }""",
    )


def assert_at_hand(page, where: str) -> None:
    assert in_view(page, "input.die"), f"{where}: the first die is not in view"
    assert in_view(page, "#resolve-button"), f"{where}: « Résoudre » is not in view"
    size = page.eval_on_selector("#resolve-button", "e => parseFloat(getComputedStyle(e).fontSize)")
    assert size >= 14, f"{where}: « Résoudre » is written too small ({size}px)"


def resolve_and_see_the_story(page, where: str) -> None:
    page.click("#resolve-button")
    page.wait_for_selector("#story p")
    page.wait_for_load_state("networkidle")
    page.wait_for_timeout(300)  # the scroll that brings the story into view
    assert in_view(page, "#story p"), f"{where}: the first line of « Le récit » is not in view"


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
def test_dice_and_resolve_at_hand_and_the_story_in_view(browser, live_server, bestiary, shot, path, label, viewport, touch):
    context, page, errors = open_page(browser, live_server.url + path, viewport, touch)
    name = path.strip("/").replace("/", "-")
    assert_at_hand(page, f"{path} {label} on landing")
    shot(page, f"table-{name}-{label}-landing")
    resolve_and_see_the_story(page, f"{path} {label}")
    page.screenshot(path=str(shot.folder / f"table-{name}-{label}-result-viewport.png"))
    # the same after choosing a bestiary entry
    picked = pick_first_bestiary_entry(page)
    assert_at_hand(page, f"{path} {label} after {picked}")
    resolve_and_see_the_story(page, f"{path} {label} after {picked}")
    assert not page.locator("#scenario-form .is-invalid").count(), f"{path}: {picked} left a field in error"
    assert errors == [], f"{path} {label}: console errors {errors}"
    context.close()


@pytest.mark.parametrize(("label", "viewport", "touch"), VIEWPORTS)
def test_every_navigation_link_is_visible_or_one_tap_away(browser, live_server, bestiary, label, viewport, touch):
    context, page, errors = open_page(browser, live_server.url + "/nephilim/", viewport, touch)
    links = page.locator(".site-nav a, .site-nav .nav-logout")
    assert links.count() >= 8
    hidden = [i for i in range(links.count()) if not in_view(page, f".site-nav :is(a, .nav-logout) >> nth={i}")]
    if hidden:
        page.click(".nav-toggle")
        page.wait_for_timeout(100)
        assert page.get_attribute(".nav-toggle", "aria-expanded") == "true"
    for i in range(links.count()):
        text = links.nth(i).inner_text()
        assert links.nth(i).is_visible(), f"{label}: « {text} » cannot be reached"
        box = links.nth(i).bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"], f"{label}: « {text} » is cut off"
    assert errors == []
    context.close()


@pytest.mark.parametrize("path", PAGES)
def test_the_dark_theme_is_dark(browser, live_server, bestiary, shot, path):
    context, page, errors = open_page(browser, live_server.url + path, PHONE_390, True, color_scheme="dark")
    rgb = page.evaluate("getComputedStyle(document.body).backgroundColor")
    r, g, b = (int(x) for x in rgb[rgb.index("(") + 1 : rgb.index(")")].split(",")[:3])
    assert (0.2126 * r + 0.7152 * g + 0.0722 * b) < 60, f"{path}: body background {rgb} is not dark"
    resolve_and_see_the_story(page, f"{path} dark")
    page.screenshot(path=str(shot.folder / f"table-{path.strip('/').replace('/', '-')}-dark.png"))
    assert errors == []
    context.close()


def test_enter_in_a_die_resolves_without_javascript(browser, live_server, bestiary):
    context, page, errors = open_page(browser, live_server.url + "/encore/", PHONE_390, True, java_script_enabled=False)
    page.fill("input[name='dice.pc.1']", "6")
    page.press("input[name='dice.pc.1']", "Enter")
    page.wait_for_selector("#story p")
    page.wait_for_load_state("load")
    page.wait_for_function("window.scrollY > 0")  # the browser's own scroll to the #result anchor
    assert page.url.endswith("#result")
    assert in_view(page, "#story p")
    assert page.input_value("input[name='dice.pc.1']") == "6"
    context.close()
