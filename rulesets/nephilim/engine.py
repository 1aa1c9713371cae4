"""Resolution of a Nephilim Légende exchange (seed ``002_78b74c4e792a38cc.txt``).

The roll (§14, rules/nephilim.md "The roll"): a D100 roll-under, **seuil = 10 × degré effectif**;
a double (11 … 99) at or under the seuil is a *critique*, a double above it or 100 is a
*maladresse*. Margin in degrees = ⌊(seuil − jet) / 10⌋; each degree beyond 10 is one choice.

Damage (§14, rules/nephilim.md "Order of the damage pipeline"), PHYS and MAG kept apart:

1. attack failed → nothing;
2. raw damage = weapon + ammunition + approach + Ka-Feu + attacker effects + burst cadence +
   attacker margin choices (Eau-forte halves PHYS at the end of this step);
3. critique: × 2;
4. the successful defence's effect (or a failed defence's penalty);
5. protections (``nullNonMagProt`` ignores non-magical armour and shields), whole cancels
   (Armure invincible, Corps brumeux, Régisseur de fureur, Manteau élémentaire of the weapon's
   element), Retenue du souffle;
6. minimum 1 PHYS for a weapon of degree ≥ 2, except after a successful Esquiver or a cancel;
7. MAG ignored against a defender who is not magic-sensitive;
8. defender margin choices.

A scenario becomes a list of *strikes* (one attack roll against one defender): one for a single
attack, two for Attaque rapide, one per defender for coup par coup and bursts.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from rulesets.core.dice import D100, DiceRoll, DiceSlot, DiceSpec, is_double
from rulesets.core.french import count, quote, signed, words
from rulesets.core.i18n import _
from rulesets.core.results import Event, Number, Result
from rulesets.nephilim.model import (
    ApproachKind,
    AttackerKind,
    Behaviour,
    BurstReduction,
    Cadence,
    ComponentKind,
    Condition,
    DefenceStyle,
    Defender,
    Effect,
    Element,
    Mode,
    RetenueOrder,
    Scenario,
)

# Rule citations (sections of the seed).
R_TYPES = "§1 Types de combattants"
R_AM = "§2 Approches d'attaque — mêlée"
R_AD = "§3 Approches d'attaque — distance"
R_WEAPONS = "§4–6 Armes"
R_AMMO = "§7 Munitions"
R_PROT = "§8 Protections"
R_DEF_MELEE = "§9 Types de défense — mêlée"
R_DEF_RANGED = "§10–11 Types de défense — distance"
R_FX_ATT = "§12 Sorts/invocations/formules — attaquant"
R_FX_DEF = "§13 Sorts/invocations/formules — défenseur"
R_ROLL = "§14 Critique / Maladresse"
R_CRIT = "§14 Critique"
R_MIN = "§14 Minimum de dommages"
R_MARGIN = "§14 Marge de réussite > 10"
R_RAPID = "§14 Attaque rapide"
R_MULTI_DEF = "§14 Défenses multiples"
R_KA_FEU = "§14 Ka-Feu bonus dommages"
R_SENS = "§14 Sensibilité magique"
R_NULL = "§14 nullNonMagProt"
R_MANTLE = "§14 Manteau élémentaire"
R_BURST = "§14 Cadence bonus"
R_MULTI = "§14 Multi-défenseurs"
R_PIPE = "§14 Pipeline phys/mag séparé"

G_ATT = "Jet d'attaque"
G_DEF = "Jet de défense"
G_DMG = "Dommages"
G_PROT = "Protections"
G_TAKEN = "Dommages encaissés"
G_FINAL = "Résultat final"
G_NEXT = "Round suivant"
G_INFO = "Combattants"

TIERS = ("fumble", "miss", "dodged", "defended", "absorbed", "graze", "wound", "terrible")
TIER_LABELS = {
    "fumble": "Maladresse",
    "miss": "Attaque manquée",
    "dodged": "Esquivé",
    "defended": "Défense réussie, aucun dommage",
    "absorbed": "Touché, dommages absorbés",
    "graze": "Éraflure",
    "wound": "Le défenseur accuse le coup",
    "terrible": "Choc terrible",
}
TERRIBLE = 8  # §15: "choc terrible ≥ 8"
HEAVY = 4  # §15: "accuse le coup ≥ 4"


# --------------------------------------------------------------------------- strikes


@dataclass(frozen=True, slots=True)
class Strike:
    """One attack roll against one defender."""

    index: int  # 1-based
    defender_index: int
    attack_slot: str
    defence_slot: str | None
    defence_number: int
    attack_number: int
    burst_bonus: int
    prefix: str  # panel group prefix ("" for a single strike)


def _burst_bonus(scn: Scenario, target: int) -> int:
    """§14 Cadence bonus: +2 (contrôlée) / +5 (continue) PHYS per target, −1 per extra target."""
    s = scn.settings
    if scn.cadence is Cadence.RAF_CTRL:
        base = s.burst_controlled_bonus
    elif scn.cadence is Cadence.RAF_CONT:
        base = s.burst_continuous_bonus
    else:
        return 0
    extra = len(scn.defenders) - 1 if s.burst_reduction is BurstReduction.ALL_TARGETS else target
    return max(0, base - s.burst_target_reduction * extra)


def plan(scn: Scenario) -> tuple[Strike, ...]:
    """The strikes of the exchange, in order."""
    out: list[Strike] = []
    if scn.rapid:
        d = scn.defenders[0]
        for n, number in ((1, d.defence_number), (2, d.defence_number_2)):
            out.append(
                Strike(
                    index=n,
                    defender_index=0,
                    attack_slot=f"attaque.{n}",
                    defence_slot=f"defense.{n}" if d.defence.rolls else None,
                    defence_number=number,
                    attack_number=n,
                    burst_bonus=0,
                    prefix=_("Attaque n°{n} · ").format(n=n),
                )
            )
        return tuple(out)
    many = len(scn.defenders) > 1
    shared = scn.cadence.is_burst and scn.settings.burst_single_roll
    for i, d in enumerate(scn.defenders):
        out.append(
            Strike(
                index=i + 1,
                defender_index=i,
                attack_slot="attaque.1" if shared else f"attaque.{i + 1}",
                defence_slot=f"defense.{i + 1}" if d.defence.rolls else None,
                defence_number=d.defence_number,
                attack_number=1,
                burst_bonus=_burst_bonus(scn, i),
                prefix=_("Cible {n} ({name}) · ").format(n=i + 1, name=d.name) if many else "",
            )
        )
    return tuple(out)


def dice_for(scn: Scenario) -> DiceSpec:
    """D100 slots: the attacker's roll(s) first, then each defender's, in rules order."""
    slots: list[DiceSlot] = []
    seen: set[str] = set()
    strikes = plan(scn)
    for st in strikes:
        if st.attack_slot not in seen:
            seen.add(st.attack_slot)
            if scn.rapid:
                label = _("D100 attaque n°{n} — {name}").format(n=st.attack_number, name=scn.attacker.name)
            elif len(strikes) > 1 and not _shared(scn):
                label = _("D100 attaque contre {name}").format(name=scn.defenders[st.defender_index].who)
            else:
                label = _("D100 attaque — {name}").format(name=scn.attacker.name)
            slots.append(DiceSlot(st.attack_slot, D100, label))
    for st in strikes:
        if st.defence_slot is not None:
            name = scn.defenders[st.defender_index].name
            if scn.rapid:
                label = _("D100 défense n°{n} — {name}").format(n=st.attack_number, name=name)
            else:
                label = _("D100 défense — {name}").format(name=name)
            slots.append(DiceSlot(st.defence_slot, D100, label))
    return DiceSpec(tuple(slots))


def _shared(scn: Scenario) -> bool:
    return scn.cadence.is_burst and scn.settings.burst_single_roll


# --------------------------------------------------------------------------- the roll


@dataclass(frozen=True, slots=True)
class Roll:
    """A D100 read against a degree."""

    face: int
    degree: int
    threshold: int
    success: bool
    critical: bool
    fumble: bool
    margin: int  # degrees of margin (success only, else 0)

    @property
    def choices(self) -> int:
        """§14 Marge > 10: one choice per degree of margin beyond 10."""
        return max(0, self.margin - 10)


def read_roll(face: int, degree: int) -> Roll:
    """Seuil = 10 × degré; doubles under it are critiques, above it (or 100) maladresses."""
    threshold = 10 * degree
    double = is_double(face)
    fumble = face == 100 or (double and face > threshold)
    success = face <= threshold and not fumble
    critical = success and double
    margin = (threshold - face) // 10 if success else 0
    return Roll(face, degree, threshold, success, critical, fumble, margin)


# --------------------------------------------------------------------------- effects


@dataclass(slots=True)
class Panel:
    """Events of one strike, with its group prefix."""

    prefix: str
    strike: int
    events: list[Event] = field(default_factory=list)

    def add(self, kind: str, group: str, label: str, value: str = "", rule: str = "", **data: Any) -> None:
        data.setdefault("strike", self.strike)
        self.events.append(Event(kind, label, value, rule, self.prefix + group, data))


@dataclass(frozen=True, slots=True)
class Active:
    """A component that applies: its effect's name, its kind and value."""

    effect: str
    kind: ComponentKind
    value: int
    behaviour: Behaviour
    element: Element
    threshold: int


ATTACKER_KINDS = frozenset(
    {
        ComponentKind.ATTACK,
        ComponentKind.OPPONENT_DEFENCE,
        ComponentKind.DAMAGE,
        ComponentKind.DAMAGE_PHYS,
        ComponentKind.DAMAGE_MAG,
        ComponentKind.NULL_NON_MAG_PROT,
        ComponentKind.OPPONENT_NEXT_ROUND_ATTACK,
        ComponentKind.WEAPON_MAGICAL,
        ComponentKind.INITIATIVE,
        ComponentKind.METAMORPHE,
    }
)
DEFENDER_KINDS = frozenset(
    {
        ComponentKind.DEFENCE,
        ComponentKind.PROTECTION_PHYS,
        ComponentKind.PROTECTION_MAG,
        ComponentKind.CANCEL_PHYS,
        ComponentKind.CANCEL_MAG,
        ComponentKind.CANCEL_ALL,
        ComponentKind.NO_EXTRA_DEFENCE_MALUS,
        ComponentKind.OPPONENT_NEXT_ROUND_ATTACK,
        ComponentKind.ARMOUR_MAGICAL,
    }
)


@dataclass(frozen=True, slots=True)
class Situation:
    """What the conditions of effects read."""

    scn: Scenario
    defender: Defender
    defence_number: int
    attack_approach: int
    defence_approach: int


def attack_approach(scn: Scenario) -> int:
    """Approche added to the attack (§1): a Nephilim's Ka-element, an initié's Ka-Soleil."""
    a = scn.attacker
    if a.kind is AttackerKind.AUTRE:
        return 0
    return a.approach_value


def defence_approach(defender: Defender) -> int:
    if defender.kind.value != "nephilim" or not defender.defence.elements.has(defender.approach_element):
        return 0
    return defender.approach_value


def _condition(cond: Condition, attacker_side: bool, s: Situation) -> bool:
    scn, d = s.scn, s.defender
    approach = s.attack_approach if attacker_side else s.defence_approach
    element = scn.attacker.approach_element if attacker_side else d.approach_element
    match cond:
        case Condition.ALWAYS:
            return True
        case Condition.FORCE:
            return scn.attacker.approach.kind is ApproachKind.FORCE
        case Condition.APPROACH_POSITIVE:
            return approach > 0
        case Condition.APPROACH_FEU:
            return approach > 0 and element is Element.FEU
        case Condition.NOT_APPROACH_FEU:
            return not (approach > 0 and element is Element.FEU)
        case Condition.FIREARM:
            return scn.attacker.weapon.firearm
        case Condition.MELEE_WEAPON:
            return scn.attacker.weapon.category is Mode.MELEE
        case Condition.HAS_ARMOUR:
            return d.armour.phys > 0
        case Condition.COORDINATED:
            return scn.attacker.coordinated
        case Condition.TARGET_FAILED_KA_DOMINANT:
            return d.failed_ka_dominant
        case Condition.DODGE:
            return d.defence.style is DefenceStyle.DODGE
        case Condition.FIRST_DEFENCE:
            return s.defence_number == 1
        case Condition.METAMORPHE_10:
            return metamorphe_of(scn)[0] >= METAMORPHE_MAX
    return False  # pragma: no cover


METAMORPHE_MAX = 10


def metamorphe_of(scn: Scenario) -> tuple[int, str]:
    """The attacker's Métamorphe in this exchange, and the effect that set it ("" if none).

    §12 Régisseur de fureur: « +10 attaque (métamorphe à 10) ». Like « Parfum de concentration :
    +2 attaque (−2 vigilance) », the parenthesis is what the invocation does besides its bonus:
    an effect row's ``metamorphe`` brings the attacker's Métamorphe to that value (the highest
    such effect in scope wins); the reading « only at Métamorphe 10 » is the row's condition
    ``metamorphe_10`` (docs/rules/nephilim.md, issue 14).
    """
    a = scn.attacker
    setters = [fx for fx in a.effects if fx.active and fx.metamorphe and fx.scope.covers(scn.mode)]
    if not setters:
        return a.metamorphe, ""
    best = max(setters, key=lambda fx: fx.metamorphe)
    return best.metamorphe, best.name


def weapon_magical(scn: Scenario, attacker_fx: Iterable[Active]) -> bool:
    return scn.attacker.weapon.magical or any(c.kind is ComponentKind.WEAPON_MAGICAL for c in attacker_fx)


NUMERIC = (
    ("attack", ComponentKind.ATTACK),
    ("defence", ComponentKind.DEFENCE),
    ("damage", ComponentKind.DAMAGE),
    ("damage_phys", ComponentKind.DAMAGE_PHYS),
    ("damage_mag", ComponentKind.DAMAGE_MAG),
    ("protection_phys", ComponentKind.PROTECTION_PHYS),
    ("protection_mag", ComponentKind.PROTECTION_MAG),
    ("opponent_next_round_attack", ComponentKind.OPPONENT_NEXT_ROUND_ATTACK),
)
FLAGS = (
    ("cancel_phys", ComponentKind.CANCEL_PHYS),
    ("cancel_mag", ComponentKind.CANCEL_MAG),
    ("cancel_all", ComponentKind.CANCEL_ALL),
    ("null_non_mag_prot", ComponentKind.NULL_NON_MAG_PROT),
    ("no_extra_defence_malus", ComponentKind.NO_EXTRA_DEFENCE_MALUS),
    ("weapon_magical", ComponentKind.WEAPON_MAGICAL),
    ("armour_magical", ComponentKind.ARMOUR_MAGICAL),
)


def components_of(fx: Effect) -> list[tuple[ComponentKind, int, Condition]]:
    """An effect's typed components: (kind, value, condition); flags always apply."""
    out: list[tuple[ComponentKind, int, Condition]] = []
    for name, kind in NUMERIC:
        value = getattr(fx, name)
        if value:
            out.append((kind, value, fx.condition))
    if fx.opponent_defence:
        out.append((ComponentKind.OPPONENT_DEFENCE, fx.opponent_defence, fx.opponent_defence_condition))
    if fx.initiative:
        out.append((ComponentKind.INITIATIVE, fx.initiative, fx.initiative_condition))
    if fx.metamorphe:
        out.append((ComponentKind.METAMORPHE, fx.metamorphe, Condition.ALWAYS))
    for name, kind in FLAGS:
        if getattr(fx, name):
            out.append((kind, 0, Condition.ALWAYS))
    return out


def active_components(
    effects: Iterable[Effect], attacker_side: bool, s: Situation, panel: Panel | None, magical_weapon: bool
) -> list[Active]:
    """The components that apply to this strike; the others are listed with their reason."""
    out: list[Active] = []
    relevant = ATTACKER_KINDS if attacker_side else DEFENDER_KINDS
    rule = R_FX_ATT if attacker_side else R_FX_DEF
    group = G_ATT if attacker_side else G_DEF
    weapon = s.scn.attacker.weapon
    for fx in effects:
        if not fx.active:
            continue
        if not fx.scope.covers(s.scn.mode):
            if panel:
                panel.add(
                    "effect_off",
                    group,
                    _("{name} (portée : {scope})").format(name=fx.name, scope=fx.scope.label.lower()),
                    _("sans effet"),
                    rule,
                )
            continue
        if fx.behaviour is Behaviour.TRANSMUTATION_DU_FAUVE and (magical_weapon or weapon.element is not Element.NONE):
            if panel:
                panel.add(
                    "effect_off",
                    G_PROT,
                    _("{name} contre une arme magique ou élémentaire").format(name=fx.name),
                    _("inefficace"),
                    rule,
                )
            continue
        base = Active(fx.name, ComponentKind.NOTE, 0, fx.behaviour, fx.element, fx.threshold)
        if fx.behaviour is not Behaviour.NONE and not attacker_side:
            out.append(base)
        if fx.note and panel:
            panel.add("effect_note", G_INFO, fx.name, fx.note, rule)
        for kind, value, condition in components_of(fx):
            if kind not in relevant:
                if panel:
                    shown = kind.label + (f" {signed(value)}" if value else "")
                    panel.add("effect_off", G_INFO, f"{fx.name} — {shown}", _("sans effet ici"), rule)
                continue
            if not _condition(condition, attacker_side, s):
                if panel:
                    panel.add(
                        "effect_off",
                        group,
                        f"{fx.name} — {kind.label} ({condition.label.lower()})",
                        _("condition non remplie"),
                        rule,
                    )
                continue
            out.append(Active(fx.name, kind, value, fx.behaviour, fx.element, fx.threshold))
    return out


# --------------------------------------------------------------------------- one strike


@dataclass(frozen=True, slots=True)
class StrikeOutcome:
    strike: Strike
    attack: Roll
    defence: Roll | None
    hit: bool
    phys_raw: int
    mag_raw: int
    phys: int
    mag: int
    phys_before_choices: int
    mag_before_choices: int
    attack_choices_used: int
    defence_choices_used: int
    cancelled: bool
    tier: str
    next_round: tuple[tuple[str, int], ...]
    events: tuple[Event, ...]

    @property
    def damage(self) -> int:
        return self.phys + self.mag


def attack_degree(scn: Scenario, s: Situation, att_fx: list[Active], panel: Panel | None) -> int:
    """Effective attack degree (rules/nephilim.md "The roll")."""
    a = scn.attacker
    rule_app = R_AM if scn.mode is Mode.MELEE else R_AD
    parts: list[tuple[str, int, str]] = [
        (
            _("{kind} ({name})").format(kind="Vécu" if a.kind is not AttackerKind.AUTRE else "Menace", name=a.name),
            a.degree,
            R_TYPES,
        )
    ]
    if s.attack_approach:
        parts.append((_("Approche Ka-{el}").format(el=a.approach_element.label), s.attack_approach, R_TYPES))
    if a.approach.attack_modifier:
        parts.append((a.approach.name, a.approach.attack_modifier, rule_app))
    for c in att_fx:
        if c.kind is ComponentKind.ATTACK:
            parts.append((c.effect, c.value, R_FX_ATT))
    if a.wounds:
        parts.append((_("Blessures"), a.wounds, R_TYPES))
    if a.situational:
        parts.append((_("Situation"), a.situational, R_TYPES))
    if a.carried_over:
        parts.append((_("Report du round précédent"), a.carried_over, R_MARGIN))
    total = sum(v for _l, v, _r in parts)
    if panel:
        for label, value, rule in parts:
            panel.add("attack_mod", G_ATT, label, signed(value) if label != parts[0][0] else str(value), rule)
    return total


def _defence_conditions(panel: Panel, d: Defender) -> None:
    """§10–11 conditions the calculator cannot check: shown as reminders, the damage is unchanged."""
    shield = d.shield.phys > 0 or d.shield.mag > 0
    if d.defence.needs_shield and not shield:
        panel.add(
            "defence_condition",
            G_DEF,
            _(
                "La défense {defence} demande un bouclier ou un objet : aucun bouclier porté, à vérifier à la table"
            ).format(defence=quote(d.defence.name)),
            "!",
            R_DEF_RANGED,
        )
    if d.defence.context is Mode.THROWN and d.defence.style is DefenceStyle.DODGE:
        panel.add(
            "defence_condition",
            G_DEF,
            _("{defence} : {d} {d:doit/doivent} voir le lanceur").format(defence=d.defence.name, d=d.who),
            "!",
            R_DEF_RANGED,
        )


def defence_degree(
    scn: Scenario, s: Situation, st: Strike, hit: bool, att_fx: list[Active], def_fx: list[Active], panel: Panel | None
) -> int:
    """Effective defence degree: base + Approche + type + Défense n° + effects + situation."""
    d = s.defender
    rule_def = R_DEF_MELEE if scn.mode is Mode.MELEE else R_DEF_RANGED
    parts: list[tuple[str, int, str]] = [(_("Vécu ({name})").format(name=d.name), d.degree, R_TYPES)]
    if s.defence_approach:
        parts.append((_("Approche Ka-{el}").format(el=d.approach_element.label), s.defence_approach, R_TYPES))
    if d.defence.modifier:
        parts.append((d.defence.name, d.defence.modifier, rule_def))
    if st.defence_number > 1:
        removers = [c.effect for c in def_fx if c.kind is ComponentKind.NO_EXTRA_DEFENCE_MALUS]
        if d.defence.no_extra_defence_malus:
            removers.insert(0, d.defence.name)
        malus = -scn.settings.extra_defence_malus * (st.defence_number - 1)
        if removers:
            if panel:
                panel.add(
                    "defence_mod",
                    G_DEF,
                    _("Défense n°{n}").format(n=st.defence_number),
                    _("pas de malus ({by})").format(by=", ".join(removers)),
                    R_MULTI_DEF,
                )
        else:
            parts.append((_("Défense n°{n}").format(n=st.defence_number), malus, R_MULTI_DEF))
    if hit and scn.attacker.approach.defence_malus_on_hit:
        parts.append((scn.attacker.approach.name, -scn.attacker.approach.defence_malus_on_hit, R_AM))
    for c in att_fx:
        if c.kind is ComponentKind.OPPONENT_DEFENCE:
            parts.append((c.effect, c.value, R_FX_ATT))
    for c in def_fx:
        if c.kind is ComponentKind.DEFENCE:
            parts.append((c.effect, c.value, R_FX_DEF))
    if d.wounds:
        parts.append((_("Blessures"), d.wounds, R_TYPES))
    if d.situational:
        parts.append((_("Situation"), d.situational, R_TYPES))
    if d.carried_over:
        parts.append((_("Report du round précédent"), d.carried_over, R_MARGIN))
    total = sum(v for _l, v, _r in parts)
    if panel and d.defence.rolls:
        for i, (label, value, rule) in enumerate(parts):
            panel.add("defence_mod", G_DEF, label, str(value) if i == 0 else signed(value), rule)
    return total


def _roll_events(panel: Panel, group: str, who: str, roll: Roll, kind: str) -> None:
    if roll.fumble:
        verdict = _("maladresse")
    elif roll.critical:
        verdict = _("réussite critique")
    elif roll.success:
        verdict = _("réussite")
    else:
        verdict = _("échec")
    panel.add(
        kind,
        group,
        _("{who} : jet {face} contre seuil {threshold} (degré {degree})").format(
            who=who, face=roll.face, threshold=roll.threshold, degree=roll.degree
        ),
        verdict + (_(", marge {m}").format(m=roll.margin) if roll.success else ""),
        R_ROLL,
        face=roll.face,
        threshold=roll.threshold,
        degree=roll.degree,
        success=roll.success,
        critical=roll.critical,
        fumble=roll.fumble,
        margin=roll.margin,
    )


def situation_for(scn: Scenario, st: Strike) -> Situation:
    d = scn.defenders[st.defender_index]
    return Situation(scn, d, st.defence_number, attack_approach(scn), defence_approach(d))


@dataclass(frozen=True, slots=True)
class StrikeContext:
    """What a strike reads of the effects before any die: its situation, the components of the
    attacker's and of the defender's effects that apply, and whether the weapon is magical."""

    situation: Situation
    att_fx: list[Active]
    magical_weapon: bool
    def_fx: list[Active]


def strike_context(scn: Scenario, st: Strike, panel: Panel | None = None) -> StrikeContext:
    """The strike's context (``panel`` records the effects left out, and why)."""
    s = situation_for(scn, st)
    att_fx = active_components(scn.attacker.effects, True, s, panel, False)
    magical_weapon = weapon_magical(scn, att_fx)
    def_fx = active_components(scn.effects_of(st.defender_index), False, s, panel, magical_weapon)
    return StrikeContext(s, att_fx, magical_weapon, def_fx)


def resolve_strike(
    scn: Scenario,
    st: Strike,
    att_face: int,
    def_face: int | None,
    detail: bool = True,
    context: StrikeContext | None = None,
) -> StrikeOutcome:
    """One attack roll against one defender, through the whole pipeline (twice with choices).

    ``context`` is the strike's :func:`strike_context` when the caller resolves many faces of the
    same strike without ``detail`` (the odds): the effects are then read once, not per face.
    """
    panel = Panel(st.prefix, st.index) if detail else None
    if context is None or panel is not None:
        context = strike_context(scn, st, panel)
    s, att_fx, magical_weapon, def_fx = context.situation, context.att_fx, context.magical_weapon, context.def_fx
    a, d = scn.attacker, s.defender

    att_deg = attack_degree(scn, s, att_fx, panel)
    attack = read_roll(att_face, att_deg)
    if panel:
        _roll_events(panel, G_ATT, a.name, attack, "attack_roll")
    hit = attack.success
    def_deg = defence_degree(scn, s, st, hit, att_fx, def_fx, panel)
    defence = read_roll(def_face, def_deg) if def_face is not None else None
    if panel:
        if defence is not None:
            _roll_events(panel, G_DEF, d.name, defence, "defence_roll")
        else:
            panel.add(
                "defence_roll", G_DEF, _("{defence} : pas de jet").format(defence=d.defence.name), "—", R_DEF_MELEE
            )
        _defence_conditions(panel, d)

    next_round: list[tuple[str, int]] = []
    if not hit or not a.approach.deals_damage:
        if panel and hit:
            panel.add(
                "no_damage_approach",
                G_DMG,
                a.approach.name,
                _("l'approche n'inflige pas de dommages"),
                R_AM,
            )
        tier = "fumble" if attack.fumble else ("miss" if not hit else _tier_no_damage(d, defence))
        if hit:
            next_round.extend(_next_round_on_hit(scn, att_fx))
        if panel and not hit:
            panel.add("miss", G_DMG, _("Attaque ratée"), _("aucun dommage"), R_PIPE)
        return StrikeOutcome(
            st,
            attack,
            defence,
            hit,
            0,
            0,
            0,
            0,
            0,
            0,
            0,
            0,
            False,
            tier,
            tuple(next_round),
            tuple(panel.events) if panel else (),
        )

    base = _damage(scn, st, s, attack, defence, att_fx, def_fx, magical_weapon, 0, 0, panel)
    att_used = min(attack.choices, a.margin_damage)
    def_used = min(defence.choices, d.margin_damage) if defence is not None and defence.success else 0
    final = base
    if att_used or def_used or a.margin_damage or d.margin_damage:
        final = _damage(scn, st, s, attack, defence, att_fx, def_fx, magical_weapon, att_used, def_used, None)
        if panel:
            _final_events(panel, scn, d, attack, defence, base, final, att_used, def_used)
    phys_raw, mag_raw, phys, mag, cancelled = final
    next_round.extend(_next_round_on_hit(scn, att_fx))
    tier = _tier(d, defence, phys + mag, cancelled)
    return StrikeOutcome(
        st,
        attack,
        defence,
        hit,
        phys_raw,
        mag_raw,
        phys,
        mag,
        base[2],
        base[3],
        att_used,
        def_used,
        cancelled,
        tier,
        tuple(next_round),
        tuple(panel.events) if panel else (),
    )


def _tier_no_damage(d: Defender, defence: Roll | None) -> str:
    if defence is not None and defence.success:
        return "dodged" if d.defence.style is DefenceStyle.DODGE else "defended"
    return "absorbed"


def _tier(d: Defender, defence: Roll | None, damage: int, cancelled: bool) -> str:
    if damage >= TERRIBLE:
        return "terrible"
    if damage >= HEAVY:
        return "wound"
    if damage > 0:
        return "graze"
    if defence is not None and defence.success:
        return "dodged" if d.defence.style is DefenceStyle.DODGE else "defended"
    return "absorbed"


def _next_round_on_hit(scn: Scenario, att_fx: list[Active]) -> list[tuple[str, int]]:
    out: list[tuple[str, int]] = []
    if scn.attacker.approach.opponent_next_round_malus:
        out.append(("defender_actions", -scn.attacker.approach.opponent_next_round_malus))
    for c in att_fx:
        if c.kind is ComponentKind.OPPONENT_NEXT_ROUND_ATTACK:
            out.append(("defender_attack", c.value))
    return out


def _damage(
    scn: Scenario,
    st: Strike,
    s: Situation,
    attack: Roll,
    defence: Roll | None,
    att_fx: list[Active],
    def_fx: list[Active],
    magical_weapon: bool,
    att_choices: int,
    def_choices: int,
    panel: Panel | None,
) -> tuple[int, int, int, int, bool]:
    """Steps 2–8 of the pipeline; returns (raw PHYS, raw MAG, PHYS taken, MAG taken, cancelled)."""
    a, d, w = scn.attacker, s.defender, scn.attacker.weapon
    with_mag = w.mag > 0

    def note(label: str, phys: int, mag: int, rule: str, kind: str = "damage", group: str = G_DMG, **data: Any) -> None:
        if panel:
            value = f"PHYS {signed(phys)}" + (f" · MAG {signed(mag)}" if mag else "")
            panel.add(kind, group, label, value, rule, phys=phys, mag=mag, **data)

    # 2. Raw damage.
    phys, mag = w.phys, w.mag
    weapon_degree = w.degree
    if a.approach.kind is ApproachKind.FRAPPER:
        # §2 Frapper: « Attaque à mains nues. Dommages selon la force du simulacre. »
        phys, mag, with_mag = a.simulacre_force, 0, False
        weapon_degree = phys
        if panel:
            panel.add(
                "weapon",
                G_DMG,
                _("{approach} : force du simulacre {name}").format(approach=a.approach.name, name=a.who.de),
                f"PHYS {phys}" + (f" · MAG {mag}" if mag else ""),
                R_AM,
                phys=phys,
                mag=mag,
            )
    elif panel:
        panel.add(
            "weapon",
            G_DMG,
            w.name,
            f"PHYS {w.phys}" + (f" · MAG {w.mag}" if w.mag else ""),
            R_WEAPONS,
            phys=w.phys,
            mag=w.mag,
        )

    def bonus(label: str, value: int, rule: str, typed: bool = True) -> None:
        nonlocal phys, mag
        if not value:
            return
        extra_mag = value if typed and with_mag else 0
        phys += value
        mag += extra_mag
        note(label, value, extra_mag, rule)

    if a.ammunition.damage_bonus:
        bonus(a.ammunition.name, a.ammunition.damage_bonus, R_AMMO)
    if a.approach.damage_bonus_phys:
        bonus(a.approach.name, a.approach.damage_bonus_phys, R_AM, typed=False)
    if a.kind is AttackerKind.NEPHILIM and scn.mode in (Mode.MELEE, Mode.THROWN):
        ka = a.ka_feu
        settings = scn.settings
        ka_bonus = 2 if ka >= settings.ka_feu_threshold_2 else 1 if ka >= settings.ka_feu_threshold_1 else 0
        if ka_bonus:
            bonus(_("Ka-Feu {ka}").format(ka=ka), ka_bonus, R_KA_FEU)
    for c in att_fx:
        if c.kind is ComponentKind.DAMAGE:
            bonus(c.effect, c.value, R_FX_ATT)
        elif c.kind is ComponentKind.DAMAGE_PHYS:
            bonus(c.effect, c.value, R_FX_ATT, typed=False)
        elif c.kind is ComponentKind.DAMAGE_MAG and c.value:
            mag += c.value
            note(c.effect, 0, c.value, R_FX_ATT)
    if st.burst_bonus:
        bonus(scn.cadence.label, st.burst_bonus, R_BURST, typed=False)
    if att_choices:
        bonus(_("Marge > 10 : {n} choix « +1 dommage »").format(n=att_choices), att_choices, R_MARGIN)
    phys, mag = max(0, phys), max(0, mag)
    for c in def_fx:
        if c.behaviour is Behaviour.EAU_FORTE and c.kind is ComponentKind.NOTE:
            halved = phys // 2
            note(c.effect, halved - phys, 0, R_FX_DEF)
            phys = halved
    phys_raw, mag_raw = phys, mag

    # 3. Critique.
    if attack.critical:
        k = scn.settings.critical_multiplier
        note(_("Réussite critique × {k}").format(k=k), phys * (k - 1), mag * (k - 1), R_CRIT)
        phys, mag = phys * k, mag * k

    # 4. Defence.
    no_minimum = False
    cancelled = False
    dt = d.defence
    if defence is not None and defence.success:
        if dt.success_cancel:
            note(
                _("Défense {defence} réussie : dommages annulés").format(defence=quote(dt.name)),
                -phys,
                -mag,
                R_DEF_MELEE,
                "defence",
            )
            phys = mag = 0
            cancelled = True
            no_minimum = dt.success_no_minimum
        elif dt.success_reduce_phys or dt.success_reduce_mag:
            new_phys, new_mag = max(0, phys - dt.success_reduce_phys), max(0, mag - dt.success_reduce_mag)
            note(
                _("Défense {defence} réussie").format(defence=quote(dt.name)),
                new_phys - phys,
                new_mag - mag,
                R_DEF_MELEE,
                "defence",
            )
            phys, mag = new_phys, new_mag
            no_minimum = dt.success_no_minimum
        if dt.escapes and panel:
            panel.add(
                "defence",
                G_DMG,
                _("Défense {defence} réussie : les dommages restent").format(defence=quote(dt.name)),
                _("s'échappe"),
                R_DEF_MELEE,
            )
        if dt.needs_attack_roll and panel:
            panel.add(
                "defence",
                G_NEXT,
                _("Défense {defence} réussie : riposte").format(defence=quote(dt.name)),
                _("jet d'attaque requis"),
                R_DEF_MELEE,
            )
    elif defence is not None and (dt.failure_add_phys or dt.failure_add_mag):
        note(
            _("Défense {defence} ratée").format(defence=quote(dt.name)),
            dt.failure_add_phys,
            dt.failure_add_mag,
            R_DEF_MELEE,
            "defence",
        )
        phys += dt.failure_add_phys
        mag += dt.failure_add_mag

    # 5. Protections.
    null_non_mag = w.null_non_mag_prot or any(c.kind is ComponentKind.NULL_NON_MAG_PROT for c in att_fx)
    armour_magical = [c.effect for c in def_fx if c.kind is ComponentKind.ARMOUR_MAGICAL]
    prot_phys = prot_mag = 0
    whole_cancel: str | None = None
    for slot, p in d.protections:
        pp, pm = p.phys, p.mag
        if p.use_optional_bonus and p.optional_bonus:
            pp += p.optional_bonus
            pm += p.optional_bonus
        magical = p.magical or (slot == "armour" and bool(armour_magical) and pp > 0)
        if p.element is not Element.NONE and p.element is w.element:
            whole_cancel = _("{name} : même élément que l'arme ({el})").format(name=p.name, el=w.element.label)
        if null_non_mag and not magical and pp:
            if panel:
                panel.add(
                    "protection_ignored", G_PROT, p.name, _("PHYS {p} ignorée (nullNonMagProt)").format(p=pp), R_NULL
                )
            pp = 0
        if pp or pm:
            prot_phys += pp
            prot_mag += pm
            note(p.name, -pp, -pm, R_PROT, "protection", G_PROT)
    for c in def_fx:
        if c.kind is ComponentKind.PROTECTION_PHYS:
            prot_phys += c.value
            note(c.effect, -c.value, 0, R_FX_DEF, "protection", G_PROT)
        elif c.kind is ComponentKind.PROTECTION_MAG:
            prot_mag += c.value
            note(c.effect, 0, -c.value, R_FX_DEF, "protection", G_PROT)
        elif c.behaviour is Behaviour.MANTEAU_ELEMENTAIRE and c.kind is ComponentKind.NOTE and c.element is w.element:
            whole_cancel = _("{name} : même élément que l'arme ({el})").format(name=c.effect, el=w.element.label)
    phys, mag = max(0, phys - prot_phys), max(0, mag - prot_mag)
    if whole_cancel:
        note(whole_cancel, -phys, -mag, R_MANTLE, "cancel", G_PROT, mantle=True)
        phys = mag = 0
        cancelled = no_minimum = True
    for c in def_fx:
        if c.kind is ComponentKind.CANCEL_ALL:
            note(c.effect, -phys, -mag, R_FX_DEF, "cancel", G_PROT)
            phys = mag = 0
            cancelled = no_minimum = True
        elif c.kind is ComponentKind.CANCEL_PHYS:
            note(c.effect, -phys, 0, R_FX_DEF, "cancel", G_PROT)
            phys = 0
            no_minimum = True
        elif c.kind is ComponentKind.CANCEL_MAG:
            note(c.effect, 0, -mag, R_FX_DEF, "cancel", G_PROT)
            mag = 0
    sensitive = d.magic_sensitive
    for c in def_fx:
        if c.behaviour is Behaviour.RETENUE_DU_SOUFFLE and c.kind is ComponentKind.NOTE:
            total = phys + (mag if sensitive else 0)
            if total <= c.threshold:
                note(
                    _("{name} : {t} ≤ {s}, annulés").format(name=c.effect, t=total, s=c.threshold),
                    -phys,
                    -mag,
                    R_FX_DEF,
                    "cancel",
                    G_PROT,
                )
                phys = mag = 0
                cancelled = no_minimum = True
            else:
                cut = c.threshold
                order = ("phys", "mag") if scn.settings.retenue_order is RetenueOrder.PHYS_FIRST else ("mag", "phys")
                dp = dm = 0
                for part in order:
                    if part == "phys":
                        dp = min(cut, phys)
                        cut -= dp
                    elif sensitive:
                        dm = min(cut, mag)
                        cut -= dm
                phys, mag = phys - dp, mag - dm
                # « Si > 10 : −10 aux dommages totaux » (§13): what Retenue leaves is the total taken,
                # so the minimum of 1 PHYS does not come back after it (issue 14).
                no_minimum = True
                note(
                    _("{name} : {t} > {s}, −{s} au total, sans minimum").format(name=c.effect, t=total, s=c.threshold),
                    -dp,
                    -dm,
                    R_FX_DEF,
                    "cancel",
                    G_PROT,
                )

    # 6. Minimum.
    if phys < 1 and not no_minimum and weapon_degree >= scn.settings.minimum_weapon_degree:
        note(
            _("Minimum de dommages (arme de degré {deg})").format(deg=weapon_degree),
            1 - phys,
            0,
            R_MIN,
            "minimum",
            G_TAKEN,
        )
        phys = 1

    # 7. Magic sensitivity.
    if mag and not sensitive:
        note(
            _("{d.Subject} n'{d:est/sont} pas {d:~sensible} aux dommages magiques").format(d=d.who),
            0,
            -mag,
            R_SENS,
            "insensitive",
            G_TAKEN,
        )
        mag = 0

    # 8. Defender margin choices.
    if def_choices:
        new_phys, new_mag = max(0, phys - def_choices), max(0, mag - def_choices)
        note(_("Marge > 10 : {n} choix « −1 dommage »").format(n=def_choices), new_phys - phys, new_mag - mag, R_MARGIN)
        phys, mag = new_phys, new_mag

    if panel:
        panel.add(
            "taken",
            G_TAKEN,
            _("{d.Subject} {d:encaisse/encaissent}").format(d=d.who),
            f"PHYS {phys} · MAG {mag}",
            R_PIPE,
            phys=phys,
            mag=mag,
            cancelled=cancelled,
        )
    return phys_raw, mag_raw, phys, mag, cancelled


def _ignored(n: int) -> str:
    """« 2 choix demandés au-delà de la marge disponible : ignorés » (issue 15: no « (s) »)."""
    return _("{n} au-delà de la marge disponible : {ignored}").format(
        n=count(n, _("choix demandé")), ignored=words(n, _("ignoré"))
    )


def _final_events(
    panel: Panel,
    scn: Scenario,
    d: Defender,
    attack: Roll,
    defence: Roll | None,
    base: tuple[int, int, int, int, bool],
    final: tuple[int, int, int, int, bool],
    att_used: int,
    def_used: int,
) -> None:
    a = scn.attacker
    panel.add(
        "final_choice",
        G_FINAL,
        _("{name} : marge {m}, {c} choix").format(name=a.name, m=attack.margin, c=attack.choices),
        _("{n} × +1 dommage, {k} × −1 défense adverse").format(
            n=att_used, k=min(a.margin_malus, attack.choices - att_used)
        ),
        R_MARGIN,
    )
    if a.margin_damage > att_used:
        panel.add(
            "final_ignored",
            G_FINAL,
            a.name,
            _ignored(a.margin_damage - att_used),
            R_MARGIN,
        )
    if defence is not None:
        avail = defence.choices if defence.success else 0
        panel.add(
            "final_choice",
            G_FINAL,
            _("{name} : marge {m}, {c} choix").format(name=d.name, m=defence.margin, c=avail),
            _("{n} × −1 dommage, {k} × −1 attaque adverse").format(n=def_used, k=min(d.margin_malus, avail - def_used)),
            R_MARGIN,
        )
        if d.margin_damage > def_used:
            panel.add(
                "final_ignored",
                G_FINAL,
                d.name,
                _ignored(d.margin_damage - def_used),
                R_MARGIN,
            )
    panel.add(
        "final_before",
        G_FINAL,
        _("Avant les choix"),
        f"PHYS {base[2]} · MAG {base[3]}",
        R_MARGIN,
        phys=base[2],
        mag=base[3],
    )
    panel.add(
        "final_after",
        G_FINAL,
        _("Dommages finals"),
        f"PHYS {final[2]} · MAG {final[3]}",
        R_MARGIN,
        phys=final[2],
        mag=final[3],
    )


# --------------------------------------------------------------------------- the exchange


def initiative_of(scn: Scenario) -> tuple[int, list[tuple[str, int]]]:
    """Initiative and MV (§1: Nephilim Ka-Eau × 2, initié Ka-Soleil, autre PNJ as typed) plus the
    attacker's effects on speed (§12 Améthyste revêtue de flammes: « sinon +3
    vitesse/initiative/protection »): the base, and each effect's (name, bonus)."""
    a = scn.attacker
    base = a.initiative_ka * (2 if a.kind is AttackerKind.NEPHILIM else 1)
    strikes = plan(scn)
    s = situation_for(scn, strikes[0])
    fx = active_components(a.effects, True, s, None, False)
    return base, [(c.effect, c.value) for c in fx if c.kind is ComponentKind.INITIATIVE]


def _sheet(who: str, metamorphe: int, stase: bool, mnemos: bool, set_by: str = "", base: int = 0) -> list[Event]:
    """§1 Métamorphe, Stase, Mnémos of a Nephilim: shown; the seed gives them no number in combat
    but Régisseur de fureur's « métamorphe à 10 » (docs/rules/nephilim.md, issue 14)."""
    out: list[Event] = []
    if metamorphe or set_by:
        value = str(metamorphe)
        if set_by:
            value = _("{n} ({by} ; {base} sans lui)").format(n=metamorphe, by=set_by, base=base)
        out.append(
            Event("metamorphe", _("Métamorphe {who}").format(who=who), value, R_TYPES, G_INFO, {"value": metamorphe})
        )
    if stase:
        out.append(Event("stase", _("Stase {who}").format(who=who), _("oui, sans effet chiffré"), R_TYPES, G_INFO))
    if mnemos:
        out.append(Event("mnemos", _("Mnémos {who}").format(who=who), _("en jeu, sans effet chiffré"), R_TYPES, G_INFO))
    return out


def _info_events(scn: Scenario) -> list[Event]:
    a = scn.attacker
    out: list[Event] = []
    source = {"nephilim": "Ka-Eau × 2", "initie": "Ka-Soleil", "autre": "Menace ou Ka-élément"}[a.kind.value]
    base, bonuses = initiative_of(scn)
    total = base + sum(v for _n, v in bonuses)
    shown = str(base) + "".join(f" {signed(v)} ({name})" for name, v in bonuses) + (f" = {total}" if bonuses else "")
    out.append(
        Event(
            "initiative",
            _("Initiative et MV {a.de} ({source})").format(a=a.who, source=source),
            shown,
            R_TYPES if not bonuses else R_FX_ATT,
            G_INFO,
            {"value": total, "base": base},
        )
    )
    metamorphe, set_by = metamorphe_of(scn)
    if a.kind is AttackerKind.NEPHILIM:
        out.extend(_sheet(a.who.de, metamorphe, a.stase, a.mnemos, set_by, a.metamorphe))
    for d in scn.defenders:
        out.extend(_sheet(d.who.de, d.metamorphe, d.stase, d.mnemos))
    if a.approach.attacker_cannot_defend:
        out.append(
            Event(
                "no_defence",
                _("{approach} : {a} ne {a:peut/peuvent} pas se défendre ce round").format(
                    approach=a.approach.name, a=a.who
                ),
                "—",
                R_AM,
                G_INFO,
            )
        )
    if a.approach.aiming_rounds:
        out.append(
            Event(
                "aiming",
                _("{approach} : rounds de visée").format(approach=a.approach.name),
                str(a.approach.aiming_rounds),
                R_AD,
                G_INFO,
            )
        )
    if scn.rapid:
        out.append(Event("rapid", _("Attaque rapide : attaques (même type de défense)"), "2", R_RAPID, G_INFO))
    if len(scn.defenders) > 1:
        out.append(
            Event(
                "multi",
                _("{cadence} : cibles (une colonne chacune)").format(cadence=scn.cadence.label),
                str(len(scn.defenders)),
                R_MULTI,
                G_INFO,
            )
        )
    for d in scn.defenders:
        out.append(
            Event(
                "sensitivity",
                _("{name} : sensible aux dommages magiques").format(name=d.name),
                _("oui") if d.magic_sensitive else _("non"),
                R_SENS,
                G_INFO,
                {"sensitive": d.magic_sensitive},
            )
        )
    return out


def _outcome_numbers(o: StrikeOutcome) -> dict[str, Number]:
    dfc = o.defence
    return {
        "attack_roll": o.attack.face,
        "attack_degree": o.attack.degree,
        "attack_threshold": o.attack.threshold,
        "attack_margin": o.attack.margin,
        "attack_choices": o.attack.choices,
        "hit": o.hit,
        "critical": o.attack.critical,
        "fumble": o.attack.fumble,
        "defence_roll": dfc.face if dfc else None,
        "defence_degree": dfc.degree if dfc else None,
        "defence_threshold": dfc.threshold if dfc else None,
        "defence_success": dfc.success if dfc else False,
        "defence_critical": dfc.critical if dfc else False,
        "defence_fumble": dfc.fumble if dfc else False,
        "defence_margin": dfc.margin if dfc else 0,
        "defence_choices": dfc.choices if dfc else 0,
        "phys_raw": o.phys_raw,
        "mag_raw": o.mag_raw,
        "phys_before_choices": o.phys_before_choices,
        "mag_before_choices": o.mag_before_choices,
        "phys_taken": o.phys,
        "mag_taken": o.mag,
        "damage_taken": o.damage,
        "cancelled": o.cancelled,
        "tier": o.tier,
    }


def strikes_of(scn: Scenario, dice: DiceRoll) -> tuple[StrikeOutcome, ...]:
    out: list[StrikeOutcome] = []
    for st in plan(scn):
        def_face = dice[st.defence_slot] if st.defence_slot is not None else None
        out.append(resolve_strike(scn, st, dice[st.attack_slot], def_face))
    return tuple(out)


def resolve(scn: Scenario, dice: DiceRoll) -> Result:
    """Resolve the exchange: every strike, in order, with its events and numbers."""
    outcomes = strikes_of(scn, dice)
    events: list[Event] = _info_events(scn)
    numbers: dict[str, Number] = {"strikes": len(outcomes)}
    a = scn.attacker
    base, bonuses = initiative_of(scn)
    numbers["initiative"] = base + sum(v for _n, v in bonuses)
    numbers["metamorphe"] = metamorphe_of(scn)[0]
    next_defender_defence = 0
    next_attacker_attack = 0
    for o in outcomes:
        events.extend(o.events)
        for key, value in _outcome_numbers(o).items():
            numbers[f"s{o.strike.index}.{key}"] = value
        d = scn.defenders[o.strike.defender_index]
        if o.attack.success and a.margin_malus:
            used = min(a.margin_malus, o.attack.choices - o.attack_choices_used)
            next_defender_defence = max(next_defender_defence, used)
        if o.defence is not None and o.defence.success and d.margin_malus:
            used = min(d.margin_malus, o.defence.choices - o.defence_choices_used)
            next_attacker_attack += used
    if len(outcomes) == 1:
        numbers.update(_outcome_numbers(outcomes[0]))
    numbers["phys_taken"] = sum(o.phys for o in outcomes)
    numbers["mag_taken"] = sum(o.mag for o in outcomes)
    numbers["damage_taken"] = sum(o.damage for o in outcomes)
    numbers["hit"] = any(o.hit for o in outcomes)
    numbers["critical"] = any(o.attack.critical for o in outcomes)
    numbers["fumble"] = any(o.attack.fumble for o in outcomes)
    for i in range(len(scn.defenders)):
        mine = [o for o in outcomes if o.strike.defender_index == i]
        numbers[f"d{i + 1}.phys_taken"] = sum(o.phys for o in mine)
        numbers[f"d{i + 1}.mag_taken"] = sum(o.mag for o in mine)
        numbers[f"d{i + 1}.damage_taken"] = sum(o.damage for o in mine)
    # Round suivant.
    nexts: dict[str, int] = {}
    for o in outcomes:
        for key, value in o.next_round:
            nexts[key] = min(nexts.get(key, 0), value)
    if next_defender_defence:
        nexts["defender_defence"] = -next_defender_defence
    if next_attacker_attack:
        nexts["attacker_attack"] = -next_attacker_attack
    labels = {
        "defender_actions": _("Défenseur : actions au round suivant"),
        "defender_attack": _("Défenseur : attaque au round suivant"),
        "defender_defence": _("Défenseur : défense au round suivant"),
        "attacker_attack": _("{name} : attaque au round suivant").format(name=a.name),
    }
    for key, value in nexts.items():
        numbers[f"next.{key}"] = value
        events.append(Event("next_round", labels[key], signed(value), R_MARGIN, G_NEXT, {"key": key, "value": value}))
    tier = max((o.tier for o in outcomes), key=TIERS.index)
    tone = {
        "fumble": "failure",
        "miss": "failure",
        "dodged": "partial",
        "defended": "partial",
        "absorbed": "partial",
    }.get(tier, "success")
    numbers["tier"] = tier
    return Result(
        outcome=tier,
        outcome_label=_(TIER_LABELS[tier]),
        numbers=numbers,
        events=tuple(events),
        dice=dice,
        tone=tone,
    )
