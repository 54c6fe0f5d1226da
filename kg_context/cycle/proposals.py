"""Bus proposals that would change durable state become gate proposals; nothing else writes.

``admit_fact`` becomes a ``fact`` entry; ``flag_contradiction`` becomes an ``open_question``
entry (deliberative, so it carries a lease) derived, as supporting provenance, from the entries
it flags. Both are ``kg_context.gate.pure.contracts.Proposal`` values with writer kind
``agent`` (the subscriber is the writer) and declared targets: the proposal's own, or its key.
"""

from __future__ import annotations

from kg_context.cycle.arbitration import ArbitratedProposal
from kg_context.gate.pure.contracts import (
    EntryClass,
    EntryProposal,
    Proposal,
    Provenance,
    WriterKind,
)
from kg_context.gate.pure.sink import GateDecisionLike, GateSink

__all__ = ["DURABLE_KINDS", "GateDecisionLike", "GateSink", "to_gate_proposal"]

DURABLE_KINDS = frozenset({"admit_fact", "flag_contradiction"})


def to_gate_proposal(
    item: ArbitratedProposal,
    *,
    proposal_id: str,
    boundary_id: str,
    broadcast_id: str,
    contradiction_lease_sets: int,
) -> Proposal:
    """The gate proposal for one admitted durable bus proposal."""
    bus = item.proposal
    if bus.kind not in DURABLE_KINDS:
        raise ValueError(f"{bus.kind} proposals do not change durable state")
    # ``source`` is the provenance a fact without DERIVED_FROM declares (the constitution's rule).
    attributes: dict[str, str | int | float | bool] = {
        "source": f"bus:{broadcast_id}/{item.subscriber}",
        "bus_priority": bus.priority,
        "bus_subscriber": item.subscriber,
    }
    if bus.kind == "admit_fact":
        entry = EntryProposal(
            entry_class=EntryClass.FACT,
            key=bus.key,
            body=bus.text,
            derived_from=tuple(Provenance(entry_id=i, essential=True) for i in bus.entry_ids),
            attributes=attributes,
        )
        summary = f"fact {bus.key!r} admitted by bus subscriber {item.subscriber}"
    else:
        entry = EntryProposal(
            entry_class=EntryClass.OPEN_QUESTION,
            key=f"contradiction:{bus.key}",
            body=bus.text or f"contradiction flagged over {', '.join(bus.entry_ids) or bus.key}",
            derived_from=tuple(Provenance(entry_id=i, essential=False) for i in bus.entry_ids),
            expires_after=contradiction_lease_sets,
            attributes=attributes,
        )
        summary = f"contradiction {bus.key!r} flagged by bus subscriber {item.subscriber}"
    return Proposal(
        id=proposal_id,
        boundary_id=boundary_id,
        writer_id=item.subscriber,
        writer_kind=WriterKind.AGENT,
        targets=bus.targets or (bus.key,),
        entries=(entry,),
        summary=summary,
    )
