"""The adapter-coverage table is the code's (no database): every public method of the boundary
handle, the engine and the operator's queue is in ``kg_context.surfaces``, and every CLI
command, HTTP route and MCP tool the table names exists, and reaches an operation of the table
(or is listed there as surface-only)."""

from __future__ import annotations

import inspect
import re
from typing import Any, cast

import anyio
import pytest
import typer

from kg_context.api.app import create_app
from kg_context.api.auth import TokenTable
from kg_context.api.mcp_server import TOOL_NAMES, create_mcp_server
from kg_context.attention import WorkspaceAttention
from kg_context.cli.app import app as cli_app
from kg_context.engine import BoundaryHandle, Engine
from kg_context.record.audits import audit_library
from kg_context.record.revalidation import OperatorHalts
from kg_context.settings import ApiSettings
from kg_context.surfaces import MCP_TOOLS, OPERATIONS, SURFACE_ONLY, Absent, Reach
from tests.docs_surfaces import coverage_table, generated_part

# The classes behind each owner; the first three are complete in the table (every public method).
OWNERS: dict[str, type] = {
    "Boundary": BoundaryHandle,
    "Engine": Engine,
    "Engine.halts": OperatorHalts,
    "WorkspaceAttention": WorkspaceAttention,
}
COMPLETE = ("Boundary", "Engine", "Engine.halts")
SURFACES = ("cli", "http", "mcp")
HTTP_METHODS = {"GET", "PUT", "POST", "PATCH", "DELETE"}


def public_methods(cls: type) -> set[str]:
    """The public operations of a class: its (class)methods, not its properties or attributes."""
    return {
        name
        for name, value in inspect.getmembers(cls)
        if not name.startswith("_") and (inspect.isfunction(value) or inspect.ismethod(value))
    }


def _cli_commands(group: Any, prefix: tuple[str, ...] = ()) -> set[str]:
    found: set[str] = set()
    for name, command in getattr(group, "commands", {}).items():
        path = (*prefix, name)
        found |= (
            _cli_commands(command, path) if getattr(command, "commands", None) else {" ".join(path)}
        )
    return found


def cli_commands() -> set[str]:
    """Every command of the CLI, by its words (``halts resolve``)."""
    return _cli_commands(typer.main.get_command(cli_app))


def http_routes() -> set[str]:
    """Every route of the HTTP API: ``METHOD /path/{template}``. The API's routes are read from
    its OpenAPI spec (built from the routes alone: no engine is needed), FastAPI's own (the spec,
    the docs pages) from the app's route list."""
    app = create_app(cast(Any, object()), ApiSettings(), TokenTable([]))
    found = {
        f"{method.upper()} {path}"
        for path, operations in app.openapi()["paths"].items()
        for method in operations
        if method.upper() in HTTP_METHODS
    }
    for route in app.routes:
        for method in getattr(route, "methods", None) or ():
            if method in HTTP_METHODS:
                found.add(f"{method} {route.path}")  # type: ignore[attr-defined]
    return {re.sub(r"\{(\w+):\w+\}", r"{\1}", route) for route in found}


def mcp_tools() -> set[str]:
    """Every tool the MCP server registers."""
    server = create_mcp_server(cast(Any, object()), "b", TokenTable([]))
    return {tool.name for tool in anyio.run(server.list_tools)}


def served() -> dict[str, set[str]]:
    return {"cli": cli_commands(), "http": http_routes(), "mcp": mcp_tools()}


def audit_commands() -> set[str]:
    """The commands ``audit {audit}`` stands for: one per audit file (hyphenated)."""
    return {f"audit {name.replace('_', '-')}" for name in audit_library()}


def named(reach: Reach, surface: str) -> set[str]:
    """The adapters a table cell names (``audit {audit}`` expanded to the audit commands)."""
    if isinstance(reach, Absent):
        return set()
    found = set(reach)
    if surface == "cli" and "audit {audit}" in found:
        found.discard("audit {audit}")
        found |= audit_commands()
    return found


def test_the_table_names_every_public_method_once() -> None:
    keys = [(op.owner, op.name) for op in OPERATIONS]
    twice = sorted({k for k in keys if keys.count(k) > 1})
    assert not twice, f"named twice in kg_context/surfaces.py: {twice}"
    for owner in COMPLETE:
        public = public_methods(OWNERS[owner])
        listed = {op.name for op in OPERATIONS if op.owner == owner}
        missing = sorted(public - listed)
        assert not missing, (
            f"public methods of {owner} with no row in kg_context/surfaces.py OPERATIONS: "
            f"{missing} (name each one's CLI command, route and MCP tool, or why it has none)"
        )


def test_every_operation_of_the_table_exists() -> None:
    for op in OPERATIONS:
        assert op.owner in OWNERS, f"{op.owner}.{op.name}: unknown owner {op.owner}"
        assert op.name in public_methods(OWNERS[op.owner]), (
            f"kg_context/surfaces.py names {op.owner}.{op.name}, which is no public method"
        )


@pytest.mark.parametrize("surface", SURFACES)
def test_every_adapter_the_table_names_exists(surface: str) -> None:
    offered = served()[surface]
    for op in OPERATIONS:
        reach: Reach = getattr(op, surface)
        if isinstance(reach, Absent):
            assert reach.reason.strip(), f"{op.owner}.{op.name}: absent from {surface}, why?"
            continue
        assert reach, f"{op.owner}.{op.name}: no {surface} adapter named (or an Absent)"
        unknown = sorted(named(reach, surface) - offered)
        assert not unknown, (
            f"kg_context/surfaces.py: {op.owner}.{op.name} names {surface} adapters that do not "
            f"exist: {unknown}"
        )
    stale = sorted(set(SURFACE_ONLY[surface]) - offered)
    assert not stale, f"SURFACE_ONLY[{surface!r}] names what the {surface} does not offer: {stale}"


@pytest.mark.parametrize("surface", SURFACES)
def test_every_adapter_reaches_an_operation_of_the_table(surface: str) -> None:
    homed = set(SURFACE_ONLY[surface])
    for op in OPERATIONS:
        homed |= named(getattr(op, surface), surface)
    homeless = sorted(served()[surface] - homed)
    assert not homeless, (
        f"{surface} adapters that reach no operation of kg_context/surfaces.py: {homeless} "
        "(name the method each calls, or list it in SURFACE_ONLY with a reason)"
    )


def test_the_walks_find_the_surfaces() -> None:
    found = served()
    assert {"halts resolve", "audit why-resident", "history walk", "serve"} <= found["cli"]
    assert {"GET /healthz", "POST /boundaries/{boundary_id}/commit"} <= found["http"]
    assert {"context", "propose", "recall"} <= found["mcp"]


def test_the_surfaces_page_shows_the_table() -> None:
    assert generated_part() == coverage_table(), (
        "docs/surfaces.md differs from kg_context/surfaces.py: python -m tests.docs_surfaces"
    )


def test_the_mcp_tool_list_is_the_servers_and_the_commands_help_names_it() -> None:
    """``kg-context mcp --help`` names the tools from the server's list, which is the tools it
    registers, so neither can drift."""
    assert TOOL_NAMES == MCP_TOOLS
    assert set(TOOL_NAMES) == mcp_tools()
    command: Any = typer.main.get_command(cli_app)
    text = " ".join((command.commands["mcp"].help or "").split())
    listed = ", ".join(TOOL_NAMES[:-1]) + f" and {TOOL_NAMES[-1]}"
    assert f"tools {listed}," in text
