"""The governed commit against the real Neo4j: supersession, every predicate, receipts, halts,
resubmission and malformed input (issue: governed commit)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from kg_context.errors import AuthorizationError, InputValidationError, StateError
from kg_context.gate.pure.constitution import load_constitution
from kg_context.gate.pure.contracts import MAX_BODY_CHARS, RESIDENT_LABEL, STATUS_LABELS
from tests.factories import entry, proposal

DEFAULT = load_constitution()


def _entries(engine: Any, boundary_id: str) -> dict[str, dict[str, Any]]:
    rows = engine.executor.read("audits/boundary_entries", boundary_id=boundary_id)
    return {row["id"]: row for row in rows}


def _label_drift(engine: Any, boundary_id: str) -> list[Any]:
    rows: list[Any] = engine.executor.read(
        "audits/status_label_drift",
        boundary_id=boundary_id,
    )
    return rows


def test_the_browser_style_styles_every_status_label() -> None:
    grass = (Path(__file__).resolve().parents[2] / "browser" / "kg-context.grass").read_text()
    for label in [*STATUS_LABELS.values(), RESIDENT_LABEL]:
        assert f"node.{label} " in grass, label


def _fingerprint(engine: Any, boundary_id: str) -> tuple[Any, ...]:
    """Everything a halt or rejection must not change: entries, edges, the boundary's seq."""
    entries = _entries(engine, boundary_id)
    counts = engine.executor.read("audits/record_counts", boundary_id=boundary_id)[0]
    return (
        sorted((i, e["status"], e["resident"]) for i, e in entries.items()),
        counts["seq"],
        counts["entries"],
        counts["entry_edges"],
    )


def test_a_set_with_a_supersession_commits_and_flips_the_old_entry(
    engine: Any, boundary_id: str
) -> None:
    boundary = engine.boundary(boundary_id)
    first = boundary.commit(
        proposal(boundary_id, entry(key="db", body="Use Postgres", id=f"{boundary_id}-e1"))
    )
    assert (first.outcome, first.seq) == ("commit", 1)
    second = boundary.commit(
        proposal(
            boundary_id,
            entry(
                key="db",
                body="Use Neo4j: the model is a graph",
                id=f"{boundary_id}-e2",
                supersedes=[{"entry_id": f"{boundary_id}-e1", "reason": "graph model"}],
                derived_from=[{"entry_id": f"{boundary_id}-e1", "essential": True}],
            ),
            entry(cls="constraint", key="latency", body="p99 < 50 ms"),
        )
    )
    assert (second.outcome, second.seq) == ("commit", 2)
    assert second.constitution_version == DEFAULT.version

    entries = _entries(engine, boundary_id)
    old, new = entries[f"{boundary_id}-e1"], entries[f"{boundary_id}-e2"]
    assert (old["status"], old["resident"]) == ("superseded", False)
    assert (new["status"], new["resident"]) == ("live", True)
    assert {"Entry", "Decision", "Live", "Resident"} <= set(new["labels"])
    assert "Superseded" in old["labels"] and not {"Live", "Resident"} & set(old["labels"])
    assert _label_drift(engine, boundary_id) == []
    assert new["tokens"] > 0 and new["set_seq"] == 2
    assert engine.executor.read("audits/superseded_still_resident", boundary_id=boundary_id) == []

    chain = engine.executor.read("audits/supersession_chain", boundary_id=boundary_id)
    assert [(c["new_id"], c["old_id"], c["reason"], c["executed"]) for c in chain] == [
        (f"{boundary_id}-e2", f"{boundary_id}-e1", "graph model", True)
    ]
    ledger = engine.executor.read("audits/ledger", boundary_id=boundary_id)
    assert [(s["seq"], s["status"]) for s in ledger] == [(1, "ratified"), (2, "ratified")]
    assert ledger[1]["previous_set_id"] == ledger[0]["set_id"]
    for row in ledger:
        kinds = {r["kind"]: r for r in row["receipts"]}
        assert set(kinds) == {"review", "commit"}
        assert kinds["commit"]["constitution_version"] == DEFAULT.version
        assert kinds["commit"]["state_revision"] == row["seq"]
    state = boundary.state()
    assert state.seq == 2


def test_resubmitting_a_committed_proposal_returns_the_original_receipt(
    engine: Any, boundary_id: str
) -> None:
    boundary = engine.boundary(boundary_id)
    data = proposal(boundary_id, entry(key="k", body="once"))
    original = boundary.commit(data)
    again = boundary.commit(data)
    assert again.replayed and not original.replayed
    assert (again.receipt_id, again.set_id, again.seq) == (
        original.receipt_id,
        original.set_id,
        original.seq,
    )
    assert boundary.close() == []  # nothing pending: a retried close commits nothing twice
    counts = engine.executor.read("audits/record_counts", boundary_id=boundary_id)[0]
    assert (counts["seq"], counts["entries"], counts["sets"]) == (1, 1, 1)


def test_a_replayed_commit_closes_nothing_else(engine: Any, boundary_id: str) -> None:
    """commit() records and decides in one locked transaction; for a proposal decided before it
    returns the recorded decision and leaves what others left pending to their close."""
    boundary = engine.boundary(boundary_id)
    data = proposal(boundary_id, entry(key="k", body="once"))
    original = boundary.commit(data)
    waiting = proposal(boundary_id, entry(key="w", body="waits"))
    boundary.submit(waiting)
    again = boundary.commit(data)
    assert again.replayed and again.receipt_id == original.receipt_id
    assert boundary.decision(waiting["id"]) is None  # still pending
    (closed,) = boundary.close()
    assert (closed.proposal_ids, closed.outcome, closed.seq) == ((waiting["id"],), "commit", 2)


def test_a_reused_proposal_id_with_other_content_is_refused(engine: Any, boundary_id: str) -> None:
    boundary = engine.boundary(boundary_id)
    data = proposal(boundary_id, entry(body="first"))
    boundary.commit(data)
    changed = {**data, "entries": [entry(body="second")]}
    with pytest.raises(InputValidationError, match="already recorded with other content"):
        boundary.commit(changed)


def _seed(engine: Any, boundary_id: str, **kw: Any) -> Any:
    boundary = engine.boundary(boundary_id, **kw)
    boundary.commit(
        proposal(boundary_id, entry(key="db", body="Postgres", id=f"{boundary_id}-base"))
    )
    return boundary


# (reason code, outcome, proposal builder given the boundary id)
PREDICATE_CASES: list[tuple[str, str, Any]] = [
    ("NO_PLACEMENT", "reject", lambda b: proposal(b, entry(), targets=[])),
    (
        "CLASS_NOT_ALLOWED",
        "reject",
        lambda b: proposal(b, entry(cls="decision"), writer_id="tool-1", writer_kind="tool"),
    ),
    ("BODY_TOO_LARGE", "reject", lambda b: proposal(b, entry(body="word " * 9000))),
    ("ENTRY_ID_TAKEN", "reject", lambda b: proposal(b, entry(id=f"{b}-base", key="db"))),
    ("MISSING_PROVENANCE", "reject", lambda b: proposal(b, entry(cls="fact", body="2+2=4"))),
    ("MISSING_LEASE", "reject", lambda b: proposal(b, entry(cls="open_question"))),
    (
        "MISSING_LEASE",
        "reject",
        lambda b: proposal(b, entry(cls="rejected_alternative", expires_after=100_000)),
    ),
    (
        "UNKNOWN_DEPENDENCY",
        "reject",
        lambda b: proposal(b, entry(derived_from=[{"entry_id": f"{b}-ghost"}])),
    ),
    (
        "UNKNOWN_DEPENDENCY",
        "reject",
        lambda b: proposal(b, entry(requires=[{"entry_id": f"{b}-ghost", "policy": "hard"}])),
    ),
    (
        "SUPERSESSION_TARGET",
        "halt",
        lambda b: proposal(
            b, entry(key="db", supersedes=[{"entry_id": f"{b}-ghost", "reason": "r"}])
        ),
    ),
    (
        "SUPERSESSION_TARGET",
        "halt",
        lambda b: proposal(
            b, entry(key="other-key", supersedes=[{"entry_id": f"{b}-base", "reason": "r"}])
        ),
    ),
    (
        "VERSE_ADOPTION",
        "halt",
        lambda b: proposal(b, entry(verse="global", key="g", body="public weather")),
    ),
    (
        "DENSITY",
        "halt",
        lambda b: proposal(
            b,
            *[
                entry(key=f"k{i}", requires=[{"entry_id": f"{b}-base"}] * 1 + [], id=f"{b}-d{i}")
                for i in range(65)
            ],
        ),
    ),
]


@pytest.mark.parametrize(
    ("code", "outcome", "build"),
    PREDICATE_CASES,
    ids=[f"{c}-{i}" for i, (c, _, _) in enumerate(PREDICATE_CASES)],
)
def test_each_predicate_trips_with_its_code_and_changes_nothing_but_the_record(
    engine: Any, boundary_id: str, code: str, outcome: str, build: Any
) -> None:
    boundary = _seed(engine, boundary_id)
    before = _fingerprint(engine, boundary_id)
    counts_before = engine.executor.read("audits/record_counts", boundary_id=boundary_id)[0]
    decision = boundary.commit(build(boundary_id))
    assert (decision.outcome, decision.reason_code) == (outcome, code), decision.detail
    assert decision.seq is None and decision.entry_ids == ()
    assert _fingerprint(engine, boundary_id) == before
    counts = engine.executor.read("audits/record_counts", boundary_id=boundary_id)[0]
    assert counts["receipts"] == counts_before["receipts"] + 2  # review + halt/rejection
    assert counts["halts"] == counts_before["halts"] + (1 if outcome == "halt" else 0)
    ledger = {
        s["set_id"]: s for s in engine.executor.read("audits/ledger", boundary_id=boundary_id)
    }
    refused = ledger[decision.set_id]
    assert refused["status"] == ("halted" if outcome == "halt" else "rejected")
    kinds = {r["kind"] for r in refused["receipts"]}
    assert kinds == {"review", "halt" if outcome == "halt" else "rejection"}
    if outcome == "halt":
        halt = engine.halts.show(decision.halt_id).halt
        assert halt.reason_code == code and halt.status == "open"
        assert halt.suggested_amendment


def test_supersession_of_an_entry_that_is_no_longer_live_halts(
    engine: Any, boundary_id: str
) -> None:
    boundary = _seed(engine, boundary_id)
    base = f"{boundary_id}-base"
    replace = entry(key="db", body="Neo4j", supersedes=[{"entry_id": base, "reason": "r"}])
    assert boundary.commit(proposal(boundary_id, replace)).outcome == "commit"
    again = entry(key="db", body="Neo4j 5", supersedes=[{"entry_id": base, "reason": "r"}])
    decision = boundary.commit(proposal(boundary_id, again))
    assert decision.reason_code == "SUPERSESSION_TARGET"
    assert "superseded, not live" in (decision.detail or "")


def test_supersession_across_boundaries_halts(engine: Any, boundary_id: str) -> None:
    _seed(engine, boundary_id)
    other_id = f"{boundary_id}-other"
    other = engine.boundary(other_id)
    decision = other.commit(
        proposal(
            other_id,
            entry(key="db", supersedes=[{"entry_id": f"{boundary_id}-base", "reason": "r"}]),
        )
    )
    # a bare id names an entry of the proposal's own boundary: the other boundary's does not exist
    assert decision.reason_code == "SUPERSESSION_TARGET"
    assert "which does not exist" in (decision.detail or "")


def test_two_explicit_sets_on_one_target_are_decided_in_order_not_halted_for_it(
    engine: Any, boundary_id: str
) -> None:
    """Sharing a target is not fragmentation by itself (the FRAGMENTATION predicate evaluates
    set-level invariants over the fragment group: tests/integration/test_fragmentation.py)."""
    boundary = _seed(engine, boundary_id)
    boundary.submit(
        [
            proposal(
                boundary_id, entry(key="migration"), set_id=f"{boundary_id}-A", targets=["db"]
            ),
            proposal(boundary_id, entry(key="query"), set_id=f"{boundary_id}-B", targets=["db"]),
        ]
    )
    decisions = boundary.close()
    assert [(d.set_id, d.outcome, d.seq) for d in decisions] == [
        (f"{boundary_id}-A", "commit", 2),
        (f"{boundary_id}-B", "commit", 3),
    ]


def test_proposals_sharing_a_target_or_dependency_close_into_one_set(
    engine: Any, boundary_id: str
) -> None:
    boundary = engine.boundary(boundary_id)
    first = proposal(boundary_id, entry(key="a", id=f"{boundary_id}-a"), targets=["db"])
    second = proposal(boundary_id, entry(key="b"), targets=["db"])
    third = proposal(
        boundary_id,
        entry(key="c", derived_from=[{"entry_id": f"{boundary_id}-a"}]),
        targets=["api"],
    )
    alone = proposal(boundary_id, entry(key="d"), targets=["ui"])
    decisions = boundary.commit_many([first, second, third, alone])
    assert [d.outcome for d in decisions] == ["commit", "commit"]
    assert set(decisions[0].proposal_ids) == {first["id"], second["id"], third["id"]}
    assert decisions[1].proposal_ids == (alone["id"],)
    assert [d.seq for d in decisions] == [1, 2]


def test_verse_adoption_receipt_lets_global_material_in(engine: Any, boundary_id: str) -> None:
    boundary = _seed(engine, boundary_id)
    receipt = engine.adopt(boundary_id, operator_id="operator", reason="vetted", keys=["g"])
    decision = boundary.commit(
        proposal(boundary_id, entry(verse="global", key="g"), adoption_receipt_id=receipt)
    )
    assert decision.outcome == "commit"


def test_density_ratio_of_requires_edges_per_live_entry_halts(
    engine: Any, boundary_id: str
) -> None:
    """Over-declaration: every new entry requires all 20 earlier ones. Each set stays under the
    fan-out limit, so the edges-per-live-entry ratio is what trips, before the window grows."""
    boundary = engine.boundary(boundary_id)
    ids = [f"{boundary_id}-n{i}" for i in range(20)]
    boundary.commit(proposal(boundary_id, *[entry(key=f"n{i}", id=e) for i, e in enumerate(ids)]))
    outcomes = []
    for j in range(10):
        needs_all = entry(key=f"m{j}", requires=[{"entry_id": i} for i in ids])
        # each on its own target: not fragments of one change (FRAGMENTATION), so the ratio trips
        decision = boundary.commit(proposal(boundary_id, needs_all, targets=[f"m{j}"]))
        outcomes.append(decision.reason_code or decision.outcome)
        if decision.outcome != "commit":
            break
    # 20k edges over 20 + k live entries passes 4.0 at the sixth such set
    assert outcomes == ["commit"] * 5 + ["DENSITY"]
    assert "per live entry" in (decision.detail or "")
    assert boundary.state().seq == 6


def test_czar_may_not_compact_its_own_writing(engine: Any, boundary_id: str) -> None:
    boundary = engine.boundary(boundary_id)
    boundary.commit(
        proposal(
            boundary_id,
            entry(cls="scratch", key="x", id=f"{boundary_id}-own"),
            writer_id="czar",
            writer_kind="czar",
        )
    )
    decision = boundary.commit(
        proposal(
            boundary_id,
            entry(cls="interface", key="x-if", derived_from=[{"entry_id": f"{boundary_id}-own"}]),
            writer_id="czar",
            writer_kind="czar",
        )
    )
    assert (decision.outcome, decision.reason_code) == ("reject", "CZAR_INDEPENDENCE")


def test_append_only_boundary_records_supersession_without_executing_it(
    engine: Any, boundary_id: str
) -> None:
    text = (
        engine.constitutions.get(DEFAULT.version)
        .text.replace("append_only_below = 0", "append_only_below = 50")
        .replace(f'version = "{DEFAULT.version}"', f'version = "ao-{boundary_id[-8:]}"')
    )
    from kg_context.gate.pure.constitution import parse_constitution

    boundary = _seed(engine, boundary_id, task_horizon=10, constitution=parse_constitution(text))
    decision = boundary.commit(
        proposal(
            boundary_id,
            entry(key="db", supersedes=[{"entry_id": f"{boundary_id}-base", "reason": "r"}]),
        )
    )
    assert decision.outcome == "commit"
    base = _entries(engine, boundary_id)[f"{boundary_id}-base"]
    assert base["status"] == "live"
    chain = engine.executor.read("audits/supersession_chain", boundary_id=boundary_id)
    assert [c["executed"] for c in chain] == [False]


@pytest.mark.parametrize(
    ("mutate", "words"),
    [
        (lambda p: p.pop("writer_id"), "writer_id"),
        (lambda p: p.update(writer_kind=7), "writer_kind"),
        # a class name that cannot be one (a well-formed one the constitution does not declare is
        # the gate's UNDECLARED_CLASS rejection: test_ontology_growth)
        (lambda p: p["entries"][0].update({"class": "Manifesto:Set"}), "class"),
        (lambda p: p["entries"][0].update(body="x" * (MAX_BODY_CHARS + 1)), "body"),
        (lambda p: p["entries"][0].update(body="é" * 1_048_576), "body"),
        (lambda p: p.update(entries=[]), "entries"),
        (lambda p: p.update(id="bad id with spaces"), "id"),
        (lambda p: p.update(surprise=True), "surprise"),
        (lambda p: p.update(writer_id="w'}) MATCH (n) DETACH DELETE n //"), "writer_id"),
        (lambda p: p.update(set_id='s"}) CREATE (:Pwned) //'), "set_id"),
        (lambda p: p["entries"][0].update(id="e`) DETACH DELETE n"), "entries.0.id"),
    ],
)
def test_malformed_input_is_a_typed_error_and_stores_nothing(
    engine: Any, boundary_id: str, mutate: Any, words: str
) -> None:
    boundary = engine.boundary(boundary_id)
    data = proposal(boundary_id, entry())
    mutate(data)
    with pytest.raises(InputValidationError, match=words):
        boundary.commit(data)
    counts = engine.executor.read("audits/record_counts", boundary_id=boundary_id)[0]
    assert (counts["proposals"], counts["sets"], counts["entries"]) == (0, 0, 0)


INJECTIONS = [
    "'}) MATCH (n) DETACH DELETE n //",
    '"}) CREATE (:Pwned) RETURN 1 //',
    "$boundary_id `x` \\u0000 ${{}}",
    "Grüße, 日本語, emoji 🧠, RTL \u202e, zero-width \u200b",
]


@pytest.mark.parametrize("text", INJECTIONS)
def test_injection_strings_in_every_text_field_are_stored_verbatim(
    engine: Any, boundary_id: str, text: str
) -> None:
    boundary = engine.boundary(boundary_id)
    data = proposal(
        boundary_id,
        entry(
            key=text,
            body=text,
            attributes={"source": text, "note": text},
            requires=[],
        ),
        targets=[text],
        summary=text,
    )
    decision = boundary.commit(data)
    assert decision.outcome == "commit"
    (stored,) = _entries(engine, boundary_id).values()
    assert (stored["key"], stored["body"]) == (text, text)
    record = engine.executor.read(
        "audits/proposal_record", boundary_id=boundary_id, proposal_id=data["id"]
    )[0]
    import json

    payload = json.loads(record["payload"])
    assert payload["summary"] == text and payload["targets"] == [text]
    assert payload["entries"][0]["attributes"] == {"note": text, "source": text}
    assert engine.executor.read("audits/pwned_nodes") == [{"pwned": 0}]


def test_operator_approves_a_halt_and_the_set_commits(engine: Any, boundary_id: str) -> None:
    boundary = _seed(engine, boundary_id)
    halted = boundary.commit(proposal(boundary_id, entry(verse="global", key="g")))
    assert halted.reason_code == "VERSE_ADOPTION"
    result = engine.halts.resolve(
        halted.halt_id, "approve", operator_id="operator", reason="vetted by hand"
    )
    assert result.decision is not None and result.decision.outcome == "commit"
    assert result.decision.seq == 2
    halt = engine.halts.show(halted.halt_id).halt
    assert (halt.status, halt.resolution, halt.resolved_by) == (
        "resolved",
        "approve",
        "operator",
    )
    assert halt.resolution_seconds is not None and halt.resolution_seconds >= 0
    assert engine.halts.list(boundary_id) == []  # no open halts left
    with pytest.raises(StateError, match="not open"):
        engine.halts.resolve(halted.halt_id, "reject", operator_id="operator", reason="late")
    receipts = {
        r["kind"]
        for s in engine.executor.read("audits/ledger", boundary_id=boundary_id)
        if s["set_id"] == halted.set_id
        for r in s["receipts"]
    }
    assert {"halt", "resolution", "commit"} <= receipts


def test_operator_rejects_a_halt(engine: Any, boundary_id: str) -> None:
    boundary = _seed(engine, boundary_id)
    before = _fingerprint(engine, boundary_id)
    halted = boundary.commit(proposal(boundary_id, entry(verse="global", key="g")))
    result = engine.halts.resolve(halted.halt_id, "reject", operator_id="operator", reason="no")
    assert result.resolution == "reject"
    assert _fingerprint(engine, boundary_id) == before
    ledger = {
        s["set_id"]: s for s in engine.executor.read("audits/ledger", boundary_id=boundary_id)
    }
    assert ledger[halted.set_id]["status"] == "rejected"


def test_operator_amends_the_constitution_and_the_set_commits_under_it(
    engine: Any, boundary_id: str
) -> None:
    boundary = _seed(engine, boundary_id)
    halted = boundary.commit(
        proposal(
            boundary_id,
            *[
                entry(key=f"k{i}", requires=[{"entry_id": f"{boundary_id}-base"}])
                for i in range(65)
            ],
        )
    )
    assert halted.reason_code == "DENSITY"
    amended = (
        engine.constitutions.get(DEFAULT.version)
        .text.replace("max_set_fanout = 64", "max_set_fanout = 100")
        .replace(f'version = "{DEFAULT.version}"', f'version = "amend-{boundary_id[-12:]}"')
    )
    result = engine.halts.resolve(
        halted.halt_id,
        "amend",
        operator_id="operator",
        reason="fan-out too strict",
        amendment=amended,
    )
    assert result.constitution_decision is not None
    assert result.constitution_decision.outcome == "commit"
    assert result.decision is not None and result.decision.outcome == "commit"
    assert result.decision.constitution_version == f"amend-{boundary_id[-12:]}"
    assert boundary.state().constitution_version == f"amend-{boundary_id[-12:]}"


def test_constitution_changes_only_through_an_operator_set(engine: Any, boundary_id: str) -> None:
    boundary = engine.boundary(boundary_id)
    text = engine.constitutions.get(DEFAULT.version).text.replace(
        f'version = "{DEFAULT.version}"', f'version = "c-{boundary_id[-12:]}"'
    )
    with pytest.raises(AuthorizationError, match="operator's act"):
        boundary.propose_constitution(text, writer_id="bot", reason="try", writer_kind="agent")  # type: ignore[arg-type]
    with pytest.raises(AuthorizationError, match="'bot' is not an operator"):
        boundary.propose_constitution(text, writer_id="bot", reason="try")
    bad = boundary.propose_constitution("version = 3", writer_id="operator", reason="typo")
    assert (bad.outcome, bad.reason_code) == ("reject", "INVALID_CONSTITUTION")
    same = boundary.propose_constitution(
        engine.constitutions.get(DEFAULT.version).text, writer_id="operator", reason="x"
    )
    assert same.reason_code == "CONSTITUTION_VERSION_TAKEN"
    ok = boundary.propose_constitution(text, writer_id="operator", reason="new rules")
    assert (ok.outcome, ok.seq) == ("commit", 1)
    assert boundary.state().constitution_version == f"c-{boundary_id[-12:]}"
    after = boundary.commit(proposal(boundary_id, entry()))
    assert after.constitution_version == f"c-{boundary_id[-12:]}"


def _transition(boundary_id: str, entry_id: str, writer_kind: str, writer_id: str, **t: Any) -> Any:
    return {
        "id": f"{boundary_id}-t-{writer_id}-{entry_id[-6:]}-{t.get('to')}",
        "boundary_id": boundary_id,
        "writer_id": writer_id,
        "writer_kind": writer_kind,
        "targets": ["compaction"],
        "transitions": [{"entry_id": entry_id, "reason": "test", **t}],
    }


def test_a_czar_retires_an_entry_through_the_gate_and_the_record_keeps_it(
    engine: Any, boundary_id: str
) -> None:
    boundary = engine.boundary(boundary_id)
    base = f"{boundary_id}-base"
    fact = entry(cls="fact", key="db", body="Postgres", id=base, attributes={"source": "t"})
    boundary.commit(proposal(boundary_id, fact))  # a fact no root requires: unreachable
    decision = boundary.commit(
        _transition(
            boundary_id,
            base,
            "czar",
            "czar",
            to="retired",
            resident=False,
            case="UNREACHABLE",
            justification=["no root path"],
        )
    )
    assert (decision.outcome, decision.seq) == ("commit", 2)
    retired = _entries(engine, boundary_id)[base]
    assert (retired["status"], retired["resident"]) == ("retired", False)
    assert "Retired" in retired["labels"] and not {"Live", "Resident"} & set(retired["labels"])
    assert _label_drift(engine, boundary_id) == []
    counts = engine.executor.read("audits/record_counts", boundary_id=boundary_id)[0]
    assert counts["entries"] == 1  # retirement is a status flip, never a deletion
    moves = engine.executor.read("audits/transitions", boundary_id=boundary_id)
    assert [(m["entry_id"], m["from"], m["to"], m["case"], m["justification"]) for m in moves] == [
        (base, "live", "retired", "UNREACHABLE", ["no root path"])
    ]


@pytest.mark.parametrize(
    ("writer_kind", "first", "then", "code"),
    [
        ("tool", None, {"to": "retired"}, "TRANSITION_NOT_ALLOWED"),
        ("agent", None, {"resident": False}, "TRANSITION_NOT_ALLOWED"),
        ("operator", {"to": "invalidated"}, {"to": "revalidated"}, "ILLEGAL_TRANSITION"),
        ("operator", None, {"to": "explored"}, "ILLEGAL_TRANSITION"),
    ],
)
def test_illegal_or_unauthorized_transitions_are_rejected(
    engine: Any, boundary_id: str, writer_kind: str, first: Any, then: Any, code: str
) -> None:
    boundary = _seed(engine, boundary_id)
    base = f"{boundary_id}-base"
    if first:
        assert boundary.commit(
            _transition(boundary_id, base, "operator", "operator", **first)
        ).outcome == ("commit")
    before = _fingerprint(engine, boundary_id)
    writer = "operator" if writer_kind == "operator" else f"{writer_kind}-2"
    decision = boundary.commit(_transition(boundary_id, base, writer_kind, writer, **then))
    assert (decision.outcome, decision.reason_code) == ("reject", code)
    assert _fingerprint(engine, boundary_id) == before


def test_a_czar_may_not_retire_what_it_wrote(engine: Any, boundary_id: str) -> None:
    boundary = engine.boundary(boundary_id)
    mine = f"{boundary_id}-mine"
    boundary.commit(
        proposal(
            boundary_id,
            entry(cls="scratch", key="s", id=mine),
            writer_id="czar",
            writer_kind="czar",
        )
    )
    decision = boundary.commit(_transition(boundary_id, mine, "czar", "czar", to="retired"))
    assert decision.reason_code == "CZAR_INDEPENDENCE"
