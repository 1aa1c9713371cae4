"""The living sheet (A5 landscape, printable) and the power table of the Quadrature page."""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

from django import template
from django.template.loader import render_to_string
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

from bestiary.quadrature import selectors
from bestiary.quadrature.pdf import pdf_link
from bestiary.quadrature.web import sheet_of
from calculator import bestiary_cache, plugins
from calculator.forms import ScenarioForm
from calculator.html import fmt, fmt_join
from rulesets.core.french import NNBSP, typography, words
from rulesets.core.i18n import fr_number
from rulesets.core.schema import ScenarioError, parse, unflatten
from rulesets.quadrature.model import Adversary, Capability, Kind, Mode, Scenario
from rulesets.quadrature.sheet import (
    armour_bonus,
    capability_total,
    card_available,
    card_cost,
    exhausted,
    horde_mood,
    horde_tokens,
    members,
    part_blocks,
    part_destroyed,
    threat,
)

register = template.Library()

SYMBOLS = {"fatigue": "💧", "light": "💢", "heavy": "💔", "up": "🔺", "down": "🔻", "bleed": "🩸"}


def _effect(effect: Any) -> str:
    bits = [SYMBOLS[k] * getattr(effect, k) for k in SYMBOLS if getattr(effect, k)]
    if effect.stunned:
        bits.append("Sonné 🫨")
    if effect.entangled:
        bits.append("Entravé 🕸️")
    return " ".join(bits) or "—"


def _bars(dist: dict[int, Fraction], width: int = 150, height: int = 28) -> SafeString:
    """A tiny server-rendered SVG histogram (no inline style: the CSP forbids it)."""
    if not dist:
        return SafeString("")
    top = max(dist.values())
    lo, hi = min(dist), max(dist)
    n = hi - lo + 1
    w = width / n
    rects = "".join(
        f'<rect x="{(t - lo) * w:.1f}" y="{height - float(p / top) * height:.1f}" width="{max(w - 1, 1):.1f}" '
        f'height="{float(p / top) * height:.1f}"><title>{t}{NNBSP}: {fr_number(float(p) * 100, 1)}{NNBSP}%</title></rect>'
        for t, p in sorted(dist.items())
    )
    return SafeString(
        f'<svg class="q-bars" viewBox="0 0 {width} {height}" width="{width}" height="{height}" role="img" '
        f'aria-label="distribution {lo}–{hi}">{rects}</svg>'
    )


def sheet_context(adv: Adversary) -> dict[str, Any]:
    parts = []
    for i, part in enumerate(adv.parts):
        blocks = []
        for k in part_blocks(adv, i):
            b = adv.blocks[k]
            blocks.append(
                {
                    "boxes": "▣" * b.ticked + "▢" * b.left,
                    "intact": b.intact,
                    "capability": _capability(b.capability, b.value, b.label),
                }
            )
        parts.append(
            {
                "name": part.name,
                "armour": "🛡️" * part.armour_left + "✕" * part.armour_lost,
                "armour_left": part.armour_left,
                "bonus": armour_bonus(adv, i),
                "natural": part.natural_armour,
                "destroyed": part_destroyed(adv, i),
                "blocks": blocks,
            }
        )
    deck = [
        {
            "number": n,
            "name": c.name,
            "cost": "⚫" * card_cost(adv, c),
            "initiative": c.initiative,
            "fatigue_cost": "💧" * c.fatigue_cost,
            "attack": c.attack,
            "star_fives": c.star_fives,
            "star": _effect(c.star),
            "success": _effect(c.success),
            "failure": _effect(c.failure),
            "text": c.text,
        }
        for n, c in enumerate(adv.deck, start=1)
        if card_available(adv, c)
    ]
    t = threat(adv)
    now = threat(adv, current=True)
    reactions = adv.reactions + (1 if adv.traits.predator_reflexes else 0)
    traits = [
        label
        for name, label in (
            ("predator_reflexes", "Réflexes de prédateur"),
            ("bloodthirsty", "Sanguinaire"),
            ("exhausting_strike", "Frappe épuisante"),
            ("terror_aura", "Aura de terreur"),
            ("hive_mind", "Esprit de ruche"),
            ("hypnotic_gaze", "Regard hypnotique"),
        )
        if getattr(adv.traits, name)
    ]
    standing = [i for i in range(len(adv.parts)) if not part_destroyed(adv, i)]
    return {
        "adv": adv,
        "density": density(
            len(standing),
            sum(1 for i in standing for k in part_blocks(adv, i) if adv.blocks[k].intact),
            len(deck),
            bool(traits),
        ),
        "horde": adv.kind is Kind.HORDE,
        "members": members(adv),
        "members_word": words(members(adv), "membre"),
        "tokens": horde_tokens(adv),
        "tokens_word": words(horde_tokens(adv), "jeton"),
        "horde_mood": horde_mood(adv).label if adv.kind is Kind.HORDE else "",
        "dice": "🟫" * adv.danger + "⬜" * adv.menace + "🟧" * adv.nuisance,
        "parts": parts,
        "deck": deck,
        "fatigue": "▣" * adv.fatigue_ticked + "▢" * (adv.fatigue_boxes - adv.fatigue_ticked),
        "exhausted": exhausted(adv),
        "endurance": capability_total(adv, Capability.ENDURANCE),
        "evasion": capability_total(adv, Capability.EVASION),
        "stability": capability_total(adv, Capability.STABILITY),
        "reactions": reactions,
        "traits": traits,
        "threat": t,
        "threat_value": fr_number(float(t.value), 1),
        "threat_now": fr_number(float(now.value), 1),
        "threat_reliability": fr_number(float(t.reliability), 3),
    }


def density(parts: int, blocks: int, cards: int, traits: bool) -> str:
    """How tightly the printed sheet sets, from its longest column, so that it holds on one A5 page:
    the parts and their blocks (two columns, a part's name and armour take about three lines), the
    resources and the deck (two lines a card)."""
    lines = max((3 * parts + blocks + 1) // 2, 4 + int(traits) + 2 * cards)
    if lines <= 26:
        return ""
    return "q-dense" if lines <= 34 else "q-denser"


def _capability(capability: Capability, value: int, label: str) -> str:
    if capability is Capability.ACTION:
        return f"Action{NNBSP}: {label}"
    if capability is Capability.ACTION_COST:
        return f"{label} à coût réduit (+{value} ⚫ si ce bloc tombe)"
    if capability is Capability.ENDURANCE:
        return f"Endurance 🫁 {value}"
    if capability is Capability.EVASION:
        return f"Évasion 🍀 {value}"
    if capability is Capability.STABILITY:
        return f"Stabilité ◇ {value}"
    if capability is Capability.ARMOUR_OTHERS:
        return f"Armure +{value} aux autres parties"
    return label


@register.simple_tag(takes_context=True)
def quadrature_sheet(context: template.Context, oob: bool = False) -> SafeString:
    """The living sheet: what the creature still has, after the exchange when there is one.

    Drawn in the form, and sent out of band with an htmx result (``oob``: it replaces the sheet
    of the form, so the page and its printout show the sheet after « Résoudre »). Its « PDF (A5) »
    link carries the state it shows (bestiary/quadrature/pdf.py)."""
    resolution = context.get("resolution")
    scenario = context.get("scenario")
    adv = sheet_of(resolution, scenario)
    form = context.get("form")
    pdf_url = ""
    if adv is not None:
        default = form is not None and not form.is_bound
        pdf_url = pdf_link(scenario, resolution, context.get("share_query") or "", default=default)
    after = resolution is not None and adv is not None
    outcome = resolution.result.outcome_label if resolution is not None else ""

    def draw() -> str:
        return render_to_string(
            "calculator/quadrature_sheet.html#sheet",
            {
                **(sheet_context(adv) if adv is not None else {}),
                "oob": oob,
                "after": after,
                "outcome": outcome,
                "pdf_url": PDF_URL if pdf_url else "",
            },
        )

    # drawn once per state of the sheet (the rolls of a scene leave it in few states), its link
    # written in afterwards (it names the roll)
    key = (adv, oob, after, outcome, bool(pdf_url))
    try:
        hash(key)
    except TypeError:  # a sheet holding a list cannot be a key
        drawn = draw()
    else:
        drawn = bestiary_cache.cached_by("sheet", plugins.get("quadrature"), key, draw, SHEETS_KEPT)
    return SafeString(drawn.replace(PDF_URL, str(conditional_escape(pdf_url))) if pdf_url else drawn)


PDF_URL = "\x00estoc-pdf-url\x00"  # in no sheet's own text: every name field refuses a null character
SHEETS_KEPT = 64


# --- the decisions, by name -----------------------------------------------------------------------


def form_adversary(context: template.Context, form: ScenarioForm) -> Adversary | None:
    """The sheet the form describes (the parsed scene, else the sheet alone), None if it is wrong."""
    scenario = context.get("scenario")
    if scenario is not None:
        adv: Adversary = scenario.adversary
        return adv
    nested = unflatten(form.scenario_data())
    try:
        adv = parse(Adversary, nested.get("adversary", {}))
    except ScenarioError:
        return None
    return adv


def choice_field(form: ScenarioForm, name: str, label: str, options: list[tuple[str, str, bool]]) -> SafeString:
    """A scenario field drawn as a select of named choices (``(value, label, disabled)``), with
    the same markup, error and help as ``{% field %}``. The current value is always offered (an
    out-of-range value stays visible with its error instead of silently becoming the first choice)."""
    if name not in form.fields:
        return SafeString("")
    bf = form[name]
    current = "" if bf.value() is None else str(bf.value()).strip()
    if current not in {v for v, _label, _off in options}:
        options = [*options, (current, current or "—", False)]
    tags = fmt_join(
        "",
        '<option value="{}"{}{}>{}</option>',
        (
            (v, " selected" if v == current else "", " disabled" if off and v != current else "", text)
            for v, text, off in options
        ),
    )
    invalid = " is-invalid" if bf.errors else ""
    feedback = fmt_join("", '<div class="invalid-feedback d-block">{}</div>', ((e,) for e in bf.errors))
    return fmt(
        '<div class="mb-3"><label class="form-label" for="{id}">{label}</label>'
        '<select name="{name}" class="form-select{invalid}" id="{id}">{options}</select>{feedback}</div>',
        id=bf.id_for_label,
        label=label,
        name=bf.html_name,
        invalid=invalid,
        options=tags,
        feedback=feedback,
    )


@register.simple_tag(takes_context=True)
def quadrature_mode(context: template.Context, form: ScenarioForm) -> SafeString:
    """The situation; the Regard hypnotique is offered only to a creature that has the trait, the
    Course only to a creature that can pay its ⚫ + ▢💧 (a horde moves with Bande II)."""
    adv = form_adversary(context, form)
    options = []
    for value, label in Mode.labels().items():
        why = None
        if value in (Mode.HYPNOTIC_GAZE.value, Mode.COURSE.value) and adv is not None:
            why = Scenario(mode=Mode(value), adversary=adv).check().get("mode")
        options.append((value, typography(f"{label} — {why}") if why else str(label), why is not None))
    return choice_field(form, "mode", _("Situation"), options)


@register.simple_tag(takes_context=True)
def quadrature_card(context: template.Context, form: ScenarioForm) -> SafeString:
    """The card played, by name; a card it cannot play now is shown with the engine's reason."""
    adv = form_adversary(context, form)
    options: list[tuple[str, str, bool]] = []
    if adv is None:
        names = [form.raw(f"adversary.deck.{i}.name") for i in range(form.rows.get("adversary.deck", 0))]
        options = [(str(n), str(name), False) for n, name in enumerate((x for x in names if x), start=1)]
    else:
        for n, card in enumerate(adv.deck, start=1):
            why = Scenario(mode=Mode.ADVERSARY_ATTACK, adversary=adv, card=n).check().get("card")
            if why:
                options.append((str(n), typography(f"{card.name} — {why}"), True))
                continue
            bits = ["⚫" * card_cost(adv, card), _("init. {n}").format(n=card.initiative)]
            if card.fatigue_cost:
                bits.append("💧" * card.fatigue_cost)
            if not card.attack:
                bits.append(_("sans jet"))
            options.append((str(n), f"{card.name} ({', '.join(bits)})", False))
    return choice_field(form, "card", _("Carte jouée"), options)


@register.simple_tag(takes_context=True)
def quadrature_target(context: template.Context, form: ScenarioForm) -> SafeString:
    """The targeted part, by name (declared before the roll); a horde is struck as one."""
    adv = form_adversary(context, form)
    options: list[tuple[str, str, bool]] = []
    if adv is None:
        names = [form.raw(f"adversary.parts.{i}.name") for i in range(form.rows.get("adversary.parts", 0))]
        options = [(str(n), str(name), False) for n, name in enumerate(names, start=1) if name]
    elif adv.kind is Kind.HORDE:
        options = [("1", _("La horde entière"), False)]
    else:
        for i, part in enumerate(adv.parts):
            if part_destroyed(adv, i):
                options.append((str(i + 1), _("{part} — détruite").format(part=part.name), True))
                continue
            armour = armour_bonus(adv, i)
            bits = [_("Armure {n}").format(n=part.armour_left)] if part.armour_left else [_("sans armure")]
            if armour:
                bits.append(f"+{armour} 💢")
            options.append((str(i + 1), f"{part.name} ({', '.join(bits)})", False))
    return choice_field(form, "target_part", _("Partie visée (déclarée avant le jet)"), options)


MATCHUP = {
    -3: "🟥🟥🟥 \u22123",
    -2: "🟥🟥 \u22122",
    -1: "🟥 \u22121",
    0: "0",
    1: "🟩 +1",
    2: "🟩🟩 +2",
    3: "🟩🟩🟩 +3",
}


@register.simple_tag
def quadrature_matchup(form: ScenarioForm) -> SafeString:
    """The matchup on the adversary's dice: each 🟩 turns a die one rung up, each 🟥 one down."""
    options = [(str(k), v, False) for k, v in MATCHUP.items()]
    return choice_field(form, "matchup", _("Matchup"), options)


@register.simple_tag
def deck_drawn(form: ScenarioForm) -> str:
    """The names of the deck's cards as drawn, for ``settle`` to know a card removed (JSON)."""
    rows = range(form.rows.get("adversary.deck", 0))
    return json.dumps([str(form.raw(f"adversary.deck.{i}.name") or "").strip() for i in rows], ensure_ascii=False)


SECTIONS = ("parts", "blocks", "deck", "traits", "horde", "settings")


@register.simple_tag
def sections_in_error(form: ScenarioForm) -> set[str]:
    """The closed sections holding a field in error (they open): ``resources`` for the sheet's
    own numbers, else the list or group (``parts``, ``blocks``, ``deck``…), and ``sheet`` for any."""
    out: set[str] = set()
    for name in form.errors if form.is_bound else ():
        if name.startswith("settings."):
            out.add("settings")
        elif name.startswith("adversary."):
            group = name.split(".")[1]
            out |= {"sheet", group if group in SECTIONS else "resources"}
    return out


@register.simple_tag
def quadrature_power_table() -> SafeString:
    """The power table computed from the dice of the database: min, mean, max and the chart.

    Drawn once per version of the bestiary (it reads only the dice and the power levels), not on
    every page: its exact distributions cost a fifth of a Quadrature page."""
    return SafeString(bestiary_cache.cached("power_table_html", plugins.get("quadrature"), _power_table_html))


def _power_table_html() -> str:
    rows = [
        {
            "name": lv.name,
            "pc": lv.pc_equivalent,
            "dice": lv.dice_symbols,
            "min": st.minimum,
            "mean": fr_number(float(st.mean), 1),
            "max": st.maximum,
            "chart": _bars(st.distribution),
        }
        for lv, st in selectors.power_rows()
    ]
    return render_to_string("calculator/quadrature_power.html", {"rows": rows})
