"""What lasts on a Quadrature combatant, as chips (issue 16; seed ``000``): Sonné 🫨 (no Évasion 🍀
while it lasts), Entravé 🕸️, the Hémorragie 🩸 tokens that bleed at the end of each round.

The rules apply them (an action card's ⭐, a horde's attack) and wear them off at the end of the
round (rulesets/quadrature/encounter.py, ``advance``: bleeding, then the states the table's clock
says end with the round, then 🫁 ◇ 🍀 back for the next round)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from rulesets.core.conditions import Chip, Conditions, Lasting
from rulesets.core.encounter import Fighter
from rulesets.core.french import Noun, count
from rulesets.core.i18n import _
from rulesets.quadrature.names import adversary_who, pc_who

PJ = "pj"


def _who(f: Fighter) -> Noun:
    s = f.state
    return (pc_who if f.kind == PJ else adversary_who)(s.name, s.grammar)


def _until(ends: bool | None) -> str:
    if ends is None:
        return ""
    return _("jusqu'à la fin de la manche") if ends else _("jusqu'à ce qu'on le retire (réglage de la rencontre)")


def chips(f: Fighter, clock: Any) -> tuple[Chip, ...]:
    s = f.state
    me = _who(f)
    out: list[Chip] = []
    if s.stunned:
        out.append(
            Chip(
                "stunned",
                _("{stunned} 🫨").format(stunned=me.agree(_("Sonné"))),
                _until(getattr(clock, "stunned_ends", None)),
                lasting="stunned",
            )
        )
    if s.entangled:
        out.append(
            Chip(
                "entangled",
                _("{bound} 🕸️").format(bound=me.agree(_("Entravé"))),
                _until(getattr(clock, "entangled_ends", None)),
                lasting="entangled",
                lift=me.form(_("Se dégage"), _("Se dégagent")),
            )
        )
    if s.bleeding:
        if f.kind == PJ:
            left = (
                _("fin de manche : {n} 💢 sans armure, puis un jeton de moins").format(n=s.bleeding)
                if getattr(clock, "pc_bleed", True)
                else _("à saigner à la main (réglage de la rencontre)")
            )
        else:
            left = _("fin de manche : {n} sans armure, puis un jeton de moins").format(
                n=count(s.bleeding, _("case cochée"), _("cases cochées"))
            )
        out.append(
            Chip(
                "bleeding",
                _("Hémorragie 🩸 × {n}").format(n=s.bleeding),
                left,
                public=_("Hémorragie 🩸"),
            )
        )
    return tuple(out)


def _flag(name: str) -> Any:
    def put(state: Any, value: int | None, note: str) -> Any:
        return replace(state, **{name: True})

    return put


LASTING = (
    Lasting("stunned", _("Sonné 🫨"), _flag("stunned")),
    Lasting("entangled", _("Entravé 🕸️"), _flag("entangled")),
)

CONDITIONS = Conditions(chips=chips, lasting=LASTING)
