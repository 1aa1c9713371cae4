"""The Féerie encounter rules without Django: states, fill, apply, the end of an Action."""

from dataclasses import replace

import pytest

from rulesets.core import encounter as core
from rulesets.core.dice import DiceRoll
from rulesets.core.schema import ScenarioError, parse, to_data, unflatten
from rulesets.feerie import action, engine, examples
from rulesets.feerie import encounter as enc
from rulesets.feerie.action import ActionScenario
from rulesets.feerie.model import Attribute, AttributeKind, Blow, BlowKind, Exchange, Tactic

WICHTLN_VALUES = {
    # the exchange page's « Attaquant du bestiaire » entry, flat, with the blank fourth row it fills
    "name": "Wichtln",
    "vigilance": 15,
    "habilete": 20,
    "puissance": 10,
    "resistance": 15,
    "taille": -2,
    "essence": 20,
    **{
        f"attributes.{i}.{k}": v
        for i, row in enumerate(
            (
                {"name": "marteau", "kind": "accessoire", "value": 3, "attack": True, "defense": True},
                {"name": "tablier de cuir", "kind": "accessoire", "value": 2, "soak": True},
                {"name": "force surnaturelle", "kind": "pouvoir", "value": 4, "damage": True},
                {"name": "", "kind": "affinite", "value": 0},
            )
        )
        for k, v in {
            "initiative": False,
            "attack": False,
            "defense": False,
            "damage": False,
            "soak": False,
            **row,
        }.items()
    },
}


def state(name: str = "Féerique", **values: object) -> enc.FeeriqueState:
    data = {"name": name, **values}
    data.setdefault("essence_max", max(20, int(data.get("essence", 20))))  # type: ignore[call-overload]
    return parse(enc.FeeriqueState, data)


def fighter(key: str, s: enc.FeeriqueState) -> core.Fighter:
    return core.Fighter(key, s.name, enc.FEERIQUE, s)


def page(fill: dict) -> ActionScenario:
    """The Action page's scenario as the generic layer builds it: the defaults, then our fields."""
    flat = {k: v for k, v in _flat_defaults().items() if k.split(".")[0] not in {"fighters", "activities"}}
    flat.update({k: v for k, v in fill.items() if v is not None})
    return parse(ActionScenario, unflatten(flat))


def _flat_defaults() -> dict:
    from rulesets.core.schema import flatten

    return flatten(to_data(ActionScenario()))


def no_dice() -> DiceRoll:
    return DiceRoll({}, set(), 0)


def test_the_rules_are_registered_with_both_pages_and_their_roles():
    rules = core.get("feerie")
    assert [p.slug for p in rules.pages] == ["feerie-action", "feerie"]
    assert rules.page("feerie-action").role("fighters").many == 24
    assert [r.key for r in rules.page("feerie").roles] == ["attacker", "defender"]
    assert rules.kind(enc.FEERIQUE).preset_group == "attacker"
    assert rules.clock_label(enc.Clock(action=3)) == "Action 3"
    assert rules.advance_label(enc.Clock(action=3)) == "Fin de l'Action 3"


def test_a_bestiary_wichtln_becomes_a_state_with_the_seeds_derived_values():
    s = parse(enc.FeeriqueState, enc.from_preset(WICHTLN_VALUES))
    assert s.essence == s.essence_max == 20
    assert [a.name for a in s.attributes] == ["marteau", "tablier de cuir", "force surnaturelle"]
    d = enc.derived(s)
    # « Attaque au contact 23, Défense 25, Dommages au contact 12, Encaissement 15 »
    assert (d.attack, d.defense, d.damage, d.soak, d.tactic_cap) == (23, 25, 12, 15, 3)
    assert enc.derived(replace(s, attributes=(*s.attributes, Attribute()))) == d  # a blank row left by a form
    ranged = replace(
        s,
        ranged=True,
        attributes=(
            Attribute("tablier de cuir", AttributeKind.ACCESSOIRE, 2, soak=True),
            Attribute("voix tonnante", AttributeKind.POUVOIR, 3, damage=True),
        ),
    )
    assert (enc.derived(ranged).attack, enc.derived(ranged).damage) == (15, 7)  # « à distance de 15 […] de 7 »


@pytest.mark.parametrize(
    ("data", "field", "message"),
    [
        ({"essence": 25, "essence_max": 20}, "essence", "Essence\u202f: ne peut dépasser l'Essence de départ (20)."),
        (
            {
                "surprised": True,
                "tactic": {"initiative": 1, "attack": -1},
                "attributes": [{"name": "duel", "value": 4, "attack": True}],
            },
            "tactic",
            "Un personnage surpris ne peut pas déclarer de tactique lors de la première Action.",
        ),
        (
            {"tactic": {"attack": 2, "defense": -2}},
            "tactic.attack",
            "Attaque\u202f: une modification de tactique ne peut dépasser le total des Affinités et maîtrises appliquées (0), "
            "reçu +2.",
        ),
        (
            {"attributes": [{"name": "marteau", "value": 3, "attack": True, "damage": True}]},
            "attributes.0.damage",
            "«\u202fmarteau\u202f» porte déjà sur le jet d'Attaque\u202f: il ne peut s'appliquer aussi aux Dommages.",
        ),
        (
            {"declarations": [{"label": "frappe"}]},
            "declarations.0.targets",
            "Une attaque vise au moins une cible (ou cocher «\u202fAutre activité\u202f»).",
        ),
        (
            {"declarations": [{"targets": "Ogre", "aim": True}]},
            "declarations.0.aim",
            "On ne vise qu'à distance (cocher «\u202fCombat à distance\u202f»).",
        ),
        (
            {"carried_malus": 4},
            "carried_malus",
            "Malus de cette Action, reporté de la précédente\u202f: doit être entre \u2212999 et 0 (reçu 4).",
        ),
    ],
)
def test_a_state_that_breaks_the_rules_is_refused_with_a_french_message(data, field, message):
    with pytest.raises(ScenarioError) as info:
        parse(enc.FeeriqueState, {"name": "X", **data})
    assert info.value.errors[field] == message


def test_a_clock_event_losing_essence_names_who_it_touches():
    with pytest.raises(ScenarioError) as info:
        parse(enc.Clock, {"events": [{"label": "Noyade", "essence_loss": 2}]})
    assert info.value.errors["events.0.target"] == "Une perte d'Essence demande le nom du combattant touché."


def test_the_action_page_replaces_its_default_declarations_and_reads_targets_by_name():
    ogre = fighter(
        "1", state("Ogre", taille=2, declarations=[{"label": "engloutit", "targets": "Lutin 2 ; Lutin 1 ; Absent"}])
    )
    lutins = [fighter(str(k + 2), state(f"Lutin {k + 1}", taille=-2)) for k in range(2)]
    fill = enc.fill_action({"fighters": (ogre, *lutins)}, enc.Clock())
    s = page(fill)
    assert [f.name for f in s.fighters] == ["Ogre", "Lutin 1", "Lutin 2"]
    assert [(a.actor, a.kind.value, a.targets) for a in s.activities] == [
        (0, "attack", "2,1"),  # the absent one is dropped
        (1, "none", ""),  # a row ready for each fighter without a declaration
        (2, "none", ""),
    ]
    assert "Rübezahl" not in str(to_data(s))


def test_a_fighter_without_essence_has_a_defense_of_zero_on_the_action_page():
    # Défense 16 otherwise; −4 carried and surprised: the engine adds −8, the page starts at +8
    down = fighter("1", state("Farfadet", habilete=16, essence=0, carried_malus=-4, surprised=True))
    ogre = fighter("2", state("Ogre", habilete=12))
    fill = enc.fill_action({"fighters": (down, ogre)}, enc.Clock())
    assert fill["fighters.0.defense"] == 8
    s = page({**fill, "activities.0.kind": "attack", "activities.0.targets": "0", "activities.0.term": 0})
    assert s.activities[0].actor == 1  # the fallen Farfadet declares nothing
    result = action.resolve(replace(s, fighters=tuple(replace(f, initiative=10) for f in s.fighters)), no_dice())
    assert result.numbers["defense_0"] == 0
    assert result.numbers["activity_0_margin_0"] == 12  # the whole attack total


@pytest.mark.parametrize("example", examples.action_examples(), ids=lambda e: e.key)
def test_the_end_of_an_action_carries_exactly_what_next_action_computes(example):
    s = parse(ActionScenario, example.request["scenario"])
    result = action.resolve(s, no_dice())
    fighters = tuple(
        fighter(str(i), state(f.name, essence=f.essence, essence_max=max(1, f.essence)))
        for i, f in enumerate(s.fighters)
    )
    applied = enc.apply_action(s, result, {"fighters": fighters}, enc.Clock())
    after = tuple(replace(f, state=applied.states.get(f.key, f.state)) for f in fighters)
    advanced = enc.advance(after, enc.Clock(), None)
    expected = action.next_action(s, result)
    for f, nxt in zip(after, expected.fighters, strict=True):
        new = advanced.states.get(f.key, f.state)
        assert new.carried_malus == nxt.carried_malus
        assert new.essence == nxt.essence
        assert (new.next_malus, new.initiative, new.surprised) == (0, None, False)
    assert advanced.clock == enc.Clock(action=2)


def test_an_action_writes_essence_initiative_malus_tactic_and_declarations_found_by_name():
    moi = fighter("a", state("Moi", vigilance=15, habilete=18, puissance=16, next_malus=-4))
    adversaire = fighter("b", state("Adversaire", habilete=14, essence=20))
    absent = fighter("c", state("Absent"))
    s = page(enc.fill_action({"fighters": (adversaire, moi)}, enc.Clock()))
    s = replace(
        s,
        fighters=tuple(replace(f, initiative=17 if f.name == "Moi" else 10) for f in s.fighters),
        activities=(
            action.Activity(1, action.ActivityKind.ATTACK, "frappe", targets="0", term=0),
            action.Activity(1, action.ActivityKind.ATTACK, "frappe encore", targets="0", term=0),
        ),
    )
    result = action.resolve(s, no_dice())
    applied = enc.apply_action(s, result, {"fighters": (moi, adversaire, absent)}, enc.Clock())
    new = applied.states["a"]
    assert new.initiative == 17
    assert new.next_malus == -8  # −4 already there (typed by hand) and −4 for the extra attack
    assert [d.label for d in new.declarations] == ["frappe", "frappe encore"]
    assert new.declarations[0].targets == "Adversaire"
    # 18 − 14 = 4: ⌊4/2⌋ + 16 − 10 = 8; then 18 − 4 − 14 = 0: 0 + 16 − 10 = 6
    assert applied.states["b"].essence == 20 - 8 - 6
    assert (new.last_loss, new.last_victim) == (6, "Adversaire")
    assert "c" not in applied.states
    assert "Absent ne figure plus parmi les combattants de l'Action : rien n'est écrit." in applied.notes
    assert "Moi entrera dans l'Action 2 avec −8 à l'Initiative, à ses activités et à sa Défense." in applied.story


def test_a_tactic_that_the_sheet_cannot_hold_is_not_written_and_says_so():
    pixie = fighter(
        "p", state("Pixie", attributes=[{"name": "bâton", "kind": "accessoire", "value": 2, "attack": True}])
    )
    s = page(enc.fill_action({"fighters": (pixie,)}, enc.Clock()))
    s = replace(
        s,
        fighters=(replace(s.fighters[0], initiative=12, tactic=Tactic(initiative=-5, attack=5), tactic_cap=None),),
        activities=(action.Activity(0, action.ActivityKind.OTHER, "fuit"),),
    )
    applied = enc.apply_action(s, action.resolve(s, no_dice()), {"fighters": (pixie,)}, enc.Clock())
    new = applied.states["p"]
    assert new.initiative == 12
    assert new.tactic == Tactic()
    assert new.declarations == ()
    assert any("ne respectent pas sa fiche" in n for n in applied.notes)


def test_apply_writes_nothing_for_roles_left_unbound_and_never_raises():
    s = ActionScenario()
    assert enc.apply_action(s, action.resolve(s, no_dice()), {}, enc.Clock()) == core.Applied()
    x = Exchange(term=0)
    assert enc.apply_exchange(x, engine.resolve(x, no_dice()), {}, enc.Clock()) == core.Applied()


def test_special_blows_leave_lasting_effects_with_their_malus():
    redcap = fighter("r", state("Redcap", habilete=20, puissance=14))
    lutin = fighter("l", state("Lutin", habilete=14, taille=-2, essence=15))
    for kind, extra, malus in (
        # 20 − 4 + 19 = 35 against 16: the simple attack would have cost ⌊19/2⌋ + 14 − 8 = 15
        (BlowKind.STUN, {"attack_malus": -4}, -15),
        (BlowKind.HOLD_OFF, {"attack_malus": -12, "effect_value": 8}, -8),
        (BlowKind.DISARM, {"attack_malus": -8}, None),
    ):
        x = parse(
            Exchange,
            {
                **to_data(Exchange(attacker=redcap.state.combatant(), defender=lutin.state.combatant(), term=19)),
                "blows": [to_data(Blow(kind, **extra))],
            },
        )
        result = engine.resolve(x, no_dice())
        assert result.outcome == "blow"
        applied = enc.apply_exchange(x, result, {"attacker": (redcap,), "defender": (lutin,)}, enc.Clock())
        (condition,) = applied.states["l"].conditions
        assert condition.by == "Redcap"
        assert condition.malus == malus
        assert applied.states["l"].essence == 15
        assert "r" not in applied.states  # no Essence inflicted: nothing for an acharnement


def test_the_end_of_an_action_resolves_pending_events_and_starts_the_next_one_clean():
    lutin = fighter(
        "l", state("Lutin", essence=5, initiative=12, surprised=True, ambush_margin=6, next_malus=-8, carried_malus=-4)
    )
    clock = enc.Clock(
        action=1,
        events=(
            enc.Recurring("Le feu", target="Lutin", essence_loss=7),
            enc.Recurring("La noyade", target="Lutin", essence_loss=3, done=True),
            enc.Recurring("Le vent tourne"),
        ),
    )
    applied = enc.advance((lutin,), clock, None)
    new = applied.states["l"]
    assert new.essence == 0  # 5 − 7, the drowning was already resolved by the Action page
    assert (new.carried_malus, new.next_malus, new.initiative, new.surprised, new.ambush_margin) == (
        -8,
        0,
        None,
        False,
        0,
    )
    assert applied.clock == enc.Clock(action=2, events=tuple(replace(e, done=False) for e in clock.events))
    assert applied.story == (
        "Fin de l'Action 1 : l'Action 2 commence.",
        "Rang 0 : Le feu — Lutin perd 5\u00a0points d'Essence (5 → 0).",
        "Lutin n'a plus d'Essence : hors de combat.",
        "Rang 0 : Le vent tourne.",
        "Lutin commence l'Action 2 avec −8 à l'Initiative, à ses activités et à sa Défense.",
        "Lutin s'est remis de sa surprise.",
    )


def test_the_exchange_page_gets_this_actions_malus_surprise_and_helplessness():
    attacker = fighter(
        "a", state("Moi", carried_malus=-4, ambush_margin=7, conditions=[{"label": "à terre", "malus": -4}])
    )
    defender = fighter("d", state("Ogre", essence=0, surprised=True, open_angles=2, carried_malus=-8))
    fill = enc.fill_exchange({"attacker": (attacker,), "defender": (defender,)}, enc.Clock())
    assert (fill["attacker.modifiers.initiative"], fill["attacker.modifiers.attack"]) == (-4, -8)
    assert fill["defender.modifiers.defense"] == -8
    assert fill["situation.ambush_margin"] == 7
    assert (fill["situation.surprised"], fill["situation.defender_helpless"], fill["situation.open_angles"]) == (
        True,
        True,
        2,
    )
    # the page's default Attributs (the Wichtln's three) are blanked, not kept under ours
    assert fill["attacker.attributes.2.name"] == ""
    assert fill["attacker.attributes.3.value"] == 0


def test_suggestions_put_everyone_in_the_action_and_the_quickest_against_his_declared_target():
    a = fighter("1", state("Lutin", initiative=9))
    b = fighter("2", state("Ogre", initiative=14, declarations=[{"targets": "Sylphe"}]))
    c = fighter("3", state("Sylphe", initiative=14, vigilance=8))
    d = fighter("4", state("Feu follet", essence=0, initiative=30))
    everyone = (a, b, c, d)
    assert enc.suggest("fighters", everyone, enc.Clock()) == ("1", "2", "3", "4")
    assert enc.suggest("attacker", everyone, enc.Clock()) == ("2",)  # 14, Vigilance 10 > 8; the fallen one waits
    assert enc.suggest("defender", everyone, enc.Clock()) == ("3",)


def test_badges_and_status_speak_french():
    lutin = fighter(
        "l",
        state(
            "Lutin",
            initiative=6,
            surprised=True,
            next_malus=-4,
            conditions=[{"label": "Lutin tombe à terre : −4", "malus": -4}],
        ),
    )
    ogre = fighter(
        "o",
        state(
            "Ogre",
            initiative=14,
            carried_malus=-4,
            tactic={"attack": 2, "defense": -2},
            attributes=[{"name": "gourdin", "value": 2, "attack": True}],
        ),
    )
    assert enc.badges(lutin, enc.Clock(), None) == (
        "Initiative 6",
        "surpris",
        "−4 à l'Action suivante",
    )
    # the effect is a chip (issue 16): an effect noted before it has no kind, « Autre effet »
    assert [(c.label, c.lasting) for c in enc.RULES.conditions.chips(lutin, enc.Clock())] == [
        ("Lutin tombe à terre : −4", "autre")
    ]
    assert enc.badges(ogre, enc.Clock(), None) == (
        "Initiative 14",
        "malus −4 cette Action",
        "tactique I +0 / A +2 / D −2",
    )
    assert enc.badges(fighter("x", state("X", essence=0)), enc.Clock(), None) == ("hors de combat",)
    assert enc.status((lutin, ogre), enc.Clock(action=2)) == ("Initiatives de l'Action 2 : Ogre 14, Lutin 6.",)
    assert enc.bars(lutin) == (core.Bar("essence", "Essence", 20, 20),)


def test_an_event_on_a_fallen_fighter_and_a_lone_combatant_say_so_plainly():
    fallen = fighter("f", state("Farfadet", essence=0))
    clock = enc.Clock(events=(enc.Recurring("La noyade", target="Farfadet", essence_loss=2),))
    applied = enc.advance((fallen,), clock, None)
    assert "Rang 0 : La noyade (Farfadet, déjà sans Essence)." in applied.story
    assert "f" not in applied.states
    assert enc.status((fighter("o", state("Ogre")),), enc.Clock()) == ()  # one combatant added: nothing is over
    assert enc.status((fighter("o", state("Ogre")), fallen), enc.Clock()) == (
        "Un seul Féerique garde de l'Essence, ou aucun : le combat est joué.",
    )
