"""Scenario types → validation with French messages, JSON Schema, and plain dicts.

A scenario is a frozen dataclass. Each field may carry a :class:`Spec` through ``Annotated``
(label, bounds, help). From that one declaration come: parsing a JSON object or a flattened form
(``pc.attribute``) with a French message per field, the JSON Schema of the API, and the form the
web layer builds. A dataclass may add cross-field checks in a ``check(self) -> dict[str, str]``
method (field path → message).
"""

from __future__ import annotations

import dataclasses
import enum
import re
import types
import typing
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Union, get_args, get_origin, get_type_hints

from rulesets.core.i18n import _
from rulesets.core.typography import typography

# A row index in a field path (``npcs.2.menace``) or a button (``_del=npcs.2``): 1 to 3 ASCII digits.
# No list of a scenario holds more than 60 rows; the bound keeps a made-up index (thousands of digits,
# which ``int`` refuses past 4,300, or a million, which would build a million rows) out.
INDEX_DIGITS = 3
# A database id typed in a request (an encounter, a combatant): 1 to 18 ASCII digits (fits a bigint).
ID_DIGITS = 18


def ascii_number(text: object, max_digits: int) -> int | None:
    """``text`` as a non-negative integer when it is 1 to ``max_digits`` ASCII digits, else None.

    ``str.isdigit`` says yes to '²' and '٣' (which ``int`` refuses or reads as 3) and to any length;
    every index or id read from a request goes through here instead (issue 17, finding 4)."""
    if isinstance(text, str) and 0 < len(text) <= max_digits and text.isascii() and text.isdigit():
        return int(text)
    return None


# an integer as people type it: ASCII digits, an optional sign (the typographic minus too), no
# ``1_000`` nor ``٣`` (which ``int`` reads); 30 digits is far past any bound a field declares
_INT_TEXT = re.compile(r"[+\-\u2212]?[0-9]{1,30}")


def int_text(text: str) -> int | None:
    """``text`` (spaces around it aside) as an integer when it is written as one, else None."""
    stripped = text.strip()
    if _INT_TEXT.fullmatch(stripped) is None:
        return None
    return int(stripped.replace("\u2212", "-"))


def parse_index(text: object) -> int | None:
    """A row index as a field path writes it (:data:`INDEX_DIGITS` ASCII digits at most), else None."""
    return ascii_number(text, INDEX_DIGITS)


@dataclass(frozen=True, slots=True)
class Spec:
    """How people see a field: its French label, bounds and help."""

    label: str
    ge: int | None = None
    le: int | None = None
    help: str = ""
    min_items: int | None = None
    max_items: int | None = None
    max_length: int = 200

    def __post_init__(self) -> None:  # French spacing for the form's labels and help (issue 15)
        object.__setattr__(self, "label", typography(self.label))
        object.__setattr__(self, "help", typography(self.help))


class Choice(enum.StrEnum):
    """A rules choice. Subclasses give each member a French label through ``labels()``."""

    @classmethod
    def labels(cls) -> Mapping[str, str]:
        return {m.value: m.value for m in cls}

    @property
    def label(self) -> str:
        return self.labels()[self.value]


def _elements(n: int) -> str:
    """« 1 élément », « 3 éléments » (the toolkit's ``count``, which imports this module)."""
    return f"{n}\u00a0" + (_("élément") if n < 2 else _("éléments"))


class ScenarioError(ValueError):
    """Invalid input; ``errors`` maps a field path (``pc.attribute``) to a French message."""

    def __init__(self, errors: Mapping[str, str]) -> None:
        self.errors = {
            k: typography(v) if isinstance(v, str) else v for k, v in errors.items()
        }  # French spacing (issue 15)
        super().__init__("; ".join(f"{k}: {v}" for k, v in self.errors.items()))


@dataclass(frozen=True, slots=True)
class FieldInfo:
    name: str
    type: Any
    spec: Spec
    default: Any  # dataclasses.MISSING when required
    optional: bool


def _unwrap(tp: Any) -> tuple[Any, Spec | None, bool]:
    spec: Spec | None = None
    if get_origin(tp) is typing.Annotated:
        base, *meta = get_args(tp)
        spec = next((m for m in meta if isinstance(m, Spec)), None)
        tp = base
    optional = False
    if get_origin(tp) in (Union, types.UnionType):
        args = [a for a in get_args(tp) if a is not type(None)]
        if len(args) != len(get_args(tp)):
            optional = True
        tp = args[0] if len(args) == 1 else tp
        if get_origin(tp) is typing.Annotated:
            inner, inner_spec, _o = _unwrap(tp)
            tp, spec = inner, spec or inner_spec
    return tp, spec, optional


_FIELDS_CACHE: dict[type, tuple[FieldInfo, ...]] = {}


def fields_of(cls: type) -> tuple[FieldInfo, ...]:
    """The fields of a scenario dataclass, with their :class:`Spec`."""
    cached = _FIELDS_CACHE.get(cls)
    if cached is not None:
        return cached
    hints = get_type_hints(cls, include_extras=True)
    out: list[FieldInfo] = []
    for f in dataclasses.fields(cls):
        tp, spec, optional = _unwrap(hints[f.name])
        if f.default is not dataclasses.MISSING:
            default = f.default
        elif f.default_factory is not dataclasses.MISSING:
            default = f.default_factory()
        else:
            default = dataclasses.MISSING
        out.append(FieldInfo(f.name, tp, spec or Spec(label=f.name), default, optional))
    result = tuple(out)
    _FIELDS_CACHE[cls] = result
    return result


def _is_tuple_of(tp: Any) -> Any | None:
    if get_origin(tp) is tuple:
        args = get_args(tp)
        if len(args) == 2 and args[1] is Ellipsis:
            return args[0]
    return None


class Source(enum.Enum):
    """Where the values come from, which decides what a missing, blank or null value means (issue 14,
    « Required means required; null is not a value »).

    * ``JSON`` — the API and the CLI: a key left out takes the default the JSON Schema declares;
      ``null`` is refused unless the field is optional; a number is a JSON number and a box a JSON
      boolean (``"11"`` is no number, ``"true"`` no boolean).
    * ``FORM`` — a page's form: every value is text; a key left out takes its default (the form shows
      it), a blank field that is not text is refused unless the field is optional (then it is None).
    * ``STORED`` — data Estoc wrote itself (a share, an encounter, a worked example): text or JSON
      values, a blank or null value takes the field's default, as it was written.
    """

    JSON = "json"
    FORM = "form"
    STORED = "stored"


# A parser: (raw value, field path, errors) -> the parsed value, or None with a message in errors.
Parser = typing.Callable[[Any, str, dict[str, str]], Any]
_PARSERS: dict[tuple[Any, Spec, Source], Parser] = {}


def _parser(tp: Any, spec: Spec, source: Source = Source.STORED) -> Parser:
    """The parser of a field of type ``tp`` declared with ``spec``, built once per (type, spec, source):
    the type's shape is read here, not on every value (a Quadrature sheet has some 300 values)."""
    key = (tp, spec, source)
    parser = _PARSERS.get(key)
    if parser is None:
        parser = _build_parser(tp, spec, source)
        _PARSERS[key] = parser
    return parser


def _build_parser(tp: Any, spec: Spec, source: Source) -> Parser:
    label = spec.label
    typed = source is Source.JSON  # numbers and booleans must come as JSON numbers and booleans
    if dataclasses.is_dataclass(tp) and isinstance(tp, type):
        parse_fields = _object_parser(tp, source)

        def parse_dataclass(raw: Any, path: str, errors: dict[str, str]) -> Any:
            if not isinstance(raw, Mapping):
                errors[path] = _("{label} : objet attendu.").format(label=label)
                return None
            return parse_fields(raw, path + ".", errors)

        return parse_dataclass
    item_type = _is_tuple_of(tp)
    if item_type is not None:
        item = _parser(item_type, Spec(label=f"{label}", ge=spec.ge, le=spec.le), source)
        min_items, max_items = spec.min_items, spec.max_items

        def parse_tuple(raw: Any, path: str, errors: dict[str, str]) -> Any:
            if not isinstance(raw, list | tuple):
                errors[path] = _("{label} : liste attendue.").format(label=label)
                return None
            if min_items is not None and len(raw) < min_items:
                errors[path] = _("{label} : au moins {n}.").format(label=label, n=_elements(min_items))
                return None
            if max_items is not None and len(raw) > max_items:
                errors[path] = _("{label} : au plus {n}.").format(label=label, n=_elements(max_items))
                return None
            return tuple([item(r, f"{path}.{i}", errors) for i, r in enumerate(raw)])

        return parse_tuple
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        members = {m.value: m for m in tp}
        enum_type = tp

        def parse_enum(raw: Any, path: str, errors: dict[str, str]) -> Any:
            try:
                member = members.get(raw)
            except TypeError:  # an unhashable value (a list, an object): not a choice
                member = None
            if member is not None:
                return member
            values = list(members)
            labels = enum_type.labels() if issubclass(enum_type, Choice) else {v: v for v in values}
            errors[path] = _("{label} : choix inconnu « {value} » ; choix possibles : {choices}.").format(
                label=label, value=raw, choices=", ".join(f"{v} — {labels[v]}" for v in values)
            )
            return None

        return parse_enum
    if tp is bool:

        def parse_bool(raw: Any, path: str, errors: dict[str, str]) -> Any:
            if isinstance(raw, bool):
                return raw
            if isinstance(raw, str) and not typed:
                lowered = raw.lower()
                if lowered in _TRUE:
                    return True
                if lowered in _FALSE:
                    return False
            if typed and isinstance(raw, str):  # "true" in JSON: a text, not a boolean (issue 14)
                errors[path] = _("{label} : true ou false attendu, pas le texte « {text} ».").format(
                    label=label, text=raw[:20]
                )
            else:
                errors[path] = _("{label} : vrai ou faux attendu.").format(label=label)
            return None

        return parse_bool
    if tp is int:
        ge, le = spec.ge, spec.le

        def parse_int(raw: Any, path: str, errors: dict[str, str]) -> Any:
            value: int | None = None
            kind = type(raw)
            if kind is int:
                value = raw
            elif kind is bool:
                value = None
            elif isinstance(raw, int) or (isinstance(raw, float) and raw.is_integer()):
                value = int(raw)
            elif isinstance(raw, str) and not typed:
                value = int_text(raw)
            if value is None:
                if typed and isinstance(raw, str):  # "11" in JSON: a text, not a number (issue 14)
                    errors[path] = _("{label} : nombre entier attendu, pas le texte « {text} ».").format(
                        label=label, text=raw[:20]
                    )
                else:
                    errors[path] = _("{label} : nombre entier attendu.").format(label=label)
                return None
            if (ge is not None and value < ge) or (le is not None and value > le):
                if ge is not None and le is not None:
                    msg = _("{label} : doit être entre {ge} et {le} (reçu {value}).")
                elif ge is not None:
                    msg = _("{label} : doit être au moins {ge} (reçu {value}).")
                else:
                    msg = _("{label} : doit être au plus {le} (reçu {value}).")
                errors[path] = msg.format(label=label, ge=ge, le=le, value=value)
                return None
            return value

        return parse_int
    if tp is str:
        max_length = spec.max_length

        def parse_str(raw: Any, path: str, errors: dict[str, str]) -> Any:
            if not isinstance(raw, str):
                errors[path] = _("{label} : texte attendu.").format(label=label)
                return None
            if "\x00" in raw:  # PostgreSQL refuses it in a text column (issue 17, finding 4)
                errors[path] = _("{label} : caractère nul interdit dans un texte.").format(label=label)
                return None
            text = raw.strip()
            if len(text) > max_length:
                errors[path] = _("{label} : {n} caractères au plus.").format(label=label, n=max_length)
                return None
            return text

        return parse_str
    raise TypeError(f"unsupported field type {tp!r}")


_TRUE = frozenset({"true", "on", "1", "oui"})
_FALSE = frozenset({"false", "off", "0", "non", ""})
ObjectParser = typing.Callable[[Mapping[str, Any], str, dict[str, str]], Any]
_OBJECT_PARSERS: dict[tuple[type, Source], ObjectParser] = {}


def _object_parser(cls: type, source: Source = Source.STORED) -> ObjectParser:
    """The parser of a dataclass's fields, built once per class and source (see :func:`_parser`)."""
    cached = _OBJECT_PARSERS.get((cls, source))
    if cached is not None:
        return cached
    known = frozenset(f.name for f in fields_of(cls))
    # (name, parser, default, optional, blank counts as missing, label); parsers built on first use
    # so that a dataclass may name itself
    plan = [
        (f.name, None, f.default, f.optional, f.type is not str, f.spec.label, f.type, f.spec) for f in fields_of(cls)
    ]
    missing = dataclasses.MISSING
    json_source, form_source = source is Source.JSON, source is Source.FORM
    has_check = callable(getattr(cls, "check", None))
    built: list[tuple[tuple[str, Parser, Any, bool, bool, str], ...]] = []

    def parse_object(data: Mapping[str, Any], prefix: str, errors: dict[str, str]) -> Any:
        if not built:  # two threads may both build it: the same tuple, kept once
            built[:] = [tuple((n, _parser(tp, sp, source), d, o, b, lbl) for n, _p, d, o, b, lbl, tp, sp in plan)]
        compiled = built[0]
        for key in data:
            if key not in known:
                errors[prefix + str(key)] = _("Champ inconnu.")
        kwargs: dict[str, Any] = {}
        before = len(errors)
        get = data.get
        for name, parser, default, optional, blank_missing, label in compiled:
            raw = get(name, None)
            if raw is None and json_source and name in data:  # null is not a value (issue 14)
                if optional:
                    kwargs[name] = None
                else:
                    errors[prefix + name] = _("{label} : valeur attendue, pas null.").format(label=label)
                continue
            if form_source and blank_missing and isinstance(raw, str) and raw.strip() == "":
                if optional:  # a blank field on a page is no default (issue 14)
                    kwargs[name] = None
                else:
                    errors[prefix + name] = _("{label} : champ obligatoire.").format(label=label)
                continue
            if raw is None or (blank_missing and not json_source and isinstance(raw, str) and raw.strip() == ""):
                if default is not missing:
                    kwargs[name] = default
                elif optional:
                    kwargs[name] = None
                else:
                    errors[prefix + name] = _("{label} : champ obligatoire.").format(label=label)
                continue
            kwargs[name] = parser(raw, prefix + name, errors)
        if len(errors) > before:
            return None
        obj = cls(**kwargs)
        if has_check:
            for key, message in obj.check().items():
                errors[prefix + key] = message
        return obj

    _OBJECT_PARSERS[(cls, source)] = parse_object
    return parse_object


def parse(cls: type[Any], data: Mapping[str, Any], source: Source = Source.STORED) -> Any:
    """Build a ``cls`` from a JSON object (an unflattened form with ``Source.FORM``), or raise
    :class:`ScenarioError`. ``source`` says what a missing, blank or null value means (:class:`Source`)."""
    if not isinstance(data, Mapping):
        raise ScenarioError({"scenario": _("Objet JSON attendu.")})
    errors: dict[str, str] = {}
    obj = _object_parser(cls, source)(data, "", errors)
    if errors:
        raise ScenarioError(errors)
    return obj


# a flat key's steps: (part, the part as an index or None, last step, the next part is an index)
_Step = tuple[str, int | None, bool, bool]
_KEY_STEPS: dict[str, tuple[_Step, ...]] = {}


def _steps(key: str) -> tuple[_Step, ...]:
    steps = _KEY_STEPS.get(key)
    if steps is None:
        parts = key.split(".")
        last = len(parts) - 1
        steps = tuple(
            (part, parse_index(part), i == last, i < last and parse_index(parts[i + 1]) is not None)
            for i, part in enumerate(parts)
        )
        if len(_KEY_STEPS) < 50_000:  # field paths are finite; the bound guards against made-up keys
            _KEY_STEPS[key] = steps
    return steps


def unflatten(flat: Mapping[str, Any]) -> dict[str, Any]:
    """``{"pc.attribute": "3", "targets.0.menace": "2"}`` → nested dicts and lists.

    A list's index is :func:`parse_index`'s (at most three ASCII digits); any other part where a
    list needs an index raises :class:`ScenarioError` on that key."""
    root: dict[str, Any] = {}
    for key, value in flat.items():
        node: Any = root
        for part, index, last, nxt_is_index in _steps(key):
            if type(node) is list:
                if index is None:
                    raise ScenarioError(
                        {key: _("« {part} » : numéro de ligne attendu (0 à 999).").format(part=part[:20])}
                    )
                idx = index
                while len(node) <= idx:
                    node.append({} if not nxt_is_index else [])
                if last:
                    node[idx] = value
                else:
                    node = node[idx]
            elif type(node) is not dict:  # "a" and "a.b" both given: "a" is no object
                raise ScenarioError({key: _("Champ inconnu.")})
            elif last:
                node[part] = value
            else:
                node = node.setdefault(part, [] if nxt_is_index else {})
    return root


_SCALAR, _DATACLASS, _ENUM, _SEQUENCE = range(4)
# what to_data does with a value of each type: (kind, the field names of a dataclass)
_DATA_KINDS: dict[type, tuple[int, tuple[str, ...]]] = {}


def _data_kind(cls: type) -> tuple[int, tuple[str, ...]]:
    kind = _DATA_KINDS.get(cls)
    if kind is None:
        if dataclasses.is_dataclass(cls):
            kind = (_DATACLASS, tuple(f.name for f in dataclasses.fields(cls)))
        elif issubclass(cls, enum.Enum):
            kind = (_ENUM, ())
        elif issubclass(cls, tuple | list):
            kind = (_SEQUENCE, ())
        else:
            kind = (_SCALAR, ())
        _DATA_KINDS[cls] = kind
    return kind


def to_data(obj: Any) -> Any:
    """A scenario (or part of it) as plain JSON-able data."""
    cls = type(obj)
    if cls is int or cls is str or cls is bool or obj is None:
        return obj
    if isinstance(obj, type):  # a class, not an instance
        return obj
    kind, names = _data_kind(cls)
    if kind == _DATACLASS:
        return {name: to_data(getattr(obj, name)) for name in names}
    if kind == _ENUM:
        return obj.value
    if kind == _SEQUENCE:
        return [to_data(o) for o in obj]
    return obj


def copy_data(data: Any) -> Any:
    """A deep copy of plain JSON-like data (dicts, lists, tuples, scalars): what ``copy.deepcopy``
    gives for such data, without its memo and dispatch (it runs on every page request)."""
    if isinstance(data, dict):
        return {k: copy_data(v) for k, v in data.items()}
    if isinstance(data, list | tuple):
        return type(data)(copy_data(v) for v in data)
    return data


def flatten(data: Any, prefix: str = "") -> dict[str, Any]:
    """Inverse of :func:`unflatten` for plain data."""
    out: dict[str, Any] = {}
    _flatten_into(data, prefix, out)
    return out


def _flatten_into(data: Any, prefix: str, out: dict[str, Any]) -> None:
    if isinstance(data, Mapping):
        for k, v in data.items():
            _flatten_into(v, f"{prefix}{k}.", out)
    elif isinstance(data, list):
        for i, v in enumerate(data):
            _flatten_into(v, f"{prefix}{i}.", out)
    else:
        out[prefix[:-1]] = data


def json_schema(cls: type) -> dict[str, Any]:
    """JSON Schema (draft 2020-12 subset) of a scenario dataclass."""
    props: dict[str, Any] = {}
    required: list[str] = []
    for f in fields_of(cls):
        schema = _type_schema(f.type, f.spec)
        if f.optional:
            schema = {"anyOf": [schema, {"type": "null"}], "title": f.spec.label}
        if f.default is not dataclasses.MISSING:
            schema["default"] = to_data(f.default)
        elif not f.optional:
            required.append(f.name)
        props[f.name] = schema
    out: dict[str, Any] = {
        "type": "object",
        "title": cls.__name__,
        "properties": props,
        "additionalProperties": False,
    }
    if cls.__doc__:
        out["description"] = cls.__doc__.strip().splitlines()[0]
    if required:
        out["required"] = required
    return out


def _type_schema(tp: Any, spec: Spec) -> dict[str, Any]:
    schema: dict[str, Any]
    if dataclasses.is_dataclass(tp) and isinstance(tp, type):
        schema = json_schema(tp)
    elif (item := _is_tuple_of(tp)) is not None:
        schema = {"type": "array", "items": _type_schema(item, Spec(label=spec.label, ge=spec.ge, le=spec.le))}
        if spec.min_items is not None:
            schema["minItems"] = spec.min_items
        if spec.max_items is not None:
            schema["maxItems"] = spec.max_items
    elif isinstance(tp, type) and issubclass(tp, enum.Enum):
        labels = tp.labels() if issubclass(tp, Choice) else {}
        schema = {"type": "string", "enum": [m.value for m in tp]}
        if labels:
            schema["x-enum-labels"] = dict(labels)
    elif tp is bool:
        schema = {"type": "boolean"}
    elif tp is int:
        schema = {"type": "integer"}
        if spec.ge is not None:
            schema["minimum"] = spec.ge
        if spec.le is not None:
            schema["maximum"] = spec.le
    elif tp is str:
        schema = {"type": "string", "maxLength": spec.max_length}
    else:  # pragma: no cover - guarded by parse
        raise TypeError(f"unsupported field type {tp!r}")
    schema["title"] = spec.label
    if spec.help:
        schema["description"] = spec.help
    return schema
