"""The reference pages are the code's (no database): the configuration page lists every setting
the settings classes read, the HTTP page every route of the API's OpenAPI spec, the MCP page
every tool the server offers."""

from __future__ import annotations

import re
from typing import Any, cast

from kg_context.api.app import create_app
from kg_context.api.auth import TokenTable
from kg_context.api.mcp_server import TOOL_NAMES
from kg_context.settings import ApiSettings
from tests.docs_blocks import REPO, section
from tests.docs_reference import (
    generated_part,
    settings_classes,
    settings_table,
    variable,
)

HTTP = REPO / "docs" / "http.md"
MCP = REPO / "docs" / "mcp.md"
METHODS = ("get", "put", "post", "patch", "delete")


def test_the_configuration_page_lists_every_setting_as_the_classes_define_it() -> None:
    assert generated_part() == settings_table(), (
        "docs/configuration.md differs from the settings classes: python -m tests.docs_reference"
    )
    listed = set(re.findall(r"^\| `([A-Z0-9_]+)` \|", generated_part(), flags=re.M))
    every = {variable(g, f) for g in settings_classes() for f in g.model_fields}
    assert listed == every
    assert "KG_CONTEXT_RESIDENCY_CZAR_EVERY_COMMITS" in every and "NEO4J_URI" in every


def _route(method_and_path: str) -> str:
    """``GET /boundaries/{b}/recall?q=&k=`` -> ``GET /boundaries/{}/recall``."""
    method, path = method_and_path.split(" ", 1)
    template = re.sub(r"\{[^}]*\}", "{}", path.split("?")[0])
    return f"{method.upper()} {template}"


def test_the_http_page_lists_exactly_the_routes_of_the_openapi_spec() -> None:
    # The spec is built from the routes alone: no request is served, so no engine is needed.
    app = create_app(cast(Any, object()), ApiSettings(), TokenTable([]))
    spec = app.openapi()
    served = {
        _route(f"{method} {path}")
        for path, operations in spec["paths"].items()
        for method in operations
        if method in METHODS
    }
    table = section(HTTP, "## The HTTP API (orchestrators)")
    listed = {_route(m) for m in re.findall(r"^\| `([A-Z]+ /[^`]*)` \|", table, flags=re.M)}
    assert len(served) >= 20
    assert listed == served, (
        f"not in docs/http.md: {sorted(served - listed)}; not served: {sorted(listed - served)}"
    )


def test_the_mcp_page_lists_exactly_the_servers_tools() -> None:
    table = section(MCP, "## The MCP server")
    listed = re.findall(r"^\| `(\w+)` \| (?:reader|writer) \|", table, flags=re.M)
    assert listed == list(TOOL_NAMES)
