"""Issue 17, finding 4, as a property: whatever a client sends, the answer is never a 500.

Hypothesis posts made-up field names and values to every calculator page (GET query and POST, with
and without ``HX-Request``), to every encounter form (logged in as the owner) and to the JSON API:
huge integers, long digit runs and unicode digits where indexes and ids go, NUL characters, JSON
nested deep, ``NaN``/``Infinity``. The requests start from a valid form (the page's defaults, a
sheet as the encounter page draws it) so that they reach the views' deep paths, not only the first
check. Deterministic (``derandomize``, no example database) and short: about half a minute in all.
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import urlencode

import pytest
from django.core.management import call_command
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from calculator import bestiary_cache, services
from calculator.forms import leaves, list_paths, row_counts
from calculator.plugins import get as plugin_of
from calculator.views import page_path
from encounters.models import Encounter
from rulesets.core import encounter as core
from rulesets.core.registry import load_all
from rulesets.core.schema import flatten
from tests.factories_encounters import EncounterFactory

pytestmark = pytest.mark.django_db

RULESETS = load_all()
SYSTEMS = sorted(core.all_rules())
FORM = "application/x-www-form-urlencoded"
FUZZ = settings(
    max_examples=25,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture, HealthCheck.data_too_large],
)

# --- crafted pieces -------------------------------------------------------------------------------------

# the harmful first: Hypothesis tries a list's first elements most (and first, with derandomize)
INDEXES = st.sampled_from(
    ["9" * 5000, "²", "٣", "99999999", "8", "20", "999", "1000", "9" * 30, "１", "01", "-1", "", "0", "1", "7"]
)
HUGE = st.sampled_from(["9" * 5000, "9" * 4301, "99999999999999999999", "1" + "0" * 400, "-" + "9" * 5000])
NUMBERS = st.one_of(
    st.integers(min_value=-(10**30), max_value=10**30).map(str), st.sampled_from(["1e400", "inf", "nan", "-0", "1.5"])
)
TEXT = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=20)
VALUES = st.one_of(
    HUGE,
    NUMBERS,
    INDEXES,
    TEXT,
    TEXT.map(lambda t: t + "\x00"),
    st.sampled_from(["", "on", "off", "true", "²", "٣", "\x00", "a,b,²", "1,2", "💥"]),
)


def crafted_path(path: str) -> st.SearchStrategy[str]:
    """``path`` with its row numbers (if any) replaced by crafted indexes, or a word added."""
    parts = path.split(".")
    numbered = [i for i, part in enumerate(parts) if part.isdigit()]

    @st.composite
    def build(draw: Any) -> str:
        out = list(parts)
        for i in numbered:
            out[i] = draw(INDEXES)
        if draw(st.booleans()):
            out.insert(draw(st.integers(0, len(out))), draw(st.one_of(INDEXES, HUGE, TEXT)))
        return ".".join(out)

    return build()


def flat_form(flat: dict[str, Any]) -> dict[str, str]:
    """Flat values as a browser sends them: a true box "on", a false one left out."""
    out = {}
    for key, value in flat.items():
        if value is True:
            out[key] = "on"
        elif value is not None and value is not False:
            out[key] = str(value)
    return out


# --- the calculator pages --------------------------------------------------------------------------------


def page_names(slug: str) -> tuple[dict[str, str], list[str], list[str], dict[str, list[str]]]:
    """A page's default form (as posted), its field names, list paths and preset selects."""
    ruleset = RULESETS[slug]
    _defaults, flat = services.flat_defaults(ruleset=ruleset)
    cls = ruleset.scenario_type
    paths = [leaf.path for leaf in leaves(cls, row_counts(cls, {}, flat))]
    groups = bestiary_cache.presets(plugin_of(slug))
    selects = {f"preset.{g.key}.0": [p.key for p in g.presets[:5]] or ["x"] for g in groups}
    return {"_f": "1", **flat_form(flat)}, paths, list(list_paths(cls)), selects


def page_requests(slug: str, encounter: Encounter) -> st.SearchStrategy[tuple[str, dict[str, str], bool]]:
    """(method, data, resolve) for a calculator page, opened or not from the game master's ``encounter``
    (``_enc``, ``_role.<role>``: the ids read from the request)."""
    base, paths, lists, selects = page_names(slug)
    rules = core.get(encounter.system)
    roles = [f"_role.{r.key}" for p in rules.pages if p.slug == slug for r in p.roles] or ["_role.pc"]
    ids = st.one_of(st.just(str(encounter.pk)), VALUES)
    context = st.lists(st.tuples(st.sampled_from(roles), st.one_of(ids, INDEXES)), max_size=3).map(
        lambda pairs: [("_enc", str(encounter.pk)), *pairs]
    )
    rows = [p for p in paths if any(part.isdigit() for part in p.split("."))] or paths
    field = st.one_of(st.sampled_from(rows).flatmap(crafted_path), st.sampled_from(paths).flatmap(crafted_path), TEXT)
    select = st.sampled_from(sorted(selects) or ["preset.x.0"])
    load = select.flatmap(
        lambda name: st.tuples(crafted_path(name), st.one_of(st.sampled_from(selects.get(name, ["x"])), VALUES))
    )
    buttons = st.one_of(
        st.tuples(st.just("_del"), st.sampled_from(lists or ["x"]).flatmap(lambda p: INDEXES.map(f"{p}.".__add__))),
        st.tuples(st.just("_add"), st.one_of(st.sampled_from(lists or ["x"]), TEXT)),
        st.tuples(st.sampled_from(["_refresh", "_live", "_clear", "_reroll", "r"]), st.just("1")),
        st.tuples(st.sampled_from(["seed", "_enc_v", "_adjusted"]), VALUES),
        st.tuples(st.just("_enc"), ids),
        st.tuples(st.sampled_from(["dice.pc.1", "dice.npc.1", "dice.a.1"]), VALUES),
    )
    # « Charger »: the select's value (a bestiary key, or crafted) and the button naming its row
    loads = load.map(lambda kv: [(kv[0], kv[1]), ("_load", kv[0])])
    pairs = st.lists(
        st.one_of(st.tuples(field, VALUES).map(lambda kv: [kv]), buttons.map(lambda kv: [kv]), loads, context)
    )
    pairs = pairs.filter(bool).map(lambda groups: [kv for group in groups[:6] for kv in group])
    method = st.sampled_from(["get", "post", "post-htmx", "get-htmx"])
    return st.tuples(method, pairs.map(lambda kv: {**base, **dict(kv)}), st.booleans())


@pytest.fixture
def bestiary():
    for name in ("encore", "quadrature", "feerie", "nephilim", "aventuriers"):
        call_command("loaddata", f"fixtures/{name}.json", verbosity=0)


@pytest.mark.parametrize("slug", sorted(RULESETS))
def test_no_crafted_form_makes_a_calculator_page_answer_500(client, bestiary, slug):
    url = page_path(slug)
    encounter = encounter_with_everyone(slug.split("-", 1)[0])
    client.force_login(encounter.owner)

    @FUZZ
    @given(request=page_requests(slug, encounter))
    def run(request: tuple[str, dict[str, str], bool]) -> None:
        method, data, resolve = request
        if resolve:
            data = {**data, "r": "1"}
        htmx = {"HTTP_HX_REQUEST": "true"} if method.endswith("htmx") else {}
        if method.startswith("get"):
            response = client.get(url, data, **htmx)
        else:
            response = client.post(url, urlencode(data), content_type=FORM, **htmx)
        assert response.status_code < 500, (method, data)

    run()


# --- the encounter forms ---------------------------------------------------------------------------------


def encounter_with_everyone(system: str) -> Encounter:
    """An encounter of ``system`` with one combatant of each kind, as « Ajouter » makes them."""
    from encounters import services as encounter_services

    rules = core.get(system)
    encounter = EncounterFactory(system=system, clock={})
    for kind in rules.kinds:
        encounter_services.combatants_join(
            encounter=encounter, version=encounter.version, kind=kind.key, entry=None, name="", count=1
        )
        encounter.refresh_from_db()
    return encounter


def encounter_requests(encounter: Encounter) -> st.SearchStrategy[tuple[str, str, dict[str, str]]]:
    """(method, path, data) for one of the encounter's forms, its fields crafted."""
    rules = core.get(encounter.system)
    base = f"/encounters/{encounter.pk}/"
    combatants = list(encounter.combatants.all())
    version = st.one_of(st.just(str(encounter.version)), st.just(str(encounter.version)), VALUES)

    def sheet(c: Any) -> st.SearchStrategy[tuple[str, str, dict[str, str]]]:
        state_type = rules.kind(c.kind).state_type
        flat = flat_form(flatten(dict(c.state)))
        names = [leaf.path for leaf in leaves(state_type, dict.fromkeys(list_paths(state_type), 1))] or ["name"]
        rows = [n for n in names if any(part.isdigit() for part in n.split("."))] or names
        field = st.one_of(
            st.sampled_from(rows).flatmap(crafted_path), st.sampled_from(names).flatmap(crafted_path), TEXT
        )
        field = field.map(f"c{c.pk}-".__add__)
        changes = st.lists(st.tuples(field, VALUES), max_size=5)
        add = st.one_of(st.just(""), st.sampled_from(list(list_paths(state_type)) or ["x"]), TEXT)
        return st.tuples(changes, add, version).map(
            lambda t: (
                "post",
                f"{base}combatants/{c.pk}/",
                {**{f"c{c.pk}-{k}": v for k, v in flat.items()}, **dict(t[0]), "_add": t[1], "version": t[2]},
            )
        )

    clock = st.lists(st.tuples(st.one_of(TEXT, st.sampled_from(["clock-turn", "clock-round", "clock-ambush"])), VALUES))
    kinds = [k.key for k in rules.kinds]
    forms = [
        st.fixed_dictionaries(
            {
                "kind": st.one_of(st.sampled_from(kinds), VALUES),
                "preset": st.one_of(st.just(""), VALUES, st.sampled_from(kinds).map(lambda k: f"{k}:1")),
                "name": VALUES,
                "count": st.one_of(INDEXES, st.just("1"), VALUES),
                "version": version,
            }
        ).map(lambda d: ("post", f"{base}combatants/", d)),
        st.tuples(clock, version).map(lambda t: ("post", f"{base}clock/", {**dict(t[0]), "version": t[1]})),
        st.sampled_from([p.slug for p in rules.pages]).flatmap(
            lambda slug: st.lists(st.tuples(st.sampled_from(["role.a", "role.b", "role.pc", "role.npcs"]), VALUES)).map(
                lambda roles: ("get", f"{base}act/", {"page": slug, **dict(roles)})
            )
        ),
        st.fixed_dictionaries(
            {"page": st.one_of(st.sampled_from([p.slug for p in rules.pages]), VALUES), "q": VALUES, "version": version}
        ).map(lambda d: ("post", f"{base}apply/", d)),
        st.sampled_from(["advance/", "undo/", "redo/"]).flatmap(
            lambda action: version.map(lambda v: ("post", f"{base}{action}", {"version": v}))
        ),
        st.fixed_dictionaries({"system": st.one_of(st.just(encounter.system), VALUES), "name": VALUES}).map(
            lambda d: ("post", "/encounters/", d)
        ),
    ]
    for c in combatants:
        forms.append(sheet(c))
        forms.append(
            st.fixed_dictionaries(
                {"field": st.one_of(VALUES, st.just("sante")), "delta": VALUES, "version": version}
            ).map(lambda d, c=c: ("post", f"{base}combatants/{c.pk}/adjust/", d))
        )
    return st.one_of(*forms)


@pytest.mark.parametrize("system", SYSTEMS)
def test_no_crafted_form_makes_an_encounter_page_answer_500(client, system):
    encounter = encounter_with_everyone(system)
    client.force_login(encounter.owner)
    htmx = st.sampled_from([{}, {"HTTP_HX_REQUEST": "true"}])

    @FUZZ
    @given(request=encounter_requests(encounter), headers=htmx)
    def run(request: tuple[str, str, dict[str, str]], headers: dict[str, str]) -> None:
        method, path, data = request
        with transaction.atomic():  # every example starts from the same encounter
            if method == "get":
                response = client.get(path, data, **headers)
            else:
                response = client.post(path, urlencode(data), content_type=FORM, **headers)
            transaction.set_rollback(True)
        assert response.status_code < 500, (path, data)

    run()


# --- the import and the API: JSON ------------------------------------------------------------------------

JSON_LEAVES = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), VALUES)
JSON_VALUES = st.recursive(
    JSON_LEAVES, lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(VALUES, inner, max_size=4))
)
DEEP = st.sampled_from(["[" * 5000 + "]" * 5000, '{"a":' * 1500 + "1" + "}" * 1500, "[" * 201 + "]" * 201])
CONSTANTS = st.sampled_from(["NaN", "Infinity", "-Infinity", "1e400", "-1e400", '"\\u0000"', "9" * 5000])


def _paths(data: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in nested JSON data (dict keys, list indexes), the root included."""
    out = [prefix]
    if isinstance(data, dict):
        for key, value in data.items():
            out += _paths(value, (*prefix, key))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            out += _paths(value, (*prefix, i))
    return out


def json_bodies(document: dict[str, Any]) -> st.SearchStrategy[str]:
    """A valid document (a request, an export) with crafted values put at its places or under new
    crafted keys, raw crafted JSON, or JSON text nested deep or holding NaN/Infinity."""
    places = _paths(document)

    @st.composite
    def mutated(draw: Any) -> str:
        data = json.loads(json.dumps(document))
        for _ in range(draw(st.integers(1, 4))):
            path = draw(st.sampled_from(places))
            node: Any = data
            for step in path[:-1]:
                try:
                    node = node[step]
                except (KeyError, IndexError, TypeError):
                    break
            value = draw(JSON_VALUES)
            if isinstance(node, dict):
                node[path[-1] if path and draw(st.booleans()) else draw(VALUES)] = value
            elif isinstance(node, list) and path and isinstance(path[-1], int) and path[-1] < len(node):
                node[path[-1]] = value
        text = json.dumps(data, allow_nan=True)
        if draw(st.booleans()):  # a bare constant in place of a value
            text = text.replace("null", draw(CONSTANTS), 1) if "null" in text else text[:-1] + ', "x": NaN}'
        return text

    return st.one_of(mutated(), mutated(), JSON_VALUES.map(lambda v: json.dumps(v, allow_nan=True)), DEEP)


@pytest.mark.parametrize("slug", sorted(RULESETS))
def test_no_crafted_json_makes_the_api_answer_500(client, slug):
    examples = RULESETS[slug].examples()
    request = dict(examples[0].request) if examples else {"scenario": {}}

    @FUZZ
    @given(body=json_bodies(request), route=st.sampled_from(["resolve", "odds"]))
    def run(body: str, route: str) -> None:
        response = client.post(f"/api/rulesets/{slug}/{route}", body, content_type="application/json")
        assert response.status_code < 500, body[:300]
        assert response["Content-Type"].startswith("application/json")

    run()


def test_no_crafted_file_makes_the_import_answer_500(client):
    encounter = encounter_with_everyone("encore")
    client.force_login(encounter.owner)
    export = json.loads(client.get(f"/encounters/{encounter.pk}/export.json").content)

    @FUZZ
    @given(body=json_bodies(export))
    def run(body: str) -> None:
        with transaction.atomic():
            response = client.post("/encounters/import/", {"text": body})
            transaction.set_rollback(True)
        assert response.status_code < 500, body[:300]

    run()
