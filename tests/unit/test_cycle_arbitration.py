"""Arbitration (accept, inhibit with a reason, decaying repeat-key penalty) and admission."""

from __future__ import annotations

import pytest

from kg_context.cycle import (
    AdmissionReason,
    Arbiter,
    ArbitrationReason,
    BusAdmissionPolicy,
    BusProposal,
    RepeatKeyPenalty,
    SubscriberReport,
    SubscriberStatus,
)
from kg_context.cycle.models import ProposalKind


def prop(kind: ProposalKind, key: str, priority: float, *, exact: bool = False) -> BusProposal:
    return BusProposal(kind=kind, key=key, priority=priority, exact=exact)


def report(
    name: str, *proposals: BusProposal, status: SubscriberStatus = SubscriberStatus.OK
) -> SubscriberReport:
    return SubscriberReport(subscriber=name, broadcast_id="b", status=status, proposals=proposals)


def arbiter(penalty: float = 0.2, decay: float = 0.5) -> Arbiter:
    return Arbiter(RepeatKeyPenalty(penalty, decay))


def test_accepts_in_priority_order_and_inhibits_duplicate_keys() -> None:
    result = arbiter().arbitrate(
        "b",
        [
            report("s1", prop("query_memory", "x", 0.4), prop("admit_fact", "f", 0.9)),
            report("s2", prop("query_memory", "x", 0.7)),
            report("s3", prop("resolve_answer", "x", 0.6)),  # another kind: not a duplicate
        ],
    )
    assert [(a.subscriber, a.proposal.kind) for a in result.accepted] == [
        ("s1", "admit_fact"),
        ("s2", "query_memory"),
        ("s3", "resolve_answer"),
    ]
    assert [(i.subscriber, i.reason, i.inhibited_by) for i in result.inhibited] == [
        ("s1", ArbitrationReason.DUPLICATE_KEY, "s2/query_memory:x")
    ]


def test_ties_are_broken_by_subscriber_name_not_arrival() -> None:
    one = arbiter().arbitrate(
        "b",
        [
            report("zeta", prop("query_memory", "x", 0.5)),
            report("alpha", prop("query_memory", "x", 0.5)),
        ],
    )
    assert one.accepted[0].subscriber == "alpha"
    assert one.inhibited[0].subscriber == "zeta"


def test_exact_resolution_inhibits_lower_priority_recall_queries_in_the_round() -> None:
    result = arbiter().arbitrate(
        "b",
        [
            report("resolver", prop("resolve_answer", "answer", 0.8, exact=True)),
            report("r1", prop("query_memory", "q1", 0.5)),
            report("r2", prop("query_memory", "q2", 0.9)),  # higher: survives
            report("r3", prop("admit_fact", "f", 0.1)),  # not a query: untouched
        ],
    )
    assert {(a.subscriber, a.proposal.key) for a in result.accepted} == {
        ("resolver", "answer"),
        ("r2", "q2"),
        ("r3", "f"),
    }
    assert [(i.subscriber, i.reason, i.inhibited_by) for i in result.inhibited] == [
        ("r1", ArbitrationReason.EXACT_RESOLUTION, "resolver/resolve_answer:answer")
    ]


def test_a_non_exact_answer_inhibits_nothing() -> None:
    result = arbiter().arbitrate(
        "b",
        [report("s", prop("resolve_answer", "a", 0.9), prop("query_memory", "q", 0.1))],
    )
    assert len(result.accepted) == 2 and result.inhibited == ()


def test_failed_reports_contribute_nothing() -> None:
    result = arbiter().arbitrate(
        "b",
        [
            report("t", prop("admit_fact", "f", 0.9), status=SubscriberStatus.TIMEOUT),
            report("e", prop("admit_fact", "g", 0.9), status=SubscriberStatus.ERROR),
        ],
    )
    assert result.accepted == () and result.inhibited == ()


def test_repeated_keys_are_penalized_and_the_penalty_decays_over_broadcasts() -> None:
    arb = arbiter(penalty=0.2, decay=0.5)
    q = prop("query_memory", "same", 0.5)
    first = arb.arbitrate("b1", [report("s", q)])
    assert first.accepted[0].penalty == 0.0 and first.accepted[0].effective_priority == 0.5
    second = arb.arbitrate("b2", [report("s", q)])
    assert second.accepted[0].penalty == pytest.approx(0.2)
    assert second.accepted[0].effective_priority == pytest.approx(0.3)
    third = arb.arbitrate("b3", [report("s", q)])
    assert third.accepted[0].penalty == pytest.approx(0.3)  # 0.2 * 0.5 + 0.2
    # Two broadcasts without the key: it decays (0.5 -> 0.25 -> 0.125).
    arb.arbitrate("b4", [])
    arb.arbitrate("b5", [])
    assert arb.penalties.of("query_memory:same") == pytest.approx((0.3 * 0.5 + 0.2) * 0.25)
    # Other keys and kinds are not penalized.
    other = arb.arbitrate(
        "b6", [report("s", prop("query_memory", "new", 0.5), prop("admit_fact", "same", 0.5))]
    )
    assert [a.penalty for a in other.accepted] == [0.0, 0.0]


def test_a_penalty_that_reaches_the_priority_inhibits() -> None:
    arb = arbiter(penalty=0.5, decay=0.9)
    q = prop("query_memory", "k", 0.4)
    arb.arbitrate("b1", [report("s", q)])
    second = arb.arbitrate("b2", [report("s", q)])
    assert second.accepted == ()
    assert [i.reason for i in second.inhibited] == [ArbitrationReason.REPEAT_KEY_PENALTY]
    assert second.inhibited[0].effective_priority == pytest.approx(-0.1)


def test_penalty_settings_are_validated() -> None:
    with pytest.raises(ValueError, match="decay"):
        RepeatKeyPenalty(0.2, 1.0)


def accepted(*proposals: BusProposal) -> list:  # type: ignore[type-arg]
    return list(arbiter().arbitrate("b", [report("s", *proposals)]).accepted)


def test_admission_thresholds_per_kind() -> None:
    policy = BusAdmissionPolicy(min_resolve_priority=0.6, min_query_priority=0.4)
    result = policy.apply(
        accepted(
            prop("resolve_answer", "weak", 0.5),
            prop("query_memory", "weak", 0.3),
            prop("query_memory", "ok", 0.45),
            prop("admit_fact", "f", 0.01),
            prop("ask_followup", "f", 0.01),
        ),
        answer_available=False,
    )
    reasons = {(d.item.proposal.kind, d.item.proposal.key): d.reason for d in result.decisions}
    assert reasons == {
        ("resolve_answer", "weak"): AdmissionReason.BELOW_MIN_RESOLVE_PRIORITY,
        ("query_memory", "weak"): AdmissionReason.BELOW_MIN_QUERY_PRIORITY,
        ("query_memory", "ok"): AdmissionReason.ADMITTED,
        ("admit_fact", "f"): AdmissionReason.ADMITTED,
        ("ask_followup", "f"): AdmissionReason.ADMITTED,
    }
    assert result.answer_available is False


def test_a_deterministic_answer_suppresses_queries_in_the_round_and_after() -> None:
    policy = BusAdmissionPolicy()
    items = accepted(prop("query_memory", "q", 0.95), prop("resolve_answer", "a", 0.7, exact=True))
    result = policy.apply(items, answer_available=False)
    reasons = {d.item.proposal.kind: d.reason for d in result.decisions}
    assert reasons["query_memory"] is AdmissionReason.SUPPRESSED_AFTER_ANSWER
    assert reasons["resolve_answer"] is AdmissionReason.ADMITTED
    assert result.answer_available is True
    later = policy.apply(accepted(prop("query_memory", "q2", 0.9)), answer_available=True)
    assert later.decisions[0].reason is AdmissionReason.SUPPRESSED_AFTER_ANSWER


def test_suppression_is_configurable_and_a_rejected_answer_does_not_count() -> None:
    keep = BusAdmissionPolicy(suppress_queries_after_answer=False)
    result = keep.apply(accepted(prop("query_memory", "q", 0.9)), answer_available=True)
    assert result.decisions[0].reason is AdmissionReason.ADMITTED
    strict = BusAdmissionPolicy(min_resolve_priority=0.9)
    result = strict.apply(
        accepted(prop("resolve_answer", "a", 0.8, exact=True), prop("query_memory", "q", 0.95)),
        answer_available=False,
    )
    assert [d.reason for d in result.decisions] == [
        AdmissionReason.ADMITTED,  # the query (higher priority, listed first)
        AdmissionReason.BELOW_MIN_RESOLVE_PRIORITY,
    ]
    assert result.answer_available is False
