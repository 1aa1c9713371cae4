"""The turn order of a Quadrature manche (issue 16): « l'initiative des cartes jouées ».

What the seed (``000`` « 🐉 Adversaires ») gives, and what this order reads from it:

* Every action card carries an initiative (§ « Actions d'adversaires »: « Harcèlement ⚫ (init. 2) »,
  « Frappe vive ⚫ (init. 3) », « Frappe lourde ⚫⚫ (init. 5) », « Morsure ⚫⚫ (init. 3) »); an
  adversary plays the cards of its deck, « modulé par l'état de ses parties du corps »
  (§ « Actions ⚫ et réactions ⚡ »). The combatants are ranked by the initiative of the card each
  plays this manche.
* **Lower initiative acts first.** The seed refers the order itself to ``../core/combat.md``, which
  is not part of it; this reading is ours, from the seed's own cards: the quick strike (« Frappe
  vive », 3) comes before the heavy one (« Frappe lourde », 5), and « la horde avance avant de
  frapper » (§ Hordes) — its 🌕 Bande II move before its 🌗 Bande III attack (the bestiary's cards:
  initiative 1, then 3).
* **The card of an adversary** is not recorded by the encounter (the state keeps the ⚫ and ⚡ left,
  not the card played), and its initiative is only known once the card is chosen: the order uses
  the card the exchange page proposes, exactly as ``fill`` does — the first card still in the deck
  that it can pay with the ⚫ it has left, an attack first (:func:`encounter._first_card`). An
  adversary that has spent its ⚫ keeps the place of the card it would have opened the manche with
  (its printed ⚫).
* **Done**: an adversary with no ⚫ left this manche (``ap_left == 0``, :attr:`Foe.points`). Its ⚡
  are reactions, played out of turn (a target leaving the Engagement serré, Réflexes de prédateur):
  they are named in the detail, they give no turn. A PC's state records no « has acted » flag, so a
  PC is never done before « Fin de la manche ».
* **The PCs** play their own cards (« les cartes des joueurs », § introduction), whose initiative the
  encounter does not track (``PcState`` has no card): they come after the adversaries, in the
  encounter's order, and a note asks the game master to place them with ▲▼.
* **Ties** keep the encounter's order (the seed says nothing); a note names them.
* **Out of the fight** (an adversary destroyed or Épuisé, a PC Épuisé: :func:`encounter.is_out`):
  no turn; listed aside with the reason, so that the order says why they are missing.
"""

from __future__ import annotations

from dataclasses import dataclass

from rulesets.core.encounter import Fighter, Turn, TurnOrder
from rulesets.core.french import count, join
from rulesets.core.i18n import _
from rulesets.core.typography import typography
from rulesets.quadrature import encounter as enc
from rulesets.quadrature.model import Card, Scenario
from rulesets.quadrature.model import Kind as SheetKind
from rulesets.quadrature.sheet import card_available, card_cost, destroyed


@dataclass(frozen=True, slots=True)
class _Ranked:
    """An adversary's place: the card that ranks it (None: no card left in its deck)."""

    fighter: Fighter
    card: Card | None
    done: bool
    detail: str

    @property
    def initiative(self) -> int | None:
        return self.card.initiative if self.card is not None else None


def ranking_card(foe: enc.Foe) -> Card | None:
    """The card whose initiative places ``foe``: the card the exchange page proposes with the ⚫ it
    has left (``fill``); once its ⚫ are spent, the one it would have opened the manche with."""
    sheet = enc.to_sheet(foe)
    points = foe.points if foe.points > 0 else foe.action_points
    index = enc._first_card(sheet, points)
    card = sheet.deck[index - 1] if 0 < index <= len(sheet.deck) else None
    return card if card is not None and card_available(sheet, card) else None


def _card_detail(card: Card, cost: int, points: int) -> str:
    """« Frappe vive : initiative 3 », and what it lacks when it cannot pay the card."""
    text = _("{card} : initiative {n}").format(card=card.name, n=card.initiative)
    if cost > points:
        text = _("{text} ({cost} ⚫, il n'en reste que {left})").format(text=text, cost=cost, left=points)
    return text


def _rank(f: Fighter) -> _Ranked:
    foe: enc.Foe = f.state
    card = ranking_card(foe)
    done = foe.points == 0
    if done:
        detail = _("plus de ⚫ cette manche")
        if foe.reactions_now:
            detail = _("{text}, {n} en réaction").format(text=detail, n=count(foe.reactions_now, "⚡", "⚡"))
    elif card is None:
        detail = _("plus aucune carte dans son deck")
    else:
        detail = _card_detail(card, card_cost(enc.to_sheet(foe), card), foe.points)
    return _Ranked(f, card, done, typography(detail))


def _out_detail(f: Fighter) -> str:
    """Why an out-of-the-fight combatant has no turn."""
    if f.kind == enc.PJ:
        return typography(
            _("{exhausted} — hors de combat, pas de tour").format(exhausted=enc.pc_named(f.state).agree("Épuisé"))
        )
    foe: enc.Foe = f.state
    who = enc.foe_who(foe)
    if destroyed(foe):
        if foe.kind is SheetKind.HORDE:
            return _("anéantie — pas de tour")
        return _("toutes {parts} détruites — pas de tour").format(parts=who.ses("parties"))
    return typography(_("{exhausted} — hors de combat, pas de tour").format(exhausted=who.agree("Épuisé")))


def _ties(ranked: list[_Ranked]) -> list[str]:
    """A note per initiative shared by several adversaries still to act."""
    by_initiative: dict[int, list[str]] = {}
    for r in ranked:
        if r.initiative is not None and not r.done:
            by_initiative.setdefault(r.initiative, []).append(r.fighter.name)
    return [
        typography(
            _("Égalité à l'initiative {n} : {names}, dans l'ordre de la rencontre ; ▲▼ pour trancher.").format(
                n=n, names=join(names)
            )
        )
        for n, names in sorted(by_initiative.items())
        if len(names) > 1
    ]


def turns(fighters: tuple[Fighter, ...], clock: enc.Clock, table: Scenario) -> TurnOrder:
    """The manche's order: the adversaries by the initiative of their card (lowest first, ties in
    the encounter's order; no card left: after the others), then the PCs in the encounter's order;
    out of the fight: no turn, listed aside. See the module's docstring for the seed's words."""
    standing = [f for f in fighters if not enc.is_out(f)]
    foes = [_rank(f) for f in standing if f.kind == enc.ADV]
    pcs = [f for f in standing if f.kind == enc.PJ]
    foes.sort(key=lambda r: (r.initiative is None, r.initiative or 0))  # stable: ties keep the encounter's order
    order = [Turn(r.fighter.key, r.detail, r.done) for r in foes]
    order += [Turn(f.key, typography(_("initiative de sa carte : à placer (▲▼)"))) for f in pcs]
    aside = tuple(Turn(f.key, _out_detail(f)) for f in fighters if enc.is_out(f) and f.kind in (enc.ADV, enc.PJ))
    notes: list[str] = []
    if foes:
        notes.append(_("Ordre des cartes : initiative croissante, la plus basse agit d'abord."))
        notes.append(
            _(
                "Carte d'un adversaire : celle que propose l'échange (la première qu'il peut encore payer, "
                "une attaque d'abord) ; s'il en joue une autre, déplacez-le avec ▲▼. Ses ⚡ se jouent en "
                "réaction, hors de son tour."
            )
        )
    if pcs:
        notes.append(
            _(
                "Les personnages jouent leurs propres cartes, dont l'initiative n'est pas suivie ici : ils "
                "viennent après les adversaires, placez-les avec ▲▼. Rien ne marque qu'un personnage a agi : "
                "son tour reste ouvert jusqu'à la fin de la manche."
            )
        )
    notes += _ties(foes)
    return TurnOrder(turns=tuple(order), aside=aside, notes=tuple(typography(n) for n in notes))
