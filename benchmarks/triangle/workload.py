"""The workload generator: a seeded software-project session with known ground truth.

The world holds typed state: decisions on keys that get revised (``api/engine``, ...), evidence
facts (measurements, sometimes re-measured or corrected), facts derived from decisions (in the
same set), constraints, goals and plans/obligations that open and close, open questions with
leases (renewed, resolved, or lapsing), rejected alternatives, pins, and draft notes. Every set is
one ``Event``; the generator records the truth after each event (``World``) so every probe has a
known answer, and it records each injected writer error (``Injected``).

Body text grammar (the same text for every system; ``reader.py`` parses it)::

    @s<seq> <class> <key> <op> [<value>] [| because: <why> [r-<tag>]] [| based on: <k>@s<n>, ...]
        [| replaces: <k>@s<n>] [| lease: <sets>] [| note: <words>]

``op`` is ``=`` (a value), ``OPEN``, ``CLOSED``, ``REJECTED`` or ``NOTE``. The careful writer
declares what the text says: supersession for ``replaces``, DERIVED_FROM (essential) and a soft
leased REQUIRES naming ``needs = [body]`` for each citation, a hard REQUIRES from a decision to the
facts derived from it in the same set, a self-lease on evidence (``expires_after``) and on open
questions, ``superseded_by_default`` on rejected alternatives. The over-declaring writer adds hard
edges to every plausibly related entry; the provenance-only writer declares provenance and
supersession but no residency at all (no REQUIRES, no self-leases on facts). Declaration errors
change only the declarations.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from benchmarks.triangle.events import EntrySpec, Event, OntologySpec, Ref, Requirement
from benchmarks.triangle.params import CHURN_WEIGHTS, RunParams, WorkloadParams

__all__ = ["UNKNOWN", "Injected", "Probe", "Workload", "World", "generate"]

UNKNOWN = "?"
Answer = str | bool | frozenset[str]

_AREAS = (
    "api",
    "storage",
    "auth",
    "cache",
    "build",
    "deploy",
    "search",
    "billing",
    "ui",
    "telemetry",
    "queue",
    "schema",
    "mobile",
    "infra",
    "docs",
    "release",
)
_ASPECTS = (
    "engine",
    "timeout",
    "format",
    "version",
    "policy",
    "limit",
    "provider",
    "strategy",
    "layout",
    "retention",
    "protocol",
    "region",
    "framework",
    "encoding",
    "budget",
    "owner",
)
_CHOICES = (
    "postgres",
    "neo4j",
    "sqlite",
    "redis",
    "kafka",
    "grpc",
    "rest",
    "graphql",
    "oauth",
    "saml",
    "react",
    "svelte",
    "rust",
    "go",
    "python",
    "s3",
    "gcs",
    "nginx",
    "envoy",
    "lambda",
    "protobuf",
    "avro",
    "json",
    "yaml",
    "terraform",
    "pulumi",
    "canary",
    "bluegreen",
    "weekly",
)
_METRICS = ("p99", "throughput", "error-rate", "cost", "memory", "latency", "coverage", "size")
_WORDS = (
    "migration",
    "latency",
    "rollback",
    "owner",
    "schema",
    "index",
    "budget",
    "incident",
    "review",
    "benchmark",
    "customer",
    "contract",
    "deadline",
    "fallback",
    "quota",
    "region",
    "traffic",
    "replica",
    "shard",
    "token",
    "session",
    "audit",
    "backfill",
    "feature",
    "flag",
    "release",
    "hotfix",
    "sprint",
    "pipeline",
    "artifact",
    "cluster",
    "alert",
    "runbook",
    "dashboard",
    "capacity",
    "vendor",
    "license",
    "compliance",
    "retention",
    "encryption",
)
_REASONS = (
    "the load test missed the latency budget",
    "the vendor changed its pricing",
    "security review flagged the old choice",
    "the team lacks experience with the old option",
    "a customer contract requires it",
    "the migration cost was lower than estimated",
    "the incident review showed a single point of failure",
    "benchmarks favoured it",
    "the old option is end of life",
    "it simplifies the release pipeline",
    "compliance asked for data residency",
    "the prototype proved it works at our scale",
)

DECISION_CLASSES = ("decision", "pin")
ITEM_KINDS = ("constraint", "goal", "plan", "open_question")


def ref_text(key: str, seq: int) -> str:
    return f"{key}@s{seq}"


@dataclass(slots=True)
class Revision:
    """One written decision/pin revision (the writer's view) and its truth."""

    eid: str
    key: str  # the key it was written under
    true_key: str  # the key it truly revises (differs for a well-formed lie)
    seq: int
    value: str
    rtag: str
    cites: tuple[str, ...]  # eids it truly rests on (what its text names)
    derived: tuple[str, ...]  # eids of facts derived from it (same set)
    explicit: bool  # said and declared what it replaces
    lie: bool = False
    correction: bool = False


@dataclass(slots=True)
class Item:
    key: str
    true_cls: str
    written_cls: str
    eid: str
    opened: int  # seq of the current open line (renewals move it)
    lease: int | None
    open: bool = True


@dataclass(frozen=True, slots=True)
class Injected:
    """One injected writer error (or mandatory case) and what it touched."""

    kind: str
    seq: int
    eids: tuple[str, ...]
    keys: tuple[str, ...]
    detail: str
    corrected_at: int | None = None


@dataclass(slots=True)
class Interval:
    """While an injected error bears on these keys: from ``start`` until a revision of one of
    ``closes_on`` (or a correction) ends it; ``end`` None means still open."""

    kind: str
    keys: frozenset[str]
    start: int
    closes_on: frozenset[str]
    end: int | None = None

    def active(self, t: int) -> bool:
        return self.start <= t and (self.end is None or t < self.end)


@dataclass(frozen=True, slots=True)
class Probe:
    """A question with a known answer, asked of every system at a checkpoint."""

    pid: str
    ptype: str
    key: str
    now: int
    at_seq: int | None
    question: str
    truth: Answer
    stale: frozenset[str]  # old values of the key (a wrong answer among them is a stale one)
    errors: frozenset[str]  # error kinds that touched what this probe asks about

    def describe(self) -> dict[str, Any]:
        truth = sorted(self.truth) if isinstance(self.truth, frozenset) else self.truth
        return {
            "pid": self.pid,
            "type": self.ptype,
            "key": self.key,
            "now": self.now,
            "at_seq": self.at_seq,
            "question": self.question,
            "truth": truth,
            "errors": sorted(self.errors),
        }


@dataclass(slots=True)
class World:
    """The truth after each event, plus the writer's view it writes from."""

    written: dict[str, list[Revision]] = field(default_factory=dict)
    true_hist: dict[str, list[tuple[int, str, str]]] = field(default_factory=dict)
    evidence: dict[str, list[tuple[int, str, str]]] = field(default_factory=dict)
    derived: dict[str, tuple[str, str, str]] = field(default_factory=dict)  # eid->(key,parent,v)
    items: dict[str, Item] = field(default_factory=dict)
    parents: dict[str, set[str]] = field(default_factory=dict)  # true provenance
    bodies: dict[str, str] = field(default_factory=dict)
    key_of: dict[str, str] = field(default_factory=dict)
    intervals: list[Interval] = field(default_factory=list)
    invalid: set[str] = field(default_factory=set)  # eids found wrong (never current again)
    extra_current: set[str] = field(default_factory=set)  # current facts outside the above
    pins: list[str] = field(default_factory=list)

    # -- truth queries ---------------------------------------------------------------------------
    def current_rev(self, key: str) -> Revision | None:
        for rev in reversed(self.written.get(key, [])):
            if not rev.lie:
                return rev
        return None

    def value(self, key: str) -> str | None:
        hist = self.true_hist.get(key)
        return hist[-1][1] if hist else None

    def value_at(self, key: str, seq: int) -> str | None:
        out = None
        for s, v, _ in self.true_hist.get(key, []):
            if s <= seq:
                out = v
        return out

    def evidence_current(self, key: str) -> tuple[int, str, str] | None:
        versions = self.evidence.get(key)
        return versions[-1] if versions else None

    def item_open(self, item: Item, now: int) -> bool:
        if not item.open:
            return False
        return item.lease is None or item.opened + item.lease >= now

    def current_eids(self, now: int) -> set[str]:
        """Written entries the truth holds current now (the state a reader may need)."""
        out: set[str] = set()
        for key in self.written:
            rev = self.current_rev(key)
            if rev is not None:
                out.add(rev.eid)
                out.update(d for d in rev.derived if d not in self.invalid)
        out.update(self.extra_current)
        for versions in self.evidence.values():
            eid = versions[-1][1]
            if eid not in self.invalid:
                out.add(eid)
        for item in self.items.values():
            if self.item_open(item, now):
                out.add(item.eid)
        return out - self.invalid

    def needed_eids(self, now: int) -> set[str]:
        """Actually-needed state: current decisions and pins, what they truly rest on and what
        was derived from them, open constraints/goals/plans/obligations, open questions."""
        out: set[str] = set()
        for key in self.written:
            rev = self.current_rev(key)
            if rev is None:
                continue
            out.add(rev.eid)
            out.update(d for d in rev.derived if d not in self.invalid)
            for cited in rev.cites:
                ckey = self.key_of[cited]
                if ckey in self.evidence:
                    out.add(self.evidence[ckey][-1][1])
                elif cited not in self.invalid:
                    out.add(cited)
        for item in self.items.values():
            if self.item_open(item, now):
                out.add(item.eid)
        return out - self.invalid

    def descendants(self, eid: str) -> set[str]:
        """Every entry that truly derives from ``eid``, transitively."""
        children: dict[str, set[str]] = {}
        for child, ps in self.parents.items():
            for p in ps:
                children.setdefault(p, set()).add(child)
        out: set[str] = set()
        frontier = [eid]
        while frontier:
            nxt = []
            for node in frontier:
                for child in children.get(node, ()):
                    if child not in out:
                        out.add(child)
                        nxt.append(child)
            frontier = nxt
        return out


@dataclass(slots=True)
class Workload:
    """A generated workload: its events, probes per checkpoint, injected errors, truth."""

    params: WorkloadParams
    events: list[Event]
    probes: dict[int, list[Probe]]
    injected: list[Injected]
    needed: dict[int, set[str]]  # checkpoint -> needed eids
    current: dict[int, set[str]]  # checkpoint -> current eids
    obsolete: dict[int, set[str]]  # checkpoint -> eids the truth no longer holds
    bodies: dict[str, str]
    blast_truth: dict[str, set[str]]  # revealed eid -> its true descendants at the reveal
    mandatory: dict[str, Any]


class _Generator:
    def __init__(self, params: WorkloadParams, run: RunParams) -> None:
        self.p = params
        self.run = run
        self.rng = random.Random(params.seed)
        # The over-declaring writer's own draws: its extra edges never move the main stream, so
        # the careful writer on the same seed writes the same bodies (its twin).
        self.over_rng = random.Random(params.seed * 100_019 + 7)
        self.w = World()
        self.seq = 0
        self.events: list[Event] = []
        self.injected: list[Injected] = []
        self.scheduled: dict[int, list[tuple[str, Any]]] = {}
        self.keys = self._keys(params.decision_keys)
        self.areas = {k: k.split("/")[0] for k in self.keys}
        self.n_items = {k: 0 for k in ITEM_KINDS}
        self.n_evidence = 0
        self.blast_truth: dict[str, set[str]] = {}
        self.mandatory: dict[str, Any] = {}
        self.omitted: dict[str, Any] | None = None
        self.lies: list[Revision] = []
        self.ontology_done = params.sets < params.ontology_at + 40
        self._item_lines: set[str] = set()
        self._pending_intervals: list[tuple[str, tuple[str, ...]]] = []
        self._lie_intervals: dict[str, list[Interval]] = {}
        self._plan_mandatory()

    # -- setup -----------------------------------------------------------------------------------
    def _keys(self, n: int) -> list[str]:
        pairs = [(a, b) for a in _AREAS for b in _ASPECTS]
        self.rng.shuffle(pairs)
        out = []
        for i in range(n):
            a, b = pairs[i % len(pairs)]
            suffix = f"-{i // len(pairs)}" if i >= len(pairs) else ""
            out.append(f"{a}/{b}{suffix}")
        return out

    def _plan_mandatory(self) -> None:
        gap = self.p.omitted_dependency_gap
        start = max(self.p.ontology_at + 20, self.p.sets * 3 // 10)
        if start + gap + 10 <= self.p.sets:
            self._schedule(start, ("omit", None))
            self.mandatory["omitted_dependency"] = {"planned_at": start, "gap": gap}
        if not self.ontology_done:
            self._schedule(self.p.ontology_at, ("ontology", None))

    def _schedule(self, seq: int, action: tuple[str, Any]) -> None:
        self.scheduled.setdefault(seq, []).append(action)

    # -- text ------------------------------------------------------------------------------------
    def _filler(self, lo: int, hi: int) -> str:
        return " ".join(self.rng.choice(_WORDS) for _ in range(self.rng.randint(lo, hi)))

    def _rtag(self) -> str:
        return f"r-{self.rng.getrandbits(24):06x}"

    def _because(self, rtag: str, reason: str | None = None) -> str:
        return f"because: {reason or self.rng.choice(_REASONS)} [{rtag}]"

    def _body(self, head: str, *segments: str) -> str:
        return " | ".join([head, *[s for s in segments if s]])

    def _open(
        self, kind: str, keys: tuple[str, ...] | list[str], closes_on: tuple[str, ...] = ()
    ) -> Interval:
        interval = Interval(kind, frozenset(keys), self.seq, frozenset(closes_on))
        self.w.intervals.append(interval)
        return interval

    def _close_on(self, key: str) -> None:
        for interval in self.w.intervals:
            if interval.end is None and key in interval.closes_on:
                interval.end = self.seq

    def _eid(self, key: str) -> str:
        return ref_text(key, self.seq)

    def _add(self, spec: EntrySpec, parents: set[str]) -> EntrySpec:
        self.w.bodies[spec.eid] = spec.body
        self.w.key_of[spec.eid] = spec.key
        self.w.parents[spec.eid] = set(parents)
        return spec

    # -- generation ------------------------------------------------------------------------------
    def run_all(self) -> Workload:
        checkpoints = set(self.run.checkpoints(self.p.sets))
        probes: dict[int, list[Probe]] = {}
        needed: dict[int, set[str]] = {}
        current: dict[int, set[str]] = {}
        obsolete: dict[int, set[str]] = {}
        for seq in range(1, self.p.sets + 1):
            self.seq = seq
            event = self._step()
            if self.p.scratch and self.rng.random() < self.p.scratch:
                event = self._with_scratch(event)
            self.events.append(event)
            if seq in checkpoints:
                probes[seq] = self._probes(seq)
                needed[seq] = self.w.needed_eids(seq)
                current[seq] = self.w.current_eids(seq)
                obsolete[seq] = (set(self.w.bodies) - current[seq]) & self._stateful()
        return Workload(
            params=self.p,
            events=self.events,
            probes=probes,
            injected=self.injected,
            needed=needed,
            current=current,
            obsolete=obsolete,
            bodies=dict(self.w.bodies),
            blast_truth=self.blast_truth,
            mandatory=self.mandatory,
        )

    def _stateful(self) -> set[str]:
        """Entries that state something current when they are written (not notes, closures,
        rejected alternatives or review notes): the ones that can go stale."""
        out: set[str] = set()
        for revs in self.w.written.values():
            out.update(r.eid for r in revs)
            for r in revs:
                out.update(r.derived)
        for versions in self.w.evidence.values():
            out.update(eid for _, eid, _ in versions)
        out.update(self._item_lines)
        if self.omitted and "eid" in self.omitted:
            out.add(self.omitted["eid"])
        return out

    def _with_scratch(self, event: Event) -> Event:
        key = f"scratch/s{self.seq}"
        body = self._body(f"@s{self.seq} note {key} NOTE", f"note: {self._filler(18, 30)}")
        spec = self._add(
            EntrySpec(eid=self._eid(key), cls="scratch", key=key, body=body, explored=True), set()
        )
        return Event(
            event.seq, event.kind, (*event.entries, spec), event.invalidate, event.ontology
        )

    def _step(self) -> Event:
        queue = self.scheduled.get(self.seq)
        if queue:
            action, arg = queue.pop(0)
            if queue:
                self._schedule(self.seq + 1, queue.pop(0))
                for rest in queue:
                    self._schedule(self.seq + 1, rest)
            handlers: dict[str, Callable[[Any], Event | None]] = {
                "ontology": self._ontology,
                "omit": self._omit,
                "cite_omitted": self._cite_omitted,
                "revise_omitted_parent": self._revise_omitted_parent,
                "reveal": self._reveal,
                "correct_lie": self._correct_lie,
            }
            event = handlers[action](arg)
            if event is not None:
                return event
        if self.seq > 20 and self.rng.random() < self.p.errors.fact_correction:
            event = self._fact_correction()
            if event is not None:
                return event
        return self._random_event()

    def _random_event(self) -> Event:
        undecided = [k for k in self.keys if k not in self.w.written]
        if undecided and (self.seq <= min(len(self.keys), 30) or self.rng.random() < 0.5):
            return self._decide(undecided[0])
        weights = {
            "decide": CHURN_WEIGHTS[self.p.churn],
            "evidence": 0.15,
            "constraint": 0.06,
            "goal": 0.04,
            "plan": 0.06,
            "open_question": 0.07,
            "pin": 0.015,
        }
        kind = self.rng.choices(list(weights), weights=list(weights.values()))[0]
        if kind == "decide":
            return self._decide(self.rng.choice(sorted(self.w.written.keys() - set(self.w.pins))))
        if kind == "evidence":
            return self._evidence()
        if kind == "pin":
            return self._pin()
        return self._item(kind)

    # -- decisions -------------------------------------------------------------------------------
    def _value(self, key: str) -> str:
        n = len(self.w.true_hist.get(key, [])) + 1
        return f"{self.rng.choice(_CHOICES)}-v{n}"

    def _choose_cites(self, key: str, forced: str | None = None) -> list[str]:
        cites: list[str] = []
        area = self.areas.get(key, key.split("/")[0])
        ev_keys = sorted(
            k for k in self.w.evidence if self.w.evidence[k][-1][1] not in self.w.invalid
        )
        if ev_keys:
            same = [k for k in ev_keys if k.split("/")[1] == area]
            pool = same if same and self.rng.random() < 0.6 else ev_keys
            cites.append(self.w.evidence[self.rng.choice(pool)][-1][1])
        if forced is not None:
            cites.append(forced)
        elif self.rng.random() < 0.4:
            others: list[str] = []
            for k in sorted(self.w.written):
                rev = self.w.current_rev(k)
                if k != key and rev is not None and rev.derived:
                    others.extend(d for d in rev.derived if d not in self.w.invalid)
            if others:
                cites.append(self.rng.choice(others))
        return cites

    def _declare(
        self, cites: list[str], key: str, errors: list[str]
    ) -> tuple[tuple[Ref, ...], tuple[Requirement, ...]]:
        derived: list[Ref] = []
        requires: list[Requirement] = []
        pending = self._pending_intervals
        for cited in cites:
            target = cited
            roll = self.rng.random()
            if roll < self.p.errors.missing_dependency:
                errors.append("missing_dependency")
                self._record(
                    "missing_dependency",
                    (cited,),
                    (key, self.w.key_of[cited]),
                    f"{key} cites {cited} in its text but declares no edge to it",
                )
                pending.append(("missing_dependency", (key, self.w.key_of[cited])))
                continue
            if roll < self.p.errors.missing_dependency + self.p.errors.wrong_dependency:
                pool = sorted(self.w.current_eids(self.seq) - {cited} - set(cites))
                pool = [e for e in pool if self.w.key_of[e].startswith(("ev/", "drv/"))]
                if pool:
                    target = self.rng.choice(pool)
                    errors.append("wrong_dependency")
                    self._record(
                        "wrong_dependency",
                        (cited, target),
                        (key, self.w.key_of[cited], self.w.key_of[target]),
                        f"{key} cites {cited} in its text but declares {target}",
                    )
                    pending.append(
                        ("wrong_dependency", (key, self.w.key_of[cited], self.w.key_of[target]))
                    )
            derived.append(Ref(target, True))
            requires.append(Requirement(target, "soft", self.p.evidence_lease, ("body",)))
        if self.p.writer == "over_declaring":
            extra = self._over_declared(key, set(cites))
            derived.extend(Ref(e, True) for e in extra)
            requires = [Requirement(r.eid, "hard") for r in requires]
            requires.extend(Requirement(e, "hard") for e in extra)
        if self.p.writer == "provenance_only":
            requires = []
        return tuple(derived), tuple(requires)

    def _self_lease(self) -> int | None:
        """How long a fact holds itself (the provenance-only writer declares no residency)."""
        return None if self.p.writer == "provenance_only" else self.p.evidence_lease

    def _over_declared(self, key: str, cites: set[str]) -> list[str]:
        area = key.split("/")[0]
        extra = [
            v[-1][1]
            for k, v in sorted(self.w.evidence.items())
            if k.split("/")[1] == area and v[-1][1] not in cites
        ]
        others: list[str] = []
        for k in sorted(self.w.written):
            rev = self.w.current_rev(k)
            if k != key and rev is not None:
                others.extend(rev.derived)
        self.over_rng.shuffle(others)
        extra.extend(e for e in others[:4] if e not in cites)
        return [e for e in extra if e not in self.w.invalid][:10]

    def _record(
        self,
        kind: str,
        eids: tuple[str, ...],
        keys: tuple[str, ...],
        detail: str,
        corrected_at: int | None = None,
    ) -> None:
        self.injected.append(Injected(kind, self.seq, eids, keys, detail, corrected_at))

    def _decide(self, key: str, *, forced_cite: str | None = None, allow_lie: bool = True) -> Event:
        w = self.w
        written_key = key
        lie = False
        decided = sorted(k for k in w.written if k != key and k not in w.pins)
        if (
            allow_lie
            and key in w.written
            and len(decided) >= 3
            and self.rng.random() < self.p.errors.false_supersession
        ):
            written_key = self.rng.choice(decided)
            lie = True
        prev = w.written.get(written_key, [])
        explicit = bool(prev) and self.rng.random() >= self.p.revision_without_supersession
        if lie:
            explicit = True
        value = self._value(key)
        rtag = self._rtag()
        cites = self._choose_cites(key, forced_cite)
        errors: list[str] = []
        self._close_on(written_key)
        if not lie:
            self._close_on(key)
        self._pending_intervals.clear()
        derived_refs, requires = self._declare(cites, written_key, errors)
        for kind, keys in self._pending_intervals:
            self._open(kind, keys, (written_key,))
        self._pending_intervals.clear()
        eid = ref_text(written_key, self.seq)
        derived_specs: list[EntrySpec] = []
        if not lie:
            n = self.rng.choices((0, 1, 2), weights=(0.1, 0.6, 0.3))[0]
            for j in range(n):
                dkey = f"drv/{key}/s{self.seq}-{j}"
                dval = f"{self.rng.choice(_WORDS)}-{self.rng.randint(1, 99)}"
                body = self._body(
                    f"@s{self.seq} fact {dkey} = {dval}",
                    f"based on: {ref_text(key, self.seq)}",
                    f"note: {self._filler(4, 9)}",
                )
                spec = EntrySpec(
                    eid=ref_text(dkey, self.seq),
                    cls="fact",
                    key=dkey,
                    body=body,
                    derived_from=(Ref(eid, True),),
                )
                derived_specs.append(self._add(spec, {eid}))
                w.derived[spec.eid] = (dkey, eid, dval)
        if self.p.writer != "provenance_only":
            requires = (*requires, *(Requirement(d.eid, "hard") for d in derived_specs))
        cls = "pin" if key in w.pins else "decision"
        body = self._body(
            f"@s{self.seq} {cls} {written_key} = {value}",
            self._because(rtag),
            f"based on: {', '.join(self._cite_text(c) for c in cites)}" if cites else "",
            f"replaces: {ref_text(written_key, prev[-1].seq)}" if explicit else "",
            f"note: {self._filler(3, 8)}",
        )
        spec = self._add(
            EntrySpec(
                eid=eid,
                cls=cls,
                key=written_key,
                body=body,
                supersedes=(prev[-1].eid,) if explicit else (),
                derived_from=derived_refs,
                requires=requires,
            ),
            set(cites),
        )
        rev = Revision(
            eid,
            written_key,
            key,
            self.seq,
            value,
            rtag,
            tuple(cites),
            tuple(d.eid for d in derived_specs),
            explicit,
            lie=lie,
        )
        w.written.setdefault(written_key, []).append(rev)
        w.true_hist.setdefault(key, []).append((self.seq, value, rtag))
        entries = [spec, *derived_specs]
        if not lie and prev and self.rng.random() < 0.3:
            alt = f"{self.rng.choice(_CHOICES)}-alt{self.seq}"
            akey = key
            abody = self._body(
                f"@s{self.seq} rejected {akey} REJECTED {alt}",
                self._because(self._rtag()),
                f"note: {self._filler(3, 6)}",
            )
            entries.append(
                self._add(
                    EntrySpec(
                        eid=ref_text(f"{akey}#rejected", self.seq),
                        cls="rejected_alternative",
                        key=akey,
                        body=abody,
                        superseded_by_default=True,
                    ),
                    set(),
                )
            )
        if lie:
            self.lies.append(rev)
            corrected = None
            if self.rng.random() < self.p.errors.lie_corrected:
                corrected = self.seq + self.rng.randint(20, 80)
                if corrected < self.p.sets:
                    self._schedule(corrected, ("correct_lie", rev))
                else:
                    corrected = None
            self._record(
                "false_supersession",
                (eid,),
                (key, written_key),
                f"a revision of {key} filed under {written_key}, declared to supersede "
                f"{prev[-1].eid}",
                corrected,
            )
            self._lie_intervals[eid] = [
                self._open("false_supersession", (written_key,), (written_key,)),
                self._open("false_supersession", (key,), (key,)),
            ]
        return Event(self.seq, "lie" if lie else "decide", tuple(entries))

    def _cite_text(self, eid: str) -> str:
        key = self.w.key_of[eid]
        return f"{key}@s{eid.rsplit('@s', 1)[1]}"

    def _pin(self) -> Event:
        target = max(2, self.p.decision_keys // 6)
        if len(self.w.pins) < target:
            key = f"conv/{self.rng.choice(_AREAS)}-{len(self.w.pins)}"
            self.w.pins.append(key)
        else:
            key = self.rng.choice(self.w.pins)
        return self._decide(key, allow_lie=False)

    # -- evidence --------------------------------------------------------------------------------
    def _evidence(self) -> Event:
        w = self.w
        if self.n_evidence < self.p.decision_keys or not w.evidence or self.rng.random() < 0.3:
            self.n_evidence += 1
            area = self.rng.choice(sorted(set(self.areas.values())))
            key = f"ev/{area}/{self.rng.choice(_METRICS)}-{self.n_evidence}"
            prev = None
        else:
            key = self.rng.choice(sorted(w.evidence))
            prev = w.evidence[key][-1]
        return self._measure(key, prev, None)

    def _measure(
        self, key: str, prev: tuple[int, str, str] | None, correction: str | None
    ) -> Event:
        value = f"{self.rng.randint(5, 950)}{self.rng.choice(('ms', 'rps', 'pct', 'usd', 'mb'))}"
        rtag = self._rtag()
        reason = correction or "a new measurement was taken"
        body = self._body(
            f"@s{self.seq} fact {key} = {value}",
            self._because(rtag, reason),
            f"replaces: {ref_text(key, prev[0])}" if prev else "",
            f"note: {self._filler(4, 9)}",
        )
        eid = ref_text(key, self.seq)
        spec = self._add(
            EntrySpec(
                eid=eid,
                cls="fact",
                key=key,
                body=body,
                supersedes=(prev[1],) if prev else (),
                source="measurement",
                expires_after=self._self_lease(),
            ),
            set(),
        )
        self.w.evidence.setdefault(key, []).append((self.seq, eid, value))
        return Event(
            self.seq,
            "fact_correction" if correction else "evidence",
            (spec,),
            invalidate=(prev[1],) if correction and prev else (),
        )

    def _fact_correction(self) -> Event | None:
        cited: dict[str, list[str]] = {}
        for key in sorted(self.w.written):
            rev = self.w.current_rev(key)
            if rev is None:
                continue
            for c in rev.cites:
                ckey = self.w.key_of[c]
                if ckey in self.w.evidence and self.w.evidence[ckey][-1][1] == c:
                    cited.setdefault(ckey, []).append(key)
        if not cited:
            return None
        key = self.rng.choice(sorted(cited))
        prev = self.w.evidence[key][-1]
        self.w.invalid.add(prev[1])
        event = self._measure(key, prev, f"correction: {ref_text(key, prev[0])} was mis-measured")
        self._record(
            "fact_correction",
            (prev[1], event.entries[0].eid),
            (key, *cited[key]),
            f"{prev[1]} corrected by {event.entries[0].eid}",
            self.seq,
        )
        for citing in cited[key]:
            self._open("fact_correction", (key, citing), (citing,))
        return event

    # -- constraints, goals, plans/obligations, questions ---------------------------------------
    def _item(self, kind: str) -> Event:
        w = self.w
        targets = {"constraint": 4, "goal": 8, "plan": 5, "open_question": 6}
        target = max(2, self.p.decision_keys // targets[kind])
        open_items = sorted(
            k
            for k, it in w.items.items()
            if it.true_cls in self._family(kind) and w.item_open(it, self.seq)
        )
        if (len(open_items) < target and self.rng.random() < 0.7) or not open_items:
            return self._open_item(kind)
        key = self.rng.choice(open_items)
        if kind == "open_question" and self.rng.random() < 0.4:
            return self._open_item(kind, renew=w.items[key])
        return self._close_item(w.items[key])

    def _family(self, kind: str) -> tuple[str, ...]:
        return ("plan", "obligation") if kind == "plan" else (kind,)

    def _open_item(self, kind: str, renew: Item | None = None) -> Event:
        w = self.w
        if renew is not None:
            key, true_cls, written_cls = renew.key, renew.true_cls, renew.written_cls
        else:
            self.n_items[kind] += 1
            n = self.n_items[kind]
            prefix = {"constraint": "con", "goal": "goal", "plan": "item", "open_question": "q"}
            key = f"{prefix[kind]}/{self.rng.choice(_AREAS)}-{n}"
            true_cls = kind
            if kind == "plan" and self.rng.random() < 0.4:
                true_cls = "obligation"
            written_cls = true_cls if self.ontology_done or true_cls != "obligation" else "plan"
        lease = None
        if kind == "open_question":
            lease = self.rng.randint(*self.p.question_lease)
        token = {"open_question": "question"}.get(written_cls, written_cls)
        body = self._body(
            f"@s{self.seq} {token} {key} OPEN",
            self._because(self._rtag(), None),
            f"replaces: {ref_text(key, renew.opened)}" if renew else "",
            f"lease: {lease}" if lease else "",
            f"note: {self._filler(5, 12)}",
        )
        eid = ref_text(key, self.seq)
        spec = self._add(
            EntrySpec(
                eid=eid,
                cls=written_cls,
                key=key,
                body=body,
                supersedes=(renew.eid,) if renew else (),
                expires_after=lease,
            ),
            set(),
        )
        self._item_lines.add(eid)
        w.items[key] = Item(key, true_cls, written_cls, eid, self.seq, lease)
        return Event(self.seq, "open", (spec,))

    def _close_item(self, item: Item) -> Event:
        body = self._body(
            f"@s{self.seq} fact {item.key} CLOSED",
            self._because(self._rtag(), None),
            f"replaces: {ref_text(item.key, item.opened)}",
            f"note: {self._filler(3, 7)}",
        )
        spec = self._add(
            EntrySpec(
                eid=ref_text(item.key, self.seq),
                cls="fact",
                key=item.key,
                body=body,
                supersedes=(item.eid,),
                derived_from=(Ref(item.eid, False),),
            ),
            {item.eid},
        )
        item.open = False
        return Event(self.seq, "close", (spec,))

    # -- mandatory cases -------------------------------------------------------------------------
    def _ontology(self, _: Any) -> Event:
        w = self.w
        moves, rest = [], []
        for item in sorted(w.items.values(), key=lambda i: i.key):
            if item.written_cls == "plan" and w.item_open(item, self.seq):
                if item.true_cls == "obligation":
                    moves.append((item.eid, "obligation"))
                    item.written_cls = "obligation"
                else:
                    rest.append(item.eid)
        self.ontology_done = True
        key = "ontology/plan"
        obligations = ", ".join(w.key_of[e] for e, _ in moves) or "none open"
        body = self._body(
            f"@s{self.seq} fact {key} = split",
            self._because(self._rtag(), "plans collapsed obligations owed to other teams"),
            f"note: obligations among the open plans: {obligations}",
        )
        spec = self._add(
            EntrySpec(eid=self._eid(key), cls="fact", key=key, body=body, source="operator"), set()
        )
        self.mandatory["ontology"] = {
            "seq": self.seq,
            "migrated": [e for e, _ in moves],
            "kept": rest,
            "keys": [w.key_of[e] for e, _ in moves] + [w.key_of[e] for e in rest],
        }
        self._open("ontology", self.mandatory["ontology"]["keys"])
        self._record(
            "ontology",
            tuple(e for e, _ in moves),
            tuple(self.mandatory["ontology"]["keys"]),
            f"split plan -> plan | obligation; {len(moves)} open plans are obligations",
        )
        onto = OntologySpec(
            "plan",
            ("plan", "obligation"),
            tuple(moves),
            "plans collapsed obligations owed to other teams",
        )
        return Event(self.seq, "ontology", (spec,), ontology=onto)

    def _omit(self, _: Any) -> Event | None:
        """A fact derived from a decision, with the derivation neither said nor declared."""
        w = self.w
        candidates = [k for k in sorted(w.written) if k not in w.pins and w.current_rev(k)]
        if len(candidates) < 3:
            return None
        k1 = self.rng.choice(candidates)
        parent = w.current_rev(k1)
        assert parent is not None
        key = f"drv/{k1}/obs-s{self.seq}"
        value = f"{self.rng.choice(_WORDS)}-{self.rng.randint(1, 99)}"
        body = self._body(
            f"@s{self.seq} fact {key} = {value}",
            self._because(self._rtag(), "observed while integrating"),
            f"note: {self._filler(4, 9)}",
        )
        eid = self._eid(key)
        spec = self._add(
            EntrySpec(
                eid=eid,
                cls="fact",
                key=key,
                body=body,
                source="analysis",
                expires_after=self._self_lease(),
            ),
            {parent.eid},
        )
        w.derived[eid] = (key, parent.eid, value)
        w.extra_current.add(eid)
        self.omitted = {
            "eid": eid,
            "key": key,
            "parent": parent.eid,
            "parent_key": k1,
            "seq": self.seq,
        }
        self.mandatory["omitted_dependency"].update(self.omitted)
        self._record(
            "omitted_dependency",
            (eid,),
            (key, k1),
            f"{eid} derives from {parent.eid}; neither said nor declared",
        )
        self._open("omitted_dependency", (key, k1))
        for i in range(1, 14, 2):
            self._schedule(self.seq + i, ("cite_omitted", eid))
        self._schedule(self.seq + 15, ("revise_omitted_parent", k1))
        self._schedule(self.seq + self.p.omitted_dependency_gap, ("reveal", eid))
        return Event(self.seq, "derive", (spec,))

    def _cite_omitted(self, eid: str) -> Event | None:
        assert self.omitted is not None
        keys = [
            k
            for k in sorted(self.w.written)
            if k not in self.w.pins and k != self.omitted["parent_key"]
        ]
        return self._decide(self.rng.choice(keys), forced_cite=eid, allow_lie=False)

    def _revise_omitted_parent(self, key: str) -> Event:
        assert self.omitted is not None
        event = self._decide(key, allow_lie=False)
        self.omitted["parent_revised_at"] = self.seq
        self.mandatory["omitted_dependency"]["parent_revised_at"] = self.seq
        self.w.extra_current.discard(self.omitted["eid"])
        return event

    def _reveal(self, eid: str) -> Event:
        assert self.omitted is not None
        w = self.w
        truth = {d for d in w.descendants(eid) if d in w.bodies}
        self.blast_truth[eid] = truth
        self.w.invalid.add(eid)
        key = f"review/{self.omitted['key']}"
        body = self._body(
            f"@s{self.seq} fact {key} = suspect",
            self._because(
                self._rtag(),
                f"{self.omitted['key']} was derived from {self.omitted['parent_key']}@s"
                f"{self.omitted['parent'].rsplit('@s', 1)[1]}, which changed at @s"
                f"{self.omitted.get('parent_revised_at', '?')}; it and what was built on it "
                "are suspect",
            ),
        )
        spec = self._add(
            EntrySpec(eid=self._eid(key), cls="fact", key=key, body=body, source="review"), set()
        )
        self.mandatory["omitted_dependency"].update(
            {
                "revealed_at": self.seq,
                "true_blast_radius": sorted(truth),
                "sets_between": self.seq - self.omitted["seq"],
            }
        )
        self._open("omitted_dependency", [w.key_of[d] for d in truth])
        return Event(self.seq, "reveal", (spec,), invalidate=(eid,))

    def _correct_lie(self, lie: Revision) -> Event | None:
        w = self.w
        entries: list[EntrySpec] = []
        for key, reason in (
            (lie.key, f"correction: @s{lie.seq} concerned {lie.true_key}, not {lie.key}"),
            (lie.true_key, f"correction: restates {lie.true_key} after @s{lie.seq}"),
        ):
            latest = w.written.get(key, [])
            if key == lie.key and (not latest or latest[-1] is not lie):
                continue  # the lie was already replaced by a later revision of its key
            value = w.value(key)
            if value is None:
                continue
            rtag = self._rtag()
            body = self._body(
                f"@s{self.seq} decision {key} = {value}",
                self._because(rtag, reason),
                f"replaces: {ref_text(key, latest[-1].seq)}" if latest else "",
            )
            eid = ref_text(key, self.seq)
            entries.append(
                self._add(
                    EntrySpec(
                        eid=eid,
                        cls="decision",
                        key=key,
                        body=body,
                        supersedes=(latest[-1].eid,) if latest else (),
                    ),
                    set(),
                )
            )
            rev = Revision(
                eid, key, key, self.seq, value, rtag, (), (), bool(latest), correction=True
            )
            w.written.setdefault(key, []).append(rev)
        if not entries:
            return None
        for interval in self._lie_intervals.get(lie.eid, []):
            if interval.end is None:
                interval.end = self.seq
        w.invalid.add(lie.eid)
        return Event(self.seq, "lie_correction", tuple(entries), invalidate=(lie.eid,))

    # -- probes ----------------------------------------------------------------------------------
    def _probes(self, now: int) -> list[Probe]:
        w = self.w
        mix = self.run.probes
        rng = random.Random(self.p.seed * 100_003 + now)
        out: list[Probe] = []

        def add(
            ptype: str,
            key: str,
            question: str,
            truth: Answer,
            at: int | None = None,
            stale: frozenset[str] = frozenset(),
            extra: tuple[str, ...] = (),
        ) -> None:
            t = now if at is None else at
            keys = {key, *extra}
            errors = {i.kind for i in w.intervals if i.active(t) and i.keys & keys}
            pid = f"{self.p.name}/{now}/{ptype}/{len(out)}"
            out.append(Probe(pid, ptype, key, now, at, question, truth, stale, frozenset(errors)))

        keys = sorted(k for k in w.true_hist if w.value(k) is not None)
        revised = [k for k in keys if len(w.true_hist[k]) > 1]
        for key in self._sample(rng, revised or keys, mix.current_value):
            hist = w.true_hist[key]
            add(
                "current_value",
                key,
                f"What is the current value of {key}?",
                hist[-1][1],
                stale=frozenset(v for _, v, _ in hist[:-1]),
            )
        silent = [
            k
            for k in sorted(w.written)
            if w.current_rev(k) is w.written[k][-1]
            and not w.written[k][-1].explicit
            and len(w.written[k]) > 1
            and k in w.true_hist
        ]
        for key in self._sample(rng, silent, mix.revision_without_supersession):
            hist = w.true_hist[key]
            add(
                "revision_without_supersession",
                key,
                f"What is the current value of {key}?",
                hist[-1][1],
                stale=frozenset(v for _, v, _ in hist[:-1]),
            )
        items = sorted(w.items)
        for key in self._sample(rng, items, mix.in_force):
            item = w.items[key]
            add(
                "in_force",
                key,
                f"Is {key} still open or in force at seq {now}?",
                w.item_open(item, now),
            )
        current = w.current_eids(now)
        dependents: dict[str, set[str]] = {}
        for eid in current:
            for parent in w.parents.get(eid, ()):
                if parent in current:
                    dependents.setdefault(parent, set()).add(w.key_of[eid])
        subjects = sorted(
            e
            for e in current
            if w.key_of[e] in w.true_hist or w.key_of[e].startswith(("ev/", "drv/"))
        )
        with_deps = [e for e in subjects if e in dependents]
        pool = with_deps + self._sample(
            rng, [e for e in subjects if e not in dependents], max(1, len(with_deps) // 3)
        )
        for eid in self._sample(rng, sorted(pool), mix.depends_on):
            key = w.key_of[eid]
            deps = frozenset(dependents.get(eid, set()))
            add("depends_on", key, f"What currently depends on {key}?", deps, extra=tuple(deps))
        resting = []
        for key in keys:
            rev = w.current_rev(key)
            if (
                rev is not None
                and rev.cites
                and not any(c in w.invalid and w.key_of[c] not in w.evidence for c in rev.cites)
            ):
                resting.append(key)
        for key in self._sample(rng, resting, mix.rests_on):
            rev = w.current_rev(key)
            assert rev is not None
            truth = set()
            for c in rev.cites:
                ckey = w.key_of[c]
                if ckey in w.evidence:
                    truth.add(f"{ckey}={w.evidence[ckey][-1][2]}")
                else:
                    truth.add(f"{ckey}={w.derived[c][2]}")
            add(
                "rests_on",
                key,
                f"What evidence does the current decision on {key} rest on?",
                frozenset(truth),
                extra=tuple(w.key_of[c] for c in rev.cites),
            )
        changed = [k for k in keys if len(w.true_hist[k]) > 1]
        for key in self._sample(rng, changed, mix.why_changed):
            seq, _, rtag = rng.choice(w.true_hist[key][1:])
            add("why_changed", key, f"Why did {key} change at seq {seq}?", rtag, at=seq)
        for key in self._sample(rng, keys, mix.value_at):
            first = w.true_hist[key][0][0]
            at = rng.randint(first, max(first, now - 1))
            value = w.value_at(key, at)
            assert value is not None
            add(
                "value_at",
                key,
                f"What was {key} at seq {at}?",
                value,
                at=at,
                stale=frozenset(v for _, v, _ in w.true_hist[key]) - {value},
            )
        return out

    @staticmethod
    def _sample(rng: random.Random, pool: list[str], n: int) -> list[str]:
        if n <= 0 or not pool:
            return []
        return rng.sample(pool, min(n, len(pool)))


def generate(params: WorkloadParams, run: RunParams) -> Workload:
    """Generate the workload (deterministic in ``params.seed``)."""
    return _Generator(params, run).run_all()
