"""The Nephilim page keeps its scene valid (``WebPlugin.settle``): dependent fields follow their cause.

The page sends the form's raw values; :func:`settle` returns the few changes that make the scene
one the engine accepts, each with a short French note for the game master. It changes only what
the engine refuses (``rulesets.nephilim.model``), following the seed (``002``) and
``rules/nephilim.md``:

* the attack type (mêlée, tir, lancer), the approach and the weapon agree (§2, §3: an approach is
  of one type; §4–6: a weapon is of one type; « Tir instinctif » shoots a ranged weapon in melee).
  Whichever of the three the game master just changed is the cause, the two others follow: a
  weapon (or a creature and its weapon) sets the attack type, an approach sets it too, a new
  attack type takes the table's first approach and weapon of that type (« Tir (visée 1r) », the
  standard shot, for a shot: what the encounter fills);
* each defence answers the attack type (§9–11); the seed's default against a shot or a throw is
  « Encaisser les dommages » (``rules/nephilim.md``, « Defaults that follow the attack »), against
  a melee attack « Standard »; a new defender column gets it too;
* several defenders only in coup par coup or in bursts (§14, Multi-défenseurs): the cadence becomes
  the weapon's first of coup par coup, rafale contrôlée, rafale continue; a cadence the weapon
  does not fire (§5) goes back to the single shot;
* ammunition only for firearms, and the compatible ones (§7): otherwise the standard round;
* the Approche of a Nephilim counts only with an approach (attack) or a defence type that allows
  its element (§2, §9): otherwise its value is set aside (a hidden input) and comes back as soon as
  the game master chooses an approach or a defence that allows it; an humain initié attacks with
  Ka-Soleil, an autre PNJ has no Approche, only a Nephilim adds Ka-Feu (§1, §14);
* a defender removed takes the spells aimed at it; the others keep aiming at the same defender.

Hidden inputs drawn by the fields template tell what the page showed: ``_was.mode``,
``attacker.approach._was`` (the approach's kind), ``attacker.weapon._was`` (the weapon's type), and
``defenders.<i>._n`` (the column's number, inside its row so that removing a column moves it);
``attacker._kept`` and ``defenders.<i>._kept`` hold an Approche set aside.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django.utils.translation import gettext as _

from calculator import bestiary_cache, plugins
from calculator.plugins import Settled
from calculator.settling import RawForm
from rulesets.core.encounter import Entry, Table
from rulesets.core.french import join, quote
from rulesets.core.schema import flatten, to_data
from rulesets.nephilim.encounter import absorb, aimed_shot, thrown
from rulesets.nephilim.model import (
    ELEMENT_FIELDS,
    Ammunition,
    Approach,
    ApproachKind,
    AttackerKind,
    Cadence,
    DefenceStyle,
    DefenceType,
    DefenderKind,
    Element,
    Elements,
    Mode,
    Scenario,
)

WAS_MODE = "_was.mode"
WAS_APPROACH = "attacker.approach._was"
WAS_WEAPON = "attacker.weapon._was"
NUMBER = "_n"  # defenders.<i>._n
KEPT = "_kept"  # attacker._kept, defenders.<i>._kept: an Approche value set aside
MULTI = (Cadence.CPC, Cadence.RAF_CTRL, Cadence.RAF_CONT)
LIVE = "_live"  # calculator.views.LIVE: the live redraw while the game master changes a field


def attack_words(mode: Mode) -> str:
    return {
        Mode.MELEE: _("Attaque en mêlée"),
        Mode.RANGED: _("Attaque à distance (tir)"),
        Mode.THROWN: _("Attaque à distance (lancer)"),
    }[mode]


class Raw(RawForm):
    """The Nephilim form's raw values (:class:`~calculator.settling.RawForm`), with its defenders' columns
    and its elements' boxes."""

    def __init__(self, data: Mapping[str, str]) -> None:
        super().__init__(Scenario, data)

    @property
    def defenders(self) -> range:
        return self.rows("defenders")

    def elements(self, prefix: str) -> Elements:
        return Elements(**{name: self.flag(f"{prefix}.{name}") for name in ELEMENT_FIELDS})


class Rows:
    """The table's rows (the page's bestiary preset groups), as flat scenario values."""

    def __init__(self) -> None:
        groups = bestiary_cache.presets(plugins.get("nephilim"))
        self.groups = {g.key: [p.values for p in g.presets] for g in groups}
        self.table = Table(
            scenario=None,
            entries={g.key: tuple(Entry(p.key, p.label, p.values) for p in g.presets) for g in groups},
        )

    def approach_for(self, mode: Mode) -> dict[str, Any]:
        """A melee attack: the table's « Standard »; a shot: the aimed standard shot (1 round,
        §3); a throw: « Lancer » (what the encounter fills)."""
        if mode is Mode.RANGED:
            return flatten(to_data(aimed_shot(1, self.table)))
        if mode is Mode.THROWN:
            return flatten(to_data(thrown(self.table)))
        standard = next((a for a in self.groups.get("approach", []) if a.get("kind") == ApproachKind.STANDARD), None)
        return dict(standard) if standard is not None else flatten(to_data(Approach()))

    def weapon_for(self, category: Mode) -> dict[str, Any] | None:
        """The table's first weapon of that type (none: the weapon stays, its field says why)."""
        return next((dict(w) for w in self.groups.get("weapon", []) if w.get("category") == category), None)

    def defence_for(self, mode: Mode) -> dict[str, Any]:
        """« Standard » against a melee attack, « Encaisser les dommages » against a shot or a throw."""
        if mode is not Mode.MELEE:
            return flatten(to_data(absorb(mode, self.table)))
        standard = next(
            (
                d
                for d in self.groups.get("defence", [])
                if d.get("context") == Mode.MELEE and d.get("style") == DefenceStyle.STANDARD
            ),
            None,
        )
        return dict(standard) if standard is not None else flatten(to_data(DefenceType()))

    def standard_ammunition(self) -> dict[str, Any]:
        standard = next(
            (m for m in self.groups.get("ammunition", []) if not m.get("damage_bonus") and not m.get("compatible")),
            None,
        )
        return dict(standard) if standard is not None else flatten(to_data(Ammunition()))


def expected_weapon(kind: ApproachKind, mode: Mode) -> Mode:
    """The weapon type an attack needs: « Tir instinctif » shoots a ranged weapon in melee (§2)."""
    return Mode.RANGED if kind is ApproachKind.TIR_INSTINCTIF else mode


def _cause(raw: Raw, current: Mapping[str, Any]) -> str:
    """Which of the weapon, the approach and the attack type the game master changed.

    The page draws what it showed in hidden inputs; without them (a hand-made address), a value
    given that differs from the default. Several (a hand-made address): the weapon decides, as in
    an encounter."""
    changed = []
    for cause, (was, path) in {
        "weapon": (WAS_WEAPON, "attacker.weapon.category"),
        "approach": (WAS_APPROACH, "attacker.approach.kind"),
        "mode": (WAS_MODE, "mode"),
    }.items():
        if was in raw.data:
            if raw.data[was] != current[cause]:
                changed.append(cause)
        elif path in raw.data and raw.get(path) != str(raw.default(path)):
            changed.append(cause)
    return changed[0] if changed else "weapon"


def follow_attack(raw: Raw, rows: Rows) -> None:
    """§2–6: the attack type, the approach and the weapon agree; the one changed leads."""
    mode = raw.choice("mode", Mode)
    kind = raw.choice("attacker.approach.kind", ApproachKind)
    category = raw.choice("attacker.weapon.category", Mode)
    if kind.mode is mode and category is expected_weapon(kind, mode):
        return
    cause = _cause(raw, {"weapon": category.value, "approach": kind.value, "mode": mode.value})
    if cause == "weapon":
        new_mode = Mode.MELEE if kind is ApproachKind.TIR_INSTINCTIF and category is Mode.RANGED else category
        if new_mode is not mode:
            raw.set("mode", new_mode.value)
            raw.note(
                _("{weapon}\u00a0: {attack}.").format(
                    weapon=raw.get("attacker.weapon.name"), attack=_lower(attack_words(new_mode))
                )
            )
        mode = new_mode
        if kind.mode is not mode or category is not expected_weapon(kind, mode):
            _take_approach(raw, rows, mode)
    elif cause == "approach":
        if kind.mode is not mode:
            mode = kind.mode
            raw.set("mode", mode.value)
            raw.note(
                _("{approach}\u00a0: {attack}.").format(
                    approach=raw.get("attacker.approach.name"), attack=_lower(attack_words(mode))
                )
            )
        _take_weapon(raw, rows, expected_weapon(kind, mode), raw.get("attacker.approach.name"))
    else:
        if kind.mode is not mode:
            kind = _take_approach(raw, rows, mode)
        _take_weapon(raw, rows, expected_weapon(kind, mode), attack_words(mode))


def _lower(text: str) -> str:
    return text[:1].lower() + text[1:]


def _take_approach(raw: Raw, rows: Rows, mode: Mode) -> ApproachKind:
    approach = rows.approach_for(mode)
    raw.load("attacker.approach", approach)
    raw.note(
        _("{attack}\u00a0: approche {approach}.").format(
            attack=attack_words(mode), approach=quote(str(approach["name"]))
        )
    )
    return ApproachKind(approach["kind"])


def _take_weapon(raw: Raw, rows: Rows, category: Mode, why: str) -> None:
    if raw.choice("attacker.weapon.category", Mode) is category:
        return
    weapon = rows.weapon_for(category)
    if weapon is None:
        return
    raw.load("attacker.weapon", weapon)
    raw.note(_("{why}\u00a0: arme {weapon}.").format(why=why, weapon=quote(str(weapon["name"]))))


def follow_ammunition(raw: Raw, rows: Rows) -> None:
    """§7: ammunition only for firearms, and only the compatible ones."""
    if not raw.number("attacker.ammunition.damage_bonus"):
        return
    weapon, compatible = raw.get("attacker.weapon.name"), raw.get("attacker.ammunition.compatible")
    if raw.flag("attacker.weapon.firearm") and (not compatible or compatible == weapon):
        return
    ammunition = raw.get("attacker.ammunition.name")
    standard = rows.standard_ammunition()
    raw.load("attacker.ammunition", standard)
    raw.note(
        _("{ammunition} ne convient pas à {weapon}\u00a0: munition {standard}.").format(
            ammunition=quote(ammunition), weapon=quote(weapon), standard=quote(str(standard["name"]))
        )
    )


def follow_cadence(raw: Raw) -> None:
    """§14: several defenders only in coup par coup or in bursts; §5: a cadence the weapon fires."""
    cadence = raw.choice("cadence", Cadence)
    allowed = [c for c in MULTI if raw.flag(f"attacker.weapon.cadences.{c.value}")]
    many = len(raw.defenders) > 1
    new = cadence
    if cadence is not Cadence.UNIQUE and cadence not in allowed:
        new = allowed[0] if many and allowed else Cadence.UNIQUE
    elif cadence is Cadence.UNIQUE and many and allowed:
        new = allowed[0]
    if new is cadence:
        return
    raw.set("cadence", new.value)
    if many and new is not Cadence.UNIQUE and cadence is Cadence.UNIQUE:
        raw.note(_("Plusieurs défenseurs\u00a0: cadence {cadence}.").format(cadence=quote(new.label)))
    else:
        raw.note(
            _("{weapon} ne tire pas en {old}\u00a0: cadence {new}.").format(
                weapon=quote(raw.get("attacker.weapon.name")), old=quote(cadence.label), new=quote(new.label)
            )
        )


def follow_defences(raw: Raw, rows: Rows) -> None:
    """§9–11: each defence answers the attack type; the default one otherwise."""
    mode = raw.choice("mode", Mode)
    defence = rows.defence_for(mode)
    changed = []
    for i in raw.defenders:
        if raw.choice(f"defenders.{i}.defence.context", Mode) is not mode:
            raw.load(f"defenders.{i}.defence", defence)
            name = raw.get(f"defenders.{i}.name")
            changed.append(name if name and name != _("Défenseur") else _("défenseur n°{n}").format(n=i + 1))
    if not changed:
        return
    note = _("{attack}\u00a0: défense {defence}").format(attack=attack_words(mode), defence=quote(str(defence["name"])))
    if len(raw.defenders) > 1:
        note += f" ({join(changed)})"
    raw.note(note + ".")


def follow_attacker_approche(raw: Raw) -> None:
    """§1: an autre PNJ has no Approche, an humain initié attacks with Ka-Soleil, only a Nephilim
    adds Ka-Feu; §2: a Nephilim's Approche counts with an approach that allows its element."""
    kind = raw.choice("attacker.kind", AttackerKind)
    element = raw.choice("attacker.approach_element", Element)
    value = raw.number("attacker.approach_value")
    name = raw.get("attacker.name") or _("Attaquant")
    kept = f"attacker.{KEPT}"
    if kind is AttackerKind.AUTRE:
        if value or element is not Element.NONE:
            raw.set("attacker.approach_value", 0)
            raw.set("attacker.approach_element", Element.NONE.value)
            raw.note(_("{name}\u00a0: un autre PNJ n'a pas d'Approche.").format(name=name))
        raw.mark(kept, None)
    elif kind is AttackerKind.INITIE:
        if value and element is not Element.SOLEIL:
            raw.set("attacker.approach_element", Element.SOLEIL.value)
            raw.note(_("{name}\u00a0: un humain initié attaque avec l'Approche Ka-Soleil.").format(name=name))
        raw.mark(kept, None)
    else:
        approach = quote(raw.get("attacker.approach.name"))
        allows = raw.elements("attacker.approach.elements").has(element)
        set_aside = _number(raw.data.get(kept))
        if value and element is not Element.NONE and not allows:
            raw.set("attacker.approach_value", 0)
            raw.mark(kept, str(value))
            raw.note(
                _(
                    "{name}\u00a0: l'approche {approach} n'admet pas l'Approche Ka-{element} {value}, mise de côté "
                    "jusqu'à une approche qui l'admet."
                ).format(name=name, approach=approach, element=element.label, value=value)
            )
        elif value == 0 and set_aside and allows:
            raw.set("attacker.approach_value", set_aside)
            raw.mark(kept, None)
            raw.note(
                _("{name}\u00a0: Approche Ka-{element} {value} reprise avec l'approche {approach}.").format(
                    name=name, element=element.label, value=set_aside, approach=approach
                )
            )
        elif value:
            raw.mark(kept, None)
    if raw.number("attacker.ka_feu") and kind is not AttackerKind.NEPHILIM:
        raw.set("attacker.ka_feu", 0)
        raw.note(_("{name}\u00a0: seul un Nephilim ajoute son Ka-Feu aux dommages.").format(name=name))


def follow_defender_approche(raw: Raw) -> None:
    """§1: only a Nephilim adds an Approche to its defence; §9: with a defence type that allows
    its element (else set aside until one does)."""
    for i in raw.defenders:
        row = f"defenders.{i}"
        kind = raw.choice(f"{row}.kind", DefenderKind)
        element = raw.choice(f"{row}.approach_element", Element)
        value = raw.number(f"{row}.approach_value")
        name = raw.get(f"{row}.name") or _("Défenseur")
        kept = f"{row}.{KEPT}"
        if kind is not DefenderKind.NEPHILIM:
            if value:
                raw.set(f"{row}.approach_value", 0)
                raw.note(_("{name}\u00a0: seul un Nephilim ajoute une Approche à sa défense.").format(name=name))
            raw.mark(kept, None)
            continue
        defence = quote(raw.get(f"{row}.defence.name"))
        allows = raw.elements(f"{row}.defence.elements").has(element)
        set_aside = _number(raw.data.get(kept))
        if value and element is not Element.NONE and not allows:
            raw.set(f"{row}.approach_value", 0)
            raw.mark(kept, str(value))
            raw.note(
                _(
                    "{name}\u00a0: la défense {defence} n'admet pas l'Approche Ka-{element} {value}, mise de côté "
                    "jusqu'à une défense qui l'admet."
                ).format(name=name, defence=defence, element=element.label, value=value)
            )
        elif value == 0 and set_aside and allows:
            raw.set(f"{row}.approach_value", set_aside)
            raw.mark(kept, None)
            raw.note(
                _("{name}\u00a0: Approche Ka-{element} {value} reprise avec la défense {defence}.").format(
                    name=name, element=element.label, value=set_aside, defence=defence
                )
            )
        elif value:
            raw.mark(kept, None)


def _number(text: str | None) -> int | None:
    try:
        return int(str(text).strip())
    except (TypeError, ValueError):
        return None


def follow_removed_defenders(raw: Raw) -> None:
    """A spell aimed at a defender follows it when columns are renumbered, and goes with it."""
    markers: dict[int, int] = {}
    marked: set[int] = set()
    for i in raw.defenders:
        n = _number(raw.data.get(f"defenders.{i}.{NUMBER}"))
        if n is not None:
            markers[n] = i + 1
            marked.add(i)
    count = len(raw.defenders)
    drop: list[int] = []
    for j in raw.rows("defender_effects"):
        target = raw.number(f"defender_effects.{j}.target")
        if not target:
            continue
        if target in markers:
            new: int | None = markers[target]
        elif target <= count and target - 1 not in marked:
            new = target
        else:
            new = None
        if new is None:
            drop.append(j)
            effect = raw.get(f"defender_effects.{j}.name")
            if effect:
                raw.note(_("Défenseur n°{n} retiré, et avec lui {effect}.").format(n=target, effect=quote(effect)))
        elif new != target:
            raw.set(f"defender_effects.{j}.target", new)  # the same defender, renumbered: no note
    if drop:
        drop_rows(raw, "defender_effects", drop)


def drop_rows(raw: Raw, path: str, drop: Iterable[int]) -> None:
    """Remove rows of the list ``path``: the later rows move up (as the « Retirer » button does)."""
    gone = set(drop)
    keep = [j for j in raw.rows(path) if j not in gone]
    old = {k: v for k, v in raw.data.items() if k.startswith(path + ".") and k[len(path) + 1 :].split(".")[0].isdigit()}
    new: dict[str, str] = {}
    for index, j in enumerate(keep):
        head = f"{path}.{j}."
        for key, value in old.items():
            if key.startswith(head):
                new[f"{path}.{index}.{key[len(head) :]}"] = value
    for key in old:
        if key not in new:
            raw.mark(key, None)
    for key, value in new.items():
        raw.mark(key, value)


def remember_what_was_drawn(raw: Raw) -> None:
    """A live change of the attack type, the approach or the weapon type redraws the whole form, so
    that its hidden inputs tell the next change what the page shows (every other request draws
    them anew; an address without them has nothing to remember)."""
    if LIVE not in raw.data:
        return
    for was, value in (
        (WAS_MODE, raw.choice("mode", Mode).value),
        (WAS_APPROACH, raw.choice("attacker.approach.kind", ApproachKind).value),
        (WAS_WEAPON, raw.choice("attacker.weapon.category", Mode).value),
    ):
        if was in raw.data:
            raw.mark(was, value)


def settle(data: Mapping[str, str]) -> Settled:
    raw = Raw(data)
    rows = Rows()
    follow_attack(raw, rows)
    follow_ammunition(raw, rows)
    follow_cadence(raw)
    follow_defences(raw, rows)
    follow_attacker_approche(raw)
    follow_defender_approche(raw)
    follow_removed_defenders(raw)
    remember_what_was_drawn(raw)
    return raw.settled()
