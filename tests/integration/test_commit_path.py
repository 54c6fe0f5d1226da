"""The commit path's round trips against the real Neo4j: a batch that fills the batch limit
knows whether more is pending from what it read (one proposal past the limit), so closing
exactly N full batches takes N locked transactions, not one more that finds nothing."""

from __future__ import annotations

from typing import Any

from kg_context.gate.io.store import GateStore
from kg_context.gate.pure.contracts import parse_proposal
from kg_context.text.tokens import get_token_counter
from tests.factories import entry, proposal


def _opened(store_engine: Any) -> int:
    return int(store_engine.executor.statement_counts().get("gate/open_batch", 0))


def test_full_batches_close_without_an_empty_transaction(
    czar_free_engine: Any, boundary_id: str
) -> None:
    engine = czar_free_engine
    boundary = engine.boundary(boundary_id)
    counter = get_token_counter(engine.settings.embedding)
    store = GateStore(engine.executor, engine.constitutions.get, counter.count, batch_limit=3)
    for size, transactions in ((6, 2), (7, 3)):
        proposals = [
            parse_proposal(
                proposal(boundary_id, entry(key=f"k{size}-{n}"), targets=[f"t{size}{n}"])
            )
            for n in range(size)
        ]
        before = _opened(engine)
        decisions = store.close(boundary_id, boundary.gateway_id, proposals)
        assert [d.outcome for d in decisions] == ["commit"] * size
        assert _opened(engine) - before == transactions


_STATEMENTS = ("gate/open_batch", "gate/load_snapshot", "gate/write_plan", "gate/write_sealed")


def _sent(engine: Any) -> dict[str, int]:
    counts = engine.executor.statement_counts()
    return {name: int(counts.get(name, 0)) for name in _STATEMENTS}


def _sent_during(engine: Any, work: Any) -> dict[str, int]:
    before = _sent(engine)
    work()
    after = _sent(engine)
    return {name: after[name] - before[name] for name in _STATEMENTS}


def test_a_single_commit_reads_with_the_lock_and_writes_in_one_statement(
    czar_free_engine: Any, boundary_id: str
) -> None:
    engine = czar_free_engine
    boundary = engine.boundary(boundary_id)
    boundary.commit(proposal(boundary_id, entry(key="first"), targets=["t"]))  # seen once
    decisions: list[Any] = []
    sent = _sent_during(
        engine,
        lambda: decisions.append(
            boundary.commit(proposal(boundary_id, entry(key="second"), targets=["t"]))
        ),
    )
    assert decisions[0].outcome == "commit"
    assert sent == {
        "gate/open_batch": 1,
        "gate/load_snapshot": 0,
        "gate/write_plan": 1,
        "gate/write_sealed": 0,
    }
    assert boundary.verify_ledger().ok


def test_a_commit_reads_its_snapshot_again_when_the_boundary_moved_unseen(
    czar_free_engine: Any, boundary_id: str
) -> None:
    # Another gate (another process) commits in between: the boundary's seq this engine's gate
    # guessed the fragment window from is stale, so what open_batch read for it is not used.
    engine = czar_free_engine
    boundary = engine.boundary(boundary_id)
    counter = get_token_counter(engine.settings.embedding)
    other = GateStore(engine.executor, engine.constitutions.get, counter.count)
    boundary.commit(proposal(boundary_id, entry(key="a"), targets=["t"]))
    moved = parse_proposal(proposal(boundary_id, entry(key="b"), targets=["t"]))
    assert [d.outcome for d in other.close(boundary_id, boundary.gateway_id, [moved])] == ["commit"]
    decisions: list[Any] = []
    sent = _sent_during(
        engine,
        lambda: decisions.append(
            boundary.commit(proposal(boundary_id, entry(key="c"), targets=["t"]))
        ),
    )
    assert decisions[0].outcome == "commit"
    assert sent["gate/open_batch"] == 1
    assert sent["gate/load_snapshot"] == 1
    assert boundary.verify_ledger().ok


def test_a_commit_with_other_proposals_pending_decides_them_all_from_a_fresh_read(
    czar_free_engine: Any, boundary_id: str
) -> None:
    engine = czar_free_engine
    boundary = engine.boundary(boundary_id)
    boundary.commit(proposal(boundary_id, entry(key="a"), targets=["t"]))
    waiting = proposal(boundary_id, entry(key="w"), targets=["u"])
    boundary.submit(waiting)
    sent = _sent_during(
        engine, lambda: boundary.commit(proposal(boundary_id, entry(key="c"), targets=["v"]))
    )
    assert sent["gate/load_snapshot"] == 1
    decided = boundary.decision(waiting["id"])
    assert decided is not None and decided.outcome == "commit"
    assert boundary.verify_ledger().ok


def test_a_batch_of_many_sets_seals_while_the_server_writes(
    czar_free_engine: Any, boundary_id: str
) -> None:
    engine = czar_free_engine
    boundary = engine.boundary(boundary_id)
    many = [proposal(boundary_id, entry(key=f"m{n}"), targets=[f"t{n}"]) for n in range(6)]
    decisions: list[Any] = []
    sent = _sent_during(engine, lambda: decisions.extend(boundary.commit_many(many)))
    assert [d.outcome for d in decisions] == ["commit"] * 6
    assert sent["gate/write_plan"] == 1
    assert sent["gate/write_sealed"] == 1
    assert boundary.verify_ledger().ok
