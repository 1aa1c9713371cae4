"""Quadrature adversaries inside an encounter: the living sheet of each creature or horde, the PCs'
Garde, tokens and wounds received, and the round (seed ``000`` « 🐉 Adversaires »).

* An adversary's state is the whole living sheet (:class:`~rulesets.quadrature.model.Adversary`:
  parts, blocks and their ticked boxes, armour lost, fatigue, tokens, mental state, bleeding,
  Sonné/Entravé, deck…) plus what the encounter counts per round: the ⚫ and ⚡ left, and whom it
  is engaged with (by name). « Appliquer » writes back the sheet the engine returns after the
  exchange (the last event's ``data["sheet"]``).
* A PC's state is what the page's ``pc`` block needs (pool, Garde, tokens, bleeding) and what the
  adversaries did to it: 💢 and 💔 received, fatigue, crans of the mental track, Sonné/Entravé.
* The end of the round reuses the engine's round boundary (``mode = round``) for every adversary:
  bleeding, then the next round's Endurance 🫁, Évasion 🍀 and Stabilité ◇ from the intact blocks,
  then the Aura de terreur on the PCs it is engaged with. The PCs bleed and get their own tokens back
  too, and the ⚫/⚡ of every adversary come back.

Every decision the seed leaves open is a visible field (the clock's settings, the states' fields)
and is written down in ``docs/rules/quadrature.md`` § « Dans une rencontre ».
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from typing import Annotated, Any

from rulesets.core.dice import DiceRoll
from rulesets.core.encounter import Applied, Bar, Bindings, EncounterRules, Fighter, Kind, Page, Role, register, rows
from rulesets.core.french import PROPER_M, Grammar, Noun, count, elide, join, signed, typography
from rulesets.core.i18n import _
from rulesets.core.results import Result
from rulesets.core.schema import ScenarioError, Spec, fields_of, flatten, parse, to_data, unflatten
from rulesets.quadrature.conditions import CONDITIONS
from rulesets.quadrature.engine import resolve
from rulesets.quadrature.model import Adversary, Capability, Mode, Pc, PcSource, Play, Scenario
from rulesets.quadrature.model import Kind as SheetKind
from rulesets.quadrature.names import adversary_who, pc_who
from rulesets.quadrature.sheet import (
    capability_design,
    capability_total,
    card_available,
    card_cost,
    destroyed,
    exhausted,
    guard_modifier,
    horde_mood,
    horde_tokens,
    members,
    part_blocks,
    threat,
)
from rulesets.quadrature.turns import turns

ADV, PJ = "adversaire", "pj"
MENTAL_MIN, MENTAL_MAX = -3, 3


def foe_who(foe: Adversary) -> Noun:
    """The adversary as the story names it, with its grammar (issue 15)."""
    return adversary_who(foe.name, foe.grammar)


def pc_named(pc: PcState) -> Noun:
    """The character as the story names it (« Aldric », « le personnage »)."""
    return pc_who(pc.name, pc.grammar)


def states_end(who: Noun, state: str) -> str:
    """A state that ends with the round: « Aldric n'est plus Sonné. », « Elwen se dégage : plus Entravée. »"""
    if state == "stunned":
        return _("{name} {is_not} plus {stunned}.").format(
            name=who.Subject, is_not=elide("ne", who.form("est", "sont")), stunned=who.agree("Sonné")
        )
    return _("{name} se {frees} : plus {bound}.").format(
        name=who.Subject, frees=who.form("dégage", "dégagent"), bound=who.agree("Entravé")
    )


def _shown(lines: list[str]) -> tuple[str, ...]:
    """Story and note lines as the encounter page shows them: French spacing (issue 15)."""
    return tuple(typography(line) for line in lines)


# --- the states -------------------------------------------------------------------------------------


def reaction_max(adv: Adversary) -> int:
    """The ⚡ of a round: the printed reactions, +1 with Réflexes de prédateur."""
    return adv.reactions_per_round


def total_boxes(adv: Adversary) -> int:
    return sum(b.boxes for b in adv.blocks)


def boxes_left(adv: Adversary) -> int:
    return sum(b.left for b in adv.blocks)


def _tick_one(adv: Adversary, ticked: list[int]) -> bool:
    """One box lost by hand: a horde loses its first member left (sheet order); a creature ticks the
    most damaged intact block (the seed's rule for boxes ticked without a part, § Hémorragie)."""
    best: int | None = None
    best_key: tuple[int, int] | None = None
    for k, block in enumerate(adv.blocks):
        left = block.boxes - ticked[k]
        if left <= 0:
            continue
        if adv.kind is SheetKind.HORDE:
            best = k
            break
        key = (ticked[k], -left)
        if best_key is None or key > best_key:
            best, best_key = k, key
    if best is None:
        return False
    ticked[best] += 1
    return True


def _untick_one(adv: Adversary, ticked: list[int]) -> bool:
    """One box back (a correction): the reverse of :func:`_tick_one`."""
    candidates = [k for k in range(len(ticked)) if ticked[k] > 0]
    if not candidates:
        return False
    k = candidates[-1] if adv.kind is SheetKind.HORDE else max(candidates, key=lambda i: (ticked[i], -i))
    ticked[k] -= 1
    return True


@dataclass(frozen=True, slots=True)
class Foe(Adversary):
    """An adversary (creature or horde) in the encounter: its whole living sheet, and the round's ⚫/⚡."""

    ap_left: Annotated[
        int | None,
        Spec(
            label=_("Points d'action ⚫ restants cette manche"), ge=0, le=6, help=_("Vide : tous ses points d'action.")
        ),
    ] = None
    reactions_left: Annotated[
        int | None,
        Spec(
            label=_("Réactions ⚡ restantes cette manche"),
            ge=0,
            le=5,
            help=_("Vide : toutes (Réflexes de prédateur compris)."),
        ),
    ] = None
    engaged: Annotated[
        str,
        Spec(
            label=_("Engagé avec (noms, séparés par des virgules)"),
            max_length=200,
            help=_("Rempli par chaque échange ; l'Aura de terreur frappe ces personnages en début de manche."),
        ),
    ] = ""

    @property
    def points(self) -> int:
        """⚫ left this round."""
        return self.action_points if self.ap_left is None else min(self.ap_left, self.action_points)

    @property
    def reactions_now(self) -> int:
        """⚡ left this round."""
        top = reaction_max(self)
        return top if self.reactions_left is None else min(self.reactions_left, top)

    def check(self) -> dict[str, str]:
        errors = Adversary.check(self)
        if self.ap_left is not None and self.ap_left > self.action_points:
            errors["ap_left"] = _("⚫ restants : au plus ses points d'action ({n}).").format(n=self.action_points)
        if self.reactions_left is not None and self.reactions_left > reaction_max(self):
            errors["reactions_left"] = _("⚡ restantes : au plus {n} par manche.").format(n=reaction_max(self))
        return errors


@dataclass(frozen=True, slots=True)
class PcState:
    """A PC as the adversaries see it: its roll, its Garde, its tokens, and what they did to it."""

    name: Annotated[str, Spec(label=_("Nom du personnage"), max_length=60)] = "Personnage"
    grammar: Annotated[Grammar, Spec(label=_("Grammaire du nom"))] = PROPER_M
    garde: Annotated[
        int,
        Spec(label=_("Garde (score de sa réaction de Garde)"), ge=0, le=40, help=_("Le seuil des attaques adverses.")),
    ] = 10
    attack: Annotated[int, Spec(label=_("Dernier score d'attaque"), ge=0, le=40)] = 10
    source: Annotated[PcSource, Spec(label=_("Score du personnage"))] = PcSource.TYPED
    characteristic: Annotated[int, Spec(label=_("Caractéristique (🟦)"), ge=0, le=6)] = 2
    skill: Annotated[int, Spec(label=_("Compétence (🟨)"), ge=0, le=6)] = 2
    skill_upgrades: Annotated[int, Spec(label=_("Dés de compétence améliorés ⬆ (🟫)"), ge=0, le=6)] = 0
    endurance: Annotated[int, Spec(label=_("Endurance 🫁 (jetons par manche)"), ge=0, le=20)] = 1
    endurance_tokens: Annotated[int, Spec(label=_("Jetons d'Endurance 🫁 restants"), ge=0, le=20)] = 1
    stability: Annotated[int, Spec(label=_("Stabilité ◇ (jetons par manche)"), ge=0, le=20)] = 1
    stability_tokens: Annotated[int, Spec(label=_("Jetons de Stabilité ◇ restants"), ge=0, le=20)] = 1
    fatigue_boxes: Annotated[int, Spec(label=_("Cases de fatigue 💧"), ge=1, le=20)] = 5
    fatigue_ticked: Annotated[int, Spec(label=_("Cases de fatigue cochées"), ge=0, le=20)] = 0
    light: Annotated[int, Spec(label=_("Blessures légères 💢 reçues"), ge=0, le=99)] = 0
    heavy: Annotated[int, Spec(label=_("Blessures graves 💔 reçues"), ge=0, le=99)] = 0
    mental: Annotated[
        int,
        Spec(label=_("Piste mentale (−3 peur … 0 … +3 colère)"), ge=MENTAL_MIN, le=MENTAL_MAX),
    ] = 0
    bleeding: Annotated[int, Spec(label=_("Jetons d'Hémorragie 🩸"), ge=0, le=20)] = 0
    stunned: Annotated[bool, Spec(label=_("Sonné 🫨"))] = False
    entangled: Annotated[bool, Spec(label=_("Entravé 🕸️"))] = False

    def check(self) -> dict[str, str]:
        errors: dict[str, str] = {}
        if self.fatigue_ticked > self.fatigue_boxes:
            errors["fatigue_ticked"] = _("Plus de cases cochées ({t}) que de cases de fatigue ({n}).").format(
                t=self.fatigue_ticked, n=self.fatigue_boxes
            )
        if self.source is PcSource.ROLLED and self.skill_upgrades > self.skill:
            errors["skill_upgrades"] = _("Seuls les dés de compétence s'améliorent : {n} au plus.").format(n=self.skill)
        return errors

    @property
    def exhausted(self) -> bool:
        return self.fatigue_ticked >= self.fatigue_boxes


@dataclass(frozen=True, slots=True)
class Clock:
    round: Annotated[int, Spec(label=_("Manche"), ge=1, le=999)] = 1
    stunned_ends: Annotated[bool, Spec(label=_("Sonné 🫨 prend fin à la fin de la manche"))] = True
    entangled_ends: Annotated[bool, Spec(label=_("Entravé 🕸️ prend fin à la fin de la manche"))] = False
    pc_bleed: Annotated[
        bool, Spec(label=_("Les personnages saignent aussi en fin de manche (1 💢 par jeton 🩸, puis un de moins)"))
    ] = True


# --- sheet ↔ state ------------------------------------------------------------------------------------

_SHEET_FIELDS = tuple(f.name for f in fields(Adversary))


def to_sheet(foe: Adversary) -> Adversary:
    """The engine's sheet of a state (the encounter's own counters left out)."""
    return Adversary(**{name: getattr(foe, name) for name in _SHEET_FIELDS})


def with_sheet(foe: Foe, sheet: Adversary) -> Foe:
    """``foe`` with the sheet an exchange returned; its name and printed ⚫ stay the encounter's, and
    its ⚡ are counted by ``reactions_left`` (the sheet's ``reactions_spent`` is written by ``fill``)."""
    values = {name: getattr(sheet, name) for name in _SHEET_FIELDS}
    values.update(name=foe.name, grammar=foe.grammar, action_points=foe.action_points, reactions_spent=0)
    return Foe(**values, ap_left=foe.ap_left, reactions_left=foe.reactions_left, engaged=foe.engaged)


def _held(cls: type, data: Mapping[str, Any], name: str, notes: list[str]) -> dict[str, Any]:
    """``data`` with every top-level counter past its bound (tokens piling up) held at the bound, said."""
    out = dict(data)
    for info in fields_of(cls):
        value = out.get(info.name)
        if isinstance(value, bool) or not isinstance(value, int):
            continue
        top, bottom = info.spec.le, info.spec.ge
        held = top if top is not None and value > top else bottom if bottom is not None and value < bottom else None
        if held is not None:
            out[info.name] = held
            notes.append(
                _("{name} — {label} : {v} dépasse la fiche, tenu à {b}.").format(
                    name=name, label=info.spec.label, v=value, b=held
                )
            )
    return out


def sheet_after(result: Result, notes: list[str]) -> Adversary | None:
    """The sheet after the exchange: the last event's ``data["sheet"]`` (counters held at their bounds)."""
    if not result.events or "sheet" not in result.events[-1].data:
        return None
    return sheet_from(result.events[-1].data["sheet"], notes)


def sheet_from(sheet: Mapping[str, Any], notes: list[str]) -> Adversary:
    """:func:`sheet_after` of a sheet's data (``data["sheet"]``)."""
    data = dict(sheet)
    parsed: Adversary = parse(Adversary, _held(Adversary, data, str(data.get("name", "")), notes))
    return parsed


def _bounded(state: Any, notes: list[str]) -> Any:
    """A state whose counters went past their bounds is held at the bounds (see :func:`_held`)."""
    data = to_data(state)
    try:
        parse(type(state), data)
    except ScenarioError:
        held = _held(type(state), data, state.name, notes)
        return replace(state, **{k: v for k, v in held.items() if v != data[k]})
    return state


def _engaged_names(foe: Foe) -> list[str]:
    return [n.strip() for n in foe.engaged.split(",") if n.strip()]


def _engage(foe: Foe, name: str) -> Foe:
    names = _engaged_names(foe)
    if name in names:
        return foe
    text = ", ".join([*names, name])
    return replace(foe, engaged=text) if len(text) <= 200 else foe


# --- filling the calculator ---------------------------------------------------------------------------


def playable(foe: Foe) -> int:
    """The ⚫ the calculator may spend: those left (a ⚡ is played as itself, see :func:`play_of`)."""
    return foe.points


def play_of(foe: Foe) -> Play:
    """With no ⚫ left but a ⚡ left, the card is played as a reaction (issue 14: never by faking ⚫);
    a creature whose only ⚡ is Réflexes de prédateur's plays its Frappe vive."""
    if foe.points == 0 and foe.reactions_now > 0:
        return Play.REACTION if foe.reactions else Play.PREDATOR
    return Play.ACTION


def can_act(foe: Foe) -> bool:
    return not exhausted(foe) and not destroyed(foe) and (foe.points > 0 or foe.reactions_now > 0)


def _first_card(sheet: Adversary, points: int) -> int:
    """The first card still in the deck that it can pay (an attack first), 1-based."""
    usable = [i for i, c in enumerate(sheet.deck, start=1) if card_available(sheet, c)]
    affordable = [i for i in usable if card_cost(sheet, sheet.deck[i - 1]) <= points]
    attacks = [i for i in affordable if sheet.deck[i - 1].attack]
    return (attacks or affordable or usable or [1])[0]


def _first_part(sheet: Adversary) -> int:
    """The first part with an intact block, 1-based (a horde is struck as one: part 1)."""
    if sheet.kind is SheetKind.HORDE:
        return 1
    for i in range(len(sheet.parts)):
        if any(sheet.blocks[k].intact for k in part_blocks(sheet, i)):
            return i + 1
    return 1


def _allied(foe: Foe, allies: tuple[Fighter, ...]) -> int:
    """◇ that hive-mind allies share with ``foe`` (Esprit de ruche), beyond its own field."""
    if not foe.traits.hive_mind:
        return 0
    return sum(a.state.stability_tokens for a in allies if a.state.traits.hive_mind)


def _pc_fields(pc: PcState, mode: Mode) -> dict[str, Any]:
    return {
        "name": pc.name,
        "grammar.article": pc.grammar.article.value,
        "grammar.gender": pc.grammar.gender.value,
        "grammar.elision": pc.grammar.elision.value,
        "source": pc.source.value,
        "score": pc.attack if mode is Mode.PC_ATTACK else pc.garde,
        "characteristic": pc.characteristic,
        "skill": pc.skill,
        "skill_upgrades": pc.skill_upgrades,
        "bleeding": pc.bleeding > 0,
        "endurance_tokens": pc.endurance_tokens,
        "stability_tokens": pc.stability_tokens,
    }


def fill(bindings: Bindings, clock: Clock) -> dict[str, Any]:
    """The calculator's fields: the adversary's living sheet (with its ⚫ left), the PC's pool and
    Garde, a card it can still play, a part still standing."""
    out: dict[str, Any] = {}
    mode = Mode.ADVERSARY_ATTACK
    if adversary := bindings.get("adversary", ()):
        foe: Foe = adversary[0].state
        sheet = to_sheet(foe)
        points = playable(foe)
        play = play_of(foe)
        shared = sheet.allied_stability + _allied(foe, bindings.get("allies", ()))
        spent = reaction_max(foe) - foe.reactions_now
        data = to_data(replace(sheet, action_points=points, allied_stability=min(40, shared), reactions_spent=spent))
        out.update(rows("adversary", flatten(data)))  # its lists replace the page's default rows
        out["card"] = _first_card(sheet, points if play is Play.ACTION else 99)
        out["play"] = play.value
        out["target_part"] = _first_part(sheet)
        if not can_act(foe):
            mode = Mode.PC_ATTACK
            out["mode"] = mode.value
    if pc := bindings.get("pc", ()):
        out.update(rows("pc", _pc_fields(pc[0].state, mode)))
    return out


def suggest(role: str, fighters: tuple[Fighter, ...], clock: Clock) -> tuple[str, ...]:
    """An adversary still standing that can act (else any standing); a PC still standing."""
    standing = [f for f in fighters if not is_out(f)]
    if role == "adversary":
        foes = [f for f in standing if f.kind == ADV]
        ready = [f for f in foes if can_act(f.state)] or foes
        return tuple(f.key for f in ready[:1])
    if role == "pc":
        return tuple(f.key for f in standing if f.kind == PJ)[:1]
    return ()


def order(scenario: Scenario) -> tuple[str, ...]:
    """Who strikes first in the log's title: the PC when « Un personnage attaque l'adversaire »
    (issue 16: « Ysolde contre le loup des cendres », never the wolf against her)."""
    return ("pc", "adversary") if scenario.mode is Mode.PC_ATTACK else ("adversary", "pc")


# --- Appliquer ----------------------------------------------------------------------------------------


def _num(numbers: Mapping[str, Any], key: str) -> int:
    """A number of the result as an int (absent: 0; a flag: 0 or 1)."""
    value = numbers.get(key)
    if isinstance(value, bool | int):
        return int(value)
    if isinstance(value, str):
        try:
            return int(value)
        except ValueError:
            return 0
    return 0


def _spend(before: Foe, foe: Foe, cost: int, what: str, story: list[str]) -> Foe:
    """Pay ``cost`` ⚫ for ``what``."""
    points = before.points
    who = foe_who(foe)
    plays = who.form("joue", "jouent")
    if points >= cost:
        left = points - cost
        story.append(
            _("{name} {plays} « {what} » : {cost} ⚫, il {lui} en reste {left} cette manche.").format(
                name=who.Subject, plays=plays, what=what, cost=cost, lui=who.lui, left=left
            )
        )
        return replace(foe, ap_left=left)
    story.append(
        _("{name} {plays} « {what} » sans en avoir les ⚫ ({points} pour {cost}) : plus aucun cette manche.").format(
            name=who.Subject, plays=plays, what=what, points=points, cost=cost
        )
    )
    return replace(foe, ap_left=0)


def _react(before: Foe, foe: Foe, what: str, story: list[str]) -> Foe:
    """Pay one ⚡ for ``what`` (a reaction, or Réflexes de prédateur's Frappe vive)."""
    who = foe_who(foe)
    left = max(0, before.reactions_now - 1)
    story.append(
        _("{name} {plays} « {what} » en réaction ⚡ : il {lui} en reste {left} cette manche.").format(
            name=who.Subject, plays=who.form("joue", "jouent"), what=what, lui=who.lui, left=left
        )
    )
    return replace(foe, reactions_left=left)


def _mental(pc: PcState, ups: int, downs: int, lines: list[str]) -> PcState:
    """Each 🔺/🔻 is absorbed by a Stabilité ◇ token first; then the PC's track moves (−3 … +3)."""
    tokens, track = pc.stability_tokens, pc.mental
    of_pc = pc_named(pc).de
    for sym, step, times in (("🔺", 1, ups), ("🔻", -1, downs)):
        for _k in range(times):
            if tokens > 0:
                tokens -= 1
                lines.append(
                    _("{sym} absorbé par un jeton ◇ {of} ({tokens}).").format(
                        sym=sym, of=of_pc, tokens=count(tokens, "jeton restant")
                    )
                )
            else:
                before = track
                track = max(MENTAL_MIN, min(MENTAL_MAX, track + step))
                lines.append(
                    _("{sym} : la piste mentale {of} passe de {a} à {b}.").format(
                        sym=sym, of=of_pc, a=signed(before, zero="0"), b=signed(track, zero="0")
                    )
                )
    return replace(pc, stability_tokens=tokens, mental=track)


def suffer(pc: PcState, numbers: Mapping[str, Any]) -> tuple[PcState, list[str]]:
    """What an adversary's card did to the PC (``pc_*`` numbers of the result)."""
    lines: list[str] = []
    who = pc_named(pc)
    light, heavy = _num(numbers, "pc_light"), _num(numbers, "pc_heavy")
    if light or heavy:
        pc = replace(pc, light=min(99, pc.light + light), heavy=min(99, pc.heavy + heavy))
        got = " ".join(t for t in (f"{light} 💢" if light else "", f"{heavy} 💔" if heavy else "") if t)
        lines.append(
            _("{name} {takes} {got} (en tout {l} 💢, {h} 💔).").format(
                name=who.Subject, takes=who.form("encaisse", "encaissent"), got=got, l=pc.light, h=pc.heavy
            )
        )
    fatigue = _num(numbers, "pc_fatigue")
    if fatigue:
        least = max(1, _num(numbers, "pc_fatigue_min_boxes"))
        spent = min(pc.endurance_tokens, max(0, fatigue - least))
        boxes = max(least, fatigue - spent)
        room = pc.fatigue_boxes - pc.fatigue_ticked
        ticked = min(boxes, room)
        pc = replace(pc, endurance_tokens=pc.endurance_tokens - spent, fatigue_ticked=pc.fatigue_ticked + ticked)
        lines.append(
            _("{name} : {f} 💧, {spent}, {boxes} ({t}/{n}).").format(
                name=who.Subject,
                f=fatigue,
                spent=count(spent, "jeton 🫁 dépensé"),
                boxes=count(ticked, "case cochée"),
                t=pc.fatigue_ticked,
                n=pc.fatigue_boxes,
            )
        )
        if pc.exhausted:
            lines.append(
                _("{name} {is_} {exhausted} : hors de combat.").format(
                    name=who.Subject, is_=who.form("est", "sont"), exhausted=who.agree("Épuisé")
                )
            )
    pc = _mental(pc, _num(numbers, "pc_up"), _num(numbers, "pc_down"), lines)
    bleed = _num(numbers, "pc_bleed")
    if bleed:
        pc = replace(pc, bleeding=min(20, pc.bleeding + bleed))
        lines.append(
            _("{name} {bleeds} : {tokens} 🩸.").format(
                name=who.Subject, bleeds=who.form("saigne", "saignent"), tokens=count(pc.bleeding, "jeton")
            )
        )
    if numbers.get("pc_stunned") and not pc.stunned:
        pc = replace(pc, stunned=True)
        lines.append(
            _("{name} {is_} {stunned} 🫨.").format(
                name=who.Subject, is_=who.form("est", "sont"), stunned=who.agree("Sonné")
            )
        )
    if numbers.get("pc_entangled") and not pc.entangled:
        pc = replace(pc, entangled=True)
        lines.append(
            _("{name} {is_} {bound} 🕸️.").format(
                name=who.Subject, is_=who.form("est", "sont"), bound=who.agree("Entravé")
            )
        )
    return pc, lines


def standing_line(foe: Adversary) -> str:
    """What the creature still has, in one line (never what it lost)."""
    who = foe_who(foe)
    if foe.kind is SheetKind.HORDE:
        return _("{name} : {members} debout, {tokens} 🕷️, {mood}.").format(
            name=who.Subject,
            members=count(members(foe), "membre"),
            tokens=count(horde_tokens(foe), "jeton"),
            mood=horde_mood(foe).label,
        )
    intact = sum(1 for b in foe.blocks if b.intact)
    return _("{name} : {left} ▢ sur {total}, {intact} sur {n}, fatigue {f}/{fb}.").format(
        name=who.Subject,
        left=count(boxes_left(foe), "case"),
        total=total_boxes(foe),
        intact=count(intact, "bloc intact"),
        n=len(foe.blocks),
        f=foe.fatigue_ticked,
        fb=foe.fatigue_boxes,
    )


def _share_spent(foe: Foe, spent: int, allies: tuple[Fighter, ...], states: dict[str, Any], story: list[str]) -> Foe:
    """Esprit de ruche: the shared ◇ spent come off the allies first, then off ``foe``'s own field."""
    for ally in allies:
        if spent <= 0:
            break
        other: Foe = states.get(ally.key, ally.state)
        if not other.traits.hive_mind or other.stability_tokens <= 0:
            continue
        take = min(spent, other.stability_tokens)
        spent -= take
        states[ally.key] = replace(other, stability_tokens=other.stability_tokens - take)
        giver = foe_who(other)
        story.append(
            _("{ally} {gives} {n} ◇ à la réserve commune (Esprit de ruche).").format(
                ally=giver.Subject, gives=giver.form("cède", "cèdent"), n=take
            )
        )
    return replace(foe, allied_stability=max(0, foe.allied_stability - spent))


def apply(scenario: Scenario, result: Result, bindings: Bindings, clock: Clock) -> Applied:
    """Write the exchange back: the adversary's sheet, its ⚫/⚡ spent, whom it is engaged with, the
    hive's shared ◇; the PC's Garde or attack score, and what the card did to it."""
    s, n = scenario, result.numbers
    states: dict[str, Any] = {}
    story: list[str] = []
    notes: list[str] = []
    pc_bound = bindings.get("pc", ())
    allies = bindings.get("allies", ())
    if adversary := bindings.get("adversary", ()):
        f = adversary[0]
        before: Foe = f.state
        after = sheet_after(result, notes)
        foe = with_sheet(before, after) if after is not None else before
        card = s.played_card() if s.mode is Mode.ADVERSARY_ATTACK else None
        if card is not None and s.play is not Play.ACTION:
            foe = _react(before, foe, card.name, story)
        elif card is not None:
            foe = _spend(before, foe, card_cost(s.adversary, card), card.name, story)
        elif s.mode is Mode.COURSE:
            foe = _spend(before, foe, _num(n, "cost") or 1, _("Course"), story)
        elif s.mode is Mode.HYPNOTIC_GAZE:
            foe = _spend(before, foe, _num(n, "cost") or 1, _("Regard hypnotique"), story)
        elif s.mode is Mode.ROUND:
            foe = replace(foe, ap_left=None, reactions_left=None)
            who = foe_who(foe)
            notes.append(
                _("Fin de manche appliquée à la main pour {name} {alone}.").format(
                    name=who.subject, alone=who.agree("seul")
                )
            )
        if after is not None:
            spent = s.adversary.allied_stability - after.allied_stability
            foe = replace(foe, allied_stability=before.allied_stability)
            if spent > 0 and s.adversary.traits.hive_mind:
                foe = _share_spent(foe, spent, allies, states, story)
        # an exchange engages the two; a move without a roll (Bande II) does not
        struck = s.mode in (Mode.PC_ATTACK, Mode.HYPNOTIC_GAZE) or "garde" in n
        if pc_bound and struck:
            foe = _engage(foe, pc_bound[0].state.name)
        if s.mode is Mode.PC_ATTACK:
            story.append(standing_line(foe))
        states[f.key] = _bounded(foe, notes)
    if pc_bound:
        p = pc_bound[0]
        pc: PcState = p.state
        if s.mode is Mode.ADVERSARY_ATTACK and "garde" in n:
            pc = replace(pc, garde=max(0, min(40, _num(n, "garde"))))
            pc, lines = suffer(pc, n)
            story += lines
        elif s.mode is Mode.PC_ATTACK and "score" in n:
            pc = replace(pc, attack=max(0, min(40, _num(n, "score"))))
        elif s.mode is Mode.HYPNOTIC_GAZE:
            pc = replace(pc, stability_tokens=0, entangled=True)
        elif s.mode is Mode.ROUND and "pc_stability_after" in n:
            lines = []
            pc = replace(pc, stability_tokens=min(pc.stability_tokens, _num(n, "pc_stability_after")))
            if _num(n, "pc_down"):
                pc = _mental(replace(pc, stability_tokens=0), 0, _num(n, "pc_down"), lines)
            story += lines
        states[p.key] = _bounded(pc, notes)
    return Applied(states=states, story=_shown(story), notes=_shown(notes))


# --- the round -----------------------------------------------------------------------------------------


def _pc_for_engine(pc: PcState | None) -> Pc:
    if pc is None:
        return Pc()
    return Pc(
        name=pc.name,
        grammar=pc.grammar,
        bleeding=pc.bleeding > 0,
        endurance_tokens=pc.endurance_tokens,
        stability_tokens=pc.stability_tokens,
    )


def _round_of(foe: Foe, pc: PcState | None, table: Scenario) -> Result:
    """The engine's round boundary for one adversary (``mode = round``), with the table's settings."""
    s = Scenario(
        mode=Mode.ROUND,
        adversary=to_sheet(foe),
        pc=_pc_for_engine(pc),
        faces=table.faces,
        pc_faces=table.pc_faces,
        settings=table.settings,
    )
    return resolve(s, DiceRoll({}))


def _pc_round(pc: PcState, clock: Clock, table: Scenario, story: list[str]) -> PcState:
    """A PC's end of round (bleeding, states that end) and start of the next (its tokens back)."""
    who = pc_named(pc)
    if clock.pc_bleed and pc.bleeding:
        light = min(99, pc.light + pc.bleeding)
        story.append(
            _("{name} {bleeds} : {n} 💢 sans armure (en tout {l}), la plaie se referme d'un cran.").format(
                name=who.Subject, bleeds=who.form("saigne", "saignent"), n=pc.bleeding, l=light
            )
        )
        pc = replace(pc, light=light, bleeding=pc.bleeding - 1)
    if clock.stunned_ends and pc.stunned:
        pc = replace(pc, stunned=False)
        story.append(states_end(who, "stunned"))
    if clock.entangled_ends and pc.entangled:
        pc = replace(pc, entangled=False)
        story.append(states_end(who, "entangled"))
    stack = table.settings.tokens_accumulate
    endurance = min(20, pc.endurance_tokens + pc.endurance if stack else pc.endurance)
    stability = min(20, pc.stability_tokens + pc.stability if stack else pc.stability)
    if (endurance, stability) != (pc.endurance_tokens, pc.stability_tokens):
        story.append(
            _("{name} {finds} {tokens} : 🫁 {e} · ◇ {s}.").format(
                name=who.Subject,
                finds=who.form("retrouve", "retrouvent"),
                tokens=who.ses("jetons"),
                e=endurance,
                s=stability,
            )
        )
    return replace(pc, endurance_tokens=endurance, stability_tokens=stability)


def _foe_round(
    f: Fighter,
    clock: Clock,
    table: Scenario,
    pcs: dict[str, tuple[str, PcState]],
    story: list[str],
    notes: list[str],
) -> Foe:
    """An adversary's end of round through the engine, then the Aura de terreur on the engaged PCs."""
    foe: Foe = f.state
    engaged = [pcs[name] for name in _engaged_names(foe) if name in pcs]
    result = _round_of(foe, engaged[0][1] if engaged else None, table)
    after = sheet_after(result, notes)
    new = with_sheet(foe, after) if after is not None else foe
    new = replace(new, ap_left=None, reactions_left=None)
    n = result.numbers
    who = foe_who(foe)
    if _num(n, "bleed_ticked"):
        story.append(
            _("{name} {bleeds} : {boxes} sur {wounds}, il {lui} reste {tokens} 🩸.").format(
                name=who.Subject,
                bleeds=who.form("saigne", "saignent"),
                boxes=count(_num(n, "bleed_ticked"), "case cochée"),
                wounds=who.ses("blessures ouvertes"),
                lui=who.lui,
                tokens=count(new.bleeding, "jeton"),
            )
        )
        for event in result.events_of("block_destroyed"):
            story.append(_("{label} : {lost}.").format(label=event.label, lost=event.value))
    if result.outcome == "destroyed":
        story.append(_("L'hémorragie achève {name}.").format(name=who.subject))
    if clock.stunned_ends and new.stunned:
        new = replace(new, stunned=False)
        story.append(states_end(who, "stunned"))
    if clock.entangled_ends and new.entangled:
        new = replace(new, entangled=False)
        story.append(states_end(who, "entangled"))
    if not destroyed(new) and not exhausted(new):
        story.append(regen_line(new))
    if foe.traits.terror_aura:
        for i, (key, pc) in enumerate(engaged):
            numbers = n if i == 0 else _round_of(foe, pc, table).numbers
            if "pc_stability_after" not in numbers:
                continue
            lines: list[str] = []
            target = pc_named(pc)
            if _num(numbers, "pc_down"):
                pc = _mental(replace(pc, stability_tokens=0), 0, _num(numbers, "pc_down"), lines)
                story.append(
                    _("Aura de terreur {of} : {pc} n'{has} plus de ◇.").format(
                        of=who.de, pc=target.subject, has=target.form("a", "ont")
                    )
                )
                story += lines
            else:
                pc = replace(pc, stability_tokens=_num(numbers, "pc_stability_after"))
                story.append(
                    _("Aura de terreur {of} : {pc} {loses} 1 ◇ ({tokens}).").format(
                        of=who.de,
                        pc=target.subject,
                        loses=target.form("perd", "perdent"),
                        tokens=count(pc.stability_tokens, "jeton restant"),
                    )
                )
            pcs[pc.name] = (key, pc)
    return new


def regen_line(foe: Foe) -> str:
    """The new round's resources, as the sheet shows them (what it still has)."""
    bits = [_("⚫ {n}").format(n=foe.action_points)]
    if reaction_max(foe):
        bits.append(_("⚡ {n}").format(n=reaction_max(foe)))
    for cap, sym, value in (
        (Capability.ENDURANCE, "🫁", foe.endurance_tokens),
        (Capability.EVASION, "🍀", foe.evasion_tokens),
        (Capability.STABILITY, "◇", foe.stability_tokens),
    ):
        if capability_design(foe, cap) or value:
            bits.append(f"{sym} {value}")
    who = foe_who(foe)
    return _("{name} {breathes} : {bits}.").format(
        name=who.Subject, breathes=who.form("reprend son souffle", "reprennent leur souffle"), bits=" · ".join(bits)
    )


def advance(fighters: tuple[Fighter, ...], clock: Clock, table: Scenario) -> Applied:
    """End of the round, start of the next: the PCs bleed and get their tokens back, then every
    adversary goes through the engine's round boundary (bleeding, regeneration from intact blocks,
    Aura de terreur on the PCs it is engaged with) and gets its ⚫/⚡ back."""
    states: dict[str, Any] = {}
    story: list[str] = []
    notes: list[str] = []
    pcs: dict[str, tuple[str, PcState]] = {}
    for f in fighters:
        if f.kind == PJ:
            pcs[f.state.name] = (f.key, _pc_round(f.state, clock, table, story))
    for f in fighters:
        if f.kind != ADV or destroyed(f.state):
            continue
        new = _foe_round(f, clock, table, pcs, story, notes)
        if new != f.state:
            states[f.key] = _bounded(new, notes)
    originals = {f.key: f.state for f in fighters}
    for key, pc in pcs.values():
        if pc != originals.get(key):
            states[key] = _bounded(pc, notes)
    new_clock = replace(clock, round=clock.round + 1)
    story.insert(0, _("{label} : la manche {n} commence.").format(label=advance_label(clock), n=new_clock.round))
    return Applied(states=states, clock=new_clock, story=_shown(story), notes=_shown(notes))


def clock_label(clock: Clock) -> str:
    return _("Manche {n}").format(n=clock.round)


def advance_label(clock: Clock) -> str:
    return _("Fin de la manche {n}").format(n=clock.round)


# --- what the encounter page shows -----------------------------------------------------------------------


def is_out(f: Fighter) -> bool:
    if f.kind == ADV:
        return destroyed(f.state) or exhausted(f.state)
    return bool(f.state.exhausted)


def bars(f: Fighter) -> tuple[Bar, ...]:
    if f.kind == PJ:
        pc: PcState = f.state
        return (
            Bar("garde", _("Garde"), pc.garde, 0, "resource"),
            Bar("endurance_tokens", _("Endurance 🫁"), pc.endurance_tokens, pc.endurance, "resource"),
            Bar("stability_tokens", _("Stabilité ◇"), pc.stability_tokens, pc.stability, "resource"),
            Bar(
                "fatigue_ticked",
                _("Fatigue 💧 cochée (sur {n})").format(n=pc.fatigue_boxes),
                pc.fatigue_ticked,
                0,
                "stress",
            ),
            Bar("light", _("Blessures légères 💢"), pc.light, 0, "danger"),
            Bar("heavy", _("Blessures graves 💔"), pc.heavy, 0, "danger"),
            Bar("bleeding", _("Hémorragie 🩸"), pc.bleeding, 0, "danger"),
        )
    foe: Foe = f.state
    out: list[Bar] = []
    if foe.kind is SheetKind.HORDE:
        out.append(
            Bar(
                "boxes_left",
                _("Membres ({tokens} 🕷️)").format(tokens=count(horde_tokens(foe), "jeton")),
                members(foe),
                total_boxes(foe),
            )
        )
    else:
        intact = sum(1 for b in foe.blocks if b.intact)
        out.append(
            Bar(
                "boxes_left",
                _("Cases ▢ ({k}/{n} blocs intacts)").format(k=intact, n=len(foe.blocks)),
                boxes_left(foe),
                total_boxes(foe),
            )
        )
        if foe.fatigue_boxes:
            out.append(
                Bar(
                    "fatigue_left",
                    typography(_("Fatigue 💧 : cases libres")),
                    foe.fatigue_boxes - foe.fatigue_ticked,
                    foe.fatigue_boxes,
                    "stress",
                )
            )
    for cap, field, label in (
        (Capability.ENDURANCE, "endurance_tokens", _("Endurance 🫁")),
        (Capability.EVASION, "evasion_tokens", _("Évasion 🍀")),
        (Capability.STABILITY, "stability_tokens", _("Stabilité ◇")),
    ):
        value = int(getattr(foe, field))
        if capability_design(foe, cap) or value or (field == "stability_tokens" and foe.kind is SheetKind.HORDE):
            out.append(Bar(field, label, value, capability_total(foe, cap), "resource"))
    out.append(Bar("ap_left", _("Points d'action ⚫ cette manche"), foe.points, foe.action_points, "resource"))
    if reaction_max(foe):
        out.append(
            Bar("reactions_left", _("Réactions ⚡ cette manche"), foe.reactions_now, reaction_max(foe), "resource")
        )
    if foe.bleeding:
        out.append(Bar("bleeding", _("Hémorragie 🩸"), foe.bleeding, 0, "danger"))
    return tuple(out)


def badges(f: Fighter, clock: Clock, table: Scenario) -> tuple[str, ...]:
    out: list[str] = []
    if f.kind == PJ:
        pc: PcState = f.state
        who = pc_named(pc)
        if pc.exhausted:
            out.append(_("{exhausted} — hors de combat").format(exhausted=who.agree("Épuisé")))
        if pc.mental:
            side = _("colère") if pc.mental > 0 else _("peur")
            out.append(_("piste mentale {n} ({side})").format(n=signed(pc.mental), side=side))
        return _shown(out)
    foe: Foe = f.state
    who = foe_who(foe)
    if destroyed(foe):
        if foe.kind is SheetKind.HORDE:
            return (_("anéantie"),)
        return (_("toutes {parts} sont détruites").format(parts=who.ses("parties")),)
    if exhausted(foe):
        out.append(_("{exhausted} — hors de combat").format(exhausted=who.agree("Épuisé")))
    if foe.kind is SheetKind.HORDE:
        out += [_("horde 🕷️"), horde_mood(foe).label]
    else:
        out.append(foe.mental.label)
    out.append(_("Garde {type} {g}").format(type=foe.guard_type.label, g=max(0, foe.guard + guard_modifier(foe))))
    deck = [_("{card} {n} ⚫").format(card=c.name, n=card_cost(foe, c)) for c in foe.deck if card_available(foe, c)]
    out.append(_("Deck : {cards}").format(cards=", ".join(deck) or _("plus aucune action")))
    out.append(_("menace 💀 {n}").format(n=int(threat(to_sheet(foe), current=True).value)))
    if foe.engaged:
        out.append(
            _("{engaged} avec {names}").format(
                engaged=who.agree("engagé"), names=join([pc_who(n, PROPER_M).subject for n in _engaged_names(foe)])
            )
        )
    return _shown(out)


def status(fighters: tuple[Fighter, ...], clock: Clock) -> tuple[str, ...]:
    foes = [f for f in fighters if f.kind == ADV]
    pcs = [f for f in fighters if f.kind == PJ]
    if foes and all(is_out(f) for f in foes):
        return _shown([_("Plus aucun adversaire ne tient (détruit ou épuisé) : le combat s'achève.")])
    if pcs and all(is_out(f) for f in pcs):
        return _shown(
            [_("Tous les personnages sont Épuisés : le combat se règle par la fiction (fuite, capture, reddition).")]
        )
    return ()


ERROR_NO_BOX_LEFT = "Cases ▢ : il n'en reste aucune à cocher."
ERROR_NO_BOX_TICKED = "Cases ▢ restantes : au plus {n}."
ERROR_NO_FATIGUE_LEFT = "Fatigue 💧 : toutes les cases sont cochées."
ERROR_NO_FATIGUE_TICKED = "Cases de fatigue libres : au plus {n}."


def adjust(f: Fighter, field: str, delta: int) -> Foe | None:
    """The sheet's gauges tick what the sheet stores: a box lost by hand goes where bleeding would
    put it (the most damaged intact block; a horde: its first member left), a box given back comes
    off the most ticked block (a horde: its last group with a member down); fatigue likewise."""
    if f.kind != ADV or field not in ("boxes_left", "fatigue_left"):
        return None
    foe: Foe = f.state
    if field == "fatigue_left":
        ticked = foe.fatigue_ticked - delta
        if ticked > foe.fatigue_boxes:
            raise ScenarioError({field: _(ERROR_NO_FATIGUE_LEFT)})
        if ticked < 0:
            raise ScenarioError({field: _(ERROR_NO_FATIGUE_TICKED).format(n=foe.fatigue_boxes)})
        return replace(foe, fatigue_ticked=ticked)
    boxes = [b.ticked for b in foe.blocks]
    if delta < 0 and not _tick_one(foe, boxes):
        raise ScenarioError({field: _(ERROR_NO_BOX_LEFT)})
    if delta > 0 and not _untick_one(foe, boxes):
        raise ScenarioError({field: _(ERROR_NO_BOX_TICKED).format(n=total_boxes(foe))})
    return replace(foe, blocks=tuple(replace(b, ticked=t) for b, t in zip(foe.blocks, boxes, strict=True)))


def foe_from_preset(values: Mapping[str, Any]) -> dict[str, Any]:
    """A bestiary preset (flat fields of ``adversary``, padded with blank rows) as a state."""
    data: dict[str, Any] = unflatten(dict(values))
    return data


RULES = register(
    EncounterRules(
        system="quadrature",
        kinds=(
            Kind(ADV, _("Adversaire"), Foe, preset_group="creature", from_preset=foe_from_preset),
            Kind(PJ, _("Personnage"), PcState, player=True),
        ),
        pages=(
            Page(
                slug="quadrature",
                label=_("Échange avec un adversaire"),
                roles=(
                    Role("adversary", _("Adversaire"), (ADV,)),
                    Role("pc", _("Personnage"), (PJ,), required=False),
                    Role(
                        "allies",
                        _("Alliés adjacents, s'ils partagent l'Esprit de ruche"),
                        (ADV,),
                        many=8,
                        required=False,
                    ),
                ),
                fill=fill,
                apply=apply,
                suggest=suggest,
                actor=("adversary", "pc"),
                order=order,
            ),
        ),
        clock_type=Clock,
        clock_label=clock_label,
        advance_label=advance_label,
        advance=advance,
        bars=bars,
        badges=badges,
        is_out=is_out,
        status=status,
        adjust=adjust,
        turns=turns,
        conditions=CONDITIONS,
    )
)
