"""Issue 14, item 6: every Nephilim worked example can be shared through ``/r/`` and comes back the same.

The root cause: the examples wrote rows short, leaving out the boxes that default to true (a
defence type's ``rolls``…); a permalink only says a box is ticked, so the share read them unticked
and refused the typed defence die (« Ce dé n'est pas lancé dans cette situation »). The examples
now carry the whole scenario (``rulesets/nephilim/examples.py``, ``_ex``).
"""

from urllib.parse import urlparse

import pytest
from django.core.management import call_command

from calculator import plugins, services
from calculator.forms import permalink_query
from calculator.models import SharedResult
from calculator.views import permalink
from rulesets.core.registry import load_all
from rulesets.core.schema import parse, to_data

pytestmark = pytest.mark.django_db

RULESET = load_all()["nephilim"]


@pytest.fixture(autouse=True)
def bestiary():
    call_command("loaddata", "fixtures/nephilim.json", verbosity=0)


def _share(client, query: str) -> SharedResult:
    response = client.post("/r/", {"ruleset": "nephilim", "q": query})
    assert response.status_code == 303, response.content.decode()[-1500:]
    return SharedResult.objects.get(pk=response["Location"].rsplit("/", 1)[1])


def _same_as_expected(shared: SharedResult, example) -> None:
    expected = example.expected
    assert shared.result["outcome"] == expected["outcome"], example.key
    for key, value in expected["numbers"].items():
        assert shared.result["numbers"][key] == value, (example.key, key)


@pytest.mark.parametrize("example", RULESET.examples(), ids=lambda e: e.key)
def test_every_nephilim_worked_example_round_trips_through_the_share_permalink(client, example):
    """The example's request as it stands (the path tests/test_share.py takes), then its result's
    own permalink: both shares give the example's numbers."""
    query = permalink_query({"scenario": example.request["scenario"], "dice": example.request["dice"]}, 7)
    _same_as_expected(_share(client, query.urlencode()), example)
    resolution = services.resolution_resolve(ruleset=RULESET, payload=dict(example.request, seed=7))
    link = permalink(RULESET, resolution, plugins.get("nephilim").hidden)
    _same_as_expected(_share(client, urlparse(link).query), example)


@pytest.mark.parametrize("example", RULESET.examples(), ids=lambda e: e.key)
def test_every_nephilim_worked_example_carries_its_whole_scenario(example):
    scenario = example.request["scenario"]
    assert to_data(parse(RULESET.scenario_type, scenario)) == scenario
