"""The live player view's push channel (issue 16): every change of an encounter that has a player
link is drawn once, as the players see it, and published; each open player view receives it as a
Server-Sent Event.

Two brokers carry the messages:

* :class:`RedisBroker` when ``REDIS_URL`` is set: Redis publish/subscribe, so that a change saved by
  any worker reaches the streams held by every other (the ``live`` ASGI service of compose.yaml);
* :class:`LocalBroker` otherwise (``make run`` on SQLite): queues inside the one process.

A stream is served either way: a plain iterator that blocks between messages (the development
server and the test server, one thread per open view) or an asynchronous one (an ASGI server, where
an open view costs no thread: ``uvicorn calculator.asgi:application``).
"""

from __future__ import annotations

import asyncio
import json
import queue
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass
from typing import Any, Protocol

from django.conf import settings

# a comment line every HEARTBEAT seconds keeps proxies from closing a quiet stream, and tells a
# stream that its player has gone; a stream ends after LIFETIME seconds, and the browser reconnects
# (EventSource does it by itself, after RETRY_MS), so that no stream lives for ever
HEARTBEAT = 15.0
LIFETIME = 15 * 60.0
RETRY_MS = 2000


def channel(encounter_id: int) -> str:
    """The encounter's channel. Redis publish/subscribe ignores the database index, so the index of
    ``REDIS_URL`` (which already keeps two sites' caches apart on one server) is in the name, with
    ``LIVE_CHANNEL_PREFIX``: another site's players never see this one's encounters."""
    return f"{_namespace()}:encounter:{encounter_id}"


def _namespace() -> str:
    from urllib.parse import urlsplit

    url = getattr(settings, "REDIS_URL", "") or ""
    index = urlsplit(url).path.strip("/") or "0"
    prefix = getattr(settings, "LIVE_CHANNEL_PREFIX", "") or "estoc"
    return f"{prefix}:{index}"


@dataclass(frozen=True)
class Message:
    """What a change publishes: the event name (``state``, or ``revoked`` when the link is
    withdrawn), the players' fragment as HTML, the encounter's version and when it was sent."""

    event: str
    html: str
    version: int
    sent: float

    def dumps(self) -> str:
        return json.dumps({"event": self.event, "html": self.html, "version": self.version, "sent": self.sent})

    @classmethod
    def loads(cls, raw: str | bytes) -> Message:
        data = json.loads(raw)
        return cls(str(data["event"]), str(data["html"]), int(data["version"]), float(data["sent"]))

    def sse(self) -> str:
        """The message as one Server-Sent Event: each line of the HTML its own ``data:`` line."""
        lines = [f"id: {self.version}", f"event: {self.event}"]
        # the indentation and blank lines of the template left out: a lighter event, the same page
        lines += [f"data: {line}" for line in (raw.strip() for raw in self.html.splitlines()) if line] or ["data: "]
        return "\n".join(lines) + "\n\n"


class Subscription(Protocol):
    """A listener on one channel, subscribed from its creation (so that nothing published after
    the state it starts from is missed)."""

    def messages(self, timeout: float) -> Iterator[Message | None]:
        """Messages as they come; None after ``timeout`` seconds of silence."""
        ...

    def close(self) -> None: ...


class AsyncSubscription(Protocol):
    def messages(self, timeout: float) -> AsyncIterator[Message | None]: ...

    async def aclose(self) -> None: ...


class Broker(Protocol):
    def publish(self, name: str, message: Message) -> None: ...

    def subscribe(self, name: str) -> Subscription: ...

    async def asubscribe(self, name: str) -> AsyncSubscription: ...


class LocalBroker:
    """Publish/subscribe inside one process: each listener has its queue (a thread's, or an event
    loop's, fed thread-safely)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._queues: dict[str, set[Any]] = {}

    def publish(self, name: str, message: Message) -> None:
        with self._lock:
            listeners = list(self._queues.get(name, ()))
        for listener in listeners:
            listener.put(message)

    def _add(self, name: str, listener: Any) -> None:
        with self._lock:
            self._queues.setdefault(name, set()).add(listener)

    def _remove(self, name: str, listener: Any) -> None:
        with self._lock:
            self._queues.get(name, set()).discard(listener)

    def subscribe(self, name: str) -> _LocalSubscription:
        return _LocalSubscription(self, name)

    async def asubscribe(self, name: str) -> _LocalAsyncSubscription:
        return _LocalAsyncSubscription(self, name, asyncio.get_running_loop())

    def listeners(self, name: str) -> int:
        with self._lock:
            return len(self._queues.get(name, ()))


class _LocalSubscription:
    def __init__(self, broker: LocalBroker, name: str) -> None:
        self.broker, self.name = broker, name
        self.queue: queue.Queue[Message] = queue.Queue()
        broker._add(name, self)

    def put(self, message: Message) -> None:
        self.queue.put(message)

    def messages(self, timeout: float) -> Iterator[Message | None]:
        while True:
            try:
                yield self.queue.get(timeout=timeout)
            except queue.Empty:
                yield None

    def close(self) -> None:
        self.broker._remove(self.name, self)


class _LocalAsyncSubscription:
    def __init__(self, broker: LocalBroker, name: str, loop: asyncio.AbstractEventLoop) -> None:
        self.broker, self.name, self.loop = broker, name, loop
        self.queue: asyncio.Queue[Message] = asyncio.Queue()
        broker._add(name, self)

    def put(self, message: Message) -> None:
        try:  # from the publishing thread into this listener's event loop
            self.loop.call_soon_threadsafe(self.queue.put_nowait, message)
        except RuntimeError:  # that loop has closed: its listener is gone
            self.broker._remove(self.name, self)

    async def messages(self, timeout: float) -> AsyncIterator[Message | None]:
        while True:
            try:
                yield await asyncio.wait_for(self.queue.get(), timeout)
            except TimeoutError:
                yield None

    async def aclose(self) -> None:
        self.broker._remove(self.name, self)


class RedisBroker:
    """Redis publish/subscribe on the server ``url``: one subscription per open stream."""

    def __init__(self, url: str) -> None:
        self.url = url
        self._client: Any = None

    def publish(self, name: str, message: Message) -> None:
        if self._client is None:
            import redis

            self._client = redis.Redis.from_url(self.url)
        self._client.publish(name, message.dumps())

    def subscribe(self, name: str) -> _RedisSubscription:
        return _RedisSubscription(self.url, name)

    async def asubscribe(self, name: str) -> _RedisAsyncSubscription:
        subscription = _RedisAsyncSubscription(self.url)
        await subscription.pubsub.subscribe(name)
        return subscription


def _decoded(raw: Any) -> Message | None:
    return Message.loads(raw["data"]) if raw and raw.get("type") == "message" else None


class _RedisSubscription:
    def __init__(self, url: str, name: str) -> None:
        import redis

        client: Any = redis.Redis.from_url(url)
        self.client = client
        self.pubsub: Any = client.pubsub(ignore_subscribe_messages=True)
        self.pubsub.subscribe(name)

    def messages(self, timeout: float) -> Iterator[Message | None]:
        quiet_until = time.monotonic() + timeout
        while True:  # get_message also returns None for a subscription's own notices: not silence
            message = _decoded(self.pubsub.get_message(timeout=max(0.0, quiet_until - time.monotonic())))
            if message is not None or time.monotonic() >= quiet_until:
                yield message
                quiet_until = time.monotonic() + timeout

    def close(self) -> None:
        self.pubsub.close()
        self.client.close()


class _RedisAsyncSubscription:
    def __init__(self, url: str) -> None:
        from redis import asyncio as aioredis

        self.client: Any = aioredis.Redis.from_url(url)
        self.pubsub: Any = self.client.pubsub(ignore_subscribe_messages=True)

    async def messages(self, timeout: float) -> AsyncIterator[Message | None]:
        quiet_until = time.monotonic() + timeout
        while True:
            raw = await self.pubsub.get_message(timeout=max(0.0, quiet_until - time.monotonic()))
            message = _decoded(raw)
            if message is not None or time.monotonic() >= quiet_until:
                yield message
                quiet_until = time.monotonic() + timeout

    async def aclose(self) -> None:
        await self.pubsub.aclose()
        await self.client.aclose()


_BROKER: Broker | None = None
_BROKER_LOCK = threading.Lock()


def broker() -> Broker:
    """The process's broker: Redis when ``REDIS_URL`` is set, else the in-process one."""
    global _BROKER
    with _BROKER_LOCK:
        if _BROKER is None:
            url = getattr(settings, "REDIS_URL", "")
            _BROKER = RedisBroker(url) if url else LocalBroker()
        return _BROKER


# --- the streams -----------------------------------------------------------------------------------


def _opening(first: Message) -> str:
    return f"retry: {RETRY_MS}\n\n{first.sse()}"


def _heartbeat() -> str:
    return ": ♥\n\n"


def stream(
    subscription: Subscription,
    first: Message,
    *,
    lifetime: float = LIFETIME,
    clock: Callable[[], float] = time.monotonic,
) -> Iterator[str]:
    """A blocking stream: the state as it is now (drawn once ``subscription`` listens, so that no
    change falls between), then every newer message, a heartbeat when quiet; it ends on
    ``revoked`` or after ``lifetime`` seconds."""
    end = clock() + lifetime
    last = first.version
    try:
        yield _opening(first)
        if first.event == "revoked":
            return
        for message in subscription.messages(min(HEARTBEAT, lifetime)):
            if message is None:
                yield _heartbeat()
            elif message.event == "revoked":
                yield message.sse()
                return
            elif message.version > last:  # an older change published late is already drawn
                last = message.version
                yield message.sse()
            if clock() >= end:
                return
    finally:
        subscription.close()


async def astream(
    subscription: AsyncSubscription,
    first: Message,
    *,
    lifetime: float = LIFETIME,
    clock: Callable[[], float] = time.monotonic,
) -> AsyncIterator[str]:
    """The same stream for an ASGI server: waiting costs no thread."""
    end = clock() + lifetime
    last = first.version
    try:
        yield _opening(first)
        if first.event == "revoked":
            return
        async for message in subscription.messages(min(HEARTBEAT, lifetime)):
            if message is None:
                yield _heartbeat()
            elif message.event == "revoked":
                yield message.sse()
                return
            elif message.version > last:
                last = message.version
                yield message.sse()
            if clock() >= end:
                return
    finally:
        await subscription.aclose()
