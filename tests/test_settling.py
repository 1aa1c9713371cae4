"""calculator.settling.RawForm: the raw values a settle is given, read as the form reads them, and the
changes made to them (docs/architecture.md, « Always a valid state »)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Annotated

import pytest
from django.forms import CheckboxInput
from django.http import QueryDict

from calculator.forms import MARKER, ScenarioForm, leaf_default
from calculator.plugins import Settled, WebPlugin
from calculator.settling import RawForm, checked, type_defaults
from rulesets.core.registry import load_all
from rulesets.core.schema import Choice, Spec, flatten, to_data


class Colour(Choice):
    RED = "rouge"
    BLUE = "bleu"


@dataclass(frozen=True)
class Item:
    name: Annotated[str, Spec(label="Nom")] = "Gobelin"
    count: Annotated[int, Spec(label="Nombre", ge=0)] = 2
    boss: Annotated[bool, Spec(label="Boss")] = False


@dataclass(frozen=True)
class Rules:
    cap: Annotated[int, Spec(label="Plafond")] = 6


@dataclass(frozen=True)
class Scene:
    title: Annotated[str, Spec(label="Titre")] = "Rencontre"
    level: Annotated[int, Spec(label="Niveau", ge=1)] = 3
    bonus: Annotated[int | None, Spec(label="Bonus")] = None
    colour: Annotated[Colour, Spec(label="Couleur")] = Colour.RED
    night: Annotated[bool, Spec(label="De nuit")] = True
    items: Annotated[tuple[Item, ...], Spec(label="Objets", max_items=4)] = (Item(name="Orque", count=5, boss=True),)
    rules: Annotated[Rules, Spec(label="Règles")] = Rules()


def raw(data=None, **kwargs):
    return RawForm(Scene, data or {}, **kwargs)


# --- reading ---------------------------------------------------------------------------------------


def test_a_missing_field_reads_as_the_page_default():
    r = raw()
    assert r.value("title") == "Rencontre"
    assert r.get("level") == "3"
    assert r.number("level") == 3
    assert r.choice("colour", Colour) is Colour.RED
    assert r.get("items.0.name") == "Orque"  # the page's default row, not the item's default
    assert r.number("items.0.count") == 5
    assert r.get("bonus") == ""
    assert r.number("bonus") is None
    assert r.default("items.0.count") == 5
    assert type_defaults(Scene) is type_defaults(Scene)  # built once per type
    assert type_defaults(Scene) == flatten(to_data(Scene()))


def test_a_blank_field_reads_as_the_engine_reads_it():
    """A blank non-text field is left out of the scenario: the engine takes its field's default
    (the item's 2, not the page's 5); a blank text field is ""."""
    r = raw({"title": "  ", "level": "", "items.0.count": " ", "colour": ""})
    assert r.get("title") == ""
    assert r.value("title") == "  "  # as typed: the engine strips it
    assert r.number("level") == 3
    assert r.value("items.0.count") == 2
    assert r.choice("colour", Colour) is Colour.RED
    assert r.value("bonus") is None


def test_typed_values_and_refusals():
    r = raw({"level": " 7 ", "colour": "vert", "items.0.count": "beaucoup", "title": " Donjon "})
    assert r.number("level") == 7
    assert r.get("title") == "Donjon"
    assert r.choice("colour", Colour) is Colour.RED  # refused: the default (its field says why)
    assert r.number("items.0.count") is None  # refused: the field says why


@pytest.mark.parametrize("value", [None, "", "on", "true", "True", "false", "FALSE", "off", "0", "1", "x"])
def test_a_box_reads_as_django_reads_it(value):
    data = {} if value is None else {"night": value}
    widget = CheckboxInput().value_from_datadict(data, {}, "night")
    assert raw(data).flag("night") is widget
    assert raw(data).value("night") is widget
    assert checked(value) is widget


def test_a_missing_box_is_unticked_even_when_its_default_is_ticked():
    """The form is bound: a box left out was not ticked (the browser sends only ticked boxes)."""
    r = raw({"title": "x"})
    assert r.flag("night") is False
    assert r.flag("items.0.boss") is False
    assert r.is_box("night")
    assert not r.is_box("title")
    assert not r.is_box("_marker")


def test_rows_are_counted_as_the_form_counts_them():
    assert raw().rows("items") == range(1)
    assert raw({"items.2.name": ""}).rows("items") == range(3)
    # a row past what the list holds is no row (the page refuses it with a message: issue 17, finding 4)
    assert raw({"items.999.name": ""}).rows("items") == range(1)
    assert raw({"items.3.name": "", "items.999.name": ""}).rows("items") == range(4)
    assert raw().rows("title") == range(0)


def test_a_field_of_a_row_just_added_reads_its_row_items_default():
    r = raw({"items.1.name": ""})
    assert r.get("items.1.name") == ""  # blank text
    assert r.number("items.1.count") == 2  # missing: the item's default
    assert r.flag("items.1.boss") is False
    assert r.leaf("items.1.count") is not None
    assert r.leaf("items.2.count") is None


def test_a_hidden_field_is_its_page_default():
    r = raw({"rules.cap": "9"}, hidden=("rules",))
    assert r.number("rules.cap") == 6
    assert r.scenario_data()["rules.cap"] == 6


def test_given_defaults_are_the_page_defaults():
    defaults = {**type_defaults(Scene), "level": 5}
    assert raw(defaults=defaults).number("level") == 5


def test_a_marker_is_read_raw():
    r = raw({"items.0._n": "2"})
    assert r.value("items.0._n") == "2"
    assert r.value("_nothing") is None


DATA = [
    {},
    {"title": "", "level": "", "bonus": "", "colour": "", "night": "on"},
    {"level": " 4", "bonus": "abc", "items.0.count": "", "items.0.boss": "false", "items.2.name": ""},
    {"night": "off", "items.1.boss": "0", "items.1.count": "3", "rules.cap": ""},
    {"items.7.name": "x", "rules.cap": "2"},
]


@pytest.mark.parametrize("hidden", [(), ("rules",)])
@pytest.mark.parametrize("data", DATA)
def test_the_scenario_data_is_the_forms(data, hidden):
    """What the engine is given is exactly ScenarioForm.scenario_data of the same bound form."""
    ruleset = replace(load_all()["encore"], scenario_type=Scene)
    plugin = WebPlugin(slug="test-settling", fields_template="", hidden=hidden)
    query = QueryDict(mutable=True)
    query.update({MARKER: "1", **data})
    defaults = to_data(Scene(level=4))
    form = ScenarioForm(ruleset, plugin, defaults, query)
    r = RawForm(Scene, data, defaults=flatten(defaults), hidden=hidden)
    assert r.scenario_data() == form.scenario_data()
    # value() is what settle reasons on: the form's value, or the field's default for a blank one
    # (which the engine refuses, or reads as None when optional: issue 14)
    flat = form.scenario_data()
    for path, leaf in r.leaves.items():
        typed = flat.get(path)
        blank = isinstance(typed, str) and typed.strip() == "" and leaf.info.type is not str
        assert r.value(path) == (typed if path in flat and not blank else leaf_default(leaf)), path


@pytest.mark.parametrize("slug", sorted(load_all()))
def test_every_rulesets_default_page_reads_as_its_form(slug):
    """The default page of every ruleset, with its numbers blanked: RawForm and the form agree."""
    ruleset = load_all()[slug]
    flat = type_defaults(ruleset.scenario_type)
    data = {}
    for path, value in flat.items():
        if isinstance(value, bool):
            if value:
                data[path] = "on"
        else:
            data[path] = "" if value is None or isinstance(value, int) else str(value)
    query = QueryDict(mutable=True)
    query.update({MARKER: "1", **data})
    plugin = WebPlugin(slug=slug, fields_template="")
    form = ScenarioForm(ruleset, plugin, to_data(ruleset.scenario_type()), query)
    assert RawForm(ruleset.scenario_type, data).scenario_data() == form.scenario_data()


# --- writing ---------------------------------------------------------------------------------------


def test_set_records_a_change_and_its_note():
    r = raw()
    assert r.set("level", 4, "Niveau 4.") is True
    assert r.changes == {"level": "4"}
    assert r.notes == ["Niveau 4."]
    assert r.number("level") == 4  # the next rule reads the change
    assert r.set("colour", Colour.BLUE) is True
    assert r.changes["colour"] == "bleu"


def test_set_is_a_no_op_when_the_form_already_shows_the_value():
    r = raw({"level": " 4 ", "title": "Donjon"})
    assert r.set("level", 4, "jamais") is False
    assert r.set("title", "Donjon") is False
    assert r.set("items.0.count", 5) is False  # missing: already shows its default
    assert r.set("colour", "rouge") is False
    assert r.set("bonus", None) is False  # already left out
    assert r.set("night", False) is False  # a missing box is unticked
    assert r.changes == {}
    assert r.notes == []


def test_a_blank_field_is_not_its_default_shown():
    """A blank number reads as its default but shows nothing: writing the default changes the page."""
    r = raw({"level": ""})
    assert r.set("level", 3) is True
    assert r.changes == {"level": "3"}


def test_set_forces_a_value_that_goes_with_another():
    r = raw({"level": "4"})
    assert r.set("level", 4, force=True) is True
    assert r.changes == {"level": "4"}


def test_a_bool_ticks_and_unticks_a_box():
    r = raw({"items.0.boss": "on"})
    assert r.set("night", True) is True
    assert r.set("night", True) is False
    assert r.set("items.0.boss", False) is True
    assert r.changes == {"night": "on", "items.0.boss": None}
    assert r.flag("night")
    assert not r.flag("items.0.boss")
    assert "items.0.boss" not in r.data
    # a box unticked already ("false"): nothing to change
    assert raw({"night": "false"}).set("night", False) is False


def test_none_removes_a_value():
    r = raw({"bonus": "2"})
    assert r.set("bonus", None) is True
    assert r.changes == {"bonus": None}
    assert r.get("bonus") == ""


def test_load_sets_a_presets_values_under_a_prefix():
    r = raw()
    assert r.load("items.0", {"name": "Orque", "count": 6, "boss": True}) is True
    assert r.changes == {"items.0.count": "6", "items.0.boss": "on"}
    assert r.load("items.0", {"name": "Orque", "count": 6}) is False


def test_a_row_added_by_a_change_is_counted():
    r = raw()
    assert r.rows("items") == range(1)
    r.set("items.1.name", "Troll")
    assert r.rows("items") == range(2)
    assert r.number("items.1.count") == 2
    r.mark("items.1.name", None)
    assert r.rows("items") == range(1)


def test_mark_writes_a_hidden_input_of_the_page():
    r = raw({"_was": "a"})
    assert r.mark("_was", "a") is False
    assert r.mark("_was", "b") is True
    assert r.mark("_gone", None) is False
    assert r.mark("_was", None) is True
    assert r.changes == {"_was": None}
    assert "_was" not in r.data


def test_a_note_is_noted_once():
    r = raw()
    r.note("Une note.")
    r.note("Une note.")
    r.set("level", 5, "Une note.")
    assert r.notes == ["Une note."]


def test_settled_is_a_copy_of_the_changes_and_notes():
    r = raw()
    r.set("title", "Donjon", "Titre.")
    settled = r.settled()
    assert settled == Settled(changes={"title": "Donjon"}, notes=["Titre."])
    r.set("level", 9)
    assert settled.changes == {"title": "Donjon"}
    assert raw().settled() == Settled()
