"""The soak: a mixed workload against the resolved database for a set time,
in one Python process with one shared engine, as an orchestrator would run it.

Threads: ``--writers`` writers (each on its own boundary: decisions, facts derived from them,
a supersession every third set), a czar (compacts each boundary in turn), an invalidation
walker (challenges a live fact, then a writer's set revalidates nothing: the walk and its set),
attention (a wave of three specialists' outputs scored, recorded and the winners proposed) and a
reader (window, stats, why, recall, history). Every ``--interval`` seconds a sample: operations
and sets committed in the interval, latency percentiles by operation, the process's RSS, the
Neo4j store's size on disk. At the end: every invariant audit over the soak's boundaries, and the
report: ``soak.json`` and ``RESULTS.md`` in ``--out``, then one JSON line per figure.

    python -m benchmarks.soak                         # 30 minutes (make soak)
    python -m benchmarks.soak --duration 60 --interval 5 --out /tmp/soak
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from benchmarks._common import figure
from benchmarks.soak.report import read_result, write_report
from benchmarks.soak.workload import Soak, SoakConfig, SoakResult
from kg_context.engine import Engine

ROOT = Path(__file__).resolve().parents[2]


def _store_dir() -> Path | None:
    """The local server's data directory, if the database is a local server of this machine."""
    given = os.environ.get("KG_CONTEXT_SOAK_STORE_DIR")
    if given:
        return Path(given)
    from kg_context.settings import LocalServerSettings

    data = LocalServerSettings().home_dir / "data"
    return data if data.exists() else None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.soak", description=__doc__)
    parser.add_argument(
        "--duration",
        type=float,
        default=float(os.environ.get("KG_CONTEXT_SOAK_SECONDS", "1800")),
        help="seconds of load (KG_CONTEXT_SOAK_SECONDS; default 1800)",
    )
    parser.add_argument("--interval", type=float, default=30.0, help="seconds between samples")
    parser.add_argument("--warmup", type=float, default=None, help="seconds (default: 20%%)")
    parser.add_argument("--writers", type=int, default=3)
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "soak")
    parser.add_argument("--note", default="", help="what else ran on the machine meanwhile")
    parser.add_argument(
        "--from-json",
        type=Path,
        default=None,
        help="render the report of an earlier run's soak.json again (no load is run)",
    )
    args = parser.parse_args(argv)
    if args.from_json is not None:
        result, note = read_result(args.from_json)
        args.out.mkdir(parents=True, exist_ok=True)
        write_report(result, args.out, note=args.note or note)
        return _figures(result)
    config = SoakConfig(
        duration_s=args.duration,
        interval_s=args.interval,
        warmup_s=args.warmup if args.warmup is not None else args.duration * 0.2,
        writers=args.writers,
        store_dir=_store_dir(),
    )
    with Engine.connect() as engine:
        result = Soak(engine, config).run()
    args.out.mkdir(parents=True, exist_ok=True)
    write_report(result, args.out, note=args.note)
    return _figures(result)


def _figures(result: SoakResult) -> int:
    """One JSON line per figure; 0 when the audit is clean and nothing failed."""
    figure("soak_sets_per_second", result.sets_per_second, "sets/s")
    figure("soak_rss_growth_after_warmup", result.rss_growth, "ratio", "<= 1.10", result.rss_flat)
    figure("soak_rss_trend", result.rss_trend_mb_per_min, "MB/min")
    figure("soak_rss_single_sample_growth", result.rss_single_sample_growth, "ratio")
    figure("soak_errors", float(result.errors_total), "count", "== 0", result.errors_total == 0)
    figure("soak_audit_dirty_rows", float(result.audit_rows), "count", "== 0", result.audit_clean)
    for op, (p50, p99) in sorted(result.latency.items()):
        figure(f"soak_{op}_p50", p50 * 1000, "ms")
        figure(f"soak_{op}_p99", p99 * 1000, "ms")
    ok = result.audit_clean and result.errors_total == 0
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
