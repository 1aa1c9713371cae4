"""The Quadrature page plug-in: dice faces from the database, bestiary presets, the final panel."""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Mapping
from typing import Any

from django.utils.translation import gettext as _

from bestiary.quadrature import selectors
from bestiary.quadrature.settle import settle
from calculator.grammar import describe_grammar, grammar_of
from calculator.plugins import Preset, PresetGroup, Table, TableValues, WebPlugin, register
from calculator.tables import bestiary_presets, keys_by_pk, table_of
from rulesets.core.french import MINUS, typography
from rulesets.core.request import Resolution
from rulesets.core.schema import ScenarioError, flatten, to_data
from rulesets.quadrature.encounter import sheet_from
from rulesets.quadrature.model import Adversary, Mode, Scenario
from rulesets.quadrature.names import adversary_who, pc_who

# Rows a creature preset always writes, so that loading a smaller sheet over a larger one blanks
# the rows it does not use (a block of 0 boxes, a card or a part without a name is ignored).
MIN_ROWS = {"parts": 6, "blocks": 12, "deck": 8}


def _padded(data: dict[str, Any], rows: dict[str, int]) -> dict[str, Any]:
    values = flatten(data)
    for key, blank in (("parts", {"name": ""}), ("blocks", {"boxes": 0}), ("deck", {"name": ""})):
        for i in range(len(data[key]), rows[key]):
            for field, value in blank.items():
                values[f"{key}.{i}.{field}"] = value
    return values


def creature_presets() -> list[Preset]:
    adversaries = selectors.adversary_list()
    sheets = [(a, selectors.adversary_data(a)) for a in adversaries]
    rows = dict(MIN_ROWS)
    for _a, data in sheets:
        for key in rows:
            rows[key] = max(rows[key], len(data[key]))
    keys = keys_by_pk(adversaries)
    return [
        Preset(
            key=keys[a.pk],
            label=f"{'🕷️ ' if a.kind == 'horde' else ''}{a.name}" + (f" — {a.power.name}" if a.power else ""),
            values=_padded(data, rows),
            origin=str(a.pk),
        )
        for a, data in sheets
    ]


def presets() -> list[PresetGroup]:
    """The page's bestiary choices, each sending its row's key, the key of the API's ``adversary``
    and ``card`` tables (issue 14, « the page sends keys too »)."""
    cards = bestiary_presets(selectors.card_list(), lambda c: flatten(selectors.card_data(c)))
    return [
        PresetGroup(
            key="creature",
            prefix="adversary",
            label=_("Adversaire du bestiaire"),
            presets=creature_presets(),
            table="adversary",
        ),
        PresetGroup(
            key="card", prefix="adversary.deck.{row}", label=_("Carte du bestiaire"), presets=cards, table="card"
        ),
    ]


def tables() -> list[Table]:
    """The tables a request names by key (issue 14, calculator/tables.py): an adversary's fresh
    sheet at ``adversary``, an action card in its deck; a custom card gives its cost, initiative
    and attack."""
    return [
        table_of(
            "adversary",
            _("Adversaire du bestiaire"),
            ("adversary",),
            selectors.adversary_list(),
            selectors.adversary_data,
        ),
        table_of(
            "card",
            _("Carte du bestiaire"),
            ("adversary.deck.*",),
            selectors.card_list(),
            selectors.card_data,
            required=("cost", "initiative", "attack"),
        ),
    ]


def defaults() -> dict[str, Any]:
    return selectors.dice_faces_data()


def summary(resolution: Resolution) -> list[tuple[str, str, str]]:
    """The final panel's rows, in French spacing; the character is named with its grammar (issue 15)."""
    return [(key, typography(label), typography(value)) for key, label, value in _summary(resolution)]


def _summary(resolution: Resolution) -> list[tuple[str, str, str]]:
    n = resolution.result.numbers
    s: Scenario = resolution.scenario
    pc = pc_who(s.pc.name, s.pc.grammar)
    rows: list[tuple[str, str, str]] = [("outcome", _("Résultat"), resolution.result.outcome_label)]

    def add(key: str, label: str, fmt: str = "{v}") -> None:
        if key in n and n[key] not in (None, 0, False, ""):
            rows.append((key, label, fmt.format(v=n[key])))

    if s.mode is Mode.ADVERSARY_ATTACK:
        add("card", _("Carte jouée"))
        if "total" in n:
            rows.append(("total", _("Total contre Garde"), f"{n['total']} / {n['garde']}"))
        for key, label in (
            ("pc_light", "💢"),
            ("pc_heavy", "💔"),
            ("pc_fatigue", "💧"),
            ("pc_up", "🔺"),
            ("pc_down", "🔻"),
            ("pc_bleed", "🩸"),
        ):
            add(key, _("{sym} infligés {to_pc}").format(sym=label, to_pc=pc.a))
        add("pc_stunned", _("{pc} {stunned} 🫨").format(pc=pc.Subject, stunned=pc.agree("Sonné")), _("oui"))
        add("pc_entangled", _("{pc} {bound} 🕸️").format(pc=pc.Subject, bound=pc.agree("Entravé")), _("oui"))
    elif s.mode is Mode.PC_ATTACK:
        rows.append(("score", _("Attaque contre Garde"), f"{n['score']} / {n['garde']}"))
        add("target_part", _("Partie visée"))
        add("boxes_ticked", _("Cases ▢ cochées"))
        add("blocks_destroyed", _("Blocs détruits"))
        add("armour_destroyed", _("Cases d'armure détruites"))
        add("evasion_spent", _("Évasion 🍀 dépensée"))
        add("fatigue_added", _("Cases de fatigue cochées"))
        add("members_after", _("Membres restants"))
    elif s.mode is Mode.ROUND:
        add("bleed_ticked", _("Cases perdues par hémorragie"))
        rows.append(
            (
                "tokens",
                _("Jetons de la manche"),
                f"🫁 {n['endurance_tokens']} · 🍀 {n['evasion_tokens']} · ◇ {n['stability_tokens']}",
            )
        )
        rows.append(("cards_available", _("Actions encore au deck"), str(n["cards_available"])))
    rows.append(("threat", _("Niveau de menace 💀"), str(n.get("threat_label", ""))))
    return rows


def variations(resolution: Resolution) -> list[tuple[str, dict[str, Any], bool]]:
    """Carry the sheet after the exchange into the next step, or aim the same attack elsewhere."""
    s: Scenario = resolution.scenario
    sheet = resolution.result.events[-1].data.get("sheet") if resolution.result.events else None
    out: list[tuple[str, dict[str, Any], bool]] = []
    if s.mode is Mode.PC_ATTACK:
        for i, part in enumerate(s.adversary.parts, start=1):
            out.append((typography(_("Viser : {part}").format(part=part.name)), {"target_part": i}, i == s.target_part))
    if sheet is not None:
        carried = {f"adversary.{k}": v for k, v in _sheet_read(json.dumps(sheet))[1].items()}
        if s.mode is not Mode.ROUND:
            out.append((_("Fin de manche avec la fiche obtenue"), {**carried, "mode": Mode.ROUND.value}, False))
        else:
            out.append(
                (_("L'adversaire attaque (fiche obtenue)"), {**carried, "mode": Mode.ADVERSARY_ATTACK.value}, False)
            )
            out.append((_("Un personnage attaque (fiche obtenue)"), {**carried, "mode": Mode.PC_ATTACK.value}, False))
    return out


def sheet_of(resolution: Resolution | None, scenario: Scenario | None) -> Adversary | None:
    """The adversary to show on the living sheet: after the exchange when there is one (the sheet
    the engine returns, counters held at their bounds as the encounter holds them)."""
    if resolution is not None:
        events = resolution.result.events
        sheet = events[-1].data.get("sheet") if events else None
        after = _sheet_read(json.dumps(sheet))[0] if sheet is not None else None
        if after is not None:
            return after
        scenario = resolution.scenario
    return scenario.adversary if scenario is not None else None


@functools.lru_cache(maxsize=128)
def _sheet_read(text: str) -> tuple[Adversary | None, dict[str, Any]]:
    """A sheet after the exchange (its data as JSON): parsed as the engine holds it
    (``rulesets.quadrature.encounter.sheet_from``; None if refused), and flattened. Kept for the
    last sheets read: the rolls of a scene leave the creature in few states (issue 18). Shared:
    callers must not change them."""
    data = json.loads(text)
    try:
        parsed: Adversary | None = sheet_from(data, [])
    except ScenarioError:
        parsed = None
    return parsed, flatten(data)


# --- table values: the numbers behind « Ajuster » -------------------------------------------------

EFFECT_SYMBOLS = (("light", "💢"), ("heavy", "💔"), ("fatigue", "💧"), ("bleed", "🩸"), ("up", "🔺"), ("down", "🔻"))
EFFECT_STATES = (("stunned", "Sonné 🫨"), ("entangled", "Entravé 🕸️"))
EFFECT_FIELDS = tuple(k for k, _s in EFFECT_SYMBOLS) + tuple(k for k, _s in EFFECT_STATES)


def _n(value: Any) -> str:
    """A raw number as the page says it (« − » for a negative one); typed text as typed."""
    text = "" if value is None else str(value).strip()
    return MINUS + text[1:] if text.startswith("-") else text


def _is(value: Any) -> bool:
    return value not in (None, "", "0", 0, False)


def describe_effect(prefix: str) -> Callable[[Mapping[str, Any]], str]:
    def describe(values: Mapping[str, Any]) -> str:
        bits = [
            f"{_n(values.get(f'{prefix}.{k}'))} {sym}" for k, sym in EFFECT_SYMBOLS if _is(values.get(f"{prefix}.{k}"))
        ]
        bits += [label for k, label in EFFECT_STATES if values.get(f"{prefix}.{k}")]
        return " · ".join(bits) or _("aucun effet")

    return describe


def describe_pc_dice(values: Mapping[str, Any]) -> str:
    upgrades = values.get("pc.skill_upgrades")
    skill = f"{_n(values.get('pc.skill'))} 🟨"
    if _is(upgrades):
        skill += _(" dont {n} ⬆").format(n=_n(upgrades))
    advantage = _n(values.get("pc.advantage"))
    if advantage in ("", "0"):
        edge = _("sans 🟩 ni 🟥")
    elif advantage.startswith(MINUS):
        edge = f"🟥 {advantage}"
    else:
        edge = f"🟩 +{advantage}"
    return f"{_n(values.get('pc.characteristic'))} 🟦 · {skill} · {edge}"


def describe_pc_state(values: Mapping[str, Any]) -> str:
    line = f"🫁 {_n(values.get('pc.endurance_tokens'))} · ◇ {_n(values.get('pc.stability_tokens'))}"
    return line + (_(" · saigne 🩸") if values.get("pc.bleeding") else "")


def describe_name(prefix: str, blank: str) -> Callable[[Mapping[str, Any]], str]:
    """The summary of a name's grammar fields: « se dit « le Loup des cendres », au masculin »
    (:func:`calculator.grammar.describe_grammar`), the name read as the story reads it (a name
    typed with its article, « Le personnage », is « le personnage »)."""

    def describe(values: Mapping[str, Any]) -> str:
        name = str(values.get(f"{prefix}.name") or "")
        grammar = grammar_of(values, f"{prefix}.grammar.")
        if grammar is None:
            return describe_grammar(name, values, f"{prefix}.grammar.")
        who = adversary_who(name, grammar) if blank == "adversaire" else pc_who(name, grammar)
        said = {
            "grammar.article": who.grammar.article.value,
            "grammar.gender": who.grammar.gender.value,
            "grammar.elision": who.grammar.elision.value,
        }
        return typography(describe_grammar(who.text, said))

    return describe


def _grammar_fields(prefix: str) -> tuple[str, ...]:
    # the name first: the summary line reads it; the disclosure draws only the three grammar fields
    return (f"{prefix}.name", f"{prefix}.grammar.article", f"{prefix}.grammar.gender", f"{prefix}.grammar.elision")


TABLE_VALUES = (
    TableValues(
        "adversary_grammar",
        _("Grammaire du nom"),
        _grammar_fields("adversary"),
        describe_name("adversary", "adversaire"),
    ),
    TableValues("pc_grammar", _("Grammaire du nom"), _grammar_fields("pc"), describe_name("pc", "personnage")),
    TableValues(
        "pc_dice",
        _("Dés du personnage"),
        ("pc.characteristic", "pc.skill", "pc.skill_upgrades", "pc.advantage"),
        describe_pc_dice,
    ),
    TableValues(
        "pc_state",
        _("Ce que lisent les traits"),
        ("pc.endurance_tokens", "pc.stability_tokens", "pc.bleeding"),
        describe_pc_state,
    ),
    TableValues(
        "pc_success",
        _("✅ Touché"),
        tuple(f"pc_success.{k}" for k in EFFECT_FIELDS),
        describe_effect("pc_success"),
    ),
    TableValues(
        "pc_failure",
        _("❌ Raté"),
        tuple(f"pc_failure.{k}" for k in EFFECT_FIELDS),
        describe_effect("pc_failure"),
    ),
)


PLUGIN = register(
    WebPlugin(
        slug="quadrature",
        fields_template="calculator/quadrature_fields.html",
        defaults=defaults,
        presets=presets,
        hidden=("faces", "pc_faces"),
        summary=summary,
        variations=variations,
        table_values=TABLE_VALUES,
        settle=settle,
        tables=tables,
        # the living sheet (in the form) follows the result: the block destroyed, the 🍀 spent
        result_oob=("calculator/quadrature_sheet.html",),
    )
)

__all__ = ["PLUGIN", "sheet_of", "to_data"]
