"""The lasting effects of special blows in an encounter (seed ``004``, « Les coups spéciaux »), and
how they wear off (issue 16).

* Étourdir: « Le malus diminue d'un point par rang d'Initiative qui s'écoule sans nouvel
  étourdissement ». A new stun adds its malus to what is left and starts the count again.
* Handicaper: an organ is unusable « pendant un nombre de rangs d'Initiative (éventuellement cumulés
  sur plusieurs Actions) égal aux Dommages infligés ».
* Faire tomber: −4 « tant qu'il ne se sera pas relevé (ce qui est une activité à part entière) »;
  Entraver: the margin as a malus until freed (Puissance contre Puissance): both end by hand, the
  chip's « Se relève » / « Se dégage ».
* Tenir en respect / Entrer dans la garde: −8 to the victim's Attaque until it succeeds the other
  blow against the one who inflicted it, which only neutralises the first.
* Acharnement: the weapon stays in the wound, −8 to the attacker's Défense, « A la première Attaque
  qui échoue, l'arme est délogée ».

Ranks: an effect inflicted at rank ``r`` of this Action counts from ``r`` (the attacker's Initiative
of the Action, as the encounter knows it); one already there when the Action began counts from the
highest Initiative of the Action. The end of the Action writes what is left at rank 0, the value the
next Action starts with (docs/rules-decisions.md, « Féerie : effets qui durent »).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Annotated, Any

from rulesets.core.conditions import Chip, Conditions, Lasting, lifted
from rulesets.core.encounter import Applied, Fighter
from rulesets.core.french import Grammar, Noun, count, quote, signed
from rulesets.core.i18n import _
from rulesets.core.schema import Choice, ScenarioError, Spec
from rulesets.feerie.model import BlowKind
from rulesets.feerie.speech import who

MAX_CONDITIONS = 12
DECAYING = frozenset({"etourdir", "handicaper"})  # the effects that wear off rank by rank (Lasts values)
GUARD_MALUS = -8  # « un malus de -8 à son Attaque » (Tenir en respect, Entrer dans la garde)
TRIP_MALUS = -4  # « un malus de -4 à toutes ses activités tant qu'il ne se sera pas relevé »
RELENTLESS_DEFENCE = -8  # « Acharnement : -8 en Défense »


class Lasts(Choice):
    """What an effect is, hence how it ends: a special blow's (same values as :class:`BlowKind`)
    or any other, which lasts until the game master lifts it."""

    OTHER = "autre"
    DISARM = "desarmer"
    TRIP = "faire_tomber"
    ENTANGLE = "entraver"
    STUN = "etourdir"
    HOLD_OFF = "tenir_en_respect"
    INSIDE_GUARD = "entrer_dans_la_garde"
    CRIPPLE = "handicaper"
    RELENTLESS = "acharnement"
    FRIGHTENING = "coup_effrayant"

    @classmethod
    def labels(cls) -> dict[str, str]:
        return {
            "autre": _("Autre effet"),
            "desarmer": _("Désarmé"),
            "faire_tomber": _("À terre"),
            "entraver": _("Entravé"),
            "etourdir": _("Étourdi"),
            "tenir_en_respect": _("Tenu en respect"),
            "entrer_dans_la_garde": _("Garde percée"),
            "handicaper": _("Organe hors d'usage"),
            "acharnement": _("Arme dans la plaie"),
            "coup_effrayant": _("Coup effrayant"),
        }


@dataclass(frozen=True, slots=True)
class Condition:
    """A lasting effect (« à terre », « étourdi »…): its malus to the activities (counted in
    Attaque), to the Défense, the ranks it still lasts, the rank of this Action it was inflicted at."""

    label: Annotated[str, Spec(label=_("Effet en cours"), max_length=200)] = ""
    by: Annotated[str, Spec(label=_("Infligé par"), max_length=80)] = ""
    malus: Annotated[
        int | None,
        Spec(
            label=_("Malus à ses activités"),
            ge=-500,
            le=0,
            help=_("Compté dans son Attaque tant que l'effet dure ; vide : aucun malus."),
        ),
    ] = None
    kind: Annotated[Lasts, Spec(label=_("Sorte d'effet"), help=_("Dit comment il prend fin."))] = Lasts.OTHER
    defense: Annotated[
        int | None, Spec(label=_("Malus à sa Défense"), ge=-500, le=0, help=_("Vide : aucun malus."))
    ] = None
    ranks: Annotated[
        int | None,
        Spec(label=_("Rangs d'Initiative restants"), ge=0, le=999, help=_("Handicaper ; vide : sans durée.")),
    ] = None
    rank: Annotated[
        int | None,
        Spec(
            label=_("Infligé au rang"),
            ge=-999,
            le=999,
            help=_("De l'Action en cours ; vide : déjà là au début de l'Action."),
        ),
    ] = None

    def check(self) -> dict[str, str]:
        if self.kind is Lasts.STUN and not self.malus:
            return {"malus": _("Un étourdissement a un malus (les Dommages du coup, comptés en malus).")}
        if self.kind is Lasts.ENTANGLE and not self.malus:
            return {"malus": _("Une entrave a un malus : la marge de réussite de l'attaque.")}
        if self.kind is Lasts.CRIPPLE and not self.ranks:
            return {"ranks": _("Un organe hors d'usage l'est pour un nombre de rangs d'Initiative.")}
        if self.kind is Lasts.OTHER and not self.label.strip():
            return {"label": _("Dites ce qu'est cet effet.")}
        return {}

    @property
    def decays(self) -> bool:
        """Whether it wears off rank by rank (Étourdir, Handicaper)."""
        return self.kind in DECAYING

    def elapsed(self, rank: int | None, top: int | None) -> int | None:
        """How many ranks have gone by for this effect when the countdown is at ``rank``, given the
        Action's highest Initiative ``top``: None when the ranks are not known."""
        start = self.rank if self.rank is not None else top
        if start is None or rank is None:
            return None
        return max(0, start - rank)

    def at(self, rank: int | None, top: int | None) -> Condition | None:
        """This effect at rank ``rank`` of the Action: a stun's malus less one per rank gone by, a
        crippled organ's ranks less those gone by; None once it has worn off."""
        gone = self.elapsed(rank, top) if self.decays else None
        if not gone:
            return self
        if self.kind is Lasts.STUN:
            left = min(0, (self.malus or 0) + gone)
            return replace(self, malus=left) if left else None
        ranks = (self.ranks or 0) - gone
        return replace(self, ranks=ranks) if ranks > 0 else None


def top_rank(states: Iterable[Any]) -> int | None:
    """The highest Initiative of the Action among those who have one: where its countdown starts."""
    known = [s.initiative for s in states if s.initiative is not None]
    return max(known) if known else None


def malus_at(conditions: tuple[Condition, ...], rank: int | None, top: int | None) -> tuple[int, int]:
    """(activities, Défense) malus of these effects at rank ``rank`` of the Action."""
    attack = defense = 0
    for c in conditions:
        now = c.at(rank, top)
        if now is not None:
            attack += now.malus or 0
            defense += now.defense or 0
    return attack, defense


def with_condition(state: Any, condition: Condition, notes: list[str]) -> Any:
    """``state`` with one more effect; a stun joins the stun already there (its malus added, the
    count started again at this rank)."""
    if condition.kind is Lasts.STUN:
        for i, c in enumerate(state.conditions):
            if c.kind is Lasts.STUN:
                merged = replace(
                    condition, malus=max(-500, (c.malus or 0) + (condition.malus or 0)), label=condition.label
                )
                return replace(state, conditions=(*state.conditions[:i], merged, *state.conditions[i + 1 :]))
    if len(state.conditions) >= MAX_CONDITIONS:
        notes.append(
            _("{n.Subject} : déjà douze effets en cours, {label} n'est pas noté sur {n[sa|leur]} fiche.").format(
                n=state.who, label=quote(condition.label)
            )
        )
        return state
    return replace(state, conditions=(*state.conditions, condition))


def without(state: Any, keep: Any) -> Any:
    """``state`` with only the effects ``keep(condition)`` accepts."""
    return replace(state, conditions=tuple(c for c in state.conditions if keep(c)))


# the blow that neutralises each guard effect, used by its victim against the one who inflicted it
COUNTER = {BlowKind.INSIDE_GUARD.value: Lasts.HOLD_OFF, BlowKind.HOLD_OFF.value: Lasts.INSIDE_GUARD}


def countered(attacker: Any, defender_name: str, blow: str) -> Condition | None:
    """The guard effect the attacker suffers from the defender that this blow neutralises, if any."""
    kind = COUNTER.get(blow)
    return next((c for c in attacker.conditions if c.kind is kind and c.by == defender_name), None)


def wear(fighters: tuple[Fighter, ...], story: list[str], notes: list[str]) -> dict[str, Any]:
    """The end of the Action for the effects that wear off rank by rank: what is left at rank 0,
    the value the next Action starts with (its rank of infliction forgotten)."""
    top = top_rank(f.state for f in fighters)
    out: dict[str, Any] = {}
    for f in fighters:
        s = f.state
        if not any(c.decays for c in s.conditions):
            continue
        kept: list[Condition] = []
        for c in s.conditions:
            if not c.decays:
                kept.append(c)
                continue
            if c.elapsed(0, top) is None:
                kept.append(c)
                notes.append(
                    _(
                        "{n.Subject} : {label} — aucune Initiative connue, les rangs écoulés sont à décompter à la main."
                    ).format(n=s.who, label=quote(c.label or c.kind.label))
                )
                continue
            now = c.at(0, top)
            if now is None:
                story.append(_("{n.Subject} : {label} prend fin.").format(n=s.who, label=quote(_chip_label(c))))
            else:
                kept.append(replace(now, rank=None))
        out[f.key] = replace(s, conditions=tuple(kept))
    return out


# --- chips and hand edits ------------------------------------------------------------------------------


def _chip_label(c: Condition) -> str:
    name = c.kind.label if c.kind is not Lasts.OTHER else (c.label or c.kind.label)
    # an effect typed with its malus in its words (« tombe à terre : −4 ») does not say it twice
    numbers = [signed(c.malus)] if c.malus and signed(c.malus) not in name else []
    if c.defense:
        numbers.append(_("{v} en Défense").format(v=signed(c.defense)))
    return f"{name} {', '.join(numbers)}" if numbers else name


def _remaining(c: Condition, n: Noun) -> str:
    """How the effect ends, said of the combatant ``n`` who suffers it."""
    b = who(c.by, Grammar(), "") if c.by.strip() else None
    match c.kind:
        case Lasts.STUN if c.rank is not None:
            return _("{v} par rang d'Initiative écoulé depuis le rang {r}").format(v=signed(-1), r=c.rank)
        case Lasts.STUN:
            return _("{v} par rang d'Initiative écoulé").format(v=signed(-1))
        case Lasts.CRIPPLE if c.rank is not None:
            return _("{n} à compter du rang {r}").format(n=count(c.ranks or 0, _("rang"), _("rangs")), r=c.rank)
        case Lasts.CRIPPLE:
            return _("encore {n}").format(n=count(c.ranks or 0, _("rang"), _("rangs")))
        case Lasts.TRIP:
            return _("jusqu'à ce {n[qu'il|qu'elle|qu'ils|qu'elles]} se {n[relève|relèvent]} (une activité)").format(n=n)
        case Lasts.ENTANGLE:
            return _(
                "jusqu'à ce {n[qu'il|qu'elle|qu'ils|qu'elles]} se {n[dégage|dégagent]} (Puissance contre Puissance)"
            ).format(n=n)
        case Lasts.HOLD_OFF if b is not None:
            return _("jusqu'à ce {n[qu'il|qu'elle|qu'ils|qu'elles]} {n[entre|entrent]} dans la garde {b.de}").format(
                n=n, b=b
            )
        case Lasts.INSIDE_GUARD if b is not None:
            return _(
                "jusqu'à ce {n[qu'il|qu'elle|qu'ils|qu'elles]} {n[tienne|tiennent]} {b.subject} en respect"
            ).format(n=n, b=b)
        case Lasts.RELENTLESS:
            return _("jusqu'à {n[sa|leur]} première Attaque manquée").format(n=n)
    return _("par {b.subject}").format(b=b) if b is not None else ""


_LIFT = {Lasts.TRIP: _("Se relève"), Lasts.ENTANGLE: _("Se dégage"), Lasts.DISARM: _("Ramasse son arme")}


def chips(f: Fighter, clock: Any) -> tuple[Chip, ...]:
    out: list[Chip] = []
    for i, c in enumerate(f.state.conditions):
        label = _chip_label(c)
        public = c.kind.label if c.kind is not Lasts.OTHER else (c.label or c.kind.label)
        note = c.by if c.kind is not Lasts.OTHER else c.label
        value = c.ranks if c.kind is Lasts.CRIPPLE else (c.defense if c.kind is Lasts.RELENTLESS else c.malus)
        out.append(
            Chip(
                path=f"conditions.{i}",
                label=label,
                remaining=_remaining(c, f.state.who),
                public=public if public != label else "",
                lasting=c.kind.value,
                value=value,
                note=note,
                lift=_LIFT.get(c.kind, ""),
                tone="info" if c.kind in (Lasts.FRIGHTENING,) else "danger",
            )
        )
    return tuple(out)


def _put(kind: Lasts, *, fixed: int | None = None, on: str = "malus") -> Any:
    def put(state: Any, value: int | None, note: str) -> Any:
        number = fixed if value is None else value
        if on in ("malus", "defense") and number is not None and number > 0:
            raise ScenarioError({"value": _("Un malus est négatif ou nul (reçu {v}).").format(v=signed(number))})
        data: dict[str, Any] = {"kind": kind, "label": kind.label if kind is not Lasts.OTHER else note.strip()}
        if kind is not Lasts.OTHER:
            data["by"] = note.strip()[:80]
        if number is not None:
            data[on] = number
        condition = Condition(**data)
        if errors := condition.check():
            raise ScenarioError({"value" if k != "label" else "note": v for k, v in errors.items()})
        notes: list[str] = []
        new = with_condition(state, condition, notes)
        if notes:
            raise ScenarioError({"lasting": notes[0]})
        return new

    return put


BY = _("Infligé par (nom)")

LASTING = (
    Lasting("etourdir", _("Étourdi"), _put(Lasts.STUN), value=_("Malus (les Dommages du coup)"), note=BY),
    Lasting(
        "faire_tomber", _("À terre"), _put(Lasts.TRIP, fixed=TRIP_MALUS), value=_("Malus"), note=BY, default=TRIP_MALUS
    ),
    Lasting("entraver", _("Entravé"), _put(Lasts.ENTANGLE), value=_("Malus (la marge)"), note=BY),
    Lasting(
        "tenir_en_respect",
        _("Tenu en respect"),
        _put(Lasts.HOLD_OFF, fixed=GUARD_MALUS),
        value=_("Malus d'Attaque"),
        note=BY,
        default=GUARD_MALUS,
    ),
    Lasting(
        "entrer_dans_la_garde",
        _("Garde percée"),
        _put(Lasts.INSIDE_GUARD, fixed=GUARD_MALUS),
        value=_("Malus d'Attaque"),
        note=BY,
        default=GUARD_MALUS,
    ),
    Lasting(
        "handicaper",
        _("Organe hors d'usage"),
        _put(Lasts.CRIPPLE, on="ranks"),
        value=_("Rangs d'Initiative"),
        note=BY,
    ),
    Lasting(
        "acharnement",
        _("Arme dans la plaie"),
        _put(Lasts.RELENTLESS, fixed=RELENTLESS_DEFENCE, on="defense"),
        value=_("Malus de Défense"),
        note=_("Dans la plaie de (nom)"),
        default=RELENTLESS_DEFENCE,
    ),
    Lasting("desarmer", _("Désarmé"), _put(Lasts.DISARM), note=BY),
    Lasting("autre", _("Autre effet"), _put(Lasts.OTHER), value=_("Malus à ses activités"), note=_("Effet")),
)


def lift(f: Fighter, path: str, clock: Any) -> Applied:
    """A chip ended by hand; standing up and freeing oneself are activities, the story says so."""
    applied = lifted(f, path, clock)
    c: Condition = f.state.conditions[int(path.split(".")[1])]
    n = f.state.who
    if c.kind is Lasts.TRIP:
        line = _("{n.Subject} se {n[relève|relèvent]} : c'est une activité à part entière, sans jet de dés.")
    elif c.kind is Lasts.ENTANGLE:
        line = _("{n.Subject} se {n[dégage|dégagent]}.")
    elif c.kind is Lasts.DISARM:
        line = _("{n.Subject} {n[ramasse|ramassent]} {n[son|son|leur]} arme.")
    else:
        return applied
    return replace(applied, story=(line.format(n=n),))


CONDITIONS = Conditions(chips=chips, lasting=LASTING, lift=lift)
