"""What every CLI command shares: the engine, handles on existing boundaries, output helpers.

One way to connect: ``connect()`` is ``Engine.connect()`` (the resolved database: ``NEO4J_URI``
→ Docker → local, nothing started; settings read once, from the environment).
"""

from __future__ import annotations

import json
import os

from rich.console import Console

from kg_context.engine import BoundaryHandle, Engine

__all__ = ["connect", "existing", "operator_id", "print_json"]


def connect(*, check_schema: bool = True) -> Engine:
    """The CLI's engine on the resolved database (starts nothing); the schema is checked on
    connect unless the command is ``schema apply`` or reads no kg-context data."""
    return Engine.connect(check_schema=check_schema)


def existing(engine: Engine, boundary_id: str) -> BoundaryHandle:
    """A handle on a boundary that must exist already (reading never creates one)."""
    return engine.boundary(boundary_id, create=False)


def operator_id(default: str = "operator") -> str:
    """Who runs the command: ``KG_CONTEXT_OPERATOR``, else ``USER``, else ``default``."""
    return os.environ.get("KG_CONTEXT_OPERATOR") or os.environ.get("USER") or default


def print_json(out: Console, data: object) -> None:
    out.print(json.dumps(data, sort_keys=True, default=str), markup=False, highlight=False)
