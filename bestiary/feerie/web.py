"""The Féerie page plug-ins: the exchange (``/feerie/``) and the Action sequence (``/feerie/action/``).

The bestiary selects, the table values shown behind « Ajuster » (lines in :mod:`bestiary.feerie.lines`) and
what follows a choice (:mod:`bestiary.feerie.settle`); the page's own selects are in
``templatetags/feerie_tags.py``.
"""

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple

from django.utils.translation import gettext as _

from bestiary.feerie import lines, selectors
from bestiary.feerie import models as m
from bestiary.feerie.settle import settle_action, settle_exchange
from bestiary.feerie.state import ATTRIBUTE_FIELDS, MAX_ATTRIBUTES
from calculator.grammar import describe_grammar
from calculator.plugins import Preset, PresetGroup, Table, TableValues, WebPlugin, register
from calculator.tables import bestiary_presets, keys_by_pk, table_of, unique_keys
from rulesets.core.french import signed
from rulesets.core.request import Resolution
from rulesets.core.schema import parse_index, to_data, unflatten
from rulesets.feerie import action
from rulesets.feerie.engine import attacker_who, defender_who, derive
from rulesets.feerie.model import (
    SEED_BLOWS,
    SEED_PACES,
    Attribute,
    AttributeKind,
    BlowKind,
    Combatant,
    Exchange,
    Mode,
    Pace,
    scale_tactic,
)

TACTIC_CAPS = range(1, 9)  # the caps listed in a tactic group (any other cap is found by its key too)
TACTIC_MAX = 40  # a tactic modification is at most ±40 (Tactic's bounds)
NO_TACTIC = "aucune"


def combatant(creature: m.Creature, *, ranged: bool = False) -> Combatant:
    """A bestiary creature as an engine combatant, with the Attributs that apply in this mode."""
    attributes = tuple(
        Attribute(
            name=a.name,
            kind=AttributeKind(a.kind),
            value=a.value,
            initiative=a.initiative,
            attack=a.attack,
            defense=a.defense,
            damage=a.damage,
            soak=a.soak,
        )
        for a in creature.attributes.all()
        if a.applies(ranged)
    )
    return Combatant(
        name=creature.name,
        grammar=creature.grammar,
        vigilance=creature.vigilance,
        habilete=creature.habilete,
        puissance=creature.puissance,
        resistance=creature.resistance,
        taille=creature.taille,
        essence=creature.essence,
        attributes=attributes,
    )


def creature_values(creature: m.Creature, *, ranged: bool = False) -> dict[str, Any]:
    """A creature's name and its grammar, its Aspects and the Attributs that apply in this mode (one blank
    row when it has none)."""
    c = combatant(creature, ranged=ranged)
    values: dict[str, Any] = {
        "name": c.name,
        **creature.grammar_values(),
        "vigilance": c.vigilance,
        "habilete": c.habilete,
        "puissance": c.puissance,
        "resistance": c.resistance,
        "taille": c.taille,
        "essence": c.essence,
    }
    for i in range(max(1, len(c.attributes))):
        a = c.attributes[i] if i < len(c.attributes) else Attribute()
        values.update(
            {
                f"attributes.{i}.name": a.name,
                f"attributes.{i}.kind": a.kind.value,
                f"attributes.{i}.value": a.value,
                f"attributes.{i}.initiative": a.initiative,
                f"attributes.{i}.attack": a.attack,
                f"attributes.{i}.defense": a.defense,
                f"attributes.{i}.damage": a.damage,
                f"attributes.{i}.soak": a.soak,
            }
        )
    return values


def creature_preset_values(creature: m.Creature, *, ranged: bool = False) -> dict[str, Any]:
    """:func:`creature_values`, and the rows beyond the creature's removed from the form (a ``False``
    value deletes a field: the previous creature's Attributs do not survive under the new one's)."""
    values = creature_values(creature, ranged=ranged)
    rows = max(1, len([a for a in creature.attributes.all() if a.applies(ranged)]))
    for i in range(rows, MAX_ATTRIBUTES):
        values.update({f"attributes.{i}.{key}": False for key in ATTRIBUTE_FIELDS})
    return values


def creature_label(creature: m.Creature) -> str:
    return creature_label_of({"name": creature.name, "taille": creature.taille})


def creature_label_of(values: dict[str, Any]) -> str:
    """« Wichtln (Taille −2) », from a creature preset's values."""
    taille = int(values.get("taille") or 0)
    return f"{values.get('name', '')} (Taille {signed(taille) if taille else 0})"


def fighter_values(creature: m.Creature) -> dict[str, Any]:
    """A creature as a combatant of the Action: its melee values derived by the exchange engine."""
    c = combatant(creature)
    dv = derive(Exchange(attacker=c, defender=c, mode=Mode.MELEE))
    return {
        "name": c.name,
        **creature.grammar_values(),
        "vigilance": c.vigilance,
        "initiative_bonus": sum(a.value for a in c.attributes if a.initiative),
        "affinities": sum(a.value for a in c.attributes if a.kind is AttributeKind.AFFINITE),
        "tactic_cap": c.tactic_cap(),
        "attack": dv.attack.total,
        "defense": dv.defense.total,
        "damage": dv.damage.total,
        "soak": dv.soak.total,
        "essence": c.essence,
        "taille": c.taille,
    }


@dataclass(frozen=True)
class Tactic:
    """A named tactic of the seed, written for its ``reference_cap`` (Sire Didimus: 4). ``key`` is the
    row's own key (``feinte``), what the page sends (issue 14); ``pk`` its id, which the admin's checks
    know it by (bestiary/validation.py)."""

    key: str
    name: str
    initiative: int
    attack: int
    defense: int
    reference_cap: int
    pk: Any = None


def tactic_preset(t: Tactic, cap: int) -> Preset:
    """``t`` scaled to ``cap`` (« Ship the seed's named tactics as presets, scaled to the character's cap »)."""
    cap = max(0, min(cap, TACTIC_MAX))
    s = scale_tactic(t.initiative, t.attack, t.defense, t.reference_cap, cap)
    values = {"initiative": s.initiative, "attack": s.attack, "defense": s.defense}
    line = lines.tactic_of(values, "")
    origin = f"{t.pk}.{cap}" if t.pk is not None else ""
    return Preset(key=f"{t.key}.{cap}", label=f"{t.name} ({line})", values=values, origin=origin)


NO_TACTIC_PRESET = Preset(NO_TACTIC, _("Aucune tactique"), {"initiative": 0, "attack": 0, "defense": 0})


@dataclass(frozen=True)
class TacticGroup(PresetGroup):
    """The seed's named tactics, each at any cap: ``<tactic>.<cap>`` (the page lists the character's cap)."""

    tactics: tuple[Tactic, ...] = ()

    def find(self, key: str) -> Preset | None:
        if key == NO_TACTIC:
            return NO_TACTIC_PRESET
        return self._at(key, lambda t: t.key)

    def find_origin(self, origin: str) -> Preset | None:
        """The tactic of id ``<pk>`` at the cap ``<cap>`` (``"3.4"``), any cap as :meth:`find`."""
        return self._at(origin, lambda t: str(t.pk))

    def _at(self, key: str, name_of: Callable[[Tactic], str]) -> Preset | None:
        name, _sep, cap = key.rpartition(".")
        t = next((t for t in self.tactics if name_of(t) == name), None)
        number = parse_index(cap)  # '²' and 5,000 digits are no cap
        if t is None or number is None:
            return None
        return tactic_preset(t, number)

    def at_cap(self, cap: int) -> list[Preset]:
        return [tactic_preset(t, cap) for t in self.tactics]


def tactics() -> tuple[Tactic, ...]:
    return tuple(
        Tactic(t.key, t.name, t.initiative, t.attack, t.defense, t.reference_cap, t.pk) for t in selectors.tactic_list()
    )


def tactic_presets() -> list[Preset]:
    return [tactic_preset(t, cap) for t in tactics() for cap in TACTIC_CAPS]


def tactic_group(key: str, prefix: str, label: str) -> TacticGroup:
    return TacticGroup(key, prefix, label, [NO_TACTIC_PRESET, *tactic_presets()], tactics=tactics())


class Side(NamedTuple):
    """A creature au contact or à distance: a row of the ``creature`` table (its Attributs differ)."""

    creature: m.Creature
    ranged: bool

    @property
    def pk(self) -> str:
        """The page's id of this side before issue 14, ``<pk>.m`` or ``<pk>.r`` (bestiary/validation.py)."""
        return f"{self.creature.pk}.{'r' if self.ranged else 'm'}"


def creature_sides(creatures: list[m.Creature]) -> list[Side]:
    """The ``creature`` table's rows, in its order: every creature au contact, then every one à distance."""
    return [Side(c, False) for c in creatures] + [Side(c, True) for c in creatures]


def side_name(side: Side) -> str:
    """What a side's key is made of: ``redcap``, ``redcap-a-distance``."""
    return f"{side.creature.name} à distance" if side.ranged else side.creature.name


def side_label(side: Side) -> str:
    return f"{creature_label(side.creature)} — {_('à distance') if side.ranged else _('au contact')}"


def _creature_presets() -> list[Preset]:
    """A creature au contact (``redcap.m``) and à distance (``redcap-a-distance.r``): the key of its row
    of the ``creature`` table (issue 14), the suffix saying which side. The page lists those of its mode;
    the encounter's « Du bestiaire » lists both, hence the suffix of the label."""
    sides = creature_sides(selectors.creature_list())
    keys = keys_by_pk(sides, side_name)
    return [
        Preset(
            key=f"{keys[s.pk]}.{'r' if s.ranged else 'm'}",
            label=side_label(s),
            values=creature_preset_values(s.creature, ranged=s.ranged),
            origin=s.pk,
        )
        for s in sides
    ]


def _untabled(
    fixed: Iterable[Preset], rows: list[Any], values: Callable[[Any], dict[str, Any]], label: Any, name: Any
) -> list[Preset]:
    """The ``fixed`` choices (« Aucune couverture »), then the rows no API table holds, each keyed by a slug
    of ``name(row)`` (issue 14): none takes a fixed choice's key (a row « Dégagé » is ``degage-2``)."""
    fixed = list(fixed)
    reserved = [p.key for p in fixed]
    keys = unique_keys([*reserved, *(name(r) for r in rows)])[len(reserved) :]
    return [*fixed, *bestiary_presets(rows, values, keys={r.pk: k for r, k in zip(rows, keys)}, label=label)]


def sg(n: int) -> str:
    """A modifier in a label: ``+2``, ``−4``, ``0``."""
    return signed(n) if n else "0"


# issue 14: a blow's or a pace's name carries the seed's numbers (rulesets.feerie.model.SEED_BLOWS,
# SEED_PACES); a preset loads the name and leaves a number blank where the table row says what the rule
# says, so that choosing another name afterwards brings that name's numbers, never the previous ones
BLOW_NUMBERS = ("attack_malus", "ranged_attack_malus", "defense_malus", "effect_value")
PACE_NUMBERS = ("malus", "charge_bonus", "divisor")
NO_BLOW = Preset(
    BlowKind.NONE.value, _("Aucun coup spécial"), {"kind": BlowKind.NONE.value, **dict.fromkeys(BLOW_NUMBERS, "")}
)
ON_FOOT = Preset("a_pied", _("À pied"), {"mounted": False, "name": "", "taille": 1, "habilete": 10})
STILL = Preset(
    "none", _("Immobile"), {"pace": "none", **dict.fromkeys(PACE_NUMBERS, "")}
)  # the seed's table lists the paces; standing still is the absence of one


def blow_values(b: m.SpecialBlow) -> dict[str, Any]:
    """A table row of special blows as the form's values: its name, and only the numbers where the row
    departs from the seed's rule for that name (an explicit override, shown as such)."""
    rule = SEED_BLOWS[BlowKind(b.kind)]
    return {"kind": b.kind, **{k: "" if getattr(b, k) == getattr(rule, k) else getattr(b, k) for k in BLOW_NUMBERS}}


def allure_values(a: m.Allure) -> dict[str, Any]:
    """A row of the allures as the form's values: its pace, and only the numbers that depart from the seed's."""
    rule = SEED_PACES[Pace(a.pace)]
    return {"pace": a.pace, **{k: "" if getattr(a, k) == getattr(rule, k) else getattr(a, k) for k in PACE_NUMBERS}}


def blow_label(b: m.SpecialBlow) -> str:
    parts = []
    if b.attack_malus:
        parts.append(_("Attaque {n}").format(n=sg(b.attack_malus)))
    if b.defense_malus:
        parts.append(_("Défense {n}").format(n=sg(b.defense_malus)))
    return f"{b.get_kind_display()} ({', '.join(parts)})" if parts else str(b.get_kind_display())


def mount_values(c: m.Creature) -> dict[str, Any]:
    return {"mounted": True, "name": c.name, **c.grammar_values(), "taille": c.taille, "habilete": c.habilete}


def allure_label(a: m.Allure) -> str:
    return f"{a.get_pace_display()} ({sg(a.malus)})"


def presets() -> list[PresetGroup]:
    """The page's bestiary choices. Each sends its row's key (issue 14, « the page sends keys too »): the
    key of its row in :func:`tables` for a creature, a mount, an allure, a special blow (the group names
    the table), a slug of the row's name for the rows no API table holds (the shot, the cover)."""
    creatures = _creature_presets()
    mount_rows, allure_rows, blow_rows = selectors.mount_list(), selectors.allure_list(), selectors.blow_list()
    mounts = [ON_FOOT, *bestiary_presets(mount_rows, mount_values, label=creature_label)]
    allures = [
        STILL,
        *bestiary_presets(
            allure_rows, allure_values, label=allure_label, name=lambda a: a.pace, origin=lambda a: a.pace
        ),
    ]
    blows = [
        NO_BLOW,
        *bestiary_presets(blow_rows, blow_values, label=blow_label, name=lambda b: b.kind, origin=lambda b: b.kind),
    ]
    ranges = selectors.range_list()
    return [
        PresetGroup("attacker", "attacker", _("Attaquant du bestiaire"), creatures, "creature"),
        tactic_group("attacker_tactic", "attacker.tactic", _("Tactique")),
        PresetGroup("attacker_mount", "attacker.mount", _("Monture"), mounts, "mount"),
        PresetGroup("defender", "defender", _("Défenseur du bestiaire"), creatures, "creature"),
        tactic_group("defender_tactic", "defender.tactic", _("Tactique")),
        PresetGroup("defender_mount", "defender.mount", _("Monture"), mounts, "mount"),
        PresetGroup("movement", "situation.movement", _("Allure de l'attaquant"), allures, "allure"),
        PresetGroup("target_movement", "situation.target_movement", _("Allure de la cible"), allures, "allure"),
        PresetGroup(
            "cover_material",
            "situation.cover",
            _("Au travers de"),
            _untabled(
                [
                    Preset(
                        "aucune",
                        _("Aucune couverture"),
                        {"mode": "none", "material": "", "quarters": 0, "influence_bonus": "", "opacity_malus": 0},
                    )
                ],
                selectors.cover_material_list(),
                lambda c: {"mode": "through", "material": c.name, "quarters": c.quarters},
                lambda c: f"{c.name} — {c.example} ({c.quarters}/4)",
                lambda c: c.name,
            ),
        ),
        PresetGroup(
            "cover_opacity",
            "situation.cover",
            _("Opacité"),
            _untabled(
                [Preset("0", _("Transparente (0)"), {"opacity_malus": 0})],
                selectors.cover_opacity_list(),
                lambda o: {"opacity_malus": o.malus},
                lambda o: f"{o.name} ({sg(o.malus)})",
                lambda o: o.name,
            ),
        ),
        PresetGroup(
            "cover_exposed",
            "situation.cover",
            _("Parties exposées"),
            _untabled(
                [],
                ranges,
                lambda r: {"mode": "exposed", "exposed_modifier": r.modifier},
                lambda r: _("taille apparente : {size} ({n})").format(size=r.apparent_size, n=sg(r.modifier)),
                lambda r: r.distance,  # the same key as in « Portée »: the row is a distance
            ),
        ),
        PresetGroup(
            "lighting",
            "situation",
            _("Éclairement"),
            _untabled(
                [Preset("plein_jour", _("Plein jour (0)"), {"lighting": 0})],
                selectors.lighting_list(),
                lambda x: {"lighting": x.contact},
                lambda x: _("{name} ({contact} au contact, {distance} à distance)").format(
                    name=x.name, contact=sg(x.contact), distance=sg(x.distance)
                ),
                lambda x: x.name,
            ),
        ),
        PresetGroup(
            "difficulty",
            "situation",
            _("Difficulté du tir"),
            _untabled(
                [],
                selectors.difficulty_list(),
                lambda x: {"difficulty": x.modifier},
                lambda x: f"{x.task} ({sg(x.modifier)}) — {x.example}",
                lambda x: x.task,
            ),
        ),
        PresetGroup(
            "range",
            "situation",
            _("Portée"),
            _untabled(
                [],
                ranges,
                lambda x: {"range_modifier": x.modifier},
                lambda x: f"{x.distance} ({sg(x.modifier)})",
                lambda x: x.distance,
            ),
        ),
        PresetGroup(
            "terrain",
            "situation",
            _("Encombrement"),
            _untabled(
                [Preset("degage", _("Terrain dégagé (0)"), {"terrain": 0})],
                selectors.terrain_list(),
                lambda x: {"terrain": x.modifier},
                lambda x: f"{x.name} ({sg(x.modifier)})",
                lambda x: x.name,
            ),
        ),
        PresetGroup("blow", "blows.{row}", _("Coup spécial"), blows, "blow"),
    ]


def defaults() -> dict[str, Any]:
    data = selectors.settings_data()
    surfaces = data.pop("surfaces", None)
    if surfaces:
        data["situation"] = {"surfaces": surfaces}
    return data


def summary(resolution: Resolution) -> list[tuple[str, str, str]]:
    n = resolution.result.numbers
    s = resolution.scenario
    rows: list[tuple[str, str, str]] = [("outcome", _("Résultat"), resolution.result.outcome_label)]
    for key, label in (
        ("initiative", _("Initiative de l'attaquant")),
        ("attack", _("Attaque")),
        ("defense", _("Défense")),
        ("damage", _("Dommages")),
        ("soak", _("Encaissement")),
        ("total", _("Total du jet")),
        ("margin", _("Marge")),
    ):
        if key in ("attack", "defense", "margin") and s.situation.target_inanimate:
            continue
        rows.append((key, label, lines.plain(n[key])))
    rows.append(
        (
            "essence_lost",
            _("Essence perdue") if not s.situation.target_inanimate else _("Dommages à l'objet"),
            lines.plain(n["essence_lost"]),
        )
    )
    if not s.situation.target_inanimate:
        rows.append(
            (
                "essence_after",
                _("Essence {d.de}").format(d=defender_who(s)),
                lines.plain(n["essence_after"]),
            )
        )
    for event in resolution.result.events_of("blow"):
        rows.append((f"effect_{event.data.get('blow')}", _("Effet"), event.label))
    if resolution.result.outcome == "incident" and not s.situation.target_inanimate:
        label = _(
            "Incident : perte {a[s'il se blesse lui-même|si elle se blesse elle-même|s'ils se blessent eux-mêmes|"
            "si elles se blessent elles-mêmes]}"
        ).format(a=attacker_who(s))
        rows.append(("self_loss", label, lines.plain(n["self_loss"])))
    return rows


def variations(resolution: Resolution) -> list[tuple[str, dict[str, Any], bool]]:
    """The same dice, with the defender surprised or not, helpless or not."""
    s = resolution.scenario
    if s.situation.target_inanimate:
        return []
    out: list[tuple[str, dict[str, Any], bool]] = []
    if not s.defender.tactic.is_declared:
        out.append((_("Défenseur surpris"), {"situation.surprised": not s.situation.surprised}, s.situation.surprised))
    out.append(
        (
            _("Défenseur sans défense"),
            {"situation.defender_helpless": not s.situation.defender_helpless},
            s.situation.defender_helpless,
        )
    )
    return out


def _group(key: str, label: str, prefix: str, names: tuple[str, ...], describe: Any) -> TableValues:
    return TableValues(key, label, tuple(f"{prefix}.{n}" for n in names), describe)


GRAMMAR = ("grammar.article", "grammar.gender", "grammar.elision")


def name_table(key: str, prefix: str) -> TableValues:
    """How a combatant's name is said (issue 15): its grammar fields behind « Ajuster », the line
    « se dit « le Wichtln », au masculin ». The name is read for the line; the template draws its field
    above the disclosure, and only the grammar fields inside it."""
    name, grammar = f"{prefix}.name", f"{prefix}.grammar."

    def describe(values: Mapping[str, Any]) -> str:
        return describe_grammar(lines.text(values.get(name)), values, grammar)

    return TableValues(key, _("Grammaire du nom"), (name, *(f"{prefix}.{g}" for g in GRAMMAR)), describe)


TABLE_VALUES = (
    # a combatant's (row: "attacker" or "defender")
    name_table("name", "{row}"),
    _group(
        "aspects",
        _("Aspects"),
        "{row}",
        ("vigilance", "habilete", "puissance", "resistance", "taille", "essence"),
        lines.french(lines.aspects),
    ),
    _group(
        "tactic", _("Modifications"), "{row}.tactic", ("initiative", "attack", "defense"), lines.french(lines.tactic)
    ),
    _group(
        "modifiers",
        _("Bonus/malus occasionnels"),
        "{row}.modifiers",
        ("initiative", "attack", "defense", "damage", "soak"),
        lines.french(lines.modifiers),
    ),
    _group(
        "mount",
        _("Monture"),
        "{row}.mount",
        ("mounted", "name", "taille", "habilete", "riding_affinity", *GRAMMAR),
        lines.french(lines.mount),
    ),
    _group(
        "blow",
        _("Valeurs"),
        "blows.{row}",
        ("kind", "attack_malus", "ranged_attack_malus", "defense_malus", "effect_value"),
        lines.french(lines.blow),
    ),
    TableValues("previous", _("Activité précédente"), ("previous_loss",), lines.french(lines.previous_loss)),
    _group(
        "movement",
        _("Valeurs"),
        "situation.movement",
        ("pace", "malus", "charge_bonus", "divisor"),
        lines.french(lines.movement),
    ),
    _group(
        "target_movement",
        _("Valeurs"),
        "situation.target_movement",
        ("pace", "malus", "charge_bonus", "divisor"),
        lines.french(lines.target_movement),
    ),
    TableValues("lighting", _("Valeurs"), ("situation.lighting",), lines.french(lines.lighting)),
    _group("shot", _("Tir"), "situation", ("difficulty", "range_modifier", "terrain"), lines.french(lines.shot)),
    _group(
        "cover",
        _("Couverture"),
        "situation.cover",
        ("mode", "material", "exposed_modifier", "quarters", "owner_encaissement", "influence_bonus", "opacity_malus"),
        lines.french(lines.cover),
    ),
)


def tables() -> list[Table]:
    """The tables a request names by key (issue 14, calculator/tables.py): a creature au contact
    (``redcap``) or à distance (``redcap-a-distance``) as the attacker or the defender, a special
    blow (``desarmer``), an allure (``course``), a mount."""
    return [
        table_of(
            "creature",
            _("Créature du bestiaire"),
            ("attacker", "defender"),
            creature_sides(selectors.creature_list()),
            lambda s: to_data(combatant(s.creature, ranged=s.ranged)),
            name=side_name,
            label_of=side_label,
        ),
        table_of(  # the seed's numbers come with the name (``kind``); a row states only what departs from them
            "blow",
            _("Coup spécial"),
            ("blows.*",),
            selectors.blow_list(),
            lambda b: {k: v for k, v in blow_values(b).items() if v != ""},
            name=lambda b: b.kind,
            label_of=blow_label,
        ),
        table_of(
            "allure",
            _("Allure"),
            ("situation.movement", "situation.target_movement"),
            selectors.allure_list(),
            lambda a: {k: v for k, v in allure_values(a).items() if v != ""},
            name=lambda a: a.pace,
            label_of=allure_label,
        ),
        table_of(
            "mount",
            _("Monture"),
            ("attacker.mount", "defender.mount"),
            selectors.mount_list(),
            lambda c: {
                "mounted": True,
                "name": c.name,
                "grammar": c.grammar_data(),
                "taille": c.taille,
                "habilete": c.habilete,
            },
            label_of=creature_label,
        ),
    ]


def action_tables() -> list[Table]:
    """The Action's table by key (issue 14): a creature of the bestiary as a combatant."""
    return [
        table_of(
            "fighter",
            _("Combattant du bestiaire"),
            ("fighters.*",),
            selectors.creature_list(),
            lambda c: unflatten(fighter_values(c)),
            label_of=creature_label,
        )
    ]


PLUGIN = register(
    WebPlugin(
        slug="feerie",
        fields_template="calculator/feerie_fields.html",
        defaults=defaults,
        presets=presets,
        hidden=("situation.surfaces",),
        summary=summary,
        variations=variations,
        table_values=TABLE_VALUES,
        settle=settle_exchange,
        tables=tables,
    )
)


# --- the Action sequence -------------------------------------------------------------------------------


def action_presets() -> list[PresetGroup]:
    """The Action's bestiary choices: a creature sends its key in the ``fighter`` table (issue 14)."""
    fighters = bestiary_presets(selectors.creature_list(), fighter_values, label=creature_label)
    return [
        PresetGroup("fighter", "fighters.{row}", _("Combattant du bestiaire"), fighters, "fighter"),
        tactic_group("fighter_tactic", "fighters.{row}.tactic", _("Tactique")),
    ]


def action_summary(resolution: Resolution) -> list[tuple[str, str, str]]:
    n = resolution.result.numbers
    s = resolution.scenario
    rows: list[tuple[str, str, str]] = [("top", _("Début du décompte"), lines.plain(n["top"]))]
    names = [f.name for f in s.fighters]
    for i, f in enumerate(s.fighters):
        rows.append(
            (
                f"fighter_{i}",
                f.name if f.name and names.count(f.name) == 1 else _("{name} (n°{n})").format(name=f.name, n=i + 1),
                _("Initiative {init}, Défense {d}, Essence {e}, malus de l'Action suivante {m}").format(
                    init=lines.plain(n[f"initiative_{i}"]),
                    d=lines.plain(n[f"defense_{i}"]),
                    e=lines.plain(n[f"essence_{i}"]),
                    m=lines.plain(n[f"next_malus_{i}"]),
                ),
            )
        )
    return rows


def action_variations(resolution: Resolution) -> list[tuple[str, dict[str, Any], bool]]:
    """« Action suivante »: the carried malus and the Essence left, Initiatives to roll again."""
    s = resolution.scenario
    nxt = action.next_action(s, resolution.result)
    changes: dict[str, Any] = {}
    for i, f in enumerate(nxt.fighters):
        changes.update(
            {
                f"fighters.{i}.carried_malus": f.carried_malus,
                f"fighters.{i}.essence": f.essence,
                f"fighters.{i}.surprised": False,
                f"fighters.{i}.ambush_margin": 0,
                f"fighters.{i}.initiative": None,
            }
        )
    for j in range(len(nxt.activities)):
        changes.update(
            {f"activities.{j}.rank": None, f"activities.{j}.change.rank": None, f"activities.{j}.term": None}
        )
    return [(_("Action suivante (malus reportés, Initiative à relancer)"), changes, False)]


DEFAULT_DECLARATIONS = [
    # the page opens on a fight, not on an empty countdown: the seed's Rübezahl and Serpent à Sornettes
    {"actor": 1, "kind": "attack", "label": "tente d'hypnotiser Rübezahl", "targets": "0"},
    {"actor": 0, "kind": "attack", "label": "assomme le Serpent", "targets": "1"},
]


def action_defaults() -> dict[str, Any]:
    return {**selectors.settings_data(), "activities": [dict(a) for a in DEFAULT_DECLARATIONS]}


ACTION_TABLE_VALUES = (
    name_table("fighter_name", "fighters.{row}"),
    _group(
        "fighter",
        _("Valeurs"),
        "fighters.{row}",
        (
            "vigilance",
            "initiative_bonus",
            "affinities",
            "attack",
            "defense",
            "damage",
            "soak",
            "essence",
            "taille",
            "tactic_cap",
        ),
        lines.french(lines.fighter),
    ),
    _group(
        "fighter_tactic",
        _("Modifications"),
        "fighters.{row}.tactic",
        ("initiative", "attack", "defense"),
        lines.french(lines.fighter_tactic),
    ),
    _group(
        "fighter_state",
        _("État"),
        "fighters.{row}",
        ("surprised", "ambush_margin", "carried_malus", "initiative", "open_angles"),
        lines.french(lines.fighter_state),
    ),
    _group(
        "activity",
        _("Options"),
        "activities.{row}",
        ("ranged", "blunt", "aim", "rank", "bonus", "term"),
        lines.french(lines.activity),
    ),
    _group(
        "change",
        _("Changement d'intention"),
        "activities.{row}.change",
        ("rank", "note", "new_tactic", "tactic.initiative", "tactic.attack", "tactic.defense"),
        lines.french(lines.change),
    ),
)


ACTION_PLUGIN = register(
    WebPlugin(
        slug="feerie-action",
        fields_template="calculator/feerie-action_fields.html",
        defaults=action_defaults,
        presets=action_presets,
        hidden=("surfaces",),
        summary=action_summary,
        variations=action_variations,
        table_values=ACTION_TABLE_VALUES,
        settle=settle_action,
        tables=action_tables,
    )
)
