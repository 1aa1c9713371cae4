"""The Féerie page plug-ins: the exchange (``/feerie/``) and the Action sequence (``/feerie-action/``)."""

from typing import Any

from django.utils.translation import gettext as _

from bestiary.feerie import models as m
from bestiary.feerie import selectors
from calculator.plugins import Preset, PresetGroup, WebPlugin, register
from rulesets.core.request import Resolution
from rulesets.feerie import action
from rulesets.feerie.engine import derive
from rulesets.feerie.model import Attribute, AttributeKind, Combatant, Exchange, Mode, scale_tactic

ATTRIBUTE_ROWS = 4  # attribute rows a creature preset fills (the bestiary's largest; unused rows are blanked)
TACTIC_CAPS = range(1, 9)


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
        vigilance=creature.vigilance,
        habilete=creature.habilete,
        puissance=creature.puissance,
        resistance=creature.resistance,
        taille=creature.taille,
        essence=creature.essence,
        attributes=attributes,
    )


def creature_values(creature: m.Creature, *, ranged: bool = False) -> dict[str, Any]:
    c = combatant(creature, ranged=ranged)
    values: dict[str, Any] = {
        "name": c.name,
        "vigilance": c.vigilance,
        "habilete": c.habilete,
        "puissance": c.puissance,
        "resistance": c.resistance,
        "taille": c.taille,
        "essence": c.essence,
    }
    for i in range(max(ATTRIBUTE_ROWS, len(c.attributes))):
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


def fighter_values(creature: m.Creature) -> dict[str, Any]:
    """A creature as a combatant of the Action: its melee values derived by the exchange engine."""
    c = combatant(creature)
    dv = derive(Exchange(attacker=c, defender=c, mode=Mode.MELEE))
    return {
        "name": c.name,
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


def tactic_presets() -> list[Preset]:
    out: list[Preset] = []
    for t in selectors.tactic_list():
        for cap in TACTIC_CAPS:
            s = scale_tactic(t.initiative, t.attack, t.defense, t.reference_cap, cap)
            out.append(
                Preset(
                    key=f"{t.pk}.{cap}",
                    label=_("{name}, plafond {cap} : I {i:+d} / A {a:+d} / D {d:+d}").format(
                        name=t.name, cap=cap, i=s.initiative, a=s.attack, d=s.defense
                    ),
                    values={"initiative": s.initiative, "attack": s.attack, "defense": s.defense},
                )
            )
    return out


def _creature_presets(*, ranged: bool) -> list[Preset]:
    suffix = _("à distance") if ranged else _("au contact")
    return [
        Preset(
            key=f"{c.pk}.{'r' if ranged else 'm'}", label=f"{c} — {suffix}", values=creature_values(c, ranged=ranged)
        )
        for c in selectors.creature_list()
    ]


def presets() -> list[PresetGroup]:
    creatures = _creature_presets(ranged=False) + _creature_presets(ranged=True)
    mounts = [
        Preset(
            key=str(c.pk),
            label=str(c),
            values={"mounted": True, "name": c.name, "taille": c.taille, "habilete": c.habilete},
        )
        for c in selectors.mount_list()
    ]
    tactics = tactic_presets()
    allures = [
        Preset(
            key=a.pace,
            label=str(a),
            values={"pace": a.pace, "malus": a.malus, "charge_bonus": a.charge_bonus, "divisor": a.divisor},
        )
        for a in selectors.allure_list()
    ]
    blows = [
        Preset(
            key=b.kind,
            label=str(b),
            values={
                "kind": b.kind,
                "attack_malus": b.attack_malus,
                "ranged_attack_malus": "" if b.ranged_attack_malus is None else b.ranged_attack_malus,
                "defense_malus": b.defense_malus,
                "effect_value": b.effect_value,
            },
        )
        for b in selectors.blow_list()
    ]
    return [
        PresetGroup("attacker", "attacker", _("Attaquant du bestiaire"), creatures),
        PresetGroup("attacker_tactic", "attacker.tactic", _("Tactique de l'attaquant"), tactics),
        PresetGroup("attacker_mount", "attacker.mount", _("Monture de l'attaquant"), mounts),
        PresetGroup("defender", "defender", _("Défenseur du bestiaire"), creatures),
        PresetGroup("defender_tactic", "defender.tactic", _("Tactique du défenseur"), tactics),
        PresetGroup("defender_mount", "defender.mount", _("Monture du défenseur"), mounts),
        PresetGroup("movement", "situation.movement", _("Allure de l'attaquant"), allures),
        PresetGroup("target_movement", "situation.target_movement", _("Allure de la cible"), allures),
        PresetGroup(
            "cover_material",
            "situation.cover",
            _("Couverture à traverser"),
            [
                Preset(str(c.pk), str(c), {"mode": "through", "material": c.name, "quarters": c.quarters})
                for c in selectors.cover_material_list()
            ],
        ),
        PresetGroup(
            "cover_opacity",
            "situation.cover",
            _("Opacité de la couverture"),
            [Preset(str(o.pk), str(o), {"opacity_malus": o.malus}) for o in selectors.cover_opacity_list()],
        ),
        PresetGroup(
            "cover_exposed",
            "situation.cover",
            _("Partie exposée (taille apparente)"),
            [
                Preset(
                    str(r.pk),
                    f"{r.apparent_size} ({r.modifier:+d})",
                    {"mode": "exposed", "exposed_modifier": r.modifier},
                )
                for r in selectors.range_list()
            ],
        ),
        PresetGroup(
            "lighting",
            "situation",
            _("Éclairement"),
            [Preset(str(x.pk), str(x), {"lighting": x.contact}) for x in selectors.lighting_list()],
        ),
        PresetGroup(
            "difficulty",
            "situation",
            _("Difficulté du tir"),
            [Preset(str(x.pk), f"{x} — {x.example}", {"difficulty": x.modifier}) for x in selectors.difficulty_list()],
        ),
        PresetGroup(
            "range",
            "situation",
            _("Portée"),
            [Preset(str(x.pk), str(x), {"range_modifier": x.modifier}) for x in selectors.range_list()],
        ),
        PresetGroup(
            "terrain",
            "situation",
            _("Encombrement"),
            [Preset(str(x.pk), str(x), {"terrain": x.modifier}) for x in selectors.terrain_list()],
        ),
        PresetGroup("blow", "blows.{row}", _("Coup spécial"), blows),
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
        rows.append((key, label, str(n[key])))
    rows.append(
        (
            "essence_lost",
            _("Essence perdue") if not s.situation.target_inanimate else _("Dommages à l'objet"),
            str(n["essence_lost"]),
        )
    )
    if not s.situation.target_inanimate:
        rows.append(
            (
                "essence_after",
                _("Essence de {name}").format(name=s.defender.name or _("du défenseur")),
                str(n["essence_after"]),
            )
        )
    for event in resolution.result.events_of("blow"):
        rows.append((f"effect_{event.data.get('blow')}", _("Effet"), event.label))
    if resolution.result.outcome == "incident" and not s.situation.target_inanimate:
        rows.append(("self_loss", _("Incident : perte s'il se blesse lui-même"), str(n["self_loss"])))
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


PLUGIN = register(
    WebPlugin(
        slug="feerie",
        fields_template="calculator/feerie_fields.html",
        defaults=defaults,
        presets=presets,
        hidden=("situation.surfaces",),
        summary=summary,
        variations=variations,
    )
)


# --- the Action sequence -------------------------------------------------------------------------------


def action_presets() -> list[PresetGroup]:
    fighters = [Preset(str(c.pk), str(c), fighter_values(c)) for c in selectors.creature_list()]
    return [
        PresetGroup("fighter", "fighters.{row}", _("Combattant du bestiaire"), fighters),
        PresetGroup("fighter_tactic", "fighters.{row}.tactic", _("Tactique"), tactic_presets()),
    ]


def action_summary(resolution: Resolution) -> list[tuple[str, str, str]]:
    n = resolution.result.numbers
    s = resolution.scenario
    rows: list[tuple[str, str, str]] = [("top", _("Début du décompte"), str(n["top"]))]
    for i, f in enumerate(s.fighters):
        rows.append(
            (
                f"fighter_{i}",
                f"{i} — {f.name}",
                _("Initiative {init}, Défense {d}, Essence {e}, malus de l'Action suivante {m}").format(
                    init=n[f"initiative_{i}"], d=n[f"defense_{i}"], e=n[f"essence_{i}"], m=n[f"next_malus_{i}"]
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


ACTION_PLUGIN = register(
    WebPlugin(
        slug="feerie-action",
        fields_template="calculator/feerie-action_fields.html",
        defaults=action_defaults,
        presets=action_presets,
        hidden=("surfaces",),
        summary=action_summary,
        variations=action_variations,
    )
)
