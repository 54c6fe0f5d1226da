"""A hostile writer cannot race a receipt, lock the operators out, squat the czar's ids, claim a
set kind it was not given, stop another boundary's compaction with one pin, or split a change to
evade a set-level invariant (against the real Neo4j). Set kinds, ids and the authority to act
are the gate's, decided from the graph and the constitution, never from the writer's text."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from kg_context.errors import AuthorizationError, ReservedIdError
from kg_context.gate.pure.constitution import load_constitution, parse_constitution
from kg_context.residency.czar import run_czar
from kg_context.residency.czar_plan import plan_compaction
from tests.factories import CROSS_BOUNDARY_ALL, constitution_variant, entry, proposal

DEFAULT = load_constitution()


def _entries(engine: Any, boundary_id: str) -> dict[str, dict[str, Any]]:
    rows = engine.executor.read("audits/boundary_entries", boundary_id=boundary_id)
    return {row["id"]: row for row in rows}


def _fact(entry_id: str, key: str, **extra: Any) -> dict[str, Any]:
    return entry(cls="fact", id=entry_id, key=key, attributes={"source": "test"}, **extra)


def _rules(tag: str, *replacements: tuple[str, str]) -> str:
    text = DEFAULT.text.replace(f'version = "{DEFAULT.version}"', f'version = "{tag}"')
    for old, new in replacements:
        assert old in text, old
        text = text.replace(old, new)
    return text


OPERATORS = 'operators = ["operator"]'


# -- a one-use receipt ----------------------------------------------------------------------------
def _race(handles: list[Any], proposals: list[dict[str, Any]]) -> list[tuple[str, str | None]]:
    """Each boundary commits its proposal in a thread of its own, all released at once."""
    barrier = threading.Barrier(len(handles))
    outcomes: list[tuple[str, str | None]] = []
    errors: list[BaseException] = []

    def commit(boundary: Any, body: dict[str, Any]) -> None:
        barrier.wait()
        try:
            decision = boundary.commit(body)
            outcomes.append((decision.outcome, decision.reason_code))
        except BaseException as err:  # noqa: BLE001 - reported by the assertion below
            errors.append(err)

    threads = [
        threading.Thread(target=commit, args=pair) for pair in zip(handles, proposals, strict=True)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    return outcomes


def test_one_use_adoption_receipt_is_spent_once_under_a_race(
    czar_free_engine: Any, boundary_id: str
) -> None:
    """Six boundaries allow ``derived_from`` across; six threads behind a barrier each cite one
    one-use receipt of O: exactly one commits, the other five are rejected CROSS_BOUNDARY."""
    engine = czar_free_engine
    origin_id = f"{boundary_id}-o"
    origin = engine.boundary(origin_id)
    fact_id = f"{origin_id}/f"
    assert origin.commit(proposal(origin_id, _fact(fact_id, "f"))).outcome == "commit"
    rules = constitution_variant(f"race-{boundary_id[-12:]}", CROSS_BOUNDARY_ALL)
    citing = [engine.boundary(f"{boundary_id}-c{i}", constitution=rules) for i in range(6)]
    ref = {"entry_id": fact_id, "boundary_id": origin_id, "essential": True}
    for round_ in range(3):
        receipt = engine.adopt(origin_id, operator_id="operator", reason="r", keys=["f"], uses=1)
        bodies = [
            proposal(
                boundary.id,
                entry(key=f"client-{round_}", derived_from=[ref]),
                pid=f"{boundary.id}/r{round_}",
                adoption_receipt_id=receipt,
            )
            for boundary in citing
        ]
        outcomes = _race(citing, bodies)
        assert sorted(outcomes) == [("commit", None)] + [("reject", "CROSS_BOUNDARY")] * 5, (
            round_,
            outcomes,
        )
    assert engine.executor.read("audits/adoption_overuse", boundary_id=origin_id) == []


# -- the operators cannot lock themselves out ---------------------------------------------------
@pytest.mark.parametrize(
    "operators", ["operators = []", 'operators = ["nobody-holds-this"]'], ids=["none", "unheld"]
)
def test_a_constitution_that_leaves_no_operator_who_can_act_is_refused(
    engine: Any, boundary_id: str, operators: str
) -> None:
    """A constitution naming no operator, or only an id no registered operator writer holds, is
    refused, so an operator act stays possible."""
    boundary = engine.boundary(boundary_id)
    tag = f"lock-{boundary_id[-12:]}"
    locked = boundary.propose_constitution(
        _rules(tag, (OPERATORS, operators)), writer_id="operator", reason="lock"
    )
    assert (locked.outcome, locked.reason_code) == ("reject", "NO_OPERATOR"), locked
    assert "operator" in (locked.detail or "") and "name" in (locked.detail or "")
    assert boundary.state().constitution_version == DEFAULT.version
    handed = boundary.propose_constitution(
        _rules(f"{tag}-b", (OPERATORS, 'operators = ["operator", "op-2"]')),
        writer_id="operator",
        reason="a second operator, the first one kept",
    )
    assert handed.outcome == "commit", handed
    halted = boundary.commit(proposal(boundary_id, entry(verse="global", key="g")))
    resolved = engine.halts.resolve(halted.halt_id, "approve", operator_id="operator", reason="ok")
    assert resolved.decision is not None and resolved.decision.outcome == "commit"


def test_an_operator_hands_over_only_to_an_operator_registered_in_the_boundary(
    engine: Any, boundary_id: str
) -> None:
    boundary = engine.boundary(boundary_id)
    tag = f"hand-{boundary_id[-12:]}"
    both = _rules(tag, (OPERATORS, 'operators = ["operator", "op-2"]'))
    assert boundary.propose_constitution(both, writer_id="operator", reason="r").outcome == "commit"
    only_new = _rules(f"{tag}-b", (OPERATORS, 'operators = ["op-2"]'))
    early = boundary.propose_constitution(only_new, writer_id="operator", reason="hand over")
    assert (early.outcome, early.reason_code) == ("reject", "NO_OPERATOR")
    acted = boundary.commit(
        proposal(boundary_id, entry(key="op"), writer_id="op-2", writer_kind="operator")
    )
    assert acted.outcome == "commit", acted
    later = boundary.propose_constitution(
        _rules(f"{tag}-c", (OPERATORS, 'operators = ["op-2"]')),
        writer_id="operator",
        reason="hand over",
    )
    assert later.outcome == "commit", later


# -- an amendment resolving a halt is one act ---------------------------------------------------
def _halted_with_second_operator(engine: Any, boundary_id: str) -> tuple[Any, Any]:
    boundary = engine.boundary(boundary_id)
    both = _rules(f"am-{boundary_id[-12:]}", (OPERATORS, 'operators = ["operator", "op-2"]'))
    assert boundary.propose_constitution(both, writer_id="operator", reason="r").outcome == "commit"
    registered = boundary.commit(
        proposal(boundary_id, entry(key="op"), writer_id="op-2", writer_kind="operator")
    )
    assert registered.outcome == "commit", registered
    halted = boundary.commit(proposal(boundary_id, entry(verse="global", key="g")))
    assert halted.reason_code == "VERSE_ADOPTION"
    return boundary, halted


def test_an_amendment_that_fails_to_redecide_its_halted_set_rolls_back(
    engine: Any, boundary_id: str
) -> None:
    """An amendment (dropping the resolving operator) whose re-decision of the halted set is refused
    writes nothing of the act: the constitution version and seq stay as they were, and the halt
    stays open."""
    boundary, halted = _halted_with_second_operator(engine, boundary_id)
    before = boundary.state()
    amendment = _rules(
        f"am-{boundary_id[-12:]}-b",
        (OPERATORS, 'operators = ["op-2"]'),
        ('adoption_required_for = ["global"]', "adoption_required_for = []"),
    )
    with pytest.raises(AuthorizationError, match="operator"):
        engine.halts.resolve(
            halted.halt_id, "amend", operator_id="operator", reason="r", amendment=amendment
        )
    after = boundary.state()
    assert (after.constitution_version, after.seq) == (
        before.constitution_version,
        before.seq,
    )
    assert engine.halts.show(halted.halt_id).halt.status == "open"


def test_an_amendment_that_changes_authority_resolves_its_halt_in_the_same_act(
    engine: Any, boundary_id: str
) -> None:
    boundary, halted = _halted_with_second_operator(engine, boundary_id)
    tag = f"am-{boundary_id[-12:]}-c"
    amendment = _rules(
        tag,
        (OPERATORS, 'operators = ["operator"]'),
        ('adoption_required_for = ["global"]', "adoption_required_for = []"),
    )
    done = engine.halts.resolve(
        halted.halt_id, "amend", operator_id="operator", reason="r", amendment=amendment
    )
    assert done.constitution_decision is not None
    assert done.constitution_decision.outcome == "commit"
    assert done.decision is not None and done.decision.outcome == "commit", done.decision
    assert done.decision.seq == done.constitution_decision.seq + 1
    assert boundary.state().constitution_version == tag
    assert engine.halts.show(halted.halt_id).halt.status == "resolved"


# -- the czar's ids ------------------------------------------------------------------------------
def test_a_writer_cannot_squat_the_czars_next_proposal_or_set_id(
    czar_free_engine: Any, boundary_id: str
) -> None:
    """A writer that commits under the id and set id the czar's next plan would use does not make
    ``run_czar`` raise 'already recorded with other content'."""
    engine = czar_free_engine
    boundary = engine.boundary(boundary_id)
    loose = f"{boundary_id}/loose"
    added = boundary.commit(proposal(boundary_id, entry(key="goal"), _fact(loose, "loose")))
    assert added.outcome == "commit", added
    plan = plan_compaction(
        boundary.executor,
        boundary_id,
        boundary.constitution(),
        settings=boundary.settings.residency,
    )
    (next_id,) = [p.id for p in plan.proposals(boundary.constitution().density.max_set_fanout)]
    before = boundary.state().seq
    for squat in (
        proposal(boundary_id, _fact(f"{boundary_id}/s1", "s"), pid=next_id, set_id=next_id),
        proposal(boundary_id, _fact(f"{boundary_id}/s2", "s"), set_id=next_id),
        proposal(boundary_id, _fact(f"{boundary_id}/s3", "s"), pid=next_id, targets=["t"]),
    ):
        with pytest.raises(ReservedIdError, match="reserved") as refused:
            boundary.commit(squat)
        assert refused.value.reason_code == "RESERVED_ID"
    assert boundary.state().seq == before
    report = run_czar(boundary)
    assert [d.outcome for d in report.decisions] == ["commit"], report.summary()
    assert _entries(engine, boundary_id)[loose]["status"] == "retired"


# -- one pin does not stop a compaction ----------------------------------------------------------
def test_one_foreign_pin_does_not_stop_another_boundarys_compaction(
    czar_free_engine: Any, boundary_id: str
) -> None:
    """Another boundary hard-requiring one fact of O (with O's receipt) holds that fact only: O's
    compaction set does not halt HARD_DEPENDENCY on every run, and the other 20 facts retire."""
    engine = czar_free_engine
    origin_id = f"{boundary_id}-o"
    origin = engine.boundary(origin_id)
    facts = [f"{origin_id}/f{i}" for i in range(21)]
    added = origin.commit(
        proposal(origin_id, entry(key="goal"), *[_fact(f, f"f{i}") for i, f in enumerate(facts)])
    )
    assert added.outcome == "commit", added
    rules = constitution_variant(f"pin-{boundary_id[-12:]}", CROSS_BOUNDARY_ALL)
    other = engine.boundary(boundary_id, constitution=rules)
    receipt = engine.adopt(origin_id, operator_id="operator", reason="r", keys=["f0"])
    ref = {"entry_id": facts[0], "boundary_id": origin_id, "policy": "hard"}
    pinned = other.commit(
        proposal(boundary_id, entry(key="uses-f0", requires=[ref]), adoption_receipt_id=receipt)
    )
    assert pinned.outcome == "commit", pinned
    for _ in range(2):  # a second run finds nothing more to retire, and halts nothing
        report = run_czar(origin)
        assert all(d.outcome == "commit" for d in report.decisions), report.summary()
        assert report.summary()["held"] == [facts[0]]
    states = _entries(engine, origin_id)
    assert (states[facts[0]]["status"], states[facts[0]]["resident"]) == ("live", True)
    assert [states[f]["status"] for f in facts[1:]] == ["retired"] * 20
    assert engine.halts.list(origin_id) == []


# -- set kinds are the gate's --------------------------------------------------------------------
def test_only_the_czar_may_propose_a_compaction_set(engine: Any, boundary_id: str) -> None:
    """An agent cannot declare its sets ``kind: compaction`` (which would move the seq but not the
    lease clock, work_seq, so soft leases would never end)."""
    boundary = engine.boundary(boundary_id)
    before = boundary.state()
    stopped = boundary.commit(proposal(boundary_id, entry(key="k"), kind="compaction"))
    assert (stopped.outcome, stopped.reason_code) == ("reject", "SET_KIND"), stopped
    assert "czar" in (stopped.detail or "")
    assert boundary.state().seq == before.seq
    as_operator = boundary.commit(
        proposal(
            boundary_id,
            entry(key="k"),
            writer_id="operator",
            writer_kind="operator",
            kind="compaction",
        )
    )
    assert (as_operator.outcome, as_operator.reason_code) == ("reject", "SET_KIND")


def test_only_an_operator_act_creates_a_constitution_set(engine: Any, boundary_id: str) -> None:
    """A writer cannot put a set of kind ``constitution`` in the ledger (the history would read
    'constitution by planner-a')."""
    boundary = engine.boundary(boundary_id)
    for writer_id, kind in (("planner-a", "agent"), ("operator", "operator")):
        forged = boundary.commit(
            proposal(
                boundary_id,
                entry(cls="pin", key="constitution", body='version = "x"'),
                writer_id=writer_id,
                writer_kind=kind,
                kind="constitution",
            )
        )
        assert (forged.outcome, forged.reason_code) == ("reject", "SET_KIND"), forged
    with pytest.raises(ReservedIdError, match="reserved"):
        boundary.commit(
            proposal(
                boundary_id, entry(key="k"), pid=f"{boundary_id}/constitution/0123456789abcdef"
            )
        )
    assert boundary.state().seq == 0
    assert boundary.state().constitution_version == DEFAULT.version


# -- fragmentation -------------------------------------------------------------------------------
def _narrow(engine: Any, boundary_id: str) -> Any:
    text = _rules(f"frag-{boundary_id[-12:]}", ("max_set_fanout = 64", "max_set_fanout = 6"))
    return engine.boundary(boundary_id, constitution=parse_constitution(text))


def _base(boundary: Any, boundary_id: str) -> list[str]:
    ids = [f"{boundary_id}/base-{i}" for i in range(4)]
    done = boundary.commit(
        proposal(boundary_id, *[entry(id=i, key=f"b{n}") for n, i in enumerate(ids)], writer_id="s")
    )
    assert done.outcome == "commit"
    return ids


def _half(boundary_id: str, name: str, base: list[str], writer: str, targets: list[str]) -> Any:
    """An explicit set declaring 4 edges on the base (within a fan-out limit of 6)."""
    return proposal(
        boundary_id,
        entry(key=name, requires=[{"entry_id": b} for b in base]),
        writer_id=writer,
        set_id=f"{boundary_id}/{name}",
        targets=targets,
    )


def test_fragmentation_is_not_evaded_by_a_second_writer_id(engine: Any, boundary_id: str) -> None:
    """The second half sent under a second self-registered writer id does not commit."""
    boundary = _narrow(engine, boundary_id)
    base = _base(boundary, boundary_id)
    first = boundary.commit(_half(boundary_id, "mig", base, "w1", ["db"]))
    second = boundary.commit(_half(boundary_id, "q", base, "w1-shadow", ["db"]))
    assert first.outcome == "commit"
    assert (second.outcome, second.reason_code) == ("halt", "FRAGMENTATION"), second
    assert "8 edges" in (second.detail or "")


def test_fragmentation_is_not_evaded_by_a_set_without_a_target(
    engine: Any, boundary_id: str
) -> None:
    """The second half sent under its own set id and no target does not commit: it shares the first
    half's dependencies, so it is evaluated with it."""
    boundary = _narrow(engine, boundary_id)
    base = _base(boundary, boundary_id)
    first = boundary.commit(_half(boundary_id, "mig", base, "w", ["db"]))
    second = boundary.commit(_half(boundary_id, "q", base, "w", []))
    assert first.outcome == "commit"
    assert (second.outcome, second.reason_code) == ("halt", "FRAGMENTATION"), second
    unplaced = boundary.commit(
        proposal(boundary_id, entry(key="z", requires=[{"entry_id": b} for b in base]), targets=[])
    )
    assert (unplaced.outcome, unplaced.reason_code) == ("reject", "NO_PLACEMENT")


def test_a_pending_proposal_of_another_writer_does_not_stop_the_czars_commit(
    czar_free_engine: Any, boundary_id: str
) -> None:
    """With a writer's proposal left pending (submitted, not closed), the czar's ``commit()``
    decides every batch it finds pending (the pending set and the czar's own set, each in a
    transaction of its own) and does not raise 'recorded but not decided yet'."""
    engine = czar_free_engine
    boundary = engine.boundary(boundary_id)
    loose = f"{boundary_id}/loose"
    added = boundary.commit(proposal(boundary_id, entry(key="goal"), _fact(loose, "loose")))
    assert added.outcome == "commit", added
    bad = entry(cls="interface", key="sink", derived_from=[{"entry_id": loose}])
    boundary.submit(proposal(boundary_id, bad, targets=["elsewhere"], pid=f"{boundary_id}/sink"))
    report = run_czar(boundary)
    assert [d.outcome for d in report.decisions] == ["commit"], report.summary()
    assert _entries(engine, boundary_id)[loose]["status"] == "retired"
