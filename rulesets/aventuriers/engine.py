"""Aventuriers — resolution of one exchange (seed ``001_98d48faccdd02c66``, § « Combat »).

Order of the rules, as the engine applies them:

1. the board situation (zones, engagement, talent conditions) — may make the exchange impossible;
2. the attack roll: each 💥 may cost 1 PV; each ⚡ gives 1 stamina to an Aventurier, except on a
   flash attack roll (🛡 and ⚡ ignored); Coup bas adds its damage to a back attack;
3. the defence roll, made even when no 💥 was rolled; none against unblockable damage; a flash
   defence rolls one die per flash damage, capped at the defence dice, protections first, then the
   other dice in the order of the die table (black, then blue); each 🛡 blocks 1 💥;
4. PV lost, death, PX to the Aventurier who killed a monster;
5. the Riposte chained when its conditions hold (melee attack, defence rolled, no PV lost): each 🛡
   deals 1 flash damage to the attacker, Contrecoup adds 1; the attacker makes a flash defence;
6. the engagement kept for the next exchange.

:func:`plan` reads everything that does not depend on the dice; :mod:`.odds` uses the same plan
and the same step functions, so the odds and a roll never disagree.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from rulesets.aventuriers.model import (
    Action,
    DiceGroup,
    DieType,
    Entry,
    Face,
    Fighter,
    Mode,
    Rules,
    Scenario,
    Totals,
)
from rulesets.aventuriers.speech import damage_count, dice_count, fighter
from rulesets.aventuriers.zones import RULE_ENGAGEMENT, RULE_RANGED, RULE_ZONES, ZoneReport, report
from rulesets.core.dice import DiceRoll, DiceSlot, DiceSpec, Die, Symbols
from rulesets.core.french import Counted, count, join, parenthesize, quote, signed
from rulesets.core.i18n import _
from rulesets.core.results import Event, Number, Result

RULE_ROLLS = _("Jets d'attaque et de défense — Livret Aventure, p. 17")
RULE_UNBLOCKABLE = _("Dégâts imparables — Livret Aventure, p. 17 et 18")
RULE_MELEE = _("Attaque de mêlée — Livret Aventure, p. 18")
RULE_FLASH = _("Dégâts-éclairs — Livret Aventure, p. 19")
RULE_TALENTS = _("Talents de réaction — Livret Aventure, p. 20")
RULE_TEST = _("Test de réussite — Livret Aventure, p. 22")
RULE_TYPES = _("Types d'action de combat — Livret Aventure, p. 17")
RULE_DECISION = _("Décision du projet (docs/rules/aventuriers.md)")

G_SITUATION = _("Situation")
G_ATTACK = _("Jet d'attaque")
G_DEFENCE = _("Jet de défense")
G_DAMAGE = _("Dégâts et PV")
G_RIPOSTE = _("Riposte")
G_STAMINA = _("Stamina")
G_ENGAGEMENT = _("Engagement")
G_TEST = _("Test de réussite")

OUTCOME_LABELS = {
    "tue": _("Cible tuée"),
    "blesse": _("Cible blessée"),
    "indemne": _("Cible indemne"),
    "impossible": _("Attaque impossible"),
    "aucun_eclair": _("Aucun éclair"),
    "un_eclair": _("Un éclair"),
    "deux_eclairs": _("Deux éclairs"),
}
OUTCOME_TONES = {
    "tue": "success",
    "blesse": "partial",
    "indemne": "failure",
    "impossible": "neutral",
    "aucun_eclair": "failure",
    "un_eclair": "partial",
    "deux_eclairs": "success",
}


# --- dice --------------------------------------------------------------------------------------


def core_die(die: DieType) -> Die:
    """A die type of the scenario as a core symbol die: faces numbered 1..n, labelled with their
    symbols ("3 (💥💥)") so that a refused entry lists them."""
    return Die(
        name=die.name,
        faces=tuple(range(1, len(die.faces) + 1)),
        symbols=tuple(Symbols.of(degats=f.damage, bouclier=f.shield, eclair=f.lightning) for f in die.faces),
        face_labels=tuple(f"{i} ({face.describe()})" for i, face in enumerate(die.faces, start=1)),
    )


def expand(scenario: Scenario, groups: Sequence[DiceGroup]) -> tuple[DieType, ...]:
    """The dice of a roll, one per die, in the order of the groups."""
    out: list[DieType] = []
    for group in groups:
        die = scenario.die(group.die)
        if die is not None:
            out.extend([die] * group.count)
    return tuple(out)


def defence_order(scenario: Scenario, groups: Sequence[DiceGroup]) -> tuple[DieType, ...]:
    """The defence dice in the flash-defence order: equipped protections first, then the other
    dice in the order of the die table (``die_types``: by default black, then blue) — Livret Aventure, p. 19."""
    rank = {d.key: i for i, d in enumerate(scenario.die_types)}
    protections = [g for g in groups if g.protection]
    others = sorted((g for g in groups if not g.protection), key=lambda g: rank.get(g.die, len(rank)))
    return expand(scenario, protections + others)


@dataclass(frozen=True, slots=True)
class Symbols3:
    """Totals of a roll: 💥, 🛡, ⚡."""

    damage: int = 0
    shield: int = 0
    lightning: int = 0

    @classmethod
    def of(cls, faces: Sequence[Face]) -> Symbols3:
        return cls(sum(f.damage for f in faces), sum(f.shield for f in faces), sum(f.lightning for f in faces))

    @classmethod
    def typed(cls, totals: Totals) -> Symbols3:
        return cls(totals.damage, totals.shield, totals.lightning)

    def text(self) -> str:
        return _("{d} 💥, {s} 🛡, {l} ⚡").format(d=self.damage, s=self.shield, l=self.lightning)


# --- the plan: everything that does not depend on the dice ---------------------------------------


@dataclass(frozen=True, slots=True)
class Plan:
    """What the exchange will roll, known before any die."""

    action: Action
    allowed: bool
    reasons: tuple[str, ...]
    zones: ZoneReport
    flash: bool  # the attack deals flash damage (reaction talent or flash spell)
    defence_roll: bool  # the target rolls a defence (not against unblockable damage)
    back_attack: bool
    bonus: int  # Coup bas damage
    riposte_possible: bool  # Riposte may chain (melee attack, defence rolled, talent)
    attack_dice: tuple[DieType, ...]
    defence_dice: tuple[DieType, ...]  # target, flash-defence order
    counter_dice: tuple[DieType, ...]  # attacker's defence, flash-defence order (Riposte)
    talent: str  # "", "attaque_eclair" or "attaque_opportunite"


def plan(scenario: Scenario) -> Plan:
    """Read the situation: which rolls the exchange needs and whether the rules allow it."""
    attacker, weapon = scenario.attacker, scenario.attacker.weapon
    zones = report(scenario.board, scenario.rules.zone_shape, weapon.diagonals)
    reasons: list[str] = []
    talent = ""
    action = scenario.action
    mode = scenario.mode if action is Action.ATTACK else Mode.MELEE
    if action is Action.ATTACK:
        reasons.extend(zones.reasons(scenario.mode))
        flash = weapon.flash
    elif action is Action.LEAVE_ZONE:
        talent = "attaque_eclair"
        if not attacker.attaque_eclair:
            reasons.append(_("l'attaquant n'a pas le talent Attaque éclair"))
        if zones.engaged:
            reasons.append(_("l'attaquant est engagé au combat"))
        if not zones.in_attack_zone:
            reasons.append(_("la cible n'était pas dans sa zone d'attaque"))
        flash = True
    elif action is Action.PHASE_START:
        talent = "attaque_opportunite"
        if not attacker.attaque_opportunite:
            reasons.append(_("l'attaquant n'a pas le talent Attaque d'opportunité"))
        if zones.engaged:
            reasons.append(_("l'attaquant est engagé au combat au début de la phase des Aventuriers"))
        if not zones.in_attack_zone:
            reasons.append(_("la cible n'est pas dans sa zone d'attaque"))
        flash = True
    else:
        flash = False
    allowed = not reasons or not scenario.board.enforce
    test = action is Action.SUCCESS_TEST
    back = zones.back_attack and not test
    bonus = scenario.rules.coup_bas_bonus if back and attacker.coup_bas and action is Action.ATTACK and not flash else 0
    defence_roll = not test and not weapon.unblockable
    riposte_possible = (
        action is Action.ATTACK and mode is Mode.MELEE and not flash and defence_roll and scenario.defender.riposte
    )
    return Plan(
        action=action,
        allowed=allowed,
        reasons=tuple(reasons),
        zones=zones,
        flash=flash,
        defence_roll=defence_roll,
        back_attack=back,
        bonus=bonus,
        riposte_possible=riposte_possible,
        attack_dice=() if test else expand(scenario, weapon.dice),
        defence_dice=defence_order(scenario, scenario.defender.defence) if defence_roll else (),
        counter_dice=defence_order(scenario, attacker.defence) if riposte_possible else (),
        talent=talent,
    )


# --- step functions shared with the odds ---------------------------------------------------------


def flash_dice_count(flash_damage: int, defence_dice: int) -> int:
    """Dice of a flash defence: one per flash damage, within the limit of the defence roll."""
    return min(flash_damage, defence_dice)


def unblocked(damage: int, shields: int) -> int:
    """Each 🛡 blocks 1 💥; each 💥 not blocked costs 1 PV."""
    return max(0, damage - shields)


def riposte_damage(shields: int, defender: Fighter, rules: Rules) -> int:
    """Riposte: 1 flash damage per 🛡 of the defence; Contrecoup adds 1."""
    extra = 1 if defender.contrecoup and (shields > 0 or rules.contrecoup_without_shield) else 0
    return shields + extra


def counts_stamina(fighter: Fighter, rules: Rules) -> bool:
    return fighter.is_aventurier or rules.monster_stamina


def stamina_after(fighter: Fighter, gained: int) -> int:
    total = fighter.stamina + gained
    return min(total, fighter.stamina_max) if fighter.stamina_max else total


def success_tier(lightning: int) -> str:
    """Success test: the effect for 0, 1 or 2 ⚡ (more than 2 reads as 2)."""
    return ("aucun_eclair", "un_eclair", "deux_eclairs")[min(lightning, 2)]


# --- typed totals (entry by totals): what the dice rolled can show together ----------------------

Triple = tuple[int, int, int]
SYMBOLS = ("damage", "shield", "lightning")


@lru_cache(maxsize=32)  # ten dice of twelve faces: some 160,000 triples, about 15 MB each
def reachable(dice: tuple[DieType, ...]) -> frozenset[Triple]:
    """Every (💥, 🛡, ⚡) these dice can show together, one face per die (issue 14).

    « la cible lance les dés de son jet de défense et cherche des boucliers », « Chaque dégât
    obtenu » (Livret Aventure, p. 17): a total is what the faces of the dice rolled show, so a
    total no combination of their faces gives is not a roll."""
    sums: set[Triple] = {(0, 0, 0)}
    for die in dice:
        faces = {(f.damage, f.shield, f.lightning) for f in die.faces}
        sums = {(a + d, b + s, c + n) for a, b, c in sums for d, s, n in faces}
    return frozenset(sums)


@lru_cache(maxsize=32)
def reachable_on(dice: tuple[DieType, ...], axes: tuple[int, ...]) -> frozenset[tuple[int, ...]]:
    """:func:`reachable` read on some symbols only (``axes``: their indices in ``SYMBOLS``), kept:
    ten dice of twelve faces show some 160,000 triples, projected anew on every request before
    (issue 18, the worst-case suite)."""
    whole = reachable(dice)
    if axes == tuple(range(len(SYMBOLS))):
        return whole
    return frozenset(tuple(t[i] for i in axes) for t in whole)


@dataclass(frozen=True, slots=True)
class TypedRoll:
    """A roll typed as totals: its field, the totals, and the dice this exchange rolls for it
    (``None``: the exchange makes no such roll, ``why`` says so)."""

    path: str
    totals: Totals
    dice: tuple[DieType, ...] | None
    cap: int = 0  # dice of the whole roll (a flash defence rolls only the first ones)
    why: str = ""
    read: tuple[str, ...] = SYMBOLS  # the symbols this roll counts; another one left at 0 is not read


def typed_rolls(scenario: Scenario) -> tuple[TypedRoll, ...]:
    """The rolls of an exchange entered by totals, each with the dice it really rolls: the whole
    attack roll; the whole defence, or one die per flash damage within its limit (« autant de dés
    que de dégâts-éclairs subis, dans la limite de son jet de défense », Livret Aventure, p. 19);
    the attacker's flash defence when the Riposte chains. Same steps as :func:`resolve`."""
    if scenario.action is Action.SUCCESS_TEST:
        return ()
    p = plan(scenario)
    if not p.allowed:
        return ()
    attacker, defender, rules = scenario.attacker, scenario.defender, scenario.rules
    stamina = ("lightning",)
    attack_read = ("damage", *(stamina if not p.flash and counts_stamina(attacker, rules) else ()))
    rolls = [TypedRoll("attack_totals", scenario.attack_totals, p.attack_dice, len(p.attack_dice), read=attack_read)]
    defence_read = ("shield", *(stamina if counts_stamina(defender, rules) else ()))
    counter_read = ("shield", *(stamina if counts_stamina(attacker, rules) else ()))
    damage = scenario.attack_totals.damage + p.bonus
    shields = 0
    if p.defence_roll:
        cap = len(p.defence_dice)
        used = flash_dice_count(damage, cap) if p.flash else cap
        rolls.append(
            TypedRoll("defence_totals", scenario.defence_totals, p.defence_dice[:used], cap, read=defence_read)
        )
        shields = scenario.defence_totals.shield
    else:
        why = _("dégâts imparables, la cible ne lance pas de défense")
        rolls.append(TypedRoll("defence_totals", scenario.defence_totals, None, why=why))
    through = unblocked(damage, shields) if p.defence_roll else damage
    if p.riposte_possible and min(through, defender.pv) == 0 and through < defender.pv:
        flash_back = riposte_damage(shields, defender, rules)
        cap = len(p.counter_dice)
        used = flash_dice_count(flash_back, cap)
        rolls.append(
            TypedRoll("riposte_totals", scenario.riposte_totals, p.counter_dice[:used], cap, read=counter_read)
        )
    else:
        why = _("pas de Riposte dans cet échange")
        rolls.append(TypedRoll("riposte_totals", scenario.riposte_totals, None, why=why))
    return tuple(rolls)


_LABELS = {"damage": _("Total 💥"), "shield": _("Total 🛡"), "lightning": _("Total ⚡")}
_SIGNS = {"damage": "💥", "shield": "🛡", "lightning": "⚡"}


def _or(values: Sequence[int]) -> str:
    return join([str(v) for v in values], _("ou"))


def totals_errors(scenario: Scenario) -> dict[str, str]:
    """Typed totals the dice rolled cannot show together, on their field, saying what the dice can
    show (issue 14: 3 💥 and 3 ⚡ from two blue dice are refused, each die shows one face)."""
    errors: dict[str, str] = {}
    for roll in typed_rolls(scenario):
        values = tuple(getattr(roll.totals, k) for k in SYMBOLS)
        if roll.dice is None or not roll.dice:
            if any(values):
                k = SYMBOLS[next(i for i, v in enumerate(values) if v)]
                why = roll.why or _("aucun dé n'est lancé pour ce jet")
                errors[f"{roll.path}.{k}"] = _("{label} : {why} ; laissez 0 (reçu {value}).").format(
                    label=_LABELS[k], why=why, value=getattr(roll.totals, k)
                )
            continue
        # the symbols read: those the roll counts, and any other typed (0 there means « not read »)
        axes = [i for i, k in enumerate(SYMBOLS) if k in roll.read or values[i]]
        reach = reachable_on(roll.dice, tuple(axes))
        typed = tuple(values[i] for i in axes)
        if typed in reach:
            continue
        n = len(roll.dice)
        if n < roll.cap:
            dice = _("le dé de la défense-éclair") if n == 1 else _("les {n} dés de la défense-éclair").format(n=n)
        else:
            dice = _("ce dé") if n == 1 else _("ces dés")
        can = _("ne peut") if n == 1 else _("ne peuvent")
        marginal = False
        for a, i in enumerate(axes):
            shown = sorted({t[a] for t in reach})
            if values[i] in shown:
                continue
            marginal = True
            if values[i] > shown[-1]:
                message = _("{label} : {dice} {can} pas en montrer plus de {most} (reçu {value}).")
            else:
                message = _("{label} : {dice} {can} montrer que {options} (reçu {value}).")
            errors[f"{roll.path}.{SYMBOLS[i]}"] = message.format(
                label=_LABELS[SYMBOLS[i]], dice=dice, can=can, most=shown[-1], options=_or(shown), value=values[i]
            )
        if marginal:
            continue
        # each total alone is possible, not together: blame the last one (⚡, then 🛡, then 💥) that
        # the others allow, and say what it could be with them
        for a in reversed(range(len(axes))):
            others = [b for b in range(len(axes)) if b != a]
            shown = sorted({t[a] for t in reach if all(t[b] == typed[b] for b in others)})
            if shown:
                k = SYMBOLS[axes[a]]
                errors[f"{roll.path}.{k}"] = _(
                    "{label} : avec {with_}, {dice} {can} montrer que {options} {sign} (reçu {value})."
                ).format(
                    label=_LABELS[k],
                    with_=join([f"{typed[b]} {_SIGNS[SYMBOLS[axes[b]]]}" for b in others]),
                    dice=dice,
                    can=can,
                    options=_or(shown),
                    sign=_SIGNS[k],
                    value=typed[a],
                )
                break
        else:
            errors[f"{roll.path}.{SYMBOLS[axes[0]]}"] = _("{label} : {dice} {can} pas montrer ensemble {all}.").format(
                label=_LABELS[SYMBOLS[axes[0]]],
                dice=dice,
                can=can,
                all=join([f"{typed[b]} {_SIGNS[SYMBOLS[axes[b]]]}" for b in range(len(axes))]),
            )
    return errors


# --- dice to read -------------------------------------------------------------------------------


def _slots(prefix: str, label: str, dice: Sequence[DieType]) -> tuple[DiceSlot, ...]:
    return tuple(
        DiceSlot(key=f"{prefix}.{i}", die=core_die(d), label=f"{label} — {d.name} n°{i}")
        for i, d in enumerate(dice, start=1)
    )


def dice_for(scenario: Scenario) -> DiceSpec:
    """The dice to read, in the order of the rules: attack, defence, then the attacker's flash
    defence against a Riposte (as many slots as its cap; only the first ones are read)."""
    if scenario.action is Action.SUCCESS_TEST:
        die = scenario.die(scenario.rules.success_die)
        if scenario.entry is Entry.TOTALS or die is None:
            return DiceSpec()
        return DiceSpec(
            (DiceSlot(key="test", die=core_die(die), label=_("Test de réussite — {die}").format(die=die.name)),)
        )
    p = plan(scenario)
    if scenario.entry is Entry.TOTALS or not p.allowed:
        return DiceSpec()
    defence_label = _("Défense-éclair") if p.flash else _("Défense")
    slots = _slots("attaque", _("Attaque"), p.attack_dice)
    slots += _slots("defense", defence_label, p.defence_dice)
    slots += _slots("riposte", _("Défense-éclair contre la Riposte"), p.counter_dice)
    return DiceSpec(slots)


def _faces(dice: DiceRoll, prefix: str, types: Sequence[DieType], count: int) -> tuple[Face, ...]:
    values = dice.of(prefix)
    return tuple(types[i].faces[values[i] - 1] for i in range(min(count, len(values), len(types))))


# --- resolution ---------------------------------------------------------------------------------


class _Log:
    def __init__(self) -> None:
        self.events: list[Event] = []

    def add(self, kind: str, label: str, value: object = "", rule: str = "", group: str = "", **data: object) -> None:
        self.events.append(Event(kind=kind, label=label, value=str(value), rule=rule, group=group, data=data))


def resolve(scenario: Scenario, dice: DiceRoll) -> Result:
    """Resolve the exchange with the dice read (or the totals typed)."""
    if scenario.action is Action.SUCCESS_TEST:
        return _success_test(scenario, dice)
    p = plan(scenario)
    log = _Log()
    numbers: dict[str, Number] = {}
    _situation(scenario, p, log, numbers)
    if not p.allowed:
        numbers.update(_untouched(scenario))
        return _result("impossible", numbers, log, dice)
    attacker, defender, rules = scenario.attacker, scenario.defender, scenario.rules
    by_totals = scenario.entry is Entry.TOTALS

    # 2. attack roll
    if by_totals:
        attack = Symbols3.typed(scenario.attack_totals)
        faces_text = _("totaux saisis")
    else:
        faces = _faces(dice, "attaque", p.attack_dice, len(p.attack_dice))
        attack = Symbols3.of(faces)
        faces_text = " · ".join(f.describe() for f in faces)
    weapon = attacker.weapon
    a_said, d_said = fighter(attacker), fighter(defender)
    roll_name = _("Jet d'attaque-éclair") if p.flash else _("Jet d'attaque")
    log.add(
        "attack_roll",
        _("{roll} ({weapon}, {n})").format(roll=roll_name, weapon=quote(weapon.name), n=dice_count(len(p.attack_dice))),
        attack.text(),
        RULE_FLASH if p.flash else RULE_ROLLS,
        G_ATTACK,
        damage=attack.damage,
        shield=attack.shield,
        lightning=attack.lightning,
        faces=faces_text,
        flash=p.flash,
    )
    damage = attack.damage
    attacker_gain = 0
    if p.flash:
        log.add(
            "flash_ignored",
            _("Attaque-éclair : 🛡 et ⚡ ignorés, pas de stamina"),
            str(damage_count(damage, flash=True)),
            RULE_FLASH,
            G_ATTACK,
        )
    elif counts_stamina(attacker, rules):
        attacker_gain = attack.lightning
        if attack.lightning:
            log.add(
                "stamina",
                _("Stamina {a:de} : ⚡ du jet d'attaque").format(a=a_said),
                signed(attack.lightning),
                RULE_ROLLS,
                G_STAMINA,
                who="attacker",
                gained=attack.lightning,
            )
    if p.bonus:
        damage += p.bonus
        log.add(
            "coup_bas", _("Coup bas (attaque de dos)"), f"{signed(p.bonus)} 💥", RULE_DECISION, G_ATTACK, bonus=p.bonus
        )

    # 3. defence roll
    shields = 0
    defender_gain = 0
    dice_used = 0
    if not p.defence_roll:
        log.add(
            "unblockable",
            _("Dégâts imparables : pas de jet de défense"),
            _("{n} 💥 {taken}").format(n=damage, taken=Counted(damage, _("subi")).word),
            RULE_UNBLOCKABLE,
            G_DEFENCE,
            damage=damage,
        )
    else:
        cap = len(p.defence_dice)
        dice_used = flash_dice_count(damage, cap) if p.flash else cap
        if by_totals:
            defence = Symbols3.typed(scenario.defence_totals)
            d_text = _("totaux saisis")
        else:
            d_faces = _faces(dice, "defense", p.defence_dice, dice_used)
            defence = Symbols3.of(d_faces)
            d_text = " · ".join(f.describe() for f in d_faces)
        shields = defence.shield
        if p.flash:
            log.add(
                "flash_defence",
                _("Jet de défense-éclair {d:de} : {n} sur {cap}").format(d=d_said, n=dice_count(dice_used), cap=cap),
                _("{s} 🛡, {l} ⚡").format(s=defence.shield, l=defence.lightning),
                RULE_FLASH,
                G_DEFENCE,
                dice=dice_used,
                cap=cap,
                order=" · ".join(d.name for d in p.defence_dice[:dice_used]),
                shield=defence.shield,
                lightning=defence.lightning,
                faces=d_text,
            )
        else:
            parts = [str(dice_count(dice_used))]
            if damage == 0:
                parts.append(_("même sans dégât"))
            elif damage >= defender.pv + sum(max(f.shield for f in d.faces) for d in p.defence_dice):
                parts.append(
                    _("même {d:certain|certaine|certains|certaines} d'être {d:tué|tuée|tués|tuées}").format(d=d_said)
                )
            log.add(
                "defence_roll",
                _("Jet de défense {d:de} {dice}").format(d=d_said, dice=parenthesize(", ".join(parts))),
                _("{s} 🛡, {l} ⚡").format(s=defence.shield, l=defence.lightning),
                RULE_ROLLS,
                G_DEFENCE,
                dice=dice_used,
                shield=defence.shield,
                lightning=defence.lightning,
                faces=d_text,
            )
        if counts_stamina(defender, rules):
            defender_gain = defence.lightning
            if defence.lightning:
                log.add(
                    "stamina",
                    _("Stamina {d:de} : ⚡ du jet de défense").format(d=d_said),
                    signed(defence.lightning),
                    RULE_FLASH if p.flash else RULE_ROLLS,
                    G_STAMINA,
                    who="defender",
                    gained=defence.lightning,
                )

    # 4. PV
    through = unblocked(damage, shields) if p.defence_roll else damage
    blocked = damage - through
    pv_lost = min(through, defender.pv)
    killed = through >= defender.pv
    log.add(
        "damage",
        (_("Dégâts-éclairs : {d} − {b}") if p.flash else _("Dégâts : {d} − {b}")).format(
            d=damage, b=count(blocked, _("bloqué"))
        ),
        count(pv_lost, _("PV perdu")),
        RULE_FLASH if p.flash else RULE_ROLLS,
        G_DAMAGE,
        damage=damage,
        blocked=blocked,
        unblocked=through,
        pv_lost=pv_lost,
        who="defender",
    )
    px_gained = 0
    if killed:
        if defender.side.value == "monstre" and attacker.is_aventurier:
            px_gained = defender.px
        log.add(
            "kill",
            _("{d:S} {d:est|sont} {d:tué|tuée|tués|tuées}").format(d=d_said),
            _("{px} pour {a}").format(px=count(px_gained, "PX", number=signed(px_gained)), a=a_said)
            if px_gained
            else _("0 PV"),
            RULE_MELEE,
            G_DAMAGE,
            px=px_gained,
        )
    else:
        log.add("pv_left", _("PV restants {d:de}").format(d=d_said), defender.pv - pv_lost, RULE_ROLLS, G_DAMAGE)

    # 5. Riposte (and Contrecoup)
    riposte = False
    flash_back = 0
    counter_used = 0
    attacker_pv_lost = 0
    attacker_killed = False
    defender_px = 0
    if p.riposte_possible and pv_lost == 0 and not killed:
        riposte = True
        flash_back = riposte_damage(shields, defender, rules)
        log.add(
            "riposte",
            _("Riposte — {d} {d:n'a|n'ont} perdu aucun PV contre une attaque de mêlée").format(d=d_said),
            _("{s} 🛡 → {n}").format(s=shields, n=damage_count(shields, flash=True)),
            RULE_TALENTS,
            G_RIPOSTE,
            shields=shields,
        )
        if flash_back > shields:
            log.add("contrecoup", _("Contrecoup"), "+1", RULE_TALENTS, G_RIPOSTE)
        if flash_back:
            cap = len(p.counter_dice)
            counter_used = flash_dice_count(flash_back, cap)
            if by_totals:
                counter = Symbols3.typed(scenario.riposte_totals)
                c_text = _("totaux saisis")
            else:
                c_faces = _faces(dice, "riposte", p.counter_dice, counter_used)
                counter = Symbols3.of(c_faces)
                c_text = " · ".join(f.describe() for f in c_faces)
            log.add(
                "flash_defence",
                _("Jet de défense-éclair {a:de} : {n} sur {cap}").format(a=a_said, n=dice_count(counter_used), cap=cap),
                _("{s} 🛡, {l} ⚡").format(s=counter.shield, l=counter.lightning),
                RULE_FLASH,
                G_RIPOSTE,
                dice=counter_used,
                cap=cap,
                order=" · ".join(d.name for d in p.counter_dice[:counter_used]),
                shield=counter.shield,
                lightning=counter.lightning,
                faces=c_text,
            )
            if counts_stamina(attacker, rules) and counter.lightning:
                attacker_gain += counter.lightning
                log.add(
                    "stamina",
                    _("Stamina {a:de} : ⚡ de la défense-éclair").format(a=a_said),
                    signed(counter.lightning),
                    RULE_FLASH,
                    G_STAMINA,
                    who="attacker",
                    gained=counter.lightning,
                )
            back_through = unblocked(flash_back, counter.shield)
            attacker_pv_lost = min(back_through, attacker.pv)
            attacker_killed = back_through >= attacker.pv
            log.add(
                "damage",
                _("Dégâts-éclairs de la Riposte : {d} − {b}").format(
                    d=flash_back, b=count(flash_back - back_through, _("bloqué"))
                ),
                count(attacker_pv_lost, _("PV perdu")),
                RULE_FLASH,
                G_RIPOSTE,
                damage=flash_back,
                blocked=flash_back - back_through,
                unblocked=back_through,
                pv_lost=attacker_pv_lost,
                who="attacker",
            )
            if attacker_killed:
                if attacker.side.value == "monstre" and defender.is_aventurier:
                    defender_px = attacker.px
                log.add(
                    "kill",
                    _("{a:S} {a:est|sont} {a:tué|tuée|tués|tuées} par la Riposte").format(a=a_said),
                    _("{px} pour {d}").format(px=count(defender_px, "PX", number=signed(defender_px)), d=d_said)
                    if defender_px
                    else _("0 PV"),
                    RULE_MELEE,
                    G_RIPOSTE,
                    px=defender_px,
                )
        else:
            log.add("riposte_empty", _("Riposte sans bouclier"), _("aucun dégât-éclair"), RULE_TALENTS, G_RIPOSTE)
    elif p.riposte_possible:
        log.add(
            "no_riposte",
            _("Pas de Riposte : {d} {d:a|ont} perdu des PV").format(d=d_said),
            "",
            RULE_TALENTS,
            G_RIPOSTE,
        )

    # stamina totals
    if counts_stamina(attacker, rules):
        log.add(
            "stamina_total",
            _("Stamina {a:de}").format(a=a_said),
            f"{attacker.stamina} → {stamina_after(attacker, attacker_gain)}",
            RULE_ROLLS,
            G_STAMINA,
        )
    if counts_stamina(defender, rules) and p.defence_roll:
        log.add(
            "stamina_total",
            _("Stamina {d:de}").format(d=d_said),
            f"{defender.stamina} → {stamina_after(defender, defender_gain)}",
            RULE_ROLLS,
            G_STAMINA,
        )

    # 6. engagement
    engaged, other = _engagement(scenario, p, killed or attacker_killed, log)

    numbers.update(
        {
            "damage_rolled": attack.damage,
            "damage_bonus": p.bonus,
            "damage": damage,
            "attack_lightning": attack.lightning,
            "defence_dice": dice_used,
            "shields": shields,
            "damage_blocked": blocked,
            "pv_lost": pv_lost,
            "defender_pv_after": defender.pv - pv_lost,
            "defender_killed": killed,
            "px_gained": px_gained,
            "attacker_stamina_gained": attacker_gain if counts_stamina(attacker, rules) else 0,
            "attacker_stamina_after": stamina_after(attacker, attacker_gain)
            if counts_stamina(attacker, rules)
            else attacker.stamina,
            "defender_stamina_gained": defender_gain,
            "defender_stamina_after": stamina_after(defender, defender_gain),
            "riposte": riposte,
            "riposte_damage": flash_back,
            "riposte_dice": counter_used,
            "attacker_pv_lost": attacker_pv_lost,
            "attacker_pv_after": attacker.pv - attacker_pv_lost,
            "attacker_killed": attacker_killed,
            "defender_px_gained": defender_px,
            "engaged_after": engaged,
            "attacker_engaged_other_after": other,
        }
    )
    outcome = "tue" if killed else "blesse" if pv_lost else "indemne"
    return _result(outcome, numbers, log, dice)


def _situation(scenario: Scenario, p: Plan, log: _Log, numbers: dict[str, Number]) -> None:
    z = p.zones
    board = scenario.board
    log.add(
        "position",
        _("Position — la cible vue de l'attaquant : {t} ; l'attaquant vu de la cible : {a}").format(
            t=z.target_square, a=z.attacker_square
        ),
        count(z.distance, _("case")),
        RULE_ZONES,
        G_SITUATION,
        dx=board.dx,
        dy=board.dy,
    )
    weapon = scenario.attacker.weapon
    action_labels = {
        Action.ATTACK: (
            (_("Sort : {w}") if weapon.spell else _("Attaque : {w}")).format(w=quote(weapon.name)),
            RULE_TYPES,
        ),
        Action.LEAVE_ZONE: (_("Attaque éclair : la cible sort de la zone d'attaque"), RULE_TALENTS),
        Action.PHASE_START: (_("Attaque d'opportunité au début de la phase des Aventuriers"), RULE_TALENTS),
    }
    text, rule = action_labels[p.action]
    mode_label = scenario.mode.label if p.action is Action.ATTACK else _("dégâts-éclairs")
    log.add("action", text, mode_label, rule, G_SITUATION)
    if p.action is Action.ATTACK:
        log.add(
            "melee_possible",
            _("Attaque de mêlée possible") if z.melee_possible else _("Pas de mêlée : ") + ", ".join(z.melee_reasons),
            _("oui") if z.melee_possible else _("non"),
            RULE_ZONES,
            G_SITUATION,
        )
        log.add(
            "ranged_allowed",
            _("Attaque à distance permise") if z.ranged_allowed else _("Pas de tir : ") + ", ".join(z.ranged_reasons),
            _("oui") if z.ranged_allowed else _("non"),
            RULE_RANGED,
            G_SITUATION,
        )
    log.add("back_attack", _("Attaque de dos"), _("oui") if p.back_attack else _("non"), RULE_ZONES, G_SITUATION)
    if p.reasons:
        label = _("Impossible") if scenario.board.enforce else _("Avis des zones ignoré par le MJ")
        reasons = ", ".join(p.reasons)
        log.add("not_allowed", f"{label} : {reasons}", _("non"), RULE_ZONES, G_SITUATION, reasons=list(p.reasons))
    numbers.update(
        {
            "allowed": p.allowed,
            "melee_possible": z.melee_possible,
            "ranged_allowed": z.ranged_allowed,
            "back_attack": p.back_attack,
            "in_attack_zone": z.in_attack_zone,
            "adjacent": z.adjacent,
            "flash": p.flash,
        }
    )


def _untouched(scenario: Scenario) -> dict[str, Number]:
    a, d = scenario.attacker, scenario.defender
    return {
        "pv_lost": 0,
        "defender_pv_after": d.pv,
        "defender_killed": False,
        "attacker_pv_lost": 0,
        "attacker_pv_after": a.pv,
        "attacker_killed": False,
        "engaged_after": scenario.board.engaged_together,
        "attacker_engaged_other_after": scenario.board.attacker_engaged_other,
    }


def _engagement(scenario: Scenario, p: Plan, death: bool, log: _Log) -> tuple[bool, bool]:
    """Engagement kept for the next exchange (Livret Aventure, p. 19)."""
    board = scenario.board
    engaged, other = board.engaged_together, board.attacker_engaged_other
    whys: list[str] = []
    if p.action is Action.ATTACK and (scenario.mode is Mode.RANGED or scenario.attacker.weapon.spell):
        # even a flash spell, even a kill: a shot or a spell ends the shooter's other engagements
        other = False
        whys.append(_("attaque à distance ou sort : fin des autres engagements de l'attaquant"))
    if death:
        engaged = False
        whys.append(_("un des deux est mort"))
    elif p.action is Action.LEAVE_ZONE:
        engaged = False
        whys.append(_("la cible a quitté la zone d'attaque"))
    elif p.flash:
        whys.append(_("les dégâts-éclairs n'engagent pas"))
    elif scenario.mode is Mode.MELEE and p.back_attack:
        whys.append(_("une attaque de dos n'engage pas"))
    elif scenario.mode is Mode.MELEE:
        engaged = True
        whys.append(_("attaque de mêlée faite et subie"))
    why = " ; ".join(whys)
    log.add(
        "engagement",
        _("Engagés ensemble après l'échange ({why})").format(why=why),
        _("oui") if engaged else _("non"),
        RULE_ENGAGEMENT,
        G_ENGAGEMENT,
        engaged=engaged,
        other=other,
    )
    return engaged, other


def _result(outcome: str, numbers: dict[str, Number], log: _Log, dice: DiceRoll) -> Result:
    return Result(
        outcome=outcome,
        outcome_label=OUTCOME_LABELS[outcome],
        numbers=numbers,
        events=tuple(log.events),
        dice=dice,
        tone=OUTCOME_TONES[outcome],
    )


def die_phrase(die: DieType | None, key: str) -> str:
    """The die of a test mid-sentence: « le dé bleu » for a die named « Dé bleu », else « le dé
    « Rouge » » (its name kept as a label)."""
    name = die.name.strip() if die is not None else key
    word = _("dé")
    if name.lower().startswith(word + " "):
        return _("le {die}").format(die=word + name[len(word) :])
    return _("le dé {name}").format(name=quote(name))


def _success_test(scenario: Scenario, dice: DiceRoll) -> Result:
    log = _Log()
    die = scenario.die(scenario.rules.success_die)
    if scenario.entry is Entry.TOTALS or die is None:
        lightning = scenario.test_lightning
        face_text = _("éclairs saisis")
    else:
        face = die.faces[dice["test"] - 1]
        lightning = face.lightning
        face_text = face.describe()
    log.add(
        "test_roll",
        _("{a:S} {a:lance|lancent} {die}").format(
            a=fighter(scenario.attacker), die=die_phrase(die, scenario.rules.success_die)
        ),
        face_text,
        RULE_TEST,
        G_TEST,
        lightning=lightning,
    )
    tier = success_tier(lightning)
    effect = {
        "aucun_eclair": scenario.effect_none,
        "un_eclair": scenario.effect_one,
        "deux_eclairs": scenario.effect_two,
    }[tier]
    log.add("test_effect", _("Effet ({n} ⚡)").format(n=min(lightning, 2)), effect, RULE_TEST, G_TEST, effect=effect)
    log.add("test_no_stamina", _("Ces éclairs ne génèrent pas de stamina"), "+0", RULE_TEST, G_STAMINA)
    numbers: dict[str, Number] = {"lightning": lightning, "effect": effect, "attacker_stamina_gained": 0}
    return _result(tier, numbers, log, dice)
