"""Rate limits per client (calculator/limits.py; issue 17, finding 1).

Before, only the API was limited, per process and by a forgeable header; the calculator pages (live
updates computing odds, « Résoudre », permalinks) and share creation were never limited.
"""

import json
import logging
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import redis
from django.core.cache import cache
from django.core.cache.backends.redis import RedisCache
from django.core.exceptions import ImproperlyConfigured

from calculator import limits
from calculator.limits import Rate, hit, parse_rate, retry_after
from calculator.warmup import WARMUP_ADDRESS
from tests.pages import plain, text

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parent.parent
REDIS_URL = "redis://127.0.0.1:6379/11"  # this suite's own Redis database
HTMX = {"HTTP_HX_REQUEST": "true"}
LIVE = {"_f": "1", "_live": "1"}
RESOLVE = {"_f": "1"}


@pytest.fixture(autouse=True)
def _fresh_counts():
    cache.clear()
    yield
    cache.clear()


def assert_throttled(response, retry_at_least=1):
    assert response.status_code == 429
    assert int(response["Retry-After"]) >= retry_at_least
    assert "Trop de requêtes : réessayez dans" in plain(text(response))


# --- live updates and page views: PAGE_RATE -----------------------------------------------------


def test_live_updates_past_the_page_rate_get_a_french_fragment_htmx_shows(client, settings):
    settings.PAGE_RATE = "3/m"
    for _ in range(3):
        assert client.post("/encore/", LIVE, **HTMX).status_code == 200
    response = client.post("/encore/", LIVE, **HTMX)
    assert_throttled(response)
    assert response["HX-Retarget"] == "#throttled"
    assert response["HX-Reswap"] == "innerHTML"
    body = response.content.decode()
    assert "<html" not in body  # the fragment alone
    assert "Cette adresse a envoyé trop de mises à jour de la page en peu de temps" in plain(text(response))


def test_the_layout_has_the_slot_and_htmx_swaps_a_429(client):
    body = client.get("/encore/").content.decode()
    assert 'id="throttled"' in body
    assert '{"code": "429", "swap": true, "error": false}' in body


def test_page_views_past_the_page_rate_get_the_french_page(client, settings):
    settings.PAGE_RATE = "2/m"
    assert client.get("/encore/").status_code == 200
    assert client.get("/feerie/action/").status_code == 200
    response = client.get("/nephilim/")
    assert_throttled(response)
    assert re.search(r"<title>\s*Trop de requêtes\s*·", response.content.decode())
    assert "Retour aux calculateurs" in text(response)


def test_live_updates_do_not_spend_the_resolve_budget(client, settings):
    settings.PAGE_RATE = "0"
    settings.RESOLVE_RATE = "1/m"
    for _ in range(10):
        assert client.post("/encore/", LIVE, **HTMX).status_code == 200
        assert client.get("/encore/", {"_f": "1", "pc.attribute": "3"}, **HTMX).status_code == 200
        assert client.post("/encore/", {"_f": "1", "_refresh": "1"}, **HTMX).status_code == 200
        assert client.post("/encore/", {"_f": "1", "_clear": "1"}, **HTMX).status_code == 200
    assert client.post("/encore/", RESOLVE, **HTMX).status_code == 200
    assert client.post("/encore/", RESOLVE, **HTMX).status_code == 429


# --- resolves: RESOLVE_RATE, shared by the pages and the API ------------------------------------


def test_resolves_past_the_rate_get_429_on_the_page_and_in_the_api(client, settings):
    settings.RESOLVE_RATE = "3/m"
    settings.PAGE_RATE = "0"
    assert client.post("/encore/", RESOLVE, **HTMX).status_code == 200  # « Résoudre » (htmx)
    permalink = client.post("/encore/", RESOLVE)  # « Résoudre » without JavaScript
    assert permalink.status_code == 303
    assert client.get(permalink["Location"]).status_code == 200  # the permalink, with its result
    page = client.post("/encore/", RESOLVE, **HTMX)
    assert_throttled(page)
    assert "trop de résolutions" in text(page)
    assert_throttled(client.get(permalink["Location"]))
    api = client.post("/api/rulesets/encore/resolve", {"scenario": {}}, content_type="application/json")
    assert api.status_code == 429
    assert int(api["Retry-After"]) >= 1


def test_a_short_result_link_counts_as_a_resolve(client, settings):
    settings.RESOLVE_RATE = "1/m"
    settings.PAGE_RATE = "0"
    assert client.get("/p/unknown").status_code == 404  # counted, though nothing is there
    assert_throttled(client.get("/p/unknown"))


def test_a_quadrature_sheet_pdf_counts_as_a_resolve(client, settings):
    settings.RESOLVE_RATE = "1/m"
    settings.PAGE_RATE = "0"
    assert client.get("/quadrature/fiche.pdf?x=1").status_code != 429
    assert_throttled(client.get("/quadrature/fiche.pdf?x=1"))


def test_api_resolve_and_odds_count_as_resolves_with_the_api_error_format(client, settings):
    settings.RESOLVE_RATE = "2/m"
    body = json.dumps({"scenario": {}})
    assert client.post("/api/rulesets/encore/resolve", body, content_type="application/json").status_code == 200
    assert client.post("/api/rulesets/encore/odds", body, content_type="application/json").status_code == 200
    odds = client.post("/api/rulesets/encore/odds", body, content_type="application/json")
    assert odds.status_code == 429
    assert odds["Content-Type"].startswith("application/json")
    answer = odds.json()
    assert set(answer) == {"message", "errors"}
    assert answer["message"].startswith("Trop de requêtes\u202f: réessayez dans")
    assert answer["errors"] == {"__all__": answer["message"]}
    assert int(odds["Retry-After"]) >= 1
    # the other routes only count in API_RATE
    assert client.get("/api/rulesets/encore/schema").status_code == 200
    assert client.post("/encore/", RESOLVE, **HTMX).status_code == 429  # the same budget as the page


# --- share creation: SHARE_RATE -----------------------------------------------------------------


def test_share_creation_past_the_rate_gets_the_french_page(client, settings):
    settings.SHARE_RATE = "2/m"
    for _ in range(2):
        assert client.post("/r/", {"ruleset": "encore", "q": "_f=1"}).status_code != 429
    response = client.post("/r/", {"ruleset": "encore", "q": "_f=1"})
    assert_throttled(response)
    assert "trop de partages" in text(response)
    # reading a share is not limited
    assert client.get("/r/nothing-here").status_code == 404


# --- the API: API_RATE ----------------------------------------------------------------------------


def test_every_api_route_counts_in_api_rate(client, settings):
    settings.API_RATE = "2/m"
    assert client.get("/api/rulesets").status_code == 200
    assert client.get("/api/openapi.json").status_code == 200
    response = client.get("/api/rulesets/encore/examples")
    assert response.status_code == 429
    assert response.json()["errors"]["__all__"].startswith("Trop de requêtes")
    assert int(response["Retry-After"]) >= 1


def test_a_rate_of_zero_or_empty_is_no_limit(client, settings):
    settings.API_RATE = "0"
    settings.PAGE_RATE = ""
    for _ in range(30):
        assert client.get("/api/rulesets").status_code == 200
        assert client.post("/encore/", LIVE, **HTMX).status_code == 200


def test_other_pages_are_never_limited(client, settings):
    for name in limits.SETTINGS.values():
        setattr(settings, name, "1/m")
    for _ in range(5):
        assert client.get("/").status_code == 200
        assert client.get("/accounts/login/").status_code == 200


def test_the_warm_up_spends_no_client_budget(client, settings):
    settings.API_RATE = "1/m"
    for _ in range(5):
        assert client.get("/api/rulesets", REMOTE_ADDR=WARMUP_ADDRESS).status_code == 200
    assert client.get("/api/rulesets").status_code == 200
    # a client claiming the warm-up's address in a header is not the warm-up
    settings.TRUSTED_PROXIES = "127.0.0.0/8"
    for _ in range(2):
        claimed = client.get("/api/rulesets", REMOTE_ADDR=WARMUP_ADDRESS, HTTP_X_FORWARDED_FOR=WARMUP_ADDRESS)
    assert claimed.status_code == 429


def test_an_ipv6_client_counts_by_its_64_network(client, settings):
    settings.API_RATE = "2/m"
    assert client.get("/api/rulesets", REMOTE_ADDR="2001:db8:1:2::1").status_code == 200
    assert client.get("/api/rulesets", REMOTE_ADDR="2001:db8:1:2:ffff::9").status_code == 200
    assert client.get("/api/rulesets", REMOTE_ADDR="2001:db8:1:2::77").status_code == 429
    assert client.get("/api/rulesets", REMOTE_ADDR="2001:db8:1:3::1").status_code == 200


class DownCache:
    def __getattr__(self, name):
        def broken(*args, **kwargs):
            raise ConnectionError("Redis is down")

        return broken


def test_the_cache_failing_lets_requests_through(client, settings, monkeypatch, caplog):
    settings.API_RATE = "1/m"
    monkeypatch.setattr(limits, "cache", DownCache())
    with caplog.at_level(logging.WARNING, logger="calculator.limits"):
        for _ in range(3):
            assert client.get("/api/rulesets").status_code == 200
    assert "the cache failed" in caplog.text


# --- the sliding window -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "rate"),
    [("60/m", Rate(60, 60)), ("5/s", Rate(5, 1)), ("20/minute", Rate(20, 60)), ("2/hours", Rate(2, 3600)),
     (" 1 / d ", Rate(1, 86400)), ("0", None), ("", None), (None, None)],
)  # fmt: skip
def test_a_rate_is_read(value, rate):
    assert parse_rate(value, "PAGE_RATE") == rate


@pytest.mark.parametrize("value", ["60", "0/m", "-1/m", "60/week", "m/60", "1.5/s"])
def test_a_malformed_rate_is_refused_in_french(value):
    with pytest.raises(ImproperlyConfigured, match=r"PAGE_RATE\u202f: «\u202f.*\u202f» n'est pas une limite"):
        parse_rate(value, "PAGE_RATE")


def test_a_malformed_rate_stops_the_start():
    environment = {**os.environ, "RESOLVE_RATE": "beaucoup"}
    done = subprocess.run(
        [sys.executable, "manage.py", "check"], cwd=ROOT, env=environment, capture_output=True, text=True, timeout=120
    )
    assert done.returncode != 0
    assert "RESOLVE_RATE\u202f: «\u202fbeaucoup\u202f» n'est pas une limite" in done.stderr


def test_the_window_slides_across_its_boundary():
    rate = Rate(3, 60)
    start = 6000 * 60 + 59.0  # the last second of a window
    assert [hit("t", "c", rate, start) for _ in range(3)] == [0, 0, 0]
    # just after the boundary the previous window still weighs nearly all it counted
    assert hit("t", "c", rate, start + 1.5) > 0
    # a third into the new window a third of it has slid out: one more request fits
    assert hit("t", "c", rate, start + 1 + 20.5) == 0
    assert hit("t", "c", rate, start + 1 + 21) > 0


def test_a_refused_request_is_not_counted():
    rate = Rate(2, 60)
    now = 7000 * 60.0
    assert [hit("t", "c", rate, now) for _ in range(2)] == [0, 0]
    for _ in range(50):
        assert hit("t", "c", rate, now + 1) > 0
    # the next window opens with the two admitted requests only, not 52
    assert hit("t", "c", rate, now + 60 + 31) == 0


def test_retry_after_is_when_one_more_request_fits():
    # 3 admitted, none before, a quarter in: 45 s to the next window, then a third of it (20 s)
    assert retry_after(0, 3, 0.25, 3, 60) == 65
    # 3 before, 1 now, halfway: the previous window's weight must fall from 1.5 to 1
    assert retry_after(3, 1, 0.5, 3, 60) == 10
    assert retry_after(0, 0, 0.99, 1, 60) == 1  # never less than a second
    rate = Rate(3, 60)
    now = 8000 * 60.0 + 15
    for _ in range(3):
        hit("t", "c", rate, now)
    wait = hit("t", "c", rate, now)
    assert wait == 65
    assert hit("t", "c", rate, now + wait) == 0


# --- shared by the workers ----------------------------------------------------------------------


@pytest.fixture
def redis_db():
    server = redis.Redis.from_url(REDIS_URL)
    server.flushdb()
    yield REDIS_URL
    server.flushdb()


def test_two_workers_on_one_redis_share_the_count(redis_db, monkeypatch):
    """Two cache clients of their own, as two gunicorn workers have: one budget."""
    first, second = RedisCache(redis_db, {}), RedisCache(redis_db, {})
    rate = Rate(3, 60)
    now = 9000 * 60.0
    monkeypatch.setattr(limits, "cache", first)
    assert [hit("api", "192.0.2.1", rate, now), hit("api", "192.0.2.1", rate, now)] == [0, 0]
    monkeypatch.setattr(limits, "cache", second)
    assert hit("api", "192.0.2.1", rate, now) == 0
    assert hit("api", "192.0.2.1", rate, now) > 0
    monkeypatch.setattr(limits, "cache", first)
    assert hit("api", "192.0.2.1", rate, now) > 0
    assert hit("api", "192.0.2.2", rate, now) == 0


def test_with_redis_configured_the_middleware_counts_in_redis(redis_db, client, settings):
    settings.CACHES = {"default": {"BACKEND": "calculator.cache.SharedRedisCache", "LOCATION": redis_db}}
    settings.API_RATE = "2/m"
    assert client.get("/api/rulesets").status_code == 200
    other_worker = RedisCache(redis_db, {})
    keys = [k.decode() for k in redis.Redis.from_url(redis_db).keys("*estoc:limit:api:60:127.0.0.1:*")]
    assert len(keys) == 1
    assert other_worker.get(keys[0].split(":", 2)[2]) == 1  # the key as Django names it, without ":1:"
    assert client.get("/api/rulesets").status_code == 200
    assert client.get("/api/rulesets").status_code == 429


# --- the system check -----------------------------------------------------------------------------


def test_a_local_memory_cache_in_production_is_warned_about(settings):
    settings.DEBUG = False
    settings.API_RATE = "120/m"
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    [warning] = limits.per_process_limits()
    assert warning.id == "estoc.W001"
    assert "par processus" in warning.msg
    settings.CACHES = {"default": {"BACKEND": "calculator.cache.SharedRedisCache", "LOCATION": REDIS_URL}}
    assert limits.per_process_limits() == []
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    settings.DEBUG = True
    assert limits.per_process_limits() == []
    settings.DEBUG = False
    for name in limits.SETTINGS.values():
        setattr(settings, name, "0")
    assert limits.per_process_limits() == []
