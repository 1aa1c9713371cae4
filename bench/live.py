"""The live player view under load: ``make bench-live`` (or ``python bench/live.py``). Figures for
docs/reliability.md.

Issue 16's bounded load check: **50 player views open on one encounter, 20 changes, every view
receives every change, p95 delivery delay ≤ 2 s**. Loopback only, about 25 s:

1. a dedicated PostgreSQL database (``estoc_bench_live``, dropped and created empty, migrated),
   ``collectstatic`` into a throw-away ``STATIC_ROOT``, and Redis db 14 (flushed), with the
   environment of the other measurements (``bench/server.py``: DEBUG off, throw-away SECRET_KEY,
   SECURE=0, the rate limits off) and ``CONN_MAX_AGE=0``, as compose.yaml's ``live`` service;
2. in this process (Django set up with the same environment): a game master, an enCORE encounter
   with a player character (Aline, Santé 8 of 8) and an adversary (the Brigand, Menace 3, Santé
   3), and its player link. The encounter's id is drawn at random (the sequence moved): Redis
   pub/sub channels are not scoped by the db index, and ``estoc:encounter:1`` of another Estoc
   on the same Redis (the test suite, another measurement) would reach these views;
3. uvicorn ``calculator.asgi:application``, 2 workers (as compose.yaml's ``live``), on 127.0.0.1
   and a free port, until both workers have started and ``/`` answers;
4. 50 clients, asyncio raw HTTP/1.1 (no dependency): ``GET /live/<token>/events``, the chunked
   transfer coding and the Server-Sent Events decoded here (:class:`ChunkedDecoder`,
   :class:`SSEParser`); each records every event with its id and the monotonic time it was read;
5. once every view has shown the current state (its first event), 20 changes from this process,
   one every 0.25 s (``services.combatant_adjust``, Santé −1/+1 in turn on Aline and the Brigand,
   so that every value stays valid), in a thread of their own so that the clients' reads are not
   held up: each change is published on commit to Redis and reaches the views through the
   workers' subscriptions. The delay of a change to a view is the time its event (``id`` = the
   encounter's version) was read minus the time just before the change was called;
6. the verdicts: every view opened; every view received the 20 ids, none twice, in order, no
   other event; p95 ≤ 2 s; nothing wrong in uvicorn's log. Also reported: how the streams were
   spread over the workers (``ss``), the PostgreSQL connections and Redis subscriptions held
   while the views are open and once they have closed.

One JSON document on stdout (progress on stderr), also written to
``artifacts/bench-live/report.json``; exit status 1 when a verdict is not met. uvicorn is stopped,
the database dropped and the Redis db flushed in every case.
"""

from __future__ import annotations

import argparse
import asyncio
import codecs
import itertools
import json
import os
import random
import re
import signal
import statistics
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NoReturn

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import server  # noqa: E402

DATABASE = os.environ.get("LIVE_DATABASE", "estoc_bench_live")
REDIS = os.environ.get("LIVE_REDIS_URL", "redis://127.0.0.1:6379/14")
OUT = server.ARTIFACTS / "bench-live"
STATIC_ROOT = Path("/tmp/estoc-bench-live/staticfiles")
VIEWS = 50
UPDATES = 20
INTERVAL = 0.25
WORKERS = 2
TARGET_S = 2.0
OPEN_TIMEOUT = 30.0  # every view open and showing the current state
DRAIN_TIMEOUT = 10.0  # after the last change, for the last events to arrive
RELEASE_TIMEOUT = 20.0  # after the views have closed, for the server to drop their subscriptions

ALINE = {"name": "Aline", "sante": 8, "sante_max": 8}
BRIGAND = {"name": "Brigand", "menace": 3, "sante": 3}


# --- the wire: HTTP/1.1 head, chunked transfer coding, Server-Sent Events -------------------------


class ProtocolError(Exception):
    """The server's answer is not well-formed HTTP/1.1 or chunked coding."""


def parse_head(head: bytes) -> tuple[int, dict[str, str]]:
    """A response's status line and header fields (up to and including the blank line): the status
    code and the fields, names in lower case (repeated fields joined with ", ")."""
    lines = head.decode("latin-1").split("\r\n")
    status = re.fullmatch(r"HTTP/1\.[01] (\d{3})(?: .*)?", lines[0])
    if status is None:
        raise ProtocolError(f"bad status line {lines[0]!r}")
    headers: dict[str, str] = {}
    for line in lines[1:]:
        if not line:
            continue
        name, sep, value = line.partition(":")
        if not sep or not name or name != name.strip():
            raise ProtocolError(f"bad header line {line!r}")
        key = name.lower()
        headers[key] = f"{headers[key]}, {value.strip()}" if key in headers else value.strip()
    return int(status.group(1)), headers


CHUNK_SIZE = re.compile(rb"[0-9A-Fa-f]{1,16}")
MAX_LINE = 4096  # a chunk-size or trailer line longer than this is an error, not a reason to buffer


class ChunkedDecoder:
    """The chunked transfer coding (RFC 9112 §7.1), fed the body in slices cut anywhere: each call
    returns the payload bytes complete so far; ``done`` once the last chunk and trailers are read."""

    def __init__(self) -> None:
        self._buffer = bytearray()
        self._state = "size"  # size → data → crlf → size …; size 0 → trailer → end
        self._left = 0
        self.done = False

    def feed(self, data: bytes) -> bytes:
        self._buffer += data
        out = bytearray()
        while True:
            if self._state in ("size", "trailer"):
                end = self._buffer.find(b"\r\n")
                if end < 0:
                    if len(self._buffer) > MAX_LINE:
                        raise ProtocolError(f"{self._state} line longer than {MAX_LINE} bytes")
                    break
                line = bytes(self._buffer[:end])
                del self._buffer[: end + 2]
                if self._state == "trailer":
                    if not line:
                        self._state, self.done = "end", True
                    continue
                size = line.split(b";", 1)[0].strip(b" \t")  # chunk extensions ignored
                if not CHUNK_SIZE.fullmatch(size):
                    raise ProtocolError(f"bad chunk size {line!r}")
                self._left = int(size, 16)
                self._state = "data" if self._left else "trailer"
            elif self._state == "data":
                taken = self._buffer[: self._left]
                out += taken
                del self._buffer[: len(taken)]
                self._left -= len(taken)
                if self._left:
                    break
                self._state = "crlf"
            elif self._state == "crlf":
                if len(self._buffer) < 2:
                    break
                if self._buffer[:2] != b"\r\n":
                    raise ProtocolError(f"chunk not followed by CRLF: {bytes(self._buffer[:2])!r}")
                del self._buffer[:2]
                self._state = "size"
            else:  # end
                if self._buffer:
                    raise ProtocolError(f"{len(self._buffer)} bytes after the last chunk")
                break
        return bytes(out)


@dataclass(frozen=True)
class Event:
    id: str
    event: str
    data: str


LINE_END = re.compile(r"\r\n|\r|\n")


class SSEParser:
    """A Server-Sent Events stream as the HTML standard's EventSource reads it (« Interpreting an
    event stream »), fed bytes cut anywhere (a UTF-8 character or a CRLF split included): the
    events complete so far. ``id`` is the last event id (it carries over to later events),
    ``event`` defaults to ``message``; comments (``: ♥``, the server's heartbeat) are counted, an
    event without data is not dispatched, ``retry`` is kept."""

    def __init__(self) -> None:
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self._started = False
        self._pending = ""  # an unfinished line
        self._after_cr = False  # the last line ended with CR: an LF opening the next slice belongs to it
        self._data: list[str] = []
        self._type = ""
        self.last_id = ""
        self.retry: int | None = None
        self.comments = 0

    def feed(self, data: bytes) -> list[Event]:
        text = self._decoder.decode(data)
        if not text:
            return []
        if not self._started:
            self._started = True
            text = text.removeprefix("\ufeff")
        if self._after_cr and text.startswith("\n"):
            text = text[1:]
        self._after_cr = text.endswith("\r")
        lines = LINE_END.split(self._pending + text)
        self._pending = lines.pop()
        events = []
        for line in lines:
            event = self._line(line)
            if event is not None:
                events.append(event)
        return events

    def _line(self, line: str) -> Event | None:
        if not line:
            return self._dispatch()
        if line.startswith(":"):
            self.comments += 1
            return None
        name, sep, value = line.partition(":")
        if sep and value.startswith(" "):
            value = value[1:]
        if name == "event":
            self._type = value
        elif name == "data":
            self._data.append(value)
        elif name == "id" and "\0" not in value:
            self.last_id = value
        elif name == "retry" and value.isascii() and value.isdigit():
            self.retry = int(value)
        return None

    def _dispatch(self) -> Event | None:
        data, kind = self._data, self._type
        self._data, self._type = [], ""
        if not data:
            return None
        return Event(self.last_id, kind or "message", "\n".join(data))


# --- the figures ------------------------------------------------------------------------------------


def percentile(values: Iterable[float], q: float) -> float:
    """Nearest-rank percentile: the smallest value with at least q % of the values at or below it
    (p95 of 1,000 delays = the 950th smallest), as bench/perceived.py computes it."""
    ordered = sorted(values)
    if not ordered:
        raise ValueError("no values")
    rank = max(1, -(-len(ordered) * q // 100))
    return ordered[int(rank) - 1]


def stats_ms(seconds: list[float]) -> dict[str, Any]:
    """p50 (median), p95, max, min and mean of durations given in seconds, in ms."""
    if not seconds:
        return {"n": 0}
    ms = [s * 1000 for s in seconds]
    return {
        "n": len(ms),
        "p50_ms": round(statistics.median(ms), 1),
        "p95_ms": round(percentile(ms, 95), 1),
        "max_ms": round(max(ms), 1),
        "min_ms": round(min(ms), 1),
        "mean_ms": round(statistics.fmean(ms), 1),
    }


@dataclass
class Received:
    """One event as a view read it: its name, its id and the monotonic time it was read."""

    event: str
    id: str
    at: float


def check_view(received: list[Received], first: int, expected: list[int]) -> dict[str, Any]:
    """What one view got against what it should: the current state ``first`` at once, then every
    version of ``expected`` once, in increasing order, and no other event."""
    problems: list[str] = []
    if not received:
        return {"ok": False, "problems": ["no event at all"], "missing": list(expected)}
    head, rest = received[0], received[1:]
    if head.event != "state" or head.id != str(first):
        problems.append(f"first event {head.event!r} id {head.id!r}, expected state id {first}")
    others = [r.event for r in rest if r.event != "state"]
    if others:
        problems.append(f"other events: {dict(Counter(others))}")
    ids: list[int] = []
    for r in rest:
        if r.event != "state":
            continue
        if not r.id.isascii() or not r.id.isdigit():
            problems.append(f"id {r.id!r} is not a version")
            continue
        ids.append(int(r.id))
    wanted = set(expected)
    counts = Counter(ids)
    missing = [v for v in expected if v not in counts]
    duplicates = sorted(v for v, n in counts.items() if n > 1)
    unexpected = sorted(v for v in counts if v not in wanted)
    in_order = all(a < b for a, b in itertools.pairwise(ids))
    if missing:
        problems.append(f"{len(missing)} missing: {missing}")
    if duplicates:
        problems.append(f"received twice: {duplicates}")
    if unexpected:
        problems.append(f"unexpected versions: {unexpected}")
    if not in_order:
        problems.append(f"out of order: {ids}")
    return {"ok": not problems, "problems": problems, "missing": missing}


def delays(received: list[Received], started: dict[int, float]) -> dict[int, float]:
    """The delay of each change to one view: the time its event was read minus the time the change
    started (``started``: version → monotonic time); the first receipt of a version counts."""
    out: dict[int, float] = {}
    for r in received:
        if r.event == "state" and r.id.isascii() and r.id.isdigit():
            version = int(r.id)
            if version in started and version not in out:
                out[version] = r.at - started[version]
    return out


# --- the clients -------------------------------------------------------------------------------------


@dataclass
class View:
    index: int
    received: list[Received] = field(default_factory=list)
    status: int | None = None
    headers: dict[str, str] = field(default_factory=dict)
    error: str | None = None
    heartbeats: int = 0
    opened_at: float = 0.0
    closed_by_server: bool = False
    first: asyncio.Event = field(default_factory=asyncio.Event)


async def watch(view: View, host: str, port: int, path: str) -> None:
    """One player view: the request, the head checked, then every event recorded until cancelled."""
    view.opened_at = time.monotonic()
    try:
        reader, writer = await asyncio.open_connection(host, port)
    except OSError as exc:
        view.error = f"{type(exc).__name__}: {exc}"
        view.first.set()
        return
    try:
        request = (
            f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nAccept: text/event-stream\r\n"
            "Cache-Control: no-cache\r\nUser-Agent: estoc-bench-live\r\n\r\n"
        )
        writer.write(request.encode("ascii"))
        await writer.drain()
        view.status, view.headers = parse_head(await reader.readuntil(b"\r\n\r\n"))
        content_type = view.headers.get("content-type", "")
        if view.status != 200 or not content_type.startswith("text/event-stream"):
            view.error = f"HTTP {view.status}, Content-Type {content_type!r}"
            return
        chunked = "chunked" in view.headers.get("transfer-encoding", "").lower()
        decoder = ChunkedDecoder() if chunked else None
        parser = SSEParser()
        while True:
            data = await reader.read(65536)
            at = time.monotonic()  # before any decoding: the time the bytes were there
            if not data:
                view.closed_by_server = True
                return
            payload = decoder.feed(data) if decoder is not None else data
            for event in parser.feed(payload):
                view.received.append(Received(event.event, event.id, at))
                view.first.set()
            view.heartbeats = parser.comments
            if decoder is not None and decoder.done:
                view.closed_by_server = True
                return
    except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, ProtocolError) as exc:
        view.error = f"{type(exc).__name__}: {exc}"
    finally:
        view.first.set()  # a failed view does not hold the others' start
        writer.close()
        with suppress(OSError):
            await writer.wait_closed()


# --- the changes ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Change:
    version: int  # the encounter's version after the change: its event's id
    start: float  # monotonic, just before the call
    end: float  # monotonic, once it returned (saved, drawn and published)


def make_changes(encounter_id: int, combatant_ids: list[int], count: int, interval: float) -> list[Change]:
    """``count`` changes, one every ``interval`` seconds (Santé −1, −1, +1, +1 … on Aline and the
    Brigand in turn): each one's new version, the monotonic time just before the call, and after it
    (the change committed and published). Runs in a thread of its own (Django's ORM is not for the
    event loop's thread)."""
    from django.db import connection

    from encounters import services
    from encounters.models import Combatant, Encounter

    encounter = Encounter.objects.get(pk=encounter_id)
    cast = [Combatant.objects.get(pk=pk) for pk in combatant_ids]
    out = []
    due = time.monotonic()
    try:
        for i in range(count):
            pause = due - time.monotonic()
            if pause > 0:
                time.sleep(pause)
            combatant = cast[i % len(cast)]
            delta = -1 if (i // len(cast)) % 2 == 0 else 1
            start = time.monotonic()
            services.combatant_adjust(
                encounter=encounter, version=encounter.version, combatant=combatant, field="sante", delta=delta
            )
            end = time.monotonic()
            out.append(Change(encounter.version, start, end))
            due += interval
    finally:
        connection.close()
    return out


# --- the set-up and the server -------------------------------------------------------------------------


def setup_django(env: dict[str, str]) -> None:
    os.environ.update(env)
    import django

    django.setup()


def create_encounter() -> dict[str, Any]:
    """The game master, the encounter (at a random id), Aline and the Brigand, the player link."""
    from django.contrib.auth import get_user_model
    from django.db import connection

    from encounters import player, services
    from encounters.models import Encounter

    owner = get_user_model().objects.create_user("mj-banc", password=None)
    first_id = random.randrange(10**8, 10**9)
    with connection.cursor() as cursor:
        cursor.execute("SELECT setval(pg_get_serial_sequence(%s, 'id'), %s)", [Encounter._meta.db_table, first_id])
    encounter = services.encounter_create(owner=owner, system="encore", name="Banc d'essai en direct")
    aline = services.combatants_add(encounter=encounter, version=encounter.version, kind="pj", states=[ALINE])[0]
    brigand = services.combatants_add(encounter=encounter, version=encounter.version, kind="pnj", states=[BRIGAND])[0]
    link = player.link_create(encounter)
    encounter.refresh_from_db()
    connection.close()
    return {
        "id": encounter.pk,
        "version": encounter.version,
        "token": link.token,
        "combatants": [aline.pk, brigand.pk],
    }


def pg_connections(database: str) -> int:
    import psycopg

    with psycopg.connect(server.database_url("postgres"), autocommit=True) as conn:
        row = conn.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()", [database]
        ).fetchone()
    return int(row[0]) if row else 0


def redis_subscribers(redis_url: str, channel: str) -> int:
    import redis

    client = redis.Redis.from_url(redis_url)
    try:
        return int(dict(client.pubsub_numsub(channel)).get(channel.encode(), 0))
    finally:
        client.close()


def redis_flush(redis_url: str) -> None:
    import redis

    client = redis.Redis.from_url(redis_url)
    try:
        client.flushdb()
    finally:
        client.close()


def streams_per_worker(port: int) -> dict[str, Any]:
    """The established connections on the server's port, by the process holding them (``ss``)."""
    try:
        lines = subprocess.run(
            ["ss", "-tnpH", "state", "established", f"( sport = :{port} )"],
            capture_output=True,
            text=True,
            check=True,
            timeout=10,
        ).stdout.splitlines()
    except (OSError, subprocess.SubprocessError) as exc:
        return {"error": str(exc)}
    pids = Counter(m.group(1) for line in lines if (m := re.search(r"pid=(\d+)", line)))
    return dict(sorted(pids.items()))


@contextmanager
def uvicorn(env: dict[str, str], log_path: Path, workers: int = WORKERS) -> Iterator[tuple[str, int]]:
    """uvicorn ``calculator.asgi:application`` on 127.0.0.1 and a free port, until each worker has
    started and ``/`` answers; yields the host and port; always stopped."""
    port = server.free_port()
    command = [
        server.PYTHON,
        "-m",
        "uvicorn",
        "calculator.asgi:application",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--workers",
        str(workers),
        "--no-access-log",
        "--log-level",
        "info",  # each worker's « Application startup complete. » tells it is ready
        "--timeout-graceful-shutdown",
        "5",
    ]
    log_path.parent.mkdir(parents=True, exist_ok=True)
    start = log_path.stat().st_size if log_path.exists() else 0
    with log_path.open("ab") as out:
        server.log(f"uvicorn, {workers} workers, on 127.0.0.1:{port} (log: {log_path})")
        process = subprocess.Popen(command, env=env, cwd=ROOT, stdout=out, stderr=out, start_new_session=True)
        try:
            deadline = time.monotonic() + 60
            while log_text(log_path, start).count("Application startup complete") < workers:
                if process.poll() is not None:
                    raise SystemExit(f"uvicorn exited with status {process.returncode}: see {log_path}")
                if time.monotonic() > deadline:
                    raise SystemExit(f"uvicorn's {workers} workers did not start within 60 s: see {log_path}")
                time.sleep(0.2)
            server.wait_until_up(f"http://127.0.0.1:{port}/")
            yield "127.0.0.1", port
        finally:
            process.send_signal(signal.SIGTERM)  # this uvicorn's supervisor: it stops its workers
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)  # the session started for it, and only it
                process.wait()
            server.log("uvicorn stopped")


def log_text(path: Path, start: int) -> str:
    with path.open("rb") as f:
        f.seek(start)
        return f.read().decode("utf-8", "replace")


def log_errors(path: Path, start: int) -> list[str]:
    """The lines of uvicorn's log after byte ``start`` that tell of an error."""
    return [
        line
        for line in log_text(path, start).splitlines()
        if re.search(r"Traceback|ERROR|CRITICAL|Internal Server Error|Exception", line)
    ]


# --- the measurement ------------------------------------------------------------------------------------


async def measure(
    host: str,
    port: int,
    encounter: dict[str, Any],
    *,
    views: int,
    updates: int,
    interval: float,
    database: str,
    redis_url: str,
) -> dict[str, Any]:
    from encounters import live

    path = f"/live/{encounter['token']}/events"
    channel = live.channel(encounter["id"])
    clients = [View(i) for i in range(views)]
    started = time.monotonic()
    tasks = [asyncio.create_task(watch(v, host, port, path)) for v in clients]
    report: dict[str, Any] = {}
    try:
        with suppress(TimeoutError):
            await asyncio.wait_for(asyncio.gather(*(v.first.wait() for v in clients)), OPEN_TIMEOUT)
        opened = [v for v in clients if v.received]
        report["opening"] = {
            "views_open": len(opened),
            "of": views,
            "all_open_s": round(time.monotonic() - started, 2),
            "first_event": stats_ms([v.received[0].at - v.opened_at for v in opened]),
            "failed": dict(Counter(v.error or "no first event" for v in clients if not v.received)),
        }
        report["streams_per_worker"] = await asyncio.to_thread(streams_per_worker, port)
        report["while_open"] = {
            "postgres_connections": await asyncio.to_thread(pg_connections, database),
            "redis_subscribers": await asyncio.to_thread(redis_subscribers, redis_url, channel),
        }
        if len(opened) == views:  # the changes only once every view shows the current state
            report.update(await changes_and_deliveries(clients, encounter, updates, interval))
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    # the server lets go of each stream's subscription once its view has gone: how long it takes
    closed = time.monotonic()
    subscribers = await asyncio.to_thread(redis_subscribers, redis_url, channel)
    while subscribers and time.monotonic() - closed < RELEASE_TIMEOUT:
        await asyncio.sleep(0.1)
        subscribers = await asyncio.to_thread(redis_subscribers, redis_url, channel)
    released = round(time.monotonic() - closed, 2) if not subscribers else None
    await asyncio.sleep(max(0.0, closed + 1.0 - time.monotonic()))
    report["after_close"] = {
        "redis_subscribers": subscribers,
        "released_within_s": released,
        "postgres_connections_after_1s": await asyncio.to_thread(pg_connections, database),
    }
    return report


async def changes_and_deliveries(
    clients: list[View], encounter: dict[str, Any], updates: int, interval: float
) -> dict[str, Any]:
    """The changes (in a thread), then the wait for every view to have them all (or the drain
    timeout); each view checked and its delays."""
    changes = await asyncio.to_thread(make_changes, encounter["id"], encounter["combatants"], updates, interval)
    started_at = {c.version: c.start for c in changes}
    deadline = time.monotonic() + DRAIN_TIMEOUT
    while time.monotonic() < deadline and not all(
        started_at.keys() <= {int(r.id) for r in v.received[1:] if r.id.isascii() and r.id.isdigit()} for v in clients
    ):
        await asyncio.sleep(0.05)
    return {
        "changes": {
            "versions": [c.version for c in changes],
            "call": stats_ms([c.end - c.start for c in changes]),
            "spread_s": round(changes[-1].start - changes[0].start, 2) if changes else 0,
        },
        "views": [(v, check_view(v.received, encounter["version"], list(started_at))) for v in clients],
        "delays": [delays(v.received, started_at) for v in clients],
    }


def summarise(raw: dict[str, Any], views: int, updates: int, target_s: float) -> dict[str, Any]:
    """The report's figures and verdicts from what ``measure`` gathered."""
    out: dict[str, Any] = {
        key: raw[key] for key in ("opening", "streams_per_worker", "while_open", "after_close") if key in raw
    }
    verdicts: list[dict[str, Any]] = []
    opening = raw["opening"]
    verdicts.append(
        {
            "target": f"every one of the {views} views opens and shows the current state",
            "measured": f"{opening['views_open']} of {views} in {opening['all_open_s']} s",
            "met": opening["views_open"] == views,
        }
    )
    if "views" in raw:
        checked = raw["views"]
        complete = sum(1 for _v, c in checked if c["ok"])
        received = sum(max(0, len(v.received) - 1) for v, _c in checked)
        problems = [
            {"view": v.index, "problems": c["problems"], "error": v.error, "closed_by_server": v.closed_by_server}
            for v, c in checked
            if not c["ok"] or v.error
        ]
        all_delays = [d for per_view in raw["delays"] for d in per_view.values()]
        per_update: dict[int, list[float]] = {}
        for per_view in raw["delays"]:
            for version, d in per_view.items():
                per_update.setdefault(version, []).append(d)
        delay = stats_ms(all_delays)
        out.update(
            {
                "changes": raw["changes"],
                "delivery": {
                    "events_received": received,
                    "expected": views * updates,
                    "views_complete": complete,
                    "delay": delay,
                    "per_change_max_ms": {
                        str(version): round(max(ds) * 1000, 1) for version, ds in sorted(per_update.items())
                    },
                    "heartbeats": sum(v.heartbeats for v, _c in checked),
                },
                "problems": problems,
            }
        )
        verdicts.append(
            {
                "target": f"every view receives every one of the {updates} changes, once each, in order",
                "measured": f"{complete} of {views} views complete, {received} of {views * updates} events",
                "met": complete == views and len(raw["changes"]["versions"]) == updates,
            }
        )
        p95 = delay.get("p95_ms")
        verdicts.append(
            {
                "target": f"p95 delivery delay ≤ {target_s:g} s",
                "measured": f"p95 {p95} ms (p50 {delay.get('p50_ms')} ms, max {delay.get('max_ms')} ms)",
                "met": p95 is not None and p95 <= target_s * 1000,
            }
        )
    else:
        verdicts += [
            {
                "target": f"every view receives every one of the {updates} changes, once each, in order",
                "measured": "not measured: not every view opened",
                "met": False,
            },
            {"target": f"p95 delivery delay ≤ {target_s:g} s", "measured": "not measured", "met": False},
        ]
    out["verdicts"] = verdicts
    return out


def run(views: int, updates: int, interval: float, database: str, redis_url: str) -> dict[str, Any]:
    began = time.monotonic()
    report: dict[str, Any] = {
        "target": f"{views} player views on one encounter, {updates} changes: every view receives every change, "
        f"p95 delivery delay ≤ {TARGET_S:g} s (issue 16)",
        "server": f"uvicorn calculator.asgi:application, {WORKERS} workers, PostgreSQL {database} (CONN_MAX_AGE=0), "
        f"Redis {redis_url} (pub/sub and cache), DEBUG off, 127.0.0.1",
        "setup": {"views": views, "changes": updates, "interval_s": interval},
        "loadavg_before": [round(v, 2) for v in os.getloadavg()],
    }
    log_path = OUT / "uvicorn.log"
    OUT.mkdir(parents=True, exist_ok=True)
    # CONN_MAX_AGE=0 as compose.yaml's live service (Django's advice under ASGI)
    env = server.server_env(server.reset_database(database), redis_url, static_root=STATIC_ROOT, CONN_MAX_AGE="0")
    redis_flush(redis_url)
    try:
        server.log("migrate, collectstatic")
        server.manage(env, "migrate", "--noinput", "-v", "0")
        server.manage(env, "collectstatic", "--noinput", "-v", "0")
        setup_django(env)
        encounter = create_encounter()
        report["setup"].update(
            {"encounter": encounter["id"], "first_version": encounter["version"], "workers": WORKERS}
        )
        log_start = log_path.stat().st_size if log_path.exists() else 0
        with uvicorn(env, log_path) as (host, port):
            server.log(f"{views} views on /live/…/events, then {updates} changes every {interval:g} s")
            raw = asyncio.run(
                measure(
                    host,
                    port,
                    encounter,
                    views=views,
                    updates=updates,
                    interval=interval,
                    database=database,
                    redis_url=redis_url,
                )
            )
        errors = log_errors(log_path, log_start)
    finally:
        from django.db import connections

        connections.close_all()
        server.drop_database(database)
        redis_flush(redis_url)
        server.log(f"database {database} dropped, {redis_url} flushed")
    report.update(summarise(raw, views, updates, TARGET_S))
    report["server_errors"] = errors[:20]
    report["verdicts"].append(
        {"target": "nothing wrong in uvicorn's log", "measured": f"{len(errors)} error lines", "met": not errors}
    )
    report["loadavg_after"] = [round(v, 2) for v in os.getloadavg()]
    report["verdict"] = "met" if all(v["met"] for v in report["verdicts"]) else "not met"
    report["seconds"] = round(time.monotonic() - began, 1)
    return report


class Arguments(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}\u202f: arguments invalides ({message}).\n")


def at_least(minimum: float, kind: type[int] | type[float]) -> Callable[[str], Any]:
    """An option's value: a number of ``kind`` at least ``minimum``, else a French message."""
    noun = "un entier" if kind is int else "un nombre"

    def parse(text: str) -> Any:
        try:
            value = kind(text)
        except ValueError:
            value = None
        if value is None or not value >= minimum or value == float("inf"):
            raise argparse.ArgumentTypeError(
                f"{noun} supérieur ou égal à {minimum:g} est attendu (reçu\u202f: «\u202f{text}\u202f»)"
            )
        return value

    return parse


def main() -> None:
    parser = Arguments(prog="bench/live.py", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--views", type=at_least(1, int), default=VIEWS, help=f"player views (default {VIEWS})")
    parser.add_argument("--changes", type=at_least(1, int), default=UPDATES, help=f"changes (default {UPDATES})")
    parser.add_argument(
        "--interval",
        type=at_least(0, float),
        default=INTERVAL,
        help=f"seconds between two changes (default {INTERVAL})",
    )
    parser.add_argument("--database", default=DATABASE, help=f"PostgreSQL database, dropped afterwards ({DATABASE})")
    parser.add_argument("--redis", default=REDIS, help=f"Redis URL, its db flushed afterwards ({REDIS})")
    args = parser.parse_args()
    report = run(args.views, args.changes, args.interval, args.database, args.redis)
    text = json.dumps(report, indent=2, ensure_ascii=False)
    (OUT / "report.json").write_text(text + "\n")
    print(text)
    sys.exit(0 if report["verdict"] == "met" else 1)


if __name__ == "__main__":
    main()
