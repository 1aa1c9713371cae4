"""Scene and story of an enCORE exchange, told from the engine's events (never recomputed).

Every name goes through its :class:`~rulesets.core.french.Noun` (« l'Arbalétrier », « du PJ »,
« à la Sorcière des marais »), every verb and participle agrees with its subject (« les Loups
frappent », « Isaure est blessée »), every count with its number (« 1 dégât », « 3 dégâts »), and
the texts the game master types (the effect of a manoeuvre) are composed into whole sentences
(issue 15, items 1 and 3).
"""

from __future__ import annotations

import zlib
from collections.abc import Sequence
from typing import Any

from rulesets.core.french import Noun, capitalize, count, join, parenthesize, quote, sentence, sentences
from rulesets.core.i18n import _
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
from rulesets.encore.model import PC, Action, Scenario, agree, conj, is_feminine, is_plural, pronoun


def pick(options: Sequence[str], seed: int | None, key: str) -> str:
    """A phrasing chosen deterministically from the seed, so a permalink retells the same story."""
    index = zlib.crc32(f"{seed or 0}:{key}".encode()) % len(options)
    return options[index]


def effect_text(s: Scenario) -> str:
    """The effect the game master typed, as a part of a sentence: trimmed, without its final stop."""
    return " ".join(s.effect.split()).rstrip(" .;,:")


def _card(pc: PC, dice: str) -> str:
    """« Aldric (5 dés d'attribut, spécialité, Santé 8/8, Stress 0) »."""
    return _("{name} ({dice}, Santé {sante}/{max}, Stress {stress})").format(
        name=pc.noun.subject, dice=dice, sante=pc.sante, max=pc.sante_max, stress=pc.stress
    )


def scene(s: Scenario) -> str:
    pc = s.pc
    who = pc.noun
    dice = count(pc.attribute, _("dé d'attribut"), _("dés d'attribut"))
    card = _card(pc, dice + (_(", spécialité") if pc.speciality else ""))
    if s.action is Action.OPPOSITION:
        o = s.opponent
        return sentence(
            _("{pc} {verb} {other} ({dice}, Santé {sante}/{max})").format(
                pc=card,
                verb=conj(who, _("s'oppose"), _("s'opposent")),
                other=o.noun.a,
                dice=count(o.attribute, _("dé")),
                sante=o.sante,
                max=o.sante_max,
            )
        )
    if s.action is Action.NON_COMBAT:
        return sentence(
            _("{pc} {verb} sans combattre : difficulté {d}, {n}d6 à lancer").format(
                pc=card, verb=conj(who, _("agit"), _("agissent")), d=s.difficulty, n=pool_size(pc_pool(s))
            )
        )
    targets = join(
        [
            _("{name} (Menace {m}, Santé {sante}{prot}{cover})").format(
                name=n.noun.subject,
                m=n.menace,
                sante=n.sante,
                prot=_(", Protection {p}").format(p=n.protection) if n.protection else "",
                # the NPC's cover costs dice to an attack, not to the roll that avoids its ambush
                cover=_(", à couvert {c}").format(c=count(-n.cover, _("dé")))
                if n.cover and s.action is not Action.NPC_AMBUSH
                else "",
            )
            for n in target_npcs(s)
        ]
    )
    verb = {
        Action.ATTACK: conj(who, _("attaque"), _("attaquent")),
        Action.MANOEUVRE: conj(who, _("tente une manœuvre contre"), _("tentent une manœuvre contre")),
        Action.AREA: conj(who, _("déchaîne son arme de zone sur"), _("déchaînent leur arme de zone sur")),
        Action.NPC_AMBUSH: conj(who, _("est"), _("sont")) + " " + agree(who, _("pris")) + " " + _("en embuscade par"),
    }[s.action]
    weapon = _("arme {w}").format(w=pc.weapon) if pc.weapon != 1 else _("à mains nues ou arme légère (1)")
    protection = _("Protection {p}").format(p=pc.protection) if pc.protection else _("sans Protection")
    parts = [
        _("{pc} {verb} {targets}").format(pc=card, verb=verb, targets=targets),
        _("{name} : {weapon}, {protection} ; {n}d6 à lancer").format(
            name=who.Subject, weapon=weapon, protection=protection, n=pool_size(pc_pool(s))
        ),
    ]
    if s.ambush and s.action is not Action.NPC_AMBUSH:
        parts.append(_("Les PJ ont l'avantage de la surprise"))
    if s.action is Action.MANOEUVRE and effect_text(s):
        parts.append(_("Effet visé : {e}").format(e=effect_text(s)))
    return sentences(parts)


def _first(result: Result, kind: str) -> Event | None:
    return next((e for e in result.events if e.kind == kind), None)


def _data(event: Event | None, key: str, default: Any = None) -> Any:
    return event.data.get(key, default) if event else default


def _damage(n: int, several: bool = False) -> str:
    """« 1 dégât », « 3 dégâts », « 6 dégâts en tout » (several targets)."""
    text = count(n, _("dégât"))
    return _("{d} en tout").format(d=text) if several else text


def story(s: Scenario, result: Result) -> tuple[str, ...]:
    """The récit, one paragraph per step; every paragraph a whole sentence (or several)."""
    return tuple(sentences([p]) for p in _story(s, result) if p)


def _story(s: Scenario, result: Result) -> list[str]:
    seed = result.dice.seed
    pc = s.pc.noun
    out: list[str] = []
    o = result.outcome
    if s.action is Action.OPPOSITION:
        return _opposition(s, result, seed)
    if s.action is Action.NON_COMBAT:
        out.append(
            {
                REUSSITE: conj(
                    pc,
                    _("{pc} mène sa tâche à bien, loin du fracas."),
                    _("{pc} mènent leur tâche à bien, loin du fracas."),
                ),
                PARTIELLE: conj(
                    pc,
                    _("{pc} avance dans sa tâche, mais pas sans accroc."),
                    _("{pc} avancent dans leur tâche, mais pas sans accroc."),
                ),
                ECHEC: conj(
                    pc,
                    _("{pc} échoue : un bruit, un retard, du matériel perdu — l'adversité en profite autrement."),
                    _("{pc} échouent : un bruit, un retard, du matériel perdu — l'adversité en profite autrement."),
                ),
            }[o].format(pc=pc.Subject)
        )
        return out
    targets = target_npcs(s)
    npc = targets[0].noun
    if s.action is Action.NPC_AMBUSH:
        out.append(
            {
                EVITE: _("{npc} {jaillit} de l'ombre, mais {pc} {dodges}."),
                EVITE_COMPLICATION: _(
                    "{Pc} {esquive} de justesse l'attaque {de_npc}, mais le prix de ce réflexe se paiera bientôt."
                ),
                TOUCHE: _("L'embuscade {de_npc} prend {pc} de court."),
            }[o].format(
                npc=npc.Subject,
                jaillit=conj(npc, _("jaillit"), _("jaillissent")),
                pc=pc.subject,
                Pc=pc.Subject,
                dodges=conj(pc, _("sent le coup venir et se dérobe"), _("sentent le coup venir et se dérobent")),
                esquive=conj(pc, _("esquive"), _("esquivent")),
                de_npc=npc.de,
            )
        )
        if o == TOUCHE:
            out.append(_wound_sentence(pc, int(result.numbers.get("strike_damage") or 0), result, "pc", seed))
        return out
    if s.action is Action.MANOEUVRE:
        out.append(_manoeuvre(s, result, pc, npc))
    elif s.action is Action.AREA and len(targets) > 1:
        out.append(_area(s, result, pc, seed))
    else:
        out.append(_attack(result, pc, npc, seed))
    if s.action is not Action.MANOEUVRE:
        outs = [s.npcs[int(e.data.get("target", 0))].noun for e in result.events if e.kind == "npc_out"]
        if outs:
            out.append(
                pick(
                    [
                        _("{n} {s_effondre}, hors de combat."),
                        _("{n} {lache} prise et {quitte} le combat."),
                    ],
                    seed,
                    "out",
                ).format(
                    n=capitalize(join([n.subject for n in outs])),
                    s_effondre=conj(outs, _("s'effondre"), _("s'effondrent")),
                    lache=conj(outs, _("lâche"), _("lâchent")),
                    quitte=conj(outs, _("quitte"), _("quittent")),
                )
            )
    if result.numbers.get("breach"):
        out.extend(_breach(s, result, pc, seed))
    elif s.ambush and result.outcome != REUSSITE:
        out.append(_("Pris de court, les adversaires ne savent pas exploiter l'ouverture."))
    return out


def _opposition(s: Scenario, result: Result, seed: int | None) -> list[str]:
    pc, other = s.pc.noun, s.opponent.noun
    both = (pc, other)
    if result.outcome == EGALITE:
        return [
            pick(
                [
                    _("{a} et {b} se jaugent, {none} ne cède : la situation s'envenime."),
                    _("Ni {a} ni {b} ne {prend} l'ascendant, et tout empire autour {of_them}."),
                ],
                seed,
                "tie",
            ).format(
                a=pc.subject,
                b=other.subject,
                none=_("aucune") if is_feminine(both) else _("aucun"),
                prend=_("prennent") if pc.plural or other.plural else _("prend"),
                of_them=_("d'elles") if is_feminine(both) else _("d'eux"),
            )
        ]
    winner, loser = (pc, other) if result.outcome == VICTOIRE else (other, pc)
    dmg = int(result.numbers.get("damage_dealt") or 0)
    return [
        pick(
            [
                _("{w} {prend} le dessus sur {l}."),
                _("D'un geste plus sûr, {w} {emporte} face {a_l}."),
            ],
            seed,
            "win",
        ).format(
            w=winner.subject,
            prend=conj(winner, _("prend"), _("prennent")),
            emporte=conj(winner, _("l'emporte"), _("l'emportent")),
            l=loser.subject,
            a_l=loser.a,
        ),
        _wound_sentence(loser, dmg, result, "opponent" if result.outcome == VICTOIRE else "pc", seed),
    ]


def _manoeuvre(s: Scenario, result: Result, pc: Noun, npc: Noun) -> str:
    """The manoeuvre's effect, the game master's words closing the sentence or in parentheses."""
    effect = effect_text(s)
    wanted = conj(pc, _("ce qu'{il} voulait"), _("ce qu'{il} voulaient")).format(il=pronoun(pc))
    o = result.outcome
    if o == REUSSITE:
        text = _("{pc} {obtient} {wanted} {de_npc}").format(
            pc=pc.Subject, obtient=conj(pc, _("obtient"), _("obtiennent")), wanted=wanted, de_npc=npc.de
        )
        return sentence(_("{text} : {e}").format(text=text, e=effect) if effect else text)
    if o == PARTIELLE:
        return _("{pc} {arrache} {a_npc} {wanted}{e}, mais {expose} en le faisant.").format(
            pc=pc.Subject,
            arrache=conj(pc, _("arrache"), _("arrachent")),
            a_npc=npc.a,
            wanted=wanted,
            e=" " + parenthesize(effect) if effect else "",
            expose=conj(pc, _("s'expose"), _("s'exposent")),
        )
    return _("{pc} {tente} contre {npc} et {rien}.").format(
        pc=pc.Subject,
        tente=conj(pc, _("tente sa manœuvre"), _("tentent leur manœuvre")),
        npc=npc.subject,
        rien=conj(pc, _("n'obtient rien"), _("n'obtiennent rien")),
    )


def _attack(result: Result, pc: Noun, npc: Noun, seed: int | None) -> str:
    """One target: a miss, a blow the Protection absorbs, a hit, a partial hit."""
    dealt = int(result.numbers.get("damage_dealt") or 0)
    words = {
        "pc": pc.subject,
        "Pc": pc.Subject,
        "npc": npc.subject,
        "Npc": npc.Subject,
        "de_pc": pc.de,
        "de_npc": npc.de,
        "a_npc": npc.a,
        "d": _damage(dealt),
        "frappe": conj(pc, _("frappe"), _("frappent")),
        "trouve": conj(pc, _("trouve"), _("trouvent")),
        "touche": conj(pc, _("touche"), _("touchent")),
        "laisse": conj(pc, _("laisse"), _("laissent")),
        "porte": conj(pc, _("porte"), _("portent")),
        "se_fend": conj(pc, _("se fend"), _("se fendent")),
        "decouvre": conj(pc, _("se découvre"), _("se découvrent")),
        "s_est": conj(npc, _("s'est"), _("se sont")),
        "derobe": agree(npc, _("dérobé")),
        "voit": conj(npc, _("voit"), _("voient")),
    }
    if result.outcome == ECHEC:
        options = [
            _("{Pc} {frappe} dans le vide : {npc} {s_est} déjà {derobe}."),
            _("Le coup {de_pc} glisse sur la garde {de_npc}."),
            _("{Pc} {se_fend}, trop court : {npc} {voit} venir l'attaque."),
        ]
        return pick(options, seed, "miss").format(**words)
    if dealt == 0:
        return _("Le coup {de_pc} porte, mais la Protection {de_npc} absorbe tout.").format(**words)
    if result.outcome == REUSSITE:
        options = [
            _("{Pc} {trouve} l'ouverture et {frappe} {npc} de plein fouet ({d})."),
            _("D'un mouvement sans faille, {pc} {touche} {npc} : {d}."),
            _("{Pc} ne {laisse} aucune chance {a_npc} et {porte} un coup net ({d})."),
        ]
        return pick(options, seed, "hit").format(**words)
    options = [
        _("{Pc} {touche} {npc} ({d}), mais {decouvre} en frappant."),
        _("Le coup {de_pc} porte ({d}) — au prix d'une garde ouverte."),
    ]
    return pick(options, seed, "partial").format(**words)


def _area(s: Scenario, result: Result, pc: Noun, seed: int | None) -> str:
    """An area weapon on several NPCs: who it reaches, and the damage in all."""
    hit = [n.noun for n in s.npcs[: int(result.numbers.get("targets_hit") or 0)]]
    dealt = int(result.numbers.get("damage_dealt") or 0)
    unleash = conj(pc, _("déchaîne son arme de zone"), _("déchaînent leur arme de zone"))
    if not hit:
        return _("{pc} {unleash}, mais l'attaque ne touche personne.").format(pc=pc.Subject, unleash=unleash)
    if dealt == 0:
        return _("L'arme de zone {de_pc} porte, mais les protections absorbent tout.").format(de_pc=pc.de)
    if result.outcome == REUSSITE:
        return _("{pc} {unleash} : {hit} {encaisse} {d}.").format(
            pc=pc.Subject,
            unleash=unleash,
            hit=join([n.subject for n in hit]),
            encaisse=conj(hit, _("encaisse"), _("encaissent")),
            d=_damage(dealt, several=len(hit) > 1),
        )
    return _("{pc} {unleash}, mais {seul} {hit} {est} {touche} ({d}) — au prix d'une garde ouverte.").format(
        pc=pc.Subject,
        unleash=unleash,
        seul=agree(hit, _("seul")),
        hit=join([n.subject for n in hit]),
        est=conj(hit, _("est"), _("sont")),
        touche=agree(hit, _("touché")),
        d=_damage(dealt),
    )


def _breach(s: Scenario, result: Result, pc: Noun, seed: int | None) -> list[str]:
    strike = _first(result, "strike")
    if strike is None:
        if _first(result, "striker_out"):
            return [_("La brèche reste ouverte : un autre adversaire, ou la fiction, peut en profiter.")]
        if _first(result, "no_attacks"):
            striker = s.npcs[s.strike.striker - 1].noun
            return [
                _("La brèche s'ouvre, mais {npc} {n_a} plus d'attaque à dépenser ce tour.").format(
                    npc=striker.subject, n_a=conj(striker, _("n'a"), _("n'ont"))
                )
            ]
        return [_("La brèche s'ouvre ; l'adversité avance autrement.")]
    striker = s.npcs[int(_data(strike, "striker", 1)) - 1].noun
    interposed = bool(_data(strike, "interposed"))
    target = s.strike.interposer if interposed else pc
    attacks = int(_data(strike, "attacks", 1))
    lead = pick(
        [
            _("{npc} {profite} de l'ouverture et {frappe} {t}"),
            _("{npc} {contourne} la garde et {riposte} sur {t}"),
        ],
        seed,
        "breach",
    ).format(
        npc=striker.Subject,
        profite=conj(striker, _("profite"), _("profitent")),
        frappe=conj(striker, _("frappe"), _("frappent")),
        contourne=conj(striker, _("contourne"), _("contournent")),
        riposte=conj(striker, _("riposte"), _("ripostent")),
        t=target.subject,
    )
    if attacks > 1:
        lead += _(", concentrant {n} en un seul coup").format(n=count(attacks, _("attaque")))
    parts = [lead]
    if interposed:
        parts.insert(
            0,
            _("{t} {se_jette} devant {pc}").format(
                t=target.Subject, se_jette=conj(target, _("se jette"), _("se jettent")), pc=pc.subject
            ),
        )
    key = "ally" if interposed else "pc"
    return [sentences(parts), _wound_sentence(target, int(_data(strike, "damage", 0)), result, key, seed)]


# What « reste {tier} » says for the seed's tiers; another tier's name is a label in « ».
_TIER_STATES = {
    "Valide": ("valide", "valide", "valides", "valides"),
    "Blessé": ("blessé", "blessée", "blessés", "blessées"),
    "Grave": ("gravement atteint", "gravement atteinte", "gravement atteints", "gravement atteintes"),
    "Hors de combat": ("hors de combat",) * 4,
}


def _tier_state(who: Noun, tier: str) -> str | None:
    forms = _TIER_STATES.get(tier)
    if forms is None:
        return None
    return _(forms[2 * is_plural(who) + is_feminine(who)])


def _wound_sentence(who: Noun, damage: int, result: Result, key: str, seed: int | None) -> str:
    """What a strike does to whom it hits: the Santé lost, and the tier crossed or kept."""
    if damage <= 0:
        return pick(
            [
                _("Le coup s'écrase sur la protection {de_n}, sans blesser."),
                _("{n} {encaisse} sans une égratignure."),
            ],
            seed,
            "nodmg",
        ).format(n=who.Subject, de_n=who.de, encaisse=conj(who, _("encaisse"), _("encaissent")))
    tier = next((e for e in result.events if e.kind == "tier" and e.data.get("who") == key), None)
    parts = [
        _("{n} {perd} {d}").format(
            n=who.Subject, perd=conj(who, _("perd"), _("perdent")), d=count(damage, _("point de Santé"))
        )
    ]
    if tier is None:
        return sentences(parts)
    after = str(tier.data.get("after", ""))
    state = _tier_state(who, after)
    if tier.data.get("crossed"):
        if after == "Blessé":
            parts.append(
                _("La blessure est réelle : {n} {est} désormais {state}").format(
                    n=who.subject, est=conj(who, _("est"), _("sont")), state=state
                )
            )
        elif after == "Grave":
            parts.append(
                _("Le sang coule : {n} {est} {state}").format(
                    n=who.subject, est=conj(who, _("est"), _("sont")), state=state
                )
            )
        elif after == "Hors de combat":
            parts.append(
                _("{n} {s_effondre}, hors de combat").format(
                    n=who.Subject, s_effondre=conj(who, _("s'effondre"), _("s'effondrent"))
                )
            )
        else:
            parts.append(
                _("{n} {passe} au palier {t}").format(
                    n=who.Subject, passe=conj(who, _("passe"), _("passent")), t=quote(after)
                )
            )
    else:  # the same tier: one sentence, « Aldric perd 1 point de Santé et reste valide. »
        kept = state if state is not None else _("au palier {t}").format(t=quote(after))
        parts[0] += " " + _("et {reste} {state}").format(reste=conj(who, _("reste"), _("restent")), state=kept)
    return sentences(parts)


__all__ = ["DEFAITE", "PARTIELLE", "scene", "story"]
