"""Shared results: create (POST /r/), show frozen (/r/<id>), capture for wikis, text exports."""

from __future__ import annotations

from typing import cast

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBadRequest, HttpResponseRedirect
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.csp import CSP
from django.views.decorators.clickjacking import xframe_options_exempt
from django.views.decorators.csp import csp_override
from django.views.decorators.http import require_GET, require_POST

from calculator import sharing
from calculator.models import SharedResult
from rulesets.core.registry import load_all
from rulesets.core.schema import ScenarioError

ERROR_UNKNOWN_RULESET = "Système de règles inconnu."


@require_POST
def share_create(request: HttpRequest) -> HttpResponse:
    """The "Partager" button: freeze the result of a permalink and go to its short link."""
    ruleset = load_all().get(request.POST.get("ruleset", ""))
    if ruleset is None:
        return HttpResponseBadRequest(ERROR_UNKNOWN_RULESET, content_type="text/plain; charset=utf-8")
    try:
        shared = sharing.share_create(ruleset=ruleset, query=request.POST.get("q", ""))
    except ScenarioError as exc:
        body = render_to_string("calculator/share_error.html", {"errors": exc.errors.values()}, request)
        return HttpResponseBadRequest(body)
    return HttpResponseRedirect(reverse("shared", args=[shared.id]), status=303)


def _load(share_id: str) -> SharedResult:
    shared = SharedResult.objects.filter(pk=share_id).first()
    if shared is None:
        raise Http404(share_id)
    return shared


# modern-screenshot copies computed styles into the clone it draws; the browser sees those as
# inline styles. Scripts stay strict (self + nonce); only styles are relaxed, on this page only.
BASE_CSP = cast(dict[str, list[str]], settings.SECURE_CSP)
SHARED_PAGE_CSP: dict[str, list[str]] = {**BASE_CSP, "style-src": [CSP.SELF.value, CSP.UNSAFE_INLINE.value]}
CAPTURE_CSP: dict[str, list[str]] = {**BASE_CSP, "frame-ancestors": ["*"]}


@require_GET
@csp_override(SHARED_PAGE_CSP)
def shared(request: HttpRequest, share_id: str) -> HttpResponse:
    item = _load(share_id)
    url = request.build_absolute_uri(reverse("shared", args=[item.id]))
    capture_url = request.build_absolute_uri(reverse("shared_capture", args=[item.id]))
    ruleset = load_all().get(item.ruleset)
    context = {
        "item": item,
        "frames": sharing.as_rows(item),
        "ruleset_name": ruleset.name if ruleset else item.ruleset,
        "drift": sharing.share_drift(item),
        "url": url,
        "capture_url": capture_url,
        "wikitext": sharing.wikitext(item, url),
        "markdown": sharing.markdown(item, url),
        "embed": sharing.embed_snippet(capture_url, f"Estoc — résultat {item.id}"),
    }
    return render(request, "calculator/shared.html", context)


@require_GET
@xframe_options_exempt
@csp_override(CAPTURE_CSP)  # embeddable anywhere: this view only
def shared_capture(request: HttpRequest, share_id: str) -> HttpResponse:
    """The four frames only, fixed width, light theme: for wikis (image, print, iframe)."""
    item = _load(share_id)
    ruleset = load_all().get(item.ruleset)
    return render(
        request,
        "calculator/capture.html",
        {"item": item, "frames": sharing.as_rows(item), "ruleset_name": ruleset.name if ruleset else item.ruleset},
    )


@require_GET
def shared_text(request: HttpRequest, share_id: str, kind: str) -> HttpResponse:
    item = _load(share_id)
    url = request.build_absolute_uri(reverse("shared", args=[item.id]))
    if kind == "wiki":
        body, suffix = sharing.wikitext(item, url), "wiki.txt"
    else:
        body, suffix = sharing.markdown(item, url), "md"
    response = HttpResponse(body, content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = f'inline; filename="estoc-{item.id}.{suffix}"'
    return response
