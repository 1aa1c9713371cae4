"""What the encounter browser tests share: logging a game master in, reading a gauge."""

import re

from playwright.sync_api import expect

from tests.factories_encounters import PASSWORD


def log_in(page, base, user):
    """Through the login page, as anyone would: /encounters/ sends there first."""
    page.goto(f"{base}/encounters/")
    assert "/accounts/login/" in page.url
    page.fill("#id_username", user.username)
    page.fill("#id_password", PASSWORD)
    page.click("button:has-text('Se connecter')")
    page.wait_for_url(re.compile(r"/encounters/$"))


def gauge_of(card, label):
    """The value shown by the gauge ``label`` of a combatant's card."""
    return card.locator(".gauge", has=card.page.locator(".gauge-label", has_text=label)).locator(".gauge-value")


def expect_gauge(card, label, value):
    """``value`` (« 7 / 8 ») shown by the gauge, whatever the white space between its parts."""
    pattern = r"\s*".join(re.escape(token) for token in value.split())
    expect(gauge_of(card, label)).to_have_text(re.compile(rf"^\s*{pattern}\s*$"))
