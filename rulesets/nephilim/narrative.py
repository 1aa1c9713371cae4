"""The two narrative frames of the seed's §15: "La scène" (before the roll) and "Le récit".

The story reads the result's numbers and events; it never recomputes a rule. Variants are chosen
from the roll's seed (or, for typed dice, from the faces) through ``zlib.crc32``, so a permalink
always tells the same story.

Issue 15: every name goes through its grammar (:mod:`rulesets.nephilim.language`: « le Garde du
corps », « d'Ondine », « à l'Initiée », and every verb, pronoun and participle agreed with it), the
sentences are composed by :func:`rulesets.core.french.sentences` (a situation typed by the game
master never follows a full stop in lower case), equipment names stay labels (in « » or after a
colon, parentheses never nested), and a weapon sounds as it is used: a shot fired in melee does
not whistle through the air, claws are not held « au poing ».
"""

from __future__ import annotations

import zlib
from collections.abc import Sequence

from rulesets.core.french import Noun, count, join, parenthesize, quote, sentences, signed, starts_with_vowel_sound
from rulesets.core.i18n import _
from rulesets.core.results import Result
from rulesets.nephilim.engine import metamorphe_of
from rulesets.nephilim.model import (
    ApproachKind,
    AttackerKind,
    Cadence,
    DefenceStyle,
    Defender,
    Effect,
    Element,
    Mode,
    Scenario,
    WeaponType,
)

# --------------------------------------------------------------------------- La scène


def _labels(names: Sequence[str]) -> str:
    """Equipment or spell names as labels: « Prince de la spirale » et « Pierre d'affûtage »."""
    return join([quote(n) for n in names if n])


def _of_labels(names: Sequence[str]) -> str:
    """« de « Corps brumeux » », « d'« Eau-forte des murailles d'Atlantis » »: « de » elides before
    the quoted name as before the name itself."""
    shown = [n for n in names if n]
    of = "d'" if shown and starts_with_vowel_sound(shown[0]) else "de "
    return of + _labels(shown)


def _attacker_kind(w: Noun, kind: AttackerKind) -> str:
    if kind is AttackerKind.NEPHILIM:
        return w.forms(_("le Nephilim"), _("la Nephilim"), _("des Nephilim"), _("des Nephilim"))
    if kind is AttackerKind.INITIE:
        return w.forms(_("l'initié"), _("l'initiée"), _("des initiés"), _("des initiées"))
    return ""


def _defender_kind(d: Defender) -> str:
    w = d.who
    match d.kind.value:
        case "nephilim":
            return w.form(_("un Nephilim"), _("des Nephilim"))
        case "initie":
            return w.forms(
                _("un humain initié"), _("une humaine initiée"), _("des humains initiés"), _("des humaines initiées")
            )
        case "creature_magique":
            return w.form(_("une créature magique"), _("des créatures magiques"))
        case "selenim":
            return w.form(_("un Selenim"), _("des Selenim"))
    if not d.magic_sensitive:
        return w.form(_("un être que la magie n'atteint pas"), _("des êtres que la magie n'atteint pas"))
    return w.forms(_("un adversaire"), _("une adversaire"), _("des adversaires"), _("des adversaires"))


def _redundant(name: str, kind: str) -> bool:
    """« le Selenim, un Selenim »: the kind says nothing the name does not."""
    return bool(kind) and name.strip().lower() in kind.lower().split()


def _defender_phrase(d: Defender, effects: Sequence[Effect]) -> str:
    w = d.who
    kind = _defender_kind(d)
    armour = [p.name for _slot, p in d.protections if p.phys or p.mag]
    subject = w.subject if _redundant(w.name, kind) else f"{w.subject}, {kind},"
    parts = [
        _("{d} {chooses} la défense {defence}").format(
            d=subject, chooses=w.form(_("choisit"), _("choisissent")), defence=quote(d.defence.name)
        )
    ]
    if d.defence_number > 1:
        parts.append(_("{its} défense n°{n} du round").format(its=w.form(_("sa"), _("leur")), n=d.defence_number))
    if armour:
        parts.append(_("{protected} par {armour}").format(protected=w.agree(_("protégé")), armour=_labels(armour)))
    if effects:
        parts.append(_("sous l'effet {fx}").format(fx=_of_labels([f.name for f in effects])))
    if d.wounds:
        parts.append(_("{wounded} ({w})").format(wounded=w.agree(_("blessé")), w=count(d.wounds, _("degré"))))
    sheet = _sheet(d.metamorphe, d.stase, d.mnemos)
    if sheet:
        parts.append(sheet)
    return ", ".join(parts)


def _sheet(metamorphe: int, stase: bool, mnemos: bool) -> str:
    """« Métamorphe 2, en Stase, Mnémos en jeu » (§1, a Nephilim's, shown as they are)."""
    parts = [_("Métamorphe {n}").format(n=metamorphe)] if metamorphe else []
    if stase:
        parts.append(_("en Stase"))
    if mnemos:
        parts.append(_("Mnémos en jeu"))
    return ", ".join(parts)


def scene(scn: Scenario) -> str:
    """Live description of the exchange as configured (§15, cadre « La scène »)."""
    a = scn.attacker
    w = a.who
    kind = _attacker_kind(w, a.kind)
    subject = w.Subject if not kind or _redundant(w.name, kind) else f"{w.Subject}, {kind},"
    approach = parenthesize(a.approach.name.lower())
    weapon = a.weapon.name
    parts: list[str] = []
    if scn.mode is Mode.MELEE:
        held = (
            w.form(_("sans autre arme que son corps"), _("sans autre arme que leur corps"))
            if a.weapon.type is WeaponType.NATURAL and a.weapon.category is Mode.MELEE
            else _("arme en main")  # claws and fangs are not held in hand
        )
        parts.append(
            _("{who} {engages} le corps à corps {approach}, {held} : {weapon}.").format(
                who=subject, engages=w.form(_("engage"), _("engagent")), approach=approach, held=held, weapon=weapon
            )
        )
    elif scn.mode is Mode.RANGED:
        cadence = "" if scn.cadence is Cadence.UNIQUE else " " + _("en {c}").format(c=scn.cadence.label.lower())
        parts.append(
            _("{who} {adjusts} {its} tir{cadence} {approach}, arme en main : {weapon}.").format(
                who=subject,
                adjusts=w.form(_("ajuste"), _("ajustent")),
                its=w.form(_("son"), _("leur")),
                cadence=cadence,
                approach=approach,
                weapon=weapon,
            )
        )
    else:
        parts.append(
            _("{who} {prepares} à lancer : {weapon}.").format(
                who=subject, prepares=w.form(_("s'apprête"), _("s'apprêtent")), weapon=weapon
            )
        )
    if a.approach_value and a.approach_element is not Element.NONE:
        parts.append(
            _("{its} Approche Ka-{el} ({v}) guide le geste.").format(
                its=w.form(_("son"), _("leur")), el=a.approach_element.label, v=a.approach_value
            )
        )
    if a.approach.kind is ApproachKind.FRAPPER:
        parts.append(
            _("{he} {strikes} de toute la force de {its} simulacre ({n}).").format(
                he=w.forms(_("il"), _("elle"), _("ils"), _("elles")),
                strikes=w.form(_("frappe"), _("frappent")),
                its=w.form(_("son"), _("leur")),
                n=a.simulacre_force,
            )
        )
    if a.kind is AttackerKind.NEPHILIM:
        metamorphe, set_by = metamorphe_of(scn)
        sheet = _sheet(metamorphe, a.stase, a.mnemos)
        if sheet:
            by = " " + _("sous l'effet {fx}").format(fx=_of_labels([set_by])) if set_by else ""
            parts.append(_("{Its} fiche : {sheet}{by}.").format(Its=w.form(_("Sa"), _("Leur")), sheet=sheet, by=by))
    if a.approach.aiming_rounds:
        parts.append(
            _("{he} {has} pris {rounds} pour viser.").format(
                he=w.forms(_("il"), _("elle"), _("ils"), _("elles")),
                has=w.form(_("a"), _("ont")),
                rounds=count(a.approach.aiming_rounds, _("round")),
            )
        )
    if a.ammunition.damage_bonus:
        parts.append(_("Munitions : {ammo}.").format(ammo=a.ammunition.name))
    if any(f.active for f in a.effects):
        parts.append(
            _("La magie est de {its} côté : {fx}.").format(
                its=w.form(_("son"), _("leur")), fx=_labels([f.name for f in a.effects if f.active])
            )
        )
    if a.wounds:
        parts.append(
            _("{its} blessures {him} gênent ({w}).").format(
                its=w.form(_("ses"), _("leurs")),
                him=w.forms(_("le"), _("la"), _("les"), _("les")),
                w=count(a.wounds, _("degré")),
            )
        )
    if a.situation:
        parts.append(a.situation)
    if len(scn.defenders) == 1:
        parts.append(_("En face, {d}.").format(d=_defender_phrase(scn.defenders[0], scn.effects_of(0))))
    else:
        parts.append(
            _("En face, {n} : {ds}.").format(
                n=count(len(scn.defenders), _("cible")),
                ds=" ; ".join(_defender_phrase(d, scn.effects_of(i)) for i, d in enumerate(scn.defenders)),
            )
        )
    if scn.rapid:
        parts.append(_("Deux coups partiront dans le même souffle."))
    return sentences(parts)


# --------------------------------------------------------------------------- Le récit


def _pick(options: Sequence[str], seed: int, key: str, used: set[str] | None = None) -> str:
    """A variant chosen from the seed; with ``used``, one not yet told in this story when possible
    (two blows of an Attaque rapide, or the columns of a burst, never read the same sentence)."""
    start = zlib.crc32(f"{seed}:{key}".encode()) % len(options)
    choice = options[start]
    if used is not None:
        fresh = [options[(start + k) % len(options)] for k in range(len(options))]
        choice = next((o for o in fresh if o not in used), choice)
        used.add(choice)
    return _(choice)


def _seed(result: Result) -> int:
    if result.dice.seed is not None:
        return result.dice.seed
    text = ",".join(f"{k}={v}" for k, v in sorted(result.dice.values.items()))
    return zlib.crc32(text.encode())


# Templates: {a} the attacker, {d} the defender (see rulesets.core.french.Noun for the
# agreements: {d.Subject}, {d.de}, {d.a}, {d:esquive/esquivent}, {d:il/elle/ils/elles}, {d:~blessé}),
# {w} the weapon as a label (« Épée/hache »), {wp} the weapon in parentheses, {approach} the
# approach in parentheses.

# A manufactured melee weapon.
OPENINGS_MELEE = (
    "{a.Subject} {a:fond/fondent} sur {d}, l'arme haute : {w}.",
    "D'un pas glissé, {a} {a:réduit/réduisent} la distance et {a:porte/portent} {a:son/leur} coup {d.a}, {w} au poing.",
    "{a.Subject} {a:engage/engagent} {d} {approach}, {w} en main.",
    "Le souffle court, {a} se {a:jette/jettent} sur {d} ; {a:son/leur} arme {wp} siffle dans l'air.",
)
# Claws, fangs, bare hands: nothing is held « au poing ».
OPENINGS_NATURAL = (
    "{a.Subject} {a:fond/fondent} sur {d}, sans autre arme que {a:son/leur} corps {wp}.",
    "D'un bond, {a} {a:franchit/franchissent} la distance et {a:frappe/frappent} {d} {wp}.",
    "{a.Subject} {a:engage/engagent} {d} {approach}, à corps perdu : {w}.",
)
# A ranged weapon fired in melee (Tir instinctif, §2): at point-blank range, nothing whistles.
OPENINGS_POINT_BLANK = (
    "Au corps à corps, {a} {a:lève/lèvent} {a:son/leur} arme {wp} et {a:tire/tirent} d'instinct sur {d}.",
    "{a.Subject} {a:tire/tirent} à bout portant sur {d}, sans prendre le temps de viser {wp}.",
    "Trop près pour viser : {a} {a:fait/font} feu d'instinct sur {d} {approach}, arme au poing : {w}.",
)
OPENINGS_FIREARM = (
    "{a.Subject} {a:aligne/alignent} {d} dans {a:sa/leur} ligne de mire et {a:fait/font} parler {a:son/leur} arme {wp}.",
    "Le fracas de l'arme {wp} déchire l'air : {a} {a:tire/tirent} sur {d}.",
    "{a.Subject} {a:tire/tirent} sur {d} sans trembler : {w}.",
)
# A bow, a crossbow, a spell that shoots: no gunfire.
OPENINGS_RANGED = (
    "{a.Subject} {a:aligne/alignent} {d} dans {a:sa/leur} ligne de mire {wp}, et le tir part.",
    "{a.Subject} {a:vise/visent} {d} et {a:lâche/lâchent} {a:son/leur} tir {wp}.",
    "{a.Subject} {a:tire/tirent} sur {d} sans trembler : {w}.",
)
OPENINGS_THROWN = (
    "{a.Subject} {a:arme/arment} {a:son/leur} bras et {a:lance/lancent} {a:son/leur} projectile vers {d} {wp}.",
    "D'un geste sec, {a} {a:lance/lancent} {a:son/leur} projectile sur {d} {wp}.",
    "Le projectile quitte la main {a.de} et file vers {d} {wp}.",
)
FUMBLE = (
    "Mais le geste se désunit : l'arme échappe presque {a.a}, maladresse complète qui laisse {d} {d:~indemne}.",
    "Un pied glisse, le coup part de travers : une maladresse {d.que} {d:regarde/regardent} passer, "
    "presque {d:~amusé}.",
    "Le Ka se dérobe et le corps suit : {a} s'{a:emmêle/emmêlent} dans {a:sa/leur} propre attaque, maladresse.",
)
FUMBLE_FIREARM = (
    "Mais l'arme s'enraye au pire moment : maladresse, et {d} n'{d:a/ont} rien senti.",
    "Le coup part dans le décor ; une maladresse {a.que} {a:regrettera/regretteront}.",
)
FUMBLE_RANGED = (
    "Mais le tir part de travers au pire moment : maladresse, et {d} n'{d:a/ont} rien senti.",
    "Le coup part dans le décor ; une maladresse {a.que} {a:regrettera/regretteront}.",
)
MISS_RANGED = (
    "Le projectile siffle à côté {d.de} et se perd au loin.",
    "Trop haut, trop vite : le tir manque {d}.",
)
KA = {
    "feu": ("Le Ka-Feu embrase le geste {a.de}.", "Une chaleur d'incendie monte dans le bras {a.de}."),
    "eau": (
        "Le Ka-Eau rend {a} {a:~fluide} comme une marée.",
        "{a.Subject} {a:glisse/glissent}, {a:~insaisissable}, {a:~porté} par {a:son/leur} Ka-Eau.",
    ),
    "air": (
        "Le Ka-Air porte {a}, {a:léger/légère/légers/légères}, presque {a:~invisible}.",
        "Un souffle d'Air précède le geste {a.de}.",
    ),
    "terre": (
        "Le Ka-Terre ancre {a} au sol, {a:lourd/lourde/lourds/lourdes} et {a:~implacable}.",
        "{a.Subject} {a:frappe/frappent} avec la patience de la pierre.",
    ),
    "lune": (
        "Le Ka-Lune trouble l'air autour {a.de}, étrange et changeant.",
        "Quelque chose de lunaire déforme le geste {a.de}.",
    ),
    "soleil": ("Le Ka-Soleil éclaire la volonté {a.de}.", "Une clarté d'or guide la main {a.de}."),
}
MAGIC_HELP = (
    "La magie répond à l'appel : {fx}.",
    "L'Occulte se mêle au geste : {fx}.",
)
MANTLE = (
    "Mais le manteau élémentaire reconnaît sa propre nature et boit le coup tout entier.",
    "L'élément de l'arme se fond dans le manteau du même élément : il ne reste rien de l'attaque.",
)
PARTIAL = (
    "Une part du coup se dissout {why}.",
    "La magie en retient une part {why}, pas tout.",
)
MISS = (
    "L'attaque se perd dans le vide ; {d} n'{d:a/ont} même pas à y répondre.",
    "Trop court, trop large : le coup ne trouve que l'air.",
    "{d.Subject} {d:voit/voient} venir l'attaque de loin, et elle manque sa cible.",
)
DODGED = (
    "{d.Subject} se {d:dérobe/dérobent} au dernier instant : le coup ne rencontre qu'une ombre.",
    "{d:Souple/Souple/Souples/Souples} comme l'eau, {d} {d:esquive/esquivent} ; rien ne {d:le/la/les/les} touche.",
    "Un pas de côté, une torsion du buste, et {d} {d:laisse/laissent} l'attaque mourir derrière "
    "{d:lui/elle/eux/elles}.",
)
DEFENDED = {
    DefenceStyle.PARRY: (
        "{d.Subject} {d:pare/parent} d'un geste sûr, et l'attaque s'éteint contre {d:sa/leur} garde.",
        "Le choc sonne sec : {d} {d:détourne/détournent} le coup.",
    ),
    DefenceStyle.BLOCK: (
        "{d.Subject} {d:bloque/bloquent} l'assaut de tout {d:son/leur} poids.",
        "L'impact s'écrase contre le blocage {d.de}.",
    ),
    DefenceStyle.DISARM: (
        "{d.Subject} {d:saisit/saisissent} l'ouverture et {d:désarme/désarment} {a} : le coup n'aboutit pas.",
        "D'une torsion précise, {d} {d:arrache/arrachent} l'arme {a.a}.",
    ),
    DefenceStyle.COUNTER: (
        "{d.Subject} {d:répond/répondent} à l'attaque par une riposte qui l'annule ; reste à porter le contre.",
        "Au lieu de reculer, {d} {d:contre-attaque/contre-attaquent} et {d:brise/brisent} l'élan {a.de}.",
    ),
    DefenceStyle.BREAK_FREE: (
        "{d.Subject} se {d:libère/libèrent} d'une secousse et {d:échappe/échappent} à l'étreinte.",
    ),
    DefenceStyle.FLEE: ("{d.Subject} {d:rompt/rompent} et s'{d:enfuit/enfuient}, sans pouvoir tout éviter.",),
}
DEFENDED_DEFAULT = (
    "{d.Subject} se {d:défend/défendent} avec justesse : l'attaque ne laisse aucune trace.",
    "La défense {d.de} tient bon ; rien ne passe.",
)
ABSORBED = (
    "Le coup porte, mais {d} l'{d:encaisse/encaissent} sans broncher : rien ne traverse {d:ses/leurs} protections.",
    "L'attaque touche {d} et meurt contre ce qui {d:le/la/les/les} protège.",
    "{d.Subject} {d:est/sont} {d:~atteint}, mais pas {d:~entamé}.",
)
GRAZE = (
    "Le coup effleure {d} : une éraflure ({dmg}), rien de plus.",
    "{d.Subject} {d:grimace/grimacent} sous l'estafilade : {dmg}, à peine une égratignure.",
    "La blessure est légère ({dmg}) ; {d} en {d:a/ont} vu d'autres.",
)
WOUND = (
    "{d.Subject} {d:accuse/accusent} le coup ({dmg}) et {d:recule/reculent} d'un pas, le souffle coupé.",
    "L'attaque mord profondément : {d} {d:vacille/vacillent} ({dmg}).",
    "{d.Subject} {d:plie/plient} sous l'impact ({dmg}) et {d:serre/serrent} les dents.",
)
TERRIBLE = (
    "Choc terrible : {d} {d:est/sont} {d:~projeté} en arrière, {d:~brisé} par la violence du coup ({dmg}).",
    "Le coup frappe {d} de plein fouet ({dmg}) ; le monde se brouille autour {d:de lui/d'elle/d'eux/d'elles}.",
    "Un impact effroyable ({dmg}) : {d} s'{d:effondre/effondrent} presque, le Ka vacillant.",
)
CRITICAL = (
    "Le geste {a.de} est parfait : un coup critique, d'une précision qui double sa force.",
    "Tout s'aligne : le Ka, le corps, l'arme. Réussite critique.",
    "Une ouverture, un éclair : {a} {a:frappe/frappent} exactement là où il faut, un coup critique.",
)
INSENSITIVE = (
    "La part magique du coup glisse sur {d} : la magie n'a pas de prise sur {d:lui/elle/eux/elles}.",
    "Les forces occultes passent à travers {d} comme à travers du verre.",
)
MAGIC = (
    "Une brûlure qui n'est pas de ce monde accompagne le coup : {mag} de dommages magiques.",
    "Le Ka {d.de} saigne lui aussi ({mag_short}).",
)
CANCEL = (
    "Mais une protection surnaturelle engloutit tout {why}.",
    "La magie s'interpose et annule le coup {why}.",
)


def _damage_text(phys: int, mag: int) -> str:
    if mag:
        return _("{p}\u00a0PHYS et {m}\u00a0MAG").format(p=phys, m=mag)
    return _("{p}\u00a0PHYS").format(p=phys)


def _openings(scn: Scenario) -> Sequence[str]:
    """The openings that fit the weapon as it is used (issue 15, item 3)."""
    weapon = scn.attacker.weapon
    if scn.mode is Mode.MELEE:
        if weapon.category is not Mode.MELEE:
            return OPENINGS_POINT_BLANK
        return OPENINGS_NATURAL if weapon.type is WeaponType.NATURAL else OPENINGS_MELEE
    if scn.mode is Mode.RANGED:
        return OPENINGS_FIREARM if weapon.firearm else OPENINGS_RANGED
    return OPENINGS_THROWN


def _fumbles(scn: Scenario) -> Sequence[str]:
    if scn.mode is Mode.RANGED:
        return FUMBLE_FIREARM if scn.attacker.weapon.firearm else FUMBLE_RANGED
    return FUMBLE


def story(scn: Scenario, result: Result) -> tuple[str, ...]:
    """Short literary paragraphs graded by what happened (§15, cadre « Le récit »)."""
    seed = _seed(result)
    n = result.numbers
    a = scn.attacker
    aw = a.who
    paragraphs: list[str] = []
    used: set[str] = set()
    strikes = int(n.get("strikes") or 1)
    for i in range(1, strikes + 1):
        key = f"s{i}."
        tier = str(n.get(key + "tier"))
        d = scn.defenders[0] if scn.rapid else scn.defenders[i - 1]
        phys, mag = int(n.get(key + "phys_taken") or 0), int(n.get(key + "mag_taken") or 0)
        fill = {
            "a": aw,
            "d": d.who,
            "w": quote(a.weapon.name),
            "wp": parenthesize(a.weapon.name),
            "approach": parenthesize(a.approach.name.lower()),
            "dmg": _damage_text(phys, mag),
            "mag": count(mag, _("point")),
            "mag_short": f"{mag}\u00a0MAG",
        }
        parts = []
        if scn.rapid:
            if i == 1:
                parts.append(_("Premier coup."))
            else:
                parts.append(
                    _("Puis, sans reprendre {its} souffle, le second.").format(its=aw.form(_("son"), _("leur")))
                )
        if i == 1 or not scn.cadence.is_burst:
            parts.append(_pick(_openings(scn), seed, f"open{i}", used).format(**fill))
        else:
            parts.append(_("La rafale balaie aussi {d}.").format(d=d.who))
        if i == 1 and a.approach_value and a.approach_element.value in KA:
            parts.append(_pick(KA[a.approach_element.value], seed, "ka", used).format(**fill))
        if i == 1 and any(f.active for f in a.effects):
            names = _labels([f.name for f in a.effects if f.active])
            parts.append(_pick(MAGIC_HELP, seed, "fx", used).format(fx=names))
        if i == 1 and a.kind is AttackerKind.NEPHILIM and metamorphe_of(scn)[1] and n.get("metamorphe") != a.metamorphe:
            parts.append(
                _("La métamorphose {a.de} s'achève : {its} Métamorphe monte à {m}.").format(
                    a=aw, its=aw.form(_("son"), _("leur")), m=n.get("metamorphe")
                )
            )
        if n.get(key + "critical"):
            parts.append(_pick(CRITICAL, seed, f"crit{i}", used).format(**fill))
        cancels = [e for e in result.events if e.kind == "cancel" and e.data.get("strike") == i]
        ranged = scn.mode is Mode.RANGED
        if tier == "fumble":
            parts.append(_pick(_fumbles(scn), seed, f"fumble{i}", used).format(**fill))
        elif tier == "miss":
            parts.append(_pick(MISS_RANGED if ranged else MISS, seed, f"miss{i}", used).format(**fill))
        elif tier == "dodged":
            parts.append(_pick(DODGED, seed, f"dodge{i}", used).format(**fill))
        elif tier == "defended":
            options = DEFENDED.get(d.defence.style, DEFENDED_DEFAULT)
            parts.append(_pick(options, seed, f"def{i}", used).format(**fill))
        elif tier == "absorbed":
            if cancels and a.approach.deals_damage and cancels[0].data.get("mantle"):
                parts.append(_pick(MANTLE, seed, f"mantle{i}", used))
            elif cancels and a.approach.deals_damage:
                why = parenthesize(cancels[0].label)
                parts.append(_pick(CANCEL, seed, f"cancel{i}", used).format(why=why))
            elif not a.approach.deals_damage:
                parts.append(_approach_effect(scn, d))
            else:
                parts.append(_pick(ABSORBED, seed, f"abs{i}", used).format(**fill))
        else:
            table = {"graze": GRAZE, "wound": WOUND, "terrible": TERRIBLE}[tier]
            if cancels:
                why = parenthesize(cancels[0].label)
                parts.append(_pick(PARTIAL, seed, f"partial{i}", used).format(why=why))
            parts.append(_pick(table, seed, f"dmg{i}", used).format(**fill))
            if mag:
                parts.append(_pick(MAGIC, seed, f"mag{i}", used).format(**fill))
        if any(e.kind == "insensitive" and e.data.get("strike") == i for e in result.events):
            parts.append(_pick(INSENSITIVE, seed, f"insens{i}", used).format(**fill))
        paragraphs.append(sentences(parts))
    closing = _closing(scn, result)
    if closing:
        paragraphs.append(closing)
    return tuple(paragraphs)


def _approach_effect(scn: Scenario, d: Defender) -> str:
    kind = scn.attacker.approach.kind
    if kind is ApproachKind.IMMOBILISER:
        return _("{a.Subject} {a:referme/referment} {a:sa/leur} prise : {d} {d:est/sont} {d:~immobilisé}.").format(
            a=scn.attacker.who, d=d.who
        )
    if kind is ApproachKind.FAIRE_TOMBER:
        return _("{d.Subject} {d:perd/perdent} l'équilibre et {d:roule/roulent} au sol.").format(d=d.who)
    return _("L'attaque porte, sans blesser.")


def _closing(scn: Scenario, result: Result) -> str:
    n = result.numbers
    a = scn.attacker.who
    parts: list[str] = []
    if scn.attacker.approach.attacker_cannot_defend:
        parts.append(
            _(
                "Tout à {a:son/leur} assaut, {a} {a:s'est/se sont} {a:~découvert} : "
                "{a:il/elle/ils/elles} ne {a:pourra/pourront} pas se défendre ce round."
            ).format(a=a)
        )
    if n.get("next.defender_actions"):
        parts.append(
            _("L'étrangeté du geste laisse la cible troublée ({v} à ses actions au round suivant).").format(
                v=signed(int(n["next.defender_actions"] or 0))
            )
        )
    if n.get("next.defender_attack"):
        parts.append(
            _("La cible hésitera à riposter ({v} en attaque au round suivant).").format(
                v=signed(int(n["next.defender_attack"] or 0))
            )
        )
    if n.get("next.defender_defence"):
        parts.append(
            _("{a.Subject} {a:a/ont} pris l'ascendant : la garde adverse s'en ressentira ({v}).").format(
                a=a, v=signed(int(n["next.defender_defence"] or 0))
            )
        )
    if n.get("next.attacker_attack"):
        parts.append(
            _("La défense magistrale ébranle {a} ({v} en attaque au round suivant).").format(
                a=a, v=signed(int(n["next.attacker_attack"] or 0))
            )
        )
    total = n.get("damage_taken")
    if len(scn.defenders) > 1 and isinstance(total, int):
        parts.append(
            _("Quand la fumée retombe, la rafale a coûté {t} de dommages au total.").format(t=count(total, _("point")))
        )
    return sentences(parts)
