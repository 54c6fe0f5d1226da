"""Fragmentation has the right shape (against the real Neo4j).

Set-level invariants (the fan-out and the entries per set) are evaluated over a set's fragment
group: the set plus every set ratified within the last ``[window] sets`` seqs, or earlier in the
same batch, that shares a declared target with it (or, where either declares none, a
dependency), whoever wrote it, and is not an ancestor of it in an ordered sequence. Sending
slowly does not evade the rule; building in order is not a fragment.
"""

from __future__ import annotations

from typing import Any

from kg_context.gate.pure.constitution import load_constitution, parse_constitution
from tests.factories import entry, proposal

DEFAULT = load_constitution()


def _narrow(engine: Any, boundary_id: str, fanout: int = 6) -> Any:
    text = DEFAULT.text.replace(
        f'version = "{DEFAULT.version}"', f'version = "frag-{boundary_id[-12:]}"'
    ).replace("max_set_fanout = 64", f"max_set_fanout = {fanout}")
    return engine.boundary(boundary_id, constitution=parse_constitution(text))


def _base(boundary: Any, boundary_id: str, n: int = 4) -> list[str]:
    ids = [f"{boundary_id}/base-{i}" for i in range(n)]
    done = boundary.commit(
        proposal(
            boundary_id, *[entry(id=i, key=f"b{n}") for n, i in enumerate(ids)], writer_id="seed"
        )
    )
    assert done.outcome == "commit"
    return ids


def _half(boundary_id: str, name: str, base: list[str], writer: str = "w") -> dict[str, Any]:
    """An explicit set on target `db` declaring 4 edges (within a fan-out limit of 6)."""
    return proposal(
        boundary_id,
        entry(key=name, requires=[{"entry_id": b} for b in base]),
        writer_id=writer,
        set_id=f"{boundary_id}/{name}",
        targets=["db"],
    )


def test_two_explicit_sets_over_the_fanout_together_halt_when_sent_together(
    engine: Any, boundary_id: str
) -> None:
    boundary = _narrow(engine, boundary_id)
    base = _base(boundary, boundary_id)
    decisions = boundary.commit_many(
        [_half(boundary_id, "mig", base), _half(boundary_id, "q", base)]
    )
    assert [(d.outcome, d.reason_code) for d in decisions] == [
        ("commit", None),
        ("halt", "FRAGMENTATION"),
    ]
    assert f"{boundary_id}/mig" in (decisions[1].detail or "")


def test_sending_slowly_does_not_evade_fragmentation(engine: Any, boundary_id: str) -> None:
    """The same two sets sent by two sequential commit() calls do not both commit."""
    boundary = _narrow(engine, boundary_id)
    base = _base(boundary, boundary_id)
    first = boundary.commit(_half(boundary_id, "mig", base))
    second = boundary.commit(_half(boundary_id, "q", base))
    assert first.outcome == "commit"
    assert (second.outcome, second.reason_code) == ("halt", "FRAGMENTATION")
    assert "8 edges" in (second.detail or "")


def test_small_sets_sharing_a_target_are_not_fragments_and_other_writers_halves_are(
    engine: Any, boundary_id: str
) -> None:
    """Co-pending explicit sets are not halted merely for sharing a target; two halves over the
    limit together are fragments whoever wrote them."""
    boundary = _narrow(engine, boundary_id)
    base = _base(boundary, boundary_id)
    other_writer = boundary.commit_many(
        [_half(boundary_id, "mig", base, writer="w1"), _half(boundary_id, "q", base, writer="w2")]
    )
    assert [(d.outcome, d.reason_code) for d in other_writer] == [
        ("commit", None),
        ("halt", "FRAGMENTATION"),
    ]
    small = boundary.commit_many(
        [
            proposal(boundary_id, entry(key="x"), set_id=f"{boundary_id}/x", targets=["db"]),
            proposal(boundary_id, entry(key="y"), set_id=f"{boundary_id}/y", targets=["db"]),
        ]
    )
    assert [d.outcome for d in small] == ["commit", "commit"]


def test_fifty_ordered_commits_on_the_same_targets_all_commit(
    engine: Any, boundary_id: str
) -> None:
    """commit_many of ordered commits touching the same targets is not FRAGMENTATION. Each set here
    builds on the previous one (supersedes and derives from it)."""
    boundary = _narrow(engine, boundary_id)
    proposals = []
    previous = None
    for i in range(50):
        declared: dict[str, Any] = {}
        if previous is not None:
            declared = {
                "supersedes": [{"entry_id": previous, "reason": f"step {i}"}],
                "derived_from": [{"entry_id": previous, "essential": True}],
            }
        current = f"{boundary_id}/step-{i}"
        proposals.append(
            proposal(
                boundary_id,
                entry(id=current, key="plan", **declared),
                writer_id="planner",
                set_id=f"{boundary_id}/set-{i}",
                targets=["plan", "db"],
            )
        )
        previous = current
    decisions = boundary.commit_many(proposals)
    assert [d.outcome for d in decisions] == ["commit"] * 50, [
        (d.set_id, d.reason_code) for d in decisions if d.outcome != "commit"
    ]
    assert boundary.state().seq == 50
