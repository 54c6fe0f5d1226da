"""Supersession across keys inside a key family the operator declared (``[key_families]``, pure).

A declared supersession whose target stands on another key halts ``SUPERSESSION_TARGET`` unless
the constitution declares a family holding both keys (an exact key, or a prefix ending in ``*``):
then it is executed like a same-key one, and the edge and the set's receipts name the family
(``key_families=<name>``). The keys compared are the graph's (the target's recorded key) and the
new entry's own; nothing a writer says about a family counts.
"""

from __future__ import annotations

import json
import re

from kg_context.gate.constitution import Constitution

__all__ = ["family_amendment", "family_rule"]


def family_rule(c: Constitution, old_key: str, new_key: str) -> str | None:
    """The rule that lets a supersession cross from ``old_key`` to ``new_key`` (``None``: same
    key, or no declared family holds both)."""
    if old_key == new_key:
        return None
    name = c.key_family(old_key, new_key)
    return None if name is None else f"key_families={name}"


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
