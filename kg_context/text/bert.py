"""A BERT sentence encoder: the forward pass of a sentence-transformers model whose modules are a
BERT ``Transformer``, mean ``Pooling`` and (optionally) ``Normalize``, written directly on torch.

The default model (all-MiniLM-L6-v2) has that shape, so the engine embeds without importing
transformers or sentence-transformers (and the scipy and scikit-learn they pull in): about 6 s of
CPU at every process's first embedding, against torch's own import. Weights come from
``model.safetensors`` (``safetensors.torch``), tokens from ``tokenizer.json`` (the Rust
``tokenizers`` library, with ``[CLS]``/``[SEP]`` as its post-processor adds them). The
arithmetic is float32 and the operations are those of transformers' BERT (exact GELU, the
attention through ``scaled_dot_product_attention``), so the vectors are the sentence-transformers
path's to float32 rounding; torch's own kernels and threads keep bulk encoding as fast.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from kg_context.errors import EmbeddingError

__all__ = ["BertEncoder", "BertLayout", "bert_layout"]

# Encodes of at most this many tokens (all texts' together) run on one thread.
_SMALL_ENCODE_TOKENS = 2048
_threads_lock = threading.Lock()


@dataclass
class _SmallEncodes:
    """The small encodes under way in this process, and torch's thread count before the first."""

    running: int = 0
    threads_before: int = 1


_small_encodes = _SmallEncodes()

Floats = npt.NDArray[np.float32]

_TRANSFORMER = "sentence_transformers.models.Transformer"
_POOLING = "sentence_transformers.models.Pooling"
_NORMALIZE = "sentence_transformers.models.Normalize"


@dataclass(frozen=True)
class BertLayout:
    """Where a model directory keeps what the encoder reads, and how it reads it."""

    transformer_dir: Path
    max_seq_length: int
    lowercase: bool


def _read_json(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def bert_layout(directory: Path) -> BertLayout | None:
    """The layout of a sentence-transformers model directory this encoder runs, or ``None``
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
    qkv: Any  # (3 * hidden, hidden) torch weights: query, key and value projections stacked
    qkv_bias: Any
    attention_out: Any
    attention_out_bias: Any
    attention_norm: tuple[Any, Any]
    intermediate: Any
    intermediate_bias: Any
    out: Any
    out_bias: Any
    out_norm: tuple[Any, Any]


class BertEncoder:
    """A BERT model and its tokenizer, loaded from a directory ``bert_layout`` accepts: mean-pooled,
    unit-length sentence vectors in float32."""

    def __init__(self, layout: BertLayout) -> None:
        import torch
        from safetensors.torch import load_file
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
        self._torch = torch
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

    def _load_weights(self, weights: dict[str, Any], layers: int, hidden: int) -> None:
        torch = self._torch
        prefix = "bert." if "bert.embeddings.word_embeddings.weight" in weights else ""

        def tensor(name: str) -> Any:
            key = prefix + name
            if key not in weights:
                raise EmbeddingError(f"the BERT weights have no tensor {key!r}")
            return weights[key].to(torch.float32).contiguous()

        def linear(name: str) -> tuple[Any, Any]:
            return tensor(f"{name}.weight"), tensor(f"{name}.bias")

        self._word = tensor("embeddings.word_embeddings.weight")
        self._position = tensor("embeddings.position_embeddings.weight")
        self._token_type = tensor("embeddings.token_type_embeddings.weight")
        self._embedding_norm = linear("embeddings.LayerNorm")
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
                    qkv=torch.cat([w for w, _ in projections], dim=0).contiguous(),
                    qkv_bias=torch.cat([b for _, b in projections]),
                    attention_out=attention_out,
                    attention_out_bias=attention_out_bias,
                    attention_norm=linear(f"{at}.attention.output.LayerNorm"),
                    intermediate=intermediate,
                    intermediate_bias=intermediate_bias,
                    out=out,
                    out_bias=out_bias,
                    out_norm=linear(f"{at}.output.LayerNorm"),
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
        with self._threads_for(sum(len(i) for i in ids)), self._torch.inference_mode():
            for start in range(0, len(order), batch_size):
                chosen = order[start : start + batch_size]
                found[chosen] = self._forward([ids[i] for i in chosen])
        return found

    @contextmanager
    def _threads_for(self, tokens: int) -> Iterator[None]:
        """A small encode (a query, a commit's few entries) on one thread: torch's pool costs
        more to wake than such matrices take, and on a busy machine its threads wait for a core
        (one text: 6.6 ms at p50 and 7 at p90 on one thread, against 20 and 55 ms on two, beside
        one other busy process). A large one on torch's threads as set (``torch.set_num_threads``).
        The count is torch's, for the whole process: set back after the encode."""
        torch = self._torch
        if tokens > _SMALL_ENCODE_TOKENS:
            yield
            return
        with _threads_lock:  # the first small encode under way sets one thread, the last restores
            if _small_encodes.running == 0:
                _small_encodes.threads_before = torch.get_num_threads()
                torch.set_num_threads(1)
            _small_encodes.running += 1
        try:
            yield
        finally:
            with _threads_lock:
                _small_encodes.running -= 1
                if _small_encodes.running == 0:
                    torch.set_num_threads(_small_encodes.threads_before)

    def _forward(self, batch: list[list[int]]) -> Floats:
        torch = self._torch
        functional = torch.nn.functional
        length = max(len(ids) for ids in batch)
        input_ids = torch.zeros((len(batch), length), dtype=torch.long)
        mask = torch.zeros((len(batch), length), dtype=torch.float32)
        for row, ids in enumerate(batch):
            input_ids[row, : len(ids)] = torch.tensor(ids, dtype=torch.long)
            mask[row, : len(ids)] = 1.0
        x = self._word[input_ids] + self._position[:length] + self._token_type[0]
        x = functional.layer_norm(x, (self.dimensions,), *self._embedding_norm, self._eps)
        # Padded keys get the most negative score: after the softmax they weigh 0 (as in BERT).
        key_bias = ((1.0 - mask) * torch.finfo(torch.float32).min)[:, None, None, :]
        for layer in self._layers:
            x = self._layer(x, layer, key_bias)
        summed = (x * mask[:, :, None]).sum(dim=1)
        pooled = summed / mask.sum(dim=1, keepdim=True).clamp(min=1e-9)
        result: Floats = functional.normalize(pooled, p=2.0, dim=1).numpy()
        return result

    def _layer(self, x: Any, layer: _Layer, key_bias: Any) -> Any:
        """One encoder layer over ``x``, (batch, length, hidden)."""
        functional = self._torch.nn.functional
        batch, length, hidden = x.shape
        heads = self._heads
        width = hidden // heads
        qkv = functional.linear(x, layer.qkv, layer.qkv_bias)
        # (3, batch, heads, length, width)
        q, k, v = qkv.view(batch, length, 3, heads, width).permute(2, 0, 3, 1, 4)
        context = functional.scaled_dot_product_attention(q, k, v, attn_mask=key_bias)
        context = context.transpose(1, 2).reshape(batch, length, hidden)
        attended = functional.linear(context, layer.attention_out, layer.attention_out_bias)
        x = functional.layer_norm(attended + x, (hidden,), *layer.attention_norm, self._eps)
        inner = functional.gelu(functional.linear(x, layer.intermediate, layer.intermediate_bias))
        out = functional.linear(inner, layer.out, layer.out_bias)
        return functional.layer_norm(out + x, (hidden,), *layer.out_norm, self._eps)
