"""calculator.cache.SharedRedisCache: the threads of a process share one Redis client (and pool)."""

import threading
import uuid

import pytest

from calculator.cache import SharedRedisCache

URL = "redis://127.0.0.1:6379/12"


def redis_up() -> bool:
    try:
        import redis

        return bool(redis.Redis.from_url(URL, socket_connect_timeout=0.5).ping())
    except Exception:
        return False


pytestmark = pytest.mark.skipif(not redis_up(), reason="no Redis server on 127.0.0.1:6379")


def test_every_thread_uses_the_same_client_and_the_values_go_through():
    clients = []
    key = f"estoc-test-{uuid.uuid4().hex}"

    def work(i):
        cache = SharedRedisCache(URL, {})  # what each thread's caches["default"] is
        cache.set(f"{key}-{i}", i, 30)
        assert cache.get(f"{key}-{i}") == i
        clients.append(cache._cache)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(clients) == 4
    assert all(c is clients[0] for c in clients)
    cache = SharedRedisCache(URL, {})
    cache.delete_many([f"{key}-{i}" for i in range(4)])


def test_another_configuration_has_its_own_client():
    assert SharedRedisCache(URL, {})._cache is not SharedRedisCache("redis://127.0.0.1:6379/13", {})._cache
