"""JSON API (django-ninja). One set of typed routes per registered rule system, so the OpenAPI
document carries each ruleset's request schema, generated from its scenario dataclasses."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from ninja import NinjaAPI, Schema, Status

from calculator import api_errors, json_input, plugins, services, tables
from calculator.views import page_path
from rulesets.core.french import typography
from rulesets.core.registry import Ruleset, load_all
from rulesets.core.request import odds_data, result_data
from rulesets.core.schema import ScenarioError, Source, copy_data, json_schema

ERROR_INVALID = "Requête invalide\u202f: voir les messages par champ."
ERROR_UNKNOWN_RULESET = "Système de règles inconnu."


class _Api(NinjaAPI):
    """The OpenAPI document, with each request schema's row keys read from the bestiary when the
    document is asked for (issue 14, « Rows by key »): the routes are declared at import, before
    any database is there."""

    def get_openapi_schema(self, *, path_prefix: str | None = None, path_params: Any = None) -> Any:
        schema = super().get_openapi_schema(path_prefix=path_prefix, path_params=path_params)
        rulesets = load_all()
        for operations in schema.get("paths", {}).values():
            for operation in operations.values():
                slug, _sep, action = str(operation.get("operationId", "")).rpartition("_")
                if action in ("resolve", "odds") and slug in rulesets:
                    content = operation["requestBody"]["content"]["application/json"]
                    content["schema"] = request_schema(rulesets[slug])
        return schema


# The rate limits (API_RATE on every route, RESOLVE_RATE on resolve and odds) are counted before the
# view runs, by calculator.limits.RateLimitMiddleware: per client address, shared by the workers.
api = _Api(
    title="Estoc API",
    version="1",
    description="Résoudre une passe d'armes et calculer ses probabilités exactes, pour chaque système de règles.",
    docs_url=None,
    urls_namespace="api",
)
# every error in the API's JSON format, a server error included (calculator/api_errors.py)
api_errors.install(api)


class RulesetOut(Schema):
    slug: str
    name: str
    tagline: str
    engine_version: str
    links: dict[str, str]


class ErrorOut(Schema):
    message: str
    errors: dict[str, str]


class DieOut(Schema):
    key: str
    label: str
    die: str
    value: int
    typed: bool


class EventOut(Schema):
    kind: str
    label: str
    value: str
    rule: str
    group: str
    data: dict[str, Any]


class NarrativeOut(Schema):
    scene: str
    story: list[str]


class ResolveOut(Schema):
    ruleset: str
    engine_version: str
    scenario: dict[str, Any]
    seed: int | None
    dice: list[DieOut]
    outcome: str
    outcome_label: str
    numbers: dict[str, int | str | bool | None]
    events: list[EventOut]
    narrative: NarrativeOut


class ProbabilityOut(Schema):
    fraction: str
    value: float


class OutcomeOut(Schema):
    code: str
    label: str
    probability: ProbabilityOut


class BarOut(Schema):
    label: str
    probability: ProbabilityOut


class ChartOut(Schema):
    key: str
    title: str
    unit: str
    mean: ProbabilityOut | None
    bars: list[BarOut]


class ExpectationOut(Schema):
    code: str
    label: str
    value: ProbabilityOut


class OddsOut(Schema):
    ruleset: str
    outcomes: list[OutcomeOut]
    charts: list[ChartOut]
    expectations: list[ExpectationOut]


class TableRowOut(Schema):
    key: str
    label: str
    values: dict[str, Any] | list[Any]  # a row's scenario data (a dice pool is a list)


class TableOut(Schema):
    key: str
    label: str
    paths: list[str]
    required: list[str]
    rows: list[TableRowOut]


class ExampleOut(Schema):
    key: str
    title: str
    source: str
    request: dict[str, Any]
    expected: dict[str, Any]


def _links(slug: str) -> dict[str, str]:
    base = f"/api/rulesets/{slug}"
    return {
        "schema": f"{base}/schema",
        "resolve": f"{base}/resolve",
        "odds": f"{base}/odds",
        "examples": f"{base}/examples",
        "tables": f"{base}/tables",
        "page": page_path(slug),
    }


def request_schema(ruleset: Ruleset, *, keys: bool = True) -> dict[str, Any]:
    """JSON Schema of a resolve request of ``ruleset``; with ``keys``, where a bestiary row may go,
    its keys (read from the database) or the custom row (calculator/tables.py)."""
    scenario = json_schema(ruleset.scenario_type)
    if keys:
        found = tables.tables_of(plugins.get(ruleset.slug))
        scenario = tables.schema_with_keys(copy_data(scenario), found, ruleset.slug)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": typography(f"{ruleset.name} — requête"),
        "type": "object",
        "properties": {
            "scenario": scenario,
            "dice": {
                "type": "object",
                "title": "Dés lus à la table",
                "description": 'Emplacement → face ("pc.1": 5). Un dé absent ou vide est lancé par le serveur.',
                "additionalProperties": {"type": ["integer", "string", "null"]},
            },
            "seed": {"type": ["integer", "null"], "minimum": 0, "maximum": 2**31 - 1, "title": "Graine"},
        },
        "required": ["scenario"],
        "additionalProperties": False,
    }


def _body(request: HttpRequest) -> Any:
    """The request's JSON, nesting bounded and numbers finite (``calculator.json_input``), or a
    French 400."""
    try:
        return json_input.loads(request.body or b"{}")
    except json_input.JsonRefused as exc:
        raise ScenarioError({"__all__": exc.message}) from None


def _unchecked(request: HttpRequest, data: dict[str, Any]) -> HttpResponse:
    """A 200 answer rendered without pydantic re-validating it: ``result_data`` and ``odds_data``
    already build exactly ``ResolveOut`` / ``OddsOut`` (``tests/test_api.py`` validates them
    against those schemas for every worked example), and the re-validation cost more than the
    engine itself (see docs/performance.md). The OpenAPI document still declares the schemas."""
    return api.create_response(request, data, status=200)


def _bad(exc: ScenarioError) -> Status[Any]:
    return Status(400, {"message": ERROR_INVALID, "errors": exc.errors})


@api.get("/rulesets", response=list[RulesetOut], summary="Systèmes de règles disponibles")
def rulesets_list(request: HttpRequest) -> list[dict[str, Any]]:
    return [
        {
            "slug": r.slug,
            "name": r.name,
            "tagline": r.tagline,
            "engine_version": r.engine_version,
            "links": _links(r.slug),
        }
        for r in load_all().values()
    ]


def _register(ruleset: Ruleset) -> None:
    slug = ruleset.slug
    # the row keys are filled in when the OpenAPI document is asked for (_Api)
    schema_now = request_schema(ruleset, keys=False)
    body = {"requestBody": {"required": True, "content": {"application/json": {"schema": schema_now}}}}

    @api.get(
        f"/rulesets/{slug}/schema",
        response=dict[str, Any],
        summary=typography(f"{ruleset.name} : schéma"),
        operation_id=f"{slug}_schema",
    )
    def schema(request: HttpRequest) -> dict[str, Any]:
        return request_schema(ruleset)

    @api.post(
        f"/rulesets/{slug}/resolve",
        response={200: ResolveOut, 400: ErrorOut, 413: ErrorOut},
        summary=typography(f"{ruleset.name} : résoudre"),
        openapi_extra=body,
        operation_id=f"{slug}_resolve",
    )
    def resolve(request: HttpRequest) -> Any:
        try:
            data = result_data(services.resolution_resolve(ruleset=ruleset, payload=_body(request), source=Source.JSON))
        except ScenarioError as exc:
            return _bad(exc)
        return _unchecked(request, data)

    @api.post(
        f"/rulesets/{slug}/odds",
        response={200: OddsOut, 400: ErrorOut, 413: ErrorOut},
        summary=typography(f"{ruleset.name} : probabilités exactes"),
        openapi_extra=body,
        operation_id=f"{slug}_odds",
    )
    def odds(request: HttpRequest) -> Any:
        try:
            _scenario, result = services.odds_compute(ruleset=ruleset, payload=_body(request), source=Source.JSON)
        except ScenarioError as exc:
            return _bad(exc)
        return _unchecked(request, odds_data(ruleset, result))

    @api.get(
        f"/rulesets/{slug}/tables",
        response=list[TableOut],
        summary=typography(f"{ruleset.name} : tables du bestiaire (lignes par clé)"),
        operation_id=f"{slug}_tables",
    )
    def tables_list(request: HttpRequest) -> list[dict[str, Any]]:
        return tables.listing(plugins.get(slug))

    @api.get(
        f"/rulesets/{slug}/examples",
        response=list[ExampleOut],
        summary=typography(f"{ruleset.name} : exemples du livre"),
        operation_id=f"{slug}_examples",
    )
    def examples(request: HttpRequest) -> list[dict[str, Any]]:
        return [
            {
                "key": e.key,
                "title": e.title,
                "source": e.source,
                "request": dict(e.request),
                "expected": dict(e.expected),
            }
            for e in ruleset.examples()
        ]


for _ruleset in load_all().values():
    _register(_ruleset)


@api.api_operation(["GET", "POST"], "/rulesets/{slug}/{action}", response={404: ErrorOut}, include_in_schema=False)
def unknown_ruleset(request: HttpRequest, slug: str, action: str) -> Status[Any]:
    return Status(
        404,
        {
            "message": ERROR_UNKNOWN_RULESET,
            "errors": {"slug": f"«\u202f{slug}\u202f» n'est pas un système de règles disponible."},
        },
    )
