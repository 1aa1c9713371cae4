"""Aventuriers — worked examples.

The seed states its rules without numbered examples, so each example here is the seed's own
sentence played out with the default dice (faces "à vérifier sur vos dés"): one request per rule,
with the dice typed face by face, and what the rule makes of them. Faces of the defaults:

* Dé noir: 1 💥 · 2 💥💥 · 3 💥💥💥 · 4 🛡 · 5 🛡🛡 · 6 💥🛡⚡
* Dé bleu: 1 💥 · 2 💥⚡ · 3 💥💥 · 4 🛡 · 5 🛡⚡ · 6 ⚡⚡
"""

from __future__ import annotations

from typing import Any

from rulesets.core.results import Example

SEED = "001_98d48faccdd02c66"

PROPER_F: dict[str, str] = {"article": "propre", "gender": "f", "elision": "auto"}
DEFINITE_M: dict[str, str] = {"article": "defini", "gender": "m", "elision": "auto"}

HERO: dict[str, Any] = {
    "name": "Elwen",
    "grammar": PROPER_F,
    "side": "aventurier",
    "pv": 8,
    "stamina": 1,
    "weapon": {"name": "Épée longue", "reach": "melee", "dice": [{"die": "bleu", "count": 2}]},
    "defence": [{"die": "noir", "count": 1, "protection": True}, {"die": "bleu", "count": 1}],
}
GOBLIN: dict[str, Any] = {
    "name": "Gobelin",
    "grammar": DEFINITE_M,
    "side": "monstre",
    "pv": 3,
    "px": 2,
    "weapon": {"name": "Coutelas", "dice": [{"die": "bleu", "count": 1}]},
    "defence": [{"die": "bleu", "count": 1}],
}
ORC: dict[str, Any] = {
    "name": "Orc",
    "grammar": DEFINITE_M,
    "side": "monstre",
    "pv": 5,
    "px": 4,
    "weapon": {"name": "Hache", "dice": [{"die": "noir", "count": 1}]},
    "defence": [{"die": "noir", "count": 1}, {"die": "bleu", "count": 1}],
}
SKELETON: dict[str, Any] = {
    "name": "Squelette",
    "grammar": DEFINITE_M,
    "side": "monstre",
    "pv": 4,
    "px": 3,
    "weapon": {"name": "Lance rouillée", "dice": [{"die": "bleu", "count": 2}]},
    "defence": [{"die": "bleu", "count": 2}, {"die": "noir", "count": 1}],
}


def _with(base: dict[str, Any], **changes: Any) -> dict[str, Any]:
    out = dict(base)
    out.update(changes)
    return out


def _ex(
    key: str, title: str, section: str, scenario: dict[str, Any], dice: dict[str, int], outcome: str, **numbers: Any
) -> Example:
    return Example(
        key=key,
        title=title,
        source=f"{SEED} — {section}",
        request={"scenario": scenario, "dice": {k: str(v) for k, v in dice.items()}},
        expected={"outcome": outcome, "numbers": numbers},
    )


def examples() -> tuple[Example, ...]:
    """Each rule of the seed, played with typed dice."""
    return (
        _ex(
            "attaque_de_melee",
            "Attaque de mêlée : 3 💥 contre 1 🛡, l'éclair donne 1 stamina",
            "Jets d'attaque et de défense",
            {"attacker": HERO, "defender": GOBLIN},
            {"attaque.1": 3, "attaque.2": 2, "defense.1": 4},
            "blesse",
            damage=3,
            shields=1,
            pv_lost=2,
            defender_pv_after=1,
            attacker_stamina_gained=1,
            attacker_stamina_after=2,
            engaged_after=True,
        ),
        _ex(
            "monstre_tue_px",
            "Un Monstre tué : l'Aventurier gagne les PX de sa carte",
            "Attaque de mêlée",
            {"attacker": HERO, "defender": GOBLIN},
            {"attaque.1": 3, "attaque.2": 1, "defense.1": 6},
            "tue",
            damage=3,
            shields=0,
            pv_lost=3,
            defender_killed=True,
            px_gained=2,
            defender_stamina_gained=0,
            engaged_after=False,
        ),
        _ex(
            "defense_sans_degat",
            "On se défend même sans dégât : la défense rapporte 2 stamina",
            "Jets d'attaque et de défense",
            {"attacker": GOBLIN, "defender": HERO},
            {"attaque.1": 6, "defense.1": 6, "defense.2": 5},
            "indemne",
            damage=0,
            shields=2,
            pv_lost=0,
            defender_stamina_gained=2,
            defender_stamina_after=3,
            attacker_stamina_gained=0,
        ),
        _ex(
            "monstre_certain_d_etre_tue",
            "Un Monstre certain d'être tué se défend quand même",
            "Jets d'attaque et de défense",
            {
                "attacker": _with(HERO, weapon={"name": "Masse", "dice": [{"die": "noir", "count": 2}]}),
                "defender": GOBLIN,
            },
            {"attaque.1": 3, "attaque.2": 3, "defense.1": 4},
            "tue",
            damage=6,
            defence_dice=1,
            shields=1,
            pv_lost=3,
            px_gained=2,
        ),
        _ex(
            "degats_imparables",
            "Sort imparable à distance : pas de jet de défense",
            "Jets d'attaque et de défense (imparable)",
            {
                "mode": "distance",
                "attacker": _with(
                    HERO,
                    weapon={
                        "name": "Trait de feu",
                        "reach": "distance",
                        "spell": True,
                        "unblockable": True,
                        "dice": [{"die": "noir", "count": 1}],
                    },
                ),
                "defender": ORC,
                "board": {"dx": 0, "dy": -3, "attacker_facing": "sud", "target_facing": "nord"},
            },
            {"attaque.1": 3},
            "blesse",
            damage=3,
            defence_dice=0,
            pv_lost=3,
            defender_pv_after=2,
            engaged_after=False,
        ),
        _ex(
            "riposte_contrecoup",
            "Riposte avec Contrecoup : 3 🛡 + 1 = 4 dégâts-éclairs, défense-éclair limitée à 2 dés",
            "Talents de réaction (Riposte, Contrecoup)",
            {"attacker": ORC, "defender": _with(HERO, riposte=True, contrecoup=True)},
            {"attaque.1": 2, "defense.1": 5, "defense.2": 4, "riposte.1": 4, "riposte.2": 1},
            "indemne",
            damage=2,
            shields=3,
            pv_lost=0,
            riposte=True,
            riposte_damage=4,
            riposte_dice=2,
            attacker_pv_lost=3,
            attacker_pv_after=2,
            attacker_killed=False,
            engaged_after=True,
        ),
        _ex(
            "pas_de_riposte_si_pv_perdu",
            "Pas de Riposte quand le défenseur perd un PV",
            "Talents de réaction (Riposte)",
            {"attacker": ORC, "defender": _with(HERO, riposte=True)},
            {"attaque.1": 3, "defense.1": 4, "defense.2": 4},
            "blesse",
            damage=3,
            shields=2,
            pv_lost=1,
            riposte=False,
            attacker_pv_lost=0,
        ),
        _ex(
            "riposte_tue_l_attaquant",
            "La Riposte tue le Gobelin : les PX vont au défenseur",
            "Talents de réaction (Riposte) et Attaque de mêlée",
            {"attacker": GOBLIN, "defender": _with(HERO, riposte=True)},
            {"attaque.1": 1, "defense.1": 5, "defense.2": 4, "riposte.1": 1},
            "indemne",
            riposte=True,
            riposte_damage=3,
            riposte_dice=1,
            attacker_pv_lost=3,
            attacker_killed=True,
            defender_px_gained=2,
            engaged_after=False,
        ),
        _ex(
            "attaque_eclair",
            "Attaque éclair : la cible sort de la zone, défense-éclair noir puis bleu",
            "Dégâts-éclairs et Talents de réaction (Attaque éclair)",
            {"action": "sortie_de_zone", "attacker": _with(HERO, attaque_eclair=True), "defender": SKELETON},
            {"attaque.1": 3, "attaque.2": 5, "defense.1": 4, "defense.2": 6},
            "blesse",
            flash=True,
            damage=2,
            defence_dice=2,
            shields=1,
            pv_lost=1,
            attacker_stamina_gained=0,
            engaged_after=False,
        ),
        _ex(
            "defense_eclair_plafonnee",
            "Défense-éclair : autant de dés que de dégâts-éclairs, dans la limite du jet de défense",
            "Dégâts-éclairs",
            {
                "action": "sortie_de_zone",
                "attacker": _with(
                    HERO, attaque_eclair=True, weapon={"name": "Masse", "dice": [{"die": "noir", "count": 2}]}
                ),
                "defender": GOBLIN,
            },
            {"attaque.1": 2, "attaque.2": 2, "defense.1": 5},
            "tue",
            damage=4,
            defence_dice=1,
            shields=1,
            pv_lost=3,
            defender_killed=True,
            px_gained=2,
        ),
        _ex(
            "attaque_d_opportunite",
            "Attaque d'opportunité au début de la phase des Aventuriers",
            "Talents de réaction (Attaque d'opportunité)",
            {"action": "debut_de_phase", "attacker": _with(HERO, attaque_opportunite=True), "defender": ORC},
            {"attaque.1": 1, "attaque.2": 6, "defense.1": 6},
            "indemne",
            flash=True,
            damage=1,
            defence_dice=1,
            shields=1,
            pv_lost=0,
            attacker_stamina_gained=0,
            engaged_after=False,
        ),
        _ex(
            "attaque_eclair_engage",
            "Engagé au combat, pas d'Attaque éclair",
            "Engagement",
            {
                "action": "sortie_de_zone",
                "attacker": _with(HERO, attaque_eclair=True),
                "defender": ORC,
                "board": {"engaged_together": True},
            },
            {},
            "impossible",
            allowed=False,
            pv_lost=0,
        ),
        _ex(
            "distance_adjacent_interdit",
            "Pas d'attaque à distance contre un ennemi adjacent",
            "Attaque à distance",
            {
                "mode": "distance",
                "attacker": _with(
                    HERO, weapon={"name": "Arc court", "reach": "distance", "dice": [{"die": "bleu", "count": 2}]}
                ),
                "defender": GOBLIN,
            },
            {},
            "impossible",
            allowed=False,
            ranged_allowed=False,
            adjacent=True,
        ),
        _ex(
            "coup_bas_attaque_de_dos",
            "Attaque de dos avec Coup bas : +1 💥, et l'attaque de dos n'engage pas",
            "Orientation et zones ; Engagement",
            {
                "attacker": _with(HERO, coup_bas=True),
                "defender": ORC,
                "board": {"dx": 0, "dy": 1, "attacker_facing": "nord", "target_facing": "nord"},
            },
            {"attaque.1": 1, "attaque.2": 1, "defense.1": 4, "defense.2": 1},
            "blesse",
            back_attack=True,
            damage_rolled=2,
            damage_bonus=1,
            damage=3,
            shields=1,
            pv_lost=2,
            engaged_after=False,
        ),
        _ex(
            "test_de_reussite_deux_eclairs",
            "Test de réussite : 2 éclairs, sans stamina",
            "Test de réussite",
            {"action": "test_de_reussite", "attacker": HERO, "effect_two": "Le sort frappe toute la salle."},
            {"test": 6},
            "deux_eclairs",
            lightning=2,
            effect="Le sort frappe toute la salle.",
            attacker_stamina_gained=0,
        ),
        _ex(
            "test_de_reussite_un_eclair",
            "Test de réussite : 1 éclair",
            "Test de réussite",
            {"action": "test_de_reussite", "attacker": HERO},
            {"test": 5},
            "un_eclair",
            lightning=1,
        ),
        _ex(
            "test_de_reussite_aucun_eclair",
            "Test de réussite : aucun éclair",
            "Test de réussite",
            {"action": "test_de_reussite", "attacker": HERO},
            {"test": 4},
            "aucun_eclair",
            lightning=0,
        ),
        _ex(
            "saisie_par_totaux",
            "Saisie des totaux lus sur les dés : 4 💥 et 2 ⚡ contre 1 🛡",
            "Jets d'attaque et de défense",
            {
                "entry": "totaux",
                "attacker": _with(
                    HERO, weapon={"name": "Fléau", "dice": [{"die": "noir", "count": 1}, {"die": "bleu", "count": 2}]}
                ),
                "defender": ORC,
                "attack_totals": {"damage": 4, "shield": 0, "lightning": 2},
                "defence_totals": {"damage": 0, "shield": 1, "lightning": 0},
            },
            {},
            "blesse",
            damage=4,
            shields=1,
            pv_lost=3,
            attacker_stamina_gained=2,
        ),
    )
