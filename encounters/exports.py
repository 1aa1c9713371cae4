"""An encounter as files: its log as Markdown or JSON, and the whole encounter as JSON to re-import."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from django.db import transaction

from calculator.sharing import md_escape
from encounters import services
from encounters.links import safe_replay_link
from encounters.models import Combatant, Encounter, LogEntry
from rulesets.core import encounter as core
from rulesets.core.french import typography
from rulesets.core.schema import ScenarioError, parse, to_data

FORMAT = "estoc.encounter"
FORMAT_VERSION = 1

ERROR_NOT_AN_EXPORT = (
    "Ce fichier n'est pas un export de rencontre Estoc (format «\u202festoc.encounter\u202f» attendu)."
)
ERROR_FORMAT_VERSION = (
    "Version d'export inconnue ({version})\u202f: ce fichier vient d'une version plus récente d'Estoc."
)
ERROR_NOT_A_LIST = "{label}\u202f: liste attendue."
ERROR_BAD_COMBATANT = "Combattant n° {n}\u202f: {message}"
ERROR_BAD_ENTRY = "Entrée du journal n° {n}\u202f: {message}"
ERROR_DUPLICATE_KEY = "clé «\u202f{key}\u202f» en double."
ERROR_UNKNOWN_REFERENCE = "combattant «\u202f{key}\u202f» inconnu."
ERROR_BAD_ACTION = "action inconnue «\u202f{action}\u202f»."
ERROR_UNDONE_ORDER = (
    "Journal\u202f: les entrées annulées doivent être les dernières (celles que «\u202fRétablir\u202f» rejouerait)."
)
ERROR_BAD_VISIBILITY = "vue des joueurs «\u202f{value}\u202f» inconnue (exact, tier, name, hidden ou auto)."
ERROR_TOO_LARGE = "Le fichier dépasse {n} combattants ou {m} entrées de journal."
ERROR_TOO_LONG = "{field}\u202f: {limit}\u00a0caractères au plus ({length} reçus)."
ERROR_BAD_DETAIL = "détail\u202f: objet attendu."
ERROR_PERMALINK_NOT_TEXT = "le lien «\u202frejouer\u202f» doit être un texte."
ERROR_UNSAFE_PERMALINK = "le lien «\u202frejouer\u202f» doit être un lien du calculateur de ce site."

MAX_COMBATANTS = 200
MAX_ENTRIES = 5000
# the models' lengths (encounters/models.py)
MAX_NAME = 120
MAX_TITLE = 300
MAX_CLOCK_LABEL = 120
IMPORTED = " (importée)"
IMPORTED_AGAIN = " (importée {n})"
_IMPORTED_TAIL = re.compile(r" \(importée(?: [0-9]+)?\)$")


def entry_data(entry: LogEntry, keys: Mapping[int, str] | None = None) -> dict[str, Any]:
    def key(pk: int) -> str:
        return keys[pk] if keys is not None else str(pk)

    detail = dict(entry.detail) if isinstance(entry.detail, Mapping) else {}
    if "permalink" in detail:  # an old row's unsafe link goes out empty, as the page shows it
        detail["permalink"] = entry.permalink
    return {
        "seq": entry.seq,
        "action": entry.action,
        "title": entry.title,
        "clock_label": entry.clock_label,
        "story": list(entry.story),
        "lines": list(entry.lines),
        "undone": entry.undone,
        "clock_before": entry.clock_before,
        "clock_after": entry.clock_after,
        "detail": detail,
        "changes": [{**c, "combatant": key(c["combatant"])} for c in entry.changes],
        "created_at": entry.created_at.isoformat() if entry.created_at else None,
    }


def log_data(encounter: Encounter) -> dict[str, Any]:
    """The log alone, every entry with its story, technical lines and state changes."""
    return {
        "format": "estoc.encounter-log",
        "version": FORMAT_VERSION,
        "encounter": encounter.name,
        "system": encounter.system,
        "entries": [entry_data(e) for e in encounter.log.all()],
    }


def encounter_data(encounter: Encounter) -> dict[str, Any]:
    """Everything needed to rebuild the encounter elsewhere (combatants keyed ``c1``, ``c2``…)."""
    combatants = list(encounter.combatants.all())
    keys = {c.pk: f"c{i}" for i, c in enumerate(combatants, start=1)}
    return {
        "format": FORMAT,
        "version": FORMAT_VERSION,
        "system": encounter.system,
        "name": encounter.name,
        "clock": encounter.clock,
        "combatants": [
            {
                "key": keys[c.pk],
                "kind": c.kind,
                "name": c.name,
                "present": c.present,
                "visibility": c.visibility,
                "state": c.state,
            }
            for c in combatants
        ],
        "log": [entry_data(e, keys) for e in encounter.log.all()],
    }


def log_markdown(encounter: Encounter, url: str = "") -> str:
    """The log as a Markdown story, each entry followed by its technical lines."""
    rules = services.rules_for(encounter)
    lines = [f"# {md_escape(encounter.name)}", "", f"*{md_escape(_system_name(rules))}*", ""]
    for entry in encounter.log.all():
        heading = f"## {entry.seq}. {md_escape(entry.title)}"
        if entry.undone:
            heading += " *(annulé)*"
        lines += [heading, "", f"*{md_escape(entry.clock_label)}*", ""]
        for paragraph in entry.story:
            lines += [md_escape(paragraph), ""]
        if entry.lines:
            lines += ["Technique\u202f:", ""]
            lines += [f"- {md_escape(line)}" for line in entry.lines]
            lines.append("")
        if entry.permalink and url:
            lines += [f"[Rejouer ce résultat]({url.rstrip('/')}{entry.permalink})", ""]
    return "\n".join(lines).rstrip() + "\n"


def _system_name(rules: core.EncounterRules) -> str:
    from rulesets.core.registry import load_all

    return typography(load_all()[rules.system].name)


def _as_list(value: Any, label: str) -> list[Any]:
    if not isinstance(value, list):
        raise ScenarioError({"file": ERROR_NOT_A_LIST.format(label=label)})
    return value


def encounter_import(*, owner: Any, data: Any) -> Encounter:
    """A new encounter of ``owner`` from an export; every state is checked by its rule system."""
    if not isinstance(data, Mapping) or data.get("format") != FORMAT:
        raise ScenarioError({"file": ERROR_NOT_AN_EXPORT})
    if data.get("version") != FORMAT_VERSION:
        raise ScenarioError({"file": ERROR_FORMAT_VERSION.format(version=data.get("version"))})
    rules = core.all_rules().get(str(data.get("system", "")))
    if rules is None:
        raise ScenarioError({"file": services.ERROR_UNKNOWN_SYSTEM})
    raw_combatants = _as_list(data.get("combatants", []), "Combattants")
    raw_log = _as_list(data.get("log", []), "Journal")
    if len(raw_combatants) > MAX_COMBATANTS or len(raw_log) > MAX_ENTRIES:
        raise ScenarioError({"file": ERROR_TOO_LARGE.format(n=MAX_COMBATANTS, m=MAX_ENTRIES)})
    try:
        clock = to_data(parse(rules.clock_type, data.get("clock") or {}))
    except ScenarioError as exc:
        raise ScenarioError({f"clock.{k}": v for k, v in exc.errors.items()}) from None

    combatants: list[tuple[str, Combatant]] = []
    for n, raw in enumerate(raw_combatants, start=1):
        combatants.append((_combatant_key(raw, n, combatants), _combatant(rules, raw, n)))
    keys = {key for key, _c in combatants}
    entries = [_entry(rules, raw, n, keys) for n, raw in enumerate(raw_log, start=1)]
    undone = [e.undone for e in entries]
    if undone != sorted(undone):
        raise ScenarioError({"file": ERROR_UNDONE_ORDER})

    with transaction.atomic():
        encounter = services.encounter_create(
            owner=owner, system=rules.system, name=imported_name(owner, str(data.get("name", ""))), clock=clock
        )
        pks: dict[str, int] = {}
        for position, (key, c) in enumerate(combatants, start=1):
            c.encounter = encounter
            c.position = position
            c.save()
            pks[key] = c.pk
        for entry in entries:
            entry.encounter = encounter
            entry.changes = [{**ch, "combatant": pks[ch["combatant"]]} for ch in entry.changes]
            # the gauges each entry moved, worked out again: the file's keys named other combatant rows
            entry.detail = {**entry.detail, "gauges": services.gauge_changes(rules, entry.changes)}
        LogEntry.objects.bulk_create(entries)
    return encounter


def imported_name(owner: Any, name: str) -> str:
    """``name``, or when ``owner`` already has an encounter of that name « name (importée) », then
    « name (importée 2) »…, shortened with « … » to fit in 120 characters. A name that cannot be
    one (empty, too long) is left to ``services.encounter_create`` to refuse."""
    name = name.strip()
    if not name or len(name) > MAX_NAME:
        return name
    taken = set(Encounter.objects.filter(owner=owner).values_list("name", flat=True))
    if name not in taken:
        return name
    # the copy of a copy: « X (importée 2) », not « X (importée) (importée) »
    base = _IMPORTED_TAIL.sub("", name) or name
    n = 1
    while True:
        candidate = _suffixed(base, IMPORTED if n == 1 else IMPORTED_AGAIN.format(n=n))
        if candidate not in taken:
            return candidate
        n += 1


def _suffixed(base: str, suffix: str) -> str:
    if len(base) + len(suffix) <= MAX_NAME:
        return base + suffix
    return base[: MAX_NAME - len(suffix) - 1].rstrip() + "…" + suffix


def _too_long(value: str, limit: int, field: str) -> str | None:
    """The message when ``value`` is longer than the model keeps (never cut without a word)."""
    if len(value) <= limit:
        return None
    return ERROR_TOO_LONG.format(field=field, limit=limit, length=len(value))


def _combatant_key(raw: Any, n: int, seen: list[tuple[str, Combatant]]) -> str:
    key = str(raw.get("key", f"c{n}")) if isinstance(raw, Mapping) else f"c{n}"
    if any(key == k for k, _c in seen):
        raise ScenarioError({"file": ERROR_BAD_COMBATANT.format(n=n, message=ERROR_DUPLICATE_KEY.format(key=key))})
    return key


def _state(rules: core.EncounterRules, kind: str, state: Any, where: str) -> dict[str, Any]:
    if not isinstance(state, Mapping):
        raise ScenarioError({"file": f"{where}\u202f: état\u202f: objet attendu."})
    try:
        return services.state_parse(rules, kind, state)
    except ScenarioError as exc:
        message = "; ".join(exc.errors.values())  # each message names its field
        raise ScenarioError({"file": f"{where}\u202f: {message}"}) from None


def _combatant(rules: core.EncounterRules, raw: Any, n: int) -> Combatant:
    if not isinstance(raw, Mapping):
        raise ScenarioError({"file": ERROR_BAD_COMBATANT.format(n=n, message="objet attendu.")})
    kind = str(raw.get("kind", ""))
    state = _state(rules, kind, raw.get("state"), f"Combattant n° {n}")
    name = str(state.get("name") or raw.get("name") or kind)
    if message := _too_long(name, MAX_NAME, "nom"):
        raise ScenarioError({"file": ERROR_BAD_COMBATANT.format(n=n, message=message)})
    visibility = raw.get("visibility", Combatant.Visibility.AUTO)
    if visibility not in Combatant.Visibility.values:
        raise ScenarioError(
            {"file": ERROR_BAD_COMBATANT.format(n=n, message=ERROR_BAD_VISIBILITY.format(value=visibility))}
        )
    return Combatant(
        kind=kind,
        name=name,
        state=state,
        present=bool(raw.get("present", True)),
        visibility=visibility,
    )


def _texts(value: Any) -> list[str]:
    """An entry's story or lines: the texts of a list (anything else, ``null`` included, is none)."""
    return [str(s) for s in value if isinstance(s, str | int)] if isinstance(value, list) else []


def _entry(rules: core.EncounterRules, raw: Any, n: int, keys: set[str]) -> LogEntry:
    def fail(message: str) -> ScenarioError:
        return ScenarioError({"file": ERROR_BAD_ENTRY.format(n=n, message=message)})

    if not isinstance(raw, Mapping):
        raise fail("objet attendu.")
    action = str(raw.get("action", ""))
    if action not in LogEntry.Action.values:
        raise fail(ERROR_BAD_ACTION.format(action=action))
    changes = []
    for change in raw.get("changes", []) if isinstance(raw.get("changes", []), list) else []:
        if not isinstance(change, Mapping) or str(change.get("combatant")) not in keys:
            raise fail(
                ERROR_UNKNOWN_REFERENCE.format(key=change.get("combatant") if isinstance(change, Mapping) else "?")
            )
        kind = str(change.get("kind", ""))
        sides = {}
        for side in ("before", "after"):
            value = change.get(side)
            if not isinstance(value, Mapping):
                raise fail(f"{side}\u202f: objet attendu.")
            state = value.get("state")
            sides[side] = {
                "present": bool(value.get("present")),
                "state": None if state is None else _state(rules, kind, state, f"Entrée n° {n}"),
            }
        changes.append(
            {"combatant": str(change["combatant"]), "name": str(change.get("name", "")), "kind": kind, **sides}
        )
    try:
        clock_before = to_data(parse(rules.clock_type, raw.get("clock_before") or {}))
        clock_after = to_data(parse(rules.clock_type, raw.get("clock_after") or {}))
    except ScenarioError as exc:
        raise fail("; ".join(exc.errors.values())) from None
    title = str(raw.get("title", ""))
    clock_label = str(raw.get("clock_label", ""))
    for value, limit, field in ((title, MAX_TITLE, "titre"), (clock_label, MAX_CLOCK_LABEL, "moment")):
        if message := _too_long(value, limit, field):
            raise fail(message)
    detail = raw.get("detail")
    if detail is None:
        detail = {}
    if not isinstance(detail, Mapping):
        raise fail(ERROR_BAD_DETAIL)
    if "permalink" in detail:
        link = detail["permalink"]
        if not isinstance(link, str):
            raise fail(ERROR_PERMALINK_NOT_TEXT)
        if link and not safe_replay_link(link):
            raise fail(ERROR_UNSAFE_PERMALINK)
    return LogEntry(
        seq=n,
        action=action,
        title=title,
        clock_label=clock_label,
        story=_texts(raw.get("story")),
        lines=_texts(raw.get("lines")),
        changes=changes,
        clock_before=clock_before,
        clock_after=clock_after,
        detail=dict(detail),
        undone=bool(raw.get("undone", False)),
    )
