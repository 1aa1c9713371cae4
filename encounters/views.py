"""The encounter pages. Every view is scoped to the logged-in game master: another's encounter is a
404, whatever the URL. Changes are POSTs carrying the version they were drawn from; htmx requests
get the ``#encounter`` partial back, plain ones a redirect (or the page with its messages)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth.decorators import login_required
from django.db.models import Prefetch
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse, QueryDict
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.text import capfirst
from django.utils.translation import gettext, ngettext
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from django_htmx.http import push_url
from django_htmx.middleware import HtmxDetails

from calculator import bestiary_cache, json_input, plugins
from encounters import exports, services
from encounters.context import roles_from
from encounters.forms import (
    MAX_COPIES,
    DataclassForm,
    EncounterCreateForm,
    ImportForm,
    add_form,
)
from encounters.models import Combatant, Encounter
from encounters.page import detail_context
from rulesets.core import encounter as core
from rulesets.core.french import ROLE_NOUNS, Article, Grammar, join, named, typography
from rulesets.core.registry import load_all
from rulesets.core.schema import ScenarioError, ascii_number

TEMPLATE = "encounters/detail.html"
ERROR_BAD_COUNT = "Combien\u202f: un nombre entier entre 1 et {n}."
ERROR_BAD_DELTA = "Pas d'ajustement\u202f: +1 ou −1."
ERROR_BAD_JSON = "Ce fichier n'est pas du JSON lisible{where}."
ERROR_WHERE = " (erreur ligne {line}, colonne {column})"
ERROR_REFUSED_JSON = "Ce fichier est refusé\u202f: {error}"
ERROR_NO_FILE = "Choisissez un fichier exporté, ou collez son contenu."
ERROR_FILE_TOO_BIG = "Le fichier dépasse 2\u00a0Mo."
MAX_IMPORT_BYTES = 2 * 1024 * 1024
ERROR_KIND_BY_HAND = "Sorte\u202f: choisissez-la pour un combattant saisi à la main."
ERROR_KIND_CHOOSE = "Sorte\u202f: choisissez {kinds}."
ERROR_KIND_NOT_FOR_ENTRY = (
    "Sorte\u202f: «\u202f{entry}\u202f» du bestiaire est de sorte {kinds}\u202f; choisissez-la, "
    "ou «\u202fselon le bestiaire\u202f»."
)


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails


def _owned(request: HttpRequest, pk: int) -> Encounter:
    return get_object_or_404(Encounter, pk=pk, owner=request.user)


def _combatant(encounter: Encounter, cid: int) -> Combatant:
    return get_object_or_404(Combatant, pk=cid, encounter=encounter, present=True)


# --- list, create, import ------------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def encounter_list(request: HttpRequest) -> HttpResponse:
    form = EncounterCreateForm(request.POST or None)
    status = 200
    if request.method == "POST" and form.is_valid():
        try:
            encounter = services.encounter_create(
                owner=request.user, system=form.cleaned_data["system"], name=form.cleaned_data["name"]
            )
        except ScenarioError as exc:
            for key, message in exc.errors.items():
                form.add_error(key if key in form.fields else None, message)
        else:
            return HttpResponseRedirect(reverse("encounters:detail", args=[encounter.pk]), status=303)
    if request.method == "POST":
        status = 422
    return render(request, "encounters/list.html", _list_context(request, form, ImportForm()), status=status)


LIST_CAST = 6  # names shown on the list, then « et N autres »


@dataclass
class Listed:
    """An encounter on the list: its rule system, where it stands (« Tour 3 ») and who is in it."""

    encounter: Encounter
    system_name: str
    clock_label: str
    cast: str


def _cast_name(name: str) -> str:
    """A name in the list of a cast: a proper name capitalised (« Aldric »), a role word in lower
    case (« personnage 2 », as the stories say it), a name typed with its article with that article
    (« la Bête du Gévaudan »); the list's first word is capitalised after."""
    text = " ".join(name.split())
    noun = named(text, Grammar(), roles=ROLE_NOUNS)
    if noun.grammar.article is Article.PROPER and noun.text == text:
        return capfirst(text)
    if noun.text.lower() == text.lower():
        return noun.text
    return noun.subject


def _cast(combatants: list[Combatant]) -> str:
    """« Aldric, personnage 2 et le Loup », six names at most then « et 3 autres »."""
    names = [_cast_name(c.name) for c in combatants]
    if not names:
        return gettext("aucun combattant")
    if len(names) > LIST_CAST:
        others = len(names) - LIST_CAST
        names = [*names[:LIST_CAST], ngettext("%(n)d autre", "%(n)d autres", others) % {"n": others}]
    return capfirst(join(names))


def _listed(encounter: Encounter, rulesets: dict[str, Any], systems: dict[str, core.EncounterRules]) -> Listed:
    clock_label = ""
    rules = systems.get(encounter.system)  # a system no longer registered: its slug, no clock
    if rules is not None:
        try:
            clock_label = typography(rules.clock_label(services.clock_of(encounter)))
        except ScenarioError:  # a stored clock its rules now refuse: the page itself will say so
            clock_label = ""
    ruleset = rulesets.get(encounter.system)
    return Listed(
        encounter=encounter,
        system_name=typography(ruleset.name) if ruleset is not None else encounter.system,
        clock_label=clock_label,
        cast=_cast(encounter.present_combatants),  # type: ignore[attr-defined]
    )


def _list_context(request: HttpRequest, form: EncounterCreateForm, import_form: ImportForm) -> dict[str, Any]:
    rulesets = load_all()
    systems = core.all_rules()
    present = Prefetch("combatants", queryset=Combatant.objects.filter(present=True), to_attr="present_combatants")
    encounters = Encounter.objects.filter(owner_id=request.user.pk).prefetch_related(present)
    return {
        "encounters": [_listed(e, rulesets, systems) for e in encounters],
        "form": form,
        "import_form": import_form,
    }


@login_required
@require_POST
def encounter_import(request: HttpRequest) -> HttpResponse:
    form = ImportForm(request.POST, request.FILES)
    form.is_valid()
    upload = request.FILES.get("file")
    text = request.POST.get("text", "")
    try:
        if upload is not None:
            if upload.size is not None and upload.size > MAX_IMPORT_BYTES:
                raise ScenarioError({"file": ERROR_FILE_TOO_BIG})
            text = upload.read().decode("utf-8", errors="replace")
        if not text.strip():
            raise ScenarioError({"file": ERROR_NO_FILE})
        if len(text) > MAX_IMPORT_BYTES:
            raise ScenarioError({"file": ERROR_FILE_TOO_BIG})
        try:  # nesting bounded, numbers finite, no NUL anywhere (PostgreSQL refuses it)
            data = json_input.loads(text, allow_nul=False)
        except json_input.JsonRefused as exc:
            if exc.message != json_input.ERROR_NOT_JSON:  # nested too deep, NaN, a NUL
                raise ScenarioError({"file": ERROR_REFUSED_JSON.format(error=exc.message)}) from None
            where = "" if exc.line is None else ERROR_WHERE.format(line=exc.line, column=exc.column)
            raise ScenarioError({"file": ERROR_BAD_JSON.format(where=where)}) from None
        encounter = exports.encounter_import(owner=request.user, data=data)
    except ScenarioError as exc:
        for message in exc.errors.values():
            form.add_error("file", message)
        return render(request, "encounters/list.html", _list_context(request, EncounterCreateForm(), form), status=400)
    return HttpResponseRedirect(reverse("encounters:detail", args=[encounter.pk]), status=303)


# --- the encounter page (encounters/page.py) ---------------------------------------------------


def _respond(
    request: HtmxHttpRequest,
    encounter: Encounter,
    status: int = 200,
    anchor: str = "",
    redirect: bool = True,
    **extra: Any,
) -> HttpResponse:
    """After a change: the partial for htmx, a redirect for a plain form (or the page with a message,
    or with a form still being filled when ``redirect`` is off)."""
    detail = reverse("encounters:detail", args=[encounter.pk])
    if status == 200 and redirect and not request.htmx:
        return HttpResponseRedirect(detail + anchor, status=303)
    context = detail_context(request, encounter, **extra)
    if request.htmx:
        response = render(request, f"{TEMPLATE}#encounter", context, status=status)
        return push_url(response, detail) if status == 200 else response
    return render(request, TEMPLATE, context, status=status)


@login_required
@require_safe
def encounter_detail(request: HttpRequest, pk: int) -> HttpResponse:
    encounter = _owned(request, pk)
    return render(request, TEMPLATE, detail_context(request, encounter))


def _guarded(
    request: HtmxHttpRequest, encounter: Encounter, change: Any, anchor: str = "", **on_error: Any
) -> HttpResponse:
    """Run ``change``; a stale version answers 409 with the fresh state, a refused value 422."""
    try:
        change()
    except services.StaleEncounter:
        encounter.refresh_from_db()
        return _respond(request, encounter, 409, message=services.ERROR_STALE, **on_error.get("stale", {}))
    except services.NothingToDo as exc:
        encounter.refresh_from_db()
        return _respond(request, encounter, 409, message=str(exc))
    except ScenarioError as exc:
        encounter.refresh_from_db()
        handler = on_error.get("invalid")
        extra = handler(exc.errors) if handler else {"message": " ".join(exc.errors.values())}
        return _respond(request, encounter, 422, **extra)
    encounter.refresh_from_db()
    return _respond(request, encounter, anchor=anchor)


def _whole_encounter_change(change: Any, doc: str) -> Any:
    """A view for a change that takes only the encounter and its version (a button)."""

    @login_required
    @require_POST
    def view(request: HtmxHttpRequest, pk: int) -> HttpResponse:
        encounter = _owned(request, pk)
        version = request.POST.get("version")
        return _guarded(request, encounter, lambda: change(encounter=encounter, version=version))

    view.__doc__ = doc
    return view


@login_required
@require_POST
def encounter_turns(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """The turn order by hand: ``move`` (a combatant key) with ``by`` (−1 / +1), or ``reset``."""
    encounter = _owned(request, pk)
    version = request.POST.get("version")

    def change() -> None:
        if request.POST.get("reset"):
            services.turn_reset(encounter=encounter, version=version)
            return
        by = {"-1": -1, "1": 1, "+1": 1}.get(request.POST.get("by", ""))
        if by is None:
            raise ScenarioError({"turn": services.ERROR_BAD_MOVE})
        services.turn_move(encounter=encounter, version=version, key=request.POST.get("move", ""), by=by)

    return _guarded(request, encounter, change, anchor="#turns")


encounter_advance = _whole_encounter_change(services.encounter_advance, "« Fin du tour »: the rules' end of round.")
encounter_undo = _whole_encounter_change(services.encounter_undo, "« Annuler » (Ctrl+Z): the last change undone.")
encounter_redo = _whole_encounter_change(services.encounter_redo, "« Rétablir » (Ctrl+Y): the next change redone.")


@login_required
@require_POST
def encounter_clock(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """The turn, round or ambush set by hand."""
    encounter = _owned(request, pk)
    rules = services.rules_for(encounter)
    form = DataclassForm(rules.clock_type, encounter.clock, request.POST, prefix="clock")

    def invalid(errors: dict[str, str]) -> dict[str, Any]:
        form.set_errors(errors)
        return {"clock_form": form}

    return _guarded(
        request,
        encounter,
        lambda: services.encounter_clock_set(
            encounter=encounter, version=request.POST.get("version"), clock=form.values()
        ),
        invalid=invalid,
        stale={"clock_form": form},
    )


@login_required
@require_POST
def encounter_delete(request: HttpRequest, pk: int) -> HttpResponse:
    _owned(request, pk).delete()
    return HttpResponseRedirect(reverse("encounters:list"), status=303)


# --- combatants ----------------------------------------------------------------------------------


@login_required
@require_POST
def combatant_add(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    encounter = _owned(request, pk)
    rules = services.rules_for(encounter)
    groups = {g.key: g for g in bestiary_cache.presets(plugins.get(rules.system))}
    form = add_form(rules, groups, request.POST)
    version = request.POST.get("version")

    def add() -> None:
        errors: dict[str, str] = {}
        raw_count = str(request.POST.get("count", "") or "1").strip()
        count = ascii_number(raw_count, 3) or 0  # '²' is a digit to str.isdigit, not to int
        if not 1 <= count <= MAX_COPIES:
            errors["count"] = ERROR_BAD_COUNT.format(n=MAX_COPIES)
        kind = request.POST.get("kind", "")
        preset_key = request.POST.get("preset", "")
        name = request.POST.get("name", "").strip()
        entry: core.Entry | None = None
        if preset_key:
            group_key, _sep, key = preset_key.partition(":")
            able = rules.bestiary_kinds(group_key)
            group = groups.get(group_key) if able else None
            preset = group.find(key) if group is not None else None
            if preset is None:
                errors["preset"] = services.ERROR_NO_PRESET
            else:
                entry = core.Entry(preset.key, preset.label, dict(preset.values))
                kind, error = _bestiary_kind(rules, group_key, kind, preset.label)
                if error:
                    errors["kind"] = error
        elif not kind and len(rules.kinds) == 1:
            kind = rules.kinds[0].key
        elif not kind:
            errors["kind"] = ERROR_KIND_BY_HAND
        if errors:
            raise ScenarioError(errors)
        services.combatants_join(encounter=encounter, version=version, kind=kind, entry=entry, name=name, count=count)

    def invalid(errors: dict[str, str]) -> dict[str, Any]:
        form.is_valid()
        for key, message in errors.items():
            form.add_error(key if key in form.fields else None, message)
        return {"add": form}

    return _guarded(request, encounter, add, anchor="#combatants", invalid=invalid, stale={"add": form})


def _bestiary_kind(rules: core.EncounterRules, group: str, kind: str, label: str) -> tuple[str, str]:
    """The kind a bestiary entry of ``group`` joins as: the « Sorte » chosen, if the entry can make
    it, else the bestiary's (issue 16: « Sorte » was ignored, Mercenaires became PJs); and the
    refusal, if any."""
    able = rules.bestiary_kinds(group)
    labels = join([str(k.label) for k in able], "ou")
    if not kind:
        default = rules.bestiary_kind(group)
        return (default.key, "") if default is not None else ("", ERROR_KIND_CHOOSE.format(kinds=labels))
    if kind not in {k.key for k in able}:
        return kind, ERROR_KIND_NOT_FOR_ENTRY.format(entry=label, kinds=labels)
    return kind, ""


@login_required
@require_POST
def combatant_edit(request: HtmxHttpRequest, pk: int, cid: int) -> HttpResponse:
    encounter = _owned(request, pk)
    combatant = _combatant(encounter, cid)
    rules = services.rules_for(encounter)
    add = request.POST.get("_add", "")
    form = DataclassForm(
        rules.kind(combatant.kind).state_type, combatant.state, request.POST, prefix=f"c{cid}", add=add
    )
    if add:  # « Ajouter une ligne »: the sheet again, one row longer, nothing saved yet
        if form.refused:  # a row no list may have: said on the sheet (issue 17, finding 4)
            form.set_errors(form.refused)
        return _respond(request, encounter, 422 if form.refused else 200, redirect=False, edit=(cid, form))

    def invalid(errors: dict[str, str]) -> dict[str, Any]:
        form.set_errors(errors)
        return {"edit": (cid, form)}

    return _guarded(
        request,
        encounter,
        lambda: services.combatant_update(
            encounter=encounter, version=request.POST.get("version"), combatant=combatant, state=form.values()
        ),
        anchor=f"#c{cid}",
        invalid=invalid,
        stale={"edit": (cid, form)},
    )


@login_required
@require_POST
def combatant_adjust(request: HtmxHttpRequest, pk: int, cid: int) -> HttpResponse:
    encounter = _owned(request, pk)
    combatant = _combatant(encounter, cid)
    raw = request.POST.get("delta", "")

    def adjust() -> None:
        if raw not in {"1", "-1", "+1"}:
            raise ScenarioError({"delta": ERROR_BAD_DELTA})
        services.combatant_adjust(
            encounter=encounter,
            version=request.POST.get("version"),
            combatant=combatant,
            field=request.POST.get("field", ""),
            delta=int(raw),
        )

    def invalid(errors: dict[str, str]) -> dict[str, Any]:
        return {"message": f"{combatant.name}\u202f: " + " ".join(errors.values())}

    return _guarded(request, encounter, adjust, anchor=f"#c{cid}", invalid=invalid)


@login_required
@require_POST
def combatant_remove(request: HtmxHttpRequest, pk: int, cid: int) -> HttpResponse:
    encounter = _owned(request, pk)
    combatant = _combatant(encounter, cid)
    return _guarded(
        request,
        encounter,
        lambda: services.combatant_remove(
            encounter=encounter, version=request.POST.get("version"), combatant=combatant
        ),
    )


# --- acting through a calculator ------------------------------------------------------------------


@login_required
@require_safe
def encounter_act(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """ "Ouvrir le calculateur": the page filled from the chosen combatants, inside the encounter."""
    encounter = _owned(request, pk)
    slug = request.GET.get("page", "")
    try:
        page = services.page_of(encounter, slug)
        bindings = services.bindings_parse(encounter, page, _roles(request.GET))
    except ScenarioError as exc:
        context = detail_context(request, encounter, act=(slug, request.GET, exc.errors))
        if "page" in exc.errors:
            context["message"] = exc.errors["page"]
        return render(request, TEMPLATE, context, status=422)
    url = services.calculator_url(encounter=encounter, page=page, bindings=bindings)
    return HttpResponseRedirect(url)


def _roles(data: QueryDict) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for key in data:
        if key.startswith("role."):
            out[key[len("role.") :]] = [k for v in data.getlist(key) for k in v.split(",") if k.strip()]
    return out


@login_required
@require_POST
def encounter_apply(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """ "Appliquer à la rencontre", from a calculator result opened from this encounter."""
    encounter = _owned(request, pk)
    roles = _roles(request.POST) or roles_from(request.POST)
    query = request.POST.get("q", "")
    slug = request.POST.get("page", "")
    back = ""
    if slug in load_all() and query:
        from calculator.views import page_path

        back = f"{page_path(slug)}?{query}"

    try:
        entry = services.encounter_apply(
            encounter=encounter, version=request.POST.get("version"), page_slug=slug, query=query, roles=roles
        )
    except services.StaleEncounter:
        encounter.refresh_from_db()
        context = detail_context(request, encounter, message=services.ERROR_STALE)
        context["back_to_result"] = back
        return render(request, TEMPLATE, context, status=409)
    except ScenarioError as exc:
        encounter.refresh_from_db()
        context = detail_context(request, encounter, message=" ".join(exc.errors.values()))
        context["back_to_result"] = back
        return render(request, TEMPLATE, context, status=400)
    # back to the updated health, not the log (issue 16): the first combatant the result changed
    changed = next((c["combatant"] for c in entry.changes if c["after"]["present"]), None)
    anchor = f"#c{changed}" if changed is not None else "#combatants"
    return HttpResponseRedirect(reverse("encounters:detail", args=[encounter.pk]) + anchor, status=303)


# --- exports ---------------------------------------------------------------------------------------


def _download(body: str | bytes, content_type: str, filename: str) -> HttpResponse:
    response = HttpResponse(body, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def _slug(encounter: Encounter) -> str:
    from django.utils.text import slugify

    return slugify(encounter.name) or f"rencontre-{encounter.pk}"


@login_required
@require_safe
def log_markdown(request: HttpRequest, pk: int) -> HttpResponse:
    encounter = _owned(request, pk)
    body = exports.log_markdown(encounter, request.build_absolute_uri("/"))
    return _download(body, "text/markdown; charset=utf-8", f"{_slug(encounter)}-journal.md")


@login_required
@require_safe
def log_json(request: HttpRequest, pk: int) -> HttpResponse:
    encounter = _owned(request, pk)
    response = JsonResponse(exports.log_data(encounter), json_dumps_params={"ensure_ascii": False, "indent": 2})
    response["Content-Disposition"] = f'attachment; filename="{_slug(encounter)}-journal.json"'
    return response


@login_required
@require_safe
def encounter_export(request: HttpRequest, pk: int) -> HttpResponse:
    encounter = _owned(request, pk)
    response = JsonResponse(exports.encounter_data(encounter), json_dumps_params={"ensure_ascii": False, "indent": 2})
    response["Content-Disposition"] = f'attachment; filename="{_slug(encounter)}.json"'
    return response
