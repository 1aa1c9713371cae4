"""The seed's worked examples as ready-to-post requests, and the seed's named tactics.

Each example cites the seed's passage (« Vite, un exemple »). Numbers the seed states are in
``expected``; where the seed leaves a value open (a creature's other Aspects, the dice), the
example fixes it and the expected numbers follow from the rules.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from rulesets.core.french import DEFINITE_M, PROPER_M
from rulesets.core.results import Example
from rulesets.core.schema import to_data
from rulesets.feerie.action import ActionScenario, Activity, ActivityKind, Change, Fighter
from rulesets.feerie.model import Attribute, AttributeKind, CoAttacker, Combatant, Exchange, Mode, Situation, Tactic

SEED_FILE = "004_6e592e6a2992f712.txt"

# The seed's named tactics, written for Sire Didimus (Affinité duel +4, cap ±4):
# (key, French name, Initiative, Attaque, Défense). Data for the presets, never read by the engine.
SEED_TACTICS_CAP = 4
SEED_TACTICS: tuple[tuple[str, str, int, int, int], ...] = (
    ("attaque_foudroyante", "Attaque foudroyante", 4, -2, -2),
    ("attaque_brutale", "Attaque brutale", -2, 4, -2),
    ("feinte", "Feinte", -4, 1, 3),
    ("sauve_qui_peut", "Sauve qui peut", 0, -4, 4),
    ("coute_que_coute", "Le Coûte que coûte", 4, 0, -4),
    ("passage_en_force", "Passage en force", 0, 4, -4),
    ("preparation_minutieuse", "La préparation minutieuse", -4, 4, 0),
    ("botte_secrete", "La botte secrète", 2, 2, -4),
    ("frappe_et_file", "Frappe et file", 1, -4, 3),
    ("tenir_en_respect", "Tenir en respect", 3, -4, 1),
    ("grande_parade", "La grande parade", 2, -4, 2),
    ("parade_simple", "La parade simple", -2, -2, 4),
    ("riposte", "La riposte oeil pour oeil", -4, 2, 2),
)


def wichtln(*, ranged: bool = False) -> Combatant:
    """The seed's Wichtln, with the Attributs that apply at contact or at range."""
    return Combatant(
        name="Wichtln",
        grammar=DEFINITE_M,
        vigilance=15,
        habilete=20,
        puissance=10,
        resistance=15,
        taille=-2,
        essence=20,
        attributes=(
            Attribute("marteau", AttributeKind.ACCESSOIRE, 3, attack=not ranged, defense=True),
            Attribute("tablier de cuir", AttributeKind.ACCESSOIRE, 2, soak=True),
            Attribute("force surnaturelle", AttributeKind.POUVOIR, 4, damage=not ranged),
            Attribute("voix tonnante", AttributeKind.POUVOIR, 3, damage=ranged),
        ),
    )


def lutin(name: str = "Lutin") -> Combatant:
    return Combatant(
        name=name, grammar=DEFINITE_M, vigilance=14, habilete=14, puissance=8, resistance=10, taille=-2, essence=15
    )


def _request(scenario: Any, dice: dict[str, int] | None = None) -> dict[str, Any]:
    return {"scenario": to_data(scenario), "dice": dict(dice or {})}


def examples() -> tuple[Example, ...]:
    redcap = Combatant(
        name="Redcap",
        grammar=DEFINITE_M,
        vigilance=14,
        habilete=16,
        puissance=14,
        resistance=14,
        taille=-1,
        essence=25,
        attributes=(
            Attribute("hache", AttributeKind.AFFINITE, 3, attack=True),
            Attribute("massacre", AttributeKind.AFFINITE, 4, attack=True),
        ),
        tactic=Tactic(initiative=-2, attack=7, defense=-5),
    )
    villageois = Combatant(
        name="Villageois", grammar=DEFINITE_M, vigilance=8, habilete=8, puissance=8, resistance=8, taille=0, essence=10
    )
    didimus = Combatant(
        name="Sire Didimus",
        grammar=PROPER_M,
        vigilance=16,
        habilete=18,
        puissance=12,
        resistance=12,
        taille=0,
        essence=20,
        attributes=(Attribute("duel", AttributeKind.AFFINITE, 4, attack=True, defense=True),),
        tactic=Tactic(initiative=-2, attack=4, defense=-2),
    )
    ogre = Combatant(
        name="Ogre", grammar=DEFINITE_M, vigilance=10, habilete=12, puissance=20, resistance=20, taille=2, essence=30
    )
    sylphe = Combatant(
        name="Sylphe", grammar=DEFINITE_M, vigilance=16, habilete=18, puissance=6, resistance=8, taille=-2, essence=12
    )
    geant = Combatant(
        name="Géant", grammar=DEFINITE_M, vigilance=8, habilete=10, puissance=24, resistance=24, taille=4, essence=40
    )
    feu_follet = Combatant(
        name="Feu follet",
        grammar=DEFINITE_M,
        vigilance=18,
        habilete=20,
        puissance=4,
        resistance=6,
        taille=-4,
        essence=10,
    )
    return (
        Example(
            key="wichtln_contact",
            title="Le Wichtln frappe de son marteau",
            source=f"{SEED_FILE} — Les grandeurs en jeu, « Vite, un exemple : un Wichtln »",
            request=_request(Exchange(attacker=wichtln(), defender=lutin()), {"plus.1": 10, "moins.1": 10}),
            # Défense du Lutin 14 + 2 = 16 ; marge 23 − 16 = 7 ; ⌊7/2⌋ + 12 − (10 − 2) = 7
            expected={
                "outcome": "hit",
                "initiative": 15,
                "attack": 23,
                "damage": 12,
                "defense": 16,
                "margin": 7,
                "essence_lost": 7,
            },
        ),
        Example(
            key="wichtln_distance",
            title="Le Wichtln donne de la voix à distance",
            source=f"{SEED_FILE} — Les grandeurs en jeu, « Vite, un exemple : un Wichtln »",
            request=_request(
                Exchange(attacker=wichtln(ranged=True), defender=lutin(), mode=Mode.RANGED),
                {"plus.1": 10, "moins.1": 10},
            ),
            # marge 15 − 16 = −1 : manqué
            expected={"outcome": "miss", "initiative": 15, "attack": 15, "damage": 7, "margin": -1, "essence_lost": 0},
        ),
        Example(
            key="wichtln_defense",
            title="Le Wichtln se défend",
            source=f"{SEED_FILE} — Les grandeurs en jeu, « Vite, un exemple : un Wichtln »",
            request=_request(Exchange(attacker=lutin(), defender=wichtln()), {"plus.1": 20, "moins.1": 1}),
            # Attaque du Lutin 14 + 19 = 33 ; marge 33 − 25 = 8 ; ⌊8/2⌋ + (8 − 2) − 15 < 0 → 0
            expected={"outcome": "hit_no_loss", "defense": 25, "soak": 15, "margin": 8, "essence_lost": 0},
        ),
        Example(
            key="redcap_tactique",
            title="La tactique du Redcap au village",
            source=f"{SEED_FILE} — Les tactiques, « Vite, un exemple : un Redcap »",
            request=_request(Exchange(attacker=redcap, defender=villageois), {"plus.1": 10, "moins.1": 10}),
            # Attaque 16 + 3 + 4 + 7 = 30 contre 8 : marge 22 ; ⌊22/2⌋ + 13 − 8 = 16
            expected={"outcome": "hit", "initiative": 12, "attack": 30, "defense": 8, "margin": 22, "essence_lost": 16},
        ),
        Example(
            key="didimus_attaque_brutale",
            title="Sire Didimus et l'attaque brutale",
            source=f"{SEED_FILE} — Quelques exemples de tactiques, « Attaque brutale »",
            request=_request(Exchange(attacker=didimus, defender=lutin()), {"plus.1": 5, "moins.1": 5}),
            # Attaque 18 + 4 + 4 = 26 contre 16 : marge 10 ; ⌊10/2⌋ + 12 − 8 = 9
            expected={"outcome": "hit", "initiative": 14, "attack": 26, "margin": 10, "essence_lost": 9},
        ),
        Example(
            key="ogre_sylphes",
            title="L'Ogre adossé à la paroi et la horde de Sylphes",
            source=f"{SEED_FILE} — Adversaires multiples, « un Ogre de taille +2 »",
            request=_request(
                Exchange(
                    attacker=sylphe,
                    defender=ogre,
                    situation=Situation(open_angles=4, co_attackers=(CoAttacker(15, -2, "Sylphes"),)),
                ),
                {"plus.1": 10, "moins.1": 10},
            ),
            # 16 Sylphes (surface 2) dans 4 angles de surface 8 : Défense 12 − 2 − 6 = 4
            # marge 14 : ⌊14/2⌋ + (6 − 2) − (20 + 2) < 0 : touché sans perte
            expected={"outcome": "hit_no_loss", "occupied_angles": 4, "defense": 4, "margin": 14, "essence_lost": 0},
        ),
        Example(
            key="geants_feu_follet",
            title="Deux Géants contre un Feu follet",
            source=f"{SEED_FILE} — Adversaires multiples, « deux Géants (Taille +4) »",
            # « Les Géants ne peuvent s'acharner à deux et un seul d'entre eux peut attaquer » : the second
            # Giant as another assailant is refused on its field (issue 14, never a story of a malus not
            # applied); the one who attacks does it alone.
            request=_request(
                Exchange(attacker=geant, defender=feu_follet, situation=Situation(open_angles=6)),
                {"plus.1": 20, "moins.1": 1},
            ),
            # un seul Géant attaque : aucun malus d'angle, Défense 20 + 4 = 24 ; 10 + 19 = 29, marge 5 ;
            # ⌊5/2⌋ + (24 + 4) − (6 − 4) = 28
            expected={
                "outcome": "hit",
                "defense": 24,
                "margin": 5,
                "essence_lost": 28,
                "essence_after": 0,
            },
        ),
    )


# --- the Action sequence ----------------------------------------------------------------------------


def _action(fighters: tuple[Fighter, ...], activities: tuple[Activity, ...]) -> dict[str, Any]:
    return _request(ActionScenario(fighters=fighters, activities=activities))


def action_examples() -> tuple[Example, ...]:
    rubezahl = Fighter(
        "Rübezahl",
        PROPER_M,
        vigilance=20,
        initiative=15,
        attack=22,
        defense=20,
        damage=14,
        soak=14,
        essence=40,
        taille=2,
    )
    serpent = Fighter(
        "Serpent à Sornettes",
        DEFINITE_M,
        vigilance=17,
        initiative=17,
        attack=21,
        defense=15,
        damage=6,
        soak=8,
        essence=20,
        taille=0,
    )
    # the seed says « J'agis au rang 17 »: the story says « le personnage »
    moi = Fighter(
        "personnage", DEFINITE_M, vigilance=15, initiative=17, attack=18, defense=16, damage=10, soak=10, essence=20
    )
    adversaire = Fighter(
        "adversaire", DEFINITE_M, vigilance=12, initiative=10, attack=14, defense=14, damage=10, soak=10, essence=20
    )
    pixie = Fighter(
        "Pixie",
        DEFINITE_M,
        vigilance=14,
        initiative=17,
        tactic=Tactic(initiative=-5, attack=5),
        tactic_cap=5,
        attack=14,
        defense=16,
        taille=-3,
    )
    autre_lutin = Fighter("Lutin", DEFINITE_M, vigilance=16, initiative=19, attack=12, defense=14, taille=-2)
    hippogriffe = Fighter(
        "Hippogriffe",
        DEFINITE_M,
        vigilance=12,
        initiative=8,
        attack=18,
        defense=12,
        damage=16,
        soak=14,
        essence=30,
        taille=2,
    )
    cristal = Fighter(
        "personnage",
        DEFINITE_M,
        vigilance=14,
        initiative=13,
        tactic=Tactic(initiative=2, attack=-2),
        tactic_cap=2,
        attack=16,
        defense=16,
        damage=10,
        soak=10,
    )
    gardien = Fighter(
        "adversaire lointain",
        DEFINITE_M,
        vigilance=12,
        initiative=15,
        attack=14,
        defense=14,
        damage=8,
        soak=10,
        essence=20,
    )
    ogre = Fighter(
        "Ogre affamé",
        DEFINITE_M,
        vigilance=10,
        initiative=14,
        attack=16,
        defense=10,
        damage=22,
        soak=22,
        essence=30,
        taille=2,
    )
    lutins = tuple(
        Fighter(
            f"Lutin {k}",
            DEFINITE_M,
            vigilance=14,
            initiative=12,
            attack=14,
            defense=16,
            damage=6,
            soak=8,
            essence=12,
            taille=-2,
        )
        for k in (1, 2)
    )
    farfadets = tuple(
        Fighter(
            f"Farfadet {k}",
            DEFINITE_M,
            vigilance=14,
            initiative=11,
            attack=12,
            defense=18,
            damage=2,
            soak=4,
            essence=8,
            taille=-4,
        )
        for k in (1, 2, 3, 4)
    )
    ogre_adosse = Fighter(
        "Ogre", DEFINITE_M, vigilance=10, initiative=8, attack=14, defense=10, damage=22, soak=22, essence=30, taille=2
    )
    sylphes = tuple(
        Fighter(
            f"Sylphe {k}",
            DEFINITE_M,
            vigilance=16,
            initiative=14,
            attack=18,
            defense=18,
            damage=4,
            soak=6,
            essence=12,
            taille=-2,
        )
        for k in range(1, 17)
    )
    feu_follet = Fighter(
        "Feu follet",
        DEFINITE_M,
        vigilance=18,
        initiative=16,
        attack=20,
        defense=24,
        damage=4,
        soak=2,
        essence=10,
        taille=-4,
    )
    geant_1 = Fighter(
        "Géant 1", DEFINITE_M, vigilance=8, initiative=9, attack=10, defense=6, damage=28, soak=28, essence=40, taille=4
    )
    geant_2 = replace(geant_1, name="Géant 2", initiative=7)
    attack = ActivityKind.ATTACK
    other = ActivityKind.OTHER
    return (
        Example(
            key="rubezahl_serpent",
            title="Rübezahl anticipe face au Serpent à Sornettes",
            source=f"{SEED_FILE} — Anticipation d'une activité, « Rübezahl (Vigilance 20) »",
            request=_action(
                (rubezahl, serpent),
                (
                    Activity(0, attack, "frappe le Serpent avant d'être hypnotisé", targets="1", rank=17, term=0),
                    Activity(1, attack, "tente d'hypnotiser Rübezahl", targets="0", term=0),
                ),
            ),
            # both at rank 17, Rübezahl first (Vigilance 20 > 17), at −2; his Défense 20 − 2 = 18
            expected={
                "outcome": "resolved",
                "top": 17,
                "order": "0,1",
                "activity_0_rank": 17,
                "activity_0_modifier": -2,
                "activity_1_rank": 17,
                "activity_1_margin_0": 3,
                "defense_0": 18,
                "next_malus_0": 0,
            },
        ),
        Example(
            key="activite_supplementaire_rang_9",
            title="Une seconde attaque au rang 9",
            source=f"{SEED_FILE} — Activités supplémentaires, « J'agis au rang 17 »",
            request=_action(
                (moi, adversaire),
                (
                    Activity(0, attack, "porte une première attaque", targets="1", term=0),
                    Activity(0, attack, "porte une seconde attaque", targets="1", term=0),
                ),
            ),
            expected={
                "activity_0_rank": 17,
                "activity_1_rank": 9,
                "activity_1_modifier": -4,
                "defense_0_after_activity_1": 12,
                "next_malus_0": -4,
            },
        ),
        Example(
            key="activite_supplementaire_rang_12",
            title="Une seconde attaque anticipée au rang 12",
            source=f"{SEED_FILE} — Activités supplémentaires, « dès le rang 12 »",
            request=_action(
                (moi, adversaire),
                (
                    Activity(0, attack, "porte une première attaque", targets="1", term=0),
                    Activity(0, attack, "porte une seconde attaque", targets="1", rank=12, term=0),
                ),
            ),
            expected={
                "activity_1_rank": 12,
                "activity_1_modifier": -7,
                "defense_0_after_activity_1": 9,
                "next_malus_0": -4,
            },
        ),
        Example(
            key="pixie_hippogriffe",
            title="Le Pixie, le Lutin et l'Hippogriffe",
            source=f"{SEED_FILE} — Changement d'intention, « Un Pixie taquin »",
            request=_action(
                (pixie, autre_lutin, hippogriffe),
                (
                    Activity(1, other, "hurle et réveille l'Hippogriffe"),
                    Activity(
                        0,
                        other,
                        "fuit à toutes jambes",
                        change=Change(
                            rank=19, tactic=Tactic(initiative=0, attack=-5, defense=5), new_tactic=True, note="fuir"
                        ),
                        bonus=3,
                    ),
                ),
            ),
            # 17 + 5 = 22, but no earlier than the change at 19; Défense 16 + 5 − 4 = 17 (+1)
            expected={
                "top": 19,
                "order": "0,1",
                "activity_1_rank": 19,
                "activity_1_modifier": -6,
                "defense_0": 17,
                "next_malus_0": -4,
            },
        ),
        Example(
            key="poignard_de_cristal",
            title="Le poignard de cristal et le souffle de flammes",
            source=f"{SEED_FILE} — Changement d'intention, « poignard de cristal +2 »",
            request=_action(
                (cristal, gardien),
                (
                    Activity(
                        0,
                        attack,
                        "crache un souffle de flammes",
                        targets="1",
                        change=Change(
                            rank=15,
                            tactic=Tactic(initiative=0, attack=2, defense=-2),
                            new_tactic=True,
                            note="souffle de flammes",
                        ),
                        term=0,
                    ),
                ),
            ),
            # rank 13 − 2 = 11, at −4 + 2 = −2; Défense −6 from rank 15; next Action −4
            expected={"activity_0_rank": 11, "activity_0_modifier": -2, "defense_0": 10, "next_malus_0": -4},
        ),
        Example(
            key="poignard_de_cristal_anticipe",
            title="Le souffle de flammes anticipé au rang 15",
            source=f"{SEED_FILE} — Changement d'intention, « souffler dès le rang 15 »",
            request=_action(
                (cristal, gardien),
                (
                    Activity(
                        0,
                        attack,
                        "crache un souffle de flammes",
                        targets="1",
                        rank=15,
                        change=Change(
                            rank=15,
                            tactic=Tactic(initiative=0, attack=2, defense=-2),
                            new_tactic=True,
                            note="souffle de flammes",
                        ),
                        term=0,
                    ),
                ),
            ),
            # at −6 (−2 and −4 of anticipation); Défense −10 for this Action only
            expected={"activity_0_rank": 15, "activity_0_modifier": -6, "defense_0": 6, "next_malus_0": -4},
        ),
        Example(
            key="ogre_sylphes_action",
            title="La horde de Sylphes attaque l'Ogre adossé à la paroi",
            source=f"{SEED_FILE} — Adversaires multiples, « un Ogre de taille +2 »",
            request=_action(
                (ogre_adosse, *sylphes),
                tuple(Activity(k, attack, "fond sur l'Ogre", targets="0", term=0) for k in range(1, 17)),
            ),
            # 16 Sylphes (surface 2) in 4 angles of 8: all attack; Défense (Habileté 12 − Taille 2) − 6 = 4
            expected={"defense_0": 4, "activity_0_margin_0": 14, "activity_15_margin_0": 14},
        ),
        Example(
            key="geants_feu_follet_action",
            title="Deux Géants veulent écraser un Feu follet",
            source=f"{SEED_FILE} — Adversaires multiples, « deux Géants (Taille +4) »",
            request=_action(
                (feu_follet, geant_1, geant_2),
                (
                    Activity(1, attack, "tente d'écraser le Feu follet", targets="0", term=0),
                    Activity(2, attack, "tente d'écraser aussi le Feu follet", targets="0", term=0),
                ),
            ),
            # only the first Giant reaches it; no angle malus (Défense 20 + 4 = 24)
            expected={"activity_0_margin_0": 10 - 24, "activity_1_margin_0": None, "defense_0": 24},
        ),
        Example(
            key="ogre_farfadets",
            title="L'Ogre affamé et la bande de Farfadets et de Lutins",
            source=f"{SEED_FILE} — Adversaires multiples, « un Ogre affamé de taille +2 »",
            request=_action(
                (ogre, *lutins, *farfadets),
                (Activity(0, attack, "engloutit une bouchée", targets="1,2,3,4,5,6", term=0),),
            ),
            # 2 Lutins (2 × 2) + 4 Farfadets (4 × 1) = 8: one roll, 16 against each Défense
            expected={
                "activity_0_total": 16,
                "activity_0_margin_1": 0,
                "activity_0_lost_1": 14,
                "activity_0_margin_3": -2,
            },
        ),
    )
