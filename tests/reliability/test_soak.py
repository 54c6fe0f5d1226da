"""The soak's short variant: ``python -m benchmarks.soak`` for 30 seconds, a sample every 5
(``KG_TEST_SOAK_SECONDS`` for longer), against the suite's database. Every kind of work ran,
nothing failed, every invariant audit over the soak's boundaries is clean, and the report (JSON
and Markdown) is written. The RSS curve and the latencies are printed, not asserted: flatness is
judged by the 30-minute run (``make soak``)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid
from pathlib import Path
from typing import Any, cast

from kg_context.db.connection import Target
from kg_context.engine import BoundaryHandle, Engine
from kg_context.record.search import embed_pending
from kg_context.settings import EmbeddingSettings, EngineSettings
from kg_context.text.embeddings import Embedder, get_embedder
from tests.cli import target_env
from tests.reliability.servers import ROOT

SECONDS = os.environ.get("KG_TEST_SOAK_SECONDS", "30")


def test_a_short_soak_runs_every_kind_of_work_cleanly(neo4j_target: Target, tmp_path: Path) -> None:
    env = target_env(neo4j_target, PYTHONPATH=str(ROOT), HF_HUB_OFFLINE="1")
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "benchmarks.soak",
            "--duration",
            SECONDS,
            "--interval",
            "5",
            "--out",
            str(tmp_path),
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    report = json.loads((tmp_path / "soak.json").read_text())
    assert report["errors"] == {} and report["audit"]["clean"]
    assert {"commit", "czar", "invalidation", "attention", "window"} <= set(report["totals"])
    assert report["sets_committed"] > 0 and len(report["samples"]) >= 3
    figures = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    assert {f["metric"] for f in figures} >= {"soak_sets_per_second", "soak_audit_dirty_rows"}
    print("\n" + (tmp_path / "RESULTS.md").read_text().split("## Curves")[0][-1500:])


class _WriterMeanwhile:
    """The engine's embedder, and a writer that commits one more entry during every encode (a
    write stream faster than the model). Refuses to encode more than ``limit`` times, so an
    embed_pending that chased the stream for ever would fail."""

    def __init__(self, boundary: BoundaryHandle, limit: int) -> None:
        self.inner = get_embedder(boundary.settings.embedding)
        self.settings = self.inner.settings
        self.handle, self.limit, self.calls = boundary, limit, 0

    def encode(self, texts: list[str]) -> Any:
        self.calls += 1
        assert self.calls <= self.limit, "embed_pending is chasing the write stream"
        n = f"more-{self.calls}"
        decision = self.handle.commit(
            {
                "id": n,
                "boundary_id": self.handle.id,
                "writer_id": "planner",
                "writer_kind": "agent",
                "set_id": f"{n}-set",
                "entries": [{"id": f"{n}-e", "class": "decision", "key": n, "body": "meanwhile"}],
            }
        )
        assert decision.outcome == "commit", decision
        return self.inner.encode(texts)


def test_embedding_returns_while_writers_keep_committing(engine: Engine, boundary_id: str) -> None:
    """Embedding what is pending takes what was pending when it started, so a writer faster than
    the model cannot keep it from returning. The engine here
    leaves embedding to ``embed_pending`` (what ``kg-context embed`` runs)."""
    settings = EngineSettings(embedding=EmbeddingSettings(on_commit=False))
    with Engine.connect(engine.target, settings=settings, check_schema=False) as deferred:
        _embedding_returns(deferred.boundary(boundary_id), boundary_id)


def _embedding_returns(boundary: BoundaryHandle, boundary_id: str) -> None:
    word = f"w{uuid.uuid4().hex}"  # the indexes span boundaries: a word no other boundary holds
    for i in range(3):
        body = {
            "class": "fact",
            "key": f"k{i}",
            "body": f"{word} {i}",
            "attributes": {"source": "t"},
        }
        done = boundary.commit(
            {
                "id": f"p-{i}",
                "boundary_id": boundary_id,
                "writer_id": "planner",
                "writer_kind": "agent",
                "set_id": f"s-{i}",
                "entries": [{**body, "id": f"e-{i}"}],
            }
        )
        assert done.outcome == "commit", done
    meanwhile = _WriterMeanwhile(boundary, limit=10)
    embedded = embed_pending(boundary, cast(Embedder, meanwhile), batch=1)
    assert (embedded, meanwhile.calls) == (3, 3)  # the three pending when it began, no more
    assert embed_pending(boundary) == 3  # the three committed meanwhile: the next call's
    hits = boundary.recall(word, k=5)
    assert {h.entry_id for h in hits} >= {"e-0", "e-1", "e-2"}
