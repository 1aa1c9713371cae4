from dataclasses import dataclass, field
from typing import Annotated

import pytest

from rulesets.core.schema import Choice, ScenarioError, Spec, flatten, json_schema, parse, to_data, unflatten


class Colour(Choice):
    RED = "rouge"
    BLUE = "bleu"

    @classmethod
    def labels(cls):
        return {"rouge": "Rouge", "bleu": "Bleu"}


@dataclass(frozen=True, slots=True)
class Inner:
    value: Annotated[int, Spec(label="Valeur", ge=0, le=3)] = 1


@dataclass(frozen=True, slots=True)
class Outer:
    count: Annotated[int, Spec(label="Nombre", ge=1, le=5)]
    colour: Annotated[Colour, Spec(label="Couleur")] = Colour.RED
    flag: Annotated[bool, Spec(label="Drapeau")] = False
    inner: Annotated[Inner, Spec(label="Intérieur")] = field(default_factory=Inner)
    rows: Annotated[tuple[Inner, ...], Spec(label="Lignes", min_items=1, max_items=2)] = (Inner(),)
    maybe: Annotated[int | None, Spec(label="Peut-être", ge=0)] = None

    def check(self):
        return {"count": "Trop grand pour du rouge."} if self.colour is Colour.RED and self.count == 5 else {}


def test_parse_builds_nested_values_from_strings():
    obj = parse(Outer, {"count": "2", "colour": "bleu", "flag": "on", "inner": {"value": 3}, "rows": [{"value": "0"}]})
    assert obj == Outer(count=2, colour=Colour.BLUE, flag=True, inner=Inner(3), rows=(Inner(0),))


def test_every_bad_field_gets_its_own_french_message():
    with pytest.raises(ScenarioError) as caught:
        parse(Outer, {"count": "x", "colour": "vert", "inner": {"value": 9}, "rows": [], "extra": 1})
    errors = caught.value.errors
    assert errors["count"] == "Nombre\u202f: nombre entier attendu."
    assert "choix inconnu «\u202fvert\u202f»" in errors["colour"]
    assert errors["inner.value"] == "Valeur\u202f: doit être entre 0 et 3 (reçu 9)."
    assert errors["rows"] == "Lignes\u202f: au moins 1\u00a0élément."
    assert errors["extra"] == "Champ inconnu."


def test_a_missing_required_field_is_named():
    with pytest.raises(ScenarioError) as caught:
        parse(Outer, {})
    assert caught.value.errors == {"count": "Nombre\u202f: champ obligatoire."}


def test_cross_field_checks_come_back_on_their_field():
    with pytest.raises(ScenarioError) as caught:
        parse(Outer, {"count": 5})
    assert caught.value.errors == {"count": "Trop grand pour du rouge."}


def test_booleans_are_not_integers():
    with pytest.raises(ScenarioError):
        parse(Outer, {"count": True})


def test_flatten_and_unflatten_round_trip():
    data = to_data(Outer(count=2, rows=(Inner(1), Inner(2))))
    assert unflatten(flatten(data)) == data


def test_json_schema_carries_labels_bounds_and_choices():
    schema = json_schema(Outer)
    assert schema["required"] == ["count"]
    assert schema["properties"]["count"] == {"type": "integer", "minimum": 1, "maximum": 5, "title": "Nombre"}
    assert schema["properties"]["colour"]["enum"] == ["rouge", "bleu"]
    assert schema["properties"]["rows"]["maxItems"] == 2
    assert schema["properties"]["maybe"]["anyOf"][1] == {"type": "null"}


def test_copy_data_is_a_deep_copy_of_json_like_data():
    import copy

    from rulesets.core.schema import copy_data

    data = {"a": [1, {"b": (2, 3)}], "c": {"d": "e"}, "f": None, "g": True}
    copied = copy_data(data)
    assert copied == copy.deepcopy(data)
    copied["a"][1]["b"] = ()
    copied["c"]["d"] = "x"
    assert data == {"a": [1, {"b": (2, 3)}], "c": {"d": "e"}, "f": None, "g": True}
    assert isinstance(copy_data((1, [2]))[1], list)
