"""The production stack (issue 17, finding 8 and the compose item): compose.yaml, deploy/nginx.conf,
deploy/gunicorn.conf.py, deploy/healthcheck.py and ``/healthz`` (calculator/health.py); and the
players' live view (issue 16): the ``live`` service (uvicorn) and nginx's ``/live/`` location.

No Docker engine runs here: compose.yaml is checked against the Compose specification's JSON schema
(as vendored by check-jsonschema) and read as data; the settings are loaded in a fresh process from
the environment compose.yaml gives the web service. nginx and gunicorn run for real on loopback
when nginx is installed (Debian's package; .ci/run installs it): the slow-client finding is
reproduced against gunicorn alone and shown gone behind nginx.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import secrets
import subprocess
import sys
from pathlib import Path
from types import ModuleType, SimpleNamespace
from typing import Any

import gunicorn.config
import jsonschema
import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
COMPOSE = ROOT / "compose.yaml"
NGINX_CONF = ROOT / "deploy" / "nginx.conf"
GUNICORN_CONF = ROOT / "deploy" / "gunicorn.conf.py"
HEALTHCHECK = ROOT / "deploy" / "healthcheck.py"
COMPOSE_SCHEMA = "builtin_schemas/vendor/compose-spec.json"  # inside the check_jsonschema package


# --- reading the files -------------------------------------------------------------------------


def compose() -> dict[str, Any]:
    document: dict[str, Any] = yaml.safe_load(COMPOSE.read_text())
    return document


def dotenv(path: Path) -> dict[str, str]:
    """KEY=VALUE lines of an env file (comments and blank lines skipped)."""
    pairs = {}
    for line in path.read_text().splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            key, _, value = line.partition("=")
            pairs[key.strip()] = value.strip()
    return pairs


VARIABLE = re.compile(r"\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?])([^}]*))?\}")


class MissingVariable(Exception):
    pass


def interpolate(value: Any, env: dict[str, str]) -> Any:
    """Compose's interpolation of ``${VAR}``, ``${VAR:-default}``, ``${VAR-default}``,
    ``${VAR:?error}``, ``${VAR?error}`` and ``$$`` in every string of ``value``."""
    if isinstance(value, dict):
        return {key: interpolate(item, env) for key, item in value.items()}
    if isinstance(value, list):
        return [interpolate(item, env) for item in value]
    if not isinstance(value, str):
        return value

    def one(match: re.Match[str]) -> str:
        if match.group(0) == "$$":
            return "$"
        name, operator, argument = match.groups()
        present = name in env and (env[name] != "" or not (operator or "").startswith(":"))
        if present:
            return env[name]
        if operator in {":?", "?"}:
            raise MissingVariable(f"{name}: {argument}")
        return argument if operator in {":-", "-"} else ""

    return VARIABLE.sub(one, value)


def production_env() -> dict[str, str]:
    """.env.example as an operator fills it in (a real secret key)."""
    env = dotenv(ROOT / ".env.example")
    env["SECRET_KEY"] = secrets.token_urlsafe(50)
    return env


def nginx_tree(text: str) -> list[tuple[str, list[str], list[Any] | None]]:
    """nginx's configuration as a tree of (directive, arguments, children or None)."""
    tokens = re.findall(r'"(?:[^"\\]|\\.)*"|\'(?:[^\'\\]|\\.)*\'|#[^\n]*|[{};]|[^\s{};"\'#]+', text)
    tokens = [token for token in tokens if not token.startswith("#")]
    position = 0

    def block() -> list[tuple[str, list[str], list[Any] | None]]:
        nonlocal position
        out: list[tuple[str, list[str], list[Any] | None]] = []
        words: list[str] = []
        while position < len(tokens):
            token = tokens[position]
            position += 1
            if token == ";":
                out.append((words[0], words[1:], None))
                words = []
            elif token == "{":
                head = words
                words = []
                out.append((head[0], head[1:], block()))
            elif token == "}":
                return out
            else:
                words.append(token.strip("\"'") if token[0] in "\"'" else token)
        return out

    return block()


def children(tree: list[Any], name: str, *args: str) -> list[Any]:
    """The block ``name args…`` of ``tree`` (the first one)."""
    for directive, arguments, inner in tree:
        if directive == name and list(args) == arguments[: len(args)] and inner is not None:
            block: list[Any] = inner
            return block
    raise AssertionError(f"no block {name} {' '.join(args)}")


def values(tree: list[Any], name: str) -> list[list[str]]:
    """The arguments of every ``name`` directive directly in ``tree``."""
    return [arguments for directive, arguments, inner in tree if directive == name and inner is None]


def value(tree: list[Any], name: str) -> list[str]:
    found = values(tree, name)
    assert len(found) == 1, f"{name}: {found}"
    return found[0]


def seconds(text: str) -> float:
    number, unit = re.fullmatch(r"(\d+)(ms|s|m)?", text).groups()  # type: ignore[union-attr]
    return int(number) * {"ms": 0.001, "s": 1, "m": 60, None: 1}[unit]


def size(text: str) -> int:
    number, unit = re.fullmatch(r"(\d+)([kKmM]?)", text).groups()  # type: ignore[union-attr]
    return int(number) * {"": 1, "k": 1024, "m": 1024 * 1024}[unit.lower()]


NGINX = nginx_tree(NGINX_CONF.read_text())
HTTP = children(NGINX, "http")
SERVER = children(HTTP, "server")
PROXY = children(SERVER, "location", "/")
LIVE = children(SERVER, "location", "/live/")


def load_gunicorn_conf(monkeypatch: pytest.MonkeyPatch, **env: str) -> ModuleType:
    """deploy/gunicorn.conf.py imported as gunicorn reads it (gunicorn is imported: ``import
    gunicorn.config`` above, so ``warmup.enabled()`` sees it); the variables it sets are restored."""
    for name in ("WARMUP", "ESTOC_WARM_UP_WORKERS"):
        monkeypatch.delenv(name, raising=False)
    for name, text in env.items():
        monkeypatch.setenv(name, text)
    spec = importlib.util.spec_from_file_location("estoc_gunicorn_conf", GUNICORN_CONF)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# --- compose.yaml ------------------------------------------------------------------------------


def compose_validator() -> jsonschema.protocols.Validator:
    import importlib.resources

    schema = json.loads((importlib.resources.files("check_jsonschema") / COMPOSE_SCHEMA).read_text())
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema, format_checker=cls.FORMAT_CHECKER)


def test_compose_yaml_follows_the_compose_specification():
    validator = compose_validator()
    errors = [f"{error.json_path}: {error.message}" for error in validator.iter_errors(compose())]
    assert errors == []
    # the check can fail: a misspelt key and a wrong type are both caught
    broken = compose()
    broken["services"]["web"]["helthcheck"] = broken["services"]["web"].pop("healthcheck")
    broken["services"]["nginx"]["ports"] = "80:80"
    messages = [error.message for error in validator.iter_errors(broken)]
    assert any("'helthcheck' was unexpected" in message for message in messages), messages
    assert "'80:80' is not of type 'array'" in messages


def test_only_nginx_publishes_a_port_and_web_is_reachable_through_it_only():
    services = compose()["services"]
    published = {name for name, service in services.items() if service.get("ports")}
    assert published == {"nginx"}
    assert "ports" not in services["web"]
    assert "ports" not in services["live"]
    assert services["nginx"]["ports"] == ["${NGINX_LISTEN:-80}:80"]
    # nginx, web and live share the proxy network, nothing else is on it; the data network has no
    # way out
    networks = {name: set(service.get("networks", [])) for name, service in services.items()}
    assert {name for name, nets in networks.items() if "proxy" in nets} == {"nginx", "web", "live"}
    assert networks["nginx"] == {"proxy"}
    assert compose()["networks"]["data"]["internal"] is True
    assert {name for name, nets in networks.items() if "data" in nets} == {"web", "live", "release", "db", "redis"}


def test_web_has_a_healthcheck_on_healthz_and_nginx_waits_for_it():
    services = compose()["services"]
    check = services["web"]["healthcheck"]
    assert check["test"][:3] == ["CMD", "python", "deploy/healthcheck.py"]
    assert check["test"][3].endswith(":8000/healthz")
    assert HEALTHCHECK.exists()
    assert services["nginx"]["depends_on"]["web"]["condition"] == "service_healthy"
    assert services["web"]["depends_on"]["release"]["condition"] == "service_completed_successfully"
    assert "deploy/healthcheck.py" in (ROOT / "Dockerfile").read_text()


def test_redis_and_db_are_wired_into_web():
    services = compose()["services"]
    assert services["db"]["image"].startswith("postgres:")
    assert "pgdata:/var/lib/postgresql/data" in services["db"]["volumes"]
    assert services["redis"]["image"].startswith("redis:")
    assert "--maxmemory" in services["redis"]["command"]
    env = interpolate(services["web"]["environment"], production_env())
    assert env["REDIS_URL"] == "redis://redis:6379/0"
    password = production_env()["POSTGRES_PASSWORD"]
    assert env["DATABASE_URL"] == "postgres://estoc:" + password + "@db:5432/estoc"
    db_env = interpolate(services["db"]["environment"], production_env())
    assert db_env["POSTGRES_PASSWORD"] == "change-me"  # the same password on both sides
    for name in ("db", "redis", "release"):
        assert name in services["web"]["depends_on"]


def test_the_required_variables_stop_compose_when_missing_and_are_in_env_example():
    required = set(re.findall(r"\$\{([A-Z_]+):\?", COMPOSE.read_text()))
    assert required == {"SECRET_KEY", "POSTGRES_PASSWORD"}
    assert required <= set(dotenv(ROOT / ".env.example"))
    env = production_env()
    del env["SECRET_KEY"]
    with pytest.raises(MissingVariable, match="SECRET_KEY"):
        interpolate(compose()["services"]["web"]["environment"], env)


def test_web_trusts_nginx_only():
    document = compose()
    env = interpolate(document["services"]["web"]["environment"], production_env())
    assert env["TRUSTED_PROXIES"] == "1"  # nginx is one hop (calculator/clientip.py)
    subnet = interpolate(document["networks"]["proxy"]["ipam"]["config"][0]["subnet"], production_env())
    assert env["FORWARDED_ALLOW_IPS"] == subnet  # gunicorn: X-Forwarded-Proto from that network only


def test_nginx_serves_the_static_files_that_the_release_job_collects():
    services = compose()["services"]
    assert "./deploy/nginx.conf:/etc/nginx/nginx.conf:ro" in services["nginx"]["volumes"]
    assert "static:/srv/static:ro" in services["nginx"]["volumes"]
    assert "static:/srv/static" in services["release"]["volumes"]
    assert services["release"]["environment"]["STATIC_ROOT"] == "/srv/static"
    assert "collectstatic" in services["release"]["command"][-1]
    assert "migrate" in services["release"]["command"][-1]
    static = children(SERVER, "location", "/static/")
    assert value(static, "root") == ["/srv"]  # /static/x is /srv/static/x


@pytest.mark.parametrize(("service", "conn_max_age"), [("web", 60), ("live", 0)])
def test_every_setting_the_web_service_needs_is_given(tmp_path, service, conn_max_age):
    """The settings load in production mode from web's (and live's) environment alone, and pass
    ``check --deploy`` (HTTPS redirect, secure cookies, HSTS, a strong key…)."""
    env = interpolate(compose()["services"][service]["environment"], production_env())
    assert all(isinstance(item, str) for item in env.values())
    code = (
        "import json, django; django.setup(); from django.conf import settings as s; "
        "print(json.dumps({'debug': s.DEBUG, 'redirect': s.SECURE_SSL_REDIRECT, 'engine': s.DATABASES['default']"
        "['ENGINE'], 'host': s.DATABASES['default']['HOST'], 'cache': s.CACHES['default']['BACKEND'], "
        "'hosts': s.ALLOWED_HOSTS, 'trusted': s.TRUSTED_PROXIES, 'exempt': s.SECURE_REDIRECT_EXEMPT, "
        "'redis': s.REDIS_URL, 'conn_max_age': s.DATABASES['default']['CONN_MAX_AGE']}))"
    )
    clean = {"PATH": os.environ["PATH"], "HOME": str(tmp_path), "DJANGO_SETTINGS_MODULE": "calculator.settings", **env}
    done = subprocess.run([sys.executable, "-c", code], env=clean, cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    loaded = json.loads(done.stdout.strip().splitlines()[-1])
    assert loaded == {
        "debug": False,
        "redirect": True,
        "engine": "django.db.backends.postgresql",
        "host": "db",
        "cache": "calculator.cache.SharedRedisCache",
        "hosts": ["estoc.example"],
        "trusted": "1",
        "exempt": [r"^healthz$"],
        "redis": "redis://redis:6379/0",  # live's streams hear web's changes through it
        "conn_max_age": conn_max_age,
    }
    checked = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        env=clean,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr


# --- the live service (issue 16: the players' view under uvicorn) ------------------------------


def live_params() -> dict[str, Any]:
    """The live service's command as uvicorn's own command line parses it (its validation), with
    compose's variables interpolated."""
    from uvicorn.main import main as uvicorn_cli

    command = interpolate(compose()["services"]["live"]["command"], production_env())
    assert command[0] == "uvicorn"
    params: dict[str, Any] = uvicorn_cli.make_context("uvicorn", command[1:]).params
    return params


def test_live_runs_the_asgi_application_under_uvicorn_from_the_same_image():
    services = compose()["services"]
    params = live_params()
    assert params["app"] == "calculator.asgi:application"
    assert (params["host"], params["port"], params["workers"]) == ("0.0.0.0", 8001, 2)
    assert params["proxy_headers"] is True
    assert params["timeout_keep_alive"] == 5
    assert (services["live"]["image"], services["live"]["build"]) == (
        services["web"]["image"],
        services["web"]["build"],
    )
    assert services["live"]["expose"] == [str(params["port"])]
    from calculator import asgi

    assert callable(asgi.application)


def test_live_has_the_web_services_environment_and_trusts_nginx_only():
    document = compose()
    env = production_env()  # one secret key for both
    web = interpolate(document["services"]["web"]["environment"], env)
    live = interpolate(document["services"]["live"]["environment"], env)
    gunicorn_only = {"WEB_CONCURRENCY", "THREADS"}
    # everything web has but gunicorn's own knobs; no persistent database connection under ASGI
    assert {key: item for key, item in live.items() if key != "CONN_MAX_AGE"} == {
        key: item for key, item in web.items() if key not in gunicorn_only
    }
    assert live["CONN_MAX_AGE"] == "0"
    assert "CONN_MAX_AGE" not in web
    subnet = interpolate(document["networks"]["proxy"]["ipam"]["config"][0]["subnet"], production_env())
    assert live_params()["forwarded_allow_ips"] == subnet == live["FORWARDED_ALLOW_IPS"]
    assert live["TRUSTED_PROXIES"] == "1"
    assert live["REDIS_URL"] == web["REDIS_URL"]


def test_live_waits_for_its_dependencies_has_a_healthcheck_and_nginx_waits_for_it():
    services = compose()["services"]
    live = services["live"]
    check = live["healthcheck"]
    assert check["test"] == [
        "CMD",
        "python",
        "deploy/healthcheck.py",
        f"http://127.0.0.1:{live_params()['port']}/healthz",
    ]
    assert {key: check[key] for key in ("interval", "timeout", "retries")} == {
        key: services["web"]["healthcheck"][key] for key in ("interval", "timeout", "retries")
    }
    assert live["depends_on"]["db"]["condition"] == "service_healthy"
    assert live["depends_on"]["redis"]["condition"] == "service_healthy"
    assert live["depends_on"]["release"]["condition"] == "service_completed_successfully"
    # nginx resolves live when it starts: it starts after it, and again with a new live container
    assert services["nginx"]["depends_on"]["live"] == {"condition": "service_healthy", "restart": True}
    assert live["restart"] == services["web"]["restart"]


# --- deploy/nginx.conf -------------------------------------------------------------------------


def test_nginx_buffers_requests_and_responses():
    assert value(PROXY, "proxy_request_buffering") == ["on"]
    assert value(PROXY, "proxy_buffering") == ["on"]
    assert value(PROXY, "proxy_pass") == ["http://estoc_web"]


def test_nginx_closes_slow_clients():
    for name in ("client_header_timeout", "client_body_timeout", "send_timeout", "keepalive_timeout"):
        assert 0 < seconds(value(HTTP, name)[0]) <= 60, name
    assert value(HTTP, "reset_timedout_connection") == ["on"]


def test_nginx_size_limits_match_django_and_gunicorn(monkeypatch):
    from django.conf import settings

    assert size(value(HTTP, "client_max_body_size")[0]) == settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    count, buffer = value(HTTP, "large_client_header_buffers")
    gunicorn_conf = load_gunicorn_conf(monkeypatch)
    # the request line gunicorn accepts, with its CRLF, fits one buffer; one byte more does not
    assert size(buffer) == gunicorn_conf.limit_request_line + 2
    assert int(count) >= 2


def test_nginx_sets_the_proxy_headers_django_reads():
    headers = {arguments[0]: arguments[1] for arguments in values(PROXY, "proxy_set_header")}
    assert headers["X-Forwarded-For"] == "$proxy_add_x_forwarded_for"
    assert headers["X-Forwarded-Proto"] == "$scheme"
    assert headers["Host"] == "$host"
    assert headers["Connection"] == ""  # kept-alive connections to gunicorn
    assert value(PROXY, "proxy_http_version") == ["1.1"]


def test_nginx_compresses_and_keeps_connections_to_gunicorn(monkeypatch):
    assert value(HTTP, "gzip") == ["on"]
    assert "application/json" in value(HTTP, "gzip_types")
    upstream = children(HTTP, "upstream", "estoc_web")
    assert value(upstream, "server") == ["web:8000"]
    gunicorn_conf = load_gunicorn_conf(monkeypatch)
    assert gunicorn_conf.bind == ["0.0.0.0:8000"]
    # gunicorn keeps an idle connection longer than nginx does: nginx never reuses a closed one
    assert gunicorn_conf.keepalive > seconds(value(upstream, "keepalive_timeout")[0])
    assert gunicorn_conf.timeout < seconds(value(PROXY, "proxy_read_timeout")[0])


def test_nginx_sends_the_live_view_to_the_live_service_unbuffered():
    from encounters import live

    assert value(LIVE, "proxy_pass") == ["http://estoc_live"]
    upstream = children(HTTP, "upstream", "estoc_live")
    assert value(upstream, "server") == [f"live:{live_params()['port']}"]
    # each event passes on as it comes, nothing kept
    assert value(LIVE, "proxy_buffering") == ["off"]
    assert value(LIVE, "proxy_cache") == ["off"]
    # a whole stream (15 minutes) fits in the read timeout, let alone the silence between heartbeats
    assert seconds(value(LIVE, "proxy_read_timeout")[0]) >= live.LIFETIME > live.HEARTBEAT
    # a request is still read whole before uvicorn sees it
    assert value(LIVE, "proxy_request_buffering") == ["on"]
    # gzip would hold events back: an event stream is not among the compressed types
    assert "text/event-stream" not in value(HTTP, "gzip_types")
    # the rest of the site still goes to gunicorn, buffered
    assert value(PROXY, "proxy_pass") == ["http://estoc_web"]
    assert value(PROXY, "proxy_buffering") == ["on"]


def test_nginx_gives_the_live_service_the_same_headers_and_kept_alive_connections():
    assert values(LIVE, "proxy_set_header") == values(PROXY, "proxy_set_header")
    assert value(LIVE, "proxy_http_version") == ["1.1"]
    upstream = children(HTTP, "upstream", "estoc_live")
    # uvicorn keeps an idle connection longer than nginx does: nginx never reuses a closed one
    assert live_params()["timeout_keep_alive"] > seconds(value(upstream, "keepalive_timeout")[0])
    assert int(value(upstream, "keepalive")[0]) > 0


def test_only_the_players_view_is_under_live():
    from django.urls import get_resolver, reverse

    under = {str(pattern.name) for pattern in get_resolver().url_patterns if str(pattern.pattern).startswith("live/")}
    assert under == {"player", "player_state", "player_events"}
    for name in under:
        assert reverse(name, args=["un-jeton"]).startswith("/live/")


# --- deploy/gunicorn.conf.py -------------------------------------------------------------------


def test_gunicorn_conf_loads_with_preload_and_long_request_lines(monkeypatch):
    module = load_gunicorn_conf(monkeypatch, WEB_CONCURRENCY="3", THREADS="5", FORWARDED_ALLOW_IPS="172.31.250.0/24")
    config = gunicorn.config.Config()
    for name, setting in vars(module).items():
        if name in config.settings:
            config.set(name, setting)  # gunicorn's own validation of each value
    assert config.preload_app is True
    assert config.limit_request_line == 8190
    assert config.worker_class_str == "gthread"
    assert (config.workers, config.threads) == (3, 5)
    assert config.wsgi_app == "calculator.wsgi:application"
    assert config.forwarded_allow_ips == ["172.31.250.0/24"]
    assert config.timeout > float(os.environ.get("WARMUP_SECONDS", "10"))  # the warm-up fits
    assert config.control_socket_disable is True


def test_the_warm_up_runs_in_each_worker_after_the_fork_not_in_the_master(monkeypatch):
    from calculator import warmup

    module = load_gunicorn_conf(monkeypatch)
    # the preloaded import (in the master) must not warm up; the decision is kept for the workers
    assert os.environ["WARMUP"] == "0"
    assert module.WARM_UP_WORKERS is True  # unset WARMUP: on under gunicorn
    calls = []

    def warm(app: object) -> warmup.Report:
        calls.append(app)
        return warmup.Report(done=["home"])

    monkeypatch.setattr(warmup, "warm", warm)
    worker = SimpleNamespace(wsgi=object(), pid=123, log=SimpleNamespace(info=lambda *args: None))
    module.post_worker_init(worker)
    assert calls == [worker.wsgi]


def test_warmup_0_turns_the_workers_warm_up_off(monkeypatch):
    from calculator import warmup

    module = load_gunicorn_conf(monkeypatch, WARMUP="0")
    calls = []
    monkeypatch.setattr(warmup, "warm", lambda app: calls.append(app))
    module.post_worker_init(SimpleNamespace(wsgi=object(), pid=1, log=None))
    assert module.WARM_UP_WORKERS is False
    assert calls == []


def test_a_reload_keeps_the_warm_up_decision(monkeypatch):
    first = load_gunicorn_conf(monkeypatch)
    assert first.WARM_UP_WORKERS is True
    spec = importlib.util.spec_from_file_location("estoc_gunicorn_conf_again", GUNICORN_CONF)
    assert spec is not None
    assert spec.loader is not None
    again = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(again)  # WARMUP is "0" now, as after the first read
    assert again.WARM_UP_WORKERS is True


def test_the_image_runs_gunicorn_with_this_file():
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert 'CMD ["gunicorn", "-c", "deploy/gunicorn.conf.py"]' in dockerfile
    assert "uvicorn" in dockerfile  # the same image serves the live view (compose's live service)
    assert compose()["services"]["web"]["command"] == ["gunicorn", "-c", "deploy/gunicorn.conf.py"]
    ignored = (ROOT / ".dockerignore").read_text().split()
    assert {".venv", ".env", ".git"} <= set(ignored)


# --- /healthz (calculator/health.py) -----------------------------------------------------------

HEALTHY = {"status": "ok", "database": "ok", "cache": "ok"}


def assert_never_cached_and_sessionless(response):
    assert "no-store" in response["Cache-Control"]
    assert "Set-Cookie" not in response
    assert "Cookie" not in response.get("Vary", "")


@pytest.mark.django_db
def test_healthz_answers_ok_when_the_database_and_the_cache_answer(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert response.json() == HEALTHY
    assert_never_cached_and_sessionless(response)


@pytest.mark.django_db
def test_healthz_allows_head_and_refuses_other_methods_without_csrf(client):
    assert client.head("/healthz").status_code == 200
    assert client.post("/healthz").status_code == 405  # not a 403 for a missing CSRF token
    assert client.options("/healthz").status_code == 405


@pytest.mark.django_db
def test_healthz_is_503_naming_the_database_when_it_is_down(client, monkeypatch):
    from django.db import OperationalError, connections

    def refuse(*args, **kwargs):
        raise OperationalError('connection to server at "db" (10.0.0.5), port 5432 failed: password=secret')

    monkeypatch.setattr(connections["default"], "cursor", refuse)
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json() == {"status": "indisponible", "database": "indisponible", "cache": "ok"}
    assert b"secret" not in response.content
    assert b"10.0.0.5" not in response.content
    assert_never_cached_and_sessionless(response)


@pytest.mark.django_db
def test_healthz_is_503_naming_the_cache_when_it_raises(client, monkeypatch):
    from django.core.cache import cache

    def refuse(*args, **kwargs):
        raise ConnectionError("Error 111 connecting to redis:6379. Connection refused.")

    monkeypatch.setattr(cache, "set", refuse)
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json() == {"status": "indisponible", "database": "ok", "cache": "indisponible"}
    assert b"redis" not in response.content


def closed_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.mark.django_db
@pytest.mark.parametrize(
    "backend",
    [
        {"BACKEND": "django.core.cache.backends.dummy.DummyCache"},  # accepts writes, gives nothing back
        {"BACKEND": "calculator.cache.SharedRedisCache", "LOCATION": "redis://127.0.0.1:{port}/15"},  # nobody there
    ],
    ids=["dummy", "unreachable-redis"],
)
def test_healthz_is_503_when_the_cache_keeps_nothing(client, settings, backend):
    settings.CACHES = {"default": {**backend, "LOCATION": backend.get("LOCATION", "").format(port=closed_port())}}
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["cache"] == "indisponible"


@pytest.mark.django_db
def test_healthz_is_exempt_from_the_https_redirect(client, settings):
    settings.SECURE_SSL_REDIRECT = True
    assert client.get("/").status_code == 301  # the rest of the site is redirected
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == HEALTHY


def load_healthcheck() -> ModuleType:
    spec = importlib.util.spec_from_file_location("estoc_healthcheck", HEALTHCHECK)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize(
    ("allowed", "expected"),
    [
        ("estoc.example,www.estoc.example", "estoc.example"),
        (".estoc.example", "estoc.example"),
        ("*", "localhost"),
        ("", "localhost"),
    ],
)
def test_the_container_check_names_a_host_the_settings_allow(allowed, expected):
    assert load_healthcheck().host(allowed) == expected


def test_the_container_check_fails_when_nothing_answers():
    healthy, message = load_healthcheck().check(f"http://127.0.0.1:{closed_port()}/healthz", {})
    assert healthy is False
    assert message.startswith("no answer")
