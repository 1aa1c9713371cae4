"""What follows a choice on the Féerie pages, so that the scene stays valid (``WebPlugin.settle``).

The engine says what is wrong (``parse`` and its ``check``, through :class:`~bestiary.feerie.state.Scene`);
each rule here changes only the field that became invalid, the one that follows its cause, and says so in
a French note: a tactic beyond the character's cap is brought back to it, a tactic a character may not
declare is withdrawn, a value of the other kind of attack is reset, an impossible special blow is
withdrawn. Seed ``004_6e592e6a2992f712.txt`` and ``shared/rules/feerie.md``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _

from bestiary.feerie.lines import integer, tactic_of, text
from bestiary.feerie.state import Scene, preset_rows
from calculator import bestiary_cache, plugins, services
from calculator.grammar import describe_grammar, grammar_of
from calculator.plugins import PresetGroup, Settled
from calculator.settling import RawForm
from rulesets.core.french import DEFINITE_M, Article, Elision, Gender, Grammar, Noun, join, quote, typography
from rulesets.core.registry import load_all
from rulesets.core.schema import INDEX_DIGITS, ascii_number, parse_index
from rulesets.feerie.action import ActivityKind
from rulesets.feerie.model import BlowKind, Mode, Pace, scale_tactic
from rulesets.feerie.speech import who

TACTIC_KEYS = ("initiative", "attack", "defense")
NO_TACTIC_RULE = _("Sans Affinité ni Pouvoir de combat pour cette activité, pas de tactique.")
# markers the Action's fields template writes beside the fields, to tell what the game master changed
ROW_MARKER = "_row"  # fighters.<i>._row: the row's number when the page was drawn (rows move when one is removed)
NAME_MARKER = "_name"  # fighters.<i>._name: its name then (a new name: the texts naming the old one are rewritten)
TARGETS_MARKER = "_targets"  # activities.<j>._targets[.<i>]: the targets' boxes, by the fighters' numbers then


class Settler(RawForm):
    """The raw values of a Féerie page's form (:class:`~calculator.settling.RawForm`: the page's defaults,
    the table's settings included, and its hidden fields), its bestiary selects, and the scene the engine
    reads from them (:class:`~bestiary.feerie.state.Scene`), read again after every change."""

    def __init__(self, slug: str, data: Mapping[str, str]) -> None:
        ruleset = load_all()[slug]
        self.plugin = plugins.get(slug)
        super().__init__(
            ruleset.scenario_type,
            data,
            defaults=services.flat_defaults(ruleset=ruleset)[1],  # kept per version of the bestiary
            hidden=self.plugin.hidden,
        )
        self.groups: dict[str, PresetGroup] = {g.key: g for g in bestiary_cache.presets(self.plugin)}
        self._scene: Scene | None = None

    @property
    def scene(self) -> Scene:
        if self._scene is None:
            self._scene = Scene(self.scenario_type, self.scenario_data())
        return self._scene

    def note(self, text: str) -> None:
        super().note(typography(text))

    def who(self, prefix: str, fallback: str) -> Noun:
        """The combatant at ``prefix`` as the notes name it: its name with the grammar of its fields
        (« le Wichtln », « Rübezahl »), or ``fallback`` (« l'attaquant »)."""
        return who(text(self.get(f"{prefix}.name")), self.grammar(f"{prefix}.grammar."), fallback)

    def grammar(self, prefix: str) -> Grammar:
        values = {k: self.get(f"{prefix}{k}") for k in ("article", "gender", "elision")}
        return grammar_of(values, "") or Grammar()

    def _write(self, path: str, value: str | None) -> None:
        super()._write(path, value)
        self._scene = None


def bound_tactic(s: Settler, prefix: str, cap: int, name: Noun) -> bool:
    """A tactic beyond its cap, brought back to it in proportion (« Un modificateur ne peut être supérieur à
    la somme des Affinités et des maîtrises de Pouvoirs utilisées pour l'activité »); none without a cap."""
    values = [s.number(f"{prefix}.{k}") or 0 for k in TACTIC_KEYS]
    if cap <= 0:
        changed = s.load(prefix, dict.fromkeys(TACTIC_KEYS, 0))
        if changed:
            s.note(_("{rule} Tactique {n.de} retirée.").format(rule=NO_TACTIC_RULE, n=name))
        return changed
    widest = max(abs(v) for v in values)
    if widest <= cap:
        return False
    t = scale_tactic(values[0], values[1], values[2], widest, cap)
    scaled = {"initiative": t.initiative, "attack": t.attack, "defense": t.defense}
    changed = s.load(prefix, scaled)
    if changed:
        s.note(
            _("Tactique {n.de} ramenée à son plafond (±{cap}) : {line}.").format(
                n=name, cap=cap, line=tactic_of(scaled, "")
            )
        )
    return changed


def withdraw_tactic(s: Settler, prefix: str, name: Noun, reason: str) -> bool:
    changed = s.load(prefix, dict.fromkeys(TACTIC_KEYS, 0))
    if changed:
        s.note(_("{reason} Tactique {n.de} retirée.").format(reason=reason, n=name))
    return changed


# --- the exchange ---------------------------------------------------------------------------------------


def _who(s: Settler, side: str) -> Noun:
    return s.who(side, _("attaquant") if side == "attacker" else _("défenseur"))


def follow_mode(s: Settler) -> None:
    """A bestiary creature brings the Attributs that apply in the mode of the attack: when the mode changes,
    a creature left as the bestiary gives it takes those of the other mode (an Attribut may apply au contact
    only, or à distance only). A creature whose values were adjusted is left as it is."""
    group = s.groups.get("attacker")
    if group is None:
        return
    ranged = s.get("mode") == Mode.RANGED.value
    want, other = ("r", "m") if ranged else ("m", "r")
    for side in ("attacker", "defender"):
        for preset in group.presets:
            if not preset.key.endswith("." + other) or not s.scene.is_creature(side, preset.values):
                continue
            # the other side of the same row (``12.m`` and ``12.r``): their keys differ (``redcap.m``,
            # ``redcap-a-distance.r``, issue 14), their origin only by the suffix
            twin = group.find_origin(preset.origin[: -len(other)] + want)
            if twin is not None and preset_rows(twin.values) != preset_rows(preset.values):
                s.load(side, twin.values)
                names = ", ".join(row[0] for row in preset_rows(twin.values)) or _("aucun")
                creature = s.who(side, _("attaquant") if side == "attacker" else _("défenseur"))
                template = (
                    _("À distance : {n.subject} {n[prend|prennent]} {n[ses|leurs]} Attributs à distance ({names}).")
                    if ranged
                    else _(
                        "Au contact : {n.subject} {n[prend|prennent]} {n[ses|leurs]} Attributs au contact ({names})."
                    )
                )
                s.note(template.format(n=creature, names=names))
            break


RANGED_ONLY = (
    ("situation.aim_ranks", _("les rangs de visée")),
    ("situation.difficulty", _("la difficulté du tir")),
    ("situation.range_modifier", _("la portée")),
    ("situation.terrain", _("l'encombrement")),
)
# blank numbers: a pace's or a blow's name carries the seed's numbers (issue 14), so a name chosen
# afterwards brings its own, never a 0 left here
STILL = {"pace": Pace.NONE.value, "malus": "", "charge_bonus": "", "divisor": ""}
NO_BLOW = {
    "kind": BlowKind.NONE.value,
    "attack_malus": "",
    "ranged_attack_malus": "",
    "defense_malus": "",
    "effect_value": "",
}


def fix_exchange(s: Settler) -> bool:
    """One pass over the engine's messages; True if something was changed (the scene is read again)."""
    errors = s.scene.errors()
    if not errors:
        return False
    changed = False
    for side in ("attacker", "defender"):
        if any(k.startswith(f"{side}.tactic.") for k in errors):
            changed |= bound_tactic(s, f"{side}.tactic", s.scene.tactic_cap(side), _who(s, side))
    # « un personnage surpris n'a pas la possibilité de déclarer de tactique » ; a passive one neither
    if "defender.tactic" in errors and (s.flag("situation.surprised") or s.flag("situation.defender_passive")):
        changed |= withdraw_tactic(s, "defender.tactic", _who(s, "defender"), errors["defender.tactic"])
    if "situation.charge" in errors and s.set("situation.charge", False):
        s.note(_("{reason} Charge retirée.").format(reason=errors["situation.charge"]))
        changed = True
    reset = [label for path, label in RANGED_ONLY if path in errors and s.set(path, 0)]
    if "situation.target_movement.pace" in errors and s.load("situation.target_movement", STILL):
        reset.append(_("l'allure de la cible"))
    if reset:
        s.note(
            _("Corps à corps : {what} ne comptent qu'à distance ; remis à zéro.").format(what=", ".join(reset))
            if len(reset) > 1
            else _("Corps à corps : {what} ne compte qu'à distance ; remis à zéro.").format(what=reset[0])
        )
        changed = True
    if "situation.co_attackers" in errors:
        reason = errors["situation.co_attackers"]
        cleared = [s.set(f"situation.co_attackers.{i}.count", 0) for i in s.rows("situation.co_attackers")]
        if any(cleared):
            s.note(_("{reason} Autres assaillants retirés.").format(reason=reason))
            changed = True
    if "situation.occupied_angles" in errors:
        # the angles set by the game master, once nobody else is left to place (or at range): cleared
        others = sum(s.number(f"situation.co_attackers.{i}.count") or 0 for i in s.rows("situation.co_attackers"))
        if (s.get("mode") == Mode.RANGED.value or not others) and s.set("situation.occupied_angles", None):
            s.note(_("{reason} Angles occupés effacés.").format(reason=errors["situation.occupied_angles"]))
            changed = True
    if "situation.open_angles" in errors and s.set("situation.open_angles", 5):
        s.note(errors["situation.open_angles"])
        changed = True
    if "situation.defender_rider_passive" in errors and s.set("situation.defender_rider_passive", False):
        s.note(_("{reason} Cavalier passif décoché.").format(reason=errors["situation.defender_rider_passive"]))
        changed = True
    changed |= _fix_blows(s, errors)
    return changed


def _fix_blows(s: Settler, errors: Mapping[str, str]) -> bool:
    """An impossible special blow is withdrawn (« Tenir en respect » on a bigger adversary, « Entrer dans la
    garde » on a smaller one, the same blow twice, « Acharnement » without a previous loss, any blow on an
    inanimate object), with the engine's reason."""
    changed = False
    for i in s.rows("blows"):
        key = f"blows.{i}.kind"
        relentless = s.get(key) == BlowKind.RELENTLESS.value and "previous_loss" in errors
        reason = errors.get(key) or (errors["previous_loss"] if relentless else errors.get("blows"))
        if reason and s.get(key) != BlowKind.NONE.value and s.load(f"blows.{i}", NO_BLOW):
            s.note(_("{reason} Coup spécial retiré.").format(reason=reason))
            changed = True
    return changed


def settle_exchange(data: Mapping[str, str]) -> Settled:
    s = Settler("feerie", data)
    follow_mode(s)
    for _pass in range(8):
        if not fix_exchange(s):
            break
    return s.settled()


# --- the Action -----------------------------------------------------------------------------------------


def _fighter_name(s: Settler, i: int) -> Noun:
    return s.who(f"fighters.{i}", _("combattant n°{n}").format(n=i + 1))


def _numbers(raw: Any) -> list[int]:
    numbers = (ascii_number(p, INDEX_DIGITS) for p in re.split(r"[,; ]+", text(raw)))
    return [n for n in numbers if n is not None]


def _targets_text(targets: list[int]) -> str:
    return ", ".join(str(t) for t in targets)


def _renumbering(s: Settler) -> dict[int, int] | None:
    """The fighters' numbers when the page was drawn → their numbers now (a row removed moves the next ones);
    None when the page wrote no marker (a link, the API, an encounter)."""
    mapping: dict[int, int] = {}
    for i in s.rows("fighters"):
        marker = parse_index(s.data.get(f"fighters.{i}.{ROW_MARKER}", ""))
        if marker is not None:
            mapping[marker] = i
    return mapping or None


def follow_fighters(s: Settler) -> None:
    """Activities name their combatant and targets by number: when a combatant is removed they follow the
    others, and the targets' boxes become the targets field."""
    mapping = _renumbering(s)

    def now(old: int) -> int | None:
        return old if mapping is None else mapping.get(old)

    for j in s.rows("activities"):
        p = f"activities.{j}"
        if mapping is not None:
            actor = integer(s.data.get(f"{p}.actor", ""))
            if actor is not None and now(actor) is None:
                if s.get(f"{p}.kind") != ActivityKind.NONE.value:
                    s.note(_("Activité n°{n} : son combattant a quitté la scène ; elle n'a plus lieu.").format(n=j + 1))
                s.set(f"{p}.kind", ActivityKind.NONE.value)
                s.set(f"{p}.actor", 0)
            elif actor is not None:
                s.set(f"{p}.actor", now(actor))
        if f"{p}.{TARGETS_MARKER}" in s.data:
            start = f"{p}.{TARGETS_MARKER}."
            boxes = (parse_index(k[len(start) :]) for k in s.data if k.startswith(start))
            old = sorted(n for n in boxes if n is not None)
        else:
            old = _numbers(s.data.get(f"{p}.targets", ""))
        targets = [t for t in (now(o) for o in old) if t is not None]
        if targets != _numbers(s.get(f"{p}.targets")):
            s.set(f"{p}.targets", _targets_text(targets))
    if mapping is not None:
        for j in s.rows("impersonal"):
            target = integer(s.data.get(f"impersonal.{j}.target", ""))
            if target is not None:
                s.set(f"impersonal.{j}.target", now(target))


def _names(label: str, former: str) -> bool:
    """``label`` names ``former``: the whole name, or its first word (« le Serpent » for the Serpent à
    Sornettes)."""
    text_ = label.casefold()
    name = former.casefold().strip()
    if not name:
        return False
    if name in text_:
        return True
    first = name.split()[0]
    return len(first) >= 4 and re.search(rf"(?<!\w){re.escape(first)}(?!\w)", text_) is not None


def described(s: Settler, j: int) -> str:
    """An activity's description regenerated from its targets (the engine's own words for a blank one)."""
    p = f"activities.{j}"
    if s.get(f"{p}.kind") != ActivityKind.ATTACK.value:
        return ""
    n = len(s.rows("fighters"))
    names = [_fighter_name(s, t).subject for t in _numbers(s.get(f"{p}.targets")) if t < n]
    actor = s.number(f"{p}.actor")
    verb = _fighter_name(s, actor)["attaque|attaquent"] if actor is not None and actor < n else _("attaque")
    return _("{verb} {targets}").format(verb=verb, targets=join(names)) if names else ""


def follow_names(s: Settler) -> None:
    """A combatant replaced (another creature loaded, a new name typed): the descriptions that named the
    former one, or that were the former creature's own, are written again for the new scene."""
    fighters = len(s.rows("fighters"))
    renamed: dict[int, str] = {}
    for i in range(fighters):
        former = text(s.data.get(f"fighters.{i}.{NAME_MARKER}", ""))
        if former and former != s.get(f"fighters.{i}.name"):
            renamed[i] = former
    if not renamed:
        return
    group = s.groups.get("fighter")
    loaded = {
        i
        for i in renamed
        if group is not None and any(s.scene.matches(f"fighters.{i}", p.values) for p in group.presets)
    }
    for i in sorted(renamed.keys() - loaded):
        follow_grammar(s, f"fighters.{i}", renamed[i])
    for j in s.rows("activities"):
        p = f"activities.{j}"
        label = s.get(f"{p}.label")
        if not label:
            continue
        actor = s.number(f"{p}.actor")
        if actor in loaded or any(_names(label, former) for former in renamed.values()):
            new = described(s, j)
            if s.set(f"{p}.label", new):
                who_ = (
                    _fighter_name(s, actor)
                    if actor is not None and actor < fighters
                    else Noun(_("combattant absent"), DEFINITE_M)
                )
                s.note(
                    _("Activité {n.de} : {old} devient {new}.").format(n=who_, old=quote(label), new=quote(new))
                    if new
                    else _("Activité {n.de} : {old} effacée.").format(n=who_, old=quote(label))
                )


def _first_word(name: str) -> str:
    words = name.casefold().split()
    return words[0] if words else ""


PROPER_NAME = {"article": Article.PROPER.value, "gender": Gender.MASCULINE.value, "elision": Elision.AUTO.value}


def follow_grammar(s: Settler, prefix: str, former: str) -> None:
    """A name typed over another (« Kaa » over « le Serpent à Sornettes ») is not said as the former one
    was (issue 15): it takes the grammar of a name typed by hand, a proper name, masculine, and the note
    says how to change it. A name that begins as the former one did (« Lutin 2 » after « Lutin ») keeps
    its grammar; a creature loaded from the bestiary brings its own."""
    name = text(s.get(f"{prefix}.name"))
    if not name or _first_word(name) == _first_word(former):
        return
    if s.load(f"{prefix}.grammar", PROPER_NAME):
        s.note(
            _("{new} remplace {old} : {said} (à changer sous « Grammaire du nom »).").format(
                new=quote(name), old=quote(former), said=describe_grammar(name, PROPER_NAME, "")
            )
        )


def fix_action(s: Settler) -> bool:
    errors = s.scene.errors()
    if not errors:
        return False
    changed = False
    fighters = len(s.rows("fighters"))
    for j in s.rows("activities"):
        p = f"activities.{j}"
        if f"{p}.targets" in errors:
            actor = s.number(f"{p}.actor")
            old = _numbers(s.get(f"{p}.targets"))
            clean = list(dict.fromkeys(t for t in old if t < fighters and t != actor))
            if clean != old and s.set(f"{p}.targets", _targets_text(clean)):
                if actor in old and actor is not None:
                    s.note(
                        _("{reason} {n.Subject} {n[retiré]} de {n[ses|leurs]} propres cibles.").format(
                            reason=errors[f"{p}.targets"], n=_fighter_name(s, actor)
                        )
                    )
                changed = True
        if f"{p}.aim" in errors and s.set(f"{p}.aim", False):
            s.note(_("{reason} Visée retirée.").format(reason=errors[f"{p}.aim"]))
            changed = True
    acting = {
        s.number(f"activities.{j}.actor")
        for j in s.rows("activities")
        if s.get(f"activities.{j}.kind") != ActivityKind.NONE.value
    }
    for i in range(fighters):
        p = f"fighters.{i}"
        name = _fighter_name(s, i)
        if any(k.startswith(f"{p}.tactic.") for k in errors):
            cap = s.number(f"{p}.tactic_cap")
            if cap is not None:
                changed |= bound_tactic(s, f"{p}.tactic", cap, name)
        if f"{p}.tactic" in errors and (s.flag(f"{p}.surprised") or i not in acting):
            changed |= withdraw_tactic(s, f"{p}.tactic", name, errors[f"{p}.tactic"])
    for j in s.rows("impersonal"):
        if f"impersonal.{j}.target" in errors:
            changed |= s.set(f"impersonal.{j}.target", None)
    return changed


def settle_action(data: Mapping[str, str]) -> Settled:
    s = Settler("feerie-action", data)
    follow_fighters(s)
    follow_names(s)
    for _pass in range(8):
        if not fix_action(s):
            break
    return s.settled()
