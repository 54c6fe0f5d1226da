"""Interface compaction: when an entry leaves the window while dependents that
stay hold it through soft edges naming ``needs``, the czar keeps one ``:Interface`` entry holding
only those properties (``DERIVED_FROM`` and ``SUMMARIZES`` the original). It projects the named
properties and infers nothing; a needed property the entry does not carry is unclear and halts.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from kg_context.db.reader import Reader
from kg_context.gate.pure.contracts import Transition
from kg_context.gate.pure.snapshot import own_work
from kg_context.residency.reachability import Reachability
from kg_context.vocabulary import JustificationCase

if TYPE_CHECKING:
    from kg_context.residency.czar_plan import CzarPlan

__all__ = ["plan_interfaces"]

_SKIP_PROPS = frozenset({"embedding"})


def _property(name: str, props: dict[str, Any]) -> str | int | float | bool | None:
    """A needed property from the entry's own properties, else its attributes JSON."""
    value = props.get(name)
    if value is None:
        raw = props.get("attributes") or "{}"
        value = json.loads(raw).get(name) if isinstance(raw, str) else None
    if value is None or isinstance(value, str | int | float | bool):
        return value
    return json.dumps(value, sort_keys=True)


def plan_interfaces(
    executor: Reader,
    plan: CzarPlan,
    reach: Reachability,
    planned: dict[str, Transition],
) -> list[dict[str, Any]]:
    """Step 5: an interface for each entry leaving the window (or retired out of it) that
    staying dependents hold through soft edges naming ``needs`` (never for a superseded or failed
    entry: what replaced it is the current state); what it cannot build is unclear and halts."""
    leaving = sorted(k for k, t in planned.items() if t.resident is False)
    staying = sorted(reach.reached - set(leaving))
    if not staying:
        return []
    rows = executor.read(
        "czar/interface_candidates",
        boundary_id=plan.boundary_id,
        dependent_ids=staying,
        retiring=leaving,
    )
    out = []
    for row in rows:
        if own_work(row, plan.czar_id):
            plan.skipped_own.append(row["id"])
            continue
        needs = sorted(set(row["needs"]))
        props = {k: v for k, v in row["props"].items() if k not in _SKIP_PROPS}
        values = {name: _property(name, props) for name in needs}
        missing = [name for name, value in values.items() if value is None]
        if missing:
            text = (
                f"{row['id']}: dependents {', '.join(row['holders'])} need "
                f"{', '.join(missing)}, which it does not carry; no interface can be built"
            )
            plan.unclear.append(f"{text}: halted to the operator")
            moved = planned.pop(row["id"], None)
            if moved is not None:
                plan.transitions = [t for t in plan.transitions if t.entry_id != row["id"]]
                plan.unclear_transitions.append(
                    moved.model_copy(
                        update={"case": JustificationCase.UNCLEAR, "justification": (text,)}
                    )
                )
            continue
        body = "\n".join(f"{name}: {values[name]}" for name in needs)
        out.append(
            {
                "id": f"{row['id']}/interface",
                "class": "interface",
                "key": row["key"],
                "body": body,
                "derived_from": [{"entry_id": row["id"], "essential": True}],
                "attributes": values,
            }
        )
    return out
