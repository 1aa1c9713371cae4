"""Real-browser tests: Playwright driving Debian's Chromium against pytest-django's live server."""

import os
from pathlib import Path

import pytest
from django.core.management import call_command

# Playwright's sync API runs an event loop in this thread; the ORM calls of the fixtures are
# still plain synchronous calls made between browser steps.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"
PHONE = {"width": 375, "height": 812}
DESKTOP = {"width": 1366, "height": 900}


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=CHROMIUM,
            headless=True,
            args=["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"],
        )
        yield browser
        browser.close()


@pytest.fixture
def bestiary(transactional_db):
    call_command("loadfixtures", verbosity=0)


@pytest.fixture
def shot():
    ARTIFACTS.mkdir(parents=True, exist_ok=True)

    def save(page, name):
        page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)

    save.folder = ARTIFACTS
    return save
