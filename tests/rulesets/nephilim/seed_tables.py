"""Every row of every table of the seed ``002_78b74c4e792a38cc.txt``, as scenario data.

These rows are test data: the engine holds no table, the bestiary fixtures carry the same rows
(phase 2 checks the fixtures against this file). Keys are the model's field names.
"""

from __future__ import annotations

from typing import Any

from rulesets.core.french import elide

Row = dict[str, Any]

# §2 Approches d'attaque — mêlée (AM)
MELEE_APPROACHES: list[Row] = [
    {"kind": "standard", "name": "Standard", "attack_modifier": 0, "elements": []},
    {
        "kind": "force",
        "name": "Attaque en force",
        "attack_modifier": 3,
        "elements": ["feu", "terre"],
        "attacker_cannot_defend": True,
    },
    {
        "kind": "rapide",
        "name": "Attaque rapide",
        "attack_modifier": -2,
        "elements": ["eau", "air"],
        "attacker_cannot_defend": True,
    },
    {
        "kind": "puissante",
        "name": "Attaque puissante",
        "attack_modifier": -2,
        "damage_bonus_phys": 2,
        "elements": ["terre", "feu"],
    },
    {
        "kind": "subtile",
        "name": "Attaque subtile",
        "attack_modifier": -2,
        "defence_malus_on_hit": 4,
        "elements": ["air", "eau"],
    },
    {
        "kind": "etrange",
        "name": "Attaque étrange",
        "attack_modifier": -3,
        "opponent_next_round_malus": 2,
        "elements": ["lune"],
    },
    {"kind": "tir_instinctif", "name": "Tir instinctif", "attack_modifier": -4, "elements": ["feu"]},
    {"kind": "frapper", "name": "Frapper", "attack_modifier": 0, "elements": ["feu", "eau"]},
    {
        "kind": "immobiliser",
        "name": "Immobiliser",
        "attack_modifier": 0,
        "elements": ["eau", "terre"],
        "deals_damage": False,
    },
    {
        "kind": "faire_tomber",
        "name": "Faire tomber",
        "attack_modifier": 0,
        "elements": ["feu", "terre"],
        "deals_damage": False,
    },
]

# §3 Approches d'attaque — distance (AD)
RANGED_APPROACHES: list[Row] = [
    {"kind": "tir", "name": "Tir (visée 1r)", "attack_modifier": 0, "aiming_rounds": 1},
    {"kind": "tir", "name": "Tir (sans visée)", "attack_modifier": -4, "aiming_rounds": 0},
    {"kind": "tir", "name": "Tir (+2, 2r)", "attack_modifier": 2, "aiming_rounds": 2},
    {"kind": "tir", "name": "Tir (+4, 3r)", "attack_modifier": 4, "aiming_rounds": 3},
    {"kind": "tir", "name": "Tir (+6, 4+r)", "attack_modifier": 6, "aiming_rounds": 4},
    {"kind": "lancer", "name": "Lancer", "attack_modifier": 0},
]


def _melee(
    name: str,
    deg: int,
    phys: int,
    mag: int,
    typ: str,
    element: str = "aucun",
    magical: bool = False,
    pierce: bool = False,
) -> Row:
    return {
        "name": name,
        "category": "melee",
        "degree": deg,
        "phys": phys,
        "mag": mag,
        "type": typ,
        "element": element,
        "magical": magical,
        "null_non_mag_prot": pierce,
    }


# §4 Armes de mêlée
MELEE_WEAPONS: list[Row] = [
    _melee("Mains nues", 1, 1, 0, "nat"),
    _melee("Dague", 1, 1, 0, "m"),
    _melee("Griffes", 2, 2, 0, "nat"),
    _melee("Épée/hache", 2, 2, 0, "m"),
    _melee("Membre embrasé", 2, 2, 2, "m", "feu", True),
    _melee("Marteau", 3, 3, 0, "m"),
    _melee("Griffe noire (formule)", 3, 3, 0, "m", magical=True),
    _melee("Glaive élémentaire d'Air", 3, 3, 3, "m", "air", True, True),
    _melee("Glaive élémentaire d'Eau", 3, 3, 3, "m", "eau", True, True),
    _melee("Glaive élémentaire de Feu", 3, 3, 3, "m", "feu", True, True),
    _melee("Glaive élémentaire de Lune", 3, 3, 3, "m", "lune", True, True),
    _melee("Glaive élémentaire de Terre", 3, 3, 3, "m", "terre", True, True),
    _melee("Arme magique des Dames du Lac (invoc.)", 4, 4, 0, "m", magical=True),
    _melee("Crocs, griffes, cornes (invoc. Serviteur palais délices)", 4, 4, 0, "nat", magical=True),
]


def _ranged(
    name: str, deg: int, phys: int, mag: int, range_m: int, ammo: int, cadences: list[str], firearm: bool, **extra: Any
) -> Row:
    row: Row = {
        "name": name,
        "category": "tir",
        "degree": deg,
        "phys": phys,
        "mag": mag,
        "type": "m",
        "range_m": range_m,
        "ammunition": ammo,
        "cadences": cadences,
        "firearm": firearm,
    }
    row.update(extra)
    return row


# §5 Armes de tir
RANGED_WEAPONS: list[Row] = [
    _ranged("Arc", 2, 2, 0, 250, 1, ["unique"], False),
    _ranged("Pistolet 9mm", 2, 2, 0, 100, 15, ["unique", "cpc"], True),
    _ranged("Arbalète", 3, 3, 0, 350, 1, ["unique"], False),
    _ranged("Carabine 22 long rifle", 4, 4, 0, 400, 10, ["unique", "cpc"], True),
    _ranged("Fusil d'assaut AK-47", 4, 4, 0, 1000, 30, ["unique", "cpc", "raf_ctrl", "raf_cont"], True),
    _ranged("Fusil de chasse cal.12", 4, 4, 0, 20, 8, ["unique", "cpc"], True),
    _ranged(
        "Poudre de mitraille (courte portée)",
        8,
        8,
        0,
        10,
        0,
        ["unique"],
        False,
        magical=True,
        range_label="durée du sort",
    ),
    _ranged(
        "Poudre de mitraille (longue portée)",
        5,
        5,
        0,
        30,
        0,
        ["unique"],
        False,
        magical=True,
        range_label="durée du sort",
    ),
    _ranged(
        "Taurus (sort Péché d'Aldebaran)",
        4,
        4,
        4,
        0,
        7,
        ["unique"],
        False,
        magical=True,
        element="lune",
        null_non_mag_prot=True,
        range_label="têtes chercheuses",
    ),
]

# §6 Armes de lancer
THROWN_WEAPONS: list[Row] = [
    {"name": "Fronde", "category": "lancer", "degree": 1, "phys": 1, "mag": 0, "type": "m"},
    {"name": "Hache de lancer", "category": "lancer", "degree": 2, "phys": 2, "mag": 0, "type": "m"},
    {"name": "Javelot", "category": "lancer", "degree": 2, "phys": 2, "mag": 0, "type": "m"},
]

# §7 Munitions
AMMUNITIONS: list[Row] = [
    {"name": "Standard", "damage_bonus": 0, "compatible": []},
    {"name": "Balles blindées d'armes de poing", "damage_bonus": 2, "compatible": ["Pistolet 9mm"]},
    {"name": "Balles blindées de fusils d'assaut", "damage_bonus": 4, "compatible": ["Fusil d'assaut AK-47"]},
    {"name": "Cartouches de chasse (courte portée)", "damage_bonus": 3, "compatible": ["Fusil de chasse cal.12"]},
    {"name": "Cartouches de chasse (longue portée)", "damage_bonus": 1, "compatible": ["Fusil de chasse cal.12"]},
    {"name": "Balles creuses/perforantes/explosives", "damage_bonus": 4, "compatible": []},
]


def _prot(
    name: str, phys: int, mag: int, slot: str = "armure", magical: bool = False, element: str = "aucun", bonus: int = 0
) -> Row:
    return {
        "name": name,
        "slot": slot,
        "phys": phys,
        "mag": mag,
        "magical": magical,
        "element": element,
        "optional_bonus": bonus,
    }


# §8 Protections
MUNDANE_ARMOURS: list[Row] = [
    _prot("Aucune", 0, 0),
    _prot("Armure de cuir légère", 1, 0),
    _prot("Armure de cuir renforcée", 2, 0),
    _prot("Gilet pare-balles léger", 2, 0),
    _prot("Gilet pare-balles lourd", 3, 0),
    _prot("Protection militaire", 3, 0),
    _prot("Protection militaire intégrale", 4, 0),
]
PHALANGE_ARMOURS: list[Row] = [
    _prot("Cuir légère (Phalange)", 3, 0, magical=True),
    _prot("Cuir renforcée (Phalange)", 4, 0, magical=True),
    _prot("Gilet léger (Phalange)", 4, 0, magical=True),
    _prot("Gilet lourd (Phalange)", 5, 0, magical=True),
    _prot("Militaire (Phalange)", 5, 0, magical=True),
    _prot("Militaire intégrale (Phalange)", 6, 0, magical=True),
]
ELEMENTAL_ARMOURS: list[Row] = [
    _prot("Armure dents semées (invoc. Ka-Terre)", 4, 4, magical=True),
    _prot("Boucliers célestes, ailes de mailles (invoc. Ka-Air)", 4, 4, magical=True),
    _prot("Écailles d'argent prairies marines (invoc. Ka-Eau)", 4, 4, magical=True),
    _prot("Puissantes cuirasses de feu (invoc. Ka-Feu)", 4, 4, magical=True),
    _prot("Tissus impérissables du temps (invoc. Ka-Lune)", 4, 4, magical=True),
]
MANTLES: list[Row] = [
    _prot(f"Manteau élémentaire {elide('de', name)}", 3, 3, "manteau", True, element)
    for name, element in (("Feu", "feu"), ("Eau", "eau"), ("Terre", "terre"), ("Air", "air"), ("Lune", "lune"))
]
OTHER_PROTECTIONS: list[Row] = [
    _prot("Carapace (invoc. Serviteur palais délices)", 4, 0, "autre", True),
    _prot("Gardien silencieux (invoc. Ka-Terre)", 10, 10, "autre", True),
]
SHIELDS: list[Row] = [
    _prot("Cavalier à la targe parcheminée", 4, 4, "bouclier", True, bonus=2),
]
PROTECTIONS = MUNDANE_ARMOURS + PHALANGE_ARMOURS + ELEMENTAL_ARMOURS + MANTLES + OTHER_PROTECTIONS + SHIELDS


def _def(name: str, style: str, context: str = "melee", **extra: Any) -> Row:
    row: Row = {"name": name, "style": style, "context": context, "success_reduce_phys": 0, "success_reduce_mag": 0}
    row.update(extra)
    return row


# §9 Types de défense — mêlée
MELEE_DEFENCES: list[Row] = [
    _def("Standard", "standard", success_reduce_phys=1, success_reduce_mag=1),
    _def("Esquiver", "esquive", success_cancel=True, success_no_minimum=True, elements=["eau", "air"]),
    _def("Parer", "parade", success_reduce_phys=2, success_reduce_mag=2, elements=["terre", "feu"]),
    _def(
        "Déf. élaborée",
        "elaboree",
        success_reduce_phys=2,
        success_reduce_mag=2,
        no_extra_defence_malus=True,
        elements=["air", "eau"],
    ),
    _def(
        "Désarmer (avec arme)",
        "desarmer",
        modifier=-4,
        success_cancel=True,
        success_no_minimum=True,
        failure_add_phys=2,
        elements=["lune"],
    ),
    _def(
        "Désarmer (sans arme)",
        "desarmer",
        modifier=-8,
        success_cancel=True,
        success_no_minimum=True,
        failure_add_phys=2,
        elements=["lune"],
    ),
    _def(
        "Contre-attaquer",
        "contre",
        success_cancel=True,
        success_no_minimum=True,
        needs_attack_roll=True,
        failure_add_phys=2,
        failure_add_mag=2,
        elements=["feu", "terre"],
    ),
    _def("Fuir", "fuite", escapes=True, elements=["air", "eau", "lune"]),
    _def("Se libérer", "liberation", success_cancel=True, success_no_minimum=True, elements=["eau", "feu"]),
    _def("Bloquer", "blocage", success_reduce_phys=2, success_reduce_mag=2, elements=["terre"]),
    _def("Encaisser (déf. impossible)", "encaisser", rolls=False),
]
# §10 Types de défense — distance (tir)
RANGED_DEFENCES: list[Row] = [
    _def("Encaisser les dommages", "encaisser", "tir", rolls=False),
    _def("Parer arme projectiles", "parade", "tir", success_reduce_phys=2, needs_shield=True),
]
# §11 Types de défense — distance (lancer)
THROWN_DEFENCES: list[Row] = [
    _def("Encaisser les dommages", "encaisser", "lancer", rolls=False),
    _def("Parer arme lancée", "parade", "lancer", success_reduce_phys=3, success_reduce_mag=3),
    _def("Esquiver arme lancée", "esquive", "lancer", success_cancel=True, success_no_minimum=True),
]
DEFENCES = MELEE_DEFENCES + RANGED_DEFENCES + THROWN_DEFENCES


FIELD_OF = {
    "attaque": "attack",
    "defense": "defence",
    "dommages": "damage",
    "dommages_phys": "damage_phys",
    "dommages_mag": "damage_mag",
    "protection_phys": "protection_phys",
    "protection_mag": "protection_mag",
    "attaque_adverse_round_suivant": "opponent_next_round_attack",
    "annule_phys": "cancel_phys",
    "annule_mag": "cancel_mag",
    "annule_tout": "cancel_all",
    "null_non_mag_prot": "null_non_mag_prot",
    "sans_malus_defenses": "no_extra_defence_malus",
    "arme_magique": "weapon_magical",
    "armure_magique": "armour_magical",
}


def c(kind: str, value: int = 0, condition: str = "toujours", note: str = "") -> tuple[str, int, str, str]:
    """One typed component, as the seed words it."""
    return (kind, value, condition, note)


def fx(name: str, scope: str, *components: tuple[str, int, str, str], **extra: Any) -> Row:
    """An effect row: its components laid out on the effect's typed fields."""
    row: Row = {"name": name, "scope": scope}
    for kind, value, condition, note in components:
        if kind == "note":
            row["note"] = note
        elif kind == "defense_adverse":
            row["opponent_defence"] = value
            row["opponent_defence_condition"] = condition
        elif kind == "initiative":  # its own condition (Améthyste: « sinon +3 vitesse/initiative »)
            row["initiative"] = value
            row["initiative_condition"] = condition
        elif kind == "metamorphe":  # always, like a flag (Régisseur: « métamorphe à 10 »)
            row["metamorphe"] = value
        elif value:
            row[FIELD_OF[kind]] = value
            if condition != "toujours":
                row["condition"] = condition
        else:
            row[FIELD_OF[kind]] = True
    row.update(extra)
    return row


# Améthyste's « sinon +3 vitesse/initiative/protection »: the initiative is a component (issue 14);
# the protection concerns the attacker's own next defence, not this exchange.
NOTE_AMETHYSTE = "sans Approche Ka-Feu : +3 protection (pour sa propre défense)"

# §12 Sorts / invocations / formules — attaquant
ATTACKER_EFFECTS: list[Row] = [
    fx("Furie pyrétique", "melee", c("attaque", 3, "attaque_en_force")),
    fx("Hallucination guerrière", "melee", c("attaque", 3), c("protection_phys", 3)),
    fx(
        "Spasmes de furies",
        "melee",
        c("attaque", 3, "attaque_en_force"),
        c("defense_adverse", -2, "cible_echoue_ka_dominant"),
    ),
    fx("Sublimation élémentaire", "tous", c("attaque", 2, "approche_positive")),
    fx("Précognition", "tous", c("attaque", 4), c("defense", 4)),
    fx("Point faible", "tous", c("null_non_mag_prot")),
    fx("Coordination aquatique", "tous", c("attaque", 2)),
    fx("Les douze Portes de l'Amdouat", "tous", c("attaque", 5)),
    fx(
        "Améthyste revêtue de flammes",
        "tous",
        c("attaque", 6, "approche_feu"),
        c("initiative", 3, "approche_pas_feu"),
        c("note", 0, "approche_pas_feu", NOTE_AMETHYSTE),
    ),
    fx("Anges guerriers, hérauts de la victoire", "tous", c("attaque", 3, "action_coordonnee")),
    fx("Consort rouge", "tous", c("attaque", 5, "approche_feu"), c("protection_phys", 5), c("protection_mag", 5)),
    fx("Kerubim, esprits agiles de Tilfir", "tous", c("attaque", 4)),
    fx("Phalange d'airain", "melee", c("dommages_phys", 2, "arme_melee"), c("arme_magique", 0, "arme_melee")),
    fx("Prince de la spirale", "melee", c("attaque", 3), c("dommages", 3), c("attaque_adverse_round_suivant", -3)),
    fx("Régisseur de fureur", "tous", c("attaque", 10), c("metamorphe", 10), c("annule_phys")),
    fx("Parfum de concentration", "melee", c("attaque", 2), c("note", 0, "toujours", "−2 vigilance")),
    fx("Pierre d'affûtage lumineux", "melee", c("dommages_phys", 1)),
    fx("Poudre des brasiers", "distance", c("dommages_phys", 1, "arme_a_feu")),
]

# §13 Sorts / invocations / formules — défenseur
DEFENDER_EFFECTS: list[Row] = [
    fx("Armure invincible", "tous", c("annule_tout")),
    fx("Corps brumeux", "tous", c("annule_phys")),
    fx("Hallucination guerrière", "melee", c("defense", 3), c("protection_phys", 3)),
    fx("Les douze Portes de l'Amdouat", "tous", c("defense", 5)),
    fx("Précognition", "tous", c("defense", 4)),
    fx("Sublimation élémentaire", "tous", c("defense", 2, "approche_positive")),
    fx("Améthyste revêtue de flammes", "tous", c("protection_phys", 3, "approche_positive")),
    fx("Colibris de brume", "tous", c("defense", 4, "esquive")),
    fx("Consort rouge", "tous", c("protection_phys", 5), c("protection_mag", 5)),
    fx("Esprit de la 24e partie d'un instant", "tous", c("defense", 5), c("sans_malus_defenses")),
    fx("Kerubim, esprits agiles de Tilfir", "tous", c("defense", 4)),
    fx("Phalange d'airain", "melee", c("protection_phys", 2, "porte_armure"), c("armure_magique", 0, "porte_armure")),
    fx("Porteuse des souffles de l'aube", "tous", c("protection_phys", 3), c("protection_mag", 3)),
    fx("Régisseur de fureur", "tous", c("annule_phys")),
    fx("Taliahad, gardien de la source", "tous", c("protection_phys", 5), c("protection_mag", 5)),
    fx("Coagulation métallique de l'être", "tous", c("protection_phys", 5), c("protection_mag", 5)),
    fx("Eau-de-vie du métal ensommeillé", "tous", c("protection_phys", 4)),
    fx("Eau-forte des murailles d'Atlantis", "distance", behaviour="eau_forte"),
    fx("Réduction de la faille du bouclier", "tous", c("protection_phys", 3)),
    fx("Liqueur du mouvant", "tous", c("defense", 2, "premiere_defense"), c("sans_malus_defenses")),
    fx("Parfum de concentration", "melee", c("defense", 2), c("note", 0, "toujours", "−2 vigilance")),
    fx("Retenue du souffle de la Chrysopée", "tous", behaviour="retenue_du_souffle", threshold=10),
    fx("Transmutation du fauve d'orfèvre", "tous", c("protection_phys", 6), behaviour="transmutation_du_fauve"),
    fx("Vaisseau de l'androgyne sacré", "tous", c("protection_phys", 10)),
]


def _normalise(rows: list[Row]) -> None:
    """Element and cadence lists become their checkbox objects; ammunition names one weapon."""
    for r in rows:
        if isinstance(r.get("elements"), list):
            r["elements"] = dict.fromkeys(r["elements"], True)
        if isinstance(r.get("cadences"), list):
            r["cadences"] = {c: c in r["cadences"] for c in ("unique", "cpc", "raf_ctrl", "raf_cont")}
        if isinstance(r.get("compatible"), list):
            r["compatible"] = r["compatible"][0] if r["compatible"] else ""


for _rows in (MELEE_APPROACHES, RANGED_APPROACHES, RANGED_WEAPONS, AMMUNITIONS, DEFENCES):
    _normalise(_rows)


TABLES: dict[str, list[Row]] = {
    "melee_approaches": MELEE_APPROACHES,
    "ranged_approaches": RANGED_APPROACHES,
    "melee_weapons": MELEE_WEAPONS,
    "ranged_weapons": RANGED_WEAPONS,
    "thrown_weapons": THROWN_WEAPONS,
    "ammunitions": AMMUNITIONS,
    "protections": PROTECTIONS,
    "defences": DEFENCES,
    "attacker_effects": ATTACKER_EFFECTS,
    "defender_effects": DEFENDER_EFFECTS,
}


def row(table: list[Row], name: str) -> Row:
    """The row named ``name`` (a copy)."""
    for r in table:
        if r["name"] == name:
            return dict(r)
    raise KeyError(name)
