"""The registry of rule systems. Each ``rulesets/<slug>`` package registers itself on import;
:func:`load_all` imports every such package, so adding a folder adds a ruleset."""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from rulesets.core.dice import DiceRoll, DiceSpec
from rulesets.core.odds import Odds
from rulesets.core.results import Example, Result
from rulesets.core.typography import typography


@dataclass(frozen=True, slots=True)
class Ruleset:
    slug: str
    name: str
    tagline: str
    scenario_type: type[Any]
    dice_for: Callable[[Any], DiceSpec]
    resolve: Callable[[Any, DiceRoll], Result]
    odds: Callable[[Any], Odds]
    scene: Callable[[Any], str]
    story: Callable[[Any, Result], tuple[str, ...]]
    examples: Callable[[], tuple[Example, ...]]
    engine_version: str = "1"

    def __post_init__(self) -> None:  # French spacing for the name and tagline wherever shown (issue 15)
        object.__setattr__(self, "name", typography(self.name))
        object.__setattr__(self, "tagline", typography(self.tagline))


_REGISTRY: dict[str, Ruleset] = {}


def register(ruleset: Ruleset) -> Ruleset:
    existing = _REGISTRY.get(ruleset.slug)
    if existing is not None and existing is not ruleset:
        raise ValueError(f"ruleset {ruleset.slug!r} registered twice")
    _REGISTRY[ruleset.slug] = ruleset
    return ruleset


_LOADED: dict[str, Ruleset] = {}


def load_all() -> dict[str, Ruleset]:
    """Import every ``rulesets.<slug>`` package (each registers itself) and return the registry.

    The packages are looked for once per process (a folder cannot appear in a running server);
    every page calls this, and listing the folder cost more than the rest of the lookup.
    """
    if not _LOADED or len(_LOADED) != len(_REGISTRY):
        import rulesets

        for info in pkgutil.iter_modules(rulesets.__path__):
            if info.ispkg and info.name != "core":
                importlib.import_module(f"rulesets.{info.name}")
        _LOADED.clear()
        _LOADED.update(sorted(_REGISTRY.items()))
    return dict(_LOADED)


def get(slug: str) -> Ruleset:
    load_all()
    return _REGISTRY[slug]
