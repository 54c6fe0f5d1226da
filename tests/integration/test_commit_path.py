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
