"""views.permalinks encodes a result's fields once for all its variations: the same URLs as the
straightforward construction (permalink_pairs, then urlencode), for every worked example."""

from urllib.parse import urlencode

import pytest
from django.core.management import call_command

from calculator import plugins, services
from calculator.forms import permalink_pairs
from calculator.views import page_path, permalink_scenario, permalinks
from rulesets.core.registry import load_all

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def bestiary():
    call_command("loadfixtures", verbosity=0)


@pytest.mark.parametrize("slug", sorted(load_all()))
def test_the_same_urls_as_urlencode(slug):
    ruleset, plugin = load_all()[slug], plugins.get(slug)
    checked = 0
    for example in ruleset.examples():
        try:
            resolution = services.resolution_resolve(ruleset=ruleset, payload=example.request)
        except Exception:
            continue
        flat = permalink_scenario(resolution, plugin.hidden)
        variants = [{}, *(changes for _l, changes, _c in (plugin.variations(resolution) if plugin.variations else []))]
        variants.append({next(iter(flat)): "« x & y »", "brand.new": True, "gone": None})
        typed = {k: resolution.dice[k] for k in resolution.dice.typed}
        expected = [
            f"{page_path(slug)}?{urlencode([*permalink_pairs({**flat, **changes}, typed, resolution.dice.seed), ('r', '1')])}"
            for changes in variants
        ]
        assert permalinks(ruleset, resolution, plugin.hidden, variants, flat) == expected, example.key
        checked += 1
    assert checked
