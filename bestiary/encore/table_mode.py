"""Table mode of the enCORE page: the summary lines of the table values (« Ajuster ») and the
settling of the scene (seed ``003``, « Les conflits »).

The page leads with the decisions (the action, who acts with which attribute, the NPCs by name);
the numbers a bestiary pick fills (weapon damage, Protection, Menace, Santé) wait behind
« Ajuster », each group summed up in one French line written here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _

from bestiary.encore.models import Weapon
from calculator import bestiary_cache, plugins
from calculator.grammar import describe_grammar, grammar_of
from calculator.plugins import Settled, TableValues
from calculator.settling import RawForm, checked
from rulesets.core.french import Grammar, capitalize, count, typography
from rulesets.encore.engine import tier_of
from rulesets.encore.model import Action, Rules, Scenario, Tier, role_noun


def _strip(values: Mapping[str, Any]) -> dict[str, Any]:
    """The values of a table keyed without the row (``{row}.weapon`` → ``weapon``)."""
    out = {}
    for key, value in values.items():
        for prefix in ("{row}.", "npcs.{row}.", "strike.interposer_"):
            if key.startswith(prefix):
                key = key[len(prefix) :]
                break
        out[key] = value
    return out


def _int(value: Any) -> int | None:
    try:
        return int(str(value).strip())
    except ValueError:
        return None


# --- the summary lines ----------------------------------------------------------------------------


def damage_text(n: int | None, raw: Any = "") -> str:
    if n is None:
        return typography(_("dégâts « {raw} » à corriger").format(raw=raw))
    return count(n, _("dégât"))


def _weapon_kinds() -> dict[tuple[int, bool, int], set[str]]:
    kinds: dict[tuple[int, bool, int], set[str]] = {}
    for damage, area, limit, category, name in Weapon.objects.values_list(
        "damage", "area", "target_limit", "category", "name"
    ):
        kinds.setdefault((damage, area, limit), set()).add(category or name)
    return kinds


def weapon_kind(damage: int, area: bool, limit: int) -> str:
    """The bestiary's word for such a weapon (« Lourde », « À mains nues »), when only one fits (read
    once from the bestiary until it changes, not on every line drawn)."""
    kinds = bestiary_cache.cached("weapon_kinds", plugins.get("encore"), _weapon_kinds).get(
        (damage, area, limit), set()
    )
    return next(iter(kinds)) if len(kinds) == 1 else ""


def describe_weapon(values: Mapping[str, Any]) -> str:
    """« Lourde : 3 dégâts » · « Zone : 3 dégâts, arme de zone, 2 cibles au plus »."""
    v = _strip(values)
    damage, limit = _int(v.get("weapon")), _int(v.get("weapon_limit")) or 0
    area = checked(v.get("weapon_area"))
    parts = [damage_text(damage, v.get("weapon"))]
    if area:
        parts.append(_("arme de zone"))
        if limit:
            parts.append(_("{n} au plus").format(n=count(limit, _("cible"))))
    line = ", ".join(parts)
    kind = weapon_kind(damage, area, limit) if damage is not None else ""
    return typography(_("{kind} : {line}").format(kind=kind, line=line)) if kind else capitalize(line)


def describe_protection(values: Mapping[str, Any]) -> str:
    """« Protection 2 (armure 1, couvert 2) »: the highest counts, they never add up."""
    v = _strip(values)
    armour, cover = _int(v.get("armour")), _int(v.get("cover"))
    if armour is None or cover is None:
        return _("Protection à corriger")
    if not armour and not cover:
        return _("Sans Protection")
    if armour and cover:
        detail = _("armure\u00a0{a}, couvert\u00a0{c}").format(a=armour, c=cover)
    else:
        detail = _("armure") if armour else _("couvert")
    return _("Protection\u00a0{n} ({detail})").format(n=max(armour, cover), detail=detail)


def table_rules() -> Rules:
    """The health tiers of the table (the bestiary's settings, else the seed's)."""
    data = bestiary_cache.defaults(plugins.get("encore")).get("rules") or {}
    base = Rules()
    tiers = tuple(Tier(**t) for t in data.get("tiers") or ()) or base.tiers
    return Rules(healthy_tier=data.get("healthy_tier") or base.healthy_tier, tiers=tiers)


def describe_health(values: Mapping[str, Any]) -> str:
    """« Santé 8 / 8 (Valide), Stress 0 »."""
    v = _strip(values)
    sante, most, stress = _int(v.get("sante")), _int(v.get("sante_max")), v.get("stress", "")
    if sante is None or most is None or most < 1:
        return _("Santé à corriger")
    tier = tier_of(min(sante, most), most, table_rules())
    return _("Santé\u00a0{s}\u00a0/\u00a0{m} ({tier}), Stress\u00a0{stress}").format(
        s=sante, m=most, tier=tier, stress=stress
    )


def describe_npc(values: Mapping[str, Any]) -> str:
    """« Menace 2, Santé 4, arme 3, Protection 0 » and what stands out: cover, attacks, boss."""
    v = _strip(values)
    parts = [
        _("Menace\u00a0{n}").format(n=v.get("menace", "")),
        _("Santé\u00a0{n}").format(n=v.get("sante", "")),
        _("arme\u00a0{n}").format(n=v.get("weapon", "")),
        _("Protection\u00a0{n}").format(n=v.get("protection", "")),
    ]
    cover = _int(v.get("cover")) or 0
    if cover:
        parts.append(_("à couvert ({n})").format(n=count(-cover, _("dé"))))
    left = _int(v.get("attacks_left")) if str(v.get("attacks_left") or "").strip() else None
    if left is not None:
        parts.append(count(left, _("attaque restante")))
    if checked(v.get("boss")):
        parts.append(_("boss"))
    return ", ".join(parts)


def describe_name(values: Mapping[str, Any], fallback: str) -> str:
    """« se dit « l'Arbalétrier », au masculin »: the name as the story says it (issue 15), its
    grammar's three fields behind « Ajuster ». A role name left as a proper name (« PJ », « PNJ
    n°2 ») is said as the story says it: « le PJ »."""
    v = _strip(values)
    name = str(v.get("name") or "")
    grammar = grammar_of(v)
    if grammar is None:
        return describe_grammar(name, v)
    said = role_noun(name, grammar, fallback)
    shown = {
        "grammar.article": said.grammar.article.value,
        "grammar.gender": said.grammar.gender.value,
        "grammar.elision": said.grammar.elision.value,
    }
    return describe_grammar(said.text, shown)


def describe_interposer(values: Mapping[str, Any]) -> str:
    """« Protection 0, Santé 8 / 8 (Valide), Stress 0 »."""
    v = _strip(values)
    return _("Protection\u00a0{p}, {health}").format(p=v.get("protection", ""), health=describe_health(v))


WEAPON = TableValues(
    key="weapon",
    label=_("Arme"),
    fields=("{row}.weapon", "{row}.weapon_area", "{row}.weapon_limit"),
    describe=describe_weapon,
)
PROTECTION = TableValues(
    key="protection", label=_("Protection"), fields=("{row}.armour", "{row}.cover"), describe=describe_protection
)
HEALTH = TableValues(
    key="health",
    label=_("État"),
    fields=("{row}.sante", "{row}.sante_max", "{row}.stress"),
    describe=describe_health,
)
NPC_CARD = TableValues(
    key="npc",
    label=_("Fiche"),
    fields=tuple(
        f"npcs.{{row}}.{leaf}" for leaf in ("menace", "sante", "weapon", "protection", "cover", "attacks_left", "boss")
    ),
    describe=describe_npc,
)
INTERPOSER = TableValues(
    key="interposer",
    label=_("L'allié"),
    fields=(
        "strike.interposer_protection",
        "strike.interposer_sante",
        "strike.interposer_sante_max",
        "strike.interposer_stress",
    ),
    describe=describe_interposer,
)
_GRAMMAR = ("grammar.article", "grammar.gender", "grammar.elision")
NAME = TableValues(
    key="name",
    label=_("Nom"),
    fields=("{row}.name", *(f"{{row}}.{leaf}" for leaf in _GRAMMAR)),
    describe=lambda values: describe_name(values, _("PJ")),
)
NPC_NAME = TableValues(
    key="npc_name",
    label=_("Nom"),
    fields=("npcs.{row}.name", *(f"npcs.{{row}}.{leaf}" for leaf in _GRAMMAR)),
    describe=lambda values: describe_name(values, _("PNJ")),
)
INTERPOSER_NAME = TableValues(
    key="interposer_name",
    label=_("Nom de l'allié"),
    fields=("strike.interposer_name", *(f"strike.interposer_{leaf}" for leaf in _GRAMMAR)),
    describe=lambda values: describe_name(values, _("allié")),
)
TABLES = (WEAPON, PROTECTION, HEALTH, NPC_CARD, INTERPOSER, NAME, NPC_NAME, INTERPOSER_NAME)


# --- settle --------------------------------------------------------------------------------------


def _typeset(settled: Settled) -> Settled:
    """The notes in French typography (issue 15): narrow no-break spaces before « : », inside « »."""
    return Settled(changes=settled.changes, notes=[typography(note) for note in settled.notes])


def settle(data: Mapping[str, str]) -> Settled:
    """What follows the NPCs targeted and the NPC that strikes (seed « Les conflits »):

    - several NPCs targeted by an attack make it an area attack (« Armes de zone »: one target more
      per success beyond the Menace; a plain attack targets one NPC). A manoeuvre or an ambush on
      several NPCs stays refused on its field: the game master says what is meant.
    - the NPC that strikes is one of those targeted: a number beyond the list (a row removed) becomes
      the last NPC.
    - a strike focuses at most as many attacks as the NPC's Menace (« jusqu'à autant d'attaques
      que la Menace du PNJ »), and no more than it has left this turn: the page does not lower the
      count, ``Scenario.check`` refuses it on its field (issue 14).
    - a NPC row without a name (just added) is named after its number, for the narration.
    - nobody interposes before a boss (« Le coup de boss … frappent chacun : on ne s'interpose
      pas »): the box is unticked.
    """
    raw = RawForm(Scenario, data)
    rows = len(raw.rows("npcs"))
    for i in range(rows):
        name_path = f"npcs.{i}.name"
        if name_path in raw.data and not raw.data[name_path].strip():
            # a row added (« Ajouter un PNJ ») comes without a name: the narration needs one
            raw.set(
                name_path,
                _("PNJ n°{n}").format(n=i + 1),
                _("PNJ n°{n} : à choisir dans le bestiaire ou à nommer.").format(n=i + 1),
            )
    if raw.get("action") == Action.ATTACK.value and rows > 1:
        raw.set(
            "action",
            Action.AREA.value,
            _("Plusieurs PNJ visés : action « Arme de zone contre plusieurs PNJ »."),
        )
    striker = raw.number("strike.striker")
    if striker is not None and striker > rows:
        striker = rows
        raw.set("strike.striker", rows, _("PNJ qui frappe : le n°{n}, le dernier des PNJ visés.").format(n=rows))
    if striker is None or striker < 1 or not raw.flag("strike.enabled"):
        return _typeset(raw.settled())
    prefix = f"npcs.{striker - 1}."
    who = role_noun(raw.get(prefix + "name") or "", grammar_of(raw.data, prefix + "grammar.") or Grammar(), _("PNJ"))
    # the attacks focused are the game master's choice: more than the Menace, or than the NPC has
    # left this turn, is refused on « Attaques concentrées » by ``Scenario.check`` (issue 14), never
    # lowered here
    if raw.flag("strike.interpose") and raw.flag(prefix + "boss"):
        raw.set(
            "strike.interpose",
            False,
            _("Personne ne s'interpose devant le coup de boss {de_name}.").format(de_name=who.de),
        )
    return _typeset(raw.settled())
