"""Residency's pure parts: fulltext neutralising, compaction set splitting, the hard-dependency
predicate, the czar's cadence and its worker, explored entries in the gate's plan, window order
(no database)."""

from __future__ import annotations

import threading
import time
from typing import Any

from kg_context.errors import StateError
from kg_context.gate.io.boundary import Boundary
from kg_context.gate.io.store import GateStore
from kg_context.gate.pure.constitution import load_constitution
from kg_context.gate.pure.contracts import EntryStatus, Proposal, Transition
from kg_context.gate.pure.decision import evaluate
from kg_context.gate.pure.predicates import SetView, residency_hold
from kg_context.gate.pure.set_constructor import ClosedSet
from kg_context.gate.pure.snapshot import EntryState, LockedBoundary, Snapshot
from kg_context.record.search import fulltext_query
from kg_context.residency.czar import CzarPlan
from kg_context.residency.czar_worker import CzarFailure, CzarWorker
from kg_context.residency.window import window
from kg_context.settings import EngineSettings

DEFAULT = load_constitution()


def _boundary(**kw: Any) -> LockedBoundary:
    base: dict[str, Any] = {
        "id": "b",
        "seq": 5,
        "verse": "local",
        "constitution_version": DEFAULT.version,
        "task_horizon": None,
        "live_count": 3,
        "requires_count": 1,
        "last_set_id": None,
        "committed_tokens": 30,
        "resident_tokens": 30,
    }
    return LockedBoundary(**{**base, **kw})


def _entry_state(entry_id: str, **kw: Any) -> EntryState:
    base: dict[str, Any] = {
        "id": entry_id,
        "boundary_id": "b",
        "key": entry_id,
        "status": "live",
        "entry_class": "fact",
        "writer_id": "agent",
        "resident": True,
    }
    return EntryState(**{**base, **kw})


def test_fulltext_query_keeps_words_and_drops_lucene_syntax() -> None:
    assert (
        fulltext_query('use AND "Postgres" (v1) OR -neo4j* ~x:y')
        == "use and Postgres v1 or neo4j x y"
    )
    assert fulltext_query("?!") == ""


def test_compaction_sets_split_transitions_and_interfaces() -> None:
    plan = CzarPlan(boundary_id="b", czar_id="czar", seq=9)
    plan.transitions = [
        Transition(entry_id=f"e{i}", to=EntryStatus.RETIRED, resident=False, reason="r")
        for i in range(12_000)
    ]
    plan.interfaces = [
        {
            "id": f"e{i}/interface",
            "class": "interface",
            "key": "k",
            "body": "x: 1",
            "derived_from": [{"entry_id": f"e{i}"}],
        }
        for i in range(130)
    ]
    proposals = plan.proposals(64)
    assert [len(p.transitions) for p in proposals] == [5000, 5000, 2000]
    assert [len(p.entries) for p in proposals] == [64, 64, 2]
    assert len({p.id for p in proposals}) == 3
    assert all(p.kind == "compaction" and p.writer_kind.value == "czar" for p in proposals)
    assert CzarPlan(boundary_id="b", czar_id="czar", seq=1).proposals(64) == []


def test_two_czars_planning_one_compaction_at_one_seq_propose_the_same_set() -> None:
    """The cadence czar and a manual run at the same seq: the same moves are the same proposal
    (the gate dedupes it by id), whatever else each plan noticed (a short soak once failed on one
    id with two contents: the summary counted the plan's expired leases)."""
    plans = [CzarPlan(boundary_id="b", czar_id="czar", seq=9) for _ in range(2)]
    for plan in plans:
        plan.transitions = [
            Transition(entry_id="e1", to=EntryStatus.RETIRED, resident=False, reason="r")
        ]
    plans[1].expired_leases = [{"from_id": "d", "to_id": "e1", "policy": "soft"}]
    first, second = (plan.proposals(64) for plan in plans)
    assert [p.model_dump() for p in first] == [p.model_dump() for p in second]


def _czar_view(*transitions: Transition, kind: str = "czar") -> SetView:
    proposal = Proposal.model_validate(
        {
            "id": "p",
            "boundary_id": "b",
            "writer_id": "czar",
            "writer_kind": kind,
            "set_id": "s",
            "transitions": [t.model_dump(mode="json") for t in transitions],
        }
    )
    return SetView(ClosedSet("s", True, (proposal,)), (), {}, False)


def test_residency_hold_halts_a_czar_retiring_what_a_staying_entry_holds_hard() -> None:
    snapshot = Snapshot(boundary=_boundary())
    snapshot.entries["base"] = _entry_state("base", hard_held_by=("holder",))
    snapshot.entries["holder"] = _entry_state("holder")
    retire_base = Transition(
        entry_id="base", to=EntryStatus.RETIRED, resident=False, reason="unreachable"
    )
    violation = residency_hold(_czar_view(retire_base), DEFAULT, snapshot)
    assert violation is not None
    assert (violation.outcome, violation.reason_code) == ("halt", "HARD_DEPENDENCY")
    retire_holder = Transition(
        entry_id="holder", to=EntryStatus.RETIRED, resident=False, reason="unreachable"
    )
    assert residency_hold(_czar_view(retire_base, retire_holder), DEFAULT, snapshot) is None
    assert residency_hold(_czar_view(retire_base, kind="operator"), DEFAULT, snapshot) is None


def test_the_cadence_is_due_once_the_seq_advanced_by_the_recorded_every() -> None:
    recorded = _boundary(czar_every_commits=10, czar_seq=20)
    assert [recorded.czar_due(w) for w in (20, 29, 30, 31)] == [False, False, True, True]
    assert not _boundary(czar_every_commits=0, czar_seq=0).czar_due(1_000)


def _czar_threads() -> set[threading.Thread]:
    return {t for t in threading.enumerate() if t.name == "kg-context-czar"}


def test_the_czar_worker_runs_each_signalled_boundary_once_beside_the_caller() -> None:
    gate = threading.Event()
    ran: list[tuple[str, str]] = []

    def run(boundary_id: str) -> None:
        gate.wait(5)
        ran.append((boundary_id, threading.current_thread().name))

    before = _czar_threads()
    worker = CzarWorker(run)
    worker.signal("a")  # runs at once, held at the gate
    worker.signal("b")
    worker.signal("b")  # queued twice before it ran: one run
    assert not worker.idle(timeout=0.05)  # the signal returned; the run is still going
    gate.set()
    assert worker.idle(timeout=5)
    assert ran == [("a", "kg-context-czar"), ("b", "kg-context-czar")]
    assert worker.runs == 2
    worker.close()
    worker.signal("c")  # closed: ignored
    assert worker.idle(timeout=1) and worker.runs == 2
    assert _czar_threads() <= before  # its thread joined (other engines may run their own)


def test_the_czar_worker_finishes_queued_runs_on_close_and_keeps_failures() -> None:
    ran: list[str] = []

    def run(boundary_id: str) -> None:
        if boundary_id == "bad":
            raise StateError("no boundary bad")
        time.sleep(0.02)
        ran.append(boundary_id)

    before = _czar_threads()
    worker = CzarWorker(run)
    for boundary_id in ("bad", "x", "y"):
        worker.signal(boundary_id)
    worker.close()  # drains the queue, then joins the thread
    assert ran == ["x", "y"]
    assert worker.failures == (CzarFailure("bad", "StateError: no boundary bad"),)
    assert _czar_threads() <= before  # its thread joined (other engines may run their own)


def test_explored_entries_are_planned_out_of_the_window_at_zero_cost() -> None:
    proposal = Proposal.model_validate(
        {
            "id": "p",
            "boundary_id": "b",
            "writer_id": "agent",
            "writer_kind": "agent",
            "targets": ["t"],
            "entries": [
                {
                    "class": "scratch",
                    "key": "try",
                    "body": "dead end",
                    "attributes": {"explored": True},
                },
                {"class": "goal", "key": "g", "body": "goal"},
            ],
        }
    )
    snapshot = Snapshot(boundary=_boundary())
    decisions, plan = evaluate(
        [ClosedSet("s", False, (proposal,))],
        snapshot,
        DEFAULT,
        lambda texts: [7 for _ in texts],
        now="2026-01-01T00:00:00+00:00",
        gateway_id="gate:b",
    )
    assert decisions[0].outcome == "commit"
    explored, goal = (row["props"] for row in plan.entries)
    assert (explored["status"], explored["resident"]) == ("explored", False)
    assert (goal["status"], goal["resident"]) == ("live", True)
    assert plan.boundary["committed_tokens"] == 30 + 14
    assert plan.boundary["resident_tokens"] == 30 + 7
    assert plan.boundary["live_count"] == 4


def test_interface_entries_plan_a_summarizes_edge() -> None:
    snapshot = Snapshot(boundary=_boundary())
    snapshot.entries["orig"] = _entry_state("orig", status="retired", resident=False)
    proposal = Proposal.model_validate(
        {
            "id": "p",
            "boundary_id": "b",
            "writer_id": "czar",
            "writer_kind": "czar",
            "set_id": "s",
            "kind": "compaction",
            "entries": [
                {
                    "id": "orig/interface",
                    "class": "interface",
                    "key": "orig",
                    "body": "owner: alice",
                    "derived_from": [{"entry_id": "orig"}],
                }
            ],
        }
    )
    decisions, plan = evaluate(
        [ClosedSet("s", True, (proposal,))],
        snapshot,
        DEFAULT,
        lambda texts: [3 for _ in texts],
        now="2026-01-01T00:00:00+00:00",
        gateway_id="gate:b",
    )
    assert decisions[0].outcome == "commit", decisions[0].detail
    assert plan.summarizes == [{"from": "orig/interface", "to": "orig", "seq": 6}]


def _handle(executor: Any) -> Boundary:
    """A boundary handle over a fake executor (no database): the receiver ``window`` takes."""
    store = GateStore(executor, lambda _: DEFAULT, lambda texts: [len(t) for t in texts])
    return Boundary(
        executor, store, "b", settings=EngineSettings(), constitution_for=lambda _: DEFAULT
    )


class _Rows:
    def __init__(self, rows: list[dict[str, Any]]) -> None:
        self.rows = rows

    def read(self, name: str, /, **params: Any) -> list[dict[str, Any]]:
        if name == "boundary/get":  # the boundary's constitution: its history index policy
            return [
                {
                    "id": "b",
                    "seq": 3,
                    "verse": "local",
                    "constitution_version": DEFAULT.version,
                    "task_horizon": None,
                    "created_at": "2026-01-01T00:00:00Z",
                    "work_seq": 3,
                    "czar_every_commits": 0,
                }
            ]
        if name == "window/index":
            assert params == {"boundary_id": "b", "resident_last": 16}
            return [{"set_id": "s3", "seq": 3, "kind": "state", "summary": "x", "tokens": 5}]
        assert name == "window/resident"
        assert params == {"boundary_id": "b", "scratch_class": "scratch"}
        return self.rows


def test_window_orders_by_class_then_seq_and_tags_recalls() -> None:
    def row(i: str, cls: str, seq: int, attributes: str = "{}") -> dict[str, Any]:
        return {
            "id": i,
            "class": cls,
            "key": i,
            "body": "b",
            "status": "live",
            "tokens": 2,
            "set_seq": seq,
            "set_id": "s",
            "attributes": attributes,
            "expires_after_seq": None,
        }

    rows = [
        row("s1", "scratch", 1, '{"recall_tag": "matched in set 1, retired"}'),
        row("f1", "fact", 3),
        row("d2", "decision", 2),
        row("d1", "decision", 1),
    ]
    current = window(_handle(_Rows(rows)))
    assert [e.id for e in current.entries] == ["d1", "d2", "f1", "s1"]
    assert current.total_tokens == 8
    assert current.entries[-1].tag == "live; recalled: matched in set 1, retired; one use"
    assert current.render().splitlines()[0] == "# Window of b: 4 entries, 8 tokens"
    assert [line.seq for line in current.index] == [3]
    assert (current.index_tokens, current.prompt_tokens) == (5, 13)
    assert current.render().splitlines()[-2:] == [
        "## history index (last 1 sets, 5 tokens)",
        "- 3 s3: x",
    ]


class _OneReadTransaction:
    """A ``QueryExecutor`` that answers the czar's planning reads only inside ``read_tx``: a
    read outside one transaction (or any write) fails the test."""

    def __init__(self, answers: dict[str, list[dict[str, Any]]]) -> None:
        self.answers = answers
        self.transactions = 0
        self.names: list[str] = []

    @property
    def database(self) -> str:
        return "neo4j"

    def read(self, name: str, /, **params: Any) -> list[dict[str, Any]]:
        raise AssertionError(f"{name} was read outside the planning transaction")

    def write(self, name: str, /, **params: Any) -> list[dict[str, Any]]:
        raise AssertionError(f"the czar's plan wrote {name}")

    def write_tx(self, work: Any) -> Any:
        raise AssertionError("the czar's plan opened a write transaction")

    def read_tx(self, work: Any) -> Any:
        self.transactions += 1
        outer = self

        class Tx:
            def run(self, name: str, /, **params: Any) -> list[dict[str, Any]]:
                outer.names.append(name)
                return outer.answers.get(name, [])

        return work(Tx())


def _resident(entry_id: str, status: str, resident: bool, writer: str = "w") -> dict[str, Any]:
    return {
        "id": entry_id,
        "class": "fact",
        "key": entry_id,
        "status": status,
        "resident": resident,
        "writer_id": writer,
        "set_seq": 1,
        "expires_after_seq": None,
        "superseded_by_default": False,
        "tokens": 3,
    }


def test_the_czar_plans_from_one_read_transaction_and_never_moves_an_entry_twice() -> None:
    """Every planning read runs in one read transaction (one snapshot), an
    entry its compaction moves is never also an unclear case, and no planned transition is one
    the status machine forbids."""
    from kg_context.residency.czar_plan import plan_compaction
    from kg_context.settings import ResidencySettings

    executor = _OneReadTransaction(
        {
            "boundary/get": [{"seq": 4, "work_seq": 4}],
            "residency/resident_entries": [
                {
                    "entries": [
                        _resident("old", "live", True),
                        _resident("gone", "superseded", True),
                        # a root the window keeps (a plan that would empty it is guarded)
                        {**_resident("root", "live", True), "class": "goal"},
                    ]
                }
            ],
            "czar/unexecuted_supersessions": [
                {
                    "old_id": "old",
                    "old_key": "cache",
                    "new_id": "new",
                    "new_key": "caching",
                    "new_status": "live",
                    "seq": 2,
                    "reason": "renamed",
                },
            ],
            "residency/reachable": [{"roots": ["root"], "sources": [], "held": [], "others": []}],
        }
    )
    plan = plan_compaction(executor, "b", DEFAULT, settings=ResidencySettings())  # type: ignore[arg-type]
    assert executor.transactions == 1 and "boundary/get" in executor.names
    moved = {t.entry_id: t for t in plan.transitions}
    assert set(moved) == {"old", "gone"}  # unreachable: retired; not standing: out of the window
    assert plan.unclear_transitions == [] and plan.unclear == []  # the rename is moot
    assert moved["gone"].to is None and moved["gone"].resident is False  # superseded: no retire
