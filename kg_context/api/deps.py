"""What every route shares: the engine, handles on existing boundaries, identity stamping."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from typing import Annotated, Any, TypeVar

from fastapi import Path, Request
from fastapi.exceptions import RequestValidationError
from pydantic import BaseModel, ValidationError

from kg_context.api.auth import Principal
from kg_context.api.problems import ProblemError
from kg_context.engine import BoundaryHandle, Engine
from kg_context.errors import StateError
from kg_context.gate.pure.contracts import Proposal, parse_proposal
from kg_context.gate.pure.decision import Decision

__all__ = [
    "BODY_MODELS",
    "BOUNDARY_ID_PATTERN",
    "BoundaryId",
    "EntryId",
    "StampedSink",
    "body_spec",
    "engine_of",
    "existing",
    "json_body",
    "known_query_only",
    "not_found",
    "stamp",
]

M = TypeVar("M", bound=BaseModel)
# The request-body models the spec publishes in its components (``body_spec`` refers to them).
BODY_MODELS: list[type[BaseModel]] = []


def known_query_only(request: Request) -> None:
    """Refuse query parameters the route does not take (a typo is an error, not ignored)."""
    allowed: set[str] = set()
    pending = [getattr(request.scope.get("route"), "dependant", None)]
    while pending:
        dependant = pending.pop()
        if dependant is not None:
            allowed.update(str(param.alias) for param in dependant.query_params)
            pending.extend(dependant.dependencies)
    unknown = sorted(set(request.query_params) - allowed)
    if unknown:
        raise ProblemError(
            422,
            "invalid-input",
            f"unknown query parameters {unknown}; this route takes {sorted(allowed) or 'none'}",
        )


def json_body(model: type[M], *, optional: bool = False) -> Callable[[Request], Awaitable[M]]:
    """A dependency: the request body as ``model``, validated strictly from the JSON text (no
    coercion: ``true`` is not ``1`` and ``"1"`` is not a number), a 422 problem otherwise.

    A route declares its principal (``require``) before its body: FastAPI resolves dependencies
    in order, so who is asking is settled (401, 403) before a byte of the body is parsed."""

    async def dependency(request: Request) -> M:
        raw = await request.body()
        if optional and not raw.strip():
            return model()
        try:
            return model.model_validate_json(raw, strict=True)
        except ValidationError as error:
            errors = [{**e, "loc": ("body", *e["loc"])} for e in error.errors(include_url=False)]
            raise RequestValidationError(errors) from None

    return dependency


def body_spec(model: type[BaseModel], *, required: bool = True) -> dict[str, Any]:
    """``openapi_extra`` documenting ``model`` as the JSON request body."""
    if model not in BODY_MODELS:
        BODY_MODELS.append(model)
    ref = {"$ref": f"#/components/schemas/{model.__name__}"}
    return {"requestBody": {"required": required, "content": {"application/json": {"schema": ref}}}}


# Path parameters: a boundary id is one path segment; an entry, set, proposal or halt id may
# hold "/" (``db/2``), so those routes take the rest of the path up to their suffix.
BOUNDARY_ID_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9._:#@+-]{0,199}$"
BoundaryId = Annotated[str, Path(pattern=BOUNDARY_ID_PATTERN, description="A boundary id")]
EntryId = Annotated[str, Path(pattern=r"^[A-Za-z0-9][A-Za-z0-9._:/#@+-]{0,199}$")]


def engine_of(request: Request) -> Engine:
    engine: Engine = request.app.state.engine
    return engine


def existing(request: Request, boundary_id: str) -> BoundaryHandle:
    """A handle on a boundary that exists (reads and writes never create one: 404)."""
    with not_found():
        return engine_of(request).boundary(boundary_id, create=False)


@contextmanager
def not_found() -> Iterator[None]:
    """A lookup by id: the library's ``StateError`` ("no X") is a 404 here."""
    try:
        yield
    except StateError as error:
        raise ProblemError(404, "not-found", str(error), context=error.context) from None


def stamp(data: dict[str, Any], principal: Principal, boundary_id: str) -> dict[str, Any]:
    """The body with the token's writer id and kind and the path's boundary filled in; a body
    that names another writer, kind or boundary is refused (nothing is recorded)."""
    for field, own in (("writer_id", principal.writer_id), ("writer_kind", principal.writer_kind)):
        claimed = data.get(field)
        if claimed is not None and claimed != own:
            raise ProblemError(
                403,
                "identity-mismatch",
                f"this token writes as {field}={own}; the body claims {claimed}",
                context={"boundary_id": boundary_id, "writer_id": principal.writer_id},
            )
    claimed_boundary = data.get("boundary_id")
    if claimed_boundary is not None and claimed_boundary != boundary_id:
        raise ProblemError(
            422,
            "invalid-input",
            f"the body names boundary {claimed_boundary}; the path names {boundary_id}",
            context={"boundary_id": boundary_id},
        )
    return {
        **data,
        "writer_id": principal.writer_id,
        "writer_kind": principal.writer_kind.value,
        "boundary_id": boundary_id,
    }


class StampedSink:
    """The gate of one boundary, as attention reaches it from HTTP: every proposal is written
    by the token's identity (a broadcast's specialist ids label the wave; they never become
    writer identities through the API)."""

    def __init__(self, handle: BoundaryHandle, principal: Principal) -> None:
        self._handle = handle
        self._principal = principal
        self.decisions: list[Decision] = []

    def commit(self, proposal: Proposal) -> Decision:
        data = proposal.model_dump(mode="json", by_alias=True)
        data.update(
            writer_id=self._principal.writer_id, writer_kind=self._principal.writer_kind.value
        )
        decision = self._handle.commit(parse_proposal(data))
        self.decisions.append(decision)
        return decision
