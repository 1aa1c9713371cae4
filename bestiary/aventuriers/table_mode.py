"""Table mode of the Aventuriers page: the summary lines of the table values (« Ajuster ») and the
settling of the scene (the attack follows the weapon: seed ``001``, Livret Aventure p. 17, 18, 21).

The page leads with the decisions (who, the weapon, the protection, the situation); the numbers a
bestiary pick fills (PV, dice pools, the weapon's traits, the squares of the grid) wait behind
« Ajuster », each group summed up in one French line written here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from calculator import bestiary_cache, plugins
from calculator.grammar import describe_grammar, grammar_of
from calculator.plugins import Settled, TableValues
from calculator.settling import RawForm, checked
from rulesets.aventuriers.model import DEFAULT_DICE, Action, Board, Facing, Mode, Reach, Scenario, ZoneShape
from rulesets.aventuriers.speech import figure_noun
from rulesets.aventuriers.zones import adjacent, in_attack_zone, local
from rulesets.core.french import count, plural, quote, typography

POOL_ROWS = 4  # rows of a dice pool (the scenario accepts 4 groups)
TALENTS = ("riposte", "contrecoup", "attaque_eclair", "attaque_opportunite", "coup_bas")


def _strip(values: Mapping[str, Any]) -> dict[str, Any]:
    """The values of a table keyed without the fighter (``{row}.pv`` → ``pv``)."""
    return {key.split(".", 1)[1] if key.startswith("{row}.") else key: value for key, value in values.items()}


# --- the table's dice, by their French names ------------------------------------------------------


def die_types() -> list[tuple[str, str]]:
    """(code, French name) of the table's dice, in the order of the die table."""
    dice = bestiary_cache.defaults(plugins.get("aventuriers")).get("die_types")
    if dice:
        return [(str(d["key"]), str(d["name"])) for d in dice]
    return [(d.key, d.name) for d in DEFAULT_DICE]


def _lower_first(name: str) -> str:
    return name[:1].lower() + name[1:]


def dice_text(n: int, key: str, names: Mapping[str, str]) -> str:
    """« 1 dé noir », « 2 dés bleus », « 2 dés « rouge » (inconnus) » (the toolkit's :func:`count`)."""
    name = names.get(key)
    if name is None:
        unknown = _("dé {key} (inconnu)") if n < 2 else _("dés {key} (inconnus)")
        return f"{n}\u00a0{unknown.format(key=quote(key))}"
    name = _lower_first(name)
    return count(n, name, plural(name))


def pool_text(values: Mapping[str, Any], path: str, protections: bool) -> str:
    """A dice pool in words: « 1 dé noir de protection + 1 dé bleu », « aucun dé »."""
    names = dict(die_types())
    parts = []
    for i in range(POOL_ROWS):
        die = values.get(f"{path}.{i}.die")
        if die is None:
            continue
        try:
            count = int(str(values.get(f"{path}.{i}.count", "") or 0))
        except ValueError:
            return _("nombre de dés à corriger")
        if count <= 0:
            continue
        part = dice_text(count, str(die), names)
        if protections and checked(values.get(f"{path}.{i}.protection")):
            part += " " + _("de protection")
        parts.append(part)
    return " + ".join(parts) or _("aucun dé")


# --- the summary lines ----------------------------------------------------------------------------
# Each line follows its label on the page (« Fiche aventurier, 10 PV… »): it opens in lower case and
# is in French typography (issue 15).


def describe_name(values: Mapping[str, Any]) -> str:
    """« se dit « le Gobelin », au masculin »: how the texts say the name, with its grammar (issue
    15); a role name (« Aventurier », blank) as the narrator says it, « l'aventurier »."""
    v = _strip(values)
    grammar = grammar_of(v)
    if grammar is None:
        return describe_grammar("", v)
    noun = figure_noun(str(v.get("name") or ""), grammar, monster=str(v.get("side")) == "monstre")
    said = {"article": noun.grammar.article.value, "gender": noun.grammar.gender.value}
    return typography(describe_grammar(noun.text, {**said, "elision": noun.grammar.elision.value}, prefix=""))


def describe_sheet(values: Mapping[str, Any]) -> str:
    """« aventurier, 10 PV, stamina 0 » · « monstre, 8 PV, 8 PX · Riposte, Contrecoup »."""
    v = _strip(values)
    monster = str(v.get("side")) == "monstre"
    parts = [_("monstre") if monster else _("aventurier"), _("{pv}\u00a0PV").format(pv=v.get("pv", ""))]
    if monster:
        parts.append(_("{px}\u00a0PX").format(px=v.get("px", "")))
    stamina, most = str(v.get("stamina", "")), str(v.get("stamina_max", ""))
    if not monster or stamina not in ("", "0"):
        parts.append(
            _("stamina\u00a0{n}/{max}").format(n=stamina, max=most)
            if most not in ("", "0")
            else _("stamina\u00a0{n}").format(n=stamina)
        )
    line = ", ".join(parts)
    labels = {
        "riposte": _("Riposte"),
        "contrecoup": _("Contrecoup"),
        "attaque_eclair": _("Attaque éclair"),
        "attaque_opportunite": _("Attaque d'opportunité"),
        "coup_bas": _("Coup bas"),
    }
    talents = [labels[t] for t in TALENTS if checked(v.get(t))]
    return typography(f"{line} · {', '.join(talents)}" if talents else line)


REACH_WORDS = {
    "melee": gettext_lazy("mêlée"),
    "distance": gettext_lazy("à distance"),
    "hybride": gettext_lazy("hybride"),
}


def describe_weapon(values: Mapping[str, Any]) -> str:
    """« « Épée » : mêlée, 2 dés bleus » · « « Onde de choc » : sort hybride, 2 dés bleus,
    diagonales, dégâts-éclairs » (the name is a label, in « »)."""
    v = _strip(values)
    name = quote(str(v.get("weapon.name") or "").strip() or _("Attaque"))
    reach = str(REACH_WORDS.get(str(v.get("weapon.reach")), v.get("weapon.reach") or ""))
    kind = _("sort {reach}").format(reach=reach) if checked(v.get("weapon.spell")) else reach
    traits = [kind, pool_text(v, "weapon.dice", protections=False)]
    if checked(v.get("weapon.diagonals")):
        traits.append(_("diagonales"))
    if checked(v.get("weapon.unblockable")):
        traits.append(_("imparable"))
    if checked(v.get("weapon.flash")):
        traits.append(_("dégâts-éclairs"))
    return typography(_("{name} : {traits}").format(name=name, traits=", ".join(traits)))


def describe_defence(values: Mapping[str, Any]) -> str:
    """« 1 dé noir de protection + 1 dé bleu »."""
    return typography(pool_text(_strip(values), "defence", protections=True))


DIRECTIONS = {
    (0, -1): gettext_lazy("au nord"),
    (1, -1): gettext_lazy("au nord-est"),
    (1, 0): gettext_lazy("à l'est"),
    (1, 1): gettext_lazy("au sud-est"),
    (0, 1): gettext_lazy("au sud"),
    (-1, 1): gettext_lazy("au sud-ouest"),
    (-1, 0): gettext_lazy("à l'ouest"),
    (-1, -1): gettext_lazy("au nord-ouest"),
}
LOOKS = {
    "nord": gettext_lazy("vers le nord"),
    "est": gettext_lazy("vers l'est"),
    "sud": gettext_lazy("vers le sud"),
    "ouest": gettext_lazy("vers l'ouest"),
}


def _sign(n: int) -> int:
    return (n > 0) - (n < 0)


def describe_board(values: Mapping[str, Any]) -> str:
    """« attaquant au nord de la cible, au contact ; il regarde vers le sud, la cible vers le nord »."""
    try:
        dx, dy = int(str(values.get("board.dx"))), int(str(values.get("board.dy")))
    except ValueError:
        return _("case de l'attaquant à corriger")
    looks = _("il regarde {a}, la cible {t}").format(
        a=LOOKS.get(str(values.get("board.attacker_facing")), ""),
        t=LOOKS.get(str(values.get("board.target_facing")), ""),
    )
    if (dx, dy) == (0, 0):
        return _("attaquant sur la case de la cible")
    where = DIRECTIONS[(_sign(dx), _sign(dy))]
    distance = max(abs(dx), abs(dy))
    far = _("au contact") if distance == 1 else _("à\u00a0{n}").format(n=count(distance, _("case")))
    return typography(_("attaquant {where} de la cible, {far} ; {looks}").format(where=where, far=far, looks=looks))


def _pool_paths(path: str) -> tuple[str, ...]:
    return tuple(f"{path}.{i}.{leaf}" for i in range(POOL_ROWS) for leaf in ("die", "count", "protection"))


NAME = TableValues(
    key="name",
    label=_("Nom"),
    fields=("{row}.name", "{row}.side", "{row}.grammar.article", "{row}.grammar.gender", "{row}.grammar.elision"),
    describe=describe_name,
)
SHEET = TableValues(
    key="sheet",
    label=_("Fiche"),
    fields=(
        "{row}.side",
        "{row}.pv",
        "{row}.stamina",
        "{row}.stamina_max",
        "{row}.px",
        *(f"{{row}}.{t}" for t in TALENTS),
    ),
    describe=describe_sheet,
)
WEAPON = TableValues(
    key="weapon",
    label=_("Attaque"),
    fields=(
        "{row}.weapon.name",
        "{row}.weapon.reach",
        "{row}.weapon.spell",
        "{row}.weapon.diagonals",
        "{row}.weapon.unblockable",
        "{row}.weapon.flash",
        *_pool_paths("{row}.weapon.dice"),
    ),
    describe=describe_weapon,
)
DEFENCE = TableValues(
    key="defence",
    label=_("Défense"),
    fields=_pool_paths("{row}.defence"),
    describe=describe_defence,
)
BOARD = TableValues(
    key="board",
    label=_("Cases"),
    fields=("board.dx", "board.dy", "board.attacker_facing", "board.target_facing"),
    describe=describe_board,
)
TABLES = (NAME, SHEET, WEAPON, DEFENCE, BOARD)


# --- settle: the attack follows the weapon ----------------------------------------------------------


def _board(raw: RawForm, dx: int, dy: int) -> Board:
    return Board(
        dx=dx,
        dy=dy,
        attacker_facing=Facing(raw.get("board.attacker_facing")),
        target_facing=Facing(raw.get("board.target_facing")),
        obstacle=raw.flag("board.obstacle"),
        line_of_sight=raw.flag("board.line_of_sight"),
        engaged_together=raw.flag("board.engaged_together"),
        attacker_engaged_other=raw.flag("board.attacker_engaged_other"),
    )


def _facing_towards(vx: int, vy: int) -> Facing:
    return {(0, -1): Facing.NORTH, (1, 0): Facing.EAST, (0, 1): Facing.SOUTH, (-1, 0): Facing.WEST}[(vx, vy)]


POOLS = {
    "attacker.weapon.dice": gettext_lazy("au jet d'attaque de l'attaquant"),
    "attacker.defence": gettext_lazy("au jet de défense de l'attaquant"),
    "defender.weapon.dice": gettext_lazy("au jet d'attaque de la cible"),
    "defender.defence": gettext_lazy("au jet de défense de la cible"),
}


def settle(data: Mapping[str, str]) -> Settled:
    """What keeps the exchange playable: new dice rows get a die, the attack follows the weapon."""
    raw = RawForm(Scenario, data)
    new_rows(raw)
    attack_follows_weapon(raw)
    return raw.settled()


def new_rows(raw: RawForm) -> None:
    """A row added to a dice pool (« Ajouter des dés ») comes blank: it gets the first die of the
    table, so that the roll stays valid (a die must be one of the table's, seed: « Système de dés »)."""
    blank = [
        (field, where)
        for path, where in POOLS.items()
        for field, value in list(raw.data.items())
        if field.startswith(path + ".") and field.endswith(".die") and not value.strip()
    ]
    dice = die_types() if blank else []
    if not dice:
        return
    key, name = dice[0]
    for field, where in blank:
        raw.set(field, key, _("{die} ajouté {where} (à changer au besoin).").format(die=name, where=where))


def attack_follows_weapon(raw: RawForm) -> None:
    """The attack follows the attacker's weapon (monster card, weapon or spell):

    - a weapon that only shoots makes the attack a ranged one, a melee-only weapon a melee one
      (Livret Aventure p. 17: four kinds of combat action, the hybrid weapon alone chooses; the
      engine refuses the other mode). A hybrid weapon keeps the mode chosen.
    - When the zones are applied (``board.enforce``), the figure moves as the seed says it must:
      a shooter adjacent to its target steps back one square along the same line (p. 21: no ranged
      attack against an adjacent enemy, « il doit alors se déplacer »), which ends an engagement
      with it (p. 19: leaving the attack zone ends it); a melee fighter away from its target steps
      next to it, facing it if the target is not in its attack zone (p. 18: melee on a target in
      the attack zone).

    Only on the change of mode: once the attack is ranged (or melee), the squares are the game
    master's, and the grid says what they allow.
    """
    if raw.get("action") != Action.ATTACK.value:
        return
    reach, mode = raw.get("attacker.weapon.reach"), raw.get("mode")
    name = raw.get("attacker.weapon.name")
    weapon = f"«\u00a0{name}\u00a0»" if name else _("l'arme")
    if reach == Reach.RANGED.value and mode != Mode.RANGED.value:
        mode = Mode.RANGED.value
        raw.set("mode", mode, _("Attaque à distance\u00a0: {weapon} ne s'utilise qu'à distance.").format(weapon=weapon))
    elif reach == Reach.MELEE.value and mode != Mode.MELEE.value:
        mode = Mode.MELEE.value
        raw.set("mode", mode, _("Attaque de mêlée\u00a0: {weapon} ne s'utilise qu'en mêlée.").format(weapon=weapon))
    else:
        return
    dx, dy = raw.number("board.dx"), raw.number("board.dy")
    if not raw.flag("board.enforce") or dx is None or dy is None or (dx, dy) == (0, 0):
        return
    try:
        board = _board(raw, dx, dy)
        shape = ZoneShape(raw.get("rules.zone_shape"))
    except ValueError:
        return  # a bad facing or shape: its own error shows on its field
    if mode == Mode.RANGED.value and adjacent(dx, dy):
        _move(raw, 2 * dx, 2 * dy)
        if board.engaged_together:
            raw.set("board.engaged_together", False)
            raw.note(
                _(
                    "L'attaquant recule d'une case\u00a0: on ne tire pas sur un ennemi adjacent, et l'engagement prend fin."
                )
            )
        else:
            raw.note(_("L'attaquant recule d'une case\u00a0: on ne tire pas sur un ennemi adjacent."))
    elif mode == Mode.MELEE.value and not adjacent(dx, dy):
        # the square next to the target on the attacker's side, straight (in every zone shape)
        sx, sy = (_sign(dx), 0) if abs(dx) >= abs(dy) else (0, _sign(dy))
        _move(raw, sx, sy)
        diagonals = raw.flag("attacker.weapon.diagonals")
        if not in_attack_zone(*local(board.attacker_facing, -sx, -sy), shape, diagonals):
            raw.set("board.attacker_facing", _facing_towards(-sx, -sy).value)
            raw.note(
                _(
                    "L'attaquant s'avance au contact de la cible et se tourne vers elle\u00a0: la mêlée se fait dans sa zone d'attaque."
                )
            )
        else:
            raw.note(_("L'attaquant s'avance au contact de la cible\u00a0: la mêlée se fait dans sa zone d'attaque."))


def _move(raw: RawForm, dx: int, dy: int) -> None:
    """The attacker's new square: both coordinates are sent, the one that stays the same too (a move
    names its square, as the old settle did)."""
    raw.set("board.dx", dx, force=True)
    raw.set("board.dy", dy, force=True)
