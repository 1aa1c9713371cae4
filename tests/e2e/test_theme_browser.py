"""Dark mode, the light/dark toggle, printing and the installable app, in a real browser.

- with ``color_scheme="dark"`` every calculator page is dark, its text reads at WCAG AA, no console error;
- without JavaScript the dark theme still follows the system (theme.css's media);
- the toggle in the navigation switches the theme and the choice survives a reload;
- every result prints on one page, without navigation, form or buttons;
- the service worker installs, caches the static files (never the API nor a page), and with the
  network gone a navigation shows the French offline page.
"""

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import DESKTOP, PHONE

pytestmark = pytest.mark.e2e

PAGES = {
    "encore": "/encore/",
    "nephilim": "/nephilim/",
    "feerie": "/feerie/",
    "feerie-action": "/feerie/action/",
    "quadrature": "/quadrature/",
    "aventuriers": "/aventuriers/",
}
PHONE_CONTEXT = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}

# WCAG 2.1 contrast of every visible piece of text against the colours behind it (the capture of a
# shared result is a light picture by design and is left out).
CONTRAST_SCAN = """() => {
  const parse = (c) => { const m = c.match(/rgba?\\(([^)]+)\\)/); if (!m) return null;
    const p = m[1].split(/[ ,\\/]+/).filter(Boolean).map(Number); return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1]; };
  const over = (t, b) => [t[0] * t[3] + b[0] * (1 - t[3]), t[1] * t[3] + b[1] * (1 - t[3]), t[2] * t[3] + b[2] * (1 - t[3]), 1];
  const lum = (c) => { const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
    return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]); };
  const ratio = (a, b) => { const x = lum(a), y = lum(b); return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05); };
  const behind = (el) => { const layers = [];
    for (let e = el; e; e = e.parentElement) { const cs = getComputedStyle(e);
      if (cs.backgroundImage !== 'none' && !cs.backgroundImage.includes('data:image/svg')) return null;
      const bg = parse(cs.backgroundColor); if (bg && bg[3] > 0) { layers.push(bg); if (bg[3] >= 1) break; } }
    let c = [255, 255, 255, 1]; for (let i = layers.length - 1; i >= 0; i--) c = over(layers[i], c); return c; };
  const bad = [];
  for (const el of document.querySelectorAll('body *')) {
    if (!Array.from(el.childNodes).some((n) => n.nodeType === 3 && n.textContent.trim())) continue;
    if (el.closest('svg, option, [disabled], .disabled, .visually-hidden, .is-out, .is-undone, .capture')) continue;
    const cs = getComputedStyle(el), box = el.getBoundingClientRect();
    if (cs.visibility !== 'visible' || box.width < 1 || box.height < 1) continue;
    let opacity = 1; for (let e = el; e; e = e.parentElement) opacity *= parseFloat(getComputedStyle(e).opacity);
    const bg = behind(el), fg = parse(cs.color); if (!bg || !fg || opacity === 0) continue;
    const size = parseFloat(cs.fontSize), large = size >= 24 || (parseInt(cs.fontWeight) >= 700 && size >= 18.66);
    const k = ratio(over([fg[0], fg[1], fg[2], fg[3] * opacity], bg), bg);
    if (k < (large ? 3 : 4.5)) bad.push(k.toFixed(2) + ' ' + el.tagName.toLowerCase() + '.' + [...el.classList].join('.')
      + ' « ' + el.textContent.trim().slice(0, 40) + ' » ' + cs.color + ' sur rgb(' + bg.slice(0, 3).map(Math.round) + ')');
  }
  return bad;
}"""


def body_luminance(page):
    """Relative luminance (0 black … 1 white) of the body's computed background colour."""
    colour = page.evaluate("getComputedStyle(document.body).backgroundColor")
    r, g, b = (int(v) / 255 for v in re.findall(r"[\d.]+", colour)[:3])
    f = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in (r, g, b)]
    return 0.2126 * f[0] + 0.7152 * f[1] + 0.0722 * f[2]


def watch_console(page):
    errors = []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(str(error)))
    return errors


def resolve(page, seed):
    """Resolve the page's default scene with a fixed seed (the same dice on every run)."""
    page.locator("input[name='seed']").evaluate(f"(input) => {{ input.value = '{seed}'; }}")
    page.click("#resolve-button")
    expect(page.locator("#final code")).to_have_text(str(seed), timeout=60_000)
    page.wait_for_load_state("networkidle")


def pdf_pages(pdf):
    return len(re.findall(rb"/Type\s*/Page[^s]", pdf))


@pytest.mark.parametrize("slug", PAGES)
def test_a_dark_system_gets_dark_pages_readable_at_wcag_aa_without_console_errors(
    browser, live_server, bestiary, shot, slug
):
    context = browser.new_context(color_scheme="dark", locale="fr-FR", **PHONE_CONTEXT)
    page = context.new_page()
    errors = watch_console(page)
    page.goto(live_server.url + PAGES[slug])
    assert page.get_attribute("html", "data-bs-theme") == "dark"
    assert body_luminance(page) < 0.02
    resolve(page, 7)
    page.evaluate("document.querySelectorAll('details').forEach((d) => { d.open = true; })")
    assert page.evaluate(CONTRAST_SCAN) == []
    assert body_luminance(page) < 0.02
    shot(page, f"dark-{slug}-phone")
    assert errors == []
    context.close()


def test_without_javascript_the_dark_theme_follows_the_system(browser, live_server, bestiary):
    for scheme, dark in (("dark", True), ("light", False)):
        context = browser.new_context(viewport=DESKTOP, color_scheme=scheme, java_script_enabled=False)
        page = context.new_page()
        page.goto(f"{live_server.url}/encore/")
        assert page.get_attribute("html", "data-bs-theme") is None
        assert (body_luminance(page) < 0.02) is dark, scheme
        panel = page.evaluate("getComputedStyle(document.querySelector('.panel')).backgroundColor")
        assert (panel == "rgb(255, 255, 255)") is not dark, "the panels follow the page"
        assert page.locator("[data-theme-toggle]").is_hidden(), "a toggle that needs JavaScript is not shown without it"
        context.close()


@pytest.mark.parametrize("system", ["light", "dark"])
def test_the_toggle_switches_the_theme_and_the_choice_survives_a_reload(browser, live_server, bestiary, system):
    other = "dark" if system == "light" else "light"
    context = browser.new_context(viewport=PHONE, color_scheme=system, locale="fr-FR")
    page = context.new_page()
    errors = watch_console(page)
    page.goto(f"{live_server.url}/encore/")
    toggle = page.locator("header [data-theme-toggle]")
    expect(toggle, "templates/_theme_toggle.html is included once in the site's navigation").to_have_count(1)
    expect(toggle).to_be_visible()
    expect(toggle).to_have_accessible_name("Thème sombre")
    expect(toggle).to_have_attribute("aria-pressed", "true" if system == "dark" else "false")
    toggle.click()
    expect(page.locator("html")).to_have_attribute("data-bs-theme", other)
    expect(toggle).to_have_attribute("aria-pressed", "true" if other == "dark" else "false")
    assert (body_luminance(page) < 0.02) is (other == "dark")
    assert page.evaluate("localStorage.getItem('estoc-theme')") == other
    page.reload()
    expect(page.locator("html")).to_have_attribute("data-bs-theme", other)
    assert (body_luminance(page) < 0.02) is (other == "dark")
    # another page of the site remembers it too; back to the system's theme, nothing is remembered
    page.goto(f"{live_server.url}/nephilim/")
    expect(page.locator("html")).to_have_attribute("data-bs-theme", other)
    page.locator("header [data-theme-toggle]").click()
    expect(page.locator("html")).to_have_attribute("data-bs-theme", system)
    assert page.evaluate("localStorage.getItem('estoc-theme')") is None
    page.reload()
    expect(page.locator("html")).to_have_attribute("data-bs-theme", system)
    assert errors == []
    context.close()


@pytest.mark.parametrize("slug", PAGES)
def test_a_result_prints_on_one_page_without_navigation_form_or_buttons(browser, live_server, bestiary, slug):
    # printed from the dark theme, the paper is still light
    context = browser.new_context(viewport=DESKTOP, color_scheme="dark", locale="fr-FR")
    page = context.new_page()
    page.goto(live_server.url + PAGES[slug])
    resolve(page, 3)
    assert pdf_pages(page.pdf(format="A4", prefer_css_page_size=True)) == 1
    page.emulate_media(media="print")
    assert body_luminance(page) > 0.9
    for hidden in (".site-header", "footer", "#live", "#resolve-button", ".share-form", "#permalink"):
        assert page.locator(hidden).first.is_hidden(), hidden
    if slug == "quadrature":
        # Quadrature prints the creature's living sheet instead, on one A5 page (static/css/quadrature.css)
        assert page.locator(".q-sheet").is_visible()
    else:
        assert page.locator("#scenario-form").is_hidden()
        for shown in ("#story", "#technical", "#final", "#odds"):
            assert page.locator(shown).is_visible(), shown
        assert page.locator("#technical .tech-table").first.is_visible()
    context.close()


@pytest.mark.parametrize("slug", ["feerie-action", "nephilim"])
def test_a_shared_result_prints_on_one_page(browser, live_server, bestiary, slug):
    context = browser.new_context(viewport=DESKTOP, locale="fr-FR")
    page = context.new_page()
    page.goto(live_server.url + PAGES[slug])
    resolve(page, 2)
    page.click("button:has-text('Partager')")
    page.wait_for_url("**/r/*")
    assert pdf_pages(page.pdf(format="A4", prefer_css_page_size=True)) == 1
    page.emulate_media(media="print")
    assert page.locator("#capture .frame-technical").is_visible()
    assert page.locator(".share-tools").is_hidden()
    assert page.locator(".site-header").is_hidden()
    context.close()


CACHED = """async () => {
  const out = [];
  for (const name of await caches.keys()) {
    const cache = await caches.open(name);
    for (const request of await cache.keys()) out.push([name, request.method, new URL(request.url).pathname]);
  }
  return out;
}"""


def test_the_worker_installs_caches_the_static_files_and_offline_shows_the_french_page(
    browser, live_server, bestiary, shot
):
    context = browser.new_context(color_scheme="dark", locale="fr-FR", **PHONE_CONTEXT)
    page = context.new_page()
    errors = watch_console(page)
    page.goto(f"{live_server.url}/encore/")
    assert page.evaluate("async () => (await navigator.serviceWorker.ready).scope") == f"{live_server.url}/"
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    resolve(page, 5)  # a POST through the worker
    assert page.evaluate("() => fetch('/api/openapi.json').then((r) => r.status)") == 200
    cached = page.evaluate(CACHED)
    names = {name for name, _, _ in cached}
    assert len(names) == 1
    assert re.fullmatch(r"estoc-static-[0-9a-f]{16}", names.pop())
    paths = {path for _, _, path in cached}
    assert {"/offline/", "/static/css/theme.css", "/static/css/estoc.css", "/static/js/theme.js"} <= paths
    assert {method for _, method, _ in cached} == {"GET"}
    assert all(path == "/offline/" or path.startswith("/static/") for path in paths), paths

    context.set_offline(True)
    page.goto(f"{live_server.url}/nephilim/?_f=1&r=1")
    expect(page.locator("h1")).to_have_text("Le serveur d'Estoc est injoignable")
    assert page.get_attribute("html", "lang") == "fr"
    assert page.locator("nav, form").count() == 0
    assert body_luminance(page) < 0.02, "the precached dark theme applies offline too"
    shot(page, "offline-phone")
    # « Réessayer » reloads the page asked for, which comes back with the network
    context.set_offline(False)
    page.click("text=Réessayer")
    expect(page.locator("h1")).to_have_text("Nephilim Légende")
    assert errors == []
    context.close()


@pytest.mark.parametrize("slug", PAGES)
def test_the_light_theme_is_readable_at_wcag_aa_too(browser, live_server, bestiary, slug):
    context = browser.new_context(color_scheme="light", locale="fr-FR", **PHONE_CONTEXT)
    page = context.new_page()
    page.goto(live_server.url + PAGES[slug])
    resolve(page, 7)
    page.evaluate("document.querySelectorAll('details').forEach((d) => { d.open = true; })")
    assert page.evaluate(CONTRAST_SCAN) == []
    context.close()
