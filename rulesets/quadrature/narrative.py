"""French narration of a Quadrature exchange, read from the engine's events (never recomputed).

Variants are picked with ``zlib.crc32`` over the seed and the dice read, so the same permalink
always tells the same story.
"""

from __future__ import annotations

import zlib
from collections.abc import Sequence

from rulesets.core.i18n import _
from rulesets.core.results import Result
from rulesets.quadrature.model import Kind, Mental, Mode, Scenario
from rulesets.quadrature.sheet import card_available, horde_mood, members


def _pick(result: Result, key: str, options: Sequence[str]) -> str:
    dice = ",".join(f"{k}={v}" for k, v in sorted(result.dice.values.items()))
    salt = f"{result.dice.seed}|{dice}|{key}|{result.outcome}"
    return options[zlib.crc32(salt.encode("utf-8")) % len(options)]


def of(name: str) -> str:
    """« de » + a name, with the French contractions: « du personnage », « des loups », « d'Aël »."""
    lower = name.lower()
    if lower.startswith("le "):
        return "du " + name[3:]
    if lower.startswith("les "):
        return "des " + name[4:]
    if lower.startswith("la "):
        return "de la " + name[3:]
    if lower.startswith(("l'", "l’")):
        return "de l'" + name[2:]
    if lower[:1] in set("aeiouyhàâéèêëîïôöûü"):
        return "d'" + name
    return "de " + name


MOODS: dict[Mental, str] = {
    Mental.ENRAGE: "les yeux injectés d'une rage qui lui fait oublier toute prudence",
    Mental.AGRESSIF: "ramassé, prêt à bondir",
    Mental.PRUDENT: "tournant à distance, méfiant, la garde haute",
    Mental.PANIQUE: "acculé, cherchant déjà une issue",
}


def scene(s: Scenario) -> str:
    """What the table sees before the dice roll."""
    adv = s.adversary
    if adv.kind is Kind.HORDE:
        who = _("La horde « {name} » — {n} membres, {mood} —").format(
            name=adv.name, n=members(adv), mood=horde_mood(adv).label.split(" ", 1)[-1].lower()
        )
    else:
        who = _("{name}, {mood},").format(name=adv.name, mood=_(MOODS[adv.mental]))
    if s.mode is Mode.ADVERSARY_ATTACK and 1 <= s.card <= len(adv.deck):
        card = adv.deck[s.card - 1]
        return _("{who} s'apprête à jouer « {card} » contre {pc}, qui lève sa garde.").format(
            who=who, card=card.name, pc=s.pc.name
        )
    if s.mode is Mode.PC_ATTACK and 1 <= s.target_part <= len(adv.parts):
        target = adv.parts[s.target_part - 1].name if adv.kind is Kind.CREATURE else _("la masse grouillante")
        return _("{pc} frappe en visant « {target} » ; {who} lui oppose sa Garde ({guard} {g}).").format(
            pc=s.pc.name, target=target, who=who, guard=adv.guard_type.label, g=adv.guard
        )
    if s.mode is Mode.HYPNOTIC_GAZE:
        return _("{who} fixe {pc} d'un regard qui ne cille pas.").format(who=who, pc=s.pc.name)
    deck = [c.name for c in adv.deck if card_available(adv, c)]
    return _("La manche s'achève. {who} reprend son souffle ; il lui reste : {deck}.").format(
        who=who, deck=", ".join(deck) or _("plus rien")
    )


def story(s: Scenario, result: Result) -> tuple[str, ...]:
    """Several short paragraphs, graded by the outcome and by what the events say."""
    adv = s.adversary
    n = result.numbers
    paras: list[str] = []
    if s.mode is Mode.ADVERSARY_ATTACK:
        card = str(n.get("card", ""))
        if result.outcome == "action":
            paras.append(
                _pick(
                    result,
                    "move",
                    [
                        _("{name} se déplace sans frapper : « {card} ».").format(name=adv.name, card=card),
                        _("La masse {of_name} roule sur le terrain — « {card} » — et cherche le contact.").format(
                            of_name=of(adv.name), card=card
                        ),
                    ],
                )
            )
            return tuple(paras)
        total, garde = n.get("total"), n.get("garde")
        if result.outcome == "success":
            heavy = n.get("pc_heavy") or 0
            paras.append(
                _pick(
                    result,
                    "hit",
                    [
                        _("« {card} » : {total} contre une garde de {garde}. La défense {of_pc} cède.").format(
                            card=card, total=total, garde=garde, of_pc=of(s.pc.name)
                        ),
                        _("Le coup passe — {total} face à {garde}. {pc} encaisse « {card} » de plein fouet.").format(
                            card=card, total=total, garde=garde, pc=s.pc.name
                        ),
                        _("{name} trouve l'ouverture : {total} quand il fallait {garde}.").format(
                            name=adv.name, total=total, garde=garde
                        ),
                    ],
                )
            )
            if isinstance(heavy, int) and heavy > 0:
                paras.append(
                    _pick(
                        result,
                        "heavy",
                        [
                            _("Une blessure grave s'ouvre ; la douleur coupe le souffle."),
                            _("L'os craque sous l'impact : une blessure grave, nette et profonde."),
                        ],
                    )
                )
        else:
            paras.append(
                _pick(
                    result,
                    "miss",
                    [
                        _("{pc} pare de justesse : {total} ne suffit pas contre {garde}.").format(
                            pc=s.pc.name, total=total, garde=garde
                        ),
                        _(
                            "« {card} » s'écrase sur la garde {of_pc} ({total} contre {garde}), qui ne laisse passer qu'une égratignure."
                        ).format(card=card, of_pc=of(s.pc.name), total=total, garde=garde),
                        _(
                            "L'attaque manque son but — {total} sous les {garde} de la garde — mais l'effort use la cible."
                        ).format(total=total, garde=garde),
                    ],
                )
            )
        if n.get("star"):
            paras.append(
                _pick(
                    result,
                    "star",
                    [
                        _("Un cinq brille parmi les dés : l'adversaire a repéré la faille, et l'effet ⭐ s'ajoute."),
                        _("Les dés montrent leurs cinq : la créature saisit l'occasion au vol."),
                    ],
                )
            )
    elif s.mode is Mode.PC_ATTACK:
        target = str(n.get("target_part", ""))
        if not n.get("hit"):
            paras.append(
                _pick(
                    result,
                    "miss",
                    [
                        _("{pc} frappe ({score}) mais la garde {of_name} ({garde}) tient bon.").format(
                            pc=s.pc.name, score=n.get("score"), of_name=of(adv.name), garde=n.get("garde")
                        ),
                        _("Le coup glisse : {score} contre {garde}. {name} ne cède pas un pouce.").format(
                            score=n.get("score"), garde=n.get("garde"), name=adv.name
                        ),
                    ],
                )
            )
        else:
            paras.append(
                _pick(
                    result,
                    "hit",
                    [
                        _("{pc} touche ({score} contre {garde}) : le coup porte sur « {target} ».").format(
                            pc=s.pc.name, score=n.get("score"), garde=n.get("garde"), target=target
                        ),
                        _("La lame trouve sa cible, « {target} » : {score}, la garde de {garde} est franchie.").format(
                            target=target, score=n.get("score"), garde=n.get("garde")
                        ),
                        _("Touché ! {score} contre {garde} — « {target} » encaisse le coup.").format(
                            score=n.get("score"), garde=n.get("garde"), target=target
                        ),
                    ],
                )
            )
        if result.events_of("evasion"):
            paras.append(
                _pick(
                    result,
                    "evasion",
                    [
                        _("D'un bond, la créature esquive l'essentiel : le coup ripe."),
                        _("Elle se dérobe au dernier instant ; la blessure grave n'est plus qu'une estafilade."),
                    ],
                )
            )
        if result.events_of("armour_box"):
            paras.append(
                _pick(
                    result,
                    "plate",
                    [
                        _("La plaque encaisse et se fend : l'armure a sauvé la chair, mais elle ne le fera plus."),
                        _("Un craquement sec — la cuirasse cède d'une case, et la blessure grave s'y brise."),
                    ],
                )
            )
        if result.events_of("natural_armour"):
            paras.append(_("Le coup rebondit sur la cuirasse naturelle sans laisser de trace."))
        destroyed = result.events_of("block_destroyed")
        if destroyed:
            lost = "; ".join(e.value for e in destroyed)
            paras.append(
                _pick(
                    result,
                    "block",
                    [
                        _("Quelque chose se brise dans la créature : {lost}.").format(lost=lost),
                        _("Une capacité s'éteint sous le coup : {lost}.").format(lost=lost),
                    ],
                )
            )
        elif n.get("boxes_ticked"):
            paras.append(
                _("Les entailles s'accumulent : {k} case(s) de plus cochée(s).").format(k=n.get("boxes_ticked"))
            )
        if result.events_of("fatigue") and result.outcome != "exhausted":
            paras.append(
                _pick(
                    result,
                    "fatigue",
                    [
                        _("Le souffle {of_name} se fait court ; chaque geste lui coûte davantage.").format(
                            of_name=of(adv.name)
                        ),
                        _("{name} halète, les flancs battants : la fatigue s'installe.").format(name=adv.name),
                    ],
                )
            )
        if result.events_of("stability"):
            paras.append(
                _pick(
                    result,
                    "steady",
                    [
                        _("Mais la créature tient bon : son sang-froid absorbe le choc."),
                        _("Elle gronde, se reprend ; son aplomb n'a pas encore cédé."),
                    ],
                )
            )
        if result.events_of("mental"):
            moved = result.events_of("mental")[-1]
            after = str(moved.data.get("after", ""))
            moods = {
                "enrage": _("La rage l'emporte : elle frappera plus fort, mais se découvre ({moved})."),
                "panique": _("La peur la submerge : elle ne songe plus qu'à fuir ({moved})."),
                "agressif": _("Elle se ramasse, prête à rendre coup pour coup ({moved})."),
                "prudent": _("Elle recule d'un pas, soudain méfiante ({moved})."),
            }
            paras.append(moods.get(after, _("Son humeur vacille : {moved}.")).format(moved=moved.value))
        if adv.kind is Kind.HORDE and "members_after" in n:
            fallen = int(str(n.get("members_before", 0))) - int(str(n.get("members_after", 0)))
            if fallen > 0:
                paras.append(
                    _pick(
                        result,
                        "horde",
                        [
                            _("{k} membre(s) de la horde tombe(nt) ; il en reste {left}.").format(
                                k=fallen, left=n["members_after"]
                            ),
                            _("La masse se creuse : {k} de moins, {left} encore debout.").format(
                                k=fallen, left=n["members_after"]
                            ),
                        ],
                    )
                )
        if result.outcome == "exhausted":
            paras.append(
                _pick(
                    result,
                    "exhausted",
                    [
                        _("À bout de souffle, {name} s'effondre : brisé, il ne combattra plus.").format(name=adv.name),
                        _("{name} recule, tremblant, et se soumet — épuisé, hors de combat mais vivant.").format(
                            name=adv.name
                        ),
                    ],
                )
            )
        if result.outcome == "destroyed":
            paras.append(
                _pick(
                    result,
                    "dead",
                    [
                        _("C'en est fini : il ne reste rien {of_name} qui puisse encore se battre.").format(
                            of_name=of(adv.name)
                        ),
                        _("Le dernier membre tombe ; le silence retombe sur le champ de bataille."),
                    ],
                )
            )
    elif s.mode is Mode.ROUND:
        if n.get("bleed_ticked"):
            paras.append(
                _pick(
                    result,
                    "bleed",
                    [
                        _("Le sang coule encore : {k} case(s) se cochent sur les blessures déjà ouvertes.").format(
                            k=n.get("bleed_ticked")
                        ),
                        _("La plaie s'écoule entre deux échanges ({k} case(s)), puis commence à se refermer.").format(
                            k=n.get("bleed_ticked")
                        ),
                    ],
                )
            )
        paras.append(
            _pick(
                result,
                "regen",
                [
                    _("Une nouvelle manche commence ; {name} puise dans ce qui lui reste.").format(name=adv.name),
                    _("Le souffle revient, porté par ce que la créature possède encore."),
                ],
            )
        )
        if result.outcome == "destroyed":
            paras.append(_("L'hémorragie achève ce que les lames avaient commencé."))
    else:
        paras.append(
            _pick(
                result,
                "gaze",
                [
                    _("{pc} sent sa volonté fondre sous le regard ; ses membres ne répondent plus.").format(
                        pc=s.pc.name
                    ),
                    _(
                        "Le regard s'accroche à l'esprit {of_pc} et le vide de toute assurance : le voilà entravé."
                    ).format(of_pc=of(s.pc.name)),
                ],
            )
        )
    return tuple(paras)
