"""Aventuriers — the scene before the roll and the story after it.

The narrator reads the scenario (names, weapon, situation) and the result's events and numbers;
it never recomputes a rule. Variants are chosen with ``zlib.crc32`` of the seed (or of the dice
read when every die was typed), so the same link always tells the same story.
"""

from __future__ import annotations

import re
import zlib
from collections.abc import Mapping, Sequence

from rulesets.aventuriers.engine import plan
from rulesets.aventuriers.model import Action, Mode, Scenario
from rulesets.core.i18n import _, de
from rulesets.core.results import Number, Result


def _pick(options: Sequence[str], key: str, salt: str) -> str:
    return options[zlib.crc32(f"{key}:{salt}".encode()) % len(options)]


_COUNTED = re.compile(r"(\d+)(\s[^\s,.;:]*?\(s\)[^\s,.;:]*)")


def agree(text: str) -> str:
    """French agreement of counted words: "1 dégât(s)-éclair(s)" → "1 dégât-éclair", "3 dégâts"."""

    def fix(m: re.Match[str]) -> str:
        count, words = int(m.group(1)), m.group(2)
        return m.group(1) + words.replace("(s)", "s" if count > 1 else "")

    return _COUNTED.sub(fix, text)


def _key(result: Result) -> str:
    if result.dice.seed is not None:
        return str(result.dice.seed)
    parts = [f"{k}={v}" for k, v in sorted(result.dice.values.items())]
    parts += [f"{k}={v}" for k, v in sorted(result.numbers.items())]
    return "|".join(parts)


def scene(scenario: Scenario) -> str:
    """The situation as the table sees it, before any die is rolled."""
    a, d = scenario.attacker, scenario.defender
    if scenario.action is Action.SUCCESS_TEST:
        return _(
            "{a} retient son souffle et s'apprête à lancer le dé du destin : de ses éclairs dépendra la suite."
        ).format(a=a.name)
    p = plan(scenario)
    z = p.zones
    where = _("à {n} cases").format(n=z.distance) if not z.adjacent else _("au contact")
    if scenario.action is Action.LEAVE_ZONE:
        text = _("{d} tente de se dérober à la garde {de_a}, qui le guette l'arme levée.")
    elif scenario.action is Action.PHASE_START:
        text = _(
            "La phase des Aventuriers s'ouvre : {a}, libre de tout engagement, fond sur {d} qui s'attarde dans sa zone d'attaque."
        )
    elif a.weapon.spell:
        text = _("{a} rassemble son pouvoir et dirige « {w} » vers {d}, {where}.")
    elif scenario.mode is Mode.RANGED:
        text = _("{a} ajuste « {w} » et vise {d}, {where}.")
    elif p.back_attack:
        text = _("{a} se glisse derrière {d}, « {w} » au poing.")
    else:
        text = _("{a} avance, « {w} » au poing, face à {d}, {where}.")
    out = text.format(a=a.name, d=d.name, w=a.weapon.name, where=where, de_a=de(a.name))
    extras: list[str] = []
    if p.back_attack and scenario.mode is Mode.RANGED:
        extras.append(_("{d} lui tourne le dos.").format(d=d.name))
    if a.weapon.unblockable:
        extras.append(_("Aucune parade ne peut arrêter ce coup."))
    if d.riposte and p.riposte_possible:
        extras.append(_("{d} guette l'ouverture pour riposter.").format(d=d.name))
    if not p.allowed:
        extras.append(_("Mais la situation l'interdit : {why}.").format(why=", ".join(p.reasons)))
    return agree(" ".join([out, *extras]))


def story(scenario: Scenario, result: Result) -> tuple[str, ...]:
    """A few short paragraphs, graded by the outcome and the damage."""
    key = _key(result)
    a, d = scenario.attacker, scenario.defender
    n = result.numbers
    if result.outcome == "impossible":
        return (
            _pick(
                (
                    _("{a} renonce : l'occasion n'est pas là."),
                    _("{a} suspend son geste : les règles du combat ne le permettent pas ici."),
                    _("{a} jauge la distance, l'angle, et comprend qu'il n'y a rien à tenter."),
                ),
                key,
                "impossible",
            ).format(a=a.name),
        )
    if scenario.action is Action.SUCCESS_TEST:
        return _test_story(scenario, result, key)
    paragraphs: list[str] = []
    damage = int(n.get("damage") or 0)
    opening = _pick(_openings(scenario, n, damage), key, "opening")
    paragraphs.append(opening.format(a=a.name, d=d.name, w=a.weapon.name, n=damage))
    if n.get("damage_bonus"):
        paragraphs[-1] += " " + _pick(
            (
                _("Le coup bas porte : {b} dégât(s) de plus, là où ça fait mal."),
                _("Frapper dans le dos n'a rien d'élégant, mais cela rapporte {b} dégât(s) de plus."),
            ),
            key,
            "coup_bas",
        ).format(b=n["damage_bonus"])

    blocked = int(n.get("damage_blocked") or 0)
    lost = int(n.get("pv_lost") or 0)
    if result.events_of("unblockable"):
        defence = _("Aucune parade possible : les dégâts passent tels quels.")
    elif damage and blocked >= damage:
        defence = _pick(
            (
                _("{d} lève sa garde à temps : ses boucliers absorbent tout."),
                _("Les protections tiennent bon : rien ne passe la garde de {d}."),
                _("{d} pare avec une précision d'horloger."),
            ),
            key,
            "parry",
        ).format(d=d.name, b=n.get("shields"))
    elif blocked:
        defence = _pick(
            (
                _("{d} bloque {b} dégât(s), mais pas le reste."),
                _("La parade de {d} n'arrête que {b} dégât(s) ; le reste passe."),
                _("{d} encaisse à moitié : {b} dégât(s) ricochent sur sa garde."),
            ),
            key,
            "partial",
        ).format(d=d.name, b=blocked)
    elif damage:
        defence = _("{d} tente de parer, sans trouver la moindre prise.").format(d=d.name)
    else:
        defence = _("{d} se défend malgré tout, pour la forme et pour l'élan.").format(d=d.name)
    paragraphs.append(defence)

    if result.outcome == "tue":
        end = _pick(
            (
                _("{d} s'effondre, et c'en est fini."),
                _("{d} exhale un dernier souffle sur la dalle froide."),
                _("{d} vacille, tombe, ne se relève pas."),
            ),
            key,
            "kill",
        ).format(d=d.name)
        if n.get("px_gained"):
            end += " " + _("{a} empoche {px} PX.").format(a=a.name, px=n["px_gained"])
    elif result.outcome == "blesse":
        left = int(n.get("defender_pv_after") or 0)
        if left <= 2:
            end = _("{d} perd {n} PV et chancelle, au bord du gouffre ({left} PV).")
        else:
            end = _pick(
                (
                    _("{d} encaisse : {n} PV perdu(s), il lui en reste {left}."),
                    _("Le sang perle : {d} perd {n} PV ({left} restants)."),
                    _("{d} grimace sous l'impact, {n} PV en moins, {left} encore debout."),
                ),
                key,
                "wound",
            )
        end = end.format(d=d.name, n=lost, left=left)
    else:
        end = _pick(
            (
                _("{d} sort de l'échange sans une égratignure."),
                _("Pas une goutte de sang : {d} reste indemne."),
                _("{d} n'a pas cédé un pouce."),
            ),
            key,
            "unharmed",
        ).format(d=d.name)
    paragraphs.append(end)

    if n.get("riposte"):
        back = int(n.get("riposte_damage") or 0)
        if not back:
            riposte = _("{d} cherche la riposte, mais sa parade ne lui offre aucune ouverture.").format(d=d.name)
        elif n.get("attacker_killed"):
            riposte = _(
                "Et la parade devient contre-attaque : {n} dégât(s)-éclair(s) foudroient {a}, qui s'écroule."
            ).format(n=back, a=a.name)
        elif n.get("attacker_pv_lost"):
            riposte = _("Riposte ! {d} retourne {n} dégât(s)-éclair(s) contre {a}, qui perd {pv} PV.").format(
                d=d.name, n=back, a=a.name, pv=n["attacker_pv_lost"]
            )
        else:
            riposte = _("{d} riposte aussitôt ({n} dégât(s)-éclair(s)), mais {a} s'en garde.").format(
                d=d.name, n=back, a=a.name
            )
        paragraphs.append(riposte)

    gains = []
    if n.get("attacker_stamina_gained"):
        gains.append(_("{a} gagne {n} stamina").format(a=a.name, n=n["attacker_stamina_gained"]))
    if n.get("defender_stamina_gained"):
        gains.append(_("{d} gagne {n} stamina").format(d=d.name, n=n["defender_stamina_gained"]))
    tail = []
    if gains:
        tail.append(_("Les éclairs crépitent : ") + _(" ; ").join(gains) + ".")
    if n.get("engaged_after") and not scenario.board.engaged_together:
        tail.append(_("Les deux adversaires sont désormais engagés au combat."))
    if tail:
        paragraphs.append(" ".join(tail))
    return tuple(agree(p) for p in paragraphs)


def _openings(scenario: Scenario, n: Mapping[str, Number], damage: int) -> tuple[str, ...]:
    """The first sentence, by the kind of attack and how much damage it carries."""
    weapon = scenario.attacker.weapon
    back = bool(n.get("back_attack"))
    if n.get("flash"):
        if scenario.action is Action.PHASE_START:
            return (
                _("La phase s'ouvre à peine que {a} frappe déjà : {n} dégât(s)-éclair(s) pour {d}."),
                _("{a} n'attend pas son tour : un coup fulgurant, {n} dégât(s)-éclair(s) sur {d}."),
            )
        if scenario.action is Action.LEAVE_ZONE:
            return (
                _("Vif comme l'orage, {a} frappe {d} au passage : {n} dégât(s)-éclair(s) jaillissent."),
                _("{d} croyait filer ; « {w} » le rattrape, {n} dégât(s)-éclair(s)."),
                _("{a} ne laisse pas passer l'occasion ; la lame fuse, {n} dégât(s)-éclair(s) pour {d}."),
            )
        return (
            _("Un arc crépitant jaillit de {a} : {n} dégât(s)-éclair(s) fondent sur {d}."),
            _("« {w} » claque comme la foudre ; {d} reçoit {n} dégât(s)-éclair(s)."),
        )
    if weapon.spell:
        if damage == 0:
            return (
                _("{a} lance « {w} », mais le sort se dissipe avant d'atteindre {d}."),
                _("Les mots de pouvoir se brouillent : « {w} » ne fait qu'effleurer {d}."),
            )
        return (
            _("{a} prononce les mots de « {w} » : {n} dégât(s) de pure magie filent vers {d}."),
            _("L'air se tord autour de {a} ; « {w} » frappe {d}, {n} dégât(s) à la clé."),
            _("Un éclat de puissance : « {w} » porte {n} dégât(s) jusqu'à {d}."),
        )
    if scenario.mode is Mode.RANGED:
        if damage == 0:
            return (
                _("{a} tire, mais le projectile se perd loin de {d}."),
                _("Le trait de {a} siffle et se fiche dans le mur, à un empan de {d}."),
            )
        return (
            _("{a} décoche : {n} dégât(s) volent vers {d}."),
            _("Un trait part de « {w} » ; {d} le voit venir trop tard, {n} dégât(s) en jeu."),
            _("{a} retient son souffle, lâche : {n} dégât(s) filent vers {d}."),
        )
    if back:
        return (
            _("Dans le dos de {d}, {a} lève « {w} » : {n} dégât(s) menacent."),
            _("{d} ne voit pas venir {a}, qui frappe par derrière : {n} dégât(s)."),
        )
    if damage == 0:
        return (
            _("{a} frappe, mais le coup manque de mordant : pas un seul dégât."),
            _("L'assaut de {a} se perd dans le vide ; {d} n'a rien à craindre… et se défend quand même."),
            _("{a} s'engage sans conviction, le coup glisse sans rien entamer."),
        )
    if damage >= 4:
        return (
            _("{a} déchaîne « {w} » : {n} dégâts s'abattent sur {d} comme une avalanche."),
            _("Un assaut furieux ! « {w} » promet {n} dégâts à {d}."),
            _("{a} frappe de toutes ses forces, {n} dégâts en germe dans chaque coup."),
        )
    return (
        _("{a} porte « {w} » vers {d} : {n} dégât(s) menacent."),
        _("D'un geste sûr, {a} frappe {d} ; {n} dégât(s) cherchent la faille."),
        _("« {w} » siffle dans l'air : {a} vise {d}, {n} dégât(s) à la clé."),
    )


def _test_story(scenario: Scenario, result: Result, key: str) -> tuple[str, ...]:
    a = scenario.attacker.name
    effect = str(result.numbers.get("effect") or "")
    if result.outcome == "deux_eclairs":
        first = _pick(
            (
                _("Deux éclairs zèbrent la face du dé : {a} force le destin."),
                _("Le dé bleu s'illumine deux fois ; la chance sourit à {a}."),
            ),
            key,
            "t2",
        )
    elif result.outcome == "un_eclair":
        first = _pick(
            (
                _("Un éclair, un seul : {a} obtient ce qu'il faut, sans plus."),
                _("Le dé hésite puis montre un éclair ; {a} souffle."),
            ),
            key,
            "t1",
        )
    else:
        first = _pick(
            (
                _("Pas un éclair : le dé reste muet et {a} serre les dents."),
                _("Le dé roule, s'arrête, vide d'éclairs. {a} a échoué."),
            ),
            key,
            "t0",
        )
    return (first.format(a=a), _("Effet : {effect}").format(effect=effect))
