"""The czar's residency step is linear in the live state: the set of entries that should be
resident (reached | interfaces) is built once per plan, not once per entry."""

from __future__ import annotations

from typing import Any

from kg_context.gate.pure.constitution import load_constitution
from kg_context.residency.czar_plan import CzarPlan, _plan_residency, _Planner
from kg_context.residency.reachability import Reachability


class _CountingReach:
    """A Reachability that counts how often its ``resident`` union is built."""

    def __init__(self, reach: Reachability) -> None:
        self._reach = reach
        self.built = 0

    @property
    def resident(self) -> frozenset[str]:
        self.built += 1
        return self._reach.resident


def _entry(status: str, resident: bool) -> dict[str, Any]:
    return {"status": status, "resident": resident, "writer_id": "w", "expires_after_seq": None}


def test_the_resident_set_is_built_once_and_every_entry_is_planned() -> None:
    entries = {f"live{i}": _entry("live", resident=False) for i in range(500)}
    entries |= {f"gone{i}": _entry("live", resident=True) for i in range(500)}
    reach = _CountingReach(
        Reachability("b", 7, frozenset(f"live{i}" for i in range(500)), frozenset())
    )
    planner = _Planner(CzarPlan(boundary_id="b", czar_id="czar", seq=7), entries)
    _plan_residency(planner, reach, {}, load_constitution())  # type: ignore[arg-type]
    assert reach.built == 1
    assert len(planner.planned) == 1_000
    assert all(planner.planned[f"live{i}"].resident is True for i in range(500))
    assert all(planner.planned[f"gone{i}"].resident is False for i in range(500))
