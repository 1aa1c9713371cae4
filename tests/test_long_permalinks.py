"""Permalinks that always fit (issue 17, finding 9): a long one is compacted (``?z=…``) or made a
short link (``/p/<id>``), and either replays the same result; a corrupt ``z`` is a French 400.

Before: Féerie Action's ``ogre_sylphes_action`` gave a 12 KB permalink, past gunicorn's request
line (8,190 bytes: a 414) and past what a wiki or a chat keeps of a link."""

from __future__ import annotations

import base64
import lzma
import zlib
from html import unescape

import pytest
from django.core.management import call_command
from django.test import Client, override_settings

from calculator import plugins, services, short_links, views
from calculator.forms import leaves, permalink_query
from calculator.models import ShortLink
from calculator.views import permalink
from rulesets.core import request as core_request
from rulesets.core.registry import load_all
from rulesets.core.schema import parse, to_data

pytestmark = pytest.mark.django_db

LIMIT = 2000
REQUEST_LINE = 8190 - len("GET  HTTP/1.1")
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture(autouse=True)
def bestiary():
    call_command("loadfixtures", verbosity=0)


def _examples():
    for slug, ruleset in sorted(load_all().items()):
        for example in ruleset.examples():
            yield slug, example


def _resolved(slug, example):
    ruleset = load_all()[slug]
    try:
        return services.resolution_resolve(ruleset=ruleset, payload=example.request)
    except Exception:  # as tests/test_permalinks.py: an example the page cannot post
        return None


def _ogre():
    example = next(e for e in load_all()["feerie-action"].examples() if e.key == "ogre_sylphes_action")
    return example, _resolved("feerie-action", example)


def _replayed(client: Client, url: str):
    response = client.get(url)
    assert response.status_code == 200, unescape(response.content.decode())[:400]
    return response, response.context["resolution"]


def _post_data(slug, example, seed=42):
    ruleset = load_all()[slug]
    scenario = to_data(parse(ruleset.scenario_type, example.request["scenario"]))
    return permalink_query({"scenario": scenario, "dice": example.request.get("dice", {})}, seed).urlencode()


def test_the_ogre_and_sylphs_permalink_fits_and_replays_the_same_result(client):
    example, resolution = _ogre()
    raw = permalink(load_all()["feerie-action"], resolution, plugins.get("feerie-action").hidden)
    assert len(raw) > REQUEST_LINE  # the finding: 12 KB, a 414 behind gunicorn
    response = client.post("/feerie/action/", _post_data("feerie-action", example), "application/x-www-form-urlencoded")
    assert response.status_code == 303
    link = response["Location"]
    assert len(link) <= LIMIT
    assert "z=" in link
    assert "r=1" in link
    assert "seed=42" in link
    page, again = _replayed(client, link)
    # the same outcome and numbers as the long permalink of that result gives
    long_link = permalink(load_all()["feerie-action"], again, plugins.get("feerie-action").hidden)
    assert len(long_link) > REQUEST_LINE
    _page, long = _replayed(client, long_link)
    assert again.result.outcome == long.result.outcome
    assert dict(again.result.numbers) == dict(long.result.numbers)
    assert core_request.result_data(again) == core_request.result_data(long)
    # the link the page shows is the one it was reached by
    assert page.context["permalink"] == link


def test_the_htmx_resolve_pushes_a_permalink_that_fits(client):
    example, _resolution = _ogre()
    response = client.post(
        "/feerie/action/", _post_data("feerie-action", example), "application/x-www-form-urlencoded", **HTMX
    )
    assert response.status_code == 200
    pushed = response["HX-Push-Url"]
    assert len(pushed) <= LIMIT
    assert client.get(pushed).status_code == 200


def test_every_worked_example_has_a_permalink_that_fits_and_replays_identically(client):
    """The link each example's result shows (views.carry, as the page builds it: tested on the page
    above), then that link opened: the same result as the full permalink replayed."""
    checked = compacted = 0
    for slug, example in _examples():
        resolution = _resolved(slug, example)
        if resolution is None:
            continue
        ruleset, hidden = load_all()[slug], plugins.get(slug).hidden
        raw = permalink(ruleset, resolution, hidden)
        first = services.resolution_from_query(ruleset=ruleset, query=raw.partition("?")[2])
        own = permalink(ruleset, first, hidden)
        shown = views.carry(None, own)
        assert len(shown) <= LIMIT, (slug, example.key, len(shown))
        assert shown == own or len(own) > LIMIT  # a link that fits is left as it is
        page, again = _replayed(client, shown)
        assert page.context["permalink"] == shown + "#result"
        for _label, url, _current in page.context["variations"]:
            assert len(url) <= short_links.NAVIGATION_MAX_BYTES + len("#result"), (slug, example.key)
        assert core_request.result_data(again) == core_request.result_data(first), (slug, example.key)
        assert again.result.outcome == resolution.result.outcome, (slug, example.key)
        checked += 1
        compacted += shown != own
    assert checked >= 100
    assert compacted >= 50  # most of Nephilim, Quadrature, some of Féerie: longer than 2,000 bytes


def test_a_compact_query_expands_to_the_permalink_byte_for_byte():
    for slug, example in _examples():
        resolution = _resolved(slug, example)
        if resolution is None:
            continue
        raw = permalink(load_all()[slug], resolution, plugins.get(slug).hidden)
        carried = f"{raw}&_enc=12&_enc_v=3&_role.pc=4%2C5"  # an encounter's hidden fields, kept readable
        for url in (raw, carried):
            small = short_links.compact(url, 100_000)
            assert small is not None
            path, _sep, query = small.partition("?")
            assert path == raw.partition("?")[0]
            assert short_links.expand_query(query) == url.partition("?")[2], (slug, example.key)
        assert "_enc=12&_enc_v=3&_role.pc=4%2C5" in short_links.compact(carried, 100_000)


def test_lzma_takes_over_when_zlib_does_not_fit():
    _example, resolution = _ogre()
    raw = permalink(load_all()["feerie-action"], resolution, plugins.get("feerie-action").hidden)
    query = raw.partition("?")[2]
    text = "&".join(p for p in query.split("&") if not p.startswith(("_", "r=", "seed=", "dice.")))
    assert len(short_links.pack(text)) > LIMIT  # zlib alone: 2,050 characters
    link = short_links.compact(raw, LIMIT)
    assert link is not None
    assert short_links.expand_query(link.partition("?")[2]) == query


def test_no_scenario_field_is_named_like_a_kept_or_packed_parameter():
    """The ``z`` parameter and the readable ones never collide with a scenario field."""
    for ruleset in load_all().values():
        for leaf in leaves(ruleset.scenario_type, {}):
            assert leaf.path not in ("z", "r", "seed"), (ruleset.slug, leaf.path)
            assert not leaf.path.startswith(("_", "dice.")), (ruleset.slug, leaf.path)


# --- short links ---------------------------------------------------------------------------------


@override_settings(PERMALINK_MAX_BYTES=300)
def test_a_permalink_too_long_even_compact_gets_a_short_link_rendered_in_place(client):
    example, _resolution = _ogre()
    response = client.post("/feerie/action/", _post_data("feerie-action", example), "application/x-www-form-urlencoded")
    link = response["Location"].removesuffix("#result")
    assert link.startswith("/p/")
    assert len(link) <= 300
    page = client.get(link)
    assert page.status_code == 200  # rendered, not redirected to the long URL
    assert page.context["permalink"].removesuffix("#result") == link  # the same short link again
    again = page.context["resolution"]
    raw = permalink(load_all()["feerie-action"], again, plugins.get("feerie-action").hidden)
    _page, long = _replayed(client, raw)
    assert core_request.result_data(again) == core_request.result_data(long)
    assert ShortLink.objects.count() == 1
    # the form of the short link's page posts to the calculator page
    assert 'action="/feerie/action/"' in page.content.decode()


def test_a_short_link_is_the_same_for_the_same_url_and_unknown_ones_are_404(client):
    url = "/encore/?_f=1&pc.attribute=3&seed=5&r=1"
    first, second = short_links.short_link(url), short_links.short_link(url)
    assert first == second
    assert ShortLink.objects.count() == 1
    assert client.get(first).status_code == 200
    assert client.get("/p/AAAAAAAAAAAAAAAA").status_code == 404
    ShortLink.objects.create(id="elsewhere", url="/admin/")
    assert client.get("/p/elsewhere").status_code == 404


# --- refused links -------------------------------------------------------------------------------


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _real_z() -> str:
    _example, resolution = _ogre()
    raw = permalink(load_all()["feerie-action"], resolution, plugins.get("feerie-action").hidden)
    link = short_links.compact(raw, 100_000)
    assert link is not None
    return next(p for p in link.partition("?")[2].split("&") if p.startswith("z=")).partition("=")[2]


def _lzma(raw: bytes, crc: int | None = None) -> bytes:
    body = lzma.compress(raw, format=lzma.FORMAT_RAW, filters=short_links._LZMA_FILTERS)
    return bytes([2]) + body + (zlib.crc32(raw) if crc is None else crc).to_bytes(4, "big")


BOMB = b"0" * (4 * 1024 * 1024)


@pytest.mark.parametrize(
    ("z", "message"),
    [
        pytest.param("!!!", "abîmé ou incomplet", id="not base64"),
        pytest.param("AQ", "abîmé ou incomplet", id="one byte"),
        pytest.param(_b64(b"\x01not zlib at all"), "abîmé ou incomplet", id="not zlib"),
        pytest.param(_b64(b"\x07" + zlib.compress(b"a=1")), "abîmé ou incomplet", id="unknown format"),
        pytest.param(_b64(b"\x01" + zlib.compress(b"a=1")[:-3]), "abîmé ou incomplet", id="truncated zlib"),
        pytest.param(_b64(b"\x01" + zlib.compress(b"\xff\xfe=1")), "abîmé ou incomplet", id="not utf-8"),
        pytest.param(_b64(_lzma(b"a=1", crc=12345)), "abîmé ou incomplet", id="bad crc"),
        pytest.param(_b64(_lzma(b"a=1"))[:-8], "abîmé ou incomplet", id="truncated lzma"),
        pytest.param(_b64(b"\x01" + zlib.compress(BOMB, 9)), "dépasserait 256\u00a0Kio", id="zlib bomb"),
        pytest.param(_b64(_lzma(BOMB)), "dépasserait 256\u00a0Kio", id="lzma bomb"),
        pytest.param(_b64(b"\x01" + zlib.compress(b"&".join([b"a=1"] * 5000))), "trop de champs", id="too many fields"),
        pytest.param("A" * (17 * 1024), "dépasserait 256\u00a0Kio", id="too long"),
    ],
)
def test_a_corrupt_or_oversized_z_is_a_french_400(client, z, message):
    response = client.get(f"/feerie/action/?_f=1&z={z}&seed=1&r=1")
    assert response.status_code == 400
    body = unescape(response.content.decode())
    assert "Lien invalide" in body
    assert message in body


def test_a_truncated_real_z_and_two_z_are_refused(client):
    z = _real_z()
    assert client.get(f"/feerie/action/?_f=1&z={z}&seed=1&r=1").status_code == 200
    queries = (f"_f=1&z={z[:-10]}&seed=1&r=1", f"_f=1&z={z}&z={z}&seed=1&r=1", f"_f=1&z={z}&%7A=AQ&seed=1&r=1")
    for query in queries:
        response = client.get(f"/feerie/action/?{query}")
        assert response.status_code == 400
        assert "n'a pas été ouvert" in unescape(response.content.decode()) or "abîmé" in unescape(
            response.content.decode()
        )


def test_sharing_a_compact_permalink_works_and_a_corrupt_one_is_a_french_400(client):
    example, _resolution = _ogre()
    link = client.post("/feerie/action/", _post_data("feerie-action", example), "application/x-www-form-urlencoded")[
        "Location"
    ]
    query = link.partition("?")[2].removesuffix("#result")
    assert "z=" in query
    shared = client.post("/r/", {"ruleset": "feerie-action", "q": query})
    assert shared.status_code == 303
    page = client.get(shared["Location"])
    assert page.status_code == 200
    reopened = page.context["item"].permalink
    assert len(reopened) <= LIMIT
    assert client.get(reopened).status_code == 200
    bad = client.post("/r/", {"ruleset": "feerie-action", "q": "_f=1&z=AQ&seed=1&r=1"})
    assert bad.status_code == 400
    assert "abîmé ou incomplet" in unescape(bad.content.decode())
