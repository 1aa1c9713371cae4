"""What lasts on a Nephilim combatant, as chips (issue 16): the modifiers of this round and of the
next (Attaque étrange −2, Prince de la spirale −3, Attaque subtile −4 en défense, the margin
choices), a riposte owed, an aim, a hold, a fall, a defence no longer possible this round.

The rules write and wear them off themselves (rulesets/nephilim/encounter.py: ``apply`` adds the
next round's modifiers, ``advance`` makes them this round's and lets this round's expire, counts an
aim, loses a riposte not taken); the calculator reads this round's modifiers (« report »)."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from rulesets.core.conditions import Chip, Conditions, Lasting
from rulesets.core.encounter import Fighter
from rulesets.core.french import count
from rulesets.core.i18n import _
from rulesets.core.schema import ScenarioError

if TYPE_CHECKING:  # the state module registers these chips: it is read once it exists
    from rulesets.nephilim.encounter import CombatantState, Modifier

HAND = _("à la main")


def _lasting_of(m: Modifier, when: str) -> tuple[str, int | None]:
    """The hand condition that edits this modifier: one number only (attack or defence)."""
    if m.attack and not m.defence:
        return f"attack_{when}", m.attack
    if m.defence and not m.attack:
        return f"defence_{when}", m.defence
    return "", None


def chips(f: Fighter, clock: Any) -> tuple[Chip, ...]:
    from rulesets.nephilim.encounter import rounds_text

    s: CombatantState = f.state
    me = s.who
    out: list[Chip] = []
    rnd = getattr(clock, "round", None)
    for when, rows, remaining in (
        ("now", s.modifiers_now, _("ce round") + (_(", jusqu'à la fin du round {n}").format(n=rnd) if rnd else "")),
        ("next", s.modifiers_next, _("au round suivant") + (_(" (round {n})").format(n=rnd + 1) if rnd else "")),
    ):
        for i, m in enumerate(rows):
            lasting, value = _lasting_of(m, when)
            out.append(
                Chip(
                    path=f"modifiers_{when}.{i}",
                    label=m.describe(),
                    remaining=remaining,
                    tone="boon" if m.attack + m.defence > 0 else "danger",
                    public=m.source or _("modificateur"),
                    lasting=lasting,
                    value=value,
                    note=m.source,
                )
            )
    if s.cannot_defend:
        out.append(
            Chip(
                "cannot_defend",
                me.form(_("Ne peut plus se défendre"), _("Ne peuvent plus se défendre")),
                _("jusqu'à la fin du round"),
            )
        )
    if s.held_by:
        out.append(
            Chip(
                "held_by",
                _("{held} par {name}").format(held=me.agree(_("Immobilisé")), name=s.held_by),
                _("jusqu'à ce {me[qu'il se libère|qu'elle se libère|qu'ils se libèrent|qu'elles se libèrent]}").format(
                    me=me
                ),
                public=me.agree(_("Immobilisé")),
                lasting="held",
                note=s.held_by,
            )
        )
    if s.down:
        out.append(Chip("down", _("À terre"), lasting="down", lift=me.form(_("Se relève"), _("Se relèvent"))))
    if s.riposte:
        until = _("jusqu'à la fin du round {n}").format(n=s.riposte_round + 1) if s.riposte_round else ""
        out.append(
            Chip(
                "riposte,riposte_round",
                _("Riposte due contre {name}").format(name=s.riposte),
                until,
                tone="boon",
                public=_("Riposte due"),
            )
        )
    if s.aiming_at:
        out.append(
            Chip(
                "aiming_at,aiming",
                _("Vise {target} ({rounds})").format(target=s.aiming_at, rounds=rounds_text(s.aiming)),
                _("tant {me[qu'il|qu'elle|qu'ils|qu'elles]} ne tire pas").format(me=me),
                tone="boon",
                public=_("Vise"),
            )
        )
    return tuple(out)


def _modifier(what: str, when: str) -> Any:
    def put(state: CombatantState, value: int | None, note: str) -> CombatantState:
        from rulesets.nephilim.encounter import MODIFIERS_MAX, Modifier

        if value is None:
            raise ScenarioError({"value": _("Degrés : saisissez le modificateur (−2, +1…).")})
        m = Modifier(
            source=note or HAND, attack=value if what == "attack" else 0, defence=value if what == "defence" else 0
        )
        if errors := m.check():
            raise ScenarioError({"value": " ".join(errors.values())})
        rows = state.modifiers_now if when == "now" else state.modifiers_next
        if len(rows) >= MODIFIERS_MAX:
            raise ScenarioError(
                {"lasting": _("Déjà {n} : retirez-en un d'abord.").format(n=count(MODIFIERS_MAX, _("modificateur")))}
            )
        if when == "now":
            return replace(state, modifiers_now=(*rows, m))
        return replace(state, modifiers_next=(*rows, m))

    return put


def _held(state: CombatantState, value: int | None, note: str) -> CombatantState:
    if not note.strip():
        raise ScenarioError({"note": _("Par qui : son nom.")})
    return replace(state, held_by=note.strip())


def _down(state: CombatantState, value: int | None, note: str) -> CombatantState:
    return replace(state, down=True)


DEGREES = _("Degrés")
ORIGIN = _("Origine")

LASTING = (
    Lasting("attack_now", _("Attaque, ce round"), _modifier("attack", "now"), value=DEGREES, note=ORIGIN),
    Lasting("defence_now", _("Défense, ce round"), _modifier("defence", "now"), value=DEGREES, note=ORIGIN),
    Lasting("attack_next", _("Attaque, au round suivant"), _modifier("attack", "next"), value=DEGREES, note=ORIGIN),
    Lasting("defence_next", _("Défense, au round suivant"), _modifier("defence", "next"), value=DEGREES, note=ORIGIN),
    Lasting("held", _("Immobilisé"), _held, note=_("Par (nom)")),
    Lasting("down", _("À terre"), _down),
)

CONDITIONS = Conditions(chips=chips, lasting=LASTING)
