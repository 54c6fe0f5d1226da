"""History search of thoughts: every attention proposal and bus proposal the record keeps.

An attention wave's ProposalNodes
(winners and losers) and a broadcast's bus proposals (winners and inhibited ones) keep their
text in the record, as ``:Thought`` nodes that are never entries and never resident (no window
cost). ``search_thoughts`` finds them in one boundary through the ``thought_text_fulltext``
index, filtered by ``boundary_token`` inside the index like the entry search, so the answer is
exactly the boundary's top ``k`` whatever other boundaries hold. Each hit names its source
(attention | bus), its writer (specialist or subscriber), its contest (the wave or broadcast id,
the cycle number), its outcome (won | lost | inhibited) and reason, and for a winner what the
gate made of it. Fulltext only: bus proposals carry no embedding (the cycle has no encoder).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from kg_context.db.text_index import boundary_fulltext_query
from kg_context.errors import InputValidationError
from kg_context.gate.io.boundary import Boundary
from kg_context.vocabulary import ThoughtSource

__all__ = ["ThoughtLine", "search_thoughts"]


@dataclass(frozen=True, slots=True)
class ThoughtLine:
    """One thought a search matched, with what became of it."""

    thought_id: str
    source: str  # attention | bus (vocabulary.ThoughtSource)
    writer_id: str
    contest_id: str  # the wave id (attention) or the broadcast id (bus)
    cycle: int | None  # the cycle's broadcast number (bus only)
    kind: str | None  # the bus proposal's kind (bus only)
    outcome: str  # won | lost | inhibited (vocabulary.ThoughtOutcome)
    reason: str
    inhibited_by: str | None
    gate_outcome: str | None  # a winner's: commit | halt | reject | reinforce
    set_id: str | None
    text: str  # as stored: whole, or the first ``bound`` characters when ``truncated``
    truncated: bool
    chars: int
    bound: int
    at: datetime | None
    score: float

    def line(self) -> str:
        where = f"cycle {self.cycle} " if self.cycle is not None else ""
        text = (
            f"thought {self.thought_id} ({self.source}, {where}{self.contest_id}) by "
            f"{self.writer_id}: {self.outcome} ({self.reason})"
        )
        if self.inhibited_by:
            text += f", inhibited by {self.inhibited_by}"
        if self.gate_outcome:
            text += f", gate {self.gate_outcome}" + (
                f" in set {self.set_id}" if self.set_id else ""
            )
        if self.truncated:
            text += f", text truncated at {self.bound} of {self.chars} characters"
        return text


def _line(row: Any) -> ThoughtLine:
    at = row["at"]
    return ThoughtLine(
        thought_id=str(row["id"]),
        source=str(row["source"]),
        writer_id=str(row["writer_id"]),
        contest_id=str(row["contest_id"]),
        cycle=None if row["cycle"] is None else int(row["cycle"]),
        kind=row["kind"],
        outcome=str(row["outcome"]),
        reason=str(row["reason"]),
        inhibited_by=row["inhibited_by"],
        gate_outcome=row["gate_outcome"],
        set_id=row["set_id"],
        text=str(row["text"]),
        truncated=bool(row["truncated"]),
        # An uncut text stores no length of its own: it is the whole (Python's count of
        # characters, as the writer's; Cypher's size() counts UTF-16 units).
        chars=len(str(row["text"])) if row["chars"] is None else int(row["chars"]),
        bound=int(row["bound"]),
        at=at.to_native() if hasattr(at, "to_native") else at,
        score=float(row["score"]),
    )


def search_thoughts(boundary: Boundary, text: str, *, k: int = 10) -> list[ThoughtLine]:
    """The ``k`` thoughts of the boundary that best match ``text`` (fulltext over their text and
    key), best first. Thoughts stored before schema version 5 kept no text and are not found."""
    if k < 1:
        raise InputValidationError("k must be at least 1", boundary_id=boundary.id)
    if not text.strip():
        raise InputValidationError("a thought search needs some text", boundary_id=boundary.id)
    query = boundary_fulltext_query(boundary.id, text)
    if query is None:
        return []
    rows = boundary.executor.read(
        "record/search_thoughts",
        query=query,
        boundary_id=boundary.id,
        k=k,
        attention_source=ThoughtSource.ATTENTION.value,
    )
    return [_line(r) for r in rows]
