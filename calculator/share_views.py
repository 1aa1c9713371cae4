"""Shared results: create (POST /r/), show frozen (/r/<id>), capture for wikis, text exports; the
short links of permalinks too long to copy (/p/<id>, calculator/short_links.py)."""

from __future__ import annotations

from typing import Any, cast
from urllib.parse import urlencode

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBadRequest, HttpResponseRedirect
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import Resolver404, resolve, reverse
from django.utils.crypto import salted_hmac
from django.utils.csp import CSP
from django.views.decorators.clickjacking import xframe_options_exempt
from django.views.decorators.csp import csp_override
from django.views.decorators.http import require_POST, require_safe

from calculator import share_previews, sharing, short_links
from calculator.models import SharedResult, ShortLink
from rulesets.core.french import typography
from rulesets.core.registry import load_all
from rulesets.core.schema import ScenarioError

ERROR_UNKNOWN_RULESET = "Système de règles inconnu."


def session_fingerprint(request: HttpRequest) -> str:
    """An anonymous visitor's session as a share's creator: a keyed hash of the session's key (the
    key itself is a credential), the session created when the visitor has none yet (its cookie is
    then sent with the answer)."""
    if request.session.session_key is None:
        request.session.save()
    key = request.session.session_key or ""
    return salted_hmac("estoc.share.creator_session", key, algorithm="sha256").hexdigest()


@require_POST
def share_create(request: HttpRequest) -> HttpResponse:
    """The "Partager" button: freeze the result of a permalink and go to its short link.

    The share records its creator (issue 17, finding 2): the GM logged in, else the visitor's
    session; the same result shared again by them goes to the share they already have. A share
    past ``SHARE_MAX_BYTES`` is a 413 with the French message on the error page."""
    ruleset = load_all().get(request.POST.get("ruleset", ""))
    if ruleset is None:
        return HttpResponseBadRequest(ERROR_UNKNOWN_RULESET, content_type="text/plain; charset=utf-8")
    user = request.user if request.user.is_authenticated else None
    try:
        shared = sharing.share_create(
            ruleset=ruleset,
            query=request.POST.get("q", ""),
            creator=user,
            creator_session="" if user is not None else session_fingerprint(request),
        )
    except ScenarioError as exc:
        body = render_to_string("calculator/share_error.html", {"errors": exc.errors.values()}, request)
        return HttpResponse(body, status=413 if isinstance(exc, sharing.ShareTooLarge) else 400)
    return HttpResponseRedirect(reverse("shared", args=[shared.id]), status=303)


CALCULATOR_PAGES = ("calculator", "calculator_page")


@require_safe
def short_link(request: HttpRequest, link_id: str) -> HttpResponse:
    """``/p/<id>``: the calculator page of a permalink too long even compact (issue 17, finding 9),
    rendered from the stored URL as that URL would be, without redirecting to it (it would not fit
    the request line). Parameters added to the short link come after the stored ones."""
    from calculator import views

    row = ShortLink.objects.filter(pk=link_id).first() if "\x00" not in link_id else None  # PostgreSQL refuses a NUL
    if row is None:
        raise Http404(link_id)
    path, _sep, query = row.url.partition("?")
    try:
        match = resolve(path)
    except Resolver404:
        raise Http404(link_id) from None
    if match.url_name not in CALCULATOR_PAGES:
        raise Http404(link_id)
    extra = request.META.get("QUERY_STRING", "")
    try:
        request.GET = short_links.expanded_query_dict(f"{query}&{extra}" if extra else query)  # type: ignore[assignment]
    except short_links.LinkError as exc:
        return short_links.link_error_response(request, exc)
    return views.calculator(request, *match.args, **match.kwargs)


def _load(share_id: str) -> SharedResult:
    if "\x00" in share_id:  # PostgreSQL refuses a NUL in a query: no share has one (issue 17, finding 4)
        raise Http404(share_id)
    shared = SharedResult.objects.filter(pk=share_id).first()
    if shared is None:
        raise Http404(share_id)
    return shared


# modern-screenshot copies computed styles into the clone it draws; the browser sees those as
# inline styles. Scripts stay strict (self + nonce); only styles are relaxed, on this page only.
BASE_CSP = cast(dict[str, list[str]], settings.SECURE_CSP)
SHARED_PAGE_CSP: dict[str, list[str]] = {**BASE_CSP, "style-src": [CSP.SELF.value, CSP.UNSAFE_INLINE.value]}
CAPTURE_CSP: dict[str, list[str]] = {**BASE_CSP, "frame-ancestors": ["*"]}


def _wiki_options(request: HttpRequest, item: SharedResult, url: str) -> tuple[sharing.WikiOptionsForm, dict[str, Any]]:
    """The wikitext's options read from the query (issue 19, item 3), and ``wikitext()``'s keyword
    arguments for them (the defaults when the form is invalid: the caller answers 400)."""
    form = sharing.WikiOptionsForm(request.GET)
    options = form.cleaned_data if form.is_valid() else {"titres": sharing.WIKI_HEADING_DEFAULT, "image": ""}
    ruleset = load_all().get(item.ruleset)
    kwargs = {
        "heading": options["titres"],
        "image": options["image"],
        "image_url": request.build_absolute_uri(share_previews.image_path(item)),
        "caption": share_previews.title(item, typography(ruleset.name) if ruleset else item.ruleset),
    }
    return form, kwargs


@require_safe
@csp_override(SHARED_PAGE_CSP)
def shared(request: HttpRequest, share_id: str) -> HttpResponse:
    """The frozen result with its tools: link, images, text exports, iframe.

    Issue 19: OpenGraph and Twitter-card tags for link previews (calculator/share_previews.py);
    the wikitext's options as a GET form (``?titres=…&image=…``), a bad value is a 400 page that
    says which parameter is wrong; « Copier le lien »."""
    item = _load(share_id)
    url = request.build_absolute_uri(reverse("shared", args=[item.id]))
    capture_url = request.build_absolute_uri(reverse("shared_capture", args=[item.id]))
    ruleset = load_all().get(item.ruleset)
    ruleset_name = typography(ruleset.name) if ruleset else item.ruleset
    wiki_form, wiki_options = _wiki_options(request, item, url)
    query = (
        urlencode({k: v for k, v in request.GET.items() if k in wiki_form.fields and v}) if wiki_form.is_valid() else ""
    )
    context = {
        "item": item,
        "frames": sharing.as_rows(item),
        "ruleset_name": ruleset_name,
        "drift": sharing.share_drift(item),
        "url": url,
        "capture_url": capture_url,
        "preview": share_previews.preview(request, item, ruleset_name, url),
        "wikitext": sharing.wikitext(item, url, **wiki_options),
        "wiki_errors": wiki_form.messages(),
        "wiki_heading": "aucun" if wiki_options["heading"] == sharing.WIKI_NO_HEADING else str(wiki_options["heading"]),
        "wiki_image": wiki_options["image"],
        "wiki_heading_choices": sharing.WIKI_HEADING_CHOICES,
        "wiki_image_choices": sharing.WIKI_IMAGE_CHOICES,
        "wiki_image_name": sharing.wiki_image_name(item),
        "wiki_image_url": wiki_options["image_url"],
        "wiki_url": reverse("shared_wiki", args=[item.id]) + (f"?{query}" if query else ""),
        "markdown": sharing.markdown(item, url),
        "embed": sharing.embed_snippet(capture_url, f"Estoc — résultat {item.id}"),
    }
    return render(request, "calculator/shared.html", context, status=200 if wiki_form.is_valid() else 400)


@require_safe
@xframe_options_exempt
@csp_override(CAPTURE_CSP)  # embeddable anywhere: this view only
def shared_capture(request: HttpRequest, share_id: str) -> HttpResponse:
    """The four frames only, fixed width, light theme: for wikis (image, print, iframe)."""
    item = _load(share_id)
    ruleset = load_all().get(item.ruleset)
    return render(
        request,
        "calculator/capture.html",
        {
            "item": item,
            "frames": sharing.as_rows(item),
            "ruleset_name": typography(ruleset.name) if ruleset else item.ruleset,
        },
    )


@require_safe
def shared_text(request: HttpRequest, share_id: str, kind: str) -> HttpResponse:
    """``wiki.txt`` (with the options of the share page: ``?titres=2..6|aucun&image=fichier|externe``,
    a bad value a French 400 naming the parameter) and ``markdown.md``; HEAD answered."""
    item = _load(share_id)
    url = request.build_absolute_uri(reverse("shared", args=[item.id]))
    if kind == "wiki":
        form, options = _wiki_options(request, item, url)
        if not form.is_valid():
            return HttpResponseBadRequest("\n".join(form.messages()) + "\n", content_type="text/plain; charset=utf-8")
        body, suffix = sharing.wikitext(item, url, **options), "wiki.txt"
    else:
        body, suffix = sharing.markdown(item, url), "md"
    response = HttpResponse(body, content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = f'inline; filename="estoc-{item.id}.{suffix}"'
    return response
