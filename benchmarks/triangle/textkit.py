"""The tokenizer and the embedder every system shares (``kg_context.text``): the same token
counts for the budget B and the same embedding model for retrieval."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from kg_context.text.embeddings import get_embedder
from kg_context.text.tokens import get_token_counter

__all__ = ["Tokens", "embed"]


class Tokens:
    """Token counts by the engine's tokenizer, cached per text."""

    def __init__(self) -> None:
        self._counter = get_token_counter()
        self._cache: dict[str, int] = {}

    def count(self, texts: Sequence[str]) -> list[int]:
        missing = [t for t in dict.fromkeys(texts) if t not in self._cache]
        if missing:
            for text, n in zip(missing, self._counter.count(missing), strict=True):
                self._cache[text] = n
        return [self._cache[t] for t in texts]

    def one(self, text: str) -> int:
        return self.count([text])[0]


_VECTORS: dict[str, npt.NDArray[np.float32]] = {}


def embed(texts: Sequence[str]) -> npt.NDArray[np.float32]:
    """Unit-length embeddings (one row per text) from the engine's embedding model. A text is
    encoded once per process (workloads of one run share many texts); the vector is the same."""
    missing = [t for t in dict.fromkeys(texts) if t not in _VECTORS]
    if missing:
        for text, vector in zip(missing, get_embedder().encode(missing), strict=True):
            _VECTORS[text] = vector
    if not texts:
        return np.zeros((0, get_embedder().dimensions), dtype=np.float32)
    return np.stack([_VECTORS[t] for t in texts])
