"""The demo's closing report: what the session left in the database, read back through the
engine, and where to look at it in Neo4j Browser."""

from __future__ import annotations

import time
from typing import Any
from urllib.parse import urlparse

from rich.console import Console
from rich.table import Table

from kg_context.db.catalog import default_catalog
from kg_context.engine import BoundaryHandle, Engine
from kg_context.settings import LocalServerSettings, load_settings

__all__ = ["BROWSER_QUERIES", "browser_url", "report"]

# Three saved queries to paste into Browser after ``:param boundary_id => '...'`` (the files
# of cypher/browser/, which an operator can also drop on Browser's Favorites).
BROWSER_QUERIES = ("browser/boundary_graph", "browser/window_graph", "browser/halts_queue")


def browser_url(engine: Engine) -> str:
    """Where Neo4j Browser answers for the engine's database (the local server's, or port 7474
    on the Bolt host)."""
    if engine.target.source == "local":
        return load_settings(LocalServerSettings).browser_url
    host = urlparse(engine.target.uri).hostname or "127.0.0.1"
    return f"http://{host}:7474/browser/"


def report(
    engine: Engine,
    boundary: BoundaryHandle,
    console: Console,
    results: dict[str, Any],
    started: float,
) -> dict[str, Any]:
    stats = boundary.stats()
    scores: dict[str, float | None] = results.get("waves") or {}
    invariants = engine.invariants(boundary.id)
    failed = [r.audit.name for r in invariants if not r.clean]
    elapsed = time.perf_counter() - started

    table = Table(title=f"Report: boundary {boundary.id}", show_header=False)
    ratio = stats.retention_ratio
    table.add_row("sets decided", ", ".join(f"{k} {v}" for k, v in sorted(stats.sets.items())))
    table.add_row("seq", str(stats.seq))
    table.add_row(
        "retention ratio",
        "n/a" if ratio is None else f"{ratio:.2f} ({stats.committed_tokens} committed tokens)",
    )
    table.add_row("resident tokens", f"{stats.resident_tokens} in {stats.resident_entries} entries")
    table.add_row(
        "halts by reason", ", ".join(f"{k} {v}" for k, v in sorted(stats.halts.items())) or "none"
    )
    for name, score in scores.items():
        table.add_row(f"attention: {name}", "none" if score is None else f"{score:.3f}")
    table.add_row("invariants", "clean" if not failed else f"FAILED: {', '.join(failed)}")
    table.add_row("elapsed", f"{elapsed:.1f} s")
    console.print(table)

    url = browser_url(engine)
    console.print(f"\nNeo4j Browser: {url}  (style: drop browser/kg-context.grass on :style)")
    console.print(f":param boundary_id => '{boundary.id}'", markup=False, highlight=False)
    catalog = default_catalog()
    for name in BROWSER_QUERIES:
        console.print(f"\n{catalog[name].text}", markup=False, highlight=False)
    console.print(
        f"Audits: kg-context audit all -b {boundary.id}   (every file of cypher/audits/ runs "
        "in Browser with the same :param)",
        markup=False,
        highlight=False,
    )
    return {
        "boundary_id": boundary.id,
        "seq": stats.seq,
        "sets": stats.sets,
        "retention_ratio": ratio,
        "committed_tokens": stats.committed_tokens,
        "resident_tokens": stats.resident_tokens,
        "resident_entries": stats.resident_entries,
        "halts": stats.halts,
        "attention_scores": scores,
        "invariants_clean": not failed,
        "czar": results.get("czar_invalidation_recall", {}).get("czar"),
        "blast_radius": results.get("czar_invalidation_recall", {}).get("blast_radius"),
        "browser_url": url,
        "browser_queries": [f"cypher/{name}.cypher" for name in BROWSER_QUERIES],
        "elapsed_seconds": round(elapsed, 2),
    }
