"""Nephilim Légende inside an encounter: who attacked and defended this round, the Défense n° that
follows, who may no longer defend, the modifiers carried to the next round, the aim of shooters and
the damage taken, PHYS and MAG apart (seed ``002`` §1–§3, §9, §12, §14).

* A **combatant** is a PJ or a PNJ (the encounter's kinds: the sides); its seed type (Nephilim,
  humain initié, Selenim, créature magique, autre PNJ, §1) is a field of its state and gives both
  its attacker type and its defender type, so that one state fills the attacker block and a
  defender column of the page.
* **Défenses multiples** (§14): each defence roll made this round counts; the next defence of the
  combatant is filled as « Défense n° » defences + 1 (−2 per defence beyond the first, unless an
  effect removes it). Attaque en force and Attaque rapide (§2) leave the attacker without defence
  for the round: its column is filled with « Encaisser (déf. impossible) ».
* **Round suivant** (§2, §12, §14): margin choices « −1 défense adverse » and « −1 attaque
  adverse », Attaque étrange (−2 to every action), Prince de la spirale (−3 attack) are written as
  modifiers of the next round; at the end of the round they become the modifiers of the round that
  starts (filled as « Report du round précédent ») and those of the round that ends expire. A
  successful Contre-attaquer leaves a riposte due (the engine lists it under « Round suivant »).
* **Visée** (§3): a shooter who declares a target aims; each round ended without attacking counts
  one round of aim (up to 4, « 4+ »), and the shot is filled with the Tir row of that many rounds
  (none: « Tir (sans visée) », −4). Any attack ends the aim.
* The damage taken is the engine's final numbers (after the margin choices of the Résultat final),
  added up PHYS and MAG apart. The seed gives no threshold that takes a combatant out: the game
  master ticks « Hors de combat ».
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
    Fighter,
    Kind,
    Page,
    Role,
    Table,
    register,
    rows,
)
from rulesets.core.french import Grammar, Noun, count, join, quote, signed
from rulesets.core.i18n import _
from rulesets.core.results import Result
from rulesets.core.schema import ScenarioError, Spec, flatten, parse, to_data, unflatten
from rulesets.nephilim.conditions import CONDITIONS
from rulesets.nephilim.engine import plan
from rulesets.nephilim.language import who
from rulesets.nephilim.model import (
    DEFENDERS_MAX,
    Ammunition,
    Approach,
    ApproachKind,
    AttackerKind,
    Cadence,
    DefenceStyle,
    DefenceType,
    DefenderKind,
    Element,
    Mode,
    Protection,
    Scenario,
    Sensitivity,
    Weapon,
)
from rulesets.nephilim.turns import turns

PJ, PNJ = "pj", "pnj"

MODIFIERS_MAX = 12
DEFENCES_MAX = 10  # the page's « Défense n° » goes up to 10
AIM_MAX = 4  # §3: the last Tir row is « 4+ rounds »


def _deg(label: str, ge: int = -30, le: int = 30, help: str = "") -> Spec:
    return Spec(label=label, ge=ge, le=le, help=help)


@dataclass(frozen=True, slots=True)
class Clock:
    round: Annotated[int, Spec(label=_("Round"), ge=1, le=999)] = 1


@dataclass(frozen=True, slots=True)
class Modifier:
    """Degrees a combatant suffers (or enjoys) on its attack and defence rolls during one round."""

    source: Annotated[str, Spec(label=_("Origine"), max_length=120)] = ""
    by: Annotated[str, Spec(label=_("Venu de (nom)"), max_length=120)] = ""
    attack: Annotated[int, _deg(_("Attaque (degrés)"))] = 0
    defence: Annotated[int, _deg(_("Défense (degrés)"))] = 0
    by_grammar: Annotated[Grammar, Spec(label=_("Grammaire du nom (venu de)"))] = field(default_factory=Grammar)

    def check(self) -> dict[str, str]:
        if not self.attack and not self.defence:
            return {"attack": _("Un modificateur change l'attaque, la défense ou les deux.")}
        return {}

    def describe(self) -> str:
        """« −2 en attaque et −2 en défense (Attaque étrange, par Sahar) », « … (par le Vigile) »:
        the one it comes from said with the grammar of its name (issue 15)."""
        parts = []
        if self.attack:
            parts.append(_("{v} en attaque").format(v=signed(self.attack)))
        if self.defence:
            parts.append(_("{v} en défense").format(v=signed(self.defence)))
        by = _("par {who}").format(who=who(self.by, self.by_grammar)) if self.by.strip() else ""
        origin = ", ".join(p for p in (self.source, by) if p)
        text = join(parts)
        return f"{text} ({origin})" if origin else text


def _melee_standard_defence() -> DefenceType:
    return DefenceType()


@dataclass(frozen=True, slots=True)
class CombatantState:
    """A Nephilim Légende combatant: its sheet (as the page's attacker block and defender column
    read it) and what the fight changes round after round."""

    name: Annotated[str, Spec(label=_("Nom"), max_length=120)] = "Combattant"
    grammar: Annotated[Grammar, Spec(label=_("Grammaire du nom"))] = field(default_factory=Grammar)
    type: Annotated[DefenderKind, Spec(label=_("Type de combattant"))] = DefenderKind.NEPHILIM
    sensitivity: Annotated[Sensitivity, Spec(label=_("Sensibilité magique"))] = Sensitivity.AUTO
    attack_degree: Annotated[int, _deg(_("Vécu ou Menace en attaque (degré)"), 0, 30)] = 5
    defence_degree: Annotated[int, _deg(_("Vécu ou Menace en défense (degré)"), 0, 30)] = 5
    approach_element: Annotated[Element, Spec(label=_("Élément de l'Approche"))] = Element.NONE
    approach_value: Annotated[int, _deg(_("Approche (valeur du Ka)"), 0, 30)] = 0
    ka_feu: Annotated[int, _deg(_("Ka-Feu (bonus de dommages)"), 0, 30)] = 0
    initiative_ka: Annotated[int, _deg(_("Ka-Eau, Ka-Soleil ou Menace (initiative et MV)"), 0, 30)] = 0
    metamorphe: Annotated[int, _deg(_("Métamorphe"), 0, 10)] = 0
    wounds: Annotated[int, _deg(_("Malus de blessures (degrés)"), -30, 0)] = 0
    weapon: Annotated[Weapon, Spec(label=_("Arme"))] = field(default_factory=Weapon)
    ammunition: Annotated[Ammunition, Spec(label=_("Munition"))] = field(default_factory=Ammunition)
    approach: Annotated[
        Approach,
        Spec(
            label=_("Approche d'attaque en mêlée"),
            help=_("La dernière employée en mêlée : la page la reprend à l'attaque suivante."),
        ),
    ] = field(default_factory=Approach)
    defence: Annotated[
        DefenceType,
        Spec(
            label=_("Type de défense en mêlée"),
            help=_("Le dernier employé en mêlée : la page le reprend à la défense suivante."),
        ),
    ] = field(default_factory=_melee_standard_defence)
    armour: Annotated[Protection, Spec(label=_("Armure"))] = field(default_factory=Protection)
    shield: Annotated[Protection, Spec(label=_("Bouclier"))] = field(default_factory=lambda: Protection(name="Aucun"))
    other: Annotated[Protection, Spec(label=_("Manteau ou autre protection"))] = field(
        default_factory=lambda: Protection(name="Aucune")
    )
    # --- the fight
    phys_taken: Annotated[int, _deg(_("Dommages PHYS encaissés (cumul)"), 0, 999)] = 0
    mag_taken: Annotated[int, _deg(_("Dommages MAG encaissés (cumul)"), 0, 999)] = 0
    attacked: Annotated[bool, Spec(label=_("A attaqué ce round"))] = False
    defences: Annotated[
        int,
        _deg(
            _("Défenses faites ce round"),
            0,
            DEFENCES_MAX,
            _("La prochaine sera la Défense n° suivante (−2 par défense au-delà de la 1re)."),
        ),
    ] = 0
    cannot_defend: Annotated[
        bool, Spec(label=_("Ne peut plus se défendre ce round"), help=_("Après une attaque en force ou rapide."))
    ] = False
    modifiers_now: Annotated[
        tuple[Modifier, ...], Spec(label=_("Modificateurs de ce round"), min_items=0, max_items=MODIFIERS_MAX)
    ] = ()
    modifiers_next: Annotated[
        tuple[Modifier, ...], Spec(label=_("Modificateurs du round suivant"), min_items=0, max_items=MODIFIERS_MAX)
    ] = ()
    aiming_at: Annotated[
        str, Spec(label=_("Vise (nom de la cible)"), max_length=120, help=_("Vide : ne vise personne."))
    ] = ""
    aiming: Annotated[
        int,
        _deg(
            _("Rounds de visée accomplis"), 0, AIM_MAX, _("0 : tir sans visée (−4) ; 4 : quatre rounds et plus (+6).")
        ),
    ] = 0
    riposte: Annotated[
        str, Spec(label=_("Riposte due contre (nom)"), max_length=120, help=_("Après une contre-attaque réussie."))
    ] = ""
    riposte_round: Annotated[
        int | None,
        Spec(label=_("Riposte gagnée au round"), ge=1, le=999, help=_("Elle se perd à la fin du round suivant.")),
    ] = None
    held_by: Annotated[str, Spec(label=_("Immobilisé par (nom)"), max_length=120)] = ""
    down: Annotated[bool, Spec(label=_("À terre"))] = False
    escaped: Annotated[bool, Spec(label=_("S'est échappé du combat"))] = False
    out: Annotated[bool, Spec(label=_("Hors de combat"))] = False

    @property
    def who(self) -> Noun:
        """The combatant's name with its grammar, as the log says it (issue 15)."""
        return who(self.name, self.grammar)

    @property
    def attacker_kind(self) -> AttackerKind:
        """§1: a Nephilim and an initié attack as such; every other type as « autre PNJ »."""
        if self.type is DefenderKind.NEPHILIM:
            return AttackerKind.NEPHILIM
        if self.type is DefenderKind.INITIE:
            return AttackerKind.INITIE
        return AttackerKind.AUTRE

    @property
    def initiative(self) -> int:
        """§1: Ka-Eau × 2 for a Nephilim, the value typed for the others."""
        return self.initiative_ka * (2 if self.type is DefenderKind.NEPHILIM else 1)

    @property
    def magic_sensitive(self) -> bool:
        if self.sensitivity is Sensitivity.AUTO:
            return self.type is not DefenderKind.AUTRE
        return self.sensitivity is Sensitivity.SENSITIVE

    def check(self) -> dict[str, str]:
        errors: dict[str, str] = {}
        element, value, kind = self.approach_element, self.approach_value, self.attacker_kind
        if kind is AttackerKind.AUTRE and (value or element is not Element.NONE):
            errors["approach_value"] = _("Seuls un Nephilim et un humain initié ont une Approche.")
        elif kind is AttackerKind.INITIE and value and element is not Element.SOLEIL:
            errors["approach_element"] = _("Un humain initié a l'Approche Ka-Soleil.")
        elif kind is AttackerKind.NEPHILIM and value and element in (Element.NONE, Element.SOLEIL):
            errors["approach_element"] = _("L'Approche d'un Nephilim est un Ka-élément : Feu, Eau, Air, Terre ou Lune.")
        if self.ka_feu and kind is not AttackerKind.NEPHILIM:
            errors["ka_feu"] = _("Seul un Nephilim ajoute son Ka-Feu aux dommages.")
        if self.approach.kind.mode is not Mode.MELEE or self.approach.kind is ApproachKind.TIR_INSTINCTIF:
            errors["approach.kind"] = _("L'approche mémorisée est une approche de mêlée (pas de tir, pas de lancer).")
        if self.defence.context is not Mode.MELEE:
            errors["defence.context"] = _("Le type de défense mémorisé répond à la mêlée.")
        if self.riposte and self.riposte_round is None:
            errors["riposte_round"] = _("Indiquez le round où la riposte a été gagnée.")
        return errors


# --- the bestiary ---------------------------------------------------------------------------------

_PROTECTION_FIELDS = ("name", "phys", "mag", "magical", "element", "optional_bonus")


def from_preset(values: Mapping[str, Any]) -> dict[str, Any]:
    """A « Combattant du bestiaire » preset (``attacker.*`` and ``defender.*`` page fields, see
    ``bestiary/nephilim/web.py``) → a combatant's state: both halves of the creature."""
    attacker = {k.removeprefix("attacker."): v for k, v in values.items() if k.startswith("attacker.")}
    defender = {k.removeprefix("defender."): v for k, v in values.items() if k.startswith("defender.")}
    data: dict[str, Any] = {}
    for key, target in (
        ("name", "name"),
        ("degree", "attack_degree"),
        ("initiative_ka", "initiative_ka"),
        ("metamorphe", "metamorphe"),
        ("ka_feu", "ka_feu"),
        ("approach_element", "approach_element"),
        ("approach_value", "approach_value"),
    ):
        if key in attacker:
            data[target] = attacker[key]
    weapon = {k.removeprefix("weapon."): v for k, v in attacker.items() if k.startswith("weapon.")}
    if weapon:
        data["weapon"] = unflatten(weapon)
    grammar = {k.removeprefix("grammar."): v for k, v in attacker.items() if k.startswith("grammar.")}
    if grammar:  # the bestiary row's grammar (« le Mercenaire », « Sœur Agathe »)
        data["grammar"] = grammar
    kind = str(attacker.get("kind", AttackerKind.AUTRE.value))
    data["type"] = str(
        defender.get("kind")
        or {"nephilim": DefenderKind.NEPHILIM.value, "initie": DefenderKind.INITIE.value}.get(
            kind, DefenderKind.AUTRE.value
        )
    )
    data["defence_degree"] = defender.get("degree", data.get("attack_degree", 5))
    if "sensitivity" in defender:
        data["sensitivity"] = defender["sensitivity"]
    for slot in ("armour", "shield", "other"):
        row = {f: defender[f"{slot}.{f}"] for f in _PROTECTION_FIELDS if f"{slot}.{f}" in defender}
        if row:
            data[slot] = row
    return data


def blank(kind: str, name: str) -> dict[str, Any]:
    """A PJ is a Nephilim unless said otherwise; a PNJ typed by hand is an ordinary one."""
    return {"name": name, "type": (DefenderKind.NEPHILIM if kind == PJ else DefenderKind.AUTRE).value}


# --- filling the calculator -----------------------------------------------------------------------


def _rows[T](table: Table, group: str, cls: type[T]) -> list[T]:
    """The table's bestiary rows of a preset group, as engine values (unreadable rows skipped)."""
    out: list[T] = []
    for entry in table.group(group):
        try:
            out.append(parse(cls, unflatten(dict(entry.values))))
        except ScenarioError:
            continue
    return out


def aimed_shot(rounds: int, table: Table) -> Approach:
    """The §3 Tir row of the table for ``rounds`` rounds of aim (4 and more: the last row); a
    neutral shot if the table has no such row."""
    rounds = max(0, min(AIM_MAX, rounds))
    shots = {a.aiming_rounds: a for a in _rows(table, "approach", Approach) if a.kind is ApproachKind.TIR}
    return shots.get(rounds) or Approach(kind=ApproachKind.TIR, name=_("Tir"), aiming_rounds=rounds)


def thrown(table: Table) -> Approach:
    """The table's « Lancer » row (§3)."""
    rows_ = [a for a in _rows(table, "approach", Approach) if a.kind is ApproachKind.LANCER]
    return rows_[0] if rows_ else Approach(kind=ApproachKind.LANCER, name=_("Lancer"))


def absorb(mode: Mode, table: Table) -> DefenceType:
    """§9–11 « Encaisser », no roll, from the table: the melee column of one who cannot defend,
    the default against a shot or a throw."""
    for d in _rows(table, "defence", DefenceType):
        if d.style is DefenceStyle.ABSORB and d.context is mode:
            return d
    return DefenceType(
        name=_("Encaisser"),
        style=DefenceStyle.ABSORB,
        context=mode,
        rolls=False,
        success_reduce_phys=0,
        success_reduce_mag=0,
    )


def mode_of(state: CombatantState) -> Mode:
    """The weapon decides: a melee weapon strikes in melee, a ranged one shoots, a thrown one flies."""
    return state.weapon.category


def aim_for(state: CombatantState, target: str) -> int:
    """Rounds of aim that count against ``target``: the aim is on that target (or on nobody named)."""
    if state.aiming_at and state.aiming_at != target:
        return 0
    return state.aiming


def _approach_for(state: CombatantState, mode: Mode, target: str, table: Table) -> Approach:
    if mode is Mode.RANGED:
        return aimed_shot(aim_for(state, target), table)
    if mode is Mode.THROWN:
        return thrown(table)
    return state.approach


def _sum(modifiers: tuple[Modifier, ...], what: str) -> int:
    return sum(int(getattr(m, what)) for m in modifiers)


def attacker_fields(state: CombatantState, mode: Mode, target: str, table: Table) -> dict[str, Any]:
    """The page's attacker block from a state (the Approche only where the approach allows it)."""
    approach = _approach_for(state, mode, target, table)
    kind = state.attacker_kind
    element, value = state.approach_element, state.approach_value
    if kind is AttackerKind.AUTRE:
        element, value = Element.NONE, 0
    elif kind is AttackerKind.NEPHILIM and not approach.elements.has(element):
        value = 0
    out: dict[str, Any] = {
        "name": state.name,
        **rows("grammar", flatten(to_data(state.grammar))),
        "kind": kind.value,
        "degree": state.attack_degree,
        "approach_element": element.value,
        "approach_value": value,
        "ka_feu": state.ka_feu if kind is AttackerKind.NEPHILIM else 0,
        "initiative_ka": state.initiative_ka,
        "metamorphe": state.metamorphe if kind is AttackerKind.NEPHILIM else 0,  # §1: a Nephilim's only
        "wounds": state.wounds,
        "carried_over": _sum(state.modifiers_now, "attack"),
    }
    out.update(rows("approach", flatten(to_data(approach))))
    out.update(rows("weapon", flatten(to_data(state.weapon))))
    out.update(rows("ammunition", flatten(to_data(state.ammunition))))
    return out


def defence_for(state: CombatantState, mode: Mode, table: Table) -> DefenceType:
    """The remembered melee defence; « Encaisser » at range (§10–11 default) or when it cannot."""
    if state.cannot_defend or mode is not Mode.MELEE:
        return absorb(mode, table)
    return state.defence


def defender_fields(state: CombatantState, mode: Mode, table: Table) -> dict[str, Any]:
    """A defender column: Défense n° from the defences made, the round's modifiers carried over."""
    defence = defence_for(state, mode, table)
    nephilim = state.type is DefenderKind.NEPHILIM
    element = state.approach_element if nephilim else Element.NONE
    value = state.approach_value if nephilim and defence.elements.has(element) else 0
    out: dict[str, Any] = {
        "name": state.name,
        **rows("grammar", flatten(to_data(state.grammar))),
        "kind": state.type.value,
        "sensitivity": state.sensitivity.value,
        "degree": state.defence_degree,
        "approach_element": element.value,
        "approach_value": value,
        "metamorphe": state.metamorphe if nephilim else 0,  # §1: a Nephilim's only
        "defence_number": min(DEFENCES_MAX, state.defences + 1),
        "defence_number_2": min(DEFENCES_MAX, state.defences + 2),
        "wounds": state.wounds,
        "carried_over": _sum(state.modifiers_now, "defence"),
    }
    out.update(rows("defence", flatten(to_data(defence))))
    for slot in ("armour", "shield", "other"):
        out.update(rows(slot, flatten(to_data(getattr(state, slot)))))
    return out


_MULTI_CADENCES = (Cadence.CPC, Cadence.RAF_CTRL, Cadence.RAF_CONT)


def fill(bindings: Bindings, clock: Clock, table: Table) -> dict[str, Any]:
    """The page from the bound attacker and defenders: mode from the weapon, aim (the table's Tir
    rows), Défense n°, « Encaisser » (the table's rows) for who cannot defend."""
    out: dict[str, Any] = {}
    attacker = bindings.get("attacker", ())
    defenders = bindings.get("defenders", ())
    mode = Mode.MELEE
    if attacker:
        a: CombatantState = attacker[0].state
        mode = mode_of(a)
        target = defenders[0].state.name if defenders else ""
        out["mode"] = mode.value
        out.update(rows("attacker", attacker_fields(a, mode, target, table)))
        if len(defenders) > 1:
            allowed = [c for c in _MULTI_CADENCES if a.weapon.cadences.allows(c)]
            if allowed:
                out["cadence"] = allowed[0].value
    for i, d in enumerate(defenders[:DEFENDERS_MAX]):
        out.update(rows(f"defenders.{i}", defender_fields(d.state, mode, table)))
    return out


def check(bindings: Bindings) -> dict[str, str]:
    """Several defenders only with a weapon that fires coup par coup or in bursts (§5, the
    calculator's own refusal): said on the encounter page, before the calculator opens (issue 16)."""
    attacker = bindings.get("attacker", ())
    if len(bindings.get("defenders", ())) < 2 or not attacker:
        return {}
    weapon = attacker[0].state.weapon
    if any(weapon.cadences.allows(c) for c in _MULTI_CADENCES):
        return {}
    return {
        "defenders": _(
            "Défenseurs : l'arme {weapon} ne vise qu'un défenseur (ni coup par coup ni rafale) ; n'en cochez qu'un."
        ).format(weapon=quote(weapon.name))
    }


def _standing(fighters: tuple[Fighter, ...]) -> list[Fighter]:
    return [f for f in fighters if not is_out(f)]


def _next_attacker(fighters: tuple[Fighter, ...]) -> Fighter | None:
    """A riposte due first; then, by initiative, someone who has not attacked this round."""
    standing = _standing(fighters)
    for f in standing:
        if f.state.riposte:
            return f
    waiting = [f for f in standing if not f.state.attacked] or standing
    ranked = sorted(enumerate(waiting), key=lambda p: (-p[1].state.initiative, p[0]))
    return ranked[0][1] if ranked else None


def suggest(role: str, fighters: tuple[Fighter, ...], clock: Clock) -> tuple[str, ...]:
    """The attacker: a riposte due, else the quickest who has not attacked; the defender: the
    riposte's or the aim's target, else the first standing combatant of the other side."""
    attacker = _next_attacker(fighters)
    if attacker is None:
        return ()
    if role == "attacker":
        return (attacker.key,)
    if role != "defenders":
        return ()
    others = [f for f in _standing(fighters) if f.key != attacker.key]
    state: CombatantState = attacker.state
    for wanted in (state.riposte, state.aiming_at):
        named = [f for f in others if wanted and f.state.name == wanted]
        if named:
            return (named[0].key,)
    opposed = [f for f in others if f.kind != attacker.kind] or others
    return tuple(f.key for f in opposed[:1])


# --- Appliquer ------------------------------------------------------------------------------------


def rounds_text(n: int) -> str:
    """« 1 round », « 3 rounds » (issue 15: the count agrees)."""
    return count(n, _("round"))


def damage_text(phys: int, mag: int) -> str:
    """« 3 PHYS et 2 MAG », « 3 PHYS », « 2 MAG »."""
    parts = [f"{phys}\u00a0PHYS" if phys else "", f"{mag}\u00a0MAG" if mag else ""]
    return join([p for p in parts if p])


def _num(result: Result, key: str) -> int:
    value = result.numbers.get(key)
    return int(value) if isinstance(value, int | bool) else 0


def _flag(result: Result, key: str) -> bool:
    return bool(result.numbers.get(key))


def _named(name: str, known: Mapping[str, Noun]) -> Noun:
    """The combatant named ``name``, with its grammar when it is one of ``known`` (a state keeps the
    names of those it aims at, holds or owes a riposte to, not their grammar)."""
    return known.get(name) or who(name)


def _known(fighters: tuple[Fighter, ...], *extra: tuple[str, Noun]) -> dict[str, Noun]:
    out: dict[str, Noun] = dict(extra)
    for f in fighters:
        state: CombatantState = f.state
        out.setdefault(state.name, state.who)
    return out


def _add_modifier(state: CombatantState, modifier: Modifier, notes: list[str]) -> CombatantState:
    if len(state.modifiers_next) >= MODIFIERS_MAX:
        notes.append(
            _("{name} : déjà {n} au round suivant, « {m} » n'est pas noté.").format(
                name=state.name, n=count(MODIFIERS_MAX, _("modificateur")), m=modifier.describe()
            )
        )
        return state
    return replace(state, modifiers_next=(*state.modifiers_next, modifier))


def _next_round_for(scn: Scenario, result: Result, index: int, many: bool) -> list[Modifier]:
    """The modifiers defender ``index`` will suffer next round (engine's ``next.*`` numbers; with
    several defenders, only those whose strike hit, the margin split per strike)."""
    a = scn.attacker
    strikes = [st for st in plan(scn) if st.defender_index == index]
    hit = any(_flag(result, f"s{st.index}.hit") for st in strikes)
    out: list[Modifier] = []
    if not many or hit:
        actions = _num(result, "next.defender_actions")
        if actions:
            out.append(Modifier(a.approach.name, a.name, actions, actions, a.grammar))
        attack = _num(result, "next.defender_attack")
        if attack:
            names = [e.name for e in a.effects if e.active and e.opponent_next_round_attack]
            source = ", ".join(names) or _("Effet de l'attaquant")
            out.append(Modifier(source, a.name, attack, 0, a.grammar))
    if many:
        malus = 0
        for st in strikes:
            if not _flag(result, f"s{st.index}.hit"):
                continue
            choices = _num(result, f"s{st.index}.attack_choices")
            used = min(choices, a.margin_damage) if a.approach.deals_damage else 0
            malus = max(malus, min(a.margin_malus, choices - used))
        defence = -malus
    else:
        defence = _num(result, "next.defender_defence")
    if defence:
        out.append(Modifier(_("Marge > 10 : −1 défense adverse"), a.name, 0, defence, a.grammar))
    return out


def apply(scenario: Scenario, result: Result, bindings: Bindings, clock: Clock) -> Applied:
    """Write an exchange: damage taken, defences counted, who may no longer defend, next-round
    modifiers both ways, holds, falls, flights, ripostes, and the end of an aim. Every line says
    each name with its grammar (issue 15)."""
    s = scenario
    a = s.attacker
    states: dict[str, Any] = {}
    story: list[str] = []
    notes: list[str] = []
    strikes = plan(s)
    defenders = bindings.get("defenders", ())
    many = len(s.defenders) > 1
    defender_names = [d.name for d in s.defenders]
    attacker_who = a.who
    known = _known(
        (*bindings.get("attacker", ()), *defenders), (a.name, attacker_who), *((d.name, d.who) for d in s.defenders)
    )

    for i, f in enumerate(defenders[: len(s.defenders)]):
        d = s.defenders[i]
        state: CombatantState = f.state
        me = state.who
        mine = [st for st in strikes if st.defender_index == i]
        phys, mag = _num(result, f"d{i + 1}.phys_taken"), _num(result, f"d{i + 1}.mag_taken")
        if phys or mag:
            state = replace(
                state, phys_taken=min(999, state.phys_taken + phys), mag_taken=min(999, state.mag_taken + mag)
            )
            story.append(
                _("{me.Subject} {me:encaisse/encaissent} {damage} ; en tout, {tp}\u00a0PHYS et {tm}\u00a0MAG.").format(
                    me=me, damage=damage_text(phys, mag), tp=state.phys_taken, tm=state.mag_taken
                )
            )
        rolled = [st for st in mine if result.numbers.get(f"s{st.index}.defence_roll") is not None]
        if rolled:
            made = max(state.defences + len(rolled), max(st.defence_number for st in rolled))
            state = replace(state, defences=min(DEFENCES_MAX, made))
            if s.mode is Mode.MELEE and d.defence.context is Mode.MELEE and d.defence.rolls:
                state = replace(state, defence=d.defence)
            if state.defences < DEFENCES_MAX:
                if s.mode is Mode.MELEE and state.defence.no_extra_defence_malus:
                    malus = _("sans malus : {defence}").format(defence=state.defence.name)
                else:
                    malus = signed(-s.settings.extra_defence_malus * state.defences)
                story.append(
                    _("Prochaine défense {me.de} ce round : la n°{k} ({malus}).").format(
                        me=me, k=state.defences + 1, malus=malus
                    )
                )
        succeeded = any(_flag(result, f"s{st.index}.defence_success") for st in rolled)
        held = any(
            _flag(result, f"s{st.index}.hit") and not _flag(result, f"s{st.index}.defence_success") for st in mine
        )
        if held and a.approach.kind is ApproachKind.IMMOBILISER:
            state = replace(state, held_by=a.name)
            story.append(_("{me.Subject} {me:est/sont} {me:~immobilisé} par {by}.").format(me=me, by=attacker_who))
        if held and a.approach.kind is ApproachKind.FAIRE_TOMBER and not state.down:
            state = replace(state, down=True)
            story.append(_("{me.Subject} {me:est/sont} à terre.").format(me=me))
        if succeeded and d.defence.style is DefenceStyle.BREAK_FREE and state.held_by:
            story.append(
                _("{me.Subject} se {me:libère/libèrent} de l'étreinte {by.de}.").format(
                    me=me, by=_named(state.held_by, known)
                )
            )
            state = replace(state, held_by="")
        if succeeded and d.defence.escapes and not state.escaped:
            state = replace(state, escaped=True)
            story.append(
                _(
                    "{me.Subject} s'{me:échappe/échappent} : {me:il/elle/ils/elles} {me:quitte/quittent} le combat."
                ).format(me=me)
            )
        if succeeded and d.defence.needs_attack_roll:
            state = replace(state, riposte=a.name, riposte_round=clock.round)
            story.append(
                _("{me.Subject} {me:a/ont} contré : une riposte contre {by} est due (jet d'attaque standard).").format(
                    me=me, by=attacker_who
                )
            )
        for modifier in _next_round_for(s, result, i, many):
            state = _add_modifier(state, modifier, notes)
            story.append(_("Au round suivant, {me} {me:subira/subiront} {m}.").format(me=me, m=modifier.describe()))
        states[f.key] = state

    if attacker := bindings.get("attacker", ()):
        f = attacker[0]
        state = states.get(f.key, f.state)
        me = state.who
        riposte = bool(state.riposte) and state.riposte in defender_names
        if riposte:
            story.append(
                _("{me.Subject} {me:porte/portent} {me:sa/leur} riposte contre {by}.").format(
                    me=me, by=_named(state.riposte, known)
                )
            )
            state = replace(state, riposte="", riposte_round=None)
        else:
            state = replace(state, attacked=True)
        if state.aiming or state.aiming_at:
            if s.mode is Mode.RANGED:
                notes.append(
                    _(
                        "{me.Subject} {me:a/ont} tiré après {rounds} de visée : {me:sa/leur} visée est à refaire."
                    ).format(me=me, rounds=rounds_text(state.aiming))
                )
            state = replace(state, aiming=0, aiming_at="")
        if a.approach.attacker_cannot_defend:  # the récit already says it
            state = replace(state, cannot_defend=True)
        if (
            s.mode is Mode.MELEE
            and a.approach.kind.mode is Mode.MELEE
            and a.approach.kind is not ApproachKind.TIR_INSTINCTIF
            and state.approach != a.approach
        ):
            state = replace(state, approach=a.approach)
        attack_malus = _num(result, "next.attacker_attack")
        if attack_malus:
            chose = [d for d in s.defenders if d.margin_malus] or list(s.defenders)
            if len(chose) == 1:
                by: dict[str, Any] = {"by": chose[0].name, "by_grammar": chose[0].grammar}
            else:  # several names: each said with its grammar, the whole kept as it reads
                by = {"by": join([d.who.subject for d in chose])}
            modifier = Modifier(source=_("Marge > 10 : −1 attaque adverse"), attack=attack_malus, **by)
            state = _add_modifier(state, modifier, notes)
            story.append(_("Au round suivant, {me} {me:subira/subiront} {m}.").format(me=me, m=modifier.describe()))
        states[f.key] = state

    return Applied(states=states, story=tuple(story), notes=tuple(notes))


# --- the round ------------------------------------------------------------------------------------


def advance(fighters: tuple[Fighter, ...], clock: Clock, table: Scenario) -> Applied:
    """End of the round: defences back to 0, everyone may defend and attack again, next-round
    modifiers become this round's (the old ones expire), aims count one more round, a riposte not
    taken since last round is lost."""
    states: dict[str, Any] = {}
    story: list[str] = []
    new_clock = Clock(round=clock.round + 1)
    known = _known(fighters)
    story.append(_("{label} : le round {n} commence.").format(label=advance_label(clock), n=new_clock.round))
    for f in fighters:
        s: CombatantState = f.state
        me = s.who
        new = replace(
            s, attacked=False, defences=0, cannot_defend=False, modifiers_now=s.modifiers_next, modifiers_next=()
        )
        for m in s.modifiers_now:
            story.append(_("{me.Subject} ne {me:subit/subissent} plus {m}.").format(me=me, m=m.describe()))
        for m in s.modifiers_next:
            story.append(_("{me.Subject} {me:subit/subissent} ce round {m}.").format(me=me, m=m.describe()))
        if s.aiming_at and not s.attacked and not is_out(f):
            rounds = min(AIM_MAX, s.aiming + 1)
            new = replace(new, aiming=rounds)
            story.append(
                _("{me.Subject} {me:garde/gardent} {target} en ligne de mire : {rounds} de visée.").format(
                    me=me, target=_named(s.aiming_at, known), rounds=rounds_text(rounds)
                )
            )
        if s.riposte and s.riposte_round is not None and s.riposte_round < clock.round:
            new = replace(new, riposte="", riposte_round=None)
            story.append(
                _("{me.Subject} n'{me:a/ont} pas riposté contre {by} : l'occasion est passée.").format(
                    me=me, by=_named(s.riposte, known)
                )
            )
        if new != s:
            states[f.key] = new
    return Applied(states=states, clock=new_clock, story=tuple(story))


def clock_label(clock: Clock) -> str:
    return _("Round {n}").format(n=clock.round)


def advance_label(clock: Clock) -> str:
    return _("Fin du round {n}").format(n=clock.round)


# --- what the encounter page shows -----------------------------------------------------------------

TYPE_LABELS = {
    DefenderKind.NEPHILIM: "Nephilim",
    DefenderKind.INITIE: "Humain initié",
    DefenderKind.CREATURE: "Créature magique",
    DefenderKind.SELENIM: "Selenim",
    DefenderKind.AUTRE: "Humain ordinaire ou animal",
}


def is_out(f: Fighter) -> bool:
    return bool(f.state.out or f.state.escaped)


def bars(f: Fighter) -> tuple[Bar, ...]:
    """Damage taken, defences this round, and the aim for one who shoots (no maximum: none is low)."""
    s: CombatantState = f.state
    out = [
        Bar("phys_taken", _("PHYS encaissés"), s.phys_taken, 0, "danger"),
        Bar("mag_taken", _("MAG encaissés"), s.mag_taken, 0, "stress"),
        Bar("defences", _("Défenses ce round"), s.defences, 0, "resource"),
    ]
    if s.weapon.category is Mode.RANGED or s.aiming or s.aiming_at:
        out.append(Bar("aiming", _("Visée (rounds, 4 : 4 et plus)"), s.aiming, 0, "resource"))
    return tuple(out)


def badges(f: Fighter, clock: Clock, table: Scenario) -> tuple[str, ...]:
    """Short states, agreed with the combatant's name (issue 15); what lasts (modifiers, a riposte
    owed, an aim, a hold, a fall) is a chip instead (rulesets/nephilim/conditions.py)."""
    s: CombatantState = f.state
    me = s.who
    out: list[str] = [_(TYPE_LABELS[s.type])]
    if s.out:
        out.append(_("hors de combat"))
    if s.escaped:
        out.append(me.forms(_("s'est échappé"), _("s'est échappée"), _("se sont échappés"), _("se sont échappées")))
    if not s.magic_sensitive:
        out.append(_("{insensitive} à la magie").format(insensitive=me.agree(_("insensible"))))
    if s.attacked:
        out.append(me.form(_("a attaqué"), _("ont attaqué")))
    if s.defences and not s.cannot_defend:
        out.append(
            _("{made}, prochaine n°{k}").format(
                made=count(s.defences, _("défense")), k=min(DEFENCES_MAX, s.defences + 1)
            )
        )
    if s.wounds:
        out.append(_("blessures {w}").format(w=signed(s.wounds)))
    return tuple(out)


def status(fighters: tuple[Fighter, ...], clock: Clock) -> tuple[str, ...]:
    npcs = [f for f in fighters if f.kind == PNJ]
    pcs = [f for f in fighters if f.kind == PJ]
    if npcs and all(is_out(f) for f in npcs):
        return (_("Plus aucun PNJ ne tient tête : le combat est fini."),)
    if pcs and all(is_out(f) for f in pcs):
        return (_("Plus aucun PJ ne tient debout : le combat se règle par la fiction (fuite, capture, reddition)."),)
    return ()


EVERYONE = (PJ, PNJ)

RULES = register(
    EncounterRules(
        system="nephilim",
        kinds=(
            Kind(PJ, _("PJ"), CombatantState, preset_group="combatant", from_preset=from_preset, player=True),
            Kind(
                PNJ, _("PNJ"), CombatantState, preset_group="combatant", from_preset=from_preset, bestiary_default=True
            ),
        ),
        pages=(
            Page(
                slug="nephilim",
                label=_("Un échange"),
                roles=(
                    Role("attacker", _("Attaquant"), EVERYONE),
                    Role("defenders", _("Défenseurs"), EVERYONE, many=DEFENDERS_MAX, required=False),
                ),
                fill=fill,
                apply=apply,
                suggest=suggest,
                actor=("attacker",),
                check=check,
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
        blank=blank,
        turns=turns,
        conditions=CONDITIONS,
    )
)
