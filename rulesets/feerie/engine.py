"""Contes de Fées: resolve one exchange (seed 004, « Le combat »).

Derived values (« Les grandeurs en jeu »)::

    Initiative   = Vigilance + Attributs              (+ tactique, surprise −8, embuscade ⌊marge/2⌋)
    Attaque      = Habileté (contact) | Vigilance (distance) + Attributs (+ tactique, situation)
    Défense      = Habileté − Taille (conflit physique) + Attributs (+ tactique, situation)
    Dommages     = Puissance + Taille (physique) + Attributs, −4 à distance (+ charge)
    Encaissement = Résistance + Taille (physique) + Attributs (+ couverture)

The attack total is Attaque + a dice term (``shared/rules/feerie.md``: 1d20 − 1d20 by default). It
hits when total ≥ Défense; margin = total − Défense; Essence lost = ⌊margin/2⌋ + Dommages −
Encaissement, never below 0. A special blow replaces the loss by its effect. A failure margin at
or below the incident threshold is an incident: self-inflicted ⌊|margin|/2⌋ + Dommages − own
Encaissement. An inanimate object takes no attack roll: Dommages + dice term − its Encaissement.

:func:`derive` computes every quantity with its sources (no dice); :func:`settle` applies one
dice term; :func:`resolve` turns both into ordered events. The odds use the same two functions.
"""

from __future__ import annotations

from dataclasses import dataclass

from rulesets.core.dice import DiceRoll, DiceSlot, DiceSpec, Die, numeric_die
from rulesets.core.french import Noun, count, quote, signed
from rulesets.core.i18n import _
from rulesets.core.results import Event, Result
from rulesets.feerie.angles import Crowding, crowding
from rulesets.feerie.model import (
    Attribute,
    AttributeKind,
    Blow,
    BlowKind,
    Combatant,
    CoverMode,
    Exchange,
    Pace,
)
from rulesets.feerie.speech import who

SEED = "Seed 004 « Le combat »"
R_GRANDEURS = f"{SEED} — Les grandeurs en jeu"
R_TACTIQUES = f"{SEED} — Les tactiques"
R_RESOLUTION = f"{SEED} — La séquence d'une Action, 4) Résolution des activités"
R_EFFETS = f"{SEED} — La séquence d'une Action, 5) Effets"
R_SURPRISE = f"{SEED} — Diverses situations de combat, Surprise"
R_ANGLES = f"{SEED} — Adversaires multiples"
R_DEPLACEMENT = f"{SEED} — Déplacement en combat"
R_COUVERTURE = f"{SEED} — Couverture"
R_ECLAIREMENT = f"{SEED} — Eclairement"
R_DISTANCE = f"{SEED} — Attaques à distance"
R_VISER = f"{SEED} — Attaques à distance, Viser"
R_AUTRES = f"{SEED} — Attaques à distance, Autres paramètres sensibles"
R_INANIME = f"{SEED} — Frapper des objets inanimés"
R_MONTE = f"{SEED} — Le Combat Monté"
R_COUPS = f"{SEED} — Les coups spéciaux"
R_DES = "shared/rules/feerie.md — The roll"

RANGED_DAMAGE_MALUS = -4  # « Les Dommages des attaques à distance sont diminués de 4 »
SURPRISE_INITIATIVE = -8
SURPRISE_DEFENSE = -4
FOOT_VS_RIDER_BASE = 4  # « malus égal à 4 + Taille de la monture – Taille du piéton »

G_ATT = "Attaquant"
G_DEF = "Défenseur"
G_JET = "Jet"
G_EFFETS = "Effets"
G_SITUATION = "Situation"


def attacker_who(s: Exchange) -> Noun:
    """The attacker as the texts name it: « le Wichtln », or « l'attaquant » without a name."""
    return who(s.attacker.name, s.attacker.grammar, _("attaquant"))


def defender_who(s: Exchange) -> Noun:
    """The defender as the texts name it: « le Lutin », or « le défenseur » without a name."""
    return who(s.defender.name, s.defender.grammar, _("défenseur"))


def attribute_label(a: Attribute) -> str:
    """An Attribut in a technical line: its nature, and its name as a label (« Accessoire « marteau » »)."""
    return f"{a.kind.label} {quote(a.name)}" if a.name.strip() else str(a.kind.label)


@dataclass(frozen=True, slots=True)
class Term:
    label: str
    value: int
    rule: str


@dataclass(frozen=True, slots=True)
class Quantity:
    """A derived value and each of its sources, in the order the rules add them."""

    key: str
    label: str
    terms: tuple[Term, ...]
    fixed: int | None = None  # a value imposed by a rule (helpless defender: Défense 0)

    @property
    def total(self) -> int:
        if self.fixed is not None:
            return self.fixed
        return sum(t.value for t in self.terms)


def typed(label: str, overridden: bool, rule: int, *, signed_rule: bool = True) -> str:
    """A term's label, and « valeur saisie » when a typed number replaces the rule's (issue 14: a
    typed value is an explicit override, shown as such)."""
    if not overridden:
        return label
    shown = signed(rule) if signed_rule and rule else str(rule)
    return _("{label} (valeur saisie ; la règle : {rule})").format(label=label, rule=shown)


def _attrs(c: Combatant, flag: str) -> list[Attribute]:
    return [a for a in c.attributes if getattr(a, flag)]


def _attr_terms(c: Combatant, flag: str) -> list[Term]:
    return [Term(attribute_label(a), a.value, R_GRANDEURS) for a in _attrs(c, flag) if a.value]


@dataclass(frozen=True, slots=True)
class Derivation:
    attacker_initiative: Quantity
    attack: Quantity
    damage: Quantity
    attacker_defense: Quantity
    attacker_soak: Quantity
    defender_initiative: Quantity
    defense: Quantity
    soak: Quantity
    crowd: Crowding | None
    notes: tuple[Event, ...]


def _initiative(c: Combatant, *, surprised: bool, ambush_margin: int) -> Quantity:
    terms = [Term(_("Vigilance"), c.vigilance, R_GRANDEURS), *_attr_terms(c, "initiative")]
    if c.tactic.initiative:
        terms.append(Term(_("Tactique"), c.tactic.initiative, R_TACTIQUES))
    if surprised:
        terms.append(Term(_("Surpris"), SURPRISE_INITIATIVE, R_SURPRISE))
    if ambush_margin // 2:
        terms.append(Term(_("Embuscade (moitié de la marge de dissimulation)"), ambush_margin // 2, R_SURPRISE))
    if c.modifiers.initiative:
        terms.append(Term(_("Bonus/malus occasionnel"), c.modifiers.initiative, R_GRANDEURS))
    return Quantity("initiative", _("Initiative"), tuple(terms))


def _own_defense(c: Combatant, physical: bool, blow_malus: int) -> Quantity:
    terms = [Term(_("Habileté"), c.habilete, R_GRANDEURS)]
    if physical and c.taille:
        terms.append(Term(_("− Taille"), -c.taille, R_GRANDEURS))
    terms += _attr_terms(c, "defense")
    if c.tactic.defense:
        terms.append(Term(_("Tactique"), c.tactic.defense, R_TACTIQUES))
    if c.modifiers.defense:
        terms.append(Term(_("Bonus/malus occasionnel"), c.modifiers.defense, R_GRANDEURS))
    if blow_malus:
        terms.append(Term(_("Coup spécial (malus de Défense)"), blow_malus, R_COUPS))
    return Quantity("attacker_defense", _("Défense de l'attaquant"), tuple(terms))


def _own_soak(c: Combatant, physical: bool) -> list[Term]:
    terms = [Term(_("Résistance"), c.resistance, R_GRANDEURS)]
    if physical and c.taille:
        terms.append(Term(_("Taille"), c.taille, R_GRANDEURS))
    terms += _attr_terms(c, "soak")
    if c.modifiers.soak:
        terms.append(Term(_("Bonus/malus occasionnel"), c.modifiers.soak, R_GRANDEURS))
    return terms


def halved_malus(malus: int) -> int:
    """A malus divided by 2, rounded toward zero in size (−4 → −2, −6 → −3)."""
    return -((-malus) // 2)


def derive(s: Exchange) -> Derivation:
    """Every quantity of the exchange with its sources; no dice."""
    a, d, sit = s.attacker, s.defender, s.situation
    notes: list[Event] = []
    ranged = s.ranged
    blow_kinds = {b.kind for b in s.active_blows}

    # --- Attaque -------------------------------------------------------------------------------
    att: list[Term] = [
        Term(_("Vigilance (à distance)"), a.vigilance, R_GRANDEURS)
        if ranged
        else Term(_("Habileté (au contact)"), a.habilete, R_GRANDEURS)
    ]
    attack_attrs = _attrs(a, "attack")
    if a.mount.mounted and a.mount.riding_affinity is not None:
        affinities = sum(x.value for x in attack_attrs if x.kind is AttributeKind.AFFINITE)
        others = [x for x in attack_attrs if x.kind is not AttributeKind.AFFINITE]
        att += [Term(attribute_label(x), x.value, R_GRANDEURS) for x in others if x.value]
        capped = min(affinities, a.mount.riding_affinity)
        if capped:
            att.append(Term(_("Affinités de combat (plafonnées par l'Affinité de monture)"), capped, R_MONTE))
    else:
        att += _attr_terms(a, "attack")
    if a.tactic.attack:
        att.append(Term(_("Tactique"), a.tactic.attack, R_TACTIQUES))
    if a.modifiers.attack:
        att.append(Term(_("Bonus/malus occasionnel"), a.modifiers.attack, R_GRANDEURS))
    mv = sit.movement
    pace = mv.numbers  # the allure's own numbers (issue 14), or the typed overrides
    if mv.pace is not Pace.NONE and pace.malus:
        label = _("Charge, allure : {pace}") if sit.charge else _("Déplacement, allure : {pace}")
        att.append(
            Term(
                typed(label.format(pace=mv.pace.label), mv.overridden("malus"), mv.rule.malus),
                pace.malus,
                R_DEPLACEMENT,
            )
        )
    if mv.pace is not Pace.NONE and pace.divisor:
        distance = (a.habilete + a.taille) // pace.divisor
        notes.append(
            Event(
                "movement",
                typed(
                    _("Distance parcourue ({pace})").format(pace=mv.pace.label),
                    mv.overridden("divisor"),
                    mv.rule.divisor,
                    signed_rule=False,
                ),
                str(distance),
                R_DEPLACEMENT,
                G_SITUATION,
                {"distance": distance, "pace": mv.pace.value},
            )
        )
    if ranged:
        tm = sit.target_movement
        if tm.pace is not Pace.NONE and tm.numbers.malus:
            att.append(
                Term(
                    typed(
                        _("Cible en mouvement ({pace}, malus divisé par 2)").format(pace=tm.pace.label),
                        tm.overridden("malus"),
                        tm.rule.malus,
                    ),
                    halved_malus(tm.numbers.malus),
                    R_AUTRES,
                )
            )
        if sit.terrain:
            att.append(Term(_("Encombrement du terrain"), sit.terrain, R_AUTRES))
        if sit.aim_ranks:
            att.append(Term(_("Visée ({n})").format(n=count(sit.aim_ranks, _("rang"))), sit.aim_ranks, R_VISER))
    if sit.lighting:
        value = sit.lighting * 2 if ranged else sit.lighting
        label = _("Éclairement (doublé à distance)") if ranged else _("Éclairement")
        att.append(Term(label, value, R_ECLAIREMENT))
    if sit.cover.mode is CoverMode.THROUGH and sit.cover.opacity_malus:
        att.append(Term(_("Frapper au travers de la couverture"), sit.cover.opacity_malus, R_COUVERTURE))
    if d.mount.mounted and not a.mount.mounted and not ranged:
        malus = -max(0, FOOT_VS_RIDER_BASE + d.mount.taille - a.taille)
        if malus:
            att.append(
                Term(_("Fantassin contre cavalier (4 + Taille de la monture − Taille du piéton)"), malus, R_MONTE)
            )
    for b in s.active_blows:
        # the blow's own malus (issue 14: its name carries it), or the typed override
        malus = b.attack_malus_for(ranged)
        rule = Blow(b.kind).attack_malus_for(ranged)
        overridden = malus != rule
        if b.kind is BlowKind.HOLD_OFF:
            malus += a.taille - d.taille
        elif b.kind is BlowKind.INSIDE_GUARD:
            malus += d.taille - a.taille
        if malus:
            label = _("Coup spécial : {blow}").format(blow=b.kind.label)
            att.append(Term(typed(label, overridden, rule), malus, R_COUPS))
    attack = Quantity("attack", _("Attaque"), tuple(att))

    # --- Dommages -------------------------------------------------------------------------------
    dmg: list[Term] = [Term(_("Puissance"), a.puissance, R_GRANDEURS)]
    if s.physical:
        if a.mount.mounted and sit.charge:
            if a.mount.taille > 0:
                dmg.append(Term(_("Taille du cavalier"), a.taille, R_MONTE))
                dmg.append(Term(_("Taille de la monture (charge montée)"), a.mount.taille, R_MONTE))
            else:
                dmg.append(
                    Term(
                        _("Plus grande Taille du cavalier et de la monture (charge montée)"),
                        max(a.taille, a.mount.taille),
                        R_MONTE,
                    )
                )
        elif a.taille:
            dmg.append(Term(_("Taille"), a.taille, R_GRANDEURS))
    dmg += _attr_terms(a, "damage")
    if ranged:
        dmg.append(Term(_("Attaque à distance"), RANGED_DAMAGE_MALUS, R_GRANDEURS))
    if sit.charge and pace.charge_bonus:
        dmg.append(
            Term(
                typed(
                    _("Charge ({pace})").format(pace=mv.pace.label),
                    mv.overridden("charge_bonus"),
                    mv.rule.charge_bonus,
                ),
                pace.charge_bonus,
                R_MONTE if a.mount.mounted else R_DEPLACEMENT,
            )
        )
    if BlowKind.RELENTLESS in blow_kinds and s.previous_loss // 4:
        dmg.append(Term(_("Acharnement (quart des pertes précédentes)"), s.previous_loss // 4, R_COUPS))
    if a.modifiers.damage:
        dmg.append(Term(_("Bonus/malus occasionnel"), a.modifiers.damage, R_GRANDEURS))
    damage = Quantity("damage", _("Dommages"), tuple(dmg))

    # --- Défense du défenseur -------------------------------------------------------------------
    crowd: Crowding | None = None
    df: list[Term] = []
    if BlowKind.DISARM in blow_kinds:
        df.append(Term(_("Puissance (désarmer)"), d.puissance, R_COUPS))
    elif sit.defender_rider_passive and d.mount.mounted:
        df.append(Term(_("Habileté de la monture (cavalier qui n'attaque pas)"), d.mount.habilete, R_MONTE))
    else:
        df.append(Term(_("Habileté"), d.habilete, R_GRANDEURS))
    if d.taille and (s.physical or sit.defender_rider_passive):
        df.append(Term(_("− Taille"), -d.taille, R_GRANDEURS))
    df += _attr_terms(d, "defense")
    if d.tactic.defense:
        df.append(Term(_("Tactique"), d.tactic.defense, R_TACTIQUES))
    if d.modifiers.defense:
        df.append(Term(_("Bonus/malus occasionnel"), d.modifiers.defense, R_GRANDEURS))
    if sit.surprised:
        df.append(Term(_("Surpris"), SURPRISE_DEFENSE, R_SURPRISE))
    if not ranged and s.co_attacker_tailles:
        crowd = crowding(
            d.taille, (a.taille, *s.co_attacker_tailles), sit.open_angles, sit.surfaces, sit.occupied_angles
        )
        if crowd.defense_malus:
            df.append(
                Term(
                    _("Angles d'attaque occupés au-delà du premier ({n})").format(n=crowd.occupied_angles - 1),
                    crowd.defense_malus,
                    R_ANGLES,
                )
            )
    if ranged:
        if sit.difficulty:
            df.append(Term(_("Difficulté du tir"), sit.difficulty, R_DISTANCE))
        if sit.range_modifier:
            df.append(Term(_("Portée de tir"), sit.range_modifier, R_DISTANCE))
    if sit.cover.mode is CoverMode.EXPOSED and sit.cover.exposed_modifier:
        df.append(Term(_("Couverture : parties exposées (taille apparente)"), sit.cover.exposed_modifier, R_COUVERTURE))
    defense = Quantity("defense", _("Défense"), tuple(df), fixed=0 if sit.defender_helpless else None)

    # --- Encaissement du défenseur --------------------------------------------------------------
    sk = _own_soak(d, s.physical)
    cover = sit.cover
    if cover.mode is CoverMode.THROUGH:
        if cover.influence_bonus is not None:
            sk.append(Term(_("Couverture créée par Influence"), cover.influence_bonus, R_COUVERTURE))
        else:
            bonus = cover.owner_encaissement * cover.quarters // 4
            share = _("{q}/4 de l'Encaissement du propriétaire").format(q=cover.quarters)
            label = (
                _("Couverture {material} ({share})").format(material=quote(cover.material), share=share)
                if cover.material.strip()
                else _("Couverture ({share})").format(share=share)
            )
            sk.append(Term(label, bonus, R_COUVERTURE))
    soak = Quantity("soak", _("Encaissement"), tuple(sk))
    if sit.target_inanimate:
        soak = Quantity(
            "soak", _("Encaissement de l'objet"), (Term(_("Objet inanimé"), sit.object_encaissement, R_INANIME),)
        )

    blow_def = sum(b.numbers.defense_malus for b in s.active_blows)
    return Derivation(
        attacker_initiative=_initiative(a, surprised=False, ambush_margin=sit.ambush_margin),
        attack=attack,
        damage=damage,
        attacker_defense=_own_defense(a, s.physical, blow_def),
        attacker_soak=Quantity("attacker_soak", _("Encaissement de l'attaquant"), tuple(_own_soak(a, s.physical))),
        defender_initiative=_initiative(d, surprised=sit.surprised, ambush_margin=0),
        defense=defense,
        soak=soak,
        crowd=crowd,
        notes=tuple(notes),
    )


# --- one dice term ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Effect:
    kind: str
    label: str
    value: int


@dataclass(frozen=True, slots=True)
class Settlement:
    outcome: str
    total: int
    margin: int
    raw_damage: int  # ⌊margin/2⌋ + Dommages (« Dommages infligés avant Encaissement »)
    would_lose: int  # what a simple attack would have cost
    essence_lost: int
    self_loss: int  # incident: ⌊|margin|/2⌋ + Dommages − own Encaissement
    effects: tuple[Effect, ...]


OUTCOMES = {
    "hit": (_("Touché, avec perte d'Essence"), "success"),
    "hit_no_loss": (_("Touché sans perte d'Essence"), "partial"),
    "blow": (_("Coup spécial réussi"), "success"),
    "miss": (_("Manqué"), "failure"),
    "incident": (_("Incident (très mauvais échec)"), "failure"),
    "object_damaged": (_("Objet endommagé"), "success"),
    "object_unharmed": (_("Objet intact"), "partial"),
}


def _blow_effects(s: Exchange, dv: Derivation, margin: int, raw: int, would: int) -> list[Effect]:
    """The effect of each special blow (« Les coups spéciaux »), told with the defender's name."""
    out: list[Effect] = []
    a, d = attacker_who(s), defender_who(s)

    def say(template: str, **values: object) -> str:
        return template.format(a=a, d=d, **values)

    for b in s.active_blows:
        k = b.kind
        value = b.numbers.effect_value  # the blow's own (issue 14), or the typed override
        if k is BlowKind.DISARM:
            text = say(
                _(
                    "{d.Subject} {d[est|sont]} {d[désarmé]} : {d[son arme vole|son arme vole|leurs armes volent]} à quelques pas."
                )
            )
            out.append(Effect(k.value, text, 1))
        elif k is BlowKind.TRIP:
            text = say(
                _(
                    "{d.Subject} {d[tombe|tombent]} à terre : {v} à toutes {d[ses|leurs]} activités tant {d[qu'il ne s'est|qu'elle ne s'est|qu'ils ne se sont|qu'elles ne se sont]} pas {d[relevé]}."
                ),
                v=signed(-value),
            )
            out.append(Effect(k.value, text, -value))
        elif k is BlowKind.ENTANGLE:
            if s.ranged:
                text = say(
                    _(
                        "{d.Subject} {d[est|sont]} {d[cloué]} : malus de {v} ; pour se dégager, jet de Puissance contre "
                        "{diff} (Dommages + moitié de la marge)."
                    ),
                    v=signed(-margin),
                    diff=raw,
                )
            else:
                text = say(
                    _(
                        "{d.Subject} {d[est|sont]} {d[entravé]} : malus de {v} tant {d[qu'il ne s'est|qu'elle ne s'est|qu'ils ne se sont|qu'elles ne se sont]} pas {d[dégagé]} (Puissance contre Puissance)."
                    ),
                    v=signed(-margin),
                )
            out.append(Effect(k.value, text, -margin))
        elif k is BlowKind.STUN:
            text = say(
                _(
                    "{d.Subject} {d[est|sont]} {d[étourdi]} : {v} à toutes {d[ses|leurs]} activités, un point de moins par rang d'Initiative."
                ),
                v=signed(-would),
            )
            out.append(Effect(k.value, text, -would))
        elif k is BlowKind.HOLD_OFF:
            text = say(
                _(
                    "{d.Subject} {d[est|sont]} {d[tenu]} en respect : {v} à {d[son|son|leur]} Attaque jusqu'à ce "
                    "{d[qu'il entre|qu'elle entre|qu'ils entrent|qu'elles entrent]} dans la garde."
                ),
                v=signed(-value),
            )
            out.append(Effect(k.value, text, -value))
        elif k is BlowKind.INSIDE_GUARD:
            text = say(
                _(
                    "{a.Subject} {a[est|sont]} {a[entré]} dans la garde {d.de} : {v} à l'Attaque {d.de} jusqu'à ce "
                    "{d[qu'il|qu'elle|qu'ils|qu'elles]} {a[le|la|les]} {d[tienne|tiennent]} en respect."
                ),
                v=signed(-value),
            )
            out.append(Effect(k.value, text, -value))
        elif k is BlowKind.CRIPPLE:
            if would >= 1:
                text = say(
                    _("Un organe {d.de} est hors d'usage pendant {n}."),
                    n=count(raw, _("rang d'Initiative"), _("rangs d'Initiative")),
                )
                out.append(Effect(k.value, text, raw))
            else:
                out.append(
                    Effect(k.value, _("Aucun point d'Essence n'aurait été infligé : aucun organe hors d'usage."), 0)
                )
        elif k is BlowKind.RELENTLESS:
            out.append(
                Effect(k.value, _("L'arme reste dans la plaie ; elle sera délogée à la première Attaque manquée."), 0)
            )
        elif k is BlowKind.FRIGHTENING:
            n = raw // value if value else 0
            text = say(
                _(
                    "Coup effrayant : Charme {a.de} modifié de {v} auprès des témoins pour {a[sa|leur]} prochaine intimidation."
                ),
                v=signed(-n),
            )
            out.append(Effect(k.value, text, -n))
        elif k is BlowKind.KNOCKBACK:
            n = raw // value if value else 0
            text = say(_("{d.Subject} {d[est|sont]} {d[projeté]} à {n} de distance."), n=count(n, _("unité")))
            out.append(Effect(k.value, text, n))
    return out


def settle(s: Exchange, dv: Derivation, term: int) -> Settlement:
    """The outcome of the exchange for one value of the dice term."""
    damage, soak = dv.damage.total, dv.soak.total
    if s.situation.target_inanimate:
        total = damage + term
        if total < 0:
            return Settlement("incident", total, total, total, 0, 0, 0, ())
        lost = max(0, total - soak)
        return Settlement("object_damaged" if lost else "object_unharmed", total, total, total, lost, lost, 0, ())
    total = dv.attack.total + term
    margin = total - dv.defense.total
    if margin < 0:
        if margin <= s.incident_threshold:
            self_loss = max(0, (-margin) // 2 + damage - dv.attacker_soak.total)
            return Settlement("incident", total, margin, 0, 0, 0, self_loss, ())
        return Settlement("miss", total, margin, 0, 0, 0, 0, ())
    raw = margin // 2 + damage
    would = max(0, raw - soak)
    replacing = [b for b in s.active_blows if b.kind is not BlowKind.RELENTLESS]
    effects = tuple(_blow_effects(s, dv, margin, raw, would))
    if replacing:
        return Settlement("blow", total, margin, raw, would, 0, 0, effects)
    return Settlement("hit" if would else "hit_no_loss", total, margin, raw, would, would, 0, effects)


# --- dice -----------------------------------------------------------------------------------------


def term_die(s: Exchange) -> Die:
    return numeric_die(f"d{s.roll.sides}", s.roll.sides)


def slot_label(roll: str, sign: str, die: str, i: int, count: int) -> str:
    """A short dice-box label that fits a phone: "Jet d'Attaque : +d20" ("… : −d20 n°2" when several)."""
    return f"{roll} : {sign}{die}" + (f" n°{i}" if count > 1 else "")


def dice_for(s: Exchange) -> DiceSpec:
    """The dice term's dice (none when the game master typed the term itself)."""
    if s.term is not None:
        return DiceSpec(())
    die = term_die(s)
    roll = _("Jet de Dommages") if s.situation.target_inanimate else _("Jet d'Attaque")
    slots = [
        DiceSlot(f"plus.{i}", die, slot_label(roll, "+", die.name, i, s.roll.plus)) for i in range(1, s.roll.plus + 1)
    ]
    slots += [
        DiceSlot(f"moins.{i}", die, slot_label(roll, "−", die.name, i, s.roll.minus))
        for i in range(1, s.roll.minus + 1)
    ]
    return DiceSpec(tuple(slots))


def read_term(s: Exchange, dice: DiceRoll) -> int:
    if s.term is not None:
        return s.term
    return sum(dice.of("plus")) - sum(dice.of("moins"))


# --- events -----------------------------------------------------------------------------------------


def quantity_events(q: Quantity, group: str, who: str) -> list[Event]:
    out = [
        Event(
            "term",
            t.label,
            signed(t.value) if i else str(t.value),
            t.rule,
            group,
            {"quantity": q.key, "who": who, "value": t.value},
        )
        for i, t in enumerate(q.terms)
    ]
    if q.fixed is not None:
        out.append(
            Event(
                "term",
                _("Défenseur incapable de se défendre : Défense réduite à zéro"),
                "0",
                R_INANIME,
                group,
                {"quantity": q.key, "who": who, "value": 0},
            )
        )
    out.append(
        Event(
            "total",
            f"= {q.label}",
            str(q.total),
            q.terms[0].rule if q.terms else "",
            group,
            {"quantity": q.key, "who": who, "value": q.total},
        )
    )
    return out


def resolve(s: Exchange, dice: DiceRoll) -> Result:
    dv = derive(s)
    a, d, sit = s.attacker, s.defender, s.situation
    term = read_term(s, dice)
    st = settle(s, dv, term)
    ev: list[Event] = []
    att_group = f"{G_ATT} : {a.name}" if a.name else G_ATT
    def_group = f"{G_DEF} : {d.name}" if d.name else G_DEF
    ev += quantity_events(dv.attacker_initiative, att_group, "attacker")
    if not sit.target_inanimate:
        ev += quantity_events(dv.attack, att_group, "attacker")
    ev += quantity_events(dv.damage, att_group, "attacker")
    if any(b.numbers.defense_malus for b in s.active_blows):
        ev += quantity_events(dv.attacker_defense, att_group, "attacker")
    if not sit.target_inanimate:
        ev += quantity_events(dv.defender_initiative, def_group, "defender")
        ev += quantity_events(dv.defense, def_group, "defender")
    ev += quantity_events(dv.soak, def_group, "defender")
    if dv.crowd is not None:
        c = dv.crowd
        ev.append(
            Event(
                "angles",
                (
                    _("Angles d'attaque : surface {s} par angle, {n}, {o} (placement du meneur)")
                    if sit.occupied_angles is not None
                    else _("Angles d'attaque : surface {s} par angle, {n}, {o}")
                ).format(
                    s=c.angle_surface,
                    n=count(c.open_angles, _("angle ouvert"), _("angles ouverts")),
                    o=count(c.occupied_angles, _("occupé"), _("occupés")),
                ),
                signed(c.defense_malus),
                R_ANGLES,
                G_SITUATION,
                {
                    "occupied": c.occupied_angles,
                    "fewest": c.fewest,
                    "most": c.most,
                    "placed": sit.occupied_angles is not None,
                    "malus": c.defense_malus,
                    "admitted": list(c.admitted),
                    "refused": list(c.refused),
                    "sole_giant": c.sole_giant,
                },
            )
        )
    ev += list(dv.notes)
    # dice
    if s.term is not None:
        ev.append(Event("dice", _("Terme de dés saisi"), signed(term), R_DES, G_JET, {"term": term}))
    else:
        faces = [str(v) for v in dice.of("plus")]
        minus = [str(v) for v in dice.of("moins")]
        shown = " + ".join(faces) + ("".join(f" − {m}" for m in minus))
        ev.append(
            Event(
                "dice",
                _("Dés ({dice}) : {shown}").format(dice=s.roll.describe(), shown=shown),
                signed(term),
                R_DES,
                G_JET,
                {"term": term},
            )
        )
    if sit.target_inanimate:
        ev.append(
            Event("roll", _("Jet de Dommages (Dommages + dés)"), str(st.total), R_INANIME, G_JET, {"total": st.total})
        )
        if st.outcome == "incident":
            ev.append(
                Event(
                    "incident",
                    _("Total négatif : incident (coup à côté, arme brisée, pied frappé…)"),
                    "",
                    R_INANIME,
                    G_EFFETS,
                )
            )
        else:
            ev.append(
                Event(
                    "essence",
                    _("Dommages − Encaissement de l'objet"),
                    str(st.essence_lost),
                    R_INANIME,
                    G_EFFETS,
                    {"lost": st.essence_lost},
                )
            )
    else:
        ev.append(
            Event("roll", _("Total d'Attaque (Attaque + dés)"), str(st.total), R_GRANDEURS, G_JET, {"total": st.total})
        )
        ev.append(
            Event(
                "margin",
                _("Marge (total − Défense {defense})").format(defense=dv.defense.total),
                signed(st.margin),
                R_EFFETS,
                G_JET,
                {"margin": st.margin},
            )
        )
        if st.margin >= 0:
            ev.append(
                Event(
                    "raw_damage",
                    _("Moitié de la marge ({half}) + Dommages ({dmg})").format(
                        half=st.margin // 2, dmg=dv.damage.total
                    ),
                    str(st.raw_damage),
                    R_EFFETS,
                    G_EFFETS,
                    {"raw": st.raw_damage},
                )
            )
            ev.append(
                Event(
                    "would_lose",
                    _("− Encaissement ({soak}), jamais moins de 0").format(soak=dv.soak.total),
                    str(st.would_lose),
                    R_EFFETS,
                    G_EFFETS,
                    {"would_lose": st.would_lose},
                )
            )
            for e in st.effects:
                ev.append(
                    Event(
                        "blow",
                        e.label,
                        signed(e.value) if e.value else "",
                        R_COUPS,
                        G_EFFETS,
                        {"blow": e.kind, "value": e.value},
                    )
                )
            if st.outcome == "blow":
                ev.append(
                    Event("essence", _("Coup spécial : pas de perte d'Essence"), "0", R_COUPS, G_EFFETS, {"lost": 0})
                )
            else:
                ev.append(
                    Event(
                        "essence",
                        _("Essence perdue par {d.subject}").format(d=defender_who(s)),
                        str(st.essence_lost),
                        R_EFFETS,
                        G_EFFETS,
                        {"lost": st.essence_lost},
                    )
                )
        elif st.outcome == "incident":
            ev.append(
                Event(
                    "incident",
                    _(
                        "Très mauvais échec (marge ≤ {t}) : incident ; perte d'Essence si {a.subject} se "
                        "{a[blesse|blessent]} {a[lui-même|elle-même|eux-mêmes|elles-mêmes]}"
                    ).format(t=signed(s.incident_threshold), a=attacker_who(s)),
                    str(st.self_loss),
                    R_RESOLUTION,
                    G_EFFETS,
                    {"self_loss": st.self_loss},
                )
            )
        else:
            ev.append(Event("miss", _("L'attaque est parée ou esquivée"), "", R_EFFETS, G_EFFETS))
    label, tone = OUTCOMES[st.outcome]
    before = d.essence
    after = max(0, before - st.essence_lost) if not sit.target_inanimate else before
    numbers: dict[str, int | str | bool | None] = {
        "initiative": dv.attacker_initiative.total,
        "defender_initiative": dv.defender_initiative.total,
        "attack": dv.attack.total,
        "defense": dv.defense.total,
        "damage": dv.damage.total,
        "soak": dv.soak.total,
        "dice_term": term,
        "total": st.total,
        "margin": st.margin,
        "hit": st.outcome in ("hit", "hit_no_loss", "blow"),
        "raw_damage": st.raw_damage,
        "essence_lost": st.essence_lost,
        "essence_before": before,
        "essence_after": after,
        "self_loss": st.self_loss,
        "occupied_angles": dv.crowd.occupied_angles if dv.crowd else None,
    }
    for e in st.effects:
        numbers[f"effect_{e.kind}"] = e.value
    return Result(st.outcome, label, numbers, tuple(ev), dice, tone)
