"""The serving processes (``kg-context serve``, ``kg-context mcp``) move what their startup made out
of the cyclic collector's reach before they serve, and nothing else does. Without a database: the
engine, the app and the servers' run loops are stand-ins that record what the collector held
frozen when serving began."""

from __future__ import annotations

import gc
import json
from collections.abc import Iterator
from typing import Any

import pytest
import uvicorn
from pydantic import SecretStr

import kg_context.api.app as api_app
import kg_context.api.mcp_server as mcp_server
from kg_context.gate.io.collector import startup_frozen
from kg_context.settings import ApiSettings

TOKEN = "a-token-of-enough-length-0123456789"
TOKENS = json.dumps(
    [{"token": TOKEN, "scope": "writer", "writer_id": "planner", "writer_kind": "agent"}]
)


class _Engine:
    def ping(self) -> None:
        return None

    def boundary(self, boundary_id: str, *, create: bool = True) -> None:
        return None


@pytest.fixture(autouse=True)
def _unfrozen() -> Iterator[None]:
    gc.unfreeze()
    yield
    gc.unfreeze()


def test_startup_frozen_moves_every_object_so_far_out_of_the_collector() -> None:
    made = [[n] for n in range(1000)]  # tracked by the collector (lists are)
    tracked = len(gc.get_objects())
    assert gc.get_freeze_count() == 0 and tracked > len(made)
    startup_frozen()
    assert gc.get_freeze_count() >= tracked * 0.9  # all but the garbage collect() freed
    assert not gc.get_objects(generation=2)  # nothing left for a full collection to walk


def test_the_http_api_serves_with_its_startup_frozen(monkeypatch: pytest.MonkeyPatch) -> None:
    frozen: list[int] = []
    monkeypatch.setattr(api_app, "create_app", lambda *args: object())
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: frozen.append(gc.get_freeze_count()))
    api_app.serve(ApiSettings(tokens=SecretStr(TOKENS)), engine=_Engine())  # type: ignore[arg-type]
    assert len(frozen) == 1 and frozen[0] > 0


@pytest.mark.parametrize("transport", ["stdio", "streamable-http"])
def test_the_mcp_server_serves_with_its_startup_frozen(
    monkeypatch: pytest.MonkeyPatch, transport: str
) -> None:
    frozen: list[int] = []

    class _Server:
        def run(self, *args: Any, **kw: Any) -> None:
            frozen.append(gc.get_freeze_count())

    monkeypatch.setenv("KG_CONTEXT_API_TOKENS", TOKENS)
    monkeypatch.setenv("KG_CONTEXT_MCP_TOKEN", TOKEN)
    monkeypatch.setattr(mcp_server, "create_mcp_server", lambda *args, **kw: _Server())
    mcp_server.serve_mcp("team-7", transport=transport, engine=_Engine())  # type: ignore[arg-type]
    assert len(frozen) == 1 and frozen[0] > 0
