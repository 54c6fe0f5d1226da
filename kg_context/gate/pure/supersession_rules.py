"""Declared supersessions the operator's constitution lets through where they would halt
``SUPERSESSION_TARGET`` (pure): across two keys of a declared family (``[key_families]``,
executed), and of a target retired from live (``[on_supersession] retired = "record"``, recorded
and not executed). Decided from the graph's keys, statuses and history, never a writer's text.
"""

from __future__ import annotations

import json
import re

from kg_context.gate.pure.constitution import Constitution
from kg_context.gate.pure.snapshot import EntryState, Snapshot
from kg_context.vocabulary import EntryStatus, OnRetiredSupersession

__all__ = [
    "RULE_RECORD",
    "family_amendment",
    "family_rule",
    "retired_target_rule",
    "supersession_amendment",
]

RULE_RECORD = f"on_supersession={OnRetiredSupersession.RECORD.value}"


def family_rule(c: Constitution, old_key: str, new_key: str) -> str | None:
    """The rule that lets a supersession cross from ``old_key`` to ``new_key`` (``None``: same
    key, or no declared family holds both)."""
    if old_key == new_key:
        return None
    name = c.key_family(old_key, new_key)
    return None if name is None else f"key_families={name}"


def _same_slot(c: Constitution, old_key: str, new_key: str) -> bool:
    return old_key == new_key or family_rule(c, old_key, new_key) is not None


def rebuildable_retired(snapshot: Snapshot, old: EntryState) -> bool:
    """Whether ``old`` is retired from live as the graph records it (``retired_sources``)."""
    source = snapshot.retired_sources.get(old.id)
    return (
        old.status == EntryStatus.RETIRED.value
        and old.boundary_id == snapshot.boundary.id
        and source is not None
        and source.from_live
    )


def retired_target_rule(
    c: Constitution, snapshot: Snapshot, old: EntryState | None, new_key: str
) -> str | None:
    """``on_supersession=record`` when the constitution records a supersession of ``old``, a
    target retired from live on ``new_key`` or a key of its family (``None``: it does not)."""
    if old is None or c.on_supersession.retired is not OnRetiredSupersession.RECORD:
        return None
    if not rebuildable_retired(snapshot, old) or not _same_slot(c, old.key, new_key):
        return None
    return RULE_RECORD


def supersession_amendment() -> str:
    """The amendment that would have decided a supersession of a target retired from live."""
    return f'[on_supersession] retired = "{OnRetiredSupersession.RECORD.value}"'


def _family_name(key: str) -> str:
    head = re.sub(r"[^a-z0-9]+", "_", key.split("/", 1)[0].lower()).strip("_")
    return (head if head and head[0].isalpha() else f"keys_{head}".rstrip("_"))[:40]


def family_amendment(old_key: str, new_key: str) -> str:
    """The ``[key_families]`` line that would have let a supersession cross these two keys: their
    shared first path segment as a prefix when they have one, else the two keys."""
    old_head, new_head = old_key.split("/", 1)[0], new_key.split("/", 1)[0]
    if "/" in old_key and "/" in new_key and old_head == new_head:
        patterns = [f"{old_head}/*"]
    else:
        patterns = sorted({old_key, new_key})
    shown = ", ".join(json.dumps(p) for p in patterns)
    return f"[key_families] {_family_name(old_key)} = [{shown}]"
