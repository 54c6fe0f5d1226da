"""The two baselines, fed the same events as the governed engine, under the same budget B.

- ``Transcript``: append-only. Every entry's body is appended as one line; the context is the
  newest whole lines that fit in B tokens.
- ``Retrieval``: every entry's body is one chunk, embedded with the engine's embedding model;
  the context is the chunks most similar to the probe's question (cosine), best first, as many
  as fit in B tokens, over the full history.

Both keep the SHA-256 of the serialized events they consumed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from benchmarks.triangle.events import Event, StreamHash
from benchmarks.triangle.textkit import Tokens, embed
from benchmarks.triangle.workload import Probe

__all__ = ["Context", "Retrieval", "System", "Transcript"]


@dataclass(frozen=True, slots=True)
class Context:
    """What a system hands the reader for one probe, and what it cost."""

    text: str
    tokens: int
    eids: frozenset[str] = frozenset()
    recalls: int = 0
    rehydrated_tokens: int = 0
    extra: dict[str, Any] = field(default_factory=dict)


class System(Protocol):
    name: str
    stream: StreamHash

    def consume(self, event: Event) -> None: ...

    def checkpoint(self, seq: int, probes: list[Probe]) -> dict[str, Any]: ...

    def context(self, probe: Probe) -> Context: ...

    def finish(self) -> dict[str, Any]: ...


class Transcript:
    """Append-only; the context is the newest B tokens (whole lines)."""

    name = "transcript"

    def __init__(self, budget: int, tokens: Tokens) -> None:
        self.budget = budget
        self.tokens = tokens
        self.stream = StreamHash()
        self.lines: list[tuple[str, str, int]] = []  # (eid, text, tokens)
        self.cumulative = 0
        self._cached: Context | None = None

    def consume(self, event: Event) -> None:
        self.stream.update(event)
        bodies = [e.body for e in event.entries]
        for entry, n in zip(event.entries, self.tokens.count(bodies), strict=True):
            self.lines.append((entry.eid, entry.body, n))
            self.cumulative += n
        self._cached = None

    def _window(self) -> Context:
        if self._cached is None:
            kept: list[tuple[str, str, int]] = []
            used = 0
            for eid, text, n in reversed(self.lines):
                if used + n + 1 > self.budget:
                    break
                kept.append((eid, text, n))
                used += n + 1
            kept.reverse()
            text = "\n".join(t for _, t, _ in kept)
            self._cached = Context(
                text=text, tokens=self.tokens.one(text), eids=frozenset(e for e, _, _ in kept)
            )
        return self._cached

    def checkpoint(self, seq: int, probes: list[Probe]) -> dict[str, Any]:
        ctx = self._window()
        return {
            "seq": seq,
            "committed_tokens": self.cumulative,
            "resident_tokens": ctx.tokens,
            "resident_eids": ctx.eids,
        }

    def context(self, probe: Probe) -> Context:
        return self._window()

    def finish(self) -> dict[str, Any]:
        return {"lines": len(self.lines), "committed_tokens": self.cumulative}


class Retrieval:
    """Top-k by embedding similarity over the full history, within B tokens."""

    name = "retrieval"

    def __init__(self, budget: int, tokens: Tokens) -> None:
        self.budget = budget
        self.tokens = tokens
        self.stream = StreamHash()
        self.chunks: list[tuple[str, str, int]] = []
        self.vectors: npt.NDArray[np.float32] = np.zeros((0, 0), dtype=np.float32)
        self.cumulative = 0
        self._queries: dict[str, npt.NDArray[np.float32]] = {}
        self.embedded_texts = 0

    def consume(self, event: Event) -> None:
        self.stream.update(event)
        bodies = [e.body for e in event.entries]
        for entry, n in zip(event.entries, self.tokens.count(bodies), strict=True):
            self.chunks.append((entry.eid, entry.body, n))
            self.cumulative += n

    def _embed_pending(self) -> None:
        done = self.vectors.shape[0] if self.vectors.size else 0
        if done < len(self.chunks):
            fresh = embed([text for _, text, _ in self.chunks[done:]])
            self.embedded_texts += len(fresh)
            self.vectors = fresh if done == 0 else np.vstack([self.vectors, fresh])

    def checkpoint(self, seq: int, probes: list[Probe]) -> dict[str, Any]:
        self._embed_pending()
        questions = [p.question for p in probes if p.question not in self._queries]
        if questions:
            self.embedded_texts += len(questions)
            for question, vector in zip(questions, embed(questions), strict=True):
                self._queries[question] = vector
        return {"seq": seq, "committed_tokens": self.cumulative}

    def context(self, probe: Probe) -> Context:
        query = self._queries[probe.question]
        scores = self.vectors @ query
        order = np.argsort(-scores, kind="stable")
        kept: list[tuple[str, str]] = []
        used = 0
        for index in order:
            eid, text, n = self.chunks[int(index)]
            if used + n + 1 > self.budget:
                continue
            kept.append((eid, text))
            used += n + 1
            if used >= self.budget - 8:
                break
        text = "\n".join(t for _, t in kept)
        return Context(text=text, tokens=self.tokens.one(text), eids=frozenset(e for e, _ in kept))

    def finish(self) -> dict[str, Any]:
        return {
            "chunks": len(self.chunks),
            "committed_tokens": self.cumulative,
            "embedded_texts": self.embedded_texts,
        }
