"""What a catalog statement's text says, read by the tests: its code without comments, and its
lookups by id (tests/unit/test_id_scoping.py checks each names its boundary; tests/plans.py
checks each seeks the boundary's index)."""

from __future__ import annotations

import re

from kg_context.db.catalog import Query

__all__ = ["SCOPED", "id_lookups", "lookups", "statement_code"]

SCOPED = {"Entry": "id", "Set": "id", "Proposal": "id", "Writer": "id", "Target": "key"}
_BINDING = re.compile(r"\((\w+):(" + "|".join(SCOPED) + r")\b(?![\w])([^()]*)\)")


def statement_code(text: str) -> str:
    """A statement's text without its comments."""
    return "\n".join(line.split("//", 1)[0] for line in text.splitlines())


def lookups(query: Query) -> list[tuple[str, str, str]]:
    """(variable, label, how) for every lookup of a scoped label by its id without the boundary:
    an inline map with the id and no boundary_id, or a WHERE on ``var.id`` with no
    ``var.boundary_id`` anywhere in the statement."""
    code = statement_code(query.text)
    unscoped = []
    bound: dict[str, str] = {}
    for variable, label, rest in _BINDING.findall(code):
        bound[variable] = label
        key = SCOPED[label]
        if re.search(rf"\b{key}\s*:", rest) and "boundary_id" not in rest:
            unscoped.append((variable, label, f"{{{key}: ...}} without boundary_id"))
    for variable, label in bound.items():
        key = SCOPED[label]
        if re.search(rf"\b{variable}\.{key}\s*(=|IN\b)", code) and not (
            re.search(rf"\b{variable}\.boundary_id\s*=", code)
            or re.search(rf"\({variable}:{label}\s*\{{[^}}]*boundary_id", code)
        ):
            unscoped.append((variable, label, f"WHERE {variable}.{key} without boundary_id"))
    return unscoped


def id_lookups(query: Query) -> list[tuple[str, str]]:
    """(variable, label) of every lookup by id in a statement: a node pattern that starts a
    MATCH or MERGE pattern (not a CREATE, not a node reached over a relationship) and names the
    id, inline or in a WHERE."""
    code = statement_code(query.text)
    found = []
    for match in _BINDING.finditer(code):
        variable, label, rest = match.groups()
        before = code[: match.start()].rstrip()
        if before.endswith(("-", ">", "CREATE")):
            continue
        key = SCOPED[label]
        if re.search(rf"\b{key}\s*:", rest) or re.search(rf"\b{variable}\.{key}\s*(=|IN\b)", code):
            found.append((variable, label))
    return sorted(set(found))
