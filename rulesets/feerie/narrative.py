"""Narration of an exchange: a scene before the roll, a short story after it.

The story reads the result's events and numbers, never recomputes. Variants are picked with
``zlib.crc32`` of the seed (or of the typed dice), so the same permalink tells the same story.

Every name is a :class:`~rulesets.core.french.Noun` (issue 15, :mod:`rulesets.feerie.speech`): a template says ``{a.Subject}`` at
the start of a sentence, ``{d.de}``, ``{d.a}``…, and ``{d[touché]}``, ``{a[fond|fondent]}`` for the
words that agree with a name, so that « la Harpie est touchée », « les Loups fondent sur l'Orc »;
counts go through :func:`~rulesets.core.french.count` (« 1 point d'Essence », « 7 points »).
"""

from __future__ import annotations

import zlib
from collections.abc import Sequence

from rulesets.core.french import DEFINITE_M, Noun, count, join, parenthesize, quote, sentences, signed, together
from rulesets.core.i18n import _
from rulesets.core.results import Result
from rulesets.feerie.engine import attacker_who, defender_who
from rulesets.feerie.model import CoverMode, Exchange, Pace
from rulesets.feerie.speech import who


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


def essence(n: int) -> str:
    """« 1 point d'Essence », « 7 points d'Essence »."""
    return count(n, _("point d'Essence"), _("points d'Essence"))


def essence_lost(n: int) -> str:
    """« 1 point d'Essence perdu », « 7 points d'Essence perdus »."""
    return count(n, _("point d'Essence perdu"), _("points d'Essence perdus"))


def _mount(s: Exchange, a: Noun) -> str:
    m = s.attacker.mount
    if m.name.strip():
        return who(m.name, m.grammar, "").subject
    return a["sa monture|leur monture"]


def _blows(s: Exchange) -> str:
    names = [quote(b.kind.label) for b in s.active_blows]
    if len(names) == 1:
        return _("un coup spécial : {n}").format(n=names[0])
    return _("des coups spéciaux : {n}").format(n=join(names))


def scene(s: Exchange) -> str:
    a, d = attacker_who(s), defender_who(s)
    sit = s.situation
    parts: list[str] = []
    if sit.target_inanimate:
        parts.append(
            _("{a.Subject} {a[s'en prend|s'en prennent]} à un objet inanimé, qui ne peut ni parer ni esquiver.").format(
                a=a
            )
        )
    elif s.ranged:
        parts.append(
            _("{a.Subject} {a[prend|prennent]} {d.subject} pour cible, à distance, sans le moindre contact.").format(
                a=a, d=d
            )
        )
    else:
        parts.append(
            _("{a.Subject} {a[fond|fondent]} sur {d.subject} et {a[engage|engagent]} le corps à corps.").format(
                a=a, d=d
            )
        )
    if sit.surprised:
        parts.append(
            _("{d.Subject} ne {d[s'attendait|s'attendaient]} à rien : la surprise {d[le|la|les]} fige.").format(d=d)
        )
    if sit.defender_helpless:
        parts.append(_("{d.Subject} {d[est|sont]} {d[incapable]} de remuer un cil.").format(d=d))
    if sit.movement.pace is not Pace.NONE:
        pace = sit.movement.pace.label.lower()
        if sit.charge:
            parts.append(_("L'élan d'une charge ({pace}) porte le coup.").format(pace=pace))
        else:
            parts.append(_("Tout se joue en mouvement ({pace}).").format(pace=pace))
    crowd = len(s.co_attacker_tailles)
    if crowd == 1:
        parts.append(_("Un autre assaillant se presse autour {d.de}.").format(d=d))
    elif crowd:
        parts.append(
            _("{n} se pressent autour {d.de}.").format(
                n=count(crowd, _("autre assaillant"), _("autres assaillants")), d=d
            )
        )
    if sit.cover.mode is CoverMode.EXPOSED:
        parts.append(_("{d.Subject} {d[s'abrite|s'abritent]} ; seules quelques parties dépassent.").format(d=d))
    elif sit.cover.mode is CoverMode.THROUGH:
        material = sit.cover.material.strip()
        parts.append(
            _("Il faudra frapper au travers de l'abri {m}.").format(m=parenthesize(material))
            if material
            else _("Il faudra frapper au travers de l'abri.")
        )
    if sit.lighting:
        parts.append(_("La lumière manque."))
    if s.attacker.mount.mounted:
        parts.append(_("{a.Subject} {a[est|sont]} en selle sur {m}.").format(a=a, m=_mount(s, a)))
    if s.active_blows:
        parts.append(_("Plutôt que de blesser, {a.subject} {a[tente|tentent]} {blows}.").format(a=a, blows=_blows(s)))
    return sentences(parts)


OPENINGS = (
    "{a.Subject} {a[se ramasse|se ramassent]}, puis {a[frappe|frappent]}.",
    "Un souffle, un éclat de Glamour : {a.subject} {a[passe|passent]} à l'action.",
    "{a.Subject} ne {a[laisse|laissent]} pas {d.a} le temps de respirer.",
    "Le monde de Féerie retient son souffle quand {a.subject} {a[s'élance|s'élancent]}.",
)
HIT_LIGHT = (
    "Le coup porte, mais {d.subject} n'y {d[laisse|laissent]} qu'un peu d'Essence ({points}).",
    "{d.Subject} {d[vacille|vacillent]} ; une lueur s'échappe de la plaie : {lost}.",
    "{d[Touché]} ! {d.Subject} {d[perd|perdent]} {essence} et {d[serre|serrent]} les dents.",
)
HIT_HEAVY = (
    "Le choc est terrible : {d.subject} {d[perd|perdent]} {essence} d'un seul coup.",
    "{a.Subject} {a[frappe|frappent]} de plein fouet ; {d.subject} {d[voit|voient]} fuir {essence} dans une "
    "gerbe d'étincelles.",
    "C'est un coup de maître : {torn} {d.a}.",
)
HIT_DOWN = (
    "{d.Subject} {d[s'effondre|s'effondrent]}, {d[vidé]} de {d[son|leur]} Essence ({gone}) : le conte se referme "
    "sur {d[lui|elle|eux|elles]}.",
    "Il ne reste plus rien du Glamour {d.de} : {essence}, et le silence.",
)
HIT_NONE = (
    "Le coup porte, mais glisse sur {d.subject} sans rien {d[lui|lui|leur]} coûter.",
    "{d.Subject} {d[encaisse|encaissent]} sans broncher : pas une once d'Essence perdue.",
    "{d[Touché]}, oui, mais {d.subject} {d[est|sont]} trop {d[solide]} pour en souffrir.",
)
MISSES = (
    "{d.Subject} {d[esquive|esquivent]} d'un pas de côté ; le coup ne rencontre que le vide.",
    "Une parade nette, et {a.subject} en {a[est|sont]} pour {a[ses|leurs]} frais.",
    "{a.Subject} {a[manque|manquent]} {a[son|leur]} but de peu ; {d.subject} {d[a|ont]} vu venir l'attaque.",
    "Le coup se perd dans les feuillages : {d.subject} {d[n'est|ne sont]} plus là.",
)
INCIDENTS = (
    "Catastrophe ! {a.Subject} se {a[prend|prennent]} les pieds dans {a[ses|leurs]} propres élans ; le meneur "
    "décide de l'incident.",
    "Un échec abyssal : l'arme {a.de} {a[lui|lui|leur]} échappe, ou pire…",
    "{a.Subject} {a[rate|ratent]} si lourdement qu'un innocent, un allié ou {a[sa propre cheville|leurs propres "
    "chevilles]} {a[pourrait|pourraient]} en pâtir.",
)
BLOWS = (
    "Pas de sang cette fois, mais un effet bien pire.",
    "Le coup spécial réussit.",
    "{a.Subject} {a[obtient|obtiennent]} ce {a[qu'il|qu'elle|qu'ils|qu'elles]} {a[cherchait|cherchaient]}.",
)
OBJECT_HIT = (
    "L'objet cède sous le coup : {damage}.",
    "Éclats et poussière : l'objet encaisse {damage}.",
)
OBJECT_SAFE = (
    "L'objet résiste ; à peine une marque.",
    "Rien ne bouge : l'objet est plus solide que le coup.",
)


TACTIC_BOLD = (
    "Toute prudence oubliée, {a.subject} {a[mise|misent]} tout sur l'assaut.",
    "{a.Subject} {a[a|ont]} choisi l'offensive : tant pis pour {a[sa|leur]} garde.",
)
TACTIC_WARY = (
    "{a.Subject} {a[reste|restent]} sur la réserve, l'arme basse, {a[prêt]} à parer.",
    "{a[Prudent]}, {a.subject} {a[frappe|frappent]} sans se découvrir.",
)
SITUATIONS = {
    "surprised": (
        "{d.Subject} {d[n'a|n'ont]} rien vu venir : la surprise {d[lui|lui|leur]} coupe le souffle.",
        "{d[Pris]} au dépourvu, {d.subject} se {d[retourne|retournent]} trop tard.",
    ),
    "charge": (
        "{a.Subject} {a[arrive|arrivent]} {a[lancé]}, de tout {a[son|leur]} élan.",
        "La charge {a.de} soulève la poussière du sentier.",
    ),
    "crowd": (
        "Autour {d.de}, les assaillants se bousculent et {d[l'encerclent|l'encerclent|les encerclent]}.",
        "{d.Subject} {d[doit|doivent]} surveiller trop d'angles à la fois.",
    ),
    "dark": ("Dans la pénombre, chacun devine plus qu'il ne voit.", "La lumière avare brouille les gestes."),
    "cover": (
        "{d.Subject} se {d[terre|terrent]} derrière {d[son|leur]} abri.",
        "Un obstacle s'interpose entre {a.subject} et {a[sa|leur]} cible.",
    ),
    "mounted": (
        "Du haut de {a[sa|leur]} monture, {a.subject} {a[domine|dominent]} la mêlée.",
        "{a.Subject} {a[pousse|poussent]} {a[sa|leur]} monture en avant.",
    ),
    "ranged": (
        "La distance n'arrête pas {a.subject} : on atteint tout ce qu'on peut voir.",
        "{a.Subject} {a[ajuste|ajustent]} {a[son|leur]} tir, le regard fixé sur {d.subject}.",
    ),
    "helpless": (
        "{d.Subject}, {d[incapable]} de remuer un cil, {d[s'offre|s'offrent]} "
        "{d[tout entier|tout entière|tout entiers|tout entières]} au coup.",
    ),
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
    "Il ne reste {d.a} que {essence} : la prochaine passe pourrait être la dernière.",
    "{d.Subject} {d[chancelle|chancellent]}, {d[son|leur]} Glamour réduit à {e}.",
)
CLOSINGS_HIGH = (
    "{d.Subject} {d[garde|gardent]} {essence} et {d[compte|comptent]} bien le faire payer.",
    "Il en faudra davantage : {d.subject} {d[conserve|conservent]} {essence}.",
)


def _situations(s: Exchange, result: Result) -> list[str]:
    sit = s.situation
    keys: list[str] = []
    if sit.surprised:
        keys.append("surprised")
    if sit.defender_helpless:
        keys.append("helpless")
    if sit.charge:
        keys.append("charge")
    # « trop d'angles » only when the result applied an angle malus (issue 14: the story never tells a
    # rule that was not applied, such as four Sylphes packed into one angle of the Ogre)
    if any(e.data.get("malus") for e in result.events_of("angles")):
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


def _number(n: object) -> str:
    """A number of the story, with the minus sign U+2212 (« −3 »)."""
    return signed(int(n), plus="") if isinstance(n, int) else str(n)


def story(s: Exchange, result: Result) -> tuple[str, ...]:
    a, d = attacker_who(s), defender_who(s)
    n = result.numbers
    fmt = {"a": a, "d": d}
    opening = _(pick(OPENINGS, _key(result, "open"))).format(**fmt)
    tactic = s.attacker.tactic
    if tactic.attack > 0 and tactic.defense < 0:
        opening += " " + _(pick(TACTIC_BOLD, _key(result, "tactic"))).format(**fmt)
    elif tactic.defense > 0:
        opening += " " + _(pick(TACTIC_WARY, _key(result, "tactic"))).format(**fmt)
    paragraphs = [opening]
    situations = [_(pick(SITUATIONS[k], _key(result, k))).format(**fmt) for k in _situations(s, result)[:2]]
    if situations:
        paragraphs.append(sentences(situations))
    total, margin = n.get("total"), int(n.get("margin") or 0)
    if s.situation.target_inanimate:
        paragraphs.append(_("Jet de Dommages : {t}.").format(t=_number(total)))
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
            _(pick(table, _key(result, "roll"))).format(
                t=_number(total), df=_number(n.get("defense")), m=margin, n=-margin
            )
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
        paragraphs.append(
            _(pick(hit_table, _key(result, "hit"))).format(
                points=count(lost, _("point")),
                essence=essence(lost),
                lost=essence_lost(lost),
                gone=count(lost, _("point perdu"), _("points perdus")),
                torn=count(lost, _("point d'Essence arraché"), _("points d'Essence arrachés")),
                **fmt,
            )
        )
    elif outcome == "hit_no_loss":
        paragraphs.append(_(pick(HIT_NONE, _key(result, "noloss"))).format(**fmt))
    elif outcome == "blow":
        effects = [e.label for e in result.events_of("blow")]
        paragraphs.append(sentences([_(pick(BLOWS, _key(result, "blow"))).format(**fmt), *effects]))
    elif outcome == "miss":
        paragraphs.append(_(pick(MISSES, _key(result, "miss"))).format(**fmt))
    elif outcome == "incident":
        paragraphs.append(_(pick(INCIDENTS, _key(result, "incident"))).format(**fmt))
    elif outcome == "object_damaged":
        damage = count(lost, _("point de Dommages"), _("points de Dommages"))
        paragraphs.append(_(pick(OBJECT_HIT, _key(result, "obj"))).format(damage=damage))
    else:
        paragraphs.append(_(pick(OBJECT_SAFE, _key(result, "obj"))))
    if outcome in ("hit", "hit_no_loss"):
        extra = [e.label for e in result.events_of("blow")]
        if extra:
            paragraphs.append(sentences(extra))
    if outcome == "hit" and after > 0:
        closing: Sequence[str] = CLOSINGS_LOW if after * 4 <= before else CLOSINGS_HIGH
        paragraphs.append(_(pick(closing, _key(result, "close"))).format(e=after, essence=essence(after), **fmt))
    return tuple(paragraphs)


# --- the Action sequence ----------------------------------------------------------------------------

ACTION_OPENINGS = (
    "Le temps se suspend un battement de cœur, puis tout s'emballe.",
    "Les regards se croisent ; chacun a choisi son geste.",
    "Dans la clairière, le Glamour crépite : l'Action commence.",
)
ACTION_FIRST = (
    "{n.Subject} {n[prend|prennent]} tout le monde de vitesse (rang {r}).",
    "{n[C'est|Ce sont]} {n.subject} qui {n[rompt|rompent]} l'observation, au rang {r}.",
    "Plus {n[vif|vive|vifs|vives]} que les autres, {n.subject} {n[agit|agissent]} "
    "{n[le premier|la première|les premiers|les premières]}, au rang {r}.",
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
    from rulesets.feerie.action import ActionScenario, ActivityKind, fighter_whos

    if not isinstance(s, ActionScenario):
        return ""
    people = fighter_whos(s)
    parts = [_("En présence : {names}.").format(names=join([p.subject for p in people]))]
    surprised = [p for p, f in zip(people, s.fighters, strict=True) if f.surprised]
    if surprised:
        group = together(surprised)
        parts.append(_("{g.Subject} {g[est|sont]} {g[pris]} par surprise.").format(g=group))
    declared = sum(1 for a in s.activities if a.kind is not ActivityKind.NONE)
    if declared:
        parts.append(_("{n}.").format(n=count(declared, _("activité déclarée"), _("activités déclarées"))))
    else:
        parts.append(_("Aucune activité déclarée."))
    return sentences(parts)


ACT_PLAIN = (
    "Au rang {r}, {n.subject} {what}.",
    "Rang {r} : {n.subject} {what}.",
    "Vient le rang {r} : {n.subject} {what}.",
)
ACT_EARLY = (
    "Au rang {r}, {n.subject} {n[devance|devancent]} le cours des choses et {what}.",
    "Plus {n[prompt]} qu'on ne l'attendait, {n.subject} {what} dès le rang {r}.",
)
ACT_EXTRA = (
    "Au rang {r}, {n.subject} {n[enchaîne|enchaînent]} et {what}.",
    "Sans reprendre {n[son|leur]} souffle, {n.subject} {what} au rang {r}.",
)
ACT_WAIT = (
    "{n.Subject} {n[a|ont]} laissé passer {n[son|leur]} tour ; au rang {r}, {n[il|elle|ils|elles]} {what}.",
    "{n[Patient]}, {n.subject} {n[attend|attendent]} le rang {r} et {what}.",
)
HIT_LINES = (
    "{t.Subject} {t[encaisse|encaissent]} : {lost}.",
    "Le coup atteint {t.subject}, qui {t[perd|perdent]} {essence}.",
)
HIT_ZERO = ("{t.Subject} {t[est|sont]} {t[touché]}, sans rien perdre.", "Le coup porte sur {t.subject}, en vain.")
MISS_LINES = (
    "{t.Subject} {t[esquive|esquivent]}.",
    "{t.Subject} {t[pare|parent]} sans peine.",
    "Le coup manque {t.subject}.",
)
DOWN_LINES = (
    "{t.Subject} {t[s'effondre|s'effondrent]}, à bout d'Essence.",
    "{t.Subject} ne se {t[relèvera|relèveront]} pas de sitôt.",
)
CHANGE_LINES = (
    "Au rang {r}, {n.subject} se {n[ravise|ravisent]}.",
    "{n.Subject} {n[change|changent]} d'avis au rang {r}.",
)


def action_story(s: object, result: Result) -> tuple[str, ...]:
    from rulesets.feerie.action import ActionScenario, doing, fighter_whos

    key = str(result.dice.seed) if result.dice.seed is not None else str(result.numbers.get("order", ""))
    paragraphs = [pick(ACTION_OPENINGS, f"{key}|open")]
    scenario = s if isinstance(s, ActionScenario) else None
    people = fighter_whos(scenario) if scenario is not None else []

    def person(i: object) -> Noun:
        if isinstance(i, int) and 0 <= i < len(people):
            return people[i]
        return Noun(_("combattant inconnu"), DEFINITE_M)

    acts = result.events_of("activity")
    if acts:
        first = acts[0]
        paragraphs.append(
            _(pick(ACTION_FIRST, f"{key}|first")).format(n=person(first.data.get("fighter")), r=first.data.get("rank"))
        )
    told: list[str] = []
    for k, e in enumerate(result.events):
        variant = f"{key}|{k}"
        d = e.data
        if e.kind == "activity":
            actor = person(d.get("fighter"))
            j = int(d.get("activity", 0))
            in_scene = scenario is not None and 0 <= j < len(scenario.activities)
            what = doing(scenario, j, people) if scenario is not None and in_scene else actor["agit|agissent"]
            table: Sequence[str]
            if d.get("anticipation"):
                table = ACT_EARLY
            elif d.get("order"):
                table = ACT_EXTRA
            elif d.get("waited"):
                table = ACT_WAIT
            else:
                table = ACT_PLAIN
            told.append(_(pick(table, variant)).format(r=d.get("rank"), n=actor, what=what))
        elif e.kind == "hit":
            lost = int(d.get("lost", 0))
            target = person(d.get("target"))
            told.append(
                _(pick(HIT_LINES if lost else HIT_ZERO, variant)).format(
                    t=target, lost=essence_lost(lost), essence=essence(lost)
                )
            )
        elif e.kind == "miss":
            told.append(_(pick(MISS_LINES, variant)).format(t=person(d.get("target"))))
        elif e.kind == "down":
            told.append(_(pick(DOWN_LINES, variant)).format(t=person(d.get("fighter"))))
        elif e.kind == "change":
            told.append(_(pick(CHANGE_LINES, variant)).format(r=d.get("rank"), n=person(d.get("fighter"))))
        elif e.kind in ("incident", "refused", "cancelled", "blocked", "impersonal"):
            told.append(e.label)
    for i in range(0, len(told), 4):
        paragraphs.append(sentences(told[i : i + 4]))
    debts = [
        _("{m} pour {n.subject}").format(m=signed(int(e.data["malus"])), n=person(e.data.get("fighter")))
        for e in result.events_of("next")
        if e.data.get("malus")
    ]
    if debts:
        paragraphs.append(_(pick(ACTION_CLOSINGS, f"{key}|close")).format(who=join(debts)))
    else:
        paragraphs.append(pick(ACTION_CALM, f"{key}|close"))
    return tuple(paragraphs)
