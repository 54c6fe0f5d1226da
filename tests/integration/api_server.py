"""A real kg-context HTTP server for tests: uvicorn on a free local port, in a thread, over the
suite's engine (the real database), with tokens made up per run."""

from __future__ import annotations

import secrets
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import requests
import uvicorn

from kg_context.api import TokenSpec, TokenTable, create_app
from kg_context.settings import ApiSettings

MAX_BODY_BYTES = 65_536


@dataclass(frozen=True)
class Server:
    url: str
    tokens: dict[str, str]  # role -> token

    def call(
        self, method: str, path: str, role: str | None = "writer", **kwargs: Any
    ) -> requests.Response:
        headers = dict(kwargs.pop("headers", {}))
        if role is not None:
            headers["Authorization"] = f"Bearer {self.tokens[role]}"
        return requests.request(method, self.url + path, headers=headers, timeout=120, **kwargs)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def token_specs(fenced_boundary: str) -> tuple[dict[str, str], list[TokenSpec]]:
    roles = {
        "writer": ("writer", "planner-api", "agent", None),
        "critic": ("writer", "critic-api", "agent", None),
        "reader": ("reader", "dashboard-api", "tool", None),
        "operator": ("operator", "operator", "operator", None),
        # Tokens the server accepts, for ids the boundary's constitution does not name: an
        # operator and a czar by their own say-so (the gate and the halts refuse their acts).
        "rogue_operator": ("operator", "ops-rogue", "operator", None),
        "rogue_czar": ("writer", "czar-rogue", "czar", None),
        "fenced": ("writer", "fenced-api", "agent", [fenced_boundary]),
    }
    tokens = {role: secrets.token_urlsafe(32) for role in roles}
    specs = [
        TokenSpec.model_validate(
            {
                "token": tokens[role],
                "scope": scope,
                "writer_id": writer_id,
                "writer_kind": kind,
                "boundaries": boundaries,
            }
        )
        for role, (scope, writer_id, kind, boundaries) in roles.items()
    ]
    return tokens, specs


@contextmanager
def running(
    engine: Any, fenced_boundary: str, *, max_body_bytes: int = MAX_BODY_BYTES
) -> Iterator[Server]:
    tokens, specs = token_specs(fenced_boundary)
    settings = ApiSettings(max_body_bytes=max_body_bytes, metrics_max_boundaries=100_000)
    app = create_app(engine, settings, TokenTable(specs))
    port = _free_port()
    server = uvicorn.Server(
        uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="off")
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the test API server did not start")
        time.sleep(0.05)
    try:
        yield Server(f"http://127.0.0.1:{port}", tokens)
    finally:
        server.should_exit = True
        thread.join(timeout=30)
