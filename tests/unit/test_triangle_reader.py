"""The benchmark triangle's reader decides by its documented rules, the same for every context."""

from __future__ import annotations

from benchmarks.triangle.reader import read
from benchmarks.triangle.workload import UNKNOWN, Probe


def probe(ptype: str, key: str, now: int = 100, at: int | None = None) -> Probe:
    return Probe(
        pid="p",
        ptype=ptype,
        key=key,
        now=now,
        at_seq=at,
        question="?",
        truth="",
        stale=frozenset(),
        errors=frozenset(),
    )


TRANSCRIPT = "\n".join(
    [
        "@s10 decision api/engine = rest-v1 | because: x [r-000001] | based on: ev/api/p99-1@s5",
        "@s5 fact ev/api/p99-1 = 40ms | because: m [r-000002]",
        "@s12 fact drv/api/engine/s10-0 = a-1 | based on: api/engine@s10",
        "@s20 decision api/engine = grpc-v2 | because: y [r-000003] | replaces: api/engine@s10",
        "@s21 rejected api/engine REJECTED soap-alt21 | because: z [r-000004]",
        "@s30 question q/api-1 OPEN | lease: 40",
        "@s31 constraint con/api-1 OPEN",
        "@s35 fact con/api-1 CLOSED | replaces: con/api-1@s31",
    ]
)


def test_newest_stamp_wins_and_rejected_alternatives_are_not_values() -> None:
    assert read(TRANSCRIPT, probe("current_value", "api/engine")).answer == "grpc-v2"


def test_a_withdrawn_tag_removes_a_line_from_current_state_but_not_from_history() -> None:
    governed = "\n".join(
        [
            "- [live] api/engine: @s10 decision api/engine = rest-v1 | because: x [r-000001]",
            "- [superseded] api/engine: @s20 decision api/engine = grpc-v2 | because: y [r-000003]",
        ]
    )
    assert read(governed, probe("current_value", "api/engine")).answer == "rest-v1"
    assert read(governed, probe("value_at", "api/engine", at=25)).answer == "grpc-v2"
    assert read(governed, probe("why_changed", "api/engine", at=20)).answer == "r-000003"


def test_recalled_copies_count_unless_their_original_was_superseded() -> None:
    line = "@s5 fact ev/api/p99-1 = 40ms | because: m [r-000002]"
    decision = "- [live] api/engine: @s10 decision api/engine = rest-v1 | based on: ev/api/p99-1@s5"
    archived = f"- [live; recalled: matched in set 7, retired; one use] ev/api/p99-1: {line}"
    replaced = (
        f"- [live; recalled: matched in set 7, superseded, superseded by x; one use] k: {line}"
    )
    rests = probe("rests_on", "api/engine")
    assert read(f"{decision}\n{archived}", rests).answer == frozenset({"ev/api/p99-1=40ms"})
    assert read(f"{decision}\n{replaced}", rests).answer == UNKNOWN


def test_at_risk_lines_count_and_flag_the_answer() -> None:
    context = "- [at_risk] api/engine: @s10 decision api/engine = rest-v1 | because: x [r-000001]"
    reading = read(context, probe("current_value", "api/engine"))
    assert reading.answer == "rest-v1"
    assert reading.flagged


def test_in_force_is_closed_world_and_honours_leases() -> None:
    assert read(TRANSCRIPT, probe("in_force", "con/api-1")).answer is False
    assert read(TRANSCRIPT, probe("in_force", "q/api-1", now=70)).answer is True
    assert read(TRANSCRIPT, probe("in_force", "q/api-1", now=71)).answer is False
    assert read(TRANSCRIPT, probe("in_force", "goal/none-1")).answer is False


def test_depends_on_follows_the_subjects_current_stamp() -> None:
    assert read(TRANSCRIPT, probe("depends_on", "api/engine")).answer == frozenset()
    assert read(TRANSCRIPT, probe("depends_on", "ev/api/p99-1")).answer == frozenset()
    old = "\n".join(TRANSCRIPT.splitlines()[:3])
    assert read(old, probe("depends_on", "api/engine")).answer == frozenset(
        {"drv/api/engine/s10-0"}
    )
    assert read(old, probe("depends_on", "ev/api/p99-1")).answer == frozenset({"api/engine"})


def test_missing_lines_are_unknown() -> None:
    assert read("", probe("current_value", "api/engine")).answer == UNKNOWN
    assert read("", probe("why_changed", "api/engine", at=20)).answer == UNKNOWN
    assert read(TRANSCRIPT, probe("rests_on", "api/engine")).answer == frozenset()


def test_depends_on_without_the_subject_lists_what_cites_any_version_of_it() -> None:
    context = "@s40 decision api/engine = grpc-v3 | based on: ev/api/p99-1@s5"
    assert read(context, probe("depends_on", "ev/api/p99-1")).answer == frozenset({"api/engine"})
    assert read(context, probe("depends_on", "ev/api/cost-2")).answer == frozenset()
