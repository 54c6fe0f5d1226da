"""The ledger's canonical form (pure): the text each digest is taken of, how records chain, and
the sealing of a plan, checked against the definition in docs/ledger.md recomputed here with
hashlib and json directly."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from kg_context.gate.ledger import (
    PARTS,
    LedgerHead,
    canonical_json,
    chain_digest,
    content_digest,
    part_digests,
    record_parts,
    seal,
)
from kg_context.gate.rows import Plan


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
