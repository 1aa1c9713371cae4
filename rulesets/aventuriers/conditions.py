"""Engagement as chips (issue 16; seed ``001`` « Combat », Livret Aventure p. 19): a figure shows
whom it is engaged with, one chip per figure, and what ends it. The exchanges start and end
engagements themselves (rulesets/aventuriers/encounter.py); the game master may end one by hand
(two figures separated by the story), on both figures at once."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rulesets.core.conditions import Chip, Conditions
from rulesets.core.encounter import Applied, Fighter
from rulesets.core.i18n import _

if TYPE_CHECKING:
    from rulesets.aventuriers.encounter import Figure

PREFIX = "engaged_with="


def chips(f: Fighter, clock: Any) -> tuple[Chip, ...]:
    from rulesets.aventuriers.encounter import _said

    s: Figure = f.state
    me = _said(s)
    ends = _(
        "tant que l'un est dans la zone d'attaque de l'autre ; une mort, un tir ou un sort sur une autre cible y met fin"
    )
    return tuple(
        Chip(
            f"{PREFIX}{name}",
            _("{engaged} avec {name}").format(engaged=me.agree(_("Engagé")), name=name),
            ends,
            tone="info",
            lift=_("Désengager"),
        )
        for name in s.engaged
    )


def lift(f: Fighter, path: str, clock: Any, everyone: tuple[Fighter, ...] = ()) -> Applied:
    """The engagement with one figure ended, on both figures' sheets."""
    from rulesets.aventuriers.encounter import _disengage, _engaged, _said

    other = path.removeprefix(PREFIX)
    states: dict[str, Any] = {f.key: _disengage(f.state, (other,))}
    for g in everyone:
        if g.key != f.key and g.state.name == other and f.state.name in g.state.engaged:
            states[g.key] = _disengage(g.state, (f.state.name,))
    them = [_said(f.state)] + [_said(g.state) for g in everyone if g.key in states and g.key != f.key]
    told = (
        _("{a:S} et {b} ne sont plus {engaged}.").format(a=them[0], b=them[1], engaged=_engaged(*them))
        if len(them) == 2
        else _("{a:S} n'est plus {engaged} avec {name}.").format(
            a=them[0], engaged=them[0].agree(_("engagé")), name=other
        )
    )
    return Applied(states=states, story=(told,))


CONDITIONS = Conditions(chips=chips, lift=lift)
