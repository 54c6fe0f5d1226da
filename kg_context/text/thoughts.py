"""A thought's text as the record keeps it: the text up to a bound, its digest, and whether it
was cut (everything produced lands in the record, a thought included).

The bound is ``THOUGHT_MAX_CHARS``, the same 262,144 characters the gate's contract allows an
entry body (``kg_context.gate.pure.contracts.MAX_BODY_CHARS``; a unit test holds them equal): a
thought is never stored larger than an entry could be. A bus proposal is already bounded there
(``BusProposal.text``), so only an attention output can exceed it. Above the bound the text is
kept truncated to the bound, never dropped and never refused (one writer's long output must not
fail its whole wave): the node records ``text_truncated`` and the bound ``text_bound``, and for a
cut text the full length ``text_chars`` and ``text_sha256``, the SHA-256 of the full text, so a
copy kept elsewhere can be checked against the record. An uncut text is the whole: its length
and digest are its own, and storing them again would cost every thought a 128-byte string
record for the digest alone. Pure: no I/O.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

__all__ = ["THOUGHT_MAX_CHARS", "ThoughtText", "thought_text"]

THOUGHT_MAX_CHARS = 262_144


@dataclass(frozen=True, slots=True)
class ThoughtText:
    """What the record stores of one text."""

    text: str  # the text, or its first ``bound`` characters when ``truncated``
    sha256: str  # of the full text (UTF-8)
    chars: int  # length of the full text
    truncated: bool
    bound: int

    def row(self) -> dict[str, str | int | bool | None]:
        """The node properties (the write statements' ``text*`` fields): ``text_sha256`` and
        ``text_chars`` only for a cut text (``None``: not stored)."""
        return {
            "text": self.text,
            "text_sha256": self.sha256 if self.truncated else None,
            "text_chars": self.chars if self.truncated else None,
            "text_truncated": self.truncated,
            "text_bound": self.bound,
        }


def thought_text(text: str, bound: int = THOUGHT_MAX_CHARS) -> ThoughtText:
    """``text`` as stored: whole up to ``bound`` characters, else its first ``bound``."""
    if bound < 1:
        raise ValueError("the bound of a stored thought is at least one character")
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
    truncated = len(text) > bound
    return ThoughtText(text[:bound] if truncated else text, digest, len(text), truncated, bound)
