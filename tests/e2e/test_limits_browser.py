"""Issue 17, finding 1: past the resolve limit, a game master sees why, in French, in view, and the
message goes away by itself; no script error."""

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import DESKTOP

pytestmark = pytest.mark.e2e

PHONE_TOUCH = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}


@pytest.mark.parametrize(("label", "options"), [("phone", PHONE_TOUCH), ("desktop", {"viewport": DESKTOP})])
def test_past_the_resolve_limit_the_message_shows_in_view_and_closes(
    browser, live_server, bestiary, shot, settings, label, options
):
    from django.core.cache import cache

    cache.clear()  # the live server is this process: no count left by another test
    settings.RESOLVE_RATE = "2/m"
    context = browser.new_context(locale="fr-FR", **options)
    page = context.new_page()
    script_errors = []
    page.on("pageerror", lambda exc: script_errors.append(str(exc)))
    page.on(
        "console",
        lambda m: (
            script_errors.append(m.text)
            if m.type == "error" and "Failed to load resource" not in m.text  # the 429 itself
            else None
        ),
    )
    page.goto(f"{live_server.url}/encore/")
    resolve = page.get_by_role("button", name="Résoudre").first
    for _ in range(2):
        resolve.click()
        page.wait_for_selector("#story")
        page.wait_for_load_state("networkidle")
    resolve.click()
    toast = page.locator("#throttled [role=alert]")
    expect(toast).to_be_visible()
    expect(toast).to_be_in_viewport()
    assert "Trop de requêtes\u202f: réessayez dans" in toast.inner_text()  # French spacing (issue 15)
    assert "trop de résolutions" in toast.inner_text()
    box = toast.bounding_box()
    assert box["x"] >= 0
    assert box["x"] + box["width"] <= options["viewport"]["width"]
    size = toast.evaluate("e => parseFloat(getComputedStyle(e).fontSize)")
    assert size >= 14
    shot(page, f"limits-toast-{label}")
    # the result already shown stays, and « Résoudre » is usable again
    expect(page.locator("#story")).to_be_visible()
    expect(resolve).to_be_enabled()
    toast.get_by_role("button", name="Fermer").click()
    expect(page.locator("#throttled [role=alert]")).to_have_count(0)
    assert script_errors == []
    context.close()
