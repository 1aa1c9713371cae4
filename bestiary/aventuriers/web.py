"""The Aventuriers page plug-in: the table's dice and settings, bestiary presets, final panel."""

from typing import Any

from django.urls import reverse
from django.utils.translation import gettext as _

from bestiary.aventuriers import selectors, table_mode
from bestiary.aventuriers.models import Monster, MonsterDie, Protection, Weapon
from calculator.forms import permalink_query
from calculator.plugins import Preset, PresetGroup, Table, WebPlugin, register
from calculator.tables import bestiary_presets, table_of
from rulesets.aventuriers import speech
from rulesets.aventuriers.model import Action, Facing, Reach
from rulesets.aventuriers.zones import adjacent
from rulesets.core.french import count, join, signed, typography
from rulesets.core.request import Resolution
from rulesets.core.schema import flatten, to_data, unflatten

POOL_ROWS = table_mode.POOL_ROWS  # rows of a dice pool on the page (the scenario accepts 4 groups)


def pool_values(path: str, rows: list[tuple[str, int, bool]], filler: str) -> dict[str, Any]:
    """Values of the ``POOL_ROWS`` rows of a dice pool; unused rows hold 0 dice."""
    out: dict[str, Any] = {}
    for i in range(POOL_ROWS):
        die, count, protection = rows[i] if i < len(rows) else (filler, 0, False)
        out[f"{path}.{i}.die"] = die
        out[f"{path}.{i}.count"] = count
        out[f"{path}.{i}.protection"] = protection
    return out


def weapon_values(weapon: Weapon, filler: str) -> dict[str, Any]:
    rows = [(r.die.key, r.count, False) for r in weapon.dice.all()]
    return {
        "name": weapon.name,
        "reach": weapon.reach,
        "spell": weapon.spell,
        "diagonals": weapon.diagonals,
        "unblockable": weapon.unblockable,
        "flash": weapon.flash,
        **pool_values("dice", rows, filler),
    }


def protection_values(protection: Protection, filler: str) -> dict[str, Any]:
    rows = [(r.die.key, r.count, True) for r in protection.dice.all()]
    return pool_values("defence", rows, filler)


def monster_values(monster: Monster, filler: str) -> dict[str, Any]:
    attack = [(r.die.key, r.count, False) for r in monster.dice.all() if r.roll == MonsterDie.Roll.ATTACK]
    defence = [(r.die.key, r.count, False) for r in monster.dice.all() if r.roll == MonsterDie.Roll.DEFENCE]
    return {
        "name": monster.name,
        **monster.grammar_values("grammar."),
        "side": "monstre",
        "pv": monster.pv,
        "px": monster.px,
        "stamina": 0,
        "stamina_max": 0,
        "weapon.name": monster.attack_name,
        "weapon.reach": monster.reach,
        "weapon.spell": False,
        "weapon.diagonals": monster.diagonals,
        "weapon.unblockable": monster.unblockable,
        "weapon.flash": monster.flash,
        **pool_values("weapon.dice", attack, filler),
        **pool_values("defence", defence, filler),
        "riposte": monster.riposte,
        "contrecoup": monster.contrecoup,
        "attaque_eclair": monster.attaque_eclair,
        "attaque_opportunite": monster.attaque_opportunite,
        "coup_bas": monster.coup_bas,
    }


def pick_label(name: str, rows: Any, names: dict[str, str]) -> str:
    """A bestiary entry by its name and its dice: « Arc long (1 dé noir + 2 dés bleus) »."""
    dice = " + ".join(table_mode.dice_text(r.count, r.die.key, names) for r in rows)
    return f"{name} ({dice})" if dice else name


def presets() -> list[PresetGroup]:
    """The page's bestiary choices, each sending its row's key, the key of the API's ``monster``,
    ``weapon`` and ``protection`` tables (issue 14, « the page sends keys too »)."""
    dice = selectors.die_type_list()
    filler = dice[0].key if dice else "bleu"
    names = {d.key: d.name for d in dice}
    monsters = bestiary_presets(selectors.monster_list(), lambda m: monster_values(m, filler))
    weapons = bestiary_presets(
        selectors.weapon_list(),
        lambda w: weapon_values(w, filler),
        label=lambda w: pick_label(w.name, w.dice.all(), names),
    )
    protections = bestiary_presets(
        selectors.protection_list(),
        lambda p: protection_values(p, filler),
        label=lambda p: pick_label(p.name, p.dice.all(), names),
    )
    return [
        PresetGroup("atk_monster", "attacker", _("Monstre du bestiaire"), monsters, "monster"),
        PresetGroup("atk_weapon", "attacker.weapon", _("Arme ou sort"), weapons, "weapon"),
        PresetGroup("atk_protection", "attacker", _("Protection"), protections, "protection"),
        PresetGroup("def_monster", "defender", _("Monstre du bestiaire"), monsters, "monster"),
        PresetGroup("def_weapon", "defender.weapon", _("Arme ou sort"), weapons, "weapon"),
        PresetGroup("def_protection", "defender", _("Protection"), protections, "protection"),
        *board_presets(),
    ]


def _dice(rows: Any, protection: bool) -> list[dict[str, Any]]:
    return [{"die": r.die.key, "count": r.count, "protection": protection} for r in rows]


def _weapon_row(weapon: Weapon) -> dict[str, Any]:
    values = {k: v for k, v in weapon_values(weapon, "").items() if not k.startswith("dice.")}
    return {**values, "dice": _dice(weapon.dice.all(), False)}


def _monster_row(monster: Monster) -> dict[str, Any]:
    """A monster card as scenario data: its dice as the card gives them (no empty rows)."""
    values = {k: v for k, v in monster_values(monster, "").items() if not k.startswith(("weapon.dice.", "defence."))}
    data = unflatten(values)
    rolls = monster.dice.all()
    data["weapon"]["dice"] = _dice([r for r in rolls if r.roll == MonsterDie.Roll.ATTACK], False)
    data["defence"] = _dice([r for r in rolls if r.roll == MonsterDie.Roll.DEFENCE], False)
    return data


def tables() -> list[Table]:
    """The tables a request names by key (issue 14, calculator/tables.py): a custom weapon gives its
    dice, a custom die its faces."""
    fighters = ("attacker", "defender")
    return [
        table_of("monster", _("Monstre du bestiaire"), fighters, selectors.monster_list(), _monster_row),
        table_of(
            "weapon",
            _("Arme ou sort"),
            tuple(f"{f}.weapon" for f in fighters),
            selectors.weapon_list(),
            _weapon_row,
            required=("dice",),
        ),
        table_of(
            "protection",
            _("Protection (jet de défense)"),
            tuple(f"{f}.defence" for f in fighters),
            selectors.protection_list(),
            lambda p: _dice(p.dice.all(), True),
        ),
        table_of(
            "die",
            _("Type de dé"),
            ("die_types.*",),
            selectors.die_types_data(),
            dict,
            name=lambda d: d["key"],
            label_of=lambda d: d["name"],
            required=("key", "name", "faces"),
        ),
    ]


GRID_RADIUS = 4  # squares of the picker around the target


def position_key(x: int, y: int) -> str:
    return f"{x}_{y}"


def board_presets() -> list[PresetGroup]:
    """The grid picker: a square places the attacker, an arrow turns a figure (no JavaScript)."""
    squares = [
        Preset(position_key(x, y), f"{x}, {y}", {"dx": x, "dy": y})
        for y in range(-GRID_RADIUS, GRID_RADIUS + 1)
        for x in range(-GRID_RADIUS, GRID_RADIUS + 1)
        if (x, y) != (0, 0)
    ]
    attacker = [Preset(f.value, f.label, {"attacker_facing": f.value}) for f in Facing]
    target = [Preset(f.value, f.label, {"target_facing": f.value}) for f in Facing]
    return [
        PresetGroup(key="pos", prefix="board", label=_("Case de l'attaquant"), presets=squares),
        PresetGroup(key="afacing", prefix="board", label=_("Orientation de l'attaquant"), presets=attacker),
        PresetGroup(key="tfacing", prefix="board", label=_("Orientation de la cible"), presets=target),
    ]


def defaults() -> dict[str, Any]:
    return selectors.settings_data()


def _yes(value: Any) -> str:
    return _("oui") if value else _("non")


def summary(resolution: Resolution) -> list[tuple[str, str, str]]:
    """Headline of the exchange: the target's PV, a kill and its PX, stamina, Riposte, engagement."""
    n = resolution.result.numbers
    s = resolution.scenario
    a, d = s.attacker, s.defender
    sa, sd = speech.fighter(a), speech.fighter(d)
    rows: list[tuple[str, str, str]] = [("outcome", _("Résultat"), resolution.result.outcome_label)]
    if s.action is Action.SUCCESS_TEST:
        rows.append(("lightning", _("Éclairs"), str(n["lightning"])))
        rows.append(("effect", _("Effet"), str(n["effect"])))
        return rows
    if n.get("allowed") is False:
        reasons = [r for e in resolution.result.events_of("not_allowed") for r in e.data["reasons"]]
        rows.append(("allowed", _("Pourquoi"), join(reasons)))
        return rows
    rows.append(("pv_lost", _("PV perdus par {d}").format(d=sd), str(n["pv_lost"])))
    rows.append(("defender_pv_after", _("PV restants {d:de}").format(d=sd), str(n["defender_pv_after"])))
    if n.get("px_gained"):
        rows.append(("px_gained", _("PX gagnés par {a}").format(a=sa), str(n["px_gained"])))
    if n.get("attacker_stamina_gained"):
        rows.append(
            (
                "attacker_stamina_after",
                _("Stamina {a:de}").format(a=sa),
                f"{a.stamina} → {n['attacker_stamina_after']} ({signed(int(n['attacker_stamina_gained'] or 0))})",
            )
        )
    if n.get("defender_stamina_gained"):
        rows.append(
            (
                "defender_stamina_after",
                _("Stamina {d:de}").format(d=sd),
                f"{d.stamina} → {n['defender_stamina_after']} ({signed(int(n['defender_stamina_gained'] or 0))})",
            )
        )
    if n.get("riposte"):
        rows.append(("riposte_damage", _("Riposte : dégâts-éclairs"), str(n["riposte_damage"])))
        rows.append(("attacker_pv_after", _("PV restants {a:de}").format(a=sa), str(n["attacker_pv_after"])))
    if n.get("defender_px_gained"):
        rows.append(("defender_px_gained", _("PX gagnés par {d}").format(d=sd), str(n["defender_px_gained"])))
    rows.append(("back_attack", _("Attaque de dos"), _yes(n.get("back_attack"))))
    rows.append(("engaged_after", _("Engagés ensemble ensuite"), _yes(n.get("engaged_after"))))
    return rows


def variations(resolution: Resolution) -> list[tuple[str, dict[str, Any], bool]]:
    """With the same dice: a hybrid weapon in melee or at range; the zones as a rule or as advice."""
    s = resolution.scenario
    out: list[tuple[str, dict[str, Any], bool]] = []
    if s.action is Action.ATTACK and s.attacker.weapon.reach is Reach.HYBRID:
        out.append((_("En mêlée"), {"mode": "melee"}, s.mode.value == "melee"))
        out.append((_("À distance"), {"mode": "distance"}, s.mode.value == "distance"))
    if resolution.result.events_of("not_allowed"):
        out.append((_("Les zones font règle"), {"board.enforce": True}, s.board.enforce))
        out.append((_("Jouer quand même (avis)"), {"board.enforce": False}, not s.board.enforce))
    return out


def next_exchange(resolution: Resolution, *, swap: bool) -> str:
    """A page for the next exchange of the encounter: PV, stamina and engagement carried over
    (``swap``: the target answers, the roles and the grid mirrored). New dice, no result yet."""
    s = resolution.scenario
    n = resolution.result.numbers
    flat = {
        k: v
        for k, v in flatten(to_data(s)).items()
        if not k.startswith(("die_types.", "attack_totals.", "defence_totals.", "riposte_totals."))
    }
    flat["attacker.pv"] = n["attacker_pv_after"]
    flat["defender.pv"] = n["defender_pv_after"]
    flat["attacker.stamina"] = n.get("attacker_stamina_after", s.attacker.stamina)
    flat["defender.stamina"] = n.get("defender_stamina_after", s.defender.stamina)
    flat["board.engaged_together"] = n["engaged_after"]
    flat["board.attacker_engaged_other"] = n["attacker_engaged_other_after"]
    if swap:
        swapped: dict[str, Any] = {}
        for key, value in flat.items():
            if key.startswith("attacker."):
                swapped["defender." + key[len("attacker.") :]] = value
            elif key.startswith("defender."):
                swapped["attacker." + key[len("defender.") :]] = value
            else:
                swapped[key] = value
        flat = swapped
        flat["action"] = Action.ATTACK.value
        flat["board.dx"], flat["board.dy"] = -s.board.dx, -s.board.dy
        flat["board.attacker_facing"], flat["board.target_facing"] = (
            s.board.target_facing.value,
            s.board.attacker_facing.value,
        )
        flat["board.attacker_engaged_other"] = False
        reach = s.defender.weapon.reach
        near = adjacent(s.board.dx, s.board.dy)
        ranged = reach is Reach.RANGED or (reach is Reach.HYBRID and not near)
        flat["mode"] = "distance" if ranged else "melee"
    query = permalink_query({"scenario": unflatten(flat), "dice": {}}, None)
    return f"{reverse('calculator', args=['aventuriers'])}?{query.urlencode()}"


def next_exchanges(resolution: Resolution | None) -> list[tuple[str, str]]:
    """Links to go on with the encounter, when both characters still stand."""
    if resolution is None or resolution.scenario.action is Action.SUCCESS_TEST:
        return []
    n = resolution.result.numbers
    if n.get("allowed") is False or n.get("defender_killed") or n.get("attacker_killed"):
        return []
    s = resolution.scenario
    names = {
        "a": speech.fighter(s.attacker),
        "d": speech.fighter(s.defender),
        "pa": count(int(n["attacker_pv_after"] or 0), "PV"),
        "pd": count(int(n["defender_pv_after"] or 0), "PV"),
    }
    return [
        (
            typography(_("{a:S} ({pa}) {a:continue|continuent} contre {d} ({pd})").format(**names)),
            next_exchange(resolution, swap=False),
        ),
        (
            typography(_("{d:S} ({pd}) {d:répond|répondent} {a:à} ({pa})").format(**names)),
            next_exchange(resolution, swap=True),
        ),
    ]


PLUGIN = register(
    WebPlugin(
        slug="aventuriers",
        fields_template="calculator/aventuriers_fields.html",
        defaults=defaults,
        presets=presets,
        hidden=("die_types",),
        summary=summary,
        variations=variations,
        table_values=table_mode.TABLES,
        settle=table_mode.settle,
        tables=tables,
    )
)
