"""Each special rule of the seed's §14 (and the defence and effect rules it relies on), step by step."""

from __future__ import annotations

import pytest

from rulesets.core.dice import fixed_roll
from rulesets.core.french import typography as fr
from rulesets.nephilim.engine import dice_for, plan, read_roll, resolve
from rulesets.nephilim.examples import DEFINITE_M
from rulesets.nephilim.model import Scenario
from tests.rulesets.nephilim.helpers import (
    approach,
    att_fx,
    attacker,
    def_fx,
    defence,
    defender,
    protection,
    ranged,
    run,
    scenario,
    weapon,
)

# --------------------------------------------------------------------------- the roll


def test_the_threshold_is_ten_times_the_effective_degree() -> None:
    roll = read_roll(60, 6)
    assert (roll.threshold, roll.success, roll.margin) == (60, True, 0)
    assert not read_roll(61, 6).success


@pytest.mark.parametrize("face", [11, 22, 33, 44, 55])
def test_a_double_under_the_threshold_is_a_critique(face: int) -> None:
    roll = read_roll(face, 6)
    assert roll.critical
    assert roll.success
    assert not roll.fumble


@pytest.mark.parametrize("face", [66, 77, 88, 99])
def test_a_double_over_the_threshold_is_a_maladresse(face: int) -> None:
    roll = read_roll(face, 6)
    assert roll.fumble
    assert not roll.success


def test_a_hundred_is_a_maladresse_whatever_the_threshold() -> None:
    roll = read_roll(100, 15)
    assert roll.fumble
    assert not roll.success
    assert roll.threshold == 150


def test_the_margin_counts_whole_degrees_under_the_threshold() -> None:
    assert read_roll(5, 15).margin == 14
    assert read_roll(5, 15).choices == 4
    assert read_roll(45, 15).choices == 0


# --------------------------------------------------------------------------- attack degree


def test_a_nephilim_adds_an_approach_allowed_by_the_chosen_attack_approach() -> None:
    scn = scenario(attacker(approach=approach("Attaque en force"), approach_element="feu", approach_value=4))
    result = run(scn, attaque_1=95)
    assert result.numbers["attack_degree"] == 6 + 4 + 3


def test_spells_written_plus_n_are_degrees_and_furie_makes_force_plus_six() -> None:
    scn = scenario(attacker(approach=approach("Attaque en force"), effects=[att_fx("Furie pyrétique")]))
    assert run(scn, attaque_1=95).numbers["attack_degree"] == 6 + 3 + 3
    plain = scenario(attacker(effects=[att_fx("Furie pyrétique")]))
    assert run(plain, attaque_1=95).numbers["attack_degree"] == 6


def test_sublimation_needs_an_approach_above_zero() -> None:
    with_approach = scenario(
        attacker(
            approach=approach("Attaque en force"),
            approach_element="terre",
            approach_value=2,
            effects=[att_fx("Sublimation élémentaire")],
        )
    )
    assert run(with_approach, attaque_1=95).numbers["attack_degree"] == 6 + 2 + 3 + 2
    without = scenario(attacker(effects=[att_fx("Sublimation élémentaire")]))
    assert run(without, attaque_1=95).numbers["attack_degree"] == 6


def test_amethyste_gives_plus_six_only_with_a_ka_feu_approach() -> None:
    feu = scenario(
        attacker(
            approach=approach("Attaque en force"),
            approach_element="feu",
            approach_value=1,
            effects=[att_fx("Améthyste revêtue de flammes")],
        )
    )
    assert run(feu, attaque_1=95).numbers["attack_degree"] == 6 + 1 + 3 + 6
    terre = scenario(
        attacker(
            approach=approach("Attaque en force"),
            approach_element="terre",
            approach_value=1,
            effects=[att_fx("Améthyste revêtue de flammes")],
        )
    )
    assert run(terre, attaque_1=95).numbers["attack_degree"] == 6 + 1 + 3


def test_a_melee_only_effect_does_nothing_at_range_and_says_so() -> None:
    scn = ranged(
        attacker(
            approach=approach("Tir (visée 1r)"), weapon=weapon("Arc"), effects=[att_fx("Parfum de concentration")]
        ),
        defender(defence=defence("Encaisser les dommages", "tir")),
    )
    result = run(scn, attaque_1=95)
    assert result.numbers["attack_degree"] == 6
    assert any(e.kind == "effect_off" and e.label.startswith("Parfum de concentration") for e in result.events)


# --------------------------------------------------------------------------- defence degree


def test_each_defence_beyond_the_first_costs_two_degrees() -> None:
    scn = scenario(attacker(), defender(defence=defence("Parer"), defence_number=3))
    assert run(scn, attaque_1=20, defense_1=95).numbers["defence_degree"] == 5 - 4


def test_defence_elaboree_removes_the_extra_defence_malus() -> None:
    scn = scenario(attacker(), defender(defence=defence("Déf. élaborée"), defence_number=3))
    assert run(scn, attaque_1=20, defense_1=95).numbers["defence_degree"] == 5


def test_esprit_de_la_24e_partie_removes_the_malus_and_adds_five() -> None:
    scn = scenario(
        attacker(),
        defender(defence=defence("Parer"), defence_number=2, effects=[def_fx("Esprit de la 24e partie d'un instant")]),
    )
    assert run(scn, attaque_1=20, defense_1=95).numbers["defence_degree"] == 5 + 5


def test_liqueur_du_mouvant_adds_two_only_to_the_first_defence() -> None:
    first = scenario(attacker(), defender(defence=defence("Parer"), effects=[def_fx("Liqueur du mouvant")]))
    assert run(first, attaque_1=20, defense_1=95).numbers["defence_degree"] == 7
    second = scenario(
        attacker(), defender(defence=defence("Parer"), defence_number=2, effects=[def_fx("Liqueur du mouvant")])
    )
    assert run(second, attaque_1=20, defense_1=95).numbers["defence_degree"] == 5


def test_desarmer_costs_four_or_eight_degrees() -> None:
    armed = scenario(attacker(), defender(defence=defence("Désarmer (avec arme)")))
    bare = scenario(attacker(), defender(defence=defence("Désarmer (sans arme)"), degree=10))
    assert run(armed, attaque_1=20, defense_1=95).numbers["defence_degree"] == 1
    assert run(bare, attaque_1=20, defense_1=95).numbers["defence_degree"] == 2


def test_attaque_subtile_lowers_the_defence_by_four_only_when_it_hits() -> None:
    scn = scenario(attacker(approach=approach("Attaque subtile")), defender(defence=defence("Parer"), degree=8))
    assert run(scn, attaque_1=20, defense_1=95).numbers["defence_degree"] == 4
    assert run(scn, attaque_1=70, defense_1=95).numbers["defence_degree"] == 8


def test_spasmes_de_furies_costs_two_defence_degrees_after_a_failed_ka_dominant() -> None:
    failed = scenario(
        attacker(effects=[att_fx("Spasmes de furies")]), defender(defence=defence("Parer"), failed_ka_dominant=True)
    )
    assert run(failed, attaque_1=20, defense_1=95).numbers["defence_degree"] == 3


def test_a_nephilim_defender_adds_an_approach_allowed_by_the_defence_type() -> None:
    scn = scenario(attacker(), defender(defence=defence("Esquiver"), approach_element="air", approach_value=3))
    assert run(scn, attaque_1=20, defense_1=95).numbers["defence_degree"] == 8


def test_colibris_de_brume_helps_only_a_dodge() -> None:
    dodge = scenario(attacker(), defender(defence=defence("Esquiver"), effects=[def_fx("Colibris de brume")]))
    parry = scenario(attacker(), defender(defence=defence("Parer"), effects=[def_fx("Colibris de brume")]))
    assert run(dodge, attaque_1=20, defense_1=95).numbers["defence_degree"] == 9
    assert run(parry, attaque_1=20, defense_1=95).numbers["defence_degree"] == 5


# --------------------------------------------------------------------------- damage pipeline


def test_critique_doubles_raw_damage_before_protection() -> None:
    scn = scenario(attacker(weapon=weapon("Marteau")), defender(protections=[protection("Gilet pare-balles léger")]))
    critical = run(scn, attaque_1=44)
    assert critical.numbers["phys_raw"] == 3
    assert critical.numbers["phys_taken"] == 3 * 2 - 2  # not (3 − 2) × 2
    assert run(scn, attaque_1=45).numbers["phys_taken"] == 1


def test_critique_doubles_mag_too() -> None:
    scn = scenario(attacker(weapon=weapon("Glaive élémentaire de Lune")), defender())
    assert (run(scn, attaque_1=22).numbers["phys_taken"], run(scn, attaque_1=22).numbers["mag_taken"]) == (6, 6)


def test_minimum_one_phys_for_a_weapon_of_degree_two_or_more() -> None:
    scn = scenario(attacker(), defender(protections=[protection("Protection militaire intégrale")]))
    assert run(scn, attaque_1=20).numbers["phys_taken"] == 1


def test_no_minimum_for_a_weapon_of_degree_one() -> None:
    scn = scenario(attacker(weapon=weapon("Dague")), defender(protections=[protection("Armure de cuir légère")]))
    assert run(scn, attaque_1=20).numbers["phys_taken"] == 0


def test_no_minimum_after_a_successful_dodge() -> None:
    scn = scenario(attacker(weapon=weapon("Marteau")), defender(defence=defence("Esquiver")))
    result = run(scn, attaque_1=20, defense_1=20)
    assert (result.numbers["phys_taken"], result.outcome) == (0, "dodged")


def test_the_minimum_does_not_apply_to_mag() -> None:
    scn = scenario(
        attacker(weapon=weapon("Glaive élémentaire d'Eau")),
        defender(protections=[protection("Gardien silencieux (invoc. Ka-Terre)")]),
    )
    result = run(scn, attaque_1=20)
    assert (result.numbers["phys_taken"], result.numbers["mag_taken"]) == (1, 0)


def test_no_damage_when_the_attack_fails() -> None:
    result = run(scenario(), attaque_1=70)
    assert (result.numbers["phys_taken"], result.outcome) == (0, "miss")


def test_point_faible_ignores_mundane_armour_but_not_the_phalange() -> None:
    pf = attacker(weapon=weapon("Marteau"), effects=[att_fx("Point faible")])
    mundane = run(scenario(pf, defender(protections=[protection("Protection militaire")])), attaque_1=20)
    phalange = run(scenario(pf, defender(protections=[protection("Militaire (Phalange)")])), attaque_1=20)
    assert mundane.numbers["phys_taken"] == 3
    assert phalange.numbers["phys_taken"] == 1  # 3 − 5 → 0, minimum 1


def test_point_faible_leaves_the_cavalier_shield_and_effect_bonuses() -> None:
    pf = attacker(weapon=weapon("Arme magique des Dames du Lac (invoc.)"), effects=[att_fx("Point faible")])
    d = defender(
        protections=[protection("Gilet pare-balles léger"), protection("Cavalier à la targe parcheminée")],
        effects=[def_fx("Réduction de la faille du bouclier")],
    )
    result = run(scenario(pf, d), attaque_1=20)
    assert result.numbers["phys_taken"] == 1  # 4 − (0 + 4 + 3) → 0, minimum 1


def test_the_phalange_invocation_makes_the_defenders_armour_magical() -> None:
    pf = attacker(weapon=weapon("Arme magique des Dames du Lac (invoc.)"), effects=[att_fx("Point faible")])
    d = defender(protections=[protection("Armure de cuir légère")], effects=[def_fx("Phalange d'airain")])
    assert run(scenario(pf, d), attaque_1=20).numbers["phys_taken"] == 1  # 4 − (1 + 2)


def test_a_glaive_pierces_mundane_armour() -> None:
    scn = scenario(
        attacker(weapon=weapon("Glaive élémentaire de Terre")),
        defender(protections=[protection("Protection militaire intégrale")]),
    )
    result = run(scn, attaque_1=20)
    assert (result.numbers["phys_taken"], result.numbers["mag_taken"]) == (3, 3)


def test_a_glaive_against_a_mantle_of_the_same_element_is_cancelled_entirely() -> None:
    scn = scenario(
        attacker(weapon=weapon("Glaive élémentaire d'Air")),
        defender(protections=[protection("Manteau élémentaire d'Air")]),
    )
    result = run(scn, attaque_1=22)  # even a critique
    assert (result.numbers["phys_taken"], result.numbers["mag_taken"], result.numbers["cancelled"]) == (0, 0, True)


def test_a_glaive_against_a_mantle_of_another_element_keeps_the_minimum() -> None:
    scn = scenario(
        attacker(weapon=weapon("Glaive élémentaire d'Air")),
        defender(protections=[protection("Manteau élémentaire de Lune")]),
    )
    result = run(scn, attaque_1=20)
    assert (result.numbers["phys_taken"], result.numbers["mag_taken"]) == (1, 0)


def test_corps_brumeux_lets_only_the_magical_part_through() -> None:
    scn = scenario(attacker(weapon=weapon("Membre embrasé")), defender(effects=[def_fx("Corps brumeux")]))
    result = run(scn, attaque_1=20)
    assert (result.numbers["phys_taken"], result.numbers["mag_taken"]) == (0, 2)


def test_regisseur_de_fureur_cancels_physical_damage_without_minimum() -> None:
    scn = scenario(attacker(weapon=weapon("Marteau")), defender(effects=[def_fx("Régisseur de fureur")]))
    assert run(scn, attaque_1=20).numbers["phys_taken"] == 0


def test_armure_invincible_cancels_everything() -> None:
    scn = scenario(
        attacker(weapon=weapon("Glaive élémentaire de Feu")), defender(effects=[def_fx("Armure invincible")])
    )
    result = run(scn, attaque_1=11)
    assert (result.numbers["phys_taken"], result.numbers["mag_taken"]) == (0, 0)


def _retenue(total_bonus: int) -> int:
    """Marteau (3) + Prince (+3) + extra PHYS from Pierre d'affûtage and Ka-Feu, against Retenue."""
    fx = [att_fx("Prince de la spirale")] + ([att_fx("Pierre d'affûtage lumineux")] if total_bonus >= 1 else [])
    ka = {0: 0, 1: 0, 2: 5, 3: 10}[total_bonus]
    scn = scenario(
        attacker(weapon=weapon("Arme magique des Dames du Lac (invoc.)"), effects=fx, ka_feu=ka),
        defender(effects=[def_fx("Retenue du souffle de la Chrysopée")]),
    )
    result = run(scn, attaque_1=20)
    assert result.numbers["phys_raw"] == 4 + 3 + total_bonus
    return int(result.numbers["phys_taken"])  # type: ignore[arg-type]


def test_retenue_du_souffle_cancels_ten_and_takes_ten_off_eleven() -> None:
    assert _retenue(3) == 0  # 10 → cancelled
    with_eleven = scenario(
        attacker(
            weapon=weapon("Arme magique des Dames du Lac (invoc.)"),
            approach=approach("Attaque puissante"),
            effects=[att_fx("Prince de la spirale")],
            ka_feu=10,
        ),
        defender(effects=[def_fx("Retenue du souffle de la Chrysopée")]),
    )
    result = run(with_eleven, attaque_1=20)
    assert (result.numbers["phys_raw"], result.numbers["phys_taken"]) == (11, 1)


def test_retenue_du_souffle_counts_mag_in_the_total() -> None:
    scn = scenario(
        attacker(weapon=weapon("Glaive élémentaire de Feu"), approach=approach("Attaque puissante")),
        defender(effects=[def_fx("Retenue du souffle de la Chrysopée")]),
    )
    crit = run(scn, attaque_1=22)  # (3+2)×2 = 10 PHYS, 3×2 = 6 MAG: 16 → −10 from PHYS first
    # Issue 14: « −10 aux dommages totaux » leaves 6 in all; the minimum of 1 PHYS does not come back.
    assert (crit.numbers["phys_taken"], crit.numbers["mag_taken"]) == (0, 6)


def test_retenue_can_take_the_ten_from_mag_first_as_a_setting() -> None:
    scn = scenario(
        attacker(weapon=weapon("Glaive élémentaire de Feu"), approach=approach("Attaque puissante")),
        defender(effects=[def_fx("Retenue du souffle de la Chrysopée")]),
        settings={"retenue_order": "mag_dabord"},
    )
    crit = run(scn, attaque_1=22)  # 10 PHYS + 6 MAG: −6 MAG, then −4 PHYS
    assert (crit.numbers["phys_taken"], crit.numbers["mag_taken"]) == (6, 0)


@pytest.mark.parametrize(("ka_feu", "bonus"), [(4, 0), (5, 1), (9, 1), (10, 2)])
def test_ka_feu_adds_to_melee_damage(ka_feu: int, bonus: int) -> None:
    scn = scenario(attacker(ka_feu=ka_feu), defender())
    assert run(scn, attaque_1=20).numbers["phys_taken"] == 2 + bonus


def test_ka_feu_follows_the_weapons_type_into_mag() -> None:
    scn = scenario(attacker(ka_feu=10, weapon=weapon("Membre embrasé")), defender())
    result = run(scn, attaque_1=20)
    assert (result.numbers["phys_taken"], result.numbers["mag_taken"]) == (4, 4)


def test_ka_feu_does_not_apply_to_shooting() -> None:
    scn = ranged(
        attacker(ka_feu=10, approach=approach("Tir (visée 1r)"), weapon=weapon("Arc")),
        defender(defence=defence("Encaisser les dommages", "tir")),
    )
    assert run(scn, attaque_1=20).numbers["phys_taken"] == 2


def test_ka_feu_applies_to_throwing() -> None:
    scn = scenario(
        attacker(ka_feu=5, approach=approach("Lancer"), weapon=weapon("Javelot")),
        defender(defence=defence("Encaisser les dommages", "lancer")),
        mode="lancer",
    )
    assert run(scn, attaque_1=20).numbers["phys_taken"] == 3


def test_a_defender_who_is_not_magic_sensitive_ignores_mag() -> None:
    weapon_row = weapon("Glaive élémentaire de Feu")
    human = run(scenario(attacker(weapon=weapon_row), defender(kind="autre")), attaque_1=20)
    selenim = run(scenario(attacker(weapon=weapon_row), defender(kind="selenim")), attaque_1=20)
    assert (human.numbers["mag_taken"], selenim.numbers["mag_taken"]) == (0, 3)
    assert any(e.kind == "insensitive" for e in human.events)


def test_the_game_master_may_force_magic_sensitivity() -> None:
    scn = scenario(attacker(weapon=weapon("Glaive élémentaire de Feu")), defender(kind="autre", sensitivity="sensible"))
    assert run(scn, attaque_1=20).numbers["mag_taken"] == 3


def test_attaque_puissante_adds_two_phys_only() -> None:
    scn = scenario(attacker(weapon=weapon("Membre embrasé"), approach=approach("Attaque puissante")), defender())
    result = run(scn, attaque_1=20)
    assert (result.numbers["phys_taken"], result.numbers["mag_taken"]) == (4, 2)


def test_prince_de_la_spirale_damage_follows_the_weapon_and_weakens_the_next_attack() -> None:
    scn = scenario(attacker(weapon=weapon("Membre embrasé"), effects=[att_fx("Prince de la spirale")]), defender())
    result = run(scn, attaque_1=20)
    assert (result.numbers["phys_taken"], result.numbers["mag_taken"]) == (5, 5)
    assert result.numbers["next.defender_attack"] == -3


def test_attaque_etrange_leaves_the_target_at_minus_two_next_round() -> None:
    scn = scenario(attacker(approach=approach("Attaque étrange")), defender())
    assert run(scn, attaque_1=20).numbers["next.defender_actions"] == -2
    assert "next.defender_actions" not in run(scn, attaque_1=50).numbers


def test_parer_removes_two_phys_and_two_mag() -> None:
    scn = scenario(attacker(weapon=weapon("Glaive élémentaire de Feu"), ka_feu=10), defender(defence=defence("Parer")))
    result = run(scn, attaque_1=20, defense_1=20)
    assert (result.numbers["phys_taken"], result.numbers["mag_taken"]) == (3, 3)


def test_a_failed_desarmer_adds_two_phys() -> None:
    scn = scenario(attacker(), defender(defence=defence("Désarmer (avec arme)")))
    assert run(scn, attaque_1=20, defense_1=50).numbers["phys_taken"] == 4


def test_a_failed_contre_attaque_adds_two_phys_and_two_mag() -> None:
    scn = scenario(attacker(weapon=weapon("Glaive élémentaire de Feu")), defender(defence=defence("Contre-attaquer")))
    result = run(scn, attaque_1=20, defense_1=80)
    assert (result.numbers["phys_taken"], result.numbers["mag_taken"]) == (5, 5)


def test_a_successful_contre_attaque_cancels_and_asks_for_an_attack_roll() -> None:
    scn = scenario(attacker(weapon=weapon("Marteau")), defender(defence=defence("Contre-attaquer")))
    result = run(scn, attaque_1=20, defense_1=20)
    assert result.numbers["phys_taken"] == 0
    assert any("jet d'attaque" in e.value for e in result.events)


def test_fuir_escapes_but_takes_the_damage() -> None:
    scn = scenario(attacker(weapon=weapon("Marteau")), defender(defence=defence("Fuir")))
    result = run(scn, attaque_1=20, defense_1=20)
    assert result.numbers["phys_taken"] == 3
    assert any("s'échappe" in e.value for e in result.events)


def test_encaisser_reads_no_defence_die() -> None:
    scn = scenario(attacker(), defender())
    assert dice_for(scn).keys() == ("attaque.1",)


def test_eau_forte_halves_the_attackers_phys_at_range_rounding_down() -> None:
    scn = ranged(
        attacker(
            approach=approach("Tir (visée 1r)"),
            weapon=weapon("Fusil de chasse cal.12"),
            kind="autre",
            ammunition={
                "name": "Cartouches de chasse (courte portée)",
                "damage_bonus": 3,
                "compatible": "Fusil de chasse cal.12",
            },
        ),
        defender(
            defence=defence("Encaisser les dommages", "tir"), effects=[def_fx("Eau-forte des murailles d'Atlantis")]
        ),
    )
    result = run(scn, attaque_1=20)
    assert (result.numbers["phys_raw"], result.numbers["phys_taken"]) == (3, 3)  # (4 + 3) ÷ 2


def test_transmutation_du_fauve_fails_against_magical_or_elemental_weapons() -> None:
    fx = [def_fx("Transmutation du fauve d'orfèvre")]
    mundane = run(scenario(attacker(weapon=weapon("Marteau")), defender(effects=fx)), attaque_1=20)
    magical = run(scenario(attacker(weapon=weapon("Griffe noire (formule)")), defender(effects=fx)), attaque_1=20)
    assert (mundane.numbers["phys_taken"], magical.numbers["phys_taken"]) == (1, 3)


def test_the_phalange_weapon_becomes_magical_and_hits_harder() -> None:
    fx = [def_fx("Transmutation du fauve d'orfèvre")]
    scn = scenario(attacker(weapon=weapon("Marteau"), effects=[att_fx("Phalange d'airain")]), defender(effects=fx))
    assert run(scn, attaque_1=20).numbers["phys_taken"] == 5


def test_poudre_des_brasiers_needs_a_firearm() -> None:
    gun = ranged(
        attacker(
            kind="autre",
            approach=approach("Tir (visée 1r)"),
            weapon=weapon("Pistolet 9mm"),
            effects=[att_fx("Poudre des brasiers")],
        ),
        defender(defence=defence("Encaisser les dommages", "tir")),
    )
    taurus = ranged(
        attacker(
            approach=approach("Tir (visée 1r)"),
            weapon=weapon("Taurus (sort Péché d'Aldebaran)"),
            effects=[att_fx("Poudre des brasiers")],
        ),
        defender(defence=defence("Encaisser les dommages", "tir")),
    )
    assert run(gun, attaque_1=20).numbers["phys_taken"] == 3
    assert run(taurus, attaque_1=20).numbers["phys_taken"] == 4


def test_taurus_deals_mixed_damage_through_mundane_armour_but_not_an_invocation_armour() -> None:
    d = defender(defence=defence("Encaisser les dommages", "tir"), protections=[protection("Gilet pare-balles lourd")])
    elemental = defender(
        defence=defence("Encaisser les dommages", "tir"),
        protections=[protection("Puissantes cuirasses de feu (invoc. Ka-Feu)")],
    )
    att = attacker(approach=approach("Tir (visée 1r)"), weapon=weapon("Taurus (sort Péché d'Aldebaran)"))
    pierced = run(ranged(att, d), attaque_1=20)
    held = run(ranged(att, elemental), attaque_1=20)
    assert (pierced.numbers["phys_taken"], pierced.numbers["mag_taken"]) == (4, 4)
    assert (held.numbers["phys_taken"], held.numbers["mag_taken"]) == (1, 0)


def test_ammunition_adds_to_a_compatible_firearm() -> None:
    scn = ranged(
        attacker(
            kind="autre",
            approach=approach("Tir (visée 1r)"),
            weapon=weapon("Fusil d'assaut AK-47"),
            ammunition={
                "name": "Balles blindées de fusils d'assaut",
                "damage_bonus": 4,
                "compatible": "Fusil d'assaut AK-47",
            },
        ),
        defender(defence=defence("Encaisser les dommages", "tir")),
    )
    assert run(scn, attaque_1=20).numbers["phys_taken"] == 8


def test_the_cavalier_optional_bonus_adds_two_phys_and_two_mag() -> None:
    shield = protection("Cavalier à la targe parcheminée", use_optional_bonus=True)
    scn = scenario(attacker(weapon=weapon("Glaive élémentaire de Feu"), ka_feu=10), defender(protections=[shield]))
    result = run(scn, attaque_1=22)  # (3+2)×2 = 10 / 10, −6 / −6
    assert (result.numbers["phys_taken"], result.numbers["mag_taken"]) == (4, 4)


def test_immobiliser_deals_no_damage() -> None:
    scn = scenario(attacker(approach=approach("Immobiliser")), defender())
    result = run(scn, attaque_1=20)
    assert result.numbers["hit"] is True
    assert result.numbers["phys_taken"] == 0


# --------------------------------------------------------------------------- bursts, rapid attack, margins


def _burst(cadence: str, n: int, reduction: str = "toutes") -> tuple[int, ...]:
    defenders = [defender(name=f"Cible {i}", defence=defence("Encaisser les dommages", "tir")) for i in range(n)]
    scn = ranged(
        attacker(kind="autre", approach=approach("Tir (visée 1r)"), weapon=weapon("Fusil d'assaut AK-47")),
        *defenders,
        cadence=cadence,
        settings={"burst_reduction": reduction},
    )
    result = run(scn, attaque_1=20)
    return tuple(int(result.numbers[f"s{i + 1}.phys_taken"]) for i in range(n))  # type: ignore[arg-type]


def test_a_controlled_burst_adds_two_phys_to_a_single_target() -> None:
    assert _burst("raf_ctrl", 1) == (6,)


def test_a_continuous_burst_against_three_targets_loses_one_per_extra_target() -> None:
    assert _burst("raf_cont", 3) == (7, 7, 7)


def test_the_progressive_reading_of_the_burst_reduction_is_a_setting() -> None:
    assert _burst("raf_cont", 3, "progressive") == (9, 8, 7)


def test_a_burst_reads_one_attack_die_and_one_defence_die_per_column() -> None:
    defenders = [defender(name=f"Cible {i}", defence=defence("Parer arme projectiles", "tir")) for i in range(3)]
    scn = ranged(
        attacker(kind="autre", approach=approach("Tir (visée 1r)"), weapon=weapon("Fusil d'assaut AK-47")),
        *defenders,
        cadence="raf_ctrl",
    )
    assert dice_for(scn).keys() == ("attaque.1", "defense.1", "defense.2", "defense.3")


def test_coup_par_coup_reads_one_attack_die_per_target() -> None:
    defenders = [defender(name=f"Cible {i}", defence=defence("Encaisser les dommages", "tir")) for i in range(2)]
    scn = ranged(
        attacker(kind="autre", approach=approach("Tir (visée 1r)"), weapon=weapon("Pistolet 9mm")),
        *defenders,
        cadence="cpc",
    )
    assert dice_for(scn).keys() == ("attaque.1", "attaque.2")
    result = run(scn, attaque_1=20, attaque_2=90)
    assert (result.numbers["s1.phys_taken"], result.numbers["s2.phys_taken"]) == (2, 0)


def test_attaque_rapide_resolves_two_attacks_with_two_defence_numbers() -> None:
    scn = scenario(
        attacker(approach=approach("Attaque rapide")),
        defender(defence=defence("Parer"), defence_number=1, defence_number_2=2),
    )
    assert dice_for(scn).keys() == ("attaque.1", "attaque.2", "defense.1", "defense.2")
    assert [s.defence_number for s in plan(scn)] == [1, 2]
    result = run(scn, attaque_1=25, attaque_2=38, defense_1=45, defense_2=45)
    assert result.numbers["s1.attack_degree"] == result.numbers["s2.attack_degree"] == 4
    assert (result.numbers["s1.defence_threshold"], result.numbers["s2.defence_threshold"]) == (50, 30)
    assert (result.numbers["s1.phys_taken"], result.numbers["s2.phys_taken"], result.numbers["phys_taken"]) == (1, 2, 3)


def test_attaque_rapide_with_defence_numbers_two_and_three() -> None:
    scn = scenario(
        attacker(approach=approach("Attaque rapide")),
        defender(defence=defence("Parer"), defence_number=2, defence_number_2=3),
    )
    result = run(scn, attaque_1=25, attaque_2=38, defense_1=25, defense_2=25)
    assert (result.numbers["s1.defence_threshold"], result.numbers["s2.defence_threshold"]) == (30, 10)


def test_margin_choices_of_the_attacker_add_damage_in_the_final_result() -> None:
    scn = scenario(attacker(degree=15, margin_damage=3), defender())
    result = run(scn, attaque_1=5)
    assert (result.numbers["phys_before_choices"], result.numbers["phys_taken"]) == (2, 5)
    assert any(e.group == "Résultat final" for e in result.events)


def test_margin_choices_beyond_the_margin_are_ignored_visibly() -> None:
    scn = scenario(attacker(degree=12, margin_damage=3), defender())
    result = run(scn, attaque_1=5)  # margin 11: one choice
    assert result.numbers["phys_taken"] == 3
    assert any(e.kind == "final_ignored" for e in result.events)


def test_margin_choices_of_the_defender_remove_damage_after_the_minimum() -> None:
    scn = scenario(
        attacker(weapon=weapon("Marteau")),
        defender(degree=14, defence=defence("Standard"), margin_damage=2, margin_malus=0),
    )
    result = run(scn, attaque_1=20, defense_1=12)
    assert (result.numbers["phys_before_choices"], result.numbers["phys_taken"]) == (2, 0)


def test_resolve_is_pure_and_repeatable() -> None:
    scn = scenario(attacker(weapon=weapon("Glaive élémentaire de Feu")), defender(defence=defence("Parer")))
    roll = fixed_roll({"attaque.1": 33, "defense.1": 48})
    assert resolve(scn, roll) == resolve(scn, roll)


def _conditions(scn: Scenario, **dice: int) -> list[str]:
    return [e.label for e in run(scn, **dice).events if e.kind == "defence_condition"]


def test_parer_arme_projectiles_reminds_that_it_needs_a_shield_or_an_object() -> None:
    shoot = attacker(approach=approach("Tir (visée 1r)"), weapon=weapon("Arc"))
    bare = ranged(shoot, defender(defence=defence("Parer arme projectiles", "tir")))
    shielded = ranged(
        shoot,
        defender(
            defence=defence("Parer arme projectiles", "tir"),
            protections=[protection("Cavalier à la targe parcheminée", slot="bouclier")],
        ),
    )
    assert _conditions(bare, attaque_1=20, defense_1=20) == [
        fr(
            "La défense « Parer arme projectiles » demande un bouclier ou un objet : aucun bouclier porté, à vérifier à la table"
        )
    ]
    assert _conditions(shielded, attaque_1=20, defense_1=20) == []
    assert run(bare, attaque_1=20, defense_1=20).numbers["phys_taken"] == 1  # 2 − 2, minimum 1: unchanged


def test_esquiver_arme_lancee_reminds_that_the_defender_must_see_the_thrower() -> None:
    scn = scenario(
        attacker(approach=approach("Lancer"), weapon=weapon("Javelot")),
        defender(name="Garde", defence=defence("Esquiver arme lancée", "lancer")),
        mode="lancer",
    )
    assert _conditions(scn, attaque_1=20, defense_1=20) == [fr("Esquiver arme lancée : Garde doit voir le lanceur")]
    scn = scenario(
        attacker(approach=approach("Lancer"), weapon=weapon("Javelot")),
        defender(name="Vigile", grammar=DEFINITE_M, defence=defence("Esquiver arme lancée", "lancer")),
        mode="lancer",
    )
    assert _conditions(scn, attaque_1=20, defense_1=20) == [fr("Esquiver arme lancée : le Vigile doit voir le lanceur")]
    assert run(scn, attaque_1=20, defense_1=20).numbers["phys_taken"] == 0
