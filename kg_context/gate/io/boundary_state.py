"""A boundary's state as the record holds it now: the ``:Boundary`` node, typed (what
``Boundary.state()`` returns, and the HTTP API's ``GET /boundaries/{b}``).

Its fields are exactly the columns of ``cypher/boundary/get.cypher``
(``tests/unit/test_typed_rows.py`` checks them against the file).
"""

from __future__ import annotations

from dataclasses import dataclass

from kg_context.db.executor import Record

__all__ = ["BoundaryState"]


@dataclass(frozen=True, slots=True)
class BoundaryState:
    """One boundary node: its id and seq (the sets decided in it), verse, current constitution
    version, task horizon (``None``: none set), when it was created (ISO text), ``work_seq`` (its
    ratified sets but the czar's and constitution changes: the clock leases count in) and the
    czar's cadence it keeps (``None`` for a boundary recorded before it kept one)."""

    id: str
    seq: int
    verse: str
    constitution_version: str
    task_horizon: int | None
    created_at: str
    work_seq: int
    czar_every_commits: int | None

    @classmethod
    def of(cls, row: Record) -> BoundaryState:
        """The state from one ``boundary/get`` row."""
        return cls(
            id=row["id"],
            seq=int(row["seq"] or 0),
            verse=row["verse"],
            constitution_version=str(row["constitution_version"]),
            task_horizon=row["task_horizon"],
            created_at=row["created_at"],
            work_seq=int(row["work_seq"] or 0),
            czar_every_commits=row["czar_every_commits"],
        )
