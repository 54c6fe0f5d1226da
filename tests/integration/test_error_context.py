"""The library's errors carry their context as attributes, on the real database: a missing
boundary names it, a halt that is not open names the halt, its boundary and its set, a
non-operator's act names who asked and why it was refused."""

from __future__ import annotations

from typing import Any

import pytest

from kg_context.errors import AuthorizationError, OperatorActRefused, StateError
from kg_context.vocabulary import ReasonCode
from tests.factories import entry, proposal


def _halted(engine: Any, boundary_id: str) -> Any:
    boundary = engine.boundary(boundary_id)
    halted = boundary.commit(
        proposal(
            boundary_id,
            entry(cls="fact", key="bench", verse="global", attributes={"source": "a thread"}),
        )
    )
    assert (halted.outcome, halted.reason_code) == ("halt", ReasonCode.VERSE_ADOPTION), halted
    return halted


def test_a_missing_boundary_names_its_id(engine: Any, boundary_id: str) -> None:
    with pytest.raises(StateError) as missing:
        engine.boundary(boundary_id, create=False)
    assert missing.value.boundary_id == boundary_id
    assert missing.value.context == {"boundary_id": boundary_id}


def test_a_halt_that_is_not_open_names_the_halt_its_boundary_and_its_set(
    engine: Any, boundary_id: str
) -> None:
    halted = _halted(engine, boundary_id)
    engine.halts.resolve(halted.halt_id, "reject", operator_id="operator", reason="no")
    with pytest.raises(StateError) as late:
        engine.halts.resolve(halted.halt_id, "approve", operator_id="operator", reason="late")
    assert late.value.context == {
        "boundary_id": boundary_id,
        "halt_id": halted.halt_id,
        "set_id": halted.set_id,
        "writer_id": "operator",
    }
    with pytest.raises(StateError) as unknown:
        engine.halts.resolve(
            f"{boundary_id}/no-halt", "approve", operator_id="operator", reason="x"
        )
    assert unknown.value.halt_id == f"{boundary_id}/no-halt"


def test_a_non_operator_s_resolution_names_who_asked_and_why(engine: Any, boundary_id: str) -> None:
    halted = _halted(engine, boundary_id)
    with pytest.raises(AuthorizationError) as refused:
        engine.halts.resolve(halted.halt_id, "approve", operator_id="intruder", reason="mine")
    assert refused.value.context == {
        "boundary_id": boundary_id,
        "reason_code": ReasonCode.NOT_OPERATOR,
        "halt_id": halted.halt_id,
        "writer_id": "intruder",
    }
    assert engine.halts.show(halted.halt_id).halt.status == "open"


def test_operator_acts_and_lookups_name_their_subjects(engine: Any, boundary_id: str) -> None:
    boundary = engine.boundary(boundary_id)
    with pytest.raises(OperatorActRefused) as revoking:
        boundary.revoke("writer", "writer-1", operator_id="intruder", reason="spam")
    assert revoking.value.context == {
        "boundary_id": boundary_id,
        "reason_code": ReasonCode.NOT_OPERATOR,
        "writer_id": "intruder",
    }
    with pytest.raises(StateError) as walking:
        boundary.walk(f"{boundary_id}/no-set")
    assert walking.value.context == {"boundary_id": boundary_id, "set_id": f"{boundary_id}/no-set"}
    with pytest.raises(StateError) as why:
        boundary.why(f"{boundary_id}/no-entry")
    assert why.value.context == {"boundary_id": boundary_id, "entry_id": f"{boundary_id}/no-entry"}
