"""A BERT sentence encoder in numpy: the forward pass of a sentence-transformers model whose
modules are a BERT ``Transformer``, mean ``Pooling`` and (optionally) ``Normalize``.

The default model (all-MiniLM-L6-v2) has that shape, so the engine embeds without torch,
transformers or sentence-transformers: weights come from ``model.safetensors``
(``safetensors.numpy``), tokens from ``tokenizer.json`` (the Rust ``tokenizers`` library, with
``[CLS]``/``[SEP]`` as its post-processor adds them). The arithmetic is float32 throughout, as the
model was trained; GELU is the exact (erf) one, through ``erfc`` below.
"""

from __future__ import annotations

import json
import math
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from kg_context.errors import EmbeddingError

__all__ = ["BertEncoder", "BertLayout", "bert_layout", "erfc", "gelu"]

Floats = npt.NDArray[np.float32]

_TRANSFORMER = "sentence_transformers.models.Transformer"
_POOLING = "sentence_transformers.models.Pooling"
_NORMALIZE = "sentence_transformers.models.Normalize"

# Numerical Recipes' erfcc (Press et al., 2nd ed., section 6.2): a Chebyshev fit whose
# fractional error is below 1.2e-7 for every argument. Coefficients, highest power last.
_ERFC_COEFFICIENTS = (
    -1.26551223,
    1.00002368,
    0.37409196,
    0.09678418,
    -0.18628806,
    0.27886807,
    -1.13520398,
    1.48851587,
    -0.82215223,
    0.17087277,
)


def erfc(x: npt.NDArray[np.floating[Any]]) -> npt.NDArray[np.float64]:
    """The complementary error function, vectorized, in float64: fractional error below 1.2e-7
    everywhere (numpy has no erf; scipy's would be one more dependency)."""
    wide = np.asarray(x, dtype=np.float64)
    found = _erfc_of_magnitude(np.abs(wide))
    return np.where(wide >= 0, found, 2.0 - found)


def _erfc_of_magnitude(z: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """``erfc(z)`` for ``z >= 0``; ``z`` is overwritten (the passes run in place)."""
    t = z * 0.5
    t += 1.0
    np.reciprocal(t, out=t)
    poly = t * _ERFC_COEFFICIENTS[-1]
    for coefficient in reversed(_ERFC_COEFFICIENTS[1:-1]):
        poly += coefficient
        poly *= t
    poly += _ERFC_COEFFICIENTS[0]
    np.square(z, out=z)
    poly -= z
    np.exp(poly, out=poly)
    poly *= t
    return poly


# Elements per GELU pass: the float64 temporaries of one chunk stay in the CPU's L2 cache, which
# makes its ~30 elementwise passes about three times faster than over the whole activation.
_GELU_CHUNK = 1 << 15


def gelu(x: Floats) -> Floats:
    """Exact GELU, ``x * Phi(x)`` with ``Phi(x) = erfc(-x / sqrt(2)) / 2``, evaluated in float64
    and rounded to float32: ``Phi`` has absolute error below 6e-8 (relative below 1.2e-7 for
    x < 0), under float32's own rounding of the result."""
    flat = np.ascontiguousarray(x, dtype=np.float32).reshape(-1)
    result = np.empty_like(flat)
    for start in range(0, flat.size, _GELU_CHUNK):
        wide = flat[start : start + _GELU_CHUNK].astype(np.float64)
        magnitude = np.abs(wide)
        magnitude *= 1.0 / math.sqrt(2.0)
        tail = _erfc_of_magnitude(magnitude)  # erfc(|x| / sqrt 2) = 2 * Phi(-|x|)
        tail *= 0.5
        tail *= wide  # x * Phi(-|x|): GELU where x < 0; where x >= 0, GELU is x minus it
        result[start : start + _GELU_CHUNK] = np.where(wide >= 0, wide - tail, tail)
    return result.reshape(x.shape)


@dataclass(frozen=True)
class BertLayout:
    """Where a model directory keeps what the encoder reads, and how it reads it."""

    transformer_dir: Path
    max_seq_length: int
    lowercase: bool


def _read_json(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def bert_layout(directory: Path) -> BertLayout | None:
    """The layout of a sentence-transformers model directory the numpy encoder runs, or ``None``
    when the directory is not one: modules other than Transformer + mean Pooling (+ Normalize),
    a transformer that is not an absolute-position BERT with exact GELU, or no safetensors
    weights, tokenizer.json or max_seq_length."""
    modules_file = directory / "modules.json"
    if not modules_file.is_file():
        return None
    modules = _read_json(modules_file)
    types = [module.get("type") for module in modules]
    if types not in ([_TRANSFORMER, _POOLING], [_TRANSFORMER, _POOLING, _NORMALIZE]):
        return None
    transformer_dir = directory / modules[0].get("path", "")
    pooling = _read_json(directory / modules[1]["path"] / "config.json")
    modes = {key: value for key, value in pooling.items() if key.startswith("pooling_mode_")}
    if modes.pop("pooling_mode_mean_tokens", False) is not True or any(modes.values()):
        return None
    config_file = transformer_dir / "config.json"
    st_config_file = transformer_dir / "sentence_bert_config.json"
    needed = (config_file, st_config_file, transformer_dir / "tokenizer.json")
    if not all(path.is_file() for path in needed):
        return None
    if not (transformer_dir / "model.safetensors").is_file():
        return None
    config = _read_json(config_file)
    bert = (
        config.get("model_type") == "bert"
        and config.get("hidden_act") == "gelu"
        and config.get("position_embedding_type", "absolute") == "absolute"
    )
    st_config = _read_json(st_config_file)
    if not bert or not isinstance(st_config.get("max_seq_length"), int):
        return None
    return BertLayout(
        transformer_dir=transformer_dir,
        max_seq_length=st_config["max_seq_length"],
        lowercase=bool(st_config.get("do_lower_case", False)),
    )


@dataclass(frozen=True)
class _Layer:
    qkv: Floats  # (hidden, 3 * hidden): query, key and value projections side by side
    qkv_bias: Floats
    attention_out: Floats
    attention_out_bias: Floats
    attention_norm: tuple[Floats, Floats]
    intermediate: Floats
    intermediate_bias: Floats
    out: Floats
    out_bias: Floats
    out_norm: tuple[Floats, Floats]


def _layer_norm(x: Floats, norm: tuple[Floats, Floats], eps: float) -> Floats:
    """LayerNorm over the last axis of a 2-d ``x``, in place (``x`` is overwritten, returned)."""
    x -= x.mean(axis=-1, keepdims=True)
    variance = np.einsum("ij,ij->i", x, x)[:, None]
    variance /= np.float32(x.shape[-1])
    variance += np.float32(eps)
    x /= np.sqrt(variance)
    x *= norm[0]
    x += norm[1]
    return x


class BertEncoder:
    """A BERT model and its tokenizer, loaded from a directory ``bert_layout`` accepts: mean-pooled,
    unit-length sentence vectors in float32."""

    def __init__(self, layout: BertLayout) -> None:
        from safetensors.numpy import load_file
        from tokenizers import Tokenizer

        directory = layout.transformer_dir
        try:
            config = _read_json(directory / "config.json")
            self.max_seq_length = min(layout.max_seq_length, int(config["max_position_embeddings"]))
            self._heads = int(config["num_attention_heads"])
            self._eps = float(config["layer_norm_eps"])
            hidden = int(config["hidden_size"])
            layers = int(config["num_hidden_layers"])
            weights = load_file(str(directory / "model.safetensors"))
            tokenizer = Tokenizer.from_file(str(directory / "tokenizer.json"))
            counter = Tokenizer.from_file(str(directory / "tokenizer.json"))
        except Exception as err:  # safetensors and tokenizers raise their own types, or Exception
            raise EmbeddingError(f"cannot read the BERT model in {directory}: {err}") from err
        self._lowercase = layout.lowercase
        self.dimensions = hidden
        tokenizer.no_padding()
        tokenizer.enable_truncation(max_length=self.max_seq_length)
        counter.no_padding()
        counter.no_truncation()
        self._tokenizer = tokenizer
        self._counter = counter
        self._tokenizer_lock = threading.Lock()
        self._load_weights(weights, layers, hidden)

    def _load_weights(
        self, weights: dict[str, np.ndarray[Any, Any]], layers: int, hidden: int
    ) -> None:
        prefix = "bert." if "bert.embeddings.word_embeddings.weight" in weights else ""

        def tensor(name: str) -> Floats:
            key = prefix + name
            if key not in weights:
                raise EmbeddingError(f"the BERT weights have no tensor {key!r}")
            return np.ascontiguousarray(weights[key], dtype=np.float32)

        def linear(name: str) -> tuple[Floats, Floats]:
            # torch stores (out, in); x @ W.T is x @ (the transposed copy kept here)
            return np.ascontiguousarray(tensor(f"{name}.weight").T), tensor(f"{name}.bias")

        def norm(name: str) -> tuple[Floats, Floats]:
            return tensor(f"{name}.weight"), tensor(f"{name}.bias")

        self._word = tensor("embeddings.word_embeddings.weight")
        self._position = tensor("embeddings.position_embeddings.weight")
        self._token_type = tensor("embeddings.token_type_embeddings.weight")
        self._embedding_norm = norm("embeddings.LayerNorm")
        if self._word.shape[1] != hidden:
            raise EmbeddingError(f"the BERT weights are {self._word.shape[1]} wide, not {hidden}")
        self._layers = []
        for index in range(layers):
            at = f"encoder.layer.{index}"
            projections = [
                linear(f"{at}.attention.self.{part}") for part in ("query", "key", "value")
            ]
            attention_out, attention_out_bias = linear(f"{at}.attention.output.dense")
            intermediate, intermediate_bias = linear(f"{at}.intermediate.dense")
            out, out_bias = linear(f"{at}.output.dense")
            self._layers.append(
                _Layer(
                    qkv=np.ascontiguousarray(np.concatenate([w for w, _ in projections], axis=1)),
                    qkv_bias=np.concatenate([b for _, b in projections]),
                    attention_out=attention_out,
                    attention_out_bias=attention_out_bias,
                    attention_norm=norm(f"{at}.attention.output.LayerNorm"),
                    intermediate=intermediate,
                    intermediate_bias=intermediate_bias,
                    out=out,
                    out_bias=out_bias,
                    out_norm=norm(f"{at}.output.LayerNorm"),
                )
            )

    def count_tokens(self, texts: Sequence[str]) -> list[int]:
        """Tokens per text (no special tokens, no truncation)."""
        with self._tokenizer_lock:
            encoded = [self._counter.encode(text, add_special_tokens=False) for text in texts]
        return [len(e.ids) for e in encoded]

    def _token_ids(self, texts: Sequence[str]) -> list[list[int]]:
        prepared = [text.lower() for text in texts] if self._lowercase else list(texts)
        with self._tokenizer_lock:
            encoded = [self._tokenizer.encode(text) for text in prepared]
        return [e.ids for e in encoded]

    def encode(self, texts: Sequence[str], batch_size: int) -> Floats:
        """Unit-length mean-pooled vectors, one row per text in input order. Texts are encoded
        longest first in batches of ``batch_size``, each padded to its own longest text."""
        found = np.zeros((len(texts), self.dimensions), dtype=np.float32)
        ids = self._token_ids(texts)
        order = sorted(range(len(texts)), key=lambda i: -len(ids[i]))
        for start in range(0, len(order), batch_size):
            chosen = order[start : start + batch_size]
            found[chosen] = self._forward([ids[i] for i in chosen])
        return found

    def _forward(self, batch: list[list[int]]) -> Floats:
        length = max(len(ids) for ids in batch)
        input_ids = np.zeros((len(batch), length), dtype=np.int64)
        mask = np.zeros((len(batch), length), dtype=np.float32)
        for row, ids in enumerate(batch):
            input_ids[row, : len(ids)] = ids
            mask[row, : len(ids)] = 1.0
        x = self._word[input_ids] + self._position[:length] + self._token_type[0]
        x = _layer_norm(x.reshape(-1, self.dimensions), self._embedding_norm, self._eps)
        # Padded keys get a large negative score: after the softmax they weigh exactly 0.
        key_bias = ((mask - 1.0) * np.float32(1e9))[:, None, None, :]
        for layer in self._layers:
            x = self._layer(x, layer, key_bias, len(batch))
        summed = np.einsum("bld,bl->bd", x.reshape(len(batch), length, -1), mask)
        pooled = summed / np.maximum(mask.sum(axis=1, keepdims=True), np.float32(1e-9))
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        result: Floats = (pooled / np.maximum(norms, np.float32(1e-12))).astype(np.float32)
        return result

    def _layer(self, flat: Floats, layer: _Layer, key_bias: Floats, batch: int) -> Floats:
        """One encoder layer over ``flat``, the batch's tokens as rows (batch * length, hidden)."""
        hidden = flat.shape[1]
        length = flat.shape[0] // batch
        heads = self._heads
        width = hidden // heads
        qkv = flat @ layer.qkv
        qkv += layer.qkv_bias
        # (3, batch, heads, length, width)
        q, k, v = qkv.reshape(batch, length, 3, heads, width).transpose(2, 0, 3, 1, 4)
        scores = q @ k.transpose(0, 1, 3, 2)
        scores *= np.float32(1.0 / math.sqrt(width))
        scores += key_bias
        scores -= scores.max(axis=-1, keepdims=True)
        np.exp(scores, out=scores)
        scores /= scores.sum(axis=-1, keepdims=True)
        context = (scores @ v).transpose(0, 2, 1, 3).reshape(batch * length, hidden)
        attended = context @ layer.attention_out
        attended += layer.attention_out_bias
        attended += flat
        flat = _layer_norm(attended, layer.attention_norm, self._eps)
        inner = flat @ layer.intermediate
        inner += layer.intermediate_bias
        out = gelu(inner) @ layer.out
        out += layer.out_bias
        out += flat
        return _layer_norm(out, layer.out_norm, self._eps)
