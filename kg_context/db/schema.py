"""The schema: every constraint and index is one ``CREATE ... IF NOT EXISTS`` file in
``cypher/schema/``. Applying them is idempotent and safe to run from several processes at once.
"""

from __future__ import annotations

from collections.abc import Callable

from kg_context.db.catalog import default_catalog
from kg_context.db.executor import QueryExecutor
from kg_context.errors import QueryError

__all__ = ["apply_schema", "schema_steps"]

# Two processes creating the same rule at once: the loser is told it already exists.
_ALREADY_THERE = (
    "Neo.ClientError.Schema.EquivalentSchemaRuleAlreadyExists",
    "Neo.ClientError.Schema.ConstraintAlreadyExists",
    "Neo.ClientError.Schema.IndexAlreadyExists",
)


def schema_steps() -> int:
    """How many steps ``apply_schema`` reports: one per rule, the wait for indexes, and the
    status labels of sets and halts written before those existed."""
    return len(default_catalog().under("schema")) + 2


def apply_schema(
    executor: QueryExecutor,
    *,
    await_timeout_s: int = 300,
    on_step: Callable[[str], None] | None = None,
) -> list[str]:
    """Create every constraint and index that is missing, wait for them online, label sets and
    halts that lack their status label (Browser styles them by it), return the rule names.
    ``on_step`` is told each rule as it is applied, then ``await indexes``, ``status labels``."""
    applied: list[str] = []
    for query in default_catalog().under("schema"):
        if on_step is not None:
            on_step(query.name)
        try:
            executor.write(query.name)
        except QueryError as err:
            if err.code not in _ALREADY_THERE:
                raise
        applied.append(query.name)
    if on_step is not None:
        on_step("await indexes")
    executor.write("admin/await_indexes", timeout_s=await_timeout_s)
    if on_step is not None:
        on_step("status labels")
    executor.write("admin/label_sets_and_halts")
    executor.write("admin/label_receipts")
    return applied
