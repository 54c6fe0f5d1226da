"""Authority, decided from the constitution and the graph, never from what a writer says of
itself (pure predicates): bound writer kinds, the czar's cases re-checked against the graph, the
czar's independence and pre-authorized cases, set kinds reserved to the gate, reserved id
namespaces, and a constitution that leaves an operator who can act.
"""

from __future__ import annotations

from kg_context.errors import ReservedIdError
from kg_context.gate.pure.constitution import Constitution
from kg_context.gate.pure.contracts import Proposal, Transition
from kg_context.gate.pure.snapshot import ClaimFacts, EntryState, Snapshot, follows_its_sources
from kg_context.gate.pure.verdicts import SetView, Violation, halt, reject
from kg_context.vocabulary import (
    NOT_STANDING,
    EntryStatus,
    JustificationCase,
    ReasonCode,
    SetKind,
    WriterKind,
)

__all__ = [
    "compaction_pre_authorized",
    "czar_cases_shown",
    "czar_independence",
    "no_operator_problem",
    "operator_problem",
    "refuse_reserved_id",
    "reserved_id_problem",
    "residency_hold",
    "set_kind_authority",
    "writer_authority",
]

_AUTHORITY_KINDS = frozenset({WriterKind.CZAR, WriterKind.OPERATOR})


def operator_problem(constitution: Constitution, operator_id: str) -> str | None:
    """Why ``operator_id`` may not act as an operator under ``constitution`` (``None``: it may)."""
    if operator_id in constitution.authority.operators:
        return None
    named = ", ".join(constitution.authority.operators) or "none"
    return (
        f"{operator_id!r} is not an operator of constitution {constitution.version} "
        f"(operators: {named})"
    )


def _kind_problem(
    proposal: Proposal, c: Constitution, snapshot: Snapshot
) -> tuple[ReasonCode, str] | None:
    writer, kind = proposal.writer_id, proposal.writer_kind
    named = c.authority.named_kinds(writer)
    if kind in _AUTHORITY_KINDS:
        if kind in named:
            return None
        listed = c.authority.czars if kind is WriterKind.CZAR else c.authority.operators
        return ReasonCode.NOT_AUTHORIZED, (
            f"writer {writer} claims kind {kind.value}; constitution {c.version} names "
            f"{kind.value}s {', '.join(listed) or 'none'}"
        )
    if named:
        return ReasonCode.WRITER_KIND, (
            f"writer {writer} is named {'/'.join(sorted(k.value for k in named))} by the "
            f"constitution; it cannot write as {kind.value}"
        )
    registered = snapshot.writers.get(writer)
    if registered is None and kind not in c.authority.self_register:
        return ReasonCode.NOT_AUTHORIZED, (
            f"writer {writer} cannot register as {kind.value}: [authority] self_register is "
            f"{[k.value for k in c.authority.self_register]}"
        )
    if registered is not None and registered != kind.value:
        return ReasonCode.WRITER_KIND, (
            f"writer {writer} is registered as {registered} in boundary {snapshot.boundary.id}; "
            f"it claims {kind.value}"
        )
    return None


def writer_authority(view: SetView, c: Constitution, snapshot: Snapshot) -> Violation | None:
    """Each writer of the set writes with the kind it may claim (see the module docstring)."""
    claimed: dict[str, WriterKind] = {}
    for proposal in view.closed.proposals:
        first = claimed.setdefault(proposal.writer_id, proposal.writer_kind)
        if first is not proposal.writer_kind:
            return reject(
                ReasonCode.WRITER_KIND,
                f"writer {proposal.writer_id} claims kinds {first.value} and "
                f"{proposal.writer_kind.value} in one set",
            )
        found = _kind_problem(proposal, c, snapshot)
        if found is not None:
            code, detail = found
            amendment = (
                f"[authority] {proposal.writer_kind.value}s += [{proposal.writer_id!r}]"
                if code is ReasonCode.NOT_AUTHORIZED and proposal.writer_kind in _AUTHORITY_KINDS
                else ""
            )
            return reject(code, detail, amendment)
    return None


def set_kind_authority(view: SetView, _: Constitution, snapshot: Snapshot) -> Violation | None:
    """Only a czar writer proposes a compaction set (``writer_authority`` has checked that the
    constitution names it), and no ordinary set is a constitution set."""
    for proposal in view.closed.proposals:
        if proposal.kind is SetKind.COMPACTION and proposal.writer_kind is not WriterKind.CZAR:
            return reject(
                ReasonCode.SET_KIND,
                f"writer {proposal.writer_id} ({proposal.writer_kind.value}) declares a "
                "compaction set; only the czar the constitution names proposes compaction sets "
                "(they do not advance the boundary's lease clock)",
                "declare the set's kind as state (the default): it is the writer's own work",
            )
        if proposal.kind is SetKind.CONSTITUTION:
            return reject(
                ReasonCode.SET_KIND,
                f"writer {proposal.writer_id} ({proposal.writer_kind.value}) declares a "
                f"constitution set in boundary {snapshot.boundary.id}; only an operator's "
                "constitution change, decided by its own rules, records one",
                "declare the set's kind as state; an operator changes the constitution as a "
                "constitution change of its own",
            )
    return None


def _reserved_namespaces(boundary_id: str) -> tuple[str, str]:
    return f"{boundary_id}/czar/", f"{boundary_id}/constitution/"


def reserved_id_problem(proposal: Proposal) -> tuple[str, str] | None:
    """``(id, why)`` when the proposal's id or set id lies in a namespace the gate reserves:
    ``<boundary>/czar/<czar id>/...`` is the czar's of that id (a writer of kind czar whose id
    is that one segment), ``<boundary>/constitution/...`` is constitution changes' (never an
    ordinary proposal's). ``None``: it may use them."""
    czars, constitutions = _reserved_namespaces(proposal.boundary_id)
    for taken in dict.fromkeys((proposal.id, proposal.set_id or proposal.id)):
        if taken.startswith(constitutions):
            return taken, (
                f"{taken!r} lies in {constitutions!r}, reserved to constitution changes; "
                "give the proposal and its set ids of the writer's own"
            )
        if taken.startswith(czars):
            owner = taken[len(czars) :].split("/", 1)[0]
            if proposal.writer_kind is not WriterKind.CZAR or owner != proposal.writer_id:
                return taken, (
                    f"{taken!r} lies in {czars + owner + '/'!r}, reserved to the compaction "
                    f"sets of czar {owner!r}; writer {proposal.writer_id} "
                    f"({proposal.writer_kind.value}) gives its proposal and set ids of its own"
                )
    return None


def refuse_reserved_id(proposal: Proposal) -> None:
    """A ``ReservedIdError`` (``RESERVED_ID``) for a proposal ``reserved_id_problem`` refuses:
    raised before the proposal is recorded, so the id stays free for its owner."""
    reserved = reserved_id_problem(proposal)
    if reserved is not None:
        taken, why = reserved
        code = ReasonCode.RESERVED_ID
        raise ReservedIdError(
            f"proposal {proposal.id} refused ({code.value}), nothing recorded: {why}",
            reason_code=code.value,
            proposal_id=proposal.id,
            taken_id=taken,
            writer_id=proposal.writer_id,
            boundary_id=proposal.boundary_id,
            set_id=proposal.set_id,
        )


def no_operator_problem(
    proposed: Constitution, proposer_id: str, registered: dict[str, str]
) -> str | None:
    """Why a constitution change would leave no operator who can act (``None``: it does not).
    One who can act is named by ``proposed``'s ``[authority] operators`` and is a writer the
    boundary registered with kind operator (``registered``: writer id -> kind, read from the
    graph), or the proposing operator (its constitution change registers it, unless the
    boundary registered it with another kind)."""
    holders = [
        w
        for w in proposed.authority.operators
        if registered.get(w) == WriterKind.OPERATOR.value
        or (w == proposer_id and w not in registered)
    ]
    if holders:
        return None
    named = ", ".join(proposed.authority.operators) or "none"
    return (
        f"constitution {proposed.version} names operators {named}, none of them a writer "
        "registered in this boundary as an operator (nor the proposing operator): no "
        "operator could change the constitution, resolve a halt or issue an adoption under it; "
        f"keep {proposer_id!r} or a registered operator among [authority] operators"
    )


def czar_independence(view: SetView, _: Constitution, snapshot: Snapshot) -> Violation | None:
    for proposal, t in view.transitions:
        touched = snapshot.entries.get(t.entry_id)
        if (
            proposal.writer_kind is WriterKind.CZAR
            and touched is not None
            and touched.work_of(proposal.writer_id)
            and not follows_its_sources(touched.entry_class, t.case)
        ):
            return reject(
                ReasonCode.CZAR_INDEPENDENCE,
                f"czar {proposal.writer_id} would retire {t.entry_id}, its own work (it wrote "
                "the entry or co-wrote the set that created it)",
            )
    for proposal, entry_id, entry in view.entries:
        if proposal.writer_kind is not WriterKind.CZAR:
            continue
        for ref in entry.references():
            touched = snapshot.entries.get(ref)
            if touched is not None and touched.work_of(proposal.writer_id):
                return reject(
                    ReasonCode.CZAR_INDEPENDENCE,
                    f"czar {proposal.writer_id} would compact {ref} (via {entry_id}), its own work",
                )
    return None


_LEAVES = frozenset(
    {
        JustificationCase.UNREACHABLE,
        JustificationCase.SUPERSEDED,
        JustificationCase.DEFAULT_SUPERSEDED,
    }
)


def _effect_problem(case: JustificationCase, t: Transition) -> str | None:
    """Whether the transition does what its case justifies, and nothing more."""
    if case in _LEAVES:
        if t.resident is False and t.to in (None, EntryStatus.RETIRED):
            return None
        return f"a {case.value} case retires it out of the window, not to={t.to}, " + (
            f"resident={t.resident}"
        )
    wanted = case is JustificationCase.REACHABLE
    if t.to is None and t.resident is wanted:
        return None
    return f"a {case.value} case only moves it {'into' if wanted else 'out of'} the window"


def _graph_problem(
    case: JustificationCase, current: EntryState, facts: ClaimFacts | None, seq: int
) -> str | None:
    """Whether the graph at ``seq`` shows the case (facts not read count as not shown)."""
    if case is JustificationCase.NOT_STANDING:
        return None if not current.standing else f"it is {current.status}, which is standing"
    if facts is None:
        return f"the graph at seq {seq} was not read for it"
    if case is JustificationCase.REACHABLE:
        shown = current.standing and facts.reachable
        return None if shown else f"it has no root path at seq {seq}"
    if case is JustificationCase.UNREACHABLE:
        return None if not facts.reachable else f"it is reachable from a root at seq {seq}"
    if case is JustificationCase.SUPERSEDED:
        return (
            None
            if facts.superseded_unexecuted
            else "no standing entry of its key supersedes it unexecuted"
        )
    if case is JustificationCase.DEFAULT_SUPERSEDED:
        return (
            None
            if facts.default_superseded
            else "it is not superseded_by_default with a newer standing entry of its key"
        )
    return f"{case.value} is not a case the graph can show"


def czar_cases_shown(view: SetView, c: Constitution, snapshot: Snapshot) -> Violation | None:
    """Every pre-authorized case a czar transition cites is what the graph shows."""
    allowed = set(c.czar.pre_authorized)
    seq = snapshot.boundary.seq
    for proposal, t in view.transitions:
        if proposal.writer_kind is not WriterKind.CZAR or t.case is None or t.case not in allowed:
            continue
        current = snapshot.own(t.entry_id)
        if current is None:
            continue  # transitions_legal rejects it
        problem = _effect_problem(t.case, t) or _graph_problem(
            t.case, current, snapshot.claims.get(t.entry_id), seq
        )
        if problem is not None:
            return reject(
                ReasonCode.CASE_NOT_SHOWN,
                f"czar {proposal.writer_id} cites {t.case.value} for {t.entry_id}, but {problem}",
            )
    return None


def residency_hold(view: SetView, _: Constitution, snapshot: Snapshot) -> Violation | None:
    """A czar may not take an entry out of the window while a standing entry that stays holds it
    through a hard REQUIRES edge: hard pins the prerequisite, so the case is not mechanical."""
    leaving = {
        t.entry_id
        for p, t in view.transitions
        if t.resident is False or (t.to is not None and t.to in NOT_STANDING)
    }
    for proposal, t in view.transitions:
        if proposal.writer_kind is not WriterKind.CZAR or t.entry_id not in leaving:
            continue
        current = snapshot.entries.get(t.entry_id)
        holders = [h for h in (current.hard_held_by if current else ()) if h not in leaving]
        if holders:
            return halt(
                ReasonCode.HARD_DEPENDENCY,
                f"czar {proposal.writer_id} would retire {t.entry_id}, which standing "
                f"{', '.join(sorted(holders)[:5])} still hold(s) through a hard REQUIRES edge",
                "retire or supersede the holder first, or an operator approves the halt",
            )
    return None


def compaction_pre_authorized(view: SetView, c: Constitution, _: Snapshot) -> Violation | None:
    """A czar's transitions commit only for the cases the constitution pre-authorizes: the
    transition's declared ``case`` (never its free-text evidence) must be one of
    ``[czar] pre_authorized``; anything else (``UNCLEAR``, or no case) halts to the operator."""
    allowed = set(c.czar.pre_authorized)
    for proposal, t in view.transitions:
        if proposal.writer_kind is not WriterKind.CZAR:
            continue
        if t.case is None or t.case not in allowed:
            case = t.case.value if t.case is not None else "no case"
            evidence = t.justification[0] if t.justification else "no evidence"
            return halt(
                ReasonCode.UNCLEAR_COMPACTION,
                f"czar transition of {t.entry_id} ({t.reason}) is not a pre-authorized case: "
                f"{case}: {evidence}",
                f"an operator approves or rejects the halt; or [czar] pre_authorized += [{case!r}]",
            )
    return None
