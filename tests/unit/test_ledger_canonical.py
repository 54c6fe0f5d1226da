"""The ledger's canonical form (pure): the text each digest is taken of, how records chain, and
the sealing of a plan, checked against the definition in docs/ledger.md recomputed here with
hashlib and json directly."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from kg_context.gate.pure.ledger import (
    EDGE_FIELDS,
    ENTRY_FIELDS,
    HALT_FIELDS,
    PARTS,
    SET_FIELDS,
    SET_IDENTITY_FIELDS,
    TRANSITION_FIELDS,
    LedgerHead,
    canonical_json,
    chain_digest,
    content_digest,
    part_digests,
    record_parts,
    seal,
)
from kg_context.gate.pure.rows import EntryRow, Plan, ReceiptRow


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def test_canonical_json_sorts_keys_uses_fixed_separators_and_drops_nulls() -> None:
    text = canonical_json({"b": [1, {"z": None, "y": "é"}], "a": None, "c": True})
    assert text == '{"b":[1,{"y":"é"}],"c":true}'


def test_a_digest_is_the_documented_sha256_of_the_canonical_text() -> None:
    content = _sha("content")
    expected = _sha(
        json.dumps(
            {"boundary_id": "team-7", "content": content, "pos": 2, "prev": "abc"},
            sort_keys=True,
            separators=(",", ":"),
        )
    )
    assert chain_digest("team-7", 2, "abc", content) == expected
    digests = {"set": _sha("s"), "entries": _sha("e")}
    assert content_digest(digests) == _sha(
        json.dumps({"v": 1, **digests}, sort_keys=True, separators=(",", ":"))
    )


def _parts(**overrides: Any) -> dict[str, Any]:
    args: dict[str, Any] = {
        "set_props": {"id": "s1", "boundary_id": "b", "status": "ratified", "seq": 1},
        "committed": True,
        "receipts": [{"id": "r2", "kind": "commit"}, {"id": "r1", "kind": "review"}],
        "entries": [({"id": "e2", "body": "two"}, ["t"]), ({"id": "e1", "body": "one"}, [])],
        "edges": [
            {"type": "DERIVED_FROM", "from": "e2", "to": "e1", "essential": True},
            {"type": "REQUIRES", "from": "e2", "to": "e1", "policy": "soft"},
        ],
    }
    args.update(overrides)
    return record_parts(**args)


def test_a_record_does_not_depend_on_the_order_the_graph_returns_things_in() -> None:
    shuffled = _parts(
        receipts=[{"kind": "review", "id": "r1"}, {"kind": "commit", "id": "r2"}],
        entries=[({"body": "one", "id": "e1"}, []), ({"id": "e2", "body": "two"}, ["t"])],
        edges=[
            {"type": "REQUIRES", "from": "e2", "to": "e1", "policy": "soft"},
            {"to": "e1", "from": "e2", "type": "DERIVED_FROM", "essential": True},
        ],
    )
    assert part_digests(shuffled) == part_digests(_parts())
    assert set(shuffled) == set(PARTS)


def test_an_edited_body_changes_the_entries_part_only() -> None:
    edited = _parts(
        entries=[({"id": "e2", "body": "TWO"}, ["t"]), ({"id": "e1", "body": "one"}, [])]
    )
    before, after = part_digests(_parts()), part_digests(edited)
    assert [n for n in PARTS if before[n] != after[n]] == ["entries"]


def test_what_changes_later_is_not_part_of_a_record() -> None:
    """An entry's status and embedding, a lease's clock, a halt's resolution, a refused set's
    status (an operator may reject a halted set) are not digested; their identity is."""
    refused = {"id": "s1", "boundary_id": "b", "status": "halted", "summary": "x"}
    base = part_digests(
        _parts(
            set_props=refused,
            committed=False,
            entries=[({"id": "e1", "body": "one", "status": "live", "embedding": [0.1]}, [])],
            edges=[],
            halts=[{"id": "h", "reason_code": "R", "status": "open"}],
        )
    )
    later = part_digests(
        _parts(
            set_props={**refused, "status": "rejected"},
            committed=False,
            entries=[({"id": "e1", "body": "one", "status": "retired"}, [])],
            edges=[],
            halts=[{"id": "h", "reason_code": "R", "status": "resolved", "resolution": "reject"}],
        )
    )
    assert base == later
    renamed = part_digests(_parts(set_props={**refused, "summary": "y"}, committed=False, edges=[]))
    assert renamed["set"] != base["set"]


def _plan(set_ids: list[str]) -> Plan:
    plan = Plan()
    for i, set_id in enumerate(set_ids):
        decided = plan.add_set(
            {
                "id": set_id,
                "prev_id": set_ids[i - 1] if i else None,
                "props": {"id": set_id, "status": "ratified", "seq": i + 1},
            }
        )
        for kind in ("review", "commit"):
            decided.receipts.append({"set_id": set_id, "props": {"id": f"{set_id}/{kind}"}})
        decided.entries.append(
            {"labels": ["Fact"], "targets": ["t"], "props": {"id": f"{set_id}-e", "body": "b"}}
        )
    return plan


def test_sealing_chains_each_decision_onto_the_one_before() -> None:
    plan = _plan(["s1", "s2"])
    head = seal(plan, "b", LedgerHead(4, "d4"))
    first, second = (plan.decided[s].receipts for s in ("s1", "s2"))
    assert [r["props"]["ledger_pos"] for r in first + second] == [5, 5, 6, 6]
    assert "ledger_digest" not in first[0]["props"]  # only the outcome receipt carries it
    assert first[1]["props"]["ledger_prev"] == "d4"
    assert second[1]["props"]["ledger_prev"] == first[1]["props"]["ledger_digest"]
    assert head == LedgerHead(6, second[1]["props"]["ledger_digest"])
    # the digest is recomputable from the sealed record alone
    sealed = second[1]["props"]
    parts = dict(p.split(":", 1) for p in sealed["ledger_parts"])
    recomputed = record_parts(
        set_props=plan.sets[1]["props"],
        committed=True,
        receipts=[r["props"] for r in second],
        entries=[({"id": "s2-e", "body": "b"}, ["t"])],
        next_from="s1",
    )
    assert part_digests(recomputed) == parts
    assert chain_digest("b", 6, sealed["ledger_prev"], content_digest(parts)) == head.digest


def test_a_sealed_digest_is_the_generic_one_whatever_the_boundary_id_holds() -> None:
    """Sealing writes the content and chain texts out directly: they are the canonical JSON of
    the documented maps, also for a boundary id that JSON escapes and for the first record (no
    previous digest), and a part with nothing in it has the digest of ``[]``."""
    boundary_id = 'team "7" \\ é\n'
    plan = _plan(["s1", "s2"])
    head = seal(plan, boundary_id, LedgerHead())
    prev = None
    for pos, set_id in enumerate(("s1", "s2"), start=1):
        sealed = plan.decided[set_id].receipts[-1]["props"]
        parts = dict(p.split(":", 1) for p in sealed["ledger_parts"])
        assert parts["halts"] == parts["flips"] == _sha("[]")
        content = _sha(json.dumps({"v": 1, **parts}, sort_keys=True, separators=(",", ":")))
        chained = {"boundary_id": boundary_id, "content": content, "pos": pos}
        if prev is not None:
            chained["prev"] = prev
        expected = _sha(
            json.dumps(chained, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        )
        assert sealed["ledger_prev"] == prev
        assert (
            sealed["ledger_digest"]
            == expected
            == chain_digest(boundary_id, pos, prev, content_digest(parts))
        )
        prev = expected
    assert head == LedgerHead(2, prev)


def _canon(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _held(props: dict[str, Any], fields: tuple[str, ...]) -> dict[str, Any]:
    return {f: props[f] for f in fields if props.get(f) is not None}


def _documented_list(maps: list[dict[str, Any]]) -> str:
    return "[" + ",".join(sorted(_canon(m) for m in maps)) + "]"


def _rich_plan() -> Plan:
    """A plan with something in every part: a commit with entries of each edge kind (one
    reaching another boundary), a flip, an adoption use, non-ASCII text, null values and
    unsorted repeated targets; a halt; a rejection; a second commit."""
    plan = Plan()
    at = "2026-01-02T03:04:05+00:00"

    def receipts(set_id: str, kinds: tuple[str, ...]) -> list[ReceiptRow]:
        reasons = ["writer_authority", "set_size", "dependency_cycle"]
        return [
            {
                "set_id": set_id,
                "props": {
                    "id": f"{set_id}/{kind}",
                    "kind": kind,
                    "at": at,
                    "reasons": reasons,
                    "refused_effects": [],
                    "detail": None,
                    "state_revision": 3,
                    "score": 0.25,
                    "summary": 'café ✓ "quoted"\n',
                },
            }
            for kind in kinds
        ]

    def entry(entry_id: str, targets: list[str], **extra: Any) -> EntryRow:
        props = {
            "id": entry_id,
            "boundary_id": "b",
            "class": "decision",
            "key": "k",
            "body": f"{entry_id}: naïve — résumé",
            "tokens": 4,
            "set_seq": 1,
            "expires_after_seq": None,
            "superseded_by_default": False,
            "initial_status": "live",
            "attributes": '{"x": 1}',
            "status": "live",  # not digested: a later set may change it
            "embedding_pending": True,
            **extra,
        }
        return {"labels": ["Decision"], "targets": targets, "props": props}

    s1 = plan.add_set(
        {
            "id": "s1",
            "prev_id": "s0",
            "props": {"id": "s1", "boundary_id": "b", "status": "ratified", "seq": 1,
                      "writer_ids": ["w2", "w1"], "kind": "state", "explicit": True,
                      "summary": None, "lineage": ["s0"], "work_seq": 1},
        }
    )  # fmt: skip
    s1.writers += [{"id": "w2", "kind": "agent"}, {"id": "w1", "kind": "agent"}]
    s1.receipts += receipts("s1", ("review", "commit"))
    s1.entries += [entry("e1", ["t2", "t1", "t2"]), entry("e2", [], verse="global")]
    plan.derived_from.append({"from": "e2", "to": "e1", "essential": True})
    plan.requires.append(
        {"from": "e2", "to": "e1", "policy": "soft", "lease_until_seq": 9, "lease_sets": None,
         "needs": ["why"], "set_seq": 1, "set_work": 1}
    )  # fmt: skip
    plan.summarizes.append({"from": "e2", "to": "e1", "seq": 1})
    plan.supersedes.append(
        {"from": "e1", "to": "e0", "reason": "next", "executed": True, "seq": 1, "rule": None}
    )
    plan.foreign_edges.append(
        {"edge": "derived_from", "from": "e1", "to": "x1", "to_boundary": "other",
         "essential": False, "policy": None, "lease_until_seq": None, "needs": [], "set_seq": 1}
    )  # fmt: skip
    plan.transitions.append(
        {"entry_id": "e0", "set_id": "s1", "from": "live", "to": "challenged",
         "from_label": "Live", "to_label": "Challenged", "resident": True, "was_resident": True,
         "reason": "doubt", "case": None, "failed_ancestors": ["a1"], "justification": [],
         "seq": 1}
    )  # fmt: skip
    plan.adoption_uses.append({"set_id": "s1", "receipt_id": "other/adopt/1", "seq": 1})
    s2 = plan.add_set(
        {"id": "s2", "prev_id": None,
         "props": {"id": "s2", "boundary_id": "b", "status": "halted", "kind": "state",
                   "seq": 1, "closed_at": at}}
    )  # fmt: skip
    s2.receipts += receipts("s2", ("review", "halt"))
    plan.halts.append(
        {"set_id": "s2",
         "props": {"id": "h2", "boundary_id": "b", "set_id": "s2", "reason_code": "DENSITY",
                   "detail": "too dense — ✗", "observed": 0.75, "parameter": None,
                   "status": "open"}}
    )  # fmt: skip
    s3 = plan.add_set(
        {"id": "s3", "prev_id": None,
         "props": {"id": "s3", "boundary_id": "b", "status": "rejected", "kind": "state"}}
    )  # fmt: skip
    s3.receipts += receipts("s3", ("rejection",))
    s4 = plan.add_set(
        {"id": "s4", "prev_id": "s1",
         "props": {"id": "s4", "boundary_id": "b", "status": "ratified", "seq": 2}}
    )  # fmt: skip
    s4.writers.append({"id": "w1", "kind": "agent"})
    s4.receipts += receipts("s4", ("review", "commit"))
    s4.entries.append(entry("e3", ["t1"]))
    return plan


def _edges_out(plan: Plan, ids: set[str]) -> list[dict[str, Any]]:
    """The edges out of the entries ``ids`` as the graph holds them (documented fields)."""
    rows: list[tuple[str, dict[str, Any]]] = [
        *(("DERIVED_FROM", dict(e)) for e in plan.derived_from),
        *(("REQUIRES", dict(e)) for e in plan.requires),
        *(("SUMMARIZES", dict(e)) for e in plan.summarizes),
        *(("SUPERSEDES", dict(e)) for e in plan.supersedes),
        *(
            (
                "DERIVED_FROM" if f["edge"] == "derived_from" else "REQUIRES",
                {**f, "boundary_id": f["to_boundary"]},
            )
            for f in plan.foreign_edges
        ),
    ]
    return [
        {"type": kind, "from": e["from"], "to": e["to"], **_held(e, EDGE_FIELDS[kind])}
        for kind, e in rows
        if e["from"] in ids
    ]


def _documented_parts(plan: Plan, set_id: str) -> dict[str, str]:
    """A record's parts as docs/ledger.md defines them, from what the plan writes."""
    row = next(r for r in plan.sets if r["id"] == set_id)
    decided = plan.decided[set_id]
    committed = row["props"]["status"] == "ratified"
    uses = [
        {"receipt_id": u["receipt_id"], "seq": u["seq"]}
        for u in plan.adoption_uses
        if u["set_id"] == set_id
    ]
    links: dict[str, Any] = {
        "writers": sorted({w["id"] for w in decided.writers}),
        "adoption_uses": sorted(uses, key=_canon),
    }
    if committed:
        links["next_from"] = row["prev_id"]
    outputs = {"ledger_digest", "ledger_prev", "ledger_parts"}
    receipts = [
        {k: v for k, v in r["props"].items() if v is not None and k not in outputs}
        for r in decided.receipts
    ]
    entries = [
        {**_held(e["props"], ENTRY_FIELDS), "targets": sorted(set(e["targets"]))}
        for e in decided.entries
    ]
    return {
        "set": _canon(_held(row["props"], SET_FIELDS if committed else SET_IDENTITY_FIELDS)),
        "receipts": _documented_list(receipts),
        "halts": _documented_list(
            [_held(h["props"], HALT_FIELDS) for h in plan.halts if h["set_id"] == set_id]
        ),
        "entries": _documented_list(entries),
        "edges": _documented_list(_edges_out(plan, {e["props"]["id"] for e in decided.entries})),
        "flips": _documented_list(
            [
                {"entry_id": t["entry_id"], **_held(dict(t), TRANSITION_FIELDS)}
                for t in plan.transitions
                if t["set_id"] == set_id
            ]
        ),
        "links": _canon(links),
    }


def _recorded_parts(plan: Plan, set_id: str) -> dict[str, str]:
    """``record_parts`` (verification's function) over what the plan writes."""
    row = next(r for r in plan.sets if r["id"] == set_id)
    decided = plan.decided[set_id]
    committed = row["props"]["status"] == "ratified"
    return record_parts(
        set_props=row["props"],
        committed=committed,
        receipts=[r["props"] for r in decided.receipts],
        halts=[h["props"] for h in plan.halts if h["set_id"] == set_id],
        entries=[(e["props"], e["targets"]) for e in decided.entries],
        edges=_edges_out(plan, {e["props"]["id"] for e in decided.entries}),
        flips=[t for t in plan.transitions if t["set_id"] == set_id],
        next_from=row["prev_id"] if committed else None,
        writers=[w["id"] for w in decided.writers],
        adoption_uses=[u for u in plan.adoption_uses if u["set_id"] == set_id],
    )


def test_every_part_a_plan_seals_is_the_documented_text() -> None:
    """Sealing writes each part's text straight from the plan: for every part, of a commit, a
    halt and a rejection, it is the canonical text docs/ledger.md defines (and the one
    ``record_parts``, verification's function, gives), and the digests chain as documented."""
    plan = _rich_plan()
    boundary_id = 'b "ü"'
    head = seal(plan, boundary_id, LedgerHead(7, "d7"))
    filled = {
        name
        for row in plan.sets
        for name, text in _documented_parts(plan, row["id"]).items()
        if text != "[]"
    }
    assert filled == set(PARTS)  # the plan puts something in every part
    prev: str | None = "d7"
    for pos, row in enumerate(plan.sets, start=8):
        parts = _documented_parts(plan, row["id"])
        assert _recorded_parts(plan, row["id"]) == parts
        digests = {name: _sha(text) for name, text in parts.items()}
        sealed = plan.decided[row["id"]].receipts[-1]["props"]
        assert sealed["ledger_parts"] == [f"{n}:{digests[n]}" for n in sorted(digests)]
        content = _sha(_canon({"v": 1, **digests}))
        digest = _sha(
            _canon({"boundary_id": boundary_id, "content": content, "pos": pos, "prev": prev})
        )
        assert (sealed["ledger_prev"], sealed["ledger_digest"]) == (prev, digest)
        prev = digest
    assert head == LedgerHead(11, prev)
