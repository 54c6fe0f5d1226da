"""Every gate predicate, pure: each reason code trips, and each has a passing neighbour.

A row of ``ROWS`` is one reason code (one branch of one predicate): a scenario that trips it and
the smallest change that passes. Scenarios are real ``Proposal`` contracts closed into a set by
the real set constructor and viewed the way the gate views them, checked against an in-memory
``Snapshot`` and a real ``Constitution``: no database, nothing mocked. Each row asserts, for the
tripping scenario, that the predicate returns its reason code with the outcome
``ReasonCode(code).outcome`` and that the whole predicate chain (rejections, then halts) stops at
that code first (nothing else is wrong with the scenario); for the neighbour, that no predicate
objects at all.

The codes decided outside the predicate library are covered through the pure functions that
decide them: ``NO_PLACEMENT`` (``construct_sets`` + ``rejection_for_unplaced``), ``SET_ID_TAKEN``
(``evaluate``), ``WRITE_FAILED`` (``isolation.write_failed_plan`` and an unreadable payload in
``evaluate``), and ``NOT_OPERATOR``, ``NOT_AUTHORIZED``, ``INVALID_CONSTITUTION``,
``CONSTITUTION_VERSION_TAKEN`` for constitution changes (``evaluate_constitution``).
``test_every_reason_code_is_covered`` ties the table to the enum.

The graph facts the gate reads in its transaction are given in memory: a czar's claimed cases
(``ClaimFacts``), the registered writers, adoption receipts (``AdoptionState``), entries of other
boundaries, and the sets of the fragment window (``SetFootprint``).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import pytest

from kg_context.errors import ReservedIdError
from kg_context.gate.io.isolation import Pending, write_failed_plan
from kg_context.gate.pure.authority import refuse_reserved_id
from kg_context.gate.pure.constitution import (
    AuthorityRule,
    Constitution,
    CrossBoundaryRule,
    DeclaredClass,
    DensityRule,
    HardFanoutRule,
    Limits,
    default_constitution_text,
    load_constitution,
    parse_constitution,
)
from kg_context.gate.pure.contracts import Proposal, WriterKind, constitution_proposal
from kg_context.gate.pure.decision import evaluate, evaluate_constitution, rejection_for_unplaced
from kg_context.gate.pure.leases import foundational_mark
from kg_context.gate.pure.predicates import (
    HALTS,
    REJECTS,
    Check,
    SetView,
    Violation,
    adoption_scope,
    body_size,
    class_allowed,
    compaction_pre_authorized,
    cross_boundary,
    czar_cases_shown,
    czar_independence,
    deliberative_lease,
    density,
    dependencies_exist,
    dependency_cycle,
    entry_ids_free,
    fragmentation,
    hard_fanout,
    non_standing_dependency,
    provenance_required,
    residency_hold,
    set_kind_authority,
    set_size,
    supersession_target,
    transitions_legal,
    undeclared_revision,
    verse_adoption,
    weak_revalidation,
    writer_authority,
)
from kg_context.gate.pure.refusal import UnreadableProposal
from kg_context.gate.pure.revoked import revoked_parties
from kg_context.gate.pure.set_constructor import construct_sets
from kg_context.gate.pure.snapshot import (
    AdoptionState,
    ClaimFacts,
    EntryState,
    LockedBoundary,
    Revoked,
    SetFootprint,
    Snapshot,
)
from kg_context.vocabulary import JustificationCase, OnHardFanout, OnRevision, Outcome, ReasonCode

B = "b-pure"
OTHER = "b-other"
RULES = load_constitution()
CZAR = "czar"  # the czar the default constitution names
_ids = itertools.count(1)


# -- today's text encoding of justifications (the one place to change for structured ones) --------
def _czar_transition(entry_id: str, case: JustificationCase, evidence: str) -> dict[str, Any]:
    """A czar's retirement of ``entry_id`` out of the window, citing ``case``."""
    return {
        "entry_id": entry_id,
        "to": "retired",
        "resident": False,
        "reason": f"compaction: {case.value.lower()}",
        "case": case.value,
        "justification": [evidence],
    }


def _recorded_failures(*ancestors: str) -> tuple[str, ...]:
    """What an at-risk transition recorded about its failed ancestors (``EntryState``)."""
    return tuple(ancestors)


# -- builders -------------------------------------------------------------------------------------
def _entry(entry_id: str, cls: str = "decision", key: str = "k", **declared: Any) -> dict[str, Any]:
    return {"id": entry_id, "class": cls, "key": key, "body": f"body of {entry_id}", **declared}


def _proposal(
    *entries: dict[str, Any],
    writer: str = "w-1",
    kind: str = "agent",
    transitions: Sequence[dict[str, Any]] = (),
    **fields: Any,
) -> Proposal:
    data: dict[str, Any] = {
        "id": f"p-{next(_ids)}",
        "boundary_id": B,
        "writer_id": writer,
        "writer_kind": kind,
        "targets": ["t"],
        "entries": list(entries),
        "transitions": list(transitions),
        **fields,
    }
    return Proposal.model_validate(data)


def _of_kind(
    set_kind: str,
    writer: str,
    writer_kind: str,
    *entries: dict[str, Any],
    transitions: Sequence[dict[str, Any]] = (),
) -> Proposal:
    """A proposal declaring the set kind ``set_kind`` (``_proposal``'s ``kind`` is the writer's)."""
    base = _proposal(*entries, writer=writer, kind=writer_kind, transitions=transitions)
    return Proposal.model_validate({**base.model_dump(by_alias=True), "kind": set_kind})


def _move(entry_id: str, to: str | None = None, **change: Any) -> dict[str, Any]:
    """A declared transition of ``entry_id`` (its status ``to``, and/or ``resident=``)."""
    return {"entry_id": entry_id, "to": to, "reason": "declared by the writer", **change}


def _czar(*transitions: dict[str, Any], entries: Sequence[dict[str, Any]] = ()) -> Proposal:
    return _proposal(*entries, writer=CZAR, kind="czar", transitions=transitions)


def _state(
    entry_id: str,
    status: str = "live",
    *,
    key: str = "k",
    writer: str = "w-0",
    boundary: str = B,
    **more: Any,
) -> EntryState:
    return EntryState(entry_id, boundary, key, status, "decision", writer, True, tokens=5, **more)


def _rules(**sections: Any) -> Constitution:
    return RULES.model_copy(update=sections)


_BUG_RULES = _rules(
    classes={
        "bug": DeclaredClass(root=True, writers=(WriterKind.AGENT, WriterKind.MODEL)),
        "experiment": DeclaredClass(lease_sets=5, writers=(WriterKind.AGENT,)),
    }
)


@dataclass(frozen=True)
class Scenario:
    """Proposals submitted together, and the state and rules the gate decides them against."""

    proposals: tuple[Proposal, ...]
    states: tuple[EntryState, ...] = (_state("base"),)
    rules: Constitution = RULES
    tokens: dict[str, int] = field(default_factory=dict)  # entry id -> tokens (default 1)
    live_count: int | None = None  # default: the live entries of ``states``
    requires_count: int = 0
    adoptions: tuple[AdoptionState, ...] = ()
    append_only: bool = False
    writers: tuple[tuple[str, str], ...] = ()  # registered (writer id, kind)
    claims: tuple[tuple[str, ClaimFacts], ...] = ()  # what the graph shows for claimed entries
    foreign: tuple[EntryState, ...] = ()  # entries of other boundaries
    recent_sets: tuple[SetFootprint, ...] = ()
    revoked_writers: tuple[str, ...] = ()  # writer ids an operator revoked
    revoked_adoptions: tuple[str, ...] = ()  # adoption receipt ids an operator revoked

    def snapshot(self) -> Snapshot:
        live = sum(1 for s in self.states if s.live and s.boundary_id == B)
        boundary = LockedBoundary(
            B,
            7,
            "local",
            self.rules.version,
            None,
            self.live_count if self.live_count is not None else live,
            self.requires_count,
            "set-7",
        )
        return Snapshot(
            boundary=boundary,
            entries={s.id: s for s in self.states},
            adoptions={a.id: a for a in self.adoptions},
            writers=dict(self.writers),
            claims=dict(self.claims),
            foreign={(f.boundary_id, f.id): f for f in self.foreign},
            recent_sets=list(self.recent_sets),
            revoked_writers={
                w: Revoked(f"{B}/revocation/{w}", B, "op", 3) for w in self.revoked_writers
            },
            revoked_adoptions={
                a: Revoked(f"{B}/revocation/{a}", B, "op", 3) for a in self.revoked_adoptions
            },
        )

    def view(self) -> SetView:
        """The first closed set, viewed as the gate views it."""
        built = construct_sets(list(self.proposals), self.rules.window.proposals)
        assert not built.unplaced and built.sets
        closed = built.sets[0]
        entries = tuple(
            (proposal, entry_id, entry)
            for proposal in closed.proposals
            for entry_id, entry in zip(proposal.entry_ids(), proposal.entries, strict=True)
        )
        tokens = {entry_id: self.tokens.get(entry_id, 1) for _, entry_id, _ in entries}
        return SetView(closed, entries, tokens, self.append_only)


def S(*proposals: Proposal, **context: Any) -> Scenario:
    return Scenario(tuple(proposals), **context)


@dataclass(frozen=True)
class Row:
    name: str
    code: ReasonCode
    check: Check
    trips: Scenario
    passes: Scenario


def _unreached(*entry_ids: str) -> tuple[tuple[str, ClaimFacts], ...]:
    """What the graph shows for entries no root reaches (and nothing else holds)."""
    return tuple((i, ClaimFacts(False, False, False)) for i in entry_ids)


def _receipt(
    receipt_id: str,
    *,
    boundary: str = B,
    keys: tuple[str, ...] = ("k",),
    uses: int = 1,
    used: int = 0,
    until: int | None = None,
) -> AdoptionState:
    return AdoptionState(receipt_id, boundary, frozenset(keys), uses, used, until, 7)


def _footprint(
    set_id: str = "S-earlier", *, fanout: int = 0, entries: int = 1, writer: str = "w-1"
) -> SetFootprint:
    """A set ratified at seq 7 (in the window) on target ``t`` by ``writer``."""
    return SetFootprint(
        set_id, 7, frozenset({"t"}), frozenset({writer}), fanout, entries, frozenset()
    )


_REVISION_HALTS = _rules(on_revision={"decision": OnRevision.HALT})
_SMALL = _rules(limits=Limits(max_entries_per_set=2))
_NARROW = _rules(density=DensityRule(max_set_fanout=2))
_HARD_HALTS = _rules(hard_fanout=HardFanoutRule(per_entry=1, excess=OnHardFanout.HALT))
_BASES = (_state("base"), _state("base2"))
_REQ_BASE2 = [{"entry_id": "base"}, {"entry_id": "base2"}]
# A ratified set in the window on target t by w-1 that declared 2 edges; fan-out limit 3.
_FRAGMENT: dict[str, Any] = {
    "states": _BASES,
    "rules": _rules(density=DensityRule(max_set_fanout=3)),
    "recent_sets": (_footprint(fanout=2),),
}
# The same fragment recorded with the entries it declared edges to.
_SHARING: dict[str, Any] = {
    **_FRAGMENT,
    "recent_sets": (
        SetFootprint(
            "S-earlier",
            7,
            frozenset({"t"}),
            frozenset({"w-1"}),
            2,
            1,
            frozenset(),
            frozenset({"base2"}),
        ),
    ),
}
_HOLDER = _state("holder")
_HELD = _state("base", hard_held_by=("holder",))
_REVALIDATE = _move("x", "revalidated")
_AT_RISK_X = _state("x", "at_risk", failed_ancestors=_recorded_failures("root"))
U = JustificationCase.UNREACHABLE

_OPERATOR: dict[str, Any] = {"writer": "operator", "kind": "operator"}
_AGENTS_ONLY = _rules(authority=AuthorityRule(self_register=(WriterKind.AGENT,)))
_TOOL = (("w-1", "tool"),)
_REACHED = ClaimFacts(True, False, False)
_SUPERSEDED = ClaimFacts(False, True, False)
_DEFAULTED = ClaimFacts(False, False, True)
_SUP = JustificationCase.SUPERSEDED
_DEF = JustificationCase.DEFAULT_SUPERSEDED
_OUT = EntryState("out", B, "k", "live", "decision", "w-0", False, tokens=5)
_INVALID = _state("base", "invalidated")
_RETIRED = (_state("base", "retired"),)
_CROSS = _rules(cross_boundary=CrossBoundaryRule(allowed=("derived_from", "requires")))
_THERE = [{"entry_id": "api", "boundary_id": OTHER}]
_ACROSS: dict[str, Any] = {
    "foreign": (_state("api", key="api", boundary=OTHER),),
    "adoptions": (_receipt("r", boundary=OTHER, keys=("api",)),),
}


def _on(entry_id: str) -> list[dict[str, Any]]:
    return [{"entry_id": entry_id}]


def _soft_on(entry_id: str) -> list[dict[str, Any]]:
    return [{"entry_id": entry_id, "policy": "soft", "lease_sets": 5}]


def _support_on(entry_id: str) -> list[dict[str, Any]]:
    return [{"entry_id": entry_id, "essential": False}]


def _replaces(entry_id: str) -> list[dict[str, Any]]:
    return [{"entry_id": entry_id, "reason": "r"}]


def _window_in(entry_id: str) -> dict[str, Any]:
    return {"entry_id": entry_id, "resident": True, "reason": "root path", "case": "REACHABLE"}


def _window_out(entry_id: str) -> dict[str, Any]:
    return {"entry_id": entry_id, "resident": False, "reason": "status", "case": "NOT_STANDING"}


def _global(key: str) -> Proposal:
    return _proposal(_entry("g", key=key, verse="global"), adoption_receipt_id="adopt-1")


ROWS: list[Row] = [
    # -- rejections -------------------------------------------------------------------------
    Row(
        "a writer whose registration an operator revoked",
        ReasonCode.WRITER_REVOKED,
        revoked_parties,
        S(_proposal(_entry("a"), writer="w-gone"), revoked_writers=("w-gone",)),
        S(_proposal(_entry("a"), writer="w-1"), revoked_writers=("w-gone",)),
    ),
    Row(
        "an adoption receipt an operator revoked",
        ReasonCode.ADOPTION_REVOKED,
        revoked_parties,
        S(_proposal(_entry("a"), adoption_receipt_id="adopt-1"), revoked_adoptions=("adopt-1",)),
        S(_proposal(_entry("a"), adoption_receipt_id="adopt-2"), revoked_adoptions=("adopt-1",)),
    ),
    Row(
        "set larger than limits.max_entries_per_set",
        ReasonCode.SET_TOO_LARGE,
        set_size,
        S(_proposal(_entry("a"), _entry("b"), _entry("c")), rules=_SMALL),
        S(_proposal(_entry("a"), _entry("b")), rules=_SMALL),
    ),
    Row(
        "writer kind may not commit the class",
        ReasonCode.CLASS_NOT_ALLOWED,
        class_allowed,
        S(_proposal(_entry("a"), kind="tool")),
        S(_proposal(_entry("a"), kind="agent")),
    ),
    Row(
        "a class no constitution declared",
        ReasonCode.UNDECLARED_CLASS,
        class_allowed,
        S(_proposal(_entry("a", "bug"), kind="agent")),
        S(_proposal(_entry("a", "bug"), kind="agent"), rules=_BUG_RULES),
    ),
    Row(
        "writer kind the declared class does not name",
        ReasonCode.CLASS_NOT_ALLOWED,
        class_allowed,
        S(_proposal(_entry("a", "bug"), kind="tool"), rules=_BUG_RULES),
        S(_proposal(_entry("a", "bug"), kind="model"), rules=_BUG_RULES),
    ),
    Row(
        "declared class with lease_sets, entry without a lease",
        ReasonCode.MISSING_LEASE,
        deliberative_lease,
        S(_proposal(_entry("x", "experiment"), kind="agent"), rules=_BUG_RULES),
        S(_proposal(_entry("x", "experiment", expires_after=5), kind="agent"), rules=_BUG_RULES),
    ),
    Row(
        "declared class lease over its lease_sets",
        ReasonCode.MISSING_LEASE,
        deliberative_lease,
        S(_proposal(_entry("x", "experiment", expires_after=6), kind="agent"), rules=_BUG_RULES),
        S(_proposal(_entry("x", "experiment", superseded_by_default=True)), rules=_BUG_RULES),
    ),
    Row(
        "body over limits.max_body_tokens",
        ReasonCode.BODY_TOO_LARGE,
        body_size,
        S(_proposal(_entry("a")), tokens={"a": RULES.limits.max_body_tokens + 1}),
        S(_proposal(_entry("a")), tokens={"a": RULES.limits.max_body_tokens}),
    ),
    Row(
        "entry id already in the record",
        ReasonCode.ENTRY_ID_TAKEN,
        entry_ids_free,
        S(_proposal(_entry("base"))),
        S(_proposal(_entry("fresh"))),
    ),
    Row(
        "fact without DERIVED_FROM or source",
        ReasonCode.MISSING_PROVENANCE,
        provenance_required,
        S(_proposal(_entry("f", "fact"))),
        S(_proposal(_entry("f", "fact", attributes={"source": "load test 12"}))),
    ),
    Row(
        "deliberative entry without a lease",
        ReasonCode.MISSING_LEASE,
        deliberative_lease,
        S(_proposal(_entry("q", "open_question"))),
        S(_proposal(_entry("q", "open_question", expires_after=10))),
    ),
    Row(
        "deliberative lease over deliberative.max_lease_sets",
        ReasonCode.MISSING_LEASE,
        deliberative_lease,
        S(
            _proposal(
                _entry("q", "open_question", expires_after=RULES.deliberative.max_lease_sets + 1)
            )
        ),
        S(_proposal(_entry("q", "open_question", expires_after=RULES.deliberative.max_lease_sets))),
    ),
    Row(
        "REQUIRES an entry not in the record",
        ReasonCode.UNKNOWN_DEPENDENCY,
        dependencies_exist,
        S(_proposal(_entry("a", requires=[{"entry_id": "ghost"}]))),
        S(_proposal(_entry("a", requires=[{"entry_id": "base"}]))),
    ),
    Row(
        "DERIVED_FROM an entry not in the record",
        ReasonCode.UNKNOWN_DEPENDENCY,
        dependencies_exist,
        S(_proposal(_entry("a", derived_from=[{"entry_id": "ghost"}]))),
        S(_proposal(_entry("ghost"), _entry("a", derived_from=[{"entry_id": "ghost"}]))),
    ),
    Row(
        "transition of an entry of another boundary",
        ReasonCode.UNKNOWN_DEPENDENCY,
        transitions_legal,
        S(
            _proposal(transitions=[_move("base", "challenged")]),
            states=(_state("base", boundary="elsewhere"),),
        ),
        S(_proposal(transitions=[_move("base", "challenged")])),
    ),
    Row(
        "status change the status machine has not",
        ReasonCode.ILLEGAL_TRANSITION,
        transitions_legal,
        S(
            _proposal(transitions=[_move("base", "challenged")]),
            states=(_state("base", "superseded"),),
        ),
        S(
            _proposal(transitions=[_move("base", "challenged")]),
            states=(_state("base", "live"),),
        ),
    ),
    Row(
        "an entry that is not standing kept in the window",
        ReasonCode.ILLEGAL_TRANSITION,
        transitions_legal,
        S(_proposal(transitions=[_move("base", "retired", resident=True)], **_OPERATOR)),
        S(_proposal(transitions=[_move("base", "retired")], **_OPERATOR)),
    ),
    Row(
        "status change not allowed to the writer kind",
        ReasonCode.TRANSITION_NOT_ALLOWED,
        transitions_legal,
        S(_proposal(kind="tool", transitions=[_move("base", "challenged")])),
        S(_proposal(kind="agent", transitions=[_move("base", "challenged")])),
    ),
    Row(
        "residency change by a writer kind that may not move residency",
        ReasonCode.TRANSITION_NOT_ALLOWED,
        transitions_legal,
        S(_proposal(kind="agent", transitions=[_move("base", resident=False)])),
        S(
            _proposal(
                writer="operator",
                kind="operator",
                transitions=[_move("base", resident=False)],
            )
        ),
    ),
    Row(
        "czar retires an entry it wrote",
        ReasonCode.CZAR_INDEPENDENCE,
        czar_independence,
        S(
            _czar(_czar_transition("base", U, "no root path")),
            states=(_state("base", writer=CZAR),),
        ),
        S(
            _czar(_czar_transition("base", U, "no root path")),
            states=(_state("base", writer="w-0"),),
            claims=_unreached("base"),
        ),
    ),
    Row(
        "czar moves its own interface by a case other than its sources leaving or coming back",
        ReasonCode.CZAR_INDEPENDENCE,
        czar_independence,
        S(
            _czar(_czar_transition("base", _SUP, "superseded")),
            states=(EntryState("base", B, "k", "live", "interface", CZAR, True, tokens=5),),
        ),
        S(
            _czar(_czar_transition("base", U, "no root path")),
            states=(EntryState("base", B, "k", "live", "interface", CZAR, True, tokens=5),),
            claims=_unreached("base"),
        ),
    ),
    Row(
        "czar compacts an entry it wrote into an interface",
        ReasonCode.CZAR_INDEPENDENCE,
        czar_independence,
        S(
            _czar(entries=[_entry("i", "interface", derived_from=[{"entry_id": "base"}])]),
            states=(_state("base", writer=CZAR),),
        ),
        S(
            _czar(entries=[_entry("i", "interface", derived_from=[{"entry_id": "base"}])]),
            states=(_state("base", writer="w-0"),),
        ),
    ),
    # -- halts ------------------------------------------------------------------------------
    Row(
        "a set and a ratified fragment (one target) over the fan-out together",
        ReasonCode.FRAGMENTATION,
        fragmentation,
        S(_proposal(_entry("a", requires=_REQ_BASE2), writer="w-2"), **_FRAGMENT),
        S(_proposal(_entry("a", requires=_REQ_BASE2), targets=["elsewhere"]), **_FRAGMENT),
    ),
    Row(
        "a set without a target and a fragment sharing its dependencies",
        ReasonCode.FRAGMENTATION,
        fragmentation,
        S(_proposal(_entry("a", requires=_REQ_BASE2), set_id="S2", targets=[]), **_SHARING),
        S(
            _proposal(_entry("a", requires=_on("base") + _on("base3")), set_id="S2", targets=[]),
            **{**_SHARING, "states": (*_BASES, _state("base3"))},
        ),
    ),
    Row(
        "a set and a fragment over limits.max_entries_per_set together",
        ReasonCode.FRAGMENTATION,
        fragmentation,
        S(_proposal(_entry("a"), _entry("b")), rules=_SMALL, recent_sets=(_footprint(entries=1),)),
        S(
            _proposal(_entry("a"), _entry("b"), set_id="S2", targets=["elsewhere"]),
            rules=_SMALL,
            recent_sets=(_footprint(entries=1),),
        ),
    ),
    Row(
        "a fragment the set descends from is an ordered sequence, not a fragment",
        ReasonCode.FRAGMENTATION,
        fragmentation,
        S(_proposal(_entry("a", requires=_REQ_BASE2)), **_FRAGMENT),
        S(
            _proposal(_entry("a", requires=_REQ_BASE2, derived_from=[{"entry_id": "mine"}])),
            **{**_FRAGMENT, "states": (*_BASES, _state("mine", set_id="S-earlier"))},
        ),
    ),
    Row(
        "supersedes an entry that does not exist",
        ReasonCode.SUPERSESSION_TARGET,
        supersession_target,
        S(_proposal(_entry("n", supersedes=[{"entry_id": "ghost", "reason": "r"}]))),
        S(_proposal(_entry("n", supersedes=[{"entry_id": "base", "reason": "r"}]))),
    ),
    Row(
        "supersedes an entry that does not exist, append-only boundary",
        ReasonCode.SUPERSESSION_TARGET,
        supersession_target,
        S(_proposal(_entry("n", supersedes=[{"entry_id": "ghost", "reason": "r"}]))),
        S(
            _proposal(_entry("n", supersedes=[{"entry_id": "ghost", "reason": "r"}])),
            append_only=True,
        ),
    ),
    Row(
        "supersedes an entry of another boundary",
        ReasonCode.SUPERSESSION_TARGET,
        supersession_target,
        S(
            _proposal(_entry("n", supersedes=[{"entry_id": "base", "reason": "r"}])),
            states=(_state("base", boundary="elsewhere"),),
        ),
        S(_proposal(_entry("n", supersedes=[{"entry_id": "base", "reason": "r"}]))),
    ),
    Row(
        "supersedes an entry that is not live",
        ReasonCode.SUPERSESSION_TARGET,
        supersession_target,
        S(
            _proposal(_entry("n", supersedes=[{"entry_id": "base", "reason": "r"}])),
            states=(_state("base", "superseded"),),
        ),
        S(
            _proposal(_entry("n", supersedes=[{"entry_id": "base", "reason": "r"}])),
            states=(_state("base", "revalidated"),),
        ),
    ),
    Row(
        "a new decision on the key of a live one, declaring no supersession, under halt",
        ReasonCode.UNDECLARED_REVISION,
        undeclared_revision,
        S(_proposal(_entry("n", key="k")), rules=_REVISION_HALTS),
        S(
            _proposal(_entry("n", key="k", supersedes=[{"entry_id": "base", "reason": "r"}])),
            rules=_REVISION_HALTS,
        ),
    ),
    Row(
        "an undeclared revision under halt; the neighbour: another key",
        ReasonCode.UNDECLARED_REVISION,
        undeclared_revision,
        S(_proposal(_entry("n", key="k")), rules=_REVISION_HALTS),
        S(_proposal(_entry("n", key="k2")), rules=_REVISION_HALTS),
    ),
    Row(
        "an undeclared revision under halt; the neighbour: the old entry is not resident",
        ReasonCode.UNDECLARED_REVISION,
        undeclared_revision,
        S(_proposal(_entry("n", key="k")), rules=_REVISION_HALTS),
        S(
            _proposal(_entry("n", key="k")),
            rules=_REVISION_HALTS,
            states=(_state("base", "superseded"),),
        ),
    ),
    Row(
        "an undeclared revision under halt; the neighbour: the rule is stand",
        ReasonCode.UNDECLARED_REVISION,
        undeclared_revision,
        S(_proposal(_entry("n", key="k")), rules=_REVISION_HALTS),
        S(_proposal(_entry("n", key="k")), rules=_rules(on_revision={})),
    ),
    Row(
        "supersedes an entry of another key",
        ReasonCode.SUPERSESSION_TARGET,
        supersession_target,
        S(_proposal(_entry("n", key="k2", supersedes=[{"entry_id": "base", "reason": "r"}]))),
        S(_proposal(_entry("n", key="k", supersedes=[{"entry_id": "base", "reason": "r"}]))),
    ),
    Row(
        "global material without an adoption receipt",
        ReasonCode.VERSE_ADOPTION,
        verse_adoption,
        S(_proposal(_entry("g", verse="global"), adoption_receipt_id="adopt-1")),
        S(
            _proposal(_entry("g", verse="global"), adoption_receipt_id="adopt-1"),
            adoptions=(_receipt("adopt-1", keys=("k",)),),
        ),
    ),
    Row(
        "set fan-out over density.max_set_fanout",
        ReasonCode.DENSITY,
        density,
        S(
            _proposal(
                _entry(
                    "a",
                    requires=[{"entry_id": "base"}, {"entry_id": "base2"}],
                    derived_from=[{"entry_id": "base"}],
                )
            ),
            states=(_state("base"), _state("base2")),
            rules=_NARROW,
        ),
        S(
            _proposal(_entry("a", requires=[{"entry_id": "base"}, {"entry_id": "base2"}])),
            states=(_state("base"), _state("base2")),
            rules=_NARROW,
        ),
    ),
    Row(
        "hard REQUIRES outside the set over [hard_fanout] per_entry, under halt",
        ReasonCode.DENSITY,
        hard_fanout,
        S(
            _proposal(_entry("a", requires=[{"entry_id": "base"}, {"entry_id": "base2"}])),
            states=(_state("base"), _state("base2")),
            rules=_HARD_HALTS,
        ),
        # the second edge soft, within the budget
        S(
            _proposal(_entry("a", requires=[{"entry_id": "base"}, *_soft_on("base2")])),
            states=(_state("base"), _state("base2")),
            rules=_HARD_HALTS,
        ),
    ),
    Row(
        "hard REQUIRES over [hard_fanout] per_entry; the neighbour: one on the set's own entry",
        ReasonCode.DENSITY,
        hard_fanout,
        S(
            _proposal(_entry("a", requires=[{"entry_id": "base"}, {"entry_id": "base2"}])),
            states=(_state("base"), _state("base2")),
            rules=_HARD_HALTS,
        ),
        S(
            _proposal(
                _entry("a", requires=[{"entry_id": "base"}, {"entry_id": "d"}]),
                _entry("d", cls="fact", key="d", derived_from=[{"entry_id": "a"}]),
            ),
            rules=_HARD_HALTS,
        ),
    ),
    Row(
        "REQUIRES per live entry over density.max_edges_per_live_entry",
        ReasonCode.DENSITY,
        density,
        # 19 live + 1 new = the ratio floor of 20; 80 + 1 REQUIRES edges: 4.05 > 4.0
        S(
            _proposal(_entry("a", requires=[{"entry_id": "base"}])),
            live_count=19,
            requires_count=80,
        ),
        # a provenance edge instead is no residency edge: 80 / 20 = 4.0
        S(
            _proposal(_entry("a", derived_from=[{"entry_id": "base"}])),
            live_count=19,
            requires_count=80,
        ),
    ),
    Row(
        "czar retires an entry a staying entry holds by a hard edge",
        ReasonCode.HARD_DEPENDENCY,
        residency_hold,
        S(
            _czar(_czar_transition("base", U, "no root path")),
            states=(_HELD, _HOLDER),
            claims=_unreached("base", "holder"),
        ),
        S(
            _czar(
                _czar_transition("base", U, "no root path"),
                _czar_transition("holder", U, "no root path"),
            ),
            states=(_HELD, _HOLDER),
            claims=_unreached("base", "holder"),
        ),
    ),
    Row(
        "revalidation that cites no failed ancestor",
        ReasonCode.WEAK_REVALIDATION,
        weak_revalidation,
        S(_proposal(transitions=[_REVALIDATE]), states=(_AT_RISK_X,)),
        S(_proposal(transitions=[_REVALIDATE], revalidates=["root"]), states=(_AT_RISK_X,)),
    ),
    Row(
        "czar case the constitution does not pre-authorize",
        ReasonCode.UNCLEAR_COMPACTION,
        compaction_pre_authorized,
        S(_czar(_czar_transition("base", JustificationCase.UNCLEAR, "two roots disagree"))),
        S(_czar(_czar_transition("base", U, "no root path at seq 7")), claims=_unreached("base")),
    ),
    # -- authority ----------------------------------------------------------------
    Row(
        "a writer registered in the boundary as another kind",
        ReasonCode.WRITER_KIND,
        writer_authority,
        S(_proposal(_entry("a")), writers=(("w-1", "tool"),)),
        S(_proposal(_entry("a")), writers=(("w-1", "agent"),)),
    ),
    Row(
        "an id the constitution names writing as another kind",
        ReasonCode.WRITER_KIND,
        writer_authority,
        S(_proposal(_entry("a"), writer="operator", kind="agent")),
        S(_proposal(_entry("a"), writer="operator", kind="operator")),
    ),
    Row(
        "one writer claiming two kinds in one set",
        ReasonCode.WRITER_KIND,
        writer_authority,
        S(
            _proposal(_entry("a"), set_id="S"),
            _proposal(_entry("b", "scratch"), kind="tool", set_id="S"),
        ),
        S(_proposal(_entry("a"), set_id="S"), _proposal(_entry("b", "scratch"), set_id="S")),
    ),
    Row(
        "a czar kind claimed by an id the constitution does not name",
        ReasonCode.NOT_AUTHORIZED,
        writer_authority,
        S(
            _proposal(transitions=[_czar_transition("base", U, "lie")], writer="m", kind="czar"),
            claims=_unreached("base"),
        ),
        S(_czar(_czar_transition("base", U, "no root path")), claims=_unreached("base")),
    ),
    Row(
        "an operator kind claimed by an id the constitution does not name",
        ReasonCode.NOT_AUTHORIZED,
        writer_authority,
        S(_proposal(_entry("a"), writer="ops", kind="operator")),
        S(_proposal(_entry("a"), writer="operator", kind="operator")),
    ),
    Row(
        "a new writer of a kind the constitution does not let register itself",
        ReasonCode.NOT_AUTHORIZED,
        writer_authority,
        S(_proposal(_entry("s", "scratch"), kind="tool"), rules=_AGENTS_ONLY),
        S(_proposal(_entry("s", "scratch"), kind="tool"), rules=_AGENTS_ONLY, writers=_TOOL),
    ),
    Row(
        "a compaction set declared by a writer that is not a czar",
        ReasonCode.SET_KIND,
        set_kind_authority,
        S(_of_kind("compaction", "w-1", "agent", _entry("a"))),
        S(
            _of_kind("compaction", CZAR, "czar", transitions=[_window_out("base")]),
            states=_RETIRED,
        ),
    ),
    Row(
        "a constitution set outside an operator's constitution change",
        ReasonCode.SET_KIND,
        set_kind_authority,
        S(_of_kind("constitution", "operator", "operator", _entry("a"))),
        S(_of_kind("state", "operator", "operator", _entry("a"))),
    ),
    Row(
        "a foundational mark declared by a writer that is not an operator",
        ReasonCode.FOUNDATIONAL_MARK,
        foundational_mark,
        S(_proposal(foundational=["base"])),
        S(_proposal(foundational=["base"], **_OPERATOR)),
    ),
    Row(
        "an operator's foundational mark on an entry that is not standing",
        ReasonCode.FOUNDATIONAL_MARK,
        foundational_mark,
        S(_proposal(foundational=["base"], **_OPERATOR), states=(_state("base", "retired"),)),
        S(_proposal(foundational=["base"], **_OPERATOR)),
    ),
    Row(
        "czar cites UNREACHABLE for an entry the graph shows reachable",
        ReasonCode.CASE_NOT_SHOWN,
        czar_cases_shown,
        S(_czar(_czar_transition("base", U, "lie")), claims=(("base", _REACHED),)),
        S(_czar(_czar_transition("base", U, "no root path")), claims=_unreached("base")),
    ),
    Row(
        "czar cites REACHABLE for an entry no root reaches",
        ReasonCode.CASE_NOT_SHOWN,
        czar_cases_shown,
        S(_czar(_window_in("out")), states=(_OUT,), claims=_unreached("out")),
        S(_czar(_window_in("out")), states=(_OUT,), claims=(("out", _REACHED),)),
    ),
    Row(
        "czar cites NOT_STANDING for a standing entry",
        ReasonCode.CASE_NOT_SHOWN,
        czar_cases_shown,
        S(_czar(_window_out("base")), claims=_unreached("base")),
        S(_czar(_window_out("base")), states=(_state("base", "superseded"),)),
    ),
    Row(
        "czar cites SUPERSEDED without an unexecuted supersession by its key",
        ReasonCode.CASE_NOT_SHOWN,
        czar_cases_shown,
        S(_czar(_czar_transition("base", _SUP, "r")), claims=_unreached("base")),
        S(_czar(_czar_transition("base", _SUP, "r")), claims=(("base", _SUPERSEDED),)),
    ),
    Row(
        "czar cites DEFAULT_SUPERSEDED without a newer standing entry of its key",
        ReasonCode.CASE_NOT_SHOWN,
        czar_cases_shown,
        S(_czar(_czar_transition("base", _DEF, "r")), claims=_unreached("base")),
        S(_czar(_czar_transition("base", _DEF, "r")), claims=(("base", _DEFAULTED),)),
    ),
    Row(
        "czar case that does not justify the move it declares",
        ReasonCode.CASE_NOT_SHOWN,
        czar_cases_shown,
        S(
            _czar(_czar_transition("out", JustificationCase.REACHABLE, "r")),
            states=(_OUT,),
            claims=(("out", _REACHED),),
        ),
        S(_czar(_window_in("out")), states=(_OUT,), claims=(("out", _REACHED),)),
    ),
    # -- the shape of the declared graph -------------------------------------------
    Row(
        "a DERIVED_FROM cycle among the set's entries",
        ReasonCode.DEPENDENCY_CYCLE,
        dependency_cycle,
        S(_proposal(_entry("a", derived_from=_on("b")), _entry("b", derived_from=_on("a")))),
        S(_proposal(_entry("a", derived_from=_on("b")), _entry("b", derived_from=_on("base")))),
    ),
    Row(
        "an entry derived from itself",
        ReasonCode.DEPENDENCY_CYCLE,
        dependency_cycle,
        S(_proposal(_entry("a", derived_from=_on("a")))),
        S(_proposal(_entry("a", derived_from=_on("base")))),
    ),
    Row(
        "a hard REQUIRES cycle among the set's entries",
        ReasonCode.DEPENDENCY_CYCLE,
        dependency_cycle,
        S(_proposal(_entry("a", requires=_on("b")), _entry("b", requires=_on("a")))),
        S(_proposal(_entry("a", requires=_on("b")), _entry("b", requires=_soft_on("a")))),
    ),
    Row(
        "a reference to another boundary the constitution does not allow",
        ReasonCode.CROSS_BOUNDARY,
        cross_boundary,
        S(_proposal(_entry("a", derived_from=_THERE), adoption_receipt_id="r"), **_ACROSS),
        S(
            _proposal(_entry("a", derived_from=_THERE), adoption_receipt_id="r"),
            **{**_ACROSS, "rules": _CROSS},
        ),
    ),
    Row(
        "a reference to another boundary without that boundary's receipt",
        ReasonCode.CROSS_BOUNDARY,
        cross_boundary,
        S(_proposal(_entry("a", derived_from=_THERE)), **{**_ACROSS, "rules": _CROSS}),
        S(
            _proposal(_entry("a", derived_from=_THERE), adoption_receipt_id="r"),
            **{**_ACROSS, "rules": _CROSS},
        ),
    ),
    Row(
        "a reference to another boundary citing a used-up receipt",
        ReasonCode.CROSS_BOUNDARY,
        cross_boundary,
        S(
            _proposal(_entry("a", derived_from=_THERE), adoption_receipt_id="r"),
            **{
                **_ACROSS,
                "rules": _CROSS,
                "adoptions": (_receipt("r", boundary=OTHER, keys=("api",), used=1),),
            },
        ),
        S(
            _proposal(_entry("a", derived_from=_THERE), adoption_receipt_id="r"),
            **{**_ACROSS, "rules": _CROSS},
        ),
    ),
    Row(
        "a supersession of an entry of another boundary",
        ReasonCode.CROSS_BOUNDARY,
        cross_boundary,
        S(
            _proposal(
                _entry("a", supersedes=[{**_THERE[0], "reason": "r"}]), adoption_receipt_id="r"
            ),
            **{**_ACROSS, "rules": _CROSS},
        ),
        S(
            _proposal(_entry("a", derived_from=_THERE), adoption_receipt_id="r"),
            **{**_ACROSS, "rules": _CROSS},
        ),
    ),
    Row(
        "a named boundary that does not hold the referenced entry",
        ReasonCode.UNKNOWN_DEPENDENCY,
        dependencies_exist,
        S(
            _proposal(
                _entry("a", derived_from=[{"entry_id": "ghost", "boundary_id": OTHER}]),
                adoption_receipt_id="r",
            ),
            **{**_ACROSS, "rules": _CROSS},
        ),
        S(
            _proposal(_entry("a", derived_from=_THERE), adoption_receipt_id="r"),
            **{**_ACROSS, "rules": _CROSS},
        ),
    ),
    Row(
        "REQUIRES on a retired entry",
        ReasonCode.NON_STANDING_DEPENDENCY,
        non_standing_dependency,
        S(_proposal(_entry("a", requires=_on("base"))), states=(_state("base", "retired"),)),
        S(_proposal(_entry("a", requires=_on("base"))), states=(_state("base", "at_risk"),)),
    ),
    Row(
        "essential DERIVED_FROM on an invalidated entry",
        ReasonCode.NON_STANDING_DEPENDENCY,
        non_standing_dependency,
        S(_proposal(_entry("a", derived_from=_on("base"))), states=(_INVALID,)),
        S(_proposal(_entry("a", derived_from=_support_on("base"))), states=(_INVALID,)),
    ),
    Row(
        "essential DERIVED_FROM on a retired entry (an interface summarizing it is provenance)",
        ReasonCode.NON_STANDING_DEPENDENCY,
        non_standing_dependency,
        S(_czar(entries=[_entry("i", "scratch", derived_from=_on("base"))]), states=_RETIRED),
        S(_czar(entries=[_entry("i", "interface", derived_from=_on("base"))]), states=_RETIRED),
    ),
    Row(
        "REQUIRES on an entry the set itself supersedes",
        ReasonCode.NON_STANDING_DEPENDENCY,
        non_standing_dependency,
        S(_proposal(_entry("n", supersedes=_replaces("base"), requires=_on("base")))),
        S(_proposal(_entry("n", supersedes=_replaces("base"), derived_from=_on("base")))),
    ),
    Row(
        "REQUIRES on an entry the set itself retires",
        ReasonCode.NON_STANDING_DEPENDENCY,
        non_standing_dependency,
        S(
            _proposal(
                _entry("a", requires=_on("base")),
                transitions=[_move("base", "retired")],
                writer="operator",
                kind="operator",
            )
        ),
        S(
            _proposal(
                _entry("a", requires=_on("base")),
                transitions=[_move("base", "challenged")],
                writer="operator",
                kind="operator",
            )
        ),
    ),
    Row(
        "REQUIRES on a new entry committed explored",
        ReasonCode.NON_STANDING_DEPENDENCY,
        non_standing_dependency,
        S(
            _proposal(
                _entry("x", "scratch", attributes={"explored": True}),
                _entry("a", requires=_on("x")),
            )
        ),
        S(_proposal(_entry("x", "scratch"), _entry("a", requires=_on("x")))),
    ),
    # -- adoption ------------------------------------------------------------------
    Row(
        "a cited adoption receipt that does not cover the entry's key",
        ReasonCode.ADOPTION_SCOPE,
        adoption_scope,
        S(_global("security"), adoptions=(_receipt("adopt-1", keys=("pricing",)),)),
        S(_global("pricing"), adoptions=(_receipt("adopt-1", keys=("pricing",)),)),
    ),
    Row(
        "a cited adoption receipt that is used up",
        ReasonCode.ADOPTION_SCOPE,
        adoption_scope,
        S(_global("k"), adoptions=(_receipt("adopt-1", used=1),)),
        S(_global("k"), adoptions=(_receipt("adopt-1", uses=2, used=1),)),
    ),
    Row(
        "a cited adoption receipt that expired",
        ReasonCode.ADOPTION_SCOPE,
        adoption_scope,
        S(_global("k"), adoptions=(_receipt("adopt-1", until=7),)),
        S(_global("k"), adoptions=(_receipt("adopt-1", until=8),)),
    ),
    Row(
        "one new entry id declared twice in a set",
        ReasonCode.ENTRY_ID_TAKEN,
        entry_ids_free,
        S(_proposal(_entry("a"), set_id="S"), _proposal(_entry("a"), set_id="S")),
        S(_proposal(_entry("a"), set_id="S"), _proposal(_entry("b"), set_id="S")),
    ),
]


def _chain(view: SetView, rules: Constitution, snapshot: Snapshot) -> Violation | None:
    """The first objection of the whole library, in the gate's order (rejections, then halts)."""
    for check in (*REJECTS, *HALTS):
        violation = check(view, rules, snapshot)
        if violation is not None:
            return violation
    return None


@pytest.mark.parametrize("row", ROWS, ids=[r.name for r in ROWS])
def test_the_reason_code_trips(row: Row) -> None:
    scenario = row.trips
    violation = row.check(scenario.view(), scenario.rules, scenario.snapshot())
    assert violation is not None, f"{row.check.__name__} passed: {row.name}"
    assert ReasonCode(violation.reason_code) is row.code
    assert Outcome(violation.outcome) is row.code.outcome
    assert violation.detail
    first = _chain(scenario.view(), scenario.rules, scenario.snapshot())
    assert first is not None and ReasonCode(first.reason_code) is row.code, (
        f"the chain stopped at {first and first.reason_code}: the scenario is not minimal"
    )


@pytest.mark.parametrize("row", ROWS, ids=[r.name for r in ROWS])
def test_the_passing_neighbour_passes(row: Row) -> None:
    scenario = row.passes
    assert row.check(scenario.view(), scenario.rules, scenario.snapshot()) is None
    objection = _chain(scenario.view(), scenario.rules, scenario.snapshot())
    assert objection is None, f"{objection}"


@pytest.mark.parametrize("row", ROWS, ids=[r.name for r in ROWS])
def test_the_predicate_is_registered_by_its_outcome(row: Row) -> None:
    registry = REJECTS if row.code.outcome is Outcome.REJECT else HALTS
    assert row.check in registry


def test_rejections_are_checked_before_halts_and_no_predicate_is_untested() -> None:
    assert {r.check for r in ROWS} == set(REJECTS) | set(HALTS)
    assert not set(REJECTS) & set(HALTS)


# -- the codes decided outside the predicate library ----------------------------------------------
def test_no_placement_trips_without_set_id_or_target_and_passes_with_a_target() -> None:
    nowhere = _proposal(_entry("a"), targets=[])
    built = construct_sets([nowhere], RULES.window.proposals)
    assert built.unplaced == [nowhere] and not built.sets
    violation = rejection_for_unplaced(nowhere)
    assert ReasonCode(violation.reason_code) is ReasonCode.NO_PLACEMENT
    assert Outcome(violation.outcome) is ReasonCode.NO_PLACEMENT.outcome is Outcome.REJECT

    placed = _proposal(_entry("a"), targets=["t"])
    built = construct_sets([placed], RULES.window.proposals)
    assert not built.unplaced and [s.proposals for s in built.sets] == [(placed,)]


_NEXT_TEXT = default_constitution_text().replace(
    f'version = "{RULES.version}"', 'version = "pure-next"'
)


def _declaring(name: str, writers: str = '["agent"]') -> str:
    return f"{_NEXT_TEXT}\n[classes.{name}]\nroot = true\nwriters = {writers}\n"


@dataclass(frozen=True)
class ConstitutionCase:
    """A constitution change by ``kind`` with ``text``; the commits are the passing neighbours
    (an operator writer, valid text, a new version; or a recorded version with the same text)."""

    name: str
    code: ReasonCode | None  # None: the neighbour commits
    text: str = _NEXT_TEXT
    kind: WriterKind = WriterKind.OPERATOR
    recorded_sha: str | None = None
    writer: str = "operator"  # the operator the default constitution names


CONSTITUTION_CASES = [
    ConstitutionCase("agent writer", ReasonCode.NOT_OPERATOR, kind=WriterKind.AGENT),
    ConstitutionCase("operator writer", None),
    ConstitutionCase(
        "an operator the constitution does not name", ReasonCode.NOT_AUTHORIZED, writer="op-1"
    ),
    ConstitutionCase(
        "not a constitution", ReasonCode.INVALID_CONSTITUTION, text='version = "pure-next"\n'
    ),
    ConstitutionCase("a declared class", None, text=_declaring("bug")),
    ConstitutionCase(
        "a declared class shadows a built-in one",
        ReasonCode.INVALID_CONSTITUTION,
        text=_declaring("decision"),
    ),
    ConstitutionCase(
        "a declared class redefines the czar's interface",
        ReasonCode.INVALID_CONSTITUTION,
        text=_declaring("interface"),
    ),
    ConstitutionCase(
        "a declared class name that is not lowercase words",
        ReasonCode.INVALID_CONSTITUTION,
        text=_declaring('"Bug:Set"'),
    ),
    ConstitutionCase(
        "a declared class without writers",
        ReasonCode.INVALID_CONSTITUTION,
        text=_declaring("bug", writers="[]"),
    ),
    ConstitutionCase(
        "the current version again",
        ReasonCode.CONSTITUTION_VERSION_TAKEN,
        text=default_constitution_text(),
    ),
    ConstitutionCase(
        "a recorded version with other text",
        ReasonCode.CONSTITUTION_VERSION_TAKEN,
        recorded_sha="0" * 64,
    ),
    ConstitutionCase(
        "no operator named",
        ReasonCode.NO_OPERATOR,
        text=_NEXT_TEXT.replace('operators = ["operator"]', "operators = []"),
    ),
    ConstitutionCase(
        "only an operator no writer registered holds",
        ReasonCode.NO_OPERATOR,
        text=_NEXT_TEXT.replace('operators = ["operator"]', 'operators = ["op-2"]'),
    ),
    ConstitutionCase(
        "the proposing operator kept beside a new one",
        None,
        text=_NEXT_TEXT.replace('operators = ["operator"]', 'operators = ["operator", "op-2"]'),
    ),
    ConstitutionCase(
        "a recorded version with the same text",
        None,
        recorded_sha=parse_constitution(_NEXT_TEXT).sha256,
    ),
]


@pytest.mark.parametrize("case", CONSTITUTION_CASES, ids=[c.name for c in CONSTITUTION_CASES])
def test_constitution_changes(case: ConstitutionCase) -> None:
    proposal = constitution_proposal(B, case.writer, case.text, "tighten limits", case.kind)
    snapshot = S().snapshot()
    decision, plan, adopted = evaluate_constitution(
        proposal,
        snapshot,
        RULES,
        case.recorded_sha,
        now="2026-01-01T00:00:00+00:00",
        gateway_id="g",
    )
    if case.code is None:
        assert (decision.outcome, decision.seq, adopted is not None) == ("commit", 8, True)
        return
    assert decision.reason_code is not None and ReasonCode(decision.reason_code) is case.code
    assert Outcome(decision.outcome) is case.code.outcome is Outcome.REJECT
    assert adopted is None and decision.seq is None
    assert [r["props"]["kind"] for r in plan.receipts] == ["review", "rejection"]


# -- the codes the gate decides about the record of a set, not its content ------------------------
def _decide(closed_sets: Any, snapshot: Snapshot, **kw: Any) -> list[Any]:
    decisions, _plan = evaluate(
        closed_sets,
        snapshot,
        RULES,
        lambda texts: [1] * len(texts),
        now="2026-01-01T00:00:00+00:00",
        gateway_id="g",
        fresh_id=lambda base: f"{base}/fresh",
        **kw,
    )
    return decisions


def test_set_id_taken_trips_for_a_recorded_explicit_set_and_an_implicit_one_is_renamed() -> None:
    taken = S(_proposal(_entry("a"), set_id="S1")).snapshot()
    taken.taken_set_ids = {"S1"}
    (refused,) = _decide(construct_sets([_proposal(_entry("a"), set_id="S1")], 256).sets, taken)
    assert ReasonCode(refused.reason_code) is ReasonCode.SET_ID_TAKEN
    assert Outcome(refused.outcome) is ReasonCode.SET_ID_TAKEN.outcome is Outcome.REJECT
    assert refused.set_id == "S1/fresh"
    fresh = S().snapshot()
    (passed,) = _decide(construct_sets([_proposal(_entry("a"), set_id="S1")], 256).sets, fresh)
    assert (passed.outcome, passed.set_id) == ("commit", "S1")
    implicit = construct_sets([_proposal(_entry("b"))], 256).sets
    renamed = S().snapshot()
    renamed.taken_set_ids = {implicit[0].set_id}
    (moved,) = _decide(implicit, renamed)
    assert (moved.outcome, moved.set_id) == ("commit", f"{implicit[0].set_id}/fresh")


def test_write_failed_trips_for_a_set_that_cannot_be_written_and_an_unreadable_payload() -> None:
    closed = construct_sets([_proposal(_entry("a"), set_id="S1")], 256)
    pending = Pending(closed.sets, [], [], False)
    decisions, plan = write_failed_plan(
        pending, S().snapshot(), RULES, "ConstraintValidationFailed", now="t", gateway_id="g"
    )
    (failed,) = decisions
    assert ReasonCode(failed.reason_code) is ReasonCode.WRITE_FAILED
    assert Outcome(failed.outcome) is ReasonCode.WRITE_FAILED.outcome is Outcome.REJECT
    assert failed.set_id != "S1" and failed.set_id.startswith("S1/")
    assert not plan.entries and [r["props"]["kind"] for r in plan.receipts] == [
        "review",
        "rejection",
    ]
    unreadable = UnreadableProposal("p-x", "w-1", "0" * 64, "JSONDecodeError: ...")
    (rejected,) = _decide([], S().snapshot(), unreadable=[unreadable])
    assert ReasonCode(rejected.reason_code) is ReasonCode.WRITE_FAILED
    assert rejected.proposal_ids == ("p-x",) and "cannot be parsed" in rejected.detail
    # the neighbour: the same set, written, commits
    (written,) = _decide(closed.sets, S().snapshot())
    assert written.outcome == "commit"


def test_every_reason_code_is_covered() -> None:
    covered = {r.code for r in ROWS} | {c.code for c in CONSTITUTION_CASES if c.code}
    covered |= {ReasonCode.NO_PLACEMENT, ReasonCode.SET_ID_TAKEN, ReasonCode.WRITE_FAILED}
    covered |= {ReasonCode.RESERVED_ID}  # test_reserved_ids_are_refused_before_recording
    assert covered == set(ReasonCode)


def test_reserved_ids_are_refused_before_recording() -> None:
    czar_id = f"{B}/czar/{CZAR}/3/0-abc"
    for squat in (
        _proposal(_entry("a"), id=czar_id),
        _proposal(_entry("a"), set_id=czar_id),
        _proposal(_entry("a"), writer=f"{CZAR}/3", kind="czar", id=czar_id),
        _proposal(_entry("a"), id=f"{B}/constitution/0123"),
    ):
        with pytest.raises(ReservedIdError) as refused:
            refuse_reserved_id(squat)
        assert ReasonCode(refused.value.reason_code) is ReasonCode.RESERVED_ID
        assert refused.value.taken_id in (squat.id, squat.set_id)
    refuse_reserved_id(_czar(_window_out("base")).model_copy(update={"id": czar_id}))
    refuse_reserved_id(_proposal(_entry("a"), id=f"{B}/czarina/1"))


# -- lease renewals a commit plans (gate/pure/leases.py) ------------------------------------------
def _renewals(*proposals: Proposal) -> list[tuple[str, str, str, int]]:
    scenario = S(*proposals)
    _, plan = evaluate(
        construct_sets(list(proposals), 256).sets,
        scenario.snapshot(),
        RULES,
        lambda texts: [1] * len(texts),
        now="2026-01-01T00:00:00+00:00",
        gateway_id="g",
        fresh_id=lambda base: f"{base}/fresh",
    )
    return [(r["by"], r["to"], r["kind"], r["work"]) for r in plan.renewals]


def test_a_work_set_plans_renewals_by_reference_and_use_and_a_failed_attempt_renews_nothing() -> (
    None
):
    # On keys of their own: a decision on base's key would supersede it ([on_revision]).
    uses = _entry("u", key="ku", derived_from=_support_on("base"))
    refers = _entry("r", key="kr", requires=_soft_on("base"))
    failed = _entry("x", derived_from=_support_on("base"), attributes={"explored": True})
    inner = _entry("i", key="ki", requires=_soft_on("r"))  # the same set's entry renews nothing
    got = _renewals(_proposal(uses, refers, failed, inner))
    assert sorted(got) == [("r", "base", "live_reference", 1), ("u", "base", "use", 1)]


def test_only_a_standing_use_renews_a_lease() -> None:
    """A scratch derivation nothing holds renews nothing; one a root-class entry of its set
    requires (transitively) does."""
    loose = _entry("loose", "scratch", derived_from=_support_on("base"))
    held = _entry("held", "scratch", derived_from=_support_on("base"))
    middle = _entry("mid", "scratch", requires=_soft_on("held"))
    root = _entry("root", requires=_soft_on("mid"))
    assert _renewals(_proposal(loose)) == []
    assert sorted(_renewals(_proposal(loose, held, middle, root))) == [("held", "base", "use", 1)]


def test_a_compaction_set_renews_nothing_and_does_not_advance_the_work_clock() -> None:
    czar = _czar(_window_out("base"))
    scenario = S(czar, states=(_state("base", "superseded"),))
    decisions, plan = evaluate(
        construct_sets([czar], 256).sets,
        scenario.snapshot(),
        RULES,
        lambda texts: [1] * len(texts),
        now="2026-01-01T00:00:00+00:00",
        gateway_id="g",
        fresh_id=lambda base: f"{base}/fresh",
    )
    assert decisions[0].outcome == "commit", decisions[0].detail
    assert plan.renewals == [] and plan.boundary is not None
    assert (plan.boundary["seq"], plan.boundary["work_seq"]) == (8, 0)  # from seq 7, work 0


def _decide_one(scenario: Any, rules: Constitution = RULES) -> tuple[Any, Any]:
    decisions, plan = evaluate(
        construct_sets(list(scenario.proposals), 256).sets,
        scenario.snapshot(),
        rules,
        lambda texts: [1] * len(texts),
        now="2026-01-01T00:00:00+00:00",
        gateway_id="g",
    )
    (decided,) = decisions
    return decided, plan


def test_the_shipped_hard_fanout_budgets_entries_and_sets_and_gives_up_every_edge_over() -> None:
    rule = RULES.hard_fanout
    assert (rule.per_entry, rule.per_set, rule.over_budget) == (2, 2, "all")


def _three_hard_outside_and_one_inside() -> Any:
    """Entry ``a`` with hard REQUIRES on three earlier entries (``base``, ``base2``, ``base3``)
    and on ``d``, a fact of its own set derived from it."""
    bases = ("base", "base2", "base3")
    return S(
        _proposal(
            _entry("a", requires=[{"entry_id": b} for b in (*bases, "d")]),
            _entry("d", cls="fact", key="d", derived_from=[{"entry_id": "a"}]),
        ),
        states=tuple(_state(b, key=b) for b in bases),
    )


def test_hard_requires_beyond_the_budget_commit_soft_and_the_decision_names_the_rule() -> None:
    """Under ``[hard_fanout] over_budget = "beyond"`` (soften), the hard REQUIRES beyond an
    entry's budget on entries outside its set commit under the rule's policy and lease; the set's
    own entries don't count."""
    scenario = _three_hard_outside_and_one_inside()
    beyond = RULES.hard_fanout.model_copy(update={"over_budget": "beyond"})
    decided, plan = _decide_one(scenario, _rules(hard_fanout=beyond))
    assert decided.outcome == "commit"
    budget, lease = RULES.hard_fanout.per_entry, RULES.hard_fanout.lease_sets
    assert budget == 2
    policies = {(r["to"], r["policy"], r["lease_sets"]) for r in plan.requires}
    assert policies == {
        ("base", "hard", None),
        ("base2", "hard", None),
        ("base3", RULES.hard_fanout.policy, lease),
        ("d", "hard", None),
    }
    assert decided.rule_made == (
        f"hard_fanout=soften: a requires base3: hard beyond {budget} per entry, "
        f"committed {RULES.hard_fanout.policy} for {lease} work sets",
    )


def test_an_entry_over_its_budget_gives_up_every_hard_requires_outside_its_set() -> None:
    """Under the shipped ``over_budget = "all"``, an entry declaring more hard REQUIRES outside
    its set than its budget keeps none of them hard (its declared order names no essential one);
    its hard edge to its own derived fact stays; an entry within budget keeps its edges."""
    bases = ("base", "base2", "base3")
    over = _three_hard_outside_and_one_inside()
    decided, plan = _decide_one(over)
    assert decided.outcome == "commit"
    policy, lease = RULES.hard_fanout.policy, RULES.hard_fanout.lease_sets
    assert {(r["to"], r["policy"]) for r in plan.requires} == {
        ("base", policy),
        ("base2", policy),
        ("base3", policy),
        ("d", "hard"),
    }
    assert len(decided.rule_made) == 3
    within = S(
        _proposal(_entry("a", requires=[{"entry_id": b} for b in bases[:2]])),
        states=tuple(_state(b, key=b) for b in bases),
    )
    decided, plan = _decide_one(within)
    assert decided.outcome == "commit" and decided.rule_made == ()
    assert {r["policy"] for r in plan.requires} == {"hard"}
    assert lease == 20


def _split(n: int) -> Any:
    """A hostile writer's set: a decision holding ``n`` tiny facts of its own set hard, each fact
    within the per-entry budget with two hard REQUIRES on earlier entries: ``2 * n`` pins that
    no single entry of the set is over its budget for."""
    bases = tuple(f"base{i}" for i in range(2 * n))
    tiny = [
        _entry(
            f"t{i}",
            cls="fact",
            key=f"t{i}",
            requires=[{"entry_id": bases[2 * i]}, {"entry_id": bases[2 * i + 1]}],
            derived_from=[{"entry_id": bases[2 * i]}],
        )
        for i in range(n)
    ]
    return S(
        _proposal(_entry("a", requires=[{"entry_id": f"t{i}"} for i in range(n)]), *tiny),
        states=tuple(_state(b, key=b) for b in bases),
    )


def test_a_writer_splitting_its_hard_requires_across_tiny_entries_is_over_the_set_budget() -> None:
    """The set is the unit: hard REQUIRES outside the set counted over all its new entries; a set
    over ``per_set`` gives up every one of them (under ``all``), the entries' hard edges to one
    another stay, and the receipts name the set's budget."""
    decided, plan = _decide_one(_split(3))
    assert decided.outcome == "commit"
    policy = RULES.hard_fanout.policy
    outside = {r["to"]: r["policy"] for r in plan.requires if r["to"].startswith("base")}
    assert outside == {f"base{i}": policy for i in range(6)}
    assert {r["policy"] for r in plan.requires if r["to"].startswith("t")} == {"hard"}
    assert len(decided.rule_made) == 6
    assert all("hard beyond 2 per set" in m for m in decided.rule_made)
    # Within the set's budget: one tiny entry with two pins commits them hard.
    decided, plan = _decide_one(_split(1))
    assert decided.outcome == "commit" and decided.rule_made == ()
    assert {r["policy"] for r in plan.requires} == {"hard"}


def test_without_a_set_budget_the_split_keeps_every_pin_hard() -> None:
    """What the set budget closes: with ``per_set`` unset (version 13), each tiny entry is
    within its own budget and all six pins commit hard."""
    open_rule = RULES.hard_fanout.model_copy(update={"per_set": None})
    decided, plan = _decide_one(_split(3), _rules(hard_fanout=open_rule))
    assert decided.outcome == "commit" and decided.rule_made == ()
    assert {r["policy"] for r in plan.requires} == {"hard"}


def test_under_halt_a_split_set_halts_density_naming_the_set_budget() -> None:
    halting = RULES.hard_fanout.model_copy(update={"excess": OnHardFanout.HALT})
    decided, _plan = _decide_one(_split(3), _rules(hard_fanout=halting))
    assert (decided.outcome, decided.reason_code) == ("halt", "DENSITY")
    assert "[hard_fanout] per_set is 2" in (decided.detail or "")
