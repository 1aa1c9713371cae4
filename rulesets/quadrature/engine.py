"""Resolution of one exchange with a Quadrature adversary, as a pure function.

Four situations (:class:`~rulesets.quadrature.model.Mode`):

* the adversary plays a card against a PC: its dice (after the crans ⬆/⬇ of its mental state, the
  matchup 🟩/🟥 and Sanguinaire) are summed, four kept, and compared with the PC's Garde; ✅ or ❌,
  plus ⭐ when enough 5s show (§ Quand l'adversaire attaque un personnage);
* a PC attacks a declared part: score vs the fixed Garde (± mental state), then the full wound
  chain on that part (§ Blessures légères 💢, § Blessures graves 💔, § Fatigue, § Hémorragie,
  § États mentaux); a horde takes the simplified chain (§ Hordes);
* the round boundary of the living sheet: end-of-round bleeding, then the next round's
  regeneration from intact blocks;
* the trait Regard hypnotique.

Every step is an :class:`Event` citing the seed; the sheet after the exchange is the last event's
``data["sheet"]``, so a page can chain rounds.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from rulesets.core.dice import DiceRoll, DiceSlot, DiceSpec
from rulesets.core.french import Noun, count, quote, signed
from rulesets.core.i18n import _, fr_number
from rulesets.core.results import Event, Number, Result
from rulesets.core.schema import to_data
from rulesets.quadrature.dice import (
    KEEP,
    adversary_rungs,
    adversary_slots,
    adversary_steps,
    pc_pool,
    pc_score,
    pc_slots,
    scenario_card,
)
from rulesets.quadrature.model import (
    COURSE_COST,
    COURSE_FATIGUE,
    TRACK,
    Adversary,
    Capability,
    Card,
    CuirasseReading,
    Effect,
    Kind,
    Mental,
    Mode,
    PcSource,
    Play,
    Scenario,
    Settings,
    rule,
)
from rulesets.quadrature.names import adversary_who, pc_who
from rulesets.quadrature.sheet import (
    HORDE_ATTACK,
    armour_bonus,
    block_number,
    capability_total,
    card_available,
    card_cost,
    guard_modifier,
    horde_mood,
    members,
    part_blocks,
    threat,
)

G_ROLL = "Jet"
G_GUARD = "Garde"
G_EFFECTS = "Effets"
G_WOUNDS = "Blessures"
G_FATIGUE = "Fatigue"
G_MENTAL = "Mental"
G_ROUND = "Manche"
G_SHEET = "Fiche"


# --- dice --------------------------------------------------------------------------------------


def dice_for(s: Scenario) -> DiceSpec:
    """The dice to read, in rules order: the adversary's, then the PC's when its score is rolled."""
    slots: list[DiceSlot] = []
    if s.mode is Mode.ADVERSARY_ATTACK:
        card = scenario_card(s)
        if card is not None and card.attack:
            steps = sum(st.steps for st in adversary_steps(s.adversary, card, s.matchup, s.pc, s.settings))
            slots += adversary_slots(adversary_rungs(s.adversary, steps), s.faces)
            if s.pc.source is PcSource.ROLLED:
                slots += pc_slots(s.pc, s.pc_faces)
    elif s.mode is Mode.PC_ATTACK and s.pc.source is PcSource.ROLLED:
        slots += pc_slots(s.pc, s.pc_faces)
    return DiceSpec(tuple(slots))


# --- the working sheet -------------------------------------------------------------------------


@dataclass
class Work:
    """A mutable copy of the creature's state while one exchange is applied."""

    adv: Adversary
    ticked: list[int] = field(default_factory=list)
    armour_lost: list[int] = field(default_factory=list)
    fatigue_ticked: int = 0
    endurance: int = 0
    evasion: int = 0
    stability: int = 0
    allied_stability: int = 0
    bleeding: int = 0
    reactions_spent: int = 0
    mental: Mental = Mental.PRUDENT
    stunned: bool = False
    entangled: bool = False
    events: list[Event] = field(default_factory=list)
    stats: dict[str, int] = field(default_factory=dict)

    @classmethod
    def of(cls, adv: Adversary) -> Work:
        return cls(
            adv=adv,
            ticked=[b.ticked for b in adv.blocks],
            armour_lost=[p.armour_lost for p in adv.parts],
            fatigue_ticked=adv.fatigue_ticked,
            endurance=adv.endurance_tokens,
            evasion=adv.evasion_tokens,
            stability=adv.stability_tokens,
            allied_stability=adv.allied_stability,
            bleeding=adv.bleeding,
            reactions_spent=adv.reactions_spent,
            mental=adv.mental,
            stunned=adv.stunned,
            entangled=adv.entangled,
        )

    @property
    def who(self) -> Noun:
        """The adversary as the labels name it (« le Loup des cendres », issue 15)."""
        return adversary_who(self.adv.name, self.adv.grammar)

    def bump(self, key: str, n: int = 1) -> None:
        self.stats[key] = self.stats.get(key, 0) + n

    def emit(self, kind: str, label: str, value: str, section: str, group: str, **data: Any) -> None:
        self.events.append(Event(kind=kind, label=label, value=value, rule=rule(section), group=group, data=data))

    def sheet(self) -> Adversary:
        adv = self.adv
        parts = tuple(replace(p, armour_lost=self.armour_lost[i]) for i, p in enumerate(adv.parts))
        blocks = tuple(replace(b, ticked=self.ticked[k]) for k, b in enumerate(adv.blocks))
        return replace(
            adv,
            parts=parts,
            blocks=blocks,
            fatigue_ticked=self.fatigue_ticked,
            endurance_tokens=self.endurance,
            evasion_tokens=self.evasion,
            stability_tokens=self.stability,
            allied_stability=self.allied_stability,
            bleeding=self.bleeding,
            reactions_spent=self.reactions_spent,
            mental=self.mental,
            stunned=self.stunned,
            entangled=self.entangled,
        )

    # -- boxes --

    def armour_left(self, i: int) -> int:
        return self.adv.parts[i].armour - self.armour_lost[i]

    def block_left(self, k: int) -> int:
        return self.adv.blocks[k].boxes - self.ticked[k]

    def block_name(self, k: int) -> str:
        block = self.adv.blocks[k]
        return _("{part}, bloc {n}").format(part=self.adv.parts[block.part - 1].name, n=block_number(self.adv, k))

    def _destroyed_event(self, k: int, label: str, section: str, group: str) -> None:
        block = self.adv.blocks[k]
        self.bump("blocks_destroyed")
        self.emit(
            "block_destroyed",
            label,
            capability_lost_text(block.capability, block.value, block.label),
            section,
            group,
            part=block.part - 1,
            block=k,
            capability=block.capability.value,
            capability_label=block.label,
        )

    def destroy_block(self, k: int, how: str) -> None:
        self.ticked[k] = self.adv.blocks[k].boxes
        self._destroyed_event(
            k,
            _("{block} détruit ({how})").format(block=self.block_name(k), how=how),
            "Santé ♥️ et parties du corps",
            G_WOUNDS,
        )

    def tick_part(self, i: int, n: int, section: str, report_overflow: bool = True) -> int:
        """Tick ``n`` boxes block by block, top to bottom; return the boxes that found no block."""
        for k in part_blocks(self.adv, i):
            if n <= 0:
                break
            left = self.block_left(k)
            if left <= 0:
                continue
            take = min(left, n)
            self.ticked[k] += take
            n -= take
            self.bump("boxes_ticked", take)
            self.emit(
                "boxes",
                _("{block} : {boxes}").format(block=self.block_name(k), boxes=count(take, "case cochée")),
                f"{self.ticked[k]}/{self.adv.blocks[k].boxes}",
                section,
                G_WOUNDS,
                part=i,
                block=k,
                boxes=take,
            )
            if self.block_left(k) == 0:
                self._destroyed_event(
                    k, _("{block} rempli, détruit").format(block=self.block_name(k)), section, G_WOUNDS
                )
        if n > 0 and report_overflow:
            self.bump("boxes_lost", n)
            self.emit(
                "overflow",
                _("{part} : plus aucune case à cocher").format(part=self.adv.parts[i].name),
                count(n, "case perdue"),
                section,
                G_WOUNDS,
                part=i,
                boxes=n,
            )
        return n

    def tick_at(self, k: int) -> None:
        """Tick one box of block ``k`` (bleeding ignores armour and Endurance)."""
        self.ticked[k] += 1
        self.bump("boxes_ticked")
        self.emit(
            "bleed_box",
            _("🩸 {block}").format(block=self.block_name(k)),
            f"{self.ticked[k]}/{self.adv.blocks[k].boxes}",
            "Hémorragie 🩸",
            G_ROUND,
            part=self.adv.blocks[k].part - 1,
            block=k,
        )
        if self.block_left(k) == 0:
            self._destroyed_event(
                k, _("{block} rempli, détruit").format(block=self.block_name(k)), "Hémorragie 🩸", G_ROUND
            )

    def tick_members(self, n: int, section: str) -> None:
        """A horde: tick ``n`` members, group after group in sheet order."""
        last = len(self.adv.parts) - 1
        for i in range(len(self.adv.parts)):
            if n <= 0:
                return
            n = self.tick_part(i, n, section, report_overflow=i == last)

    def all_destroyed(self) -> bool:
        return all(self.block_left(k) <= 0 for k in range(len(self.ticked)))

    def members(self) -> int:
        return sum(self.block_left(k) for k in range(len(self.ticked)))

    def exhausted(self) -> bool:
        return (
            self.adv.kind is Kind.CREATURE
            and self.adv.fatigue_boxes > 0
            and self.fatigue_ticked >= self.adv.fatigue_boxes
        )


def capability_lost_text(capability: Capability, value: int, label: str) -> str:
    if capability is Capability.ACTION:
        return _("l'action « {label} » quitte le deck").format(label=label)
    if capability is Capability.ACTION_COST:
        return _("« {label} » coûte {n} ⚫ de plus").format(label=label, n=value)
    if capability is Capability.ENDURANCE:
        return _("Endurance 🫁 −{n} par manche").format(n=value)
    if capability is Capability.EVASION:
        return _("Évasion 🍀 −{n} par manche").format(n=value)
    if capability is Capability.STABILITY:
        return _("Stabilité ◇ −{n} par manche").format(n=value)
    if capability is Capability.ARMOUR_OTHERS:
        return _("les autres parties perdent {n} d'armure contre les 💢").format(n=value)
    return label or _("capacité perdue")


# --- the wound chain on a creature -------------------------------------------------------------


def cuirasse_ignores(w: Work, part: int, effect: Effect, settings: Settings) -> bool:
    """« Cuirasse naturelle (X) : la créature possède Armure X sur la partie concernée. Si une attaque
    inflige moins de X marqueurs 💢, elle est totalement ignorée (au lieu du minimum de 1 habituel) »
    (§ Traits défensifs). Read as the seed words it (``settings.cuirasse = whole_attack``): X is the
    trait's printed value (the part's printed Armure), and the whole attack — its 💢, 💧, 🩸, 🔺/🔻 and
    states — is ignored; an attack that carries a 💔 is a heavy blow, never ignored (the armour
    section: « elle annule une blessure grave 💔 — mais l'encaisser détruit une case d'armure »)."""
    p = w.adv.parts[part]
    if settings.cuirasse is not CuirasseReading.WHOLE_ATTACK or not p.natural_armour or effect.empty:
        return False
    if effect.heavy or effect.light >= p.armour:
        return False
    w.emit(
        "natural_armour",
        _("Cuirasse naturelle ({x}) : l'attaque est totalement ignorée").format(x=p.armour),
        _("{light}, moins de {markers}").format(light=count(effect.light, "💢"), markers=count(p.armour, "marqueur")),
        "Traits défensifs — Cuirasse naturelle",
        G_WOUNDS,
        light=effect.light,
        threshold=p.armour,
        ignored=effect_text(effect),
    )
    w.bump("cuirasse_ignored")
    return True


def apply_to_creature(w: Work, part: int, effect: Effect, settings: Settings) -> None:
    """Apply one hit's effects to ``part``: 💔 first, then 💢, 💧, 🩸, 🔺/🔻 and states."""
    p = w.adv.parts[part]
    if cuirasse_ignores(w, part, effect, settings):
        return
    converted: list[int] = []
    for k in range(effect.heavy):
        n = k + 1
        if w.evasion > 0 and not w.stunned:
            w.evasion -= 1
            w.bump("evasion_spent")
            converted.append(3)
            w.emit(
                "evasion",
                _("💔 n°{n} : un jeton d'Évasion 🍀 la convertit en 3 💢").format(n=n),
                _("le coup ripe"),
                "Blessures graves 💔",
                G_WOUNDS,
                heavy=n,
            )
        elif w.armour_left(part) > 0:
            w.armour_lost[part] += 1
            w.bump("armour_destroyed")
            w.emit(
                "armour_box",
                _("{part} : 💔 n°{n} annulée par l'armure").format(n=n, part=p.name),
                _("une case d'armure cède, reste 🛡️ {a}").format(a=w.armour_left(part)),
                "Blessures graves 💔",
                G_WOUNDS,
                heavy=n,
                part=part,
            )
        else:
            top = next((k for k in part_blocks(w.adv, part) if w.block_left(k) > 0), None)
            if top is None:
                w.emit(
                    "heavy_lost",
                    _("💔 n°{n} : la partie {part} est déjà détruite").format(n=n, part=quote(p.name)),
                    _("sans effet"),
                    "Blessures graves 💔",
                    G_WOUNDS,
                    heavy=n,
                )
            else:
                w.destroy_block(top, _("💔 sans armure ni Évasion"))
    if effect.heavy and w.stunned and w.adv.evasion_tokens:
        w.emit(
            "evasion_off",
            _("{state} 🫨 : l'Évasion est désactivée").format(state=w.who.agree("Sonné")),
            "",
            "Défenses : Armure et Évasion",
            G_WOUNDS,
        )
    batches = [effect.light + sum(converted)] if settings.evasion_pooled else [effect.light, *converted]
    for light in batches:
        if light <= 0:
            continue
        own = w.armour_left(part)
        bonus = armour_bonus(w.sheet(), part)
        armour = own + bonus
        light_only = settings.cuirasse is CuirasseReading.LIGHT_ONLY
        if p.natural_armour and light_only and light < own:
            w.emit(
                "natural_armour",
                _("Cuirasse naturelle ({x}) : {wounds}").format(x=own, wounds=count(light, "💢 ignorée")),
                _("moins de {markers}").format(markers=count(own, "marqueur")),
                "Traits défensifs — Cuirasse naturelle",
                G_WOUNDS,
                light=light,
            )
            continue
        passed = max(1, light - armour)
        w.bump("light_in", light)
        w.bump("light_passed", passed)
        detail = _("🛡️ {own}").format(own=own) + (_(" + carapace {b}").format(b=bonus) if bonus else "")
        w.emit(
            "light",
            _("{part} : {n} 💢 contre l'armure ({detail})").format(n=light, part=p.name, detail=detail),
            _("{boxes} à cocher").format(boxes=count(passed, "case")),
            "Blessures légères 💢",
            G_WOUNDS,
            light=light,
            armour=armour,
            passed=passed,
        )
        w.tick_part(part, passed, "Blessures légères 💢")
    if effect.fatigue:
        apply_fatigue(w, effect.fatigue)
    if effect.bleed:
        w.bleeding += effect.bleed
        w.emit(
            "bleed",
            _("Hémorragie 🩸 +{n}").format(n=effect.bleed),
            _("{tokens} : saigne en fin de manche").format(tokens=count(w.bleeding, "jeton")),
            "Hémorragie 🩸",
            G_EFFECTS,
            bleed=effect.bleed,
        )
    for _k in range(effect.up):
        mental_step(w, +1)
    for _k in range(effect.down):
        mental_step(w, -1)
    apply_states(w, effect)


def apply_fatigue(w: Work, amount: int) -> None:
    """Endurance 🫁 tokens absorb first, but an attack always ticks at least one box ▢."""
    absorbed = min(w.endurance, amount - 1)
    boxes = amount - absorbed
    w.endurance -= absorbed
    room = w.adv.fatigue_boxes - w.fatigue_ticked
    ticked = min(boxes, room)
    w.fatigue_ticked += ticked
    w.bump("endurance_spent", absorbed)
    w.bump("fatigue_ticked", ticked)
    w.emit(
        "fatigue",
        _("{n} 💧 : {absorbed} par l'Endurance 🫁, {boxes}").format(
            n=amount, absorbed=count(absorbed, "absorbée"), boxes=count(ticked, "case cochée")
        ),
        f"{w.fatigue_ticked}/{w.adv.fatigue_boxes}",
        "Fatigue 💧 et Endurance 🫁",
        G_FATIGUE,
        fatigue=amount,
        absorbed=absorbed,
        boxes=ticked,
    )
    if w.exhausted():
        w.emit(
            "exhausted",
            _("{name} {is_} {exhausted}").format(
                name=w.who.Subject, is_=w.who.form("est", "sont"), exhausted=w.who.agree("Épuisé")
            ),
            _("hors de combat ({il} s'{falls}, se {submits} ou {flees})").format(
                il=w.who.il,
                falls=w.who.form("effondre", "effondrent"),
                submits=w.who.form("soumet", "soumettent"),
                flees=w.who.form("fuit", "fuient"),
            ),
            "Fatigue 💧 et Endurance 🫁",
            G_FATIGUE,
        )


def mental_step(w: Work, direction: int) -> None:
    """One 🔺 (+1) or 🔻 (−1): a Stabilité ◇ absorbs it, else the track moves."""
    sym = "🔺" if direction > 0 else "🔻"
    if w.stability > 0:
        w.stability -= 1
        w.bump("stability_spent")
        w.emit(
            "stability",
            _("{sym} absorbé par un jeton de Stabilité ◇").format(sym=sym),
            count(w.stability, "jeton restant"),
            "États mentaux (4 états)",
            G_MENTAL,
        )
        return
    if w.adv.traits.hive_mind and w.allied_stability > 0:
        w.allied_stability -= 1
        w.bump("stability_spent")
        w.emit(
            "stability",
            _("{sym} absorbé par la réserve commune (Esprit de ruche)").format(sym=sym),
            count(w.allied_stability, "jeton restant"),
            "Traits mentaux — Esprit de ruche",
            G_MENTAL,
        )
        return
    i = TRACK.index(w.mental)
    j = max(0, min(len(TRACK) - 1, i + direction))
    before = w.mental
    w.mental = TRACK[j]
    w.bump("mental_moves", 1 if i != j else 0)
    w.emit(
        "mental",
        _("{sym} : la piste mentale bouge").format(sym=sym),
        f"{before.label} → {w.mental.label}" if i != j else _("{state} : déjà à l'extrême").format(state=before.label),
        "États mentaux (4 états)",
        G_MENTAL,
        before=before.value,
        after=w.mental.value,
    )


def apply_states(w: Work, effect: Effect) -> None:
    if effect.stunned:
        w.stunned = True
        w.emit(
            "state",
            _("{name} {is_} {stunned} 🫨").format(
                name=w.who.Subject, is_=w.who.form("est", "sont"), stunned=w.who.agree("Sonné")
            ),
            _("Évasion désactivée"),
            "Défenses : Armure et Évasion",
            G_EFFECTS,
        )
    if effect.entangled:
        w.entangled = True
        w.emit(
            "state",
            _("{name} {is_} {bound} 🕸️").format(
                name=w.who.Subject, is_=w.who.form("est", "sont"), bound=w.who.agree("Entravé")
            ),
            "",
            "Actions d'adversaires",
            G_EFFECTS,
        )


# --- the horde chain ------------------------------------------------------------------------------


def apply_to_horde(w: Work, effect: Effect) -> None:
    """§ Hordes: no fatigue, armour ∞ (any damage → 1 💢), Évasion ∞ (💔 → 💢 + 🔻), 🔺🔻 → ◇ or 💢."""
    wounds = 0
    section = "Hordes — Ressources simplifiées"
    if effect.fatigue:
        w.emit(
            "horde_fatigue",
            _("{n} 💧 : les hordes n'ont pas de fatigue").format(n=effect.fatigue),
            _("convertie en 💢"),
            section,
            G_WOUNDS,
        )
    if effect.light or effect.fatigue:
        wounds += 1
        w.emit(
            "horde_armour",
            _("Armure ∞ : {damage} à 1 💢").format(damage=count(effect.light + effect.fatigue, "dégât réduit")),
            "1 💢",
            section,
            G_WOUNDS,
        )
    downs = effect.down
    for k in range(effect.heavy):
        wounds += 1
        downs += 1
        w.emit("horde_evasion", _("Évasion ∞ : 💔 n°{n} → 1 💢 et 🔻").format(n=k + 1), "1 💢 + 🔻", section, G_WOUNDS)
    for k in range(effect.up + downs):
        sym = "🔺" if k < effect.up else "🔻"
        if w.stability > 0:
            w.stability -= 1
            w.bump("stability_spent")
            w.emit(
                "stability",
                _("{sym} : un jeton ◇ est retiré").format(sym=sym),
                count(w.stability, "jeton restant"),
                "Hordes — États mentaux simplifiés",
                G_MENTAL,
            )
        else:
            wounds += 1
            w.emit(
                "horde_rout",
                _("{sym} sans jeton ◇ : fuite ou désorganisation").format(sym=sym),
                "1 💢",
                "Hordes — États mentaux simplifiés",
                G_MENTAL,
            )
    if wounds:
        before = w.members()
        w.bump("members_lost", min(wounds, before))
        w.tick_members(wounds, section)
        gain = w.adv.horde.stability_on_wound_taken
        if gain:
            w.stability += gain
            w.emit(
                "stability_gain",
                _("Blessure subie : la horde gagne {n} ◇").format(n=gain),
                str(w.stability),
                "Hordes — États mentaux simplifiés",
                G_MENTAL,
            )
    if effect.bleed:
        w.bleeding += effect.bleed
        w.emit(
            "bleed",
            _("Hémorragie 🩸 +{n}").format(n=effect.bleed),
            count(w.bleeding, "jeton"),
            "Hémorragie 🩸",
            G_EFFECTS,
        )
    apply_states(w, effect)


# --- headline helpers -------------------------------------------------------------------------------


def threat_numbers(adv: Adversary) -> dict[str, Number]:
    t = threat(adv)
    now = threat(adv, current=True)
    return {
        "threat": int(t.value),
        "threat_label": fr_number(float(t.value), 1),
        "threat_survival": t.survival,
        "threat_lethality": t.lethality,
        "threat_current": int(now.value),
    }


class SheetData(Mapping[str, Any]):
    """``{"sheet": …}`` built on first access: the odds replay the engine without paying for it."""

    def __init__(self, sheet: Adversary) -> None:
        self._sheet = sheet
        self._data: dict[str, Any] | None = None

    def _get(self) -> dict[str, Any]:
        if self._data is None:
            self._data = {"sheet": to_data(self._sheet)}
        return self._data

    def __getitem__(self, key: str) -> Any:
        return self._get()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._get())

    def __len__(self) -> int:
        return len(self._get())


def sheet_event(w: Work) -> Event:
    sheet = w.sheet()
    return Event(
        kind="sheet",
        label=_("Fiche après l'échange"),
        value=sheet.name,
        rule=rule("La fiche d'adversaire"),
        group=G_SHEET,
        data=SheetData(sheet),
    )


def effect_text(e: Effect) -> str:
    bits = [
        "💧" * e.fatigue,
        "💢" * e.light,
        "💔" * e.heavy,
        "🔺" * e.up,
        "🔻" * e.down,
        "🩸" * e.bleed,
        _("Sonné 🫨") if e.stunned else "",
        _("Entravé 🕸️") if e.entangled else "",
    ]
    text = " ".join(b for b in bits if b)
    return text or _("aucun effet")


def add_effects(a: Effect, b: Effect) -> Effect:
    return Effect(
        fatigue=a.fatigue + b.fatigue,
        light=a.light + b.light,
        heavy=a.heavy + b.heavy,
        up=a.up + b.up,
        down=a.down + b.down,
        bleed=a.bleed + b.bleed,
        stunned=a.stunned or b.stunned,
        entangled=a.entangled or b.entangled,
    )


# --- the adversary attacks -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class AdversaryRoll:
    total: int
    fives: int
    kept: tuple[int, ...]


def read_adversary_roll(values: tuple[int, ...], star_face: int, bonus: int = 0) -> AdversaryRoll:
    """Sum the four highest dice; count the star faces among them."""
    kept = tuple(sorted(values, reverse=True)[:KEEP])
    return AdversaryRoll(total=sum(kept) + bonus, fives=sum(1 for v in kept if v == star_face), kept=kept)


def card_effect(card: Card, success: bool, fives: int) -> tuple[Effect, bool]:
    """The ✅ or ❌ effect, plus ⭐ when at least X fives show. No Défaut ⚠️ for adversaries."""
    base = card.success if success else card.failure
    star = fives >= card.star_fives
    return (add_effects(base, card.star) if star else base), star


def pay_card(w: Work, card: Card, play: Play = Play.ACTION) -> None:
    """Pay the card: its ⚫ (an action), or one of the round's ⚡ instead (a reaction, § Actions ⚫ et
    réactions ⚡; Réflexes de prédateur's Frappe vive, § Traits offensifs), then its fatigue cost."""
    cost = card_cost(w.adv, card)
    if play is Play.PREDATOR:
        w.emit(
            "predator",
            _("Réflexes de prédateur : la cible quitte l'Engagement serré (≬)"),
            _("« {card} » en réaction ⚡").format(card=card.name),
            "Traits offensifs — Réflexes de prédateur",
            G_ROLL,
        )
    if play is not Play.ACTION:
        w.reactions_spent += 1
        left = w.adv.reactions_per_round - w.reactions_spent
        w.emit(
            "cost",
            _("{name} {plays} « {card} » en réaction ⚡").format(
                name=w.who.Subject, plays=w.who.form("joue", "jouent"), card=card.name
            ),
            _("1 ⚡ au lieu de {n} ⚫ · {left}").format(n=cost, left=count(left, "réaction restante")),
            "Actions ⚫ et réactions ⚡",
            G_ROLL,
            cost=0,
            reaction=1,
            initiative=card.initiative,
        )
    else:
        w.emit(
            "cost",
            _("{name} {plays} « {card} »").format(
                name=w.who.Subject, plays=w.who.form("joue", "jouent"), card=card.name
            ),
            _("{n} ⚫ · init. {i}").format(n=cost, i=card.initiative),
            "Actions ⚫ et réactions ⚡",
            G_ROLL,
            cost=cost,
            initiative=card.initiative,
        )
    if cost != card.cost and play is Play.ACTION:
        w.emit(
            "cost_up",
            _("Coût augmenté : un bloc qui rendait l'action bon marché est détruit"),
            f"{card.cost} → {cost} ⚫",
            "Santé ♥️ et parties du corps",
            G_ROLL,
        )
    if card.fatigue_cost:
        absorbed = min(w.endurance, card.fatigue_cost)
        boxes = card.fatigue_cost - absorbed
        w.endurance -= absorbed
        w.fatigue_ticked += boxes
        w.bump("cost_fatigue_boxes", boxes)
        w.emit(
            "fatigue_cost",
            _("Coût de fatigue {n} 💧 : {paid} par l'Endurance 🫁, {boxes}").format(
                n=card.fatigue_cost, paid=count(absorbed, "payé"), boxes=count(boxes, "case cochée")
            ),
            f"{w.fatigue_ticked}/{w.adv.fatigue_boxes}",
            "Fatigue 💧 et Endurance 🫁",
            G_FATIGUE,
        )


def resolve_adversary_attack(s: Scenario, dice: DiceRoll) -> Result:
    adv = s.adversary
    card = s.played_card()
    assert card is not None  # Scenario.check refuses a card out of the deck
    w = Work.of(adv)
    pay_card(w, card, s.play)
    numbers: dict[str, Number] = {
        "card": card.name,
        "play": s.play.value,
        "reactions_spent": w.reactions_spent,
    }
    if s.play is not Play.ACTION:
        numbers["cost"] = 0
        numbers["reaction_cost"] = 1
    if not card.attack:
        w.emit("no_roll", _("Action sans jet"), effect_text(card.success), "Actions d'adversaires", G_EFFECTS)
        numbers.update(threat_numbers(adv))
        return Result("action", _("Action jouée"), numbers, (*w.events, sheet_event(w)), dice, "neutral")
    steps = adversary_steps(adv, card, s.matchup, s.pc, s.settings)
    net = sum(st.steps for st in steps)
    for st in steps:
        w.emit(
            "step",
            st.label,
            f"{'⬆' * st.steps if st.steps > 0 else '⬇' * -st.steps}",
            st.rule.split(" § ", 1)[1],
            G_ROLL,
            steps=st.steps,
        )
    rungs = adversary_rungs(adv, net)
    bonus = 0
    if adv.kind is Kind.HORDE and not s.settings.horde_mood_steps:
        bonus = HORDE_ATTACK[horde_mood(adv)]
        if bonus:
            w.emit(
                "horde_bonus",
                _("Horde {mood}").format(mood=horde_mood(adv).label),
                signed(bonus),
                "Hordes — États mentaux simplifiés",
                G_ROLL,
            )
    values = tuple(dice[f"adv.{i}"] for i in range(1, len(rungs) + 1))
    roll = read_adversary_roll(values, s.faces.star_face, bonus)
    w.emit(
        "dice",
        _("Dés : {dice}").format(dice=" ".join(r.label.split()[-1] for r in rungs)),
        " + ".join(str(v) for v in roll.kept)
        + (_(" (les 4 meilleurs sur {n})").format(n=len(values)) if len(values) > KEEP else ""),
        "Résolution des jets",
        G_ROLL,
        values=list(values),
        kept=list(roll.kept),
    )
    w.emit(
        "total",
        _("Total de l'adversaire"),
        str(roll.total),
        "Quand l'adversaire attaque un personnage",
        G_ROLL,
        total=roll.total,
        fives=roll.fives,
    )
    garde = pc_value(s, dice, w, _("Garde"))
    success = roll.total >= garde
    effect, star = card_effect(card, success, roll.fives)
    w.emit(
        "compare",
        f"{roll.total} {'≥' if success else '<'} {garde}",
        _("✅ Réussite") if success else _("❌ Échec"),
        "Quand l'adversaire attaque un personnage",
        G_GUARD,
        success=success,
    )
    base = card.success if success else card.failure
    w.emit("effect", _("Effet ✅") if success else _("Effet ❌"), effect_text(base), "Actions d'adversaires", G_EFFECTS)
    if star:
        w.emit(
            "star",
            _("⭐ Repérez {x} 5 ({n} × 5)").format(x=card.star_fives, n=roll.fives),
            effect_text(card.star),
            "Actions d'adversaires",
            G_EFFECTS,
        )
    elif roll.fives:
        w.emit(
            "star_missed",
            _("{n} × 5, il en faut {x} pour ⭐").format(n=roll.fives, x=card.star_fives),
            "",
            "Actions d'adversaires",
            G_EFFECTS,
        )
    pc_fatigue_min_boxes = 1
    if success and adv.traits.exhausting_strike:
        effect = add_effects(effect, Effect(fatigue=1))
        if s.pc.endurance_tokens == 0:
            pc_fatigue_min_boxes = 2
        w.emit(
            "exhausting",
            _("Frappe épuisante : +1 💧"),
            _("sans Endurance 🫁, la cible coche deux cases") if pc_fatigue_min_boxes == 2 else "",
            "Traits offensifs — Frappe épuisante",
            G_EFFECTS,
        )
    if adv.kind is Kind.HORDE and success and effect.physical and adv.horde.stability_on_wound_dealt:
        w.stability += adv.horde.stability_on_wound_dealt
        w.emit(
            "stability_gain",
            _("Blessure infligée : la horde gagne {n} ◇").format(n=adv.horde.stability_on_wound_dealt),
            str(w.stability),
            "Hordes — États mentaux simplifiés",
            G_MENTAL,
        )
    numbers.update(
        {
            "total": roll.total,
            "fives": roll.fives,
            "garde": garde,
            "success": success,
            "star": star,
            "steps": net,
            "pc_fatigue": effect.fatigue,
            "pc_fatigue_min_boxes": pc_fatigue_min_boxes if effect.fatigue else 0,
            "pc_light": effect.light,
            "pc_heavy": effect.heavy,
            "pc_up": effect.up,
            "pc_down": effect.down,
            "pc_bleed": effect.bleed,
            "pc_stunned": effect.stunned,
            "pc_entangled": effect.entangled,
            "cost": card_cost(adv, card) if s.play is Play.ACTION else 0,
            "fatigue_ticked": w.fatigue_ticked,
            "endurance_tokens": w.endurance,
            "stability_tokens": w.stability,
        }
    )
    numbers.update(threat_numbers(adv))
    outcome, label = ("success", _("✅ Réussite")) if success else ("failure", _("❌ Échec"))
    if star:
        label += _(" + ⭐")
    return Result(outcome, label, numbers, (*w.events, sheet_event(w)), dice, "success" if success else "failure")


def pc_value(s: Scenario, dice: DiceRoll, w: Work, what: str) -> int:
    """The PC's score (Garde or attack): typed, or best 🟦 + two best skill dice + aléa."""
    pc = s.pc
    section = (
        "Quand l'adversaire attaque un personnage"
        if s.mode is Mode.ADVERSARY_ATTACK
        else "Quand un personnage attaque l'adversaire"
    )
    if pc.source is PcSource.TYPED:
        w.emit(
            "pc_typed",
            _("{what} {of_pc} (saisie)").format(what=what, of_pc=pc_who(pc.name, pc.grammar).de),
            str(pc.score),
            section,
            G_GUARD,
            score=pc.score,
        )
        return pc.score
    pool = pc_pool(pc, s.pc_faces)
    car = dice.of("pc.car")
    skill = dice.of("pc.skill")
    alea = (dice["pc.alea"], *dice.of("pc.edge"))
    sc = pc_score(car, skill, alea, pool.advantage, s.pc_faces)
    w.stats["pc_defaut"] = int(sc.defaut)
    w.stats["pc_critique"] = int(sc.critique)
    label = _("{what} {of_pc} : {b} (🟦) + {k1} + {k2} (compétence) + {a} (aléa)").format(
        what=what,
        of_pc=pc_who(pc.name, pc.grammar).de,
        b=sc.best_characteristic,
        k1=sc.skill_kept[0],
        k2=sc.skill_kept[1],
        a=sc.alea,
    )
    flags = [_("Défaut ⚠️") if sc.defaut else "", _("Critique") if sc.critique else ""]
    w.emit(
        "pc_roll",
        label,
        str(sc.score) + "".join(f" · {f}" for f in flags if f),
        section,
        G_GUARD,
        score=sc.score,
        defaut=sc.defaut,
        critique=sc.critique,
    )
    return sc.score


# --- the PC attacks ---------------------------------------------------------------------------------


def resolve_pc_attack(s: Scenario, dice: DiceRoll) -> Result:
    adv = s.adversary
    part = s.target_part - 1
    w = Work.of(adv)
    horde = adv.kind is Kind.HORDE
    target = adv.parts[part].name
    w.emit(
        "target",
        _("Partie visée (déclarée avant le jet)"),
        target if not horde else _("la horde"),
        "Cibler une partie" if not horde else "Hordes — Défenses simplifiées",
        G_ROLL,
        part=part,
    )
    score = pc_value(s, dice, w, _("Attaque"))
    mod = guard_modifier(adv)
    garde = adv.guard + mod
    state = horde_mood(adv).label if horde else adv.mental.label
    w.emit(
        "guard",
        _("Garde {of_name} : {type} {g}").format(of_name=w.who.de, type=adv.guard_type.label, g=adv.guard),
        (f"{state} {signed(mod)} → {garde}" if mod else str(garde)),
        "Quand un personnage attaque l'adversaire"
        if not mod
        else ("États mentaux (4 états)" if not horde else "Hordes — États mentaux simplifiés"),
        G_GUARD,
        garde=garde,
        modifier=mod,
    )
    hit = score >= garde
    w.emit(
        "compare",
        f"{score} {'≥' if hit else '<'} {garde}",
        _("touché") if hit else _("l'attaque échoue"),
        "Quand un personnage attaque l'adversaire",
        G_GUARD,
        hit=hit,
    )
    effect = s.pc_success if hit else s.pc_failure
    w.emit(
        "effect",
        _("Effets ✅ de l'action") if hit else _("Effets ❌ de l'action"),
        effect_text(effect),
        "Quand un personnage attaque l'adversaire",
        G_EFFECTS,
    )
    before_members = members(adv)
    if horde:
        apply_to_horde(w, effect)
    else:
        apply_to_creature(w, part, effect, s.settings)
    sheet = w.sheet()
    numbers: dict[str, Number] = {
        "score": score,
        "garde": garde,
        "hit": hit,
        "target_part": target,
        "light_in": w.stats.get("light_in", 0),
        "light_passed": w.stats.get("light_passed", 0),
        "boxes_ticked": w.stats.get("boxes_ticked", 0),
        "blocks_destroyed": w.stats.get("blocks_destroyed", 0),
        "armour_destroyed": w.stats.get("armour_destroyed", 0),
        "evasion_spent": w.stats.get("evasion_spent", 0),
        "endurance_spent": w.stats.get("endurance_spent", 0),
        "fatigue_ticked": w.fatigue_ticked,
        "fatigue_added": w.stats.get("fatigue_ticked", 0),
        "stability_spent": w.stats.get("stability_spent", 0),
        "bleeding": w.bleeding,
        "mental_after": (horde_mood(sheet).value if horde else w.mental.value),
        "exhausted": w.exhausted(),
        "destroyed": w.all_destroyed(),
        "stunned": w.stunned,
        "entangled": w.entangled,
    }
    if s.pc.source is PcSource.ROLLED:
        numbers["pc_defaut"] = bool(w.stats.get("pc_defaut"))
        numbers["pc_critique"] = bool(w.stats.get("pc_critique"))
    if horde:
        numbers["members_before"] = before_members
        numbers["members_after"] = members(sheet)
        if horde_mood(sheet) is not horde_mood(adv):
            w.emit(
                "horde_mood",
                _("La horde change d'état"),
                f"{horde_mood(adv).label} → {horde_mood(sheet).label}",
                "Hordes — États mentaux simplifiés",
                G_MENTAL,
            )
    numbers.update(threat_numbers(adv))
    if w.all_destroyed():
        outcome, label, tone = (
            "destroyed",
            (_("La horde est anéantie") if horde else _("Toutes les parties sont détruites")),
            "success",
        )
        w.emit(
            "end",
            label,
            _("hors de combat"),
            "Santé ♥️ et parties du corps" if not horde else "Hordes — Ressources simplifiées",
            G_WOUNDS,
        )
    elif w.exhausted() and not exhaustion_before(adv):
        outcome, label, tone = (
            "exhausted",
            _("{exhausted} : hors de combat").format(exhausted=w.who.agree("Épuisé")),
            "success",
        )
    elif hit:
        outcome, label, tone = "hit", _("Touché"), "success"
    else:
        outcome, label, tone = "miss", _("Raté"), "failure"
    return Result(outcome, label, numbers, (*w.events, sheet_event(w)), dice, tone)


def exhaustion_before(adv: Adversary) -> bool:
    return adv.kind is Kind.CREATURE and adv.fatigue_boxes > 0 and adv.fatigue_ticked >= adv.fatigue_boxes


# --- the round boundary -------------------------------------------------------------------------------


def bleed_target(w: Work) -> int | None:
    """The most damaged intact block (most ticked; ties: fewest left, then sheet order)."""
    best: int | None = None
    best_key: tuple[int, int] | None = None
    for k in range(len(w.ticked)):
        left = w.block_left(k)
        if left <= 0:
            continue
        key = (w.ticked[k], -left)
        if best_key is None or key > best_key:
            best, best_key = k, key
    return best


def resolve_round(s: Scenario, dice: DiceRoll) -> Result:
    adv = s.adversary
    w = Work.of(adv)
    tokens = w.bleeding
    if tokens:
        w.emit(
            "bleed_start",
            _("Fin de manche : Hémorragie 🩸 × {n}").format(n=tokens),
            _("sans armure ni souffle"),
            "Hémorragie 🩸",
            G_ROUND,
        )
        for _k in range(tokens):
            target = bleed_target(w)
            if target is None:
                w.emit("overflow", _("Plus aucune case à cocher"), "", "Hémorragie 🩸", G_ROUND)
                break
            w.tick_at(target)
        w.bleeding -= 1
        w.emit(
            "bleed_close",
            _("La plaie se referme d'un cran"),
            _("{tokens} 🩸").format(tokens=count(w.bleeding, "jeton")),
            "Hémorragie 🩸",
            G_ROUND,
        )
    else:
        w.emit("bleed_none", _("Fin de manche : pas d'hémorragie"), "", "Hémorragie 🩸", G_ROUND)
    sheet = w.sheet()
    if adv.kind is Kind.CREATURE:
        for cap, attr, sym, section in (
            (Capability.ENDURANCE, "endurance", "🫁", "Fatigue 💧 et Endurance 🫁"),
            (Capability.EVASION, "evasion", "🍀", "Défenses : Armure et Évasion"),
            (Capability.STABILITY, "stability", "◇", "États mentaux (4 états)"),
        ):
            gain = capability_total(sheet, cap)
            before = getattr(w, attr)
            after = before + gain if s.settings.tokens_accumulate else gain
            setattr(w, attr, after)
            w.emit(
                "regen",
                _("Début de manche : {sym} +{n} (blocs intacts)").format(sym=sym, n=gain),
                f"{before} → {after}",
                section,
                G_ROUND,
                resource=attr,
                gain=gain,
            )
    else:
        w.emit(
            "horde_regen",
            _("Horde : pas de régénération, ◇ conditionnels"),
            str(w.stability),
            "Hordes — États mentaux simplifiés",
            G_ROUND,
        )
    reactions = adv.reactions_per_round
    w.reactions_spent = 0  # the round's ⚡ come back with the new round
    if adv.traits.predator_reflexes:
        w.emit(
            "predator",
            _("Réflexes de prédateur : +1 ⚡"),
            _("Frappe vive sur qui quitte l'Engagement serré (≬) : « Jouée comme » Réflexes de prédateur"),
            "Traits offensifs — Réflexes de prédateur",
            G_ROUND,
        )
    terror: dict[str, Number] = {}
    if adv.traits.terror_aura:
        pc = pc_who(s.pc.name, s.pc.grammar)
        if s.pc.stability_tokens > 0:
            terror = {"pc_stability_after": s.pc.stability_tokens - 1, "pc_down": 0}
            told = _("{pc} {loses} 1 ◇ ({tokens})").format(
                pc=pc.Subject,
                loses=pc.form("perd", "perdent"),
                tokens=count(s.pc.stability_tokens - 1, "jeton restant"),
            )
        else:
            terror = {"pc_stability_after": 0, "pc_down": 1}
            told = _("{pc} n'{has} plus de ◇ : {il} {suffers} 🔻").format(
                pc=pc.Subject, has=pc.form("a", "ont"), il=pc.il, suffers=pc.form("subit", "subissent")
            )
        w.emit(
            "terror",
            _("Aura de terreur : chaque créature engagée perd 1 ◇, sans jeton elle subit 🔻"),
            told,
            "Traits mentaux — Aura de terreur",
            G_ROUND,
            **terror,
        )
    final = w.sheet()
    deck = [c.name for c in final.deck if card_available(final, c)]
    lost = [c.name for c in final.deck if not card_available(final, c)]
    w.emit(
        "deck",
        _("Deck disponible"),
        ", ".join(deck) or _("aucune action"),
        "Actions ⚫ et réactions ⚡",
        G_ROUND,
        cards=deck,
        lost=lost,
    )
    numbers: dict[str, Number] = {
        "bleed_ticked": w.stats.get("boxes_ticked", 0),
        "bleeding": w.bleeding,
        "blocks_destroyed": w.stats.get("blocks_destroyed", 0),
        "endurance_tokens": w.endurance,
        "evasion_tokens": w.evasion,
        "stability_tokens": w.stability,
        "action_points": adv.action_points,
        "reactions": reactions,
        "cards_available": len(deck),
        "destroyed": w.all_destroyed(),
        "exhausted": w.exhausted(),
        **terror,
    }
    if adv.kind is Kind.HORDE:
        numbers["members_after"] = members(final)
    numbers.update(threat_numbers(adv))
    if w.all_destroyed():
        return Result(
            "destroyed",
            _("L'hémorragie achève {name}").format(name=w.who.subject),
            numbers,
            (*w.events, sheet_event(w)),
            dice,
            "success",
        )
    return Result("round", _("Nouvelle manche"), numbers, (*w.events, sheet_event(w)), dice, "neutral")


# --- Regard hypnotique -----------------------------------------------------------------------------------


def resolve_gaze(s: Scenario, dice: DiceRoll) -> Result:
    adv = s.adversary
    w = Work.of(adv)
    spent = s.pc.stability_tokens
    pc = pc_who(s.pc.name, s.pc.grammar)
    w.emit(
        "gaze",
        _("Regard hypnotique (⚫)"),
        _("{pc} {spends} {n} ◇").format(pc=pc.Subject, spends=pc.form("dépense", "dépensent"), n=spent),
        "Traits mentaux — Regard hypnotique",
        G_MENTAL,
        spent=spent,
    )
    w.emit(
        "state",
        _("{pc} {falls} à 0 ◇ : {bound} 🕸️").format(
            pc=pc.Subject, falls=pc.form("tombe", "tombent"), bound=pc.agree("Entravé")
        ),
        "",
        "Traits mentaux — Regard hypnotique",
        G_EFFECTS,
    )
    numbers: dict[str, Number] = {"pc_stability_spent": spent, "pc_stability_after": 0, "pc_entangled": True, "cost": 1}
    numbers.update(threat_numbers(adv))
    return Result("entangled", _("Cible Entravée"), numbers, (*w.events, sheet_event(w)), dice, "success")


# --- Course -----------------------------------------------------------------------------------------


def resolve_course(s: Scenario, dice: DiceRoll) -> Result:
    """« 🚶/🏃 Vitesse. Une créature peut effectuer gratuitement un pas de placement ou une action de
    Marche, ou dépenser ⚫ + ▢💧 pour une action de Course » (§ Actions ⚫ et réactions ⚡): one ⚫ and a
    fatigue cost of one 💧, absorbable by an Endurance 🫁 token like any action's fatigue cost (§ Fatigue
    💧 et Endurance 🫁 : « ce coût est absorbable intégralement par les jetons 🫁 »)."""
    adv = s.adversary
    w = Work.of(adv)
    absorbed = min(w.endurance, COURSE_FATIGUE)
    boxes = COURSE_FATIGUE - absorbed
    w.endurance -= absorbed
    w.fatigue_ticked += boxes
    w.emit(
        "course",
        _("{name} {runs} 🏃").format(name=w.who.Subject, runs=w.who.form("court", "courent")),
        _("{n} ⚫ · vitesse 🚶 {v}").format(n=COURSE_COST, v=adv.speed),
        "Actions ⚫ et réactions ⚡",
        G_ROLL,
        cost=COURSE_COST,
    )
    w.emit(
        "fatigue_cost",
        _("Coût de fatigue {n} 💧 : {paid} par l'Endurance 🫁, {boxes}").format(
            n=COURSE_FATIGUE, paid=count(absorbed, "payé"), boxes=count(boxes, "case cochée")
        ),
        f"{w.fatigue_ticked}/{adv.fatigue_boxes}",
        "Fatigue 💧 et Endurance 🫁",
        G_FATIGUE,
    )
    numbers: dict[str, Number] = {
        "cost": COURSE_COST,
        "fatigue_cost": COURSE_FATIGUE,
        "endurance_spent": absorbed,
        "cost_fatigue_boxes": boxes,
        "endurance_tokens": w.endurance,
        "fatigue_ticked": w.fatigue_ticked,
        "speed": adv.speed,
    }
    numbers.update(threat_numbers(adv))
    return Result("course", _("Course"), numbers, (*w.events, sheet_event(w)), dice, "neutral")


def resolve(s: Scenario, dice: DiceRoll) -> Result:
    """Resolve one exchange (see the module docstring)."""
    if s.mode is Mode.ADVERSARY_ATTACK:
        return resolve_adversary_attack(s, dice)
    if s.mode is Mode.PC_ATTACK:
        return resolve_pc_attack(s, dice)
    if s.mode is Mode.ROUND:
        return resolve_round(s, dice)
    if s.mode is Mode.COURSE:
        return resolve_course(s, dice)
    return resolve_gaze(s, dice)
