"""What every engine returns: an outcome, the numbers, and ordered events citing the rules."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from rulesets.core.dice import DiceRoll
from rulesets.core.french import typography

Number = int | str | bool | None


@dataclass(frozen=True, slots=True)
class Event:
    """One step of a resolution, in the order the rules apply it.

    ``label`` and ``value`` are the technical panel's line ("Protection du PJ", "−2"); ``rule``
    cites the rule applied; ``group`` is the panel section; ``data`` carries the raw numbers the
    narrator reads. Narration never recomputes: it reads events.
    """

    kind: str
    label: str
    value: str = ""
    rule: str = ""
    group: str = ""
    data: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:  # French spacing for what the panel shows (issue 15)
        object.__setattr__(self, "label", typography(self.label))
        object.__setattr__(self, "value", typography(self.value))
        object.__setattr__(self, "group", typography(self.group))
        object.__setattr__(self, "rule", typography(self.rule))


@dataclass(frozen=True, slots=True)
class Result:
    outcome: str
    outcome_label: str
    numbers: Mapping[str, Number]
    events: tuple[Event, ...]
    dice: DiceRoll
    tone: str = "neutral"  # success / partial / failure / neutral: colours on the page

    def __post_init__(self) -> None:
        object.__setattr__(self, "outcome_label", typography(self.outcome_label))

    def events_of(self, kind: str) -> tuple[Event, ...]:
        return tuple(e for e in self.events if e.kind == kind)

    def groups(self) -> list[tuple[str, list[Event]]]:
        """Events grouped by panel section, in first-appearance order."""
        out: dict[str, list[Event]] = {}
        for event in self.events:
            out.setdefault(event.group, []).append(event)
        return list(out.items())


@dataclass(frozen=True, slots=True)
class Narrative:
    scene: str
    story: tuple[str, ...]

    def __post_init__(self) -> None:  # French spacing for the scene and the récit (issue 15)
        object.__setattr__(self, "scene", typography(self.scene))
        object.__setattr__(self, "story", tuple(typography(p) for p in self.story))


@dataclass(frozen=True, slots=True)
class Example:
    """A worked example of a seed, as a ready-to-post resolve request and what it must give."""

    key: str
    title: str
    source: str
    request: Mapping[str, Any]
    expected: Mapping[str, Any]
