"""The seed's worked examples as ready-to-post resolve requests."""

from __future__ import annotations

from rulesets.core.i18n import _
from rulesets.core.results import Example

ALDRIC = {
    "name": "Aldric",
    "attribute": 3,
    "speciality": True,
    "weapon": 3,
    "armour": 1,
    "cover": 2,
    "sante": 8,
    "sante_max": 8,
    "stress": 0,
}
# common nouns said with their article (issue 15): « l'Arbalétrier », « le Capitaine », « la Brute »
MASCULINE = {"article": "defini", "gender": "m", "elision": "auto"}
FEMININE = {"article": "defini", "gender": "f", "elision": "auto"}
ARBALETRIER = {"name": "Arbalétrier", "grammar": MASCULINE, "menace": 2, "sante": 4, "weapon": 3, "protection": 0}


def examples() -> tuple[Example, ...]:
    source = _("Les conflits — Attaquer et blesser (exemple d'Aldric)")
    return (
        Example(
            key="aldric-tour-1",
            title=_("Aldric contre l'arbalétrier, premier tour : réussite partielle et brèche"),
            source=source,
            request={
                "scenario": {"action": "attaque", "pc": ALDRIC, "npcs": [ARBALETRIER]},
                "dice": {"pc.1": 5, "pc.2": 2, "pc.3": 3, "pc.4": 1, "pc.5": 4},
            },
            expected={
                "outcome": "partielle",
                "numbers": {
                    "pool": 5,
                    "successes": 1,
                    "damage_dealt": 3,
                    "npc_sante_after": 1,
                    "breach": True,
                    "strike_damage": 1,
                    "pc_sante_after": 7,
                    "pc_stress_after": 1,
                    "pc_tier_after": "Valide",
                },
            },
        ),
        Example(
            key="aldric-tour-2",
            title=_("Aldric contre l'arbalétrier, second tour : 3 succès, l'arbalétrier tombe"),
            source=source,
            request={
                "scenario": {
                    "action": "attaque",
                    "pc": {**ALDRIC, "sante": 7, "stress": 1},
                    "npcs": [{**ARBALETRIER, "sante": 1}],
                },
                "dice": {"pc.1": 6, "pc.2": 5, "pc.3": 5, "pc.4": 2, "pc.5": 1},
            },
            expected={
                "outcome": "reussite",
                "numbers": {"successes": 3, "damage_dealt": 4, "npc_sante_after": 0, "breach": False},
            },
        ),
        Example(
            key="concentrer-menace-3",
            title=_("Un PNJ de Menace 3 à l'arme 4 concentre ses trois attaques : 6 dégâts"),
            source=_("Les conflits — Les attaques des PNJ"),
            request={
                "scenario": {
                    "action": "attaque",
                    "pc": {"name": "PJ", "attribute": 2, "sante": 10, "sante_max": 10},
                    "npcs": [{"name": "Capitaine", "grammar": MASCULINE, "menace": 3, "sante": 6, "weapon": 4}],
                    "strike": {"attacks": 3},
                },
                "dice": {"pc.1": 1, "pc.2": 2},
            },
            expected={"outcome": "echec", "numbers": {"strike_damage": 6, "pc_sante_after": 4, "breach": True}},
        ),
        Example(
            key="couvert-gilet-voiture",
            title=_("Un PJ en gilet (1) derrière une voiture (2) a Protection 2"),
            source=_("Les conflits — Couvert"),
            request={
                "scenario": {
                    "action": "attaque",
                    "pc": {"name": "PJ", "attribute": 2, "armour": 1, "cover": 2},
                    "npcs": [{"name": "Tireur", "grammar": MASCULINE, "menace": 2, "sante": 3, "weapon": 3}],
                },
                "dice": {"pc.1": 1, "pc.2": 1},
            },
            expected={"outcome": "echec", "numbers": {"strike_damage": 1, "pc_sante_after": 7}},
        ),
        Example(
            key="arme-3-protection-3",
            title=_("Sans concentrer, une arme 3 ne blesse pas un PJ en Protection 3"),
            source=_("Les conflits — Couvert"),
            request={
                "scenario": {
                    "action": "attaque",
                    "pc": {"name": "PJ", "attribute": 2, "cover": 3},
                    "npcs": [{"name": "Brute", "grammar": FEMININE, "menace": 2, "sante": 3, "weapon": 3}],
                },
                "dice": {"pc.1": 4, "pc.2": 3},
            },
            expected={"outcome": "echec", "numbers": {"strike_damage": 0, "pc_sante_after": 8, "pc_stress_after": 0}},
        ),
    )
