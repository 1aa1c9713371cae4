"""The « Ajuster » summary lines of the Féerie pages: the table values a choice filled, read aloud.

Each ``describe`` gets the raw values of its fields, keyed by the declared paths (``{row}`` left as
is), as the form holds them: strings when typed, numbers or booleans when they are the defaults.
A value that is not a number (a typo) is shown as typed: its field carries the error.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _l

from calculator.grammar import describe_grammar
from rulesets.core.french import NBSP, count, signed, typography
from rulesets.feerie.model import SEED_BLOWS, SEED_PACES, BlowKind, CoverMode, Pace

SEP = " · "


def french(describe: Any) -> Any:
    """A ``describe`` whose line is in French typography (issue 15: the narrow no-break space before
    « : ; ! ? » and inside « », the minus sign U+2212)."""

    def wrapped(values: Mapping[str, Any]) -> str:
        return typography(describe(values))

    wrapped.__doc__ = describe.__doc__
    wrapped.__name__ = describe.__name__
    return wrapped


def integer(raw: Any) -> int | None:
    """The raw value as an integer, or None when blank or not a number."""
    if isinstance(raw, bool):
        return int(raw)
    if isinstance(raw, int):
        return raw
    try:
        return int(str(raw).strip())
    except (TypeError, ValueError):
        return None


def ticked(raw: Any) -> bool:
    if isinstance(raw, str):
        return raw.strip().lower() in {"on", "true", "1", "oui"}
    return bool(raw)


def text(raw: Any) -> str:
    return "" if raw is None else str(raw).strip()


def plain(raw: Any) -> str:
    """A number as the page writes it (− for negatives), or what was typed."""
    n = integer(raw)
    if n is None:
        return text(raw)
    return signed(n, plus="")


def sign(raw: Any) -> str:
    """A modifier: ``+3``, ``−2``, ``0``."""
    n = integer(raw)
    if n is None:
        return text(raw)
    return signed(n) if n else "0"


def choice_label(choice: Any, raw: Any) -> str:
    try:
        return str(choice(text(raw)).label)
    except ValueError:
        return text(raw)


def points(n: int) -> str:
    """« 1 point », « 3 points »."""
    return count(n, _("point"))


def _get(values: Mapping[str, Any], prefix: str, key: str) -> Any:
    return values.get(f"{prefix}.{key}" if prefix else key)


# --- the exchange ---------------------------------------------------------------------------------------

ASPECTS = (
    ("vigilance", _l("Vigilance")),
    ("habilete", _l("Habileté")),
    ("puissance", _l("Puissance")),
    ("resistance", _l("Résistance")),
)


def aspects(values: Mapping[str, Any]) -> str:
    """« Vigilance 15 · Habileté 20 · Puissance 10 · Résistance 15 · Taille −2 · Essence 20 »."""
    p = "{row}"
    parts = [f"{label}{NBSP}{plain(_get(values, p, key))}" for key, label in ASPECTS]
    parts.append(f"{_('Taille')}{NBSP}{sign(_get(values, p, 'taille'))}")
    parts.append(f"{_('Essence')}{NBSP}{plain(_get(values, p, 'essence'))}")
    return SEP.join(parts)


TACTIC_PARTS = (("initiative", _l("Initiative")), ("attack", _l("Attaque")), ("defense", _l("Défense")))


def tactic_of(values: Mapping[str, Any], prefix: str) -> str:
    parts = [
        f"{label}{NBSP}{sign(raw)}"
        for key, label in TACTIC_PARTS
        if (raw := _get(values, prefix, key)) is not None and integer(raw) != 0
    ]
    return SEP.join(parts) or _("aucune modification")


def tactic(values: Mapping[str, Any]) -> str:
    """« Initiative −2 · Attaque +3 · Défense −1 », or « aucune modification »."""
    return tactic_of(values, "{row}.tactic")


MODIFIER_PARTS = (
    ("initiative", _l("Initiative")),
    ("attack", _l("Attaque")),
    ("defense", _l("Défense")),
    ("damage", _l("Dommages")),
    ("soak", _l("Encaissement")),
)


def modifiers(values: Mapping[str, Any]) -> str:
    """« Attaque −4 · Défense +2 », or « aucun bonus/malus »."""
    parts = [
        f"{label}{NBSP}{sign(raw)}"
        for key, label in MODIFIER_PARTS
        if (raw := _get(values, "{row}.modifiers", key)) is not None and integer(raw) != 0
    ]
    return SEP.join(parts) or _("aucun bonus/malus")


def mount(values: Mapping[str, Any]) -> str:
    """« à pied », or « Hippogriffe : Taille +2, Habileté 16, se dit « l'Hippogriffe », au masculin »."""
    p = "{row}.mount"
    if not ticked(_get(values, p, "mounted")):
        return _("à pied")
    name = text(_get(values, p, "name"))
    line = _("{name} : Taille {taille}, Habileté {habilete}").format(
        name=name or _("monture sans nom"),
        taille=sign(_get(values, p, "taille")),
        habilete=plain(_get(values, p, "habilete")),
    )
    cap = _get(values, p, "riding_affinity")
    if text(cap):
        line += _(", Affinité applicable {cap}").format(cap=plain(cap))
    if name and any(f"{p}.grammar.{k}" in values for k in ("article", "gender", "elision")):
        line += ", " + describe_grammar(name, values, f"{p}.grammar.")
    return typography(line)


def blow(values: Mapping[str, Any]) -> str:
    """« Désarmer : Attaque −8 », « Entraver : Attaque −8 (−12 à distance) », or « aucun »."""
    p = "blows.{row}"
    kind = text(_get(values, p, "kind"))
    if kind in ("", BlowKind.NONE.value):
        return _("aucun malus")
    # a blank number is the blow's own (issue 14: its name carries the seed's numbers)
    rule = SEED_BLOWS.get(BlowKind(kind)) if kind in {k.value for k in BlowKind} else None

    def number(key: str) -> Any:
        raw = _get(values, p, key)
        return getattr(rule, key) if rule is not None and not text(raw) else raw

    parts = []
    attack, ranged = number("attack_malus"), number("ranged_attack_malus")
    ranged = "" if ranged is None else ranged
    if integer(attack) != 0 or (text(ranged) and integer(ranged) != 0):
        part = _("Attaque {n}").format(n=sign(attack))
        if text(ranged) and integer(ranged) != integer(attack):
            part += " " + _("({n} à distance)").format(n=sign(ranged))
        parts.append(part)
    defense = number("defense_malus")
    if integer(defense):
        parts.append(_("Défense {n}").format(n=sign(defense)))
    effect = number("effect_value")
    if integer(effect):
        parts.append(_("effet {n}").format(n=plain(effect)))
    return f"{choice_label(BlowKind, kind)} : " + (", ".join(parts) or _("aucun malus"))


def previous_loss(values: Mapping[str, Any]) -> str:
    """« aucune perte d'Essence infligée », « 6 points d'Essence infligés »."""
    n = integer(values.get("previous_loss"))
    if n is None:
        return text(values.get("previous_loss"))
    if n == 0:
        return _("aucune perte d'Essence infligée")
    if n == 1:
        return _("1 point d'Essence infligé")
    return _("{n} points d'Essence infligés").format(n=n)


def _movement(values: Mapping[str, Any], p: str) -> str:
    pace = text(_get(values, p, "pace"))
    label = choice_label(Pace, pace)
    # a blank number is the allure's own (issue 14: its name carries the seed's numbers)
    rule = SEED_PACES.get(Pace(pace)) if pace in {k.value for k in Pace} else None

    def number(key: str) -> Any:
        raw = _get(values, p, key)
        return getattr(rule, key) if rule is not None and not text(raw) else raw

    parts = []
    malus = number("malus")
    if integer(malus):
        parts.append(_("coordination {n}").format(n=sign(malus)))
    bonus = number("charge_bonus")
    if integer(bonus):
        parts.append(_("charge {n} aux Dommages").format(n=sign(bonus)))
    divisor = number("divisor")
    if integer(divisor):
        parts.append(_("distance (Habileté + Taille)/{n}").format(n=plain(divisor)))
    if not parts:
        return _("{pace}, aucun effet").format(pace=label)
    return f"{label} : " + ", ".join(parts)


def movement(values: Mapping[str, Any]) -> str:
    """« Course : coordination −8, charge +4 aux Dommages, distance (Habileté + Taille)/2 »."""
    return _movement(values, "situation.movement")


def target_movement(values: Mapping[str, Any]) -> str:
    return _movement(values, "situation.target_movement")


def lighting(values: Mapping[str, Any]) -> str:
    """« aucun malus », or « malus −4 au contact (doublé à distance) »."""
    raw = values.get("situation.lighting")
    if integer(raw) == 0:
        return _("aucun malus")
    return _("malus {n} au contact (doublé à distance)").format(n=sign(raw))


def shot(values: Mapping[str, Any]) -> str:
    """« Difficulté +4 · Portée +2 · Encombrement −4 · 3 rangs de visée », or « aucun modificateur »."""
    parts = []
    for key, label in (
        ("situation.difficulty", _("Difficulté")),
        ("situation.range_modifier", _("Portée")),
        ("situation.terrain", _("Encombrement")),
    ):
        raw = values.get(key)
        if raw is not None and integer(raw) != 0:
            parts.append(f"{label}{NBSP}{sign(raw)}")
    return SEP.join(parts) or _("aucun modificateur")


def cover(values: Mapping[str, Any]) -> str:
    """« aucune », « parties exposées : Défense +4 », « au travers (porte de chêne) : ¾ de l'Encaissement
    du propriétaire (12), opaque −8 »."""
    p = "situation.cover"
    mode = text(_get(values, p, "mode"))
    if mode in ("", CoverMode.NONE.value):
        return _("aucune")
    if mode == CoverMode.EXPOSED.value:
        return _("parties exposées : Défense {n}").format(n=sign(_get(values, p, "exposed_modifier")))
    material = text(_get(values, p, "material"))
    head = _("au travers ({material})").format(material=material) if material else _("au travers")
    parts = []
    bonus = _get(values, p, "influence_bonus")
    if text(bonus):
        parts.append(_("Encaissement {n} (Influence)").format(n=sign(bonus)))
    else:
        quarters = integer(_get(values, p, "quarters")) or 0
        fraction = {1: "¼", 2: "½", 3: "¾", 4: _("la totalité")}.get(quarters, plain(quarters) + "/4")
        owner = plain(_get(values, p, "owner_encaissement"))
        parts.append(_("{fraction} de l'Encaissement du propriétaire ({owner})").format(fraction=fraction, owner=owner))
    opacity = _get(values, p, "opacity_malus")
    if integer(opacity):
        parts.append(_("toucher {n}").format(n=sign(opacity)))
    return f"{head} : " + ", ".join(parts)


# --- the Action -----------------------------------------------------------------------------------------


def fighter(values: Mapping[str, Any]) -> str:
    """« Vigilance 20 · Attaque 21 · Défense 16 · Dommages 27 · Encaissement 22 · Essence 45 · Taille +2 ·
    tactique ±3 »."""
    p = "fighters.{row}"
    vigilance = f"{_('Vigilance')}{NBSP}{plain(_get(values, p, 'vigilance'))}"
    bonus = _get(values, p, "initiative_bonus")
    if integer(bonus):
        vigilance += f" ({_('Initiative')}{NBSP}{sign(bonus)})"
    parts = [vigilance]
    for key, label in (
        ("attack", _("Attaque")),
        ("defense", _("Défense")),
        ("damage", _("Dommages")),
        ("soak", _("Encaissement")),
        ("essence", _("Essence")),
    ):
        parts.append(f"{label}{NBSP}{plain(_get(values, p, key))}")
    parts.append(f"{_('Taille')}{NBSP}{sign(_get(values, p, 'taille'))}")
    affinities = _get(values, p, "affinities")
    if integer(affinities):
        parts.append(_("Affinités {n}").format(n=plain(affinities)))
    cap = _get(values, p, "tactic_cap")
    if text(cap):
        parts.append(_("tactique ±{n}").format(n=plain(cap)) if integer(cap) else _("sans tactique"))
    return SEP.join(parts)


def fighter_tactic(values: Mapping[str, Any]) -> str:
    return tactic_of(values, "fighters.{row}.tactic")


def fighter_state(values: Mapping[str, Any]) -> str:
    """« sur ses gardes · Initiative aux dés », « surpris · malus reporté −4 · Initiative 15 »."""
    p = "fighters.{row}"
    parts = [_("surpris") if ticked(_get(values, p, "surprised")) else _("sur ses gardes")]
    ambush = _get(values, p, "ambush_margin")
    if integer(ambush):
        parts.append(_("embuscade (marge {n})").format(n=plain(ambush)))
    carried = _get(values, p, "carried_malus")
    if integer(carried):
        parts.append(_("malus reporté {n}").format(n=sign(carried)))
    initiative = _get(values, p, "initiative")
    parts.append(_("Initiative {n}").format(n=plain(initiative)) if text(initiative) else _("Initiative aux dés"))
    angles = _get(values, p, "open_angles")
    if integer(angles) not in (None, 4):
        parts.append(count(integer(angles) or 0, _("angle ouvert"), _("angles ouverts")))
    return SEP.join(parts)


def activity(values: Mapping[str, Any]) -> str:
    """« au contact · à son rang · dés lus », « à distance, projectile contondant, vise · au rang 12 »."""
    p = "activities.{row}"
    where = _("à distance") if ticked(_get(values, p, "ranged")) else _("au contact")
    if ticked(_get(values, p, "ranged")):
        if ticked(_get(values, p, "blunt")):
            where += ", " + _("projectile contondant")
        if ticked(_get(values, p, "aim")):
            where += ", " + _("vise")
    parts = [where]
    rank = _get(values, p, "rank")
    parts.append(_("au rang {n}").format(n=plain(rank)) if text(rank) else _("à son rang"))
    bonus = _get(values, p, "bonus")
    if integer(bonus):
        parts.append(_("Attributs {n}").format(n=sign(bonus)))
    term = _get(values, p, "term")
    parts.append(_("terme de dés {n}").format(n=sign(term)) if text(term) else _("dés lus"))
    return SEP.join(parts)


def change(values: Mapping[str, Any]) -> str:
    """« aucun », or « au rang 19 : fuir à toutes jambes · nouvelle tactique Attaque −5 · Défense +5 »."""
    p = "activities.{row}.change"
    rank = _get(values, p, "rank")
    if not text(rank):
        return _("aucun")
    line = _("au rang {n}").format(n=plain(rank))
    note = text(_get(values, p, "note"))
    if note:
        line += f" : {note}"
    if ticked(_get(values, p, "new_tactic")):
        line += SEP + _("nouvelle tactique {t}").format(t=tactic_of(values, p + ".tactic"))
    return line
