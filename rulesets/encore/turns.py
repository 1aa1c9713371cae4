"""enCORE's turn order (issue 16): seed ``003`` « Les conflits », its first lines and « Embuscade ».

* « Chaque PJ agit une fois par tour, dans l'ordre que choisissent les joueurs. Celui qui engage le
  conflit agit en premier. » The rules give no ranking: the PCs stand in the encounter's order, and
  the game master sets the players' choice, the one who started the conflict first, with ▲▼ (the
  notes say so). A PC is done once it has acted this turn (its ``acted`` flag: an action, or
  interposing, which is its action of the turn).
* « Les PNJ n'ont pas de tour à eux » … « Il en a autant par tour que sa Menace » : NPCs are
  ``aside``, with the attacks they have left this turn out of their Menace.
* Who is out of the fight (Santé 0) has no turn: a PC at « Hors de combat » no longer acts, so it
  leaves the order rather than stand there as « a agi »; it is ``aside``, « hors de combat », like
  an NPC out of the fight.
* The ambush (turn 0), « Le camp qui surprend l'autre agit avant le premier tour » :
  « PJ embusqués. Chaque PJ fait une action avant le premier tour. Ses échecs n'ouvrent pas de
  brèche » — the PCs' turns as in a turn, the NPCs caught off guard; « PNJ embusqués. Chaque PNJ
  dépense une attaque avant le premier tour » — then the NPCs are the ones who act, one attack each
  (done once it is spent), and the PCs, who only roll PER to avoid the blow (« n'est pas une action »),
  are ``aside`` until the first turn. This is the one moment NPCs stand in the order: the seed has
  them act there, one after the other, before any turn.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from rulesets.core.encounter import Fighter, Turn, TurnOrder
from rulesets.core.french import count, quote, typography
from rulesets.core.i18n import _

if TYPE_CHECKING:
    from rulesets.encore.encounter import Clock, NpcState


def _attacks(npc: NpcState) -> str:
    """« 2 attaques ce tour sur 3 »: the attacks left this turn out of the NPC's Menace."""
    left = npc.attacks
    if left == 0:
        return _("plus d'attaque ce tour (0 sur {menace})").format(menace=npc.menace)
    return _("{n} ce tour sur {menace}").format(n=count(left, _("attaque")), menace=npc.menace)


def turns(fighters: tuple[Fighter, ...], clock: Clock, table: Any) -> TurnOrder:
    """Who acts this turn, in the order the players chose (the encounter's, reordered by the game
    master), the NPCs beside it with their attacks; at the ambush, the side that strikes first."""
    from rulesets.encore.encounter import PJ, PNJ, Ambush, is_out  # local: encounter imports this module

    standing = [f for f in fighters if not is_out(f)]
    pcs = [f for f in standing if f.kind == PJ]
    npcs = [f for f in standing if f.kind == PNJ]
    out = tuple(Turn(f.key, _("hors de combat")) for f in fighters if is_out(f))
    ambush = clock.ambush if clock.turn == 0 else Ambush.NONE

    if ambush is Ambush.NPCS:
        # « Chaque PNJ dépense une attaque avant le premier tour »: done once it is spent
        return _order(
            turns=[
                Turn(
                    f.key,
                    _("une attaque : PER contre Menace {n} pour l'éviter").format(n=f.state.menace),
                    done=f.state.attacks < f.state.menace,
                )
                for f in npcs
            ],
            aside=[*(Turn(f.key, _("PER pour éviter le coup ; agit au premier tour")) for f in pcs), *out],
            heading=_("Embuscade des PNJ : chaque PNJ dépense une attaque avant le premier tour"),
            notes=[
                _(
                    "Un groupe ou un boss n'en dépense qu'une. Éviter le coup n'est pas une action ; sur une "
                    "réussite partielle, le PJ l'évite avec une complication."
                ),
                _("Le MJ choisit l'ordre des PNJ avec ▲▼."),
            ],
        )

    pc_turns = [Turn(f.key, done=bool(f.state.acted)) for f in pcs]
    if ambush is Ambush.PCS:
        # « Chaque PJ fait une action avant le premier tour. Ses échecs n'ouvrent pas de brèche »
        return _order(
            turns=pc_turns,
            aside=[
                *(Turn(f.key, _("pris de court, ne frappe pas (Menace {n})").format(n=f.state.menace)) for f in npcs),
                *out,
            ],
            heading=_("Embuscade des PJ : chaque PJ agit une fois avant le premier tour, sans ouvrir de brèche"),
            notes=[_("Les joueurs choisissent l'ordre des PJ ; le MJ le règle avec ▲▼.")],
        )

    notes = [
        _(
            "Les joueurs choisissent l'ordre ; celui qui a engagé le conflit agit en premier : le MJ le place en "
            "tête avec ▲▼."
        ),
        _("Un PJ qui n'a pas encore agi peut s'interposer dans une brèche : c'est son action du tour."),
    ]
    if clock.turn == 0:  # turn 0 with no side chosen: the ambush is not set
        notes.insert(
            0,
            _(
                "Tour 0 sans embuscade : choisissez qui surprend ({field} dans les réglages de la rencontre), "
                "ou passez au tour 1."
            ).format(field=quote(_("Embuscade"))),
        )
    return _order(turns=pc_turns, aside=[*(Turn(f.key, _attacks(f.state)) for f in npcs), *out], notes=notes)


def _order(*, turns: list[Turn], aside: list[Turn], heading: str = "", notes: list[str]) -> TurnOrder:
    """The order with French typography on every text it shows."""
    return TurnOrder(
        turns=tuple(replace(t, detail=typography(t.detail)) for t in turns),
        aside=tuple(replace(t, detail=typography(t.detail)) for t in aside),
        heading=typography(heading),
        notes=tuple(typography(n) for n in notes),
    )
