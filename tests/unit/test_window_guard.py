"""The guard on a compaction plan (``kg_context.residency.window_guard``): a plan that would empty
a non-empty window keeps the entries no root reaches, and only those, and says why."""

from __future__ import annotations

from typing import Any

from kg_context.gate.pure.contracts import Transition
from kg_context.residency.window_guard import guard_window
from kg_context.vocabulary import EntryStatus, JustificationCase

ROOTS = ["goal", "decision"]


class _Reader:
    def __init__(self, gone: list[dict[str, Any]]) -> None:
        self.gone, self.names = gone, []  # type: list[dict[str, Any]], list[str]

    def read(self, name: str, /, **params: Any) -> list[dict[str, Any]]:
        self.names.append(name)
        assert params["root_classes"] == ROOTS and EntryStatus.LIVE in params["standing"]
        return self.gone


def _entry(entry_id: str, cls: str = "fact", status: str = "live") -> dict[str, Any]:
    return {"id": entry_id, "class": cls, "status": status, "resident": True}


def _out(entry_id: str, case: JustificationCase) -> Transition:
    return Transition(
        entry_id=entry_id,
        to=EntryStatus.RETIRED,
        resident=False,
        reason="r",
        case=case,
        justification=("e",),
    )


def test_a_plan_that_leaves_something_in_the_window_passes_untouched() -> None:
    entries = {"a": _entry("a"), "g": _entry("g", "goal")}
    planned = {"a": _out("a", JustificationCase.UNREACHABLE)}
    reader = _Reader([])
    assert guard_window(reader, "b", entries, planned, ROOTS) is None  # type: ignore[arg-type]
    assert set(planned) == {"a"} and reader.names == []  # no read when it does not fire


def test_a_plan_that_would_empty_the_window_keeps_what_no_root_reaches() -> None:
    entries = {"a": _entry("a"), "b": _entry("b"), "old": _entry("old")}
    planned = {
        "a": _out("a", JustificationCase.UNREACHABLE),
        "b": _out("b", JustificationCase.UNREACHABLE),
        "old": _out("old", JustificationCase.SUPERSEDED),  # declared: still executed
    }
    warning = guard_window(_Reader([]), "b", entries, planned, ROOTS)  # type: ignore[arg-type]
    assert set(planned) == {"old"}
    assert warning is not None and "2 of 3 resident entries" in warning
    assert "no committed class is a root: the window holds fact" in warning


def test_the_warning_names_the_roots_that_are_gone() -> None:
    entries = {"a": _entry("a")}
    planned = {"a": _out("a", JustificationCase.UNREACHABLE)}
    reader = _Reader([{"id": "g-1", "class": "goal", "status": "retired"}])
    warning = guard_window(reader, "b", entries, planned, ROOTS)  # type: ignore[arg-type]
    assert planned == {} and warning is not None
    assert "no live root" in warning and "g-1 (goal, retired)" in warning


def test_declared_moves_alone_may_empty_the_window() -> None:
    entries = {"old": _entry("old", "decision")}
    planned = {"old": _out("old", JustificationCase.SUPERSEDED)}
    assert guard_window(_Reader([]), "b", entries, planned, ROOTS) is None  # type: ignore[arg-type]
    assert set(planned) == {"old"}
