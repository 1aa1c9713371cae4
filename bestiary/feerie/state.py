"""A Féerie form's values read the way the engines read them, for the page's selects and for settle.

Both the template tags (which options the current character may take) and :mod:`bestiary.feerie.settle`
(what follows a choice) look at the scene through a :class:`Scene`: the flat values of every field of the
scenario, a blank being its default and a missing box unticked, exactly as the generated form hands them
to the engine (``ScenarioForm.scenario_data``, or ``calculator.settling.RawForm.scenario_data`` for the raw
values settle is given); :meth:`Scene.errors` asks the engine itself (``parse`` and its ``check``) what is
wrong.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bestiary.feerie.lines import integer, text
from rulesets.core.schema import ScenarioError, parse, unflatten
from rulesets.feerie.model import Attribute, Combatant

MAX_ATTRIBUTES = 16  # Combatant.attributes: max_items
ATTRIBUTE_FIELDS = ("name", "kind", "value", "initiative", "attack", "defense", "damage", "soak")
ATTRIBUTE_FLAGS = ("initiative", "attack", "defense", "damage", "soak")
ASPECT_KEYS = ("vigilance", "habilete", "puissance", "resistance", "taille", "essence")


class Scene:
    """The flat values of a scenario, as the form gives them to the engine."""

    def __init__(self, cls: type, flat: Mapping[str, Any]) -> None:
        self.cls = cls
        self.flat = dict(flat)
        self._errors: dict[str, str] | None = None
        self._scenario: Any = None

    def get(self, path: str) -> Any:
        return self.flat.get(path)

    def rows(self, list_path: str) -> int:
        """How many rows of ``list_path`` the form has."""
        start = list_path + "."
        indices = {int(k[len(start) :].split(".", 1)[0]) for k in self.flat if k.startswith(start)}
        return max(indices) + 1 if indices else 0

    def _parse(self) -> None:
        if self._errors is None:
            self._scenario, self._errors = _parsed(self.cls, self.flat)

    def errors(self) -> dict[str, str]:
        """The engine's French messages for this scene, by field path (none: the scene is valid)."""
        self._parse()
        assert self._errors is not None
        return self._errors

    @property
    def scenario(self) -> Any:
        self._parse()
        return self._scenario

    def with_values(self, prefix: str, values: Mapping[str, Any]) -> Scene:
        """The same scene with a preset's values loaded under ``prefix``."""
        flat = dict(self.flat)
        for key, value in values.items():
            flat[f"{prefix}.{key}" if prefix else key] = value
        return Scene(self.cls, flat)

    def new_errors(self, prefix: str, values: Mapping[str, Any]) -> dict[str, str]:
        """The messages loading ``values`` under ``prefix`` would add to this scene (none: it may be taken).

        Nothing can be said while a field of the scene is refused (the engine's checks wait for it)."""
        before = self.errors()
        after = self.with_values(prefix, values).errors()
        return {k: v for k, v in after.items() if before.get(k) != v}

    # --- a combatant of the exchange ---------------------------------------------------------------------

    def attributes(self, prefix: str) -> list[Attribute]:
        """The Attributs of the combatant at ``prefix``, read leniently (a typo counts as 0)."""
        out = []
        for i in range(self.rows(f"{prefix}.attributes")):
            p = f"{prefix}.attributes.{i}"
            out.append(
                Attribute(
                    name=text(self.get(f"{p}.name")),
                    value=integer(self.get(f"{p}.value")) or 0,
                    **{flag: bool(self.get(f"{p}.{flag}")) for flag in ATTRIBUTE_FLAGS},  # type: ignore[arg-type]
                )
            )
        return out

    def tactic_cap(self, prefix: str) -> int:
        """The engine's cap of a tactic: the Affinités, maîtrises and Accessoires applied to combat."""
        return Combatant(attributes=tuple(self.attributes(prefix))).tactic_cap()

    def creature_rows(self, prefix: str) -> list[tuple[Any, ...]]:
        """The Attributs rows that say something (a name or a value), for comparing with the bestiary."""
        out = []
        for i in range(self.rows(f"{prefix}.attributes")):
            p = f"{prefix}.attributes.{i}"
            row = (
                text(self.get(f"{p}.name")),
                text(self.get(f"{p}.kind")),
                integer(self.get(f"{p}.value")),
                *(bool(self.get(f"{p}.{flag}")) for flag in ATTRIBUTE_FLAGS),
            )
            if row[0] or row[2]:
                out.append(row)
        return out

    def is_creature(self, prefix: str, values: Mapping[str, Any]) -> bool:
        """The combatant at ``prefix`` is exactly this bestiary entry (a creature preset's values)."""
        if text(self.get(f"{prefix}.name")) != text(values.get("name")):
            return False
        if any(integer(self.get(f"{prefix}.{k}")) != values.get(k) for k in ASPECT_KEYS):
            return False
        return self.creature_rows(prefix) == preset_rows(values)

    def matches(self, prefix: str, values: Mapping[str, Any]) -> bool:
        """Every value of a preset is the one in the scene (the select shows that entry as chosen)."""
        for key, value in values.items():
            got = self.get(f"{prefix}.{key}" if prefix else key)
            if isinstance(value, bool):
                if bool(got) != value:
                    return False
            elif value is None or value == "":
                if text(got) != "":
                    return False
            elif isinstance(value, int):
                if integer(got) != value:
                    return False
            elif text(got) != str(value):
                return False
        return True


# What the engine said of the scenes asked last: a page asks it of its scene and of that scene with
# each tactic, blow and creature it offers (some thirty parses for one page), and the next page of
# the same table asks it of the same scenes. ``parse`` is a pure function of the flat values.
_PARSED: dict[tuple[Any, ...], tuple[Any, dict[str, str]]] = {}
_PARSED_MAX = 512


def _parsed(cls: type, flat: dict[str, Any]) -> tuple[Any, dict[str, str]]:
    """``(scenario, {})``, or ``(None, messages by field)``: the engine's answer for these values."""
    try:
        key: tuple[Any, ...] | None = (cls, *flat.items())
        kept = _PARSED.get(key)  # type: ignore[arg-type]
    except TypeError:  # a value that cannot be a key (never from a form): no memory
        key, kept = None, None
    if kept is not None:
        return kept[0], dict(kept[1])
    try:
        answer: tuple[Any, dict[str, str]] = (parse(cls, unflatten(flat)), {})
    except ScenarioError as e:
        answer = (None, {k.removeprefix("scenario."): v for k, v in e.errors.items()})
    if key is not None:
        if len(_PARSED) >= _PARSED_MAX:
            _PARSED.clear()
        _PARSED[key] = answer
    return answer[0], dict(answer[1])


def preset_rows(values: Mapping[str, Any]) -> list[tuple[Any, ...]]:
    """The Attributs rows of a creature preset (rows marked for removal left out), as :meth:`Scene.creature_rows`."""
    out = []
    for i in range(MAX_ATTRIBUTES):
        name = values.get(f"attributes.{i}.name")
        if not isinstance(name, str):
            continue
        row = (
            name,
            str(values.get(f"attributes.{i}.kind", "")),
            values.get(f"attributes.{i}.value"),
            *(bool(values.get(f"attributes.{i}.{flag}")) for flag in ATTRIBUTE_FLAGS),
        )
        if row[0] or row[2]:
            out.append(row)
    return out
