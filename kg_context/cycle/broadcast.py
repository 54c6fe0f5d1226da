"""Broadcast formatting: the conscious workspace as one immutable context within a token budget."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from kg_context.cycle.models import BroadcastContext, BroadcastItem, ConsciousItem, TaskValue
from kg_context.cycle.tokens import CountTokens
from kg_context.errors import EmbeddingError

__all__ = ["format_broadcast", "render_line"]


def render_line(item: ConsciousItem) -> str:
    """One conscious item as one line: class/status tag, key, text. An admitted recall copy is
    tagged with its original's class and status, and says what it is a recall of."""
    c = item.candidate
    text = " ".join(c.text.split())
    if c.recall is not None:
        r = c.recall
        return f"- [recall {r.original_class}/{r.original_status}] {c.key}: {text} ({r.text()})"
    tag = f"{c.entry_class}/{c.status}" if c.entry_class else c.status
    return f"- [{tag}] {c.key}: {text}"


def format_broadcast(
    items: Sequence[ConsciousItem],
    *,
    broadcast_id: str,
    cycle: int,
    token_budget: int,
    count_tokens: CountTokens,
    task: Mapping[str, TaskValue] | None = None,
    answer_available: bool = False,
) -> BroadcastContext:
    """Strongest first; an item whose line does not fit the remaining budget is omitted and a
    weaker one that fits still goes in (greedy, deterministic)."""
    ordered = sorted(items, key=lambda i: (-i.activation, i.id))
    lines = [render_line(i) for i in ordered]
    counts = count_tokens(lines) if lines else []
    if len(counts) != len(lines) or any(n < 0 for n in counts):
        raise EmbeddingError(
            f"the token counter returned {len(counts)} counts for {len(lines)} lines"
        )
    included: list[BroadcastItem] = []
    omitted: list[str] = []
    used = 0
    for item, line, tokens in zip(ordered, lines, counts, strict=True):
        if used + tokens > token_budget:
            omitted.append(item.id)
            continue
        used += tokens
        included.append(
            BroadcastItem(
                id=item.id,
                key=item.candidate.key,
                status=item.candidate.status,
                activation=item.activation,
                origin=item.candidate.origin,
                line=line,
                tokens=tokens,
                linked_ids=item.candidate.linked_ids,
                recall=item.candidate.recall,
            )
        )
    return BroadcastContext(
        broadcast_id=broadcast_id,
        cycle=cycle,
        items=tuple(included),
        omitted_ids=tuple(omitted),
        tokens=used,
        token_budget=token_budget,
        answer_available=answer_available,
        task=dict(task or {}),
    )
