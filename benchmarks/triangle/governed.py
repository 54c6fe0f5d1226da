"""The governed system: the ONLY module of the triangle that calls ``kg_context``.

It drives the engine exactly as an orchestrator would, through names ``kg_context`` exports and
the methods of the boundary handle: ``Engine.connect`` / ``Engine.boundary``, ``Boundary.commit``
and ``Boundary.propose_constitution``, ``engine.halts.resolve`` (the operator), ``run_czar`` at a
fixed cadence, ``Boundary.context`` (the context every probe reads), ``window`` and ``Window`` (the
resident entries), ``stats`` and ``audit`` (metrics), ``as_of`` / ``history_index`` / ``walk``
and ``admit`` (ledger walk and recall through the gate), ``invalidate`` (a revealed mistake);
and ``kg_context.record.ontology``'s ``change`` / ``migrate`` (ontology evolution, which has no
handle method). No Cypher, no internals: a signature change in the engine is a fix in this file
only.

How each event is consumed:

1. Its entries become one proposal (writer ``triangle-writer``, kind agent; targets: the keys it
   touches) with the event's declarations. A declared REQUIRES on an entry that is no longer in the
   window (retired) is promoted through recall: ``admit`` brings a
   scratch copy in through the gate and the new entry requires the copy (provenance still points
   at the original). Each promotion counts as a recall, its copies' tokens as rehydrated tokens.
2. ``Boundary.commit``. A halt is resolved by the operator policy: approve (the operator trusts
   the declarations it cannot check and the czar's mechanical plan; a rejected compaction would
   be proposed again at the next run and block every later compaction). Every halt is counted
   by reason code and by the kind of set it stopped.
3. Operator acts of the event: each entry declared failed is invalidated (``invalidate``: the
   walk, one blast-radius set), then the writer revalidates the at-risk descendants it
   re-examined (a set citing the failed ancestor). An ontology change runs ``ontology.change``,
   migrates the re-classed entries, and revalidates the others.
4. Every ``czar_every`` event sets, ``run_czar``.

Probes read the engine's focused context block: ``Boundary.context(B, query=<the probe's
question>, focus=True)`` (a question that names a key of the boundary gets the entries on that key
and on its neighbours' keys, with ids, status tags and needs; one that names none gets the whole
window by priority within B tokens, the resident history-index lines and record candidates for the
question, marked as record), exactly the text the engine gives; checkpoints read
``Boundary.context(B)``. Historical probes first walk the ledger
(``as_of`` for "what was K at seq s", ``history_index`` + ``walk`` for "why did K
change at seq s") and admit what they found through the gate: charged as a recall with the
tokens of the copies.
"""

from __future__ import annotations

import re
import time
from collections import Counter
from typing import Any, Literal

import kg_context
from benchmarks.triangle.events import EntrySpec, Event, StreamHash
from benchmarks.triangle.systems import Context
from benchmarks.triangle.textkit import Tokens
from benchmarks.triangle.workload import Probe
from kg_context import (
    Decision,
    Engine,
    KgContextError,
    StateError,
    Window,
    load_constitution,
)
from kg_context.record import ontology

__all__ = [
    "GovernedSystem",
    "connect",
    "default_constitution_text",
    "describe_database",
    "exported_names",
]

WRITER = "triangle-writer"
# The operator id the default constitution names (`[authority] operators`): only a named operator
# may ratify a constitution change, resolve a halt or write as an operator.
OPERATOR = "operator"
READER = "triangle-reader"
STANDING = frozenset({"live", "revalidated", "challenged", "at_risk"})
LIVE = frozenset({"live", "revalidated"})
DECISION_CLASSES = frozenset({"decision", "pin"})
# Manifest sections that are not window entries, and a record line of the context ("record, not
# window": its tag starts with the entry's status).
NOT_ENTRIES = frozenset({"index", "record"})
_RECORD = re.compile(r"^- \[(?P<status>[a-z_]+); record, [^\]]*\] (?P<id>\S+) ", re.MULTILINE)


def default_constitution_text() -> str:
    """The TOML text of the shipped default constitution."""
    return load_constitution().text


def exported_names() -> frozenset[str]:
    """The public names of ``kg_context`` (its ``__all__``)."""
    return frozenset(kg_context.__all__)


def describe_database(engine: Engine) -> str:
    return f"{engine.target.describe()}, {engine.server_version()}"


def connect() -> Engine:
    """The engine on the resolved database (``NEO4J_URI`` -> Docker -> local server)."""
    return Engine.connect()


class GovernedSystem:
    """The governed engine behind the same consume/context interface as the baselines."""

    def __init__(
        self,
        engine: Engine,
        boundary_id: str,
        *,
        budget: int,
        tokens: Tokens,
        czar_every: int,
        constitution_text: str | None = None,
        constitution_label: str = "default",
    ) -> None:
        self.name = f"governed-{constitution_label}"
        self.engine = engine
        self.bid = boundary_id
        self.budget = budget
        self.tokens = tokens
        self.czar_every = czar_every
        self.stream = StreamHash()
        self.boundary = engine.boundary(boundary_id)
        self.constitution_decision: dict[str, Any] | None = None
        if constitution_text is not None:
            decision = self.boundary.propose_constitution(
                constitution_text,
                writer_id=OPERATOR,
                reason="triangle: operator constitution for this workload",
            )
            self.constitution_decision = _decision_row(decision)
            if decision.outcome != "commit":
                raise StateError(
                    f"the operator constitution was not ratified: {decision.reason_code} "
                    f"{decision.detail}"
                )
        # Entry ids are unique within a boundary: a short prefix keeps the writer's ids apart
        # from the czar's and recall's, and costs a model two tokens per cited id, not twenty.
        self.prefix = "w:"
        self.alias: dict[str, str] = {}  # event entry id -> governed id after a migration
        self.seq_map: dict[int, int] = {}  # event seq -> boundary seq of its commit
        self.bodies: dict[str, str] = {}
        self.resident: set[str] | None = None  # governed ids in the window (cache)
        self.decisions: Counter[str] = Counter()  # outcome -> count (every set decided)
        self.halts: Counter[str] = Counter()  # reason code -> halts raised
        self.halts_by_kind: Counter[str] = Counter()  # set kind -> halts raised
        self.rejections: Counter[str] = Counter()
        self.amendments: Counter[str] = Counter()  # suggested amendment -> halts suggesting it
        self.rejected_events: list[dict[str, Any]] = []
        self.operator_actions: Counter[str] = Counter()
        self.recalls = {"promotions": 0, "promotion_tokens": 0, "history": 0, "history_tokens": 0}
        self.cut_by_recall_cap = 0
        self.blast: list[dict[str, Any]] = []
        self.ontology_report: dict[str, Any] | None = None
        self.czar_runs = 0
        self.czar_seconds = 0.0
        self.commit_seconds = 0.0
        self.history_seconds = 0.0
        self.czar_retired = 0
        self.czar_skipped_own = 0
        self.errors: list[str] = []
        self._window_cache: Window | None = None

    # -- ids -------------------------------------------------------------------------------------
    def gid(self, eid: str) -> str:
        return self.alias.get(eid, self.prefix + eid)

    def eid_of(self, gid: str) -> str | None:
        """The event entry id a governed id stands for (interfaces count as their original;
        recalled copies, and the copies the gate's [on_dependency] rule rehydrates, count as
        nothing)."""
        if _is_copy(gid):
            return None
        if gid.endswith("/interface"):
            gid = gid[: -len("/interface")]
        for eid, target in self.alias.items():
            if target == gid:
                return eid
        return gid[len(self.prefix) :] if gid.startswith(self.prefix) else None

    # -- the gate --------------------------------------------------------------------------------
    def _record(self, decision: Decision, kind: str) -> Decision:
        """Count a decision; resolve a halt by the operator policy; return the final decision."""
        self.decisions[str(decision.outcome)] += 1
        if decision.outcome == "reject":
            self.rejections[decision.reason_code or "?"] += 1
            return decision
        if decision.outcome != "halt" or decision.halt_id is None:
            return decision
        self.halts[decision.reason_code or "?"] += 1
        self.halts_by_kind[kind] += 1
        if decision.suggested_amendment:
            self.amendments[decision.suggested_amendment] += 1
        policy: Literal["approve"] = "approve"
        self.operator_actions[f"halt_{policy}"] += 1
        try:
            resolution = self.engine.halts.resolve(
                decision.halt_id,
                policy,
                operator_id=OPERATOR,
                reason=f"triangle operator policy: approve ({kind} set)",
            )
        except KgContextError as err:
            self.errors.append(f"resolve {decision.halt_id}: {err}")
            return decision
        if resolution.decision is not None:
            return resolution.decision
        return decision

    def _commit(self, proposal: dict[str, Any], kind: str) -> Decision:
        started = time.perf_counter()
        decision = self._record(self.boundary.commit(proposal), kind)
        self.commit_seconds += time.perf_counter() - started
        self._window_cache = None
        return decision

    def _resident_ids(self) -> set[str]:
        if self.resident is None:
            self.resident = {e.id for e in self._window().entries}
        return self.resident

    def _window(self) -> Window:
        if self._window_cache is None:
            self._window_cache = self.boundary.window()
        return self._window_cache

    def _promote(self, targets: list[str]) -> dict[str, str]:
        """Admit scratch copies of required entries that left the window (recall, promotion)."""
        resident = self._resident_ids()
        missing = sorted({t for t in targets if t not in resident})
        if not missing:
            return {}
        try:
            admission = self.boundary.admit(missing, writer_id=WRITER)
        except KgContextError as err:
            self.errors.append(f"promote {missing[:3]}: {err}")
            return {}
        self._record(admission.decision, "recall")
        self.cut_by_recall_cap += len(admission.cut) + len(admission.depth_cut)
        self.recalls["promotions"] += 1
        copies = {o: c for o, c in admission.copies.items() if o in missing}
        self.recalls["promotion_tokens"] += sum(
            self.tokens.count([self.bodies.get(self._eid_or(o), "") for o in admission.copies])
        )
        self.resident = None
        self._window_cache = None
        return copies

    def _eid_or(self, gid: str) -> str:
        return self.eid_of(gid) or gid

    def _entry(self, spec: EntrySpec, copies: dict[str, str]) -> dict[str, Any]:
        because = next((s for s in spec.body.split(" | ") if s.startswith("because: ")), "")
        attributes: dict[str, str | int | float | bool] = {}
        if spec.source:
            attributes["source"] = spec.source
        if spec.explored:
            attributes["explored"] = True
        entry: dict[str, Any] = {
            "id": self.gid(spec.eid),
            "class": spec.cls,
            "key": spec.key,
            "body": spec.body,
            "supersedes": [
                {"entry_id": self.gid(e), "reason": because or "replaced"} for e in spec.supersedes
            ],
            "derived_from": [
                {"entry_id": self.gid(r.eid), "essential": r.essential} for r in spec.derived_from
            ],
            "requires": [
                {
                    "entry_id": copies.get(self.gid(r.eid), self.gid(r.eid)),
                    "policy": r.policy,
                    "lease_sets": r.lease,
                    "needs": list(r.needs),
                }
                for r in spec.requires
            ],
            "attributes": attributes,
        }
        if spec.expires_after is not None:
            entry["expires_after"] = spec.expires_after
        if spec.superseded_by_default:
            entry["superseded_by_default"] = True
        return entry

    # -- consuming the stream --------------------------------------------------------------------
    def consume(self, event: Event) -> None:
        self.stream.update(event)
        for spec in event.entries:
            self.bodies[spec.eid] = spec.body
        new_ids = {self.gid(s.eid) for s in event.entries}
        required = [
            self.gid(r.eid)
            for s in event.entries
            for r in s.requires
            if self.gid(r.eid) not in new_ids
        ]
        copies = self._promote(required) if required else {}
        proposal = {
            "id": f"{self.bid}/e{event.seq}",
            "boundary_id": self.bid,
            "writer_id": WRITER,
            "writer_kind": "agent",
            "targets": sorted({s.key for s in event.entries}),
            "entries": [self._entry(s, copies) for s in event.entries],
            "summary": f"event {event.seq}: {event.kind}",
        }
        decision = self._commit(proposal, "state")
        if decision.outcome == "commit" and decision.seq is not None:
            self.seq_map[event.seq] = decision.seq
            if self.resident is not None:
                self.resident.update(self.gid(s.eid) for s in event.entries if not s.explored)
                for spec in event.entries:
                    self.resident.difference_update(self.gid(e) for e in spec.supersedes)
        else:
            self.rejected_events.append(
                {
                    "seq": event.seq,
                    "kind": event.kind,
                    "outcome": str(decision.outcome),
                    "reason_code": decision.reason_code,
                    "detail": decision.detail,
                }
            )
        for eid in event.invalidate:
            self._invalidate(eid, event)
        if event.ontology is not None:
            self._ontology(event)
        if self.czar_every and event.seq % self.czar_every == 0:
            self.run_czar()

    def run_czar(self) -> None:
        started = time.perf_counter()
        report = self.boundary.run_czar()
        self.czar_seconds += time.perf_counter() - started
        self.czar_runs += 1
        summary = report.summary()
        self.czar_retired += len(summary["retired"])
        self.czar_skipped_own = len(summary["skipped_own"])
        for decision in report.decisions:
            self._record(decision, "compaction")
        self.resident = None
        self._window_cache = None

    def _invalidate(self, eid: str, event: Event) -> None:
        """A revealed mistake: invalidate the failed entry (the walk marks its descendants at
        risk, one blast-radius set), then recover: the writer revalidates the at-risk entries that
        were in the window before the walk (current state it re-examined, citing the failed
        ancestor); the operator retires the ones that were not (history the walk put at risk)."""
        target = self.gid(eid)
        before = set(self._resident_ids())
        try:
            blast = self.boundary.invalidate(
                target,
                reason=f"revealed at event {event.seq}: {event.kind}",
                writer_id=OPERATOR,
            )
        except KgContextError as err:
            self.errors.append(f"invalidate {eid}: {err}")
            return
        self._record(blast.decision, "invalidation")
        self.operator_actions["invalidations"] += 1
        moved = sorted(blast.moved_at_risk)
        current = [i for i in moved if i in before]
        history_moved = [i for i in moved if i not in before]
        row: dict[str, Any] = {
            "event_seq": event.seq,
            "kind": event.kind,
            "failed": eid,
            "at_risk": sorted(filter(None, (self.eid_of(i) for i in blast.walk.at_risk))),
            "flagged": sorted(filter(None, (self.eid_of(i) for i in blast.walk.flagged))),
            "moved_at_risk": len(moved),
            "moved_from_history": len(history_moved),
            "depth": blast.walk.depth,
            "cut": blast.walk.cut,
            "recovery_actions": blast.recovery_actions(),
            "outcome": str(blast.decision.outcome),
        }
        serial = len(self.blast)
        if current:
            row["revalidation"] = self._transition(
                f"revalidate/e{event.seq}/{serial}",
                current,
                "revalidated",
                f"re-examined after {eid} failed; still holds",
                revalidates=[target],
            )
            self.operator_actions["revalidation_sets"] += 1
        if history_moved:
            row["retired_again"] = self._transition(
                f"retire/e{event.seq}/{serial}",
                history_moved,
                "retired",
                f"history the walk from {eid} put at risk; it stays in the record",
                operator=True,
                justification=f"not in the window before the walk from {target}",
            )
            self.operator_actions["retire_sets"] += 1
        self.blast.append(row)
        self.resident = None

    def _transition(
        self,
        name: str,
        ids: list[str],
        to: str,
        reason: str,
        *,
        revalidates: list[str] | None = None,
        operator: bool = False,
        justification: str = "",
    ) -> str:
        proposal: dict[str, Any] = {
            "id": f"{self.bid}/{name}",
            "boundary_id": self.bid,
            "writer_id": OPERATOR if operator else WRITER,
            "writer_kind": "operator" if operator else "agent",
            "targets": [f"recovery/{name}"],
            "transitions": [
                {
                    "entry_id": i,
                    "to": to,
                    "reason": reason,
                    "justification": [justification or reason],
                    **({"resident": False} if operator else {}),
                }
                for i in ids
            ],
            "summary": f"{to}: {len(ids)} entries ({reason})"[:2000],
        }
        if revalidates:
            proposal["revalidates"] = revalidates
        return str(self._commit(proposal, "recovery").outcome)

    def _ontology(self, event: Event) -> None:
        spec = event.ontology
        assert spec is not None
        try:
            changed = ontology.change(
                self.boundary,
                "split",
                spec.source,
                list(spec.into),
                reason=spec.reason,
                operator_id=OPERATOR,
            )
        except KgContextError as err:
            self.errors.append(f"ontology change: {err}")
            return
        self._record(changed.decision, "ontology")
        self.operator_actions["ontology_changes"] += 1
        at_risk = set(changed.at_risk)
        moves = {self.gid(e): c for e, c in spec.moves if self.gid(e) in at_risk}
        report: dict[str, Any] = {
            "seq": event.seq,
            "at_risk": len(at_risk),
            "migrated": len(moves),
            "change_outcome": str(changed.decision.outcome),
        }
        if moves:
            decisions = ontology.migrate(
                self.boundary,
                changed.change_entry_id,
                moves,
                reason=spec.reason,
                writer_id=OPERATOR,
            )
            for decision in decisions:
                self._record(decision, "migration")
            self.operator_actions["migration_sets"] += len(decisions)
            report["migration_sets"] = len(decisions)
            self._window_cache = None
            by_key = {
                e.key: e.id for e in self._window().entries if e.entry_class in set(spec.into)
            }
            for eid, _ in spec.moves:
                old = self.gid(eid)
                key = old[len(self.prefix) :].rsplit("@s", 1)[0]
                if old in moves and by_key.get(key, old) != old:
                    self.alias[eid] = by_key[key]
        rest = sorted(at_risk - set(moves))
        if rest:
            report["revalidation"] = self._transition(
                f"ontology-revalidate/e{event.seq}",
                rest,
                "revalidated",
                "re-examined after the ontology change: stays a plan",
                revalidates=[changed.change_entry_id],
            )
            report["revalidated"] = len(rest)
            self.operator_actions["revalidation_sets"] += 1
        self.ontology_report = report
        self.resident = None
        self._window_cache = None

    # -- probes ----------------------------------------------------------------------------------
    def checkpoint(self, seq: int, probes: list[Probe]) -> dict[str, Any]:
        self._window_cache = None
        current = self._window()
        s = self.boundary.stats()
        eids = {e for e in (self.eid_of(x.id) for x in current.entries) if e is not None}
        ctx = self._context()
        return {
            "seq": seq,
            "boundary_seq": s.seq,
            "committed_tokens": s.committed_tokens,
            "resident_tokens": s.resident_tokens,
            "resident_entries": s.resident_entries,
            "retention_ratio": s.retention_ratio,
            "context_tokens": ctx.tokens,
            "resident_eids": frozenset(eids),
            "context_eids": ctx.eids,
            "context_live_eids": ctx.extra["live_eids"],
            "window_over_budget": ctx.extra["cut"],
            "resident_items": tuple(
                self._item(x.id, x.entry_class, x.tokens) for x in current.entries
            ),
        }

    def _item(self, gid: str, entry_class: str, tokens: int) -> tuple[str | None, str, int]:
        """(event entry id or None, what it is, tokens) for one resident entry."""
        if _is_copy(gid):
            return None, "recall copy", tokens
        if entry_class == "interface":
            return self.eid_of(gid), "interface", tokens
        return self.eid_of(gid), "entry", tokens

    def _context(self, query: str | None = None) -> Context:
        """The engine's own context block within B tokens (``Boundary.context``, focused on the
        keys a query names), handed to the reader as it is; which entries it shows and which of
        those are live, from its manifest (window statuses) and its record lines' tags."""
        block = self.boundary.context(self.budget, query=query, focus=query is not None)
        status = {e.id: e.status for e in self._window().entries}
        status.update((m.group("id"), m.group("status")) for m in _RECORD.finditer(block.text))
        shown = block.manifest.included_ids
        eids = frozenset(e for e in (self.eid_of(i) for i in shown) if e)
        live = frozenset(e for e in (self.eid_of(i) for i in shown if status.get(i) in LIVE) if e)
        cut = sum(len(o.ids) for o in block.manifest.left_out if o.section not in NOT_ENTRIES)
        return Context(
            text=block.text, tokens=block.tokens, eids=eids, extra={"cut": cut, "live_eids": live}
        )

    def context(self, probe: Probe) -> Context:
        if probe.ptype not in ("value_at", "why_changed"):
            return self._context(probe.question)
        started = time.perf_counter()
        found = self._ledger_walk(probe)
        resident = {e.id for e in self._window().entries}
        wanted = sorted(i for i in found if i not in resident)
        rehydrated = 0
        if wanted:
            try:
                admission = self.boundary.admit(wanted, writer_id=READER)
            except KgContextError as err:
                self.errors.append(f"recall for {probe.pid}: {err}")
            else:
                self._record(admission.decision, "recall")
                self._window_cache = None
                copies = set(admission.copies.values())
                rehydrated = sum(
                    self.tokens.count(
                        [e.render() for e in self._window().entries if e.id in copies]
                    )
                )
        self.history_seconds += time.perf_counter() - started
        self.recalls["history"] += 1
        self.recalls["history_tokens"] += rehydrated
        ctx = self._context(probe.question)
        return Context(
            text=ctx.text,
            tokens=ctx.tokens,
            eids=ctx.eids,
            recalls=1,
            rehydrated_tokens=rehydrated,
            extra=ctx.extra,
        )

    def _ledger_walk(self, probe: Probe) -> list[str]:
        """Entry ids of the probe's key as they stood at the probe's seq, from the history API."""
        assert probe.at_seq is not None
        at = max((s for s in self.seq_map if s <= probe.at_seq), default=None)
        if at is None:
            return []
        boundary_seq = self.seq_map[at]
        if probe.ptype == "value_at":
            then = self.boundary.as_of(boundary_seq)
            return [
                e.id
                for e in then.entries
                if e.key == probe.key and e.entry_class in DECISION_CLASSES and e.status in STANDING
            ]
        if at != probe.at_seq:
            return []
        lines = self.boundary.history_index(from_seq=boundary_seq, to_seq=boundary_seq)
        out: list[str] = []
        for line in lines:
            opened = self.boundary.walk(line.set_id)
            out.extend(
                d.entry
                for d in opened.decided
                if d.key == probe.key and d.entry_class in DECISION_CLASSES
            )
        return out

    # -- the end ---------------------------------------------------------------------------------
    def finish(self) -> dict[str, Any]:
        s = self.boundary.stats()
        audit = self.boundary.audit()
        sets_decided = sum(self.decisions.values())
        halts = sum(self.halts.values())
        return {
            "boundary_id": self.bid,
            "constitution": self.constitution_decision,
            "sets_decided": sets_decided,
            "outcomes": dict(self.decisions),
            "halts_raised": halts,
            "halt_rate": halts / sets_decided if sets_decided else 0.0,
            "halt_categories": dict(self.halts),
            "halts_by_set_kind": dict(self.halts_by_kind),
            "suggested_amendments": dict(self.amendments.most_common(10)),
            "engine_stats": {
                "seq": s.seq,
                "sets": s.sets,
                "halts": s.halts,
                "halt_rate_reported": s.halt_rate,
                "committed_tokens": s.committed_tokens,
                "resident_tokens": s.resident_tokens,
                "retention_ratio": s.retention_ratio,
                "record_entries": s.record_entries,
            },
            "rejections": dict(self.rejections),
            "rejected_events": self.rejected_events[:20],
            "rejected_event_count": len(self.rejected_events),
            "operator_actions": dict(self.operator_actions),
            "recalls": dict(self.recalls),
            "recall_cap_cut": self.cut_by_recall_cap,
            "blast_radius": self.blast,
            "walk_moved_from_history": sum(b["moved_from_history"] for b in self.blast),
            "ontology": self.ontology_report,
            "audit": audit.counts(),
            "czar": {
                "runs": self.czar_runs,
                "every": self.czar_every,
                "retired": self.czar_retired,
                "skipped_own_last_run": self.czar_skipped_own,
                "seconds": round(self.czar_seconds, 2),
            },
            "seconds": {
                "commit": round(self.commit_seconds, 2),
                "history": round(self.history_seconds, 2),
            },
            "errors": self.errors[:20],
        }


def _is_copy(gid: str) -> bool:
    """Whether a governed id is a scratch copy for one use: one ``admit`` made (``@recall-``) or
    one the gate made by the ``[on_dependency]`` rule (``@rehydrated-``)."""
    return "@recall-" in gid or "@rehydrated-" in gid


def _decision_row(decision: Decision) -> dict[str, Any]:
    return {
        "outcome": str(decision.outcome),
        "set_id": decision.set_id,
        "seq": decision.seq,
        "reason_code": decision.reason_code,
        "detail": decision.detail,
        "constitution_version": decision.constitution_version,
    }
