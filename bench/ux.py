"""The game master's way from landing to result, per calculator page: ``python bench/ux.py URL [URL…]``.

For each server given (for instance the main branch and a work tree, each under ``runserver``) and
each of the six calculator pages, Playwright on Debian's Chromium measures, on a phone (390×844,
touch) and a desktop (1366×900):

* ``die_scroll`` and ``resolve_scroll``: how far (px) the page must be scrolled before the first die
  input and « Résoudre » are entirely on screen (0: at hand on landing);
* ``story_scroll``: after a tap on « Résoudre », how far the first line of « Le récit » still is from
  the screen (0: the result opened in view);
* ``fields``: the scenario fields a game master sees on landing (outside closed disclosures);
* ``taps``: the taps from landing to a result with a bestiary entry picked — pick the entry (one tap on
  the select, one on the entry), one tap per screen of scrolling needed to reach « Résoudre » and one
  on it, and one per screen of scrolling to reach the story.

Prints a JSON report and a Markdown table (for docs/ux.md). Loopback only; nothing is downloaded.
"""

from __future__ import annotations

import json
import math
import os
import sys
from typing import Any

from playwright.sync_api import sync_playwright

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"]
PAGES = ["/encore/", "/nephilim/", "/feerie/", "/feerie/action/", "/quadrature/", "/aventuriers/"]
VIEWPORTS = {"phone": ({"width": 390, "height": 844}, True), "desktop": ({"width": 1366, "height": 900}, False)}

SCROLL_TO_SEE = """e => {
    const r = e.getBoundingClientRect();
    if (r.top >= 0 && r.bottom <= innerHeight) return 0;
    return Math.round(r.top < 0 ? -r.top : r.bottom - innerHeight);
}"""
# document position (from the top of the page) the element's bottom must reach, minus the viewport
PAGE_SCROLL = "e => Math.max(0, Math.round(e.getBoundingClientRect().bottom + scrollY - innerHeight))"
OPEN_FIELDS = """() => [...document.querySelectorAll('#scenario-form [name]')].filter(e =>
    !e.name.startsWith('preset.') && !e.name.startsWith('_') && e.type !== 'hidden' && e.type !== 'submit'
    && e.name !== 'csrfmiddlewaretoken' && e.name !== 'seed' && !e.closest('details:not([open])')
    && e.getClientRects().length).length"""


def measure(page: Any, url: str, height: int) -> dict[str, Any]:
    page.goto(url)
    page.wait_for_load_state("networkidle")
    row: dict[str, Any] = {
        "die_scroll": page.eval_on_selector("input.die", PAGE_SCROLL),
        "resolve_scroll": page.eval_on_selector("#resolve-button", PAGE_SCROLL),
        "fields": page.evaluate(OPEN_FIELDS),
    }
    select = page.locator("#scenario-form select[data-load]").first
    value = select.locator("option:not([value=''])").first.get_attribute("value")
    select.select_option(value)
    page.wait_for_load_state("networkidle")
    page.wait_for_timeout(200)
    resolve_scroll = page.eval_on_selector("#resolve-button", SCROLL_TO_SEE)
    page.locator("#resolve-button").scroll_into_view_if_needed()
    page.click("#resolve-button")
    page.wait_for_selector("#story p")
    page.wait_for_load_state("networkidle")
    page.wait_for_timeout(400)
    row["story_scroll"] = page.eval_on_selector("#story p", SCROLL_TO_SEE)
    screens = math.ceil(resolve_scroll / (0.8 * height)) + math.ceil(row["story_scroll"] / (0.8 * height))
    row["taps"] = 2 + 1 + screens
    return row


def run(servers: list[str]) -> dict[str, Any]:
    report: dict[str, Any] = {}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        for name, (viewport, touch) in VIEWPORTS.items():
            for base in servers:
                context = browser.new_context(viewport=viewport, has_touch=touch, is_mobile=touch, locale="fr-FR")
                page = context.new_page()
                for path in PAGES:
                    report.setdefault(base, {}).setdefault(name, {})[path] = measure(
                        page, base.rstrip("/") + path, viewport["height"]
                    )
                context.close()
        browser.close()
    return report


def markdown(report: dict[str, Any]) -> str:
    servers = list(report)
    lines = []
    for name in VIEWPORTS:
        lines.append(f"\n### {name}\n")
        head = "| page | " + " | ".join(
            f"{what} ({i + 1})" for what in ("dé", "Résoudre", "récit", "champs", "taps") for i in range(len(servers))
        )
        lines.append(head + " |")
        lines.append("|" + "---|" * (1 + 5 * len(servers)))
        for path in PAGES:
            cells = [
                str(report[s][name][path][key])
                for key in ("die_scroll", "resolve_scroll", "story_scroll", "fields", "taps")
                for s in servers
            ]
            lines.append(f"| `{path}` | " + " | ".join(cells) + " |")
    legend = "; ".join(f"({i + 1}) {s}" for i, s in enumerate(servers))
    return "\n".join(lines) + f"\n\n{legend}\n"


if __name__ == "__main__":
    urls = sys.argv[1:] or ["http://127.0.0.1:8000"]
    result = run(urls)
    print(json.dumps(result, indent=1))
    print(markdown(result))
