"""The boundary as Lucene sees it: one token per boundary, so a fulltext query filters by
boundary inside the index instead of after a global top-k.

The fulltext index ``entry_body_fulltext`` covers ``Entry.key``, ``Entry.body`` and
``Entry.boundary_token``. A boundary id can hold any characters (``team-7`` is two tokens to
Lucene's standard analyzer, and ``team-7`` and ``team 7`` would be the same phrase), so the gate
writes ``boundary_token``: ``b`` and the first 24 hex digits (96 bits) of the SHA-256 of the
boundary id, 25 letters and digits that the analyzer keeps as one token (short enough for the
store to keep it in the node's property record rather than a 128-byte string record of its own;
tokens written before schema version 10 held all 64 digits, and its data step cut them to
these). A query is then ``+boundary_token:<token> +(words)``: Lucene intersects the boundary's
postings with the words' and ranks only the boundary's entries. Distinct boundaries have
distinct tokens (up to a collision of 96 bits of SHA-256); the statements still check
``boundary_id`` on every hit, so even a collision could never show another boundary's entry.
"""

from __future__ import annotations

import hashlib
import re
from functools import lru_cache

__all__ = ["BOUNDARY_TOKEN_LENGTH", "boundary_fulltext_query", "boundary_token", "fulltext_words"]

_WORD = re.compile(r"\w+", re.UNICODE)
_LUCENE_OPERATORS = frozenset({"AND", "OR", "NOT", "TO"})
BOUNDARY_TOKEN_LENGTH = 25  # "b" and 24 hex digits


@lru_cache(maxsize=4096)
def boundary_token(boundary_id: str) -> str:
    """The one-token form of a boundary id that ``Entry.boundary_token`` holds (kept per id:
    every new entry asks)."""
    return ("b" + hashlib.sha256(boundary_id.encode("utf-8")).hexdigest())[:BOUNDARY_TOKEN_LENGTH]


def fulltext_words(text: str) -> str:
    """A Lucene query matching any word of ``text``, with every operator character neutralised
    (only word characters survive; ``AND``/``OR``/``NOT``/``TO`` are lower-cased to words)."""
    words = [w.lower() if w in _LUCENE_OPERATORS else w for w in _WORD.findall(text)]
    return " ".join(words)


def boundary_fulltext_query(boundary_id: str, text: str) -> str | None:
    """``+boundary_token:<token> +(words)``: the words of ``text`` within one boundary, or
    ``None`` when ``text`` has no word to search for."""
    words = fulltext_words(text)
    if not words:
        return None
    return f"+boundary_token:{boundary_token(boundary_id)} +({words})"
