"""Aventuriers inside an encounter: PV, stamina and PX of each figure, its square and facing on the
board, whom it is engaged with, its combat action of the turn, and the turn's two phases (seed
``001_98d48faccdd02c66`` « Combat », ``shared/rules/aventuriers.md``).

* A turn is the **phase des Aventuriers** then the **phase du Maître des Ombres**; each character
  makes one combat action per turn (Livret Aventure, p. 17), Aventuriers in their phase, Monsters
  in the Maître des Ombres' phase. Reactions (Riposte, Attaque éclair, Attaque d'opportunité) and a
  success test are not the combat action.
* The phase des Aventuriers opens with its « début » (``Clock.opening``): a figure with Attaque
  d'opportunité that is not engaged then may strike an enemy in its attack zone. The end of the
  Maître des Ombres' phase works out who may; the first other exchange of the phase closes it.
* Engagement is kept by name on both figures (« Engagé avec »): started by a melee attack made or
  suffered, ended by a death, by the two figures no longer standing in each other's attack zone,
  by a ranged attack or a spell on another target; flash damage and back attacks do not engage.
* A Monster killed is removed from the board (its square emptied, out of the fight) and its
  card's PX go to the Aventurier who killed it, by a blow or by a Riposte.

Where the seed is silent, the decisions are fields of the states and of the clock, described in
``docs/rules/aventuriers.md`` § « Dans une rencontre ».
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Annotated, Any

from rulesets.aventuriers.conditions import CONDITIONS
from rulesets.aventuriers.model import (
    MAX_POOL,
    MAX_RANGE,
    Action,
    DiceGroup,
    Facing,
    Mode,
    Reach,
    Scenario,
    Side,
    Weapon,
    ZoneShape,
)
from rulesets.aventuriers.model import Fighter as PageFighter
from rulesets.aventuriers.speech import figure_noun
from rulesets.aventuriers.turns import turns
from rulesets.aventuriers.zones import adjacent, in_attack_zone, local
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
from rulesets.core.french import DEFINITE_M, Grammar, Noun, count, join, typography
from rulesets.core.french import together as said_together
from rulesets.core.i18n import _
from rulesets.core.results import Number, Result
from rulesets.core.schema import Choice, Spec, unflatten

AVENTURIER, MONSTRE = Side.AVENTURIER.value, Side.MONSTRE.value
POOL_ROWS = 4  # rows of a dice pool on the page and in a sheet (the scenario accepts 4 groups)
MAX_SQUARE = 99
MAX_STAMINA = 99
MAX_PX = 9999


class Phase(Choice):
    """The two phases of a turn (Livret Aventure, p. 16 and 18)."""

    AVENTURIERS = "aventuriers"
    OMBRES = "maitre_des_ombres"

    @classmethod
    def labels(cls) -> dict[str, str]:
        return {"aventuriers": _("Phase des Aventuriers"), "maitre_des_ombres": _("Phase du Maître des Ombres")}


@dataclass(frozen=True, slots=True)
class Clock:
    turn: Annotated[int, Spec(label=_("Tour"), ge=1, le=999)] = 1
    phase: Annotated[Phase, Spec(label=_("Phase"))] = Phase.AVENTURIERS
    opening: Annotated[
        bool,
        Spec(
            label=_("Début de la phase des Aventuriers (Attaques d'opportunité)"),
            help=_("Fermé dès le premier autre échange de la phase."),
        ),
    ] = True

    def check(self) -> dict[str, str]:
        if self.opening and self.phase is not Phase.AVENTURIERS:
            return {"opening": _("Début de phase : seulement pendant la phase des Aventuriers.")}
        return {}


def _pool(*groups: DiceGroup) -> tuple[DiceGroup, ...]:
    """A dice pool padded with empty rows, so that the sheet can take up to four kinds of dice."""
    filler = groups[0].die if groups else "bleu"
    return (*groups, *(DiceGroup(filler, 0) for _i in range(POOL_ROWS - len(groups))))


@dataclass(frozen=True, slots=True)
class Figure:
    """What an Aventurier and a Monster share in a fight: the sheet or card the page needs, and
    where the figure stands."""

    name: Annotated[str, Spec(label=_("Nom"), max_length=60)] = _("Aventurier")
    grammar: Annotated[Grammar, Spec(label=_("Grammaire du nom"))] = field(default_factory=Grammar)
    px: Annotated[int, Spec(label=_("PX"), ge=0, le=MAX_PX)] = 0
    pv: Annotated[int, Spec(label=_("PV actuels"), ge=0, le=99)] = 10
    pv_max: Annotated[int, Spec(label=_("PV maximum"), ge=1, le=99)] = 10
    stamina: Annotated[int, Spec(label=_("Stamina"), ge=0, le=MAX_STAMINA)] = 0
    stamina_max: Annotated[int, Spec(label=_("Stamina maximale (0 = sans limite)"), ge=0, le=MAX_STAMINA)] = 0
    weapon: Annotated[Weapon, Spec(label=_("Arme, sort ou attaque"))] = field(
        default_factory=lambda: Weapon(name=_("Épée longue"), dice=_pool(DiceGroup("bleu", 2)))
    )
    defence: Annotated[tuple[DiceGroup, ...], Spec(label=_("Jet de défense"), max_items=POOL_ROWS)] = _pool(
        DiceGroup("noir", 1, protection=True), DiceGroup("bleu", 1)
    )
    riposte: Annotated[bool, Spec(label=_("Talent : Riposte"))] = False
    contrecoup: Annotated[bool, Spec(label=_("Talent : Contrecoup"))] = False
    attaque_eclair: Annotated[bool, Spec(label=_("Talent : Attaque éclair"))] = False
    attaque_opportunite: Annotated[bool, Spec(label=_("Talent : Attaque d'opportunité"))] = False
    coup_bas: Annotated[bool, Spec(label=_("Talent : Coup bas"))] = False
    x: Annotated[
        int | None,
        Spec(label=_("Case : colonne (vers l'est)"), ge=0, le=MAX_SQUARE, help=_("Vide : pas placé sur le plateau.")),
    ] = None
    y: Annotated[
        int | None,
        Spec(label=_("Case : ligne (vers le sud)"), ge=0, le=MAX_SQUARE, help=_("Vide : pas placé sur le plateau.")),
    ] = None
    facing: Annotated[Facing, Spec(label=_("Orientation"))] = Facing.NORTH
    engaged_with: Annotated[
        str, Spec(label=_("Engagé avec"), max_length=200, help=_("Noms des combattants, séparés par des virgules."))
    ] = ""
    acted: Annotated[bool, Spec(label=_("A fait son action de combat ce tour"))] = False
    opportunity: Annotated[
        bool,
        Spec(
            label=_("Attaque d'opportunité possible"),
            help=_("Talent, et pas engagé au début de la phase des Aventuriers."),
        ),
    ] = False

    @property
    def engaged(self) -> tuple[str, ...]:
        return names_of(self.engaged_with)

    @property
    def placed(self) -> bool:
        return self.x is not None and self.y is not None

    def check(self) -> dict[str, str]:
        errors: dict[str, str] = {}
        if "," in self.name:
            errors["name"] = _("Nom : pas de virgule (elle sépare les noms dans « Engagé avec »).")
        if self.pv > self.pv_max:
            errors["pv"] = _("PV actuels : ne peuvent dépasser les PV maximum ({max}).").format(max=self.pv_max)
        if self.stamina_max and self.stamina > self.stamina_max:
            errors["stamina"] = _("Stamina : dépasse la stamina maximale ({max}).").format(max=self.stamina_max)
        if self.contrecoup and not self.riposte:
            errors["contrecoup"] = _("Talent : Contrecoup : il s'ajoute à la Riposte, cochez aussi Riposte.")
        if (self.x is None) != (self.y is None):
            errors["y" if self.y is None else "x"] = _(
                "Case : donnez la colonne et la ligne, ou laissez les deux vides."
            )
        if not any(g.count for g in self.weapon.dice):
            errors["weapon.dice"] = _("Jet d'attaque : au moins un dé.")
        for path, groups in (("weapon.dice", self.weapon.dice), ("defence", self.defence)):
            if sum(g.count for g in groups) > MAX_POOL:
                errors[path] = _("{n} au plus dans un jet.").format(n=count(MAX_POOL, _("dé")))
        engaged = self.engaged
        if self.name in engaged:
            errors["engaged_with"] = _("Engagé avec : pas avec soi-même.")
        elif len(set(engaged)) != len(engaged):
            errors["engaged_with"] = _("Engagé avec : un nom en double.")
        return errors


@dataclass(frozen=True, slots=True)
class AventurierState(Figure):
    """An Aventurier: the feuille de personnage, with the PX earned in the fight."""

    name: Annotated[str, Spec(label=_("Nom de l'aventurier"), max_length=60)] = _("Aventurier")
    px: Annotated[int, Spec(label=_("PX gagnés"), ge=0, le=MAX_PX)] = 0


@dataclass(frozen=True, slots=True)
class MonsterState(Figure):
    """A Monster: its carte Monstre (the PX it gives to the Aventurier who kills it). Its name is a
    common noun by default (« le Gobelin 2 »), as in the bestiary (issue 15)."""

    name: Annotated[str, Spec(label=_("Nom du monstre"), max_length=60)] = _("Monstre")
    grammar: Annotated[Grammar, Spec(label=_("Grammaire du nom"))] = DEFINITE_M
    px: Annotated[int, Spec(label=_("PX de la carte du monstre"), ge=0, le=999)] = 2
    pv: Annotated[int, Spec(label=_("PV actuels"), ge=0, le=99)] = 3
    pv_max: Annotated[int, Spec(label=_("PV de la carte"), ge=1, le=99)] = 3
    weapon: Annotated[Weapon, Spec(label=_("Attaque de la carte"))] = field(
        default_factory=lambda: Weapon(name=_("Attaque"), dice=_pool(DiceGroup("bleu", 1)))
    )
    defence: Annotated[tuple[DiceGroup, ...], Spec(label=_("Jet de défense"), max_items=POOL_ROWS)] = _pool(
        DiceGroup("bleu", 1)
    )


def names_of(text: str) -> tuple[str, ...]:
    """« Gobelin 1, Orc » → ("Gobelin 1", "Orc")."""
    return tuple(n for n in (part.strip() for part in text.split(",")) if n)


def names_text(names: Iterable[str]) -> str:
    return ", ".join(names)


def _with_names(state: Figure, names: Iterable[str]) -> Figure:
    return replace(state, engaged_with=names_text(dict.fromkeys(names)))


def _engage(state: Figure, other: str) -> Figure:
    return state if other in state.engaged else _with_names(state, (*state.engaged, other))


def _disengage(state: Figure, others: Iterable[str]) -> Figure:
    gone = set(others)
    return _with_names(state, (n for n in state.engaged if n not in gone))


def _said(state: Figure) -> Noun:
    """A figure's name as the lines say it, with its grammar (issue 15: « le Gobelin est tué »)."""
    return figure_noun(state.name, state.grammar, monster=isinstance(state, MonsterState))


def _named(name: str, known: Mapping[str, Figure]) -> Noun:
    """A name of « Engagé avec »: said with its figure's grammar when the figure is known."""
    state = known.get(name)
    return _said(state) if state is not None else figure_noun(name, Grammar())


def _join(names: Iterable[Noun]) -> str:
    """« le Gobelin », « le Gobelin et l'Orc », « Elwen, le Rat et l'Orc »."""
    return join([str(n) for n in names])


def _engaged(*names: Noun) -> str:
    return said_together(list(names)).agree(_("engagé"))


# --- the board ------------------------------------------------------------------------------------


def offset(attacker: Figure, target: Figure) -> tuple[int, int] | None:
    """The attacker's square relative to the target's, as the page's grid reads it (``board.dx``,
    ``board.dy``); ``None`` when a figure is not placed or both share a square. Beyond the grid's
    reach (12 squares) the direction is kept and the distance brought back to 12."""
    if attacker.x is None or attacker.y is None or target.x is None or target.y is None:
        return None
    dx, dy = attacker.x - target.x, attacker.y - target.y
    if dx == 0 and dy == 0:
        return None
    far = max(abs(dx), abs(dy))
    if far > MAX_RANGE:
        dx, dy = round(dx * MAX_RANGE / far), round(dy * MAX_RANGE / far)
    return dx, dy


def apart(a: Figure, b: Figure) -> bool:
    """Both placed and no longer side by side: neither can stand in the other's attack zone."""
    if a.x is None or a.y is None or b.x is None or b.y is None:
        return False
    return not adjacent(b.x - a.x, b.y - a.y)


def sees(a: Figure, b: Figure, shape: ZoneShape) -> bool:
    """Is ``b`` in ``a``'s attack zone (both placed; walls are the game master's call)?"""
    if a.x is None or a.y is None or b.x is None or b.y is None:
        return False
    ahead, right = local(a.facing, b.x - a.x, b.y - a.y)
    return in_attack_zone(ahead, right, shape, a.weapon.diagonals)


def engagement_holds(a: Figure, b: Figure, shape: ZoneShape) -> bool:
    """An engagement lasts while one of the two stands in the other's attack zone (Livret Aventure,
    p. 19: it ends when one leaves the other's attack zone); unplaced figures keep it."""
    if not (a.placed and b.placed):
        return True
    return sees(a, b, shape) or sees(b, a, shape)


# --- filling the calculator -------------------------------------------------------------------------


def _pool_fields(groups: tuple[DiceGroup, ...]) -> dict[str, Any]:
    """Every row of a page's dice pool: the page's default rows must not survive the fill."""
    out: dict[str, Any] = {}
    for i, g in enumerate(_pool(*groups[:POOL_ROWS])):
        out.update(rows(str(i), {"die": g.die, "count": g.count, "protection": g.protection}))
    return out


def _figure_fields(f: Fighter) -> dict[str, Any]:
    s: Figure = f.state
    weapon = s.weapon
    out: dict[str, Any] = {
        "name": s.name,
        "grammar.article": s.grammar.article.value,
        "grammar.gender": s.grammar.gender.value,
        "grammar.elision": s.grammar.elision.value,
        "side": MONSTRE if f.kind == MONSTRE else AVENTURIER,
        "pv": s.pv,
        "stamina": s.stamina,
        "stamina_max": s.stamina_max,
        "px": s.px if f.kind == MONSTRE else 0,
        "riposte": s.riposte,
        "contrecoup": s.contrecoup,
        "attaque_eclair": s.attaque_eclair,
        "attaque_opportunite": s.attaque_opportunite,
        "coup_bas": s.coup_bas,
        "weapon.name": weapon.name,
        "weapon.reach": weapon.reach.value,
        "weapon.spell": weapon.spell,
        "weapon.diagonals": weapon.diagonals,
        "weapon.unblockable": weapon.unblockable,
        "weapon.flash": weapon.flash,
    }
    out.update(rows("weapon.dice", _pool_fields(weapon.dice)))
    out.update(rows("defence", _pool_fields(s.defence)))
    return out


def _mode(attacker: Figure, target: Figure | None) -> Mode:
    reach = attacker.weapon.reach
    if reach is Reach.RANGED:
        return Mode.RANGED
    if reach is Reach.HYBRID and target is not None and apart(attacker, target):
        return Mode.RANGED
    return Mode.MELEE


def together(a: Figure, b: Figure, shape: ZoneShape | None = None) -> bool:
    """Engaged with each other: each names the other, and the engagement still holds on the board
    (one in the other's attack zone, with the table's zone ``shape``; without it: side by side)."""
    if not (b.name in a.engaged and a.name in b.engaged):
        return False
    return engagement_holds(a, b, shape) if shape is not None else not apart(a, b)


def fill(bindings: Bindings, clock: Clock, table: Table | None = None) -> dict[str, Any]:
    """The page's fields from the attacker's and the target's states: sheets, board, engagement
    (held only while one stands in the other's attack zone, with the table's zone shape)."""
    shape = table.scenario.rules.zone_shape if table is not None else None
    out: dict[str, Any] = {}
    attacker = bindings.get("attacker", ())
    defender = bindings.get("defender", ())
    a: Figure | None = attacker[0].state if attacker else None
    d: Figure | None = defender[0].state if defender else None
    if attacker:
        out.update(rows("attacker", _figure_fields(attacker[0])))
    if defender:
        out.update(rows("defender", _figure_fields(defender[0])))
    if a is None:
        return out
    out["mode"] = _mode(a, d).value
    opportunity = clock.opening and a.opportunity
    if opportunity:
        out["action"] = Action.PHASE_START.value
    if d is not None and (where := offset(a, d)) is not None:
        out["board.dx"], out["board.dy"] = where
        out["board.attacker_facing"] = a.facing.value
        out["board.target_facing"] = d.facing.value
    others = [n for n in a.engaged if d is None or n != d.name]
    # « pas engagé au début de la phase des Aventuriers »: the flag holds what the phase began with
    out["board.engaged_together"] = bool(d is not None and together(a, d, shape)) and not opportunity
    out["board.attacker_engaged_other"] = bool(others) and not opportunity
    return out


def _standing(fighters: Iterable[Fighter]) -> list[Fighter]:
    return [f for f in fighters if not is_out(f)]


def _distance(a: Figure, b: Figure) -> int:
    if a.x is None or a.y is None or b.x is None or b.y is None:
        return MAX_SQUARE * 2
    return max(abs(a.x - b.x), abs(a.y - b.y))


def _next_actor(fighters: tuple[Fighter, ...], clock: Clock) -> Fighter | None:
    standing = _standing(fighters)
    if clock.opening:
        ready = [f for f in standing if f.state.opportunity]
        if ready:
            return ready[0]
    side = AVENTURIER if clock.phase is Phase.AVENTURIERS else MONSTRE
    own = [f for f in standing if f.kind == side]
    waiting = [f for f in own if not f.state.acted] or own or standing
    return waiting[0] if waiting else None


def suggest(role: str, fighters: tuple[Fighter, ...], clock: Clock, table: Table | None = None) -> tuple[str, ...]:
    """The figure whose phase it is and who has not acted (an Attaque d'opportunité first at the
    start of the phase des Aventuriers); its target: an enemy engaged with it, else the nearest."""
    actor = _next_actor(fighters, clock)
    if actor is None:
        return ()
    if role == "attacker":
        return (actor.key,)
    if role != "defender":
        return ()
    enemies = [f for f in _standing(fighters) if f.kind != actor.kind]
    if not enemies:
        return ()
    shape = table.scenario.rules.zone_shape if table is not None else None
    engaged = [f for f in enemies if together(actor.state, f.state, shape)]
    nearest = sorted(enemies, key=lambda f: _distance(actor.state, f.state))
    return ((engaged or nearest)[0].key,)


# --- Appliquer ------------------------------------------------------------------------------------


def _number(numbers: Mapping[str, Number], key: str, default: int) -> int:
    value = numbers.get(key)
    return default if value is None or isinstance(value, str) else int(value)


def _fit(state: Figure, notes: list[str]) -> Figure:
    """Keep a state valid after an exchange typed on the page beyond the sheet (more PV than the
    maximum, stamina past 99): the maximum is raised, said in a technical line, never refused."""
    if state.pv > state.pv_max:
        notes.append(
            _("PV maximum {a:de} relevés à {pv} (le calculateur en donnait plus que la fiche).").format(
                a=_said(state), pv=state.pv
            )
        )
        state = replace(state, pv_max=state.pv)
    if state.stamina > MAX_STAMINA:
        state = replace(state, stamina=MAX_STAMINA)
    if state.stamina_max and state.stamina > state.stamina_max:
        state = replace(state, stamina_max=state.stamina)
    return replace(state, px=min(state.px, MAX_PX if isinstance(state, AventurierState) else 999))


def _dice(groups: tuple[DiceGroup, ...]) -> tuple[DiceGroup, ...]:
    return tuple(g for g in groups if g.count)


def same_gear(a: Weapon, a_defence: tuple[DiceGroup, ...], b: Weapon, b_defence: tuple[DiceGroup, ...]) -> bool:
    """The same weapon and protections, empty rows of the pools aside."""
    return replace(a, dice=_dice(a.dice)) == replace(b, dice=_dice(b.dice)) and _dice(a_defence) == _dice(b_defence)


def _equipment(state: Figure, page: PageFighter, clock: Clock, is_aventurier: bool, notes: list[str]) -> Figure:
    """« Pendant sa phase, un Aventurier change gratuitement d'arme et de protection… Pendant la
    phase du Maître des Ombres, il garde l'équipement choisi » (Livret Aventure, p. 18)."""
    if not is_aventurier or same_gear(page.weapon, page.defence, state.weapon, state.defence):
        return state
    if clock.phase is Phase.AVENTURIERS:
        return replace(state, weapon=page.weapon, defence=page.defence)
    notes.append(
        _(
            "{a:S} {a:garde|gardent} l'équipement de {a:sa|leur} fiche pendant la phase du Maître des Ombres : "
            "celui du calculateur n'y est pas écrit."
        ).format(a=_said(state))
    )
    return state


def _board(a: Figure, d: Figure, scenario: Scenario, notes: list[str]) -> tuple[Figure, Figure]:
    """The squares and facings chosen on the page's grid, written back when both figures are placed:
    a new square moves the attacker next to the target's square."""
    where = offset(a, d)
    board = scenario.board
    if where is None or d.x is None or d.y is None:
        return a, d
    x, y = d.x + board.dx, d.y + board.dy
    a = replace(a, facing=board.attacker_facing)
    d = replace(d, facing=board.target_facing)
    if (board.dx, board.dy) != where:
        if 0 <= x <= MAX_SQUARE and 0 <= y <= MAX_SQUARE:
            a = replace(a, x=x, y=y)
        else:
            notes.append(
                _("La case choisie sur la grille ({x}, {y}) sort du plateau : celle {a:de} n'est pas changée.").format(
                    a=_said(a), x=x, y=y
                )
            )
    return a, d


def _killed(victim: Figure, killer: Figure | None, px: int, is_monster: bool) -> tuple[Figure, str]:
    """A Monster killed is removed from the board; an Aventurier at 0 PV stays where it fell."""
    v = _said(victim)
    if is_monster:
        victim = replace(victim, x=None, y=None, engaged_with="", opportunity=False)
        if killer is not None and px:
            line = _(
                "{v:S} {v:est|sont} {v:tué|tuée|tués|tuées} et {v:retiré|retirée|retirés|retirées} du plateau : "
                "{k} {k:gagne|gagnent} {px} ({total} en tout)."
            ).format(v=v, k=_said(killer), px=count(px, _("PX")), total=killer.px)
        else:
            line = _(
                "{v:S} {v:est|sont} {v:tué|tuée|tués|tuées} et {v:retiré|retirée|retirés|retirées} du plateau."
            ).format(v=v)
        return victim, line
    victim = replace(victim, engaged_with="", opportunity=False)
    return victim, _("{v:S} {v:tombe|tombent} à 0 PV : hors de combat.").format(v=v)


def apply(
    scenario: Scenario, result: Result, bindings: Bindings, clock: Clock, everyone: tuple[Fighter, ...] = ()
) -> Applied:
    """Write an exchange back: PV lost on both sides, stamina, PX, kills, engagement, the combat
    action spent, the start of the phase closed, the equipment and the board chosen on the page;
    and, on the others' sheets (``everyone``), the engagements the exchange ended (a death, a shot
    or a spell at another target)."""
    n = result.numbers
    s = scenario
    story: list[str] = []
    notes: list[str] = []
    attacker = bindings.get("attacker", ())
    defender = bindings.get("defender", ())
    if s.action is Action.SUCCESS_TEST:
        notes.append(_("Un test de réussite n'est pas une action de combat : rien n'est écrit aux fiches."))
        return Applied(notes=tuple(typography(line) for line in notes))
    if n.get("allowed") is False:
        notes.append(_("Échange impossible : rien n'est écrit aux fiches."))
        return Applied(notes=tuple(typography(line) for line in notes))
    a_f = attacker[0] if attacker else None
    d_f = defender[0] if defender else None
    a: Figure | None = a_f.state if a_f else None
    d: Figure | None = d_f.state if d_f else None
    a_monster = a_f is not None and a_f.kind == MONSTRE
    d_monster = d_f is not None and d_f.kind == MONSTRE

    # the sheets and the board chosen on the page
    if a is not None:
        a = _equipment(a, s.attacker, clock, not a_monster, notes)
    if d is not None:
        d = _equipment(d, s.defender, clock, not d_monster, notes)
    if a is not None and d is not None:
        a, d = _board(a, d, s, notes)

    # PV, stamina, PX
    killed = bool(n.get("defender_killed"))
    attacker_killed = bool(n.get("attacker_killed"))
    if d is not None:
        d = replace(
            d,
            pv=_number(n, "defender_pv_after", d.pv),
            stamina=_number(n, "defender_stamina_after", d.stamina),
        )
        if gained := _number(n, "defender_px_gained", 0):
            d = replace(d, px=d.px + gained)
    if a is not None:
        a = replace(
            a,
            pv=_number(n, "attacker_pv_after", a.pv),
            stamina=_number(n, "attacker_stamina_after", a.stamina),
        )
        if gained := _number(n, "px_gained", 0):
            a = replace(a, px=a.px + gained)

    # engagement (Livret Aventure, p. 19), as the engine left it after the exchange
    if a is not None and d is not None:
        was = together(a, d)
        pair = {"a": _said(a), "d": _said(d), "engaged": _engaged(_said(a), _said(d))}
        if n.get("engaged_after") and not killed and not attacker_killed:
            if not was:
                story.append(_("{a:S} et {d} sont {engaged} au combat.").format(**pair))
            a, d = _engage(a, d.name), _engage(d, a.name)
        else:
            if was and not (killed or attacker_killed):
                story.append(_("{a:S} et {d} ne sont plus {engaged} au combat.").format(**pair))
            a, d = _disengage(a, (d.name,)), _disengage(d, (a.name,))
    if a is not None and s.board.attacker_engaged_other and n.get("attacker_engaged_other_after") is False:
        others = [name for name in a.engaged if d is None or name != d.name]
        if others:
            known = {f.name: f.state for f in everyone}
            story.append(
                _(
                    "En attaquant une autre cible à distance ou par un sort, {a} {a:rompt|rompent} {a:son|leur} "
                    "engagement avec {others}."
                ).format(a=_said(a), others=_join(_named(o, known) for o in others))
            )
            a = _disengage(a, others)

    # deaths
    if d is not None and killed:
        d, line = _killed(d, a if not a_monster else None, _number(n, "px_gained", 0), d_monster)
        story.append(line)
        if a is not None:
            a = _disengage(a, (d.name,))
    if a is not None and attacker_killed:
        a, line = _killed(a, d if not d_monster else None, _number(n, "defender_px_gained", 0), a_monster)
        story.append(line)
        if d is not None:
            d = _disengage(d, (a.name,))

    # the combat action, the start of the phase
    new_clock: Clock | None = None
    if a is not None:
        if s.action is Action.ATTACK:
            if a.acted:
                notes.append(
                    _("{a:S} {a:avait|avaient} déjà fait {a:son|leur} action de combat ce tour.").format(a=_said(a))
                )
            own = Phase.AVENTURIERS if not a_monster else Phase.OMBRES
            if clock.phase is not own:
                phase = clock.phase.label
                notes.append(
                    _("{a:S} {a:agit|agissent} hors de {a:sa|leur} phase : c'est la {phase}.").format(
                        a=_said(a), phase=phase[:1].lower() + phase[1:]
                    )
                )
            a = replace(a, acted=True)
        elif s.action is Action.PHASE_START:
            if not clock.opening:
                notes.append(_("Attaque d'opportunité jouée hors du début de la phase des Aventuriers."))
            a = replace(a, opportunity=False)
    if clock.opening and s.action in (Action.ATTACK, Action.LEAVE_ZONE):
        new_clock = replace(clock, opening=False)
        notes.append(_("Le début de la phase des Aventuriers est passé : plus d'Attaque d'opportunité ce tour."))

    states: dict[str, Any] = {}
    if a_f is not None and a is not None:
        states[a_f.key] = _fit(a, notes)
    if d_f is not None and d is not None:
        states[d_f.key] = _fit(d, notes)
    # the other side of the engagements this exchange ended: whoever named a figure that no
    # longer names them (it died, or it shot or cast at another target) lets go of it too
    after = {f.name: states[f.key] for f in (a_f, d_f) if f is not None and f.key in states}
    for f in everyone:
        if f.key in states:
            continue
        other: Figure = f.state
        gone = [name for name in other.engaged if name in after and f.name not in after[name].engaged]
        if gone:
            states[f.key] = _disengage(other, gone)
            o = _said(other)
            story.append(
                _("{o:S} n'{o:est|sont} plus {o:engagé|engagée|engagés|engagées} avec {others}.").format(
                    o=o, others=_join(_named(g, after) for g in gone)
                )
            )
    return Applied(
        states=states,
        clock=new_clock,
        story=tuple(typography(line) for line in story),
        notes=tuple(typography(line) for line in notes),
    )


# --- the turn --------------------------------------------------------------------------------------


def _reconcile(states: dict[str, Figure], fighters: tuple[Fighter, ...], shape: ZoneShape, story: list[str]) -> None:
    """End the engagements the rules end between exchanges: with a figure out of play or gone, one
    named on a single side, two figures no longer standing in each other's attack zone."""
    by_name = {f.name: f for f in fighters}
    known = {f.name: states[f.key] for f in fighters}
    told: set[frozenset[str]] = set()
    for f in fighters:
        state = states[f.key]
        if is_out(f):
            if state.engaged_with:
                states[f.key] = replace(state, engaged_with="")
            continue
        kept: list[str] = []
        for name in state.engaged:
            other = by_name.get(name)
            why = ""
            o = _named(name, known)
            if other is None or is_out(other):
                why = _("{o} n'{o:est|sont} plus en jeu").format(o=o)
            elif f.name not in states[other.key].engaged:
                why = _("{o} ne se {o:dit|disent} plus {o:engagé|engagée|engagés|engagées} avec {who}").format(
                    o=o, who=_said(state)
                )
            elif not engagement_holds(state, states[other.key], shape):
                why = _("aucun des deux n'est plus dans la zone d'attaque de l'autre")
            if not why:
                kept.append(name)
                continue
            pair = frozenset((f.name, name))
            if pair not in told:
                told.add(pair)
                story.append(_("L'engagement entre {a} et {b} prend fin : {why}.").format(a=_said(state), b=o, why=why))
        if kept != list(state.engaged):
            states[f.key] = _with_names(state, kept)
    # a pair ended from one side ends on the other too
    for f in fighters:
        state = states[f.key]
        kept = [n for n in state.engaged if n in by_name and f.name in states[by_name[n].key].engaged]
        if kept != list(state.engaged):
            states[f.key] = _with_names(state, kept)


def advance(fighters: tuple[Fighter, ...], clock: Clock, table: Scenario) -> Applied:
    """End of a phase. After the Aventuriers' phase comes the Maître des Ombres'; after it, the next
    turn: combat actions come back, and the figures with Attaque d'opportunité that are not engaged
    may strike at the start of the phase des Aventuriers. Engagements the board has ended end."""
    shape = table.rules.zone_shape
    states: dict[str, Figure] = {f.key: f.state for f in fighters}
    story: list[str] = []
    ending = Phase.AVENTURIERS if clock.phase is Phase.AVENTURIERS else Phase.OMBRES
    side = AVENTURIER if ending is Phase.AVENTURIERS else MONSTRE
    idle = [_said(f.state) for f in _standing(fighters) if f.kind == side and not f.state.acted]
    if clock.phase is Phase.AVENTURIERS:
        new_clock = Clock(turn=clock.turn, phase=Phase.OMBRES, opening=False)
        story.append(_("Fin de la phase des Aventuriers : place au Maître des Ombres (tour {n}).").format(n=clock.turn))
    else:
        new_clock = Clock(turn=clock.turn + 1, phase=Phase.AVENTURIERS, opening=False)
        story.append(
            _("Fin du tour {n} : le tour {next} commence par la phase des Aventuriers.").format(
                n=clock.turn, next=clock.turn + 1
            )
        )
    if idle:
        story.append(_("Sans action de combat ce tour : {names}.").format(names=_join(idle)))
    _reconcile(states, fighters, shape, story)
    for f in fighters:
        state = states[f.key]
        if state.opportunity:
            state = replace(state, opportunity=False)
        if new_clock.phase is Phase.AVENTURIERS and state.acted:
            state = replace(state, acted=False)
        states[f.key] = state
    if new_clock.phase is Phase.AVENTURIERS:
        ready = _opportunities(fighters, states, shape, story)
        new_clock = replace(new_clock, opening=bool(ready))
    before = {f.key: f.state for f in fighters}
    changed = {k: v for k, v in states.items() if v != before[k]}
    return Applied(states=changed, clock=new_clock, story=tuple(typography(line) for line in story))


def _opportunities(
    fighters: tuple[Fighter, ...], states: dict[str, Figure], shape: ZoneShape, story: list[str]
) -> list[str]:
    """« Si le personnage n'est pas engagé au début de la phase des Aventuriers, il fait une Attaque
    éclair sur un ennemi présent dans sa zone d'attaque » (Livret Aventure, p. 20)."""
    ready: list[str] = []
    standing = _standing(fighters)
    for f in standing:
        state = states[f.key]
        if not state.attaque_opportunite or state.engaged:
            continue
        enemies = [states[e.key] for e in standing if e.kind != f.kind]
        in_zone = [_said(e) for e in enemies if sees(state, e, shape)]
        unknown = not state.placed or any(not e.placed for e in enemies)
        if not in_zone and not unknown:
            continue
        states[f.key] = replace(state, opportunity=True)
        ready.append(f.name)
        who = _said(state)
        if in_zone:
            story.append(
                _(
                    "{a:S}, {a:libre|libres} de tout engagement, {a:peut|peuvent} porter une Attaque d'opportunité "
                    "({targets} dans {a:sa|leur} zone d'attaque)."
                ).format(a=who, targets=_join(in_zone))
            )
        else:
            story.append(
                _(
                    "{a:S}, {a:libre|libres} de tout engagement, {a:peut|peuvent} porter une Attaque d'opportunité "
                    "sur un ennemi dans {a:sa|leur} zone d'attaque."
                ).format(a=who)
            )
    return ready


def clock_label(clock: Clock) -> str:
    if clock.phase is Phase.OMBRES:
        return _("Tour {n} — phase du Maître des Ombres").format(n=clock.turn)
    if clock.opening:
        return _("Tour {n} — début de la phase des Aventuriers").format(n=clock.turn)
    return _("Tour {n} — phase des Aventuriers").format(n=clock.turn)


def advance_label(clock: Clock) -> str:
    if clock.phase is Phase.AVENTURIERS:
        return _("Fin de la phase des Aventuriers")
    return _("Fin du tour {n}").format(n=clock.turn)


def is_out(f: Fighter) -> bool:
    return bool(f.state.pv == 0)


def bars(f: Fighter) -> tuple[Bar, ...]:
    s: Figure = f.state
    out = [Bar("pv", _("PV"), s.pv, s.pv_max)]
    if f.kind == AVENTURIER or s.stamina or s.stamina_max:
        out.append(Bar("stamina", _("Stamina"), s.stamina, s.stamina_max, "resource"))
    if f.kind == AVENTURIER:
        out.append(Bar("px", _("PX"), s.px, 0, "resource"))
    return tuple(out)


_TALENTS = (
    ("riposte", _("Riposte")),
    ("contrecoup", _("Contrecoup")),
    ("attaque_eclair", _("Attaque éclair")),
    ("attaque_opportunite", _("Attaque d'opportunité")),
    ("coup_bas", _("Coup bas")),
)


def badges(f: Fighter, clock: Clock, table: Scenario) -> tuple[str, ...]:
    s: Figure = f.state
    if is_out(f):
        return (_("mort — retiré du plateau"),) if f.kind == MONSTRE else (_("0 PV — hors de combat"),)
    out: list[str] = []
    if f.kind == MONSTRE:
        out.append(count(s.px, _("PX")))
    if s.acted:
        out.append(_("a agi"))
    if clock.opening and s.opportunity:
        out.append(_("Attaque d'opportunité possible"))
    if s.x is not None and s.y is not None:
        out.append(_("case {x}, {y} · {facing}").format(x=s.x, y=s.y, facing=s.facing.label))
    talents = [label for key, label in _TALENTS if getattr(s, key)]
    if talents:
        out.append(", ".join(talents))
    return tuple(out)


def status(fighters: tuple[Fighter, ...], clock: Clock) -> tuple[str, ...]:
    out: list[str] = []
    monsters = [f for f in fighters if f.kind == MONSTRE]
    heroes = [f for f in fighters if f.kind == AVENTURIER]
    if monsters and all(is_out(f) for f in monsters):
        out.append(_("Tous les monstres sont retirés du plateau : le combat est gagné."))
    if heroes and all(is_out(f) for f in heroes):
        out.append(_("Plus aucun aventurier debout : le Maître des Ombres l'emporte."))
    if clock.opening:
        ready = [_said(f.state) for f in _standing(fighters) if f.state.opportunity]
        if ready:
            out.append(
                _("Début de la phase des Aventuriers : Attaque d'opportunité possible pour {names}.").format(
                    names=_join(ready)
                )
            )
    by_name = {f.name: f for f in fighters}
    known = {f.name: f.state for f in fighters}
    for f in _standing(fighters):
        a = _said(f.state)
        for name in f.state.engaged:
            other = by_name.get(name)
            b = _named(name, known)
            if other is None or is_out(other):
                out.append(
                    _(
                        "{a:S} se {a:dit|disent} {a:engagé|engagée|engagés|engagées} avec {b}, qui n'{b:est|sont} "
                        "plus en jeu : ce sera réglé à la fin de la phase."
                    ).format(a=a, b=b)
                )
            elif f.name not in other.state.engaged:
                out.append(
                    _(
                        "{a:S} se {a:dit|disent} {a:engagé|engagée|engagés|engagées} avec {b}, mais pas l'inverse : "
                        "ce sera réglé à la fin de la phase."
                    ).format(a=a, b=b)
                )
    return tuple(typography(line) for line in out)


def monster_from_preset(values: Mapping[str, Any]) -> dict[str, Any]:
    """A carte Monstre of the bestiary, as the page's preset fills a fighter, → a Monster's state."""
    data = unflatten(dict(values))
    keys = ("name", "grammar", "px", "stamina", "stamina_max", "weapon", "defence", *(k for k, _label in _TALENTS))
    out = {k: data[k] for k in keys if k in data}
    if "pv" in data:
        out["pv"] = out["pv_max"] = data["pv"]
    out["opportunity"] = bool(data.get("attaque_opportunite"))
    return out


RULES = register(
    EncounterRules(
        system="aventuriers",
        kinds=(
            Kind(AVENTURIER, _("Aventurier"), AventurierState, player=True),
            Kind(MONSTRE, _("Monstre"), MonsterState, preset_group="def_monster", from_preset=monster_from_preset),
        ),
        pages=(
            Page(
                slug="aventuriers",
                label=_("Attaque, réaction ou test de réussite"),
                roles=(
                    Role("attacker", _("Attaquant (ou qui fait le test)"), (AVENTURIER, MONSTRE)),
                    Role("defender", _("Cible"), (AVENTURIER, MONSTRE), required=False),
                ),
                fill=fill,
                apply=apply,
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
