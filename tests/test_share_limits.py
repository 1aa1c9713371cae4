"""Shares with a creator, a size limit, the creator's duplicates, an admin page and a retention
command (issue 17, finding 2: one client made 1,358 anonymous shares in 10 s, no one could see or
clean them up)."""

from __future__ import annotations

import re
from datetime import timedelta
from html import unescape
from io import StringIO
from urllib.parse import urlparse

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.test import override_settings
from django.utils import timezone

from calculator.forms import permalink_query
from calculator.models import SharedResult, request_digest, stored_json
from calculator.sharing import DEFAULT_SHARE_MAX_BYTES
from rulesets.core.registry import load_all
from tests.factories_encounters import UserFactory
from tests.test_encore_pages import ALDRIC

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def bestiary():
    call_command("loadfixtures", verbosity=0)


def _query(client) -> str:
    return urlparse(client.post("/encore/", ALDRIC)["Location"]).query


def _share(client, query: str | None = None, slug: str = "encore"):
    response = client.post("/r/", {"ruleset": slug, "q": query if query is not None else _query(client)})
    assert response.status_code == 303, unescape(response.content.decode())[:400]
    return SharedResult.objects.get(pk=response["Location"].rsplit("/", 1)[1])


# --- creator -------------------------------------------------------------------------------------


def test_a_logged_in_gm_is_the_creator_of_the_share(client):
    user = UserFactory()
    client.force_login(user)
    shared = _share(client)
    assert shared.creator == user
    assert shared.creator_session == ""


def test_an_anonymous_share_belongs_to_a_new_session_stored_as_a_keyed_hash(client):
    assert settings.SESSION_COOKIE_NAME not in client.cookies
    query = _query(client)
    response = client.post("/r/", {"ruleset": "encore", "q": query})
    assert response.status_code == 303
    key = response.cookies[settings.SESSION_COOKIE_NAME].value  # the session was created for it
    shared = SharedResult.objects.get()
    assert shared.creator is None
    assert re.fullmatch(r"[0-9a-f]{64}", shared.creator_session)
    assert key not in shared.creator_session  # the session's key itself is never stored


def test_deleting_a_gm_account_deletes_its_shares(client):
    user = UserFactory()
    client.force_login(user)
    _share(client)
    user.delete()
    assert not SharedResult.objects.exists()


# --- duplicates ----------------------------------------------------------------------------------


def test_the_same_result_shared_twice_by_the_same_creator_is_the_same_share(client, django_user_model):
    query = _query(client)
    first, again = _share(client, query), _share(client, query)
    assert first.pk == again.pk
    assert SharedResult.objects.count() == 1
    assert first.request_hash == request_digest("encore", first.engine_version, first.request)
    # another visitor (another session) gets a share of their own
    other = _share(client.__class__(), query)
    assert other.pk != first.pk
    # so does a GM, once, whatever the number of clicks
    user = UserFactory()
    client.force_login(user)
    mine, mine_again = _share(client, query), _share(client, query)
    assert mine.pk == mine_again.pk != first.pk
    assert SharedResult.objects.count() == 3


# --- size ----------------------------------------------------------------------------------------


def test_the_stored_size_is_recorded(client):
    shared = _share(client)
    assert shared.size == len(stored_json(shared.request)) + len(stored_json(shared.result)) + len(
        stored_json(shared.summary)
    )
    assert 1000 < shared.size < settings.SHARE_MAX_BYTES


@override_settings(SHARE_MAX_BYTES=2000)
def test_a_share_past_share_max_bytes_is_a_413_in_french_and_stores_nothing(client):
    response = client.post("/r/", {"ruleset": "encore", "q": _query(client)})
    assert response.status_code == 413
    body = unescape(response.content.decode())
    assert "Partage impossible" in body
    assert "trop volumineux pour être partagé" in body
    assert "au plus 2\u00a0000" in body
    assert not SharedResult.objects.exists()


def test_every_worked_example_of_every_ruleset_shares_within_the_default_limit(client):
    assert settings.SHARE_MAX_BYTES == DEFAULT_SHARE_MAX_BYTES == 256 * 1024
    largest = 0
    for slug, ruleset in sorted(load_all().items()):
        for example in ruleset.examples():
            scenario, dice = example.request["scenario"], example.request.get("dice", {})
            query = permalink_query({"scenario": scenario, "dice": dice}, 7).urlencode()
            response = client.post("/r/", {"ruleset": slug, "q": query})
            if response.status_code == 400:  # an example the page cannot post (tests/test_permalinks.py)
                continue
            assert response.status_code == 303, (slug, example.key, unescape(response.content.decode())[:300])
            largest = max(largest, SharedResult.objects.get(pk=response["Location"].rsplit("/", 1)[1]).size)
    # Féerie Action's ogre_sylphes_action, some 60 KB: the default leaves four times that
    assert 50_000 < largest <= DEFAULT_SHARE_MAX_BYTES // 4
    assert SharedResult.objects.count() >= 95  # 105 examples, a few the page cannot post or identical


# --- admin ---------------------------------------------------------------------------------------


@pytest.fixture
def admin_client_with_shares(client):
    anonymous = _share(client)
    gm = UserFactory(username="mj_partage")
    client.force_login(gm)
    owned = _share(client)
    admin = get_user_model().objects.create_superuser("admin", "admin@example.org", "un-mot-de-passe-solide-42")
    client.force_login(admin)
    return client, anonymous, owned


def test_the_admin_lists_shares_with_creator_size_and_date(admin_client_with_shares):
    client, anonymous, owned = admin_client_with_shares
    response = client.get("/admin/calculator/sharedresult/")
    assert response.status_code == 200
    body = unescape(response.content.decode())
    for column in ("Système de règles", "Créateur", "Taille (octets)", "Créé le"):
        assert column in body
    assert anonymous.pk in body
    assert owned.pk in body
    assert '<td class="field-creator_label">mj_partage</td>' in body
    assert '<td class="field-creator_label">anonyme</td>' in body
    assert f'<td class="field-size">{owned.size}</td>' in body
    assert "anonyme (session)" in body
    assert "compte de MJ" in body


def test_the_admin_filters_by_creator_and_ruleset_and_searches_by_id(admin_client_with_shares):
    client, anonymous, owned = admin_client_with_shares
    only_anonymous = unescape(client.get("/admin/calculator/sharedresult/?creator_kind=anonymous").content.decode())
    assert anonymous.pk in only_anonymous
    assert owned.pk not in only_anonymous
    only_owned = unescape(client.get("/admin/calculator/sharedresult/?creator_kind=account").content.decode())
    assert owned.pk in only_owned
    assert anonymous.pk not in only_owned
    by_ruleset = unescape(client.get("/admin/calculator/sharedresult/?ruleset=nephilim").content.decode())
    assert anonymous.pk not in by_ruleset
    found = unescape(client.get(f"/admin/calculator/sharedresult/?q={owned.pk}").content.decode())
    assert owned.pk in found
    assert anonymous.pk not in found


def test_the_admin_deletes_selected_shares(admin_client_with_shares):
    client, anonymous, owned = admin_client_with_shares
    response = client.post(
        "/admin/calculator/sharedresult/",
        {"action": "delete_selected", "_selected_action": [anonymous.pk], "post": "yes"},
    )
    assert response.status_code == 302
    assert list(SharedResult.objects.values_list("pk", flat=True)) == [owned.pk]
    assert client.get(f"/admin/calculator/sharedresult/{owned.pk}/change/").status_code == 200


# --- retention -----------------------------------------------------------------------------------


@pytest.fixture
def aged_shares(client):
    """An anonymous share of 100 days, one of 10 days, a GM's of 100 days."""
    old, recent = _share(client), _share(client.__class__())
    gm = UserFactory()
    client.force_login(gm)
    owned = _share(client)
    now = timezone.now()
    SharedResult.objects.filter(pk__in=[old.pk, owned.pk]).update(created_at=now - timedelta(days=100))
    SharedResult.objects.filter(pk=recent.pk).update(created_at=now - timedelta(days=10))
    return old, recent, owned


def _purge(*args: str) -> str:
    out = StringIO()
    call_command("purge_shares", *args, stdout=out)
    return out.getvalue()


def test_purge_dry_run_counts_and_deletes_nothing(aged_shares):
    assert _purge("--older-than", "90d", "--dry-run") == (
        "1\u00a0résultat partagé anonyme de plus de 90\u00a0jours\u202f: serait supprimé (--dry-run\u202f: rien n'a été supprimé).\n"
    )
    assert SharedResult.objects.count() == 3
    assert "2\u00a0résultats partagés anonymes de plus de 5\u00a0jours\u202f: seraient supprimés" in _purge(
        "--older-than", "5", "--dry-run"
    )


def test_purge_deletes_old_anonymous_shares_and_keeps_the_gms(aged_shares):
    _old, recent, owned = aged_shares
    assert _purge("--older-than", "90") == "1\u00a0résultat partagé anonyme de plus de 90\u00a0jours\u202f: supprimé.\n"
    assert set(SharedResult.objects.values_list("pk", flat=True)) == {recent.pk, owned.pk}
    assert "1\u00a0résultat partagé anonyme ou de MJ" in _purge("--older-than", "90j", "--include-owned")
    assert list(SharedResult.objects.values_list("pk", flat=True)) == [recent.pk]


@pytest.mark.parametrize("value", ["abc", "0", "-3", "3m", "1.5", "", "90 jours"])
def test_purge_refuses_what_is_not_a_number_of_days_in_french(aged_shares, value):
    with pytest.raises(CommandError, match="attend un nombre entier de jours"):
        _purge("--older-than", value)
    assert SharedResult.objects.count() == 3


def test_purge_asks_for_older_than(aged_shares):
    with pytest.raises(CommandError, match="Précisez l'âge des partages"):
        _purge()
