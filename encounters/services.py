"""Encounter changes: every one goes through :func:`commit`, which checks the version the game
master's form was drawn from, writes the new states and logs the change with the whole before and
after of each combatant touched (the undo/redo history)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import F, Max
from django.utils import timezone

from calculator import services as calc_services
from calculator import short_links
from calculator.forms import list_item
from calculator.grammar import noun_of
from calculator.views import page_path, permalink
from encounters.models import Combatant, Encounter, LogEntry
from rulesets.core import encounter as core
from rulesets.core.french import Article, Gender, capitalize, count, join, parenthesize, signed, typography
from rulesets.core.registry import load_all
from rulesets.core.request import Resolution
from rulesets.core.schema import (
    ID_DIGITS,
    ScenarioError,
    ascii_number,
    fields_of,
    flatten,
    parse,
    parse_index,
    to_data,
    unflatten,
)

ERROR_STALE = (
    "Cette rencontre a changé entre-temps (dans un autre onglet\u202f?)\u202f: voici son état à jour. "
    "Votre action n'a pas été appliquée\u202f; refaites-la si elle vaut toujours."
)
ERROR_NOTHING_TO_UNDO = "Il n'y a rien à annuler."
ERROR_NOTHING_TO_REDO = "Il n'y a rien à rétablir."
ERROR_UNKNOWN_SYSTEM = "Système de règles inconnu pour une rencontre."
ERROR_UNKNOWN_KIND = "Sorte de combattant inconnue."
ERROR_UNKNOWN_PAGE = "Ce calculateur ne sert pas dans cette rencontre."
ERROR_UNKNOWN_COMBATANT = "Ce combattant n'est pas dans la rencontre."
ERROR_WRONG_KIND = "{role}\u202f: {name} ne peut pas tenir ce rôle."
ERROR_TOO_MANY = "{role}\u202f: au plus {n}."  # n: count(n, "combattant")
ERROR_ROLE_REQUIRED = "{role}\u202f: choisissez un combattant."
ERROR_SAME_TWICE = "{name} ne peut tenir deux rôles dans le même échange."
ERROR_NAME_REQUIRED = "Donnez un nom à la rencontre."
ERROR_NAME_TOO_LONG = "Nom\u202f: 120\u00a0caractères au plus."
ERROR_UNKNOWN_FIELD = "Cette jauge n'existe pas pour ce combattant."
ERROR_NO_PRESET = "Choisissez une entrée du bestiaire."
ERROR_NUL = "Caractère nul interdit dans un texte."


class StaleEncounter(Exception):
    """The form was drawn from an older version of the encounter."""


class NothingToDo(Exception):
    pass


# --- reading -----------------------------------------------------------------------------------


def rules_for(encounter: Encounter) -> core.EncounterRules:
    return core.get(encounter.system)


def fighter(combatant: Combatant, rules: core.EncounterRules) -> core.Fighter:
    kind = rules.kind(combatant.kind)
    return core.Fighter(combatant.key, combatant.name, combatant.kind, parse(kind.state_type, combatant.state))


def fighters(encounter: Encounter, combatants: Iterable[Combatant] | None = None) -> tuple[core.Fighter, ...]:
    rules = rules_for(encounter)
    rows = combatants if combatants is not None else encounter.combatants.filter(present=True)
    return tuple(fighter(c, rules) for c in rows)


def clock_of(encounter: Encounter) -> Any:
    return parse(rules_for(encounter).clock_type, encounter.clock)


def table_scenario(system: str) -> Any:
    """The system's main calculator scenario with the table's settings (tiers, faces…)."""
    ruleset = load_all()[system]
    return parse(ruleset.scenario_type, calc_services.ruleset_defaults(ruleset=ruleset))


def table_of(system: str) -> core.Table:
    """The table's settings and its bestiary entries (the main page's preset groups)."""
    from calculator import bestiary_cache, plugins

    groups = bestiary_cache.presets(plugins.get(system))
    return core.Table(
        scenario=table_scenario(system),
        entries={g.key: tuple(core.Entry(p.key, p.label, p.values) for p in g.presets) for g in groups},
    )


# --- labels of state fields ----------------------------------------------------------------------


def field_label(state_type: type, path: str) -> str:
    """``blocks.2.ticked`` → « Blocs de capacité n° 3 · Cases cochées »: the Spec labels along a path."""
    labels: list[str] = []
    node: Any = state_type
    parts = path.split(".")
    i = 0
    while i < len(parts):
        info = next((f for f in fields_of(node) if f.name == parts[i]), None) if isinstance(node, type) else None
        if info is None:
            labels.append(parts[i])
            break
        label = info.spec.label
        item = list_item(info.type)
        row = parse_index(parts[i + 1]) if item is not None and i + 1 < len(parts) else None
        if row is not None:
            label = f"{label} n° {row + 1}"
            i += 1
            node = item
        else:
            node = info.type
        labels.append(label)
        i += 1
    return " · ".join(labels)


def show_value(value: Any) -> str:
    if value is True:
        return "oui"
    if value is False:
        return "non"
    if value is None or value == "":
        return "—"
    return str(value)


def diff_lines(state_type: type, name: str, before: Mapping[str, Any] | None, after: Mapping[str, Any]) -> list[str]:
    """« Aldric — Santé : 8 → 7 », one line per field that changed (French spacing, issue 15)."""
    old = flatten(dict(before or {}))
    new = flatten(dict(after))
    lines = []
    for path in sorted(set(old) | set(new), key=lambda p: (list(new).index(p) if p in new else len(new), p)):
        if old.get(path) != new.get(path):
            lines.append(
                typography(
                    f"{name} — {field_label(state_type, path)} : {show_value(old.get(path))} → {show_value(new.get(path))}"
                )
            )
    return lines


# --- the gauges a change moved ----------------------------------------------------------------------

GAUGE_KEYS = {"name": str, "label": str, "before": int, "after": int, "maximum": int, "tone": str}


def gauge_changes(rules: core.EncounterRules, changes: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The gauges (Santé, PV, Essence…) each change moved, before → after, for the log entry to show
    beside its story (issue 16): ``{"name", "label", "before", "after", "maximum", "tone"}``."""
    out: list[dict[str, Any]] = []
    for change in changes:
        sides = [change.get("before") or {}, change.get("after") or {}]
        if not all(side.get("present") and isinstance(side.get("state"), Mapping) for side in sides):
            continue
        try:
            kind = rules.kind(str(change.get("kind", "")))
            old, new = (
                core.Fighter("", str(change.get("name", "")), kind.key, parse(kind.state_type, side["state"]))
                for side in sides
            )
        except (StopIteration, ScenarioError):
            continue
        before = {bar.field: bar for bar in rules.bars(old)}
        for bar in rules.bars(new):
            was = before.get(bar.field)
            if was is not None and was.value != bar.value:
                out.append(
                    {
                        "combatant": change.get("combatant"),
                        "name": new.name,
                        "label": typography(bar.label),
                        "before": was.value,
                        "after": bar.value,
                        "maximum": bar.maximum,
                        "tone": bar.tone,
                    }
                )
    return out


def entry_gauges(rules: core.EncounterRules, entry: LogEntry) -> list[dict[str, Any]]:
    """The gauges an entry moved: as written when it was logged, else (an entry logged before
    issue 16, or an imported one whose list is malformed) worked out again from its changes."""
    stored = entry.detail.get("gauges")
    if isinstance(stored, list) and all(
        isinstance(g, Mapping) and all(type(g.get(k)) is t for k, t in GAUGE_KEYS.items()) for g in stored
    ):
        return [dict(g) for g in stored]
    return gauge_changes(rules, entry.changes)


# --- the one way to change an encounter ------------------------------------------------------------


@dataclass
class Update:
    combatant: Combatant
    state: dict[str, Any]
    present: bool = True


def _bump(encounter: Encounter, version: int) -> None:
    """Take the new version, or refuse: another change landed since the form was drawn."""
    done = Encounter.objects.filter(pk=encounter.pk, version=version).update(
        version=F("version") + 1, updated_at=timezone.now()
    )
    if not done:
        raise StaleEncounter(ERROR_STALE)
    encounter.version = version + 1


def _parse_version(version: Any) -> int:
    """The version a form was drawn from: an int, or ASCII digits that fit the column (a made-up
    20-digit version would overflow it: a 500); anything else is a stale form."""
    parsed = ascii_number(str(version).strip(), ID_DIGITS)
    if parsed is None:
        raise StaleEncounter(ERROR_STALE)
    return parsed


def commit(
    *,
    encounter: Encounter,
    version: Any,
    action: str,
    title: str,
    updates: list[Update],
    clock: Any | None = None,
    story: Iterable[str] = (),
    notes: Iterable[str] = (),
    detail: Mapping[str, Any] | None = None,
) -> LogEntry:
    rules = rules_for(encounter)
    with transaction.atomic():
        _bump(encounter, _parse_version(version))
        encounter.log.filter(undone=True).delete()
        label = rules.clock_label(clock_of(encounter))
        clock_before = dict(encounter.clock)
        changes: list[dict[str, Any]] = []
        lines: list[str] = []
        for u in updates:
            c = u.combatant
            is_new = c.pk is None
            kind = rules.kind(c.kind)
            c_before = None if is_new else _normal(kind.state_type, c.state)
            before = {"present": False if is_new else c.present, "state": c_before}
            c.state = u.state
            c.present = u.present
            c.name = str(u.state.get("name") or c.name)
            if is_new:
                c.encounter = encounter
                c.position = (encounter.combatants.aggregate(m=Max("position"))["m"] or 0) + 1
            c.save()
            after = {"present": c.present, "state": c.state}
            if before == after:
                continue
            changes.append({"combatant": c.pk, "name": c.name, "kind": c.kind, "before": before, "after": after})
            if before["present"] and after["present"]:
                lines += diff_lines(kind.state_type, c.name, c_before, c.state)
        if clock is not None:
            encounter.clock = to_data(clock)
            encounter.save(update_fields=["clock"])
            lines += diff_lines(rules.clock_type, "Rencontre", clock_before, encounter.clock)
        lines += list(notes)
        detail = {**(detail or {}), "gauges": gauge_changes(rules, changes)}
        seq = (encounter.log.aggregate(m=Max("seq"))["m"] or 0) + 1
        _published(encounter)
        # every text of the log in French typography, the rules' own included (issue 15)
        return LogEntry.objects.create(
            encounter=encounter,
            seq=seq,
            action=action,
            title=typography(title),
            clock_label=typography(label),
            story=[typography(paragraph) for paragraph in story],
            lines=[typography(line) for line in lines],
            changes=changes,
            clock_before=clock_before,
            clock_after=dict(encounter.clock),
            detail=detail,
        )


def _published(encounter: Encounter) -> None:
    """Once the change is saved, the players' view redraws (encounters/player.py)."""
    from encounters import player

    player.on_commit(encounter.pk)


def _normal(state_type: type, state: Mapping[str, Any]) -> dict[str, Any]:
    """A stored state with every field spelled out (defaults included), for a faithful diff."""
    try:
        data: dict[str, Any] = to_data(parse(state_type, state))
    except ScenarioError:
        return dict(state)
    return data


# --- creating, adding, editing ------------------------------------------------------------------


def encounter_create(*, owner: Any, system: str, name: str, clock: Mapping[str, Any] | None = None) -> Encounter:
    rules = core.all_rules().get(system)
    if rules is None:
        raise ScenarioError({"system": ERROR_UNKNOWN_SYSTEM})
    name = (name or "").strip()
    if not name:
        raise ScenarioError({"name": ERROR_NAME_REQUIRED})
    if len(name) > 120:
        raise ScenarioError({"name": ERROR_NAME_TOO_LONG})
    if "\x00" in name:  # PostgreSQL refuses it (issue 17, finding 4)
        raise ScenarioError({"name": ERROR_NUL})
    parsed = parse(rules.clock_type, dict(clock or {}))
    return Encounter.objects.create(owner=owner, system=system, name=name, clock=to_data(parsed))


def state_parse(rules: core.EncounterRules, kind: str, data: Mapping[str, Any]) -> dict[str, Any]:
    """A combatant's state, validated by its dataclass (French message per field), as JSON."""
    try:
        k = rules.kind(kind)
    except StopIteration:
        raise ScenarioError({"kind": ERROR_UNKNOWN_KIND}) from None
    result: dict[str, Any] = to_data(parse(k.state_type, data))
    return result


def combatants_add(
    *, encounter: Encounter, version: Any, kind: str, states: Sequence[Mapping[str, Any]]
) -> list[Combatant]:
    """Combatants of one kind join (one log entry, one undo), each state checked by its dataclass."""
    rules = rules_for(encounter)
    data = [state_parse(rules, kind, state) for state in states]
    label = rules.kind(kind).label
    combatants = [Combatant(kind=kind, name=str(d.get("name") or kind_noun(label))) for d in data]
    nouns = [noun_of(c.name, d) for c, d in zip(combatants, data, strict=True)]
    verb = "rejoignent" if len(combatants) > 1 or any(n.plural for n in nouns) else "rejoint"
    # the kind in parentheses, unless the names already say it (« le personnage 1 et le personnage 2 »)
    said = "" if all(c.name.lower().startswith(label.lower()) for c in combatants) else f" {parenthesize(label)}"
    commit(
        encounter=encounter,
        version=version,
        action=LogEntry.Action.ADD,
        title=capitalize(f"{join([n.subject for n in nouns])} {verb} la rencontre{said}"),
        updates=[Update(c, d) for c, d in zip(combatants, data, strict=True)],
    )
    return combatants


def combatants_join(
    *, encounter: Encounter, version: Any, kind: str, entry: core.Entry | None, name: str, count: int
) -> list[Combatant]:
    """« Ajouter »: ``count`` combatants of ``kind``, from a bestiary ``entry`` or blank, named
    ``name`` (else the entry's name, else the kind's label), numbered when there are several."""
    rules = rules_for(encounter)
    if kind not in {k.key for k in rules.kinds}:
        raise ScenarioError({"kind": ERROR_UNKNOWN_KIND})
    state = preset_state(rules=rules, kind=kind, entry=entry) if entry is not None else None
    unnamed = not name and not (state or {}).get("name")
    base = name or str((state or {}).get("name") or kind_noun(rules.kind(kind).label))
    labels = [f"{base} {i + 1}" if count > 1 else base for i in range(count)]
    states = [{**state, "name": label} if state is not None else rules.blank(kind, label) for label in labels]
    if unnamed:  # named after its kind: a common noun, « le personnage 1 », « l'adversaire »
        states = [_as_common_noun(rules.kind(kind).state_type, s) for s in states]
    return combatants_add(encounter=encounter, version=version, kind=kind, states=states)


def kind_noun(label: str) -> str:
    """A kind's label as a combatant's name, a common noun said with its article (issue 15):
    « Personnage » → « personnage » (« le personnage 1 »); an acronym stays (« le PNJ 2 »)."""
    first = label.split(" ", 1)[0]
    if len(first) > 1 and first.isupper():
        return label
    return label[:1].lower() + label[1:]


def _as_common_noun(state_type: type, state: Mapping[str, Any]) -> dict[str, Any]:
    """A blank state whose name is its kind's: said with « le, la, l' » (the rules' blank keeps a
    grammar it gives), when the state has a name grammar."""
    out = dict(state)
    if any(f.name == "grammar" for f in fields_of(state_type)) and not out.get("grammar"):
        out["grammar"] = {"article": Article.DEFINITE.value, "gender": Gender.MASCULINE.value, "elision": "auto"}
    return out


def preset_state(*, rules: core.EncounterRules, kind: str, entry: core.Entry) -> dict[str, Any]:
    """A bestiary entry (its values as the calculator page uses them) as a state of ``kind``; a
    ``from_preset`` that names ``entry`` also gets the entry's key and label."""
    try:
        k = rules.kind(kind)
    except StopIteration:
        raise ScenarioError({"kind": ERROR_UNKNOWN_KIND}) from None
    data: dict[str, Any] = core.call(k.from_preset, entry.values, entry=entry)
    return data


def combatant_update(*, encounter: Encounter, version: Any, combatant: Combatant, state: Mapping[str, Any]) -> None:
    rules = rules_for(encounter)
    data = state_parse(rules, combatant.kind, state)
    commit(
        encounter=encounter,
        version=version,
        action=LogEntry.Action.EDIT,
        title=f"{data.get('name') or combatant.name}\u202f: fiche modifiée à la main",
        updates=[Update(combatant, data)],
    )


def combatant_adjust(*, encounter: Encounter, version: Any, combatant: Combatant, field: str, delta: int) -> None:
    """The −/+ buttons of a gauge: one step, refused (never clamped) beyond the field's bounds."""
    rules = rules_for(encounter)
    current = fighter(combatant, rules)
    if field not in {b.field for b in rules.bars(current)}:
        raise ScenarioError({"field": ERROR_UNKNOWN_FIELD})
    stepped = rules.adjust(current, field, delta) if rules.adjust is not None else None
    if stepped is not None:
        state = state_parse(rules, combatant.kind, to_data(stepped))
    else:
        data = dict(combatant.state)
        value = data.get(field)
        if value is None:  # « vide : autant que sa Menace » and the like: start from what the gauge shows
            value = next(b.value for b in rules.bars(current) if b.field == field)
        data[field] = int(value) + delta
        state = state_parse(rules, combatant.kind, data)
    label = field_label(rules.kind(combatant.kind).state_type, field)
    commit(
        encounter=encounter,
        version=version,
        action=LogEntry.Action.ADJUST,
        title=f"{combatant.name}\u202f: {label} {signed(delta)}",
        updates=[Update(combatant, state)],
    )


def encounter_clock_set(*, encounter: Encounter, version: Any, clock: Mapping[str, Any]) -> LogEntry:
    rules = rules_for(encounter)
    parsed = parse(rules.clock_type, clock)
    return commit(
        encounter=encounter,
        version=version,
        action=LogEntry.Action.EDIT,
        title=f"Réglé à la main\u202f: {rules.clock_label(parsed)}",
        updates=[],
        clock=parsed,
    )


def combatant_remove(*, encounter: Encounter, version: Any, combatant: Combatant) -> None:
    commit(
        encounter=encounter,
        version=version,
        action=LogEntry.Action.REMOVE,
        title=f"{noun_of(combatant.name, combatant.state).Subject} quitte la rencontre",
        updates=[Update(combatant, dict(combatant.state), present=False)],
    )


# --- Appliquer, tour suivant -----------------------------------------------------------------------


def bindings_parse(
    encounter: Encounter, page: core.Page, roles: Mapping[str, Iterable[str]]
) -> dict[str, tuple[core.Fighter, ...]]:
    """Role → fighters, checked: each combatant present here, of a kind the role takes, once."""
    rules = rules_for(encounter)
    by_key = {c.key: c for c in encounter.combatants.filter(present=True)}
    errors: dict[str, str] = {}
    out: dict[str, tuple[core.Fighter, ...]] = {}
    seen: set[str] = set()
    for role in page.roles:
        keys = [k for k in roles.get(role.key, ()) if k]
        chosen: list[core.Fighter] = []
        for key in keys:
            c = by_key.get(key)
            if c is None:
                errors[f"role.{role.key}"] = ERROR_UNKNOWN_COMBATANT
                break
            if c.kind not in role.kinds:
                errors[f"role.{role.key}"] = ERROR_WRONG_KIND.format(role=role.label, name=c.name)
                break
            if key in seen:
                errors[f"role.{role.key}"] = ERROR_SAME_TWICE.format(name=c.name)
                break
            seen.add(key)
            chosen.append(fighter(c, rules))
        if len(keys) > role.many:
            errors[f"role.{role.key}"] = ERROR_TOO_MANY.format(role=role.label, n=count(role.many, "combattant"))
        if role.required and not keys and f"role.{role.key}" not in errors:
            errors[f"role.{role.key}"] = ERROR_ROLE_REQUIRED.format(role=role.label)
        if chosen:
            out[role.key] = tuple(chosen)
    if not errors and page.check is not None:
        errors = {f"role.{key}": message for key, message in page.check(out).items()}
    if errors:
        raise ScenarioError(errors)
    return out


def page_of(encounter: Encounter, slug: str) -> core.Page:
    try:
        return rules_for(encounter).page(slug)
    except StopIteration:
        raise ScenarioError({"page": ERROR_UNKNOWN_PAGE}) from None


def calculator_url(*, encounter: Encounter, page: core.Page, bindings: Mapping[str, tuple[core.Fighter, ...]]) -> str:
    """The calculator page filled from the bound combatants, carrying the encounter's context."""
    from calculator.forms import permalink_query

    ruleset = load_all()[page.slug]
    defaults = calc_services.ruleset_defaults(ruleset=ruleset)
    flat = flatten(defaults)
    hidden = _hidden(page.slug)
    flat = {k: v for k, v in flat.items() if not any(k == h or k.startswith(h + ".") for h in hidden)}
    filled = core.call(
        page.fill,
        bindings,
        clock_of(encounter),
        table=table_of(rules_for(encounter).system),
        everyone=fighters(encounter),
    )
    flat = core.fill_over(flat, filled)
    query = permalink_query({"scenario": unflatten(flat), "dice": {}}, None)
    query.update(context_query(encounter, bindings))
    return f"{page_path(page.slug)}?{query.urlencode()}"


def context_query(encounter: Encounter, bindings: Mapping[str, Iterable[Any]]) -> dict[str, str]:
    """The hidden fields that keep a calculator page inside its encounter."""
    out = {"_enc": str(encounter.pk), "_enc_v": str(encounter.version)}
    for role, fs in bindings.items():
        keys = [f.key if isinstance(f, core.Fighter) else str(f) for f in fs]
        if keys:
            out[f"_role.{role}"] = ",".join(keys)
    return out


def _hidden(slug: str) -> tuple[str, ...]:
    from calculator import plugins

    return plugins.get(slug).hidden


def encounter_apply(
    *, encounter: Encounter, version: Any, page_slug: str, query: str, roles: Mapping[str, Iterable[str]]
) -> LogEntry:
    """ "Appliquer": resolve the result's permalink again and write its consequences."""
    if "\x00" in query:  # the query is kept in the log (PostgreSQL refuses a NUL in it)
        raise ScenarioError({"q": ERROR_NUL})
    page = page_of(encounter, page_slug)
    bindings = bindings_parse(encounter, page, roles)
    ruleset = load_all()[page.slug]
    resolution = calc_services.resolution_from_query(ruleset=ruleset, query=query)
    applied = core.call(
        page.apply, resolution.scenario, resolution.result, bindings, clock_of(encounter), everyone=fighters(encounter)
    )
    return commit(
        encounter=encounter,
        version=version,
        action=LogEntry.Action.APPLY,
        title=_apply_title(page, bindings, resolution),
        updates=_updates(encounter, applied),
        clock=applied.clock,
        story=(*resolution.narrative.story, *applied.story),
        notes=(_dice_line(resolution), *applied.notes),
        detail={
            "page": page.slug,
            "query": query,
            "permalink": short_links.fit(permalink(ruleset, resolution, _hidden(page.slug))),
            "outcome": resolution.result.outcome,
            "outcome_label": resolution.result.outcome_label,
            "seed": resolution.dice.seed,
            "roles": {role: [f.key for f in fs] for role, fs in bindings.items()},
        },
    )


def _apply_title(page: core.Page, bindings: Mapping[str, tuple[core.Fighter, ...]], res: Resolution) -> str:
    """« Aldric contre l'Arbalétrier : Réussite partielle »: each name with its grammar (issue 15),
    who acts first (the page's ``order``: « Ysolde contre le loup » when she strikes, issue 16)."""
    order = page.order(res.scenario) if page.order is not None else ()
    roles = [*order, *(r.key for r in page.roles if r.key not in order)]
    groups = [join([noun_of(f.name, f.state).subject for f in bindings[r]]) for r in roles if bindings.get(r)]
    who = capitalize(" contre ".join(groups[:2])) if groups else page.label
    return f"{who}\u202f: {res.result.outcome_label}"


def _dice_line(res: Resolution) -> str:
    values = " ".join(
        f"{res.dice[s.key]}{'' if res.dice.was_typed(s.key) else '*'}"
        for s in res.spec.slots
        if s.key in res.dice.values
    )
    return f"Dés\u202f: {values or '—'} (graine {res.dice.seed}\u202f; *\u202f: lancé par le serveur)"


def _updates(encounter: Encounter, applied: core.Applied) -> list[Update]:
    by_key = {c.key: c for c in encounter.combatants.filter(present=True)}
    return [Update(by_key[key], to_data(state)) for key, state in applied.states.items() if key in by_key]


def encounter_advance(*, encounter: Encounter, version: Any) -> LogEntry:
    rules = rules_for(encounter)
    clock = clock_of(encounter)
    applied = rules.advance(fighters(encounter), clock, table_scenario(rules.system))
    return commit(
        encounter=encounter,
        version=version,
        action=LogEntry.Action.ADVANCE,
        title=rules.advance_label(clock),
        updates=_updates(encounter, applied),
        clock=applied.clock,
        story=applied.story,
        notes=applied.notes,
    )


# --- undo / redo -----------------------------------------------------------------------------------


def _restore(encounter: Encounter, entry: LogEntry, side: str) -> None:
    by_pk = {c.pk: c for c in encounter.combatants.all()}
    for change in entry.changes:
        c = by_pk.get(change["combatant"])
        if c is None:
            continue
        c.state = change[side]["state"] if change[side]["state"] is not None else c.state
        c.present = change[side]["present"]
        c.name = str(c.state.get("name") or c.name)
        c.save()
    encounter.clock = entry.clock_before if side == "before" else entry.clock_after
    encounter.save(update_fields=["clock"])


def _step(encounter: Encounter, version: Any, *, back: bool) -> LogEntry:
    """Undo the last change still done (``back``), or redo the first one undone: the log's undone
    entries are its tail, so both ends meet there."""
    with transaction.atomic():
        _bump(encounter, _parse_version(version))
        entries = encounter.log.filter(undone=not back)
        entry = entries.order_by("-seq" if back else "seq").first()
        if entry is None:
            raise NothingToDo(ERROR_NOTHING_TO_UNDO if back else ERROR_NOTHING_TO_REDO)
        _restore(encounter, entry, "before" if back else "after")
        entry.undone = back
        entry.save(update_fields=["undone"])
        _published(encounter)
        return entry


def encounter_undo(*, encounter: Encounter, version: Any) -> LogEntry:
    return _step(encounter, version, back=True)


def encounter_redo(*, encounter: Encounter, version: Any) -> LogEntry:
    return _step(encounter, version, back=False)


# --- the turn order ----------------------------------------------------------------------------------

ERROR_BAD_MOVE = "Ordre du tour\u202f: ce combattant n'y est pas, ou ne peut aller plus loin."


def turn_order(
    encounter: Encounter, everyone: tuple[core.Fighter, ...] | None = None, table: Any = None
) -> core.TurnOrder | None:
    """The rules' turn order with the game master's over it; None for a system without one."""
    rules = rules_for(encounter)
    if rules.turns is None:
        return None
    fighters_now = everyone if everyone is not None else fighters(encounter)
    scenario = table if table is not None else table_scenario(rules.system)
    order = rules.turns(fighters_now, clock_of(encounter), scenario)
    return order.reordered([str(k) for k in encounter.turn_order])


def turn_move(*, encounter: Encounter, version: Any, key: str, by: int) -> None:
    """« ▲ / ▼ »: one place earlier or later in the order; the encounter keeps the whole order the
    game master sees from then on (a new version: other tabs and the players' view redraw)."""
    order = turn_order(encounter)
    keys = [t.key for t in order.turns] if order is not None else []
    if key not in keys or not 0 <= keys.index(key) + by < len(keys):
        raise ScenarioError({"turn": ERROR_BAD_MOVE})
    i = keys.index(key)
    keys[i], keys[i + by] = keys[i + by], keys[i]
    _turn_order_set(encounter, version, keys)


def turn_reset(*, encounter: Encounter, version: Any) -> None:
    """« L'ordre des règles »: the game master's order dropped."""
    _turn_order_set(encounter, version, [])


def _turn_order_set(encounter: Encounter, version: Any, keys: list[str]) -> None:
    """The game master's order written (no log entry), from the version the form was drawn from."""
    with transaction.atomic():
        _bump(encounter, _parse_version(version))
        encounter.turn_order = keys
        encounter.save(update_fields=["turn_order"])
        _published(encounter)
