"""Table mode (issue 13), for every calculator page: choices first, every bestiary entry leaves a
valid scene, every field of the scenario is on the page exactly once."""

import re
from dataclasses import replace
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
                "hidden": not all(self.details) or a.get("type") == "hidden",
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


# -- the generic pieces, on the enCORE page ------------------------------------------------------

HTMX = {"HTTP_HX_REQUEST": "true"}


def encore_data(client) -> dict[str, str]:
    return {"_f": "1", **form_data(controls(client.get("/encore/")))}


def test_the_dice_and_resolve_sit_in_the_action_bar_tied_to_the_form(client):
    body = client.get("/encore/").content.decode()
    bar = body[body.index('<section id="live"') : body.index("</section>", body.index('<section id="live"'))]
    assert 'id="resolve-button"' in bar
    assert 'name="_reroll"' in bar
    assert 'name="_clear"' in bar
    dice = re.findall(r"<input[^>]*class=\"[^\"]*die[^\"]*\"[^>]*>", bar)
    assert dice
    assert all('form="scenario-form"' in d for d in dice)
    # the form's first button resolves: Enter in any field (no JavaScript) does not press a « Charger »
    form = body[body.index('<form id="scenario-form"') :]
    first = re.search(r"<button[^>]*>", form).group(0)
    assert 'type="submit"' in first
    assert "name=" not in first


def test_a_resolve_without_javascript_lands_on_the_result(client):
    response = client.post("/encore/", encore_data(client))
    assert response.status_code == 303
    assert response["Location"].endswith("#result")
    page = client.get(response["Location"].split("#")[0]).content.decode()
    assert re.search(r'id="permalink"[^>]*|href="[^"]*#result"[^>]*id="permalink"', page)
    assert re.search(r'href="[^"]+#result"\s+id="permalink"', page)


def test_relancer_forgets_the_typed_dice_and_the_seed(client):
    data = encore_data(client) | {"dice.pc.1": "6", "dice.pc.2": "6", "dice.pc.3": "6", "seed": "42", "_reroll": "1"}
    location = client.post("/encore/", data)["Location"]
    assert "dice.pc.1=" not in location
    assert "seed=42" not in location
    assert "seed=" in location


def test_vider_les_des_empties_them_without_resolving(client):
    data = encore_data(client) | {"dice.pc.1": "6", "dice.pc.2": "4", "_clear": "1"}
    response = client.post("/encore/", data)
    assert response.status_code == 200
    assert response.context["resolution"] is None
    values = {c["name"]: c["value"] for c in controls(response)}
    assert values["dice.pc.1"] == ""
    assert values["dice.pc.2"] == ""
    assert values["pc.attribute"] == data["pc.attribute"]


def test_a_die_box_changes_id_when_its_die_changes_faces():
    from calculator import plugins
    from calculator.forms import ScenarioForm
    from rulesets.core.dice import DiceSlot, DiceSpec, Die

    form = ScenarioForm(load_all()["encore"], plugins.get("encore"), {})

    def box_id(die: Die) -> str:
        form.set_dice(DiceSpec((DiceSlot("pc.1", die, "dé n°1"),)))
        return form.fields["dice.pc.1"].widget.attrs["id"]

    six = box_id(Die("d6", tuple(range(1, 7))))
    assert box_id(Die("d6", tuple(range(1, 7)))) == six
    assert box_id(Die("d8", tuple(range(1, 9)))) != six


@pytest.mark.parametrize("slug", SLUGS)
def test_a_signed_number_gets_a_keyboard_with_a_minus_key(client, slug):
    response = client.get(page_path(slug))
    form = response.context["form"]
    inputs = {c["name"]: c["attrs"].get("inputmode") for c in controls(response) if c["tag"] == "input"}
    for leaf in form.leaves:
        if leaf.info.type is int and leaf.path in inputs:  # (a plug-in may offer a number as a select)
            mode = inputs[leaf.path]
            signed = leaf.info.spec.ge is None or leaf.info.spec.ge < 0
            assert mode == ("text" if signed else "numeric"), f"{slug}: {leaf.path}"


def test_settle_moves_dependent_fields_and_says_so(client, monkeypatch):
    """A plug-in's settle runs on page requests, its notes are shown, a live change that settles
    redraws the whole calculator, and a permalink replays exactly what it names."""
    from calculator import plugins as registry

    def settle(data):
        if data.get("pc.attribute") == "5":
            return registry.Settled({"pc.stress": "2"}, ["Attribut 5 : Stress 2."])
        return registry.Settled()

    monkeypatch.setitem(registry._PLUGINS, "encore", replace(registry.get("encore"), settle=settle))
    data = encore_data(client) | {"pc.attribute": "5"}
    live = client.post("/encore/", data | {"_live": "1"}, **HTMX)
    assert live["HX-Retarget"] == "#calculator"
    body = live.content.decode()
    assert "Attribut 5\u202f: Stress 2." in body  # the note shown in French typography (issue 15)
    assert re.search(r'name="pc.stress" value="2"', body)
    quiet = client.post("/encore/", data | {"pc.attribute": "4", "_live": "1"}, **HTMX)
    assert "HX-Retarget" not in quiet
    replay = client.get("/encore/", data | {"r": "1"})
    assert replay.context["resolution"].scenario.pc.stress == int(data["pc.stress"])


def test_a_live_change_redraws_the_ajuster_lines_the_page_shows(client, monkeypatch):
    from calculator import plugins as registry

    table = registry.TableValues(
        "pc_arms", "Armes du PJ", ("pc.weapon", "pc.armour"), lambda v: f"arme {v['pc.weapon']}"
    )
    plugin = registry.get("encore")
    monkeypatch.setitem(registry._PLUGINS, "encore", replace(plugin, table_values=(*plugin.table_values, table)))
    data = encore_data(client) | {"pc.weapon": "4", "_live": "1"}
    body = client.post("/encore/", data | {"_adjusted": "pc_arms:,unknown:,nokey"}, **HTMX).content.decode()
    assert (
        '<span class="adjust-line" id="adjust-pc_arms" data-key="pc_arms" data-row="" hx-swap-oob="true">arme 4</span>'
        in body
    )
    assert "unknown" not in body
    quiet = client.post("/encore/", data, **HTMX).content.decode()
    assert "adjust-line" not in quiet


def test_a_resolve_that_settles_sends_the_whole_calculator(client, monkeypatch):
    from calculator import plugins as registry

    def settle(data):
        return (
            registry.Settled({"pc.stress": "1"}, ["Stress 1."]) if data.get("pc.stress") != "1" else registry.Settled()
        )

    monkeypatch.setitem(registry._PLUGINS, "encore", replace(registry.get("encore"), settle=settle))
    response = client.post("/encore/", encore_data(client) | {"pc.stress": "0"}, **HTMX)
    assert "HX-Retarget" not in response
    body = response.content.decode()
    assert body.lstrip().startswith('<div id="calculator"')
    assert 'id="story"' in body
    assert "Stress 1." in body


def test_settle_notes_reach_the_result_page_without_javascript_and_a_quiet_live_change_clears_them(client, monkeypatch):
    from calculator import plugins as registry

    def settle(data):
        return (
            registry.Settled({"pc.stress": "1"}, ["Stress 1."]) if data.get("pc.stress") != "1" else registry.Settled()
        )

    monkeypatch.setitem(registry._PLUGINS, "encore", replace(registry.get("encore"), settle=settle))
    response = client.post("/encore/", encore_data(client) | {"pc.stress": "0"}, follow=True)
    assert "Stress 1." in response.content.decode()
    quiet = client.post("/encore/", encore_data(client) | {"pc.stress": "1", "_live": "1"}, **HTMX).content.decode()
    assert re.search(r'<div id="settle-notes"[^>]*hx-swap-oob="true">\s*</div>', quiet)
