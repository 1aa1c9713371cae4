"""Aventuriers — the scene before the roll and the story after it.

The narrator reads the scenario (names, weapon, situation) and the result's events and numbers;
it never recomputes a rule. Variants are chosen with ``zlib.crc32`` of the seed (or of the dice
read when every die was typed), so the same link always tells the same story.

French (issue 15): every name is said with its grammar and every verb, pronoun and participle
agrees with it (:mod:`rulesets.aventuriers.speech`: « le Gobelin s'effondre », « Elwen est
tuée », « les Ombres reculent »); every count agrees with its number (« 1 dégât menace »,
« 3 dégâts menacent »); the weapon is a label in « », and its verbs fit its use: a wielded weapon
« au poing » and « sifflant dans l'air » only in an Aventurier's hands in melee, a monster's card
attack (« Morsure ») named after a colon, a shot « part » and « vole », a spell is « prononcé ».
Sentences are composed with :func:`rulesets.core.french.sentences`.
"""

from __future__ import annotations

import zlib
from collections.abc import Mapping, Sequence

from rulesets.aventuriers.engine import plan
from rulesets.aventuriers.model import Action, Mode, Scenario
from rulesets.aventuriers.speech import damage_count, fighter, pv_count
from rulesets.core.french import Counted, Noun, count, join, quote, sentences, together
from rulesets.core.i18n import _
from rulesets.core.results import Number, Result


def _pick(options: Sequence[str], key: str, salt: str) -> str:
    return options[zlib.crc32(f"{key}:{salt}".encode()) % len(options)]


def _key(result: Result) -> str:
    """The seed, unless every die was typed (or none was needed): then the dice and the numbers,
    so that the same typed roll always tells the same story, whatever seed came with it."""
    typed = set(result.dice.values) <= set(result.dice.typed)
    if result.dice.seed is not None and not typed:
        return str(result.dice.seed)
    parts = [f"{k}={v}" for k, v in sorted(result.dice.values.items())]
    parts += [f"{k}={v}" for k, v in sorted(result.numbers.items())]
    return "|".join(parts)


def _int(n: Mapping[str, Number], key: str) -> int:
    return int(n.get(key) or 0)


def _where(distance: int, adjacent: bool) -> str:
    return _("au contact") if adjacent else _("à {n}").format(n=count(distance, _("case")))


def scene(scenario: Scenario) -> str:
    """The situation as the table sees it, before any die is rolled."""
    a, d = fighter(scenario.attacker), fighter(scenario.defender)
    w = quote(scenario.attacker.weapon.name)
    if scenario.action is Action.SUCCESS_TEST:
        return sentences(
            [
                _(
                    "{a:S} {a:retient|retiennent} {a:son|leur} souffle et {a:s'apprête|s'apprêtent} à lancer le dé "
                    "du destin : de ses éclairs dépendra la suite"
                ).format(a=a)
            ]
        )
    p = plan(scenario)
    z = p.zones
    where = _where(z.distance, z.adjacent)
    wielded = scenario.attacker.is_aventurier
    if scenario.action is Action.LEAVE_ZONE:
        text = _(
            "{d:S} {d:tente|tentent} de se dérober à la garde {a:de}, qui {d:le|la|les|les} {a:guette|guettent}, "
            "{a:prêt|prête|prêts|prêtes} à frapper"
        )
    elif scenario.action is Action.PHASE_START:
        text = _(
            "La phase des Aventuriers s'ouvre : {a}, {a:libre|libres} de tout engagement, {a:fond|fondent} sur {d} "
            "qui {d:s'attarde|s'attardent} dans {a:sa|leur} zone d'attaque"
        )
    elif scenario.attacker.weapon.spell:
        text = _(
            "{a:S} {a:rassemble|rassemblent} {a:son|leur} pouvoir et {a:dirige|dirigent} le sort {w} vers {d}, {where}"
        )
    elif scenario.mode is Mode.RANGED:
        text = _("{a:S} {a:ajuste|ajustent} {w} et {a:vise|visent} {d}, {where}")
    elif p.back_attack:
        if wielded:
            text = _("{a:S} se {a:glisse|glissent} derrière {d}, {w} au poing")
        else:
            text = _("{a:S} {a:surgit|surgissent} dans le dos {d:de} : {w}")
    elif wielded:
        text = _("{a:S} {a:avance|avancent}, {w} au poing, face {d:à}, {where}")
    else:
        text = _("{a:S} {a:fond|fondent} sur {d}, {where}, et {a:attaque|attaquent} : {w}")
    parts = [text.format(a=a, d=d, w=w, where=where)]
    if p.back_attack and scenario.mode is Mode.RANGED:
        parts.append(_("{d:S} {a:lui|leur} {d:tourne|tournent} le dos").format(a=a, d=d))
    if scenario.attacker.weapon.unblockable:
        parts.append(_("Aucune parade ne peut arrêter ce coup"))
    if scenario.defender.riposte and p.riposte_possible:
        parts.append(_("{d:S} {d:guette|guettent} l'ouverture pour riposter").format(d=d))
    if not p.allowed:
        parts.append(_("Mais la situation l'interdit : {why}").format(why=join(list(p.reasons))))
    return sentences(parts)


def story(scenario: Scenario, result: Result) -> tuple[str, ...]:
    """A few short paragraphs, graded by the outcome and the damage."""
    key = _key(result)
    a, d = fighter(scenario.attacker), fighter(scenario.defender)
    n = result.numbers
    if result.outcome == "impossible":
        return (
            sentences(
                [
                    _pick(
                        (
                            _("{a:S} {a:renonce|renoncent} : l'occasion n'est pas là"),
                            _(
                                "{a:S} {a:suspend|suspendent} {a:son|leur} geste : les règles du combat ne le permettent pas ici"
                            ),
                            _(
                                "{a:S} {a:jauge|jaugent} la distance, l'angle, et {a:comprend|comprennent} qu'il n'y a rien à tenter"
                            ),
                        ),
                        key,
                        "impossible",
                    ).format(a=a)
                ]
            ),
        )
    if scenario.action is Action.SUCCESS_TEST:
        return _test_story(scenario, result, key)
    paragraphs: list[list[str]] = []
    damage = _int(n, "damage")
    flash = bool(n.get("flash"))
    opening = _pick(_openings(scenario, n, damage), key, "opening")
    w = quote(scenario.attacker.weapon.name)
    first = [opening.format(a=a, d=d, w=w, n=damage_count(damage, flash))]
    if n.get("damage_bonus"):
        first.append(
            _pick(
                (
                    _("Le coup bas porte : {b} de plus, là où ça fait mal"),
                    _("Frapper dans le dos n'a rien d'élégant, mais cela rapporte {b} de plus"),
                ),
                key,
                "coup_bas",
            ).format(b=damage_count(_int(n, "damage_bonus")))
        )
    paragraphs.append(first)
    paragraphs.append([_defence(result, key, d, damage)])
    paragraphs.append(_end(result, key, a, d))

    if n.get("riposte"):
        paragraphs.append([_riposte(n, a, d)])

    gains = []
    if n.get("attacker_stamina_gained"):
        gains.append(
            _("{a} {a:gagne|gagnent} {n}").format(a=a, n=count(_int(n, "attacker_stamina_gained"), _("stamina")))
        )
    if n.get("defender_stamina_gained"):
        gains.append(
            _("{d} {d:gagne|gagnent} {n}").format(d=d, n=count(_int(n, "defender_stamina_gained"), _("stamina")))
        )
    tail = []
    if gains:
        tail.append(_("Les éclairs crépitent : {gains}").format(gains=_(" ; ").join(gains)))
    if n.get("engaged_after") and not scenario.board.engaged_together:
        engaged = together([a, d]).agree(_("engagé"))
        tail.append(_("Les deux adversaires sont désormais {engaged} au combat").format(engaged=engaged))
    if tail:
        paragraphs.append(tail)
    return tuple(sentences(p) for p in paragraphs)


def _defence(result: Result, key: str, d: Noun, damage: int) -> str:
    """How the target's defence fared."""
    n = result.numbers
    blocked = _int(n, "damage_blocked")
    if result.events_of("unblockable"):
        return _("Aucune parade possible : les dégâts passent tels quels")
    if damage and blocked >= damage:
        return _pick(
            (
                _("{d:S} {d:lève|lèvent} {d:sa|leur} garde à temps : {d:ses|leurs} boucliers absorbent tout"),
                _("Les protections tiennent bon : rien ne passe la garde {d:de}"),
                _("{d:S} {d:pare|parent} avec une précision d'horloger"),
            ),
            key,
            "parry",
        ).format(d=d)
    if blocked:
        return _pick(
            (
                _("{d:S} {d:bloque|bloquent} {b}, mais pas le reste"),
                _("La parade {d:de} arrête {b}, pas davantage ; le reste passe"),
                _("{d:S} {d:encaisse|encaissent} à moitié : {b} {b:ricoche|ricochent} sur {d:sa|leur} garde"),
            ),
            key,
            "partial",
        ).format(d=d, b=damage_count(blocked, bool(n.get("flash"))))
    if damage:
        return _("{d:S} {d:tente|tentent} de parer, sans trouver la moindre prise").format(d=d)
    return _("{d:S} se {d:défend|défendent} malgré tout, pour la forme et pour l'élan").format(d=d)


def _end(result: Result, key: str, a: Noun, d: Noun) -> list[str]:
    """The target's fate: dead (and the PX), wounded, unharmed."""
    n = result.numbers
    if result.outcome == "tue":
        out = [
            _pick(
                (
                    _("{d:S} {d:s'effondre|s'effondrent}, et c'en est fini"),
                    _("{d:S} {d:exhale|exhalent} un dernier souffle sur la dalle froide"),
                    _("{d:S} {d:vacille|vacillent}, {d:tombe|tombent}, ne se {d:relève|relèvent} pas"),
                ),
                key,
                "kill",
            ).format(d=d)
        ]
        if n.get("px_gained"):
            out.append(_("{a:S} {a:empoche|empochent} {px}").format(a=a, px=count(_int(n, "px_gained"), _("PX"))))
        return out
    if result.outcome == "blesse":
        lost = pv_count(_int(n, "pv_lost"))
        left = _int(n, "defender_pv_after")
        if left <= 2:
            end = _("{d:S} {d:perd|perdent} {lost} et {d:chancelle|chancellent}, au bord du gouffre ({left})")
        else:
            end = _pick(
                (
                    _("{d:S} {d:encaisse|encaissent} : {lost} {lost:perdu|perdus}, il en reste {n_left}"),
                    _("Le sang perle : {d} {d:perd|perdent} {lost} ({rest})"),
                    _("{d:S} {d:grimace|grimacent} sous l'impact : {lost} en moins, il en reste {n_left}"),
                ),
                key,
                "wound",
            )
        return [end.format(d=d, lost=lost, left=pv_count(left), n_left=left, rest=Counted(left, _("restant")))]
    return [
        _pick(
            (
                _("{d:S} {d:sort|sortent} de l'échange sans une égratignure"),
                _("Pas une goutte de sang : {d} {d:reste|restent} {d:indemne|indemnes}"),
                _("{d:S} {d:n'a|n'ont} pas cédé un pouce"),
            ),
            key,
            "unharmed",
        ).format(d=d)
    ]


def _riposte(n: Mapping[str, Number], a: Noun, d: Noun) -> str:
    back = damage_count(_int(n, "riposte_damage"), flash=True)
    if not back.n:
        return _(
            "{d:S} {d:cherche|cherchent} la riposte, mais {d:sa|leur} parade ne {d:lui|leur} offre aucune ouverture"
        ).format(d=d)
    if n.get("attacker_killed"):
        return _(
            "Et la parade devient contre-attaque : {n} {n:foudroie|foudroient} {a}, qui s'{a:écroule|écroulent}"
        ).format(n=back, a=a)
    if n.get("attacker_pv_lost"):
        return _("Riposte ! {d:S} {d:retourne|retournent} {n} contre {a}, qui {a:perd|perdent} {pv}").format(
            d=d, n=back, a=a, pv=pv_count(_int(n, "attacker_pv_lost"))
        )
    return _("{d:S} {d:riposte|ripostent} aussitôt ({n}), mais {a} s'en {a:garde|gardent}").format(d=d, n=back, a=a)


def _openings(scenario: Scenario, n: Mapping[str, Number], damage: int) -> tuple[str, ...]:
    """The first sentence, by the kind of attack and how much damage it carries. ``{n}`` is the
    damage (flash damage for a flash attack), ``{w}`` the weapon, spell or card attack in « »."""
    weapon = scenario.attacker.weapon
    wielded = scenario.attacker.is_aventurier and not weapon.spell
    if n.get("flash"):
        if scenario.action is Action.PHASE_START:
            return (
                _("La phase s'ouvre à peine {a:que} {a:frappe|frappent} déjà : {n} pour {d}"),
                _("{a:S} {a:n'attend|n'attendent} pas {a:son|leur} tour : un coup fulgurant, {n} sur {d}"),
            )
        if scenario.action is Action.LEAVE_ZONE:
            return (
                _(
                    "{a:Vif|Vive|Vifs|Vives} comme l'orage, {a} {a:frappe|frappent} {d} au passage : "
                    "{n} {n:jaillit|jaillissent}"
                ),
                _("{d:S} {d:croyait|croyaient} filer ; {w} {d:le|la|les|les} rattrape : {n}"),
                _("{a:S} ne {a:laisse|laissent} pas passer l'occasion ; le coup part, {n} pour {d}"),
            )
        return (
            _("Un arc crépitant jaillit {a:de} : {n} {n:fond|fondent} sur {d}"),
            _("{w} claque comme la foudre ; {d} {d:reçoit|reçoivent} {n}"),
        )
    if weapon.spell:
        if damage == 0:
            return (
                _("{a:S} {a:lance|lancent} le sort {w}, mais il se dissipe avant d'atteindre {d}"),
                _("Les mots de pouvoir se brouillent : le sort {w} ne fait qu'effleurer {d}"),
            )
        return (
            _("{a:S} {a:prononce|prononcent} les mots du sort {w} : {n} de pure magie {n:file|filent} vers {d}"),
            _("L'air se tord autour {a:de} ; le sort {w} frappe {d}, {n} à la clé"),
            _("Un éclat de puissance : le sort {w} porte {n} jusqu'{d:à}"),
        )
    if scenario.mode is Mode.RANGED:
        if damage == 0:
            return (
                _("{a:S} {a:tire|tirent}, mais le projectile se perd loin {d:de}"),
                _("Le projectile {a:de} va se ficher dans le mur, à un empan {d:de}"),
            )
        return (
            _("{a:S} {a:tire|tirent} : {n} {n:vole|volent} vers {d}"),
            _("Le projectile part ; {d} le {d:voit|voient} venir trop tard, {n} en jeu"),
            _("{a:S} {a:retient|retiennent} {a:son|leur} souffle, {a:lâche|lâchent} : {n} {n:file|filent} vers {d}"),
        )
    if n.get("back_attack"):
        return (
            _("Dans le dos {d:de}, {a} {a:frappe|frappent} sans prévenir : {n} {n:menace|menacent}"),
            _("{d:S} ne {d:voit|voient} pas venir {a}, qui {a:frappe|frappent} par derrière : {n}"),
        )
    if damage == 0:
        return (
            _("{a:S} {a:frappe|frappent}, mais le coup manque de mordant : pas un seul dégât"),
            _(
                "L'assaut {a:de} se perd dans le vide ; {d} {d:n'a|n'ont} rien à craindre… et se "
                "{d:défend|défendent} quand même"
            ),
            _("{a:S} {a:s'engage|s'engagent} sans conviction, le coup glisse sans rien entamer"),
        )
    if damage >= 4:
        strong = (
            _("Un assaut furieux ! {w} promet {n} {d:à}"),
            _("{a:S} {a:frappe|frappent} de toutes {a:ses|leurs} forces, {n} en germe dans chaque coup"),
        )
        if wielded:
            return (_("{a:S} {a:déchaîne|déchaînent} {w} : {n} s'abattent sur {d} comme une avalanche"), *strong)
        return (_("{a:S} se {a:déchaîne|déchaînent} : {n} s'abattent sur {d} comme une avalanche"), *strong)
    common = (_("D'un geste sûr, {a} {a:frappe|frappent} {d} ; {n} {n:cherche|cherchent} la faille"),)
    if wielded:
        return (
            _("{a:S} {a:lève|lèvent} {w} vers {d} : {n} {n:menace|menacent}"),
            *common,
            _("{w} siffle dans l'air : {a} {a:vise|visent} {d}, {n} à la clé"),
        )
    return (
        _("{a:S} {a:attaque|attaquent} {d} : {w}, {n} à la clé"),
        *common,
        _("{a:S} {a:bondit|bondissent} sur {d} : {n} {n:menace|menacent}"),
    )


def _test_story(scenario: Scenario, result: Result, key: str) -> tuple[str, ...]:
    a = fighter(scenario.attacker)
    effect = str(result.numbers.get("effect") or "")
    if result.outcome == "deux_eclairs":
        first = _pick(
            (
                _("Deux éclairs zèbrent la face du dé : {a} {a:force|forcent} le destin"),
                _("Le dé s'illumine deux fois ; la chance sourit {a:à}"),
            ),
            key,
            "t2",
        )
    elif result.outcome == "un_eclair":
        first = _pick(
            (
                _("Un éclair, un seul : {a} {a:obtient|obtiennent} ce qu'il faut, sans plus"),
                _("Le dé hésite puis montre un éclair ; {a} {a:souffle|soufflent}"),
            ),
            key,
            "t1",
        )
    else:
        first = _pick(
            (
                _("Pas un éclair : le dé reste muet et {a} {a:serre|serrent} les dents"),
                _("Le dé roule, s'arrête, vide d'éclairs. {a:S} {a:a|ont} échoué"),
            ),
            key,
            "t0",
        )
    told = [sentences([first.format(a=a)])]
    if effect.strip():
        told.append(sentences([effect]))
    return tuple(told)
