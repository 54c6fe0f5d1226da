"""The engine: one connection to one resolved database, the executor over it, and the settings
every boundary handle it opens reads (the only composition root).

Operations on one boundary are methods of the handle ``Engine.boundary`` returns
(``boundary.window()``, ``boundary.challenge(...)``, ``boundary.run_czar()``); each calls the
function of the same name in the module that owns the operation, with the handle as its receiver.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import neo4j

from kg_context.db import local_server as neo4j_local
from kg_context.db.catalog import Catalog
from kg_context.db.connection import Target, open_driver, resolve_source, target_for
from kg_context.db.executor import (
    Neo4jExecutor,
    RetryCounts,
    RetryPolicy,
    translate_driver_errors,
)
from kg_context.db.schema import SchemaPlan, check_schema
from kg_context.errors import InputValidationError
from kg_context.gate.io.boundary import Boundary, ProposalInput
from kg_context.gate.io.halts import HaltRecord, Halts
from kg_context.gate.io.operator_acts import issue_adoption, set_czar_cadence
from kg_context.gate.io.registry import ConstitutionRegistry
from kg_context.gate.io.store import GateStore
from kg_context.gate.pure.constitution import Constitution
from kg_context.gate.pure.contracts import Verse, WriterKind
from kg_context.gate.pure.decision import Decision
from kg_context.record import history
from kg_context.record.amendments import AmendmentSuggestion, adopt_suggestion, suggest_amendments
from kg_context.record.audits import AuditResult, audit_library, invariants, run_audit
from kg_context.record.briefing import Brief, brief, record_brief
from kg_context.record.invalidation import BlastRadius, challenge, invalidate
from kg_context.record.observability import ErrorRates, ObservabilityReport, audit, rates
from kg_context.record.revalidation import OperatorHalts, dropped_classes_at_risk
from kg_context.record.search import RecordHit, embed_committed, embed_pending
from kg_context.record.thoughts import ThoughtLine, search_thoughts
from kg_context.residency.context_read import Context, CountTokens, context
from kg_context.residency.czar import CzarReport, run_czar, run_czar_if_due, run_due_czars
from kg_context.residency.czar_worker import CzarFailure, CzarWorker
from kg_context.residency.metrics import BoundaryStats, Overview, overview, stats
from kg_context.residency.reachability import RootPath, lease_params, why
from kg_context.residency.recall import Admission, admit, recall
from kg_context.residency.window import Window, window
from kg_context.settings import EngineSettings, LocalServerSettings, Neo4jSettings, load_settings
from kg_context.text.embeddings import TextEncoder, get_embedder
from kg_context.text.tokens import get_token_counter
from kg_context.vocabulary import HaltStatus

__all__ = ["BoundaryHandle", "Engine"]


class Engine:
    """A connected kg-context engine. Use ``Engine.connect()`` and close it (or use ``with``).

    ``settings`` (an ``EngineSettings``) are read once, here, and handed to every boundary
    handle: the czar, recall, invalidation and search read them from the handle.
    """

    def __init__(
        self,
        driver: neo4j.Driver,
        target: Target,
        catalog: Catalog | None = None,
        *,
        settings: EngineSettings | None = None,
    ) -> None:
        self._driver = driver
        self.target = target
        self.settings = settings or EngineSettings()
        self.executor = Neo4jExecutor(
            driver,
            database=target.database,
            uri=target.uri,
            catalog=catalog,
            retry=RetryPolicy.from_settings(self.settings.database),
        )
        self.constitutions = ConstitutionRegistry(self.executor)
        self._store: GateStore | None = None
        # The cadence czar, beside the writers (the gate store signals a boundary left due).
        self._czar = CzarWorker(lambda b: run_czar_if_due(self._handle(b)))

    @classmethod
    def connect(
        cls,
        target: Target | None = None,
        *,
        settings: EngineSettings | None = None,
        connection: Neo4jSettings | None = None,
        local: LocalServerSettings | None = None,
        start_local: bool = False,
        check_schema: bool = True,
    ) -> Engine:
        """Connect to ``target``, or to the resolved database (``NEO4J_URI`` → Docker → local).

        With ``start_local`` the local server is started when it is the resolved source.
        ``settings`` (the engine's ``EngineSettings``, as in the constructor) default to the
        environment, read once, now; ``connection`` (``Neo4jSettings``) and ``local`` resolve
        the database when no ``target`` is given. The database's schema record is checked (one
        read): when it does not record this kg-context's schema, the schema is applied
        (``KG_CONTEXT_SCHEMA_AUTO_APPLY``, the default) or the connection is refused with a
        ``SchemaError`` naming ``kg-context schema apply``. ``check_schema=False`` skips it
        (that command, and server-level commands that read no kg-context data)."""
        settings = settings or EngineSettings()
        if target is None:
            connection = connection or Neo4jSettings()
            local = local or load_settings(LocalServerSettings)
            source = resolve_source(connection)
            if source == "local" and start_local:
                neo4j_local.start(local)
            target = target_for(source, connection, local)
        driver = open_driver(target, database=settings.database)
        engine = cls(driver, target, settings=settings)
        if check_schema:
            try:
                engine.check_schema()
            except BaseException:
                engine.close()
                raise
        return engine

    def check_schema(self) -> SchemaPlan:
        """Compare the database's schema record with this kg-context's; apply what differs
        when the settings allow, else raise a ``SchemaError`` naming the command to run."""
        schema = self.settings.schema
        return check_schema(
            self.executor, auto_apply=schema.auto_apply, await_timeout_s=schema.await_timeout_s
        )

    def boundary(
        self,
        boundary_id: str,
        *,
        verse: str = "local",
        task_horizon: int | None = None,
        constitution: Constitution | None = None,
        czar_every_commits: int | None = None,
        create: bool = True,
    ) -> BoundaryHandle:
        """A handle on one boundary.

        With ``create`` (the default) the boundary is created, with its constitution recorded,
        if it is new: written once per engine and boundary id (and once per constitution
        version), never again on later calls. ``verse``, ``task_horizon``, ``constitution`` and
        ``czar_every_commits`` (the cadence it keeps; default: ``residency``'s) only matter when
        it is created. With ``create=False`` nothing is written (no boundary: ``StateError``)."""
        if not boundary_id or verse not in {v.value for v in Verse}:
            known = ", ".join(v.value for v in Verse)
            raise InputValidationError(f"a boundary needs an id and a verse ({known})")
        every = self.settings.residency.czar_every_commits
        every = every if czar_every_commits is None else czar_every_commits
        self.constitutions.open_boundary(
            boundary_id, verse, task_horizon, constitution, czar_every_commits=every, create=create
        )
        return self._handle(boundary_id)

    def _handle(self, boundary_id: str) -> BoundaryHandle:
        handle = BoundaryHandle(
            self.executor,
            self._gate_store,
            boundary_id,
            settings=self.settings,
            constitution_for=self.constitutions.get,
        )
        handle.after_constitution = dropped_classes_at_risk
        return handle

    @property
    def _gate_store(self) -> GateStore:
        if self._store is None:
            counter = get_token_counter(self.settings.embedding)
            residency = self.settings.residency
            self._store = GateStore(
                self.executor,
                self.constitutions.get,
                counter.count,
                default_lease_sets=residency.default_lease_sets,
                recall_max_entries=residency.recall_max_entries,
                recall_max_depth=residency.recall_max_depth,
                on_czar_due=self._czar.signal if residency.czar_in_process else None,
            )
        return self._store

    def czar_idle(self, timeout: float | None = None) -> bool:
        """Wait (at most ``timeout`` s) for the cadence czar runs this engine scheduled: done?"""
        return self._czar.idle(timeout)

    @property
    def czar_failures(self) -> tuple[CzarFailure, ...]:
        """This engine's cadence czar runs that raised (logged, and kept here)."""
        return self._czar.failures

    def set_czar_cadence(
        self, boundary_id: str, every: int, *, operator_id: str, reason: str
    ) -> int:
        """The czar's cadence of a boundary, changed by an operator (``set_czar_cadence``)."""
        return set_czar_cadence(
            self.executor,
            self.constitutions.get,
            boundary_id,
            every,
            operator_id=operator_id,
            reason=reason,
        )

    def adopt(
        self,
        boundary_id: str,
        *,
        operator_id: str,
        reason: str,
        keys: Sequence[str],
        uses: int = 1,
        valid_until_seq: int | None = None,
        material_verse: Verse | str | None = None,
    ) -> str:
        """Issue an adoption receipt of ``boundary_id`` (an operator's act: only an operator its
        constitution names, else ``AuthorizationError``): material with these ``keys`` (global
        material entering it, or its entries referenced from another boundary; of
        ``material_verse`` only, where given) may be admitted by ``uses`` ratified sets that cite
        the receipt, while its seq is at most ``valid_until_seq``. The receipt records the verse
        it adopts into (the boundary's, from the graph). Returns the receipt id."""
        return issue_adoption(
            self.executor,
            self.constitutions.get,
            boundary_id,
            operator_id=operator_id,
            reason=reason,
            keys=keys,
            uses=uses,
            valid_until_seq=valid_until_seq,
            material_verse=material_verse,
        )

    def run_due_czars(
        self, *, boundary_ids: Sequence[str] | None = None, limit: int = 100
    ) -> list[CzarReport]:
        """One round of the czar over every boundary (of ``boundary_ids``, where given) whose
        recorded cadence is due and unclaimed, at most ``limit``: the runs made
        (``kg-context czar watch`` runs it round after round)."""
        ids = list(boundary_ids) if boundary_ids else None
        return run_due_czars(self.executor, self._existing, boundary_ids=ids, limit=limit)

    @property
    def halts(self) -> OperatorHalts:
        """The operator's queue: halts (list, show, resolve) and at-risk entries (``at_risk``,
        ``figures``, ``resolve_at_risk``)."""
        return OperatorHalts(self.executor, self._gate_store, self._existing)

    def _existing(self, boundary_id: str) -> BoundaryHandle:
        return self.boundary(boundary_id, create=False)

    def run_audit(
        self,
        name: str,
        *,
        boundary_id: str | None = None,
        params: Mapping[str, Any] | None = None,
    ) -> AuditResult:
        """Run one audit of ``cypher/audits/`` (a read). ``boundary_id`` fills ``$boundary_id``;
        for a boundary, ``$root_classes``, ``$successors`` and ``$default_lease`` default to its
        constitution's roots and the engine's residency settings (what ``why`` uses)."""
        given = dict(params or {})
        if boundary_id is not None:
            if given.get("boundary_id", boundary_id) != boundary_id:
                raise InputValidationError("two different boundary ids given for one audit")
            given["boundary_id"] = boundary_id
        audit = audit_library().get(name.replace("-", "_"))
        takes = audit.parameter_names if audit is not None else frozenset()
        bid = given.get("boundary_id")
        wants = {"root_classes", "successors"} & takes - given.keys()
        if wants and isinstance(bid, str):
            constitution = self.boundary(bid, create=False).constitution()
            if "root_classes" in wants:
                given["root_classes"] = constitution.root_class_names()
            if "successors" in wants:
                given["successors"] = constitution.roots.successors
        for param, value in lease_params(self.settings.residency).items():
            if param in takes:
                given.setdefault(param, value)
        return run_audit(self.executor, name, given)

    def invariants(self, boundary_id: str | None = None) -> list[AuditResult]:
        """Every must-be-empty audit, for one boundary or (``None``) the whole database."""
        return invariants(self.executor, boundary_id)

    def overview(self, *, limit: int = 1000) -> Overview:
        """Database-wide gauges for ``/metrics``: per boundary (up to ``limit``) and halts."""
        return overview(self.executor, limit=limit)

    def warm(self) -> None:
        """Load what this engine's commits use before the first one needs it: the embedding
        model, when commits embed (``KG_CONTEXT_EMBEDDING_ON_COMMIT``). A long-running worker
        (``kg-context czar watch``) calls it once at start, so its first compaction set does
        not spend seconds loading the model while the cadence it serves goes by."""
        if self.settings.embedding.on_commit:
            get_embedder(self.settings.embedding)

    def retry_counts(self) -> RetryCounts:
        """The executor's units of work, attempts, and the errors that caused retries by code."""
        return self.executor.retry_counts()

    def ping(self) -> float:
        """One round trip to the database (a read): its duration in seconds."""
        started = time.perf_counter()
        self.executor.read("admin/ping")
        return time.perf_counter() - started

    def server_version(self) -> str:
        with translate_driver_errors(self.target.uri, "server info"):
            return str(self._driver.get_server_info().agent)

    def close(self) -> None:  # the cadence czar runs already scheduled finish first
        try:
            self._czar.close()
        finally:
            self._driver.close()

    def __enter__(self) -> Engine:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


class BoundaryHandle(Boundary):
    """The handle ``Engine.boundary`` returns: the gate's ``Boundary`` plus the operations on
    one boundary as methods. Each method is the module function of the same name with this
    handle as its receiver (``boundary.window()`` is ``window(boundary)``), nothing more; its writes
    (``commit``, ``commit_many``, ``close``) also embed what they wrote, right after the
    commit (``KG_CONTEXT_EMBEDDING_ON_COMMIT``), so that its reads never have to."""

    def commit(self, proposal: ProposalInput) -> Decision:
        """``Boundary.commit``, then the entries it wrote embedded (``embed_committed``)."""
        decision = super().commit(proposal)
        embed_committed(self)
        return decision

    def commit_many(self, proposals: Sequence[ProposalInput]) -> list[Decision]:
        """``Boundary.commit_many``, then the entries they wrote embedded."""
        decisions = super().commit_many(proposals)
        embed_committed(self)
        return decisions

    def close(self) -> list[Decision]:
        """``Boundary.close``, then the entries its sets wrote embedded."""
        decisions = super().close()
        embed_committed(self)
        return decisions

    def embed_pending(self) -> int:
        """Embed every entry committed and not embedded yet (what ``kg-context embed`` runs when
        commits do not embed): how many (``record.search.embed_pending``)."""
        return embed_pending(self)

    def window(self) -> Window:
        """The resident entries in prompt order (``residency.window.window``)."""
        return window(self)

    def context(
        self,
        budget_tokens: int,
        *,
        query: str | None = None,
        focus: bool = False,
        count_tokens: CountTokens = None,
    ) -> Context:
        """The window as a budgeted, citable context block (``Context``); with
        ``focus``, a query that names a key gets that key and its neighbours' keys only."""
        return context(self, budget_tokens, query=query, focus=focus, count_tokens=count_tokens)

    def stats(self) -> BoundaryStats:
        """Retention ratio, resident tokens, set and halt counts (``residency.metrics.stats``)."""
        return stats(self)

    def why(self, entry_id: str) -> RootPath:
        """The root path that keeps an entry resident (``residency.reachability.why``)."""
        return why(self, entry_id)

    def recall(
        self, query: str, *, k: int = 10, embedder: TextEncoder | None = None
    ) -> list[RecordHit]:
        """Candidates from the record, status-tagged; changes nothing
        (``residency.recall.recall``)."""
        return recall(self, query, k=k, embedder=embedder)

    def admit(
        self,
        entry_ids: Sequence[str],
        *,
        writer_id: str,
        writer_kind: WriterKind | str = WriterKind.AGENT,
    ) -> Admission:
        """Scratch copies of recalled entries, through the gate (``residency.recall.admit``)."""
        return admit(self, entry_ids, writer_id=writer_id, writer_kind=writer_kind)

    def run_czar(
        self,
        *,
        czar_id: str | None = None,
        progress: Callable[[int, int], None] | None = None,
    ) -> CzarReport:
        """Plan a compaction and submit it through the gate (``residency.czar.run_czar``);
        ``progress(done, total)`` counts the compaction sets decided."""
        return run_czar(self, czar_id=czar_id, progress=progress)

    def challenge(
        self,
        target: str,
        *,
        reason: str,
        writer_id: str,
        writer_kind: WriterKind = WriterKind.OPERATOR,
    ) -> BlastRadius:
        """Challenge an entry or a set: one blast-radius set (``record.invalidation.challenge``)."""
        return challenge(self, target, reason=reason, writer_id=writer_id, writer_kind=writer_kind)

    def invalidate(
        self,
        target: str,
        *,
        reason: str,
        writer_id: str,
        writer_kind: WriterKind = WriterKind.OPERATOR,
    ) -> BlastRadius:
        """Invalidate an entry or a set: one blast-radius set
        (``record.invalidation.invalidate``)."""
        return invalidate(self, target, reason=reason, writer_id=writer_id, writer_kind=writer_kind)

    def brief(self, *, since_seq: int | None = None) -> Brief:
        """The operator's briefing since ``since_seq`` (default: the last recorded one's seq);
        a read: nothing is recorded (``record.briefing.brief``)."""
        return brief(self, since_seq=since_seq)

    def record_brief(self, *, since_seq: int | None = None) -> Brief:
        """The briefing, recorded as an audit event: the next one starts at its seq
        (``record.briefing.record_brief``)."""
        return record_brief(self, since_seq=since_seq)

    def audit(self) -> ObservabilityReport:
        """False retirements, resurrections, unjustified retirements
        (``record.observability.audit``)."""
        return audit(self)

    def rates(self) -> ErrorRates:
        """False retirements and supersessions, resurrections, at-risk outcomes and time to
        detection, as rates (``record.observability.rates``)."""
        return rates(self)

    def suggest_amendments(self, *, since_seq: int | None = None) -> list[AmendmentSuggestion]:
        """The constitution amendments this boundary's recurring halt classes suggest (halts
        opened at or after ``since_seq``, where given): ``record.amendments.suggest_amendments``."""
        return suggest_amendments(self.executor, self, since_seq=since_seq)

    def adopt_suggestion(
        self,
        suggestion_id: str,
        *,
        writer_id: str,
        reason: str | None = None,
        since_seq: int | None = None,
    ) -> Decision:
        """Propose a suggested amendment's constitution as an operator's governed change
        (``record.amendments.adopt_suggestion``)."""
        return adopt_suggestion(
            self, suggestion_id, writer_id=writer_id, reason=reason, since_seq=since_seq
        )

    def history_index(
        self, *, from_seq: int = 0, to_seq: int | None = None, limit: int = 1000
    ) -> list[history.IndexLine]:
        """Every ratified set in ledger order (``record.history.index``)."""
        return history.index(self, from_seq=from_seq, to_seq=to_seq, limit=limit)

    def walk(self, set_id: str) -> history.SetWalk:
        """Open one set of this boundary: what it decided and what became of it
        (``record.history.walk``)."""
        return history.walk(self, set_id)

    def as_of(self, seq: int) -> history.AsOf:
        """The record and the window right after ``seq`` (``record.history.as_of``)."""
        return history.as_of(self, seq)

    def search(self, text: str, *, k: int = 10) -> list[history.SearchLine]:
        """Search the record: set ids with status, never passages (``record.history.search``)."""
        return history.search(self, text, k=k)

    def search_thoughts(self, text: str, *, k: int = 10) -> list[ThoughtLine]:
        """Search the thoughts the record keeps (attention and bus proposals), best first
        (``record.thoughts.search_thoughts``)."""
        return search_thoughts(self, text, k=k)

    def halts(self, *, status: str | None = HaltStatus.OPEN, limit: int = 100) -> list[HaltRecord]:
        """This boundary's halts, newest first: open ones, or (``status=None``) all (the rows
        ``engine.halts.list`` gives)."""
        return Halts(self.executor, self._store).list(self.id, status, limit)
