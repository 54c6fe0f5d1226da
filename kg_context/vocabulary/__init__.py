"""The one vocabulary: every word the gate, the czar and the record decide by, defined once
(``decisions``: the gate's and the czar's words; ``activity``: the words of the engine's own
activity records; both re-exported here, so every module imports ``kg_context.vocabulary``).

Statuses, status groups, outcomes, reason codes, receipt kinds and families, set kinds and
justification cases are enums (``StrEnum``: each member *is* its string, so it is stored and
compared as one). Every other module imports them from here; none re-types them. Pure data: no
I/O, no imports from the rest of the package, so every layer (the gate, residency, the record,
attention, the cycle) may use it.

Status groups (``frozenset`` of ``EntryStatus``)::

    LIVE_STATUSES       live, revalidated                   counts as live state: roots, density,
                                                             supersession targets, track records
    STANDING_STATUSES   LIVE + challenged, at_risk          may be resident in the window
    NOT_STANDING        superseded, retired, invalidated,   held by no root; the record keeps them
                        explored
    CYCLE_INELIGIBLE    = NOT_STANDING                      never read into the selection cycle
                                                             as themselves: they reach a broadcast
                                                             only as recall copies the gate admitted
    FAILED_WORK         invalidated, at_risk                admitted attention work that failed
"""

from __future__ import annotations

from kg_context.vocabulary.activity import (
    DEFAULT_CZAR_EVERY_COMMITS,
    THOUGHT_LABEL,
    AttentionScope,
    CzarTrigger,
    ThoughtOutcome,
    ThoughtSource,
    WaveReason,
)
from kg_context.vocabulary.decisions import (
    CLASS_LABELS,
    CYCLE_INELIGIBLE,
    DECLARED_CLASS_LABEL_PREFIX,
    DECLARED_CLASS_MAX_CHARS,
    DECLARED_CLASS_PATTERN,
    DELIBERATIVE_CLASSES,
    FAILED_WORK,
    LIVE_STATUSES,
    NOT_STANDING,
    PRE_AUTHORIZED_CZAR_CASES,
    RESIDENT_LABEL,
    STANDING_STATUSES,
    STATUS_LABELS,
    EntryClass,
    EntryStatus,
    HaltStatus,
    JustificationCase,
    LeaseRenewalKind,
    OnRetiredDependency,
    OnRetiredSupersession,
    OnRevision,
    Outcome,
    ProposalStatus,
    ReasonCode,
    ReceiptFamily,
    ReceiptKind,
    ResidencyPolicy,
    ResolutionKind,
    SetKind,
    SetMode,
    SetStatus,
    ThresholdParameter,
    Verse,
    WriterKind,
    as_values,
    class_label,
)

__all__ = [
    "CLASS_LABELS",
    "CYCLE_INELIGIBLE",
    "DECLARED_CLASS_LABEL_PREFIX",
    "DECLARED_CLASS_MAX_CHARS",
    "DECLARED_CLASS_PATTERN",
    "DEFAULT_CZAR_EVERY_COMMITS",
    "DELIBERATIVE_CLASSES",
    "FAILED_WORK",
    "LIVE_STATUSES",
    "NOT_STANDING",
    "PRE_AUTHORIZED_CZAR_CASES",
    "RESIDENT_LABEL",
    "STANDING_STATUSES",
    "STATUS_LABELS",
    "THOUGHT_LABEL",
    "AttentionScope",
    "CzarTrigger",
    "EntryClass",
    "EntryStatus",
    "HaltStatus",
    "JustificationCase",
    "LeaseRenewalKind",
    "OnRetiredDependency",
    "OnRetiredSupersession",
    "OnRevision",
    "Outcome",
    "ProposalStatus",
    "ReasonCode",
    "ReceiptFamily",
    "ReceiptKind",
    "ResidencyPolicy",
    "ResolutionKind",
    "SetKind",
    "SetMode",
    "SetStatus",
    "ThoughtOutcome",
    "ThoughtSource",
    "ThresholdParameter",
    "Verse",
    "WaveReason",
    "WriterKind",
    "as_values",
    "class_label",
]
