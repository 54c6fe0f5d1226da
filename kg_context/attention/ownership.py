"""Specialists belong to the writer that first named them in a boundary (decided from the graph,
``(:Specialist)-[:BOUND_IN {writer_id}]->(:Boundary)``): a wave may name only its own writer's
specialists there, so no writer moves another's attention score or track record. A wave naming
another writer's specialist is refused before anything of it is written (``AuthorityRefused``,
code ``SPECIALIST_NOT_OWNED``). A wave over the attention settings' size bounds is refused the
same way, first (``InputRefused``, code ``WAVE_TOO_LARGE``)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime

from kg_context.attention.models import SpecialistOutput
from kg_context.db.executor import QueryExecutor, Transaction
from kg_context.errors import AuthorityRefused, InputRefused
from kg_context.settings import AttentionSettings

__all__ = ["SPECIALIST_NOT_OWNED", "WAVE_TOO_LARGE", "check_wave_size", "claim_specialists"]

SPECIALIST_NOT_OWNED = "SPECIALIST_NOT_OWNED"
WAVE_TOO_LARGE = "WAVE_TOO_LARGE"


def check_wave_size(
    query: str, outputs: Sequence[SpecialistOutput], limits: AttentionSettings
) -> None:
    """Refuse a wave over the settings' bounds (``max_wave_outputs``, ``max_output_bytes``,
    ``max_wave_bytes``) with ``InputRefused`` (code ``WAVE_TOO_LARGE``), before any work."""
    fix = "split the outputs over several waves, or shorten them"
    if len(outputs) > limits.max_wave_outputs:
        raise InputRefused(
            f"a wave of {len(outputs)} outputs is over the bound of {limits.max_wave_outputs}",
            code=WAVE_TOO_LARGE,
            fix=fix,
        )
    total = len(query.encode("utf-8"))
    for output in outputs:
        size = len(output.text.encode("utf-8"))
        if size > limits.max_output_bytes:
            raise InputRefused(
                f"the output of {output.specialist_id} is {size} bytes, over the bound of "
                f"{limits.max_output_bytes}",
                code=WAVE_TOO_LARGE,
                fix=fix,
            )
        total += size
    if total > limits.max_wave_bytes:
        raise InputRefused(
            f"the wave is {total} bytes (query and outputs), over the bound of "
            f"{limits.max_wave_bytes}",
            code=WAVE_TOO_LARGE,
            fix=fix,
        )


def claim_specialists(
    executor: QueryExecutor, boundary_id: str, writer_id: str, specialist_ids: Sequence[str]
) -> None:
    """Bind the unbound ``specialist_ids`` to ``writer_id`` in ``boundary_id``, or refuse (and
    write nothing) when one is bound to another writer there."""
    ids = sorted(set(specialist_ids))

    def work(tx: Transaction) -> None:
        rows = tx.run(
            "attention/claim_specialists",
            boundary_id=boundary_id,
            writer_id=writer_id,
            specialist_ids=ids,
            at=datetime.now(UTC).isoformat(),
        )
        foreign = sorted(
            f"{r['specialist_id']} (writer {r['writer_id']})"
            for r in rows
            if r["writer_id"] != writer_id
        )
        if foreign:
            raise AuthorityRefused(
                f"writer {writer_id} names specialists another writer registered in boundary "
                f"{boundary_id}: {', '.join(foreign[:5])}",
                code=SPECIALIST_NOT_OWNED,
                fix="name only this writer's own specialists, or give the specialist a new id",
                boundary_id=boundary_id,
                writer_id=writer_id,
            )

    executor.write_tx(work)
