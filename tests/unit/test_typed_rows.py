"""What a caller of the public API receives is typed: frozen dataclasses or pydantic models, never
the raw ``dict`` rows the driver returns.

Every public method and property of the classes a caller starts from (``Engine``, the
``BoundaryHandle`` it opens, the operator's halt queue, workspace attention) is annotated to
return something other than a ``dict``, a ``Mapping``, a ``TypedDict`` or a ``Record`` (the
driver's row), also inside a list, tuple or union; the dataclasses they return hold no raw rows
(``dict[str, Any]``) in their fields either, at any depth, but for the fields listed below. And the
typed rows read from a Cypher file
carry exactly the columns the file returns, so a column added to the file or a field added to the
type fails here instead of at the first read.
"""

from __future__ import annotations

import dataclasses
import inspect
import re
import types
import typing
from collections.abc import Callable, Iterator, Mapping, MutableMapping, Sequence
from dataclasses import fields
from typing import Any

import pytest

from kg_context.attention import WorkspaceAttention
from kg_context.db.catalog import default_catalog
from kg_context.engine import BoundaryHandle, Engine
from kg_context.gate.io.boundary_state import BoundaryState
from kg_context.gate.io.halts import HaltedSet, HaltRecord, Halts
from kg_context.record.revalidation import OperatorHalts
from tests.statement_text import statement_code

CLASSES = (Engine, BoundaryHandle, Halts, OperatorHalts, WorkspaceAttention)
_DICTS = (dict, Mapping, MutableMapping)


def _public_callables(cls: type) -> Iterator[tuple[str, Callable[..., Any]]]:
    for name, member in inspect.getmembers(cls):
        if name.startswith("_"):
            continue
        if isinstance(member, property) and member.fget is not None:
            yield name, member.fget
        elif inspect.isfunction(member) or inspect.ismethod(member):
            yield name, member


def _dict_like(annotation: Any) -> bool:
    """Whether a return annotation is, or holds (in a list, tuple, union), a dict-like row."""
    if annotation in _DICTS or typing.is_typeddict(annotation):
        return True
    origin = typing.get_origin(annotation)
    if origin in _DICTS:
        return True
    if origin in (list, tuple, Sequence, typing.Union, types.UnionType):
        return any(_dict_like(arg) for arg in typing.get_args(annotation))
    return False


def _returns(cls: type) -> list[tuple[str, Any]]:
    found = []
    for name, fn in _public_callables(cls):
        hints = typing.get_type_hints(fn)
        if "return" in hints:
            found.append((name, hints["return"]))
    return found


@pytest.mark.parametrize("cls", CLASSES, ids=lambda c: c.__name__)
def test_public_methods_return_typed_objects_not_dict_rows(cls: type) -> None:
    returns = _returns(cls)
    assert returns, f"{cls.__name__}: no annotated public method found (the walk is broken)"
    untyped = [f"{cls.__name__}.{name} -> {ret}" for name, ret in returns if _dict_like(ret)]
    assert not untyped, "public methods returning dict rows: " + ", ".join(untyped)


def test_the_check_catches_a_dict_return() -> None:
    class Sample:
        def rows(self) -> list[dict[str, Any]]:
            return []

        def row(self) -> dict[str, Any] | None:
            return None

        def fine(self) -> list[BoundaryState]:
            return []

    flagged = {name for name, ret in _returns(Sample) if _dict_like(ret)}
    assert flagged == {"rows", "row"}


# Fields that hold raw rows by design: an audit's rows are whatever its Cypher file returns.
ARBITRARY_ROWS = {"kg_context.record.audits.AuditResult.rows"}
# Fields that still hold raw rows: typing one removes it here (the test fails on a stale entry).
PENDING_ROWS = {
    "kg_context.residency.czar_plan.CzarPlan.interfaces",
    "kg_context.residency.czar_plan.CzarPlan.expired_leases",
    "kg_context.residency.czar.CzarReport.record",
    "kg_context.record.observability.FalseRetirement.evidence",
    "kg_context.record.observability.ObservabilityReport.unjustified_retirements",
}


def _raw_row(annotation: Any) -> bool:
    """Whether an annotation is, or holds (in a list, tuple, union), a row: a dict of ``Any``."""
    origin = typing.get_origin(annotation)
    if origin in _DICTS:
        return typing.get_args(annotation)[-1:] == (Any,)
    if annotation in _DICTS:
        return True
    if origin in (list, tuple, Sequence, typing.Union, types.UnionType):
        return any(_raw_row(arg) for arg in typing.get_args(annotation))
    return False


def _dataclasses_in(annotation: Any) -> Iterator[type]:
    if isinstance(annotation, type) and dataclasses.is_dataclass(annotation):
        yield annotation
    for arg in typing.get_args(annotation):
        yield from _dataclasses_in(arg)


def _row_fields(annotations: list[Any]) -> set[str]:
    """The fields, at any depth of the dataclasses these annotations name, that hold raw rows."""
    seen: set[type] = set()
    found: set[str] = set()
    todo = [t for a in annotations for t in _dataclasses_in(a)]
    while todo:
        cls = todo.pop()
        if cls in seen:
            continue
        seen.add(cls)
        hints = typing.get_type_hints(cls)
        for f in dataclasses.fields(cls):
            if _raw_row(hints[f.name]):
                found.add(f"{cls.__module__}.{cls.__qualname__}.{f.name}")
            todo.extend(_dataclasses_in(hints[f.name]))
    return found


def test_returned_dataclasses_hold_no_raw_rows() -> None:
    found = _row_fields([ret for cls in CLASSES for _, ret in _returns(cls)])
    assert not found - ARBITRARY_ROWS - PENDING_ROWS, "raw rows in fields"
    assert not (ARBITRARY_ROWS | PENDING_ROWS) - found, "listed fields hold no raw rows now"


@dataclasses.dataclass
class _Inner:
    rows: tuple[dict[str, Any], ...]
    counts: dict[str, int]


@dataclasses.dataclass
class _Outer:
    inner: list[_Inner]
    row: dict[str, Any] | None


def test_the_check_catches_a_row_field_at_depth() -> None:
    found = _row_fields([_Outer | None])
    assert {name.rsplit(".", 2)[-2] + "." + name.rsplit(".", 1)[-1] for name in found} == {
        "_Inner.rows",
        "_Outer.row",
    }


def _columns(text: str) -> list[str]:
    """The ``AS name`` columns of a statement's RETURN."""
    code = statement_code(text)
    returned = code.rsplit("RETURN", 1)[1]  # the statement's own (not a subquery's)
    return re.findall(r"\bAS\s+([A-Za-z_][A-Za-z0-9_]*)", returned)


def _projection(text: str, variable: str) -> list[str]:
    """The keys of a map projection ``variable {.a, .b}`` in a statement."""
    code = statement_code(text)
    found = re.search(rf"\b{variable}\s*\{{([^}}]*)\}}", code.rsplit("RETURN", 1)[1])
    assert found, f"no map projection of {variable}"
    return re.findall(r"\.([A-Za-z_][A-Za-z0-9_]*)", found.group(1))


def _names(row_type: type) -> list[str]:
    return [f.name for f in fields(row_type)]


def test_boundary_state_is_what_boundary_get_returns() -> None:
    assert _columns(default_catalog()["boundary/get"].text) == _names(BoundaryState)


def test_halt_record_is_what_halts_list_and_get_return() -> None:
    catalog = default_catalog()
    assert _columns(catalog["halts/list"].text) == _names(HaltRecord)
    assert _projection(catalog["halts/get"].text, "h") == _names(HaltRecord)
    assert _projection(catalog["halts/get"].text, "s") == _names(HaltedSet)
