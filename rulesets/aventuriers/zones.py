"""Facing and zones on the square grid (seed § « Orientation et zones », Livret Aventure p. 16, 18,
19 and 21).

A small helper, not a board game engine: the target stands on the centre square, the attacker
``dx`` columns east and ``dy`` rows south of it, each looks north, east, south or west. From that
come the three zones of the seed — attack zone (3 squares in front, the weapon may add the
diagonals), defence zone (the 8 around), back zone (the 3 behind) — and the verdicts the page
shows: may the attacker strike in melee, is it a back attack, may it shoot.

A line "traverses" a back zone when the segment between the two square centres passes through the
interior of one of its three squares; in the figure's frame, with ``b`` squares behind and ``r``
squares to the side, that is ``b ≥ 1`` and ``|r| < 3·b`` (a line grazing a corner does not count).
"""

from __future__ import annotations

from dataclasses import dataclass

from rulesets.aventuriers.model import Board, Facing, Mode, ZoneShape
from rulesets.core.french import count
from rulesets.core.i18n import _

RULE_ZONES = _("Orientation et zones — Livret Aventure, p. 18")
RULE_RANGED = _("Attaque à distance — Livret Aventure, p. 21")
RULE_ENGAGEMENT = _("Engagement — Livret Aventure, p. 19")

_VECTORS: dict[Facing, tuple[int, int]] = {
    Facing.NORTH: (0, -1),
    Facing.EAST: (1, 0),
    Facing.SOUTH: (0, 1),
    Facing.WEST: (-1, 0),
}


def local(facing: Facing, vx: int, vy: int) -> tuple[int, int]:
    """The vector ``(vx, vy)`` (east, south) in a figure's frame: (squares ahead, squares to its
    right)."""
    fx, fy = _VECTORS[facing]
    rx, ry = -fy, fx  # the right hand of a figure looking (fx, fy), y growing southwards
    return vx * fx + vy * fy, vx * rx + vy * ry


def adjacent(vx: int, vy: int) -> bool:
    return max(abs(vx), abs(vy)) == 1


def in_attack_zone(ahead: int, right: int, shape: ZoneShape, diagonals: bool) -> bool:
    """Is the square ``(ahead, right)`` (figure's frame) in the figure's attack zone?

    ``FRONT``: front-left, front, front-right; ``CROSS``: front, left, right. Diagonals add the
    two other non-back squares, so a weapon with diagonals reaches the five squares not behind.
    """
    if max(abs(ahead), abs(right)) != 1:
        return False
    if shape is ZoneShape.FRONT:
        return ahead == 1 or (diagonals and ahead == 0)
    return (ahead == 1 and right == 0) or ahead == 0 or (diagonals and ahead == 1)


def through_back_zone(ahead: int, right: int) -> bool:
    """Does the line from the figure to the square ``(ahead, right)`` traverse its back zone?"""
    behind = -ahead
    return behind >= 1 and abs(right) < 3 * behind


_SQUARE_NAMES = {
    (1, -1): _("avant-gauche"),
    (1, 0): _("avant"),
    (1, 1): _("avant-droite"),
    (0, -1): _("gauche"),
    (0, 1): _("droite"),
    (-1, -1): _("arrière-gauche"),
    (-1, 0): _("arrière"),
    (-1, 1): _("arrière-droite"),
}


def square_name(ahead: int, right: int) -> str:
    """French name of a square seen from a figure ("avant-gauche"), or the distance if far."""
    name = _SQUARE_NAMES.get((ahead, right))
    if name is not None:
        return name
    return _("à {n}").format(n=count(max(abs(ahead), abs(right)), _("case")))


@dataclass(frozen=True, slots=True)
class ZoneReport:
    """What the grid says about an attacker and its target."""

    distance: int
    adjacent: bool
    target_square: str  # the target seen from the attacker
    attacker_square: str  # the attacker seen from the target
    in_attack_zone: bool  # the target is in the attacker's attack zone (walls included)
    attacker_in_target_zone: bool  # the attacker is in the target's attack zone
    back_attack: bool  # the attack line traverses the target's back zone
    behind_shooter: bool  # the target is in the attacker's back (out of its sight)
    engaged: bool  # the attacker is engaged (with the target or another enemy)
    melee_possible: bool
    ranged_allowed: bool
    melee_reasons: tuple[str, ...]
    ranged_reasons: tuple[str, ...]

    def possible(self, mode: Mode) -> bool:
        return self.melee_possible if mode is Mode.MELEE else self.ranged_allowed

    def reasons(self, mode: Mode) -> tuple[str, ...]:
        return self.melee_reasons if mode is Mode.MELEE else self.ranged_reasons


def report(board: Board, shape: ZoneShape, diagonals: bool) -> ZoneReport:
    """Verdicts of the helper grid for an attacker with (or without) a weapon adding diagonals."""
    vx, vy = -board.dx, -board.dy  # from the attacker to the target
    ahead, right = local(board.attacker_facing, vx, vy)
    t_ahead, t_right = local(board.target_facing, board.dx, board.dy)
    near = adjacent(vx, vy)
    zone = in_attack_zone(ahead, right, shape, diagonals) and not board.obstacle
    melee: list[str] = []
    if not near:
        melee.append(_("la cible n'est pas sur une case adjacente"))
    elif not in_attack_zone(ahead, right, shape, diagonals):
        melee.append(_("la cible ({square}) n'est pas dans la zone d'attaque").format(square=square_name(ahead, right)))
    if near and board.obstacle:
        melee.append(_("un mur ou une porte fermée bloque la zone d'attaque"))
    behind = through_back_zone(ahead, right)
    ranged: list[str] = []
    if near:
        ranged.append(_("jamais contre un ennemi adjacent"))
    if board.engaged_together:
        ranged.append(_("l'attaquant est engagé avec cette cible"))
    if behind:
        ranged.append(_("la cible est dans le dos du tireur, hors de sa vue"))
    if not board.line_of_sight:
        ranged.append(_("pas de ligne de vue"))
    return ZoneReport(
        distance=max(abs(vx), abs(vy)),
        adjacent=near,
        target_square=square_name(ahead, right),
        attacker_square=square_name(t_ahead, t_right),
        in_attack_zone=zone,
        attacker_in_target_zone=in_attack_zone(t_ahead, t_right, shape, False) and not board.obstacle,
        back_attack=through_back_zone(t_ahead, t_right),
        behind_shooter=behind,
        engaged=board.engaged_together or board.attacker_engaged_other,
        melee_possible=not melee,
        ranged_allowed=not ranged,
        melee_reasons=tuple(melee),
        ranged_reasons=tuple(ranged),
    )


def grid(board: Board, shape: ZoneShape, diagonals: bool, radius: int = 2) -> tuple[tuple[str, ...], ...]:
    """A small picture of the situation for the page: rows of cells around the target.

    Codes: ``T`` target, ``A`` attacker, ``z`` attacker's attack zone, ``d`` target's back zone,
    ``.`` other squares. (The attacker may stand outside the picture when far.)
    """
    rows: list[tuple[str, ...]] = []
    for y in range(-radius, radius + 1):
        row: list[str] = []
        for x in range(-radius, radius + 1):
            if (x, y) == (0, 0):
                row.append("T")
            elif (x, y) == (board.dx, board.dy):
                row.append("A")
            else:
                a_ahead, a_right = local(board.attacker_facing, x - board.dx, y - board.dy)
                t_ahead, t_right = local(board.target_facing, x, y)
                if in_attack_zone(a_ahead, a_right, shape, diagonals):
                    row.append("z")
                elif t_ahead == -1 and abs(t_right) <= 1:
                    row.append("d")
                else:
                    row.append(".")
        rows.append(tuple(row))
    return tuple(rows)
