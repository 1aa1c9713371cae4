"""Contes de Fées inside an encounter: Essence, the Action and its carried malus (seed ``004``,
« Le déroulement d'un combat », « Options de combat », « Diverses situations de combat »).

* One kind, the Féerique: the sheet (Aspects, Taille, Attributs) from which the pages derive
  Initiative, Attaque, Défense, Dommages and Encaissement, and what the fight changes: Essence,
  the Initiative of the current Action, the malus carried from the previous Action and the one
  being built for the next (−4 per extra activity, −4 per change of intention: exactly
  :func:`rulesets.feerie.action.next_action`), surprise and ambush (first Action only), the
  declared tactic and activities (the next Action's starting point), the lasting effects of
  special blows, the Essence inflicted by the last activity (acharnement).
* Two pages: one exchange (``feerie``: attacker, defender) and the Action sequence
  (``feerie-action``: every fighter of the Action).
* The clock counts Actions and holds the impersonal events that recur « une fois par Action »
  (rank 0); the end of an Action resolves those the Action page did not, carries the malus into
  the next Action, clears the Initiatives, surprise and ambush, and counts one more Action.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Annotated, Any

from rulesets.core.encounter import (
    Applied,
    Bar,
    Bindings,
    EncounterRules,
    Entry,
    Fighter,
    Kind,
    Page,
    Role,
    register,
    rows,
)
from rulesets.core.french import DEFINITE_M, Grammar, Noun, count, parenthesize, quote, signed
from rulesets.core.i18n import _
from rulesets.core.results import Result
from rulesets.core.schema import Spec, unflatten
from rulesets.feerie.action import SURPRISE_DEFENSE, ActionScenario, ActivityKind
from rulesets.feerie.conditions import (
    CONDITIONS,
    DECAYING,
    RELENTLESS_DEFENCE,
    Condition,
    Lasts,
    countered,
    malus_at,
    top_rank,
    wear,
    with_condition,
)
from rulesets.feerie.engine import derive
from rulesets.feerie.model import Attribute, AttributeKind, BlowKind, Combatant, Exchange, Mode, Tactic
from rulesets.feerie.speech import who
from rulesets.feerie.turns import turns

FEERIQUE = "feerique"
DEFAULT_NAME = "Féerique"
ATTRIBUTE_ROWS = 4  # the exchange page shows at least as many Attribut rows as a bestiary preset fills
MALUS_FLOOR = -999  # bounds wide enough that no result of the engines can leave them


# --- the state of a Féerique -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Declaration:
    """An activity declared at step 1; a combatant's later declarations are extra activities."""

    label: Annotated[
        str,
        Spec(label=_("Activité déclarée"), max_length=200, help=_("Un verbe, pour le récit : « fond sur l'Ogre ».")),
    ] = ""
    targets: Annotated[str, Spec(label=_("Cibles"), max_length=200, help=_("Leurs noms, séparés par « ; »."))] = ""
    other: Annotated[
        bool,
        Spec(label=_("Autre activité qu'une Attaque"), help=_("Pouvoir, Influence, fuite… : pas de jet d'Attaque.")),
    ] = False
    blunt: Annotated[bool, Spec(label=_("Projectile contondant"), help=_("Plusieurs cibles possibles."))] = False
    aim: Annotated[bool, Spec(label=_("Viser"), help=_("Retarder son tir : +1 par rang, 8 au plus."))] = False
    bonus: Annotated[int | None, Spec(label=_("Attributs propres à cette activité"), ge=-30, le=40)] = None

    def target_names(self) -> tuple[str, ...]:
        return tuple(t.strip() for t in self.targets.split(";") if t.strip())


@dataclass(frozen=True, slots=True)
class FeeriqueState:
    """A Féerique of the encounter. ``grammar`` says how the texts name it (issue 15): a bestiary
    creature brings its own (« le Lutin »); a name typed by hand is a proper name by default
    (« Aldric »), and the default name itself a common noun (« le Féerique », :attr:`who`)."""

    name: Annotated[str, Spec(label=_("Nom"), max_length=80)] = DEFAULT_NAME
    grammar: Annotated[Grammar, Spec(label=_("Grammaire du nom"))] = field(default_factory=Grammar)
    vigilance: Annotated[int, Spec(label=_("Vigilance"), ge=0, le=60)] = 10
    habilete: Annotated[int, Spec(label=_("Habileté"), ge=0, le=60)] = 10
    puissance: Annotated[int, Spec(label=_("Puissance"), ge=0, le=60)] = 10
    resistance: Annotated[int, Spec(label=_("Résistance"), ge=0, le=60)] = 10
    taille: Annotated[int, Spec(label=_("Taille"), ge=-5, le=5)] = 0
    essence: Annotated[int, Spec(label=_("Essence (Glamour)"), ge=0, le=500)] = 20
    essence_max: Annotated[int, Spec(label=_("Essence de départ"), ge=1, le=500)] = 20
    attributes: Annotated[tuple[Attribute, ...], Spec(label=_("Affinités, Pouvoirs et Accessoires"), max_items=16)] = ()
    ranged: Annotated[
        bool,
        Spec(
            label=_("Combat à distance"),
            help=_(
                "Attaque sur la Vigilance, Dommages −4 ; l'entrée « à distance » du bestiaire le coche et en donne les Attributs."
            ),
        ),
    ] = False
    open_angles: Annotated[
        int, Spec(label=_("Angles d'attaque ouverts"), ge=1, le=6, help=_("6 au plus, 2 dans un couloir."))
    ] = 4
    tactic: Annotated[Tactic, Spec(label=_("Tactique déclarée"))] = field(default_factory=Tactic)
    surprised: Annotated[
        bool,
        Spec(label=_("Surpris"), help=_("−8 à l'Initiative, −4 en Défense, pas de tactique : la première Action.")),
    ] = False
    ambush_margin: Annotated[
        int,
        Spec(
            label=_("Marge de dissimulation"),
            ge=0,
            le=60,
            help=_("Embuscade sur une victime sur ses gardes : la moitié en Initiative, la première Action."),
        ),
    ] = 0
    initiative: Annotated[
        int | None, Spec(label=_("Initiative de l'Action en cours"), ge=-999, le=999, help=_("Vide : à tirer."))
    ] = None
    carried_malus: Annotated[
        int,
        Spec(
            label=_("Malus de cette Action, reporté de la précédente"),
            ge=MALUS_FLOOR,
            le=0,
            help=_("À l'Initiative, à toutes ses activités et à sa Défense."),
        ),
    ] = 0
    next_malus: Annotated[
        int,
        Spec(
            label=_("Malus reporté sur l'Action suivante"),
            ge=MALUS_FLOOR,
            le=0,
            help=_("−4 par activité supplémentaire et par changement d'intention de cette Action."),
        ),
    ] = 0
    declarations: Annotated[
        tuple[Declaration, ...],
        Spec(label=_("Activités déclarées"), max_items=8, help=_("Le point de départ de l'Action suivante.")),
    ] = ()
    conditions: Annotated[tuple[Condition, ...], Spec(label=_("Effets en cours"), max_items=12)] = ()
    last_loss: Annotated[
        int,
        Spec(
            label=_("Essence infligée par sa dernière activité"),
            ge=0,
            le=500,
            help=_("Un acharnement sur la même victime ajoute le quart de ces pertes aux Dommages."),
        ),
    ] = 0
    last_victim: Annotated[str, Spec(label=_("Victime de sa dernière activité"), max_length=80)] = ""

    def traits(self) -> tuple[Attribute, ...]:
        """The Attributs, without the blank rows a form may leave (no name, no value)."""
        return tuple(a for a in self.attributes if a.name or a.value)

    def combatant(self) -> Combatant:
        """The exchange engine's combatant for this sheet, without tactic nor modifiers."""
        return Combatant(
            name=self.name,
            grammar=self.grammar,
            vigilance=self.vigilance,
            habilete=self.habilete,
            puissance=self.puissance,
            resistance=self.resistance,
            taille=self.taille,
            essence=self.essence,
            attributes=self.traits(),
        )

    @property
    def who(self) -> Noun:
        """The Féerique as the texts name it: « le Lutin », « Rübezahl »; the default name, left with
        the default grammar, is the common noun it is (« le Féerique »)."""
        if self.name.strip() in ("", DEFAULT_NAME) and self.grammar == Grammar():
            return Noun(_("Féerique"), DEFINITE_M)
        return who(self.name, self.grammar, _("Féerique"))

    @property
    def condition_malus(self) -> int:
        """The lasting effects' malus to its activities (counted in Attaque), as stored: at the
        start of the Action, or at the rank each was inflicted."""
        return sum(c.malus or 0 for c in self.conditions)

    @property
    def condition_defense(self) -> int:
        """The lasting effects' malus to its Défense (a weapon left in a wound)."""
        return sum(c.defense or 0 for c in self.conditions)

    def check(self) -> dict[str, str]:
        errors: dict[str, str] = {}
        if self.essence > self.essence_max:
            errors["essence"] = _("Essence : ne peut dépasser l'Essence de départ ({max}).").format(
                max=self.essence_max
            )
        sheet = replace(self.combatant(), attributes=self.attributes, tactic=self.tactic)
        errors.update(sheet.check())
        if self.surprised and self.tactic.is_declared:
            errors["tactic"] = _("Un personnage surpris ne peut pas déclarer de tactique lors de la première Action.")
        for i, d in enumerate(self.declarations):
            if not d.other and not d.target_names() and (d.label or d.bonus is not None):
                errors[f"declarations.{i}.targets"] = _(
                    "Une attaque vise au moins une cible (ou cocher « Autre activité »)."
                )
            if d.aim and not self.ranged:
                errors[f"declarations.{i}.aim"] = _("On ne vise qu'à distance (cocher « Combat à distance »).")
        return errors


# --- the clock ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Recurring:
    """An impersonal event that happens « une fois par Action », at rank 0 (fire, drowning…)."""

    label: Annotated[str, Spec(label=_("Événement"), max_length=200)] = ""
    target: Annotated[str, Spec(label=_("Combattant touché"), max_length=80, help=_("Son nom ; vide : personne."))] = ""
    essence_loss: Annotated[int | None, Spec(label=_("Perte d'Essence"), ge=0, le=500)] = None
    done: Annotated[bool, Spec(label=_("Déjà résolu pendant cette Action"))] = False

    def check(self) -> dict[str, str]:
        if self.essence_loss and not self.target:
            return {"target": _("Une perte d'Essence demande le nom du combattant touché.")}
        return {}


@dataclass(frozen=True, slots=True)
class Clock:
    action: Annotated[int, Spec(label=_("Action"), ge=1, le=999)] = 1
    events: Annotated[
        tuple[Recurring, ...],
        Spec(label=_("Événements impersonnels (à chaque Action, au rang 0)"), max_items=10),
    ] = ()


# --- derived values ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Derived:
    attack: int
    defense: int
    damage: int
    soak: int
    initiative_bonus: int
    affinities: int
    tactic_cap: int


def derived(state: FeeriqueState) -> Derived:
    """The combat quantities of « Les grandeurs en jeu », computed by the exchange engine itself
    (physical conflict, the sheet's mode), without tactic, malus nor situation."""
    c = state.combatant()
    dv = derive(Exchange(attacker=c, defender=c, mode=Mode.RANGED if state.ranged else Mode.MELEE))
    return Derived(
        attack=dv.attack.total,
        defense=dv.defense.total,
        damage=dv.damage.total,
        soak=dv.soak.total,
        initiative_bonus=sum(a.value for a in c.attributes if a.initiative),
        affinities=sum(a.value for a in c.attributes if a.kind is AttributeKind.AFFINITE),
        tactic_cap=c.tactic_cap(),
    )


def _essence(n: int) -> str:
    """« 1 point d'Essence », « 5 points d'Essence »."""
    return count(n, _("point d'Essence"), _("points d'Essence"))


def _first(bindings: Bindings, role: str) -> Fighter | None:
    fighters = bindings.get(role, ())
    return fighters[0] if fighters else None


def _attribute_fields(a: Attribute) -> dict[str, Any]:
    return {
        "name": a.name,
        "kind": a.kind.value,
        "value": a.value,
        "initiative": a.initiative,
        "attack": a.attack,
        "defense": a.defense,
        "damage": a.damage,
        "soak": a.soak,
    }


# --- the exchange page ----------------------------------------------------------------------------------


def _grammar_fields(grammar: Grammar) -> dict[str, Any]:
    """A name's grammar as a page's fields (``grammar.article`` …)."""
    return {
        "grammar.article": grammar.article.value,
        "grammar.gender": grammar.gender.value,
        "grammar.elision": grammar.elision.value,
    }


def _combatant_fields(
    state: FeeriqueState, default_rows: int, rank: int | None = None, top: int | None = None
) -> dict[str, Any]:
    """One side of the exchange: the sheet, the declared tactic, and this Action's malus as the
    occasional modifiers (« bonus/malus occasionnels »): the carried malus on Initiative, Attaque
    and Défense, the lasting effects' malus at rank ``rank`` of the Action (``top``, its highest
    Initiative) on Attaque and Défense (rulesets/feerie/conditions.py)."""
    carried = state.carried_malus
    attack, defense = malus_at(state.conditions, rank, top)
    out: dict[str, Any] = {
        "name": state.name,
        **_grammar_fields(state.grammar),
        "vigilance": state.vigilance,
        "habilete": state.habilete,
        "puissance": state.puissance,
        "resistance": state.resistance,
        "taille": state.taille,
        "essence": state.essence,
        "tactic.initiative": state.tactic.initiative,
        "tactic.attack": state.tactic.attack,
        "tactic.defense": state.tactic.defense,
        "modifiers.initiative": carried,
        "modifiers.attack": carried + attack,
        "modifiers.defense": carried + defense,
    }
    traits = state.traits()
    # the page's default rows (the Wichtln's three Attributs) must not survive under ours
    for i in range(max(default_rows, ATTRIBUTE_ROWS, len(traits))):
        out.update(rows(f"attributes.{i}", _attribute_fields(traits[i] if i < len(traits) else Attribute())))
    return out


_DEFAULT_EXCHANGE = Exchange()


def fill_exchange(bindings: Bindings, clock: Clock, everyone: tuple[Fighter, ...] = ()) -> dict[str, Any]:
    """The exchange page from the attacker's and the defender's states, at the attacker's rank: a
    stun has worn off by as many ranks as have gone by since it was inflicted (or since the top of
    the Action)."""
    out: dict[str, Any] = {}
    attacker, defender = _first(bindings, "attacker"), _first(bindings, "defender")
    rank = attacker.state.initiative if attacker is not None else None
    top = top_rank(f.state for f in (everyone or tuple(f for fs in bindings.values() for f in fs)))
    if attacker is not None:
        a: FeeriqueState = attacker.state
        out.update(rows("attacker", _combatant_fields(a, len(_DEFAULT_EXCHANGE.attacker.attributes), rank, top)))
        out["mode"] = (Mode.RANGED if a.ranged else Mode.MELEE).value
        out["situation.ambush_margin"] = a.ambush_margin
    if defender is not None:
        d: FeeriqueState = defender.state
        out.update(rows("defender", _combatant_fields(d, len(_DEFAULT_EXCHANGE.defender.attributes), rank, top)))
        out["situation.surprised"] = d.surprised
        out["situation.open_angles"] = d.open_angles
        # « un être vivant inconscient, sans Essence […] : sa Défense se trouve réduite à zéro »
        out["situation.defender_helpless"] = d.essence == 0
    if attacker is not None and defender is not None:
        a = attacker.state
        out["previous_loss"] = a.last_loss if a.last_victim == defender.state.name else 0
    return out


# the special blows whose effect lasts on the defender, and whether its value is a malus
_LASTING = {
    BlowKind.DISARM.value: False,
    BlowKind.TRIP.value: True,
    BlowKind.ENTANGLE.value: True,
    BlowKind.STUN.value: True,
    BlowKind.HOLD_OFF.value: True,
    BlowKind.INSIDE_GUARD.value: True,
    BlowKind.CRIPPLE.value: False,
}


def _inflicted(kind: str, value: int, label: str, by: str, rank: int | None) -> Condition:
    """The effect a special blow leaves on its victim: a malus, or ranks (Handicaper); the rank
    of the Action it was inflicted at for those that wear off rank by rank."""
    lasts = Lasts(kind)
    return Condition(
        label=label[:200],
        by=by[:80],
        malus=value if _LASTING[kind] and value < 0 else None,
        kind=lasts,
        ranks=value if lasts is Lasts.CRIPPLE else None,
        rank=rank if kind in DECAYING else None,
    )


def _guard_freed(s: FeeriqueState, gone: Condition) -> str:
    if gone.kind is Lasts.HOLD_OFF:
        text = _(
            "{n.Subject} {n[entre|entrent]} dans la garde : {n[il n'est|elle n'est|ils ne sont|elles ne sont]} plus {n[tenu]} en respect (le coup ne fait que neutraliser l'autre)."
        )
    else:
        text = _(
            "{n.Subject} {n[tient|tiennent]} son adversaire en respect : sa garde n'est plus percée (le coup ne fait que neutraliser l'autre)."
        )
    return text.format(n=s.who)


def apply_exchange(scenario: Exchange, result: Result, bindings: Bindings, clock: Clock) -> Applied:
    """Write an exchange: the Essence the defender lost, the lasting effects of special blows
    (rulesets/feerie/conditions.py: a guard blow against the one who inflicted the other only
    neutralises it; a failed Attack dislodges a weapon left in a wound), and what the attacker's
    activity inflicted (the next acharnement reads it)."""
    n = result.numbers
    states: dict[str, Any] = {}
    story: list[str] = []
    notes: list[str] = []
    attacker, defender = _first(bindings, "attacker"), _first(bindings, "defender")
    inanimate = scenario.situation.target_inanimate
    loss = 0
    new_a: FeeriqueState | None = attacker.state if attacker is not None else None
    rank = new_a.initiative if new_a is not None else None
    if new_a is not None and not n.get("hit") and any(c.kind is Lasts.RELENTLESS for c in new_a.conditions):
        new_a = replace(new_a, conditions=tuple(c for c in new_a.conditions if c.kind is not Lasts.RELENTLESS))
        story.append(_("L'Attaque a échoué : l'arme {n.de} est délogée de la plaie.").format(n=new_a.who))
    if defender is not None and not inanimate:
        d: FeeriqueState = defender.state
        loss = max(0, int(n.get("essence_before") or 0) - int(n.get("essence_after") or 0))
        new_d = replace(d, essence=max(0, d.essence - loss))
        by = attacker.state.name if attacker is not None else scenario.attacker.name
        for event in result.events_of("blow"):
            kind, value = str(event.data.get("blow", "")), int(event.data.get("value") or 0)
            gone = countered(new_a, d.name, kind) if new_a is not None else None
            if new_a is not None and gone is not None:
                new_a = replace(new_a, conditions=tuple(c for c in new_a.conditions if c is not gone))
                story.append(_guard_freed(new_a, gone))
                continue
            if kind == BlowKind.RELENTLESS.value and new_a is not None:
                if not any(c.kind is Lasts.RELENTLESS and c.by == d.name for c in new_a.conditions):
                    malus = next(
                        (b.numbers.defense_malus for b in scenario.active_blows if b.kind is BlowKind.RELENTLESS),
                        RELENTLESS_DEFENCE,
                    )
                    stuck = Condition(
                        label=event.label[:200], by=d.name[:80], kind=Lasts.RELENTLESS, defense=malus or None
                    )
                    new_a = with_condition(new_a, stuck, notes)
                continue
            if kind not in _LASTING or (kind in (BlowKind.STUN.value, BlowKind.CRIPPLE.value) and not value):
                continue
            new_d = with_condition(new_d, _inflicted(kind, value, event.label, by, rank), notes)
            story.append(_("Noté sur la fiche {n.de} : {label}").format(n=d.who, label=quote(event.label)))
        if new_d.essence == 0 and d.essence > 0:
            story.append(
                _(
                    "{n.Subject} {n[n'a|n'ont]} plus d'Essence : hors de combat, {n[sa|leur]} Défense tombe à zéro."
                ).format(n=d.who)
            )
        if new_d != d:
            states[defender.key] = new_d
    if attacker is not None and new_a is not None:
        victim = defender.state.name if defender is not None and loss else ""
        new_a = replace(new_a, last_loss=loss if victim else 0, last_victim=victim)
        frightening = int(n.get(f"effect_{BlowKind.FRIGHTENING.value}") or 0)
        if frightening:
            label = next(e.label for e in result.events_of("blow") if e.data.get("blow") == BlowKind.FRIGHTENING.value)
            scare = Condition(label=label[:200], by=new_a.name[:80], kind=Lasts.FRIGHTENING)
            new_a = with_condition(new_a, scare, notes)
        if new_a != attacker.state:
            states[attacker.key] = new_a
    if result.outcome == "incident" and not inanimate and int(n.get("self_loss") or 0):
        hurt = (
            attacker.state.who
            if attacker is not None
            else who(scenario.attacker.name, scenario.attacker.grammar, _("attaquant"))
        )
        notes.append(
            _(
                "Incident : si {n.subject} se {n[blesse|blessent]} {n[lui-même|elle-même|eux-mêmes|elles-mêmes]}, "
                "{n[il perd|elle perd|ils perdent|elles perdent]} {lost} ; le texte en laisse le choix au meneur "
                "(chute, allié, arme…) : rien n'est retiré, à appliquer à la main."
            ).format(n=hurt, lost=_essence(int(n.get("self_loss") or 0)))
        )
    return Applied(states=states, story=tuple(story), notes=tuple(notes))


# --- the Action page --------------------------------------------------------------------------------------


def _index_of_names(fighters: tuple[Fighter, ...]) -> dict[str, int]:
    out: dict[str, int] = {}
    for i, f in enumerate(fighters):
        out.setdefault(f.state.name, i)
    return out


def _pending_events(clock: Clock, index: Mapping[str, int]) -> list[Recurring]:
    """The impersonal events of this Action the Action page resolves: not resolved yet, and
    touching nobody or a fighter of the Action (the others wait for the end of the Action)."""
    return [e for e in clock.events if not e.done and (not e.target or e.target in index)]


def fill_action(bindings: Bindings, clock: Clock) -> dict[str, Any]:
    """The Action page: every fighter from its state (derived values, tactic, surprise, this
    Action's carried malus, an Initiative already obtained), their declarations as the activities
    (targets by name → the fighters' numbers), and the impersonal events not yet resolved."""
    fighters = bindings.get("fighters", ())
    index = _index_of_names(fighters)
    out: dict[str, Any] = {}
    for i, f in enumerate(fighters):
        s: FeeriqueState = f.state
        dv = derived(s)
        down = s.essence == 0
        values: dict[str, Any] = {
            "name": s.name,
            **_grammar_fields(s.grammar),
            "vigilance": s.vigilance,
            "initiative_bonus": dv.initiative_bonus,
            "affinities": dv.affinities,
            "tactic_cap": dv.tactic_cap,
            "surprised": s.surprised,
            "ambush_margin": s.ambush_margin,
            "carried_malus": s.carried_malus,
            "attack": dv.attack + s.condition_malus,
            "defense": dv.defense + s.condition_defense,
            "damage": dv.damage,
            "soak": dv.soak,
            "essence": s.essence,
            "taille": s.taille,
            "open_angles": s.open_angles,
        }
        if not down:
            values.update(
                {
                    "tactic.initiative": s.tactic.initiative,
                    "tactic.attack": s.tactic.attack,
                    "tactic.defense": s.tactic.defense,
                }
            )
        else:
            # without Essence his Défense is zero: the engine adds the carried malus and the surprise
            values["defense"] = -(s.carried_malus + (SURPRISE_DEFENSE if s.surprised else 0))
        if s.initiative is not None:
            values["initiative"] = s.initiative
        out.update(rows(f"fighters.{i}", values))
    j = 0
    for i, f in enumerate(fighters):
        s = f.state
        if s.essence == 0:
            continue
        declarations = s.declarations or (Declaration(),)
        for d in declarations:
            targets = [index[t] for t in d.target_names() if t in index and index[t] != i]
            if d == Declaration():
                kind = ActivityKind.NONE  # a row ready for the declaration
            elif d.other:
                kind = ActivityKind.OTHER
            else:
                kind = ActivityKind.ATTACK
            out.update(
                rows(
                    f"activities.{j}",
                    {
                        "actor": i,
                        "kind": kind.value,
                        "label": d.label,
                        "targets": ",".join(str(t) for t in targets),
                        "ranged": s.ranged,
                        "blunt": d.blunt,
                        "aim": d.aim and s.ranged,
                        "bonus": d.bonus or 0,
                    },
                )
            )
            j += 1
    if j == 0:  # the page's default declarations (Rübezahl and the Serpent) must not stay
        out.update(rows("activities.0", {"actor": 0, "kind": ActivityKind.NONE.value}))
    for k, event in enumerate(_pending_events(clock, index)):
        out.update(
            rows(
                f"impersonal.{k}",
                {
                    "label": event.label or _("Événement"),
                    "target": index[event.target] if event.target else None,
                    "essence_loss": event.essence_loss or 0,
                },
            )
        )
    return out


def _tactic_in_force(s: ActionScenario, actor: int) -> Tactic:
    """The tactic at the end of the Action: the declared one, or the last one adopted by a change
    of intention (it « reste en vigueur » until step 1 of the next Action)."""
    tactic = s.fighters[actor].tactic
    for act in s.activities:
        if act.actor == actor and act.kind is not ActivityKind.NONE and act.change.declared and act.change.new_tactic:
            tactic = act.change.tactic
    return tactic


def _declarations(s: ActionScenario, actor: int) -> tuple[Declaration, ...]:
    names = [f.name for f in s.fighters]
    out: list[Declaration] = []
    for act in s.activities:
        if act.actor != actor or act.kind is ActivityKind.NONE:
            continue
        targets = [names[t] for t in act.target_list() if 0 <= t < len(names)]
        out.append(
            Declaration(
                label=act.label,
                targets=" ; ".join(targets)[:200],
                other=act.kind is ActivityKind.OTHER,
                blunt=act.blunt,
                aim=act.aim,
                bonus=act.bonus or None,
            )
        )
    return tuple(out[:8])


def _last_inflicted(result: Result, activities: list[int], names: list[str]) -> tuple[int, str] | None:
    """(Essence inflicted, victim) by the last of ``activities`` resolved, or None if none was."""
    if not activities:
        return None
    last = activities[-1]
    for event in result.events_of("hit"):
        if event.data.get("activity") == last and int(event.data.get("lost") or 0):
            target = int(event.data["target"])
            return int(event.data["lost"]), names[target] if 0 <= target < len(names) else ""
    return 0, ""


def apply_action(scenario: ActionScenario, result: Result, bindings: Bindings, clock: Clock) -> Applied:
    """Write a whole Action: each fighter's Essence, the Initiative obtained, the malus carried into
    the next Action (added to what is already there), the tactic and declarations as the next
    Action's starting point, what the last activity inflicted; the impersonal events resolved."""
    n = result.numbers
    fighters = bindings.get("fighters", ())
    page = scenario.fighters
    names = [f.name for f in page]
    order = [int(x) for x in str(n.get("order") or "").split(",") if x.strip().isdigit()]
    states: dict[str, Any] = {}
    story: list[str] = []
    notes: list[str] = []
    used: set[int] = set()
    for bi, f in enumerate(fighters):
        s: FeeriqueState = f.state
        if bi < len(page) and page[bi].name == s.name and bi not in used:
            pi: int | None = bi
        else:
            pi = next((k for k, p in enumerate(page) if p.name == s.name and k not in used), None)
        if pi is None or f"essence_{pi}" not in n:
            notes.append(
                _(
                    "{n.Subject} ne {n[figure|figurent]} plus parmi les combattants de l'Action : rien n'est écrit."
                ).format(n=s.who)
            )
            continue
        used.add(pi)
        p = page[pi]
        lost = max(0, p.essence - int(n[f"essence_{pi}"] or 0))
        carried = int(n.get(f"next_malus_{pi}") or 0)
        outcome = replace(
            s,
            essence=max(0, s.essence - lost),
            initiative=max(-999, min(999, int(n[f"initiative_{pi}"] or 0))),
            next_malus=max(MALUS_FLOOR, s.next_malus + carried),
        )
        inflicted = _last_inflicted(result, [a for a in order if scenario.activities[a].actor == pi], names)
        if inflicted is not None:
            outcome = replace(outcome, last_loss=min(500, inflicted[0]), last_victim=inflicted[1][:80])
        declared = replace(
            outcome,
            tactic=_tactic_in_force(scenario, pi),
            surprised=p.surprised,
            ambush_margin=p.ambush_margin,
            open_angles=p.open_angles,
            declarations=_declarations(scenario, pi),
        )
        new = declared
        if declared.check():
            new = outcome
            notes.append(
                _(
                    "{n.Subject} : la tactique ou les déclarations de la page ne respectent pas {n[sa|leur]} fiche ; "
                    "la fiche garde les siennes."
                ).format(n=s.who)
            )
        if new != s:
            states[f.key] = new
        if carried:
            story.append(
                _(
                    "{n.Subject} {n[entrera|entreront]} dans l'Action {k} avec {m} à l'Initiative, à {n[ses|leurs]} "
                    "activités et à {n[sa|leur]} Défense."
                ).format(n=s.who, k=clock.action + 1, m=signed(new.next_malus))
            )
        for event in result.events_of("incident"):
            activity = int(event.data.get("activity", -1))
            if 0 <= activity < len(scenario.activities) and scenario.activities[activity].actor == pi:
                notes.append(
                    _(
                        "Incident : si {n.subject} se {n[blesse|blessent]} {n[lui-même|elle-même|eux-mêmes|elles-mêmes]}, "
                        "{n[il perd|elle perd|ils perdent|elles perdent]} {lost} ; le texte en laisse le choix au "
                        "meneur : rien n'est retiré, à appliquer à la main."
                    ).format(n=s.who, lost=_essence(int(event.data.get("self_loss", 0))))
                )
    resolved = {imp.label for imp in scenario.impersonal}
    pending = _pending_events(clock, _index_of_names(fighters))
    events = tuple(
        replace(e, done=True) if e in pending and (e.label or _("Événement")) in resolved else e for e in clock.events
    )
    new_clock = replace(clock, events=events) if events != clock.events else None
    return Applied(states=states, clock=new_clock, story=tuple(story), notes=tuple(notes))


# --- suggestions --------------------------------------------------------------------------------------------


def _standing(fighters: tuple[Fighter, ...]) -> list[Fighter]:
    return [f for f in fighters if not is_out(f)]


def _by_initiative(fighters: list[Fighter]) -> list[Fighter]:
    """Highest Initiative first, then Vigilance (the first priority rules); unknown ones last."""
    return sorted(
        fighters,
        key=lambda f: (f.state.initiative is None, -(f.state.initiative or 0), -f.state.vigilance),
    )


def suggest(role: str, fighters: tuple[Fighter, ...], clock: Clock) -> tuple[str, ...]:
    """The Action: everyone present. The exchange: the quickest one standing attacks his first
    declared target (or the next one standing)."""
    if role == "fighters":
        return tuple(f.key for f in fighters)
    standing = _by_initiative(_standing(fighters))
    if not standing:
        return ()
    attacker = standing[0]
    if role == "attacker":
        return (attacker.key,)
    if role == "defender":
        by_name = {f.state.name: f for f in standing if f.key != attacker.key}
        for d in attacker.state.declarations:
            for name in d.target_names():
                if name in by_name:
                    return (by_name[name].key,)
        others = [f for f in standing if f.key != attacker.key]
        return (others[0].key,) if others else ()
    return ()


# --- the end of an Action ---------------------------------------------------------------------------------


def advance(fighters: tuple[Fighter, ...], clock: Clock, table: Any) -> Applied:
    """End of the Action: the impersonal events the Action page did not resolve happen at rank 0; a
    stun and a crippled organ wear off by the ranks gone by (rulesets/feerie/conditions.py); then
    the next Action: the malus built during this one becomes the carried malus (the one of
    this Action is spent), Initiatives are to be rolled again, surprise and ambush end."""
    states: dict[str, FeeriqueState] = {f.key: f.state for f in fighters}
    notes: list[str] = []
    by_name: dict[str, str] = {}
    for f in fighters:
        by_name.setdefault(f.state.name, f.key)
    nxt = clock.action + 1
    story = [_("{label} : l'Action {n} commence.").format(label=advance_label(clock), n=nxt)]
    for event in clock.events:
        if event.done:
            continue
        label = event.label or _("Événement")
        key = by_name.get(event.target) if event.target else None
        if key is not None and event.essence_loss and states[key].essence == 0:
            story.append(
                _("Rang 0 : {label} {who}.").format(
                    label=label, who=parenthesize(_("{n.subject}, déjà sans Essence").format(n=states[key].who))
                )
            )
        elif key is not None and event.essence_loss:
            s = states[key]
            after = max(0, s.essence - event.essence_loss)
            states[key] = replace(s, essence=after)
            story.append(
                _("Rang 0 : {label} — {n.subject} {n[perd|perdent]} {lost} ({before} → {after}).").format(
                    label=label, n=s.who, lost=_essence(s.essence - after), before=s.essence, after=after
                )
            )
            if after == 0 and s.essence > 0:
                story.append(_("{n.Subject} {n[n'a|n'ont]} plus d'Essence : hors de combat.").format(n=s.who))
        elif event.target and key is None:
            story.append(
                _("Rang 0 : {label} ({name} n'est pas dans la rencontre).").format(
                    label=label, name=quote(event.target)
                )
            )
        else:
            story.append(_("Rang 0 : {label}.").format(label=label))
    worn = wear(tuple(replace(f, state=states[f.key]) for f in fighters), story, notes)
    states.update(worn)
    for f in fighters:
        s = states[f.key]
        if s.next_malus:
            story.append(
                _(
                    "{who.Subject} {who[commence|commencent]} l'Action {n} avec {m} à l'Initiative, à {who[ses|leurs]} "
                    "activités et à {who[sa|leur]} Défense."
                ).format(who=s.who, n=nxt, m=signed(s.next_malus))
            )
        elif s.carried_malus:
            story.append(_("{n.Subject} ne {n[traîne|traînent]} plus de malus.").format(n=s.who))
        if s.surprised:
            story.append(_("{n.Subject} {n[s'est|s'est|se sont]} {n[remis]} de {n[sa|leur]} surprise.").format(n=s.who))
        states[f.key] = replace(
            s, carried_malus=s.next_malus, next_malus=0, initiative=None, surprised=False, ambush_margin=0
        )
    changed = {f.key: states[f.key] for f in fighters if states[f.key] != f.state}
    new_clock = Clock(action=nxt, events=tuple(replace(e, done=False) for e in clock.events))
    return Applied(states=changed, clock=new_clock, story=tuple(story), notes=tuple(notes))


def clock_label(clock: Clock) -> str:
    return _("Action {n}").format(n=clock.action)


def advance_label(clock: Clock) -> str:
    return _("Fin de l'Action {n}").format(n=clock.action)


# --- what the encounter page shows ---------------------------------------------------------------------------


def is_out(f: Fighter) -> bool:
    return bool(f.state.essence == 0)


def bars(f: Fighter) -> tuple[Bar, ...]:
    s: FeeriqueState = f.state
    return (Bar("essence", _("Essence"), s.essence, s.essence_max),)


def badges(f: Fighter, clock: Clock, table: Any) -> tuple[str, ...]:
    s: FeeriqueState = f.state
    if s.essence == 0:
        return (_("hors de combat"),)
    out: list[str] = []
    if s.initiative is not None:
        out.append(_("Initiative {n}").format(n=s.initiative) if s.initiative > 0 else _("ne peut agir"))
    if s.surprised:
        out.append(_("surpris"))
    if s.ambush_margin // 2:
        out.append(_("embuscade {n}").format(n=signed(s.ambush_margin // 2)))
    if s.carried_malus:
        out.append(_("malus {m} cette Action").format(m=signed(s.carried_malus)))
    if s.next_malus:
        out.append(_("{m} à l'Action suivante").format(m=signed(s.next_malus)))
    t = s.tactic
    if t.is_declared:
        out.append(
            _("tactique I {i} / A {a} / D {d}").format(i=signed(t.initiative), a=signed(t.attack), d=signed(t.defense))
        )
    if s.ranged:
        out.append(_("à distance"))
    return tuple(out)


def status(fighters: tuple[Fighter, ...], clock: Clock) -> tuple[str, ...]:
    out: list[str] = []
    known = [f for f in _standing(fighters) if f.state.initiative is not None]
    if known:
        order = ", ".join(
            f"{f.state.who.subject} {signed(f.state.initiative or 0, plus='')}" for f in _by_initiative(known)
        )
        out.append(_("Initiatives de l'Action {n} : {order}.").format(n=clock.action, order=order))
    pending = [e.label or _("Événement") for e in clock.events if not e.done]
    if pending:
        out.append(_("Au rang 0 de cette Action : {events}.").format(events=" ; ".join(pending)))
    if len(fighters) > 1 and len(_standing(fighters)) <= 1:
        out.append(_("Un seul Féerique garde de l'Essence, ou aucun : le combat est joué."))
    return tuple(out)


def from_preset(values: Mapping[str, Any], entry: Entry | None = None) -> dict[str, Any]:
    """A bestiary creature (the exchange page's « Attaquant du bestiaire » entry, au contact or à
    distance) as a state: its name and its grammar (issue 15), its Aspects, its Essence as the
    starting Essence, its Attributs, and « Combat à distance » for the « à distance » entry (keys
    ``redcap-a-distance.r``, bestiary/feerie/web.py)."""
    keys = ("name", "vigilance", "habilete", "puissance", "resistance", "taille", "essence")
    data: dict[str, Any] = {k: values[k] for k in keys if k in values}
    if entry is not None and entry.key.endswith(".r"):
        data["ranged"] = True
    if "essence" in data:
        data["essence_max"] = data["essence"]
    grammar = values.get("grammar")
    if not isinstance(grammar, Mapping):
        grammar = unflatten({k: v for k, v in values.items() if k.startswith("grammar.")}).get("grammar")
    if isinstance(grammar, Mapping):
        data["grammar"] = {k: grammar[k] for k in ("article", "gender", "elision") if k in grammar}
    raw = values.get("attributes")
    if raw is None:
        raw = unflatten({k: v for k, v in values.items() if k.startswith("attributes.")}).get("attributes", [])
    data["attributes"] = [dict(r) for r in raw if isinstance(r, Mapping) and (r.get("name") or r.get("value"))]
    return data


RULES = register(
    EncounterRules(
        system="feerie",
        kinds=(Kind(FEERIQUE, _("Féerique"), FeeriqueState, preset_group="attacker", from_preset=from_preset),),
        pages=(
            Page(
                slug="feerie-action",
                label=_("La séquence d'une Action"),
                roles=(Role("fighters", _("Combattants de l'Action"), (FEERIQUE,), many=24),),
                fill=fill_action,
                apply=apply_action,
                suggest=suggest,
            ),
            Page(
                slug="feerie",
                label=_("Un échange : Attaque contre Défense"),
                roles=(
                    Role("attacker", _("Attaquant"), (FEERIQUE,)),
                    Role("defender", _("Défenseur"), (FEERIQUE,), required=False),
                ),
                fill=fill_exchange,
                apply=apply_exchange,
                suggest=suggest,
                actor=("attacker",),
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
        turns=turns,
        conditions=CONDITIONS,
    )
)
