"""The client's address behind our proxies or none (calculator/clientip.py; issue 17, findings 1, 3, 5).

Finding 1: the API's limiter identified the client by the raw X-Forwarded-For header, so a client
sending a new one with each request was never limited. Finding 3: axes read only the socket
address (PROXY_COUNT had no effect), so behind nginx one attacker locked every user of an account
out. Finding 5: any client sending ``X-Forwarded-Proto: https`` skipped the HTTPS redirect.
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.core.exceptions import ImproperlyConfigured
from django.test import Client, RequestFactory

from calculator.clientip import client_address, from_trusted_proxy, parse_trusted_proxies

ROOT = Path(__file__).resolve().parent.parent
PROXY = "10.0.0.2"  # our nginx, as the socket address
ATTACKER = "203.0.113.5"
GM = "198.51.100.7"


@pytest.fixture(autouse=True)
def _fresh_counts():
    cache.clear()
    yield
    cache.clear()


def meta(remote=PROXY, forwarded=None, **extra):
    request = RequestFactory().get("/", REMOTE_ADDR=remote, **extra)
    if forwarded is not None:
        request.META["HTTP_X_FORWARDED_FOR"] = forwarded
    return request


# --- client_address -------------------------------------------------------------------------------


def test_without_trusted_proxies_only_the_socket_address_counts(settings):
    settings.TRUSTED_PROXIES = ""
    request = meta(forwarded=f"{ATTACKER}, {GM}")
    assert client_address(request) == PROXY
    assert not from_trusted_proxy(request)


def test_with_one_trusted_proxy_the_right_most_hop_is_the_client(settings):
    settings.TRUSTED_PROXIES = "1"
    # the client sent "6.6.6.6" itself; nginx appended the address it received the request from
    assert client_address(meta(forwarded=f"6.6.6.6, {GM}")) == GM
    assert client_address(meta(forwarded=GM)) == GM


def test_with_two_trusted_proxies_the_second_hop_from_the_right_is_the_client(settings):
    settings.TRUSTED_PROXIES = "2"
    assert client_address(meta(forwarded=f"6.6.6.6, {GM}, 10.0.0.9")) == GM


def test_a_request_that_skipped_the_counted_proxies_is_its_socket_address(settings):
    settings.TRUSTED_PROXIES = "2"
    request = meta(remote="192.0.2.1", forwarded=GM)
    assert client_address(request) == "192.0.2.1"
    assert not from_trusted_proxy(request)


def test_listed_proxies_walk_the_header_from_the_right(settings):
    settings.TRUSTED_PROXIES = "10.0.0.0/8, 2001:db8::1"
    assert client_address(meta(forwarded=f"6.6.6.6, {GM}, 10.0.0.3")) == GM
    assert client_address(meta(remote="2001:db8::1", forwarded=GM)) == GM
    # every hop ours (a request from the proxy's own network): the left-most one
    assert client_address(meta(forwarded="10.0.0.7, 10.0.0.3")) == "10.0.0.7"
    assert client_address(meta(forwarded=None)) == PROXY


def test_listed_proxies_ignore_the_header_of_anyone_else(settings):
    settings.TRUSTED_PROXIES = "10.0.0.2"
    request = meta(remote=ATTACKER, forwarded=GM)
    assert client_address(request) == ATTACKER
    assert not from_trusted_proxy(request)


@pytest.mark.parametrize(
    ("forwarded", "expected"),
    [
        ("", PROXY),
        (",,,", PROXY),
        ("garbage", PROXY),
        ("unknown, 198.51.100.7", GM),
        ("198.51.100.7:4711", GM),
        ("[2001:db8::5]:443", "2001:db8::5"),
        ("::ffff:198.51.100.7", GM),
        ('"198.51.100.7"', GM),
        ("1.2.3.4, " * 5000 + GM, GM),
        ("\x00\xff, é", PROXY),
        ("999.1.1.1", PROXY),
    ],
)
def test_a_malformed_header_never_raises(settings, forwarded, expected):
    settings.TRUSTED_PROXIES = "1"
    assert client_address(meta(forwarded=forwarded)) == expected
    settings.TRUSTED_PROXIES = PROXY
    assert client_address(meta(forwarded=forwarded)) == expected


def test_a_malformed_socket_address_is_kept_as_given(settings):
    settings.TRUSTED_PROXIES = PROXY
    assert client_address(meta(remote="", forwarded=GM)) == ""
    assert client_address(meta(remote="unix:/run/x", forwarded=GM)) == "unix:/run/x"


@pytest.mark.parametrize("value", ["nginx", "10.0.0.0/33", "1, 2", " , "])
def test_a_malformed_setting_is_refused_in_french(value):
    with pytest.raises(ImproperlyConfigured, match=r"TRUSTED_PROXIES\u202f: «\u202f.*\u202f» n'est ni un nombre"):
        parse_trusted_proxies(value)


@pytest.mark.parametrize(("value", "count"), [("", 0), ("0", 0), ("1", 1), (" 3 ", 3), (None, 0)])
def test_a_count_is_read(value, count):
    assert parse_trusted_proxies(value).count == count


def run_manage(*args, **env):
    environment = {k: v for k, v in os.environ.items() if k not in {"TRUSTED_PROXIES", "PROXY_COUNT"}}
    environment.update(env)
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=environment, capture_output=True, text=True, timeout=120
    )


def test_proxy_count_is_read_as_trusted_proxies_and_a_bad_value_stops_the_start():
    done = run_manage(
        "shell",
        "--no-imports",
        "-c",
        "from django.conf import settings; print(settings.TRUSTED_PROXIES)",
        PROXY_COUNT="1",
    )
    assert done.stdout.strip() == "1", done.stderr
    refused = run_manage("check", TRUSTED_PROXIES="nginx")
    assert refused.returncode != 0
    assert "TRUSTED_PROXIES\u202f: «\u202fnginx\u202f»" in refused.stderr


# --- finding 1: the API's limit and X-Forwarded-For ---------------------------------------------


def test_rotating_x_forwarded_for_no_longer_escapes_the_api_limit(client, settings):
    settings.TRUSTED_PROXIES = ""
    settings.API_RATE = "3/m"
    for _ in range(3):
        assert client.get("/api/rulesets").status_code == 200
    statuses = {client.get("/api/rulesets", HTTP_X_FORWARDED_FOR=f"192.0.2.{n}").status_code for n in range(1, 30)}
    assert statuses == {429}


def test_behind_one_proxy_each_client_has_its_own_budget_and_cannot_forge_another(client, settings):
    settings.TRUSTED_PROXIES = "1"
    settings.API_RATE = "2/m"
    for _ in range(2):
        assert client.get("/api/rulesets", HTTP_X_FORWARDED_FOR=ATTACKER).status_code == 200
    # what the attacker writes comes left of what nginx appends: still the attacker
    for n in range(1, 10):
        forged = client.get("/api/rulesets", HTTP_X_FORWARDED_FOR=f"192.0.2.{n}, {ATTACKER}")
        assert forged.status_code == 429
    assert client.get("/api/rulesets", HTTP_X_FORWARDED_FOR=GM).status_code == 200


# --- finding 3: axes per (username, real client address) ----------------------------------------


def login(client, username, password, address):
    return client.post("/accounts/login/", {"username": username, "password": password}, HTTP_X_FORWARDED_FOR=address)


@pytest.mark.django_db
def test_behind_a_proxy_an_attacker_locks_only_himself_out_of_an_account(settings):
    settings.TRUSTED_PROXIES = "127.0.0.1"  # the test client's socket address: our proxy
    User.objects.create_user("mj", password="un-bon-mot-de-passe")
    attacker, gm = Client(), Client()
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        assert login(attacker, "mj", "faux", ATTACKER).status_code == 200
    assert login(attacker, "mj", "faux", ATTACKER).status_code == 429
    assert login(attacker, "mj", "un-bon-mot-de-passe", ATTACKER).status_code == 429
    # the GM, another address behind the same proxy, logs in
    answer = login(gm, "mj", "un-bon-mot-de-passe", GM)
    assert answer.status_code == 302
    assert gm.get("/encounters/").status_code == 200


@pytest.mark.django_db
def test_wrong_passwords_for_one_account_do_not_lock_another_from_the_same_address(client, settings):
    settings.TRUSTED_PROXIES = "127.0.0.1"
    User.objects.create_user("mj", password="un-bon-mot-de-passe")
    User.objects.create_user("autre", password="un-autre-mot-de-passe")
    for _ in range(settings.AXES_FAILURE_LIMIT):
        login(client, "mj", "faux", ATTACKER)
    assert login(client, "mj", "un-bon-mot-de-passe", ATTACKER).status_code == 429
    assert login(client, "autre", "un-autre-mot-de-passe", ATTACKER).status_code == 302


@pytest.mark.django_db
def test_without_trusted_proxies_a_forged_header_does_not_lift_a_lockout(client, settings):
    settings.TRUSTED_PROXIES = ""
    User.objects.create_user("mj", password="un-bon-mot-de-passe")
    for _ in range(settings.AXES_FAILURE_LIMIT):
        login(client, "mj", "faux", ATTACKER)
    assert login(client, "mj", "un-bon-mot-de-passe", "192.0.2.77").status_code == 429


# --- finding 5: X-Forwarded-Proto only from a trusted proxy -------------------------------------


@pytest.fixture
def https_redirect(settings):
    settings.SECURE_SSL_REDIRECT = True
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    return settings


def test_a_client_claiming_https_is_still_redirected_to_https(https_redirect, client):
    https_redirect.TRUSTED_PROXIES = ""
    response = client.get("/", HTTP_X_FORWARDED_PROTO="https")
    assert response.status_code == 301
    assert response["Location"] == "https://testserver/"


def test_an_untrusted_socket_claiming_https_is_redirected_even_with_listed_proxies(https_redirect, client):
    https_redirect.TRUSTED_PROXIES = PROXY
    response = client.get("/", HTTP_X_FORWARDED_PROTO="https", REMOTE_ADDR=ATTACKER)
    assert response.status_code == 301


def test_https_said_by_a_trusted_proxy_is_believed(https_redirect, client):
    https_redirect.TRUSTED_PROXIES = "127.0.0.1"
    assert client.get("/", HTTP_X_FORWARDED_PROTO="https").status_code == 200
    https_redirect.TRUSTED_PROXIES = "1"
    assert client.get("/", HTTP_X_FORWARDED_PROTO="https", HTTP_X_FORWARDED_FOR=GM).status_code == 200
    # plain HTTP through the proxy is still redirected
    assert client.get("/", HTTP_X_FORWARDED_PROTO="http", HTTP_X_FORWARDED_FOR=GM).status_code == 301
