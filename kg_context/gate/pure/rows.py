"""The rows the gate hands to its write statements, typed (pure data).

Each ``TypedDict`` here is exactly what one ``cypher/gate/write_*.cypher`` statement reads from
``row`` (``tests/unit/test_gate_rows.py`` checks the keys against the files, the way the catalog
checks top-level parameters). A ``Plan`` holds every row one commit transaction writes; the gate
(``decision``, ``commit_plan``) fills it, the store (``store``) writes it. ``receipt_props`` is the
one receipt builder: the gate's review, commit, halt and rejection receipts, an operator's
resolution and adoption receipts, and the receipt of a boundary's founding constitution all come
from it (``receipt_row``: one FOR a set).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, TypedDict

from kg_context.vocabulary import ProposalStatus, ReceiptKind

__all__ = [
    "AdoptionUseRow",
    "BoundaryRow",
    "DerivedFromRow",
    "EntryRow",
    "ForeignEdgeRow",
    "FoundationalRow",
    "HaltRow",
    "Plan",
    "ProposalOutcomeRow",
    "ReceiptRow",
    "RenewalRow",
    "RequiresRow",
    "SetRow",
    "SetWriteRow",
    "SummarizesRow",
    "SupersedesRow",
    "TransitionRow",
    "WriterRow",
    "nested_sets",
    "receipt_props",
    "receipt_row",
    "receipt_rows",
]

Props = dict[str, Any]


class WriterRow(TypedDict):
    """``(:Set)-[:BY]->(:Writer {id, kind})``, nested in ``write_plan``'s sets."""

    id: str
    kind: str


class ProposalOutcomeRow(TypedDict):
    """What became of one proposal (``p.status``, ``IN_SET``), nested in ``write_plan``'s sets."""

    id: str
    status: ProposalStatus


class EntryRow(TypedDict):
    """A new entry with its labels and declared targets, nested in ``write_plan``'s sets."""

    labels: list[str]
    targets: list[str]
    props: Props


class SetRow(TypedDict):
    """A decided set before nesting: its props and the ratified set it follows (``NEXT``)."""

    id: str
    prev_id: str | None
    props: Props


class SetWriteRow(TypedDict):
    """One set row of ``write_plan``: a set with its writers, proposals and entries."""

    id: str
    prev_id: str | None
    props: Props
    writers: list[WriterRow]
    proposals: list[ProposalOutcomeRow]
    entries: list[EntryRow]
    index: list[Props]  # the set's history index line (one for a ratified set, else none)


class ReceiptRow(TypedDict):
    """One row of ``write_receipts``: a receipt (its props carry its id) FOR a set."""

    set_id: str
    props: Props


class HaltRow(TypedDict):
    """One halt row of ``write_plan``: a halt (its props carry its id) ON a set."""

    set_id: str
    props: Props


DerivedFromRow = TypedDict("DerivedFromRow", {"from": str, "to": str, "essential": bool})
SummarizesRow = TypedDict("SummarizesRow", {"from": str, "to": str, "seq": int})
RequiresRow = TypedDict(
    "RequiresRow",
    {
        "from": str,
        "to": str,
        "policy": str,
        "lease_until_seq": int | None,
        "lease_sets": int | None,
        "needs": list[str],
        "set_seq": int,
        "set_work": int,
    },
)
SupersedesRow = TypedDict(
    "SupersedesRow",
    # rule: the constitution rule that made it (None: the writer declared it)
    {"from": str, "to": str, "reason": str, "executed": bool, "seq": int, "rule": str | None},
)
ForeignEdgeRow = TypedDict(
    "ForeignEdgeRow",
    {
        "edge": str,  # derived_from | requires
        "from": str,
        "to": str,
        "to_boundary": str,
        "essential": bool | None,
        "policy": str | None,
        "lease_until_seq": int | None,
        "needs": list[str],
        "set_seq": int,
    },
)


class RenewalRow(TypedDict):
    """A lease renewal the commit of a work set causes (``write_plan``'s renewals): ``by`` (an
    entry of the set) requires (kind live_reference) or is derived from (kind use) ``to``."""

    set_id: str
    seq: int
    work: int
    by: str
    to: str
    kind: str


class FoundationalRow(TypedDict):
    """An operator's foundational mark on a standing entry (``write_plan``)."""

    entry_id: str
    by: str
    set_id: str
    seq: int
    work: int


class AdoptionUseRow(TypedDict):
    """One use of an adoption receipt by a ratified set (``write_plan``)."""

    set_id: str
    receipt_id: str
    seq: int


TransitionRow = TypedDict(
    "TransitionRow",
    {
        "entry_id": str,
        "set_id": str,
        "from": str,
        "to": str,
        "from_label": str,
        "to_label": str,
        "resident": bool,
        "was_resident": bool,
        "reason": str,
        "case": str | None,
        "failed_ancestors": list[str],
        "justification": list[str],
        "seq": int,
    },
)


class BoundaryRow(TypedDict):
    """The boundary parameters of ``write_plan``: the boundary after the transaction's sets."""

    seq: int
    last_set_id: str | None
    live_count: int
    requires_count: int
    committed_tokens: int
    resident_tokens: int
    work_seq: int
    one_use_pending: list[str]


@dataclass(slots=True)
class _Decided:
    """A decided set's rows that ``write_plan`` nests under it."""

    writers: list[WriterRow] = field(default_factory=list)
    receipts: list[ReceiptRow] = field(default_factory=list)
    proposals: list[ProposalOutcomeRow] = field(default_factory=list)
    entries: list[EntryRow] = field(default_factory=list)
    index: list[Props] = field(default_factory=list)  # its history index line, if ratified


@dataclass(slots=True)
class Plan:
    """Every row the commit transaction writes, batched per part of ``gate/write_plan``."""

    sets: list[SetRow] = field(default_factory=list)
    decided: dict[str, _Decided] = field(default_factory=dict)  # set id -> its nested rows
    supersedes: list[SupersedesRow] = field(default_factory=list)
    derived_from: list[DerivedFromRow] = field(default_factory=list)
    requires: list[RequiresRow] = field(default_factory=list)
    halts: list[HaltRow] = field(default_factory=list)
    transitions: list[TransitionRow] = field(default_factory=list)
    # (:Interface)-[:SUMMARIZES]->(:Entry): an interface entry summarizes what it is essentially
    # DERIVED_FROM (the czar's interface compaction).
    summarizes: list[SummarizesRow] = field(default_factory=list)
    # Edges to entries of other boundaries (allowed by the constitution, covered by a receipt).
    foreign_edges: list[ForeignEdgeRow] = field(default_factory=list)
    adoption_uses: list[AdoptionUseRow] = field(default_factory=list)
    renewals: list[RenewalRow] = field(default_factory=list)
    foundational: list[FoundationalRow] = field(default_factory=list)
    boundary: BoundaryRow | None = None

    def add_set(self, row: SetRow) -> _Decided:
        self.sets.append(row)
        return self.decided.setdefault(row["id"], _Decided())

    @property
    def receipts(self) -> list[ReceiptRow]:
        """Every receipt of the plan, in the order the sets were decided."""
        return [r for s in self.sets for r in self.decided[s["id"]].receipts]

    @property
    def entries(self) -> list[EntryRow]:
        """Every new entry of the plan, in the order the sets were decided."""
        return [e for s in self.sets for e in self.decided[s["id"]].entries]

    @property
    def empty(self) -> bool:
        return not self.sets


def nested_sets(plan: Plan) -> list[SetWriteRow]:
    """The plan's set rows with their writers, proposals and entries nested, for ``write_plan``
    (the receipts are ``write_sealed``': ``receipt_rows``)."""
    out: list[SetWriteRow] = []
    for row in plan.sets:
        decided = plan.decided[row["id"]]
        out.append(
            {
                "id": row["id"],
                "prev_id": row["prev_id"],
                "props": row["props"],
                "writers": decided.writers,
                "proposals": decided.proposals,
                "entries": decided.entries,
                "index": decided.index,
            }
        )
    return out


def receipt_rows(plan: Plan) -> list[ReceiptRow]:
    """Every receipt of the plan FOR the set it was decided with, in the order decided, for
    ``write_sealed``."""
    return [
        {"set_id": s["id"], "props": r["props"]}
        for s in plan.sets
        for r in plan.decided[s["id"]].receipts
    ]


def receipt_props(
    receipt_id: str,
    kind: ReceiptKind,
    *,
    at: str,
    boundary_id: str,
    set_id: str | None,
    constitution_version: str,
    **fields: Any,
) -> Props:
    """One receipt's properties: who decided what, when, under which constitution, and which of
    the receipt families it belongs to (``family``, from its kind: ``ReceiptKind.family``, defined
    once). ``set_id`` is ``None`` only for receipts FOR a boundary (its founding constitution)."""
    return {
        "id": receipt_id,
        "kind": kind.value,
        "family": kind.family.value,
        "at": at,
        "boundary_id": boundary_id,
        "set_id": set_id,
        "constitution_version": constitution_version,
        **fields,
    }


def receipt_row(
    receipt_id: str,
    kind: ReceiptKind,
    *,
    at: str,
    boundary_id: str,
    set_id: str,
    constitution_version: str,
    **fields: Any,
) -> ReceiptRow:
    """One receipt FOR a set (``receipt_props``), as ``write_receipts`` reads it."""
    props = receipt_props(
        receipt_id,
        kind,
        at=at,
        boundary_id=boundary_id,
        set_id=set_id,
        constitution_version=constitution_version,
        **fields,
    )
    return {"set_id": set_id, "props": props}
