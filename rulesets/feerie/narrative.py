"""Narration of an exchange: a scene before the roll, a short story after it.

The story reads the result's events and numbers, never recomputes. Variants are picked with
``zlib.crc32`` of the seed (or of the typed dice), so the same permalink tells the same story.
"""

from __future__ import annotations

import zlib
from collections.abc import Sequence

from rulesets.core.i18n import _
from rulesets.core.results import Result
from rulesets.feerie.model import CoverMode, Exchange, Pace


def pick(options: Sequence[str], key: str) -> str:
    """A deterministic choice among ``options`` for ``key`` (crc32, never ``hash()``)."""
    return options[zlib.crc32(key.encode("utf-8")) % len(options)]


def _key(result: Result, part: str) -> str:
    base = (
        str(result.dice.seed)
        if result.dice.seed is not None
        else ",".join(f"{k}={v}" for k, v in sorted(result.dice.values.items()))
    )
    return f"{base}|{result.numbers.get('dice_term')}|{part}"


def _who(name: str, fallback: str) -> str:
    return name or fallback


def scene(s: Exchange) -> str:
    a = _who(s.attacker.name, _("l'assaillant"))
    d = _who(s.defender.name, _("son adversaire"))
    sit = s.situation
    parts: list[str] = []
    if sit.target_inanimate:
        parts.append(_("{a} s'en prend à un objet inanimé, qui ne peut ni parer ni esquiver.").format(a=a))
    elif s.ranged:
        parts.append(_("{a} prend {d} pour cible, à distance, sans le moindre contact.").format(a=a, d=d))
    else:
        parts.append(_("{a} fond sur {d} et engage le corps à corps.").format(a=a, d=d))
    if sit.surprised:
        parts.append(_("{d} ne s'attendait à rien : la surprise le fige.").format(d=d))
    if sit.defender_helpless:
        parts.append(_("{d} est incapable de remuer un cil.").format(d=d))
    if sit.movement.pace is not Pace.NONE:
        if sit.charge:
            parts.append(_("L'élan d'une charge ({pace}) porte le coup.").format(pace=sit.movement.pace.label.lower()))
        else:
            parts.append(_("Tout se joue en mouvement ({pace}).").format(pace=sit.movement.pace.label.lower()))
    if s.co_attacker_tailles:
        parts.append(
            _("D'autres assaillants se pressent autour de la victime ({n}).").format(n=len(s.co_attacker_tailles))
        )
    if sit.cover.mode is CoverMode.EXPOSED:
        parts.append(_("{d} s'abrite ; seules quelques parties dépassent.").format(d=d))
    elif sit.cover.mode is CoverMode.THROUGH:
        parts.append(_("Il faudra frapper au travers de l'abri ({m}).").format(m=sit.cover.material or _("obstacle")))
    if sit.lighting:
        parts.append(_("La lumière manque."))
    if s.attacker.mount.mounted:
        parts.append(_("{a} est en selle sur {m}.").format(a=a, m=s.attacker.mount.name or _("sa monture")))
    if s.active_blows:
        names = ", ".join(b.kind.label.lower() for b in s.active_blows)
        parts.append(_("Plutôt que blesser, {a} tente un coup spécial : {n}.").format(a=a, n=names))
    return " ".join(parts)


OPENINGS = (
    "{a} se ramasse, puis frappe.",
    "Un souffle, un éclat de Glamour : {a} passe à l'action.",
    "{a} ne laisse pas à {d} le temps de respirer.",
    "Le monde de Féerie retient son souffle quand {a} s'élance.",
)
HIT_LIGHT = (
    "Le coup porte, mais {d} n'y laisse qu'un peu d'Essence ({n}).",
    "{d} vacille ; une lueur s'échappe de la plaie : {n} point(s) d'Essence perdu(s).",
    "Touché ! {d} perd {n} point(s) d'Essence et serre les dents.",
)
HIT_HEAVY = (
    "Le choc est terrible : {d} perd {n} points d'Essence d'un seul coup.",
    "{a} frappe de plein fouet ; {d} voit fuir {n} points d'Essence dans une gerbe d'étincelles.",
    "C'est un coup de maître : {n} points d'Essence arrachés à {d}.",
)
HIT_DOWN = (
    "{d} s'effondre, vidé de son Essence ({n} points perdus) : le conte se referme sur lui.",
    "Il ne reste plus rien du Glamour de {d} : {n} points d'Essence, et le silence.",
)
HIT_NONE = (
    "Le coup porte, mais glisse sur {d} sans rien lui coûter.",
    "{d} encaisse sans broncher : pas une once d'Essence perdue.",
    "Touché, oui, mais {d} est trop solide pour en souffrir.",
)
MISSES = (
    "{d} esquive d'un pas de côté ; le coup ne rencontre que le vide.",
    "Une parade nette, et {a} en est pour ses frais.",
    "{a} manque son but de peu ; {d} a vu venir l'attaque.",
    "Le coup se perd dans les feuillages : {d} n'est plus là.",
)
INCIDENTS = (
    "Catastrophe ! {a} se prend les pieds dans ses propres élans ; le meneur décide de l'incident.",
    "Un échec abyssal : l'arme de {a} lui échappe, ou pire…",
    "{a} rate si lourdement qu'un innocent, un allié ou sa propre cheville pourrait en pâtir.",
)
BLOWS = (
    "Pas de sang cette fois, mais un effet bien pire :",
    "Le coup spécial réussit :",
    "{a} obtient ce qu'il cherchait :",
)
OBJECT_HIT = (
    "L'objet cède sous le coup : {n} point(s) de Dommages.",
    "Éclats et poussière : l'objet encaisse {n} point(s) de Dommages.",
)
OBJECT_SAFE = (
    "L'objet résiste ; à peine une marque.",
    "Rien ne bouge : l'objet est plus solide que le coup.",
)


TACTIC_BOLD = (
    "Toute prudence oubliée, {a} mise tout sur l'assaut.",
    "{a} a choisi l'offensive : tant pis pour sa garde.",
)
TACTIC_WARY = (
    "{a} reste sur la réserve, l'arme basse, prêt à parer.",
    "Prudent, {a} frappe sans se découvrir.",
)
SITUATIONS = {
    "surprised": (
        "{d} n'a rien vu venir : la surprise lui coupe le souffle.",
        "Pris au dépourvu, {d} se retourne trop tard.",
    ),
    "charge": ("{a} arrive lancé, de tout son élan.", "La charge de {a} soulève la poussière du sentier."),
    "crowd": (
        "Autour de {d}, les assaillants se bousculent et l'encerclent.",
        "{d} doit surveiller trop d'angles à la fois.",
    ),
    "dark": ("Dans la pénombre, chacun devine plus qu'il ne voit.", "La lumière avare brouille les gestes."),
    "cover": ("{d} se terre derrière son abri.", "Un obstacle s'interpose entre {a} et sa cible."),
    "mounted": ("Du haut de sa monture, {a} domine la mêlée.", "{a} pousse sa monture en avant."),
    "ranged": (
        "La distance n'arrête pas {a} : on atteint tout ce qu'on peut voir.",
        "{a} ajuste son tir, le regard fixé sur {d}.",
    ),
    "helpless": ("{d}, incapable de remuer un cil, s'offre tout entier au coup.",),
}
ROLL_CLOSE = (
    "Le jet d'Attaque atteint {t} contre une Défense de {df} : il passe de justesse (marge {m}).",
    "{t} contre {df} : un souffle d'avance seulement (marge {m}).",
)
ROLL_CLEAR = (
    "Le jet d'Attaque atteint {t} contre une Défense de {df} : marge de {m}.",
    "{t} contre {df} : l'attaque passe avec une marge de {m}.",
)
ROLL_CRUSHING = (
    "{t} contre {df} : la Défense vole en éclats (marge {m}).",
    "Le jet d'Attaque écrase la Défense, {t} contre {df} : marge de {m}.",
)
ROLL_SHORT = (
    "{t} contre une Défense de {df} : il s'en faut de {n}.",
    "Le jet d'Attaque n'atteint que {t} contre {df}.",
)
CLOSINGS_LOW = (
    "Il ne reste à {d} que {e} point(s) d'Essence : la prochaine passe pourrait être la dernière.",
    "{d} chancelle, son Glamour réduit à {e}.",
)
CLOSINGS_HIGH = (
    "{d} garde {e} points d'Essence et compte bien le faire payer.",
    "Il en faudra davantage : {d} conserve {e} points d'Essence.",
)


def _situations(s: Exchange) -> list[str]:
    sit = s.situation
    keys: list[str] = []
    if sit.surprised:
        keys.append("surprised")
    if sit.defender_helpless:
        keys.append("helpless")
    if sit.charge:
        keys.append("charge")
    if s.co_attacker_tailles:
        keys.append("crowd")
    if sit.lighting:
        keys.append("dark")
    if sit.cover.mode is not CoverMode.NONE:
        keys.append("cover")
    if s.attacker.mount.mounted:
        keys.append("mounted")
    if s.ranged:
        keys.append("ranged")
    return keys


def story(s: Exchange, result: Result) -> tuple[str, ...]:
    a = _who(s.attacker.name, _("l'assaillant"))
    d = _who(s.defender.name, _("le défenseur"))
    n = result.numbers
    fmt = {"a": a, "d": d}
    opening = _(pick(OPENINGS, _key(result, "open"))).format(**fmt)
    tactic = s.attacker.tactic
    if tactic.attack > 0 and tactic.defense < 0:
        opening += " " + _(pick(TACTIC_BOLD, _key(result, "tactic"))).format(**fmt)
    elif tactic.defense > 0:
        opening += " " + _(pick(TACTIC_WARY, _key(result, "tactic"))).format(**fmt)
    paragraphs = [opening]
    situations = [_(pick(SITUATIONS[k], _key(result, k))).format(**fmt) for k in _situations(s)[:2]]
    if situations:
        paragraphs.append(" ".join(situations))
    total, margin = n.get("total"), int(n.get("margin") or 0)
    if s.situation.target_inanimate:
        paragraphs.append(_("Jet de Dommages : {t}.").format(t=total))
    else:
        table: Sequence[str]
        if margin < 0:
            table = ROLL_SHORT
        elif margin <= 2:
            table = ROLL_CLOSE
        elif margin >= 12:
            table = ROLL_CRUSHING
        else:
            table = ROLL_CLEAR
        paragraphs.append(
            _(pick(table, _key(result, "roll"))).format(t=total, df=n.get("defense"), m=margin, n=-margin)
        )
    outcome = result.outcome
    lost = int(n.get("essence_lost") or 0)
    before = int(n.get("essence_before") or 0)
    after = int(n.get("essence_after") or 0)
    hit_table: Sequence[str]
    if outcome == "hit":
        if after == 0:
            hit_table = HIT_DOWN
        elif lost * 3 >= max(1, before):
            hit_table = HIT_HEAVY
        else:
            hit_table = HIT_LIGHT
        paragraphs.append(_(pick(hit_table, _key(result, "hit"))).format(n=lost, **fmt))
    elif outcome == "hit_no_loss":
        paragraphs.append(_(pick(HIT_NONE, _key(result, "noloss"))).format(**fmt))
    elif outcome == "blow":
        effects = [e.label for e in result.events_of("blow")]
        paragraphs.append(_(pick(BLOWS, _key(result, "blow"))).format(**fmt) + " " + " ".join(effects))
    elif outcome == "miss":
        paragraphs.append(_(pick(MISSES, _key(result, "miss"))).format(**fmt))
    elif outcome == "incident":
        paragraphs.append(_(pick(INCIDENTS, _key(result, "incident"))).format(**fmt))
    elif outcome == "object_damaged":
        paragraphs.append(_(pick(OBJECT_HIT, _key(result, "obj"))).format(n=lost))
    else:
        paragraphs.append(_(pick(OBJECT_SAFE, _key(result, "obj"))))
    if outcome in ("hit", "hit_no_loss"):
        extra = [e.label for e in result.events_of("blow")]
        if extra:
            paragraphs.append(" ".join(extra))
    if outcome == "hit" and after > 0:
        closing: Sequence[str] = CLOSINGS_LOW if after * 4 <= before else CLOSINGS_HIGH
        paragraphs.append(_(pick(closing, _key(result, "close"))).format(e=after, **fmt))
    return tuple(paragraphs)


# --- the Action sequence ----------------------------------------------------------------------------

ACTION_OPENINGS = (
    "Le temps se suspend un battement de cœur, puis tout s'emballe.",
    "Les regards se croisent ; chacun a choisi son geste.",
    "Dans la clairière, le Glamour crépite : l'Action commence.",
)
ACTION_FIRST = (
    "{name} prend tout le monde de vitesse (rang {r}).",
    "C'est {name} qui rompt l'observation, au rang {r}.",
    "Plus vif que les autres, {name} agit le premier, au rang {r}.",
)
ACTION_CLOSINGS = (
    "Quand le décompte s'éteint, il faut déjà payer l'audace : {who}.",
    "L'Action s'achève, mais les excès se paieront à la suivante : {who}.",
)
ACTION_CALM = (
    "Le décompte s'éteint ; l'Action suivante commence sans dette.",
    "Rang 0 : le souffle revient, personne ne traîne de malus.",
)


def action_scene(s: object) -> str:
    from rulesets.feerie.action import ActionScenario

    if not isinstance(s, ActionScenario):
        return ""
    names = ", ".join(f.name for f in s.fighters)
    parts = [_("En présence : {names}.").format(names=names)]
    surprised = [f.name for f in s.fighters if f.surprised]
    if surprised:
        parts.append(_("Pris par surprise : {names}.").format(names=", ".join(surprised)))
    parts.append(_("{n} activité(s) déclarée(s).").format(n=len(s.activities)))
    return " ".join(parts)


ACT_PLAIN = ("Au rang {r}, {name} {what}.", "Rang {r} : {name} {what}.", "Vient le rang {r} : {name} {what}.")
ACT_EARLY = (
    "Au rang {r}, {name} devance le cours des choses et {what}.",
    "Plus prompt qu'on ne l'attendait, {name} {what} dès le rang {r}.",
)
ACT_EXTRA = ("Au rang {r}, {name} enchaîne et {what}.", "Sans reprendre son souffle, {name} {what} au rang {r}.")
ACT_WAIT = (
    "{name} a laissé passer son tour ; au rang {r}, il {what}.",
    "Patient, {name} attend le rang {r} et {what}.",
)
HIT_LINES = ("{t} encaisse : {l} point(s) d'Essence perdu(s).", "Le coup atteint {t}, qui perd {l} point(s) d'Essence.")
HIT_ZERO = ("{t} est touché, sans rien perdre.", "Le coup porte sur {t}, en vain.")
MISS_LINES = ("{t} esquive.", "{t} pare sans peine.", "Le coup manque {t}.")
DOWN_LINES = ("{t} s'effondre, à bout d'Essence.", "{t} ne se relèvera pas de sitôt.")
CHANGE_LINES = ("Au rang {r}, {name} se ravise{note}.", "{name} change d'avis au rang {r}{note}.")


def _verb(label: str) -> str:
    return label if label else _("agit")


def action_story(s: object, result: Result) -> tuple[str, ...]:
    from rulesets.feerie.action import ActionScenario

    key = str(result.dice.seed) if result.dice.seed is not None else str(result.numbers.get("order", ""))
    paragraphs = [pick(ACTION_OPENINGS, f"{key}|open")]
    names = [f.name for f in s.fighters] if isinstance(s, ActionScenario) else []
    labels = [a.label for a in s.activities] if isinstance(s, ActionScenario) else []

    def who(i: object) -> str:
        return names[i] if isinstance(i, int) and 0 <= i < len(names) else "?"

    acts = result.events_of("activity")
    if acts:
        first = acts[0]
        paragraphs.append(
            pick(ACTION_FIRST, f"{key}|first").format(name=who(first.data.get("fighter")), r=first.data.get("rank"))
        )
    sentences: list[str] = []
    for n, e in enumerate(result.events):
        k = f"{key}|{n}"
        d = e.data
        if e.kind == "activity":
            j = int(d.get("activity", 0))
            what = _verb(labels[j] if j < len(labels) else "")
            if not (labels[j] if j < len(labels) else "") and isinstance(s, ActionScenario) and j < len(s.activities):
                targets = [who(x) for x in s.activities[j].target_list()]
                if targets:
                    what = _("attaque {targets}").format(targets=", ".join(targets))
            table: Sequence[str]
            if d.get("anticipation"):
                table = ACT_EARLY
            elif d.get("order"):
                table = ACT_EXTRA
            elif "attendu" in e.label:
                table = ACT_WAIT
            else:
                table = ACT_PLAIN
            sentences.append(pick(table, k).format(r=d.get("rank"), name=who(d.get("fighter")), what=what))
        elif e.kind == "hit":
            lost = int(d.get("lost", 0))
            sentences.append(pick(HIT_LINES if lost else HIT_ZERO, k).format(t=who(d.get("target")), l=lost))
        elif e.kind == "miss":
            sentences.append(pick(MISS_LINES, k).format(t=who(d.get("target"))))
        elif e.kind == "down":
            sentences.append(pick(DOWN_LINES, k).format(t=who(d.get("fighter"))))
        elif e.kind == "change":
            sentences.append(pick(CHANGE_LINES, k).format(r=d.get("rank"), name=who(d.get("fighter")), note=""))
        elif e.kind in ("incident", "refused", "cancelled", "blocked", "impersonal"):
            sentences.append(e.label.rstrip(".") + ".")
    for i in range(0, len(sentences), 4):
        paragraphs.append(" ".join(sentences[i : i + 4]))
    debts = [e.label.split(" : ", 1)[0] + f" {e.value}" for e in result.events_of("next") if e.data.get("malus")]
    if debts:
        paragraphs.append(pick(ACTION_CLOSINGS, f"{key}|close").format(who=", ".join(debts)))
    else:
        paragraphs.append(pick(ACTION_CALM, f"{key}|close"))
    return tuple(paragraphs)
