"""Lasting conditions (issue 16): what a combatant suffers, or enjoys, beyond its gauges.

A rule system keeps its conditions in its own state (Féerie's « effets en cours », Nephilim's
modifiers of this round and of the next, Quadrature's Sonné 🫨 and Entravé 🕸️…) and applies and
removes them itself: its ``apply`` writes them, its ``advance`` wears them off. What it adds here is
how the encounter page shows and handles them, one :class:`Conditions` per rule system:

* ``chips``: each condition of a combatant as a :class:`Chip`, with what remains of it;
* ``lasting``: the conditions the game master may put on a combatant by hand (:class:`Lasting`);
* ``lift``: the end of a condition by hand (a chip's « Retirer »). Without it, the chip's fields
  go back to their defaults (a list row is removed).

A chip names where it lives in the state (``path``): a field (``stunned``), several fields
(``riposte,riposte_round``) or a list row (``conditions.2``). The encounter stores every change as
a logged commit, so that undo covers a condition put or lifted by hand like any other change.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from rulesets.core.encounter import Applied, Fighter


@dataclass(frozen=True, slots=True)
class Chip:
    """A condition of a combatant, as the encounter page and the players' view show it.

    ``label`` says it with its numbers (« Étourdi −3 »), ``public`` without them, for a combatant
    the players only see in words (empty: ``label`` holds no number); ``remaining`` says what is
    left of it or how it ends (« −1 par rang d'Initiative écoulé », « jusqu'à la fin du round 3 »).
    ``lasting`` names the :class:`Lasting` that edits it, with its ``value`` and ``note``; a chip
    without one can only be lifted. ``lift`` is the words of its end button (« Se relève »)."""

    path: str
    label: str
    remaining: str = ""
    icon: str = ""
    tone: str = "danger"  # danger (a malus, a hindrance) / boon (a bonus, an advantage) / info
    public: str = ""
    lasting: str = ""
    value: int | None = None
    note: str = ""
    lift: str = ""

    @property
    def said_publicly(self) -> str:
        return self.public or self.label


@dataclass(frozen=True, slots=True)
class Lasting:
    """A condition the game master may put on a combatant by hand: ``put`` (the state, the number,
    the text) → the new state, refusing with :class:`rulesets.core.schema.ScenarioError` keyed by
    ``value`` or ``note``. ``value`` and ``note`` are the labels of the number and of the text the
    form asks for (empty: not asked); ``kinds``, the combatant kinds it fits (empty: every one)."""

    key: str
    label: str
    put: Callable[[Any, int | None, str], Any]
    kinds: tuple[str, ...] = ()
    value: str = ""
    note: str = ""
    default: int | None = None
    value_help: str = ""

    def fits(self, kind: str) -> bool:
        return not self.kinds or kind in self.kinds


@dataclass(frozen=True, slots=True)
class Conditions:
    chips: Callable[[Fighter, Any], tuple[Chip, ...]]
    lasting: tuple[Lasting, ...] = ()
    # the end of the chip at ``path`` by hand: (fighter, path, clock) → what changes, with the story
    # (« Aldric se relève : c'est une activité »); it may also take a keyword ``everyone`` (every
    # combatant present: an engagement ends on both figures); None: :func:`lifted`
    lift: Callable[..., Applied] | None = None

    def lasting_for(self, kind: str) -> tuple[Lasting, ...]:
        return tuple(item for item in self.lasting if item.fits(kind))


def cleared(state: Any, path: str) -> Any:
    """``state`` without the condition at ``path``: a list row removed (``conditions.2``), or the
    named fields (``riposte,riposte_round``) back to their defaults."""
    name, _, index = path.partition(".")
    if index:
        rows = getattr(state, name)
        i = int(index)
        return replace(state, **{name: (*rows[:i], *rows[i + 1 :])})
    defaults = {f.name: f for f in dataclasses.fields(state)}
    out: dict[str, Any] = {}
    for field_name in path.split(","):
        f = defaults[field_name]
        if f.default is not dataclasses.MISSING:
            out[field_name] = f.default
        elif f.default_factory is not dataclasses.MISSING:
            out[field_name] = f.default_factory()
    return replace(state, **out)


def lifted(fighter: Fighter, path: str, clock: Any) -> Applied:
    """The default end of a condition by hand: its fields cleared, nothing told."""
    return Applied(states={fighter.key: cleared(fighter.state, path)})
