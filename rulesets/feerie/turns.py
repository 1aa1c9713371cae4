"""Contes de Fées: the turn order of an Action, as the Action sequence engine counts it down (issue 16).

Seed ``004``, « La séquence d'une Action », 3) « Décompte des rangs d'Initiative »: the game master
counts down from the highest Initiative; a combatant acts when the count reaches his Initiative; on
an equal rank, the best Vigilance first, then the best Affinités, the best tactic modifier, the best
roll; all equal, the activities are simultaneous; an Initiative of zero or less cannot act in this
Action; rank 1 is the last. « Options de combat »: anticipating costs −1 per rank (never above the
highest Initiative, so the first to act cannot anticipate); each extra activity comes 8 ranks after
the previous one; the malus of the previous Action's extra activities and changes of intention is
carried into this Action's Initiative roll.

Every number comes from :mod:`rulesets.feerie.action` itself: :func:`~rulesets.feerie.action.plan`
(the ranks of the declared activities and the extra ones, the highest Initiative),
:func:`~rulesets.feerie.action.priority` (the tie-break), :func:`~rulesets.feerie.action.initiative_base`
(the Initiative before the dice), with the sheet's derived values of
:func:`rulesets.feerie.encounter.derived`, as the Action page gets them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from rulesets.core.encounter import Fighter, Turn, TurnOrder
from rulesets.core.french import MINUS, count, join, signed, typography
from rulesets.core.i18n import _
from rulesets.feerie import action
from rulesets.feerie.action import EXTRA_GAP, ActionScenario, Activity, ActivityKind, Planned

if TYPE_CHECKING:
    from rulesets.feerie.encounter import Clock, FeeriqueState


def _criterion(k: int, value: int) -> str:
    """A tie-break criterion of « Priorités d'Initiative », in the order of :func:`action.priority`:
    « Vigilance 20 », « Affinités 7 », « tactique +2 », « jet +5 »."""
    if k == 0:
        return _("Vigilance {v}").format(v=value)
    if k == 1:
        return _("Affinités {v}").format(v=value)
    if k == 2:
        return _("tactique {v}").format(v=signed(value))
    return _("jet {v}").format(v=signed(value))


def engine_fighter(state: FeeriqueState) -> action.Fighter:
    """The Action engine's combatant for a state: what the Action page's « Combattants » rows get
    from it (:func:`rulesets.feerie.encounter.fill_action`) that the countdown reads."""
    from rulesets.feerie.encounter import derived  # encounter.py imports this module

    dv = derived(state)
    return action.Fighter(
        name=state.name,
        grammar=state.grammar,
        vigilance=state.vigilance,
        initiative_bonus=dv.initiative_bonus,
        affinities=dv.affinities,
        tactic=state.tactic,
        tactic_cap=dv.tactic_cap,
        surprised=state.surprised,
        ambush_margin=state.ambush_margin,
        carried_malus=state.carried_malus,
        initiative=state.initiative,
    )


def declared(state: FeeriqueState) -> int:
    """How many activities the sheet declares (the first one and the extra ones); a blank
    declaration row is none, as on the Action page."""
    from rulesets.feerie.encounter import Declaration

    return sum(1 for d in state.declarations if d != Declaration())


def _carried(value: int, malus: int) -> str:
    """« 13 (17 − 4 de l'Action précédente) »: a value with the carried malus it includes."""
    if not malus:
        return str(value)
    return _("{value} ({before} {minus} {malus} de l'Action précédente)").format(
        value=signed(value, plus=""), before=signed(value - malus, plus=""), minus=MINUS, malus=-malus
    )


def _deciding(mine: tuple[int, ...], others: Sequence[tuple[int, ...]]) -> tuple[int, ...] | None:
    """The priority criteria that order ``mine`` against each of ``others`` (its neighbours on the
    same rank): the first one that differs from each; None when one of them is identical in full
    (a simultaneous resolution)."""
    out: set[int] = set()
    for other in others:
        k = next((i for i, (a, b) in enumerate(zip(mine, other, strict=True)) if a != b), None)
        if k is None:
            return None
        out.add(k)
    return tuple(sorted(out))


def _extras(ranks: list[int], refused: int) -> list[str]:
    """The later ranks of a combatant's extra activities, and those the countdown has no rank for."""
    out: list[str] = []
    if len(ranks) == 1:
        out.append(_("puis rang {r} (activité supplémentaire)").format(r=ranks[0]))
    elif ranks:
        out.append(_("puis rangs {ranks} (activités supplémentaires)").format(ranks=join([str(r) for r in ranks])))
    if refused == 1:
        out.append(_("puis une activité supplémentaire à anticiper (le rang 1 est le dernier)"))
    elif refused:
        out.append(
            _("puis {n} à anticiper (le rang 1 est le dernier)").format(
                n=count(refused, _("activité supplémentaire"), _("activités supplémentaires"))
            )
        )
    return out


def turns(fighters: tuple[Fighter, ...], clock: Clock, table: Any) -> TurnOrder:
    """The Action's countdown: the combatants whose Initiative is known, highest rank first, ties by
    the priority rules; then those whose Initiative is still to roll, by their Initiative before
    the dice. ``detail``: the rank (« rang 13 (17 − 4 de l'Action précédente) »), the priority
    criterion that orders an equal rank, the ranks of the extra activities (a second activity is
    no second turn: one turn per combatant, its later ranks in the detail). Aside: a combatant
    without Essence (out of the fight) and one whose Initiative is zero or less (no activity in
    this Action). Nothing on the sheet tells who has already acted in the Action (the Action page
    resolves it whole), so no turn is ``done``: « Fin de l'Action » starts the next."""
    from rulesets.feerie.encounter import advance_label, clock_label, is_out  # encounter.py imports this module

    aside: list[Turn] = []
    rolled: list[tuple[Fighter, action.Fighter]] = []
    waiting: list[tuple[Fighter, action.Fighter]] = []
    for f in fighters:
        s: FeeriqueState = f.state
        if is_out(f):
            aside.append(Turn(f.key, _("hors de combat, sans Essence")))
            continue
        engine = engine_fighter(s)
        if s.initiative is None:
            waiting.append((f, engine))
        elif s.initiative <= 0:
            aside.append(
                Turn(
                    f.key,
                    typography(
                        _("Initiative {v} : ne peut agir pendant cette Action").format(
                            v=_carried(s.initiative, s.carried_malus)
                        )
                    ),
                )
            )
        else:
            rolled.append((f, engine))

    # the ranks, by the engine: each declared activity of those who have their Initiative
    activities = tuple(
        Activity(actor=i, kind=ActivityKind.ATTACK)
        for i, (f, _engine) in enumerate(rolled)
        for _k in range(declared(f.state))
    )
    initiatives = [e.initiative or 0 for _f, e in rolled]
    scenario = ActionScenario(fighters=tuple(e for _f, e in rolled), activities=activities)
    planned, top = action.plan(scenario, initiatives)
    by_actor: dict[int, list[Planned]] = {}
    for p in planned:
        by_actor.setdefault(p.actor, []).append(p)

    keyed: list[tuple[int, tuple[int, ...], int]] = []  # (rank, priority, index in rolled)
    for i, (_f, engine) in enumerate(rolled):
        first = next((p for p in by_actor.get(i, []) if p.order == 0 and not p.refused), None)
        rank = first.rank if first is not None else initiatives[i]
        term = initiatives[i] - sum(v for _l, v, _r in action.initiative_base(engine))
        keyed.append((rank, action.priority(engine, initiatives[i], term), i))
    keyed.sort(key=lambda k: (-k[0], tuple(-x for x in k[1])))

    out: list[Turn] = []
    extras = False
    for place, (rank, prio, i) in enumerate(keyed):
        f, _engine = rolled[i]
        s = f.state
        parts = [_("rang {r}").format(r=_carried(rank, s.carried_malus))]
        same = [k[1] for j, k in enumerate(keyed) if k[0] == rank and abs(j - place) == 1]
        if same:
            deciding = _deciding(prio, same)
            if deciding is None:
                parts.append(_("simultanément"))
            else:
                parts.append(
                    _("priorité : {criteria}").format(criteria=join([_criterion(k, prio[k]) for k in deciding]))
                )
        later = [p for p in by_actor.get(i, []) if p.order]
        more = _extras([p.rank for p in later if not p.refused], sum(1 for p in later if p.refused))
        extras = extras or bool(more)
        parts.extend(more)
        out.append(Turn(f.key, typography(", ".join(parts))))

    # those still to roll: by their Initiative before the dice, then the priority rules
    def expected(item: tuple[Fighter, action.Fighter]) -> tuple[int, ...]:
        base = sum(v for _l, v, _r in action.initiative_base(item[1]))
        return (-base, *(-x for x in action.priority(item[1], base, 0)))

    for f, engine in sorted(waiting, key=expected):
        s = f.state
        base = sum(v for _l, v, _r in action.initiative_base(engine))
        text = _("Initiative à tirer : {base} + dés").format(base=signed(base, plus=""))
        if s.carried_malus:
            text += " " + _("({before} {minus} {malus} de l'Action précédente)").format(
                before=signed(base - s.carried_malus, plus=""), minus=MINUS, malus=-s.carried_malus
            )
        n = declared(s)
        if n == 2:
            text += ", " + _("puis une activité supplémentaire {gap} rangs après").format(gap=EXTRA_GAP)
        elif n > 2:
            text += ", " + _("puis {n}, chacune {gap} rangs après la précédente").format(
                n=count(n - 1, _("activité supplémentaire"), _("activités supplémentaires")), gap=EXTRA_GAP
            )
        out.append(Turn(f.key, typography(text)))

    notes: list[str] = []
    if len(rolled) > 1:
        notes.append(
            _(
                "Anticiper : agir avant son rang coûte −1 par rang à l'activité et à la Défense pour le reste "
                "de l'Action ; personne n'agit avant le rang {top}, le plus haut jet, et le premier ne peut "
                "anticiper (▲ pour qui anticipe)."
            ).format(top=top)
        )
    if extras:
        notes.append(
            _(
                "Une activité supplémentaire ne fait pas de second tour dans cette liste : ses rangs suivent "
                "le premier dans le détail."
            )
        )
    if waiting:
        notes.append(
            _(
                "Initiatives à tirer (la page « La séquence d'une Action » les tire) : en attendant, l'ordre suit "
                "l'Initiative sans les dés{after}."
            ).format(after=_(", après ceux qui ont la leur") if rolled else "")
        )
    if out:
        notes.append(
            _(
                "Qui a déjà agi n'est pas noté : l'Action se joue d'un bloc sur sa page ; « {end} » passe à la suivante."
            ).format(end=advance_label(clock))
        )
    return TurnOrder(
        turns=tuple(out),
        aside=tuple(aside),
        heading=clock_label(clock),
        notes=tuple(typography(n) for n in notes),
    )
