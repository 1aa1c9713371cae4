"""nginx (deploy/nginx.conf) in front of gunicorn (deploy/gunicorn.conf.py) and of uvicorn (compose's
live service, the players' view under ``/live/``), for real, on loopback.

Issue 17, finding 8: 64 connections that send nothing, or that send half a request and stop, held
gunicorn alone (the threads wait for the request); behind nginx, which reads every request whole
before it forwards it, a normal request is still answered at once. Also the warm-up in each worker
after the fork, the request-line and body limits with nginx's French refusals, the static files
served by nginx, and the container's health check. Issue 16: the players' event stream passes
through nginx as each event comes, and open streams hold no gunicorn thread.

The configuration is the file itself with only what cannot be the same here replaced: the
upstreams' hosts (``web`` and ``live`` are compose's DNS names), the listening address, the static
root and the temporary directories; and ``/live/`` is told ``X-Forwarded-Proto: https``, as behind
TLS (the stack runs in production mode, where plain HTTP is redirected). uvicorn runs the live
service's command from compose.yaml. Skipped without Debian's nginx (.ci/run installs it).
"""

from __future__ import annotations

import contextlib
import gzip
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
NGINX = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)
REDIS_URL = "redis://127.0.0.1:6379/15"
WORKERS = 2
THREADS = 2

pytestmark = pytest.mark.skipif(NGINX is None, reason="nginx is not installed (apt-get install nginx; .ci/run does)")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def redis_up() -> bool:
    try:
        import redis

        return bool(redis.Redis.from_url(REDIS_URL, socket_connect_timeout=0.5).ping())
    except Exception:
        return False


def nginx_conf(runtime: Path, listen: int, upstream: int, live: int | None = None) -> Path:
    """deploy/nginx.conf, its upstreams, address, static root and temporary paths made local."""
    text = (ROOT / "deploy" / "nginx.conf").read_text()
    block = re.search(r"\n        location /live/ \{\n.*?\n        \}\n", text, re.DOTALL)
    assert block is not None
    proto = "proxy_set_header X-Forwarded-Proto $scheme;"
    assert block.group(0).count(proto) == 1
    text = text.replace(block.group(0), block.group(0).replace(proto, "proxy_set_header X-Forwarded-Proto https;"))
    temp = runtime / "nginx-temp"
    temp.mkdir(exist_ok=True)
    paths = " ".join(
        f"{kind}_temp_path {temp / kind};" for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    for old, new in (
        ("server web:8000;", f"server 127.0.0.1:{upstream};"),
        ("server live:8001;", f"server 127.0.0.1:{live or free_port()};"),
        ("listen 80 default_server;", f"listen 127.0.0.1:{listen} default_server;"),
        ("root /srv;", f"root {runtime / 'srv'};"),
        ("\nhttp {\n", f"\nhttp {{\n    {paths}\n"),
    ):
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    path = runtime / f"nginx-{listen}.conf"
    path.write_text(text)
    return path


def nginx_command(conf: Path, runtime: Path, test: bool = False) -> list[str]:
    """nginx in the foreground (or ``-t``); as root, its workers stay root to read the temporary
    directory (nginx keeps only the last ``-g``: one for all)."""
    main = f"pid {conf.with_suffix('.pid')};" + (" user root;" if os.geteuid() == 0 else "")
    mode = ["-t"] if test else []
    return [str(NGINX), "-p", str(runtime), "-e", "/dev/stderr", "-c", str(conf), "-g", f"{main} daemon off;", *mode]


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: object, **kwargs: object) -> None:
        return None  # a redirect is an answer to look at, not to follow


OPENER = urllib.request.build_opener(NoRedirect)


def get(url: str, timeout: float = 10, headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
    request = urllib.request.Request(url, headers={"Host": "localhost", **(headers or {})})
    try:
        with OPENER.open(request, timeout=timeout) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def wait_for(url: str, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while True:
        try:
            if get(url, timeout=2)[0] == 200:
                return
        except (urllib.error.URLError, OSError):
            pass
        if time.monotonic() > deadline:
            raise AssertionError(f"{url} did not answer 200 within {seconds:.0f} s")
        time.sleep(0.2)


def raw(port: int, data: bytes) -> bytes:
    """Send ``data`` as it is; the answer, read up to its ``Content-Length`` (nginx keeps a
    refused request's connection open a few seconds for the body it refused), else to the end."""
    out = b""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(data)
        with contextlib.suppress(ConnectionResetError):
            while chunk := s.recv(65536):
                out += chunk
                head, separator, body = out.partition(b"\r\n\r\n")
                length = re.search(rb"(?im)^content-length: *(\d+)", head) if separator else None
                if length and len(body) >= int(length.group(1)):
                    break
    return out


@contextlib.contextmanager
def process(command: list[str], env: dict[str, str], log: Path) -> Iterator[subprocess.Popen[bytes]]:
    with log.open("ab") as out:
        started = subprocess.Popen(command, env=env, cwd=ROOT, stdout=out, stderr=out, start_new_session=True)
    try:
        yield started
    finally:
        started.send_signal(signal.SIGTERM)  # this process only: gunicorn's master, nginx's master
        try:
            started.wait(timeout=30)
        except subprocess.TimeoutExpired:
            started.kill()
            started.wait()


def live_command(port: int) -> list[str]:
    """compose.yaml's live command (uvicorn), on loopback, trusting loopback's forwarded headers."""
    command = list(yaml.safe_load((ROOT / "compose.yaml").read_text())["services"]["live"]["command"])
    for option, new in (("--host", "127.0.0.1"), ("--port", str(port)), ("--forwarded-allow-ips", "127.0.0.1")):
        command[command.index(option) + 1] = new
    assert command[0] == "uvicorn"
    return [sys.executable, "-m", *command]


def live_environment() -> dict[str, str]:
    """What the live service adds to web's environment in compose.yaml (its own knobs)."""
    document = yaml.safe_load((ROOT / "compose.yaml").read_text())
    shared = set(document["x-environment"]) | {"FORWARDED_ALLOW_IPS"}  # the stack sets these for both
    return {key: str(item) for key, item in document["services"]["live"]["environment"].items() if key not in shared}


# an encounter with a player link, in the stack's database; a random id, so that its Redis channel
# (encounters/live.py: channels are not per database) is nobody else's
PLAYER_LINK = """
import random, django
django.setup()
from django.contrib.auth import get_user_model
from encounters import player
from encounters.models import Encounter
owner = get_user_model().objects.create_user("mj-stack", password="un-mot-de-passe-solide-42")
encounter = Encounter.objects.create(pk=random.randrange(10**9, 2 * 10**9), owner=owner, system="encore", name="La crypte")
print(encounter.pk, player.link_create(encounter).token)
"""


@pytest.fixture(scope="module")
def stack() -> Iterator[SimpleNamespace]:
    runtime = Path(tempfile.mkdtemp(prefix="estoc-stack-"))
    (runtime / "srv" / "static").mkdir(parents=True)
    env = {
        "PATH": os.environ["PATH"],
        "HOME": str(runtime),
        "DJANGO_SETTINGS_MODULE": "calculator.settings",
        # production mode, as compose.yaml runs it (plain static storage: no collectstatic here)
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "localhost,127.0.0.1",
        "SECURE": "1",
        "TRUSTED_PROXIES": "1",
        "PLAIN_STATIC": "1",
        "DATABASE_URL": f"sqlite:///{runtime / 'db.sqlite3'}",
        "WEB_CONCURRENCY": str(WORKERS),
        "THREADS": str(THREADS),
        "LOG_LEVEL": "INFO",
        "FORWARDED_ALLOW_IPS": "127.0.0.1",
        "API_RATE": "100000/m",
    }
    if redis_up():
        env["REDIS_URL"] = REDIS_URL
    log = runtime / "server.log"
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v0"], env=env, cwd=ROOT, check=True, capture_output=True
    )
    made = subprocess.run(
        [sys.executable, "-c", PLAYER_LINK], env=env, cwd=ROOT, check=True, capture_output=True, text=True, timeout=60
    )
    encounter, token = made.stdout.split()[-2:]
    upstream, listen, live = free_port(), free_port(), free_port()
    gunicorn = [sys.executable, "-m", "gunicorn", "-c", "deploy/gunicorn.conf.py", "--bind", f"127.0.0.1:{upstream}"]
    conf = nginx_conf(runtime, listen, upstream, live)
    live_log = runtime / "live.log"
    try:
        with (
            process(gunicorn, env, log) as master,
            process(live_command(live), {**env, **live_environment()}, live_log),
        ):
            wait_for(f"http://127.0.0.1:{upstream}/healthz", 60)
            wait_for(f"http://127.0.0.1:{live}/healthz", 60)
            with process(nginx_command(conf, runtime), env, runtime / "nginx.log"):
                wait_for(f"http://127.0.0.1:{listen}/healthz", 20)
                yield SimpleNamespace(
                    runtime=runtime,
                    env=env,
                    log=log,
                    master=master.pid,
                    upstream=upstream,
                    listen=listen,
                    live=live,
                    live_log=live_log,
                    encounter=int(encounter),
                    token=token,
                )
    finally:
        shutil.rmtree(runtime, ignore_errors=True)


def test_nginx_accepts_the_configuration(tmp_path):
    conf = nginx_conf(tmp_path, free_port(), free_port())
    done = subprocess.run(nginx_command(conf, tmp_path, test=True), capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    assert "test is successful" in done.stderr


def test_healthz_through_nginx_and_the_containers_check(stack):
    status, headers, body = get(f"http://127.0.0.1:{stack.listen}/healthz")
    assert (status, body) == (200, b'{"status": "ok", "database": "ok", "cache": "ok"}')
    assert "no-store" in headers["Cache-Control"]
    done = subprocess.run(
        [sys.executable, "deploy/healthcheck.py", f"http://127.0.0.1:{stack.upstream}/healthz"],
        env={**stack.env, "ALLOWED_HOSTS": "localhost"},
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    # the rest of the site is redirected to HTTPS (SECURE=1): only /healthz is exempt
    status, headers, _body = get(f"http://127.0.0.1:{stack.listen}/")
    assert (status, headers["Location"]) == (301, "https://localhost/")


def test_each_worker_warms_itself_up_after_the_fork(stack):
    deadline = time.monotonic() + 60  # the site answers as soon as one worker is ready
    while True:
        text = stack.log.read_text()
        warmed = [int(pid) for pid in re.findall(r"worker (\d+) warmed up: \d+ steps", text)]
        if len(warmed) >= WORKERS or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    booted = [int(pid) for pid in re.findall(r"Booting worker with pid: (\d+)", text)]
    assert sorted(warmed) == sorted(booted)
    assert len(set(warmed)) == WORKERS
    assert stack.master not in warmed
    # calculator.warmup's own report, once per warm-up: twice, never a third time in the master
    assert len(re.findall(r"^warm-up: \d+ steps in", text, re.MULTILINE)) == WORKERS


def test_a_request_line_of_8190_bytes_passes_and_a_longer_one_is_refused_in_french(stack):
    def line(length: int) -> bytes:
        start, end = "GET /healthz?pad=", " HTTP/1.1"
        return f"{start}{'a' * (length - len(start) - len(end))}{end}".encode()

    request = b"\r\nHost: localhost\r\nConnection: close\r\n\r\n"
    assert len(line(8190)) == 8190
    assert raw(stack.listen, line(8190) + request).startswith(b"HTTP/1.1 200 ")
    refused = raw(stack.listen, line(8191) + request)
    assert refused.startswith(b"HTTP/1.1 414 ")
    assert "Cette adresse est trop longue" in refused.decode()


def test_a_body_larger_than_django_accepts_is_refused_by_nginx_in_french(stack):
    from django.conf import settings

    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    head = "POST /healthz HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
    request = f"{head}Content-Length: {limit + 1}\r\nConnection: close\r\n\r\n".encode()
    refused = raw(stack.listen, request)
    assert refused.startswith(b"HTTP/1.1 413 ")
    assert "La requête est trop volumineuse" in refused.decode()
    # the largest body allowed reaches Django (which answers it: /healthz takes GET and HEAD only)
    passed = raw(stack.listen, f"{head}Content-Length: {limit}\r\nConnection: close\r\n\r\n".encode() + b" " * limit)
    assert passed.startswith(b"HTTP/1.1 405 ")


def test_silent_and_half_sent_requests_do_not_hold_the_site_behind_nginx(stack):
    """Finding 8: against gunicorn alone they hold every thread; behind nginx nothing waits."""

    def held(port: int) -> list[socket.socket]:
        sockets = [socket.create_connection(("127.0.0.1", port), timeout=10) for _ in range(64)]
        for s in sockets[32:]:
            s.sendall(b"GET /healthz HTTP/1.1\r\nHost: localhost\r\n")  # and never the blank line
        time.sleep(1.0)  # accepted, handed to threads
        return sockets

    def answered_within(port: int, seconds: float) -> bool:
        started = time.monotonic()
        try:
            ok = get(f"http://127.0.0.1:{port}/healthz", timeout=seconds)[0] == 200
        except (urllib.error.URLError, OSError):
            return False
        return ok and time.monotonic() - started < seconds

    sockets = held(stack.listen)
    try:
        assert answered_within(stack.listen, 2.0)
    finally:
        for s in sockets:
            s.close()
    # the finding, reproduced: the same connections straight to gunicorn stop it
    sockets = held(stack.upstream)
    try:
        assert not answered_within(stack.upstream, 2.0)
    finally:
        for s in sockets:
            s.close()
    wait_for(f"http://127.0.0.1:{stack.upstream}/healthz", 20)


def test_nginx_serves_the_static_files_compressed_and_cached(stack):
    static = stack.runtime / "srv" / "static"
    css = b"body { color: #2b211c; }\n" * 100
    (static / "estoc.0123456789ab.css").write_bytes(css)
    (static / "estoc.0123456789ab.css.gz").write_bytes(gzip.compress(css))
    (static / "robots.txt").write_text("User-agent: *\n")
    base = f"http://127.0.0.1:{stack.listen}/static/"
    status, headers, body = get(base + "estoc.0123456789ab.css", headers={"Accept-Encoding": "gzip"})
    assert status == 200
    assert headers["Content-Encoding"] == "gzip"
    assert gzip.decompress(body) == css
    assert headers["Cache-Control"] == "public, max-age=31536000, immutable"
    status, headers, _body = get(base + "robots.txt")
    assert (status, headers["Cache-Control"]) == (200, "public, max-age=3600")
    assert get(base + "missing.css")[0] == 404


def test_nginx_answers_in_french_when_gunicorn_is_down(stack, tmp_path):
    listen = free_port()
    conf = nginx_conf(tmp_path, listen, free_port())  # nobody listens upstream
    with process(nginx_command(conf, tmp_path), stack.env, tmp_path / "nginx.log"):
        deadline = time.monotonic() + 10
        while True:
            try:
                status, _headers, body = get(f"http://127.0.0.1:{listen}/")
                break
            except (urllib.error.URLError, OSError):
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)
    assert status == 502  # nginx's own code kept, its text in French
    assert "Estoc est momentanément indisponible" in body.decode()


# --- the players' live view (issue 16): /live/ through nginx to uvicorn ------------------------


class EventStream:
    """A raw ``GET /live/<token>/events`` through nginx: the response's head, then its events."""

    def __init__(self, port: int, token: str) -> None:
        self.socket = socket.create_connection(("127.0.0.1", port), timeout=10)
        request = (
            f"GET /live/{token}/events HTTP/1.1\r\nHost: localhost\r\nAccept: text/event-stream\r\n"
            "Accept-Encoding: gzip\r\n\r\n"
        )
        self.socket.sendall(request.encode())
        self.buffer = b""

    def until(self, marker: bytes, seconds: float) -> bytes:
        """What has come when ``marker`` has (an AssertionError if it has not within ``seconds``)."""
        deadline = time.monotonic() + seconds
        while marker not in self.buffer:
            left = deadline - time.monotonic()
            assert left > 0, f"{marker!r} did not come within {seconds} s: {self.buffer[-500:]!r}"
            self.socket.settimeout(left)
            try:
                chunk = self.socket.recv(65536)
            except TimeoutError:
                continue
            assert chunk, f"the stream closed before {marker!r}: {self.buffer[-500:]!r}"
            self.buffer += chunk
        return self.buffer

    def close(self) -> None:
        self.socket.close()


@contextlib.contextmanager
def streams(port: int, token: str, count: int) -> Iterator[list[EventStream]]:
    opened: list[EventStream] = []
    try:
        for _ in range(count):
            opened.append(EventStream(port, token))
        yield opened
    finally:
        for stream in opened:
            stream.close()


def test_the_live_service_answers_its_containers_check(stack):
    done = subprocess.run(
        [sys.executable, "deploy/healthcheck.py", f"http://127.0.0.1:{stack.live}/healthz"],
        env={**stack.env, "ALLOWED_HOSTS": "localhost"},
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert '"database": "ok"' in done.stdout


def test_the_players_page_and_state_go_through_nginx_to_uvicorn(stack):
    base = f"http://127.0.0.1:{stack.listen}/live/{stack.token}/"
    status, headers, body = get(base)
    assert status == 200, body[:500]
    assert headers["Cache-Control"] == "no-store"
    assert f"/live/{stack.token}/events".encode() in body
    status, _headers, body = get(base + "state")
    assert status == 200
    assert "La crypte" in body.decode()
    # an unknown link: Django's 404 from uvicorn, not nginx's 502
    assert get(f"http://127.0.0.1:{stack.listen}/live/aucun-lien/events")[0] == 404
    log = stack.live_log.read_text()
    assert f'"GET /live/{stack.token}/ HTTP/1.1" 200' in log
    assert f'"GET /live/{stack.token}/state HTTP/1.1" 200' in log


def test_the_event_stream_passes_through_nginx_unbuffered(stack):
    from django.test import override_settings

    from encounters import live

    with streams(stack.listen, stack.token, 1) as (stream,):
        head = stream.until(b"\r\n\r\n", 5).partition(b"\r\n\r\n")[0].decode().lower()
        assert head.startswith("http/1.1 200 ")
        assert "content-type: text/event-stream" in head
        assert "transfer-encoding: chunked" in head  # streamed, no length known in advance
        assert "content-encoding" not in head  # not compressed (gzip would hold events back)
        assert "cache-control: no-store" in head
        # the state now, at once: the first event is far smaller than any buffer nginx would fill
        assert b"retry: 2000" in stream.until(b"event: state", 5)
        stream.until(b"La crypte", 5)
        if "REDIS_URL" not in stack.env:
            pytest.skip("no Redis on 127.0.0.1:6379: a change published from outside cannot reach uvicorn")
        import redis

        # a change, as a web worker publishes it: it reaches the player through nginx within a second
        sent = live.Message("state", "<p>Tour 2</p>", 10**6, time.time())
        # the stream subscribed before it drew its first event: it is listening now
        with override_settings(REDIS_URL=stack.env["REDIS_URL"]):  # the stack's channel names its db index
            name = live.channel(stack.encounter)
        listeners = redis.Redis.from_url(REDIS_URL).publish(name, sent.dumps())
        assert listeners >= 1
        started = time.monotonic()
        stream.until(b"data: <p>Tour 2</p>", 2)
        assert time.monotonic() - started < 1.0
        assert f"id: {10**6}".encode() in stream.buffer
    assert f'"GET /live/{stack.token}/events HTTP/1.1" 200' in stack.live_log.read_text()


def test_open_player_streams_hold_no_gunicorn_thread(stack):
    """More streams than gunicorn has threads, all open: the site still answers at once."""
    count = 3 * WORKERS * THREADS
    with streams(stack.listen, stack.token, count) as opened:
        for stream in opened:
            stream.until(b"event: state", 10)
        started = time.monotonic()
        status, _headers, _body = get(f"http://127.0.0.1:{stack.listen}/healthz", timeout=5)
        assert status == 200
        assert time.monotonic() - started < 2.0
        assert get(f"http://127.0.0.1:{stack.listen}/live/{stack.token}/state", timeout=5)[0] == 200
