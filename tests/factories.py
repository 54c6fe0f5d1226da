"""Proposal builders (and a scenario step or two) for tests; never imported by product code."""

from __future__ import annotations

import itertools
from typing import Any

from kg_context.gate.pure.constitution import load_constitution

_serial = itertools.count(1)


# The shipped default's version: a variant's version starts with it, so a variant of another
# default text never reuses a version the record holds with other rules.
DEFAULT_VERSION = load_constitution().version


def entry(cls: str = "decision", key: str = "k", body: str = "b", **extra: Any) -> dict[str, Any]:
    return {"class": cls, "key": key, "body": body, **extra}


def proposal(
    boundary_id: str,
    *entries: dict[str, Any],
    writer_id: str = "writer-1",
    writer_kind: str = "agent",
    targets: list[str] | None = None,
    set_id: str | None = None,
    pid: str | None = None,
    **extra: Any,
) -> dict[str, Any]:
    data: dict[str, Any] = {
        "id": pid or f"{boundary_id}-p{next(_serial)}",
        "boundary_id": boundary_id,
        "writer_id": writer_id,
        "writer_kind": writer_kind,
        "targets": ["t"] if targets is None and set_id is None else (targets or []),
        "entries": list(entries) or [entry()],
        **extra,
    }
    if set_id is not None:
        data["set_id"] = set_id
    return data


def moves(boundary_id: str, name: str, kind: str, *transitions: dict[str, Any]) -> dict[str, Any]:
    """A set of declared transitions by a writer of ``kind`` (the czar and the operator under
    the ids the default constitution names; others as ``<kind>-7``), each with reason ``name``."""
    return {
        "id": f"{boundary_id}-{name}",
        "boundary_id": boundary_id,
        "writer_id": kind if kind in ("czar", "operator") else f"{kind}-7",
        "writer_kind": kind,
        "targets": ["t"],
        "transitions": [{"reason": name, **t} for t in transitions],
    }


def depend_on_retired(engine: Any, boundary_id: str, retired_id: str) -> Any:
    """A later set that needs a retired entry (an essential DERIVED_FROM): the gate halts it
    NON_STANDING_DEPENDENCY and the operator approves it. The approved set's decision."""
    later = engine.boundary(boundary_id).commit(
        proposal(
            boundary_id,
            entry(
                key="retry",
                body="retry the dead end",
                id=f"{boundary_id}-retry",
                derived_from=[{"entry_id": retired_id, "essential": True}],
            ),
        )
    )
    assert (later.outcome, later.reason_code) == ("halt", "NON_STANDING_DEPENDENCY"), later
    approved = engine.halts.resolve(later.halt_id, "approve", operator_id="operator", reason="ok")
    assert approved.decision is not None and approved.decision.outcome == "commit"
    return approved.decision


def constitution_variant(tag: str, *replacements: tuple[str, str]) -> Any:
    """The default constitution under version ``<default>-<tag>`` with each ``(old, new)`` text
    replacement applied (each must be found)."""
    from kg_context.gate.pure.constitution import load_constitution, parse_constitution

    default = load_constitution()
    text = default.text.replace(f'version = "{default.version}"', f'version = "{tag}"')
    for old, new in replacements:
        assert old in text, old
        text = text.replace(old, new)
    return parse_constitution(text)


CROSS_BOUNDARY_ALL = ("\nallowed = []", '\nallowed = ["derived_from", "requires"]')


def halting_on_retired(boundary_id: str) -> Any:
    """The default constitution with ``[on_dependency] retired = "halt"``: a dependency on a
    retired entry halts ``NON_STANDING_DEPENDENCY`` instead of rehydrating it."""
    return constitution_variant(
        f"retired-halt-{boundary_id[-12:]}", ('retired = "rehydrate"', 'retired = "halt"')
    )


def seed_datastore_with_retired_fact(engine: Any, boundary_id: str) -> Any:
    """A goal ``e-goal``, the datastore decision ``e-db`` (both roots) and a benchmark fact
    ``e-bench`` that nothing holds, which the czar then retires, in a boundary whose
    constitution halts a dependency on a retired entry (``halting_on_retired``). The boundary's
    handle."""
    boundary = engine.boundary(boundary_id, constitution=halting_on_retired(boundary_id))
    seeded = boundary.commit(
        proposal(
            boundary_id,
            entry(cls="goal", id="e-goal", key="ship", body="Ship the social graph"),
            entry(cls="decision", id="e-db", key="datastore", body="Use Neo4j for the graph"),
            entry(
                cls="fact",
                id="e-bench",
                key="pg-bench",
                body="Postgres took 40 ms per three-hop query",
                attributes={"source": "bench run 12"},
            ),
            writer_id="planner",
            targets=["datastore"],
        )
    )
    assert seeded.outcome == "commit", seeded
    assert boundary.run_czar().record["retired"] == 1
    assert boundary.why("e-bench").status == "retired"
    return boundary
