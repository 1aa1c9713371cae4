"""Nephilim Légende's turn order in an encounter (issue 16): who attacks now, by initiative.

The rules it follows:

* **Initiative** (seed ``002`` §1, « Types de combattants »): a Nephilim's is « Ka-Eau × 2
  (initiative & MV) », a humain initié's « Ka-Soleil (initiative & MV) », an « autre PNJ »'s « Menace
  ou Ka-él. (initiative & MV) »; docs/rules/nephilim.md decision 29. The number is the state's own
  :attr:`~rulesets.nephilim.encounter.CombatantState.initiative`, the one ``suggest`` ranks by and
  the calculator's « Initiative et MV » line shows (``engine.initiative_of``, without the
  exchange's effects: an Améthyste revêtue de flammes is chosen on the page for one exchange, it is
  no part of the state, decision E11). The highest acts first.
* **Ties**: the seed is silent; the order of the combatants' list (the encounter's position order)
  decides, as ``_next_attacker`` does. A note names the tied combatants in that order.
* **A riposte due** (§9 Contre-attaquer « + jet attaque standard requis »; decision E5: due until
  the end of the next round, an extra attack that is not the round's own) comes before everything
  else, in the list's order: ``_next_attacker`` proposes it first, so the one acting now is always
  the attacker ``suggest`` proposes (until the game master reorders by hand).
* **Done** = has attacked this round (``attacked``, which « Appliquer » sets and « Fin du round »
  clears), unless a riposte is still due: that one has something left to do this round.
* **Out of the fight** (``is_out``: « Hors de combat » ticked or « S'est échappé », decision E9):
  no turn, since no roll of the seed is theirs to make any more; they are listed aside with why.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rulesets.core.encounter import Fighter, Turn, TurnOrder
from rulesets.core.french import join
from rulesets.core.i18n import _
from rulesets.core.typography import typography
from rulesets.nephilim.model import AttackerKind

if TYPE_CHECKING:
    from rulesets.nephilim.encounter import Clock, CombatantState


def source(state: CombatantState) -> str:
    """What the initiative is made of, in the calculator's words (« Initiative et MV … (Ka-Eau ×
    2) »), with the Ka typed where the number is not that Ka itself: « Ka-Eau 7 × 2 »."""
    kind = state.attacker_kind
    if kind is AttackerKind.NEPHILIM:
        return _("Ka-Eau {ka} × 2").format(ka=state.initiative_ka)
    if kind is AttackerKind.INITIE:
        return _("Ka-Soleil")
    return _("Menace ou Ka-élément")


def initiative_text(state: CombatantState) -> str:
    """« initiative 14 (Ka-Eau 7 × 2) », « initiative 6 (Menace ou Ka-élément) »."""
    return _("initiative {n} ({source})").format(n=state.initiative, source=source(state))


def turns(fighters: tuple[Fighter, ...], clock: Clock, table: Any) -> TurnOrder:
    """The round's order: ripostes due first (list order), then by initiative, highest first (ties
    in list order); those who attacked are done; those out of the fight are aside."""
    # the encounter module imports this one to register it: read it when the order is asked
    from rulesets.nephilim.encounter import _known, _named, is_out

    known = _known(fighters)
    standing = [f for f in fighters if not is_out(f)]
    ripostes = [f for f in standing if f.state.riposte]
    ranked = sorted(
        (f for f in standing if not f.state.riposte),
        key=lambda f: -f.state.initiative,  # a stable sort: the list's order breaks ties
    )
    order: list[Turn] = []
    for f in (*ripostes, *ranked):
        state: CombatantState = f.state
        detail = initiative_text(state)
        if state.riposte:
            target = _named(state.riposte, known)
            detail = _("riposte due contre {target} ; {detail}").format(target=target, detail=detail)
        order.append(Turn(f.key, typography(detail), done=state.attacked and not state.riposte))

    aside = []
    for f in fighters:
        if not is_out(f):
            continue
        state = f.state
        me = state.who
        if state.out:
            why = _("hors de combat : pas de tour")
        else:
            why = me.forms(
                _("s'est échappé : pas de tour"),
                _("s'est échappée : pas de tour"),
                _("se sont échappés : pas de tour"),
                _("se sont échappées : pas de tour"),
            )
        aside.append(Turn(f.key, typography(why), done=True))

    return TurnOrder(turns=tuple(order), aside=tuple(aside), notes=_notes(ripostes, ranked))


def _notes(ripostes: list[Fighter], ranked: list[Fighter]) -> tuple[str, ...]:
    notes: list[str] = []
    if ripostes:
        notes.append(
            _(
                "Une riposte due (Contre-attaquer réussi) passe avant les attaques du round ; "
                "elle ne compte pas comme l'attaque du round."
            )
        )
    by_value: dict[int, list[Fighter]] = {}
    for f in ranked:
        by_value.setdefault(f.state.initiative, []).append(f)
    for value, tied in by_value.items():
        if len(tied) > 1:
            names = ", puis ".join(f.state.who.subject for f in tied)
            notes.append(
                _("À initiative égale ({n}), l'ordre de la liste des combattants départage : {names}.").format(
                    n=value, names=names
                )
            )
    blank = [f for f in (*ripostes, *ranked) if not f.state.initiative_ka]
    if blank:
        names = join([f.state.who.subject for f in blank])
        many = len(blank) > 1
        notes.append(
            _("Initiative 0 pour {names} : vérifiez le Ka-Eau, le Ka-Soleil ou la Menace sur {whose}.").format(
                names=names, whose=_("leurs fiches") if many else _("sa fiche")
            )
        )
    return tuple(typography(n) for n in notes)
