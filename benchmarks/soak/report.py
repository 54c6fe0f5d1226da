"""The soak's report: ``soak.json`` (every sample) and ``RESULTS.md`` (the curves as tables)."""

from __future__ import annotations

import json
import os
import platform
from dataclasses import asdict
from pathlib import Path

from benchmarks.soak.workload import Sample, SoakConfig, SoakResult

__all__ = ["read_result", "write_report"]

_BARS = " ▁▂▃▄▅▆▇█"


def _spark(values: list[float]) -> str:
    """A one-line curve (min to max of the values themselves)."""
    if not values:
        return ""
    low, high = min(values), max(values)
    span = (high - low) or 1.0
    return "".join(_BARS[round((v - low) / span * (len(_BARS) - 1))] for v in values)


def read_result(path: Path) -> tuple[SoakResult, str]:
    """A soak's result and note as its ``soak.json`` holds them (to render the report again,
    with this version's figures, without running the soak again)."""
    data = json.loads(path.read_text())
    given = data["config"]
    config = SoakConfig(
        duration_s=given["duration_s"],
        interval_s=given["interval_s"],
        warmup_s=given["warmup_s"],
        writers=given["writers"],
        store_dir=None if given["store_dir"] in (None, "None") else Path(given["store_dir"]),
    )
    result = SoakResult(
        config=config,
        started_at=data["started_at"],
        samples=[Sample(**s) for s in data["samples"]],
        totals=data["totals"],
        errors=data["errors"],
        error_examples=data["error_examples"],
        latency={op: (v["p50"] / 1000, v["p99"] / 1000) for op, v in data["latency_ms"].items()},
        sets_committed=data["sets_committed"],
        audit=data["audit"]["rows"],
        boundaries=data["boundaries"],
        rss_warm_mb=data["rss"]["warm_mb"],
        rss_max_after_warm_mb=data["rss"]["max_after_warm_mb"],
    )
    return result, str(data["machine"].get("note", ""))


def write_report(result: SoakResult, out: Path, *, note: str = "") -> None:
    config = result.config
    data = {
        "started_at": result.started_at,
        "config": {**asdict(config), "store_dir": str(config.store_dir)},
        "machine": {"cpus": os.cpu_count(), "python": platform.python_version(), "note": note},
        "boundaries": result.boundaries,
        "sets_committed": result.sets_committed,
        "sets_per_second": result.sets_per_second,
        "totals": result.totals,
        "errors": result.errors,
        "error_examples": result.error_examples,
        "latency_ms": {
            op: {"p50": p50 * 1000, "p99": p99 * 1000} for op, (p50, p99) in result.latency.items()
        },
        "rss": {
            "warm_mb": result.rss_warm_mb,
            "max_after_warm_mb": result.rss_max_after_warm_mb,
            "single_sample_growth": result.rss_single_sample_growth,
            "first_peak_mb": result.rss_first_peak_mb,
            "last_peak_mb": result.rss_last_peak_mb,
            "growth": result.rss_growth,
            "trend_mb_per_min": result.rss_trend_mb_per_min,
            "flat": result.rss_flat,
        },
        "audit": {"clean": result.audit_clean, "rows": result.audit},
        "samples": [asdict(s) for s in result.samples],
    }
    (out / "soak.json").write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    (out / "RESULTS.md").write_text(_markdown(result, note))


def _markdown(result: SoakResult, note: str) -> str:
    config = result.config
    samples = result.samples
    lines = [
        "# Soak results",
        "",
        f"Started {result.started_at}; {config.duration_s:.0f} s of load, a sample every "
        f"{config.interval_s:.0f} s, warm-up {config.warmup_s:.0f} s; {config.writers} writer "
        "threads (one boundary each), a czar, an invalidation walker, attention waves and a "
        "reader, over one shared engine in one Python process "
        "(`python -m benchmarks.soak`, `make soak`).",
        "",
        f"Machine: {os.cpu_count()} cores. {note}".rstrip(),
        "",
        "## Headline",
        "",
        "| figure | value |",
        "|---|---|",
        f"| sets committed | {result.sets_committed} ({result.sets_per_second:.2f} sets/s) |",
        f"| operations | {sum(result.totals.values())} "
        + "("
        + ", ".join(f"{k} {v}" for k, v in sorted(result.totals.items()))
        + ") |",
        f"| errors | {result.errors_total} {result.errors or ''} |",
        f"| RSS after warm-up, peak of the first fifth / of the last fifth | "
        f"{result.rss_first_peak_mb:.0f} MB / {result.rss_last_peak_mb:.0f} MB "
        f"(x{result.rss_growth:.3f}; flat: {'yes' if result.rss_flat else 'NO'}, "
        "target <= 1.10) |",
        f"| RSS trend after warm-up | {result.rss_trend_mb_per_min:+.2f} MB/min |",
        f"| RSS at warm-up end (one sample) / max after | {result.rss_warm_mb:.0f} MB / "
        f"{result.rss_max_after_warm_mb:.0f} MB (x{result.rss_single_sample_growth:.3f}) |",
        f"| Neo4j store | {_store(samples[0].store_mb if samples else None)} -> "
        f"{_store(samples[-1].store_mb if samples else None)} |",
        f"| audit (every invariant, the soak's boundaries) | "
        f"{'clean' if result.audit_clean else 'DIRTY ' + str(result.audit)} |",
        "",
        "## Latency over the whole run (ms)",
        "",
        "| operation | p50 | p99 |",
        "|---|---|---|",
    ]
    for op, (p50, p99) in sorted(result.latency.items()):
        lines.append(f"| {op} | {p50 * 1000:.1f} | {p99 * 1000:.1f} |")
    lines += [
        "",
        "## Curves",
        "",
        f"sets/s      {_spark([s.sets / config.interval_s for s in samples])}",
        f"RSS         {_spark([s.rss_mb for s in samples])}",
        f"commit p99  {_spark([s.latency_ms.get('commit', {}).get('p99', 0.0) for s in samples])}",
        f"store       {_spark([s.store_mb or 0.0 for s in samples])}",
        "",
        "| t (s) | sets/s | commit p50 / p99 (ms) | reads/s | RSS (MB) | store (MB) |",
        "|---|---|---|---|---|---|",
    ]
    reads = ("stats", "history", "recall", "window", "why")
    for s in samples:
        commit = s.latency_ms.get("commit", {})
        lines.append(
            f"| {s.t:.0f} | {s.sets / config.interval_s:.2f} | "
            f"{commit.get('p50', 0.0):.0f} / {commit.get('p99', 0.0):.0f} | "
            f"{sum(s.ops.get(r, 0) for r in reads) / config.interval_s:.1f} | "
            f"{s.rss_mb:.0f} | {_store(s.store_mb)} |"
        )
    if result.error_examples:
        lines += ["", "## Errors", ""] + [f"- {e}" for e in result.error_examples]
    return "\n".join(lines) + "\n"


def _store(mb: float | None) -> str:
    return "n/a" if mb is None else f"{mb:.0f}"
