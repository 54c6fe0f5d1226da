"""The token counter's count of one long text (an assembled context): counted in pieces split
at line breaks only when that is exact for the tokenizer, and always equal to the whole text's
count."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from tokenizers import AddedToken, Tokenizer, models, pre_tokenizers

from kg_context.text.tokens import TokenCounter, get_token_counter

# What a writer's text may hold next to a line break: accents and lone combining marks (a mark
# right after a break), CJK (the normalizer spaces each), control characters, emoji, the other
# line breaks, punctuation, long words (WordPiece's unknown), numbers and runs of spaces.
_PIECES = [
    "déjà vu",
    "\u0301starts with a mark",
    "e\u0301",
    "漢字かな交じり文",
    "ctl\x00\x07\x1b",
    "🙂👍🏽",
    "\r\n",
    "\r",
    "\u2028",
    "\x85",
    "a,b;c:d!",
    "x" * 300,
    "3.14159 42",
    "   ",
    "\t",
    "api/engine-v2",
    "Ünïcödé ÅNGSTRÖM",
]


def _texts(seed: int, count: int) -> list[str]:
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        lines = []
        while sum(len(line) for line in lines) < 9_000 + rng.randrange(8_000):
            lines.append(" ".join(rng.choice(_PIECES) for _ in range(rng.randrange(1, 12))))
        out.append("\n".join(lines))
    return out


def test_the_default_tokenizer_counts_a_long_text_in_pieces_and_exactly() -> None:
    counter = get_token_counter()
    assert counter.splits_at_lines  # BERT's WordPiece: a line break is never in a token
    texts = _texts(7, 40)
    assert all(len(t) >= 9_000 for t in texts)  # long enough to be counted in pieces
    for text in texts:
        assert counter.count_text(text) == counter.count([text])[0]


def test_a_short_text_and_a_text_without_line_breaks_are_counted_whole() -> None:
    counter = get_token_counter()
    for text in ("", "one line", "é\u0301 " * 5_000, "\n".join(["word"] * 10)):
        assert counter.count_text(text) == counter.count([text])[0]


@pytest.fixture
def byte_level_counter(tmp_path: Path) -> TokenCounter:
    """A byte-level BPE (as GPT-2's): its vocabulary has a token for a line break."""
    alphabet = pre_tokenizers.ByteLevel.alphabet()
    vocab = {c: i for i, c in enumerate(sorted(alphabet))}
    tokenizer = Tokenizer(models.BPE(vocab=vocab, merges=[]))
    tokenizer.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    path = tmp_path / "tokenizer.json"
    tokenizer.save(str(path))
    return TokenCounter(path)


def test_a_tokenizer_with_a_token_for_a_line_break_counts_the_whole_text(
    byte_level_counter: TokenCounter,
) -> None:
    text = "\n".join(["a line of words"] * 1_000)
    assert not byte_level_counter.splits_at_lines
    whole = byte_level_counter.count([text])[0]
    pieces = sum(byte_level_counter.count([line])[0] for line in text.split("\n"))
    assert whole != pieces  # counting by lines would lie for it
    assert byte_level_counter.count_text(text) == whole


def test_an_added_token_that_holds_a_line_break_makes_the_text_counted_whole(
    tmp_path: Path,
) -> None:
    tokenizer = Tokenizer.from_str(get_token_counter()._tokenizer.to_str())  # the default
    tokenizer.add_tokens([AddedToken("end\nstart", normalized=False)])
    path = tmp_path / "tokenizer.json"
    tokenizer.save(str(path))
    spanning = TokenCounter(path)
    text = "\n".join(["the end", "start again"] * 1_000)
    assert not spanning.splits_at_lines
    whole = spanning.count([text])[0]
    assert whole != sum(spanning.count([line])[0] for line in text.split("\n"))
    assert spanning.count_text(text) == whole
