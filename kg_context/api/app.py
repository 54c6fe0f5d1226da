"""The HTTP API for orchestrators (FastAPI): a thin layer over the engine's Python API.

``create_app(engine, settings, tokens)`` builds the app over an open ``Engine``; ``serve``
runs it with uvicorn (``kg-context serve``). The OpenAPI spec is at ``/openapi.json`` (docs at
``/docs``). Every route but ``/healthz`` and the spec needs a bearer token (``auth``); every
error is a JSON problem (``problems``); request bodies over ``max_body_bytes`` are refused
before they are read in full; ``/metrics`` speaks the Prometheus text format (``metrics``).
No Cypher and no gate logic here: routes call ``Engine`` and ``BoundaryHandle`` methods.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from fastapi import Depends, FastAPI
from pydantic import BaseModel
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from kg_context.api import boundaries, history, operations, revocations
from kg_context.api.auth import TokenTable
from kg_context.api.deps import known_query_only
from kg_context.api.metrics import Metrics
from kg_context.api.problems import install_handlers, problem_response
from kg_context.engine import Engine
from kg_context.gate.io.collector import startup_frozen
from kg_context.settings import ApiSettings, load_settings

__all__ = ["create_app", "log_config", "serve"]

API_VERSION = "1"
access = logging.getLogger("kg_context.api.access")


class _BodyLimit:
    """Refuse a request body over ``limit`` bytes with a 413 problem: by its Content-Length
    before reading, or as soon as the bytes received pass the limit."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        declared = headers.get(b"content-length")
        too_large = problem_response(
            413, "too-large", f"a request body may hold at most {self.limit} bytes"
        )
        if declared is not None and (not declared.isdigit() or int(declared) > self.limit):
            await too_large(scope, receive, send)
            return
        chunks: list[bytes] = []
        size = 0
        more = True
        while more:
            message = await receive()
            if message["type"] != "http.request":
                break
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.limit:
                await too_large(scope, receive, send)
                return
            chunks.append(chunk)
            more = bool(message.get("more_body", False))
        body = b"".join(chunks)
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


class _Latency:
    """Time every request by method, route template (not the raw path) and status."""

    def __init__(self, app: ASGIApp, metrics: Metrics) -> None:
        self.app = app
        self.metrics = metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status = 500

        async def capture(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = int(message["status"])
            await send(message)

        try:
            await self.app(scope, receive, capture)
        finally:
            route = scope.get("route")
            template = getattr(route, "path_format", None) or "unmatched"
            took = time.perf_counter() - started
            method = scope.get("method", "")
            self.metrics.observe_request(method, template, status, took)
            # The access log: the route template, never the path or its query string (ids,
            # search text, or a secret a client put in a URL by mistake).
            access.info("%s %s %d %.1fms", method, template, status, took * 1000)


def create_app(
    engine: Engine, settings: ApiSettings | None = None, tokens: TokenTable | None = None
) -> FastAPI:
    """The API over an open engine. ``tokens`` default to the settings' token table."""
    settings = settings or load_settings(ApiSettings)
    app = FastAPI(
        title="kg-context",
        version=API_VERSION,
        summary="Governed context for agent teams: propose, read the window, attention, halts.",
        description=(
            "Every id under /boundaries/{boundary_id}/ is that boundary's. Writes are stamped "
            "with the bearer token's writer id and kind; a body claiming another is refused. "
            "Errors are application/problem+json."
        ),
        dependencies=[Depends(known_query_only)],
    )
    app.state.engine = engine
    app.state.settings = settings
    app.state.tokens = tokens if tokens is not None else TokenTable.from_settings(settings)
    app.state.metrics = Metrics()
    install_handlers(app)
    app.include_router(boundaries.router)
    app.include_router(history.router)
    app.include_router(operations.router)
    app.include_router(revocations.router)
    app.add_middleware(_BodyLimit, limit=settings.max_body_bytes)
    app.add_middleware(_Latency, metrics=app.state.metrics)
    _problem_schema(app)
    return app


def _problem_schema(app: FastAPI) -> None:
    """Publish the Problem schema and the request-body models in components (the routes refer
    to them)."""
    from kg_context.api.deps import BODY_MODELS
    from kg_context.api.problems import Problem

    build = app.openapi
    template = "#/components/schemas/{model}"

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            schema = build()
            components = schema.setdefault("components", {}).setdefault("schemas", {})
            models: list[type[BaseModel]] = [Problem, *BODY_MODELS]
            for model in models:
                published = model.model_json_schema(by_alias=True, ref_template=template)
                components.update(published.pop("$defs", {}))
                components[model.__name__] = published
            app.openapi_schema = schema
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]


def log_config() -> dict[str, Any]:
    """uvicorn's logging configuration, plus the server's own loggers: the API's (``kg_context``,
    errors answered 5xx) and the driver's (``neo4j``, warnings such as a dropped connection) go
    to the server's log (stderr) through the same formatter, at WARNING and above, and the access
    log (``kg_context.api.access``: method, route template, status, duration) at INFO. Nothing
    in them carries a password or a token: messages name URIs, templates, ids and codes only."""
    import copy

    from uvicorn.config import LOGGING_CONFIG

    config: dict[str, Any] = copy.deepcopy(LOGGING_CONFIG)
    for name in ("kg_context", "neo4j"):
        config["loggers"][name] = {"handlers": ["default"], "level": "WARNING", "propagate": False}
    config["loggers"]["kg_context.api.access"] = {
        "handlers": ["default"],
        "level": "INFO",
        "propagate": False,
    }
    return config


def serve(
    settings: ApiSettings | None = None, *, engine: Engine | None = None, log_level: str = "info"
) -> None:
    """Run the API with uvicorn until interrupted (``kg-context serve``)."""
    import uvicorn

    settings = settings or load_settings(ApiSettings)
    tokens = TokenTable.from_settings(settings)
    owned = engine is None
    engine = engine or Engine.connect()
    try:
        engine.ping()
        app = create_app(engine, settings, tokens)
        startup_frozen()  # what startup made stays out of every full collection
        uvicorn.run(
            app,
            host=settings.host,
            port=settings.port,
            log_level=log_level,
            log_config=log_config(),
            access_log=False,  # ours (kg_context.api.access) logs route templates, not paths
        )
    finally:
        if owned:
            engine.close()
