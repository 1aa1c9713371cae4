"""Table mode (issue 13), for every calculator page: choices first, every bestiary entry leaves a
valid scene, every field of the scenario is on the page exactly once."""

from html.parser import HTMLParser

import pytest
from django.core.management import call_command

from calculator.views import page_path
from rulesets.core.registry import load_all

pytestmark = pytest.mark.django_db

SLUGS = sorted(load_all())
# fields a game master sees on landing, outside a closed disclosure: the decisions, not the tables
MAX_OPEN_FIELDS = 16


@pytest.fixture(autouse=True)
def bestiary():
    call_command("loadfixtures", verbosity=0)


class Fields(HTMLParser):
    """The controls of the scenario form: name, tag, whether a closed <details> hides it, value."""

    def __init__(self) -> None:
        super().__init__()
        self.controls: list[dict] = []
        self.details: list[bool] = []  # open flags of the enclosing <details>
        self.select: dict | None = None
        self.options: list[tuple[str, str, bool]] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "details":
            self.details.append("open" in a)
        elif tag in ("input", "select", "textarea") and a.get("name"):
            control = {
                "name": a["name"],
                "tag": tag,
                "type": a.get("type", ""),
                "hidden": not all(self.details),
                "value": a.get("value", ""),
                "checked": "checked" in a,
                "attrs": a,
            }
            self.controls.append(control)
            if tag == "select":
                self.select = control
                control["options"] = []
        elif tag == "option" and self.select is not None:
            self.select["options"].append((a.get("value", ""), "selected" in a))

    def handle_endtag(self, tag):
        if tag == "details" and self.details:
            self.details.pop()
        elif tag == "select":
            self.select = None


def controls(response) -> list[dict]:
    parser = Fields()
    parser.feed(response.content.decode())
    return parser.controls


def form_data(items: list[dict]) -> dict[str, str]:
    """What the browser would send for these controls (no button, no bestiary select)."""
    data: dict[str, str] = {}
    for c in items:
        if c["type"] in ("submit", "button") or c["name"].startswith("preset.") or c["name"] == "csrfmiddlewaretoken":
            continue
        if c["type"] == "checkbox":
            if c["checked"]:
                data[c["name"]] = "on"
        elif c["tag"] == "select":
            chosen = [v for v, sel in c["options"] if sel] or [c["options"][0][0] if c["options"] else ""]
            data[c["name"]] = chosen[0]
        else:
            data[c["name"]] = c["value"]
    return data


def scenario_names(response) -> set[str]:
    form = response.context["form"]
    return {name for name in form.fields if not name.startswith("dice.") and name != "seed"}


@pytest.mark.parametrize("slug", SLUGS)
def test_every_scenario_field_is_on_the_page_once_and_the_tables_wait_behind_ajuster(client, slug):
    response = client.get(page_path(slug))
    assert response.status_code == 200
    items = controls(response)
    names = [c["name"] for c in items]
    for name in scenario_names(response):
        assert names.count(name) == 1, f"{slug}: {name} is on the page {names.count(name)} times"
    shown = [c["name"] for c in items if not c["hidden"] and c["name"] in scenario_names(response)]
    assert len(shown) <= MAX_OPEN_FIELDS, f"{slug}: {len(shown)} fields in view before any disclosure: {shown}"


def bestiary_picks(slug: str, client) -> list[tuple[dict[str, str], str, str]]:
    """(the default page's data, a bestiary select, an entry) for every entry of every select."""
    response = client.get(page_path(slug))
    items = controls(response)
    data = {"_f": "1", **form_data(items)}
    picks = []
    for c in items:
        if c["tag"] == "select" and c["name"].startswith("preset."):
            picks += [(data, c["name"], value) for value, _sel in c["options"] if value]
    return picks


@pytest.mark.parametrize("slug", SLUGS)
def test_every_bestiary_entry_in_every_role_leaves_a_valid_scene(client, slug):
    picks = bestiary_picks(slug, client)
    assert picks, f"{slug}: no bestiary select on the page"
    broken = []
    for data, select, value in picks:
        response = client.post(page_path(slug), {**data, "_load": select, select: value})
        assert response.status_code == 200
        form = response.context["form"]
        if response.context["scenario"] is None or form.errors:
            broken.append((select, value, dict(form.errors)))
            continue
        # the scene is valid: the same form resolves (the server rolls the dice)
        resolved = client.post(page_path(slug), form_data(controls(response)) | {"_f": "1"})
        if resolved.status_code != 303:
            broken.append((select, value, "resolve", resolved.status_code))
    assert not broken, f"{slug}: {len(broken)} of {len(picks)} picks break the scene: {broken[:5]}"
