"""Dice as data, manual entry of the dice rolled at the table, and seeded server rolls.

A die is a tuple of faces. A numeric die's faces are numbers (a d6 is ``1..6``, a Quadrature
Nuisance die is ``0,1,1,2,2,3``); a symbol die's faces are counts of symbols. The rules read dice
in a fixed order: a :class:`DiceSpec` lists the slots to fill, each labelled for the form. A slot
is typed by the game master or rolled by the server from ``random.Random(seed)``; the
:class:`DiceRoll` remembers which.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from rulesets.core.i18n import _
from rulesets.core.schema import int_text

SEED_MAX = 2**31 - 1


@dataclass(frozen=True, slots=True)
class Symbols:
    """A symbol face: how many of each symbol it shows, e.g. ``{"degats": 2, "eclair": 1}``."""

    counts: tuple[tuple[str, int], ...]

    def get(self, symbol: str) -> int:
        return dict(self.counts).get(symbol, 0)

    @classmethod
    def of(cls, **counts: int) -> Symbols:
        return cls(tuple(sorted((k, v) for k, v in counts.items() if v)))


@dataclass(frozen=True, slots=True)
class Die:
    """A die: a name for people, and its faces (equally likely).

    ``faces`` holds the numeric value of each face. For a symbol die, ``symbols`` holds the
    symbols of each face in the same order and ``faces`` is the face number ``1..n``.
    """

    name: str
    faces: tuple[int, ...]
    symbols: tuple[Symbols, ...] | None = None
    face_labels: tuple[str, ...] | None = None

    def __post_init__(self) -> None:
        if not self.faces:
            raise ValueError("a die needs at least one face")
        if self.symbols is not None and len(self.symbols) != len(self.faces):
            raise ValueError("one symbol set per face")

    @property
    def distinct_faces(self) -> tuple[int, ...]:
        return tuple(sorted(set(self.faces)))

    def describe_faces(self) -> str:
        if self.face_labels:
            return ", ".join(self.face_labels)
        return ", ".join(str(f) for f in self.distinct_faces)

    def parse(self, text: str) -> int:
        """Read a typed face, or raise :class:`ValueError` with a French message."""
        raw = text.strip()
        if self.face_labels and raw in self.face_labels:
            return self.faces[self.face_labels.index(raw)]
        value = int_text(raw)
        if value is not None and value in self.faces:
            return value
        raise ValueError(
            _("« {value} » n'est pas une face du dé {die} (faces : {faces}).").format(
                value=raw, die=self.name, faces=self.describe_faces()
            )
        )

    def roll(self, rng: random.Random) -> int:
        return self.faces[rng.randrange(len(self.faces))]


def numeric_die(name: str, sides: int, start: int = 1) -> Die:
    """A die numbered ``start .. start + sides - 1``."""
    return Die(name=name, faces=tuple(range(start, start + sides)))


D6 = numeric_die("d6", 6)
D10 = numeric_die("d10", 10)
D20 = numeric_die("d20", 20)


@dataclass(frozen=True, slots=True)
class Percentile(Die):
    """The D100 read 1–100, where a typed "00" means 100."""

    def parse(self, text: str) -> int:
        raw = text.strip()
        if raw == "00":
            return 100
        return Die.parse(self, raw)


D100 = Percentile(name="D100", faces=tuple(range(1, 101)))


def is_double(value: int) -> bool:
    """A D100 double: 11, 22 … 99, and 100 (read "00")."""
    return value == 100 or (value < 100 and value % 11 == 0 and value > 0)


@dataclass(frozen=True, slots=True)
class DiceSlot:
    """One die to roll, in the order the rules read it."""

    key: str
    die: Die
    label: str


@dataclass(frozen=True, slots=True)
class DiceSpec:
    slots: tuple[DiceSlot, ...] = ()

    def keys(self) -> tuple[str, ...]:
        return tuple(s.key for s in self.slots)


@dataclass(frozen=True, slots=True)
class DiceRoll:
    """The faces read for every slot, and which of them the game master typed."""

    values: Mapping[str, int]
    typed: frozenset[str] = field(default_factory=frozenset)
    seed: int | None = None

    def __getitem__(self, key: str) -> int:
        return self.values[key]

    def get(self, key: str, default: int | None = None) -> int | None:
        return self.values.get(key, default)

    def of(self, prefix: str) -> tuple[int, ...]:
        """Values of the slots ``prefix.1``, ``prefix.2`` … in order."""
        out: list[int] = []
        i = 1
        while f"{prefix}.{i}" in self.values:
            out.append(self.values[f"{prefix}.{i}"])
            i += 1
        return tuple(out)

    def was_typed(self, key: str) -> bool:
        return key in self.typed


class DiceError(ValueError):
    """Typed dice that are not faces; ``errors`` maps each slot key to a French message."""

    def __init__(self, errors: Mapping[str, str]) -> None:
        super().__init__("; ".join(errors.values()))
        self.errors = dict(errors)


def pool(prefix: str, die: Die, count: int, label: str) -> tuple[DiceSlot, ...]:
    """``count`` slots ``prefix.1 … prefix.count`` of the same die, labelled "label n°i"."""
    return tuple(DiceSlot(key=f"{prefix}.{i}", die=die, label=f"{label} n°{i}") for i in range(1, count + 1))


def new_seed(rng: random.Random | None = None) -> int:
    return (rng or random.SystemRandom()).randint(1, SEED_MAX)


def roll_dice(spec: DiceSpec, typed: Mapping[str, str] | None = None, seed: int | None = None) -> DiceRoll:
    """Fill every slot of ``spec``: the typed faces, then the blanks from ``Random(seed)``.

    Blank slots are rolled in slot order from one generator, so the same seed and the same typed
    dice always give the same roll. Typed keys that are not slots of ``spec`` are ignored only if
    blank; otherwise they are refused (a die the rules do not read).
    """
    typed = typed or {}
    errors: dict[str, str] = {}
    values: dict[str, int] = {}
    typed_keys: set[str] = set()
    slot_keys = set(spec.keys())
    for key, text in typed.items():
        if key not in slot_keys and str(text).strip():
            errors[key] = _("Ce dé n'est pas lancé dans cette situation.")
    if seed is None:
        seed = new_seed()
    if not 0 <= seed <= SEED_MAX:
        raise DiceError({"seed": _("La graine doit être un entier entre 0 et {max}.").format(max=SEED_MAX)})
    rng = random.Random(seed)
    for slot in spec.slots:
        text = str(typed.get(slot.key, "") or "").strip()
        rolled = slot.die.roll(rng)  # always drawn, so typing one die never shifts the others
        if text:
            try:
                values[slot.key] = slot.die.parse(text)
                typed_keys.add(slot.key)
            except ValueError as exc:
                errors[slot.key] = f"{slot.label} : {exc}"
        else:
            values[slot.key] = rolled
    if errors:
        raise DiceError(errors)
    return DiceRoll(values=values, typed=frozenset(typed_keys), seed=seed)


def fixed_roll(values: Mapping[str, int] | Sequence[tuple[str, int]]) -> DiceRoll:
    """A roll where every die was typed (tests and worked examples)."""
    mapping = dict(values)
    return DiceRoll(values=mapping, typed=frozenset(mapping), seed=None)
