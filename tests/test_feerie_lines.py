"""The « Ajuster » lines of the Féerie pages: what a choice filled, said in French (− for negatives, a
narrow no-break space before the colon, issue 15)."""

from __future__ import annotations

from bestiary.feerie import lines

NB = "\u00a0"
NNB = "\u202f"


def say(describe, values):
    """The line with its no-break spaces as plain ones (the test of the spaces themselves is below)."""
    return lines.french(describe)(values).replace(NB, " ").replace(NNB, " ")


def test_aspects_read_as_the_sheet_does() -> None:
    values = {"{row}.vigilance": "15", "{row}.habilete": 20, "{row}.puissance": "10", "{row}.resistance": "15"}
    values |= {"{row}.taille": "-2", "{row}.essence": "20"}
    assert (
        say(lines.aspects, values)
        == "Vigilance 15 · Habileté 20 · Puissance 10 · Résistance 15 · Taille −2 · Essence 20"
    )


def test_a_typo_is_shown_as_typed() -> None:
    assert "Vigilance abc" in say(lines.aspects, {"{row}.vigilance": "abc"})


def test_a_tactic_lists_its_modifications_or_none() -> None:
    values = {"{row}.tactic.initiative": "-2", "{row}.tactic.attack": "3", "{row}.tactic.defense": "-1"}
    assert say(lines.tactic, values) == "Initiative −2 · Attaque +3 · Défense −1"
    assert say(lines.tactic, dict.fromkeys(values, "0")) == "aucune modification"


def test_a_special_blow_names_itself_and_its_malus() -> None:
    values = {
        "blows.{row}.kind": "entraver",
        "blows.{row}.attack_malus": "-8",
        "blows.{row}.ranged_attack_malus": "-12",
    }
    assert say(lines.blow, values) == "Entraver : Attaque −8 (−12 à distance)"
    values = {"blows.{row}.kind": "acharnement", "blows.{row}.attack_malus": "0", "blows.{row}.defense_malus": "-8"}
    assert say(lines.blow, values) == "Acharnement : Défense −8"
    assert say(lines.blow, {"blows.{row}.kind": "aucun"}) == "aucun malus"
    assert lines.french(lines.blow)({"blows.{row}.kind": "desarmer", "blows.{row}.attack_malus": -8}) == (
        f"Désarmer{NNB}: Attaque −8"
    )


def test_the_previous_loss_agrees_in_number() -> None:
    assert say(lines.previous_loss, {"previous_loss": "0"}) == "aucune perte d'Essence infligée"
    assert say(lines.previous_loss, {"previous_loss": "1"}) == "1 point d'Essence infligé"
    assert say(lines.previous_loss, {"previous_loss": "6"}) == "6 points d'Essence infligés"


def test_a_mount_and_a_pace() -> None:
    assert say(lines.mount, {"{row}.mount.mounted": False}) == "à pied"
    mounted = {"{row}.mount.mounted": True, "{row}.mount.name": "Hippogriffe", "{row}.mount.taille": "2"}
    mounted |= {"{row}.mount.habilete": "16", "{row}.mount.riding_affinity": ""}
    assert say(lines.mount, mounted) == "Hippogriffe : Taille +2, Habileté 16"
    # the bestiary's mount brings the grammar of its name (issue 15): « en selle sur l'Hippogriffe »
    mounted |= {"{row}.mount.grammar.article": "defini", "{row}.mount.grammar.gender": "m"}
    assert say(lines.mount, mounted) == "Hippogriffe : Taille +2, Habileté 16, se dit « l'Hippogriffe », au masculin"
    pace = {"situation.movement.pace": "course", "situation.movement.malus": "-8"}
    pace |= {"situation.movement.charge_bonus": "4", "situation.movement.divisor": "2"}
    assert (
        say(lines.movement, pace) == "Course : coordination −8, charge +4 aux Dommages, distance (Habileté + Taille)/2"
    )
    assert say(lines.movement, {"situation.movement.pace": "none"}) == "Immobile, aucun effet"


def test_cover_lighting_and_the_shot() -> None:
    through = {"situation.cover.mode": "through", "situation.cover.material": "Rocher", "situation.cover.quarters": "3"}
    through |= {"situation.cover.owner_encaissement": "12", "situation.cover.opacity_malus": "-8"}
    assert say(lines.cover, through) == "au travers (Rocher) : ¾ de l'Encaissement du propriétaire (12), toucher −8"
    assert say(lines.cover, {"situation.cover.mode": "exposed", "situation.cover.exposed_modifier": "4"}) == (
        "parties exposées : Défense +4"
    )
    assert say(lines.lighting, {"situation.lighting": "-4"}) == "malus −4 au contact (doublé à distance)"
    assert say(
        lines.shot, {"situation.difficulty": "8", "situation.range_modifier": "0", "situation.terrain": "-4"}
    ) == ("Difficulté +8 · Encombrement −4")


def test_the_action_lines() -> None:
    fighter = {
        f"fighters.{{row}}.{k}": v for k, v in {"vigilance": "20", "initiative_bonus": "0", "attack": "21"}.items()
    }
    fighter |= {f"fighters.{{row}}.{k}": v for k, v in {"defense": "16", "damage": "27", "soak": "22"}.items()}
    fighter |= {"fighters.{row}.essence": "45", "fighters.{row}.taille": "2", "fighters.{row}.tactic_cap": "3"}
    assert say(lines.fighter, fighter) == (
        "Vigilance 20 · Attaque 21 · Défense 16 · Dommages 27 · Encaissement 22 · Essence 45 · Taille +2 · tactique ±3"
    )
    state = {"fighters.{row}.surprised": True, "fighters.{row}.carried_malus": "-4", "fighters.{row}.initiative": ""}
    assert say(lines.fighter_state, state) == "surpris · malus reporté −4 · Initiative aux dés"
    act = {"activities.{row}.ranged": "on", "activities.{row}.aim": "on", "activities.{row}.rank": "12"}
    assert say(lines.activity, act) == "à distance, vise · au rang 12 · dés lus"
    change = {"activities.{row}.change.rank": "19", "activities.{row}.change.note": "fuir"}
    change |= {"activities.{row}.change.new_tactic": True, "activities.{row}.change.tactic.attack": "-5"}
    change |= {"activities.{row}.change.tactic.defense": "5"}
    assert say(lines.change, change) == "au rang 19 : fuir · nouvelle tactique Attaque −5 · Défense +5"
