"""Running the triangle: every system consumes the same events; at each checkpoint every system
answers the same probes through the same reader; the metrics are computed from what each system
handed the reader and from the ground truth.

Metrics (per system and workload; see ``DESIGN.md`` for the exact definitions):

- accuracy per checkpoint (all probes; per probe type), tokens read per probe (the context's
  tokens, window plus any recall), recall count and rehydrated tokens;
- resident tokens over seq and the retention ratio (committed tokens / resident tokens);
- useful horizon: the last checkpoint before accuracy first falls below the threshold;
- false retirements: actually-needed entries absent from the context at a checkpoint (the
  governed window, the transcript window; retrieval is per query, not applicable);
- false resurrections: entries the truth no longer holds, present in the context and not marked
  withdrawn (mean per probe for retrieval);
- stale answers: a wrong answer that is an old value of the key;
- halt rate and categories, operator actions (governed);
- per injected error kind: accuracy on the probes it touched versus the others, flags;
- the mandatory cases: the omitted dependency's blast radius and effort, ontology evolution.
"""

from __future__ import annotations

import hashlib
import re
import time
import uuid
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any

from benchmarks.triangle.events import Event
from benchmarks.triangle.governed import GovernedSystem, default_constitution_text
from benchmarks.triangle.params import RunParams, WorkloadParams
from benchmarks.triangle.reader import parse, read
from benchmarks.triangle.systems import Retrieval, System, Transcript
from benchmarks.triangle.textkit import Tokens
from benchmarks.triangle.workload import UNKNOWN, Probe, Workload, generate

__all__ = ["SystemRun", "operator_constitution", "run_system", "run_workload"]

HISTORICAL = ("value_at", "why_changed")
BASELINES = ("transcript", "retrieval")


@dataclass(slots=True)
class SystemRun:
    """Everything one system produced on one workload."""

    name: str
    stream_sha256: str = ""
    probes_sha256: str = ""
    events: int = 0
    checkpoints: list[dict[str, Any]] = field(default_factory=list)
    answers: list[dict[str, Any]] = field(default_factory=list)
    finish: dict[str, Any] = field(default_factory=dict)
    seconds: float = 0.0
    blast: dict[str, Any] = field(default_factory=dict)


def _probe_order(probes: list[Probe]) -> list[Probe]:
    """Current-state probes first, then historical ones (recall changes the governed window)."""
    return [p for p in probes if p.ptype not in HISTORICAL] + [
        p for p in probes if p.ptype in HISTORICAL
    ]


def _closure(context: str, root: tuple[str, int]) -> set[str]:
    """Entries (``key@s<stamp>``) reachable from ``root`` by following the exact ``based on``
    references of a context's lines: what an operator rereading that context can find."""
    lines = parse(context)
    found: set[tuple[str, int]] = set()
    frontier = {root}
    while frontier:
        nxt = set()
        for line in lines:
            ident = (line.key, line.stamp)
            if ident in found or ident == root:
                continue
            if any(ref in frontier for ref in line.based_on):
                nxt.add(ident)
        found |= nxt
        frontier = nxt
    return {f"{key}@s{stamp}" for key, stamp in found}


def run_system(system: System, workload: Workload, run: RunParams) -> SystemRun:
    """Feed ``system`` the workload's events; ask its probes at every checkpoint."""
    out = SystemRun(name=system.name)
    probes_hash = hashlib.sha256()
    started = time.perf_counter()
    reveal = workload.mandatory.get("omitted_dependency", {})
    counter = _TOKENS.setdefault(0, Tokens())
    event_tokens = state_tokens = 0
    for event in workload.events:
        system.consume(event)
        sizes = counter.count([e.body for e in event.entries])
        event_tokens += sum(sizes)
        state_tokens += sum(n for e, n in zip(event.entries, sizes, strict=True) if not e.explored)
        if reveal.get("revealed_at") == event.seq:
            out.blast = _blast(system, workload, event)
        probes = workload.probes.get(event.seq)
        if probes is None:
            continue
        meta = system.checkpoint(event.seq, probes)
        ordered = _probe_order(probes)
        tokens: list[int] = []
        resurrected: list[int] = []
        obsolete = workload.obsolete[event.seq]
        for probe in ordered:
            probes_hash.update(f"{probe.pid}\n{probe.question}\n".encode())
            ctx = system.context(probe)
            reading = read(ctx.text, probe)
            correct = reading.answer == probe.truth
            stale = (
                not correct and isinstance(reading.answer, str) and reading.answer in probe.stale
            )
            tokens.append(ctx.tokens)
            if system.name == "retrieval":
                resurrected.append(len(ctx.eids & obsolete))
            out.answers.append(
                {
                    "checkpoint": event.seq,
                    "pid": probe.pid,
                    "type": probe.ptype,
                    "correct": correct,
                    "unknown": reading.answer == UNKNOWN,
                    "stale": stale,
                    "flagged": reading.flagged,
                    "tokens": ctx.tokens,
                    "recalls": ctx.recalls,
                    "rehydrated_tokens": ctx.rehydrated_tokens,
                    "errors": sorted(probe.errors),
                }
            )
        needed = workload.needed[event.seq]
        row: dict[str, Any] = {
            "seq": event.seq,
            "committed_tokens": meta.get("committed_tokens"),
            "event_tokens": event_tokens,
            "state_tokens": state_tokens,
            "resident_tokens": meta.get("resident_tokens"),
            "retention_ratio": meta.get("retention_ratio"),
            "tokens_per_probe": sum(tokens) / len(tokens) if tokens else 0.0,
            "needed_entries": len(needed),
            "needed_tokens": sum(_tokens_of(workload, needed)),
        }
        if system.name == "retrieval":
            row["false_retirements"] = None
            row["false_resurrections"] = sum(resurrected) / len(resurrected) if resurrected else 0.0
            row["resident_tokens"] = row["tokens_per_probe"]
        else:
            present = meta.get("context_eids", meta.get("resident_eids", frozenset()))
            live = meta.get("context_live_eids", present)
            row["false_retirements"] = len(needed - present)
            row["false_retirement_tokens"] = sum(_tokens_of(workload, needed - present))
            row["false_retirement_classes"] = dict(
                Counter(_class_of(workload, e) for e in needed - present)
            )
            row["false_resurrections"] = len(live & obsolete)
            row["over_retained_entries"] = len(present - needed)
            for name in ("boundary_seq", "resident_entries", "window_over_budget"):
                if name in meta:
                    row[name] = meta[name]
            if "resident_items" in meta:
                row["resident_breakdown"] = _breakdown(
                    meta["resident_items"], needed, workload.current[event.seq], obsolete
                )
        if row["retention_ratio"] is None and row["resident_tokens"]:
            row["retention_ratio"] = row["committed_tokens"] / row["resident_tokens"]
        row["retention_ratio_state"] = (
            state_tokens / row["resident_tokens"] if row["resident_tokens"] else None
        )
        out.checkpoints.append(row)
    out.seconds = time.perf_counter() - started
    out.events = system.stream.count
    out.stream_sha256 = system.stream.hexdigest()
    out.probes_sha256 = probes_hash.hexdigest()
    out.finish = system.finish()
    return out


_TOKENS: dict[int, Tokens] = {}


def _breakdown(
    items: tuple[tuple[str | None, str, int], ...],
    needed: set[str],
    current: set[str],
    obsolete: set[str],
) -> dict[str, int]:
    """Resident tokens of the governed window by what the truth says they are."""
    out: Counter[str] = Counter()
    for eid, kind, tokens in items:
        if kind == "recall copy":
            out["recall copies"] += tokens
            continue
        if eid in needed:
            label = "needed"
        elif eid in obsolete:
            label = "obsolete (stale)"
        elif eid in current:
            label = "current, not needed"
        else:
            label = "history (closures, notes, reviews)"
        out[f"{label}{' [interface]' if kind == 'interface' else ''}"] += tokens
    return dict(sorted(out.items()))


def _tokens_of(workload: Workload, eids: set[str]) -> list[int]:
    counter = _TOKENS.setdefault(0, Tokens())
    return counter.count([workload.bodies[e] for e in sorted(eids)])


_CLASS = re.compile(r"^@s\d+ (?P<cls>[a-z_]+) ")


def _class_of(workload: Workload, eid: str) -> str:
    found = _CLASS.match(workload.bodies[eid])
    return found.group("cls") if found else "?"


def _blast(system: System, workload: Workload, event: Event) -> dict[str, Any]:
    """The omitted dependency's blast radius as each system can find it at the reveal."""
    info = workload.mandatory["omitted_dependency"]
    truth_eids = set(workload.blast_truth.get(info["eid"], set()))
    if isinstance(system, GovernedSystem):
        rows = [r for r in system.blast if r["failed"] == info["eid"]]
        if not rows:
            return {"found": [], "truth": len(truth_eids), "error": "no walk recorded"}
        walk = rows[-1]
        found = set(walk["at_risk"]) | set(walk["flagged"])
        return {
            "truth": len(truth_eids),
            "found": len(found & truth_eids),
            "false_positives": len(found - truth_eids),
            "recall": len(found & truth_eids) / len(truth_eids) if truth_eids else 1.0,
            "effort_items": walk["recovery_actions"]["total"],
            "effort_unit": "recovery actions (replace failed + decide at-risk + review flagged)",
            "at_risk": len(walk["at_risk"]),
            "flagged": len(walk["flagged"]),
        }
    probe = Probe(
        pid=f"blast/{info['key']}",
        ptype="depends_on",
        key=info["key"],
        now=event.seq,
        at_seq=None,
        question=f"What currently depends on {info['key']}?",
        truth=frozenset(),
        stale=frozenset(),
        errors=frozenset(),
    )
    system.checkpoint(event.seq, [probe])
    ctx = system.context(probe)
    found = _closure(ctx.text, (info["key"], info["seq"]))
    lines = len([line for line in ctx.text.splitlines() if line.strip()])
    since = sum(len(e.entries) for e in workload.events if info["seq"] <= e.seq <= event.seq)
    return {
        "truth": len(truth_eids),
        "found": len(found & truth_eids),
        "false_positives": len(found - truth_eids),
        "recall": len(found & truth_eids) / len(truth_eids) if truth_eids else 1.0,
        "effort_items": lines,
        "effort_unit": "context lines to reread (nothing is typed or flagged)",
        "history_lines_since_omission": since,
    }


def operator_constitution(
    default_text: str, governed: SystemRun, run: RunParams
) -> tuple[str | None, list[str]]:
    """The constitution an operator would ratify after reading the default's report (``None``
    when the default fits by these rules) and the notes saying why. Derived mechanically, never
    tuned by hand:

    - the halt rate reached 5% and the halts suggested numeric amendments: each suggested limit
      is adopted (the largest value suggested, ``max_edges_per_live_entry`` with 25% headroom);
    - at a checkpoint where the window was within the budget, the window lacked at least 10% of
      the actually-needed entries and those were of classes that are not roots (the state is not
      rooted): those classes are added to the roots.
    """
    text = default_text
    notes: list[str] = []
    finish = governed.finish
    if finish.get("halt_rate", 0.0) >= 0.05:
        limits: dict[tuple[str, str], float] = {}
        pattern = re.compile(r"\[(\w+)\] (\w+) = ([0-9.]+)")
        for amendment in finish.get("suggested_amendments", {}):
            for section, key, value in pattern.findall(amendment):
                current = limits.get((section, key), 0.0)
                limits[(section, key)] = max(current, float(value))
        for (section, key), value in sorted(limits.items()):
            line = re.compile(rf"^{key} = [0-9.]+$", re.MULTILINE)
            if not line.search(text):
                continue
            number = f"{value * 1.25:.2f}" if key == "max_edges_per_live_entry" else str(int(value))
            text = line.sub(f"{key} = {number}", text, count=1)
            notes.append(f"[{section}] {key} = {number} (halts suggested {value:g})")
    roots_line = re.compile(r"^classes = \[(?P<items>[^\]]*)\]$", re.MULTILINE)
    found = roots_line.search(text)
    roots = [c.strip().strip('"') for c in found.group("items").split(",")] if found else []
    engine_class = {"question": "open_question", "rejected": "rejected_alternative"}
    lost: set[str] = set()
    for row in governed.checkpoints:
        if row.get("window_over_budget") or not row["needed_entries"]:
            continue
        classes = {
            engine_class.get(c, c): n
            for c, n in (row.get("false_retirement_classes") or {}).items()
        }
        unrooted = {c: n for c, n in classes.items() if c not in roots}
        if sum(unrooted.values()) >= 0.10 * row["needed_entries"]:
            lost.update(unrooted)
    if found is not None and lost:
        added = sorted(lost)
        new = ", ".join(f'"{c}"' for c in [*roots, *added])
        text = text[: found.start()] + f"classes = [{new}]" + text[found.end() :]
        notes.append(f"[roots] classes += {added} (>= 10% of needed entries lost, unrooted)")
    if not notes:
        return None, [
            f"default kept: halt rate {finish.get('halt_rate', 0.0):.1%} (< 5% or no numeric "
            "amendment suggested) and no checkpoint within budget lost >= 10% of the needed "
            "entries to unrooted classes"
        ]
    digest = hashlib.sha256(text.encode()).hexdigest()[:8]
    text = re.sub(
        r'^version = "[^"]*"$',
        f'version = "triangle-op-{digest}"',
        text,
        count=1,
        flags=re.MULTILINE,
    )
    return text, notes


def run_workload(
    params: WorkloadParams, run: RunParams, engine: Any, run_id: str, log: Any
) -> dict[str, Any]:
    """Generate one workload and run every system on it."""
    started = time.perf_counter()
    workload = generate(params, run)
    tokens = Tokens()
    log(
        f"[{params.name}] generated {len(workload.events)} sets, "
        f"{sum(len(v) for v in workload.probes.values())} probes "
        f"({time.perf_counter() - started:.1f}s)"
    )
    results: dict[str, SystemRun] = {}
    for system in (Transcript(run.budget_tokens, tokens), Retrieval(run.budget_tokens, tokens)):
        results[system.name] = run_system(system, workload, run)
        log(f"[{params.name}] {system.name}: {results[system.name].seconds:.1f}s")
    boundary = f"triangle-{run_id}-{params.name}"
    governed = GovernedSystem(
        engine,
        f"{boundary}-default",
        budget=run.budget_tokens,
        tokens=tokens,
        czar_every=run.czar_every,
    )
    results[governed.name] = run_system(governed, workload, run)
    log(f"[{params.name}] {governed.name}: {results[governed.name].seconds:.1f}s")
    text, operator_notes = operator_constitution(
        default_constitution_text(), results[governed.name], run
    )
    if text is not None:
        governed_op = GovernedSystem(
            engine,
            f"{boundary}-operator",
            budget=run.budget_tokens,
            tokens=tokens,
            czar_every=run.czar_every,
            constitution_text=text,
            constitution_label="operator",
        )
        results[governed_op.name] = run_system(governed_op, workload, run)
        log(
            f"[{params.name}] {governed_op.name}: {results[governed_op.name].seconds:.1f}s "
            f"({'; '.join(operator_notes)})"
        )
    return {
        "workload": workload,
        "results": results,
        "operator_notes": operator_notes,
        "operator_ran": text is not None,
        "seconds": time.perf_counter() - started,
    }


def new_run_id() -> str:
    return uuid.uuid4().hex[:8]


def group_answers(answers: list[dict[str, Any]]) -> dict[int, list[dict[str, Any]]]:
    out: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for a in answers:
        out[a["checkpoint"]].append(a)
    return out
