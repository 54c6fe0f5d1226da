"""History routes of one boundary: the index, the ledger walk of a set, as-of, and search."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Query, Request

from kg_context.api.auth import Principal, Scope, require
from kg_context.api.deps import BoundaryId, EntryId, existing, not_found
from kg_context.api.problems import responses

__all__ = ["router"]

router = APIRouter(prefix="/boundaries/{boundary_id}/history", tags=["history"])
Reader = Annotated[Principal, Depends(require(Scope.READER))]
_MAX_SEQ = 2**62


@router.get(
    "",
    responses=responses(403, 404, 422),
    summary="Every ratified set in ledger order: seq, id, kind, where its entries stand",
)
def history_index(
    request: Request,
    boundary_id: BoundaryId,
    principal: Reader,
    from_seq: Annotated[int, Query(ge=0, le=_MAX_SEQ)] = 0,
    to_seq: Annotated[int | None, Query(ge=0, le=_MAX_SEQ)] = None,
    limit: Annotated[int, Query(ge=1, le=10_000)] = 1000,
) -> list[dict[str, Any]]:
    boundary = existing(request, boundary_id)
    return [
        line.as_dict()
        for line in boundary.history_index(from_seq=from_seq, to_seq=to_seq, limit=limit)
    ]


@router.get(
    "/sets/{set_id:path}",
    responses=responses(403, 404),
    summary="Walk one set: what it decided, superseded, depended on; what later happened",
)
def history_walk(
    request: Request, boundary_id: BoundaryId, set_id: EntryId, principal: Reader
) -> dict[str, Any]:
    boundary = existing(request, boundary_id)
    with not_found():
        opened = boundary.walk(set_id)
    return opened.as_dict()


@router.get(
    "/as-of/{seq}",
    responses=responses(403, 404, 422),
    summary="The record and the window as they stood right after a seq (from the ledger)",
)
def history_as_of(
    request: Request,
    boundary_id: BoundaryId,
    seq: Annotated[int, Path(ge=0, le=_MAX_SEQ)],
    principal: Reader,
) -> dict[str, Any]:
    boundary = existing(request, boundary_id)
    with not_found():
        view = boundary.as_of(seq)
    return view.as_dict()


@router.get(
    "/search",
    responses=responses(403, 404, 422),
    summary="Search the record: set ids with status, never passages",
)
def history_search(
    request: Request,
    boundary_id: BoundaryId,
    principal: Reader,
    q: Annotated[str, Query(min_length=1, max_length=2000)],
    k: Annotated[int, Query(ge=1, le=100)] = 10,
) -> list[dict[str, Any]]:
    return [hit.as_dict() for hit in existing(request, boundary_id).search(q, k=k)]
