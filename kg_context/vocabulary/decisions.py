"""The words the gate and the czar decide by: entry classes and statuses, status groups, set
kinds, outcomes, reason codes, threshold parameters, receipt kinds and families, resolution
kinds and justification cases (re-exported by ``kg_context.vocabulary``)."""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum
from functools import lru_cache

__all__ = [
    "CLASS_LABELS",
    "CYCLE_INELIGIBLE",
    "DECLARED_CLASS_LABEL_PREFIX",
    "DECLARED_CLASS_MAX_CHARS",
    "DECLARED_CLASS_PATTERN",
    "DELIBERATIVE_CLASSES",
    "FAILED_WORK",
    "LIVE_STATUSES",
    "NOT_STANDING",
    "PRE_AUTHORIZED_CZAR_CASES",
    "REPLACED_STATUSES",
    "RESIDENT_LABEL",
    "STANDING_STATUSES",
    "STATUS_LABELS",
    "EntryClass",
    "EntryStatus",
    "HaltStatus",
    "JustificationCase",
    "LeaseRenewalKind",
    "OnHardFanout",
    "OnRecallCopyDependency",
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
    "ThresholdParameter",
    "Verse",
    "WriterKind",
    "as_values",
    "class_label",
]


def as_values(members: Iterable[StrEnum]) -> list[str]:
    """A group's values, sorted: the form a Cypher parameter takes (``$standing``)."""
    return sorted(m.value for m in members)


# -- what writers declare -------------------------------------------------------------------------
class EntryClass(StrEnum):
    """The typed classes of entries (each also a Neo4j label, see ``CLASS_LABELS``)."""

    DECISION = "decision"
    FACT = "fact"
    CONSTRAINT = "constraint"
    GOAL = "goal"
    PLAN = "plan"
    OBLIGATION = "obligation"
    PIN = "pin"
    REJECTED_ALTERNATIVE = "rejected_alternative"
    OPEN_QUESTION = "open_question"
    INTERFACE = "interface"
    SCRATCH = "scratch"


class Verse(StrEnum):
    INTERNAL = "internal"
    LOCAL = "local"
    GLOBAL = "global"


class WriterKind(StrEnum):
    AGENT = "agent"
    TOOL = "tool"
    MODEL = "model"
    CZAR = "czar"
    OPERATOR = "operator"


class ResidencyPolicy(StrEnum):
    HARD = "hard"
    SOFT = "soft"
    RECONSTRUCTIBLE = "reconstructible"


class LeaseRenewalKind(StrEnum):
    """What renewed a soft/reconstructible lease (``:LeaseRenewal.kind``): a newer
    committed entry that requires the same entry, a committed entry derived from it (reasoning
    that used it; a recall copy is one), or an operator's foundational mark."""

    LIVE_REFERENCE = "live_reference"
    USE = "use"
    FOUNDATIONAL = "foundational"


class SetKind(StrEnum):
    """What a set is for (``Proposal.kind``, ``:Set.kind``)."""

    STATE = "state"
    COMPACTION = "compaction"
    CONSTITUTION = "constitution"
    RECALL = "recall"
    INVALIDATION = "invalidation"
    ONTOLOGY = "ontology"
    MIGRATION = "migration"


# Deliberative material must carry a lease (expires_after) or be superseded by default.
DELIBERATIVE_CLASSES = frozenset({EntryClass.REJECTED_ALTERNATIVE, EntryClass.OPEN_QUESTION})


# -- the record's statuses ------------------------------------------------------------------------
class EntryStatus(StrEnum):
    """An entry's status in the record (independent of residency in the window)."""

    LIVE = "live"
    SUPERSEDED = "superseded"
    RETIRED = "retired"
    CHALLENGED = "challenged"
    INVALIDATED = "invalidated"
    AT_RISK = "at_risk"
    REVALIDATED = "revalidated"
    EXPLORED = "explored"


S = EntryStatus
LIVE_STATUSES: frozenset[EntryStatus] = frozenset({S.LIVE, S.REVALIDATED})
STANDING_STATUSES: frozenset[EntryStatus] = LIVE_STATUSES | {S.CHALLENGED, S.AT_RISK}
NOT_STANDING: frozenset[EntryStatus] = frozenset(EntryStatus) - STANDING_STATUSES
CYCLE_INELIGIBLE: frozenset[EntryStatus] = NOT_STANDING
FAILED_WORK: frozenset[EntryStatus] = frozenset({S.INVALIDATED, S.AT_RISK})
# An entry another one replaced: what a held edge into it passes to its successors
# (``[roots] successors``).
REPLACED_STATUSES: frozenset[EntryStatus] = frozenset({S.SUPERSEDED, S.INVALIDATED})
del S

# A label per record class and status, and one for residency, kept in step with the properties by
# the gate, so Neo4j Browser can colour entries by status and size them by residency (GraSS styles
# select by label only).
CLASS_LABELS: dict[EntryClass, str] = {
    c: "".join(part.capitalize() for part in c.value.split("_")) for c in EntryClass
}
STATUS_LABELS: dict[EntryStatus, str] = {
    s: "".join(part.capitalize() for part in s.value.split("_")) for s in EntryStatus
}
RESIDENT_LABEL = "Resident"

# A class the constitution declares (``[classes.<name>]``): a lowercase name that
# is not a built-in class. Its label carries a prefix no built-in or system label has, so a
# declared class can never make an entry look like a :Set, :Boundary or a built-in class.
DECLARED_CLASS_PATTERN = r"^[a-z][a-z0-9]*(_[a-z0-9]+)*$"
DECLARED_CLASS_MAX_CHARS = 40
DECLARED_CLASS_LABEL_PREFIX = "Declared"


@lru_cache(maxsize=1024)
def class_label(name: str) -> str:
    """The Neo4j label of an entry class: the built-in one, or the prefixed declared one (kept
    per name: every new entry asks)."""
    try:
        return CLASS_LABELS[EntryClass(name)]
    except ValueError:
        camel = "".join(part.capitalize() for part in name.split("_"))
        return f"{DECLARED_CLASS_LABEL_PREFIX}{camel}"


class SetStatus(StrEnum):
    RATIFIED = "ratified"
    HALTED = "halted"
    REJECTED = "rejected"


class ProposalStatus(StrEnum):
    PENDING = "pending"
    COMMITTED = "committed"
    HALTED = "halted"
    REJECTED = "rejected"


class HaltStatus(StrEnum):
    OPEN = "open"
    RESOLVED = "resolved"


class SetMode(StrEnum):
    """How a ratified set was applied: governed, or append-only below the task horizon."""

    GOVERNED = "governed"
    APPEND_ONLY = "append_only"


# -- the gate's decisions -------------------------------------------------------------------------
class Outcome(StrEnum):
    """What the gate decided for a set."""

    COMMIT = "commit"
    HALT = "halt"
    REJECT = "reject"

    @property
    def set_status(self) -> SetStatus:
        return _SET_STATUS[self]

    @property
    def proposal_status(self) -> ProposalStatus:
        return _PROPOSAL_STATUS[self]

    @classmethod
    def of_set_status(cls, status: str) -> Outcome | None:
        """The outcome a recorded set status stands for (``None`` for anything else)."""
        for outcome, set_status in _SET_STATUS.items():
            if set_status == status:
                return outcome
        return None


_SET_STATUS = {
    Outcome.COMMIT: SetStatus.RATIFIED,
    Outcome.HALT: SetStatus.HALTED,
    Outcome.REJECT: SetStatus.REJECTED,
}
_PROPOSAL_STATUS = {
    Outcome.COMMIT: ProposalStatus.COMMITTED,
    Outcome.HALT: ProposalStatus.HALTED,
    Outcome.REJECT: ProposalStatus.REJECTED,
}


class ReasonCode(StrEnum):
    """Every reason the gate refuses a set. ``outcome`` says whether it rejects (malformed: a
    rejection receipt only) or halts (the operator decides; only the halt is recorded)."""

    # rejections
    NO_PLACEMENT = "NO_PLACEMENT"
    SET_TOO_LARGE = "SET_TOO_LARGE"
    CLASS_NOT_ALLOWED = "CLASS_NOT_ALLOWED"
    BODY_TOO_LARGE = "BODY_TOO_LARGE"
    ENTRY_ID_TAKEN = "ENTRY_ID_TAKEN"
    SET_ID_TAKEN = "SET_ID_TAKEN"
    WRITE_FAILED = "WRITE_FAILED"
    WRITER_KIND = "WRITER_KIND"
    NOT_AUTHORIZED = "NOT_AUTHORIZED"
    CASE_NOT_SHOWN = "CASE_NOT_SHOWN"
    DEPENDENCY_CYCLE = "DEPENDENCY_CYCLE"
    CROSS_BOUNDARY = "CROSS_BOUNDARY"
    MISSING_PROVENANCE = "MISSING_PROVENANCE"
    MISSING_LEASE = "MISSING_LEASE"
    UNKNOWN_DEPENDENCY = "UNKNOWN_DEPENDENCY"
    ILLEGAL_TRANSITION = "ILLEGAL_TRANSITION"
    TRANSITION_NOT_ALLOWED = "TRANSITION_NOT_ALLOWED"
    CZAR_INDEPENDENCE = "CZAR_INDEPENDENCE"
    NOT_OPERATOR = "NOT_OPERATOR"
    INVALID_CONSTITUTION = "INVALID_CONSTITUTION"
    CONSTITUTION_VERSION_TAKEN = "CONSTITUTION_VERSION_TAKEN"
    # a foundational mark (a lease that holds while it stands) declared by a writer that is not
    # a named operator, or on an entry that is not standing in the boundary
    FOUNDATIONAL_MARK = "FOUNDATIONAL_MARK"
    UNDECLARED_CLASS = "UNDECLARED_CLASS"  # neither built in nor declared by [classes.<name>]
    # a set kind the writer may not declare (compaction: the named czar's; constitution: the
    # operator's constitution change, never an ordinary set)
    SET_KIND = "SET_KIND"
    # a proposal or set id in a namespace the gate reserves (the czar's compaction sets,
    # constitution changes), refused before anything is recorded
    RESERVED_ID = "RESERVED_ID"
    # a constitution change that would leave no registered operator writer it names
    NO_OPERATOR = "NO_OPERATOR"
    # an operator revoked the writer's registration in the boundary (a revocation receipt)
    WRITER_REVOKED = "WRITER_REVOKED"
    # the set cites an adoption receipt an operator revoked
    ADOPTION_REVOKED = "ADOPTION_REVOKED"
    # halts
    FRAGMENTATION = "FRAGMENTATION"
    SUPERSESSION_TARGET = "SUPERSESSION_TARGET"
    VERSE_ADOPTION = "VERSE_ADOPTION"
    DENSITY = "DENSITY"
    HARD_DEPENDENCY = "HARD_DEPENDENCY"
    WEAK_REVALIDATION = "WEAK_REVALIDATION"
    UNCLEAR_COMPACTION = "UNCLEAR_COMPACTION"
    NON_STANDING_DEPENDENCY = "NON_STANDING_DEPENDENCY"
    ADOPTION_SCOPE = "ADOPTION_SCOPE"
    # a new entry of a class whose [on_revision] rule is "halt", on a key where a live resident
    # entry of that class stands, that does not declare it supersedes it
    UNDECLARED_REVISION = "UNDECLARED_REVISION"

    @property
    def outcome(self) -> Outcome:
        return Outcome.HALT if self in _HALT_CODES else Outcome.REJECT


_HALT_CODES = frozenset(
    {
        ReasonCode.FRAGMENTATION,
        ReasonCode.SUPERSESSION_TARGET,
        ReasonCode.VERSE_ADOPTION,
        ReasonCode.DENSITY,
        ReasonCode.HARD_DEPENDENCY,
        ReasonCode.WEAK_REVALIDATION,
        ReasonCode.UNCLEAR_COMPACTION,
        ReasonCode.NON_STANDING_DEPENDENCY,
        ReasonCode.ADOPTION_SCOPE,
        ReasonCode.UNDECLARED_REVISION,
    }
)


class OnRevision(StrEnum):
    """What the gate does with an undeclared revision (``[on_revision]`` of the constitution, per
    class): a new live entry of the class on a key where a live resident entry of the same class
    stands, that does not declare it supersedes it. ``supersede``: the new entry supersedes it in
    the same set (a rule-made supersession, named on the edge and the receipts); ``halt``: the set
    halts ``UNDECLARED_REVISION``; ``stand``: both stand."""

    SUPERSEDE = "supersede"
    HALT = "halt"
    STAND = "stand"


class OnHardFanout(StrEnum):
    """What the gate does with a new entry's hard ``REQUIRES`` on entries outside its own set
    that the per-entry or per-set budget gives up (``[hard_fanout]`` of the constitution; which
    ones: ``over_budget``). ``soften``: those edges are committed soft with the rule's lease (a
    rule-made policy, named on the receipts), so an unrenewed defensive edge expires; ``halt``:
    the set halts ``DENSITY`` with the amendment that would decide it (resubmit them soft)."""

    SOFTEN = "soften"
    HALT = "halt"


class OnRetiredDependency(StrEnum):
    """What the gate does with a ``REQUIRES`` or essential ``DERIVED_FROM`` on a retired entry of
    the own boundary (``[on_dependency] retired`` of the constitution). ``rehydrate``: the set
    brings it back as a scratch copy for one use, in the same set, and the dependency points at
    the copy (a rule-made recall, named in the receipts); ``halt``: the set halts
    ``NON_STANDING_DEPENDENCY``. A superseded, invalidated, at-risk or explored entry (or a retired
    one that was superseded or failed first) always halts."""

    REHYDRATE = "rehydrate"
    HALT = "halt"


class OnRecallCopyDependency(StrEnum):
    """What the gate does with a ``REQUIRES`` on a recall copy whose source the window no longer
    holds (``[on_dependency] recall_copy`` of the constitution). ``source``: the dependency is
    satisfied by the copy's source, brought back resident in the same set when it was retired
    from live (a rule-made rehydration, named in the receipts), and the copy's one use is spent
    by that set; ``copy``: the dependency stays on the copy (a one-use scratch entry, held while
    its dependent holds it). A source that was superseded, failed or explored, is scratch, or is
    in another boundary never comes back: the dependency stays on the copy."""

    SOURCE = "source"
    COPY = "copy"


class OnRetiredSupersession(StrEnum):
    """What the gate does with a declared supersession of a retired entry of the own boundary
    (``[on_supersession] retired`` of the constitution), on the new entry's key or one of its key
    family. ``record``: the supersession is recorded, not executed (the entry is out of the
    window already and stays retired), and the receipts name the rule; ``halt``: the set halts
    ``SUPERSESSION_TARGET``. A target retired after it was superseded or failed always halts."""

    RECORD = "record"
    HALT = "halt"


class ThresholdParameter(StrEnum):
    """The constitution parameters a halting predicate trips on by measuring a value (recorded on
    the halt as ``parameter`` and ``observed``): the halt classes ``record.amendments`` turns into
    a raised threshold when the operator resolves them consistently."""

    MAX_SET_FANOUT = "density.max_set_fanout"
    MAX_EDGES_PER_LIVE_ENTRY = "density.max_edges_per_live_entry"
    MAX_ENTRIES_PER_SET = "limits.max_entries_per_set"

    @property
    def section(self) -> str:
        return self.value.split(".", 1)[0]

    @property
    def key(self) -> str:
        return self.value.split(".", 1)[1]

    @property
    def integral(self) -> bool:
        return self is not ThresholdParameter.MAX_EDGES_PER_LIVE_ENTRY


class ReceiptFamily(StrEnum):
    """The receipt families (``epiphany.mind.<family>``): what a receipt proves. Every
    receipt carries its family (``:Receipt.family``), so an analyst asks for a family in Cypher."""

    GATEWAY_REVIEW = "gateway_review"  # explains the route a set took (or takes next)
    STATE_COMMIT = "state_commit_receipt"  # an effect admitted into persistent state
    STATE_REJECTION = "state_rejection_receipt"  # an effect refused or held, state unchanged
    VERSE_ADOPTION = "verse_adoption_receipt"  # local adoption of public or foreign material


class ReceiptKind(StrEnum):
    """What a receipt records: a review for every decision, then what was decided. Each kind
    belongs to one of the receipt families (``family``; docs/graph-model.md maps them)."""

    REVIEW = "review"
    COMMIT = "commit"
    REJECTION = "rejection"
    HALT = "halt"
    RESOLUTION = "resolution"
    ADOPTION = "adoption"
    CONSTITUTION = "constitution"
    REVOCATION = "revocation"

    @property
    def family(self) -> ReceiptFamily:
        return _RECEIPT_FAMILY[self]


_RECEIPT_FAMILY = {
    ReceiptKind.REVIEW: ReceiptFamily.GATEWAY_REVIEW,
    # an operator's approval or amendment of a held set: the route it takes next (its commit,
    # or its refusal, gets its own receipt when it is decided again)
    ReceiptKind.RESOLUTION: ReceiptFamily.GATEWAY_REVIEW,
    ReceiptKind.COMMIT: ReceiptFamily.STATE_COMMIT,
    # the constitution a boundary is created with (ratified by kg-context)
    ReceiptKind.CONSTITUTION: ReceiptFamily.STATE_COMMIT,
    ReceiptKind.REJECTION: ReceiptFamily.STATE_REJECTION,
    # a held set: refused for now, state unchanged, an operator decides (a rejection receipt
    # proves an effect was refused or held without mutating state)
    ReceiptKind.HALT: ReceiptFamily.STATE_REJECTION,
    ReceiptKind.ADOPTION: ReceiptFamily.VERSE_ADOPTION,
    # an operator's revocation of a writer, an adoption receipt, a foundational mark or a
    # credential: an effect admitted into persistent state (what it revokes is refused after it)
    ReceiptKind.REVOCATION: ReceiptFamily.STATE_COMMIT,
}


class ResolutionKind(StrEnum):
    """How an operator resolves a halt."""

    APPROVE = "approve"
    REJECT = "reject"
    AMEND = "amend"


# -- why a transition happens ---------------------------------------------------------------------
class JustificationCase(StrEnum):
    """The case a declared transition cites (``Transition.case``), decided by the gate from this
    value and the graph, never from the free-text evidence beside it."""

    # the czar's compaction cases
    SUPERSEDED = "SUPERSEDED"  # a declared supersession not yet executed
    DEFAULT_SUPERSEDED = "DEFAULT_SUPERSEDED"  # superseded_by_default, a newer entry of its key
    UNREACHABLE = "UNREACHABLE"  # no root path at the czar's seq
    REACHABLE = "REACHABLE"  # a root path again: back into the window
    NOT_STANDING = "NOT_STANDING"  # resident but not standing: out of the window
    UNCLEAR = "UNCLEAR"  # the czar cannot decide: halts to the operator
    # the gate's own: a recall copy leaves with the work set that spent its one use
    ONE_USE = "ONE_USE"
    # the gate's own: the source of a recall copy a set requires, back into the window
    REHYDRATED = "REHYDRATED"
    # invalidation and ontology evolution
    CHALLENGE = "CHALLENGE"  # the challenged entry itself
    INVALIDATE = "INVALIDATE"  # the invalidated entry itself
    FAILED_ANCESTOR = "FAILED_ANCESTOR"  # at risk through an essential path from a failed entry
    ONTOLOGY = "ONTOLOGY"  # at risk because its class changed
    MIGRATION = "MIGRATION"  # retired because a migrated copy of another class replaced it


# The compaction cases a constitution pre-authorizes by default (``[czar] pre_authorized``).
PRE_AUTHORIZED_CZAR_CASES: tuple[JustificationCase, ...] = (
    JustificationCase.SUPERSEDED,
    JustificationCase.DEFAULT_SUPERSEDED,
    JustificationCase.UNREACHABLE,
    JustificationCase.REACHABLE,
    JustificationCase.NOT_STANDING,
)
