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
import types
import typing
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Union, get_args, get_origin, get_type_hints

from rulesets.core.i18n import _


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


class Choice(enum.StrEnum):
    """A rules choice. Subclasses give each member a French label through ``labels()``."""

    @classmethod
    def labels(cls) -> Mapping[str, str]:
        return {m.value: m.value for m in cls}

    @property
    def label(self) -> str:
        return self.labels()[self.value]


class ScenarioError(ValueError):
    """Invalid input; ``errors`` maps a field path (``pc.attribute``) to a French message."""

    def __init__(self, errors: Mapping[str, str]) -> None:
        super().__init__("; ".join(f"{k}: {v}" for k, v in errors.items()))
        self.errors = dict(errors)


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


def _parse_value(tp: Any, spec: Spec, raw: Any, path: str, errors: dict[str, str]) -> Any:
    label = spec.label
    if dataclasses.is_dataclass(tp) and isinstance(tp, type):
        if not isinstance(raw, Mapping):
            errors[path] = _("{label} : objet attendu.").format(label=label)
            return None
        return _parse_object(tp, raw, path + ".", errors)
    item_type = _is_tuple_of(tp)
    if item_type is not None:
        if not isinstance(raw, list | tuple):
            errors[path] = _("{label} : liste attendue.").format(label=label)
            return None
        if spec.min_items is not None and len(raw) < spec.min_items:
            errors[path] = _("{label} : au moins {n} élément(s).").format(label=label, n=spec.min_items)
            return None
        if spec.max_items is not None and len(raw) > spec.max_items:
            errors[path] = _("{label} : au plus {n} élément(s).").format(label=label, n=spec.max_items)
            return None
        item_spec = Spec(label=f"{label}", ge=spec.ge, le=spec.le)
        items = [_parse_value(item_type, item_spec, r, f"{path}.{i}", errors) for i, r in enumerate(raw)]
        return tuple(items)
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        values = [m.value for m in tp]
        if raw in values:
            return tp(raw)
        labels = tp.labels() if issubclass(tp, Choice) else {v: v for v in values}
        errors[path] = _("{label} : choix inconnu « {value} » (choix possibles : {choices}).").format(
            label=label, value=raw, choices=", ".join(f"{v} ({labels[v]})" for v in values)
        )
        return None
    if tp is bool:
        if isinstance(raw, bool):
            return raw
        if isinstance(raw, str) and raw.lower() in {"true", "on", "1", "oui", "false", "off", "0", "non", ""}:
            return raw.lower() in {"true", "on", "1", "oui"}
        errors[path] = _("{label} : vrai ou faux attendu.").format(label=label)
        return None
    if tp is int:
        value: int | None = None
        if isinstance(raw, bool):
            value = None
        elif isinstance(raw, int):
            value = raw
        elif isinstance(raw, float) and raw.is_integer():
            value = int(raw)
        elif isinstance(raw, str):
            try:
                value = int(raw.strip())
            except ValueError:
                value = None
        if value is None:
            errors[path] = _("{label} : nombre entier attendu.").format(label=label)
            return None
        if (spec.ge is not None and value < spec.ge) or (spec.le is not None and value > spec.le):
            if spec.ge is not None and spec.le is not None:
                msg = _("{label} : doit être entre {ge} et {le} (reçu {value}).")
            elif spec.ge is not None:
                msg = _("{label} : doit être au moins {ge} (reçu {value}).")
            else:
                msg = _("{label} : doit être au plus {le} (reçu {value}).")
            errors[path] = msg.format(label=label, ge=spec.ge, le=spec.le, value=value)
            return None
        return value
    if tp is str:
        if not isinstance(raw, str):
            errors[path] = _("{label} : texte attendu.").format(label=label)
            return None
        text = raw.strip()
        if len(text) > spec.max_length:
            errors[path] = _("{label} : {n} caractères au plus.").format(label=label, n=spec.max_length)
            return None
        return text
    raise TypeError(f"unsupported field type {tp!r} at {path}")


def _parse_object(cls: type, data: Mapping[str, Any], prefix: str, errors: dict[str, str]) -> Any:
    known = {f.name for f in fields_of(cls)}
    for key in data:
        if key not in known:
            errors[prefix + str(key)] = _("Champ inconnu.")
    kwargs: dict[str, Any] = {}
    before = len(errors)
    for f in fields_of(cls):
        path = prefix + f.name
        raw = data.get(f.name, None)
        if raw is None or (isinstance(raw, str) and raw.strip() == "" and f.type is not str):
            if f.default is not dataclasses.MISSING:
                kwargs[f.name] = f.default
            elif f.optional:
                kwargs[f.name] = None
            else:
                errors[path] = _("{label} : champ obligatoire.").format(label=f.spec.label)
            continue
        kwargs[f.name] = _parse_value(f.type, f.spec, raw, path, errors)
    if len(errors) > before:
        return None
    obj = cls(**kwargs)
    check = getattr(obj, "check", None)
    if callable(check):
        for key, message in check().items():
            errors[prefix + key] = message
    return obj


def parse(cls: type[Any], data: Mapping[str, Any]) -> Any:
    """Build a ``cls`` from a JSON object, or raise :class:`ScenarioError`."""
    if not isinstance(data, Mapping):
        raise ScenarioError({"scenario": _("Objet JSON attendu.")})
    errors: dict[str, str] = {}
    obj = _parse_object(cls, data, "", errors)
    if errors:
        raise ScenarioError(errors)
    return obj


def unflatten(flat: Mapping[str, Any]) -> dict[str, Any]:
    """``{"pc.attribute": "3", "targets.0.menace": "2"}`` → nested dicts and lists."""
    root: dict[str, Any] = {}
    for key, value in flat.items():
        parts = key.split(".")
        node: Any = root
        for i, part in enumerate(parts):
            last = i == len(parts) - 1
            nxt_is_index = not last and parts[i + 1].isdigit()
            if isinstance(node, list):
                idx = int(part)
                while len(node) <= idx:
                    node.append({} if not nxt_is_index else [])
                if last:
                    node[idx] = value
                else:
                    node = node[idx]
            else:
                if last:
                    node[part] = value
                else:
                    node = node.setdefault(part, [] if nxt_is_index else {})
    return root


def to_data(obj: Any) -> Any:
    """A scenario (or part of it) as plain JSON-able data."""
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return {f.name: to_data(getattr(obj, f.name)) for f in dataclasses.fields(obj)}
    if isinstance(obj, enum.Enum):
        return obj.value
    if isinstance(obj, tuple | list):
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
    if isinstance(data, Mapping):
        for k, v in data.items():
            out.update(flatten(v, f"{prefix}{k}."))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            out.update(flatten(v, f"{prefix}{i}."))
    else:
        out[prefix[:-1]] = data
    return out


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
