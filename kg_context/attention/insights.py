"""Winners become insight entries proposed to the gate: the contract with the gate, and the shape.

A winner is proposed as one ``fact`` entry keyed ``insight/<specialist_id>/<digest16>`` (one key
per specialist and content), written by the specialist itself (``writer_kind`` agent), declaring
the target ``insight/<specialist_id>``, with provenance in a ``source`` attribute naming the
ProposalNode (``workspace-attention:<proposal id>``). The gate is reached through
``kg_context.gate.pure.sink.GateSink``: anything with ``commit(proposal) -> decision``, by default
``engine.boundary(boundary_id)``, whose decision tells ``outcome`` (commit | halt | reject),
``entry_ids``, ``set_id`` and ``receipt_id``.
"""

from __future__ import annotations

from kg_context.attention.models import ScoredProposal
from kg_context.gate.pure.contracts import EntryClass, EntryProposal, Proposal, WriterKind

__all__ = ["insight_proposal", "outcome_name"]


def outcome_name(outcome: object) -> str:
    """The outcome as its plain word, whether the gate answers a string or an enum member."""
    value = getattr(outcome, "value", outcome)
    return str(value)


def insight_proposal(winner: ScoredProposal, boundary_id: str) -> Proposal:
    """The gate proposal for one winner."""
    return Proposal(
        id=f"attention/{winner.id}",
        boundary_id=boundary_id,
        writer_id=winner.specialist_id,
        writer_kind=WriterKind.AGENT,
        targets=(f"insight/{winner.specialist_id}",),
        summary=f"workspace-attention winner of {winner.specialist_id} in wave {winner.wave_id}",
        entries=(
            EntryProposal(
                entry_class=EntryClass.FACT,
                key=winner.insight_key,
                body=winner.text,
                attributes={
                    # Provenance for the constitution: the ProposalNode this insight came from.
                    "source": f"workspace-attention:{winner.id}",
                    "specialist_id": winner.specialist_id,
                    "task_id": winner.task_id,
                    "wave_id": winner.wave_id,
                    "proposal_node_id": winner.id,
                    "composite": round(winner.composite, 6),
                    "digest": winner.digest,
                },
            ),
        ),
    )
