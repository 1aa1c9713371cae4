"""Scene and story of an enCORE exchange, told from the engine's events (never recomputed)."""

from __future__ import annotations

import zlib
from collections.abc import Sequence
from typing import Any

from rulesets.core.i18n import _, de
from rulesets.core.results import Event, Result
from rulesets.encore.engine import (
    DEFAITE,
    ECHEC,
    EGALITE,
    EVITE,
    EVITE_COMPLICATION,
    PARTIELLE,
    REUSSITE,
    TOUCHE,
    VICTOIRE,
    pc_pool,
    pool_size,
    target_npcs,
)
from rulesets.encore.model import Action, Scenario


def pick(options: Sequence[str], seed: int | None, key: str) -> str:
    """A phrasing chosen deterministically from the seed, so a permalink retells the same story."""
    index = zlib.crc32(f"{seed or 0}:{key}".encode()) % len(options)
    return options[index]


def scene(s: Scenario) -> str:
    pc = s.pc
    parts = [
        _("{name} ({attr} dés d'attribut{spec}, Santé {sante}/{max}, Stress {stress})").format(
            name=pc.label,
            attr=pc.attribute,
            spec=_(", spécialité") if pc.speciality else "",
            sante=pc.sante,
            max=pc.sante_max,
            stress=pc.stress,
        )
    ]
    if s.action is Action.OPPOSITION:
        o = s.opponent
        text = _("{pc} s'oppose à {other} ({attr} dés, Santé {sante}/{max}).").format(
            pc=parts[0], other=o.label, attr=o.attribute, sante=o.sante, max=o.sante_max
        )
        return text
    if s.action is Action.NON_COMBAT:
        return _("{pc} agit sans combattre : difficulté {d}, {n}d6 à lancer.").format(
            pc=parts[0], d=s.difficulty, n=pool_size(pc_pool(s))
        )
    targets = target_npcs(s)
    names = ", ".join(
        _("{name} (Menace {m}, Santé {sante}{prot}{cover})").format(
            name=n.name,
            m=n.menace,
            sante=n.sante,
            prot=_(", Protection {p}").format(p=n.protection) if n.protection else "",
            cover=_(", à couvert −{c} dés").format(c=n.cover) if n.cover else "",
        )
        for n in targets
    )
    verb = {
        Action.ATTACK: _("attaque"),
        Action.MANOEUVRE: _("tente une manœuvre contre"),
        Action.AREA: _("déchaîne son arme de zone sur"),
        Action.NPC_AMBUSH: _("est pris en embuscade par"),
    }[s.action]
    weapon = _("arme {w}").format(w=pc.weapon) if pc.weapon != 1 else _("à mains nues ou arme légère (1)")
    protection = _("Protection {p}").format(p=pc.protection) if pc.protection else _("sans Protection")
    text = _("{pc} {verb} {targets}. {name} : {weapon}, {protection} ; {n}d6 à lancer.").format(
        pc=parts[0],
        verb=verb,
        targets=names,
        name=pc.label,
        weapon=weapon,
        protection=protection,
        n=pool_size(pc_pool(s)),
    )
    if s.ambush and s.action is not Action.NPC_AMBUSH:
        text += " " + _("Les PJ ont l'avantage de la surprise.")
    if s.action is Action.MANOEUVRE and s.effect:
        text += " " + _("Effet visé : {e}.").format(e=s.effect)
    return text


def _first(result: Result, kind: str) -> Event | None:
    return next((e for e in result.events if e.kind == kind), None)


def _data(event: Event | None, key: str, default: Any = None) -> Any:
    return event.data.get(key, default) if event else default


def story(s: Scenario, result: Result) -> tuple[str, ...]:
    seed = result.dice.seed
    pc = s.pc.label
    out: list[str] = []
    o = result.outcome
    if s.action is Action.OPPOSITION:
        other = s.opponent.label
        if o == EGALITE:
            out.append(
                pick(
                    [
                        _("{a} et {b} se jaugent, aucun ne cède : la situation s'envenime."),
                        _("Ni {a} ni {b} ne prend l'ascendant, et tout empire autour d'eux."),
                    ],
                    seed,
                    "tie",
                ).format(a=pc, b=other)
            )
        else:
            winner, loser = (pc, other) if o == VICTOIRE else (other, pc)
            dmg = int(result.numbers.get("damage_dealt") or 0)
            out.append(
                pick(
                    [
                        _("{w} prend le dessus sur {l}."),
                        _("D'un geste plus sûr, {w} l'emporte face à {l}."),
                    ],
                    seed,
                    "win",
                ).format(w=winner, l=loser)
            )
            out.append(_wound_sentence(loser, dmg, result, "opponent" if o == VICTOIRE else "pc", seed))
        return tuple(out)
    if s.action is Action.NON_COMBAT:
        out.append(
            {
                REUSSITE: _("{pc} mène sa tâche à bien, loin du fracas."),
                PARTIELLE: _("{pc} avance dans sa tâche, mais pas sans accroc."),
                ECHEC: _("{pc} échoue : un bruit, un retard, du matériel perdu — l'adversité en profite autrement."),
            }[o].format(pc=pc)
        )
        return tuple(out)
    npc = target_npcs(s)[0].name
    if s.action is Action.NPC_AMBUSH:
        out.append(
            {
                EVITE: _("{npc} jaillit de l'ombre, mais {pc} l'a senti venir et se dérobe."),
                EVITE_COMPLICATION: _(
                    "{pc} esquive de justesse l'attaque {de_npc}, mais le prix de ce réflexe se paiera bientôt."
                ),
                TOUCHE: _("L'embuscade {de_npc} prend {pc} de court."),
            }[o].format(pc=pc, npc=npc, de_pc=de(pc), de_npc=de(npc))
        )
        if o == TOUCHE:
            out.append(_wound_sentence(pc, int(result.numbers.get("strike_damage") or 0), result, "pc", seed))
        return tuple(out)
    if s.action is Action.MANOEUVRE:
        effect = s.effect or _("son effet")
        out.append(
            {
                REUSSITE: _("{pc} obtient ce qu'il voulait {de_npc} : {e}."),
                PARTIELLE: _("{pc} arrache {e} à {npc}, mais s'expose en le faisant."),
                ECHEC: _("{pc} tente sa manœuvre contre {npc} et n'obtient rien."),
            }[o].format(pc=pc, npc=npc, e=effect, de_npc=de(npc))
        )
    else:
        dealt = int(result.numbers.get("damage_dealt") or 0)
        if o == ECHEC:
            out.append(
                pick(
                    [
                        _("{pc} frappe dans le vide : {npc} s'est déjà dérobé."),
                        _("Le coup {de_pc} glisse sur la garde {de_npc}."),
                        _("{pc} se fend, trop court : {npc} voit venir l'attaque."),
                    ],
                    seed,
                    "miss",
                ).format(pc=pc, npc=npc, de_pc=de(pc), de_npc=de(npc))
            )
        elif dealt == 0:
            out.append(
                _("Le coup {de_pc} porte, mais la Protection {de_npc} absorbe tout.").format(
                    pc=pc, npc=npc, de_pc=de(pc), de_npc=de(npc)
                )
            )
        elif o == REUSSITE:
            out.append(
                pick(
                    [
                        _("{pc} trouve l'ouverture et frappe {npc} de plein fouet ({d} dégâts)."),
                        _("D'un mouvement sans faille, {pc} touche {npc} : {d} dégâts."),
                        _("{pc} ne laisse aucune chance à {npc} et porte un coup net ({d} dégâts)."),
                    ],
                    seed,
                    "hit",
                ).format(pc=pc, npc=npc, d=dealt, de_pc=de(pc), de_npc=de(npc))
            )
        else:
            out.append(
                pick(
                    [
                        _("{pc} touche {npc} ({d} dégâts), mais se découvre en frappant."),
                        _("Le coup {de_pc} porte ({d} dégâts) — au prix d'une garde ouverte."),
                    ],
                    seed,
                    "partial",
                ).format(pc=pc, npc=npc, d=dealt, de_pc=de(pc), de_npc=de(npc))
            )
        outs = [e for e in result.events if e.kind == "npc_out"]
        if outs:
            names = ", ".join(s.npcs[e.data.get("target", 0)].name for e in outs)
            out.append(
                pick(
                    [_("{n} s'effondre, hors de combat."), _("{n} lâche prise et quitte le combat.")], seed, "out"
                ).format(n=names)
            )
    if result.numbers.get("breach"):
        strike = _first(result, "strike")
        if strike is None:
            if _first(result, "striker_out"):
                out.append(_("La brèche reste ouverte : un autre adversaire, ou la fiction, peut en profiter."))
            else:
                out.append(_("La brèche s'ouvre ; l'adversité avance autrement."))
        else:
            striker = s.npcs[int(_data(strike, "striker", 1)) - 1].name
            target = s.strike.interposer_name or _("l'allié") if _data(strike, "interposed") else pc
            attacks = int(_data(strike, "attacks", 1))
            lead = pick(
                [
                    _("{npc} profite de l'ouverture et frappe {t}"),
                    _("{npc} contourne la garde et riposte sur {t}"),
                ],
                seed,
                "breach",
            ).format(npc=striker, t=target)
            if attacks > 1:
                lead += _(", concentrant {n} attaques en un seul coup").format(n=attacks)
            if _data(strike, "interposed"):
                lead = _("{t} se jette devant {pc}. ").format(t=target, pc=pc) + lead
            out.append(lead + ".")
            key = "ally" if _data(strike, "interposed") else "pc"
            out.append(_wound_sentence(target, int(_data(strike, "damage", 0)), result, key, seed))
    elif s.ambush and result.outcome != REUSSITE:
        out.append(_("Pris de court, les adversaires ne savent pas exploiter l'ouverture."))
    return tuple(out)


def _wound_sentence(name: str, damage: int, result: Result, key: str, seed: int | None) -> str:
    if damage <= 0:
        return pick(
            [_("Le coup s'écrase sur la protection {de_n}, sans blesser."), _("{n} encaisse sans une égratignure.")],
            seed,
            "nodmg",
        ).format(n=name, de_n=de(name))
    tier = next((e for e in result.events if e.kind == "tier" and e.data.get("who") == key), None)
    text = _("{n} perd {d} de Santé.").format(n=name, d=damage)
    if tier is not None and tier.data.get("crossed"):
        text += " " + {
            "Blessé": _("La blessure est réelle : {n} est désormais blessé."),
            "Grave": _("Le sang coule : {n} est gravement atteint."),
            "Hors de combat": _("{n} s'effondre, hors de combat."),
        }.get(str(tier.data.get("after")), _("{n} passe au palier « {t} ».")).format(n=name, t=tier.data.get("after"))
    else:
        text += " " + _("{n} reste {t}.").format(n=name, t=str(_data(tier, "after", "")).lower())
    return text


__all__ = ["DEFAITE", "PARTIELLE", "scene", "story"]
