"""French narration of a Quadrature exchange, read from the engine's events (never recomputed).

Variants are picked with ``zlib.crc32`` over the seed and the dice read, so the same permalink
always tells the same story.

Every name goes through :mod:`rulesets.quadrature.names` (issue 15): the adversary and the
character are said with their article and agree with their verbs, pronouns and participles
(« le Loup des cendres trouve l'ouverture », « les Fanatiques du culte trouvent l'ouverture »,
« la Harpie, ramassée, prête à bondir »); counts go through :func:`~rulesets.core.french.count`
(« 1 case cochée de plus », « 2 membres de la horde tombent »). Card and part names are labels,
in « » or after a colon.
"""

from __future__ import annotations

import zlib
from collections.abc import Sequence

from rulesets.core.french import Noun, capitalize, count, is_plural_count, join, quote
from rulesets.core.i18n import _
from rulesets.core.results import Result
from rulesets.quadrature.model import HordeMood, Kind, Mental, Mode, Play, Scenario
from rulesets.quadrature.names import adversary_who, pc_who
from rulesets.quadrature.sheet import card_available, horde_mood, members


def _pick(result: Result, key: str, options: Sequence[str]) -> str:
    dice = ",".join(f"{k}={v}" for k, v in sorted(result.dice.values.items()))
    salt = f"{result.dice.seed}|{dice}|{key}|{result.outcome}"
    return options[zlib.crc32(salt.encode("utf-8")) % len(options)]


def mood(state: Mental, who: Noun) -> str:
    """The creature's bearing in its mental state, agreed with its name (« ramassée, prête à bondir »)."""
    match state:
        case Mental.ENRAGE:
            return _("les yeux injectés d'une rage qui {lui} fait oublier toute prudence").format(lui=who.lui)
        case Mental.AGRESSIF:
            return _("{ramasse}, {pret} à bondir").format(ramasse=who.agree("ramassé"), pret=who.agree("prêt"))
        case Mental.PRUDENT:
            return _("tournant à distance, {mefiant}, la garde haute").format(mefiant=who.agree("méfiant"))
        case _:
            return _("{accule}, cherchant déjà une issue").format(accule=who.agree("acculé"))


# A horde's mood, agreed with « horde » (feminine).
HORDE_MOODS: dict[HordeMood, str] = {
    HordeMood.ENRAGE: "enragée",
    HordeMood.NEUTRE: "sur ses gardes",
    HordeMood.PANIQUE: "paniquée",
}


def _who(s: Scenario) -> tuple[Noun, Noun]:
    return adversary_who(s.adversary.name, s.adversary.grammar), pc_who(s.pc.name, s.pc.grammar)


def scene(s: Scenario) -> str:
    """What the table sees before the dice roll."""
    adv = s.adversary
    foe, pc = _who(s)

    def who(start: bool) -> str:
        """The adversary and its bearing, as the subject of the sentence."""
        name = foe.Subject if start else foe.subject
        if adv.kind is Kind.HORDE:
            return _("{name} — une horde de {members}, {mood} —").format(
                name=name, members=count(members(adv), "membre"), mood=_(HORDE_MOODS[horde_mood(adv)])
            )
        return _("{name}, {mood},").format(name=name, mood=mood(adv.mental, foe))

    played = s.played_card() if s.mode is Mode.ADVERSARY_ATTACK else None
    if played is not None and s.play is Play.PREDATOR:
        return _("{pc} {tries} de quitter l'Engagement serré ; {who} {jumps} : {card} en réaction.").format(
            pc=pc.Subject,
            tries=pc.form("tente", "tentent"),
            who=who(False),
            jumps=foe.form("bondit", "bondissent"),
            card=quote(played.name),
        )
    if s.mode is Mode.COURSE:
        return _("{who} {runs} ({speed}).").format(
            who=who(True), runs=foe.form("s'élance à la course", "s'élancent à la course"), speed=f"🚶 {adv.speed}"
        )
    if played is not None:
        card = played
        return _("{who} {prepares} à jouer {card} contre {pc}, qui {raises} {guard}.").format(
            who=who(True),
            prepares=foe.form("s'apprête", "s'apprêtent"),
            card=quote(card.name),
            pc=pc.subject,
            raises=pc.form("lève", "lèvent"),
            guard=pc.son("garde", feminine=True),
        )
    if s.mode is Mode.PC_ATTACK and 1 <= s.target_part <= len(adv.parts):
        if adv.kind is Kind.CREATURE:
            aim = _("en visant {target}").format(target=quote(adv.parts[s.target_part - 1].name))
        else:
            aim = _("dans la masse grouillante")
        return _("{pc} {strikes} {aim} ; {who} {lui} {opposes} {guard} ({type} {g}).").format(
            pc=pc.Subject,
            strikes=pc.form("frappe", "frappent"),
            aim=aim,
            who=who(False),
            lui=pc.lui,
            opposes=foe.form("oppose", "opposent"),
            guard=foe.son("Garde", feminine=True),
            type=adv.guard_type.label,
            g=adv.guard,
        )
    if s.mode is Mode.HYPNOTIC_GAZE:
        return _("{who} {fixes} {pc} d'un regard qui ne cille pas.").format(
            who=who(True), fixes=foe.form("fixe", "fixent"), pc=pc.subject
        )
    deck = [c.name for c in adv.deck if card_available(adv, c)]
    if deck:
        left = _("il {lui} reste : {deck}").format(lui=foe.lui, deck=join(deck))
    else:
        left = _("il ne {lui} reste plus aucune action").format(lui=foe.lui)
    return _("La manche s'achève. {who} {breathes} ; {left}.").format(
        who=who(True), breathes=foe.form("reprend son souffle", "reprennent leur souffle"), left=left
    )


def _boxes(k: int) -> str:
    return count(k, "case cochée")


def story(s: Scenario, result: Result) -> tuple[str, ...]:
    """Several short paragraphs, graded by the outcome and by what the events say."""
    adv = s.adversary
    foe, pc = _who(s)
    horde = adv.kind is Kind.HORDE
    n = result.numbers
    paras: list[str] = []
    if s.mode is Mode.ADVERSARY_ATTACK:
        card = quote(str(n.get("card", "")))
        if result.outcome == "action":
            paras.append(
                _pick(
                    result,
                    "move",
                    [
                        _("{name} se {moves} sans frapper : {card}.").format(
                            name=foe.Subject, moves=foe.form("déplace", "déplacent"), card=card
                        ),
                        _("La masse {of_name} roule sur le terrain — {card} — et cherche le contact.").format(
                            of_name=foe.de, card=card
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
                        _("{card} : {total} contre une garde de {garde}. La défense {of_pc} cède.").format(
                            card=card, total=total, garde=garde, of_pc=pc.de
                        ),
                        _("Le coup passe — {total} face à {garde}. {pc} {takes} {card} de plein fouet.").format(
                            card=card, total=total, garde=garde, pc=pc.Subject, takes=pc.form("encaisse", "encaissent")
                        ),
                        _("{name} {finds} l'ouverture : {total} quand il fallait {garde}.").format(
                            name=foe.Subject, finds=foe.form("trouve", "trouvent"), total=total, garde=garde
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
                        _("{pc} {parries} de justesse : {total} ne suffit pas contre {garde}.").format(
                            pc=pc.Subject, parries=pc.form("pare", "parent"), total=total, garde=garde
                        ),
                        _(
                            "{card} s'écrase sur la garde {of_pc} ({total} contre {garde}), qui ne laisse passer qu'une égratignure."
                        ).format(card=card, of_pc=pc.de, total=total, garde=garde),
                        _(
                            "L'attaque manque son but — {total} contre une garde de {garde} — mais l'effort use la cible."
                        ).format(total=total, garde=garde),
                    ],
                )
            )
        if n.get("star"):
            fives = n.get("fives")
            shine = (
                _("Des cinq brillent parmi les dés")
                if isinstance(fives, int) and is_plural_count(fives)
                else _("Un cinq brille parmi les dés")
            )
            paras.append(
                _pick(
                    result,
                    "star",
                    [
                        _("{shine} : {name} {has} repéré la faille, et l'effet ⭐ s'ajoute.").format(
                            shine=shine, name=foe.subject, has=foe.form("a", "ont")
                        ),
                        _("Les dés montrent leurs cinq : {name} {seizes} l'occasion au vol.").format(
                            name=foe.subject, seizes=foe.form("saisit", "saisissent")
                        ),
                    ],
                )
            )
    elif s.mode is Mode.PC_ATTACK:
        target = _("la masse grouillante") if horde else quote(str(n.get("target_part", "")))
        if not n.get("hit"):
            paras.append(
                _pick(
                    result,
                    "miss",
                    [
                        _("{pc} {strikes} ({score}) mais la garde {of_name} ({garde}) tient bon.").format(
                            pc=pc.Subject,
                            strikes=pc.form("frappe", "frappent"),
                            score=n.get("score"),
                            of_name=foe.de,
                            garde=n.get("garde"),
                        ),
                        _("Le coup glisse : {score} contre {garde}. {name} ne {yields} pas un pouce.").format(
                            score=n.get("score"),
                            garde=n.get("garde"),
                            name=foe.Subject,
                            yields=foe.form("cède", "cèdent"),
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
                        _("{pc} {hits} ({score} contre {garde}) : le coup porte sur {target}.").format(
                            pc=pc.Subject,
                            hits=pc.form("touche", "touchent"),
                            score=n.get("score"),
                            garde=n.get("garde"),
                            target=target,
                        ),
                        _("L'attaque trouve sa cible, {target} : {score}, la garde de {garde} est franchie.").format(
                            target=target, score=n.get("score"), garde=n.get("garde")
                        ),
                        _("Touché ! {score} contre {garde} — {target} encaisse le coup.").format(
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
                        _("D'un bond, {name} {dodges} l'essentiel : le coup ripe.").format(
                            name=foe.subject, dodges=foe.form("esquive", "esquivent")
                        ),
                        _(
                            "{name} se {slips} au dernier instant ; la blessure grave n'est plus qu'une estafilade."
                        ).format(name=foe.Subject, slips=foe.form("dérobe", "dérobent")),
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
        if destroyed and horde:
            paras.append(
                _("Un groupe entier est balayé : {tokens} de moins sur le terrain.").format(
                    tokens=count(len(destroyed), "jeton 🕷️", "jetons 🕷️")
                )
                if len(destroyed) == 1
                else _("{groups} sont balayés : {tokens} de moins sur le terrain.").format(
                    groups=count(len(destroyed), "groupe entier"),
                    tokens=count(len(destroyed), "jeton 🕷️", "jetons 🕷️"),
                )
            )
        elif destroyed:
            lost = " ; ".join(e.value for e in destroyed)
            paras.append(
                _pick(
                    result,
                    "block",
                    [
                        _("Quelque chose se brise chez {name} : {lost}.").format(name=foe.subject, lost=lost),
                        _("Une capacité s'éteint sous le coup : {lost}.").format(lost=lost),
                    ],
                )
            )
        elif n.get("boxes_ticked") and not horde:
            ticked = n.get("boxes_ticked")
            paras.append(
                _("Les entailles s'accumulent : {boxes} de plus.").format(
                    boxes=_boxes(ticked if isinstance(ticked, int) else 0)
                )
            )
        if result.events_of("fatigue") and result.outcome != "exhausted":
            paras.append(
                _pick(
                    result,
                    "fatigue",
                    [
                        _("Le souffle {of_name} se fait court ; chaque geste {lui} coûte davantage.").format(
                            of_name=foe.de, lui=foe.lui
                        ),
                        _("{name} {pants}, les flancs battants : la fatigue s'installe.").format(
                            name=foe.Subject, pants=foe.form("halète", "halètent")
                        ),
                    ],
                )
            )
        if result.events_of("stability"):
            paras.append(
                _pick(
                    result,
                    "steady",
                    [
                        _("Mais {name} {holds} bon : {cool} absorbe le choc.").format(
                            name=foe.subject, holds=foe.form("tient", "tiennent"), cool=foe.son("sang-froid")
                        ),
                        _("{name} {growls}, se {recovers} ; {poise} n'a pas encore cédé.").format(
                            name=foe.Subject,
                            growls=foe.form("gronde", "grondent"),
                            recovers=foe.form("reprend", "reprennent"),
                            poise=foe.son("aplomb"),
                        ),
                    ],
                )
            )
        if result.events_of("mental"):
            moved = result.events_of("mental")[-1]
            after = str(moved.data.get("after", ""))
            paras.append(mental_paragraph(after, foe, moved.value))
        if horde and "members_after" in n:
            fallen = int(str(n.get("members_before", 0))) - int(str(n.get("members_after", 0)))
            left = int(str(n["members_after"]))
            if fallen > 0:
                still = _("il en reste {left}").format(left=left) if left else _("il n'en reste aucun")
                paras.append(
                    _pick(
                        result,
                        "horde",
                        [
                            _("{fallen} de la horde {fall} ; {still}.").format(
                                fallen=count(fallen, "membre"),
                                fall="tombent" if is_plural_count(fallen) else "tombe",
                                still=still,
                            ),
                            _("La masse se creuse : {fallen} de moins, {left} encore debout.").format(
                                fallen=fallen, left=left
                            )
                            if left
                            else _("La masse se creuse : {fallen} de moins, plus personne debout.").format(
                                fallen=fallen
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
                        _("À bout de souffle, {name} s'{falls} : {broken}, {il} ne {fights} plus.").format(
                            name=foe.subject,
                            falls=foe.form("effondre", "effondrent"),
                            broken=foe.agree("brisé"),
                            il=foe.il,
                            fights=foe.form("combattra", "combattront"),
                        ),
                        _(
                            "{name} {backs}, {trembling}, et se {submits} — {exhausted}, hors de combat mais {alive}."
                        ).format(
                            name=foe.Subject,
                            backs=foe.form("recule", "reculent"),
                            trembling=foe.agree("tremblant"),
                            submits=foe.form("soumet", "soumettent"),
                            exhausted=foe.agree("épuisé"),
                            alive=foe.agree("vivant"),
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
                            of_name=foe.de
                        ),
                        _("Le dernier membre tombe ; le silence retombe sur le champ de bataille."),
                    ],
                )
            )
    elif s.mode is Mode.ROUND:
        bled = n.get("bleed_ticked")
        if isinstance(bled, int) and bled:
            paras.append(
                _pick(
                    result,
                    "bleed",
                    [
                        _("Le sang coule encore : {boxes} sur les blessures déjà ouvertes.").format(boxes=_boxes(bled)),
                        _("La plaie s'écoule entre deux échanges ({boxes}), puis commence à se refermer.").format(
                            boxes=_boxes(bled)
                        ),
                    ],
                )
            )
        paras.append(
            _pick(
                result,
                "regen",
                [
                    _("Une nouvelle manche commence ; {name} {draws} dans ce qui {lui} reste.").format(
                        name=foe.subject, draws=foe.form("puise", "puisent"), lui=foe.lui
                    ),
                    _("Le souffle revient, porté par ce que {name} {owns} encore.").format(
                        name=foe.subject, owns=foe.form("possède", "possèdent")
                    ),
                ],
            )
        )
        if result.outcome == "destroyed":
            paras.append(_("L'hémorragie achève ce que les coups avaient commencé."))
    elif s.mode is Mode.COURSE:
        paras.append(
            _pick(
                result,
                "course",
                [
                    _("{name} {runs} : un ⚫ et un souffle de fatigue pour couvrir le terrain.").format(
                        name=foe.Subject, runs=foe.form("court", "courent")
                    ),
                    _("{name} {crosses} le terrain d'une traite, au prix d'un peu de souffle.").format(
                        name=foe.Subject, crosses=foe.form("avale", "avalent")
                    ),
                ],
            )
        )
    else:
        paras.append(
            _pick(
                result,
                "gaze",
                [
                    _("{pc} {feels} {will} fondre sous le regard ; {limbs} ne répondent plus.").format(
                        pc=pc.Subject,
                        feels=pc.form("sent", "sentent"),
                        will=pc.son("volonté", feminine=True),
                        limbs=pc.ses("membres"),
                    ),
                    _(
                        "Le regard s'accroche à l'esprit {of_pc} et le vide de toute assurance : {le} voilà {bound}."
                    ).format(of_pc=pc.de, le=pc.le, bound=pc.agree("entravé")),
                ],
            )
        )
    return tuple(paras)


def mental_paragraph(after: str, foe: Noun, moved: str) -> str:
    """The creature's mental track moved: told by where it arrives, with the move in parentheses."""
    match after:
        case "enrage":
            text = _("La rage l'emporte : {name} {strikes} plus fort, mais se {bares}").format(
                name=foe.subject, strikes=foe.form("frappera", "frapperont"), bares=foe.form("découvre", "découvrent")
            )
        case "panique":
            text = _("La peur submerge {name} : {il} ne {thinks} plus qu'à fuir").format(
                name=foe.subject, il=foe.il, thinks=foe.form("songe", "songent")
            )
        case "agressif":
            text = _("{name} se {gathers}, {ready} à rendre coup pour coup").format(
                name=foe.Subject, gathers=foe.form("ramasse", "ramassent"), ready=foe.agree("prêt")
            )
        case "prudent":
            text = _("{name} {backs} d'un pas, soudain {wary}").format(
                name=foe.Subject, backs=foe.form("recule", "reculent"), wary=foe.agree("méfiant")
            )
        case _:
            return _("{mood} vacille : {moved}.").format(mood=capitalize(foe.son("humeur")), moved=moved)
    return f"{text} ({moved})."
