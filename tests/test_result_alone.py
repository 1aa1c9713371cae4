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


def reseeded(pairs, seed):
    return [(k, str(seed) if k == "seed" else v) for k, v in pairs]


@pytest.mark.parametrize("slug", sorted(load_all()))
def test_a_scene_resolved_again_is_answered_as_without_memory(client, slug):
    """« Résoudre » again on a scene already resolved (a new seed, new dice typed): the scene kept
    by the process (views.Scene) gives exactly the answer drawn without that memory."""
    from django.test import override_settings

    from calculator import bestiary_cache

    cases = []
    for key, pairs in bodies(slug):
        cases += [
            (key, pairs),
            (key, reseeded(pairs, 12)),
            (key, [(k, v) for k, v in pairs if not k.startswith("dice.")]),
        ]
    fresh = [(unmasked(r), {h: r.get(h) for h in HEADERS}) for r in (post(client, slug, p) for _k, p in cases)]
    bestiary_cache.clear_local()
    try:
        with override_settings(BESTIARY_CACHE_SECONDS=30):
            for _round in range(2):
                kept = [
                    (unmasked(r), {h: r.get(h) for h in HEADERS}) for r in (post(client, slug, p) for _k, p in cases)
                ]
                for (key, _pairs), a, b in zip(cases, kept, fresh, strict=True):
                    assert a == b, key
            plugin = views.plugins.get(slug)
            kept_scenes = [
                bestiary_cache.kept_by("scene", plugin, views.scene_key(views.QueryDict(urlencode(p))))
                for _k, p in cases
            ]
            assert any(isinstance(scene, views.Scene) for scene in kept_scenes)  # some scene was kept
    finally:
        bestiary_cache.clear_local()


def test_a_reroll_after_a_kept_scene_still_drops_the_typed_dice(client):
    from django.test import override_settings

    from calculator import bestiary_cache

    _key, pairs = next(bodies("encore"))
    typed = [(k, v) for k, v in pairs if k.startswith("dice.") and v]
    assert typed
    bestiary_cache.clear_local()
    try:
        with override_settings(BESTIARY_CACHE_SECONDS=30):
            post(client, "encore", pairs)
            rerolled = post(client, "encore", [*pairs, ("_reroll", "1")])
            assert rerolled.status_code == 200
            pushed = rerolled["HX-Push-Url"]
            assert not re.search(r"[?&]seed=11(&|#|$)", pushed)  # a new roll, left to the server
            assert "dice." not in pushed  # the typed dice dropped: none kept in the permalink
            again = post(client, "encore", pairs)  # the scene kept, the typed dice and seed read again
            assert re.search(r"[?&]seed=11(&|#|$)", again["HX-Push-Url"])
            assert "dice." in again["HX-Push-Url"]
    finally:
        bestiary_cache.clear_local()
