"""Revocations over HTTP: an operator token revokes, in one boundary, a writer's registration, an
adoption receipt, a foundational mark, or an API credential (its sha256); anyone reads the list.
The revoking operator is the token's identity, never a body field."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Request
from pydantic import BaseModel, ConfigDict, Field

from kg_context.api.auth import Principal, Scope, require
from kg_context.api.deps import BoundaryId, body_spec, existing, json_body
from kg_context.api.problems import responses
from kg_context.gate.io.revocation import Revocation, RevocationSubject

__all__ = ["RevocationIn", "router"]

router = APIRouter()
Reader = Annotated[Principal, Depends(require(Scope.READER))]
Operator = Annotated[Principal, Depends(require(Scope.OPERATOR))]


class RevocationIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    subject: RevocationSubject
    subject_id: str = Field(
        min_length=1,
        max_length=512,
        description="A writer id, an adoption receipt id, an entry id, or a credential's sha256",
    )
    reason: str = Field(min_length=1, max_length=2000)


@router.post(
    "/boundaries/{boundary_id}/revocations",
    response_model=Revocation,
    tags=["revocations"],
    responses=responses(403, 404, 409, 413, 422),
    openapi_extra=body_spec(RevocationIn),
    summary="Revoke a writer, an adoption receipt, a foundational mark or a credential",
)
def revoke(
    request: Request,
    boundary_id: BoundaryId,
    principal: Operator,
    body: Annotated[RevocationIn, Depends(json_body(RevocationIn))],
) -> dict[str, object]:
    boundary = existing(request, boundary_id)
    return boundary.revoke(
        body.subject, body.subject_id, operator_id=principal.writer_id, reason=body.reason
    ).as_dict()


@router.get(
    "/boundaries/{boundary_id}/revocations",
    response_model=list[Revocation],
    tags=["revocations"],
    responses=responses(403, 404),
    summary="The boundary's revocations, oldest first",
)
def revocations(
    request: Request, boundary_id: BoundaryId, principal: Reader
) -> list[dict[str, object]]:
    return [r.as_dict() for r in existing(request, boundary_id).revocations()]
