"""Attack angles and surfaces by Taille (« Adversaires multiples »).

A defender offers at most 6 attack angles (fewer when the position protects some). Each angle has
a surface given by the defender's Taille; an attacker takes the surface given by its own Taille.
Attackers pack into the angles; an attacker bigger than one angle spreads over several; one bigger
than every angle offered together is the only one able to attack. The defender loses 2 Défense
per occupied angle beyond the first. Conversely, one big attacker's single blow may cover several
small defenders whose surfaces add up to its own.
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

    @property
    def defense_malus(self) -> int:
        """−2 per occupied angle beyond the first, only when several attack (« Si plusieurs personnes »)."""
        if len(self.admitted) < 2:
            return 0
        return -ANGLE_MALUS * max(0, self.occupied_angles - 1)


def crowding(
    defender_taille: int, attacker_tailles: Sequence[int], open_angles: int, rows: Sequence[SurfaceRow]
) -> Crowding:
    """Pack the attackers (in the order given, biggest first) into the defender's open angles."""
    angle = surface_for(defender_taille, rows)
    surfaces = tuple(surface_for(t, rows) for t in attacker_tailles)
    total = angle * open_angles
    order = sorted(range(len(surfaces)), key=lambda i: (-surfaces[i], i))
    admitted: list[int] = []
    refused: list[int] = []
    if order and surfaces[order[0]] > total:
        first = order[0]
        return Crowding(
            angle, open_angles, surfaces, (first,), tuple(i for i in order if i != first), open_angles, True
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
    occupied = sum(1 for room in free if room < angle)
    return Crowding(angle, open_angles, surfaces, tuple(sorted(admitted)), tuple(sorted(refused)), occupied, False)


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
