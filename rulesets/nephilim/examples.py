"""Worked examples of the seed's special rules (§14), as ready-to-post requests.

The seed states its rules without numbered worked examples; each rule statement of §14 (and the
defence-type and effect rules it relies on) becomes one or more exchanges here, built from the
seed's own table rows, with the numbers the rule implies. Each is replayed by the tests.
"""

from __future__ import annotations

from typing import Any

from rulesets.core.results import Example
from rulesets.core.schema import parse, to_data
from rulesets.nephilim.model import Scenario

Row = dict[str, Any]

# A few rows of the seed's tables (§4–§13), as the requests carry them.
EPEE: Row = {"name": "Épée/hache", "category": "melee", "degree": 2, "phys": 2, "mag": 0, "type": "m"}
DAGUE: Row = {"name": "Dague", "category": "melee", "degree": 1, "phys": 1, "mag": 0, "type": "m"}
MARTEAU: Row = {"name": "Marteau", "category": "melee", "degree": 3, "phys": 3, "mag": 0, "type": "m"}
DAMES_DU_LAC: Row = {
    "name": "Arme magique des Dames du Lac (invoc.)",
    "category": "melee",
    "degree": 4,
    "phys": 4,
    "mag": 0,
    "type": "m",
    "magical": True,
}
ARBALETE: Row = {
    "name": "Arbalète",
    "category": "tir",
    "degree": 3,
    "phys": 3,
    "mag": 0,
    "type": "m",
    "range_m": 350,
    "ammunition": 1,
}
AK47: Row = {
    "name": "Fusil d'assaut AK-47",
    "category": "tir",
    "degree": 4,
    "phys": 4,
    "mag": 0,
    "type": "m",
    "range_m": 1000,
    "ammunition": 30,
    "firearm": True,
    "cadences": {"unique": True, "cpc": True, "raf_ctrl": True, "raf_cont": True},
}
TAURUS: Row = {
    "name": "Taurus (sort Péché d'Aldebaran)",
    "category": "tir",
    "degree": 4,
    "phys": 4,
    "mag": 4,
    "type": "m",
    "element": "lune",
    "magical": True,
    "null_non_mag_prot": True,
    "ammunition": 7,
    "range_label": "têtes chercheuses",
}


def glaive(element: str, name: str) -> Row:
    return {
        "name": f"Glaive élémentaire {name}",
        "category": "melee",
        "degree": 3,
        "phys": 3,
        "mag": 3,
        "type": "m",
        "element": element,
        "magical": True,
        "null_non_mag_prot": True,
    }


STANDARD: Row = {"kind": "standard", "name": "Standard"}
PUISSANTE: Row = {
    "kind": "puissante",
    "name": "Attaque puissante",
    "attack_modifier": -2,
    "damage_bonus_phys": 2,
    "elements": {"terre": True, "feu": True},
}
RAPIDE: Row = {
    "kind": "rapide",
    "name": "Attaque rapide",
    "attack_modifier": -2,
    "elements": {"eau": True, "air": True},
    "attacker_cannot_defend": True,
}
TIR_VISE: Row = {"kind": "tir", "name": "Tir (visée 1r)", "attack_modifier": 0, "aiming_rounds": 1}


def armour(name: str, phys: int, mag: int = 0, magical: bool = False, element: str = "aucun") -> Row:
    return {"name": name, "phys": phys, "mag": mag, "magical": magical, "element": element}


def mantle(name: str, element: str) -> Row:
    return armour(name, 3, 3, True, element)


CAVALIER: Row = {"name": "Cavalier à la targe parcheminée", "phys": 4, "mag": 4, "magical": True, "optional_bonus": 2}

D_STANDARD: Row = {"name": "Standard", "style": "standard", "success_reduce_phys": 1, "success_reduce_mag": 1}
D_ESQUIVER: Row = {
    "name": "Esquiver",
    "style": "esquive",
    "success_reduce_phys": 0,
    "success_reduce_mag": 0,
    "success_cancel": True,
    "success_no_minimum": True,
    "elements": {"eau": True, "air": True},
}
D_PARER: Row = {
    "name": "Parer",
    "style": "parade",
    "success_reduce_phys": 2,
    "success_reduce_mag": 2,
    "elements": {"terre": True, "feu": True},
}
D_DESARMER: Row = {
    "name": "Désarmer (avec arme)",
    "style": "desarmer",
    "modifier": -4,
    "success_reduce_phys": 0,
    "success_reduce_mag": 0,
    "success_cancel": True,
    "success_no_minimum": True,
    "failure_add_phys": 2,
    "elements": {"lune": True},
}
D_CONTRE: Row = {
    "name": "Contre-attaquer",
    "style": "contre",
    "success_reduce_phys": 0,
    "success_reduce_mag": 0,
    "success_cancel": True,
    "success_no_minimum": True,
    "needs_attack_roll": True,
    "failure_add_phys": 2,
    "failure_add_mag": 2,
    "elements": {"feu": True, "terre": True},
}
D_ENCAISSER: Row = {
    "name": "Encaisser (déf. impossible)",
    "style": "encaisser",
    "rolls": False,
    "success_reduce_phys": 0,
    "success_reduce_mag": 0,
}
D_ENCAISSER_TIR: Row = dict(D_ENCAISSER, name="Encaisser les dommages", context="tir")
D_PARER_TIR: Row = {
    "name": "Parer arme projectiles",
    "style": "parade",
    "context": "tir",
    "success_reduce_phys": 2,
    "success_reduce_mag": 0,
    "needs_shield": True,
}


def effect(name: str, scope: str, **fields: Any) -> Row:
    return {"name": name, "scope": scope, **fields}


POINT_FAIBLE = effect("Point faible", "tous", null_non_mag_prot=True)
PRINCE = effect("Prince de la spirale", "melee", attack=3, damage=3, opponent_next_round_attack=-3)
PIERRE = effect("Pierre d'affûtage lumineux", "melee", damage_phys=1)
CORPS_BRUMEUX = effect("Corps brumeux", "tous", cancel_phys=True)
EAU_DE_VIE = effect("Eau-de-vie du métal ensommeillé", "tous", protection_phys=4)
RETENUE = effect("Retenue du souffle de la Chrysopée", "tous", behaviour="retenue_du_souffle", threshold=10)
EAU_FORTE = effect("Eau-forte des murailles d'Atlantis", "distance", behaviour="eau_forte")
ARMURE_INVINCIBLE = effect("Armure invincible", "tous", cancel_all=True)
REGISSEUR = effect("Régisseur de fureur", "tous", attack=10, metamorphe=10, cancel_phys=True)
AMETHYSTE = effect(
    "Améthyste revêtue de flammes",
    "tous",
    condition="approche_feu",
    attack=6,
    initiative=3,
    initiative_condition="approche_pas_feu",
)
MAINS_NUES: Row = {"name": "Mains nues", "category": "melee", "degree": 1, "phys": 1, "mag": 0, "type": "nat"}
FRAPPER: Row = {"kind": "frapper", "name": "Frapper", "elements": {"feu": True, "eau": True}}


# The grammar of the combatants' names (issue 15): Sahar is a proper name, feminine (a Nephilim
# incarnated in a fencer); the others are common nouns with their article (« le Garde du corps »).
PROPER_F: Row = {"article": "propre", "gender": "f", "elision": "auto"}
DEFINITE_M: Row = {"article": "defini", "gender": "m", "elision": "auto"}
DEFINITE_F: Row = {"article": "defini", "gender": "f", "elision": "auto"}


def attacker(**fields: Any) -> Row:
    base: Row = {
        "name": "Sahar",
        "grammar": PROPER_F,
        "kind": "nephilim",
        "degree": 6,
        "approach": STANDARD,
        "weapon": EPEE,
    }
    base.update(fields)
    return base


def defender(**fields: Any) -> Row:
    base: Row = {"name": "Garde du corps", "grammar": DEFINITE_M, "kind": "autre", "degree": 5, "defence": D_ENCAISSER}
    base.update(fields)
    return base


def exchange(mode: str, att: Row, *defenders: Row, **extra: Any) -> Row:
    """A scenario; each defender's ``effects`` move to ``defender_effects`` aimed at it."""
    rows: list[Row] = []
    effects: list[Row] = []
    for i, d in enumerate(defenders):
        row = dict(d)
        effects.extend(dict(e, target=i + 1) for e in row.pop("effects", []))
        rows.append(row)
    scenario: Row = {"mode": mode, "attacker": att, "defenders": rows}
    if effects:
        scenario["defender_effects"] = effects
    scenario.update(extra)
    return scenario


def melee(att: Row, *defenders: Row, **extra: Any) -> Row:
    return exchange("melee", att, *defenders, **extra)


def _ex(key: str, title: str, source: str, scenario: Row, dice: dict[str, int], **expected: Any) -> Example:
    """``outcome`` is the result's tier; every other keyword is one of ``Result.numbers``.

    The request carries the **whole** scenario (every field, defaults included), as the page and
    a permalink do (issue 14, item 6): a row written short leaves out the boxes that default to
    true (a defence type's ``rolls``, an approach's ``deals_damage``…), and a permalink can only
    say that a box is ticked, so the short row came back from a share with its box unticked and
    its typed defence die refused (« Ce dé n'est pas lancé dans cette situation »).
    """
    outcome = expected.pop("outcome", None)
    numbers = dict(expected)
    whole = to_data(parse(Scenario, scenario))
    return Example(
        key=key,
        title=title,
        source=source,
        request={"scenario": whole, "dice": dice},
        expected={"outcome": outcome, "numbers": numbers},
    )


def examples() -> tuple[Example, ...]:
    leather = armour("Armure de cuir légère", 1)
    military = armour("Protection militaire", 3)
    return (
        _ex(
            "critique",
            "Critique : dommages ×2 avant la protection",
            "§14 Critique",
            melee(attacker(), defender(armour=leather)),
            {"attaque.1": 33},
            outcome="graze",
            critical=True,
            phys_raw=2,
            phys_taken=3,
            mag_taken=0,
        ),
        _ex(
            "critique_sans",
            "Même coup sans critique",
            "§14 Critique",
            melee(attacker(), defender(armour=leather)),
            {"attaque.1": 34},
            outcome="graze",
            critical=False,
            phys_taken=1,
        ),
        _ex(
            "minimum_degre_1",
            "Arme de degré 1 : pas de minimum",
            "§14 Minimum de dommages",
            melee(attacker(weapon=DAGUE), defender(armour=military)),
            {"attaque.1": 20},
            outcome="absorbed",
            phys_taken=0,
        ),
        _ex(
            "minimum_degre_2",
            "Arme de degré 2 : minimum de 1 PHYS",
            "§14 Minimum de dommages",
            melee(attacker(), defender(armour=military)),
            {"attaque.1": 20},
            outcome="graze",
            phys_taken=1,
        ),
        _ex(
            "minimum_esquive",
            "Esquive réussie : ni dommages ni minimum",
            "§14 Minimum de dommages",
            melee(attacker(), defender(defence=D_ESQUIVER)),
            {"attaque.1": 20, "defense.1": 20},
            outcome="dodged",
            defence_success=True,
            phys_taken=0,
        ),
        _ex(
            "minimum_standard",
            "Défense standard réussie puis armure : minimum de 1",
            "§14 Minimum de dommages",
            melee(attacker(), defender(defence=D_STANDARD, armour=leather)),
            {"attaque.1": 20, "defense.1": 20},
            outcome="graze",
            defence_success=True,
            phys_taken=1,
        ),
        _ex(
            "point_faible_mundane",
            "Point faible contre une armure ordinaire",
            "§14 Point faible",
            melee(
                attacker(weapon=MARTEAU, effects=[POINT_FAIBLE]), defender(armour=armour("Gilet pare-balles lourd", 3))
            ),
            {"attaque.1": 20},
            outcome="graze",
            phys_taken=3,
        ),
        _ex(
            "point_faible_phalange",
            "Point faible contre une armure de la Phalange",
            "§14 Point faible",
            melee(
                attacker(weapon=MARTEAU, effects=[POINT_FAIBLE]),
                defender(armour=armour("Gilet lourd (Phalange)", 5, magical=True)),
            ),
            {"attaque.1": 20},
            outcome="graze",
            phys_taken=1,
        ),
        _ex(
            "point_faible_bonus",
            "Point faible : les bonus de protection des formules restent",
            "§14 Point faible",
            melee(
                attacker(weapon=MARTEAU, effects=[POINT_FAIBLE]),
                defender(armour=armour("Gilet pare-balles lourd", 3), effects=[EAU_DE_VIE]),
            ),
            {"attaque.1": 20},
            outcome="graze",
            phys_taken=1,
        ),
        _ex(
            "manteau_meme_element",
            "Glaive de Feu contre un manteau de Feu : annulation totale",
            "§14 Manteau élémentaire",
            melee(
                attacker(weapon=glaive("feu", "de Feu")),
                defender(kind="nephilim", other=mantle("Manteau élémentaire de Feu", "feu")),
            ),
            {"attaque.1": 20},
            outcome="absorbed",
            phys_taken=0,
            mag_taken=0,
            cancelled=True,
        ),
        _ex(
            "manteau_autre_element",
            "Glaive de Feu contre un manteau d'Eau",
            "§14 Manteau élémentaire",
            melee(
                attacker(weapon=glaive("feu", "de Feu")),
                defender(kind="nephilim", other=mantle("Manteau élémentaire d'Eau", "eau")),
            ),
            {"attaque.1": 20},
            outcome="graze",
            phys_taken=1,
            mag_taken=0,
        ),
        _ex(
            "corps_brumeux",
            "Corps brumeux : seule la part magique passe",
            "§13 Corps brumeux",
            melee(attacker(weapon=glaive("air", "d'Air")), defender(kind="nephilim", effects=[CORPS_BRUMEUX])),
            {"attaque.1": 20},
            outcome="graze",
            phys_taken=0,
            mag_taken=3,
        ),
        _ex(
            "retenue_10",
            "Retenue du souffle : 10 dommages annulés",
            "§13 Retenue du souffle de la Chrysopée",
            melee(
                attacker(degree=8, weapon=DAMES_DU_LAC, approach=PUISSANTE, effects=[PRINCE, PIERRE]),
                defender(kind="nephilim", effects=[RETENUE]),
            ),
            {"attaque.1": 45},
            outcome="absorbed",
            phys_raw=10,
            phys_taken=0,
            cancelled=True,
        ),
        _ex(
            "retenue_11",
            "Retenue du souffle : 11 dommages, −10",
            "§13 Retenue du souffle de la Chrysopée",
            melee(
                attacker(degree=8, weapon=DAMES_DU_LAC, approach=PUISSANTE, effects=[PRINCE, PIERRE], ka_feu=5),
                defender(kind="nephilim", effects=[RETENUE]),
            ),
            {"attaque.1": 45},
            outcome="graze",
            phys_raw=11,
            phys_taken=1,
        ),
        _ex(
            "retenue_mixte",
            "Retenue du souffle : 7 PHYS + 4 MAG = 11, −10 au total",
            "§13 Retenue du souffle de la Chrysopée",
            melee(
                attacker(degree=8, weapon=glaive("feu", "de Feu"), approach=PUISSANTE, effects=[PIERRE], ka_feu=5),
                defender(kind="nephilim", effects=[RETENUE]),
            ),
            {"attaque.1": 45},
            outcome="graze",
            phys_raw=7,
            mag_raw=4,
            phys_taken=0,
            mag_taken=1,
            damage_taken=1,
        ),
        _ex(
            "frapper_force_du_simulacre",
            "Frapper : dommages selon la force du simulacre",
            "§2 Frapper",
            melee(attacker(weapon=MAINS_NUES, approach=FRAPPER, simulacre_force=3), defender()),
            {"attaque.1": 20},
            outcome="graze",
            phys_raw=3,
            phys_taken=3,
        ),
        _ex(
            "regisseur_metamorphe_10",
            "Régisseur de fureur : +10 attaque, Métamorphe à 10",
            "§12 Régisseur de fureur",
            melee(attacker(degree=2, metamorphe=3, effects=[REGISSEUR]), defender()),
            {"attaque.1": 95},
            outcome="graze",
            attack_degree=12,
            metamorphe=10,
            phys_taken=2,
        ),
        _ex(
            "amethyste_initiative",
            "Améthyste revêtue de flammes sans Approche Ka-Feu : +3 initiative",
            "§12 Améthyste revêtue de flammes",
            melee(attacker(initiative_ka=4, effects=[AMETHYSTE]), defender()),
            {"attaque.1": 20},
            outcome="graze",
            initiative=11,
            attack_degree=6,
        ),
        *(
            _ex(
                f"ka_feu_{ka}",
                f"Ka-Feu {ka} : {label}",
                "§14 Ka-Feu bonus dommages",
                melee(attacker(ka_feu=ka), defender()),
                {"attaque.1": 20},
                outcome="graze" if taken < 4 else "wound",
                phys_taken=taken,
            )
            for ka, label, taken in ((4, "pas de bonus", 2), (5, "+1", 3), (9, "+1", 3), (10, "+2", 4))
        ),
        _ex(
            "rafale_trois_cibles",
            "Rafale continue contre trois défenseurs",
            "§14 Cadence bonus / Multi-défenseurs",
            {
                "mode": "tir",
                "cadence": "raf_cont",
                "attacker": {
                    "name": "Mercenaire",
                    "grammar": DEFINITE_M,
                    "kind": "autre",
                    "degree": 6,
                    "approach": TIR_VISE,
                    "weapon": AK47,
                },
                "defenders": [
                    defender(name="Vigile", defence=D_ENCAISSER_TIR, armour=armour("Gilet pare-balles léger", 2)),
                    defender(
                        name="Initiée",
                        grammar=DEFINITE_F,
                        kind="initie",
                        degree=4,
                        defence=D_PARER_TIR,
                        shield=CAVALIER,
                    ),
                    defender(
                        name="Nephilim",
                        kind="nephilim",
                        defence=D_ENCAISSER_TIR,
                        armour=armour("Protection militaire intégrale", 4),
                    ),
                ],
            },
            {"attaque.1": 42, "defense.2": 30},
            outcome="wound",
            **{"s1.phys_raw": 7, "s1.phys_taken": 5, "s2.phys_taken": 1, "s3.phys_taken": 3, "damage_taken": 9},
        ),
        _ex(
            "attaque_rapide",
            "Attaque rapide : Défense n°1 puis n°2",
            "§14 Attaque rapide",
            melee(
                attacker(approach=RAPIDE), defender(name="Sbire", defence=D_PARER, defence_number=1, defence_number_2=2)
            ),
            {"attaque.1": 25, "defense.1": 45, "attaque.2": 38, "defense.2": 45},
            outcome="graze",
            **{
                "s1.phys_taken": 1,
                "s1.defence_success": True,
                "s2.phys_taken": 2,
                "s2.defence_success": False,
                "s2.defence_threshold": 30,
                "phys_taken": 3,
            },
        ),
        _ex(
            "marge_superieure_10",
            "Marge > 10 des deux côtés : le Résultat final",
            "§14 Marge de réussite > 10",
            melee(
                attacker(degree=15, margin_damage=2, margin_malus=2),
                defender(name="Rival", kind="nephilim", degree=14, defence=D_STANDARD, margin_damage=1, margin_malus=1),
            ),
            {"attaque.1": 5, "defense.1": 12},
            outcome="graze",
            attack_choices=4,
            defence_choices=2,
            phys_before_choices=1,
            phys_taken=2,
            **{"next.defender_defence": -2, "next.attacker_attack": -1},
        ),
        _ex(
            "insensible",
            "Humain ordinaire : les dommages magiques sont ignorés",
            "§14 Sensibilité magique",
            melee(attacker(weapon=glaive("eau", "d'Eau")), defender(name="Passant")),
            {"attaque.1": 20},
            outcome="graze",
            phys_taken=3,
            mag_taken=0,
        ),
        _ex(
            "sensible",
            "Humain initié : les dommages magiques portent",
            "§14 Sensibilité magique",
            melee(attacker(weapon=glaive("eau", "d'Eau")), defender(name="Initié", kind="initie")),
            {"attaque.1": 20},
            outcome="wound",
            phys_taken=3,
            mag_taken=3,
        ),
        _ex(
            "taurus",
            "Taurus : 4P + 4M, transperce le gilet",
            "§14 Taurus",
            {
                "mode": "tir",
                "attacker": attacker(approach=TIR_VISE, weapon=TAURUS),
                "defenders": [
                    defender(
                        name="Selenim",
                        kind="selenim",
                        defence=D_ENCAISSER_TIR,
                        armour=armour("Gilet pare-balles lourd", 3),
                    )
                ],
            },
            {"attaque.1": 30},
            outcome="terrible",
            phys_taken=4,
            mag_taken=4,
        ),
        _ex(
            "maladresse_100",
            "100 : maladresse quel que soit le seuil",
            "§14 Maladresse",
            melee(attacker(degree=12), defender()),
            {"attaque.1": 100},
            outcome="fumble",
            fumble=True,
            attack_threshold=120,
        ),
        _ex(
            "maladresse_double",
            "Double au-dessus du seuil : maladresse",
            "§14 Maladresse",
            melee(attacker(degree=5), defender()),
            {"attaque.1": 77},
            outcome="fumble",
            fumble=True,
        ),
        _ex(
            "desarmer_rate",
            "Désarmer raté : +2 PHYS",
            "§9 Désarmer",
            melee(attacker(), defender(defence=D_DESARMER)),
            {"attaque.1": 20, "defense.1": 50},
            outcome="wound",
            phys_taken=4,
            defence_threshold=10,
        ),
        _ex(
            "contre_attaque_ratee",
            "Contre-attaque ratée : +2 PHYS, +2 MAG",
            "§9 Contre-attaquer",
            melee(attacker(weapon=glaive("feu", "de Feu")), defender(kind="initie", defence=D_CONTRE)),
            {"attaque.1": 20, "defense.1": 80},
            outcome="terrible",
            phys_taken=5,
            mag_taken=5,
        ),
        _ex(
            "eau_forte",
            "Eau-forte : dommages physiques de l'attaquant ÷ 2",
            "§13 Eau-forte des murailles d'Atlantis",
            {
                "mode": "tir",
                "attacker": attacker(approach=TIR_VISE, weapon=ARBALETE),
                "defenders": [defender(kind="nephilim", defence=D_ENCAISSER_TIR)],
                "defender_effects": [dict(EAU_FORTE, target=1)],
            },
            {"attaque.1": 20},
            outcome="graze",
            phys_raw=1,
            phys_taken=1,
        ),
        _ex(
            "armure_invincible",
            "Armure invincible : tout est annulé",
            "§13 Armure invincible",
            melee(attacker(weapon=glaive("terre", "de Terre")), defender(kind="nephilim", effects=[ARMURE_INVINCIBLE])),
            {"attaque.1": 20},
            outcome="absorbed",
            phys_taken=0,
            mag_taken=0,
            cancelled=True,
        ),
    )
