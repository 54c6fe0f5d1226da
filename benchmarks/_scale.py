"""What ``benchmarks/scale.py`` builds: the proposals of its boundaries, a synthetic embedding
model, and the live-versus-history boundary. Pure data and generators; the I/O is in scale.py.

**Boundaries of the big database.** Every boundary is a chain of sets, each of five entries (the
shape ``benchmarks/commit.py`` measures): a decision that supersedes the previous set's decision
(same key), a plan derived from the previous plan (essential), a constraint that requires the
previous constraint (soft, 50-set lease), a goal and a pin. Bodies carry a topic word ``t<n>`` and
a subtopic word ``u<n>`` (64 topics of 16 subtopics), so fulltext and vector queries have real
neighbours in every boundary and closer ones in the others.

**Embeddings.** Embedding five million entries with MiniLM on two cores would take most of a
day, so the benchmark embeds with ``SyntheticEncoder``: a deterministic 384-dimension unit
vector per text, ``topic centre + 0.6 x subtopic centre + 0.3 x noise`` (noise picked by the
text's SHA-256), a mixture with the cluster structure of sentence embeddings. The vector index,
the exact path and the over-fetch run on these vectors exactly as on MiniLM's; recall@10 is
measured against a brute-force cosine over the same vectors.

**The live-versus-history boundary.** 50,000 live entries (10,000 sets of goal, decision, plan,
fact and constraint, with REQUIRES edges that keep the facts and constraints resident and
DERIVED_FROM edges under one goal, the invalidation walk's root: 5,000 essential descendants and
5,000 supporting ones), beside a chain of sets that keeps superseding five hot entries: each set
adds five entries to the history and none to the live state. The history grows 100-fold between
the first and the last measurement; the live state does not. The history is not the root's
provenance: a walk's cost is its blast radius, whatever the status of what it reaches.
"""

from __future__ import annotations

import hashlib
import re
from typing import Any

import numpy as np
import numpy.typing as npt

from kg_context.settings import EmbeddingSettings

__all__ = [
    "HOT_KEYS",
    "SyntheticEncoder",
    "chain_proposals",
    "history_proposals",
    "live_proposals",
    "live_root",
    "query_text",
]

TOPICS, SUBTOPICS, DIMENSIONS = 64, 16, 384
HOT_KEYS = 5
_BANK_A, _BANK_B = 4093, 4099  # primes: ~16.8 million noise pairs
_TOPIC = re.compile(r"\bt(\d+)\b")
_SUBTOPIC = re.compile(r"\bu(\d+)\b")


class SyntheticEncoder:
    """A deterministic stand-in for the embedding model (see the module docstring).

    Vectorised: a text's noise is the sum of one row of each of two fixed Gaussian banks
    (prime sizes) picked by its SHA-256, scaled by 1/sqrt(2), so five million texts get some
    16.8 million distinct noises without a random generator per text (~70 us a text)."""

    def __init__(self) -> None:
        rng = np.random.default_rng(13)
        self.settings = EmbeddingSettings(model="bench-synthetic-mixture-v2")
        self._topics = rng.standard_normal((TOPICS, DIMENSIONS)).astype(np.float32)
        self._subtopics = rng.standard_normal((TOPICS, SUBTOPICS, DIMENSIONS)).astype(np.float32)
        self._banks = (
            rng.standard_normal((_BANK_A, DIMENSIONS)).astype(np.float32),
            rng.standard_normal((_BANK_B, DIMENSIONS)).astype(np.float32),
        )

    def encode(self, texts: Any) -> npt.NDArray[np.float32]:
        if not len(texts):
            return np.zeros((0, DIMENSIONS), dtype=np.float32)
        n = len(texts)
        seeds = np.empty(n, dtype=np.uint64)
        topics = np.empty(n, dtype=np.intp)
        subtopics = np.empty(n, dtype=np.intp)
        for i, text in enumerate(texts):
            seed = int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "big")
            found, sub = _TOPIC.search(text), _SUBTOPIC.search(text)
            seeds[i] = seed
            topics[i] = int(found[1]) % TOPICS if found else seed % TOPICS
            subtopics[i] = int(sub[1]) % SUBTOPICS if sub else (seed >> 8) % SUBTOPICS
        bank_a, bank_b = self._banks
        noise = (bank_a[seeds % _BANK_A] + bank_b[(seeds >> 32) % _BANK_B]) * np.float32(0.5**0.5)
        vectors = self._topics[topics] + 0.6 * self._subtopics[topics, subtopics] + 0.3 * noise
        vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
        return np.asarray(vectors, dtype=np.float32)


def _words(boundary_index: int, i: int, j: int) -> str:
    topic = (boundary_index * 7919 + i * 31 + j * 5) % TOPICS
    subtopic = (i * 13 + j * 7 + boundary_index) % SUBTOPICS
    return f"t{topic} u{subtopic}"


def query_text(q: int) -> str:
    """The q-th recall query: a topic and subtopic, as a person would name them."""
    return f"t{(q * 11) % TOPICS} u{(q * 5) % SUBTOPICS} what did we decide about this"


def _entry_ids(boundary_id: str, i: int) -> list[str]:
    return [f"{boundary_id}-s{i}-e{j}" for j in range(5)]


def chain_proposals(
    boundary_id: str, boundary_index: int, start: int, end: int
) -> list[dict[str, Any]]:
    """Sets ``start``..``end - 1`` of a boundary's chain (set 0 has nothing to refer to)."""
    proposals = []
    for i in range(start, end):
        ids = _entry_ids(boundary_id, i)
        prev = _entry_ids(boundary_id, i - 1) if i > 0 else None
        words = [_words(boundary_index, i, j) for j in range(5)]
        decision: dict[str, Any] = {
            "id": ids[0],
            "class": "decision",
            "key": "chain",
            "body": f"{words[0]} decision {i}: use plan {i}",
        }
        plan: dict[str, Any] = {
            "id": ids[1],
            "class": "plan",
            "key": f"plan-{i}",
            "body": f"{words[1]} plan {i} follows from plan {i - 1}",
        }
        constraint: dict[str, Any] = {
            "id": ids[2],
            "class": "constraint",
            "key": f"constraint-{i}",
            "body": f"{words[2]} constraint {i} keeps the previous constraint in view",
        }
        if prev is not None:
            decision["supersedes"] = [{"entry_id": prev[0], "reason": f"revision {i}"}]
            plan["derived_from"] = [{"entry_id": prev[1], "essential": True}]
            constraint["requires"] = [{"entry_id": prev[2], "policy": "soft", "lease_sets": 50}]
        proposals.append(
            {
                "id": f"{boundary_id}-p{i}",
                "boundary_id": boundary_id,
                "writer_id": "bench-writer",
                "writer_kind": "agent",
                "set_id": f"{boundary_id}-set{i}",
                "targets": [],
                "entries": [
                    decision,
                    plan,
                    constraint,
                    {"id": ids[3], "class": "goal", "key": f"goal-{i}", "body": f"{words[3]} goal"},
                    {"id": ids[4], "class": "pin", "key": f"pin-{i}", "body": f"{words[4]} pin"},
                ],
            }
        )
    return proposals


def live_root(boundary_id: str) -> str:
    """The goal the live boundary's invalidation walk starts from."""
    return f"{boundary_id}-live0-goal"


def live_proposals(boundary_id: str, start: int, end: int) -> list[dict[str, Any]]:
    """Live sets ``start``..``end - 1``: five standing entries each, none ever superseded."""
    root = live_root(boundary_id)
    proposals = []
    for i in range(start, end):
        p = f"{boundary_id}-live{i}"
        decision: dict[str, Any] = {
            "id": f"{p}-decision",
            "class": "decision",
            "key": f"decision-{i}",
            "body": f"decision {i}",
            "requires": [{"entry_id": f"{p}-fact", "policy": "hard"}],
        }
        if i > 0 and i % 2 == 0:
            decision["derived_from"] = [{"entry_id": root, "essential": True}]
        entries = [
            {"id": f"{p}-goal", "class": "goal", "key": f"goal-{i}", "body": f"goal {i}"},
            {
                "id": f"{p}-fact",
                "class": "fact",
                "key": f"fact-{i}",
                "body": f"fact {i}",
                "attributes": {"source": "bench"},
            },
            decision,
            {
                "id": f"{p}-constraint",
                "class": "constraint",
                "key": f"constraint-{i}",
                "body": f"constraint {i}",
            },
            {
                "id": f"{p}-plan",
                "class": "plan",
                "key": f"plan-{i}",
                "body": f"plan {i}",
                "requires": [
                    {"entry_id": f"{p}-constraint", "policy": "soft", "lease_sets": 1_000_000}
                ],
                **(
                    {"derived_from": [{"entry_id": f"{p}-decision", "essential": False}]}
                    if i > 0 and i % 2 == 0
                    else {}
                ),
            },
        ]
        proposals.append(
            {
                "id": f"{p}-proposal",
                "boundary_id": boundary_id,
                "writer_id": "bench-writer",
                "writer_kind": "agent",
                "set_id": f"{p}-set",
                "entries": entries,
            }
        )
    return proposals


def history_proposals(boundary_id: str, start: int, end: int) -> list[dict[str, Any]]:
    """History sets ``start``..``end - 1``: each supersedes the previous set's five hot
    entries (same keys), so the history grows by five entries a set and the live state not."""
    proposals = []
    for i in range(start, end):
        entries = []
        for k in range(HOT_KEYS):
            entry: dict[str, Any] = {
                "id": f"{boundary_id}-hot{i}-{k}",
                "class": "decision",
                "key": f"hot-{k}",
                "body": f"hot decision {k}, revision {i}",
            }
            if i > 0:
                entry["supersedes"] = [
                    {"entry_id": f"{boundary_id}-hot{i - 1}-{k}", "reason": f"revision {i}"}
                ]
            entries.append(entry)
        proposals.append(
            {
                "id": f"{boundary_id}-hot{i}",
                "boundary_id": boundary_id,
                "writer_id": "bench-writer",
                "writer_kind": "agent",
                "set_id": f"{boundary_id}-hotset{i}",
                "entries": entries,
            }
        )
    return proposals
