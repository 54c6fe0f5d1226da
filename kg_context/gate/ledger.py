"""The tamper-evident ledger's canonical form (pure): what each decision of a set is digested
from, how digests chain, and the sealing of a commit plan before it is written. The form is
specified in docs/ledger.md.
"""

from __future__ import annotations

import hashlib
import json
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from kg_context.gate.rows import Plan

__all__ = [
    "EDGE_FIELDS",
    "ENTRY_FIELDS",
    "HALT_FIELDS",
    "LEDGER_OUTPUTS",
    "PARTS",
    "REQUIRES_FIELDS",
    "SET_FIELDS",
    "SET_IDENTITY_FIELDS",
    "TRANSITION_FIELDS",
    "LedgerHead",
    "canonical_json",
    "chain_digest",
    "content_digest",
    "edge_part",
    "part_digests",
    "record_parts",
    "seal",
    "sha256_hex",
]

VERSION = 1
PARTS = ("set", "receipts", "halts", "entries", "edges", "flips", "links")
SET_IDENTITY_FIELDS = (
    "id",
    "boundary_id",
    "writer_id",
    "writer_ids",
    "summary",
    "kind",
    "explicit",
    "digest",
    "proposal_ids",
    "targets",
    "fanout",
    "entry_count",
)
SET_FIELDS = (
    *SET_IDENTITY_FIELDS,
    "status",
    "seq",
    "closed_at",
    "mode",
    "work_seq",
)
# What an entry was written with and never changes (status and residency are checked against
# the ledger's flips; the embedding and its work-queue marker are search's).
ENTRY_FIELDS = (
    "id",
    "boundary_id",
    "class",
    "key",
    "body",
    "verse",
    "tokens",
    "set_seq",
    "set_id",
    "expires_after_seq",
    "superseded_by_default",
    "initial_status",
    "writer_id",
    "proposal_id",
    "attributes",
    "created_at",
)
HALT_FIELDS = (
    "id",
    "boundary_id",
    "set_id",
    "reason_code",
    "detail",
    "suggested_amendment",
    "opened_at",
    "constitution_version",
    "at_seq",
    "parameter",
    "observed",
    "ledger_pos",
)
REQUIRES_FIELDS = ("policy", "lease_sets", "needs", "set_seq", "set_work", "boundary_id")
TRANSITION_FIELDS = (
    "from",
    "to",
    "resident",
    "was_resident",
    "reason",
    "case",
    "failed_ancestors",
    "justification",
    "seq",
)
# The properties of each edge out of a set's entries that its record covers.
EDGE_FIELDS: dict[str, tuple[str, ...]] = {
    "DERIVED_FROM": ("essential", "boundary_id"),
    "REQUIRES": REQUIRES_FIELDS,
    "SUPERSEDES": ("reason", "seq", "executed", "rule"),
    "SUMMARIZES": ("seq",),
}
# The receipt properties the ledger writes from the digest (not digested themselves).
LEDGER_OUTPUTS = frozenset({"ledger_prev", "ledger_digest", "ledger_parts"})


_CONTAINERS = (dict, list, tuple)
_ENCODER = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False)
_EMPTY_LIST = "[]"


def _clean(value: Any) -> Any:
    """The value without ``None`` in its maps (a list of scalars, a property value, as is)."""
    kind = type(value)
    if kind is dict or (kind not in _CONTAINERS and isinstance(value, Mapping)):
        return {
            str(k): _clean(v) if type(v) in _CONTAINERS else v
            for k, v in value.items()
            if v is not None
        }
    if (kind is list or kind is tuple) and any(type(v) in _CONTAINERS for v in value):
        return [_clean(v) for v in value]
    return value


def _dumps(clean: Any) -> str:
    return _ENCODER.encode(clean)


def canonical_json(value: Any) -> str:
    """The canonical text of a value (see the module docstring)."""
    return _dumps(_clean(value))


def sha256_hex(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


_EMPTY_DIGEST = sha256_hex(_EMPTY_LIST)


def _pick(props: Mapping[str, Any], fields: Iterable[str]) -> dict[str, Any]:
    return {f: v for f in fields if (v := props.get(f)) is not None}


def _receipt(props: Mapping[str, Any]) -> Mapping[str, Any]:
    """A receipt as its record holds it: without ``None`` and the ledger's outputs (a receipt
    being sealed has neither: taken as it is, not copied)."""
    if None in props.values() or not LEDGER_OUTPUTS.isdisjoint(props):
        return {k: v for k, v in props.items() if v is not None and k not in LEDGER_OUTPUTS}
    return props


def _entry(props: Mapping[str, Any], targets: Iterable[str]) -> dict[str, Any]:
    """An entry as its record holds it: ``ENTRY_FIELDS`` and its target keys."""
    held = _pick(props, ENTRY_FIELDS)
    held["targets"] = sorted(set(targets))
    return held


def _list_text(items: Iterable[Mapping[str, Any]]) -> str:
    """The canonical text of a list of flat maps (property values: no map inside), sorted by
    each one's canonical text: each encoded once."""
    texts = [_ENCODER.encode(i) for i in items]
    if not texts:
        return _EMPTY_LIST
    if len(texts) > 1:
        texts.sort()
    return "[" + ",".join(texts) + "]"


def record_parts(
    *,
    set_props: Mapping[str, Any],
    committed: bool,
    receipts: Iterable[Mapping[str, Any]],
    halts: Iterable[Mapping[str, Any]] = (),
    entries: Iterable[tuple[Mapping[str, Any], Iterable[str]]] = (),
    edges: Iterable[Mapping[str, Any]] = (),
    flips: Iterable[Mapping[str, Any]] = (),
    next_from: str | None = None,
    writers: Iterable[str] = (),
    adoption_uses: Iterable[Mapping[str, Any]] = (),
) -> dict[str, str]:
    """One record's parts, each as its canonical text: the same function for the gate (from its
    plan) and for verification (from the graph). ``entries``: (properties, target keys);
    ``edges``: ``edge_part`` maps; ``flips``: ``entry_id`` and the TRANSITIONED properties;
    ``adoption_uses``: ``receipt_id`` and ``seq``. Every value is a property value (a scalar or
    a list of scalars), so every map here is flat."""
    fields = SET_FIELDS if committed else SET_IDENTITY_FIELDS
    uses = sorted(
        ({"receipt_id": u["receipt_id"], "seq": u["seq"]} for u in adoption_uses), key=_dumps
    )
    links: dict[str, Any] = {"adoption_uses": uses, "writers": sorted(set(writers))}
    if next_from is not None:
        links["next_from"] = next_from
    return {
        "set": _dumps(_pick(set_props, fields)),
        "receipts": _list_text(_receipt(r) for r in receipts),
        "halts": _list_text(_pick(h, HALT_FIELDS) for h in halts),
        "entries": _list_text(_entry(props, targets) for props, targets in entries),
        "edges": _list_text(edges),
        "flips": _list_text(
            {"entry_id": f["entry_id"], **_pick(f, TRANSITION_FIELDS)} for f in flips
        ),
        "links": _dumps(_clean(links) if uses else links),
    }


def part_digests(parts: Mapping[str, str]) -> dict[str, str]:
    """Each part's digest: of its canonical text (``record_parts``)."""
    return {
        name: _EMPTY_DIGEST if text == _EMPTY_LIST else sha256_hex(text)
        for name, text in parts.items()
    }


def content_digest(digests: Mapping[str, str]) -> str:
    """The digest of a record's content: of its part digests, by name."""
    return sha256_hex(canonical_json({"v": VERSION, **digests}))


def chain_digest(boundary_id: str, pos: int, prev: str | None, content: str) -> str:
    """A record's digest: its content chained to the previous record's digest."""
    return sha256_hex(
        canonical_json({"boundary_id": boundary_id, "content": content, "pos": pos, "prev": prev})
    )


@dataclass(frozen=True, slots=True)
class LedgerHead:
    """The position and digest of a boundary's last record (0 and ``None``: no record yet)."""

    pos: int = 0
    digest: str | None = None


def edge_part(kind: str, source: str, target: str, props: Mapping[str, Any]) -> dict[str, Any]:
    """One edge as a record holds it: its type, ends (entry ids) and ``EDGE_FIELDS``."""
    return {"type": kind, "from": source, "to": target, **_pick(props, EDGE_FIELDS[kind])}


def _edge(kind: str, row: Mapping[str, Any]) -> dict[str, Any]:
    return edge_part(kind, row["from"], row["to"], row)


def _plan_edges(plan: Plan) -> dict[str, list[dict[str, Any]]]:
    """The edges of the plan, by the entry they leave, as the graph will hold them."""
    out: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for d in plan.derived_from:
        out[d["from"]].append(_edge("DERIVED_FROM", d))
    for r in plan.requires:
        out[r["from"]].append(_edge("REQUIRES", r))
    for f in plan.foreign_edges:
        kind = "DERIVED_FROM" if f["edge"] == "derived_from" else "REQUIRES"
        out[f["from"]].append(_edge(kind, {**f, "boundary_id": f["to_boundary"]}))
    for s in plan.summarizes:
        out[s["from"]].append(_edge("SUMMARIZES", s))
    for p in plan.supersedes:
        out[p["from"]].append(_edge("SUPERSEDES", p))
    return out


_SORTED_PARTS = tuple(sorted(PARTS))


def _content_text(digests: Mapping[str, str]) -> str:
    """``canonical_json({"v": VERSION, **digests})`` of a record's part digests (every name of
    ``PARTS``, each a hex digest: nothing to escape), written out directly."""
    fields = ",".join(f'"{name}":"{digests[name]}"' for name in _SORTED_PARTS)
    return f'{{{fields},"v":{VERSION}}}'


def _chain_text(boundary: str, pos: int, prev: str | None, content: str) -> str:
    """``canonical_json`` of what ``chain_digest`` digests (``boundary``: the boundary id
    already encoded; ``prev`` a digest this gate computed or read as the head)."""
    after = "" if prev is None else f',"prev":{_dumps(prev)}'
    return f'{{"boundary_id":{boundary},"content":"{content}","pos":{pos}{after}}}'


def seal(plan: Plan, boundary_id: str, head: LedgerHead) -> LedgerHead:
    """Give every decision of the plan its ledger record, in the order decided: its position on
    its receipts and halt, and its digest (with the previous one and its parts) on its outcome
    receipt. Returns the new head."""
    boundary = _dumps(boundary_id)
    edges = _plan_edges(plan)
    halts: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for h in plan.halts:
        halts[h["set_id"]].append(h["props"])
    flips: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for t in plan.transitions:
        flips[t["set_id"]].append(dict(t))
    uses: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for u in plan.adoption_uses:
        uses[u["set_id"]].append({"receipt_id": u["receipt_id"], "seq": u["seq"]})
    for row in plan.sets:
        set_id = row["id"]
        decided = plan.decided[set_id]
        pos = head.pos + 1
        for r in decided.receipts:
            r["props"]["ledger_pos"] = pos
        for halt in halts.get(set_id, []):
            halt["ledger_pos"] = pos
        committed = row["props"].get("status") == "ratified"
        ids = [e["props"]["id"] for e in decided.entries]
        parts = record_parts(
            set_props=row["props"],
            committed=committed,
            receipts=[r["props"] for r in decided.receipts],
            halts=halts.get(set_id, []),
            entries=[(e["props"], e["targets"]) for e in decided.entries],
            edges=[edge for i in ids for edge in edges.get(i, [])],
            flips=flips.get(set_id, []),
            next_from=row["prev_id"] if committed else None,
            writers=[w["id"] for w in decided.writers],
            adoption_uses=uses.get(set_id, []),
        )
        digests = part_digests(parts)
        content = sha256_hex(_content_text(digests))
        digest = sha256_hex(_chain_text(boundary, pos, head.digest, content))
        decided.receipts[-1]["props"].update(
            ledger_prev=head.digest,
            ledger_digest=digest,
            ledger_parts=[f"{name}:{digests[name]}" for name in _SORTED_PARTS],
        )
        head = LedgerHead(pos, digest)
    return head
