"""enCORE inside an encounter: Santé, Stress and tier of each PC, NPC attacks left this turn, who has
acted, the allies' advantages against an NPC, and the turn (seed ``003`` « Les conflits »).

* Each PC acts once per turn; interposing is that PC's action; a roll to avoid a blow (NPC ambush)
  is not an action. NPCs have no turn: they spend as many attacks per turn as their Menace, and
  unspent attacks are lost at the end of the turn.
* A manoeuvre whose effect helps the allies gives them +1d6 against that NPC while it lasts; by
  default until the end of the turn (« un adversaire à terre se relève au tour suivant »); the game
  master clears « jusqu'au tour » for an effect that lasts (a weapon on the floor).
* The ambush comes before the first turn (turn 0): PCs in ambush each act once, their failures open
  no breach; NPCs in ambush each spend one attack, avoided by PER against their Menace.
* If no PC acted against the NPCs during a turn, the end of the turn says the adversity moves on.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Annotated, Any

from rulesets.core.encounter import Applied, Bar, Bindings, EncounterRules, Fighter, Kind, Page, Role, register, rows
from rulesets.core.french import Grammar, Noun, count, join, quote, typography
from rulesets.core.i18n import _
from rulesets.core.results import Result
from rulesets.core.schema import Choice, ScenarioError, Spec
from rulesets.encore.conditions import CONDITIONS
from rulesets.encore.engine import target_npcs, tier_of
from rulesets.encore.model import NPC, Action, Scenario, conj, role_noun
from rulesets.encore.turns import turns

PJ, PNJ = "pj", "pnj"


class Ambush(Choice):
    NONE = "aucune"
    PCS = "pj"
    NPCS = "pnj"

    @classmethod
    def labels(cls) -> dict[str, str]:
        return {
            "aucune": _("Pas d'embuscade"),
            "pj": _("Les PJ surprennent les PNJ"),
            "pnj": _("Les PNJ surprennent les PJ"),
        }


@dataclass(frozen=True, slots=True)
class Clock:
    turn: Annotated[int, Spec(label=_("Tour"), ge=0, le=999, help=_("0 : l'embuscade, avant le premier tour."))] = 1
    ambush: Annotated[Ambush, Spec(label=_("Embuscade"))] = Ambush.NONE
    engaged: Annotated[bool, Spec(label=_("Un PJ a agi contre les PNJ ce tour"))] = False


@dataclass(frozen=True, slots=True)
class PcState:
    name: Annotated[str, Spec(label=_("Nom du PJ"), max_length=60)] = "PJ"
    grammar: Annotated[Grammar, Spec(label=_("Grammaire du nom"))] = field(default_factory=Grammar)
    attribute: Annotated[int, Spec(label=_("Attribut (dés)"), ge=0, le=10)] = 3
    speciality: Annotated[bool, Spec(label=_("Spécialité adaptée"))] = False
    weapon: Annotated[int, Spec(label=_("Dégâts de l'arme"), ge=0, le=20)] = 1
    weapon_area: Annotated[bool, Spec(label=_("Arme de zone"))] = False
    weapon_limit: Annotated[int, Spec(label=_("Cibles au plus (0 : sans limite)"), ge=0, le=20)] = 0
    armour: Annotated[int, Spec(label=_("Protection de l'armure"), ge=0, le=10)] = 0
    cover: Annotated[int, Spec(label=_("Couvert (Protection 1 à 3)"), ge=0, le=3)] = 0
    sante: Annotated[int, Spec(label=_("Santé"), ge=0, le=99)] = 8
    sante_max: Annotated[int, Spec(label=_("Santé maximale"), ge=1, le=99)] = 8
    stress: Annotated[int, Spec(label=_("Stress"), ge=0, le=99)] = 0
    acted: Annotated[bool, Spec(label=_("A agi ce tour"))] = False

    @property
    def noun(self) -> Noun:
        return role_noun(self.name, self.grammar, _("PJ"))

    def check(self) -> dict[str, str]:
        if self.sante > self.sante_max:
            return {"sante": _("Santé : ne peut dépasser la Santé maximale ({max}).").format(max=self.sante_max)}
        return {}


@dataclass(frozen=True, slots=True)
class Advantage:
    """+1d6 for the allies against this NPC, gained by a manoeuvre."""

    effect: Annotated[str, Spec(label=_("Effet"), max_length=120)] = ""
    by: Annotated[str, Spec(label=_("Obtenu par (nom du PJ)"), max_length=60)] = ""
    until_turn: Annotated[
        int | None,
        Spec(label=_("Jusqu'à la fin du tour"), ge=0, le=999, help=_("Vide : tant qu'on n'y met pas fin.")),
    ] = None


@dataclass(frozen=True, slots=True)
class NpcState:
    name: Annotated[str, Spec(label=_("Nom du PNJ"), max_length=60)] = "PNJ"
    grammar: Annotated[Grammar, Spec(label=_("Grammaire du nom"))] = field(default_factory=Grammar)
    menace: Annotated[int, Spec(label=_("Menace"), ge=1, le=3)] = 1
    sante: Annotated[int, Spec(label=_("Santé"), ge=0, le=99)] = 3
    sante_max: Annotated[int, Spec(label=_("Santé de départ"), ge=1, le=99)] = 3
    weapon: Annotated[int, Spec(label=_("Dégâts de l'arme"), ge=0, le=20)] = 2
    protection: Annotated[int, Spec(label=_("Protection"), ge=0, le=10)] = 0
    cover: Annotated[int, Spec(label=_("Couvert (malus de dés)"), ge=0, le=3)] = 0
    boss: Annotated[bool, Spec(label=_("Boss ou calamité"))] = False
    attacks_left: Annotated[
        int | None, Spec(label=_("Attaques restantes ce tour"), ge=0, le=3, help=_("Vide : autant que sa Menace."))
    ] = None
    advantages: Annotated[
        tuple[Advantage, ...], Spec(label=_("Avantages des alliés contre ce PNJ"), min_items=0, max_items=8)
    ] = ()

    @property
    def noun(self) -> Noun:
        return role_noun(self.name, self.grammar, _("PNJ"))

    @property
    def attacks(self) -> int:
        return self.menace if self.attacks_left is None else min(self.attacks_left, self.menace)

    def check(self) -> dict[str, str]:
        errors: dict[str, str] = {}
        if self.sante > self.sante_max:
            errors["sante"] = _("Santé : ne peut dépasser la Santé de départ ({max}).").format(max=self.sante_max)
        if self.attacks_left is not None and self.attacks_left > self.menace:
            errors["attacks_left"] = _("Attaques restantes : au plus la Menace ({menace}).").format(menace=self.menace)
        return errors


# --- filling the calculator ---------------------------------------------------------------------


def _grammar_fields(grammar: Grammar, prefix: str = "grammar.") -> dict[str, Any]:
    """A name's grammar as page fields (``grammar.article`` …), so the calculator tells it alike."""
    return {
        f"{prefix}article": grammar.article.value,
        f"{prefix}gender": grammar.gender.value,
        f"{prefix}elision": grammar.elision.value,
    }


def _pc_fields(pc: PcState) -> dict[str, Any]:
    return {
        "name": pc.name,
        **_grammar_fields(pc.grammar),
        "attribute": pc.attribute,
        "speciality": pc.speciality,
        "weapon": pc.weapon,
        "weapon_area": pc.weapon_area,
        "weapon_limit": pc.weapon_limit,
        "armour": pc.armour,
        "cover": pc.cover,
        "sante": pc.sante,
        "sante_max": pc.sante_max,
        "stress": pc.stress,
    }


def _npc_fields(npc: NpcState) -> dict[str, Any]:
    return {
        "name": npc.name,
        **_grammar_fields(npc.grammar),
        "menace": npc.menace,
        "sante": npc.sante,
        "weapon": npc.weapon,
        "protection": npc.protection,
        "cover": npc.cover,
        "boss": npc.boss,
        "attacks_left": npc.attacks_left,
    }


def allies_advantage(npc: NpcState, actor: str) -> int:
    """+1d6 per advantage gained against ``npc`` by someone else than ``actor`` (a PC's name)."""
    return sum(1 for a in npc.advantages if a.by != actor)


def fill(bindings: Bindings, clock: Clock) -> dict[str, Any]:
    """The calculator's fields from the bound PC, NPCs, opponent and interposer."""
    out: dict[str, Any] = {}
    pc = bindings.get("pc", ())
    npcs = bindings.get("npcs", ())
    opponent = bindings.get("opponent", ())
    if pc:
        out.update(rows("pc", _pc_fields(pc[0].state)))
    for i, npc in enumerate(npcs):
        out.update(rows(f"npcs.{i}", _npc_fields(npc.state)))
    if pc and npcs:
        out["pc.bonus_dice"] = allies_advantage(npcs[0].state, pc[0].state.name)  # at most 8, the list's maximum
    if opponent:
        out.update(rows("opponent", _pc_fields(opponent[0].state)))
    if interposer := bindings.get("interposer", ()):
        ally: PcState = interposer[0].state
        out["strike.interposer_name"] = ally.name
        out.update(_grammar_fields(ally.grammar, "strike.interposer_grammar."))
        out["strike.interposer_protection"] = max(ally.armour, ally.cover)
        out["strike.interposer_sante"] = ally.sante
        out["strike.interposer_sante_max"] = ally.sante_max
        out["strike.interposer_stress"] = ally.stress
    if clock.turn == 0 and clock.ambush is Ambush.NPCS:
        out["action"] = Action.NPC_AMBUSH.value
    elif pc and not npcs and not opponent:
        # no one to act against (the target unticked): an action outside the conflict, and no
        # NPC of the page's defaults strikes in the breach (issue 16: no phantom « PNJ »)
        out["action"] = Action.NON_COMBAT.value
        out["strike.enabled"] = False
    elif opponent and not npcs:
        out["action"] = Action.OPPOSITION.value
    elif len(npcs) > 1:
        out["action"] = Action.AREA.value
    out["ambush"] = clock.turn == 0 and clock.ambush is Ambush.PCS
    return out


def suggest(role: str, fighters: tuple[Fighter, ...], clock: Clock) -> tuple[str, ...]:
    """A PC who has not acted yet; the first NPC still standing."""
    standing = [f for f in fighters if not is_out(f)]
    if role == "pc":
        pcs = [f for f in standing if f.kind == PJ]
        waiting = [f for f in pcs if not f.state.acted] or pcs
        return tuple(f.key for f in waiting[:1])
    if role == "npcs":
        return tuple(f.key for f in standing if f.kind == PNJ)[:1]
    return ()


# --- Appliquer ------------------------------------------------------------------------------------

_ACTIONS = (Action.ATTACK, Action.MANOEUVRE, Action.AREA, Action.NON_COMBAT, Action.OPPOSITION)
_AGAINST_NPCS = (Action.ATTACK, Action.MANOEUVRE, Action.AREA)


def _wounded(pc: PcState, numbers: Any, key: str) -> PcState:
    if f"{key}_sante_after" not in numbers:
        return pc
    return replace(pc, sante=int(numbers[f"{key}_sante_after"]), stress=int(numbers[f"{key}_stress_after"]))


def _overspent(npc: NpcState, spent: int) -> str:
    """The refusal of a strike that spends more attacks than the encounter's NPC has left (issue 14):
    « Une fois ses attaques dépensées, le PNJ ne frappe plus de ce tour »."""
    who = npc.noun
    left = npc.attacks
    rest = (
        _("aucune attaque")
        if left == 0
        else _("qu'une attaque")
        if left == 1
        else _("que {n}").format(n=count(left, _("attaque")))
    )
    return _(
        "Attaques concentrées : dans la rencontre, {name} {n_a} plus {rest} ce tour, et le calcul en dépense "
        "{n} ; rouvrez le calcul depuis la rencontre."
    ).format(name=who.subject, n_a=conj(who, _("n'a"), _("n'ont")), rest=rest, n=spent)


def phantoms(s: Scenario, result: Result, bound: int) -> tuple[NPC, ...]:
    """The page's NPCs that the result makes act or suffer and that no NPC of the encounter stands
    for (the first ``bound`` rows are the encounter's): their targets, the one striking in the breach."""
    touched = len(target_npcs(s))
    if s.action is not Action.OPPOSITION and result.events_of("strike"):
        touched = max(touched, 1 if s.action is Action.NPC_AMBUSH else s.strike.striker)
    return s.npcs[bound:touched]


def _refuse_phantoms(s: Scenario, result: Result, bound: int) -> None:
    """Issue 16: a result against a « PNJ » that is not in the encounter is refused, never logged."""
    missing = phantoms(s, result, bound)
    if missing:
        names = join([npc.noun.subject for npc in missing])
        raise ScenarioError(
            {
                "role.npcs": _(
                    "Ce calcul fait agir {names}, absent de la rencontre : cochez le PNJ dans « PNJ visés », "
                    "puis rouvrez le calculateur."
                ).format(names=names)
            }
        )


def apply(scenario: Scenario, result: Result, bindings: Bindings, clock: Clock) -> Applied:
    """Write an exchange's consequences: Santé and Stress lost, NPC Santé, attacks spent, who acted."""
    s, n = scenario, result.numbers
    states: dict[str, Any] = {}
    story: list[str] = []
    notes: list[str] = []
    npcs = bindings.get("npcs", ())
    _refuse_phantoms(s, result, len(npcs))
    if pc := bindings.get("pc", ()):
        state: PcState = _wounded(pc[0].state, n, "pc")
        if s.action in _ACTIONS:
            state = replace(state, acted=True)
        elif s.action is Action.NPC_AMBUSH:
            who = state.noun
            notes.append(
                _("Éviter un coup n'est pas une action : {name} {garde}.").format(
                    name=who.subject, garde=conj(who, _("garde son action"), _("gardent leur action"))
                )
            )
        states[pc[0].key] = state
    for event in result.events_of("npc_sante"):
        index = int(event.data["target"])
        if index < len(npcs):
            npc = npcs[index]
            states[npc.key] = replace(npc.state, sante=int(event.data["after"]))
            if int(event.data["after"]) == 0:
                out = npc.state.noun
                story.append(
                    _("{name} {est} hors de combat.").format(name=out.Subject, est=conj(out, _("est"), _("sont")))
                )
    striker = s.strike.striker - 1
    spent = 0
    if s.action is Action.NPC_AMBUSH and npcs:
        striker, spent = 0, 1  # « Chaque PNJ dépense une attaque avant le premier tour », avoided or not
    elif striker < len(npcs):
        # the attacks the strike focused, as resolved (not the page's « Attaques restantes » against
        # the encounter's, which may differ: issue 14, nothing spent or refunded silently)
        spent = sum(int(str(e.data.get("attacks", 1))) for e in result.events_of("strike"))
    if spent and striker < len(npcs):
        npc = npcs[striker]
        current: NpcState = states.get(npc.key, npc.state)
        if spent > current.attacks:
            raise ScenarioError({"strike.attacks": _overspent(current, spent)})
        left = current.attacks - spent
        states[npc.key] = replace(current, attacks_left=left)
        who = current.noun
        rest = (
            conj(who, _("il ne lui en reste aucune ce tour"), _("il ne leur en reste aucune ce tour"))
            if left == 0
            else conj(who, _("il lui en reste {n} ce tour"), _("il leur en reste {n} ce tour")).format(n=left)
        )
        story.append(
            _("{name} {a_depense} {n} ; {rest}.").format(
                name=who.Subject,
                a_depense=conj(who, _("a dépensé"), _("ont dépensé")),
                n=count(spent, _("attaque")),
                rest=rest,
            )
        )
    if s.action is Action.MANOEUVRE and n.get("effect") and s.effect_helps_allies and npcs and pc:
        target = npcs[0]
        current = states.get(target.key, target.state)
        gained = Advantage(effect=s.effect or _("manœuvre"), by=pc[0].state.name, until_turn=clock.turn)
        if len(current.advantages) < 8:
            states[target.key] = replace(current, advantages=(*current.advantages, gained))
            story.append(
                _("Les alliés gagnent +1d6 contre {name} jusqu'à la fin du tour.").format(name=current.noun.subject)
            )
        else:  # issue 14: said, not silently dropped
            notes.append(
                _("L'avantage n'est pas noté : {name} en porte déjà 8, le plus que la rencontre en garde.").format(
                    name=current.noun.subject
                )
            )
    if (ally := bindings.get("interposer", ())) and s.strike.interpose and "ally_sante_after" in n:
        states[ally[0].key] = replace(_wounded(ally[0].state, n, "ally"), acted=True)
    if opponent := bindings.get("opponent", ()):
        opp: PcState = _wounded(opponent[0].state, n, "opponent")
        if s.action is Action.OPPOSITION:
            opp = replace(opp, acted=True)
        states[opponent[0].key] = opp
    new_clock = replace(clock, engaged=True) if s.action in _AGAINST_NPCS and not clock.engaged else None
    return Applied(
        states=states,
        clock=new_clock,
        story=tuple(typography(line) for line in story),
        notes=tuple(typography(line) for line in notes),
    )


# --- the turn --------------------------------------------------------------------------------------


def advance(fighters: tuple[Fighter, ...], clock: Clock, table: Scenario) -> Applied:
    """End of the turn: every PC may act again, NPCs get their Menace in attacks, advantages that
    last until this turn's end fade, and an idle turn lets the adversity move on."""
    states: dict[str, Any] = {}
    story: list[str] = []
    for f in fighters:
        if f.kind == PJ and f.state.acted:
            states[f.key] = replace(f.state, acted=False)
        elif f.kind == PNJ:
            npc: NpcState = f.state
            if is_out(f):
                continue
            lost = npc.attacks
            kept = tuple(a for a in npc.advantages if a.until_turn is None or a.until_turn > clock.turn)
            if npc.attacks_left is not None or kept != npc.advantages:
                states[f.key] = replace(npc, attacks_left=None, advantages=kept)
            who = npc.noun
            if lost and clock.turn > 0:
                story.append(
                    _("{name} {perd} {n}.").format(
                        name=who.Subject,
                        perd=conj(who, _("perd"), _("perdent")),
                        n=count(lost, _("attaque non dépensée"), _("attaques non dépensées")),
                    )
                )
            for a in npc.advantages:
                if a not in kept:
                    story.append(
                        _("L'avantage {effect} contre {name} prend fin.").format(
                            effect=quote(a.effect), name=who.subject
                        )
                    )
    if clock.turn > 0 and not clock.engaged and any(f.kind == PNJ and not is_out(f) for f in fighters):
        story.append(
            _(
                "Aucun PJ n'a agi contre les PNJ ce tour : ils n'attendent pas (un couvert tombe, une issue se "
                "ferme, des renforts arrivent)."
            )
        )
    new_clock = Clock(turn=clock.turn + 1, ambush=clock.ambush, engaged=False)
    story.insert(0, _("{label} : le tour {n} commence.").format(label=advance_label(clock), n=new_clock.turn))
    return Applied(states=states, clock=new_clock, story=tuple(typography(line) for line in story))


def clock_label(clock: Clock) -> str:
    if clock.turn == 0:
        return _("Embuscade, avant le premier tour")
    return _("Tour {n}").format(n=clock.turn)


def advance_label(clock: Clock) -> str:
    if clock.turn == 0:
        return _("Fin de l'embuscade")
    return _("Fin du tour {n}").format(n=clock.turn)


def is_out(f: Fighter) -> bool:
    return bool(f.state.sante == 0)


def bars(f: Fighter) -> tuple[Bar, ...]:
    if f.kind == PJ:
        pc: PcState = f.state
        return (Bar("sante", _("Santé"), pc.sante, pc.sante_max), Bar("stress", _("Stress"), pc.stress, 0, "stress"))
    npc: NpcState = f.state
    health = Bar("sante", _("Santé"), npc.sante, npc.sante_max)
    if npc.sante == 0:
        return (health,)  # out of the fight: its attacks no longer matter
    return (health, Bar("attacks_left", _("Attaques ce tour"), npc.attacks, npc.menace, "resource"))


def badges(f: Fighter, clock: Clock, table: Scenario) -> tuple[str, ...]:
    out: list[str] = []
    if f.kind == PJ:
        pc: PcState = f.state
        out.append(tier_of(pc.sante, pc.sante_max, table.rules))
        if pc.acted:
            out.append(_("a agi"))
        return tuple(out)
    npc: NpcState = f.state
    if npc.sante == 0:
        return (_("hors de combat"),)
    out.append(_("Menace {n}").format(n=npc.menace))
    if npc.boss:
        out.append(_("boss"))
    if npc.advantages:
        out.append(_("+{n}d6 pour les alliés").format(n=len(npc.advantages)))
    return tuple(out)


def status(fighters: tuple[Fighter, ...], clock: Clock) -> tuple[str, ...]:
    npcs = [f for f in fighters if f.kind == PNJ]
    pcs = [f for f in fighters if f.kind == PJ]
    if npcs and all(is_out(f) for f in npcs):
        return (_("Plus aucun PNJ ne peut riposter : le conflit s'arrête."),)
    if pcs and all(is_out(f) for f in pcs):
        return (_("Plus aucun PJ ne peut combattre : le conflit se règle par la fiction (fuite, capture, reddition)."),)
    return ()


def npc_from_preset(values: Any) -> dict[str, Any]:
    """An NPC of the bestiary as an encounter state, its name's grammar included (issue 15)."""
    keys = ("name", "menace", "sante", "weapon", "protection", "boss")
    data = {k: values[k] for k in keys if k in values}
    if "sante" in data:
        data["sante_max"] = data["sante"]
    grammar = {k: values[f"grammar.{k}"] for k in ("article", "gender", "elision") if f"grammar.{k}" in values}
    if grammar:
        data["grammar"] = grammar
    return data


RULES = register(
    EncounterRules(
        system="encore",
        kinds=(
            Kind(PJ, _("PJ"), PcState, player=True),
            Kind(PNJ, _("PNJ"), NpcState, preset_group="npc", from_preset=npc_from_preset),
        ),
        pages=(
            Page(
                slug="encore",
                label=_("Action d'un PJ"),
                roles=(
                    Role("pc", _("PJ qui agit"), (PJ,)),
                    Role("npcs", _("PNJ visés"), (PNJ,), many=8, required=False),
                    Role("opponent", _("PJ opposé"), (PJ,), required=False),
                    Role("interposer", _("PJ qui peut s'interposer"), (PJ,), required=False),
                ),
                fill=fill,
                apply=apply,
                suggest=suggest,
                actor=("pc",),
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
