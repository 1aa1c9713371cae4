"""The Nephilim page plug-in: template, bestiary presets, table values, the settled scene, Résultat
final and margin variations."""

from typing import Any

from django.utils.text import slugify
from django.utils.translation import gettext as _

from bestiary.nephilim import selectors
from bestiary.nephilim.models import Ammunition, Approach, DefenceType, Effect, Protection, Weapon, _flat
from bestiary.nephilim.settle import settle
from bestiary.nephilim.summaries import TABLE_VALUES
from calculator.plugins import PresetGroup, Table, WebPlugin, register
from calculator.tables import bestiary_presets, keys_by_pk, table_of
from rulesets.core.french import signed
from rulesets.core.request import Resolution
from rulesets.core.schema import unflatten
from rulesets.nephilim.engine import plan
from rulesets.nephilim.model import DEFENDERS_MAX, ApproachKind, Mode


def combatant(creature: Any) -> dict[str, Any]:
    """A creature whole: its attacker half under ``attacker.``, its defender half under ``defender.``."""
    return {
        **{f"attacker.{k}": v for k, v in creature.as_attacker().items()},
        **{f"defender.{k}": v for k, v in creature.as_defender().items()},
    }


def weapon_label(weapon: Weapon) -> str:
    """« Épée/hache (2 PHYS) » ; a ranged or thrown weapon says so: choosing it changes the attack."""
    if weapon.category == Mode.MELEE:
        return str(weapon)
    return f"{weapon} — {Mode(weapon.category).label.removeprefix('Distance — ')}"


def ammunition_key(weapon_name: str) -> str:
    """The preset group of the ammunition a firearm takes (the template computes the same key)."""
    return slugify(f"ammunition_{weapon_name}")


# the protections of the « Armure » select and table
ARMOUR_FAMILIES = (Protection.Family.MUNDANE, Protection.Family.PHALANGE, Protection.Family.INVOCATION)


def _ammunition_for(weapon: Weapon, rows: list[Ammunition]) -> list[Ammunition]:
    return [m for m in rows if m.compatible_id is None or m.compatible_id == weapon.pk]


def presets() -> list[PresetGroup]:
    """The page's bestiary choices. Each sends its row's key, the key the API and the CLI take
    (issue 14): the groups name their table; a group that shows a part of a table (the approaches
    of an attack type, the ammunition of a firearm) keeps the keys of the whole table."""
    creatures = selectors.creature_list()
    weapons = selectors.weapon_list()
    approaches = selectors.approach_list()
    defences = selectors.defence_list()
    ammunitions = selectors.ammunition_list()
    armours = selectors.protection_list(*ARMOUR_FAMILIES)
    shields = selectors.protection_list(Protection.Family.SHIELD)
    others = selectors.protection_list(Protection.Family.MANTLE, Protection.Family.OTHER)
    defender_effects = selectors.effect_list(Effect.Side.DEFENDER)
    approach_keys = keys_by_pk(approaches)
    defence_keys = keys_by_pk(defences, defence_name)
    ammunition_keys = keys_by_pk(ammunitions)
    defender_effect_keys = keys_by_pk(defender_effects)

    def protection(p: Protection) -> dict[str, Any]:
        return p.as_scenario()

    def approach_values(a: Any) -> dict[str, Any]:
        return _flat(a.as_scenario())

    def defence_values(d: Any) -> dict[str, Any]:
        return _flat(d.as_scenario())

    def ammunition_values(m: Ammunition) -> dict[str, Any]:
        return m.as_scenario()

    def ammunition(key: str, rows: list[Ammunition]) -> PresetGroup:
        return PresetGroup(
            key,
            "attacker.ammunition",
            _("Munition"),
            bestiary_presets(rows, ammunition_values, keys=ammunition_keys),
            "ammunition",
        )

    return [
        PresetGroup(
            "attacker",
            "attacker",
            _("Attaquant du bestiaire"),
            bestiary_presets(creatures, lambda c: c.as_attacker()),
            "creature_attacker",
        ),
        # both halves of a creature, for an encounter's combatant (the page itself never shows it)
        PresetGroup("combatant", "", _("Combattant du bestiaire"), bestiary_presets(creatures, combatant)),
        # the whole tables of approaches, defence types and ammunition, which the encounter and the
        # settled page read (the page offers those of the attack type, of the firearm)
        PresetGroup(
            "approach", "attacker.approach", _("Approche"), bestiary_presets(approaches, approach_values), "approach"
        ),
        PresetGroup(
            "defence",
            "defenders.{row}.defence",
            _("Type de défense"),
            bestiary_presets(defences, defence_values, keys=defence_keys),
            "defence",
        ),
        ammunition("ammunition", ammunitions),
        *(
            PresetGroup(
                f"approach_{mode.value}",
                "attacker.approach",
                _("Approche"),
                bestiary_presets(
                    [a for a in approaches if ApproachKind(a.kind).mode is mode], approach_values, keys=approach_keys
                ),
                "approach",
            )
            for mode in Mode
        ),
        *(
            PresetGroup(
                f"defence_{mode.value}",
                "defenders.{row}.defence",
                _("Type de défense"),
                bestiary_presets(
                    [d for d in defences if d.context == mode.value],
                    defence_values,
                    keys=defence_keys,
                    label=lambda d: d.name,
                ),
                "defence",
            )
            for mode in Mode
        ),
        PresetGroup(
            "weapon",
            "attacker.weapon",
            _("Arme"),
            bestiary_presets(weapons, lambda w: _flat(w.as_scenario()), label=weapon_label),
            "weapon",
        ),
        *(ammunition(ammunition_key(w.name), _ammunition_for(w, ammunitions)) for w in weapons if w.firearm),
        # a firearm renamed at the table: the ammunition every firearm takes
        ammunition("ammunition_any", [m for m in ammunitions if m.compatible_id is None]),
        PresetGroup(
            "attacker_effect",
            "attacker.effects.{row}",
            _("Sort, invocation, formule"),
            bestiary_presets(selectors.effect_list(Effect.Side.ATTACKER), lambda e: e.as_scenario()),
            "attacker_effect",
        ),
        PresetGroup(
            "defender",
            "defenders.{row}",
            _("Défenseur du bestiaire"),
            bestiary_presets(creatures, lambda c: c.as_defender()),
            "creature_defender",
        ),
        PresetGroup("armour", "defenders.{row}.armour", _("Armure"), bestiary_presets(armours, protection), "armour"),
        PresetGroup("shield", "defenders.{row}.shield", _("Bouclier"), bestiary_presets(shields, protection), "shield"),
        PresetGroup(
            "other", "defenders.{row}.other", _("Manteau ou autre"), bestiary_presets(others, protection), "other"
        ),
        *(
            PresetGroup(
                f"defender_effect_{n}",
                "defender_effects.{row}",
                _("Ajouter sur ce défenseur"),
                # the target comes with the choice, so this one fills more than the API's row
                bestiary_presets(
                    defender_effects, lambda e, n=n: {**e.as_scenario(), "target": n}, keys=defender_effect_keys
                ),
            )
            for n in range(1, DEFENDERS_MAX + 1)
        ),
        PresetGroup(
            "defender_effect",
            "defender_effects.{row}",
            _("Sort, invocation, formule"),
            bestiary_presets(defender_effects, lambda e: e.as_scenario(), keys=defender_effect_keys),
            "defender_effect",
        ),
    ]


def defence_name(defence: DefenceType) -> str:
    """What a defence type's key is made of: its name is unique against one attack type, so the key
    says which (« parer-melee »)."""
    return f"{defence.name} {defence.context}"


def tables() -> list[Table]:
    """The tables a request names by key (issue 14, calculator/tables.py): an inline custom row
    gives the numbers the rule reads (a weapon its type, degree, PHYS and MAG…)."""
    protection = Protection.as_scenario
    creatures = selectors.creature_list()
    return [
        table_of(
            "creature_attacker",
            _("Attaquant du bestiaire"),
            ("attacker",),
            creatures,
            lambda c: unflatten(c.as_attacker()),
        ),
        table_of(
            "creature_defender",
            _("Défenseur du bestiaire"),
            ("defenders.*",),
            creatures,
            lambda c: unflatten(c.as_defender()),
        ),
        table_of(
            "approach",
            _("Approche"),
            ("attacker.approach",),
            selectors.approach_list(),
            Approach.as_scenario,
            required=("kind",),
        ),
        table_of(
            "weapon",
            _("Arme"),
            ("attacker.weapon",),
            selectors.weapon_list(),
            Weapon.as_scenario,
            label_of=weapon_label,
            required=("category", "degree", "phys", "mag"),
        ),
        table_of(
            "ammunition",
            _("Munition"),
            ("attacker.ammunition",),
            selectors.ammunition_list(),
            Ammunition.as_scenario,
            required=("damage_bonus",),
        ),
        table_of(
            "defence",
            _("Type de défense"),
            ("defenders.*.defence",),
            selectors.defence_list(),
            DefenceType.as_scenario,
            name=defence_name,
            required=("style", "success_reduce_phys", "success_reduce_mag"),
        ),
        table_of(
            "armour",
            _("Armure"),
            ("defenders.*.armour",),
            selectors.protection_list(*ARMOUR_FAMILIES),
            protection,
            required=("phys", "mag"),
        ),
        table_of(
            "shield",
            _("Bouclier"),
            ("defenders.*.shield",),
            selectors.protection_list(Protection.Family.SHIELD),
            protection,
            required=("phys", "mag"),
        ),
        table_of(
            "other",
            _("Manteau ou autre protection"),
            ("defenders.*.other",),
            selectors.protection_list(Protection.Family.MANTLE, Protection.Family.OTHER),
            protection,
            required=("phys", "mag"),
        ),
        table_of(
            "attacker_effect",
            _("Sort, invocation, formule (attaquant)"),
            ("attacker.effects.*",),
            selectors.effect_list(Effect.Side.ATTACKER),
            Effect.as_scenario,
            required=("name", "scope"),
        ),
        table_of(
            "defender_effect",
            _("Sort, invocation, formule (défenseur)"),
            ("defender_effects.*",),
            selectors.effect_list(Effect.Side.DEFENDER),
            Effect.as_scenario,
            required=("name", "scope"),
        ),
    ]


def summary(resolution: Resolution) -> list[tuple[str, str, str]]:
    """The "Résultat final" rows: outcome, damage taken per defender, round-suivant effects."""
    n = resolution.result.numbers
    s = resolution.scenario
    rows: list[tuple[str, str, str]] = [("outcome", _("Résultat"), resolution.result.outcome_label)]
    for i, d in enumerate(s.defenders):
        rows.append(
            (
                f"d{i + 1}.damage_taken",
                _("{d.Subject} {d:encaisse/encaissent}").format(d=d.who),
                _("{p}\u00a0PHYS · {m}\u00a0MAG").format(
                    p=n.get(f"d{i + 1}.phys_taken"), m=n.get(f"d{i + 1}.mag_taken")
                ),
            )
        )
    labels = {
        "next.defender_actions": _("Cible : actions au round suivant"),
        "next.defender_attack": _("Cible : attaque au round suivant"),
        "next.defender_defence": _("Cible : défense au round suivant"),
        "next.attacker_attack": _("{name} : attaque au round suivant").format(name=s.attacker.name),
    }
    for key, label in labels.items():
        if key in n:
            value = int(n[key] or 0)
            rows.append((key, label, signed(value)))
    return rows


def _choices(resolution: Resolution, key: str) -> list[tuple[int, int]]:
    """(defender index, choices) of each strike: ``key`` of the strike's numbers."""
    n = resolution.result.numbers
    strikes = plan(resolution.scenario)
    if len(strikes) == 1:
        return [(strikes[0].defender_index, int(n.get(key) or 0))]
    return [(st.defender_index, int(n.get(f"s{st.index}.{key}") or 0)) for st in strikes]


def variations(resolution: Resolution) -> list[tuple[str, dict[str, Any], bool]]:
    """Margin > 10: replay the same dice with each split of the attacker's choices (the best margin of
    the exchange), then of each defender's (the best margin of that defender's defences)."""
    s = resolution.scenario
    choices = max((c for _i, c in _choices(resolution, "attack_choices")), default=0)
    out: list[tuple[str, dict[str, Any], bool]] = []
    for damage in range(choices + 1) if choices else ():
        malus = choices - damage
        label = _("{d} × +1 dommage, {m} × −1 défense adverse").format(d=damage, m=malus)
        current = s.attacker.margin_damage == damage and s.attacker.margin_malus == malus
        out.append((label, {"attacker.margin_damage": damage, "attacker.margin_malus": malus}, current))
    per_defender: dict[int, int] = {}
    for index, c in _choices(resolution, "defence_choices"):
        per_defender[index] = max(per_defender.get(index, 0), c)
    for index, d_choices in sorted(per_defender.items()):
        d = s.defenders[index]
        who = _("Défenseur") if len(s.defenders) == 1 else d.name
        for damage in range(d_choices + 1) if d_choices else ():
            malus = d_choices - damage
            label = _("{who} : {d} × −1 dommage, {m} × −1 attaque adverse").format(who=who, d=damage, m=malus)
            current = d.margin_damage == damage and d.margin_malus == malus
            values = {f"defenders.{index}.margin_damage": damage, f"defenders.{index}.margin_malus": malus}
            out.append((label, values, current))
    return out


PLUGIN = register(
    WebPlugin(
        slug="nephilim",
        fields_template="calculator/nephilim_fields.html",
        presets=presets,
        summary=summary,
        variations=variations,
        table_values=TABLE_VALUES,
        settle=settle,
        tables=tables,
    )
)
