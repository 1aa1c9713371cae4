"""Who the client is: one trusted-proxy setting for the rate limits, axes and the HTTPS header.

Issue 17, findings 1, 3 and 5. Before, the API's limiter read the raw ``X-Forwarded-For`` header (a
client rotating it was never limited), axes read only the socket address (behind nginx every user
shared the proxy's address, and ``PROXY_COUNT`` had no effect), and ``SECURE_PROXY_SSL_HEADER`` was
honoured from anyone (a client sending ``X-Forwarded-Proto: https`` skipped the HTTPS redirect).

``settings.TRUSTED_PROXIES`` (environment ``TRUSTED_PROXIES``; ``PROXY_COUNT``, its former name, is
read when it is unset) says which forwarded headers to believe:

* empty or ``0`` (the default): none. The client is ``REMOTE_ADDR`` and every ``X-Forwarded-*``
  header is removed from the request before anything reads it;
* a number N: N proxies of ours stand in front of the application, each appending the address it
  received the request from to ``X-Forwarded-For``: the client is the N-th address from the right.
  The application must then be reachable through those proxies only (nothing checks the socket
  address); a request whose header has fewer than N addresses did not come through them;
* a comma-separated list of addresses or networks (``10.0.0.2, 172.16.0.0/12, ::1``): the request
  came through a trusted proxy when its socket address is one of them; ``X-Forwarded-For`` is then
  read from the right, skipping the trusted addresses, and the first other one is the client.

:func:`client_address` answers the address every limit counts by (the API's and the pages' rate
limits in ``calculator/limits.py``, axes through ``AXES_CLIENT_IP_CALLABLE``).
:class:`TrustedProxyMiddleware`, first in ``MIDDLEWARE``, removes ``X-Forwarded-Proto``,
``-For``, ``-Host`` (and the like) from a request that did not come through a trusted proxy, so
that ``SecurityMiddleware`` believes ``X-Forwarded-Proto`` only from one. A malformed header never
raises: an entry that is not an address ends the walk and the last trusted hop's address is used.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from django.core.exceptions import ImproperlyConfigured

if TYPE_CHECKING:
    from django.http import HttpRequest, HttpResponse

Address = ipaddress.IPv4Address | ipaddress.IPv6Address
Network = ipaddress.IPv4Network | ipaddress.IPv6Network

# what a client may not tell us unless it is a trusted proxy (request.META keys)
FORWARDED_HEADERS = (
    "HTTP_X_FORWARDED_FOR",
    "HTTP_X_FORWARDED_PROTO",
    "HTTP_X_FORWARDED_HOST",
    "HTTP_X_FORWARDED_PORT",
    "HTTP_X_FORWARDED_SSL",
    "HTTP_X_REAL_IP",
    "HTTP_FORWARDED",
)
# more X-Forwarded-For entries than that are not read (a header is at most gunicorn's 8190 bytes)
MAX_HOPS = 64

ERROR_SETTING = (
    "TRUSTED_PROXIES\u202f: «\u202f{value}\u202f» n'est ni un nombre de proxys ni une liste d'adresses ou de réseaux "
    "séparés par des virgules ({reason})."
)


@dataclass(frozen=True)
class Trust:
    """The parsed ``TRUSTED_PROXIES``: a count of proxies, or the networks of our proxies."""

    count: int = 0
    networks: tuple[Network, ...] = ()

    @property
    def enabled(self) -> bool:
        return bool(self.count or self.networks)

    def trusts(self, address: Address) -> bool:
        return any(address in network for network in self.networks)


@lru_cache(maxsize=8)
def parse_trusted_proxies(value: str | int | None) -> Trust:
    """``TRUSTED_PROXIES`` read (see the module's docstring); ImproperlyConfigured when malformed."""
    text = str(value if value is not None else "").strip()
    if not text:
        return Trust()
    if text.isdigit():
        return Trust(count=int(text))
    networks = []
    for item in (part.strip() for part in text.split(",")):
        if not item:
            continue
        try:
            networks.append(ipaddress.ip_network(item, strict=False))
        except ValueError as exc:
            raise ImproperlyConfigured(ERROR_SETTING.format(value=text, reason=exc)) from None
    if not networks:
        raise ImproperlyConfigured(ERROR_SETTING.format(value=text, reason="aucune adresse"))
    return Trust(networks=tuple(networks))


def current_trust() -> Trust:
    from django.conf import settings

    return parse_trusted_proxies(getattr(settings, "TRUSTED_PROXIES", ""))


def parse_address(text: str) -> Address | None:
    """An address as a header or the socket gives it (``1.2.3.4``, ``1.2.3.4:80``, ``[::1]:80``,
    ``::ffff:1.2.3.4``: IPv4), or None when it is not one."""
    text = text.strip().strip('"')
    if text.startswith("["):
        text = text[1:].partition("]")[0]
    elif text.count(":") == 1:
        text = text.partition(":")[0]
    try:
        address = ipaddress.ip_address(text)
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


def _forwarded_for(request: HttpRequest) -> list[str]:
    header = request.META.get("HTTP_X_FORWARDED_FOR", "")
    if not isinstance(header, str) or not header.strip():
        return []
    return [part.strip() for part in header.split(",")][-MAX_HOPS:]


def _resolve(request: HttpRequest, trust: Trust) -> tuple[str, bool]:
    """(the client's address, whether the request came through a trusted proxy)."""
    raw = request.META.get("REMOTE_ADDR", "") or ""
    remote = parse_address(raw) if isinstance(raw, str) else None
    fallback = str(remote) if remote is not None else (raw if isinstance(raw, str) else "")
    if not trust.enabled:
        return fallback, False
    hops = _forwarded_for(request)
    if trust.count:
        if len(hops) < trust.count:
            return fallback, False
        client = parse_address(hops[-trust.count])
        # the entry our outermost proxy wrote is not an address: that proxy's own one
        if client is None:
            inner = parse_address(hops[-trust.count + 1]) if trust.count > 1 else None
            return str(inner) if inner is not None else fallback, True
        return str(client), True
    if remote is None or not trust.trusts(remote):
        return fallback, False
    last = remote
    for hop in reversed(hops):
        address = parse_address(hop)
        if address is None:
            break
        if not trust.trusts(address):
            return str(address), True
        last = address
    return str(last), True


def client_address(request: HttpRequest) -> str:
    """The client's address (see the module's docstring); ``REMOTE_ADDR`` unless a trusted proxy
    forwarded the request. Never raises on a malformed header."""
    return _resolve(request, current_trust())[0]


def from_trusted_proxy(request: HttpRequest) -> bool:
    """Whether the request came through one of our proxies (so its X-Forwarded-* headers count)."""
    return _resolve(request, current_trust())[1]


class TrustedProxyMiddleware:
    """First in ``MIDDLEWARE``: a request that did not come through a trusted proxy loses its
    forwarded headers, so ``SECURE_PROXY_SSL_HEADER`` (``X-Forwarded-Proto``) is honoured only from
    one (finding 5) and nothing after reads a client's ``X-Forwarded-For``."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not from_trusted_proxy(request):
            for key in FORWARDED_HEADERS:
                request.META.pop(key, None)
        return self.get_response(request)
