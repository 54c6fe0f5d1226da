"""Broadcast formatting within a token budget, and the tokenizer-based counter."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import pytest

from kg_context.cycle import (
    BroadcastContext,
    Candidate,
    CandidateOrigin,
    ConsciousItem,
    format_broadcast,
    model_token_counter,
    render_line,
)
from kg_context.errors import EmbeddingError


def item(cid: str, activation: float, text: str) -> ConsciousItem:
    c = Candidate(
        id=cid,
        key=f"k-{cid}",
        text=text,
        activation=activation,
        origin=CandidateOrigin.STORED,
        status="live",
        entry_class="fact",
        linked_ids=("x",),
    )
    return ConsciousItem(candidate=c, activation=activation, admitted_cycle=1)


def words(lines: Sequence[str]) -> list[int]:
    return [len(line.split()) for line in lines]


def test_render_line_tags_class_status_and_collapses_whitespace() -> None:
    assert render_line(item("a", 0.9, "one\n two   three")) == "- [fact/live] k-a: one two three"


def test_budget_keeps_strongest_first_and_skips_what_does_not_fit() -> None:
    items = [
        item("small", 0.5, "w"),  # 4 words
        item("big", 0.8, "w " * 20),  # 23 words
        item("top", 0.9, "w w"),  # 5 words
    ]
    ctx = format_broadcast(
        items, broadcast_id="b1", cycle=1, token_budget=10, count_tokens=words, task={"q": "x"}
    )
    assert [i.id for i in ctx.items] == ["top", "small"]
    assert ctx.omitted_ids == ("big",)
    assert ctx.tokens == 9 and ctx.tokens <= ctx.token_budget
    assert ctx.text.splitlines() == [i.line for i in ctx.items]
    assert ctx.items[0].linked_ids == ("x",)


def test_context_is_immutable() -> None:
    task = {"q": "x"}
    ctx = format_broadcast(
        [item("a", 0.9, "t")],
        broadcast_id="b",
        cycle=1,
        token_budget=99,
        count_tokens=words,
        task=task,
    )
    task["q"] = "changed"
    assert ctx.task["q"] == "x"
    with pytest.raises(TypeError):
        ctx.task["q"] = "y"  # type: ignore[index]
    with pytest.raises(dataclasses.FrozenInstanceError):
        ctx.tokens = 0  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        ctx.items[0].line = "x"  # type: ignore[misc]
    assert isinstance(ctx, BroadcastContext)


def test_a_counter_that_miscounts_is_an_error_not_a_fallback() -> None:
    with pytest.raises(EmbeddingError, match="0 counts for 1 lines"):
        format_broadcast(
            [item("a", 0.9, "t")],
            broadcast_id="b",
            cycle=1,
            token_budget=9,
            count_tokens=lambda lines: [],
        )


def test_model_counter_counts_wordpiece_tokens_without_special_tokens() -> None:
    count = model_token_counter()
    assert count.__self__ is model_token_counter().__self__  # type: ignore[attr-defined]
    assert count(["hello world", "", "unbelievably"]) == [2, 0, 5]
    # No padding to, and no truncation at, the model's window (the shipped file sets both).
    assert count(["cat " * 300]) == [300]


def test_budget_with_the_real_tokenizer() -> None:
    count = model_token_counter()
    items = [item(f"i{n}", 0.9 - n / 100, "the cat sat on the mat") for n in range(5)]
    per_line = count([render_line(items[0])])[0]
    ctx = format_broadcast(
        items, broadcast_id="b", cycle=1, token_budget=per_line * 2, count_tokens=count
    )
    assert [i.id for i in ctx.items] == ["i0", "i1"]
    assert ctx.omitted_ids == ("i2", "i3", "i4")
