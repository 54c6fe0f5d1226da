"""``WorkspaceAttention``: score specialist outputs, select winners, record and broadcast them.

One wave is ``collect_proposals`` → ``select_winners`` → ``broadcast_to_kg`` (every
ProposalNode recorded, each winner proposed to the gate); ``get_attention_score`` reads a
specialist's standing back. Scores are per boundary unless the scope is ``GLOBAL``.
"""

from __future__ import annotations

import math
import re
import secrets
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from kg_context.attention.consensus import consensus_score
from kg_context.attention.insights import insight_proposal, outcome_name
from kg_context.attention.models import (
    AttentionScore,
    BroadcastResult,
    ScoredProposal,
    WinnerFate,
    WinnerOutcome,
)
from kg_context.attention.ownership import check_wave_size, claim_specialists
from kg_context.attention.scoring import beta_mean, parse_outputs, rank, select, wave_reason
from kg_context.attention.store import AttentionStore
from kg_context.attention.telemetry import (
    AttentionTelemetry,
    counters,
    workspace_attention_telemetry,
)
from kg_context.db.executor import QueryExecutor
from kg_context.errors import ConfigurationError, InputValidationError
from kg_context.gate.pure.sink import GateSink
from kg_context.settings import AttentionSettings, EmbeddingSettings, EngineSettings, load_settings
from kg_context.vocabulary import AttentionScope

__all__ = ["Embeds", "HasExecutor", "WorkspaceAttention", "load_attention_settings"]

_TASK_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._:/#@+-]{0,199}$")
# Outcomes an orchestrator may report with record_outcome.
_REPORTABLE = frozenset(
    {
        WinnerFate.COMMIT,
        WinnerFate.HALT,
        WinnerFate.REJECT,
        WinnerFate.REINFORCE,
        WinnerFate.INVALIDATED,
    }
)


class HasExecutor(Protocol):
    """An ``Engine``, or anything else that carries a query executor."""

    @property
    def executor(self) -> QueryExecutor: ...


class Embeds(Protocol):
    """What the scorer needs from an embedder: batched unit-length vectors."""

    def encode(self, texts: Sequence[str]) -> npt.NDArray[np.float32]: ...


def load_attention_settings() -> AttentionSettings:
    """``AttentionSettings`` from the environment, or a ``ConfigurationError`` naming the fault."""
    return load_settings(AttentionSettings)


def _scope(
    asked: AttentionScope | str | None, default: AttentionScope, boundary_id: str | None
) -> AttentionScope:
    """The scope an attention reads from: the one asked for, else the settings'. The boundary
    scope needs a boundary."""
    try:
        scope = AttentionScope(asked) if asked is not None else default
    except ValueError:
        raise InputValidationError(
            f"attention scope {asked!r} is not one of {sorted(s.value for s in AttentionScope)}"
        ) from None
    if scope is AttentionScope.BOUNDARY and boundary_id is None:
        raise ConfigurationError(
            "attention scores and track records are per boundary: give WorkspaceAttention a "
            "boundary_id, or ask for scope='global' to read across every boundary"
        )
    return scope


def _new_wave() -> tuple[str, datetime]:
    """A wave id that sorts by time (ns, then randomness) and the wave's timestamp."""
    now_ns = time.time_ns()
    at = datetime.fromtimestamp(now_ns // 1_000 / 1_000_000, tz=UTC)
    return f"w{now_ns:020d}-{secrets.token_hex(4)}", at


class WorkspaceAttention:
    """Global-workspace attention over one engine (scores grounded in outcomes).

    ``boundary_id`` names the boundary whose gate receives the winners: the gate is
    ``engine.boundary(boundary_id)`` unless a ``sink`` is given. Without either, waves are
    recorded (ProposalNodes) but winners are not proposed, and their outcomes stay pending.

    ``writer_id`` names the writer whose waves these are (the API passes its token's): in the
    boundary, each specialist belongs to the writer that first named it, and a wave naming
    another writer's specialist is refused before anything is written
    (``attention.ownership``).

    ``scope`` (default: the settings', ``boundary``) says what scores and track records are
    read from: the specialist's proposals in ``boundary_id`` only, or (``global``) in every
    boundary. The boundary scope needs a ``boundary_id``; without one, ask for ``global``.
    """

    def __init__(
        self,
        engine: HasExecutor,
        *,
        boundary_id: str | None = None,
        sink: GateSink | None = None,
        settings: AttentionSettings | None = None,
        embedder: Embeds | None = None,
        scope: AttentionScope | str | None = None,
        writer_id: str | None = None,
    ) -> None:
        # An engine's settings were read once when it was constructed: use those; only an
        # executor-carrier without settings (a test double) reads the environment here.
        bundle = getattr(engine, "settings", None)
        engine_settings = bundle if isinstance(bundle, EngineSettings) else None
        self.settings = settings or (
            engine_settings.attention if engine_settings else load_attention_settings()
        )
        self._embedding: EmbeddingSettings | None = (
            engine_settings.embedding if engine_settings else None
        )
        self._store = AttentionStore(engine.executor)
        self._executor = engine.executor
        # The writer whose waves these are: its specialists are bound to it in the boundary.
        self.writer_id = writer_id
        if sink is not None and boundary_id is None:
            raise ConfigurationError("an insight sink needs the boundary_id its proposals go to")
        if sink is None and boundary_id is not None:
            open_boundary = getattr(engine, "boundary", None)
            if open_boundary is None:
                raise ConfigurationError(
                    f"{type(engine).__name__} has no gate (engine.boundary); pass sink="
                )
            sink = open_boundary(boundary_id)
        self.boundary_id = boundary_id
        self._sink = sink
        self._embedder = embedder
        self.scope = _scope(scope, self.settings.scope, boundary_id)
        # The boundary reads are scoped to (None: every boundary).
        self._read_boundary = boundary_id if self.scope is AttentionScope.BOUNDARY else None

    # -- scoring -------------------------------------------------------------------------------

    def _encoder(self) -> Embeds:
        if self._embedder is None:
            from kg_context.text.embeddings import get_embedder

            self._embedder = get_embedder(self._embedding)
        return self._embedder

    def collect_proposals(
        self, outputs: Mapping[str, Any], query: str, task_id: str
    ) -> list[ScoredProposal]:
        """Score each specialist's output for ``query``; best first, nothing written yet.

        ``outputs`` maps a specialist id to its text, or to ``{"text": ..., "confidence": x}``.
        """
        if not isinstance(query, str) or not query.strip():
            raise InputValidationError("the query of a wave is a non-empty string")
        if not isinstance(task_id, str) or not _TASK_ID.match(task_id):
            raise InputValidationError(f"task id {task_id!r} must match {_TASK_ID.pattern}")
        parsed = parse_outputs(outputs, self.settings.default_confidence)
        if not parsed:
            return []
        check_wave_size(query, parsed, self.settings)
        if self.writer_id is not None and self.boundary_id is not None:
            claim_specialists(
                self._executor, self.boundary_id, self.writer_id, [o.specialist_id for o in parsed]
            )
        vectors = self._encoder().encode([query, *(o.text for o in parsed)])
        specialist_ids = [o.specialist_id for o in parsed]
        counts = self._store.outcome_counts(
            specialist_ids, self.settings.track_record_window, self._read_boundary
        )
        tracks = {
            sid: beta_mean(
                *counts.get(sid, (0, 0)), self.settings.prior_alpha, self.settings.prior_beta
            )
            for sid in specialist_ids
        }
        wave_id, at = _new_wave()
        return rank(
            parsed,
            vectors=vectors,
            track_records=tracks,
            wave_id=wave_id,
            task_id=task_id,
            at=at,
            settings=self.settings,
        )

    def select_winners(self, proposals: Sequence[ScoredProposal]) -> list[ScoredProposal]:
        """The top-K proposals at or above the minimum composite, marked ``selected``.

        A wave with fewer than ``min_wave_outputs`` proposals has no competition: no winner.
        """
        return [p for p in select(proposals, self.settings) if p.selected]

    # -- recording and broadcasting ------------------------------------------------------------

    def broadcast_to_kg(
        self, winners: Sequence[ScoredProposal], losers: Iterable[ScoredProposal] = ()
    ) -> BroadcastResult:
        """Record a wave (winners ``selected=true``, losers ``false``), then propose the winners.

        A wave with fewer than ``min_wave_outputs`` proposals is recorded with no winner and
        nothing goes to the gate.
        """
        winner_ids = {p.id for p in winners}
        losers = [replace(p, selected=False) for p in losers if p.id not in winner_ids]
        chosen = [replace(p, selected=True) for p in winners]
        competed = len(chosen) + len(losers) >= self.settings.min_wave_outputs
        if not competed:
            losers, chosen = [replace(p, selected=False) for p in (*chosen, *losers)], []
        wave = [*chosen, *losers]
        if not wave:
            raise InputValidationError("broadcast_to_kg needs at least one proposal")
        if len({p.wave_id for p in wave}) != 1 or len({p.specialist_id for p in wave}) != len(wave):
            raise InputValidationError(
                "a broadcast is one wave: one proposal per specialist, all with the same wave id"
            )
        reasons = {p.id: wave_reason(p, competed=competed, settings=self.settings) for p in wave}
        self._store.write_wave(wave, self.boundary_id, reasons)
        counters().wrote(len(wave), [p.specialist_id for p in chosen], self.boundary_id)
        outcomes = self._propose(chosen)
        return BroadcastResult(
            wave_id=wave[0].wave_id,
            proposals=tuple(wave),
            winners=tuple(chosen),
            outcomes=outcomes,
        )

    def _propose(self, winners: Sequence[ScoredProposal]) -> tuple[WinnerOutcome, ...]:
        if self._sink is None or self.boundary_id is None or not winners:
            return tuple(
                WinnerOutcome(w.id, w.specialist_id, WinnerFate.NOT_PROPOSED.value) for w in winners
            )
        boundary_id = self.boundary_id
        standing = self._store.standing_entries(boundary_id, [w.insight_key for w in winners])
        outcomes: list[WinnerOutcome] = []
        try:
            for winner in winners:
                existing = standing.get(winner.insight_key)
                if existing is not None:
                    outcomes.append(
                        WinnerOutcome(
                            winner.id,
                            winner.specialist_id,
                            WinnerFate.REINFORCE.value,
                            (existing,),
                        )
                    )
                    continue
                decision = self._sink.commit(insight_proposal(winner, boundary_id))
                outcome = outcome_name(decision.outcome)
                admitted = outcome == WinnerFate.COMMIT.value
                outcomes.append(
                    WinnerOutcome(
                        winner.id,
                        winner.specialist_id,
                        outcome,
                        tuple(decision.entry_ids) if admitted else (),
                        decision.set_id,
                        decision.receipt_id,
                    )
                )
        finally:
            # What the gate decided is recorded even when a later winner's proposal fails.
            self._store.record_gate_outcomes(boundary_id, outcomes, _new_wave()[1])
        return tuple(outcomes)

    def select_and_broadcast(
        self, outputs: Mapping[str, Any], query: str, task_id: str
    ) -> BroadcastResult:
        """The whole loop for one wave: collect, select, record and broadcast."""
        proposals = self.collect_proposals(outputs, query, task_id)
        if not proposals:
            raise InputValidationError("a wave needs at least one specialist output")
        ranked = select(proposals, self.settings)
        return self.broadcast_to_kg(
            [p for p in ranked if p.selected], [p for p in ranked if not p.selected]
        )

    def record_outcome(self, proposal_node_id: str, outcome: str) -> None:
        """Report what became of a proposal outside the broadcast path.

        ``outcome`` is commit, halt, reject, reinforce or invalidated (e.g. an orchestrator's own
        review, or an invalidation reported before the admitted entry's status records it); the
        next wave's track record counts it.
        """
        try:
            value = WinnerFate(outcome)
        except ValueError:
            value = None
        if value not in _REPORTABLE or value is None:
            raise InputValidationError(
                f"outcome {outcome!r} is not one of {sorted(o.value for o in _REPORTABLE)}"
            )
        if not self._store.record_outcome(
            proposal_node_id, value.value, _new_wave()[1], self.boundary_id
        ):
            where = f" in boundary {self.boundary_id}" if self.boundary_id else ""
            raise InputValidationError(f"no ProposalNode {proposal_node_id!r}{where}")

    # -- reading back --------------------------------------------------------------------------

    def get_attention_score(self, specialist_id: str) -> float | None:
        """The composite of the specialist's most recent selected proposal in this attention's
        scope (its boundary by default); None if it has none there."""
        return self.attention_score(specialist_id).score

    def attention_score(self, specialist_id: str) -> AttentionScore:
        """``get_attention_score`` with what it was read from: the scope and the boundary."""
        if not isinstance(specialist_id, str) or not specialist_id:
            raise InputValidationError("a specialist id is a non-empty string")
        score = self._store.latest_score(specialist_id, self._read_boundary)
        counters().read(
            specialist_id,
            hit=score is not None,
            mismatch_misses=self.settings.mismatch_misses,
            strict=self.settings.strict,
            boundary_id=self._read_boundary,
        )
        if score is not None and not math.isfinite(score):
            raise InputValidationError(f"stored composite of {specialist_id!r} is {score!r}")
        return AttentionScore(specialist_id, score, self.scope, self._read_boundary)

    @staticmethod
    def consensus_score(
        proposals: Iterable[ScoredProposal | float], operator: str = "mean"
    ) -> float | None:
        """Aggregate composites with a registered operator (see ``kg_context.attention``)."""
        return consensus_score(proposals, operator)

    @staticmethod
    def workspace_attention_telemetry() -> AttentionTelemetry:
        """The process-wide loop counters."""
        return workspace_attention_telemetry()
