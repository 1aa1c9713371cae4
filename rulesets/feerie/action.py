"""Contes de Fées: the Action sequence (seed 004, « Le déroulement d'un combat », « Options de combat »).

1. Declarations: each combatant's activities (the first is the declared one, the next ones are
   extra activities), tactic, targets.
2. Initiative rolls: Vigilance + Attributs + tactic + occasional modifiers (surprise −8, the
   previous Action's carried malus) + the dice term; typed or rolled.
3. Countdown from the highest Initiative; priority on an equal rank: rank, Vigilance, total
   Affinités, tactic modifier, dice roll. An Initiative ≤ 0 cannot act; rank 1 is the last.
4. Resolution at the chosen rank: waiting costs nothing; anticipating costs −1 per rank to the
   activity and to Défense for the rest of the Action (never above the highest Initiative); each
   extra activity comes 8 ranks after the previous one (never at the same rank), at −4
   cumulative, and costs −4 Défense from its resolution and −4 to the whole next Action; a change
   of intention costs −4 to the changed activity and to Défense from its declaration, −4 to the
   next Action, and a tactic change re-ranks the activity (never above the rank of the change); an
   extra activity that is also a change of intention takes its −8 Défense « dès la déclaration ».
   A typed rank the countdown refuses is a field error (issue 14), never an activity dropped.
5. Effects: Essence lost = ⌊margin/2⌋ + Dommages − Encaissement; one attack roll may strike
   several smaller defenders whose surfaces fit the attacker's.
6. Impersonal events at rank 0; the next Action carries the malus.
"""

from __future__ import annotations

from bisect import bisect_left
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Annotated, Any

from rulesets.core.dice import DiceRoll, DiceSlot, DiceSpec, numeric_die
from rulesets.core.french import DEFINITE_M, PROPER_M, Grammar, Noun, count, join, parenthesize, signed, typography
from rulesets.core.i18n import _
from rulesets.core.odds import Chart, Odds
from rulesets.core.results import Event, Result
from rulesets.core.schema import Choice, ScenarioError, Spec
from rulesets.feerie.angles import crowding, sweep
from rulesets.feerie.engine import SEED, slot_label
from rulesets.feerie.model import SEED_SURFACES, DiceTerm, SurfaceRow, Tactic
from rulesets.feerie.odds import grouped_bars
from rulesets.feerie.speech import who

R_SEQUENCE = f"{SEED} — La séquence d'une Action"
R_DECLARATION = f"{R_SEQUENCE}, 1) Déclaration d'intention"
R_INITIATIVE = f"{R_SEQUENCE}, 2) Jets d'Initiative"
R_DECOMPTE = f"{R_SEQUENCE}, 3) Décompte des rangs d'Initiative"
R_RESOLUTION = f"{R_SEQUENCE}, 4) Résolution des activités"
R_EFFETS = f"{R_SEQUENCE}, 5) Effets"
R_IMPERSONNELS = f"{R_SEQUENCE}, 6) Evénements impersonnels"
R_ANTICIPATION = f"{SEED} — Options de combat, Anticipation d'une activité"
R_SUPPLEMENTAIRE = f"{SEED} — Options de combat, Activités supplémentaires"
R_CHANGEMENT = f"{SEED} — Options de combat, Changement d'intention"
R_SURPRISE = f"{SEED} — Diverses situations de combat, Surprise"
R_ANGLES = f"{SEED} — Adversaires multiples"
R_VISER = f"{SEED} — Attaques à distance, Viser"

AIM_MAX = 8  # « Par rang d'Initiative (8 au maximum) où le tireur retarde son tir, il gagne +1 »
EXTRA_GAP = 8  # « Chaque nouvelle activité se résout normalement 8 rangs d'Initiative après »
EXTRA_MALUS = 4  # « malus de –4 cumulatif »
CHANGE_MALUS = 4  # « Un malus de 4 est alors encouru »
SURPRISE_INITIATIVE = -8
SURPRISE_DEFENSE = -4

G_INIT = "Initiative"
G_DECOMPTE = "Décompte"
G_ACT = "Activités"
G_NEXT = "Action suivante"

NO_TACTIC_RULE = _("Sans Affinité ni Pouvoir de combat pour cette activité, pas de tactique.")
NO_TACTIC_CAP = _(
    "Plafond de tactique à renseigner pour déclarer une tactique : le total des Affinités et maîtrises de "
    "Pouvoirs utilisées pour l'activité (0 sans aucune)."
)


class ActivityKind(Choice):
    NONE = "none"
    ATTACK = "attack"
    OTHER = "other"

    @classmethod
    def labels(cls) -> dict[str, str]:
        return {
            "none": _("— (aucune)"),
            "attack": _("Attaque"),
            "other": _("Autre activité (Pouvoir, Influence, fuite…)"),
        }


@dataclass(frozen=True, slots=True)
class Fighter:
    """A combatant of the Action, with the derived values computed by the exchange calculator.

    ``grammar`` says how the texts name it (issue 15): « Rübezahl », « le Serpent à Sornettes »;
    without a name they say « le combattant n°2 »."""

    name: Annotated[str, Spec(label=_("Nom"), max_length=80)] = ""
    grammar: Annotated[Grammar, Spec(label=_("Grammaire du nom"))] = field(default_factory=Grammar)
    vigilance: Annotated[int, Spec(label=_("Vigilance"), ge=0, le=60)] = 10
    initiative_bonus: Annotated[int, Spec(label=_("Attributs applicables à l'Initiative"), ge=-30, le=40)] = 0
    affinities: Annotated[int, Spec(label=_("Total d'Affinités (priorité)"), ge=0, le=100)] = 0
    tactic: Annotated[Tactic, Spec(label=_("Tactique déclarée"))] = field(default_factory=Tactic)
    tactic_cap: Annotated[
        int | None,
        Spec(
            label=_("Plafond de tactique (Affinités et maîtrises de l'activité)"),
            ge=0,
            le=60,
            help=_("Requis pour déclarer une tactique ; mettez 0 pour qui n'a ni Affinité ni Pouvoir de combat."),
        ),
    ] = None
    surprised: Annotated[bool, Spec(label=_("Surpris (première Action)"))] = False
    ambush_margin: Annotated[int, Spec(label=_("Marge de dissimulation (embuscade)"), ge=0, le=60)] = 0
    carried_malus: Annotated[int, Spec(label=_("Malus reporté de l'Action précédente"), ge=-60, le=0)] = 0
    initiative: Annotated[int | None, Spec(label=_("Initiative obtenue (vide : lire les dés)"), ge=-100, le=150)] = None
    attack: Annotated[int, Spec(label=_("Attaque (sans tactique)"), ge=0, le=100)] = 10
    defense: Annotated[int, Spec(label=_("Défense (sans tactique)"), ge=0, le=100)] = 10
    damage: Annotated[int, Spec(label=_("Dommages"), ge=-20, le=100)] = 10
    soak: Annotated[int, Spec(label=_("Encaissement"), ge=-20, le=100)] = 10
    essence: Annotated[int, Spec(label=_("Essence"), ge=0, le=500)] = 20
    taille: Annotated[int, Spec(label=_("Taille"), ge=-5, le=5)] = 0
    open_angles: Annotated[int, Spec(label=_("Angles d'attaque ouverts"), ge=1, le=6)] = 4

    def tactic_errors(self, t: Tactic, prefix: str, cap_path: str = "tactic_cap") -> dict[str, str]:
        """« Les tactiques »: « Un personnage qui a quelque aptitude au combat (i.e. des Affinités ou des
        Pouvoirs qui viennent modifier son Attaque ou sa Défense) peut choisir […] une tactique »; « la
        somme de ces modifications doit être nulle »; « Un modificateur ne peut être supérieur à la somme
        des Affinités et des maîtrises de Pouvoirs utilisées pour l'activité ».

        The Action does not list a combatant's Attributs, so the cap is typed (``tactic_cap``, filled from
        the bestiary or the encounter): blank, a tactic is refused on ``cap_path`` (issue 14: never taken
        as « no cap »); 0, no tactic at all."""
        errors: dict[str, str] = {}
        total = t.initiative + t.attack + t.defense
        if total:
            errors[prefix] = _("La somme des modifications de tactique doit être nulle (reçu {total}).").format(
                total=signed(total)
            )
        if not t.is_declared:
            return errors
        if self.tactic_cap is None:
            errors[cap_path] = NO_TACTIC_CAP
            return errors
        for key, value in (("initiative", t.initiative), ("attack", t.attack), ("defense", t.defense)):
            if value and self.tactic_cap == 0:
                errors[f"{prefix}.{key}"] = NO_TACTIC_RULE
            elif abs(value) > self.tactic_cap:
                errors[f"{prefix}.{key}"] = _(
                    "Une modification de tactique ne peut dépasser le plafond ({cap}), reçu {value}."
                ).format(cap=self.tactic_cap, value=signed(value))
        return errors

    def check(self) -> dict[str, str]:
        if self.surprised and self.tactic.is_declared:
            return {"tactic": _("Un personnage surpris ne peut pas déclarer de tactique lors de la première Action.")}
        return self.tactic_errors(self.tactic, "tactic")


@dataclass(frozen=True, slots=True)
class Change:
    """A change of intention declared at ``rank`` (none when blank), possibly with a new tactic."""

    rank: Annotated[int | None, Spec(label=_("Changement d'intention au rang (vide : aucun)"), ge=1, le=150)] = None
    tactic: Annotated[Tactic, Spec(label=_("Nouvelle tactique"))] = field(default_factory=Tactic)
    new_tactic: Annotated[bool, Spec(label=_("Adopter la nouvelle tactique"))] = False
    note: Annotated[str, Spec(label=_("Nouvelle intention"), max_length=200)] = ""

    @property
    def declared(self) -> bool:
        return self.rank is not None


@dataclass(frozen=True, slots=True)
class Activity:
    """One activity of a combatant; a combatant's later activities are extra activities."""

    actor: Annotated[int, Spec(label=_("Combattant (numéro)"), ge=0, le=23)] = 0
    kind: Annotated[ActivityKind, Spec(label=_("Nature"))] = ActivityKind.NONE
    label: Annotated[
        str, Spec(label=_("Description"), max_length=200, help=_("Un verbe, pour le récit : « fond sur l'Ogre »."))
    ] = ""
    targets: Annotated[str, Spec(label=_("Cibles (numéros séparés par des virgules)"), max_length=60)] = ""
    ranged: Annotated[bool, Spec(label=_("À distance"))] = False
    blunt: Annotated[bool, Spec(label=_("Projectile contondant (plusieurs cibles possibles)"))] = False
    aim: Annotated[bool, Spec(label=_("Viser en retardant son tir (+1 par rang, 8 au plus)"))] = False
    rank: Annotated[int | None, Spec(label=_("Rang choisi (vide : son rang)"), ge=1, le=150)] = None
    change: Annotated[Change, Spec(label=_("Changement d'intention"))] = field(default_factory=Change)
    bonus: Annotated[int, Spec(label=_("Attributs propres à cette activité"), ge=-30, le=40)] = 0
    term: Annotated[int | None, Spec(label=_("Terme de dés saisi (vide : lire les dés)"), ge=-300, le=300)] = None

    def target_list(self) -> tuple[int, ...]:
        """The targets' numbers (invalid entries are reported by :meth:`ActionScenario.check`)."""
        out: list[int] = []
        for part in self.targets.replace(";", ",").replace(" ", ",").split(","):
            digits = part.strip().lstrip("-")
            if digits.isascii() and digits.isdigit():  # '²' is a digit to str.isdigit, not to int
                out.append(int(part))
        return tuple(out)

    def bad_targets(self) -> list[str]:
        return [
            p
            for p in self.targets.replace(";", ",").replace(" ", ",").split(",")
            if p.strip() and not (p.strip().isascii() and p.strip().isdigit())
        ]


@dataclass(frozen=True, slots=True)
class Impersonal:
    """An impersonal event (« une fois par Action »), resolved at rank 0."""

    label: Annotated[str, Spec(label=_("Événement"), max_length=200)] = ""
    target: Annotated[int | None, Spec(label=_("Combattant touché (numéro)"), ge=0, le=23)] = None
    essence_loss: Annotated[int, Spec(label=_("Perte d'Essence"), ge=0, le=500)] = 0


DEFAULT_FIGHTERS = (
    Fighter("Rübezahl", PROPER_M, vigilance=20, attack=22, defense=20, damage=14, soak=14, essence=40, taille=2),
    Fighter("Serpent à Sornettes", DEFINITE_M, vigilance=17, attack=21, defense=15, damage=6, soak=8, essence=20),
)


def fighter_who(f: Fighter, i: int) -> Noun:
    """A combatant as the texts name it: its name with its grammar, or « le combattant n°3 » (numbered
    from 1, as the page does) without one."""
    return who(f.name, f.grammar, _("combattant n°{n}").format(n=i + 1))


def fighter_whos(s: ActionScenario) -> list[Noun]:
    return [fighter_who(f, i) for i, f in enumerate(s.fighters)]


def doing(s: ActionScenario, j: int, people: list[Noun]) -> str:
    """What activity ``j`` does, as a verb phrase after its combatant's name: its description (typed by
    the game master, « frappe le Serpent »), else « attaque le Lutin et le Farfadet », else « agit »."""
    act = s.activities[j]
    actor = people[act.actor] if 0 <= act.actor < len(people) else Noun(_("combattant"), DEFINITE_M)
    label = act.label.strip().rstrip(".")
    if label:
        return label
    targets = [people[t].subject for t in act.target_list() if 0 <= t < len(people)]
    if act.kind is ActivityKind.ATTACK and targets:
        return _("{verb} {targets}").format(verb=actor["attaque|attaquent"], targets=join(targets))
    return actor["agit|agissent"]


def _fighters(n: int) -> str:
    """« Il n'y a qu'un combattant (numéro 0). », « Il n'y a que 3 combattants (numérotés de 0 à 2). »."""
    if n == 1:
        return _("Il n'y a qu'un combattant (numéro 0).")
    return _("Il n'y a que {n} (numérotés de 0 à {m}).").format(n=count(n, _("combattant")), m=n - 1)


@dataclass(frozen=True, slots=True)
class ActionScenario:
    """One Action of a fight between several combatants."""

    fighters: Annotated[tuple[Fighter, ...], Spec(label=_("Combattants"), min_items=1, max_items=24)] = field(
        default_factory=lambda: DEFAULT_FIGHTERS
    )
    activities: Annotated[tuple[Activity, ...], Spec(label=_("Activités déclarées"), max_items=60)] = ()
    impersonal: Annotated[tuple[Impersonal, ...], Spec(label=_("Événements impersonnels"), max_items=10)] = ()
    roll: Annotated[DiceTerm, Spec(label=_("Terme de dés"))] = field(default_factory=DiceTerm)
    surfaces: Annotated[
        tuple[SurfaceRow, ...], Spec(label=_("Table des surfaces par Taille"), min_items=1, max_items=11)
    ] = SEED_SURFACES
    incident_threshold: Annotated[int, Spec(label=_("Marge d'échec d'un incident"), ge=-100, le=-1)] = -10

    def check(self) -> dict[str, str]:
        errors: dict[str, str] = {}
        n = len(self.fighters)
        for j, act in enumerate(self.activities):
            p = f"activities.{j}"
            if act.kind is ActivityKind.NONE:
                continue
            if act.actor >= n:
                errors[f"{p}.actor"] = _fighters(n)
                continue
            targets = act.target_list()
            if act.bad_targets():
                errors[f"{p}.targets"] = _(
                    "Cibles : des numéros de combattants séparés par des virgules (reçu « {t} »)."
                ).format(t=act.targets)
                continue
            for t in targets:
                if t >= n:
                    errors[f"{p}.targets"] = _fighters(n)
                elif t == act.actor:
                    errors[f"{p}.targets"] = _("Un combattant ne s'attaque pas lui-même.")
            if f"{p}.targets" in errors:
                continue
            if act.kind is ActivityKind.ATTACK and not targets:
                errors[f"{p}.targets"] = _("Une attaque vise au moins une cible.")
            if len(set(targets)) != len(targets):
                errors[f"{p}.targets"] = _("Une même cible est listée deux fois.")
            if act.change.declared and act.change.new_tactic:
                errors.update(
                    self.fighters[act.actor].tactic_errors(
                        act.change.tactic, f"{p}.change.tactic", f"fighters.{act.actor}.tactic_cap"
                    )
                )
            if act.kind is ActivityKind.ATTACK and act.ranged and len(targets) > 1 and not act.blunt:
                errors[f"{p}.targets"] = _("Un projectile purement transperçant n'affecte qu'une cible.")
                continue
            if act.aim and not act.ranged:
                errors[f"{p}.aim"] = _("On ne vise qu'à distance.")
            if act.kind is ActivityKind.ATTACK and len(targets) > 1:
                sw = sweep(self.fighters[act.actor].taille, [self.fighters[t].taille for t in targets], self.surfaces)
                if not sw.fits:
                    errors[f"{p}.targets"] = _(
                        "Un seul coup ne couvre qu'une surface de {cap} ; ces cibles en occupent {used}."
                    ).format(cap=sw.capacity, used=sw.used)
        acting = {a.actor for a in self.activities if a.kind is not ActivityKind.NONE}
        for i, f in enumerate(self.fighters):
            if f.tactic.is_declared and i not in acting and f"fighters.{i}.tactic" not in errors:
                errors[f"fighters.{i}.tactic"] = _(
                    "On ne peut déclarer de tactique que si l'on agit : {n.subject} {n[n'a|n'ont]} déclaré aucune "
                    "activité."
                ).format(n=fighter_who(f, i))
        for j, ev in enumerate(self.impersonal):
            if ev.target is not None and ev.target >= n:
                errors[f"impersonal.{j}.target"] = _fighters(n)
        for i, f in enumerate(self.fighters):
            if (message := initiative_error(self, f)) is not None:
                errors[f"fighters.{i}.initiative"] = message
        if not errors and all(f.initiative is not None for f in self.fighters):
            # every Initiative typed: the ranks are known before any die is rolled
            errors.update(schedule_errors(self, [f.initiative or 0 for f in self.fighters]))
        return errors


def initiative_error(s: ActionScenario, f: Fighter) -> str | None:
    """A typed Initiative the combatant's roll cannot give, or None. « 2) Jets d'Initiative » : « Vigilance +
    Affinités applicables + modificateur de tactique éventuel + bonus/malus occasionnels » plus the dice
    term (``shared/rules/feerie.md``, « The roll »): with Vigilance 10 and 1d20 − 1d20, from −9 to 29."""
    if f.initiative is None:
        return None
    terms = initiative_base(f)
    base = sum(v for _l, v, _r in terms)
    low, high = base + s.roll.low, base + s.roll.high
    if low <= f.initiative <= high:
        return None
    sources = ", ".join(f"{label} {signed(v) if k else signed(v, plus='')}" for k, (label, v, _r) in enumerate(terms))
    if len(terms) > 1:
        sources += " " + parenthesize(_("total {base}").format(base=signed(base, plus="")))
    return _("Initiative {v} impossible : {sources} et le jet {dice} ({lo} à {hi}) donnent de {low} à {high}.").format(
        v=signed(f.initiative, plus=""),
        sources=sources,
        dice=s.roll.describe(),
        lo=signed(s.roll.low),
        hi=signed(s.roll.high),
        low=signed(low, plus=""),
        high=signed(high, plus=""),
    )


def schedule_errors(s: ActionScenario, initiatives: list[int]) -> dict[str, str]:
    """The typed ranks the countdown refuses, by field: never an activity dropped with a note (issue 14).

    « Aucune activité ne peut avoir lieu à un rang d'Initiative supérieur à celui du plus haut jet
    d'Initiative » (« Anticipation d'une activité »); « l'activité supplémentaire ne peut être simultanée
    avec l'activité initiale (elle a lieu au plus tôt au rang d'Initiative suivant) » (« Activités
    supplémentaires »); « on ne peut agir avant d'avoir choisi d'agir » (« Changement d'intention »)."""
    planned, _top = plan(s, initiatives)
    return {p.field: p.refused for p in planned if p.field}


# --- dice -------------------------------------------------------------------------------------------


def dice_for(s: ActionScenario) -> DiceSpec:
    die = numeric_die(f"d{s.roll.sides}", s.roll.sides)
    slots: list[DiceSlot] = []

    def term(prefix: str, label: str) -> None:
        slots.extend(
            DiceSlot(f"{prefix}.plus.{i}", die, slot_label(label, "+", die.name, i, s.roll.plus))
            for i in range(1, s.roll.plus + 1)
        )
        slots.extend(
            DiceSlot(f"{prefix}.moins.{i}", die, slot_label(label, "−", die.name, i, s.roll.minus))
            for i in range(1, s.roll.minus + 1)
        )

    people = fighter_whos(s)
    for i, f in enumerate(s.fighters):
        if f.initiative is None:
            term(f"init.{i}", _("Initiative {n.de}").format(n=people[i]))
    for j, act in enumerate(s.activities):
        if act.kind is ActivityKind.ATTACK and act.term is None and act.actor < len(s.fighters):
            # people count activities from 1 (the page's « Activité n°1 »); the key keeps the index
            term(f"act.{j}", _("Activité n°{n} {of}").format(n=j + 1, of=parenthesize(people[act.actor].subject)))
    return DiceSpec(tuple(slots))


def _term(dice: DiceRoll, prefix: str) -> int:
    return sum(dice.of(f"{prefix}.plus")) - sum(dice.of(f"{prefix}.moins"))


def initiative_base(f: Fighter) -> list[tuple[str, int, str]]:
    """The sources of a combatant's Initiative before the dice."""
    terms = [(_("Vigilance"), f.vigilance, R_INITIATIVE)]
    if f.initiative_bonus:
        terms.append((_("Attributs applicables"), f.initiative_bonus, R_INITIATIVE))
    if f.tactic.initiative:
        terms.append((_("Tactique"), f.tactic.initiative, R_INITIATIVE))
    if f.surprised:
        terms.append((_("Surpris"), SURPRISE_INITIATIVE, R_SURPRISE))
    if f.ambush_margin // 2:
        terms.append((_("Embuscade (moitié de la marge de dissimulation)"), f.ambush_margin // 2, R_SURPRISE))
    if f.carried_malus:
        terms.append((_("Malus reporté de l'Action précédente"), f.carried_malus, R_SUPPLEMENTAIRE))
    return terms


# --- scheduling ------------------------------------------------------------------------------------------


@dataclass(slots=True)
class Planned:
    index: int  # activity index in the scenario
    actor: int
    order: int  # 0: declared activity, k: k-th extra activity
    natural: int  # the rank it would happen at without anticipation
    rank: int  # the rank it happens at
    anticipation: int
    modifier: int  # total modifier of the activity roll
    parts: tuple[tuple[str, int, str], ...]
    change_rank: int | None
    change_defense: int  # Défense change at the declaration (tactic delta − 4)
    defense_after: int  # Défense change after its resolution (−anticipation, −4 extra)
    tactic_attack: int
    refused: str = ""
    field: str = ""  # the field at fault when the refusal is a typed value (a field error, never a drop)


def plan(s: ActionScenario, initiatives: list[int]) -> tuple[list[Planned], int]:
    """Ranks and modifiers of every activity, given the Initiatives obtained."""
    acting = [v for v in initiatives if v > 0]
    top = max(acting) if acting else 0
    out: list[Planned] = []
    per_actor: dict[int, list[int]] = defaultdict(list)
    for j, act in enumerate(s.activities):
        if act.kind is not ActivityKind.NONE:
            per_actor[act.actor].append(j)
    for actor, indices in sorted(per_actor.items()):
        f = s.fighters[actor]
        name = fighter_who(f, actor)
        tactic = f.tactic
        previous_rank: int | None = None
        carried_anticipation = 0
        for order, j in enumerate(indices):
            act = s.activities[j]
            parts: list[tuple[str, int, str]] = []
            refused = ""
            base_rank = initiatives[actor] if order == 0 else (previous_rank or 0) - EXTRA_GAP
            natural = base_rank
            change_defense = 0
            if act.change.rank is not None:
                new = act.change.tactic if act.change.new_tactic else tactic
                if new.initiative != tactic.initiative:
                    natural = base_rank + new.initiative - tactic.initiative
                natural = min(natural, act.change.rank)
                change_defense = new.defense - tactic.defense - CHANGE_MALUS
                if order:
                    # « une activité supplémentaire techniquement différente de la première » : « avec un
                    # malus de 8 en Défense dès la déclaration » — the extra activity's −4 comes with the change
                    change_defense -= EXTRA_MALUS
                tactic = new
            # each reason names the combatant: it is the event's whole label, and a sentence of the story
            if initiatives[actor] <= 0:
                refused = _(
                    "Initiative nulle ou négative : {n.subject} ne {n[peut|peuvent]} agir pendant cette Action."
                ).format(n=name)
            rank = act.rank if act.rank is not None else natural
            at_fault = ""
            if not refused and previous_rank is not None and rank >= previous_rank:
                refused = _(
                    "Une activité supplémentaire {n.de} a lieu au plus tôt au rang suivant la précédente ({r}), "
                    "pas au rang {rank}."
                ).format(n=name, r=previous_rank - 1, rank=rank)
                at_fault = f"activities.{j}.rank"
            if not refused and rank > top:
                refused = (
                    _(
                        "{n.Subject} ne {n[peut|peuvent]} agir avant le plus haut jet d'Initiative ({top}), pas au "
                        "rang {rank} : le premier à agir ne peut anticiper, ni personne le devancer."
                    )
                    if initiatives[actor] == top
                    else _(
                        "{n.Subject} ne {n[peut|peuvent]} agir avant le plus haut jet d'Initiative ({top}), pas au "
                        "rang {rank}."
                    )
                ).format(n=name, top=top, rank=rank)
                at_fault = f"activities.{j}.rank"
            if not refused and act.change.rank is not None and rank > act.change.rank:
                refused = _(
                    "{n.Subject} ne {n[peut|peuvent]} agir avant d'avoir choisi d'agir (changement au rang {r}), "
                    "pas au rang {rank}."
                ).format(n=name, r=act.change.rank, rank=rank)
                at_fault = f"activities.{j}.rank"
            if not refused and rank < 1:
                refused = _(
                    "Le rang 1 est le dernier auquel on peut agir : {n.subject} {n[doit|doivent]} anticiper."
                ).format(n=name)
            anticipation = max(0, rank - natural)
            if tactic.attack:
                parts.append((_("Tactique"), tactic.attack, R_RESOLUTION))
            if f.carried_malus:
                parts.append((_("Malus reporté de l'Action précédente"), f.carried_malus, R_SUPPLEMENTAIRE))
            if carried_anticipation:
                parts.append((_("Anticipation d'une activité précédente"), -carried_anticipation, R_ANTICIPATION))
            if anticipation:
                parts.append(
                    (_("Anticipation de {n}").format(n=count(anticipation, _("rang"))), -anticipation, R_ANTICIPATION)
                )
            if order:
                parts.append(
                    (_("Activité supplémentaire n°{k}").format(k=order), -EXTRA_MALUS * order, R_SUPPLEMENTAIRE)
                )
            if act.change.declared:
                parts.append((_("Changement d'intention"), -CHANGE_MALUS, R_CHANGEMENT))
            if act.bonus:
                parts.append((_("Attributs propres à l'activité"), act.bonus, R_RESOLUTION))
            if act.aim and rank < natural:
                aimed = min(AIM_MAX, natural - rank)
                parts.append((_("Visée ({n} de retard)").format(n=count(aimed, _("rang"))), aimed, R_VISER))
            # an extra activity costs −4 Défense from its resolution; with a change of intention, from the change
            defense_after = -anticipation - (EXTRA_MALUS if order and not act.change.declared else 0)
            out.append(
                Planned(
                    index=j,
                    actor=actor,
                    order=order,
                    natural=natural,
                    rank=rank,
                    anticipation=anticipation,
                    modifier=sum(v for _l, v, _r in parts),
                    parts=tuple(parts),
                    change_rank=act.change.rank,
                    change_defense=change_defense,
                    defense_after=defense_after,
                    tactic_attack=tactic.attack,
                    refused=refused,
                    field=at_fault,
                )
            )
            if refused:
                for later_order, later in enumerate(indices[order + 1 :], order + 1):
                    out.append(
                        Planned(
                            index=later,
                            actor=actor,
                            order=later_order,
                            natural=0,
                            rank=0,
                            anticipation=0,
                            modifier=0,
                            parts=(),
                            change_rank=None,
                            change_defense=0,
                            defense_after=0,
                            tactic_attack=tactic.attack,
                            refused=_("L'activité précédente {n.de} n'a pas lieu : celle-ci non plus.").format(n=name),
                        )
                    )
                break
            previous_rank = rank
            carried_anticipation += anticipation
    return out, top


def priority(f: Fighter, initiative: int, dice_term: int) -> tuple[int, int, int, int]:
    """Tie-break on one rank: Vigilance, total Affinités, tactic modifier, dice roll."""
    return (f.vigilance, f.affinities, f.tactic.initiative, dice_term)


# --- resolution ------------------------------------------------------------------------------------------


def resolve(s: ActionScenario, dice: DiceRoll) -> Result:
    ev: list[Event] = []
    n = len(s.fighters)
    people = fighter_whos(s)
    initiatives: list[int] = []
    terms: list[int] = []
    for i, f in enumerate(s.fighters):
        base = initiative_base(f)
        base_total = sum(v for _l, v, _r in base)
        if f.initiative is not None:
            total, term = f.initiative, f.initiative - base_total
            shown = _("saisie")
        else:
            term = _term(dice, f"init.{i}")
            total, shown = base_total + term, _("dés")
        initiatives.append(total)
        terms.append(term)
        for k, (label, value, rule) in enumerate(base):
            ev.append(
                Event(
                    "init_term",
                    f"{people[i].Subject} : {label}",
                    signed(value) if k else str(value),
                    rule,
                    G_INIT,
                    {"fighter": i, "value": value},
                )
            )
        ev.append(
            Event(
                "init_term",
                f"{people[i].Subject} : {_('jet')} ({shown})",
                signed(term),
                R_INITIATIVE,
                G_INIT,
                {"fighter": i, "value": term},
            )
        )
        ev.append(
            Event(
                "initiative",
                f"{people[i].Subject} : {_('Initiative')}",
                str(total),
                R_INITIATIVE,
                G_INIT,
                {"fighter": i, "value": total},
            )
        )
    planned, top = plan(s, initiatives)
    if errors := {f"scenario.{p.field}": p.refused for p in planned if p.field}:
        # a typed rank the rolled Initiatives make impossible: refused on its field, never dropped
        raise ScenarioError(errors)
    ev.append(
        Event(
            "top",
            _("Plus haut jet d'Initiative : le décompte commence au rang {top}").format(top=top),
            str(top),
            R_DECOMPTE,
            G_DECOMPTE,
            {"top": top},
        )
    )

    # state
    defense_mod = [f.tactic.defense + f.carried_malus + (SURPRISE_DEFENSE if f.surprised else 0) for f in s.fighters]
    defense_parts: list[list[tuple[str, int]]] = [[] for _i in range(n)]
    for i, f in enumerate(s.fighters):
        if f.tactic.defense:
            defense_parts[i].append((_("tactique"), f.tactic.defense))
        if f.carried_malus:
            defense_parts[i].append((_("malus reporté"), f.carried_malus))
        if f.surprised:
            defense_parts[i].append((_("surpris"), SURPRISE_DEFENSE))
    # attack angles: melee attackers of this Action on each defender
    attackers_of: dict[int, list[int]] = defaultdict(list)
    for act in s.activities:
        if act.kind is ActivityKind.ATTACK and not act.ranged:
            for t in act.target_list():
                if act.actor not in attackers_of[t]:
                    attackers_of[t].append(act.actor)
    blocked: set[tuple[int, int]] = set()
    for t, actors in sorted(attackers_of.items()):
        if len(actors) < 2:
            continue
        crowd = crowding(
            s.fighters[t].taille, [s.fighters[a].taille for a in actors], s.fighters[t].open_angles, s.surfaces
        )
        for k in crowd.refused:
            blocked.add((actors[k], t))
        if crowd.defense_malus:
            defense_mod[t] += crowd.defense_malus
            defense_parts[t].append((_("angles d'attaque"), crowd.defense_malus))
        ev.append(
            Event(
                "angles",
                _("{n.Subject} : {o} sur {a}, surface {s} par angle").format(
                    n=people[t],
                    o=count(crowd.occupied_angles, _("angle occupé"), _("angles occupés")),
                    a=crowd.open_angles,
                    s=crowd.angle_surface,
                ),
                signed(crowd.defense_malus),
                R_ANGLES,
                G_DECOMPTE,
                {"fighter": t, "occupied": crowd.occupied_angles, "refused": [actors[k] for k in crowd.refused]},
            )
        )
    act_penalty = [f.carried_malus for f in s.fighters]
    essence = [f.essence for f in s.fighters]
    next_malus = [0] * n
    numbers: dict[str, int | str | bool | None] = {"top": top}
    for i in range(n):
        numbers[f"initiative_{i}"] = initiatives[i]

    # steps: (rank, priority, sub-order, kind, planned)
    steps: list[tuple[int, tuple[int, int, int, int], int, str, Planned]] = []
    for p in planned:
        f = s.fighters[p.actor]
        key = priority(f, initiatives[p.actor], terms[p.actor])
        numbers[f"activity_{p.index}_rank"] = p.rank if not p.refused else None
        numbers[f"activity_{p.index}_modifier"] = p.modifier
        if p.refused:
            ev.append(Event("refused", p.refused, "", R_DECOMPTE, G_ACT, {"activity": p.index, "fighter": p.actor}))
            continue
        if p.change_rank is not None:
            steps.append((p.change_rank, key, 0, "change", p))
            next_malus[p.actor] -= CHANGE_MALUS
        if p.order:
            next_malus[p.actor] -= EXTRA_MALUS
        steps.append((p.rank, key, 1, "act", p))
    steps.sort(key=lambda st: (-st[0], tuple(-x for x in st[1]), st[2]))

    order_seen: list[int] = []
    by_rank: dict[int, list[str]] = defaultdict(list)
    snapshots: dict[int, tuple[dict[str, int], dict[str, int]]] = {}
    last_act: tuple[int, tuple[int, int, int, int], int] | None = None
    first_rank = max([top, *(st[0] for st in steps)])
    pending = list(steps)
    schedule: list[tuple[int, tuple[int, int, int, int], int, str, Planned] | None] = []
    for r in range(first_rank, 0, -1):
        while pending and pending[0][0] == r:
            schedule.append(pending.pop(0))
        schedule.append(None)  # end of rank r: snapshot
    for item in schedule:
        if item is None:
            r = first_rank - len(snapshots)
            snapshots[r] = (
                {s.fighters[i].name: s.fighters[i].defense + defense_mod[i] for i in range(n)},
                {s.fighters[i].name: act_penalty[i] for i in range(n)},
            )
            continue
        rank, key, _sub, kind, p = item
        f = s.fighters[p.actor]
        me = people[p.actor]
        act = s.activities[p.index]
        if kind == "change":
            defense_mod[p.actor] += p.change_defense
            defense_parts[p.actor].append((_("changement d'intention"), p.change_defense))
            note = " " + parenthesize(act.change.note) if act.change.note.strip() else ""
            ev.append(
                Event(
                    "change",
                    _("Rang {r} : {n.subject} {n[change|changent]} d'intention{note} ; Défense {d}").format(
                        r=rank, n=me, note=note, d=signed(p.change_defense)
                    ),
                    str(f.defense + defense_mod[p.actor]),
                    R_CHANGEMENT,
                    G_ACT,
                    {
                        "fighter": p.actor,
                        "rank": rank,
                        "defense_change": p.change_defense,
                        "defense": f.defense + defense_mod[p.actor],
                    },
                )
            )
            by_rank[rank].append(_("{n.subject} {n[change|changent]} d'intention").format(n=me))
            continue
        if essence[p.actor] <= 0:
            ev.append(
                Event(
                    "cancelled",
                    _("Rang {r} : {n.subject} {n[est|sont]} hors de combat").format(r=rank, n=me),
                    "",
                    R_EFFETS,
                    G_ACT,
                    {"activity": p.index},
                )
            )
            continue
        simultaneous = last_act is not None and last_act[0] == rank and last_act[1] == key and last_act[2] != p.actor
        last_act = (rank, key, p.actor)
        order_seen.append(p.index)
        how = []
        waited = not p.anticipation and p.rank < p.natural
        if p.anticipation:
            how.append(_("{n[anticipe|anticipent]} de {k}").format(n=me, k=count(p.anticipation, _("rang"))))
        elif waited:
            how.append(_("{n[a attendu|ont attendu]}, rang naturel {r}").format(n=me, r=p.natural))
        if p.order:
            how.append(_("activité supplémentaire n°{k}").format(k=p.order))
        if simultaneous:
            how.append(_("simultanément"))
        detail = " " + parenthesize(", ".join(how)) if how else ""
        title = doing(s, p.index, people)
        for label, value, rule in p.parts:
            ev.append(
                Event(
                    "act_term",
                    f"{me.Subject} : {label}",
                    signed(value),
                    rule,
                    G_ACT,
                    {"activity": p.index, "value": value},
                )
            )
        ev.append(
            Event(
                "activity",
                _("Rang {r} : {n.subject} {title}{detail}").format(r=rank, n=me, title=title, detail=detail),
                signed(p.modifier),
                R_RESOLUTION,
                G_ACT,
                {
                    "activity": p.index,
                    "fighter": p.actor,
                    "rank": rank,
                    "modifier": p.modifier,
                    "anticipation": p.anticipation,
                    "order": p.order,
                    "waited": waited,
                },
            )
        )
        by_rank[rank].append(_("{n.subject} {title}").format(n=me, title=title))
        if act.kind is ActivityKind.ATTACK:
            term = act.term if act.term is not None else _term(dice, f"act.{p.index}")
            total = f.attack + p.modifier + term
            numbers[f"activity_{p.index}_total"] = total
            ev.append(
                Event(
                    "attack_roll",
                    _("{n.Subject} : Attaque {a} {m} + dés {t} = {total}").format(
                        n=me, a=f.attack, m=signed(p.modifier), t=signed(term), total=signed(total, plus="")
                    ),
                    str(total),
                    R_RESOLUTION,
                    G_ACT,
                    {"activity": p.index, "total": total, "term": term},
                )
            )
            worst = 0
            for t in act.target_list():
                target = s.fighters[t]
                aim = people[t]
                if (p.actor, t) in blocked:
                    ev.append(
                        Event(
                            "blocked",
                            _(
                                "{n.Subject} ne {n[trouve|trouvent]} pas d'angle libre pour atteindre {t.subject}"
                            ).format(n=me, t=aim),
                            "",
                            R_ANGLES,
                            G_ACT,
                        )
                    )
                    continue
                defense = target.defense + defense_mod[t]
                margin = total - defense
                worst = min(worst, margin)
                numbers[f"activity_{p.index}_margin_{t}"] = margin
                if margin >= 0:
                    lost = max(0, margin // 2 + f.damage - target.soak)
                    essence[t] = max(0, essence[t] - lost)
                    ev.append(
                        Event(
                            "hit",
                            _(
                                "{t.Subject} (Défense {d}) {t[est|sont]} {t[touché]} : marge {m}, Essence perdue {l}"
                            ).format(t=aim, d=signed(defense, plus=""), m=signed(margin), l=lost),
                            str(lost),
                            R_EFFETS,
                            G_ACT,
                            {"activity": p.index, "target": t, "defense": defense, "margin": margin, "lost": lost},
                        )
                    )
                    numbers[f"activity_{p.index}_lost_{t}"] = lost
                    if essence[t] == 0:
                        ev.append(
                            Event(
                                "down",
                                _("{t.Subject} {t[n'a|n'ont]} plus d'Essence : hors de combat").format(t=aim),
                                "0",
                                R_EFFETS,
                                G_ACT,
                                {"fighter": t},
                            )
                        )
                else:
                    ev.append(
                        Event(
                            "miss",
                            _("{t.Subject} (Défense {d}) {t[n'est|ne sont]} pas {t[touché]} : marge {m}").format(
                                t=aim, d=signed(defense, plus=""), m=signed(margin)
                            ),
                            "",
                            R_EFFETS,
                            G_ACT,
                            {"activity": p.index, "target": t, "defense": defense, "margin": margin},
                        )
                    )
            if worst <= s.incident_threshold:
                self_loss = max(0, (-worst) // 2 + f.damage - f.soak)
                ev.append(
                    Event(
                        "incident",
                        _(
                            "Très mauvais échec {n.de} : incident ; {n[s'il se blesse lui-même|si elle se blesse "
                            "elle-même|s'ils se blessent eux-mêmes|si elles se blessent elles-mêmes]}, {lost}"
                        ).format(n=me, lost=count(self_loss, _("point d'Essence perdu"), _("points d'Essence perdus"))),
                        str(self_loss),
                        R_RESOLUTION,
                        G_ACT,
                        {"activity": p.index, "self_loss": self_loss},
                    )
                )
        if p.defense_after:
            defense_mod[p.actor] += p.defense_after
            defense_parts[p.actor].append((_("anticipation / activité supplémentaire"), p.defense_after))
            ev.append(
                Event(
                    "defense",
                    _("{n.Subject} : Défense {d} pour le reste de l'Action").format(n=me, d=signed(p.defense_after)),
                    str(f.defense + defense_mod[p.actor]),
                    R_ANTICIPATION if p.anticipation else R_SUPPLEMENTAIRE,
                    G_ACT,
                    {"fighter": p.actor, "defense": f.defense + defense_mod[p.actor], "rank": rank},
                )
            )
        act_penalty[p.actor] -= p.anticipation
        numbers[f"defense_{p.actor}_after_activity_{p.index}"] = f.defense + defense_mod[p.actor]

    # impersonal events at rank 0
    for k, imp in enumerate(s.impersonal):
        if not imp.label and imp.target is None:
            continue  # an empty form row
        shown_loss = ""
        if imp.target is not None and imp.essence_loss:
            essence[imp.target] = max(0, essence[imp.target] - imp.essence_loss)
            shown_loss = str(imp.essence_loss)
        who = " " + parenthesize(people[imp.target].subject) if imp.target is not None and imp.target < n else ""
        ev.append(
            Event(
                "impersonal",
                _("Rang 0 : {label}{who}").format(label=imp.label, who=who),
                shown_loss,
                R_IMPERSONNELS,
                G_ACT,
                {"event": k},
            )
        )

    # countdown table for the game master
    ev.extend(_countdown(s, initiatives, planned, top, by_rank, snapshots))
    for i, f in enumerate(s.fighters):
        numbers[f"defense_{i}"] = f.defense + defense_mod[i]
        numbers[f"essence_{i}"] = essence[i]
        numbers[f"next_malus_{i}"] = next_malus[i]
        label = _("{n.Subject} : malus de l'Action suivante (Initiative, activités, Défense)").format(n=people[i])
        ev.append(
            Event(
                "next",
                label,
                signed(next_malus[i]) if next_malus[i] else "0",
                R_SUPPLEMENTAIRE,
                G_NEXT,
                {"fighter": i, "malus": next_malus[i]},
            )
        )
    numbers["order"] = ",".join(str(i) for i in order_seen)
    return Result("resolved", _("Action résolue"), numbers, tuple(ev), dice, "neutral")


def _countdown(
    s: ActionScenario,
    initiatives: list[int],
    planned: list[Planned],
    top: int,
    by_rank: dict[int, list[str]],
    snapshots: dict[int, tuple[dict[str, int], dict[str, int]]],
) -> list[Event]:
    """At each rank: who may act, what happens, every combatant's Défense and activity malus."""
    out: list[Event] = []
    n = len(s.fighters)
    shown: dict[str, str] = {}  # the data keep the names; the texts say them with their article
    for f, person in zip(s.fighters, fighter_whos(s), strict=True):
        shown.setdefault(f.name, person.subject)
    ranks = sorted(snapshots, reverse=True) if len(snapshots) <= 60 else sorted(by_rank, reverse=True)
    for r in ranks:
        may = [
            s.fighters[i].name
            for i in range(n)
            if initiatives[i] > 0
            and r <= top
            and (initiatives[i] >= r or any(p.actor == i and not p.refused and p.rank == r for p in planned))
            and any(p.actor == i and not p.refused and p.rank <= r for p in planned)
        ]
        defenses, maluses = snapshots.get(r, ({}, {}))
        happening = by_rank.get(r, [])
        previous = out[-1].data if out else None
        if (
            previous is not None
            and not happening
            and not previous["happening"]
            and previous["last_rank"] == r + 1
            and (previous["may_act"], previous["defense"], previous["malus"]) == (may, defenses, maluses)
        ):
            # a quiet rank like the one before: one row "Rangs 36 à 18" instead of nineteen identical rows
            merged = {**previous, "last_rank": r, "ranks": [*previous["ranks"], r]}
            out[-1] = Event("rank", _row_label(merged, shown), out[-1].value, R_DECOMPTE, G_DECOMPTE, merged)
            continue
        data = {
            "rank": r,
            "last_rank": r,
            "ranks": [r],
            "happening": happening,
            "may_act": may,
            "defense": defenses,
            "malus": maluses,
        }
        value = ", ".join(shown.get(name, name) for name in may)
        out.append(Event("rank", _row_label(data, shown), value, R_DECOMPTE, G_DECOMPTE, data))
    return out


def _row_label(data: Mapping[str, Any], shown: Mapping[str, str]) -> str:
    """ "Rang 17 : what happens — Défense (malus d'activité) : …", or "Rangs 36 à 18 — …" for quiet ranks;
    ``shown`` says each name with its article (« le Serpent à Sornettes 15 »)."""
    first, last = data["rank"], data["last_rank"]
    label = (
        _("Rang {r}").format(r=first)
        if first == last
        else _("Rangs {first} à {last} (rien ne se passe)").format(first=first, last=last)
    )
    if data["happening"]:
        label += " : " + " ; ".join(data["happening"])
    maluses = data["malus"]
    state = ", ".join(
        _("{name} {d}").format(name=shown.get(name, name), d=signed(d, plus=""))
        + (f" ({signed(maluses[name])})" if maluses.get(name) else "")
        for name, d in data["defense"].items()
    )
    if state:
        label += " — " + _("Défense (malus d'activité) : {state}").format(state=state)
    return label


# --- the next Action -----------------------------------------------------------------------------------


def next_action(s: ActionScenario, result: Result) -> ActionScenario:
    """The next Action: the same combatants with their Essence and the carried malus, no surprise,
    Initiatives to roll again, the same declarations as a starting point."""
    n = result.numbers
    fighters = tuple(
        replace(
            f,
            essence=int(n.get(f"essence_{i}") or 0),
            carried_malus=int(n.get(f"next_malus_{i}") or 0),
            surprised=False,
            ambush_margin=0,
            initiative=None,
        )
        for i, f in enumerate(s.fighters)
    )
    activities = tuple(replace(a, rank=None, change=Change(), term=None) for a in s.activities)
    return replace(s, fighters=fighters, activities=activities)


# --- odds -------------------------------------------------------------------------------------------------


def _initiative_weights(s: ActionScenario, f: Fighter) -> tuple[tuple[tuple[int, int], int], ...]:
    """((Initiative, dice term), number of rolls) of a combatant: one certain roll when typed."""
    base = sum(v for _l, v, _r in initiative_base(f))
    if f.initiative is not None:
        return (((f.initiative, f.initiative - base), 1),)
    from rulesets.feerie.odds import term_weights

    return tuple(((base + t, t), n) for t, n in term_weights(s.roll))


@dataclass(frozen=True, slots=True)
class _Ranked:
    """A combatant's priority keys with integer weights, sorted, for fast "strictly below" counts."""

    keys: list[tuple[int, ...]]
    cumulative: list[int]  # cumulative[k] = weight of keys[:k]
    idle: int  # weight of an Initiative ≤ 0 (never ahead of anyone)
    total: int

    def below(self, key: tuple[int, ...]) -> int:
        return self.idle + self.cumulative[bisect_left(self.keys, key)]


def _ranked(
    weights: tuple[tuple[tuple[int, int], int], ...], g: Fighter
) -> tuple[_Ranked, list[tuple[tuple[int, ...], int]]]:
    weighted: list[tuple[tuple[int, ...], int]] = [((init, *priority(g, init, term)), n) for (init, term), n in weights]
    acting = sorted((k, w) for k, w in weighted if k[0] > 0)
    cumulative = [0]
    for _k, w in acting:
        cumulative.append(cumulative[-1] + w)
    idle = sum(w for k, w in weighted if k[0] <= 0)
    return _Ranked([k for k, _w in acting], cumulative, idle, sum(n for _o, n in weights)), acting


def first_weights(ranked: list[tuple[_Ranked, list[tuple[tuple[int, ...], int]]]]) -> list[int]:
    """For each combatant, the weight of the rolls where it alone holds the highest key: the sum,
    over its keys, of the key's weight times every other combatant's weight strictly below it.

    One sweep over every key of every combatant in ascending order keeps each combatant's weight
    below the current key and the product of those weights (its zero factors counted apart), so
    the product over the others is one division: linear in the number of keys instead of keys ×
    combatants (24 combatants of 3d100 − 3d100: 14 000 keys).
    """
    below = [r.idle for r, _acting in ranked]
    zeros = sum(1 for b in below if b == 0)
    product = 1
    for b in below:
        if b:
            product *= b
    events = sorted((key, i, w) for i, (_r, acting) in enumerate(ranked) for key, w in acting)
    out = [0] * len(ranked)
    start, count = 0, len(events)
    while start < count:
        key = events[start][0]
        stop = start + 1
        while stop < count and events[stop][0] == key:
            stop += 1
        group = events[start:stop] if stop > start + 1 else (events[start],)
        for _key, i, w in group:
            if below[i]:  # the product over the others: every factor but this one
                if zeros == 0:
                    out[i] += w * (product // below[i])
            elif zeros == 1:  # this combatant's is the only zero factor
                out[i] += w * product
        for _key, i, w in group:  # equal keys are not strictly below each other: counted after the group
            old = below[i]
            below[i] = old + w
            if old:
                product = product // old * below[i]
            else:
                zeros -= 1
                product *= below[i]
        start = stop
    return out


def odds(s: ActionScenario) -> Odds:
    """Exact chance of each combatant to act first (highest rank, then the priority rules)."""
    weights = [_initiative_weights(s, f) for f in s.fighters]
    ranked = [_ranked(w, f) for w, f in zip(weights, s.fighters, strict=True)]
    numerators = first_weights(ranked)
    denominator = 1
    for other, _acting in ranked:
        denominator *= other.total
    outcomes: list[tuple[str, str, Fraction]] = []
    charts: list[Chart] = []
    for i, f in enumerate(s.fighters):
        p_first = Fraction(numerators[i], denominator)
        me = fighter_who(f, i)
        outcomes.append((f"first_{i}", _("{n.Subject} {n[agit|agissent]} en premier").format(n=me), p_first))
        if i >= 6:
            continue
        total = ranked[i][0].total
        inits: dict[int, int] = defaultdict(int)
        for (init, _term), n in weights[i]:
            inits[init] += n
        charts.append(
            Chart(
                f"initiative_{i}",
                _("Initiative {n.de}").format(n=me),
                grouped_bars(inits, anchor=1, total=total),
                Fraction(sum(v * n for v, n in inits.items()), total),
                _("rang"),
            )
        )
    idle = [Fraction(r.idle, r.total) for r, _acting in ranked]
    nobody = 1
    for r, _acting in ranked:
        nobody *= r.idle
    outcomes.append(("nobody", _("Personne ne peut agir"), Fraction(nobody, denominator)))
    # equal keys in full are simultaneous: their share is neither combatant's "first" (summed as
    # integers over the common denominator: adding two dozen fractions of 300 digits costs more)
    tie = Fraction(denominator - sum(numerators) - nobody, denominator)
    outcomes.append(("simultaneous", typography(_("Égalité parfaite au premier rang : actions simultanées")), tie))
    expectations = tuple(
        (
            f"cannot_act_{i}",
            _("Probabilité {n.que} ne {n[puisse|puissent]} agir (Initiative ≤ 0)").format(n=fighter_who(f, i)),
            idle[i],
        )
        for i, f in enumerate(s.fighters)
    )
    return Odds(tuple(outcomes), tuple(charts), expectations)
