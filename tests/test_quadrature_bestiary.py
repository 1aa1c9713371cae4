"""Quadrature data: the fixtures hold every table of the seed and creatures that all play."""

import pytest
from django.core.management import call_command

from bestiary.quadrature import selectors
from bestiary.quadrature.models import ActionCard, Adversary, Die, PowerLevel
from bestiary.quadrature.web import MIN_ROWS, presets
from calculator import services
from rulesets.core.registry import get
from rulesets.core.schema import parse
from rulesets.quadrature.model import Adversary as SheetModel
from rulesets.quadrature.model import DiceFaces
from rulesets.quadrature.sheet import threat
from tests.factories_quadrature import (
    ActionCardFactory,
    AdversaryFactory,
    BlockFactory,
    BodyPartFactory,
    CardEffectFactory,
    DeckEntryFactory,
)
from tests.french_lint import assert_clean

pytestmark = pytest.mark.django_db
RULESET = get("quadrature")


@pytest.fixture
def fixtures():
    call_command("loaddata", "fixtures/quadrature.json", verbosity=0)


def test_the_dice_table_holds_the_seed_faces(fixtures):
    faces = {d.rung: d.face_list() for d in Die.objects.all()}
    assert faces == {"nuisance": [0, 1, 1, 2, 2, 3], "menace": [0, 1, 2, 3, 4, 5], "danger": [2, 3, 3, 4, 4, 5]}
    assert selectors.dice_faces() == DiceFaces()


def test_the_power_table_holds_the_nine_levels_and_their_means_are_computed(fixtures):
    rows = selectors.power_rows()
    assert [lv.name for lv, _st in rows][:3] == ["Insignifiant", "Nuisible", "Faible"]
    assert [float(st.mean) for _lv, st in rows] == [6, 7, 8, 9, 10, 11, 12, 13, 14]
    assert [lv.dice_symbols for lv, _st in rows][-1] == "🟫🟫🟫🟫"


def test_the_four_reusable_actions_ship_as_cards_with_their_seed_effects(fixtures):
    reusable = {c.name: c for c in ActionCard.objects.filter(reusable=True)}
    assert set(reusable) == {"Harcèlement", "Frappe vive", "Frappe lourde", "Morsure"}
    heavy = selectors.card_data(reusable["Frappe lourde"])
    assert (heavy["cost"], heavy["initiative"]) == (2, 5)
    assert heavy["success"]["heavy"] == 1
    assert heavy["star"]["stunned"] is True
    assert heavy["failure"]["light"] == 2
    bite = selectors.card_data(reusable["Morsure"])
    assert bite["star"]["entangled"] is True


def test_at_least_six_creatures_across_power_levels_and_two_hordes(fixtures):
    creatures = Adversary.objects.filter(kind="creature")
    hordes = Adversary.objects.filter(kind="horde")
    assert creatures.count() >= 6
    assert hordes.count() >= 2
    assert len(set(creatures.values_list("power", flat=True))) >= 6
    for horde in hordes:
        assert [c.name for c in horde.deck.all()] == ["Bande II", "Bande III"]


@pytest.mark.parametrize("mode", ["adversary_attack", "pc_attack", "round"])
def test_every_fixture_adversary_resolves_in_every_situation(fixtures, mode):
    for adversary in selectors.adversary_list():
        data = selectors.adversary_data(adversary)
        for card in range(1, len(data["deck"]) + 1):
            payload = {"scenario": {"mode": mode, "adversary": data, "card": card, "target_part": 1}, "seed": 5}
            result = services.resolution_resolve(ruleset=RULESET, payload=payload).result
            assert result.outcome, (adversary.name, card)
            assert result.numbers["threat"] > 0


# Issue 15: every name of the fixtures carries its grammar, chosen for that name.
FIXTURE_GRAMMAR = {
    "Rat géant des cales": ("defini", "m"),
    "Loup des cendres": ("defini", "m"),
    "Fourmi-soldat de la ruche": ("defini", "f"),
    "Nécrophage au regard pâle": ("defini", "m"),
    "Brigand vétéran": ("defini", "m"),
    "Griffon des falaises": ("defini", "m"),
    "Scarabée-forteresse": ("defini", "m"),
    "Wyrm des brumes": ("defini", "m"),
    "Nuée de rats": ("defini", "f"),
    "Fanatiques du culte": ("pluriel", "m"),
}


def test_every_fixture_adversary_carries_the_grammar_of_its_name(fixtures):
    rows = {a.name: (a.article, a.gender, a.elision) for a in Adversary.objects.all()}
    assert rows == {name: (*grammar, "auto") for name, grammar in FIXTURE_GRAMMAR.items()}
    swarm = selectors.adversary_data(Adversary.objects.get(name="Nuée de rats"))
    assert swarm["grammar"] == {"article": "defini", "gender": "f", "elision": "auto"}


def test_a_new_adversary_row_defaults_to_a_masculine_common_noun():
    row = Adversary(name="Ogre des collines")
    assert (row.article, row.gender, row.elision) == ("defini", "m", "auto")
    assert row.noun.de == "de l'Ogre des collines"


@pytest.mark.parametrize("mode", ["adversary_attack", "pc_attack", "round"])
def test_every_fixture_adversary_is_told_in_correct_french(fixtures, mode):
    """The lint of issue 15 over every creature of the bestiary, every card and every part."""
    texts: list[tuple[str, str]] = []
    for adversary in selectors.adversary_list():
        data = selectors.adversary_data(adversary)
        rows = len(data["deck"]) if mode == "adversary_attack" else len(data["parts"])
        for n in range(1, rows + 1):
            scenario = {
                "mode": mode,
                "adversary": data,
                "card": n if mode == "adversary_attack" else 1,
                "target_part": n if data["kind"] == "creature" else 1,
                "pc_success": {"light": 2, "heavy": 1, "fatigue": 2, "down": 1, "bleed": 1},
            }
            resolution = services.resolution_resolve(ruleset=RULESET, payload={"scenario": scenario, "seed": n})
            where = f"{adversary.name} {mode} {n}"
            texts += [(where, resolution.narrative.scene), *((where, p) for p in resolution.narrative.story)]
            texts.append((where, resolution.result.outcome_label))
            texts += [(where, t) for e in resolution.result.events for t in (e.label, e.value)]
    assert_clean(texts)


def test_every_fixture_card_odds_are_exact_and_fast_enough(fixtures):
    for adversary in selectors.adversary_list():
        data = selectors.adversary_data(adversary)
        _scenario, odds = services.odds_compute(ruleset=RULESET, payload={"scenario": {"adversary": data, "card": 1}})
        assert sum(p for _c, _l, p in odds.outcomes) == 1


def test_every_fixture_sheet_has_a_threat_level_with_each_term(fixtures):
    for adversary in selectors.adversary_list():
        sheet = parse(SheetModel, selectors.adversary_data(adversary))
        t = threat(sheet)
        assert t.survival == sum(points for code, _l, points in t.terms() if code not in {"actions", "best_effect"})
        assert t.value > 0


def test_a_fresh_sheet_starts_with_the_tokens_of_its_intact_blocks(fixtures):
    griffon = selectors.adversary_data(Adversary.objects.get(name="Griffon des falaises"))
    assert (griffon["endurance_tokens"], griffon["evasion_tokens"], griffon["stability_tokens"]) == (2, 1, 1)
    assert griffon["mental"] == "agressif"


def test_the_creature_presets_pad_every_list_so_a_smaller_sheet_blanks_the_rest(fixtures):
    group = next(g for g in presets() if g.key == "creature")
    rat = next(p for p in group.presets if "Rat géant" in p.label)
    assert rat.values["blocks.2.boxes"] == 0
    assert rat.values[f"deck.{MIN_ROWS['deck'] - 1}.name"] == ""
    assert rat.values["parts.0.name"] == "Corps"


def test_a_factory_sheet_becomes_scenario_data():
    part = BodyPartFactory(name="Carapace", armour=2)
    card = ActionCardFactory(name="Pince")
    CardEffectFactory(card=card, light=3)
    BlockFactory(part=part, boxes=4, capability="action", card=card)
    DeckEntryFactory(adversary=part.adversary, card=card)
    data = selectors.adversary_data(part.adversary)
    assert data["blocks"] == [
        {"boxes": 4, "ticked": 0, "capability": "action", "value": 0, "label": "Pince", "part": 1}
    ]
    assert data["deck"][0]["success"]["light"] == 3
    sheet = parse(SheetModel, data)
    assert sheet.parts[0].name == "Carapace"


def test_without_dice_in_the_database_the_engine_faces_apply():
    assert selectors.dice_faces_data() == {}
    assert selectors.dice_faces() == DiceFaces()


def test_the_admin_lists_and_edits_adversaries(fixtures, admin_client):
    assert admin_client.get("/admin/quadrature/adversary/?q=Griffon").status_code == 200
    assert admin_client.get("/admin/quadrature/adversary/?kind__exact=horde").status_code == 200
    griffon = Adversary.objects.get(name="Griffon des falaises")
    page = admin_client.get(f"/admin/quadrature/adversary/{griffon.pk}/change/")
    assert page.status_code == 200
    assert "Serres" in page.content.decode()
    # the name's grammar, in its own fieldset (issue 15)
    assert "Grammaire du nom" in page.content.decode()
    assert '<select name="gender"' in page.content.decode()
    assert admin_client.get("/admin/quadrature/actioncard/?q=Frappe").status_code == 200
    assert admin_client.get("/admin/quadrature/powerlevel/").status_code == 200


def test_a_power_level_is_a_row_of_the_table(fixtures):
    elite = PowerLevel.objects.get(name="Élite")
    assert (elite.danger, elite.menace, elite.nuisance, elite.pc_equivalent) == (4, 0, 0, "4/4")


def test_an_adversary_without_a_power_level_still_plays():
    adversary = AdversaryFactory()
    part = BodyPartFactory(adversary=adversary)
    BlockFactory(part=part)
    DeckEntryFactory(adversary=adversary, card=CardEffectFactory().card)
    data = selectors.adversary_data(adversary)
    result = services.resolution_resolve(
        ruleset=RULESET, payload={"scenario": {"adversary": data, "card": 1}, "seed": 2}
    )
    assert result.result.outcome in {"success", "failure"}
