"""The packaged embedding model, loaded offline (real model, no database)."""

from __future__ import annotations

import numpy as np
import pytest

from kg_context.errors import EmbeddingError
from kg_context.settings import EmbeddingSettings
from kg_context.text.embeddings import get_embedder


def test_default_model_is_384_dims_unit_length_and_meaningful() -> None:
    embedder = get_embedder()
    vectors = embedder.encode(
        [
            "The database migration adds a column to the users table.",
            "A schema change adds a new field to the user table.",
            "My cat likes to sleep in the sun.",
        ]
    )
    assert vectors.shape == (3, 384)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-4)
    related, unrelated = float(vectors[0] @ vectors[1]), float(vectors[0] @ vectors[2])
    assert related > unrelated + 0.3


def test_model_is_loaded_once_per_process() -> None:
    assert get_embedder() is get_embedder()
    assert get_embedder().encode([]).shape == (0, 384)


def test_token_counts_come_from_the_tokenizer() -> None:
    counts = get_embedder().count_tokens(["hello world", "the gate commits sets of proposals"])
    assert counts[0] == 2
    assert counts[1] >= 6


def test_a_model_that_cannot_load_is_a_clear_error(tmp_path: object) -> None:
    with pytest.raises(EmbeddingError, match="cannot load embedding model"):
        get_embedder(EmbeddingSettings(model=str(tmp_path)))


@pytest.mark.parametrize("release", [True, False])
def test_each_encode_hands_freed_memory_back_when_the_setting_says_so(
    monkeypatch: pytest.MonkeyPatch, release: bool
) -> None:
    """A long-running process encodes texts of every length: glibc keeps what each encode freed
    unless it is trimmed, and RSS climbs (the soak's figure). The real model, the real trim
    function of this Linux machine, recorded as it is called."""
    from kg_context.text import embeddings

    real_trim = embeddings._MALLOC_TRIM
    assert real_trim is not None, "this Linux machine's glibc has malloc_trim"
    calls: list[int] = []

    def recording_trim(pad: int) -> int:
        calls.append(pad)
        return int(real_trim(pad))

    monkeypatch.setattr(embeddings, "_MALLOC_TRIM", recording_trim)
    embedder = embeddings.Embedder(EmbeddingSettings(release_memory=release))
    embedder.encode(["one text", "and another, longer text to pad the batch"])
    embedder.encode(["a third"])
    assert calls == ([0, 0] if release else [])
