"""What the encounter page shows: the combatants' cards (gauges, chips of lasting conditions and
their forms, the sheet), the « Agir » forms that follow the turn order, the turn order itself and
the players' link. The views (encounters/views.py) render it after every change."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.http import HttpRequest, QueryDict
from django.utils.safestring import mark_safe

from calculator import bestiary_cache, plugins
from calculator.grammar import noun_of
from encounters import services
from encounters.forms import (
    MAX_COPIES,
    DataclassForm,
    add_form,
    condition_form,
    condition_prefix,
)
from encounters.models import Combatant, Encounter
from rulesets.core import encounter as core
from rulesets.core.french import typography
from rulesets.core.registry import load_all

# --- the cards --------------------------------------------------------------------------


@dataclass
class Card:
    combatant: Combatant
    fighter: core.Fighter
    kind_label: str
    bars: list[dict[str, Any]]
    badges: tuple[str, ...]
    out: bool
    form: DataclassForm
    open: bool = False
    chips: list[dict[str, Any]] = field(default_factory=list)
    add_condition: Any = None  # the form to put a condition by hand, or None (no condition by hand)
    condition_open: bool = False


@dataclass
class ActOption:
    key: str
    name: str
    # the label of the other role that holds this combatant: offered there, not here (issue 16:
    # the wolf is no ally of itself); a script moves the mark as the game master changes roles
    taken_by: str = ""


@dataclass
class ActRole:
    role: core.Role
    options: list[ActOption]
    selected: list[str]
    error: str = ""

    @property
    def noun(self) -> str:
        """The role's label said inside a sentence: « attaquant », an acronym kept (« PJ opposé »)."""
        return typography(services.kind_noun(str(self.role.label)))


@dataclass
class ActForm:
    page: core.Page
    title: str
    roles: list[ActRole] = field(default_factory=list)


def _follow_turn(
    roles: list[ActRole], page: core.Page, order: core.TurnOrder | None, by_key: dict[str, core.Fighter]
) -> None:
    """The one acting now (the turn order, the game master's reordering included) proposed in the
    page's ``actor`` role; whoever the rules proposed there instead takes the place the new actor
    had in another role (the attacker and the defender swapped)."""
    now = order.now if order is not None else None
    fighter = by_key.get(now.key) if now is not None else None
    if fighter is None:
        return
    by_role = {r.role.key: r for r in roles}
    target = next((by_role[k] for k in page.actor if k in by_role and fighter.kind in by_role[k].role.kinds), None)
    if target is None or target.selected == [fighter.key]:
        return
    previous = target.selected[0] if target.selected else None
    target.selected = [fighter.key]
    for r in roles:
        if r is target or fighter.key not in r.selected:
            continue
        offered = {o.key for o in r.options}
        swapped = [previous if k == fighter.key else k for k in r.selected]
        r.selected = [k for k in dict.fromkeys(swapped) if k is not None and k in offered]


def _mark_taken(roles: list[ActRole]) -> None:
    """A combatant chosen in a single role (the attacker, the adversary) is marked taken in the list
    roles (defenders, allies): no one holds two roles in one exchange (``services.ERROR_SAME_TWICE``);
    two single roles that name the same combatant are left to that refusal."""
    holder: dict[str, ActRole] = {}
    for r in roles:
        if r.role.many == 1:
            for key in r.selected:
                holder.setdefault(key, r)
    for r in roles:
        if r.role.many == 1:
            continue
        for option in r.options:
            other = holder.get(option.key)
            if other is not None and option.key not in r.selected:
                option.taken_by = other.noun


def _bar(bar: core.Bar) -> dict[str, Any]:
    return {
        "bar": bar,
        "maximum": bar.maximum,
        "low_mark": str(bar.maximum / 2),
        "low": bar.maximum and bar.value * 4 <= bar.maximum,
        "over": bool(bar.maximum and bar.value > bar.maximum),
    }


def detail_context(
    request: HttpRequest,
    encounter: Encounter,
    *,
    message: str = "",
    edit: tuple[int, DataclassForm] | None = None,
    act: tuple[str, QueryDict, dict[str, str]] | None = None,
    add: Any = None,
    clock_form: DataclassForm | None = None,
    condition: tuple[int, str, Any] | None = None,
) -> dict[str, Any]:
    rules = services.rules_for(encounter)
    clock = services.clock_of(encounter)
    table = services.table_of(rules.system)
    combatants = list(encounter.combatants.filter(present=True))
    cards = []
    for c in combatants:
        f = services.fighter(c, rules)
        kind = rules.kind(c.kind)
        form = DataclassForm(kind.state_type, c.state, prefix=f"c{c.pk}")
        is_open = False
        if edit is not None and edit[0] == c.pk:
            form, is_open = edit[1], True
        cards.append(
            Card(
                combatant=c,
                fighter=f,
                kind_label=typography(kind.label),
                bars=[_bar(b) for b in rules.bars(f)],
                badges=tuple(typography(b) for b in rules.badges(f, clock, table.scenario)),
                out=rules.is_out(f),
                form=form,
                open=is_open,
                **_conditions_context(rules, c, f, clock, condition),
            )
        )
    everyone = tuple(card.fighter for card in cards)
    order = services.turn_order(encounter, everyone, table.scenario)
    acts = []
    for page in rules.pages:
        act_form = ActForm(page=page, title=typography(page.label))
        for role in page.roles:
            options = [
                ActOption(card.fighter.key, card.fighter.name) for card in cards if card.fighter.kind in role.kinds
            ]
            if act is not None and act[0] == page.slug:
                selected = [k for v in act[1].getlist(f"role.{role.key}") for k in v.split(",") if k]
                error = act[2].get(f"role.{role.key}", "")
            else:
                selected = list(core.call(page.suggest, role.key, everyone, clock, table=table)) if page.suggest else []
                error = ""
            act_form.roles.append(ActRole(role, options, selected, error))
        if act is None or act[0] != page.slug:
            _follow_turn(act_form.roles, page, order, {f.key: f for f in everyone})
        _mark_taken(act_form.roles)
        acts.append(act_form)
    players = _players_context(request, encounter, combatants, rules)
    undo = encounter.log.filter(undone=False).order_by("-seq").first()
    redo = encounter.log.filter(undone=True).order_by("seq").first()
    groups = {g.key: g for g in bestiary_cache.presets(plugins.get(rules.system))}
    return {
        "encounter": encounter,
        # the rules' texts and the messages in French typography (issue 15)
        "system_name": typography(load_all()[rules.system].name),
        "rules": rules,
        "clock_label": typography(rules.clock_label(clock)),
        "advance_label": typography(rules.advance_label(clock)),
        "status": [typography(line) for line in rules.status(everyone, clock)],
        "cards": cards,
        "acts": acts,
        "log": [(entry, services.entry_gauges(rules, entry)) for entry in encounter.log.order_by("-seq")],
        "undo": undo,
        "redo": redo,
        "message": typography(message),
        "add_form": add if add is not None else add_form(rules, groups),
        "clock_form": clock_form or DataclassForm(rules.clock_type, encounter.clock, prefix="clock"),
        "clock_open": clock_form is not None,
        "max_copies": MAX_COPIES,
        "turns": turns_context(
            order, {card.fighter.key: card.fighter for card in cards}, typography(rules.advance_label(clock))
        ),
        **players,
    }


def _conditions_context(
    rules: core.EncounterRules,
    combatant: Combatant,
    f: core.Fighter,
    clock: Any,
    bound: tuple[int, str, Any] | None,
) -> dict[str, Any]:
    """A card's chips, each with the form that changes it, and the form that puts one by hand; the
    form just refused (``bound``: combatant id, chip path, form) in its place, open."""
    if rules.conditions is None:
        return {}
    lasting = rules.conditions.lasting_for(combatant.kind)
    mine = bound if bound is not None and bound[0] == combatant.pk else None
    chips = []
    for chip in rules.conditions.chips(f, clock):
        edit = None
        if chip.lasting and any(item.key == chip.lasting for item in lasting):
            edit = condition_form(lasting, prefix=condition_prefix(combatant.pk, chip.path), chip=chip)
        is_open = mine is not None and mine[1] == chip.path
        chips.append(
            {
                "chip": chip,
                "label": typography(chip.label),
                "remaining": typography(chip.remaining),
                "lift": typography(chip.lift),
                "form": mine[2] if is_open and mine is not None else edit,
                "open": is_open,
            }
        )
    add = None
    if lasting:
        add = (
            mine[2]
            if mine is not None and not mine[1]
            else condition_form(lasting, prefix=condition_prefix(combatant.pk))
        )
    return {"chips": chips, "add_condition": add, "condition_open": mine is not None and not mine[1]}


def turns_context(
    order: core.TurnOrder | None, by_key: dict[str, core.Fighter], advance_label: str = ""
) -> dict[str, Any] | None:
    """The turn order as the page shows it: each turn with its name, who acts now and who is next,
    and the line « Ordre du tour · Round 1 : Sahar agit, puis le Sbire »."""
    if order is None:
        return None
    now, upcoming = order.now, order.next
    rows = [
        {
            "turn": t,
            "name": by_key[t.key].name if t.key in by_key else t.key,
            # inside « : X agit, puis Y », each name with its grammar (« le personnage 2 »)
            "said": noun_of(by_key[t.key].name, by_key[t.key].state).subject if t.key in by_key else t.key,
            "now": t is now,
            "next": t is upcoming,
            "first": i == 0,
            "last": i == len(order.turns) - 1,
        }
        for i, t in enumerate(order.turns)
    ]
    aside = [{"turn": t, "name": by_key[t.key].name if t.key in by_key else t.key} for t in order.aside]
    now_row = rows[order.turns.index(now)] if now is not None else None
    next_row = rows[order.turns.index(upcoming)] if upcoming is not None else None
    return {
        "rows": rows,
        "aside": aside,
        "now": now_row,
        "next": next_row,
        "heading": typography(order.heading),
        "heading_said": typography(f" · {order.heading}") if order.heading else "",
        "now_said": (
            f"\u202f: {now_row['said']} agit" if now_row else f"\u202f: tous ont agi, «\u202f{advance_label}\u202f»"
        ),
        "next_said": f", puis {next_row['said']}" if next_row else "",
        "notes": [typography(n) for n in order.notes],
    }


def _players_context(
    request: HttpRequest, encounter: Encounter, combatants: list[Combatant], rules: core.EncounterRules
) -> dict[str, Any]:
    """The « Vue des joueurs » panel: the link and its QR code, what players see of each one."""
    from encounters.models import PlayerLink
    from encounters.player import auto_visibility, link_url

    link = PlayerLink.objects.filter(encounter=encounter).first()
    if link is None:
        return {"player_link": None}
    import segno

    url = request.build_absolute_uri(link_url(link))
    qr = segno.make(url, error="m").svg_inline(scale=4, dark="#2b211c", light="#ffffff", border=2, omitsize=True)
    V = Combatant.Visibility
    rows = []
    for c in combatants:
        auto = auto_visibility(c, rules)
        options = [(v, f"{V.AUTO.label} ({auto.label})" if v == V.AUTO else str(label)) for v, label in V.choices]
        rows.append({"combatant": c, "options": options})
    # segno's own SVG: numbers and paths, the URL encoded in the modules, nothing echoed as text
    return {"player_link": link, "player_url": url, "player_qr": mark_safe(qr), "visibility_rows": rows}
