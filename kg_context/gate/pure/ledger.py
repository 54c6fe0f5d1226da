"""The tamper-evident ledger's canonical form (pure): what each decision of a set is digested
from, how digests chain, and the sealing of a commit plan before it is written. The form is
specified in docs/ledger.md.
"""

from __future__ import annotations

import hashlib
import json
from _json import make_encoder
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from json.encoder import encode_basestring
from typing import Any

from kg_context.gate.pure.rows import Plan

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
# the ledger's flips; the embedding and its work-queue marker are search's). ``lease_root`` and
# ``fresh_until_seq`` decide whether the entry's own lease keeps it resident: sealed, so raising
# one by hand is found (entries written before they existed have neither: nothing changes).
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
    "lease_root",
    "fresh_until_seq",
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


def _text_encoder(*, sort_keys: bool) -> Callable[[Any], str]:
    """``_ENCODER.encode`` with its C encoder made once rather than on every call (``encode``
    builds this same encoder each time); without the circular-reference check, which a value
    made of property values never needs. ``sort_keys=False``: for a map whose keys are already
    in sorted order (the same text, without sorting them again)."""
    chunks = make_encoder(
        None, _ENCODER.default, encode_basestring, None, ":", ",", sort_keys, False, True
    )
    return lambda value: "".join(chunks(value, 0))


_dumps = _text_encoder(sort_keys=True)
_dumps_ordered = _text_encoder(sort_keys=False)


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


def canonical_json(value: Any) -> str:
    """The canonical text of a value (see the module docstring)."""
    return _dumps(_clean(value))


def sha256_hex(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


_EMPTY_DIGEST = sha256_hex(_EMPTY_LIST)


def _digest(text: str) -> str:
    """The digest of a part's canonical text (an empty part's computed once)."""
    return _EMPTY_DIGEST if text == _EMPTY_LIST else sha256_hex(text)


def _pick(props: Mapping[str, Any], fields: Iterable[str]) -> dict[str, Any]:
    return {f: v for f in fields if (v := props.get(f)) is not None}


def _picked_text(props: Mapping[str, Any], keys: tuple[str, ...]) -> str:
    """The canonical text of ``props``' values at ``keys`` (sorted), ``None`` left out."""
    return _dumps_ordered({k: v for k in keys if (v := props.get(k)) is not None})


_SET_KEYS = tuple(sorted(SET_FIELDS))
_SET_IDENTITY_KEYS = tuple(sorted(SET_IDENTITY_FIELDS))
_HALT_KEYS = tuple(sorted(HALT_FIELDS))
# An entry's keys in sorted order, either side of the ``targets`` its record adds.
_ENTRY_KEYS = tuple(sorted(ENTRY_FIELDS))
_ENTRY_BEFORE_TARGETS = tuple(k for k in _ENTRY_KEYS if k < "targets")
_ENTRY_AFTER_TARGETS = tuple(k for k in _ENTRY_KEYS if k > "targets")


def _receipt(props: Mapping[str, Any]) -> Mapping[str, Any]:
    """A receipt as its record holds it: without ``None`` and the ledger's outputs (a receipt
    being sealed has neither: taken as it is, not copied)."""
    if None in props.values() or not LEDGER_OUTPUTS.isdisjoint(props):
        return {k: v for k, v in props.items() if v is not None and k not in LEDGER_OUTPUTS}
    return props


def _entry_text(props: Mapping[str, Any], targets: Iterable[str]) -> str:
    """An entry as its record holds it: ``ENTRY_FIELDS`` and its target keys (sorted)."""
    held = {k: v for k in _ENTRY_BEFORE_TARGETS if (v := props.get(k)) is not None}
    held["targets"] = sorted(set(targets))
    for k in _ENTRY_AFTER_TARGETS:
        if (v := props.get(k)) is not None:
            held[k] = v
    return _dumps_ordered(held)


def _joined(texts: list[str]) -> str:
    """The canonical text of a list whose items' canonical texts are ``texts`` (sorted here)."""
    if not texts:
        return _EMPTY_LIST
    if len(texts) > 1:
        texts.sort()
    return "[" + ",".join(texts) + "]"


def _list_text(items: Iterable[Mapping[str, Any]]) -> str:
    """The canonical text of a list of flat maps (property values: no map inside), sorted by
    each one's canonical text: each encoded once."""
    return _joined([_dumps(i) for i in items])


def _set_text(props: Mapping[str, Any], committed: bool) -> str:
    return _picked_text(props, _SET_KEYS if committed else _SET_IDENTITY_KEYS)


def _receipts_text(receipts: Iterable[Mapping[str, Any]]) -> str:
    return _joined([_dumps(_receipt(r)) for r in receipts])


def _halts_text(halts: Iterable[Mapping[str, Any]]) -> str:
    return _joined([_picked_text(h, _HALT_KEYS) for h in halts])


def _entries_text(entries: Iterable[tuple[Mapping[str, Any], Iterable[str]]]) -> str:
    return _joined([_entry_text(props, targets) for props, targets in entries])


def _flips_text(flips: Iterable[Mapping[str, Any]]) -> str:
    return _list_text({"entry_id": f["entry_id"], **_pick(f, TRANSITION_FIELDS)} for f in flips)


def _links_text(
    next_from: str | None, writers: Iterable[str], adoption_uses: Iterable[Mapping[str, Any]]
) -> str:
    uses = sorted(
        ({"receipt_id": u["receipt_id"], "seq": u["seq"]} for u in adoption_uses), key=_dumps
    )
    links: dict[str, Any] = {"adoption_uses": uses}  # its keys in sorted order
    if next_from is not None:
        links["next_from"] = next_from
    links["writers"] = sorted(set(writers))
    return _dumps(_clean(links)) if uses else _dumps_ordered(links)


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
    return {
        "set": _set_text(set_props, committed),
        "receipts": _receipts_text(receipts),
        "halts": _halts_text(halts),
        "entries": _entries_text(entries),
        "edges": _list_text(edges),
        "flips": _flips_text(flips),
        "links": _links_text(next_from, writers, adoption_uses),
    }


def part_digests(parts: Mapping[str, str]) -> dict[str, str]:
    """Each part's digest: of its canonical text (``record_parts``)."""
    return {name: _digest(text) for name, text in parts.items()}


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


def _edge_text(kind: str, row: Mapping[str, Any]) -> str:
    return _dumps(edge_part(kind, row["from"], row["to"], row))


def _plan_edges(plan: Plan) -> dict[str, list[str]]:
    """The canonical texts of the plan's edges, by the entry they leave, as the graph will
    hold them."""
    out: dict[str, list[str]] = defaultdict(list)
    for d in plan.derived_from:
        out[d["from"]].append(_edge_text("DERIVED_FROM", d))
    for r in plan.requires:
        out[r["from"]].append(_edge_text("REQUIRES", r))
    for f in plan.foreign_edges:
        kind = "DERIVED_FROM" if f["edge"] == "derived_from" else "REQUIRES"
        out[f["from"]].append(_edge_text(kind, {**f, "boundary_id": f["to_boundary"]}))
    for s in plan.summarizes:
        out[s["from"]].append(_edge_text("SUMMARIZES", s))
    for p in plan.supersedes:
        out[p["from"]].append(_edge_text("SUPERSEDES", p))
    return out


_SORTED_PARTS = tuple(sorted(PARTS))
# ``canonical_json({"v": VERSION, **digests})`` with a record's part digests in ``_SORTED_PARTS``
# order (hex digests: nothing to escape), and the prefixes of its ``ledger_parts`` items.
_CONTENT_TEXT = "{" + ",".join(f'"{name}":"%s"' for name in _SORTED_PARTS) + f',"v":{VERSION}}}'
_PART_PREFIXES = tuple(f"{name}:" for name in _SORTED_PARTS)


def _chain_text(boundary: str, pos: int, prev: str | None, content: str) -> str:
    """``canonical_json`` of what ``chain_digest`` digests (``boundary``: the boundary id
    already encoded; ``prev`` a digest this gate computed or read as the head)."""
    after = "" if prev is None else f',"prev":{_dumps(prev)}'
    return f'{{"boundary_id":{boundary},"content":"{content}","pos":{pos}{after}}}'


def seal(plan: Plan, boundary_id: str, head: LedgerHead) -> LedgerHead:
    """Give every decision of the plan its ledger record, in the order decided: its position on
    its receipts and halt, and its digest (with the previous one and its parts) on its outcome
    receipt. Returns the new head. Each part's text comes from ``record_parts``' builders, fed
    straight from the plan (each edge's text made once, for the entry it leaves)."""
    boundary = _dumps(boundary_id)
    edges = _plan_edges(plan)
    halts: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for h in plan.halts:
        halts[h["set_id"]].append(h["props"])
    flips: dict[str, list[Mapping[str, Any]]] = defaultdict(list)
    for t in plan.transitions:
        flips[t["set_id"]].append(t)
    uses: dict[str, list[Mapping[str, Any]]] = defaultdict(list)
    for u in plan.adoption_uses:
        uses[u["set_id"]].append(u)
    none: list[Any] = []
    for row in plan.sets:
        set_id = row["id"]
        decided = plan.decided[set_id]
        props = row["props"]
        pos = head.pos + 1
        receipts = [r["props"] for r in decided.receipts]
        for receipt in receipts:
            receipt["ledger_pos"] = pos
        set_halts = halts.get(set_id, none)
        for halt in set_halts:
            halt["ledger_pos"] = pos
        committed = props.get("status") == "ratified"
        entry_texts = []
        edge_texts = []
        for e in decided.entries:
            entry = e["props"]
            entry_texts.append(_entry_text(entry, e["targets"]))
            edge_texts += edges.get(entry["id"], none)
        digests = (
            _digest(_joined(edge_texts)),
            _digest(_joined(entry_texts)),
            _digest(_flips_text(flips[set_id])) if set_id in flips else _EMPTY_DIGEST,
            _digest(_halts_text(set_halts)) if set_halts else _EMPTY_DIGEST,
            sha256_hex(
                _links_text(
                    row["prev_id"] if committed else None,
                    [w["id"] for w in decided.writers],
                    uses.get(set_id, none),
                )
            ),
            sha256_hex(_receipts_text(receipts)),
            sha256_hex(_set_text(props, committed)),
        )
        content = sha256_hex(_CONTENT_TEXT % digests)
        digest = sha256_hex(_chain_text(boundary, pos, head.digest, content))
        receipts[-1].update(
            ledger_prev=head.digest,
            ledger_digest=digest,
            ledger_parts=[p + d for p, d in zip(_PART_PREFIXES, digests, strict=True)],
        )
        head = LedgerHead(pos, digest)
    return head
