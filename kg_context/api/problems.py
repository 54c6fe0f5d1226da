"""Every error the HTTP API answers is a JSON problem (RFC 9457, ``application/problem+json``):
a ``type`` (a stable URN naming the kind of problem), a ``title``, the ``status``, a ``detail``
(the one-line message, the same a CLI user reads) and, where the error names any, a ``context``
(the boundary, halt, set, entry, proposal, writer and reason code it is about: the error's
attributes, so a client never parses the message). Never a stack trace: an unexpected error is
logged on the server and answered as ``internal`` with no detail of its insides.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException as StarletteHTTPException

from kg_context.errors import (
    AuthenticationError,
    AuthorizationError,
    CatalogError,
    ConfigurationError,
    DatabaseError,
    DatabaseUnavailableError,
    EmbeddingError,
    InputValidationError,
    KgContextError,
    StateError,
)

__all__ = [
    "PROBLEM_MEDIA_TYPE",
    "Problem",
    "ProblemContext",
    "ProblemError",
    "install_handlers",
    "problem_response",
    "responses",
]

log = logging.getLogger("kg_context.api")

PROBLEM_MEDIA_TYPE = "application/problem+json"
_URN = "urn:kg-context:problem:"

# kind -> (title, the statuses it is answered with)
TITLES: dict[str, str] = {
    "unauthenticated": "Missing or unknown bearer token",
    "forbidden": "The token may not do this",
    "credential-revoked": "An operator revoked this token for this boundary",
    "identity-mismatch": "The body claims another writer than the token's",
    "not-found": "No such thing",
    "method-not-allowed": "Method not allowed",
    "conflict": "The record does not allow this now",
    "too-large": "Request body too large",
    "unsupported-media-type": "Unsupported media type",
    "invalid-input": "Invalid input; nothing was changed",
    "configuration": "The server cannot do this as configured",
    "database-unavailable": "The database does not answer",
    "internal": "Internal error",
}


class ProblemDetail(BaseModel):
    """Where validation failed and why (no input is echoed back)."""

    loc: list[str | int]
    msg: str


class ProblemContext(BaseModel):
    """What the error is about, each field only where it applies (the error's attributes)."""

    boundary_id: str | None = Field(default=None, description="The boundary")
    reason_code: str | None = Field(
        default=None, description="The reason code (e.g. NOT_OPERATOR, RESERVED_ID)"
    )
    halt_id: str | None = Field(default=None, description="The halt")
    set_id: str | None = Field(default=None, description="The set")
    entry_id: str | None = Field(default=None, description="The entry")
    proposal_id: str | None = Field(default=None, description="The proposal")
    writer_id: str | None = Field(
        default=None, description="The writer or operator who asked, or whom the error names"
    )


class Problem(BaseModel):
    """An error answer (RFC 9457)."""

    type: str = Field(description="urn:kg-context:problem:<kind>")
    title: str
    status: int
    detail: str = Field(description="The one-line message: what failed and what to do")
    errors: list[ProblemDetail] | None = None
    context: ProblemContext | None = Field(
        default=None,
        description="What the error is about (only the fields that apply); read ids here, "
        "never out of detail",
    )


class ProblemError(Exception):
    """Raised in the API layer to answer a problem."""

    def __init__(
        self,
        status: int,
        kind: str,
        detail: str,
        headers: dict[str, str] | None = None,
        *,
        context: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(detail)
        self.status = status
        self.kind = kind
        self.detail = detail
        self.headers = headers
        self.context = dict(context) if context else None


def problem_response(
    status: int,
    kind: str,
    detail: str,
    *,
    headers: dict[str, str] | None = None,
    errors: list[ProblemDetail] | None = None,
    context: Mapping[str, str] | None = None,
) -> JSONResponse:
    body = Problem(
        type=_URN + kind,
        title=TITLES[kind],
        status=status,
        detail=detail,
        errors=errors,
        context=ProblemContext(**context) if context else None,
    )
    return JSONResponse(
        body.model_dump(exclude_none=True),
        status_code=status,
        media_type=PROBLEM_MEDIA_TYPE,
        headers=headers,
    )


def _status_for(error: KgContextError) -> tuple[int, str]:
    if isinstance(error, InputValidationError):
        return 422, "invalid-input"
    if isinstance(error, StateError):
        return 409, "conflict"
    if isinstance(error, AuthorizationError):
        return 403, "forbidden"
    if isinstance(error, DatabaseUnavailableError | AuthenticationError):
        return 503, "database-unavailable"
    if isinstance(error, ConfigurationError | CatalogError | EmbeddingError | DatabaseError):
        return 500, "configuration" if isinstance(error, ConfigurationError) else "internal"
    return 500, "internal"


_STARLETTE_KINDS = {404: "not-found", 405: "method-not-allowed", 413: "too-large"}


def install_handlers(app: FastAPI) -> None:
    """Answer every error as a problem."""

    @app.exception_handler(ProblemError)
    async def _problem(_request: Request, error: ProblemError) -> JSONResponse:
        return problem_response(
            error.status, error.kind, error.detail, headers=error.headers, context=error.context
        )

    @app.exception_handler(RequestValidationError)
    async def _invalid(_request: Request, error: RequestValidationError) -> JSONResponse:
        errors = [
            ProblemDetail(loc=[str(p) for p in e.get("loc", ())], msg=str(e.get("msg", "")))
            for e in error.errors()
        ]
        first = f"{'.'.join(str(p) for p in errors[0].loc)}: {errors[0].msg}" if errors else ""
        return problem_response(
            422, "invalid-input", f"the request does not validate: {first}", errors=errors
        )

    @app.exception_handler(StarletteHTTPException)
    async def _http(_request: Request, error: StarletteHTTPException) -> JSONResponse:
        kind = _STARLETTE_KINDS.get(error.status_code, "invalid-input")
        status = error.status_code if kind != "invalid-input" else 422
        detail = str(error.detail) if error.detail else TITLES[kind]
        return problem_response(
            status, kind, detail, headers=dict(error.headers) if error.headers else None
        )

    @app.exception_handler(KgContextError)
    async def _library(request: Request, error: KgContextError) -> JSONResponse:
        status, kind = _status_for(error)
        if status >= 500:
            log.error("kg-context API: %s: %s", type(error).__name__, error)
        headers = None
        if status == 503:
            # The client may come back: say when (RFC 9110, 10.2.3).
            retry_after = getattr(request.app.state.settings, "retry_after_s", 5)
            headers = {"Retry-After": str(retry_after)}
        return problem_response(status, kind, str(error), headers=headers, context=error.context)

    @app.exception_handler(Exception)
    async def _unexpected(request: Request, error: Exception) -> JSONResponse:
        log.exception("kg-context API: unexpected error on %s %s", request.method, request.url)
        return problem_response(
            500, "internal", "an unexpected error; the server logged it (please report it)"
        )


def _problem_content() -> dict[str, Any]:
    return {PROBLEM_MEDIA_TYPE: {"schema": {"$ref": "#/components/schemas/Problem"}}}


_DESCRIPTIONS = {
    401: "Missing or unknown bearer token",
    403: "The token's scope, identity or boundaries do not allow this",
    404: "No such boundary, entry, set, halt, proposal or route",
    409: "The record does not allow this now (e.g. a halt no longer open)",
    413: "The request body is larger than the server accepts",
    422: "The input does not validate; nothing was changed",
    503: "The database does not answer; Retry-After says when to try again",
}


def responses(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The problem answers a route documents: 401, 403, 404, 409, 422 and 503 always (the
    library may refuse any request as not found, conflicting or invalid), and ``statuses``."""
    wanted = sorted({401, 403, 404, 409, 422, 503, *statuses})
    return {
        status: {
            "model": Problem,
            "description": _DESCRIPTIONS[status],
            "content": _problem_content(),
            **({"headers": _RETRY_AFTER} if status == 503 else {}),
        }
        for status in wanted
    }


_RETRY_AFTER = {
    "Retry-After": {
        "description": "Seconds to wait before trying again (KG_CONTEXT_API_RETRY_AFTER_S)",
        "required": True,
        "schema": {"type": "string", "pattern": "^[0-9]+$"},
    }
}
