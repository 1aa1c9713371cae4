"""The live view's load check (bench/live.py), its own parts: the HTTP head, the chunked transfer
coding and the Server-Sent Events read back exactly, however the bytes are cut (the server's own
events included), and the figures and checks it reports. No server here: ``make bench-live`` runs
the whole check."""

from __future__ import annotations

import asyncio
import random

import pytest

from bench import live as bench
from encounters import live

HTML = '<section id="player-state">\n  <h2>Aline\u202f: indemne</h2>\n\n  <p>Santé ♥ 8/8</p>\n</section>\n'


def chunked(payload: bytes, sizes: list[int]) -> bytes:
    """``payload`` in chunks of ``sizes`` (the rest in one more), with an extension on the first."""
    out, rest = bytearray(), payload
    for i, size in enumerate([*sizes, len(payload)]):
        piece, rest = rest[:size], rest[size:]
        if piece:
            out += f"{len(piece):X}{';ext=1' if i == 0 else ''}\r\n".encode() + piece + b"\r\n"
    return bytes(out + b"0\r\n\r\n")


def cuts(data: bytes, rng: random.Random) -> list[bytes]:
    pieces, i = [], 0
    while i < len(data):
        step = rng.randint(1, 9)
        pieces.append(data[i : i + step])
        i += step
    return pieces


def test_the_response_head_is_read_with_its_fields() -> None:
    status, headers = bench.parse_head(
        b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream; charset=utf-8\r\n"
        b"Transfer-Encoding: chunked\r\nVary: Cookie\r\nvary: Accept\r\n\r\n"
    )
    assert status == 200
    assert headers["content-type"] == "text/event-stream; charset=utf-8"
    assert headers["transfer-encoding"] == "chunked"
    assert headers["vary"] == "Cookie, Accept"
    with pytest.raises(bench.ProtocolError):
        bench.parse_head(b"HTTP/2 200\r\n\r\n")


@pytest.mark.parametrize("seed", range(5))
def test_chunked_bodies_decode_exactly_however_they_are_cut(seed: int) -> None:
    rng = random.Random(seed)
    payload = ("état «\u202fblessée\u202f» ♥\n" * 40).encode()
    body = chunked(payload, [rng.randint(1, 50) for _ in range(10)])
    decoder = bench.ChunkedDecoder()
    out = b"".join(decoder.feed(piece) for piece in cuts(body, rng))
    assert out == payload
    assert decoder.done


@pytest.mark.parametrize(
    "body",
    [b"zz\r\nab\r\n", b"0x2\r\nab\r\n0\r\n\r\n", b"2\r\nabX\r\n", b"0\r\n\r\nextra", b"1" * 5000],
    ids=["not hex", "0x prefix", "no CRLF after data", "after the last chunk", "endless size line"],
)
def test_a_malformed_chunked_body_is_an_error(body: bytes) -> None:
    with pytest.raises(bench.ProtocolError):
        bench.ChunkedDecoder().feed(body)


def server_stream() -> bytes:
    """What the server sends on a player's stream: the opening (retry, the state now), a
    heartbeat, two changes and the link withdrawn (encounters/live.py's own formatting)."""
    messages = [
        live.Message("state", HTML, 3, 0.0),
        live.Message("state", HTML.replace("8/8", "7/8"), 4, 0.0),
        live.Message("state", "", 5, 0.0),
        live.Message("revoked", "<p>Ce lien a été retiré.</p>", 0, 0.0),
    ]
    text = live._opening(messages[0]) + live._heartbeat() + "".join(m.sse() for m in messages[1:])
    return text.encode()


@pytest.mark.parametrize("seed", range(5))
def test_the_servers_own_events_are_read_back_however_the_bytes_are_cut(seed: int) -> None:
    stream = server_stream()
    decoder, parser = bench.ChunkedDecoder(), bench.SSEParser()
    events = []
    for piece in cuts(chunked(stream, [7, 100, 3]), random.Random(seed)):
        events += parser.feed(decoder.feed(piece))
    assert [(e.event, e.id) for e in events] == [("state", "3"), ("state", "4"), ("state", "5"), ("revoked", "0")]
    # the template's indentation and blank lines are left out by the server, the text is the same
    assert events[0].data == "\n".join(line.strip() for line in HTML.splitlines() if line.strip())
    assert "Santé ♥ 7/8" in events[1].data
    assert events[2].data == ""  # « data: » alone is still an event
    assert events[3].data == "<p>Ce lien a été retiré.</p>"
    assert parser.retry == live.RETRY_MS
    assert parser.comments == 1  # the heartbeat
    assert decoder.done


def test_every_line_ending_and_a_split_character_are_handled() -> None:
    stream = "\ufeffid: 7\r\nevent: state\r\ndata: é\r\n\r\ndata:x\rdata:  y\r\rdata\n\n: ♥\n\nid: bad\0id\ndata: z\n\n"
    parser = bench.SSEParser()
    events = []
    for byte in stream.encode():  # one byte at a time: CR and LF apart, « é » and « ♥ » split
        events += parser.feed(bytes([byte]))
    assert events == [
        bench.Event("7", "state", "é"),
        bench.Event("7", "message", "x\n y"),  # the id carries over; one space only is dropped
        bench.Event("7", "message", ""),  # « data » with no colon: an empty data line
        bench.Event("7", "message", "z"),  # an id with NUL is ignored
    ]
    assert parser.comments == 1


def test_an_event_without_data_is_not_dispatched_and_an_unfinished_one_waits() -> None:
    parser = bench.SSEParser()
    assert parser.feed(b"event: state\nid: 3\n\nretry: x\ndata: half") == []
    assert parser.last_id == "3"
    assert parser.retry is None
    assert parser.feed(b"\n\n") == [bench.Event("3", "message", "half")]


def test_percentiles_are_nearest_rank() -> None:
    assert bench.percentile(range(1, 21), 95) == 19  # p95 of 20 = the 19th
    assert bench.percentile(range(1, 1001), 95) == 950
    assert bench.percentile(range(1, 1001), 50) == 500
    assert bench.percentile(range(1, 11), 95) == 10  # rank 9.5 rounds up: at least 95 % at or below
    assert bench.percentile(range(1, 6), 50) == 3
    assert bench.percentile([4.0, 1.0, 3.0, 2.0], 100) == 4.0
    assert bench.percentile([5.0], 95) == 5.0
    with pytest.raises(ValueError, match="no values"):
        bench.percentile([], 95)


def test_statistics_are_in_milliseconds() -> None:
    stats = bench.stats_ms([i / 1000 for i in range(1, 101)])  # 1 to 100 ms
    assert stats == {"n": 100, "p50_ms": 50.5, "p95_ms": 95.0, "max_ms": 100.0, "min_ms": 1.0, "mean_ms": 50.5}
    assert bench.stats_ms([]) == {"n": 0}


def received(*pairs: tuple[str, str], start: float = 10.0) -> list[bench.Received]:
    return [bench.Received(event, id_, start + i) for i, (event, id_) in enumerate(pairs)]


def states(*ids: int) -> list[tuple[str, str]]:
    return [("state", str(i)) for i in ids]


def test_a_view_with_every_change_once_in_order_is_complete() -> None:
    checked = bench.check_view(received(*states(3, 4, 5, 6)), 3, [4, 5, 6])
    assert checked == {"ok": True, "problems": [], "missing": []}


@pytest.mark.parametrize(
    ("got", "problem"),
    [
        (states(3, 4, 6), "1 missing: [5]"),
        (states(3, 4, 5, 5, 6), "received twice: [5]"),
        (states(3, 4, 6, 5), "out of order: [4, 6, 5]"),
        (states(3, 4, 5, 6, 9), "unexpected versions: [9]"),
        (states(2, 4, 5, 6), "first event 'state' id '2', expected state id 3"),
        ([*states(3, 4, 5, 6), ("revoked", "0")], "other events: {'revoked': 1}"),
        ([*states(3, 4, 5), ("state", "six"), *states(6)], "id 'six' is not a version"),
    ],
    ids=["missing", "duplicate", "out of order", "unexpected", "wrong first", "other event", "bad id"],
)
def test_a_view_that_lost_doubled_or_reordered_a_change_is_not(got: list[tuple[str, str]], problem: str) -> None:
    checked = bench.check_view(received(*got), 3, [4, 5, 6])
    assert not checked["ok"]
    assert problem in checked["problems"]


def test_a_view_that_got_nothing_misses_everything() -> None:
    assert bench.check_view([], 3, [4, 5]) == {"ok": False, "problems": ["no event at all"], "missing": [4, 5]}


def test_delays_are_from_each_changes_start_to_its_first_receipt() -> None:
    got = received(*states(3, 4, 5, 5, 7), start=10.0)  # read at 10, 11, 12, 13, 14
    assert bench.delays(got, {4: 10.5, 5: 11.0, 6: 12.0}) == {4: 0.5, 5: 1.0}


def test_a_client_records_each_event_of_a_chunked_stream_with_the_time_it_came() -> None:
    """``watch`` against a canned answer on a loopback socket (no Estoc): the head, then the
    server's stream in chunks, the second change sent later than the first."""
    stream = server_stream()
    split = stream.index(b"id: 5")

    async def answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.readuntil(b"\r\n\r\n")
        writer.write(
            b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream; charset=utf-8\r\ntransfer-encoding: chunked\r\n\r\n"
        )
        writer.write(chunked(stream[:split], [50, 3]).removesuffix(b"0\r\n\r\n"))
        await writer.drain()
        await asyncio.sleep(0.2)
        writer.write(chunked(stream[split:], []))
        await writer.drain()
        writer.close()

    async def scenario() -> bench.View:
        listener = await asyncio.start_server(answer, "127.0.0.1", 0)
        port = listener.sockets[0].getsockname()[1]
        view = bench.View(0)
        async with listener:
            await asyncio.wait_for(bench.watch(view, "127.0.0.1", port, "/live/x/events"), 5)
        return view

    view = asyncio.run(scenario())
    assert view.error is None
    assert view.closed_by_server
    assert [(r.event, r.id) for r in view.received] == [
        ("state", "3"),
        ("state", "4"),
        ("state", "5"),
        ("revoked", "0"),
    ]
    assert view.received[2].at - view.received[1].at >= 0.15
    assert view.heartbeats == 1
