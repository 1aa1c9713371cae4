"""The players' view (issue 16): the page a player opens from the game master's link or QR code,
its state fragment (for a browser without EventSource) and its event stream; and the game master's
side: the link made or withdrawn, what the players see of each combatant.

The player's pages need no account: the token is the key (32 random characters), and nothing
beyond what :mod:`encounters.player` draws for players reaches them."""

from __future__ import annotations

import asyncio
from typing import Any

from asgiref.sync import sync_to_async
from django.contrib.auth.decorators import login_required
from django.core.handlers.asgi import ASGIRequest
from django.db import connections
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase, StreamingHttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_POST, require_safe

from encounters import live, player
from encounters.models import Combatant, Encounter, PlayerLink
from encounters.views import HtmxHttpRequest, _owned, _respond

ERROR_GONE = "Ce lien des joueurs n'existe pas ou a été retiré par le meneur de jeu."


def _linked(token: str) -> Encounter:
    link = PlayerLink.objects.select_related("encounter").filter(token=token).first()
    if link is None:
        raise Http404(ERROR_GONE)
    return link.encounter


def _no_store(response: HttpResponse) -> HttpResponse:
    response["Cache-Control"] = "no-store"
    response["X-Robots-Tag"] = "noindex"
    return response


@require_safe
def player_page(request: HttpRequest, token: str) -> HttpResponse:
    encounter = _linked(token)
    context = {
        **player.player_context(encounter),
        "page_url": reverse("player", args=[token]),
        "state_url": reverse("player_state", args=[token]),
        "events_url": reverse("player_events", args=[token]),
    }
    return _no_store(render(request, "encounters/player.html", context))


@require_safe
def player_state(request: HttpRequest, token: str) -> HttpResponse:
    """The state alone, for a browser that polls (no EventSource)."""
    return _no_store(HttpResponse(player.render_state(_linked(token))))


def _first(token: str) -> tuple[int, live.Message] | None:
    link = PlayerLink.objects.select_related("encounter").filter(token=token).first()
    if link is None:
        return None
    return link.encounter_id, player.state_message(link.encounter)


def _first_then_close(token: str) -> tuple[int, live.Message] | None:
    """``_first``, then this thread's database connections closed: under an ASGI server the
    request's database work runs in a thread of its own that would keep its connection for as long
    as the stream stays open (15 minutes; 80 open views would take PostgreSQL's 100 connections)."""
    try:
        return _first(token)
    finally:
        connections.close_all()


# at most this many first states drawn at once per ASGI worker: after a restart every open view
# reconnects within the same 2 s, and each draw holds a database connection while it runs
# (120 at once took more than PostgreSQL's 100: docs/reliability.md)
FIRST_DRAWS = 8
_DRAWS: dict[int, asyncio.Semaphore] = {}


def _drawing() -> asyncio.Semaphore:
    loop = asyncio.get_running_loop()
    semaphore = _DRAWS.get(id(loop))
    if semaphore is None:
        semaphore = _DRAWS[id(loop)] = asyncio.Semaphore(FIRST_DRAWS)
    return semaphore


async def player_events(request: HttpRequest, token: str) -> HttpResponseBase:
    """The event stream: the state now, then each change as it is saved. Under an ASGI server an
    open stream costs no thread and no database connection; under the development server, a
    thread per stream."""
    if request.method not in ("GET", "HEAD"):
        return HttpResponse(status=405, headers={"Allow": "GET, HEAD"})
    stream: Any
    # subscribed first, the state drawn after: a change saved in between is not missed
    if isinstance(request, ASGIRequest):
        async with _drawing():
            encounter_id = await sync_to_async(_encounter_id)(token)
            if encounter_id is None:
                await sync_to_async(connections.close_all)()
                raise Http404(ERROR_GONE)
            subscription = await live.broker().asubscribe(live.channel(encounter_id))
            first = await sync_to_async(_first_then_close)(token)
        stream = live.astream(subscription, first[1] if first else player.gone_message())
    else:
        encounter_id = await sync_to_async(_encounter_id)(token)
        if encounter_id is None:
            raise Http404(ERROR_GONE)
        sync_subscription = live.broker().subscribe(live.channel(encounter_id))
        first = await sync_to_async(_first)(token)
        stream = live.stream(sync_subscription, first[1] if first else player.gone_message())
    response = StreamingHttpResponse(stream, content_type="text/event-stream; charset=utf-8")
    response["Cache-Control"] = "no-store"
    response["X-Accel-Buffering"] = "no"  # nginx passes each event on at once
    return response


def _encounter_id(token: str) -> int | None:
    value: int | None = PlayerLink.objects.filter(token=token).values_list("encounter_id", flat=True).first()
    return value


# --- the game master's side ------------------------------------------------------------------------


@login_required
@require_POST
def player_link_create(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    encounter = _owned(request, pk)
    player.link_create(encounter)
    return _respond(request, encounter, anchor="#players")


@login_required
@require_POST
def player_link_revoke(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    encounter = _owned(request, pk)
    player.link_revoke(encounter)
    return _respond(request, encounter, anchor="#players")


@login_required
@require_POST
def player_visibility(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """What the players see of each combatant: one select per combatant (``v<pk>``)."""
    encounter = _owned(request, pk)
    allowed = set(Combatant.Visibility.values)
    choices = []
    refused = []
    for combatant in encounter.combatants.filter(present=True):
        value = request.POST.get(f"v{combatant.pk}")
        if value is None:
            continue
        if value not in allowed:
            refused.append(combatant.name)
            continue
        choices.append((combatant, value))
    if refused:
        message = f"{player.ERROR_BAD_VISIBILITY} ({', '.join(refused)})"
        return _respond(request, encounter, 422, message=message)
    player.visibility_set(encounter, choices)
    return _respond(request, encounter, anchor="#players")
