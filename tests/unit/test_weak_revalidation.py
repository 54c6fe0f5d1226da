"""The WEAK_REVALIDATION predicate (pure): a revalidation must reference the failed ancestor."""

from __future__ import annotations

from typing import Any

import pytest

from kg_context.gate.pure.constitution import load_constitution
from kg_context.gate.pure.contracts import Proposal
from kg_context.gate.pure.predicates import HALTS, SetView, weak_revalidation
from kg_context.gate.pure.set_constructor import ClosedSet
from kg_context.gate.pure.snapshot import EntryState, LockedBoundary, Snapshot

C = load_constitution()


def _snapshot(**entries: tuple[str, tuple[str, ...]]) -> Snapshot:
    boundary = LockedBoundary("b", 5, "local", C.version, None, 3, 0, "s5")
    snap = Snapshot(boundary=boundary)
    for entry_id, (status, failed) in entries.items():
        snap.entries[entry_id] = EntryState(
            entry_id, "b", "k", status, "decision", "w", True, failed_ancestors=failed
        )
    return snap


def _view(**fields: Any) -> SetView:
    proposal = Proposal.model_validate(
        {
            "id": "p",
            "boundary_id": "b",
            "writer_id": "w",
            "writer_kind": "agent",
            "targets": ["t"],
            "transitions": [{"entry_id": "x", "to": "revalidated", "reason": "checked"}],
            **fields,
        }
    )
    entries = tuple(
        (proposal, i, e) for i, e in zip(proposal.entry_ids(), proposal.entries, strict=True)
    )
    return SetView(ClosedSet("s", False, (proposal,)), entries, {}, False)


# The failed ancestors an at-risk transition recorded (Transition.failed_ancestors).
AT_RISK = ("root",)


def test_registered_as_a_halt() -> None:
    assert weak_revalidation in HALTS


@pytest.mark.parametrize(
    ("fields", "state", "weak"),
    [
        ({}, ("at_risk", AT_RISK), True),
        ({"revalidates": ["other"]}, ("at_risk", AT_RISK), True),
        ({"revalidates": ["root"]}, ("at_risk", AT_RISK), False),
        (
            {
                "entries": [
                    {
                        "class": "decision",
                        "key": "why",
                        "body": "re-derived",
                        "derived_from": [{"entry_id": "root", "essential": False}],
                    }
                ]
            },
            ("at_risk", AT_RISK),
            False,
        ),
        ({"revalidates": ["x"]}, ("at_risk", AT_RISK), True),  # itself is not the ancestor
        ({}, ("challenged", ()), True),
        ({"revalidates": ["x"]}, ("challenged", ()), False),  # a challenged entry is its own
        ({"revalidates": ["x"]}, ("at_risk", ()), False),  # none recorded: itself
    ],
)
def test_revalidation_must_reference_the_failed_ancestor(
    fields: dict[str, Any], state: tuple[str, tuple[str, ...]], weak: bool
) -> None:
    violation = weak_revalidation(_view(**fields), C, _snapshot(x=state))
    if weak:
        assert violation is not None
        assert (violation.outcome, violation.reason_code) == ("halt", "WEAK_REVALIDATION")
        assert "x" in violation.detail
    else:
        assert violation is None


def test_other_transitions_are_not_its_business() -> None:
    view = _view(transitions=[{"entry_id": "x", "to": "invalidated", "reason": "gone"}])
    assert weak_revalidation(view, C, _snapshot(x=("at_risk", AT_RISK))) is None
