"""Driving an encounter through its pages, as a game master's browser would (Django test client)."""

import html
import re

from django.http import QueryDict

from encounters.models import Encounter


def detail_url(encounter: Encounter) -> str:
    return f"/encounters/{encounter.pk}/"


def add(client, encounter: Encounter, **fields) -> object:
    """POST the « Ajouter » form (kind, preset "kind:key", name, count)."""
    encounter.refresh_from_db()
    return client.post(f"{detail_url(encounter)}combatants/", {"version": encounter.version, **fields})


def open_calculator(client, encounter: Encounter, page: str, **roles) -> str:
    """« Ouvrir le calculateur » with ``roles`` (role key → combatant or list of combatants);
    returns the calculator URL the encounter redirects to."""
    params = {"page": page}
    for role, who in roles.items():
        who = who if isinstance(who, list | tuple) else [who]
        params[f"role.{role}"] = [str(c.pk) for c in who]
    response = client.get(f"{detail_url(encounter)}act/", params)
    assert response.status_code == 302, response.content.decode()[:2000]
    return response["Location"]


def resolve(client, calculator_url: str, dice: dict[str, object] | None = None, **changes) -> str:
    """Resolve the calculator page (no JavaScript: POST then 303) with typed dice and field
    changes; returns the HTML of the result page."""
    path, query = calculator_url.split("?", 1)
    data = QueryDict(query, mutable=True)
    for key, value in changes.items():
        key = key.replace("__", ".")
        if value is None:
            data.pop(key, None)
        elif value is True:
            data[key] = "on"
        elif value is False:
            data.pop(key, None)
        else:
            data[key] = str(value)
    for slot, face in (dice or {}).items():
        data[f"dice.{slot}"] = str(face)
    response = client.post(path, data)
    assert response.status_code == 303, response.content.decode()[:3000]
    result = client.get(response["Location"])
    assert result.status_code == 200
    return result.content.decode()


def apply_form(page_html: str) -> tuple[str, dict[str, str]]:
    """The « Appliquer à la rencontre » form of a result page: its action and fields."""
    match = re.search(r'<form method="post"\s+action="([^"]+)"\s+class="apply-form[^"]*".*?</form>', page_html, re.S)
    assert match, "no « Appliquer » form on the result page"
    fields = {k: html.unescape(v) for k, v in re.findall(r'name="([^"]+)" value="([^"]*)"', match.group(0))}
    return html.unescape(match.group(1)), fields


def apply(client, page_html: str) -> object:
    action, fields = apply_form(page_html)
    return client.post(action, fields)


def play(client, encounter: Encounter, page: str, roles: dict, dice: dict | None = None, **changes) -> object:
    """Open the calculator for ``roles``, resolve with ``dice`` and ``changes``, apply; returns the
    apply response (303 to the encounter on success)."""
    url = open_calculator(client, encounter, page, **roles)
    response = apply(client, resolve(client, url, dice, **changes))
    encounter.refresh_from_db()
    return response


def advance(client, encounter: Encounter) -> object:
    encounter.refresh_from_db()
    response = client.post(f"{detail_url(encounter)}advance/", {"version": encounter.version})
    encounter.refresh_from_db()
    return response


def undo(client, encounter: Encounter) -> object:
    encounter.refresh_from_db()
    response = client.post(f"{detail_url(encounter)}undo/", {"version": encounter.version})
    encounter.refresh_from_db()
    return response


def redo(client, encounter: Encounter) -> object:
    encounter.refresh_from_db()
    response = client.post(f"{detail_url(encounter)}redo/", {"version": encounter.version})
    encounter.refresh_from_db()
    return response


def states(encounter: Encounter) -> dict[str, dict]:
    """Name → state of the combatants present."""
    return {c.name: c.state for c in encounter.combatants.filter(present=True)}


def put_condition(client, encounter: Encounter, combatant, lasting: str, value="", note="", path="") -> object:
    """The card's « Ajouter un effet » form (or, with ``path``, a chip's « Modifier »)."""
    encounter.refresh_from_db()
    prefix = f"k{combatant.pk}" + (f"-{''.join(ch if ch.isalnum() else '_' for ch in path)}" if path else "")
    data = {
        "version": encounter.version,
        f"{prefix}-lasting": lasting,
        f"{prefix}-value": value,
        f"{prefix}-note": note,
    }
    if path:
        data["path"] = path
    response = client.post(f"{detail_url(encounter)}combatants/{combatant.pk}/conditions/", data)
    encounter.refresh_from_db()
    return response


def lift_condition(client, encounter: Encounter, combatant, path: str) -> object:
    """A chip's « Retirer » (« Se relève »…)."""
    encounter.refresh_from_db()
    response = client.post(
        f"{detail_url(encounter)}combatants/{combatant.pk}/conditions/lift/",
        {"version": encounter.version, "path": path},
    )
    encounter.refresh_from_db()
    return response


def chips_of(page_html: str, combatant) -> list[str]:
    """The chips of a combatant's card as a person reads them: label, then what remains."""
    card = re.search(rf'<article[^>]*id="c{combatant.pk}".*?</article>', page_html, re.S)
    assert card, f"no card for combatant {combatant.pk}"
    out = []
    for chip in re.findall(r'<li class="chip[^"]*">(.*?)</li>', card.group(0), re.S):
        text = re.sub(r"<form.*?</form>|<details.*?</details>", " ", chip, flags=re.S)
        text = html.unescape(re.sub(r"<[^>]+>", " ", text))
        out.append(re.sub(r"[ \t\n\r]+", " ", text).strip())
    return out
