"""Issue 14, enCORE: focusing more attacks than the NPC has left is refused on its field, never a
silent no-strike (seed ``003`` « Les attaques des PNJ »; ``shared/rules/encore.md``)."""

import pytest
from django.core.management import call_command
from django.http import QueryDict

from encounters.models import Combatant
from rulesets.core.dice import fixed_roll
from rulesets.core.registry import get
from rulesets.core.request import resolve as resolve_request
from rulesets.core.schema import ScenarioError, parse
from rulesets.encore.engine import resolve
from rulesets.encore.model import NPC, PC, Scenario, Strike
from tests.encounters.helpers import apply, open_calculator, play, states
from tests.encounters.helpers import resolve as resolve_page
from tests.factories_encounters import EncounterFactory
from tests.pages import plain, text

NNBSP = "\u202f"
FAILURE = {"pc.1": 1, "pc.2": 1, "pc.3": 1}  # 3 dice, no success: the breach opens


def roll(*faces):
    return fixed_roll({f"pc.{i}": f for i, f in enumerate(faces, 1)})


def flat(message: str) -> str:
    return plain(message).replace(NNBSP, " ")


def test_encore_concentrating_two_attacks_with_one_left_is_refused_on_the_field():
    """« Une fois ses attaques dépensées, le PNJ ne frappe plus de ce tour »: two attacks cannot be
    focused when one is left. The old code accepted it and resolved a breach with no strike."""
    with pytest.raises(ScenarioError) as caught:
        parse(Scenario, {"npcs": [{"name": "Arbalétrier", "menace": 2, "attacks_left": 1}], "strike": {"attacks": 2}})
    assert flat(caught.value.errors["strike.attacks"]) == (
        "Attaques concentrées : Arbalétrier n'a plus qu'une attaque ce tour (2 demandées)."
    )


def test_encore_concentrating_three_attacks_with_two_left_names_what_is_left():
    with pytest.raises(ScenarioError) as caught:
        parse(Scenario, {"npcs": [{"menace": 3, "attacks_left": 2}], "strike": {"attacks": 3}})
    assert flat(caught.value.errors["strike.attacks"]) == (
        "Attaques concentrées : le PNJ n'a plus que 2 attaques ce tour (3 demandées)."
    )


def test_encore_concentrating_more_than_left_is_a_field_error_on_the_api_path():
    payload = {
        "scenario": {"npcs": [{"menace": 2, "attacks_left": 1}], "strike": {"attacks": 2}},
        "dice": {"pc.1": 1, "pc.2": 1, "pc.3": 1},
    }
    with pytest.raises(ScenarioError) as caught:
        resolve_request(get("encore"), payload)
    assert "qu'une attaque" in caught.value.errors["scenario.strike.attacks"]


def test_encore_the_engine_never_resolves_a_silent_no_strike():
    """Called without ``check()`` the engine refuses too, on the same field."""
    scenario = Scenario(pc=PC(attribute=1), npcs=(NPC(menace=2, attacks_left=1),), strike=Strike(attacks=2))
    with pytest.raises(ScenarioError) as caught:
        resolve(scenario, roll(1))
    assert "qu'une attaque" in caught.value.errors["strike.attacks"]


def test_encore_one_attack_left_still_strikes_once():
    scenario = Scenario(pc=PC(attribute=1), npcs=(NPC(menace=2, weapon=3, attacks_left=1),))
    result = resolve(
        parse(Scenario, {"pc": {"attribute": 1}, "npcs": [{"menace": 2, "weapon": 3, "attacks_left": 1}]}), roll(1)
    )
    assert result.numbers["strike_damage"] == 3
    assert result.numbers["npc_attacks_left"] == 0
    assert resolve(scenario, roll(1)).numbers == result.numbers


def test_encore_no_attack_left_means_no_strike_and_the_story_says_why():
    """With none left the seed's rule applies: the NPC does not strike, the panel and the story say
    so (this is not a concentration the game master could lower)."""
    scenario = parse(Scenario, {"npcs": [{"menace": 2, "attacks_left": 0}], "strike": {"attacks": 1}})
    result = resolve(scenario, roll(1))
    assert result.numbers["breach"] is True
    assert "strike_damage" not in result.numbers
    [event] = result.events_of("no_attacks")
    assert "plus aucune attaque ce tour" in event.label


# --- the page and the encounter -----------------------------------------------------------------


@pytest.fixture
def bestiary():
    call_command("loaddata", "fixtures/encore.json", verbosity=0)


PAGE = {
    "_f": "1",
    "action": "attaque",
    "pc.name": "Aldric",
    "pc.attribute": "3",
    "npcs.0.name": "Arbalétrier",
    "npcs.0.menace": "2",
    "npcs.0.sante": "4",
    "npcs.0.weapon": "3",
    "npcs.0.attacks_left": "1",
    "strike.enabled": "on",
    "strike.striker": "1",
    "strike.attacks": "2",
    "dice.pc.1": "1",
    "dice.pc.2": "1",
    "dice.pc.3": "1",
}


@pytest.mark.django_db
def test_encore_page_refuses_two_attacks_with_one_left_on_the_field(client, bestiary):
    """The page no longer lowers the count behind the game master's back: the field says why."""
    response = client.post("/encore/", PAGE)
    assert response.status_code == 422
    assert "strike.attacks" in response.context["form"].errors
    assert "Arbalétrier n'a plus qu'une attaque ce tour (2 demandées)" in flat(text(response))


@pytest.fixture
def encounter(client, bestiary):
    encounter = EncounterFactory(system="encore", clock={"turn": 1})
    client.force_login(encounter.owner)
    return encounter


def _fighters(encounter, attacks_left):
    aldric = Combatant.objects.create(
        encounter=encounter,
        kind="pj",
        name="Aldric",
        state={"name": "Aldric", "attribute": 3, "sante": 8, "sante_max": 8, "acted": False},
    )
    brute = Combatant.objects.create(
        encounter=encounter,
        kind="pnj",
        name="Brute",
        state={"name": "Brute", "menace": 3, "sante": 9, "sante_max": 9, "weapon": 4, "attacks_left": attacks_left},
    )
    return aldric, brute


@pytest.mark.django_db
def test_encore_encounter_refuses_focusing_more_than_the_npc_has_left(client, encounter):
    aldric, brute = _fighters(encounter, attacks_left=1)
    url = open_calculator(client, encounter, "encore", pc=aldric, npcs=brute)
    path, query = url.split("?", 1)
    data = QueryDict(query, mutable=True)
    data["strike.attacks"] = "2"
    data.update({f"dice.{slot}": str(face) for slot, face in FAILURE.items()})
    response = client.post(path, data)
    assert response.status_code == 422
    assert "strike.attacks" in response.context["form"].errors
    assert "Brute n'a plus qu'une attaque ce tour (2 demandées)" in flat(text(response))
    assert states(encounter)["Brute"]["attacks_left"] == 1


@pytest.mark.django_db
def test_encore_encounter_apply_refuses_a_strike_beyond_the_encounters_attacks_left(client, encounter):
    """The calculator's « Attaques restantes » edited away from the encounter's (blank = the Menace):
    the apply says why instead of writing 0 attacks left (the old ``max(0, …)``)."""
    aldric, brute = _fighters(encounter, attacks_left=1)
    url = open_calculator(client, encounter, "encore", pc=aldric, npcs=brute)
    page = resolve_page(client, url, FAILURE, **{"strike.attacks": 2, "npcs.0.attacks_left": ""})
    response = apply(client, page)
    assert response.status_code == 400
    assert "dans la rencontre, Brute n'a plus qu'une attaque ce tour, et le calcul en dépense 2" in flat(text(response))
    encounter.refresh_from_db()
    assert states(encounter)["Brute"]["attacks_left"] == 1
    assert states(encounter)["Aldric"]["sante"] == 8


@pytest.mark.django_db
def test_encore_encounter_spends_the_attacks_the_strike_focused(client, encounter):
    """The attacks spent are those of the strike, not the difference between the page's attacks left
    and the encounter's (the old code spent nothing when the page said 3 left and the encounter 2)."""
    aldric, brute = _fighters(encounter, attacks_left=2)
    response = play(
        client,
        encounter,
        "encore",
        {"pc": aldric, "npcs": brute},
        FAILURE,
        **{"strike.attacks": 1, "npcs.0.attacks_left": "3"},
    )
    assert response.status_code == 303
    assert states(encounter)["Brute"]["attacks_left"] == 1
    assert states(encounter)["Aldric"]["sante"] == 4


# --- other silent clamps and drops of the enCORE encounter ----------------------------------------


def _advantaged(n: int):
    from rulesets.core.encounter import Fighter
    from rulesets.encore.encounter import Advantage, NpcState, PcState

    pc = Fighter("pj-1", "Aldric", "pj", PcState(name="Aldric"))
    npc = Fighter(
        "pnj-1",
        "Ogre",
        "pnj",
        NpcState(
            name="Ogre",
            menace=3,
            sante=9,
            sante_max=9,
            advantages=tuple(Advantage("à terre", "Brenna") for _ in range(n)),
        ),
    )
    return pc, npc


def test_encore_allies_advantages_beyond_six_are_not_clamped():
    """« Un effet qui avantage les alliés leur donne +1d6 contre ce PNJ tant qu'il dure »: seven
    advantages are seven dice (the old fill clamped them to 6)."""
    from rulesets.encore.encounter import Clock, fill

    pc, npc = _advantaged(7)
    out = fill({"pc": (pc,), "npcs": (npc,)}, Clock())
    assert out["pc.bonus_dice"] == 7
    assert parse(Scenario, {"pc": {"bonus_dice": 7}}).pc.bonus_dice == 7


def test_encore_a_ninth_advantage_is_said_not_silently_dropped():
    from rulesets.encore.encounter import Clock
    from rulesets.encore.encounter import apply as apply_exchange

    pc, npc = _advantaged(8)
    scenario = parse(
        Scenario,
        {
            "action": "manoeuvre",
            "pc": {"name": "Aldric", "attribute": 3},
            "npcs": [{"name": "Ogre", "menace": 1}],
            "effect": "le renverser",
            "effect_helps_allies": True,
        },
    )
    result = resolve(scenario, roll(6, 1, 1))
    applied = apply_exchange(scenario, result, {"pc": (pc,), "npcs": (npc,)}, Clock())
    assert len(applied.states.get("pnj-1", npc.state).advantages) == 8
    assert any("L'avantage n'est pas noté" in flat(note) for note in applied.notes)
