"""Proposal builders for tests (never imported by product code)."""

from __future__ import annotations

import itertools
from typing import Any

_serial = itertools.count(1)


def entry(cls: str = "decision", key: str = "k", body: str = "b", **extra: Any) -> dict[str, Any]:
    return {"class": cls, "key": key, "body": body, **extra}


def proposal(
    boundary_id: str,
    *entries: dict[str, Any],
    writer_id: str = "writer-1",
    writer_kind: str = "agent",
    targets: list[str] | None = None,
    set_id: str | None = None,
    pid: str | None = None,
    **extra: Any,
) -> dict[str, Any]:
    data: dict[str, Any] = {
        "id": pid or f"{boundary_id}-p{next(_serial)}",
        "boundary_id": boundary_id,
        "writer_id": writer_id,
        "writer_kind": writer_kind,
        "targets": ["t"] if targets is None and set_id is None else (targets or []),
        "entries": list(entries) or [entry()],
        **extra,
    }
    if set_id is not None:
        data["set_id"] = set_id
    return data


def constitution_variant(tag: str, *replacements: tuple[str, str]) -> Any:
    """The default constitution under version ``<default>-<tag>`` with each ``(old, new)`` text
    replacement applied (each must be found)."""
    from kg_context.gate.constitution import load_constitution, parse_constitution

    default = load_constitution()
    text = default.text.replace(f'version = "{default.version}"', f'version = "{tag}"')
    for old, new in replacements:
        assert old in text, old
        text = text.replace(old, new)
    return parse_constitution(text)


CROSS_BOUNDARY_ALL = ("\nallowed = []", '\nallowed = ["derived_from", "requires"]')
