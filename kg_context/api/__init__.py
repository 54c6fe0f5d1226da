"""The HTTP API (FastAPI): ``create_app`` over an open engine, ``serve`` with uvicorn."""

from kg_context.api.app import create_app, serve
from kg_context.api.auth import Principal, Scope, TokenSpec, TokenTable

__all__ = ["Principal", "Scope", "TokenSpec", "TokenTable", "create_app", "serve"]
