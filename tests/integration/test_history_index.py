"""The governed history index, on the real graph: one index
line per ratified set, written in the set's own transaction and built from its typed content; the
window holds the last ``[history_index] resident_last`` lines (tokens counted), older ones stay
findable in the history index."""

from __future__ import annotations

from typing import Any

from kg_context.gate.pure.constitution import load_constitution
from tests.factories import entry, proposal


def _lines(engine: Any, boundary_id: str) -> list[dict[str, Any]]:
    return engine.executor.read(
        "history/index", boundary_id=boundary_id, from_seq=0, to_seq=2**62, limit=1000
    )


def test_one_index_line_per_ratified_set_none_for_halted_or_rejected(
    engine: Any, boundary_id: str
) -> None:
    boundary = engine.boundary(boundary_id)
    b = boundary_id
    first = boundary.commit(
        proposal(b, entry(key="db", body="Use Postgres", id=f"{b}-db1"), summary="IGNORE ME")
    )
    second = boundary.commit(
        proposal(
            b,
            entry(
                key="db",
                body="Use Neo4j",
                id=f"{b}-db2",
                supersedes=[{"entry_id": f"{b}-db1", "reason": "graph"}],
            ),
            entry(cls="plan", key="schema", body="labels", id=f"{b}-plan"),
        )
    )
    halted = boundary.commit(
        proposal(b, *[entry(key=f"k{i}", requires=[{"entry_id": f"{b}-db2"}]) for i in range(65)])
    )
    rejected = boundary.commit(
        proposal(b, entry(cls="decision"), writer_id="t-1", writer_kind="tool")
    )
    assert [d.outcome for d in (first, second, halted, rejected)] == [
        "commit",
        "commit",
        "halt",
        "reject",
    ]

    lines = _lines(engine, b)
    assert [(x["set_id"], x["seq"]) for x in lines] == [
        (first.set_id, first.seq),
        (second.set_id, second.seq),
    ]
    # Built from typed content (kind, writer, classes, keys, executed supersessions), never from
    # the writer's free-text summary.
    assert lines[0]["summary"] == "state by writer-1: +1 (decision db)"
    assert lines[1]["summary"] == (
        f"state by writer-1: +2 (decision db, plan schema); supersedes {b}-db1"
    )
    assert all("IGNORE" not in x["summary"] and x["tokens"] > 0 for x in lines)
    # Written with the set: the commit receipts' sets and seqs are exactly the index's.
    commits = {
        (r["set_id"], r["fields"]["state_revision"])
        for r in engine.executor.read("audits/receipts", boundary_id=b, family=None)
        if r["kind"] == "commit"
    }
    assert commits == {(x["set_id"], x["seq"]) for x in lines}

    # Approving the halt commits the set: it gets its line then, at its own seq.
    approved = engine.halts.resolve(halted.halt_id, "approve", operator_id="operator", reason="ok")
    assert approved.decision is not None and approved.decision.outcome == "commit"
    lines = _lines(engine, b)
    assert [x["set_id"] for x in lines] == [first.set_id, second.set_id, halted.set_id]
    assert lines[-1]["seq"] == approved.decision.seq
    assert lines[-1]["summary"].startswith("state by writer-1: +65 (decision k0, decision k1")


def test_window_holds_the_last_resident_last_lines_older_ones_stay_findable(
    engine: Any, boundary_id: str
) -> None:
    boundary = engine.boundary(boundary_id)
    b = boundary_id
    default = load_constitution()
    assert default.history_index.resident_last == 16
    text = default.text.replace(f'version = "{default.version}"', f'version = "ix-{b[-12:]}"')
    changed = boundary.propose_constitution(
        text + "\n[history_index]\nresident_last = 3\n", writer_id="operator", reason="index"
    )
    assert changed.outcome == "commit"
    for i in range(5):
        assert boundary.commit(proposal(b, entry(key=f"k{i}", id=f"{b}-e{i}"))).outcome == "commit"

    everything = boundary.history_index()
    assert [x.seq for x in everything] == list(range(1, 7))
    assert everything[0].summary == f"constitution by operator: {default.version} -> ix-{b[-12:]}"

    current = boundary.window()
    assert [x.seq for x in current.index] == [4, 5, 6]
    assert current.index_tokens == sum(x.tokens for x in everything[-3:]) > 0
    assert current.prompt_tokens == current.total_tokens + current.index_tokens
    assert current.render().splitlines()[-3:] == [
        f"- {x.seq} {x.set_id}: {x.summary}" for x in everything[-3:]
    ]
    # Older lines left the window but are one history read away.
    assert {x.seq for x in everything} - {x.seq for x in current.index} == {1, 2, 3}
