"""Issue 19, item 3, in a real browser: « Copier le lien » on the share page (touch phone 390×844 and
desktop 1366×900), its fallback when the clipboard API is absent, the wikitext's options updating
in place; no console error."""

import re

import pytest
from playwright.sync_api import expect

from calculator import sharing
from rulesets.core.registry import get
from tests.e2e.conftest import DESKTOP

pytestmark = pytest.mark.e2e

PHONE_TOUCH = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
SCREENS = {"phone": PHONE_TOUCH, "desktop": {"viewport": DESKTOP}}
CLIPBOARD = ["clipboard-read", "clipboard-write"]


@pytest.fixture
def share_url(live_server, bestiary):
    from calculator.forms import permalink_query

    ruleset = get("encore")
    example = ruleset.examples()[0]
    query = permalink_query({"scenario": example.request["scenario"], "dice": example.request.get("dice", {})}, 7)
    shared = sharing.share_create(ruleset=ruleset, query=query.urlencode(), creator_session="e2e")
    return f"{live_server.url}/r/{shared.id}"


def watch_console(page):
    errors = []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(str(error)))
    return errors


def in_viewport(page, selector):
    return page.eval_on_selector(
        selector,
        """el => { const r = el.getBoundingClientRect();
                   return r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth; }""",
    )


@pytest.mark.parametrize("screen", sorted(SCREENS))
def test_copy_the_link_then_change_the_wikitext_options(browser, share_url, shot, screen):
    context = browser.new_context(locale="fr-FR", permissions=CLIPBOARD, **SCREENS[screen])
    page = context.new_page()
    errors = watch_console(page)
    page.goto(share_url)
    button = page.locator("#copy-link")
    button.scroll_into_view_if_needed()
    assert in_viewport(page, "#copy-link"), "the button, scrolled to, is on the screen"
    assert in_viewport(page, "#share-url"), "the link's input beside it too"
    if screen == "phone":
        button.tap()
    else:
        button.click()
    expect(page.locator("#link-status")).to_have_text("Lien copié.")
    assert page.evaluate("navigator.clipboard.readText()") == share_url
    assert page.get_attribute("#link-status", "aria-live") == "polite"
    shot(page, f"share-copy-link-{screen}")

    page.select_option("#wiki-titres", "2")
    expect(page.locator("#wikitext")).to_have_value(re.compile(r"^== La scène ==\n"))
    page.check("#wiki-image-fichier")
    expect(page.locator("#wikitext")).to_have_value(re.compile(r"^\[\[Fichier:Estoc-\w+\.png\|"))
    assert page.get_attribute("#wiki-download", "href").endswith("/wiki.txt?titres=2&image=fichier")
    assert page.url.endswith("?titres=2&image=fichier"), "a reload keeps the options"
    assert errors == [], errors
    context.close()


def test_without_the_clipboard_api_the_link_is_selected_to_copy_by_hand(browser, share_url, shot):
    context = browser.new_context(locale="fr-FR", **PHONE_TOUCH)
    context.add_init_script("Object.defineProperty(navigator, 'clipboard', { value: undefined });")
    page = context.new_page()
    errors = watch_console(page)
    page.goto(share_url)
    page.locator("#copy-link").tap()
    expect(page.locator("#link-status")).to_contain_text("Le lien est sélectionné")
    selected = page.evaluate(
        """() => { const i = document.getElementById('share-url');
                   return document.activeElement === i && i.selectionStart === 0 && i.selectionEnd === i.value.length; }"""
    )
    assert selected, "the read-only input holding the link is selected"
    assert in_viewport(page, "#share-url")
    shot(page, "share-copy-link-fallback-phone")
    assert errors == [], errors
    context.close()
