"""Recall through the gate: the record proposes, the gate disposes.

``recall`` returns status-tagged candidates and changes nothing (entries are embedded on the
write path); ``admit`` brings chosen ones
back as scratch copies through one recall set, each for one use; ``rehydrate`` admits a
reconstructible dependency the same way.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from kg_context.db.executor import QueryExecutor
from kg_context.errors import InputValidationError, StateError
from kg_context.gate.io.boundary import Boundary
from kg_context.gate.pure.contracts import WriterKind
from kg_context.gate.pure.decision import Decision
from kg_context.record.search import RecordHit, recall_tag, search_record
from kg_context.residency.reachability import boundary_seq
from kg_context.settings import ResidencySettings
from kg_context.text.embeddings import TextEncoder

__all__ = ["Admission", "admit", "recall", "recall_tag", "rehydrate"]


def recall(
    boundary: Boundary,
    query: str,
    *,
    k: int = 10,
    embedder: TextEncoder | None = None,
) -> list[RecordHit]:
    """Candidates from the record of ``boundary`` for ``query``, best first, each with
    ``.tag()``. A read: it writes nothing (not even a vector index); an entry the write path
    has not embedded yet is found by its words alone."""
    return search_record(boundary, query, k=k, embedder=embedder, read_only=True)


@dataclass(frozen=True, slots=True)
class Admission:
    """A recall admission: the gate's decision, original id -> scratch copy id, what was cut."""

    decision: Decision
    copies: dict[str, str]
    cut: tuple[str, ...]
    depth_cut: tuple[str, ...]


def _expand(
    executor: QueryExecutor,
    boundary_id: str,
    ids: Sequence[str],
    max_depth: int,
    max_entries: int,
) -> tuple[list[str], list[dict[str, Any]], list[str], list[str]]:
    """Originals plus REQUIRES dependencies breadth-first; what the entry and depth caps cut."""
    chosen: list[str] = []
    for entry_id in ids:
        if entry_id not in chosen:
            chosen.append(entry_id)
    cut: list[str] = chosen[max_entries:]
    chosen = chosen[:max_entries]
    edges: list[dict[str, Any]] = []
    depth_cut: list[str] = []
    frontier = list(chosen)
    depth = 0
    while frontier:
        rows = executor.read("recall/dependencies", ids=frontier, boundary_id=boundary_id)
        nxt: list[str] = []
        for row in rows:
            target = row["to_id"]
            if target in chosen:
                edges.append(row)
            elif depth >= max_depth:
                if target not in depth_cut:
                    depth_cut.append(target)
            elif len(chosen) < max_entries:
                chosen.append(target)
                nxt.append(target)
                edges.append(row)
            elif target not in cut:
                cut.append(target)
        frontier = nxt
        depth += 1
    return chosen, edges, cut, depth_cut


def admit(
    boundary: Boundary,
    entry_ids: Sequence[str],
    *,
    writer_id: str,
    writer_kind: WriterKind | str = WriterKind.AGENT,
    settings: ResidencySettings | None = None,
    max_depth: int | None = None,
    max_entries: int | None = None,
) -> Admission:
    """Propose scratch copies of ``entry_ids`` (and their dependencies, capped) as one recall
    set through the gate. ``settings`` default to the handle's (the engine's)."""
    if not entry_ids:
        raise InputValidationError(
            "admit names at least one entry to recall", boundary_id=boundary.id, writer_id=writer_id
        )
    settings = settings or boundary.settings.residency
    depth = settings.recall_max_depth if max_depth is None else max_depth
    cap = settings.recall_max_entries if max_entries is None else max_entries
    executor = boundary.executor
    chosen, edges, cut, depth_cut = _expand(executor, boundary.id, entry_ids, depth, cap)
    rows = {
        r["id"]: r for r in executor.read("recall/entries", ids=chosen, boundary_id=boundary.id)
    }
    unknown = [i for i in chosen if i not in rows]
    if unknown:
        raise StateError(
            f"no entries {', '.join(unknown)} in boundary {boundary.id}",
            boundary_id=boundary.id,
            entry_id=unknown[0] if len(unknown) == 1 else None,
            writer_id=writer_id,
        )
    seq = boundary_seq(executor, boundary.id)
    identity = "\n".join([writer_id, str(seq), *chosen])
    digest = hashlib.sha256(identity.encode("utf-8")).hexdigest()[:12]
    copies = {i: f"{i}@recall-{digest}" for i in chosen}
    requires: dict[str, list[dict[str, Any]]] = {}
    for edge in edges:
        policy = edge["policy"]
        requires.setdefault(edge["from_id"], []).append(
            {
                "entry_id": copies[edge["to_id"]],
                "policy": policy,
                "lease_sets": None if policy == "hard" else 1,
                "needs": list(edge["needs"]),
            }
        )
    entries = []
    for original in chosen:
        row = rows[original]
        entries.append(
            {
                "id": copies[original],
                "class": "scratch",
                "key": row["key"],
                "body": row["body"],
                "derived_from": [{"entry_id": original, "essential": False}],
                "requires": requires.get(original, []),
                "expires_after": 1,
                "attributes": {
                    "recalled_from": original,
                    "recalled_class": row["class"],
                    "recalled_status": row["status"],
                    "recalled_set_seq": int(row["set_seq"] or 0),
                    "recall_tag": recall_tag(
                        int(row["set_seq"] or 0), row["status"], row["superseded_by"]
                    ),
                },
            }
        )
    pid = f"{boundary.id}/recall/{digest}"
    proposal = {
        "id": pid,
        "boundary_id": boundary.id,
        "writer_id": writer_id,
        "writer_kind": WriterKind(writer_kind).value,
        "set_id": pid,
        "kind": "recall",
        "entries": entries,
        "summary": (
            f"recall of {len(chosen)} entr{'y' if len(chosen) == 1 else 'ies'} for one use"
            + (f"; cap cut {len(cut) + len(depth_cut)}" if cut or depth_cut else "")
        ),
    }
    decision = boundary.commit(proposal)
    return Admission(decision=decision, copies=copies, cut=tuple(cut), depth_cut=tuple(depth_cut))


def rehydrate(
    boundary: Boundary,
    dependent_id: str,
    *,
    writer_id: str,
    writer_kind: WriterKind | str = WriterKind.AGENT,
    settings: ResidencySettings | None = None,
) -> Admission | None:
    """Bring back, through the gate, what ``dependent_id`` holds through ``reconstructible``
    edges and the window no longer holds (``admit``: scratch copies for one use). ``None`` when
    nothing it holds that way is out of the window."""
    rows = boundary.executor.read(
        "recall/reconstructible_out", boundary_id=boundary.id, entry_id=dependent_id
    )
    if not rows:
        return None
    return admit(
        boundary,
        [r["id"] for r in rows],
        writer_id=writer_id,
        writer_kind=writer_kind,
        settings=settings,
    )
