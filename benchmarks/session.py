"""A long agent session under the default constitution, with no manual czar run: the window stays
bounded.

One fresh boundary receives ``--sets`` sets (500 by default; ``--quick``: 50) through the public
engine API (``Engine.boundary(...).commit``), a realistic agent workload, every set one commit:

- a goal, superseded by a new goal every 100 sets; a plan (requires the goal, hard), superseded
  every 20 sets;
- decisions on 8 topics, each superseding the topic's previous decision, requiring the facts it
  was derived from (soft, leased for 40 sets), with a rejected alternative superseded by default;
- facts derived from sources (a tool writer, provenance on each), some derived from earlier facts;
- scratch notes nothing requires; open questions with a lease (``expires_after`` 30 sets).

The engine runs with its default settings: the czar runs by itself on its cadence
(``czar_every_commits``). After every set the boundary's resident and committed tokens are read
(outside the timed commit). With ``--compare`` the same session runs again on another boundary
with the czar off (``czar_every_commits=0``): the commit rate with and without the cadence.

Figures (one JSON line each, at the end): the resident tokens after warm-up (the first fifth of
the session), last fifth over first fifth of what remains (target <= 1.25: flat), their slope
in tokens per set and that slope over the run relative to the mean (target <= 0.25), sets/s, the
retention ratio at the end, the czar runs the briefing reports, each run's own time (recorded on
its report: planning and the gate's decisions) and their share of the session's commit time (the
cadence's cost in the committing call's path), and with ``--compare`` the commit rate without
the czar and the ratio of the two (two runs one after the other: noisy on a shared machine).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
import uuid
from dataclasses import dataclass, field
from typing import Any

from benchmarks._common import count_figures, figure, open_engine, progress
from kg_context.engine import BoundaryHandle, Engine
from kg_context.settings import EngineSettings, ResidencySettings

TOPICS = ("storage", "api", "auth", "cache", "deploy", "schema", "tests", "billing")
FLAT_TARGET = 1.25
SLOPE_TARGET = 0.25
WORDS = ("the", "team", "measured", "latency", "budget", "of", "service", "under", "load", "and")


def _body(rng: int, n: int) -> str:
    return " ".join(WORDS[(rng + i) % len(WORDS)] for i in range(n))


@dataclass
class _Agent:
    """The session's state: what the agents have committed so far (ids by role)."""

    boundary: BoundaryHandle
    goal: str | None = None
    plan: str | None = None
    decisions: dict[str, str] = field(default_factory=dict)
    facts: list[str] = field(default_factory=list)
    serial: int = 0
    # The session's clock, in sets (``run_session(scale=...)`` shortens it for a short session).
    goal_every: int = 100
    plan_every: int = 20
    lease: int = 40
    expiry: int = 30

    def _id(self, role: str) -> str:
        self.serial += 1
        return f"{self.boundary.id}-{role}-{self.serial}"

    def _commit(self, writer: str, kind: str, targets: list[str], *entries: dict[str, Any]) -> Any:
        decision = self.boundary.commit(
            {
                "id": self._id("p"),
                "boundary_id": self.boundary.id,
                "writer_id": writer,
                "writer_kind": kind,
                "targets": targets,
                "entries": list(entries),
            }
        )
        if decision.outcome != "commit":
            raise SystemExit(f"session: set refused: {decision.reason_code} {decision.detail}")
        return decision

    def step(self, i: int) -> None:
        """Set ``i`` (1-based) of the session."""
        if self.goal is None or i % self.goal_every == 1:
            self._goal(i)
        elif self.plan is None or i % self.plan_every == 2:
            self._plan(i)
        elif i % 5 == 0:
            self._decision(i)
        elif i % 5 == 2:
            self._scratch(i)
        elif i % 5 == 4:
            self._question(i)
        else:
            self._fact(i)

    def _goal(self, i: int) -> None:
        gid = self._id("goal")
        old = [{"entry_id": self.goal, "reason": "next phase"}] if self.goal else []
        body = f"phase {i // 100 + 1}: " + _body(i, 20)
        entry = {"id": gid, "class": "goal", "key": "goal", "body": body, "supersedes": old}
        self._commit("lead", "agent", ["goal"], entry)
        self.goal = gid

    def _plan(self, i: int) -> None:
        pid = self._id("plan")
        old = [{"entry_id": self.plan, "reason": "replanned"}] if self.plan else []
        entry = {
            "id": pid,
            "class": "plan",
            "key": "plan",
            "body": "plan: " + _body(i, 40),
            "supersedes": old,
            "requires": [{"entry_id": self.goal, "policy": "hard"}],
        }
        self._commit("planner", "agent", ["plan"], entry)
        self.plan = pid

    def _fact(self, i: int) -> None:
        fid = self._id("fact")
        derived = []
        if i % 3 == 0:  # a fact that builds on one the agent still sees
            seen = {e.id for e in self.boundary.window().entries if e.entry_class == "fact"}
            derived = [{"entry_id": f, "essential": False} for f in self.facts if f in seen][-1:]
        entry = {
            "id": fid,
            "class": "fact",
            "key": f"fact/{fid}",
            "body": "observed: " + _body(i, 30),
            "derived_from": derived,
            "attributes": {"source": f"doc-{i}"},
        }
        self._commit("reader", "tool", [f"fact/{i}"], entry)
        self.facts.append(fid)

    def _decision(self, i: int) -> None:
        topic = TOPICS[(i // 5) % len(TOPICS)]
        did = self._id("decision")
        # An agent decides from what it sees: the newest facts in the window (the czar may have
        # retired older ones; a REQUIRES on a retired entry would halt NON_STANDING_DEPENDENCY).
        seen = [e.id for e in self.boundary.window().entries if e.entry_class == "fact"]
        sources = [f for f in self.facts if f in set(seen)][-2:]
        old = self.decisions.get(topic)
        entry = {
            "id": did,
            "class": "decision",
            "key": f"decision/{topic}",
            "body": f"{topic}: " + _body(i, 35),
            "supersedes": [{"entry_id": old, "reason": "revised"}] if old else [],
            "derived_from": [{"entry_id": f, "essential": True} for f in sources],
            "requires": [
                {"entry_id": f, "policy": "soft", "lease_sets": self.lease} for f in sources
            ],
        }
        alternative = {
            "id": self._id("alt"),
            "class": "rejected_alternative",
            "key": f"alternative/{topic}",
            "body": f"not chosen for {topic}: " + _body(i + 3, 15),
            "superseded_by_default": True,
        }
        self._commit("planner", "agent", [f"decision/{topic}"], entry, alternative)
        self.decisions[topic] = did

    def _scratch(self, i: int) -> None:
        entry = {
            "id": self._id("scratch"),
            "class": "scratch",
            "key": f"scratch/{i}",
            "body": "thinking: " + _body(i, 25),
        }
        self._commit("worker", "agent", [f"scratch/{i}"], entry)

    def _question(self, i: int) -> None:
        entry = {
            "id": self._id("question"),
            "class": "open_question",
            "key": f"question/{i}",
            "body": "open: " + _body(i, 12) + "?",
            "expires_after": self.expiry,
        }
        self._commit("worker", "agent", [f"question/{i}"], entry)


@dataclass(frozen=True, slots=True)
class Session:
    """One session's measurements: resident and committed tokens after every set, by set."""

    boundary_id: str
    resident: list[int]
    committed: list[int]
    seconds: float

    @property
    def sets_per_second(self) -> float:
        return len(self.resident) / self.seconds if self.seconds else 0.0

    def after_warmup(self) -> list[int]:
        return self.resident[len(self.resident) // 5 :]

    def flatness(self) -> float:
        """Mean resident tokens over the last fifth of the post-warm-up series / its first fifth."""
        tail = self.after_warmup()
        fifth = max(1, len(tail) // 5)
        first = statistics.fmean(tail[:fifth])
        return statistics.fmean(tail[-fifth:]) / first if first else float("inf")

    def slope(self) -> float:
        """Least-squares slope of the post-warm-up resident tokens, in tokens per set."""
        tail = self.after_warmup()
        if len(tail) < 2:
            return 0.0
        xs = list(range(len(tail)))
        return statistics.linear_regression(xs, tail).slope

    def relative_slope(self) -> float:
        """The slope over the post-warm-up run, relative to its mean (0: flat)."""
        tail = self.after_warmup()
        mean = statistics.fmean(tail) if tail else 0.0
        return self.slope() * len(tail) / mean if mean else 0.0


def run_session(
    engine: Engine, sets: int, *, label: str = "session", scale: float = 1.0
) -> Session:
    """``sets`` sets of the workload into a fresh boundary of ``engine`` (its settings), its
    periods and leases multiplied by ``scale`` (a short session reaches its steady state
    sooner)."""
    boundary = engine.boundary(f"{label}-{uuid.uuid4().hex[:12]}")
    agent = _Agent(boundary)
    for name in ("goal_every", "plan_every", "lease", "expiry"):
        setattr(agent, name, max(3, round(getattr(agent, name) * scale)))
    resident: list[int] = []
    committed: list[int] = []
    spent = 0.0
    for i in progress(range(1, sets + 1), label, total=sets):
        started = time.perf_counter()
        agent.step(i)
        # The agent reads the window after the czar's run its set made due (the czar runs beside
        # the writer; its time counts): a run racing its next read could retire a fact it is
        # about to cite, and the gate would refuse that set.
        engine.czar_idle()
        spent += time.perf_counter() - started
        (row,) = engine.executor.read("bench/boundary_tokens", boundary_id=boundary.id)
        resident.append(int(row["resident_tokens"]))
        committed.append(int(row["committed_tokens"]))
    return Session(boundary.id, resident, committed, spent)


def _with_czar_every(engine: Engine, every: int) -> Engine:
    """Another engine on the same database with the czar's cadence set to ``every``."""
    residency = engine.settings.residency.model_copy(update={"czar_every_commits": every})
    settings = EngineSettings(
        residency=ResidencySettings.model_validate(residency.model_dump()),
        embedding=engine.settings.embedding,
    )
    return Engine.connect(engine.target, settings=settings)


QUICK_SETS = 50


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--sets", type=int, default=500)
    parser.add_argument("--compare", action="store_true", help="also run it with the czar off")
    parser.add_argument("--quick", action="store_true", help="50 sets (the test suite)")
    args = parser.parse_args(argv)
    if args.quick:
        args.sets = QUICK_SETS
    engine, counts = open_engine("session")
    with engine:
        every = engine.settings.residency.czar_every_commits
        print(f"# session: {args.sets} sets, czar every {every} commits", file=sys.stderr)
        session = run_session(engine, args.sets)
        brief = engine.boundary(session.boundary_id).brief(since_seq=0)
        without = None
        if args.compare:
            with _with_czar_every(engine, 0) as off:
                without = run_session(off, args.sets, label="session-noczar")
    flat, rel = session.flatness(), session.relative_slope()
    count_figures(counts)
    figure("session_sets", args.sets, "sets")
    figure("czar_every_commits", every, "sets")
    figure("resident_tokens_after_warmup_last_over_first_fifth", flat, "ratio",
           f"<= {FLAT_TARGET}", flat <= FLAT_TARGET)  # fmt: skip
    figure("resident_tokens_slope_after_warmup", session.slope(), "tokens/set")
    figure("resident_tokens_relative_growth_after_warmup", rel, "ratio",
           f"<= {SLOPE_TARGET}", abs(rel) <= SLOPE_TARGET)  # fmt: skip
    figure("resident_tokens_max", max(session.resident), "tokens")
    figure("resident_tokens_end", session.resident[-1], "tokens")
    figure("committed_tokens_end", session.committed[-1], "tokens")
    figure("retention_ratio_end", session.committed[-1] / max(1, session.resident[-1]), "ratio")
    figure("sets_per_second", session.sets_per_second, "sets/s")
    figure("brief_czar_runs", len(brief.czar_runs), "runs")
    figure("brief_czar_retired", sum(r.retired for r in brief.czar_runs), "entries")
    took = [r.took_ms or 0.0 for r in brief.czar_runs]
    figure("czar_run_ms_median", statistics.median(took) if took else 0.0, "ms")
    figure("czar_share_of_session_time", sum(took) / 1000 / session.seconds, "ratio")
    figure("brief_czar_warnings", len(brief.czar_warnings), "warnings", "== 0",
           not brief.czar_warnings)  # fmt: skip
    if without is not None:
        figure("sets_per_second_without_czar", without.sets_per_second, "sets/s")
        figure("sets_per_second_with_over_without_czar",
               session.sets_per_second / without.sets_per_second, "ratio")  # fmt: skip
        figure("resident_tokens_end_without_czar", without.resident[-1], "tokens")


if __name__ == "__main__":
    main()
