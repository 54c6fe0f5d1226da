"""The gate's guarantees hold for generated proposal sequences (hypothesis),
valid, invalid and hostile, interleaved across writers and two boundaries, against the real
Neo4j. The sequences interleave the czar's runs and an operator's halt resolutions with the
proposals, and hostile moves against the engine (``fuzz_hostile.py``: the gate's set kinds and
reserved ids claimed, a constitution leaving no operator, a change split to evade fragmentation,
a one-use adoption receipt cited twice, revocations), each asserting its typed refusal.

After every step of a sequence, what changed is exactly what the committed sets declared: the
boundary's seq moved by the number of commits, the new entries are exactly theirs, and no other
entry changed status, residency or out-edges unless a committed set transitioned or superseded it
(declared, or by the constitution's [on_revision] rule, which supersedes only live resident
entries and takes them out of the window: a later set of the step that declared a move of one
may move it on as the status machine allows, superseded to invalidated for instance; a copy its
[on_dependency] rule rehydrates is a new entry of the set, and leaves the window with the
committed work set that spends its one use), so no rejected or halted input changed anything
but its record. After every sequence, in both boundaries, nothing is left pending, a well-formed
set from a fresh writer commits (no wedge), the running counts equal the recomputed ones, every
must-be-empty audit is empty, and both ledgers verify (what ``kg-context audit verify`` checks).
The boundaries keep no czar cadence: the czar runs as a step.

``make test`` runs a short variant (``KG_CONTEXT_FUZZ_EXAMPLES``, default 200); ``make fuzz`` the
long one (10,000 sequences, fixed seed ``KG_CONTEXT_FUZZ_SEED``); ``KG_CONTEXT_FUZZ_REPORT``
names a JSON file for the counts (sequences, proposals, steps by kind, outcomes by reason code,
what each hostile move saw, ledgers verified, wall time).
The examples are split over ``KG_CONTEXT_FUZZ_SHARDS`` tests (default 4; shard ``i`` runs its
share under the seed ``SEED + i``), so parallel workers share them; the counts are this
process's.
"""

from __future__ import annotations

import json
import os
import time
import uuid
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, seed, settings

from kg_context.engine import Engine
from kg_context.errors import InputValidationError
from kg_context.gate.pure.status_machine import is_legal
from kg_context.record.audits import audit_library
from kg_context.residency.czar import run_czar
from kg_context.residency.metrics import stats
from kg_context.settings import EmbeddingSettings, EngineSettings
from kg_context.vocabulary import EntryStatus, HaltStatus
from tests.integration.fuzz_hostile import HostileMoves
from tests.integration.fuzz_world import (
    HOSTILE_MODES,
    NARROW,
    Generator,
    Step,
    World,
    seed_proposals,
    sequences,
)

EXAMPLES = int(os.environ.get("KG_CONTEXT_FUZZ_EXAMPLES", "200"))
SEED = int(os.environ.get("KG_CONTEXT_FUZZ_SEED", "20261024"))
REPORT = os.environ.get("KG_CONTEXT_FUZZ_REPORT")
SHARDS = max(1, min(EXAMPLES, int(os.environ.get("KG_CONTEXT_FUZZ_SHARDS", "4"))))
TALLY: Counter[str] = Counter()
# What `kg-context audit all` runs: every audit whose header says `Expect: empty`.
INVARIANTS = sorted((a for a in audit_library().values() if a.must_be_empty), key=lambda a: a.name)


STARTED: list[float] = []


def _figures(complete: bool) -> dict[str, Any]:
    return {
        "seed": SEED,
        # max_examples asked of hypothesis; "sequences" counts the generated sequences that ran
        # to the end (every step, the no-wedge follow-up and the audits), "calls" every call of
        # the test, "proposals" the proposals those sequences sent to the gate.
        "examples_requested": EXAMPLES,
        "invariant_audits": [a.name for a in INVARIANTS],
        "wall_seconds": round(time.monotonic() - STARTED[0], 1),
        "complete": complete,
        **dict(sorted(TALLY.items())),
    }


def _write(figures: dict[str, Any]) -> None:
    if REPORT:
        Path(REPORT).write_text(json.dumps(figures, indent=2, sort_keys=True) + "\n")


@pytest.fixture(scope="session", autouse=True)
def report() -> Iterator[None]:
    """Counts of the run: printed, and written to KG_CONTEXT_FUZZ_REPORT when set (also every
    100 sequences while it runs, ``complete: false``)."""
    TALLY.clear()
    STARTED[:] = [time.monotonic()]
    yield
    figures = _figures(complete=True)
    print("\ngate property test:", json.dumps(figures, sort_keys=True))
    _write(figures)


@pytest.fixture(scope="session")
def gate_engine(neo4j_target: Any) -> Iterator[Engine]:
    """The test database with embedding on commit off: the properties are the gate's decisions,
    and the embedding model's work after each commit is not the gate's (it would spend most of a
    sequence's time)."""
    settings = EngineSettings(embedding=EmbeddingSettings(on_commit=False))
    with Engine.connect(neo4j_target, check_schema=False, settings=settings) as connected:
        yield connected


def _fingerprint(engine: Engine, world: World) -> dict[str, Any]:
    row = engine.executor.read("audits/entry_fingerprint", boundary_ids=[world.a, world.b])[0]
    out: dict[str, Any] = {b["id"]: {"seq": b["seq"], "entries": {}} for b in row["boundaries"]}
    for e in row["entries"]:
        out[e["boundary_id"]]["entries"][e["id"]] = (e["status"], e["resident"], e["out"])
    return out


def _touched(proposals: list[dict[str, Any]]) -> set[str]:
    """The entries a committed set may change: what it transitions or supersedes."""
    ids = {t["entry_id"] for p in proposals for t in p.get("transitions", [])}
    ids |= {
        s["entry_id"]
        for p in proposals
        for e in p.get("entries", [])
        for s in e.get("supersedes", [])
        if "boundary_id" not in s
    }
    return ids


def _ruled(committed: list[Any]) -> set[str]:
    """The entries a constitution rule superseded in the committed sets (``<rule>: <new id>
    supersedes <old id>``, by ``[on_revision]`` or ``[key_families]``; ids hold no spaces). A
    supersession ``[on_supersession]`` recorded changes nothing, and the copies
    ``[on_dependency]`` rehydrated are new entries of the set."""
    return {
        made.rsplit(" supersedes ", 1)[1]
        for d in committed
        for made in d.rule_made
        if " supersedes " in made and not made.endswith("recorded, not executed")
    }


def _spent_copy(entry_id: str, now: tuple[Any, ...], committed: list[Any]) -> bool:
    """A copy the constitution's [on_dependency] rule made (its id is the gate's form) that a
    committed set retired out of the window: the work set that spent its one use."""
    return "@rehydrated-" in entry_id and bool(committed) and now[:2] == ("retired", False)


def _check_step(
    before: dict[str, Any],
    after: dict[str, Any],
    bid: str,
    other: str,
    committed: list[Any],
    declared: set[str],
) -> None:
    """Only the committed sets changed anything (see the module docstring): what their
    proposals declared moving (``declared``) and what a constitution rule superseded."""
    touched = declared | _ruled(committed)
    assert after[other] == before[other], "a step in one boundary changed the other"
    was, now = before[bid], after[bid]
    assert now["seq"] - was["seq"] == len(committed)
    new = set(now["entries"]) - set(was["entries"])
    assert new == {i for d in committed for i in d.entry_ids}, "entries outside committed sets"
    for entry_id, (status, resident, out) in was["entries"].items():
        current = now["entries"][entry_id]
        assert current[2] == out, f"{entry_id} gained or lost out-edges"
        if current[:2] != (status, resident) and not _spent_copy(entry_id, current, committed):
            assert entry_id in touched, f"{entry_id} moved without a committed set moving it"
    for entry_id in _ruled(committed) & set(was["entries"]):
        # A rule supersedes only what stood live in the window, and takes it out; a later set of
        # the same step that declared a move of it may move the superseded entry on, as the
        # status machine allows (superseded -> retired, at_risk or invalidated).
        assert was["entries"][entry_id][:2] in {("live", True), ("revalidated", True)}
        status, resident = now["entries"][entry_id][:2]
        assert (status, resident) == ("superseded", False) or (
            entry_id in declared and is_legal(EntryStatus.SUPERSEDED.value, EntryStatus(status))
        ), (entry_id, status, resident)


class Run:
    """One generated sequence against the real gate."""

    def __init__(self, engine: Engine, tally: Counter[str] = TALLY) -> None:
        self.engine = engine
        self.tally = tally  # the run's counts (the report's, unless given)
        tag = uuid.uuid4().hex[:12]
        self.world = World(a=f"fz-{tag}-A", b=f"fz-{tag}-B")
        # No cadence: the czar runs as a step of the sequence only (a cadence run, beside the
        # writers, would move a boundary between a step's two fingerprints).
        self.handles = [
            engine.boundary(self.world.a, constitution=NARROW, czar_every_commits=0),
            engine.boundary(self.world.b, czar_every_commits=0),
        ]
        self.declared: list[list[str]] = [[], []]
        for boundary in self.handles:
            seeds = seed_proposals(boundary.id)
            decisions = boundary.commit_many(seeds)
            assert [d.outcome for d in decisions] == ["commit"] * len(seeds), decisions
        w = self.world
        adopt = engine.adopt
        w.receipts["own"] = adopt(w.a, operator_id="operator", reason="f", keys=["g"])
        w.receipts["cross-" + w.b] = adopt(w.b, operator_id="operator", reason="f", keys=["dec"])
        w.receipts["cross-" + w.a] = adopt(
            w.a, operator_id="operator", reason="f", keys=["dec"], uses=2
        )
        self.hostile = HostileMoves(engine, w, self.handles, self._tally_hostile)

    def step(self, step: Step) -> None:
        boundary, bid = self.handles[step.which], self.world.boundary(step.which)
        before = _fingerprint(self.engine, self.world)
        committed, declared = self._act(step, boundary)
        after = _fingerprint(self.engine, self.world)
        _check_step(before, after, bid, self.world.other(step.which), committed, declared)

    def _act(self, step: Step, boundary: Any) -> tuple[list[Any], set[str]]:
        if step.mode == "czar":
            report = run_czar(boundary)
            self._tally(report.decisions)
            moved = {
                t.entry_id for t in (*report.plan.transitions, *report.plan.unclear_transitions)
            }
            return [d for d in report.decisions if d.outcome == "commit"], moved
        if step.mode in ("approve", "reject"):
            return self._resolve(boundary, step.mode)
        if step.mode in HOSTILE_MODES:  # nothing of what a hostile move sends moves an entry
            decisions = self.hostile.act(step.mode, step.which, step.specs[0][1])
            self._tally(decisions)
            return [d for d in decisions if d.outcome == "commit"], set()
        gen = Generator(self.world, step.which, self.declared[step.which])
        proposals = [p for category, n in step.specs for p in gen.make(category, n)]
        for category, _ in step.specs:
            self.tally[f"category:{category}"] += 1
        self.tally["proposals"] += len(proposals)
        self.world.set_ids.extend(p["set_id"] for p in proposals if "set_id" in p)
        decisions = self._send(boundary, step.mode, proposals)
        self._tally(decisions)
        by_id = {p["id"]: p for p in proposals}
        committed = [d for d in decisions if d.outcome == "commit"]
        declared = _touched([by_id[i] for d in committed for i in d.proposal_ids])
        return committed, declared

    def _send(self, boundary: Any, mode: str, proposals: list[dict[str, Any]]) -> list[Any]:
        try:
            if mode == "many":
                return list(boundary.commit_many(proposals))
            if mode == "each":
                return list({d.set_id: d for d in map(boundary.commit, proposals)}.values())
            boundary.submit(proposals)
            return list(boundary.close())
        except InputValidationError:  # malformed at the edge: nothing stored at all
            self.tally["input_errors"] += 1
            return []

    def _resolve(self, boundary: Any, how: str) -> tuple[list[Any], set[str]]:
        halts = self.engine.halts.list(boundary.id, HaltStatus.OPEN, 1)
        if not halts:
            return [], set()
        view = self.engine.halts.show(halts[0].id)
        result = self.engine.halts.resolve(halts[0].id, how, operator_id="operator", reason="f")
        self.tally[f"resolution:{how}"] += 1
        decisions = [result.decision] if result.decision is not None else []
        self._tally(decisions)
        committed = [d for d in decisions if d.outcome == "commit"]
        moved = _touched([json.loads(p.payload()) for p in view.proposals]) if committed else set()
        return committed, moved

    def _tally_hostile(self, mode: str, what: str) -> None:
        self.tally[f"hostile:{mode}:{what}"] += 1

    def _tally(self, decisions: Any) -> None:
        for d in decisions:
            self.tally[f"outcome:{d.outcome}"] += 1
            self.tally[f"code:{d.reason_code or 'COMMIT'}"] += 1
            self.tally["rule_made"] += len(d.rule_made)

    def finish(self) -> None:
        """No wedge: in one transaction per boundary, whatever is still pending is decided and
        a well-formed set from a fresh writer commits (so nothing was left pending: the batch
        holds that set only); then the counts and the audits."""
        for boundary in self.handles:
            fresh = f"fresh-{uuid.uuid4().hex[:8]}"
            follow = {
                "id": f"{boundary.id}/{fresh}",
                "boundary_id": boundary.id,
                "writer_id": fresh,
                "writer_kind": "agent",
                "targets": [fresh],
                "entries": [{"class": "decision", "key": fresh, "body": "well formed"}],
            }
            decisions = boundary.commit_many([follow])
            assert [(d.outcome, d.proposal_ids) for d in decisions] == [
                ("commit", (follow["id"],))
            ], ("wedged or left pending", decisions)
            current = stats(boundary)
            assert current.resident_tokens == current.resident_tokens_recomputed
        found = self.engine.executor.read_tx(self._audits)
        assert {k: v for k, v in found.items() if v} == {}
        for boundary in self.handles:  # what `kg-context audit verify` checks
            verified = boundary.verify_ledger()
            assert verified.ok, (boundary.id, verified.findings[:3])
            self.tally["ledger_verified"] += 1

    def _audits(self, tx: Any) -> dict[str, Any]:
        """Every must-be-empty audit of the library (``cypher/audits/``, what ``kg-context audit
        all`` runs), for both boundaries, in one read transaction."""
        found: dict[str, Any] = {}
        for boundary in self.handles:
            for audit in INVARIANTS:
                params = (
                    {"boundary_id": boundary.id} if "boundary_id" in audit.parameter_names else {}
                )
                found[f"{boundary.id}:{audit.name}"] = tx.run(f"audits/{audit.name}", **params)
        self.tally["audit_runs"] += len(found)
        return found


def _examples(shard: int) -> int:
    """Shard ``shard``'s share of ``EXAMPLES`` (the shares add up to it)."""
    return EXAMPLES // SHARDS + (1 if shard < EXAMPLES % SHARDS else 0)


@pytest.mark.parametrize("shard", range(SHARDS))
def test_no_wedge_no_change_but_the_record_and_the_audits_stay_empty(
    gate_engine: Engine, shard: int
) -> None:
    engine = gate_engine

    @seed(SEED + shard)
    @settings(
        max_examples=_examples(shard),
        deadline=None,
        database=None,
        phases=(Phase.explicit, Phase.generate, Phase.shrink),
        suppress_health_check=[HealthCheck.too_slow],
    )
    @given(steps=sequences)
    def one_sequence(steps: list[Step]) -> None:
        TALLY["calls"] += 1
        run = Run(engine)
        for step in steps:
            run.step(step)
            TALLY[f"step:{step.mode}"] += 1
        run.finish()
        TALLY["sequences"] += 1
        if TALLY["sequences"] % 100 == 0:
            _write(_figures(complete=False))

    one_sequence()


# Numbers that reach every variant of every hostile move (each move picks its variant from the
# number's low bits: see fuzz_hostile.py), a writer revoked twice included.
EVERY_VARIANT = (0, 1, 2, 3, 4, 5, 12, 16, 17)
SEEN = (
    "set_kind:reject:SET_KIND",
    *(
        f"reserved_id:squatted:{name}"
        for name in ("czar_id", "czar_set_id", "constitution_id", "other_czar", "czar_next_plan")
    ),
    *(f"reserved_id:sent:{how}" for how in ("commit", "commit_many", "submit")),
    "no_operator:reject:NO_OPERATOR",
    "no_operator:refused:AuthorizationError",
    "fragment_evade:halt:FRAGMENTATION",
    "fragment_evade:shadow_writer",
    "fragment_evade:no_target",
    "adoption_twice:halt:ADOPTION_SCOPE",
    "adoption_twice:reject:CROSS_BOUNDARY",
    "revoke:reject:WRITER_REVOKED",
    "revoke:reject:ADOPTION_REVOKED",
    "revoke:refused:NOT_OPERATOR",
    "revoke:refused:NOT_AUTHORIZED",
    "revoke:refused:writer_revoked_already",
)


def test_every_hostile_move_is_refused_as_typed_and_changes_nothing_else(
    gate_engine: Engine,
) -> None:
    """Every variant of every hostile move, in both boundaries, one after another in one world
    (so later moves meet what earlier ones revoked), then the czar in both: each move gives its
    typed refusal (asserted by the move), every step changes only what committed sets declared,
    and the sequence ends with the audits empty and the ledgers verifying."""
    seen: Counter[str] = Counter()
    run = Run(gate_engine, seen)
    for mode in HOSTILE_MODES:
        for which in (0, 1):
            for n in EVERY_VARIANT:
                run.step(Step(which, mode, (("hostile", n),)))
    for which in (0, 1):
        run.step(Step(which, "czar"))
    run.finish()
    assert [k for k in SEEN if not seen[f"hostile:{k}"]] == []
    assert seen["ledger_verified"] == 2


def test_a_later_set_of_a_step_may_move_on_what_a_rule_superseded(gate_engine: Engine) -> None:
    """One step, two sets: a new decision on the key of a live decision (the [on_revision] rule
    supersedes it), then an operator's transition of that decision to invalidated, written when
    it stood live (superseded -> invalidated is legal). Both commit, the receipt names the
    rule, the entry ends invalidated and out of the window, and the step check holds: the rule
    took it out of the window, and the later set that declared the move moved it on."""
    run = Run(gate_engine, Counter())
    a, b = run.world.a, run.world.b
    before = _fingerprint(gate_engine, run.world)
    proposals = [
        {
            "id": f"{a}/revise",
            "boundary_id": a,
            "writer_id": "w1",
            "writer_kind": "agent",
            "targets": ["t-db"],
            "entries": [{"id": f"{a}/dec-2", "class": "decision", "key": "db", "body": "v2"}],
        },
        {
            "id": f"{a}/fail-it",
            "boundary_id": a,
            "writer_id": "operator",
            "writer_kind": "operator",
            "targets": ["t-api"],
            "transitions": [{"entry_id": f"{a}/dec", "to": "invalidated", "reason": "wrong"}],
        },
    ]
    decisions = run.handles[0].commit_many(proposals)
    assert [d.outcome for d in decisions] == ["commit", "commit"]
    assert decisions[0].rule_made == (f"on_revision=supersede: {a}/dec-2 supersedes {a}/dec",)
    after = _fingerprint(gate_engine, run.world)
    assert after[a]["entries"][f"{a}/dec"][:2] == ("invalidated", False)
    _check_step(before, after, a, b, decisions, _touched(proposals))
    with pytest.raises(AssertionError):  # without the declared move, the rule's line alone
        _check_step(before, after, a, b, decisions, set())
