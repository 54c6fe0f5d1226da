"""The scripted multi-agent session behind ``make demo``, end to end on the real database.

Three specialists answer tasks over many attention waves (scored, broadcast, their winners
through the gate); a planner commits goals, decisions and plans and revises them by declared
supersession; the gate halts what it must (one halt resolved by an operator, one left in the
queue); the czar compacts; an invalidation walks its blast radius; a recall brings retired
material back through the gate. Then a short report, and the Browser URL with three queries.
Everything goes through the engine's public API; every id is prefixed with the boundary id.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable
from typing import Any

from rich.console import Console

from kg_context.attention import WorkspaceAttention
from kg_context.cli.demo_report import report
from kg_context.engine import BoundaryHandle, Engine
from kg_context.gate.pure.decision import Decision
from kg_context.vocabulary import WriterKind

__all__ = ["SPECIALISTS", "WAVES", "run_demo"]

SPECIALISTS = ("planner", "critic", "researcher")
WAVES = 10
_TASKS = (
    ("How do we make user lookups fast?", "Index User.email and keep the lookup in one hop."),
    ("Which store fits graph-shaped queries?", "A graph store: the queries are walks."),
    ("How do we keep the API latency low?", "Cache hot lookups close to the API."),
    ("What should the release checklist hold?", "Load test, rollback plan, on-call rota."),
    ("How do we test the search ranking?", "A fixed judged query set and nDCG per release."),
)
_ANGLES = {
    "planner": ("Plan: {answer}", 0.8),
    "critic": ("Risk first: {answer} Measure before and after.", 0.6),
    "researcher": ("Evidence says: {answer} (two public benchmarks agree)", 0.7),
}


def _proposal(b: str, n: str, writer: str, *entries: dict[str, Any], **extra: Any) -> Any:
    return {
        "id": f"{b}/p-{n}",
        "boundary_id": b,
        "writer_id": writer,
        "writer_kind": "agent",
        "entries": list(entries),
        **extra,
    }


def _entry(b: str, name: str, cls: str, key: str, body: str, **extra: Any) -> dict[str, Any]:
    return {"id": f"{b}/{name}", "class": cls, "key": key, "body": body, **extra}


def _needs(b: str, *names: str, policy: str = "hard") -> list[dict[str, Any]]:
    return [{"entry_id": f"{b}/{n}", "policy": policy} for n in names]


def _from(b: str, *names: str, essential: bool = True) -> list[dict[str, Any]]:
    return [{"entry_id": f"{b}/{n}", "essential": essential} for n in names]


class _Session:
    """One demo run: the boundary, what happened, and how to say it."""

    def __init__(self, engine: Engine, console: Console) -> None:
        self.engine = engine
        self.console = console
        self.b = f"demo-{uuid.uuid4().hex[:10]}"
        # The story runs the czar itself, at its own step ("Czar, invalidation, recall"): the
        # boundary is created with no czar cadence.
        self.boundary: BoundaryHandle = engine.boundary(self.b, czar_every_commits=0)
        self.decisions: list[Decision] = []
        self.started = time.perf_counter()

    def say(self, step: str, decision: Decision | None = None) -> None:
        if decision is None:
            self.console.print(f"  {step}", markup=False, highlight=False)
            return
        self.decisions.append(decision)
        code = f" [{decision.reason_code}]" if decision.reason_code else ""
        seq = f"seq {decision.seq}" if decision.seq is not None else "no seq"
        self.console.print(
            f"  {step}: {decision.outcome}{code} ({seq})", markup=False, highlight=False
        )

    def commit(self, step: str, proposal: Any) -> Decision:
        decision = self.boundary.commit(proposal)
        self.say(step, decision)
        return decision


def _foundations(s: _Session) -> None:
    b = s.b
    s.commit(
        "planner commits the goal, a constraint, a decision and a plan",
        _proposal(
            b, "1", "planner",
            _entry(b, "goal", "goal", "ship", "Ship the search API this quarter"),
            _entry(b, "p95", "constraint", "latency", "p95 latency under 50 ms",
                   derived_from=_from(b, "goal"), requires=_needs(b, "goal")),
            _entry(b, "db-1", "decision", "datastore", "Store documents in Postgres",
                   derived_from=_from(b, "goal"), requires=_needs(b, "goal")),
            _entry(b, "plan-1", "plan", "plan", "Build on Postgres, then tune indexes",
                   derived_from=_from(b, "db-1"), requires=_needs(b, "db-1")),
            _entry(b, "alt-es", "rejected_alternative", "alt/es",
                   "Elasticsearch alone: rejected, no graph walks", expires_after=2),
            set_id=f"{b}/s-foundations",
        ),
    )  # fmt: skip
    s.commit(
        "researcher records a benchmark and the planner a cache decision derived from it",
        _proposal(
            b, "2", "researcher",
            _entry(b, "bench", "fact", "bench", "Benchmark: graph walks 3x faster on Neo4j",
                   attributes={"source": "internal benchmark run 14"}),
            _entry(b, "cache", "decision", "cache", "Cache hot lookups for 60 s",
                   derived_from=_from(b, "bench"), requires=_needs(b, "goal")),
            _entry(b, "note", "fact", "note/cache", "Cache keys carry the tenant id",
                   derived_from=_from(b, "cache", essential=False),
                   requires=_needs(b, "cache", policy="soft")),
            set_id=f"{b}/s-bench",
        ),
    )  # fmt: skip


def _waves(s: _Session) -> dict[str, float | None]:
    # the czar-free handle
    attention = WorkspaceAttention(s.engine, boundary_id=s.b, sink=s.boundary)
    promoted: str | None = None
    for wave in range(WAVES):
        query, answer = _TASKS[wave % len(_TASKS)]
        outputs = {
            f"{s.b}:{name}": {"text": text.format(answer=answer) + f" (wave {wave})",
                              "confidence": confidence}
            for name, (text, confidence) in _ANGLES.items()
        }  # fmt: skip
        result = attention.select_and_broadcast(outputs, query, task_id=f"{s.b}/task-{wave}")
        outcomes = ", ".join(
            f"{o.specialist_id.rsplit(':', 1)[-1]} {o.outcome}" for o in result.outcomes
        )
        s.say(f"wave {wave + 1}/{WAVES}: {len(result.winners)} winners ({outcomes})")
        for outcome in result.outcomes:
            if promoted is None and outcome.entry_ids:
                promoted = outcome.entry_ids[0]
    if promoted is not None:
        s.commit(
            "planner builds the plan on the first admitted insight (a hard dependency)",
            _proposal(
                s.b, "3", "planner",
                _entry(s.b, "step", "plan", "plan/step", "Ship the index change first",
                       requires=[{"entry_id": promoted, "policy": "hard"}]),
                targets=["plan/step"],
            ),
        )  # fmt: skip
    return {name: attention.get_attention_score(f"{s.b}:{name}") for name in SPECIALISTS}


def _revisions_and_halts(s: _Session) -> None:
    b = s.b
    s.commit(
        "planner revises the datastore and the plan (declared supersessions)",
        _proposal(
            b, "4", "planner",
            _entry(b, "db-2", "decision", "datastore", "Store documents in Neo4j",
                   supersedes=[{"entry_id": f"{b}/db-1", "reason": "the queries are walks"}],
                   derived_from=_from(b, "goal", "bench"), requires=_needs(b, "goal")),
            _entry(b, "plan-2", "plan", "plan", "Build on Neo4j, index User.email",
                   supersedes=[{"entry_id": f"{b}/plan-1", "reason": "new datastore"}],
                   derived_from=_from(b, "db-2"), requires=_needs(b, "db-2")),
            targets=["datastore", "plan"],
        ),
    )  # fmt: skip
    late = s.commit(
        "critic tries to supersede db-1 again",
        _proposal(
            b, "5", "critic",
            _entry(b, "db-3", "decision", "datastore", "Store documents in SQLite",
                   supersedes=[{"entry_id": f"{b}/db-1", "reason": "fewer moving parts"}]),
            set_id=f"{b}/s-late",
        ),
    )  # fmt: skip
    s.say(f"  halt {late.halt_id} stays in the operators' queue")
    halted = s.commit(
        "researcher brings global material without an adoption receipt",
        _proposal(
            b, "6", "researcher",
            _entry(b, "public", "fact", "bench/public", "Public benchmark: walks 3x faster",
                   verse="global", attributes={"source": "a public thread"}),
            targets=["bench/public"],
        ),
    )  # fmt: skip
    if halted.halt_id is not None:
        resolution = s.engine.halts.resolve(
            halted.halt_id, "approve", operator_id="operator", reason="source checked by hand"
        )
        if resolution.decision is not None:
            s.say("operator approves the halt; the set is decided again", resolution.decision)


def _czar_invalidation_recall(s: _Session) -> dict[str, Any]:
    b = s.b
    czar = s.boundary.run_czar()
    for decision in czar.decisions:
        s.say("czar compacts the window", decision)
    summary = czar.summary()
    s.say(
        f"  retired {len(summary['retired'])}, out of the window {len(summary['window_out'])}, "
        f"interfaces {len(summary['interfaces'])}"
    )
    blast = s.boundary.invalidate(
        f"{b}/bench",
        reason="the benchmark measured a warm cache",
        writer_id="researcher",
        writer_kind=WriterKind.AGENT,
    )
    s.say("researcher invalidates the benchmark: one blast-radius set", blast.decision)
    s.say(
        f"  blast radius: failed {sorted(blast.walk.failed)}, at risk "
        f"{list(blast.moved_at_risk)}, flagged {list(blast.walk.flagged)}"
    )
    hits = s.boundary.recall("Postgres documents", k=3)
    for hit in hits:
        s.say(f"  recall: {hit.entry_id} ({hit.tag()})")
    recalled = [h.entry_id for h in hits if h.entry_id == f"{b}/db-1"]
    if recalled:
        admission = s.boundary.admit(recalled, writer_id="planner")
        s.say("planner admits db-1 back as a one-use scratch copy", admission.decision)
    return {
        "czar": summary,
        "blast_radius": {
            "failed": sorted(blast.walk.failed),
            "at_risk": list(blast.moved_at_risk),
            "flagged": list(blast.walk.flagged),
            "recovery_actions": blast.recovery_actions(),
        },
        "recalled": [h.entry_id for h in hits],
    }


STEPS: tuple[tuple[str, Callable[[_Session], Any]], ...] = (
    ("Foundations", _foundations),
    ("Attention: three specialists, many waves", _waves),
    ("Revisions and halts", _revisions_and_halts),
    ("Czar, invalidation, recall", _czar_invalidation_recall),
)


def run_demo(engine: Engine, console: Console) -> dict[str, Any]:
    """Run the session and print the report; return the report's figures."""
    session = _Session(engine, console)
    console.print(f"[bold]Database:[/] {engine.target.describe()}", highlight=False)
    console.print(f"[bold]Boundary:[/] {session.b}\n", highlight=False)
    results: dict[str, Any] = {}
    seconds: dict[str, float] = {}
    for title, step in STEPS:
        console.print(f"[bold]{title}[/]")
        started = time.perf_counter()
        results[step.__name__.strip("_")] = step(session)
        seconds[title] = round(time.perf_counter() - started, 2)
        console.print(f"  ({seconds[title]:.1f} s)", style="dim", highlight=False)
    figures = report(session.engine, session.boundary, console, results, session.started)
    return {**figures, "step_seconds": seconds}
