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
