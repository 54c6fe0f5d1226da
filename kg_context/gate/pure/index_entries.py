"""The governed history index, pure: one small index line per ratified set,
planned with the set and written in its transaction (``write_plan``).

The line is built only from what the gate itself decided and typed: the set's seq and kind, its
writers (ids the graph registered), the classes and keys of its new entries, the supersessions
it executed and the status changes it declared. Never from a writer's free text about itself
(a proposal's ``summary`` stays on the set, unindexed). Its tokens are counted with the entries'
tokenizer (``count_index_tokens``), so the window charges resident index lines honestly.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence

from kg_context.gate.pure.batch import Context
from kg_context.gate.pure.rows import Plan, Props
from kg_context.gate.pure.verdicts import SetView
from kg_context.vocabulary import SetKind

__all__ = ["constitution_index_props", "count_index_tokens", "index_props", "summary_line"]

_SHOWN = 3  # entries named on one line; the rest are counted
_KEY_CHARS = 48


def _key(key: str) -> str:
    """A key on one line (a writer's key may hold line breaks: never a forged index line),
    shortened to ``_KEY_CHARS``."""
    flat = " ".join(key.split())
    return flat if len(flat) <= _KEY_CHARS else flat[: _KEY_CHARS - 1] + "…"


def summary_line(
    kind: str,
    writer_ids: Sequence[str],
    entries: Sequence[tuple[str, str]],
    superseded: Sequence[str],
    transitions: Sequence[str],
) -> str:
    """One deterministic line: ``<kind> by <writers>: +N (class key, ...); supersedes ...;
    <n> -> <status>``. ``entries`` are (class, key) pairs, ``transitions`` the target statuses."""
    head = f"{kind} by {', '.join(sorted(writer_ids))}"
    parts: list[str] = []
    if entries:
        named = ", ".join(f"{c} {_key(k)}" for c, k in entries[:_SHOWN])
        more = f", +{len(entries) - _SHOWN} more" if len(entries) > _SHOWN else ""
        parts.append(f"+{len(entries)} ({named}{more})")
    if superseded:
        shown = ", ".join(sorted(superseded)[:_SHOWN])
        more = f", +{len(superseded) - _SHOWN} more" if len(superseded) > _SHOWN else ""
        parts.append(f"supersedes {shown}{more}")
    counts = Counter(transitions)
    parts.extend(f"{n} -> {status}" for status, n in sorted(counts.items()))
    return f"{head}: {'; '.join(parts)}" if parts else head


def _props(ctx: Context, set_id: str, seq: int, kind: str, line: str) -> Props:
    """The line's properties. Not its writers: they are the set's ``writer_ids`` (the set it
    INDEXES) and are named in ``summary``; lines written before schema version 12 keep a copy."""
    return {
        "id": ctx.record_id(set_id, "index"),
        "boundary_id": ctx.boundary_id,
        "set_id": set_id,
        "seq": seq,
        "kind": kind,
        "summary": line,
        "tokens": 0,  # counted for the whole batch at once (count_index_tokens)
        "at": ctx.now,
        "constitution_version": ctx.constitution.version,
    }


def index_props(ctx: Context, view: SetView, seq: int, superseded: Sequence[str]) -> Props:
    """The index line of a set that commits at ``seq`` (``superseded``: what it executed)."""
    proposals = view.closed.proposals
    writers = sorted({p.writer_id for p in proposals})
    kind = proposals[0].kind.value
    entries = [(e.entry_class, e.key) for _, _, e in view.entries]
    statuses = [t.to.value for _, t in view.transitions if t.to is not None]
    line = summary_line(kind, writers, entries, superseded, statuses)
    return _props(ctx, view.closed.set_id, seq, kind, line)


def constitution_index_props(
    ctx: Context, set_id: str, seq: int, writer_id: str, new_version: str
) -> Props:
    """The index line of a ratified constitution change."""
    kind = SetKind.CONSTITUTION.value
    line = f"{kind} by {writer_id}: {ctx.constitution.version} -> {new_version}"
    return _props(ctx, set_id, seq, kind, line)


def count_index_tokens(plan: Plan, count_tokens: Callable[[Sequence[str]], list[int]]) -> None:
    """Count every index line of the plan in one call (before the plan is written)."""
    lines = [ix for s in plan.sets for ix in plan.decided[s["id"]].index]
    for props, tokens in zip(lines, count_tokens([p["summary"] for p in lines]), strict=True):
        props["tokens"] = tokens
