"""The pure decisions of ``[on_dependency] recall_copy``: which dependencies on recall copies the
rule moves to the copies' sources, which sources come back, and which copies the set spends. No
database: real contracts closed by the real set constructor, an in-memory snapshot."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from kg_context.gate.pure.constitution import DependencyRule
from kg_context.gate.pure.copy_sources import (
    apply_copy_source_rule,
    copy_reference_ids,
    copy_uses,
)
from kg_context.gate.pure.predicates import non_standing_dependency
from kg_context.gate.pure.rehydration import apply_dependency_rule
from kg_context.gate.pure.snapshot import CopySource, EntryState, OneUseCopy
from kg_context.vocabulary import OnRecallCopyDependency, OnRetiredDependency
from tests.unit.test_predicates import RULES, S, _entry, _proposal, _state

SOURCE = RULES.model_copy(
    update={
        "on_dependency": DependencyRule(
            retired=OnRetiredDependency.REHYDRATE, recall_copy=OnRecallCopyDependency.SOURCE
        )
    }
)
COPY = RULES.model_copy(
    update={
        "on_dependency": DependencyRule(
            retired=OnRetiredDependency.REHYDRATE, recall_copy=OnRecallCopyDependency.COPY
        )
    }
)
_REQ: dict[str, Any] = {"requires": [{"entry_id": "c", "policy": "hard"}]}


def _tokens(bodies: Any) -> list[int]:
    return [len(b.split()) for b in bodies]


def _case(
    *declared: dict[str, Any],
    source: EntryState | None = None,
    from_live: bool = True,
    rules: Any = SOURCE,
    kind: str = "agent",
) -> tuple[Any, Any]:
    src = source or replace(_state("src", "retired"), resident=False)
    copy = replace(_state("c"), entry_class="scratch")
    scenario = S(_proposal(*declared, kind=kind), states=(src, copy), rules=rules)
    snapshot = scenario.snapshot()
    snapshot.copy_sources = {"c": CopySource("c", src, from_live)}
    snapshot.one_use = {"c": OneUseCopy("c", 1)}
    return snapshot, scenario.view()


def test_a_requires_on_a_copy_points_at_its_retired_source_which_comes_back() -> None:
    snapshot, view = _case(_entry("n", **_REQ))
    assert copy_reference_ids([view.closed], snapshot) == ["c"]
    ruled = apply_copy_source_rule(view, SOURCE, snapshot)
    assert ruled.sourced == (("n", "c", "src"),)
    assert [r.entry_id for r in ruled.entries[0][2].requires] == ["src"]
    assert ruled.declared_fanout == view.declared_fanout
    assert non_standing_dependency(ruled, SOURCE, snapshot) is None  # it comes back
    # the [on_dependency] retired rule makes no copy of a source this rule brings back
    assert apply_dependency_rule(ruled, SOURCE, snapshot, _tokens).rehydrated == ()
    (use,) = copy_uses(ruled, snapshot, 1)
    assert (use.source_id, use.rehydrate, use.dependents, use.spent) == ("src", True, ("n",), True)


def test_a_derivation_from_the_copy_moves_with_its_requires_and_is_kept_once() -> None:
    snapshot, view = _case(
        _entry(
            "n",
            requires=[
                {"entry_id": "c", "policy": "hard"},
                {"entry_id": "src", "policy": "hard"},
            ],
            derived_from=[{"entry_id": "c", "essential": True}],
        )
    )
    ruled = apply_copy_source_rule(view, SOURCE, snapshot)
    entry = ruled.entries[0][2]
    assert [r.entry_id for r in entry.requires] == ["src"]
    assert [(r.entry_id, r.essential) for r in entry.derived_from] == [("src", True)]


def test_a_copy_another_standing_entry_holds_is_not_spent() -> None:
    snapshot, view = _case(_entry("n", **_REQ))
    snapshot.add_entry(replace(snapshot.entries["c"], hard_held_by=("older",)))
    ruled = apply_copy_source_rule(view, SOURCE, snapshot)
    (use,) = copy_uses(ruled, snapshot, 1)
    assert use.rehydrate and not use.spent


def test_a_live_resident_source_is_required_as_it_stands() -> None:
    snapshot, view = _case(_entry("n", **_REQ), source=_state("src"))
    ruled = apply_copy_source_rule(view, SOURCE, snapshot)
    (use,) = copy_uses(ruled, snapshot, 1)
    assert (use.source_id, use.rehydrate, use.spent) == ("src", False, True)


@pytest.mark.parametrize(
    ("source", "from_live", "rules", "kind", "declared"),
    [
        (None, True, COPY, "agent", {}),  # the rule says copy
        (None, False, SOURCE, "agent", {}),  # retired after it was superseded or failed
        (replace(_state("src", "superseded"), resident=False), True, SOURCE, "agent", {}),
        (replace(_state("src", "invalidated"), resident=False), True, SOURCE, "agent", {}),
        (replace(_state("src", "at_risk"), resident=False), True, SOURCE, "agent", {}),
        (None, True, SOURCE, "tool", {}),  # a tool may not commit a decision
        (None, True, SOURCE, "agent", {"supersedes": [{"entry_id": "src", "reason": "r"}]}),
    ],
    ids=[
        "rule-copy",
        "not-from-live",
        "superseded",
        "invalidated",
        "at-risk",
        "writer-may-not-commit-its-class",
        "the-set-supersedes-it",
    ],
)
def test_what_the_rule_never_brings_back(
    source: EntryState | None, from_live: bool, rules: Any, kind: str, declared: dict[str, Any]
) -> None:
    cls = "fact" if kind == "tool" else "decision"
    attributes = {"source": "s"} if cls == "fact" else {}
    snapshot, view = _case(
        _entry("n", cls=cls, attributes=attributes, **_REQ, **declared),
        source=source,
        from_live=from_live,
        rules=rules,
        kind=kind,
    )
    assert apply_copy_source_rule(view, rules, snapshot) is view


def test_a_scratch_entry_the_graph_does_not_show_as_a_copy_is_left_alone() -> None:
    snapshot, view = _case(_entry("n", **_REQ))
    snapshot.copy_sources = {}
    assert apply_copy_source_rule(view, SOURCE, snapshot) is view
