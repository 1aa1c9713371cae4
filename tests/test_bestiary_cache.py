"""The bestiary cache: one read per request, an admin's edit seen at once."""

import pytest
from django.core.cache import cache
from django.core.management import call_command
from django.test import override_settings

from bestiary.encore.models import NPC
from calculator import bestiary_cache, plugins

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fresh():
    call_command("loaddata", "fixtures/encore.json", verbosity=0)
    cache.clear()
    bestiary_cache.clear_local()
    yield
    bestiary_cache.clear_local()


def npc_labels():
    groups = {g.key: g for g in bestiary_cache.presets(plugins.get("encore"))}
    return [p.label for p in groups["npc"].presets]


@override_settings(BESTIARY_CACHE_SECONDS=30)
def test_a_second_read_is_the_same_python_object(django_assert_num_queries):
    first = bestiary_cache.presets(plugins.get("encore"))
    with django_assert_num_queries(0):
        second = bestiary_cache.presets(plugins.get("encore"))
    assert second[0] is first[0]  # the same objects: kept in process memory, not unpickled


@override_settings(BESTIARY_CACHE_SECONDS=30)
def test_an_edit_of_the_bestiary_is_seen_at_once():
    before = npc_labels()
    npc = NPC.objects.first()
    npc.name = "Sentinelle d'essai"
    npc.save()
    after = npc_labels()
    assert after != before
    assert any("Sentinelle d'essai" in label for label in after)


def test_without_caching_every_read_is_fresh():
    first = bestiary_cache.presets(plugins.get("encore"))
    second = bestiary_cache.presets(plugins.get("encore"))
    assert second[0] is not first[0]


@override_settings(BESTIARY_CACHE_SECONDS=30)
def test_values_by_key_keep_the_last_ones_asked_and_drop_the_oldest():
    plugin = plugins.get("encore")
    computed: list[int] = []

    def value(n):
        def compute():
            computed.append(n)
            return [n]

        return compute

    kept = [bestiary_cache.cached_by("test", plugin, n, value(n), size=3) for n in (1, 2, 3)]
    assert bestiary_cache.cached_by("test", plugin, 1, value(1), size=3) is kept[0]  # 1 asked again: the newest
    bestiary_cache.cached_by("test", plugin, 4, value(4), size=3)  # 2, the least recently asked, dropped
    assert bestiary_cache.kept_by("test", plugin, 2) is bestiary_cache.MISSING
    assert [bestiary_cache.kept_by("test", plugin, n) for n in (1, 3, 4)] == [[1], [3], [4]]
    assert computed == [1, 2, 3, 4]


@override_settings(BESTIARY_CACHE_SECONDS=30)
def test_values_by_key_are_dropped_when_the_bestiary_changes():
    plugin = plugins.get("encore")
    bestiary_cache.keep_by("test", plugin, "k", "avant")
    assert bestiary_cache.kept_by("test", plugin, "k") == "avant"
    npc = NPC.objects.first()
    npc.name = "Sentinelle d'essai"
    npc.save()
    assert bestiary_cache.kept_by("test", plugin, "k") is bestiary_cache.MISSING


def test_without_caching_nothing_is_kept_by_key():
    plugin = plugins.get("encore")
    bestiary_cache.keep_by("test", plugin, "k", "valeur")
    assert bestiary_cache.kept_by("test", plugin, "k") is bestiary_cache.MISSING
    assert bestiary_cache.cached_by("test", plugin, "k", lambda: "calculée") == "calculée"


def test_a_scenarios_odds_are_kept_and_are_the_engines():
    from calculator.services import scenario_odds
    from rulesets.core.registry import load_all
    from rulesets.core.schema import parse

    for slug, ruleset in load_all().items():
        scenario = parse(ruleset.scenario_type, ruleset.examples()[0].request["scenario"])
        again = parse(ruleset.scenario_type, ruleset.examples()[0].request["scenario"])
        first = scenario_odds(ruleset, scenario)
        assert first == ruleset.odds(scenario), slug
        assert scenario_odds(ruleset, again) is first, slug  # an equal scenario: the same odds, kept
