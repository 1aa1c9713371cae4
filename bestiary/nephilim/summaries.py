"""The Nephilim page's table values: the numbers a choice fills, shown as one French line each.

A bestiary choice (a creature, an approach, a weapon, a defence type, a protection, a spell) fills
a group of fields; the page shows the group as a read-only line (« Épée/hache : degré 2, 2 PHYS »)
with an « Ajuster » disclosure that holds the fields (:class:`calculator.plugins.TableValues`).
Each ``describe`` gets the raw values of its fields (text as typed, a box as a boolean) keyed by
the declared paths, and never fails on a value being typed: it shows what it cannot read as is.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop as N_

from calculator.forms import leaves
from calculator.grammar import describe_grammar, grammar_of
from calculator.plugins import TableValues
from rulesets.core import french
from rulesets.nephilim.language import who
from rulesets.nephilim.model import (
    ELEMENT_FIELDS,
    Approach,
    AttackerKind,
    Behaviour,
    Condition,
    DefenceType,
    DefenderKind,
    Effect,
    Element,
    Protection,
    Scope,
    Sensitivity,
    Weapon,
)

Values = Mapping[str, Any]


# --------------------------------------------------------------------------- reading raw values


def _int(value: Any) -> int | None:
    try:
        return int(str(value).strip())
    except (TypeError, ValueError):
        return None


def _on(value: Any) -> bool:
    if isinstance(value, str):
        return value.strip().lower() not in ("", "false", "0", "off")
    return bool(value)


def _text(value: Any) -> str:
    return "" if value is None else str(value).strip()


def _set(value: Any) -> bool:
    """A number to show: not blank (the default), not 0; a value being typed shows as typed."""
    text = _text(value)
    return bool(text) and _int(text) != 0


def signed(n: int) -> str:
    """+3, −2 (U+2212), 0: the toolkit's signed number, zero without a sign."""
    return french.signed(n, zero="0")


def _num(value: Any, signed_: bool = False) -> str:
    """A number as the line shows it; a value being typed (not a number) as typed."""
    n = _int(value)
    if n is None:
        return _text(value) or "?"
    return signed(n) if signed_ else french.signed(n, plus="")


def _short(label: str) -> str:
    """« Autre PNJ (humain ordinaire, animal…) » → « Autre PNJ »."""
    return label.split(" (")[0]


def _label(choice: Any, value: Any) -> str:
    return str(choice.labels().get(_text(value), _text(value)))


def _lower_first(text: str) -> str:
    return text[:1].lower() + text[1:] if text else text


def _elements(values: Values, prefix: str = "elements.") -> list[str]:
    return [Element(name).label for name in ELEMENT_FIELDS if _on(values.get(prefix + name))]


def _join(parts: list[str], sep: str = ", ") -> str:
    return sep.join(p for p in parts if p)


def _named(name: Any, parts: list[str], empty: str) -> str:
    """« Nom : détail, détail » (French no-break space before the colon), or the name alone."""
    name = _text(name)
    detail = _join(parts)
    if not detail:
        return name or empty
    return f"{name}\u00a0: {detail}" if name else detail


def approche_of(elements: list[str]) -> str:
    """« Approche Ka-Feu ou Ka-Terre » : the Approches an approach or a defence type allows."""
    kas = [f"Ka-{e}" for e in elements]
    if len(kas) == 1:
        return _("Approche {ka}").format(ka=kas[0])
    return _("Approche {first} ou {last}").format(first=", ".join(kas[:-1]), last=kas[-1])


def relative(prefix: str, describe: Callable[[Values], str]) -> Callable[[Values], str]:
    """A describe that reads paths relative to ``prefix`` (``defenders.{row}.defence``)."""
    cut = len(prefix) + 1

    def run(values: Values) -> str:
        return describe({k[cut:]: v for k, v in values.items() if k.startswith(prefix + ".")})

    return run


# --------------------------------------------------------------------------- the lines


def attacker_line(v: Values) -> str:
    """« Nephilim, Vécu 5, Approche Ka-Feu 4, Ka-Feu 7 »."""
    kind = _text(v.get("kind"))
    parts = [_short(_label(AttackerKind, kind))]
    word = _("Menace") if kind == AttackerKind.AUTRE.value else _("Vécu")
    parts.append(f"{word} {_num(v.get('degree'))}")
    value, element = _int(v.get("approach_value")), _text(v.get("approach_element"))
    if value and element != Element.NONE.value:
        parts.append(_("Approche Ka-{element}\u00a0{value}").format(element=_label(Element, element), value=value))
    if _int(v.get("ka_feu")):
        parts.append(_("Ka-Feu\u00a0{n}").format(n=_num(v.get("ka_feu"))))
    parts += _sheet_parts(v)
    if _int(v.get("simulacre_force")) not in (0, 1):
        parts.append(_("force du simulacre {n}").format(n=_num(v.get("simulacre_force"))))
    return _join(parts)


def _sheet_parts(v: Values) -> list[str]:
    """A Nephilim's Métamorphe, Stase and Mnémos (§1), attacker and defender alike."""
    parts = []
    if _int(v.get("metamorphe")):
        parts.append(_("Métamorphe {n}").format(n=_num(v.get("metamorphe"))))
    if _on(v.get("stase")):
        parts.append(_("en Stase"))
    if _on(v.get("mnemos")):
        parts.append(_("Mnémos en jeu"))
    return parts


def defender_line(v: Values) -> str:
    """« Nephilim, degré 5, Approche Ka-Eau 5 »."""
    parts = [_short(_label(DefenderKind, v.get("kind")))]
    parts.append(_("degré {n}").format(n=_num(v.get("degree"))))
    value, element = _int(v.get("approach_value")), _text(v.get("approach_element"))
    if value and element != Element.NONE.value:
        parts.append(_("Approche Ka-{element}\u00a0{value}").format(element=_label(Element, element), value=value))
    sensitivity = _text(v.get("sensitivity"))
    if sensitivity and sensitivity != Sensitivity.AUTO.value:
        parts.append(_lower_first(_label(Sensitivity, sensitivity)))
    parts += _sheet_parts(v)
    return _join(parts)


def approach_line(v: Values) -> str:
    """« Attaque en force : attaque +3, ne peut pas se défendre, Ka Feu ou Terre »."""
    parts = []
    if _set(v.get("attack_modifier")):
        parts.append(_("attaque {n}").format(n=_num(v.get("attack_modifier"), signed_=True)))
    if _int(v.get("damage_bonus_phys")):
        parts.append(_("{n} PHYS si réussie").format(n=_num(v.get("damage_bonus_phys"), signed_=True)))
    if _int(v.get("defence_malus_on_hit")):
        parts.append(_("défense adverse −{n} si réussie").format(n=_num(v.get("defence_malus_on_hit"))))
    if _int(v.get("opponent_next_round_malus")):
        parts.append(_("adversaire −{n} au round suivant").format(n=_num(v.get("opponent_next_round_malus"))))
    rounds = _int(v.get("aiming_rounds"))
    if rounds:
        parts.append(
            _("{n} round de visée").format(n=rounds) if rounds == 1 else _("{n} rounds de visée").format(n=rounds)
        )
    if _on(v.get("attacker_cannot_defend")):
        parts.append(_("ne peut pas se défendre"))
    if not _on(v.get("deals_damage")):
        parts.append(_("sans dommages"))
    elements = _elements(v)
    if elements:
        parts.append(approche_of(elements))
    return _named(v.get("name"), parts or [_("sans modificateur")], _("Approche"))


def weapon_line(v: Values) -> str:
    """« Épée/hache : degré 2, 2 PHYS » ; « Glaive élémentaire de Feu : degré 3, 3 PHYS, 3 MAG, Feu, magique »."""
    parts = [_("degré\u00a0{n}").format(n=_num(v.get("degree"))), f"{_num(v.get('phys'))}\u00a0PHYS"]
    if _set(v.get("mag")):
        parts.append(f"{_num(v.get('mag'))}\u00a0MAG")
    element = _text(v.get("element"))
    if element and element != Element.NONE.value:
        parts.append(_label(Element, element))
    if _on(v.get("magical")):
        parts.append(_("magique"))
    if _on(v.get("null_non_mag_prot")):
        parts.append(_("transperce les protections non magiques"))
    if _text(v.get("range_label")):
        parts.append(_text(v.get("range_label")))
    elif _int(v.get("range_m")):
        parts.append(f"{_num(v.get('range_m'))}\u00a0m")
    return _named(v.get("name"), parts, _("Arme"))


def ammunition_line(v: Values) -> str:
    """« Standard : sans bonus » ; « Balles blindées de fusils d'assaut : +4 aux dommages »."""
    parts = [
        _("sans bonus")
        if not _set(v.get("damage_bonus"))
        else _("{n} aux dommages").format(n=_num(v.get("damage_bonus"), True))
    ]
    if _text(v.get("compatible")):
        parts.append(_("pour {weapon}").format(weapon=_text(v.get("compatible"))))
    return _named(v.get("name"), parts, _("Munition"))


def _modifiers(v: Values) -> list[str]:
    parts = []
    if _set(v.get("wounds")):
        parts.append(_("blessures {n}").format(n=_num(v.get("wounds"), True)))
    if _set(v.get("situational")):
        parts.append(_("situation {n}").format(n=_num(v.get("situational"), True)))
    if _set(v.get("carried_over")):
        parts.append(_("report {n}").format(n=_num(v.get("carried_over"), True)))
    return parts


def attacker_situation_line(v: Values) -> str:
    """« blessures −2, situation +1, action coordonnée » ; « aucun modificateur »."""
    parts = _modifiers(v)
    if _on(v.get("coordinated")):
        parts.append(_("action coordonnée"))
    if _text(v.get("situation")):
        parts.append(f"«\u00a0{_text(v.get('situation'))}\u00a0»")
    return _join(parts) or _("aucun modificateur")


def defender_situation_line(v: Values) -> str:
    parts = _modifiers(v)
    if _on(v.get("failed_ka_dominant")):
        parts.append(_("a échoué son jet de Ka dominant"))
    second = _text(v.get("defence_number_2"))
    if second and second != "2":
        parts.append(_("défense n°{n} contre la 2e attaque rapide").format(n=_num(v.get("defence_number_2"))))
    return _join(parts) or _("aucun modificateur")


def _choices(v: Values, damage: str, malus: str) -> str:
    if not _set(v.get("margin_damage")) and not _set(v.get("margin_malus")):
        return _("aucun choix")
    return _("{d} × {damage}, {m} × {malus}").format(
        d=_num(v.get("margin_damage")), m=_num(v.get("margin_malus")), damage=damage, malus=malus
    )


def attacker_margin_line(v: Values) -> str:
    return _choices(v, _("+1 dommage"), _("−1 défense adverse"))


def defender_margin_line(v: Values) -> str:
    return _choices(v, _("−1 dommage"), _("−1 attaque adverse"))


def protection_line(v: Values) -> str:
    """« Armure de cuir légère : 1 PHYS, 0 MAG » ; « Aucune »."""
    parts: list[str] = []
    if _set(v.get("phys")) or _set(v.get("mag")):
        parts += [f"{_num(v.get('phys'))}\u00a0PHYS", f"{_num(v.get('mag'))}\u00a0MAG"]
    if _on(v.get("magical")):
        parts.append(_("d'origine magique"))
    element = _text(v.get("element"))
    if element and element != Element.NONE.value:
        parts.append(_("élément {element}").format(element=_label(Element, element)))
    if _int(v.get("optional_bonus")):
        bonus = _("bonus optionnel {n}").format(n=_num(v.get("optional_bonus"), True))
        parts.append(bonus + (_(" (utilisé)") if _on(v.get("use_optional_bonus")) else ""))
    return _named(v.get("name"), parts, _("Aucune"))


def defence_line(v: Values) -> str:
    """« Standard : si réussie −1 PHYS, −1 MAG » ; « Esquiver : si réussie dommages annulés ; Ka Eau ou Air »."""
    groups: list[str] = []
    if not _on(v.get("rolls")):
        groups.append(_("pas de jet"))
    else:
        head = [_("défense {n}").format(n=_num(v.get("modifier"), True))] if _set(v.get("modifier")) else []
        success = []
        if _on(v.get("success_cancel")):
            success.append(_("dommages annulés"))
        else:
            for key, badge in (("success_reduce_phys", "PHYS"), ("success_reduce_mag", "MAG")):
                if _set(v.get(key)):
                    success.append(f"\u2212{_num(v.get(key))}\u00a0{badge}")
        if _on(v.get("escapes")):
            success.append(_("s'échappe"))
        if _on(v.get("needs_attack_roll")):
            success.append(_("riposte (jet d'attaque)"))
        if success:
            head.append(_("si réussie {what}").format(what=_join(success)))
        failure = [
            f"+{_num(v.get(key))}\u00a0{badge}"
            for key, badge in (("failure_add_phys", "PHYS"), ("failure_add_mag", "MAG"))
            if _set(v.get(key))
        ]
        if failure:
            head.append(_("si ratée {what}").format(what=_join(failure)))
        groups.append(_join(head))
    extra = []
    if _on(v.get("no_extra_defence_malus")):
        extra.append(_("pas de malus aux défenses suivantes"))
    if _on(v.get("needs_shield")):
        extra.append(_("bouclier ou objet requis"))
    elements = _elements(v)
    if elements:
        extra.append(approche_of(elements))
    if extra:
        groups.append(_join(extra))
    return _named(v.get("name"), [_join(groups, " ; ")], _("Défense"))


_EFFECT_NUMBERS = (
    ("attack", N_("attaque {n}")),
    ("defence", N_("défense {n}")),
    ("damage", N_("dommages {n}")),
    ("damage_phys", N_("dommages {n} PHYS")),
    ("damage_mag", N_("dommages {n} MAG")),
    ("protection_phys", N_("protection {n} PHYS")),
    ("protection_mag", N_("protection {n} MAG")),
    ("opponent_next_round_attack", N_("attaque adverse {n} au round suivant")),
)
_EFFECT_FLAGS = (
    ("cancel_all", N_("annule tous les dommages")),
    ("cancel_phys", N_("annule les dommages PHYS")),
    ("cancel_mag", N_("annule les dommages MAG")),
    ("null_non_mag_prot", N_("ignore les protections non magiques")),
    ("no_extra_defence_malus", N_("pas de malus aux défenses suivantes")),
    ("weapon_magical", N_("arme d'origine magique")),
    ("armour_magical", N_("armure d'origine magique")),
)


def effect_line(v: Values) -> str:
    """« attaque +3, protection +3 PHYS, en mêlée » ; « si Attaque en force : attaque +6 »."""
    numbers = [_(text).format(n=_num(v.get(key), True)) for key, text in _EFFECT_NUMBERS if _set(v.get(key))]
    condition = _text(v.get("condition"))
    if numbers and condition and condition != Condition.ALWAYS.value:
        numbers[0] = f"{_lower_first(_label(Condition, condition))}\u00a0: {numbers[0]}"
    parts = numbers
    if _set(v.get("opponent_defence")):
        malus = _("défense adverse {n}").format(n=_num(v.get("opponent_defence"), True))
        when = _text(v.get("opponent_defence_condition"))
        if when and when != Condition.ALWAYS.value:
            malus += f" ({_lower_first(_label(Condition, when))})"
        parts.append(malus)
    if _set(v.get("initiative")):
        speed = _("initiative et MV {n}").format(n=_num(v.get("initiative"), True))
        when = _text(v.get("initiative_condition"))
        if when and when != Condition.ALWAYS.value:
            speed += f" ({_lower_first(_label(Condition, when))})"
        parts.append(speed)
    if _set(v.get("metamorphe")):
        parts.append(_("Métamorphe porté à {n}").format(n=_num(v.get("metamorphe"))))
    parts += [_(text) for key, text in _EFFECT_FLAGS if _on(v.get(key))]
    behaviour = _text(v.get("behaviour"))
    if behaviour and behaviour != Behaviour.NONE.value:
        named = _short(_label(Behaviour, behaviour))
        if behaviour == Behaviour.RETENUE_DU_SOUFFLE.value:
            named += " " + _("(seuil {n})").format(n=_num(v.get("threshold")))
        element = _text(v.get("element"))
        if element and element != Element.NONE.value:
            named += f" {_label(Element, element)}"
        parts.append(named)
    if not parts and _text(v.get("note")):
        parts.append(_text(v.get("note")))
    scope = _text(v.get("scope"))
    if parts and scope == Scope.MELEE.value:
        parts.append(_("en mêlée"))
    elif parts and scope == Scope.RANGED.value:
        parts.append(_("à distance"))
    return _join(parts) or _("sans effet chiffré")


def grammar_line(v: Values) -> str:
    """« se dit « le Mercenaire », au masculin »: how the story says the name (issue 15). A role
    name (« Attaquant ») reads as the story reads it, a common noun: « l'attaquant »."""
    name = _text(v.get("name"))
    grammar = grammar_of(v)
    if grammar is None or not name:
        return describe_grammar(name, v)
    noun = who(name, grammar)
    said = {"grammar.article": noun.grammar.article.value, "grammar.gender": noun.grammar.gender.value}
    return describe_grammar(noun.text, {**said, "grammar.elision": noun.grammar.elision.value})


# --------------------------------------------------------------------------- the groups

# the name and its grammar: the name stays in view, the grammar behind « Ajuster » (the page draws
# this group with {% adjust_block %}, its body the three grammar fields)
GRAMMAR_FIELDS = ("name", "grammar.article", "grammar.gender", "grammar.elision")


def _leaf_paths(cls: type, *, without: tuple[str, ...] = ()) -> tuple[str, ...]:
    """A table's fields, every leaf of its dataclass in the engine's order (none can be forgotten)."""
    return tuple(leaf.path for leaf in leaves(cls, {}) if leaf.path not in without)


APPROACH_FIELDS = _leaf_paths(Approach)
WEAPON_FIELDS = _leaf_paths(Weapon)
PROTECTION_FIELDS = _leaf_paths(Protection)
DEFENCE_FIELDS = _leaf_paths(DefenceType)
# an effect row's components (its name is a choice, on the page beside its bestiary select)
EFFECT_FIELDS = _leaf_paths(Effect, without=("name",))


def _group(key: str, label: str, prefix: str, names: tuple[str, ...], describe: Callable[[Values], str]) -> TableValues:
    return TableValues(key, label, tuple(f"{prefix}.{n}" for n in names), relative(prefix, describe))


TABLE_VALUES = (
    _group(
        "attacker",
        _("Profil"),
        "attacker",
        (
            "kind",
            "degree",
            "approach_element",
            "approach_value",
            "ka_feu",
            "initiative_ka",
            "metamorphe",
            "stase",
            "mnemos",
            "simulacre_force",
        ),
        attacker_line,
    ),
    _group("attacker_grammar", _("Grammaire du nom"), "attacker", GRAMMAR_FIELDS, grammar_line),
    _group("approach", _("Approche"), "attacker.approach", APPROACH_FIELDS, approach_line),
    _group("weapon", _("Arme"), "attacker.weapon", WEAPON_FIELDS, weapon_line),
    _group("ammunition", _("Munition"), "attacker.ammunition", ("name", "damage_bonus", "compatible"), ammunition_line),
    _group(
        "attacker_situation",
        _("Situation"),
        "attacker",
        ("coordinated", "wounds", "situational", "carried_over", "situation"),
        attacker_situation_line,
    ),
    _group("attacker_margin", _("Marge > 10"), "attacker", ("margin_damage", "margin_malus"), attacker_margin_line),
    _group("attacker_effect", _("Composantes"), "attacker.effects.{row}", EFFECT_FIELDS, effect_line),
    _group(
        "defender",
        _("Profil"),
        "defenders.{row}",
        ("kind", "degree", "sensitivity", "approach_element", "approach_value", "metamorphe", "stase", "mnemos"),
        defender_line,
    ),
    _group("defender_grammar", _("Grammaire du nom"), "defenders.{row}", GRAMMAR_FIELDS, grammar_line),
    _group("defence", _("Défense"), "defenders.{row}.defence", DEFENCE_FIELDS, defence_line),
    _group("armour", _("Armure"), "defenders.{row}.armour", PROTECTION_FIELDS, protection_line),
    _group("shield", _("Bouclier"), "defenders.{row}.shield", PROTECTION_FIELDS, protection_line),
    _group("other", _("Manteau ou autre"), "defenders.{row}.other", PROTECTION_FIELDS, protection_line),
    _group(
        "defender_situation",
        _("Situation"),
        "defenders.{row}",
        ("failed_ka_dominant", "wounds", "situational", "carried_over", "defence_number_2"),
        defender_situation_line,
    ),
    _group(
        "defender_margin", _("Marge > 10"), "defenders.{row}", ("margin_damage", "margin_malus"), defender_margin_line
    ),
    _group("defender_effect", _("Composantes"), "defender_effects.{row}", EFFECT_FIELDS, effect_line),
)
