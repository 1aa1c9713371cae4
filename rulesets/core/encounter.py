"""Encounters: what a rule system adds so that a whole fight runs over several rounds.

An encounter holds combatants, each with the live state its rule system tracks (Santé and Stress,
Essence and carried malus, a Quadrature living sheet…), and a clock (the turn, the round, the
Action). A rule system plugs in with one :class:`EncounterRules`:

* ``kinds``: the sorts of combatant (PJ, PNJ…), each with the frozen dataclass of its state. The
  state is parsed with :func:`rulesets.core.schema.parse`, so a hand edit, an import and a bestiary
  preset get the same French messages as a calculator field.
* ``pages``: the calculator pages usable inside the encounter. Each names the roles its scenario
  has (``pc``, ``npcs``…), ``fill`` writes the bound combatants' states into the page's fields,
  and ``apply`` reads a resolution back into new states: the "Appliquer" button.
* ``advance``: the end of a round or turn, with the effects the rules apply then.

Everything here is pure: the Django app ``encounters`` stores states as JSON, keeps the log, the
undo/redo history and the version that protects against stale tabs.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rulesets.core.conditions import Conditions


@dataclass(frozen=True, slots=True)
class Entry:
    """A bestiary entry as the calculator page's presets carry it: the fields it fills."""

    key: str
    label: str
    values: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class Kind:
    """A sort of combatant and the dataclass of its state (its sheet and what changes in a fight)."""

    key: str
    label: str
    state_type: type[Any]
    # the key of the calculator page's bestiary preset group whose entries make this kind
    preset_group: str = ""
    # a preset's values (as the calculator page uses them) → the state's data; it may also name a
    # keyword ``entry`` (the bestiary :class:`Entry`: key, label and values)
    from_preset: Callable[..., dict[str, Any]] = dict
    # the kind a bestiary entry makes when the game master leaves « Sorte » to the bestiary and
    # several kinds share the preset group (Nephilim's PJ and PNJ: a creature is a PNJ)
    bestiary_default: bool = False
    # a player character: the players' view shows its gauges exactly unless the game master says
    # otherwise (anyone else's state in words: issue 16)
    player: bool = False


@dataclass(frozen=True, slots=True)
class Fighter:
    """A combatant as the rules see it: a key (stable inside the encounter), a name, a state."""

    key: str
    name: str
    kind: str
    state: Any


Bindings = Mapping[str, tuple[Fighter, ...]]


@dataclass(frozen=True, slots=True)
class Table:
    """What the table has set up for a rule system: its main page's default scenario (the engine's
    defaults with the table settings) and its bestiary entries, group by preset group. A plug-in
    reads a table row from here (a shooting approach, a defence type) rather than writing it."""

    scenario: Any
    entries: Mapping[str, tuple[Entry, ...]] = field(default_factory=dict)

    def group(self, key: str) -> tuple[Entry, ...]:
        return tuple(self.entries.get(key, ()))


@dataclass(frozen=True, slots=True)
class Role:
    """A place of a calculator scenario that combatants fill: ``pc``, ``npcs`` (a list), ``attacker``."""

    key: str
    label: str
    kinds: tuple[str, ...]
    many: int = 1  # how many combatants at most (a list of the scenario)
    required: bool = True


@dataclass(frozen=True, slots=True)
class Applied:
    """What an action did: the new state of each combatant it changed, the new clock, the story.

    ``states`` maps a fighter key to its whole new state (a dataclass instance of its kind), so
    that undo restores exactly what was there, clamped values and absorbed damage included.
    ``story`` is told to the table; ``notes`` are technical lines beyond the state differences
    (which the encounter writes itself from the before/after states).
    """

    states: Mapping[str, Any] = field(default_factory=dict)
    clock: Any | None = None
    story: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Page:
    """A calculator page (a registered ruleset slug) usable inside an encounter.

    ``fill`` and ``suggest`` may also take a keyword ``table`` (:class:`Table`), and ``fill`` and
    ``apply`` a keyword ``everyone`` (every combatant present, bound or not: the Féerie exchange
    reads the Action's highest Initiative from it): the encounter passes them to a function that
    names them (:func:`call`).
    """

    slug: str
    label: str
    roles: tuple[Role, ...]
    # the bound fighters → flat calculator field values (``pc.sante`` …)
    fill: Callable[..., dict[str, Any]]
    # the resolved scenario and its result → the consequences for the bound fighters
    apply: Callable[..., Applied]
    # which fighters a role proposes first (fighter keys), given everyone and the clock
    suggest: Callable[..., tuple[str, ...]] | None = None
    # the cast as a whole, checked before the calculator opens and again on « Appliquer »:
    # bindings → {role key: French message}, empty when this cast can play the page (issue 16:
    # two defenders for a weapon that strikes one, an action with no one to act against)
    check: Callable[[Bindings], Mapping[str, str]] | None = None
    # the roles in the order the exchange runs, for the log's title (« Ysolde contre le loup » when
    # the PC strikes): the resolved scenario → role keys; None, the roles' own order
    order: Callable[[Any], tuple[str, ...]] | None = None
    # the roles the one acting now (the turn order's) takes, the first whose kinds fit: the page
    # proposes them there, as the turn order says, the game master's reordering included
    actor: tuple[str, ...] = ()

    def role(self, key: str) -> Role:
        return next(r for r in self.roles if r.key == key)


@dataclass(frozen=True, slots=True)
class Bar:
    """A gauge of a combatant's state (Santé 5/8), with the state field it reads."""

    field: str
    label: str
    value: int
    maximum: int
    tone: str = "health"  # health / stress / resource / danger


@dataclass(frozen=True, slots=True)
class Turn:
    """A place in the turn order: a fighter's key, what ranks it there (« initiative 14 », « rang
    17 », « Frappe vive : initiative 3 »), and whether it has acted already (this round, turn or
    Action)."""

    key: str
    detail: str = ""
    done: bool = False


@dataclass(frozen=True, slots=True)
class TurnOrder:
    """Who acts, in order, as the rules give it (issue 16): the encounter page and the players'
    view show it, the one acting now first among those not done, and the game master may reorder
    by hand (the encounter keeps that order over the rules' while the same combatants are in it).

    ``aside``: combatants with no turn of their own, and what they have instead (enCORE's NPCs and
    their attacks per turn); ``heading``: the phase or rank now (« Phase des Aventuriers »);
    ``notes``: what the table should know about this order (« les joueurs choisissent l'ordre »)."""

    turns: tuple[Turn, ...] = ()
    aside: tuple[Turn, ...] = ()
    heading: str = ""
    notes: tuple[str, ...] = ()

    def reordered(self, keys: Sequence[str]) -> TurnOrder:
        """The game master's order ``keys`` over the rules': the turns it names in its order,
        then the others in the rules' order."""
        by_key = {t.key: t for t in self.turns}
        first = [by_key[k] for k in dict.fromkeys(keys) if k in by_key]
        rest = [t for t in self.turns if t not in first]
        return replace(self, turns=(*first, *rest))

    @property
    def now(self) -> Turn | None:
        """The one acting now: the first not done."""
        return next((t for t in self.turns if not t.done), None)

    @property
    def next(self) -> Turn | None:
        """Who comes after the one acting now."""
        waiting = [t for t in self.turns if not t.done]
        return waiting[1] if len(waiting) > 1 else None


@dataclass(frozen=True, slots=True)
class EncounterRules:
    system: str  # the rule system's package slug ("encore"); its pages are that slug and "slug-*"
    kinds: tuple[Kind, ...]
    pages: tuple[Page, ...]
    clock_type: type[Any]
    clock_label: Callable[[Any], str]
    advance_label: Callable[[Any], str]
    # the end of a round/turn: (everyone, clock, the table's default scenario) → what changes
    advance: Callable[[tuple[Fighter, ...], Any, Any], Applied]
    bars: Callable[[Fighter], tuple[Bar, ...]]
    # short labels beside a combatant (tier, « a agi »…): (fighter, clock, table's default scenario)
    badges: Callable[[Fighter, Any, Any], tuple[str, ...]] = lambda f, clock, table: ()
    is_out: Callable[[Fighter], bool] = lambda f: False
    # notices about the whole fight (« plus aucun PNJ ne peut riposter »)
    status: Callable[[tuple[Fighter, ...], Any], tuple[str, ...]] = lambda fighters, clock: ()
    # a gauge's −/+ step the rule system makes itself (a box ticked on the right block): the new
    # state, or None for the plain step (the field ±1); refuses with ScenarioError
    adjust: Callable[[Fighter, str, int], Any | None] | None = None
    # the state a new combatant starts with when the game master only gives a kind and a name
    blank: Callable[[str, str], dict[str, Any]] = lambda kind, name: {"name": name}
    # the turn order: (everyone present, clock, the table's default scenario) → TurnOrder
    turns: Callable[[tuple[Fighter, ...], Any, Any], TurnOrder] | None = None
    # the lasting conditions as chips, put and lifted by hand (rulesets/core/conditions.py)
    conditions: Conditions | None = None

    def kind(self, key: str) -> Kind:
        return next(k for k in self.kinds if k.key == key)

    def bestiary_kinds(self, group: str) -> tuple[Kind, ...]:
        """The kinds an entry of the preset group ``group`` can make, the default one first."""
        able = [k for k in self.kinds if group and k.preset_group == group]
        return tuple(sorted(able, key=lambda k: not k.bestiary_default))

    def bestiary_kind(self, group: str) -> Kind | None:
        """The kind an entry of ``group`` makes when « Sorte » is left to the bestiary: the only
        one, or the one marked ``bestiary_default``; None when the game master must choose."""
        able = self.bestiary_kinds(group)
        if len(able) == 1 or (able and able[0].bestiary_default):
            return able[0]
        return None

    def page(self, slug: str) -> Page:
        return next(p for p in self.pages if p.slug == slug)


_ENCOUNTERS: dict[str, EncounterRules] = {}


def register(rules: EncounterRules) -> EncounterRules:
    existing = _ENCOUNTERS.get(rules.system)
    if existing is not None and existing is not rules:
        raise ValueError(f"encounter rules {rules.system!r} registered twice")
    _ENCOUNTERS[rules.system] = rules
    return rules


def all_rules() -> dict[str, EncounterRules]:
    """Every rule system that runs encounters (the rulesets register on import)."""
    from rulesets.core.registry import load_all

    load_all()
    return dict(sorted(_ENCOUNTERS.items()))


def get(system: str) -> EncounterRules:
    return all_rules()[system]


def call(fn: Callable[..., Any], *args: Any, **optional: Any) -> Any:
    """``fn(*args)``, with those of ``optional`` that ``fn`` names as parameters."""
    names = _parameters(fn)
    return fn(*args, **{k: v for k, v in optional.items() if k in names})


_PARAMETERS: dict[Callable[..., Any], frozenset[str]] = {}


def _parameters(fn: Callable[..., Any]) -> frozenset[str]:
    names = _PARAMETERS.get(fn)
    if names is None:
        import inspect

        names = _PARAMETERS[fn] = frozenset(inspect.signature(fn).parameters)
    return names


def fill_over(page: Mapping[str, Any], filled: Mapping[str, Any]) -> dict[str, Any]:
    """A page's flat fields with ``fill``'s written over them. A list that ``fill`` writes rows of,
    at any depth (``npcs``, ``adversary.blocks``), replaces the page's default rows of that list:
    it never merges with them."""
    lists = list_prefixes(filled)
    out = {k: v for k, v in page.items() if not any(_in_row(k, p) for p in lists)}
    out.update(filled)
    return out


def list_prefixes(flat: Mapping[str, Any]) -> set[str]:
    """The lists a flat mapping writes rows of: ``npcs.0.name`` → ``npcs``, ``adversary.blocks.2.ticked``
    → ``adversary.blocks`` (and ``adversary`` is no list)."""
    out: set[str] = set()
    for key in flat:
        parts = key.split(".")
        out.update(".".join(parts[:i]) for i, part in enumerate(parts) if i and part.isdigit())
    return out


def _in_row(key: str, prefix: str) -> bool:
    return key.startswith(prefix + ".") and key[len(prefix) + 1 :].split(".", 1)[0].isdigit()


def rows(prefix: str, values: Mapping[str, Any]) -> dict[str, Any]:
    """``rows("npcs.0", {"name": "x"})`` → ``{"npcs.0.name": "x"}``: a state's fields as page fields."""
    return {f"{prefix}.{k}": v for k, v in values.items()}
