"""The calculator pages: one generic view serves every registered rule system."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect, QueryDict
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_safe
from django_htmx.http import push_url, retarget
from django_htmx.middleware import HtmxDetails

from calculator import bestiary_cache, plugins, services, short_links
from calculator.charts import chart_view
from calculator.forms import (
    MARKER,
    ScenarioForm,
    apply_form_actions,
    encoded_field,
    encoded_pair,
    permalink_pairs,
    refused_input,
    request_payload,
    under_hidden,
)
from calculator.settling import RawForm
from calculator.templatetags.estoc import adjust_line
from encounters.context import CalculatorContext, calculator_context
from rulesets.core.french import typography
from rulesets.core.registry import Ruleset, load_all
from rulesets.core.request import Resolution
from rulesets.core.schema import ScenarioError, Source, flatten, to_data, unflatten


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails


_INDENT = re.compile(rb"\n[ \t]+")
LIVE = "_live"
# a result's URL opens on the result, not at the top of the form
RESULT_ANCHOR = "#result"


def compact(response: HttpResponse) -> HttpResponse:
    """Drop the templates' indentation from an htmx fragment (it has no <pre> nor <textarea>)."""
    response.content = _INDENT.sub(b"\n", response.content)
    return response


@require_safe
def home(request: HttpRequest) -> HttpResponse:
    return render(request, "calculator/home.html")


def page_path(slug: str) -> str:
    """The page of a ruleset: ``/encore/``; a second page of a package, ``/feerie/action/``."""
    if "-" in slug:
        base, page = slug.split("-", 1)
        return reverse("calculator_page", args=[base, page])
    return reverse("calculator", args=[slug])


def _ruleset(slug: str) -> Ruleset:
    rulesets = load_all()
    if slug not in rulesets:
        raise Http404(slug)
    return rulesets[slug]


def permalink_scenario(resolution: Resolution, hidden: tuple[str, ...]) -> dict[str, Any]:
    """The resolved scenario as flat fields, without those the page hides (table settings)."""
    return permalink_fields(resolution.scenario, hidden)


def permalink_fields(scenario: Any, hidden: tuple[str, ...]) -> dict[str, Any]:
    """A parsed scenario as a permalink's flat fields, without those the page hides."""
    return {k: v for k, v in flatten(to_data(scenario)).items() if not under_hidden(k, hidden)}


def permalink(
    ruleset: Ruleset,
    resolution: Resolution,
    hidden: tuple[str, ...],
    changes: dict[str, Any] | None = None,
    scenario: dict[str, Any] | None = None,
    encoded: dict[str, str | None] | None = None,
) -> str:
    """The URL that replays ``resolution`` (same scenario, typed dice and seed), with ``changes``.

    ``scenario`` is :func:`permalink_scenario`'s answer when the caller already has it (the
    variations of one result share it), ``encoded`` those fields encoded (:class:`Scene`).
    """
    return permalinks(ruleset, resolution, hidden, [changes or {}], scenario, encoded)[0]


def permalinks(
    ruleset: Ruleset,
    resolution: Resolution,
    hidden: tuple[str, ...],
    variants: list[dict[str, Any]],
    scenario: dict[str, Any] | None = None,
    encoded: dict[str, str | None] | None = None,
) -> list[str]:
    """:func:`permalink` for each of ``variants`` (changes), the fields encoded once for all: the
    same URLs as ``permalink_pairs`` then ``query_string`` (a changed field keeps its place, a new
    one comes after the others, as ``dict.update`` orders them). ``encoded``: those fields already
    encoded (:class:`Scene`)."""
    if encoded is None:
        flat = scenario if scenario is not None else permalink_scenario(resolution, hidden)
        encoded = encoded_fields(flat)
    typed = {k: resolution.dice[k] for k in resolution.dice.typed}
    tail = permalink_pairs({}, typed, resolution.dice.seed)[1:]  # the dice and the seed, without the marker
    tail_text = [encoded_pair(key, value) for key, value in tail] + ["r=1"]
    head = f"{page_path(ruleset.slug)}?{encoded_pair(MARKER, '1')}"
    out = []
    for changes in variants:
        fields = encoded if not changes else {**encoded, **{k: encoded_field(k, v) for k, v in changes.items()}}
        out.append("&".join([head, *(e for e in fields.values() if e is not None), *tail_text]))
    return out


@require_http_methods(["GET", "HEAD", "POST"])
@short_links.expands_compact_links  # a compact permalink (?z=…) read as the permalink it packs
def calculator(request: HtmxHttpRequest, slug: str, page: str = "") -> HttpResponse:
    """Form, live scene and odds, and the result when asked (POST, or a permalink with ``r=1``)."""
    if page:
        slug = f"{slug}-{page}"
    ruleset = _ruleset(slug)
    plugin = plugins.get(slug)
    data: QueryDict | None = request.POST if request.method == "POST" else request.GET
    if data is not None and MARKER not in data:
        data = None
    key = None
    if request.htmx and not request.htmx.boosted and request.method == "POST" and data is not None and LIVE not in data:
        # « Résoudre » on a scene already resolved: only the roll is new
        key = scene_key(data)
        scene = bestiary_cache.kept_by("scene", plugin, key)
        if isinstance(scene, Scene):
            fast = scene_result(request, ruleset, plugin, data, scene, slug)
            if fast is not None:
                return fast
        if "_reroll" in data or "_clear" in data:
            key = None  # the dice they drop are not in the key: such a scene is not kept
    groups = {g.key: g for g in bestiary_cache.presets(plugin)}
    acted = False
    settled = plugins.Settled()
    # keys and buttons naming a row no list may have: a 400, the form filled with the rest
    refused: dict[str, str] = {}
    if data is not None:
        refused = refused_input(ruleset.scenario_type, data, groups)
        data, acted = apply_form_actions(data, ruleset.scenario_type, groups)
        data, cleared = dice_actions(data)
        acted = acted or cleared
        if plugin.settle is not None and not refused and not (request.method == "GET" and data.get("r") == "1"):
            # dependent fields follow their cause; a permalink replays exactly what it names
            settled = settle(plugin, data)
    defaults, flat_defaults = services.flat_defaults(ruleset=ruleset)
    if (
        request.htmx
        and not request.htmx.boosted
        and request.method == "POST"
        and data is not None
        and not acted
        and not refused
        and LIVE not in data
        and not settled.changes
    ):
        # the click on « Résoudre » with nothing else to redraw: the result alone, without the form
        fast = result_alone(request, ruleset, plugin, data, flat_defaults, slug, key)
        if fast is not None:
            return fast
    form = ScenarioForm(ruleset, plugin, defaults, data, flat_defaults=flat_defaults)
    # a permalink opened (GET, r=1): its values name what it draws, the same for every visitor
    opened = data is not None and request.method == "GET" and data.get("r") == "1" and not refused and not acted
    link_key = tuple((k, tuple(v)) for k, v in data.lists()) if opened and data is not None else None
    replay = bestiary_cache.kept_by("replay", plugin, link_key) if link_key is not None else None
    if isinstance(replay, Replay):
        payload, scenario = replay.payload, replay.scenario
    else:
        replay = None
        payload = form.payload()
        # parsed once: the live panels, the dice and the resolution all read this scenario
        scenario = services.scenario_try_parse(ruleset=ruleset, nested=payload["scenario"])
    form.set_dice(services.dice_spec(ruleset=ruleset, scenario=scenario), keep_typed=scenario is None)

    in_encounter = calculator_context(request, data, slug)
    resolution: Resolution | None = None
    link = ""
    flat_result: dict[str, Any] = {}
    status = 200
    # the live redraw of the scene while typing: a POST (a long sheet would not fit in a URL) marked _live
    live_post = request.method == "POST" and data is not None and LIVE in data
    if live_post and settled.changes:
        # other fields than the one typed changed: the whole form is redrawn, not only the scene
        acted = True
    wants_result = (
        not acted
        and not refused
        and not live_post
        and data is not None
        and (request.method == "POST" or data.get("r") == "1")
    )
    if refused:
        form.set_errors(refused)
        status = 400
    variations: list[tuple[str, str, bool]] | None = None
    if wants_result and replay is not None:
        resolution, link, variations = replay.resolution, replay.link, replay.variations
    elif wants_result:
        try:
            resolution = services.resolution_resolve(
                ruleset=ruleset, payload=payload, parsed=scenario, source=Source.FORM
            )
        except ScenarioError as exc:
            form.set_errors(exc.errors)
            status = 422
        else:
            flat_result = permalink_scenario(resolution, plugin.hidden)
            link = permalink(ruleset, resolution, plugin.hidden, scenario=flat_result)
            if link_key is not None:
                variations = _variations(ruleset, plugin, resolution, flat_result)
                kept = Replay(payload, scenario, resolution, link, variations)
                bestiary_cache.keep_by("replay", plugin, link_key, kept, REPLAYS_KEPT)
            if request.method == "POST" and not request.htmx:
                for note in settled.notes:  # what settle changed, shown on the result's page
                    messages.info(request, typography(note))
                return HttpResponseRedirect(carry(in_encounter, link) + RESULT_ANCHOR, status=303)
    elif scenario is None and data is not None:
        # show why the live panels are empty, on the fields at fault
        try:
            services.resolution_resolve(ruleset=ruleset, payload={**payload, "dice": {}}, source=Source.FORM)
        except ScenarioError as exc:
            form.set_errors({k: v for k, v in exc.errors.items() if not k.startswith("dice.")})

    # a resolve that settled fields sends the whole calculator: the form shows what was resolved
    result_only = bool(request.htmx) and request.method == "POST" and resolution is not None and not settled.changes
    # the parsed form already holds the table settings (they are the form's defaults)
    odds = services.scenario_odds(ruleset, scenario) if scenario is not None and not result_only else None
    context: dict[str, Any] = {
        "ruleset": ruleset,
        "page_url": page_path(ruleset.slug),
        "plugin": plugin,
        "form": form,
        "preset_groups": groups,
        "scenario": scenario,
        "scene": resolution.narrative.scene
        if resolution is not None
        else (typography(ruleset.scene(scenario)) if scenario is not None else ""),
        "resolution": resolution,
        "permalink": carry(in_encounter, link) + RESULT_ANCHOR if link else "",
        "share_query": link.split("?", 1)[1] if "?" in link else "",
        "in_encounter": in_encounter,
        "odds": odds,
        "charts": [chart_view(c) for c in odds.charts] if odds else [],
        "rows": form.rows,
        # a permalink opened (GET, r=1): its values name its fields' drawing (templatetags.estoc.fields_block)
        "permalink_key": link_key,
        "settle_notes": [typography(note) for note in settled.notes],
        "final_numbers": result_summary(plugin, resolution),
        "variations": [
            (label, carry(in_encounter, url, short_links.NAVIGATION_MAX_BYTES) + RESULT_ANCHOR, current)
            for label, url, current in (
                variations if variations is not None else _variations(ruleset, plugin, resolution, flat_result)
            )
        ],
    }
    template = "calculator/page.html"
    if request.htmx and not request.htmx.boosted:
        live = not acted and (live_post or (request.method == "GET" and data is not None and data.get("r") != "1"))
        if live:
            # the dice, and the scene and the odds out of band
            context["oob"] = True
            body = "".join(
                render_to_string(f"{template}#{part}", context, request) for part in ("live", "scene", "odds", "notes")
            )
            if live_post and data is not None:
                body += live_extras(request, plugin, form, context, data)
            return compact(HttpResponse(body, status=status))
        if result_only:
            # the form stays as typed: only the result is sent, in place of the previous one
            return result_response(request, plugin, context, carry(in_encounter, link))
        response = render(request, f"{template}#calculator", context, status=status)
        if live_post:
            # a live change that moved other fields (settle): the whole calculator, not the scene
            response = retarget(response, "#calculator")
            response["HX-Reswap"] = "outerHTML"
        if resolution is not None:
            response = push_url(response, carry(in_encounter, link))
        return compact(response)
    return render(request, template, context, status=status)


def encoded_fields(flat: dict[str, Any]) -> dict[str, str | None]:
    return {key: encoded_field(key, value) for key, value in flat.items()}


@dataclass(frozen=True, slots=True)
class Scene:
    """What « Résoudre » reads of a form that stays as typed, the same for every roll of the scene:
    its scenario unflattened and parsed, and the permalink's fields encoded. Kept per
    process for the last scenes resolved (issue 18: the table rolls the same scene again and again,
    typing new dice or leaving them to the server), under :func:`scene_key`; shared, never changed."""

    nested: dict[str, Any]
    scenario: Any
    encoded: dict[str, str | None]


SCENES_KEPT = 32


@dataclass(frozen=True, slots=True)
class Replay:
    """What a permalink's page computes from its values, the same for every visitor (its seed and
    dice are in the link): the request, the scenario, the resolution, the permalink, the
    variations. Kept per process for the last links opened (issue 18: a result shared
    with the table is opened by each player), under the link's values; shared, never changed."""

    payload: dict[str, Any]
    scenario: Any
    resolution: Resolution
    link: str
    variations: list[tuple[str, str, bool]]


REPLAYS_KEPT = 64


def scene_key(data: QueryDict) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """A form's values but the dice and the seed: what names its :class:`Scene`."""
    return tuple((k, tuple(v)) for k, v in data.lists() if k != "seed" and not k.startswith("dice."))


def result_alone(
    request: HtmxHttpRequest,
    ruleset: Ruleset,
    plugin: plugins.WebPlugin,
    data: QueryDict,
    flat_defaults: dict[str, Any],
    slug: str,
    key: tuple[Any, ...] | None = None,
) -> HttpResponse | None:
    """The htmx answer to « Résoudre » when the form stays as typed: the result in place of the
    previous one, and the plug-in's ``result_oob`` parts. The scenario is read from the raw values
    as the form reads them (:class:`calculator.settling.RawForm`, property-tested against the form),
    so the form's fields are not built. None when the scenario or the dice are refused: the caller
    then draws the whole calculator with the messages on their fields. ``key``: the form's
    :func:`scene_key`, under which its scene is kept when it resolves (None: not kept)."""
    raw = RawForm(ruleset.scenario_type, {key: str(value) for key, value in data.items()}, flat_defaults, plugin.hidden)
    nested = unflatten(raw.scenario_data())
    scenario = services.scenario_try_parse(ruleset=ruleset, nested=nested)
    if scenario is None:
        return None
    scene = Scene(nested, scenario, encoded_fields(permalink_fields(scenario, plugin.hidden)))
    answer = scene_result(request, ruleset, plugin, data, scene, slug)
    if answer is not None and key is not None:
        bestiary_cache.keep_by("scene", plugin, key, scene, SCENES_KEPT)
    return answer


def scene_result(
    request: HtmxHttpRequest, ruleset: Ruleset, plugin: plugins.WebPlugin, data: QueryDict, scene: Scene, slug: str
) -> HttpResponse | None:
    """:func:`result_alone` for a scene already read: the dice typed in ``data`` rolled and resolved.
    None when the dice are refused."""
    scenario = scene.scenario
    payload = request_payload(scene.nested, data)
    try:
        resolution = services.resolution_resolve(ruleset=ruleset, payload=payload, parsed=scenario, source=Source.FORM)
    except ScenarioError:
        return None
    in_encounter = calculator_context(request, data, slug)
    link = permalink(ruleset, resolution, plugin.hidden, encoded=scene.encoded)
    context: dict[str, Any] = {
        "ruleset": ruleset,
        "page_url": page_path(ruleset.slug),
        "plugin": plugin,
        "scenario": scenario,
        "scene": resolution.narrative.scene,
        "resolution": resolution,
        "permalink": carry(in_encounter, link) + RESULT_ANCHOR,
        "share_query": link.split("?", 1)[1] if "?" in link else "",
        "in_encounter": in_encounter,
        "final_numbers": result_summary(plugin, resolution),
        "variations": [
            (label, carry(in_encounter, url, short_links.NAVIGATION_MAX_BYTES) + RESULT_ANCHOR, current)
            for label, url, current in _variations(ruleset, plugin, resolution, encoded=scene.encoded)
        ],
    }
    return result_response(request, plugin, context, carry(in_encounter, link))


def result_response(
    request: HtmxHttpRequest, plugin: plugins.WebPlugin, context: dict[str, Any], url: str
) -> HttpResponse:
    """The htmx answer that puts a result in place of the previous one (the form stays as typed):
    the result, the plug-in's ``result_oob`` parts out of band, and ``url`` pushed."""
    response = render(request, "calculator/page.html#result", context)
    for extra in plugin.result_oob:
        response.content += render_to_string(extra, {**context, "oob": True}, request).encode()
    response = retarget(response, "#result")
    response["HX-Reswap"] = "outerHTML show:none"  # estoc.js brings the story into view
    return compact(push_url(response, url))


MAX_ADJUSTED = 200


def live_extras(
    request: HttpRequest, plugin: plugins.WebPlugin, form: ScenarioForm, context: dict[str, Any], data: QueryDict
) -> str:
    """What else a live change redraws, out of band: the plug-in's ``result_oob`` parts (they show
    the scenario as typed), and the « Ajuster » lines the page shows (``_adjusted``, sent by
    estoc.js: ``key:row`` of each line, ``weapon:``, ``defence:1``, ``weapon:attacker``…), since a
    typed number changes its line."""
    out = [render_to_string(extra, context, request) for extra in plugin.result_oob]
    for item in data.get("_adjusted", "").split(",")[:MAX_ADJUSTED]:
        key, _colon, row = item.partition(":")
        if plugin.table(key) is not None:
            out.append(adjust_line(form, key, row, oob=True))
    return "".join(out)


def dice_actions(data: QueryDict) -> tuple[QueryDict, bool]:
    """« Relancer » (``_reroll``) resolves with every die and the seed left to the server;
    « Vider les dés » (``_clear``) empties the dice inputs without resolving. Returns the data and
    whether it was only a form edit (``_clear``)."""
    if "_reroll" not in data and "_clear" not in data:
        return data, False
    out = QueryDict(mutable=True)
    for key, values in data.lists():
        if not (key.startswith("dice.") or key in ("seed", "_reroll", "_clear")):
            out.setlist(key, values)
    return out, "_clear" in data


def settle(plugin: plugins.WebPlugin, data: QueryDict) -> plugins.Settled:
    """Apply the plug-in's :attr:`~calculator.plugins.WebPlugin.settle` to ``data`` (mutable)."""
    assert plugin.settle is not None
    settled = plugin.settle({key: str(value) for key, value in data.items()})
    for key, value in settled.changes.items():
        if value is None:
            data.pop(key, None)
        else:
            data[key] = value
    return settled


def carry(in_encounter: CalculatorContext | None, url: str, limit: int | None = None) -> str:
    """A link of a calculator page opened from an encounter keeps the encounter's hidden fields; and
    every link to a result fits (issue 17, finding 9): in ``limit`` bytes, by default
    ``PERMALINK_MAX_BYTES`` (the links a table copies), compact or short if need be (short_links.fit)."""
    return short_links.fit(in_encounter.carry(url) if in_encounter is not None else url, limit)


def _variations(
    ruleset: Ruleset,
    plugin: plugins.WebPlugin,
    resolution: Resolution | None,
    flat: dict[str, Any] | None = None,
    encoded: dict[str, str | None] | None = None,
) -> list[tuple[str, str, bool]]:
    if resolution is None or plugin.variations is None:
        return []
    listed = list(plugin.variations(resolution))
    urls = permalinks(
        ruleset, resolution, plugin.hidden, [changes for _label, changes, _current in listed], flat, encoded
    )
    return [(typography(label), url, current) for (label, _changes, current), url in zip(listed, urls, strict=True)]


def result_summary(plugin: plugins.WebPlugin, resolution: Resolution | None) -> list[tuple[str, str, str]]:
    """The « Résultat final » rows (key, label, value), in French typography (issue 15: the labels
    and values a plug-in writes are shown, shared and exported as they are here)."""
    if resolution is None:
        return []
    if plugin.summary is not None:
        return [(key, typography(label), typography(value)) for key, label, value in plugin.summary(resolution)]
    return [(k, k, typography(str(v))) for k, v in resolution.result.numbers.items()]
