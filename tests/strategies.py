"""Hypothesis strategies built from a ruleset's scenario dataclasses (their ``Spec`` bounds)."""

from __future__ import annotations

import dataclasses
import enum
from typing import Any

from hypothesis import strategies as st

from calculator.forms import _is_dataclass_type, list_item
from rulesets.core.schema import fields_of

INT_SPAN = 12  # keep numbers near the defaults: wide enough to reach every rule, small enough to be quick


def _int(spec: Any, default: Any) -> st.SearchStrategy[int]:
    centre = default if isinstance(default, int) and not isinstance(default, bool) else (spec.ge or 0)
    low = spec.ge if spec.ge is not None else centre - INT_SPAN
    high = spec.le if spec.le is not None else centre + INT_SPAN
    low, high = max(low, centre - INT_SPAN), min(high, centre + INT_SPAN)
    return st.integers(min_value=low, max_value=max(low, high))


def scenario_data(cls: type) -> st.SearchStrategy[dict[str, Any]]:
    """Plain request data for ``cls``: every field drawn within its declared bounds."""
    parts: dict[str, st.SearchStrategy[Any]] = {}
    for info in fields_of(cls):
        default = None if info.default is dataclasses.MISSING else info.default
        tp = info.type
        item = list_item(tp)
        if _is_dataclass_type(tp):
            strategy: st.SearchStrategy[Any] = scenario_data(tp)
        elif item is not None and _is_dataclass_type(item):
            low = info.spec.min_items or 0
            high = min(info.spec.max_items or 4, max(low, 4))
            strategy = st.lists(scenario_data(item), min_size=low, max_size=high)
        elif item is not None:
            continue  # lists of plain values keep their default
        elif isinstance(tp, type) and issubclass(tp, enum.Enum):
            strategy = st.sampled_from([m.value for m in tp])
        elif tp is bool:
            strategy = st.booleans()
        elif tp is int:
            strategy = _int(info.spec, default)
        elif tp is str:
            strategy = st.sampled_from(["", "Alix", "Brunehilde"]) if default is None else st.just(default)
        else:
            continue
        if info.optional:
            strategy = st.one_of(st.none(), strategy)
        parts[info.name] = strategy
    return st.fixed_dictionaries(parts)


def leaf_value(info: Any) -> st.SearchStrategy[Any]:
    tp = info.type
    default = None if info.default is dataclasses.MISSING else info.default
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return st.sampled_from([m.value for m in tp])
    if tp is bool:
        return st.booleans()
    if tp is int:
        return _int(info.spec, default)
    return st.just(default)


def mutated_example(ruleset: Any, max_changes: int = 4) -> st.SearchStrategy[dict[str, Any]]:
    """A worked example of the ruleset with a few fields redrawn within their bounds.

    Random scenarios from scratch are nearly always refused by the rules' cross-field checks;
    starting from a valid example keeps the search where the rules live.
    """
    from calculator.forms import leaves, row_counts
    from rulesets.core.schema import flatten, unflatten

    examples = [e.request["scenario"] for e in ruleset.examples()]

    @st.composite
    def build(draw: Any) -> dict[str, Any]:
        base = flatten(draw(st.sampled_from(examples)))
        rows = row_counts(ruleset.scenario_type, base, {})
        candidates = [
            leaf
            for leaf in leaves(ruleset.scenario_type, rows)
            if leaf.info.type in (int, bool)
            or (isinstance(leaf.info.type, type) and issubclass(leaf.info.type, enum.Enum))
        ]
        chosen = draw(
            st.lists(st.sampled_from(candidates), min_size=1, max_size=max_changes, unique_by=lambda leaf: leaf.path)
        )
        for leaf in chosen:
            base[leaf.path] = draw(leaf_value(leaf.info))
        return unflatten(base)

    return build()
