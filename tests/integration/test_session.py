"""An agent session, short: under the default constitution with no
manual czar run keeps its window bounded, and the briefing reports the czar's runs and the
retention trend (``benchmarks/session.py``; ``make session`` runs the 500-set session)."""

from __future__ import annotations

from benchmarks.session import run_session
from kg_context.engine import Engine

SETS = 80  # three runs of the czar's default cadence
SCALE = 0.25  # the workload's periods and leases, a quarter of the 500-set session's


def test_a_session_keeps_its_window_bounded_and_the_briefing_says_so(engine: Engine) -> None:
    every = engine.settings.residency.czar_every_commits
    assert every == 25  # the default cadence: the czar runs by itself, nobody calls it
    session = run_session(engine, SETS, label="test-session", scale=SCALE)
    brief = engine.boundary(session.boundary_id).brief(since_seq=0)

    runs = brief.czar_runs
    assert [r.trigger for r in runs] == ["cadence"] * (SETS // every)
    assert all(r.retired > 0 and r.warning is None and r.halted == 0 for r in runs)
    # after warm-up (the first run) the window the czar leaves does not grow with the session,
    # while everything committed keeps growing
    tokens = [r.resident_tokens for r in runs]
    committed = [r.committed_tokens for r in runs]
    assert committed[2] > 1.4 * committed[1] > 1.4 * 1.4 * committed[0]
    assert max(tokens[1:]) <= 1.25 * min(tokens[1:]), tokens
    # the retention trend (resident / committed tokens at each run) falls, run by run
    assert [p.seq for p in brief.retention_trend] == [r.seq for r in runs]
    trend = [p.retention or 0.0 for p in brief.retention_trend]
    assert trend == sorted(trend, reverse=True) and trend[-1] < trend[0], trend
    # and between runs the window holds at most what the last run left plus 25 sets' worth
    assert max(session.resident[every:]) < 2 * max(tokens), (tokens, max(session.resident))
    assert "czar: 3 run(s)" in brief.render()
