"""Token counts per entry, from the embedding model's own tokenizer, offline.

Only ``tokenizer.json`` is loaded (the Rust ``tokenizers`` library), not the model, so the gate
counts tokens without importing torch. Loaded once per process.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from functools import cache
from pathlib import Path

from kg_context.errors import EmbeddingError
from kg_context.settings import EmbeddingSettings, load_settings
from kg_context.text.embeddings import resolve_model_path

__all__ = ["TokenCounter", "get_token_counter"]

_SERIAL_MAX = 64  # texts counted on the calling thread; more go to the tokenizer's thread pool
# One text at least this long is counted in pieces split at line breaks, in the tokenizer's pool,
# when its pre-tokenizer makes that exact (below); a shorter one costs less than waking the pool.
_SPLIT_MIN_CHARS = 8_192
_SPLIT_PIECES = 2  # these machines' cores; more pieces measured no faster
# Pre-tokenizers that split at every whitespace character and keep none of it: no token spans a
# line break, so a text's count is the sum of its lines' counts (the normalizers these models
# ship change one character at a time: BERT's cleans, lowercases and strips accents).
_SPLITS_AT_WHITESPACE = frozenset({"BertPreTokenizer", "Whitespace", "WhitespaceSplit"})
_CHAR_NORMALIZERS = frozenset({"BertNormalizer", "Lowercase", "NFD", "StripAccents"})


class TokenCounter:
    def __init__(self, tokenizer_file: Path) -> None:
        from tokenizers import Tokenizer

        try:
            self._tokenizer = Tokenizer.from_file(str(tokenizer_file))
        except Exception as err:
            raise EmbeddingError(f"cannot load tokenizer {tokenizer_file}: {err}") from err
        self._tokenizer.no_truncation()
        self._tokenizer.no_padding()
        self._lock = threading.Lock()
        pre, normalizer = self._tokenizer.pre_tokenizer, self._tokenizer.normalizer
        by_char = normalizer is None or type(normalizer).__name__ in _CHAR_NORMALIZERS
        # An added token is matched in the raw text before it is split: one holding a line
        # break (none of BERT's five) could span two lines.
        added = self._tokenizer.get_added_tokens_decoder().values()
        one_line = not any("\n" in t.content for t in added)
        self.splits_at_lines = type(pre).__name__ in _SPLITS_AT_WHITESPACE and by_char and one_line

    def count(self, texts: Sequence[str]) -> list[int]:
        """Tokens per text (no special tokens, no truncation)."""
        if not texts:
            return []
        with self._lock:
            if len(texts) <= _SERIAL_MAX:
                # A few texts (a single commit's): encoded here, on the calling thread. A batch
                # call hands them to the tokenizer's thread pool, and waking it costs more than
                # encoding them; on a busy machine the wait for a pool thread is a latency tail
                # (p90 of a single commit's count: milliseconds, against 0.3 ms here).
                encoded = [self._tokenizer.encode(t, add_special_tokens=False) for t in texts]
            else:
                # encode_batch_fast skips character offsets (not needed to count): tokenizers
                # >= 0.20
                encoded = self._tokenizer.encode_batch_fast(list(texts), add_special_tokens=False)
        return [len(e.ids) for e in encoded]

    def count_text(self, text: str) -> int:
        """Tokens of one text, as ``count([text])[0]``: a long one (an assembled context) in
        pieces split at line breaks, counted side by side, when that is exact for this
        tokenizer (``splits_at_lines``; a byte-level BPE, which has a token for a line break,
        is counted whole)."""
        if len(text) < _SPLIT_MIN_CHARS or not self.splits_at_lines:
            return self.count([text])[0]
        pieces, start, size = [], 0, len(text) // _SPLIT_PIECES
        for _ in range(_SPLIT_PIECES - 1):
            cut = text.find("\n", start + size)
            if cut < 0:
                break
            pieces.append(text[start:cut])
            start = cut + 1
        pieces.append(text[start:])
        with self._lock:
            encoded = self._tokenizer.encode_batch_fast(pieces, add_special_tokens=False)
        return sum(len(e.ids) for e in encoded)


@cache
def _counter_for(model: str) -> TokenCounter:
    location = Path(resolve_model_path(model))
    tokenizer_file = location / "tokenizer.json"
    if not tokenizer_file.exists():
        raise EmbeddingError(
            f"model {model!r} has no tokenizer.json at {location}; token counts need it"
        )
    return TokenCounter(tokenizer_file)


def get_token_counter(settings: EmbeddingSettings | None = None) -> TokenCounter:
    """The process-wide token counter of the configured embedding model."""
    return _counter_for((settings or load_settings(EmbeddingSettings)).model)
