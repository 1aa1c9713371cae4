"""The Quadrature page keeps its scene valid (``WebPlugin.settle``): dependent fields follow their cause.

The page sends the form's raw values; :func:`settle` returns the few changes that keep the scene
playable, each with a French note for the game master. It changes only what is invalid, and what
the seed says follows from a change:

* a deck card replaced (a bestiary card loaded over it, or renamed): the blocks that granted it
  grant its successor — the block confers « une action du deck » (§ Santé ♥️ et parties du
  corps), the deck slot is what changed;
* a deck card removed: the blocks that granted it keep their text as a plain capability;
* a body part removed: its blocks go with it, the blocks of the later parts keep their part;
* the card played must be in the deck and playable (§ Actions ⚫ et réactions ⚡, § Fatigue 💧 :
  « une créature ne peut pas jouer une action dont le coût remplirait sa piste de fatigue »);
* the targeted part must be a part of the sheet; a horde is struck as one (§ Hordes);
* a horde defends by dodging only (§ Hordes — Défenses simplifiées);
* the Regard hypnotique needs its trait (§ Traits mentaux);
* only skill dice are upgraded (the players' dice, ``rules/quadrature.md``).

Which card and which part replace an impossible one: the first playable attack card (else the
first playable card), the first part that still has an intact block — what the encounter fills
(``rulesets.quadrature.encounter``).

Two hidden inputs per row, drawn by the fields template, tell what the page showed before the
change: ``adversary.deck.<i>._was`` (the card's name) and ``adversary.parts.<i>._n`` (the part's
number) live inside their row, so removing a row moves them with it; ``adversary._deck`` (the
cards' names) and ``adversary._parts`` (how many parts) say what a removed row was.
"""

from __future__ import annotations

from collections.abc import Mapping

from django.utils.translation import gettext as _

from calculator import json_input
from calculator.plugins import Settled
from calculator.settling import RawForm
from rulesets.core.french import count, typography
from rulesets.core.schema import ScenarioError, parse, unflatten
from rulesets.quadrature.model import Adversary, Capability, Kind, Mode, PcSource, Scenario
from rulesets.quadrature.names import adversary_who
from rulesets.quadrature.sheet import part_blocks

WAS = "_was"  # a deck row's card name when the page was drawn
NUMBER = "_n"  # a part row's number when the page was drawn
PARTS = "adversary._parts"  # how many part rows the page drew
DECK = "adversary._deck"  # the names of the deck's cards the page drew (a JSON list)
ACTIONS = (Capability.ACTION.value, Capability.ACTION_COST.value)


def blocks(raw: RawForm) -> list[int]:
    """The block rows in use (a block of 0 boxes is an empty row, ignored)."""
    return [j for j in raw.rows("adversary.blocks") if (raw.number(f"adversary.blocks.{j}.boxes") or 0) > 0]


def follow_deck_changes(raw: RawForm) -> None:
    """A block names the deck card it grants: when that card is replaced or removed, follow it."""
    deck = raw.rows("adversary.deck")
    names = {i: raw.get(f"adversary.deck.{i}.name") for i in deck}
    was = {i: raw.data[f"adversary.deck.{i}.{WAS}"].strip() for i in deck if f"adversary.deck.{i}.{WAS}" in raw.data}
    current = {n for n in names.values() if n}
    try:  # a hidden input: nesting bounded (a made-up one 1,000 levels deep raised RecursionError)
        drawn = json_input.loads(raw.data.get(DECK, "[]"))
    except json_input.JsonRefused:
        drawn = []
    former = {str(n) for n in drawn if n} if isinstance(drawn, list) else set()
    for j in blocks(raw):
        label_path = f"adversary.blocks.{j}.label"
        label = raw.get(label_path)
        if raw.get(f"adversary.blocks.{j}.capability") not in ACTIONS or not label or label in current:
            continue
        successor = next((names[i] for i, old in was.items() if old == label and names.get(i)), None)
        if successor is not None:
            raw.set(
                label_path,
                successor,
                _("Bloc {n} : « {old} » a laissé place à « {new} » dans le deck ; le bloc confère « {new} ».").format(
                    n=j + 1, old=label, new=successor
                ),
            )
        elif label in former:
            raw.set(
                f"adversary.blocks.{j}.capability",
                Capability.OTHER.value,
                _("Bloc {n} : « {old} » a quitté le deck ; le bloc garde « {old} » comme capacité libre.").format(
                    n=j + 1, old=label
                ),
            )
        # else: a label typed by hand that names no card: its field says why


def follow_removed_parts(raw: RawForm) -> None:
    """A part removed takes its blocks with it; the blocks of the later parts keep their part."""
    drawn = raw.number(PARTS)
    if drawn is None:
        return
    numbers = {}
    for i in raw.rows("adversary.parts"):
        n = raw.number(f"adversary.parts.{i}.{NUMBER}")
        if n is not None and f"adversary.parts.{i}.{NUMBER}" in raw.data:
            numbers[n] = i + 1
    removed = set(range(1, drawn + 1)) - set(numbers)
    if not removed and all(old == new for old, new in numbers.items()):
        return
    for j in blocks(raw):
        path = f"adversary.blocks.{j}.part"
        part = raw.number(path)
        if part in removed:
            raw.set(
                f"adversary.blocks.{j}.boxes",
                "0",
                _("Bloc {n} : sa partie du corps est retirée, le bloc aussi.").format(n=j + 1),
            )
        elif part in numbers and numbers[part] != part:
            raw.set(path, str(numbers[part]))  # the same part, renumbered: no note


def horde_dodges(raw: RawForm) -> None:
    if raw.get("adversary.kind") == Kind.HORDE.value and raw.get("adversary.guard_type") != "esquive":
        raw.set(
            "adversary.guard_type",
            "esquive",
            _("La seule défense des hordes est l'esquive : Garde Esquive."),
        )


def skill_upgrades(raw: RawForm) -> None:
    if raw.get("pc.source") != PcSource.ROLLED.value:
        return
    skill, upgrades = raw.number("pc.skill"), raw.number("pc.skill_upgrades")
    if skill is not None and upgrades is not None and 0 <= skill < upgrades:
        raw.set(
            "pc.skill_upgrades",
            str(skill),
            _("Seuls les dés de compétence s'améliorent : {dice} ⬆ au plus.").format(dice=count(skill, "dé")),
        )


def adversary(raw: RawForm) -> Adversary | None:
    """The sheet the form describes, or None while one of its fields is wrong (its field says why)."""
    flat = {path: value for path, value in raw.scenario_data().items() if path.startswith("adversary.")}
    try:
        sheet: Adversary = parse(Adversary, unflatten(flat)["adversary"])
    except ScenarioError:
        return None
    return sheet


def card_reason(adv: Adversary, card: int) -> str | None:
    """Why card ``card`` (1-based) cannot be played now: the engine's own message, or None."""
    return Scenario(mode=Mode.ADVERSARY_ATTACK, adversary=adv, card=card).check().get("card")


def best_card(adv: Adversary) -> int | None:
    playable = [n for n in range(1, len(adv.deck) + 1) if card_reason(adv, n) is None]
    attacks = [n for n in playable if adv.deck[n - 1].attack]
    choice = attacks or playable
    return choice[0] if choice else None


def card_played(raw: RawForm, adv: Adversary, mode: str) -> None:
    card = raw.number("card")
    if card is None:
        return
    if card <= len(adv.deck):
        if mode != Mode.ADVERSARY_ATTACK.value:
            return  # a card it cannot afford now is not wrong while it does not attack
        why = card_reason(adv, card)
        if why is None:
            return
    else:
        why = _("Le deck n'a que {cards}.").format(cards=count(len(adv.deck), "carte"))
    best = best_card(adv)
    if best is None or best == card:
        return  # no card it can play: the field says why
    raw.set(
        "card",
        str(best),
        _("Carte jouée : « {card} ». {why}").format(card=adv.deck[best - 1].name, why=why),
    )


def first_part(adv: Adversary) -> int:
    if adv.kind is Kind.HORDE:
        return 1
    return next(
        (i + 1 for i in range(len(adv.parts)) if any(adv.blocks[k].intact for k in part_blocks(adv, i))),
        1,
    )


def target_part(raw: RawForm, adv: Adversary) -> None:
    target = raw.number("target_part")
    if target is None:
        return
    if adv.kind is Kind.HORDE and target != 1:
        raw.set("target_part", "1", _("Une horde se frappe en bloc : partie visée, la horde entière."))
    elif target > len(adv.parts):
        best = first_part(adv)
        who = adversary_who(adv.name, adv.grammar)
        raw.set(
            "target_part",
            str(best),
            _("Partie visée : {part} ({name} n'{has} que {parts}).").format(
                part=adv.parts[best - 1].name,
                name=who.subject,
                has=who.form("a", "ont"),
                parts=count(len(adv.parts), "partie du corps"),
            ),
        )


def gaze(raw: RawForm, adv: Adversary) -> str:
    mode = raw.get("mode")
    if mode != Mode.HYPNOTIC_GAZE.value:
        return mode
    why = Scenario(mode=Mode.HYPNOTIC_GAZE, adversary=adv).check().get("mode")
    if why is None:
        return mode
    raw.set(
        "mode",
        Mode.ADVERSARY_ATTACK.value,
        _("{why} Situation : {mode}.").format(why=why, mode=Mode.labels()[Mode.ADVERSARY_ATTACK.value]),
    )
    return Mode.ADVERSARY_ATTACK.value


def settle(data: Mapping[str, str]) -> Settled:
    """What to change so that the scene the form describes stays valid (see the module docstring)."""
    raw = RawForm(Scenario, data)
    follow_deck_changes(raw)
    follow_removed_parts(raw)
    horde_dodges(raw)
    skill_upgrades(raw)
    adv = adversary(raw)
    if adv is not None:
        mode = gaze(raw, adv)
        card_played(raw, adv, mode)
        target_part(raw, adv)
    settled = raw.settled()
    # the notes are shown as they are: French spacing (issue 15)
    return Settled(changes=settled.changes, notes=[typography(note) for note in settled.notes])
