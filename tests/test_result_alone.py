"""The click on « Résoudre » answered without building the form (views.result_alone) gives exactly the
answer of the whole view: the same result fragment, the same out-of-band parts, the same headers."""

import re
from urllib.parse import urlencode

import pytest
from django.core.management import call_command

from calculator import views
from calculator.forms import permalink_query
from calculator.views import page_path
from rulesets.core.registry import load_all
from rulesets.core.schema import parse, to_data

pytestmark = pytest.mark.django_db

HEADERS = ("HX-Push-Url", "HX-Retarget", "HX-Reswap")


@pytest.fixture(autouse=True)
def bestiary():
    call_command("loadfixtures", verbosity=0)


def bodies(slug):
    ruleset = load_all()[slug]
    for example in ruleset.examples():
        whole = to_data(parse(ruleset.scenario_type, example.request["scenario"]))
        form = permalink_query({"scenario": whole, "dice": example.request.get("dice", {})}, 11)
        yield example.key, [(k, v) for k, vs in form.lists() for v in vs]


def unmasked(response):
    """The page with its CSRF tokens blanked (each rendering masks the token anew)."""
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", response.content.decode())


def post(client, slug, pairs):
    return client.post(
        page_path(slug), urlencode(pairs), content_type="application/x-www-form-urlencoded", HTTP_HX_REQUEST="true"
    )


@pytest.mark.parametrize("slug", sorted(load_all()))
def test_the_result_alone_is_the_whole_views_answer(client, slug, monkeypatch):
    calls: list[bool] = []
    real = views.result_alone

    def spy(*args, **kwargs):
        answer = real(*args, **kwargs)
        calls.append(answer is not None)
        return answer

    for key, pairs in bodies(slug):
        monkeypatch.setattr(views, "result_alone", spy)
        fast = post(client, slug, pairs)
        monkeypatch.setattr(views, "result_alone", lambda *a, **k: None)
        slow = post(client, slug, pairs)
        assert fast.status_code == slow.status_code, key
        assert unmasked(fast) == unmasked(slow), key
        assert {h: fast.get(h) for h in HEADERS} == {h: slow.get(h) for h in HEADERS}, key
    assert any(calls)  # the fast path did answer (a page whose settle changes nothing)


def test_a_refused_scenario_draws_the_whole_calculator_with_its_messages(client):
    pairs = [("_f", "1"), ("pc.attribute", "abc"), ("seed", "3")]
    response = post(client, "encore", pairs)
    assert response.status_code == 422
    assert 'id="calculator"' in response.content.decode()
    assert "is-invalid" in response.content.decode()
