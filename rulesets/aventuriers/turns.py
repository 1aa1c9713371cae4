"""Aventuriers — the turn order of an encounter (issue 16): the phase des Aventuriers, then the
phase du Maître des Ombres.

The seed (``001_98d48faccdd02c66`` « Combat ») gives the turn's two phases and who acts in each:
« Pendant sa phase, un Aventurier change gratuitement d'arme… Pendant la phase du Maître des
Ombres, il garde l'équipement choisi » (Livret Aventure, p. 18), each character making its combat
action « une fois par tour » (p. 17); an Attaque d'opportunité is made « au début de la phase des
Aventuriers » (p. 20). It says nothing of the order of the Aventuriers inside their phase nor of
the order in which the Maître des Ombres activates his Monsters: the players choose theirs, the
Maître des Ombres his, and the rules' order here is the encounter's own list (the order the figures
were added in), which the game master changes with ▲ ▼.
"""

from __future__ import annotations

from rulesets.aventuriers import encounter
from rulesets.aventuriers.model import Scenario, Side
from rulesets.aventuriers.speech import figure_noun
from rulesets.core.encounter import Fighter, Turn, TurnOrder
from rulesets.core.french import join
from rulesets.core.i18n import _
from rulesets.core.typography import typography

AVENTURIER, MONSTRE = Side.AVENTURIER.value, Side.MONSTRE.value


def turns(fighters: tuple[Fighter, ...], clock: encounter.Clock, table: Scenario) -> TurnOrder:
    """Who acts in the phase now (``clock.phase``), as the seed's turn structure gives it.

    * **The side whose phase it is** has the turns: the Aventuriers in the phase des Aventuriers,
      the Monsters in the phase du Maître des Ombres, in the encounter's order (the players', or
      the Maître des Ombres', choice: the seed sets none). ``done`` is « A fait son action de
      combat ce tour » (``acted``): the combat action is once per turn (Livret Aventure, p. 17);
      reactions and success tests do not spend it.
    * **The start of the phase des Aventuriers** (``clock.opening``): an Attaque d'opportunité is
      made « au début de la phase » (p. 20), before the phase's other exchanges, so the
      Aventuriers who may make one come first (in the encounter's order among themselves); a
      Monster who may is named in a note, since it strikes before the first Aventurier acts.
    * **The other side** waits, in ``aside``: « attend la phase du Maître des Ombres », « attend
      la phase des Aventuriers du tour 3 ».
    * **Out of the fight** (0 PV: a Monster killed and removed from the board, an Aventurier
      « hors de combat »): no turn and not aside, as it takes no part in the phase any more.
    """
    standing = [f for f in fighters if not encounter.is_out(f)]
    aventuriers_phase = clock.phase is encounter.Phase.AVENTURIERS
    side = AVENTURIER if aventuriers_phase else MONSTRE

    def opportunity(f: Fighter) -> bool:
        # the flag outlives the start of the phase until its end: it counts only while it is open
        return bool(aventuriers_phase and clock.opening and f.state.opportunity)

    own = sorted((f for f in standing if f.kind == side), key=lambda f: not opportunity(f))
    others = [f for f in standing if f.kind != side]

    order = tuple(
        Turn(f.key, _("Attaque d'opportunité possible d'abord") if opportunity(f) else "", bool(f.state.acted))
        for f in own
    )
    aside = tuple(Turn(f.key, _aside_detail(f, clock, opportunity(f))) for f in others)

    if aventuriers_phase:
        heading = (
            _("Début de la phase des Aventuriers, tour {n}") if clock.opening else _("Phase des Aventuriers, tour {n}")
        )
        notes = [
            _("Les joueurs choisissent l'ordre de leurs aventuriers (ici, celui de la rencontre) : ▲ ▼ pour le suivre.")
        ]
        first = [figure_noun(f.name, f.state.grammar, monster=f.kind == MONSTRE) for f in others if opportunity(f)]
        if first:
            notes.append(
                _("Avant la première action : Attaque d'opportunité possible pour {names}.").format(
                    names=join([str(n) for n in first])
                )
            )
    else:
        heading = _("Phase du Maître des Ombres, tour {n}")
        notes = [
            _(
                "Le Maître des Ombres active ses monstres dans l'ordre de son choix (ici, celui de la rencontre) : ▲ ▼ pour le suivre."
            )
        ]
    notes.append(
        _(
            "Qui n'attaque pas ce tour : cochez « A fait son action de combat ce tour » dans sa fiche pour passer au suivant."
        )
    )
    return TurnOrder(
        turns=order,
        aside=aside,
        heading=typography(heading.format(n=clock.turn)),
        notes=tuple(typography(n) for n in notes),
    )


def _aside_detail(f: Fighter, clock: encounter.Clock, opportunity: bool) -> str:
    """What a figure of the other side does meanwhile."""
    if clock.phase is encounter.Phase.AVENTURIERS:
        wait = _("attend la phase du Maître des Ombres")
        if opportunity:
            wait = _("Attaque d'opportunité possible d'abord, puis {wait}").format(wait=wait)
        elif f.state.acted:
            wait = _("{wait} (action de combat déjà faite ce tour)").format(wait=wait)
    else:
        wait = _("attend la phase des Aventuriers du tour {n}").format(n=clock.turn + 1)
    return typography(wait)
