"""The advantages gained against an NPC, as chips (issue 16; seed ``003`` « Les manœuvres »): each
gives +1d6 to the allies of the one who gained it against this NPC, until the end of the turn it
was gained in, or until the game master ends it. A manoeuvre writes them, the end of the turn lets
those of the turn fade (rulesets/encore/encounter.py); the game master may give one by hand (for
every PC) or end one."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from rulesets.core.conditions import Chip, Conditions, Lasting
from rulesets.core.encounter import Fighter
from rulesets.core.i18n import _
from rulesets.core.schema import ScenarioError

if TYPE_CHECKING:
    from rulesets.encore.encounter import NpcState

PNJ = "pnj"
MAX_ADVANTAGES = 8


def chips(f: Fighter, clock: Any) -> tuple[Chip, ...]:
    if f.kind != PNJ:
        return ()
    npc: NpcState = f.state
    out = []
    for i, a in enumerate(npc.advantages):
        helps = _("+1d6 aux alliés de {name}").format(name=a.by) if a.by else _("+1d6 à tous les PJ")
        until = (
            _("jusqu'à la fin du tour {n}").format(n=a.until_turn)
            if a.until_turn is not None
            else _("tant qu'on n'y met pas fin")
        )
        out.append(
            Chip(
                f"advantages.{i}",
                _("{effect} ({helps})").format(effect=a.effect or _("avantage"), helps=helps),
                until,
                tone="info",
                public=a.effect or _("avantage"),
                lasting="advantage",
                value=a.until_turn,
                note=a.effect,
            )
        )
    return tuple(out)


def _advantage(state: NpcState, value: int | None, note: str) -> NpcState:
    from rulesets.encore.encounter import Advantage

    if not note.strip():
        raise ScenarioError({"note": _("Effet : dites ce que les PJ ont obtenu (« à terre », « désarmé »…).")})
    if len(state.advantages) >= MAX_ADVANTAGES:
        raise ScenarioError({"lasting": _("Déjà huit avantages contre ce PNJ : mettez fin à l'un d'eux d'abord.")})
    return replace(state, advantages=(*state.advantages, Advantage(effect=note.strip(), until_turn=value)))


LASTING = (
    Lasting(
        "advantage",
        _("Avantage des PJ contre ce PNJ"),
        _advantage,
        kinds=(PNJ,),
        value=_("Jusqu'à la fin du tour"),
        note=_("Effet"),
        value_help=_("Vide : tant qu'on n'y met pas fin. Donné à la main, il vaut pour tous les PJ."),
    ),
)

CONDITIONS = Conditions(chips=chips, lasting=LASTING)
