"""The whole selection-broadcast cycle with a fake graph source and a fake gate (no database)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import pytest

from kg_context.cycle import (
    ArbitrationReason,
    BroadcastBus,
    BroadcastContext,
    BusProposal,
    BusSubscriber,
    Candidate,
    CandidateOrigin,
    CompetitionReason,
    EntryRecord,
    RecallTag,
    SelectionBroadcastCycle,
    SubscriberStatus,
    to_gate_proposal,
)
from kg_context.cycle.arbitration import ArbitratedProposal
from kg_context.cycle.source import NonStanding
from kg_context.errors import ConfigurationError
from kg_context.gate.pure.contracts import EntryClass, Proposal, WriterKind
from kg_context.settings import CycleSettings
from kg_context.vocabulary import CYCLE_INELIGIBLE


class FakeSource:
    """Entries by id, filtered like the Cypher (every non-standing status left out)."""

    def __init__(self, records: Iterable[EntryRecord]) -> None:
        self.records = {r.id: r for r in records}
        self.reads: list[tuple[str, tuple[str, ...]]] = []

    def load_linked(self, ids: Sequence[str]) -> list[EntryRecord]:
        self.reads.append(("ids", tuple(ids)))
        return [
            self.records[i]
            for i in sorted(set(ids))
            if i in self.records and self.records[i].status not in CYCLE_INELIGIBLE
        ]

    def recall_by_key(self, keys: Sequence[str], limit: int) -> list[EntryRecord]:
        self.reads.append(("keys", tuple(keys)))
        found = [r for r in self.records.values() if r.key in keys]
        return [r for r in sorted(found, key=lambda r: r.id) if r.status not in CYCLE_INELIGIBLE][
            :limit
        ]

    def non_standing(self, ids: Sequence[str]) -> list[NonStanding]:
        self.reads.append(("non_standing", tuple(ids)))
        return [
            NonStanding(i, self.records[i].key, self.records[i].status, None)
            for i in sorted(set(ids))
            if i in self.records and self.records[i].status in CYCLE_INELIGIBLE
        ]

    def statuses(self, ids: Sequence[str]) -> dict[str, str]:
        return {i: self.records[i].status for i in ids if i in self.records}


@dataclass(frozen=True)
class FakeDecision:
    outcome: str
    set_id: str | None
    entry_ids: tuple[str, ...]
    receipt_id: str | None = None


@dataclass
class FakeGate:
    received: list[Proposal] = field(default_factory=list)

    def commit(self, proposal: Proposal) -> FakeDecision:
        self.received.append(proposal)
        return FakeDecision("commit", f"set-{len(self.received)}", tuple(proposal.entry_ids()))


def words(lines: Sequence[str]) -> list[int]:
    return [len(line.split()) for line in lines]


def rec(cid: str, *linked: str, status: str = "live") -> EntryRecord:
    return EntryRecord(cid, f"key-{cid}", f"body of {cid}", "fact", status, tuple(linked))


def settings(**overrides: object) -> CycleSettings:
    base: dict[str, object] = {
        "min_activation": 0.5,
        "workspace_capacity": 4,
        "workspace_decay": 1.0,
        "link_activation_gain": 0.8,
        "token_budget": 500,
        "subscriber_timeout_s": 5.0,
    }
    base.update(overrides)
    return CycleSettings(**base)  # type: ignore[arg-type]


def make_cycle(
    source: FakeSource,
    *subscribers: BusSubscriber,
    gate: FakeGate | None = None,
    **overrides: object,
) -> SelectionBroadcastCycle:
    s = settings(**overrides)
    return SelectionBroadcastCycle(
        boundary_id="bnd",
        bus=BroadcastBus(list(subscribers), default_timeout_s=s.subscriber_timeout_s),
        source=source,
        gate=gate,
        settings=s,
        count_tokens=words,
        run_id="run1",
    )


def stored(record: EntryRecord, activation: float) -> Candidate:
    return Candidate.from_entry(record, activation=activation, origin=CandidateOrigin.STORED)


def test_linked_entries_reenter_the_buffer_and_win_the_next_cycle() -> None:
    # a -> b -> c, b -> gone (retired); a is offered, b and then c follow by their links.
    source = FakeSource(
        [rec("a", "b"), rec("b", "c", "gone"), rec("c"), rec("gone", status="retired")]
    )
    seen: list[tuple[str, ...]] = []

    def watcher(ctx: BroadcastContext) -> list[BusProposal]:
        seen.append(tuple(i.id for i in ctx.items))
        return []

    cycle = make_cycle(source, BusSubscriber("watcher", watcher))
    cycle.offer([stored(source.records["a"], 1.0)])

    first = cycle.run({"task": "t"})
    assert first.competition.reasons() == {"a": CompetitionReason.ADMITTED}
    assert first.linked_ids == ("b",)
    waiting = {c.id: c for c in cycle.buffer.ranked()}
    assert waiting["b"].origin is CandidateOrigin.LINKED
    assert waiting["b"].activation == pytest.approx(0.8)
    assert waiting["b"].activated_by == ("a",)

    second = cycle.run()
    assert second.competition.reasons() == {"b": CompetitionReason.ADMITTED}
    # b links c and a retired entry: only c comes back; a is already conscious.
    assert second.linked_ids == ("c",)
    assert {c.id: c.activation for c in cycle.buffer.ranked()} == {"c": pytest.approx(0.64)}

    third = cycle.run()
    assert third.competition.reasons() == {"c": CompetitionReason.ADMITTED}
    assert seen == [("a",), ("a", "b"), ("a", "b", "c")]
    # One batched read per cycle for the link targets of every conscious item.
    assert source.reads == [("ids", ("b",)), ("ids", ("c", "gone")), ("ids", ("gone",))]


def test_below_threshold_links_stay_preconscious_and_fade() -> None:
    source = FakeSource([rec("a", "b"), rec("b")])
    cycle = make_cycle(source, link_activation_gain=0.4, buffer_decay=0.5, buffer_floor=0.1)
    cycle.offer([stored(source.records["a"], 1.0)])
    cycle.run()
    second = cycle.run()
    assert second.competition.reasons() == {"b": CompetitionReason.BELOW_MIN_ACTIVATION}
    # It waited (0.4 * 0.5 = 0.2) and was re-activated by a (0.4): the stronger offer is kept.
    assert {c.id: c.activation for c in cycle.buffer.ranked()} == {"b": pytest.approx(0.4)}


def test_bus_proposals_flow_through_arbitration_admission_recall_and_gate() -> None:
    source = FakeSource([rec("a"), rec("r1"), rec("r2")])
    gate = FakeGate()

    def specialist(ctx: BroadcastContext) -> list[BusProposal]:
        return [
            BusProposal(
                kind="admit_fact", key="sky", priority=0.9, text="the sky is blue", entry_ids=("a",)
            ),
            BusProposal(kind="flag_contradiction", key="sky", priority=0.8, entry_ids=("a", "r1")),
            BusProposal(kind="query_memory", key="key-r2", priority=0.7, entry_ids=("r1",)),
            BusProposal(kind="ask_followup", key="why", priority=0.2, text="why blue?"),
        ]

    def resolver(ctx: BroadcastContext) -> list[BusProposal]:
        return [BusProposal(kind="resolve_answer", key="answer", priority=0.6, text="blue")]

    cycle = make_cycle(
        source,
        BusSubscriber("specialist", specialist),
        BusSubscriber("resolver", resolver),
        gate=gate,
    )
    cycle.offer([stored(source.records["a"], 0.9)])
    result = cycle.run()

    assert [a.text for a in result.answers] == ["blue"]
    assert cycle.answer_available is False  # not exact: queries still run
    assert [f.proposal.key for f in result.followups] == ["why"]
    assert result.recalled_ids == ("r1", "r2")
    assert {c.id: c.origin for c in cycle.buffer.ranked()} == {
        "r1": CandidateOrigin.RECALLED,
        "r2": CandidateOrigin.RECALLED,
    }
    assert [c.activation for c in cycle.buffer.ranked()] == [pytest.approx(0.7)] * 2

    assert [g.bus_kind for g in result.gate] == ["admit_fact", "flag_contradiction"]
    assert [g.outcome for g in result.gate] == ["commit", "commit"]
    assert [p.id for p in gate.received] == ["run1-b1-p0", "run1-b1-p1"]
    fact, question = gate.received
    assert fact.writer_id == "specialist" and fact.writer_kind is WriterKind.AGENT
    assert fact.targets == ("sky",) and fact.boundary_id == "bnd"
    assert fact.entries[0].entry_class == EntryClass.FACT
    assert [p.entry_id for p in fact.entries[0].derived_from] == ["a"]
    assert question.entries[0].entry_class == EntryClass.OPEN_QUESTION
    assert question.entries[0].key == "contradiction:sky"
    assert question.entries[0].expires_after == settings().contradiction_lease_sets
    assert [p.essential for p in question.entries[0].derived_from] == [False, False]


def test_an_exact_answer_inhibits_and_then_suppresses_queries() -> None:
    source = FakeSource([rec("a"), rec("r")])
    rounds = iter([0.9, 0.9])

    def resolver(ctx: BroadcastContext) -> list[BusProposal]:
        return [BusProposal(kind="resolve_answer", key="ans", priority=next(rounds), exact=True)]

    def recaller(ctx: BroadcastContext) -> list[BusProposal]:
        return [BusProposal(kind="query_memory", key="key-r", priority=0.95)]

    def weak_recaller(ctx: BroadcastContext) -> list[BusProposal]:
        return [BusProposal(kind="query_memory", key="other", priority=0.5)]

    cycle = make_cycle(
        source,
        BusSubscriber("resolver", resolver),
        BusSubscriber("recaller", recaller),
        BusSubscriber("weak", weak_recaller),
    )
    first = cycle.run()
    assert [(i.subscriber, i.reason) for i in first.arbitration.inhibited] == [
        ("weak", ArbitrationReason.EXACT_RESOLUTION)
    ]
    # The stronger query survived arbitration but the admitted exact answer suppresses it.
    assert {d.item.subscriber: d.reason.value for d in first.admission.decisions} == {
        "resolver": "admitted",
        "recaller": "suppressed_after_answer",
    }
    assert first.recalled_ids == () and cycle.answer_available
    cycle.new_task()
    assert not cycle.answer_available


def test_a_hung_subscriber_does_not_stop_the_cycle() -> None:
    import threading

    release = threading.Event()

    def hung(ctx: BroadcastContext) -> list[BusProposal]:
        release.wait(30)
        return [BusProposal(kind="admit_fact", key="late", priority=1.0)]

    def ok(ctx: BroadcastContext) -> list[BusProposal]:
        return [BusProposal(kind="ask_followup", key="q", priority=0.5)]

    gate = FakeGate()
    cycle = make_cycle(
        FakeSource([]),
        BusSubscriber("hung", hung, timeout_s=0.1),
        BusSubscriber("ok", ok),
        gate=gate,
    )
    try:
        result = cycle.run()
        assert [r.status for r in result.reports] == [SubscriberStatus.TIMEOUT, SubscriberStatus.OK]
        assert not release.is_set() and gate.received == []
        assert [f.proposal.key for f in result.followups] == ["q"]
    finally:
        release.set()


def test_durable_proposals_without_a_gate_are_refused() -> None:
    def writer(ctx: BroadcastContext) -> list[BusProposal]:
        return [BusProposal(kind="admit_fact", key="k", priority=0.9, text="x")]

    cycle = make_cycle(FakeSource([]), BusSubscriber("w", writer), gate=None)
    with pytest.raises(ConfigurationError, match="no gate"):
        cycle.run()


def test_offer_entries_reads_the_graph_once_and_skips_non_standing() -> None:
    source = FakeSource([rec("a"), rec("b", status="invalidated"), rec("c", status="superseded")])
    cycle = make_cycle(source)
    cycle.offer_entries(["a", "b", "c", "missing"], activation=0.7)
    assert [(c.id, c.status, c.origin) for c in cycle.buffer.ranked()] == [
        ("a", "live", CandidateOrigin.STORED),
    ]
    assert len(source.reads) == 1


def test_only_durable_kinds_become_gate_proposals() -> None:
    item = ArbitratedProposal(
        "s",
        BusProposal(kind="query_memory", key="k", priority=0.5),
        0.0,
        0.5,
        ArbitrationReason.ACCEPTED,
    )
    with pytest.raises(ValueError, match="durable"):
        to_gate_proposal(
            item, proposal_id="p", boundary_id="b", broadcast_id="r-b1", contradiction_lease_sets=3
        )
    fact = ArbitratedProposal(
        "s",
        BusProposal(kind="admit_fact", key="k", priority=0.5, targets=("t1", "t2")),
        0.0,
        0.5,
        ArbitrationReason.ACCEPTED,
    )
    proposal = to_gate_proposal(
        fact, proposal_id="p", boundary_id="b", broadcast_id="r-b1", contradiction_lease_sets=3
    )
    assert proposal.targets == ("t1", "t2") and proposal.kind == "state"
    assert proposal.entries[0].attributes["source"] == "bus:r-b1/s"


def test_cycle_settings_come_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    from pydantic import ValidationError

    monkeypatch.setenv("KG_CONTEXT_CYCLE_MIN_ACTIVATION", "0.7")
    monkeypatch.setenv("KG_CONTEXT_CYCLE_SUPPRESS_QUERIES_AFTER_ANSWER", "false")
    loaded = CycleSettings()
    assert loaded.min_activation == 0.7 and loaded.suppress_queries_after_answer is False
    monkeypatch.setenv("KG_CONTEXT_CYCLE_REPEAT_KEY_PENALTY_DECAY", "1.0")
    with pytest.raises(ValidationError):
        CycleSettings()


@dataclass
class FakeAdmission:
    decision: FakeDecision
    copies: dict[str, str]


@dataclass
class FakeRecaller:
    """Admits copies (``outcome``) and, on commit, puts them in the source as the graph would."""

    source: FakeSource
    outcome: str = "commit"
    calls: list[tuple[tuple[str, ...], str]] = field(default_factory=list)

    def admit(self, entry_ids: Sequence[str], *, writer_id: str) -> FakeAdmission:
        self.calls.append((tuple(entry_ids), writer_id))
        copies = {i: f"{i}@recall" for i in entry_ids}
        if self.outcome == "commit":
            for original, copy in copies.items():
                o = self.source.records[original]
                tag = RecallTag(original, o.entry_class, o.status, 3, None, "set-r", "rcpt")
                self.source.records[copy] = EntryRecord(
                    copy, o.key, o.body, "scratch", "live", (), tag
                )
        return FakeAdmission(FakeDecision(self.outcome, "set-r", ()), copies)


def test_non_standing_entries_named_by_id_come_back_only_as_admitted_tagged_copies() -> None:
    source = FakeSource([rec("a"), rec("old", status="superseded")])

    def asker(ctx: BroadcastContext) -> list[BusProposal]:
        if any(i.id == "old@recall" for i in ctx.items):
            return []
        return [BusProposal(kind="query_memory", key="x", priority=0.8, entry_ids=("old",))]

    halting = FakeRecaller(source, outcome="halt")
    cycle = make_cycle(source, BusSubscriber("asker", asker))
    cycle.recaller = halting
    cycle.offer([stored(source.records["a"], 0.9)])
    refused = cycle.run()
    assert [(a.outcome, a.copies) for a in refused.recall_admissions] == [("halt", ())]
    assert refused.recalled_ids == () and halting.calls == [(("old",), "asker")]

    cycle.recaller = FakeRecaller(source)
    admitted = cycle.run()
    (outcome,) = admitted.recall_admissions
    assert (outcome.outcome, outcome.copies) == ("commit", (("old", "old@recall"),))
    assert admitted.recalled_ids == ("old@recall",)
    shown = {i.id: i for i in cycle.run().context.items}
    assert "old" not in shown
    copy = shown["old@recall"]
    assert copy.recall is not None and copy.recall.original_status == "superseded"
    assert copy.line.startswith("- [recall fact/superseded] key-old: body of old (recalled old")


def test_a_conscious_item_that_stops_standing_is_not_broadcast_again() -> None:
    source = FakeSource([rec("a"), rec("b")])
    cycle = make_cycle(source)
    cycle.offer([stored(source.records["a"], 0.9), stored(source.records["b"], 0.9)])
    assert {i.id for i in cycle.run().context.items} == {"a", "b"}
    source.records["b"] = rec("b", status="superseded")
    later = cycle.run()
    assert later.stale_ids == ("b",)
    assert [i.id for i in later.context.items] == ["a"]
