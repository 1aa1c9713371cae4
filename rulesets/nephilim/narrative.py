"""The two narrative frames of the seed's §15: "La scène" (before the roll) and "Le récit".

The story reads the result's numbers and events; it never recomputes a rule. Variants are chosen
from the roll's seed (or, for typed dice, from the faces) through ``zlib.crc32``, so a permalink
always tells the same story.
"""

from __future__ import annotations

import re
import zlib
from collections.abc import Sequence

from rulesets.core.i18n import _
from rulesets.core.results import Result
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
)

# --------------------------------------------------------------------------- French elision

_ELIDE = re.compile(r"\b([DdQq]u?)e (?=[AEIOUYÀÂÉÈÊËÎÏÔÛÙ])")


def elide(text: str) -> str:
    """« de Ondine » → « d'Ondine », « que Attaquant » → « qu'Attaquant »: names and titles put
    after *de* or *que* start with a capital, so only a capital vowel elides (never an h)."""
    return _ELIDE.sub(lambda m: m.group(1) + "'", text)


# --------------------------------------------------------------------------- La scène


def _join(items: Sequence[str]) -> str:
    items = [i for i in items if i]
    if not items:
        return ""
    if len(items) == 1:
        return items[0]
    return ", ".join(items[:-1]) + _(" et ") + items[-1]


def _attacker_kind(scn: Scenario) -> str:
    return {
        AttackerKind.NEPHILIM: _("le Nephilim"),
        AttackerKind.INITIE: _("l'initié"),
        AttackerKind.AUTRE: "",
    }[scn.attacker.kind]


def _defender_phrase(d: Defender, effects: Sequence[Effect]) -> str:
    kind = {
        "nephilim": _("un Nephilim"),
        "initie": _("un humain initié"),
        "creature_magique": _("une créature magique"),
        "selenim": _("un Selenim"),
        "autre": _("un être que la magie n'atteint pas") if not d.magic_sensitive else _("un adversaire"),
    }[d.kind.value]
    armour = [p.name for _slot, p in d.protections if p.phys or p.mag]
    parts = [_("{name}, {kind}").format(name=d.name, kind=kind)]
    parts.append(_("choisit : {defence}").format(defence=d.defence.name.lower()))
    if d.defence_number > 1:
        parts.append(_("c'est sa défense n°{n} du round").format(n=d.defence_number))
    if armour:
        parts.append(_("protégé par {armour}").format(armour=_join(armour)))
    if effects:
        parts.append(_("sous l'effet de {fx}").format(fx=_join([f.name for f in effects])))
    if d.wounds:
        parts.append(_("blessé ({w} degrés)").format(w=d.wounds))
    return ", ".join(parts)


def scene(scn: Scenario) -> str:
    """Live description of the exchange as configured (§15, cadre « La scène »)."""
    a = scn.attacker
    who = a.name if not _attacker_kind(scn) else f"{a.name}, {_attacker_kind(scn)},"
    approach = a.approach.name.lower()
    sentences: list[str] = []
    weapon = a.weapon.name
    if scn.mode is Mode.MELEE:
        sentences.append(
            _("{who} engage le corps à corps ({approach}), arme en main : {weapon}.").format(
                who=who, approach=approach, weapon=weapon
            )
        )
    elif scn.mode is Mode.RANGED:
        cadence = "" if scn.cadence is Cadence.UNIQUE else _(" en {c}").format(c=scn.cadence.label.lower())
        sentences.append(
            _("{who} épaule son arme — {weapon} —{cadence} ({approach}).").format(
                who=who, weapon=weapon, cadence=cadence, approach=approach
            )
        )
    else:
        sentences.append(_("{who} s'apprête à lancer son arme : {weapon}.").format(who=who, weapon=weapon))
    if a.approach_value and a.approach_element is not Element.NONE:
        sentences.append(
            _("Son Approche Ka-{el} ({v}) guide le geste.").format(el=a.approach_element.label, v=a.approach_value)
        )
    if a.approach.aiming_rounds:
        sentences.append(_("Il a pris {n} round(s) pour viser.").format(n=a.approach.aiming_rounds))
    if a.ammunition.damage_bonus:
        sentences.append(_("Munitions : {ammo}.").format(ammo=a.ammunition.name))
    if any(f.active for f in a.effects):
        sentences.append(_("La magie l'accompagne : {fx}.").format(fx=_join([f.name for f in a.effects if f.active])))
    if a.wounds:
        sentences.append(_("Ses blessures le gênent ({w} degrés).").format(w=a.wounds))
    if a.situation:
        sentences.append(a.situation.rstrip(".") + ".")
    if len(scn.defenders) == 1:
        sentences.append(_("En face, {d}.").format(d=_defender_phrase(scn.defenders[0], scn.effects_of(0))))
    else:
        sentences.append(
            _("En face, {n} cibles : {ds}.").format(
                n=len(scn.defenders),
                ds="; ".join(_defender_phrase(d, scn.effects_of(i)) for i, d in enumerate(scn.defenders)),
            )
        )
    if scn.rapid:
        sentences.append(_("Deux coups partiront dans le même souffle."))
    return elide(" ".join(sentences))


# --------------------------------------------------------------------------- Le récit


def _signed(value: object) -> str:
    number = int(value) if isinstance(value, int) else 0
    return f"+{number}" if number >= 0 else f"−{-number}"


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


OPENINGS_MELEE = (
    "{a} fond sur {d}, l'arme haute — {w}.",
    "D'un pas glissé, {a} réduit la distance et porte son coup à {d}, {w} au poing.",
    "{a} engage {d} ({approach}), {w} en main.",
    "Le souffle court, {a} se jette sur {d} ; {w} siffle dans l'air.",
)
OPENINGS_RANGED = (
    "{a} aligne {d} dans sa ligne de mire et fait parler {w}.",
    "Le fracas de l'arme ({w}) déchire l'air : {a} tire sur {d}.",
    "{a} tire sur {d}, sans trembler — {w}.",
)
OPENINGS_THROWN = (
    "{a} arme son bras et projette son arme ({w}) vers {d}.",
    "D'un geste sec, {a} lance son arme sur {d} — {w}.",
    "L'arme quitte la main de {a} et file vers {d} ({w}).",
)
FUMBLE = (
    "Mais le geste se désunit : l'arme échappe presque à {a}, maladresse complète qui laisse {d} indemne.",
    "Un pied glisse, le coup part de travers — une maladresse que {d} regarde passer, presque amusé.",
    "Le Ka se dérobe et le corps suit : {a} s'emmêle dans sa propre attaque, maladresse.",
)
FUMBLE_RANGED = (
    "Mais l'arme s'enraye au pire moment : maladresse, et {d} n'a rien senti.",
    "Le coup part dans le décor ; une maladresse que {a} regrettera.",
)
MISS_RANGED = (
    "Le projectile siffle à côté de {d} et se perd au loin.",
    "Trop haut, trop vite : le tir manque {d}.",
)
KA = {
    "feu": ("Le Ka-Feu embrase le geste de {a}.", "Une chaleur d'incendie monte dans le bras de {a}."),
    "eau": ("Le Ka-Eau rend {a} fluide comme une marée.", "{a} glisse, insaisissable, porté par son Ka-Eau."),
    "air": ("Le Ka-Air porte {a}, léger, presque invisible.", "Un souffle d'Air précède le geste de {a}."),
    "terre": ("Le Ka-Terre ancre {a} au sol, lourd et implacable.", "{a} frappe avec la patience de la pierre."),
    "lune": (
        "Le Ka-Lune trouble l'air autour de {a}, étrange et changeant.",
        "Quelque chose de lunaire déforme le geste de {a}.",
    ),
    "soleil": ("Le Ka-Soleil éclaire la volonté de {a}.", "Une clarté d'or guide la main de {a}."),
}
MAGIC_HELP = (
    "La magie répond à l'appel : {fx}.",
    "{fx} — l'Occulte se mêle au geste.",
)
MANTLE = (
    "Mais le manteau élémentaire reconnaît sa propre nature et boit le coup tout entier.",
    "L'élément de l'arme se fond dans le manteau du même élément : il ne reste rien de l'attaque.",
)
PARTIAL = (
    "Une part du coup se dissout ({why}).",
    "La magie en retient une part ({why}), pas tout.",
)
MISS = (
    "L'attaque se perd dans le vide ; {d} n'a même pas à y répondre.",
    "Trop court, trop large : le coup ne trouve que l'air.",
    "{d} voit venir l'attaque de loin, et elle manque sa cible.",
)
DODGED = (
    "{d} se dérobe au dernier instant : le coup ne rencontre qu'une ombre.",
    "Souple comme l'eau, {d} esquive ; rien ne le touche.",
    "Un pas de côté, une torsion du buste, et {d} laisse l'attaque mourir derrière lui.",
)
DEFENDED = {
    DefenceStyle.PARRY: (
        "{d} pare d'un geste sûr, et l'attaque s'éteint contre sa garde.",
        "Le fer sonne contre le fer : {d} détourne le coup.",
    ),
    DefenceStyle.BLOCK: (
        "{d} bloque l'assaut de tout son poids.",
        "L'impact s'écrase contre le blocage de {d}.",
    ),
    DefenceStyle.DISARM: (
        "{d} saisit l'ouverture et désarme {a} : le coup n'aboutit pas.",
        "D'une torsion précise, {d} arrache l'arme à {a}.",
    ),
    DefenceStyle.COUNTER: (
        "{d} répond à l'attaque par une riposte qui l'annule — reste à porter le contre.",
        "Au lieu de reculer, {d} contre-attaque et brise l'élan de {a}.",
    ),
    DefenceStyle.BREAK_FREE: ("{d} se libère d'une secousse et échappe à l'étreinte.",),
    DefenceStyle.FLEE: ("{d} rompt et s'enfuit, sans pouvoir tout éviter.",),
}
DEFENDED_DEFAULT = (
    "{d} se défend avec justesse : l'attaque ne laisse aucune trace.",
    "La défense de {d} tient bon ; rien ne passe.",
)
ABSORBED = (
    "Le coup porte, mais {d} l'encaisse sans broncher : rien ne traverse ses protections.",
    "L'attaque touche {d} et meurt contre ce qui le protège.",
    "{d} est atteint, mais pas entamé.",
)
GRAZE = (
    "Le coup effleure {d} : une éraflure ({dmg}), rien de plus.",
    "{d} grimace sous l'estafilade — {dmg}, à peine une égratignure.",
    "La blessure est légère ({dmg}) ; {d} en a vu d'autres.",
)
WOUND = (
    "{d} accuse le coup ({dmg}) et recule d'un pas, le souffle coupé.",
    "L'attaque mord profondément : {d} vacille ({dmg}).",
    "{d} plie sous l'impact ({dmg}) et serre les dents.",
)
TERRIBLE = (
    "Choc terrible : {d} est projeté en arrière, brisé par la violence du coup ({dmg}).",
    "Le coup frappe {d} de plein fouet ({dmg}) ; le monde se brouille autour de lui.",
    "Un impact effroyable ({dmg}) : {d} s'effondre presque, le Ka vacillant.",
)
CRITICAL = (
    "Le geste de {a} est parfait — un coup critique, d'une précision qui double sa force.",
    "Tout s'aligne : le Ka, le corps, l'arme. Réussite critique.",
    "Une ouverture, un éclair : {a} frappe exactement là où il faut — un coup critique.",
)
INSENSITIVE = (
    "La part magique du coup glisse sur {d} sans prise : la magie ne l'atteint pas.",
    "Les forces occultes passent à travers {d} comme à travers du verre.",
)
MAGIC = (
    "Une brûlure qui n'est pas de ce monde accompagne le coup : {mag} en dommages magiques.",
    "Le Ka de {d} saigne lui aussi ({mag} en magique).",
)
CANCEL = (
    "Mais une protection surnaturelle engloutit tout : {why}.",
    "La magie s'interpose et annule le coup : {why}.",
)


def _damage_text(phys: int, mag: int) -> str:
    if mag:
        return _("{p} PHYS et {m} MAG").format(p=phys, m=mag)
    return _("{p} PHYS").format(p=phys)


def story(scn: Scenario, result: Result) -> tuple[str, ...]:
    """Short literary paragraphs graded by what happened (§15, cadre « Le récit »)."""
    seed = _seed(result)
    n = result.numbers
    a = scn.attacker
    paragraphs: list[str] = []
    used: set[str] = set()
    count = int(n.get("strikes") or 1)
    for i in range(1, count + 1):
        key = f"s{i}."
        tier = str(n.get(key + "tier"))
        d = scn.defenders[0] if scn.rapid else scn.defenders[i - 1]
        phys, mag = int(n.get(key + "phys_taken") or 0), int(n.get(key + "mag_taken") or 0)
        fill = {
            "a": a.name,
            "d": d.name,
            "w": a.weapon.name,
            "approach": a.approach.name.lower(),
            "dmg": _damage_text(phys, mag),
            "mag": str(mag),
        }
        openings = (
            OPENINGS_MELEE
            if scn.mode is Mode.MELEE
            else OPENINGS_RANGED
            if scn.mode is Mode.RANGED
            else OPENINGS_THROWN
        )
        parts = []
        if scn.rapid:
            parts.append(_("Premier coup.") if i == 1 else _("Puis, sans reprendre son souffle, le second."))
        if i == 1 or not scn.cadence.is_burst:
            parts.append(_pick(openings, seed, f"open{i}", used).format(**fill))
        else:
            parts.append(_("La rafale balaie aussi {d}.").format(d=d.name))
        if i == 1 and a.approach_value and a.approach_element.value in KA:
            parts.append(_pick(KA[a.approach_element.value], seed, "ka", used).format(**fill))
        if i == 1 and any(f.active for f in a.effects):
            names = _join([f.name for f in a.effects if f.active])
            parts.append(_pick(MAGIC_HELP, seed, "fx", used).format(fx=names))
        if n.get(key + "critical"):
            parts.append(_pick(CRITICAL, seed, f"crit{i}", used).format(**fill))
        cancels = [e for e in result.events if e.kind == "cancel" and e.data.get("strike") == i]
        ranged = scn.mode is Mode.RANGED
        if tier == "fumble":
            parts.append(_pick(FUMBLE_RANGED if ranged else FUMBLE, seed, f"fumble{i}", used).format(**fill))
        elif tier == "miss":
            parts.append(_pick(MISS_RANGED if ranged else MISS, seed, f"miss{i}", used).format(**fill))
        elif tier == "dodged":
            parts.append(_pick(DODGED, seed, f"dodge{i}", used).format(**fill))
        elif tier == "defended":
            options = DEFENDED.get(d.defence.style, DEFENDED_DEFAULT)
            parts.append(_pick(options, seed, f"def{i}", used).format(**fill))
        elif tier == "absorbed":
            if cancels and a.approach.deals_damage and "même élément" in cancels[0].label:
                parts.append(_pick(MANTLE, seed, f"mantle{i}", used))
            elif cancels and a.approach.deals_damage:
                parts.append(_pick(CANCEL, seed, f"cancel{i}", used).format(why=cancels[0].label.lower()))
            elif not a.approach.deals_damage:
                parts.append(_approach_effect(scn, d))
            else:
                parts.append(_pick(ABSORBED, seed, f"abs{i}", used).format(**fill))
        else:
            table = {"graze": GRAZE, "wound": WOUND, "terrible": TERRIBLE}[tier]
            if cancels:
                parts.append(_pick(PARTIAL, seed, f"partial{i}", used).format(why=cancels[0].label))
            parts.append(_pick(table, seed, f"dmg{i}", used).format(**fill))
            if mag:
                parts.append(_pick(MAGIC, seed, f"mag{i}", used).format(**fill))
        if any(e.kind == "insensitive" and e.data.get("strike") == i for e in result.events):
            parts.append(_pick(INSENSITIVE, seed, f"insens{i}", used).format(**fill))
        paragraphs.append(" ".join(parts))
    closing = _closing(scn, result)
    if closing:
        paragraphs.append(closing)
    return tuple(elide(p) for p in paragraphs)


def _approach_effect(scn: Scenario, d: Defender) -> str:
    kind = scn.attacker.approach.kind
    if kind is ApproachKind.IMMOBILISER:
        return _("{a} referme sa prise : {d} est immobilisé.").format(a=scn.attacker.name, d=d.name)
    if kind is ApproachKind.FAIRE_TOMBER:
        return _("{d} perd l'équilibre et roule au sol.").format(d=d.name)
    return _("L'attaque porte, sans blesser.")


def _closing(scn: Scenario, result: Result) -> str:
    n = result.numbers
    parts: list[str] = []
    if scn.attacker.approach.attacker_cannot_defend:
        parts.append(
            _("Tout à son assaut, {a} s'est découvert : il ne pourra pas se défendre ce round.").format(
                a=scn.attacker.name
            )
        )
    if n.get("next.defender_actions"):
        parts.append(
            _("L'étrangeté du geste laisse la cible troublée ({v} à ses actions au round suivant).").format(
                v=_signed(n["next.defender_actions"])
            )
        )
    if n.get("next.defender_attack"):
        parts.append(
            _("La cible hésitera à riposter ({v} en attaque au round suivant).").format(
                v=_signed(n["next.defender_attack"])
            )
        )
    if n.get("next.defender_defence"):
        parts.append(
            _("{a} a pris l'ascendant : la garde adverse s'en ressentira ({v}).").format(
                a=scn.attacker.name, v=_signed(n["next.defender_defence"])
            )
        )
    if n.get("next.attacker_attack"):
        parts.append(
            _("La défense magistrale ébranle {a} ({v} en attaque au round suivant).").format(
                a=scn.attacker.name, v=_signed(n["next.attacker_attack"])
            )
        )
    total = n.get("damage_taken")
    if len(scn.defenders) > 1 and isinstance(total, int):
        parts.append(_("Quand la fumée retombe, la rafale a coûté {t} points de dommages au total.").format(t=total))
    return " ".join(parts)
