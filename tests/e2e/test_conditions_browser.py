"""Issue 16: lasting conditions on a phone. The game master puts « À terre » on a combatant from its
card, sees the chip where the card is (readable, in the viewport), taps « Se relève », and a refused
value comes back on its field with what was typed; no console error throughout."""

import re

import pytest
from playwright.sync_api import expect

from encounters.models import Combatant
from tests.e2e.encounters import log_in
from tests.factories_encounters import EncounterFactory, UserFactory

pytestmark = pytest.mark.e2e

PHONE = {"width": 390, "height": 844}


def test_a_condition_is_put_seen_and_lifted_from_the_card_on_a_phone(browser, live_server, shot):
    user = UserFactory()
    encounter = EncounterFactory(owner=user, system="feerie", clock={"action": 1}, name="La clairière")
    Combatant.objects.create(
        encounter=encounter, kind="feerique", name="Redcap", state={"name": "Redcap", "initiative": 17}, position=1
    )
    lutin = Combatant.objects.create(
        encounter=encounter, kind="feerique", name="Lutin", state={"name": "Lutin", "initiative": 9}, position=2
    )
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True, locale="fr-FR")
    phone = context.new_page()
    errors = []
    # the 422 of the refused value is the answer expected, not a fault of the page
    phone.on(
        "console",
        lambda m: errors.append(m.text) if m.type == "error" and "status of 422" not in m.text else None,
    )
    phone.on("pageerror", lambda e: errors.append(str(e)))
    log_in(phone, live_server.url, user)
    phone.goto(f"{live_server.url}/encounters/{encounter.pk}/")

    card = phone.locator(f"#c{lutin.pk}")
    card.locator(".condition-add summary").tap()
    card.locator(".condition-add select").select_option(label="À terre")
    card.locator(".condition-add button[type=submit]").tap()
    chip = phone.locator(f"#c{lutin.pk} .chip").first
    expect(chip).to_contain_text("À terre −4")
    expect(chip).to_contain_text("jusqu'à ce qu'il se relève")
    chip.scroll_into_view_if_needed()
    box = chip.bounding_box()
    assert box is not None
    assert box["y"] >= 0
    assert box["y"] + box["height"] <= PHONE["height"]
    assert box["x"] >= 0
    assert box["x"] + box["width"] <= PHONE["width"]  # no sideways scroll
    size = chip.locator(".chip-label").evaluate("e => parseFloat(getComputedStyle(e).fontSize)")
    assert size >= 14
    shot(phone, "conditions-phone")

    # « Se relève »: the chip goes, the story says it was an activity
    chip.locator("button", has_text="Se relève").tap()
    expect(phone.locator(f"#c{lutin.pk} .chip")).to_have_count(0)
    expect(phone.locator(".log-entry").first).to_contain_text("c'est une activité à part entière")

    # a value that is no number: said on its field, the form open with what was typed
    card = phone.locator(f"#c{lutin.pk}")
    card.locator(".condition-add summary").tap()
    card.locator(".condition-add select").select_option(label="Étourdi")
    card.locator(".condition-add input[name$='-value']").fill("beaucoup")
    card.locator(".condition-add button[type=submit]").tap()
    field = phone.locator(f"#c{lutin.pk} .condition-add")
    expect(field).to_contain_text(re.compile("Valeur\u202f: un nombre entier"))
    expect(field.locator("input[name$='-value']")).to_have_value("beaucoup")
    assert errors == []
    context.close()
