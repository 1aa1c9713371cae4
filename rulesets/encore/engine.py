"""enCORE conflict resolution (seed ``003`` « Les conflits »; ``shared/rules/encore.md``).

A PC rolls a pool of d6 against a number of successes to reach (the NPC's Menace, or a
difficulty); the outcome tier decides damage and whether a breach opens, in which an NPC strikes
without a roll. Every step is an :class:`Event` citing the rule applied.
"""

from __future__ import annotations

from dataclasses import dataclass

from rulesets.core.dice import D6, DiceRoll, DiceSpec, pool
from rulesets.core.french import Noun, count, signed
from rulesets.core.i18n import _
from rulesets.core.results import Event, Number, Result
from rulesets.core.schema import ScenarioError
from rulesets.encore.model import NPC, PC, Action, Rules, Scenario, conj, focus_refused

R_ROLL = "enCORE — Agir contre un PNJ"
R_DAMAGE = "enCORE — Attaquer et blesser"
R_COVER = "enCORE — Couvert"
R_BREACH = "enCORE — La brèche"
R_ATTACKS = "enCORE — Les attaques des PNJ"
R_INTERPOSE = "enCORE — S'interposer"
R_AREA = "enCORE — Armes de zone"
R_MANOEUVRE = "enCORE — Manœuvres"
R_AMBUSH = "enCORE — Embuscade"
R_NON_COMBAT = "enCORE — Ne pas combattre"
R_OPPOSITION = "enCORE — Opposition entre PJ"
R_END = "enCORE — Fin du conflit"
R_HEALTH = "enCORE — Santé et Stress (décision Estoc)"

REUSSITE, PARTIELLE, ECHEC = "reussite", "partielle", "echec"
VICTOIRE, DEFAITE, EGALITE = "victoire", "defaite", "egalite"
EVITE, EVITE_COMPLICATION, TOUCHE = "evite", "evite_complication", "touche"


_OUTCOME_SOURCES = {
    REUSSITE: "Réussite",
    PARTIELLE: "Réussite partielle",
    ECHEC: "Échec",
    VICTOIRE: "Le PJ l'emporte",
    DEFAITE: "L'autre PJ l'emporte",
    EGALITE: "Égalité : personne ne l'emporte",
    EVITE: "Attaque évitée",
    EVITE_COMPLICATION: "Attaque évitée, avec une complication",
    TOUCHE: "Le PJ est touché",
}
# the same texts marked for makemessages (translated one at a time by outcome_label)
_MARKED = (
    _("Réussite"),
    _("Réussite partielle"),
    _("Échec"),
    _("Le PJ l'emporte"),
    _("L'autre PJ l'emporte"),
    _("Égalité : personne ne l'emporte"),
    _("Attaque évitée"),
    _("Attaque évitée, avec une complication"),
    _("Le PJ est touché"),
)


def outcome_label(code: str) -> str:
    """French label of an outcome code (translated at call time)."""
    return _(_OUTCOME_SOURCES[code])


TONES = {
    REUSSITE: "success",
    VICTOIRE: "success",
    EVITE: "success",
    PARTIELLE: "partial",
    EVITE_COMPLICATION: "partial",
    EGALITE: "partial",
    ECHEC: "failure",
    DEFAITE: "failure",
    TOUCHE: "failure",
}
G_ROLL, G_DAMAGE, G_BREACH, G_HEALTH = _("Jet"), _("Dégâts"), _("Brèche"), _("Santé et Stress")


# --- pools -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PoolPart:
    label: str
    dice: int
    rule: str


def target_npcs(scenario: Scenario) -> tuple[NPC, ...]:
    if scenario.action in (Action.NON_COMBAT, Action.OPPOSITION):
        return ()
    if scenario.action is Action.AREA:
        return scenario.npcs
    return scenario.npcs[:1]


def pool_parts(pc: PC, rules: Rules, cover_malus: int, with_allies: bool = True) -> tuple[PoolPart, ...]:
    """The dice a PC rolls, each part with its source."""
    parts = [PoolPart(_("Attribut"), pc.attribute, R_ROLL)]
    if pc.speciality and rules.speciality_dice:
        parts.append(PoolPart(_("Spécialité"), rules.speciality_dice, R_ROLL))
    if with_allies and pc.bonus_dice:
        parts.append(PoolPart(_("Avantages des alliés"), pc.bonus_dice, R_MANOEUVRE))
    if cover_malus:
        parts.append(PoolPart(_("Couvert du PNJ"), -cover_malus, R_COVER))
    return tuple(parts)


def cover_malus(scenario: Scenario) -> int:
    """Dice lost to the NPC's cover; against several targets, the best-covered one counts."""
    targets = target_npcs(scenario)
    if scenario.action is Action.NPC_AMBUSH:
        return 0
    return max((n.cover for n in targets), default=0)


def pc_pool(scenario: Scenario) -> tuple[PoolPart, ...]:
    with_allies = scenario.action in (Action.ATTACK, Action.MANOEUVRE, Action.AREA)
    return pool_parts(scenario.pc, scenario.rules, cover_malus(scenario), with_allies)


def pool_size(parts: tuple[PoolPart, ...]) -> int:
    """A pool of 0 or less rolls nothing (and fails)."""
    return max(0, sum(p.dice for p in parts))


def opponent_pool(scenario: Scenario) -> tuple[PoolPart, ...]:
    return pool_parts(scenario.opponent, scenario.rules, 0)


def target_number(scenario: Scenario) -> int:
    """Successes to reach: the Menace (the highest of the targets), or the difficulty."""
    if scenario.action is Action.NON_COMBAT:
        return scenario.difficulty
    return max(n.menace for n in target_npcs(scenario))


def dice_for(scenario: Scenario) -> DiceSpec:
    slots = pool(
        "pc",
        D6,
        pool_size(pc_pool(scenario)),
        _("d6 {de_name}").format(de_name=scenario.pc.noun.de),
    )
    if scenario.action is Action.OPPOSITION:
        slots += pool(
            "opp",
            D6,
            pool_size(opponent_pool(scenario)),
            _("d6 {de_name}").format(de_name=scenario.opponent.noun.de),
        )
    return DiceSpec(slots)


def tier_of(sante: int, sante_max: int, rules: Rules) -> str:
    """The named tier for a Santé: the lowest threshold it is at or under, else the healthy tier."""
    for tier in sorted(rules.tiers, key=lambda t: t.numerator / t.denominator):
        if sante * tier.denominator <= tier.numerator * sante_max:
            return tier.name
    return rules.healthy_tier


def tier_for_successes(successes: int, needed: int) -> str:
    if successes >= needed:
        return REUSSITE
    if successes >= 1:
        return PARTIELLE
    return ECHEC


# --- resolution ------------------------------------------------------------------------------


class _Log:
    def __init__(self) -> None:
        self.events: list[Event] = []

    def add(self, kind: str, label: str, value: str = "", rule: str = "", group: str = "", **data: object) -> None:
        self.events.append(Event(kind=kind, label=label, value=value, rule=rule, group=group, data=data))


def _roll_events(log: _Log, who: Noun, parts: tuple[PoolPart, ...], faces: tuple[int, ...], rules: Rules) -> int:
    for part in parts:
        log.add("pool", f"{who.Subject} — {part.label}", f"{signed(part.dice)}d6", part.rule, G_ROLL, dice=part.dice)
    successes = sum(1 for f in faces if f >= rules.success_face)
    if faces:
        log.add(
            "dice",
            _("{who} {lance} {n}d6").format(who=who.Subject, lance=conj(who, _("lance"), _("lancent")), n=len(faces)),
            " ".join(str(f) for f in faces),
            R_ROLL,
            G_ROLL,
            faces=list(faces),
            success_face=rules.success_face,
        )
    else:
        log.add(
            "dice",
            _("{who} {n_a} aucun dé à lancer").format(who=who.Subject, n_a=conj(who, _("n'a"), _("n'ont"))),
            "0d6",
            R_ROLL,
            G_ROLL,
            faces=[],
        )
    log.add(
        "successes",
        _("Succès (dés à {face} ou plus)").format(face=rules.success_face),
        str(successes),
        R_ROLL,
        G_ROLL,
        successes=successes,
    )
    return successes


def _take_hit(
    log: _Log,
    numbers: dict[str, Number],
    key: str,
    name: Noun,
    damage: int,
    sante: int,
    sante_max: int,
    stress: int,
    rules: Rules,
) -> None:
    """A PC loses Santé: new Santé (not below 0), Stress +1 per strike that wounds, tier change."""
    after = max(0, sante - damage)
    absorbed = max(0, damage - sante)
    before_tier, after_tier = tier_of(sante, sante_max, rules), tier_of(after, sante_max, rules)
    stress_after = stress + (1 if sante - after >= 1 else 0)
    log.add(
        "sante",
        _("Santé {de_name}").format(de_name=name.de),
        f"{sante} → {after} / {sante_max}",
        R_HEALTH,
        G_HEALTH,
        who=key,
        before=sante,
        after=after,
        absorbed=absorbed,
    )
    log.add(
        "stress",
        _("Stress {de_name}").format(de_name=name.de),
        f"{stress} → {stress_after}",
        R_HEALTH,
        G_HEALTH,
        who=key,
        before=stress,
        after=stress_after,
    )
    log.add(
        "tier",
        _("Palier {de_name}").format(de_name=name.de),
        after_tier if after_tier == before_tier else f"{before_tier} → {after_tier}",
        R_HEALTH,
        G_HEALTH,
        who=key,
        before=before_tier,
        after=after_tier,
        crossed=after_tier != before_tier,
    )
    numbers[f"{key}_sante_after"] = after
    numbers[f"{key}_stress_after"] = stress_after
    numbers[f"{key}_tier_after"] = after_tier
    numbers[f"{key}_tier_crossed"] = after_tier != before_tier


def _npc_hit(log: _Log, pc: PC, npc: NPC, index: int, damage_raw: int, sources: list[tuple[str, int, str]]) -> int:
    for label, value, rule in sources:
        log.add("damage_part", label, signed(value), rule, G_DAMAGE, target=index)
    log.add(
        "protection",
        _("Protection {de_name}").format(de_name=npc.noun.de),
        signed(-npc.protection, zero="0"),
        R_DAMAGE,
        G_DAMAGE,
        target=index,
    )
    dealt = max(0, damage_raw - npc.protection)
    after = max(0, npc.sante - dealt)
    log.add(
        "damage",
        _("Dégâts infligés {a_name}").format(a_name=npc.noun.a),
        str(dealt),
        R_DAMAGE,
        G_DAMAGE,
        target=index,
        damage=dealt,
        sante_before=npc.sante,
        sante_after=after,
        out=after == 0,
    )
    log.add(
        "npc_sante",
        _("Santé {de_name}").format(de_name=npc.noun.de),
        f"{npc.sante} → {after}",
        R_END,
        G_DAMAGE,
        target=index,
        before=npc.sante,
        after=after,
    )
    if after == 0:
        log.add(
            "npc_out",
            _("{name} {est} hors de combat").format(name=npc.noun.Subject, est=conj(npc.noun, _("est"), _("sont"))),
            "",
            R_END,
            G_DAMAGE,
            target=index,
        )
    return dealt


def _breach(log: _Log, numbers: dict[str, Number], s: Scenario, taken_out: set[int]) -> None:
    """The breach is open: the chosen NPC strikes, without a roll (or the adversity acts)."""
    log.add("breach", _("La brèche est ouverte"), "", R_BREACH, G_BREACH)
    numbers["breach"] = True
    strike = s.strike
    if not strike.enabled:
        log.add("no_strike", _("Le MJ fait avancer l'adversité autrement"), "", R_BREACH, G_BREACH)
        return
    index = strike.striker - 1
    npc = s.npcs[index]
    who = npc.noun
    if index in taken_out:
        log.add(
            "striker_out",
            _("{name} {out} : la brèche reste ouverte").format(
                name=who.Subject,
                out=conj(who, _("est hors de combat et ne frappe pas"), _("sont hors de combat et ne frappent pas")),
            ),
            "",
            R_BREACH,
            G_BREACH,
        )
        return
    available = npc.attacks_available
    if refused := focus_refused(npc, strike.attacks):
        # never a silent no-strike (issue 14): ``Scenario.check`` refuses it on the field first
        raise ScenarioError({"strike.attacks": refused})
    if available == 0:
        # « Une fois ses attaques dépensées, le PNJ ne frappe plus de ce tour »
        log.add(
            "no_attacks",
            _("{name} {n_a} plus aucune attaque ce tour").format(name=who.Subject, n_a=conj(who, _("n'a"), _("n'ont"))),
            "",
            R_ATTACKS,
            G_BREACH,
        )
        numbers["npc_attacks_left"] = available
        return
    if strike.interpose:
        target = strike.interposer
        protection = strike.interposer_protection
        log.add(
            "interpose",
            _("{name} {verb}").format(
                name=target.Subject,
                verb=conj(target, _("s'interpose et perd son action"), _("s'interposent et perdent leur action")),
            ),
            "",
            R_INTERPOSE,
            G_BREACH,
        )
    else:
        target, protection = s.pc.noun, s.pc.protection
    log.add(
        "strike_weapon",
        _("Arme {de_name}").format(de_name=who.de),
        str(npc.weapon),
        R_ATTACKS,
        G_BREACH,
    )
    if strike.attacks > 1:
        log.add(
            "focus",
            _("Concentre {n}").format(n=count(strike.attacks, _("attaque"))),
            signed(strike.attacks - 1),
            R_ATTACKS,
            G_BREACH,
        )
    if not strike.interpose and s.pc.armour and s.pc.cover:
        log.add(
            "protection_choice",
            _("Armure {a} et couvert {c} ne s'additionnent pas : la plus haute compte").format(
                a=s.pc.armour, c=s.pc.cover
            ),
            "",
            R_COVER,
            G_BREACH,
        )
    log.add(
        "strike_protection",
        _("Protection {de_name}").format(de_name=target.de),
        signed(-protection, zero="0"),
        R_ATTACKS,
        G_BREACH,
    )
    damage = max(0, npc.weapon + strike.attacks - 1 - protection)
    log.add(
        "strike",
        _("{npc} {frappe} {name}").format(
            npc=who.Subject, frappe=conj(who, _("frappe"), _("frappent")), name=target.subject
        ),
        str(damage),
        R_ATTACKS,
        G_BREACH,
        damage=damage,
        attacks=strike.attacks,
        striker=strike.striker,
        interposed=strike.interpose,
    )
    numbers["strike_damage"] = damage
    numbers["npc_attacks_left"] = available - strike.attacks
    if strike.interpose:
        _take_hit(
            log,
            numbers,
            "ally",
            target,
            damage,
            strike.interposer_sante,
            strike.interposer_sante_max,
            strike.interposer_stress,
            s.rules,
        )
    else:
        _take_hit(log, numbers, "pc", target, damage, s.pc.sante, s.pc.sante_max, s.pc.stress, s.rules)


def resolve(scenario: Scenario, dice: DiceRoll) -> Result:
    """Resolve one enCORE action from the dice read (``pc.i``, and ``opp.i`` in an opposition)."""
    s = scenario
    log = _Log()
    numbers: dict[str, Number] = {"breach": False}
    parts = pc_pool(s)
    faces = dice.of("pc")
    numbers["pool"] = pool_size(parts)
    successes = _roll_events(log, s.pc.noun, parts, faces, s.rules)
    numbers["successes"] = successes

    if s.action is Action.OPPOSITION:
        return _opposition(s, dice, log, numbers, successes)

    needed = target_number(s)
    numbers["needed"] = needed
    outcome = tier_for_successes(successes, needed)
    if s.action is Action.NON_COMBAT:
        log.add("difficulty", _("Difficulté de l'action"), str(needed), R_NON_COMBAT, G_ROLL)
    else:
        targets = target_npcs(s)
        highest = max(targets, key=lambda n: n.menace)
        label = _("Menace {de_name}").format(de_name=highest.noun.de)
        if len(targets) > 1:
            label = _("Menace la plus haute des cibles ({name})").format(name=highest.noun.subject)
        log.add("menace", label, str(needed), R_AREA if len(targets) > 1 else R_ROLL, G_ROLL)

    if s.action is Action.NPC_AMBUSH:
        outcome = {REUSSITE: EVITE, PARTIELLE: EVITE_COMPLICATION, ECHEC: TOUCHE}[outcome]
    log.add("outcome", _("Résultat"), outcome_label(outcome), R_ROLL, G_ROLL, outcome=outcome)

    taken_out: set[int] = set()
    if s.action is Action.ATTACK:
        npc = s.npcs[0]
        if outcome != ECHEC:
            sources = [(_("Arme {de_name}").format(de_name=s.pc.noun.de), s.pc.weapon, R_DAMAGE)]
            if outcome == REUSSITE and successes > needed:
                sources.append((_("Succès au-delà de la Menace"), successes - needed, R_DAMAGE))
            dealt = _npc_hit(log, s.pc, npc, 0, sum(v for _l, v, _r in sources), sources)
            numbers["damage_dealt"] = dealt
            numbers["npc_sante_after"] = max(0, npc.sante - dealt)
            if npc.sante - dealt <= 0:
                taken_out.add(0)
        else:
            log.add("miss", _("Le coup manque"), "", R_DAMAGE, G_DAMAGE)
            numbers["damage_dealt"] = 0
            numbers["npc_sante_after"] = npc.sante
    elif s.action is Action.AREA:
        _area(s, log, numbers, outcome, successes, needed, taken_out)
    elif s.action is Action.MANOEUVRE:
        effect = " ".join(s.effect.split()).rstrip(" .;,:")
        if outcome != ECHEC:
            obtained = _("Effet obtenu : {effect}").format(effect=effect) if effect else _("Effet obtenu")
            log.add("effect", obtained, "", R_MANOEUVRE, G_DAMAGE)
            if successes > needed:
                log.add("extra_ignored", _("Les succès en plus n'ajoutent rien"), "", R_MANOEUVRE, G_DAMAGE)
            if s.effect_helps_allies:
                log.add(
                    "advantage",
                    _("Les alliés gagnent +1d6 contre {name} tant que l'effet dure").format(
                        name=s.npcs[0].noun.subject
                    ),
                    "+1d6",
                    R_MANOEUVRE,
                    G_DAMAGE,
                )
            numbers["effect"] = True
        else:
            log.add("no_effect", _("La manœuvre échoue"), "", R_MANOEUVRE, G_DAMAGE)
            numbers["effect"] = False
    elif s.action is Action.NPC_AMBUSH:
        npc = s.npcs[0]
        pc = s.pc.noun
        if outcome == TOUCHE:
            log.add(
                "strike_weapon",
                _("Arme {de_name}").format(de_name=npc.noun.de),
                str(npc.weapon),
                R_AMBUSH,
                G_DAMAGE,
            )
            log.add(
                "strike_protection",
                _("Protection {de_name}").format(de_name=pc.de),
                signed(-s.pc.protection, zero="0"),
                R_AMBUSH,
                G_DAMAGE,
            )
            damage = max(0, npc.weapon - s.pc.protection)
            log.add(
                "strike",
                _("{npc} {frappe} {name}").format(
                    npc=npc.noun.Subject, frappe=conj(npc.noun, _("frappe"), _("frappent")), name=pc.subject
                ),
                str(damage),
                R_AMBUSH,
                G_DAMAGE,
                damage=damage,
                attacks=1,
                striker=1,
                interposed=False,
            )
            numbers["strike_damage"] = damage
            _take_hit(log, numbers, "pc", pc, damage, s.pc.sante, s.pc.sante_max, s.pc.stress, s.rules)
        else:
            log.add(
                "avoided",
                _("{name} {evite} l'attaque").format(name=pc.Subject, evite=conj(pc, _("évite"), _("évitent"))),
                "",
                R_AMBUSH,
                G_DAMAGE,
            )
        log.add("no_breach_roll", _("Éviter un coup n'est pas une action : pas de brèche"), "", R_BREACH, G_BREACH)

    opens_breach = (
        s.action in (Action.ATTACK, Action.MANOEUVRE, Action.AREA) and outcome in (PARTIELLE, ECHEC) and not s.ambush
    )
    if opens_breach:
        _breach(log, numbers, s, taken_out)
    elif s.action in (Action.ATTACK, Action.MANOEUVRE, Action.AREA):
        if s.ambush and outcome != REUSSITE:
            log.add(
                "no_breach_ambush",
                _("PJ embusqués : pas de brèche, les PNJ sont pris de court"),
                "",
                R_AMBUSH,
                G_BREACH,
            )
        else:
            log.add("no_breach", _("Aucune brèche ne s'ouvre"), "", R_BREACH, G_BREACH)
    elif s.action is Action.NON_COMBAT:
        log.add(
            "no_breach_non_combat",
            _("Agir sans combattre n'ouvre pas de brèche : l'adversité agit autrement"),
            "",
            R_NON_COMBAT,
            G_BREACH,
        )
    return Result(
        outcome=outcome,
        outcome_label=outcome_label(outcome),
        numbers=numbers,
        events=tuple(log.events),
        dice=dice,
        tone=TONES[outcome],
    )


def _area(
    s: Scenario,
    log: _Log,
    numbers: dict[str, Number],
    outcome: str,
    successes: int,
    needed: int,
    taken_out: set[int],
) -> None:
    """One more target per success beyond the highest Menace, within the weapon's limit."""
    if outcome == ECHEC:
        hits = 0
    elif outcome == PARTIELLE:
        hits = 1
    else:
        hits = 1 + successes - needed
        log.add("area_extra", _("Cibles : 1 + succès au-delà de la Menace"), str(hits), R_AREA, G_DAMAGE)
    if s.pc.weapon_limit and hits > s.pc.weapon_limit:
        log.add(
            "area_limit",
            _("L'arme touche {n} au plus").format(n=count(s.pc.weapon_limit, _("cible"))),
            str(s.pc.weapon_limit),
            R_AREA,
            G_DAMAGE,
        )
        hits = s.pc.weapon_limit
    if hits > len(s.npcs):
        hits = len(s.npcs)
    numbers["targets_hit"] = hits
    total = 0
    for index, npc in enumerate(s.npcs[:hits]):
        sources = [
            (
                _("Arme {de_name} sur {npc}").format(de_name=s.pc.noun.de, npc=npc.noun.subject),
                s.pc.weapon,
                R_AREA,
            )
        ]
        dealt = _npc_hit(log, s.pc, npc, index, s.pc.weapon, sources)
        numbers[f"damage_dealt_{index + 1}"] = dealt
        total += dealt
        if npc.sante - dealt <= 0:
            taken_out.add(index)
    if hits == 0:
        log.add("miss", _("L'attaque ne touche personne"), "", R_AREA, G_DAMAGE)
    numbers["damage_dealt"] = total


def _opposition(s: Scenario, dice: DiceRoll, log: _Log, numbers: dict[str, Number], successes: int) -> Result:
    """Most successes wins; a tie wins nothing and worsens the situation."""
    opp = s.opponent
    opp_successes = _roll_events(log, opp.noun, opponent_pool(s), dice.of("opp"), s.rules)
    numbers["opponent_pool"] = pool_size(opponent_pool(s))
    numbers["opponent_successes"] = opp_successes
    if successes > opp_successes:
        outcome, winner, loser, loser_key = VICTOIRE, s.pc, opp, "opponent"
    elif successes < opp_successes:
        outcome, winner, loser, loser_key = DEFAITE, opp, s.pc, "pc"
    else:
        outcome = EGALITE
    log.add("outcome", _("Résultat"), outcome_label(outcome), R_OPPOSITION, G_ROLL, outcome=outcome)
    if outcome == EGALITE:
        log.add("worse", _("Personne ne l'emporte et la situation empire"), "", R_OPPOSITION, G_DAMAGE)
    else:
        log.add(
            "strike_weapon",
            _("Arme {de_name}").format(de_name=winner.noun.de),
            str(winner.weapon),
            R_OPPOSITION,
            G_DAMAGE,
        )
        log.add(
            "strike_protection",
            _("Protection {de_name}").format(de_name=loser.noun.de),
            signed(-loser.protection, zero="0"),
            R_OPPOSITION,
            G_DAMAGE,
        )
        damage = max(0, winner.weapon - loser.protection)
        log.add(
            "strike",
            _("{a} {frappe} {b}").format(
                a=winner.noun.Subject, frappe=conj(winner.noun, _("frappe"), _("frappent")), b=loser.noun.subject
            ),
            str(damage),
            R_OPPOSITION,
            G_DAMAGE,
            damage=damage,
        )
        numbers["damage_dealt"] = damage
        _take_hit(log, numbers, loser_key, loser.noun, damage, loser.sante, loser.sante_max, loser.stress, s.rules)
    return Result(
        outcome=outcome,
        outcome_label=outcome_label(outcome),
        numbers=numbers,
        events=tuple(log.events),
        dice=dice,
        tone=TONES[outcome],
    )
