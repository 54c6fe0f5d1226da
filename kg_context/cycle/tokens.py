"""Token counts for the broadcast budget: the embedding model's own tokenizer, or one injected.

The default is ``kg_context.text.tokens.get_token_counter()`` (``tokenizer.json`` of the configured
embedding model, loaded once per process with the ``tokenizers`` library; no padding, no
truncation, no special tokens). A model without a tokenizer is an ``EmbeddingError``; there is no
character-based fallback. Callers (and tests) may pass any ``CountTokens`` function instead.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from kg_context.settings import EmbeddingSettings
from kg_context.text.tokens import get_token_counter

__all__ = ["CountTokens", "model_token_counter"]

# Tokens per text, one count per input, in order.
CountTokens = Callable[[Sequence[str]], list[int]]


def model_token_counter(settings: EmbeddingSettings | None = None) -> CountTokens:
    """The embedding model's token counter (loaded now, so a missing tokenizer fails early)."""
    return get_token_counter(settings).count
