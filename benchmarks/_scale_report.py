"""How ``benchmarks/scale.py`` reports: the server's memory and store size, and one JSON line
per figure (each size's figures, and each size's ratio to the smallest)."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from benchmarks._common import count_figures, figure
from benchmarks._scale_build import Config
from benchmarks._scale_store import BOUNDARY_VECTOR_INDEXES, describe, index_names, store_breakdown
from kg_context.engine import Engine

__all__ = ["TARGETS", "report", "server_report", "size_label"]


def server_report(engine: Engine, home: Path | None, sets: int = 0) -> dict[str, float]:
    """The server's memory and (``home``: a local server's) its store on disk, in all and by
    component (``benchmarks/_scale_store.py``, printed on stderr with KB per set of ``sets``)."""
    memory = engine.executor.read("bench/server_memory")[0]
    report = {
        "server_heap_used_bytes": float(memory["heap_used"]),
        "server_heap_max_bytes": float(memory["heap_max"]),
        "server_mapped_index_bytes": float(memory["mapped_bytes"]),
    }
    if home is not None:
        data = home / "data"
        size = subprocess.run(["du", "-sb", str(data)], capture_output=True, text=True, check=True)
        report["store_bytes_on_disk"] = float(size.stdout.split()[0])
        names = index_names(engine.executor.read("bench/store_indexes"))
        parts = store_breakdown(home, names)
        vectors = sum(1 for v in names.values() if v == BOUNDARY_VECTOR_INDEXES)
        print("# the store on disk, by component:", file=sys.stderr)
        for line in describe(parts, sets, vectors):
            print(f"#   {line}", file=sys.stderr)
        for component, n in parts.items():
            slug = "".join(c if c.isalnum() else "_" for c in component.removeprefix("index:"))
            kind = "index_" if component.startswith("index:") else ""
            report[f"store_bytes_{kind}{slug}"] = float(n)
        pid_file = home / "run" / "neo4j.pid"
        if pid_file.exists():
            status = Path(f"/proc/{pid_file.read_text().strip()}/status").read_text()
            rss = next(line for line in status.splitlines() if line.startswith("VmRSS"))
            report["server_resident_bytes"] = float(rss.split()[1]) * 1024
    return report


def size_label(fraction: float) -> str:
    return f"{fraction * 100:g}pct".replace(".", "_")


TARGETS: dict[str, tuple[str, Callable[[float], bool]]] = {
    "commit_p50_ms": ("<= 1.2", lambda r: r <= 1.2),
    "commit_p99_ms": ("<= 1.2", lambda r: r <= 1.2),
    "recall_p50_ms": ("<= 1.5", lambda r: r <= 1.5),
    "reachability_p50_ms": ("<= 1.3", lambda r: r <= 1.3),
    "czar_plan_p50_ms": ("<= 1.3", lambda r: r <= 1.3),
    "walk_p50_ms": ("<= 1.3", lambda r: r <= 1.3),
    "attention_score_p50_ms": ("<= 1.2", lambda r: r <= 1.2),
}


def report(
    cfg: Config, counts: tuple[int, int], sizes: list[dict[str, Any]], server: dict[str, float]
) -> None:
    count_figures(counts)
    figure("scale_boundaries", cfg.boundaries, "count")
    figure("scale_sets_full_size", cfg.sets, "count")
    for size in sizes:
        label = size["label"]
        for key in ("sets", "entries", "proposal_nodes", "history", "nodes", "relationships"):
            figure(f"scale_{key}_at_{label}", size[key], "count")
        for key, seconds in size["build"].items():
            figure(f"scale_build_{key}_s_at_{label}", seconds, "s")
        figure(f"scale_settle_s_at_{label}", size["settle_s"], "s")
        m = size["measured"]
        for key, value in m.items():
            unit = "ms" if key.endswith("_ms") else "ratio"
            target = met = None
            if key == "recall_at_10":
                target, met = ">= 0.95", value >= 0.95
            figure(f"scale_{key}_at_{label}", value, unit, target, met)
        over_bare = m["commit_p50_ms"] / m["bare_p50_ms"]
        figure(
            f"scale_commit_p50_over_bare_at_{label}", over_bare, "ratio", "<= 2.0", over_bare <= 2
        )
    small = sizes[0]["measured"]
    for size in sizes[1:]:
        for key, (target, ok) in TARGETS.items():
            if key not in small or key not in size["measured"]:
                continue  # not measured (no ProposalNodes: no attention score)
            ratio = size["measured"][key] / small[key]
            last = size is sizes[-1]
            figure(
                f"scale_{key.removesuffix('_ms')}_ratio_{size['label']}_over_{sizes[0]['label']}",
                ratio,
                "ratio",
                target if last else None,
                ok(ratio) if last else None,
            )
    figure("scale_build_total_s", sum(s["build"]["wall"] for s in sizes), "s")
    for key, value in server.items():
        figure(f"scale_{key}", value, "bytes")
