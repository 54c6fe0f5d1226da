"""The end-to-end demo behind ``make demo``: write to the real database and read it back."""

from __future__ import annotations

import uuid

from rich.console import Console
from rich.table import Table

from kg_context.engine import Engine
from kg_context.errors import DatabaseError
from kg_context.executor import QueryExecutor

__all__ = ["run_demo"]


def run_demo(engine: Engine, console: Console) -> dict[str, object]:
    """Create a demo boundary, read it back from Neo4j, and print both."""
    executor: QueryExecutor = engine.executor
    boundary_id = f"demo-{uuid.uuid4().hex[:12]}"
    console.print(f"[bold]Database:[/] {engine.target.describe()}")
    console.print(f"[bold]Server:[/] {engine.server_version()}")
    written = executor.write(
        "boundary/ensure",
        boundary_id=boundary_id,
        verse="local",
        constitution_version=None,
        task_horizon=None,
    )[0]
    read_back = executor.read("boundary/get", boundary_id=boundary_id)[0]
    table = Table(title=f"Boundary {boundary_id}: written, then read back")
    table.add_column("field")
    table.add_column("written")
    table.add_column("read back")
    for field in ("id", "seq", "verse", "created_at"):
        table.add_row(field, str(written[field]), str(read_back[field]))
    console.print(table)
    if read_back != written:
        raise DatabaseError(f"read back {read_back} differs from written {written}")
    return read_back
