"""Attack angles and surfaces by Taille (« Adversaires multiples »).

A defender offers at most 6 attack angles (fewer when the position protects some). Each angle has
a surface given by the defender's Taille; an attacker takes the surface given by its own Taille.
Attackers pack into the angles; an attacker bigger than one angle spreads over several; one bigger
than every angle offered together is the only one able to attack. The defender loses 2 Défense
per occupied angle beyond the first. Conversely, one big attacker's single blow may cover several
small defenders whose surfaces add up to its own.

Issue 14: the seed says attackers « peuvent s'y entasser » (may crowd into an angle), not that they
must. By default they are packed into the fewest angles; the game master may set how many angles
they actually occupy, from the fewest to the most the free angles allow (each attacker alone in its
own angle, a big one on the angles it fills), and the malus follows what is set.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rulesets.feerie.model import SurfaceRow

ANGLE_MALUS = 2  # Défense lost per occupied angle beyond the first ("Adversaires multiples")


def surface_for(taille: int, rows: Sequence[SurfaceRow]) -> int:
    """The surface of the table row holding ``taille`` (the nearest row when outside the table)."""
    for row in rows:
        if row.taille_min <= taille <= row.taille_max:
            return row.surface
    nearest = min(rows, key=lambda r: min(abs(taille - r.taille_min), abs(taille - r.taille_max)))
    return nearest.surface


@dataclass(frozen=True, slots=True)
class Crowding:
    """Who can attack a defender in melee, and the Défense malus it costs him."""

    angle_surface: int
    open_angles: int
    attacker_surfaces: tuple[int, ...]
    admitted: tuple[int, ...]  # indices (into the attackers given) of those who can attack
    refused: tuple[int, ...]
    occupied_angles: int
    sole_giant: bool  # one attacker bigger than every angle offered: only it attacks
    fewest: int = 0  # the angles the admitted attackers occupy packed together
    most: int = 0  # … and spread, each alone in its own angle(s), within the open angles

    @property
    def defense_malus(self) -> int:
        """−2 per occupied angle beyond the first, only when several attack (« Si plusieurs personnes »)."""
        if len(self.admitted) < 2:
            return 0
        return -ANGLE_MALUS * max(0, self.occupied_angles - 1)


def crowding(
    defender_taille: int,
    attacker_tailles: Sequence[int],
    open_angles: int,
    rows: Sequence[SurfaceRow],
    occupied: int | None = None,
) -> Crowding:
    """Pack the attackers (in the order given, biggest first) into the defender's open angles.

    « Pour chaque angle d'attaque non protégé […] un nombre d'adversaires dont la surface totale […]
    n'excède pas celle de l'angle peuvent s'y entasser. » ``occupied`` is the game master's placement
    (None: the fewest angles); it must lie between :attr:`Crowding.fewest` and :attr:`Crowding.most`,
    which the scenario's ``check()`` enforces (a ``ValueError`` here otherwise, never a clamp)."""
    angle = surface_for(defender_taille, rows)
    surfaces = tuple(surface_for(t, rows) for t in attacker_tailles)
    total = angle * open_angles
    order = sorted(range(len(surfaces)), key=lambda i: (-surfaces[i], i))
    admitted: list[int] = []
    refused: list[int] = []
    if order and surfaces[order[0]] > total:
        first = order[0]
        return Crowding(
            angle,
            open_angles,
            surfaces,
            (first,),
            tuple(i for i in order if i != first),
            open_angles,
            True,
            open_angles,
            open_angles,
        )
    free = [angle] * open_angles  # room left in each angle
    for i in order:
        need = surfaces[i]
        if need > angle:
            whole = -(-need // angle)
            empty = [k for k, room in enumerate(free) if room == angle]
            if len(empty) >= whole:
                for k in empty[:whole]:
                    free[k] = 0
                admitted.append(i)
            else:
                refused.append(i)
            continue
        slot = next((k for k, room in enumerate(free) if room >= need), None)
        if slot is None:
            refused.append(i)
        else:
            free[slot] -= need
            admitted.append(i)
    fewest = sum(1 for room in free if room < angle)
    # spread: a small attacker alone in an angle, a big one on the whole angles it fills
    most = min(open_angles, sum(max(1, -(-surfaces[i] // angle)) for i in admitted))
    if occupied is None:
        occupied = fewest
    elif not fewest <= occupied <= most:
        raise ValueError(f"{occupied} angles occupied: between {fewest} and {most}")
    return Crowding(
        angle,
        open_angles,
        surfaces,
        tuple(sorted(admitted)),
        tuple(sorted(refused)),
        occupied,
        False,
        fewest,
        most,
    )


@dataclass(frozen=True, slots=True)
class Sweep:
    """One attack of a big attacker on several smaller defenders."""

    capacity: int
    used: int

    @property
    def fits(self) -> bool:
        return self.used <= self.capacity


def sweep(attacker_taille: int, target_tailles: Sequence[int], rows: Sequence[SurfaceRow]) -> Sweep:
    """The attacker's surface bounds the total surface of the defenders one blow can reach."""
    return Sweep(surface_for(attacker_taille, rows), sum(surface_for(t, rows) for t in target_tailles))
