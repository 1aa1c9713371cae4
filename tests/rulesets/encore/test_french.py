"""enCORE in correct French (issue 15): the text lint over every worked example, over a few hundred
variations with names of every gender, article and initial sound, over the encounter's story lines;
and the exact sentences the toolkit should give (« l'Arbalétrier », « 1 dégât », « les Loups
frappent »)."""

from __future__ import annotations

import copy
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesets.core.dice import fixed_roll
from rulesets.core.encounter import Fighter
from rulesets.core.french import Article, Gender, Grammar, typography
from rulesets.core.registry import get
from rulesets.core.request import resolve as resolve_request
from rulesets.core.schema import ScenarioError, parse
from rulesets.encore import encounter as rules
from rulesets.encore.engine import dice_for, resolve
from rulesets.encore.model import NPC, PC, Action, Scenario, Strike, role_noun
from rulesets.encore.narrative import scene, story
from rulesets.encore.odds import odds
from tests.french_lint import assert_clean, grammar_data, grammatical_names

RULESET = get("encore")
EXAMPLES = RULESET.examples()
MASCULINE = Grammar(Article.DEFINITE)
FEMININE = Grammar(Article.DEFINITE, Gender.FEMININE)
PLURAL = Grammar(Article.PLURAL)


def texts_of(resolution, where=""):
    """Every text a resolution shows: the scene, each paragraph of the récit, the outcome, each
    event's label and value."""
    out = [(f"{where} scène", resolution.narrative.scene)]
    out += [(f"{where} récit {i}", p) for i, p in enumerate(resolution.narrative.story)]
    out.append((f"{where} résultat", resolution.result.outcome_label))
    for e in resolution.result.events:
        out += [(f"{where} {e.kind}", e.label), (f"{where} {e.kind} (valeur)", e.value)]
    return out


def told(scenario, dice):
    """Scene, récit and technical labels of ``scenario`` resolved with ``dice``, as shown (the
    typography the page applies), and the odds' titles."""
    result = resolve(scenario, fixed_roll(dice))
    out = [("scène", typography(scene(scenario)))]
    out += [(f"récit {i}", typography(p)) for i, p in enumerate(story(scenario, result))]
    out.append(("résultat", result.outcome_label))
    for e in result.events:
        out += [(e.kind, e.label), (f"{e.kind} (valeur)", e.value)]
    o = odds(scenario)
    out += [("chances", c.title) for c in o.charts] + [("chances", x[1]) for x in o.expectations]
    return out


def story_of(scenario, dice):
    return [typography(p) for p in story(scenario, resolve(scenario, fixed_roll(dice)))]


# --- the worked examples -----------------------------------------------------------------------------


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda e: e.key)
def test_every_worked_example_reads_as_careful_french(example):
    assert_clean(texts_of(resolve_request(RULESET, example.request), example.key))


def test_the_seed_example_names_the_crossbowman_with_its_article():
    resolution = resolve_request(RULESET, EXAMPLES[0].request)
    assert resolution.narrative.scene.startswith(
        "Aldric (3\u00a0dés d'attribut, spécialité, Santé 8/8, Stress 0) attaque l'Arbalétrier (Menace 2, Santé 4)."
    )
    labels = [e.label for e in resolution.result.events]
    assert "Menace de l'Arbalétrier" in labels
    assert "Dégâts infligés à l'Arbalétrier" in labels
    assert "L'Arbalétrier frappe Aldric" in labels
    assert resolution.narrative.story[-1] == "Aldric perd 1\u00a0point de Santé et reste valide."


def test_the_default_names_are_roles_said_with_their_article():
    """« PJ » and « PNJ » are common nouns: « le PJ frappe », « la Menace du PNJ », never
    « PJ frappe » (issue 15: articles and capitals)."""
    resolution = resolve_request(RULESET, EXAMPLES[2].request)  # « PJ » against « Capitaine »
    labels = [e.label for e in resolution.result.events]
    assert "Le PJ lance 2d6" in labels
    assert "Le Capitaine frappe le PJ" in labels
    assert "Santé du PJ" in labels
    result = resolve(Scenario(npcs=(NPC(menace=1),)), fixed_roll({"pc.1": 1, "pc.2": 1, "pc.3": 1}))
    assert "Le PNJ frappe le PJ" in [e.label for e in result.events]
    assert role_noun("Autre PJ", Grammar(), "PJ").a == "à l'autre PJ"
    assert role_noun("PNJ n°2", Grammar(), "PNJ").de == "du PNJ n°2"
    assert role_noun("", Grammar(), "allié").subject == "l'allié"
    assert role_noun("Allié", Grammar(), "allié").Subject == "L'allié"
    # a grammar chosen for the name is kept: the game master's word wins
    assert role_noun("PJ", FEMININE, "PJ").subject == "la PJ"


# --- exact sentences ---------------------------------------------------------------------------------

ALDRIC = PC(name="Aldric", attribute=3, weapon=3, armour=1)
ORC = NPC(name="Orc", grammar=MASCULINE, menace=2, sante=9, weapon=3)


def test_the_story_elides_and_contracts_the_names():
    s = Scenario(pc=ALDRIC, npcs=(ORC,))
    result = resolve(s, fixed_roll({"pc.1": 5, "pc.2": 1, "pc.3": 1}))  # partial, 3 dealt
    labels = [e.label for e in result.events]
    assert "Menace de l'Orc" in labels
    assert "Protection de l'Orc" in labels
    assert "Dégâts infligés à l'Orc" in labels
    assert "L'Orc frappe Aldric" in labels
    brigand = replace(ORC, name="Brigand")
    result = resolve(replace(s, npcs=(brigand,)), fixed_roll({"pc.1": 5, "pc.2": 1, "pc.3": 1}))
    labels = [e.label for e in result.events]
    assert "Dégâts infligés au Brigand" in labels
    assert "Santé du Brigand" in labels
    assert "Le Brigand frappe Aldric" in labels


def test_counts_agree_with_their_number():
    s = Scenario(pc=replace(ALDRIC, weapon=1), npcs=(replace(ORC, protection=0, sante=9),))
    one = story_of(s, {"pc.1": 6, "pc.2": 6, "pc.3": 1})  # 2 successes vs Menace 2: weapon 1
    assert any("(1\u00a0dégât)" in p or ": 1\u00a0dégât." in p for p in one), one
    three = story_of(replace(s, pc=replace(ALDRIC, weapon=3)), {"pc.1": 6, "pc.2": 6, "pc.3": 1})
    assert any("3\u00a0dégâts" in p for p in three), three
    wounded = story_of(Scenario(pc=ALDRIC, npcs=(replace(ORC, weapon=2),)), {"pc.1": 1, "pc.2": 1, "pc.3": 1})
    assert "Aldric perd 1\u00a0point de Santé et reste valide." in wounded
    assert "1 de Santé" not in " ".join(wounded)


def test_verbs_and_participles_agree_with_a_feminine_or_plural_name():
    harpie = Scenario(
        pc=PC(name="Isaure", grammar=Grammar(gender=Gender.FEMININE), attribute=1, sante=8),
        npcs=(NPC(name="Harpie", grammar=FEMININE, menace=2, weapon=5),),
    )
    lines = story_of(harpie, {"pc.1": 1})
    assert "La blessure est réelle\u202f: Isaure est désormais blessée." in " ".join(lines)
    assert "La Harpie" in " ".join(lines)
    wolves = Scenario(
        action=Action.NPC_AMBUSH,
        pc=PC(name="Loups des cendres", grammar=PLURAL, attribute=2),
        npcs=(NPC(name="Brigand", grammar=MASCULINE, menace=2, weapon=4),),
    )
    assert typography(scene(wolves)).startswith("Les Loups des cendres (2\u00a0dés d'attribut")
    assert "sont pris en embuscade par le Brigand" in scene(wolves)
    lines = story_of(wolves, {"pc.1": 1, "pc.2": 1})
    assert lines[0] == "L'embuscade du Brigand prend les Loups des cendres de court."
    assert lines[1].startswith("Les Loups des cendres perdent 4\u00a0points de Santé")
    result = resolve(replace(wolves, action=Action.ATTACK), fixed_roll({"pc.1": 1, "pc.2": 1}))
    assert "Les Loups des cendres lancent 2d6" in [e.label for e in result.events]
    assert "Le Brigand frappe les Loups des cendres" in [e.label for e in result.events]


def test_the_game_masters_effect_closes_a_sentence_once():
    """A situation typed with its own full stop never gives « .. » (issue 15, item 3)."""
    s = Scenario(action=Action.MANOEUVRE, pc=ALDRIC, npcs=(ORC,), effect="le désarmer.")
    assert typography(scene(s)).endswith("Effet visé\u202f: le désarmer.")
    lines = story_of(s, {"pc.1": 6, "pc.2": 6, "pc.3": 1})
    assert lines[0] == "Aldric obtient ce qu'il voulait de l'Orc\u202f: le désarmer."
    partial = story_of(s, {"pc.1": 6, "pc.2": 1, "pc.3": 1})
    assert partial[0] == "Aldric arrache à l'Orc ce qu'il voulait (le désarmer), mais s'expose en le faisant."
    nested = story_of(replace(s, effect="le faire tomber (à terre)"), {"pc.1": 6, "pc.2": 1, "pc.3": 1})
    assert "(le faire tomber, à terre)" in nested[0]


def test_an_area_weapon_names_every_target_it_reaches():
    s = Scenario(
        action=Action.AREA,
        pc=replace(ALDRIC, weapon_area=True, weapon=2),
        npcs=(
            NPC(name="Brigand", grammar=MASCULINE, menace=1, sante=2),
            NPC(name="Ombres", grammar=Grammar(Article.PLURAL, Gender.FEMININE), menace=1, sante=9),
        ),
    )
    lines = story_of(s, {"pc.1": 6, "pc.2": 6, "pc.3": 1})
    assert lines[0] == (
        "Aldric déchaîne son arme de zone\u202f: le Brigand et les Ombres encaissent 4\u00a0dégâts en tout."
    )
    assert lines[1] in ("Le Brigand s'effondre, hors de combat.", "Le Brigand lâche prise et quitte le combat.")
    assert "déchaîne son arme de zone sur le Brigand (Menace 1, Santé 2) et les Ombres" in scene(s)


def test_the_interposing_ally_and_the_opponent_are_said_with_their_grammar():
    s = Scenario(
        pc=ALDRIC,
        npcs=(ORC,),
        strike=Strike(interpose=True, interposer_name="Sorcière", interposer_grammar=FEMININE),
    )
    result = resolve(s, fixed_roll({"pc.1": 1, "pc.2": 1, "pc.3": 1}))
    labels = [e.label for e in result.events]
    assert "La Sorcière s'interpose et perd son action" in labels
    assert "Protection de la Sorcière" in labels
    assert "L'Orc frappe la Sorcière" in labels
    assert typography(story(s, result)[1]).startswith("La Sorcière se jette devant Aldric. L'Orc ")
    assert odds(s).charts[-1].title == "Santé perdue par la Sorcière"
    opposed = Scenario(action=Action.OPPOSITION, pc=ALDRIC, opponent=PC(name="Autre PJ"))
    assert "s'oppose à l'autre PJ (3\u00a0dés, Santé 8/8)." in scene(opposed)


def test_the_scenario_check_counts_the_npcs_in_french():
    with pytest.raises(ScenarioError) as caught:
        parse(Scenario, {"npcs": [{}], "strike": {"striker": 2}})
    assert caught.value.errors["strike.striker"] == "PNJ qui frappe\u202f: il n'y a que 1\u00a0PNJ visé."


# --- a few hundred variations -----------------------------------------------------------------------


def _substituted(request, pc, npc, other):
    """An example's request with names (and their grammar) in place of its combatants'."""
    data = copy.deepcopy(request)
    scenario = data["scenario"]
    scenario["pc"] = {**scenario["pc"], "name": pc[0], "grammar": grammar_data(pc[1])}
    scenario["npcs"] = [{**n, "name": npc[0], "grammar": grammar_data(npc[1])} for n in scenario["npcs"]]
    scenario["opponent"] = {"name": other[0], "grammar": grammar_data(other[1])}
    return data


@settings(max_examples=200, deadline=None, derandomize=True)
@given(
    example=st.sampled_from(EXAMPLES),
    pc=grammatical_names(),
    npc=grammatical_names(),
    other=grammatical_names(),
)
def test_the_examples_with_names_of_every_kind_read_as_careful_french(example, pc, npc, other):
    request = _substituted(example.request, pc, npc, other)
    resolution = resolve_request(RULESET, request)
    assert_clean(texts_of(resolution, example.key))
    assert pc[0] in resolution.narrative.scene


FACES = st.lists(st.integers(1, 6), min_size=6, max_size=6)


@settings(max_examples=200, deadline=None, derandomize=True)
@given(
    action=st.sampled_from(list(Action)),
    pc=grammatical_names(),
    npcs=st.lists(grammatical_names(), min_size=1, max_size=3),
    ally=st.one_of(st.just(("", Grammar())), grammatical_names()),
    faces=FACES,
    opp_faces=FACES,
    effect=st.sampled_from(["", "le désarmer", "le faire tomber (à terre).", "l'aveugler !"]),
    interpose=st.booleans(),
    attacks=st.integers(1, 3),
    tier=st.sampled_from([8, 5, 3, 1]),
)
def test_every_action_with_names_of_every_kind_reads_as_careful_french(
    action, pc, npcs, ally, faces, opp_faces, effect, interpose, attacks, tier
):
    """Every branch of the narrator (each action, outcome, breach, tier crossed, area targets),
    with names of every gender, article and initial sound."""
    targets = tuple(
        NPC(name=n, grammar=g, menace=3, sante=2 + i, weapon=3, protection=i % 2, cover=i % 2)
        for i, (n, g) in enumerate(npcs if action is Action.AREA else npcs[:1])
    )
    scenario = Scenario(
        action=action,
        pc=PC(name=pc[0], grammar=pc[1], attribute=4, weapon=2, weapon_area=True, armour=1, sante=tier),
        npcs=targets,
        opponent=PC(name=ally[0], grammar=ally[1], attribute=3, sante=tier),
        effect=effect,
        effect_helps_allies=True,
        strike=Strike(
            interpose=interpose,
            interposer_name=ally[0],
            interposer_grammar=ally[1],
            attacks=attacks,
            interposer_sante=tier,
        ),
    )
    spec = dice_for(scenario)
    dice = {k: (faces if k.startswith("pc") else opp_faces)[i % 6] for i, k in enumerate(spec.keys())}
    assert_clean(told(scenario, dice))


# --- the encounter ------------------------------------------------------------------------------------


def _fighters(names):
    (pc, pg), (npc, ng) = names
    hero = Fighter("a", pc, rules.PJ, rules.PcState(name=pc, grammar=pg, attribute=3, weapon=3))
    foe = Fighter("b", npc, rules.PNJ, rules.NpcState(name=npc, grammar=ng, menace=3, sante=4, sante_max=4))
    return hero, foe


@settings(max_examples=200, deadline=None, derandomize=True)
@given(names=st.tuples(grammatical_names(), grammatical_names()), faces=FACES)
def test_the_encounter_story_lines_of_a_few_rounds_read_as_careful_french(names, faces):
    """Two turns: an attack (attacks spent, an NPC out), a manoeuvre that helps the allies, the end
    of each turn (attacks lost, advantages fading, an idle turn)."""
    hero, foe = _fighters(names)
    clock = rules.Clock(turn=1)
    lines: list[tuple[str, str]] = []
    for action in (Action.ATTACK, Action.MANOEUVRE):
        bindings = {"pc": (hero,), "npcs": (foe,)}
        fields = rules.fill(bindings, clock)
        scenario = Scenario(
            action=action,
            pc=PC(name=hero.state.name, grammar=hero.state.grammar, attribute=3, weapon=3),
            npcs=(NPC(name=foe.state.name, grammar=foe.state.grammar, menace=3, sante=foe.state.sante),),
            effect="à terre",
            effect_helps_allies=True,
            strike=Strike(attacks=2),
        )
        assert fields["npcs.0.grammar.article"] == foe.state.grammar.article.value
        result = resolve(scenario, fixed_roll({f"pc.{i + 1}": f for i, f in enumerate(faces[:3])}))
        applied = rules.apply(scenario, result, bindings, clock)
        lines += [("récit", t) for t in applied.story] + [("note", t) for t in applied.notes]
        foe = replace(foe, state=applied.states.get(foe.key, foe.state))
        advanced = rules.advance((hero, foe), clock, scenario)
        lines += [("fin du tour", t) for t in advanced.story]
        foe = replace(foe, state=advanced.states.get(foe.key, foe.state))
        clock = advanced.clock
    idle = rules.advance((hero, foe), clock, Scenario())
    lines += [("tour sans action", t) for t in idle.story]
    assert_clean(lines)


def test_the_encounter_says_attacks_spent_and_lost_in_french():
    hero, foe = _fighters((("Aldric", Grammar()), ("Arbalétrière", FEMININE)))
    scenario = Scenario(pc=PC(name="Aldric"), npcs=(NPC(name="Arbalétrière", grammar=FEMININE, menace=3),))
    scenario = replace(scenario, strike=Strike(attacks=2))
    result = resolve(scenario, fixed_roll({"pc.1": 1, "pc.2": 1, "pc.3": 1}))
    applied = rules.apply(scenario, result, {"pc": (hero,), "npcs": (foe,)}, rules.Clock())
    assert "L'Arbalétrière a dépensé 2\u00a0attaques\u202f; il lui en reste 1 ce tour." in applied.story
    foe = replace(foe, state=applied.states[foe.key])
    advanced = rules.advance((hero, foe), rules.Clock(turn=1, engaged=True), scenario)
    assert advanced.story[0] == "Fin du tour 1\u202f: le tour 2 commence."
    assert "L'Arbalétrière perd 1\u00a0attaque non dépensée." in advanced.story
    ambush = rules.apply(
        replace(scenario, action=Action.NPC_AMBUSH), result, {"pc": (hero,), "npcs": (foe,)}, rules.Clock(turn=0)
    )
    assert ambush.notes == ("Éviter un coup n'est pas une action\u202f: Aldric garde son action.",)


def test_a_bestiary_entry_brings_its_grammar_into_the_encounter():
    data = rules.npc_from_preset(
        {"name": "Sorcière des marais", "grammar.article": "defini", "grammar.gender": "f", "menace": 3, "sante": 9}
    )
    state = parse(rules.NpcState, data)
    assert state.noun.de == "de la Sorcière des marais"
