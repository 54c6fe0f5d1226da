"""Every parameter of the triangle, in one place, printed in every report.

A workload is a seeded, reproducible software-project session (``WorkloadParams``); a run is a
list of workloads plus the shared settings (``RunParams``: the token budget B, the checkpoint
cadence, the czar cadence, the accuracy threshold of the useful horizon). The error rates are the
same in every workload and are consumed identically by all three systems (they are part of the
event stream). Nothing here is tuned per system.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, replace
from typing import Any

__all__ = [
    "CHURN_WEIGHTS",
    "ErrorRates",
    "ProbeMix",
    "RunParams",
    "WorkloadParams",
    "quick_run",
    "standard_run",
]

# How much of the event mix is a decision revision, per churn level (the rest: evidence,
# constraints, goals, plans/obligations, questions, pins, in fixed proportions).
CHURN_WEIGHTS: dict[str, float] = {"low": 0.15, "medium": 0.35, "high": 0.60}


@dataclass(frozen=True, slots=True)
class ErrorRates:
    """Injected writer errors (identical in every workload and every system).

    Statement errors change what the writer says (the body text and the declarations together):
    ``false_supersession`` (a revision of key K' filed under key K, declared as superseding K's
    current decision: the well-formed lie) and ``fact_correction`` (a measurement later found
    wrong and corrected by a new version that says so). Declaration errors change only the typed
    declarations, which the baselines never read: ``missing_dependency`` (a citation the body
    text names is not declared) and ``wrong_dependency`` (it is declared to the wrong entry).
    ``lie_corrected`` is the share of lies a later correction reveals (after 20-80 sets).
    """

    false_supersession: float = 0.015  # per decision revision
    missing_dependency: float = 0.03  # per citation
    wrong_dependency: float = 0.02  # per citation
    fact_correction: float = 0.02  # per set
    lie_corrected: float = 0.6  # share of lies corrected later


@dataclass(frozen=True, slots=True)
class ProbeMix:
    """Probes per checkpoint, by type (the same for every system)."""

    current_value: int = 10
    revision_without_supersession: int = 3
    in_force: int = 8
    depends_on: int = 6
    rests_on: int = 6
    why_changed: int = 2
    value_at: int = 2


@dataclass(frozen=True, slots=True)
class WorkloadParams:
    """One seeded workload. ``decision_keys`` sets the live-state size (open constraints, goals,
    plans, questions and evidence scale with it); ``churn`` how often a key is revised."""

    name: str
    seed: int
    sets: int
    decision_keys: int
    churn: str = "medium"
    writer: str = "careful"  # careful | over_declaring | provenance_only
    standard: bool = True  # counts toward the halt-rate target
    errors: ErrorRates = field(default_factory=ErrorRates)
    # A revision that states a new value without declaring (or saying) what it replaces.
    revision_without_supersession: float = 0.10
    # Draft material (working notes) a set carries: recorded, never resident when governed.
    scratch: float = 0.25
    # Citation leases the careful writer declares on soft REQUIRES edges, in sets.
    evidence_lease: int = 250
    question_lease: tuple[int, int] = (40, 120)
    ontology_at: int = 110  # ontology evolution after 100 sets (if the workload is long enough)
    omitted_dependency_gap: int = 60  # sets between the omission and its reveal (>= 50)

    def describe(self) -> dict[str, Any]:
        out = asdict(self)
        out["churn_weight"] = CHURN_WEIGHTS[self.churn]
        return out


@dataclass(frozen=True, slots=True)
class RunParams:
    """A run: its workloads and the settings shared by every system."""

    name: str
    workloads: tuple[WorkloadParams, ...]
    budget_tokens: int = 8192  # B: the same for all three systems
    checkpoint_every: int = 50
    first_checkpoint: int = 25
    czar_every: int = 10  # the governed engine's czar cadence (run_czar every N event sets)
    horizon_threshold: float = 0.90
    probes: ProbeMix = field(default_factory=ProbeMix)
    retrieval_min_score: float = -1.0  # fill B by similarity (no score floor)

    def checkpoints(self, sets: int) -> list[int]:
        points = [self.first_checkpoint] if self.first_checkpoint < self.checkpoint_every else []
        points += list(range(self.checkpoint_every, sets + 1, self.checkpoint_every))
        if not points or points[-1] != sets:
            points.append(sets)
        return points

    def describe(self) -> dict[str, Any]:
        out = asdict(self)
        out["workloads"] = [w.describe() for w in self.workloads]
        return out


def standard_run() -> RunParams:
    """The standard sweep: churn low/medium/high at the medium live-state size; live state
    small/large (large exceeds B) at medium churn; the medium workload again with every revision
    declared (how much the undeclared ones cost); a writer that declares no residency (its state
    is not rooted: the default constitution does not fit); an over-declaring writer (retention
    inflation) and its careful twin (the same seed and bodies, declared carefully: the window
    the over-declaring writer is measured against)."""
    base = WorkloadParams(name="medium", seed=1201, sets=1000, decision_keys=16)
    return RunParams(
        name="standard",
        workloads=(
            base,
            replace(base, name="medium-all-declared", seed=1201, revision_without_supersession=0.0),
            replace(base, name="churn-low", seed=1202, sets=600, churn="low"),
            replace(base, name="churn-high", seed=1203, sets=600, churn="high"),
            replace(base, name="live-small", seed=1204, sets=400, decision_keys=6),
            replace(base, name="live-large", seed=1205, sets=400, decision_keys=96),
            replace(
                base,
                name="unrooted",
                seed=1207,
                sets=400,
                writer="provenance_only",
                standard=False,
            ),
            replace(
                base,
                name="over-declaration",
                seed=1206,
                sets=400,
                writer="over_declaring",
                standard=False,
            ),
            replace(base, name="over-declaration-careful", seed=1206, sets=400),
        ),
    )


def quick_run() -> RunParams:
    """The CI variant: one short workload with every mandatory case, a few checkpoints."""
    return RunParams(
        name="quick",
        workloads=(
            WorkloadParams(
                name="quick",
                seed=1299,
                sets=150,
                decision_keys=6,
                ontology_at=60,
                omitted_dependency_gap=50,
            ),
        ),
        checkpoint_every=50,
        first_checkpoint=25,
        probes=ProbeMix(
            current_value=4,
            revision_without_supersession=1,
            in_force=3,
            depends_on=2,
            rests_on=2,
            why_changed=1,
            value_at=1,
        ),
    )
