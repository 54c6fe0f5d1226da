"""Routes on one boundary: its state, proposals and sets, the window and the context, stats, why,
recall, invalidation. Every id under ``/boundaries/{boundary_id}/`` is that boundary's."""

from __future__ import annotations

from dataclasses import asdict
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import JSONResponse, PlainTextResponse, Response

from kg_context.api.auth import Principal, Scope, require
from kg_context.api.deps import (
    BoundaryId,
    EntryId,
    body_spec,
    engine_of,
    existing,
    json_body,
    not_found,
    stamp,
)
from kg_context.api.models import (
    AdmissionOut,
    AdmitIn,
    BoundaryIn,
    BoundaryOut,
    DecisionOut,
    DecisionsOut,
    InvalidationIn,
    InvalidationOut,
    ProposalBody,
    SubmissionOut,
)
from kg_context.api.problems import ProblemError, responses

__all__ = ["router"]

router = APIRouter(prefix="/boundaries/{boundary_id}")

Reader = Annotated[Principal, Depends(require(Scope.READER))]
Writer = Annotated[Principal, Depends(require(Scope.WRITER))]
Operator = Annotated[Principal, Depends(require(Scope.OPERATOR))]
BoundaryBody = Annotated[BoundaryIn, Depends(json_body(BoundaryIn, optional=True))]


def _body(
    body: ProposalBody,
    principal: Principal,
    boundary_id: str,
) -> dict[str, Any]:
    return stamp(body.model_dump(mode="json", by_alias=True), principal, boundary_id)


@router.put(
    "",
    response_model=BoundaryOut,
    tags=["boundaries"],
    responses=responses(403, 413, 422),
    openapi_extra=body_spec(BoundaryIn, required=False),
    summary="Create a boundary (default constitution), or read it if it exists",
)
def put_boundary(
    request: Request, boundary_id: BoundaryId, principal: Operator, body: BoundaryBody
) -> BoundaryOut:
    wanted = body
    handle = engine_of(request).boundary(
        boundary_id, verse=wanted.verse.value, task_horizon=wanted.task_horizon
    )
    return BoundaryOut.of(handle.state())


@router.get(
    "",
    response_model=BoundaryOut,
    tags=["boundaries"],
    responses=responses(403, 404),
    summary="A boundary's state: seq, verse, constitution version",
)
def get_boundary(request: Request, boundary_id: BoundaryId, principal: Reader) -> BoundaryOut:
    return BoundaryOut.of(existing(request, boundary_id).state())


@router.post(
    "/proposals",
    response_model=SubmissionOut,
    tags=["proposals"],
    responses=responses(403, 404, 413, 422),
    openapi_extra=body_spec(ProposalBody),
    summary="Submit one proposal (pending until a close)",
)
def submit(
    request: Request,
    boundary_id: BoundaryId,
    principal: Writer,
    body: Annotated[ProposalBody, Depends(json_body(ProposalBody))],
) -> SubmissionOut:
    boundary = existing(request, boundary_id)
    (submission,) = boundary.submit(_body(body, principal, boundary_id))
    return SubmissionOut(**asdict(submission))


@router.post(
    "/close",
    response_model=DecisionsOut,
    tags=["proposals"],
    responses=responses(403, 404),
    summary="Close every pending proposal into sets; the gate decides each (with receipts)",
)
def close(request: Request, boundary_id: BoundaryId, principal: Writer) -> DecisionsOut:
    decisions = existing(request, boundary_id).close()
    request.app.state.metrics.count_decisions(decisions)
    return DecisionsOut(decisions=[DecisionOut.of(d) for d in decisions])


@router.post(
    "/commit",
    response_model=DecisionOut,
    tags=["proposals"],
    responses=responses(403, 404, 413, 422),
    openapi_extra=body_spec(ProposalBody),
    summary="Submit one proposal and close: the decision of its set, with the receipt id",
)
def commit(
    request: Request,
    boundary_id: BoundaryId,
    principal: Writer,
    body: Annotated[ProposalBody, Depends(json_body(ProposalBody))],
) -> DecisionOut:
    decision = existing(request, boundary_id).commit(_body(body, principal, boundary_id))
    request.app.state.metrics.count_decisions([decision])
    return DecisionOut.of(decision)


@router.get(
    "/proposals/{proposal_id:path}/decision",
    response_model=DecisionOut,
    tags=["proposals"],
    responses=responses(403, 404),
    summary="What the gate decided for a proposal (404 while it is pending or unknown)",
)
def decision(
    request: Request, boundary_id: BoundaryId, proposal_id: EntryId, principal: Reader
) -> DecisionOut:
    found = existing(request, boundary_id).decision(proposal_id)
    if found is None or found.boundary_id != boundary_id:
        raise ProblemError(
            404,
            "not-found",
            f"no decided proposal {proposal_id} in boundary {boundary_id}",
            context={"boundary_id": boundary_id, "proposal_id": proposal_id},
        )
    return DecisionOut.of(found)


@router.get(
    "/window",
    tags=["residency"],
    responses=responses(403, 404),
    summary="The resident entries in prompt order, by class, with status tags and tokens",
)
def get_window(request: Request, boundary_id: BoundaryId, principal: Reader) -> dict[str, Any]:
    return existing(request, boundary_id).window().as_dict()


@router.get(
    "/context",
    response_class=PlainTextResponse,
    tags=["residency"],
    responses={
        200: {
            "description": "The context text; with format=json, the text, tokens and manifest",
            "content": {
                "text/plain": {"schema": {"type": "string"}},
                "application/json": {"schema": {"type": "object"}},
            },
        },
        **responses(403, 404, 422),
    },
    summary="The window as a budgeted, citable context block (text, or format=json: +manifest)",
)
def get_context(
    request: Request,
    boundary_id: BoundaryId,
    principal: Reader,
    budget: Annotated[int, Query(ge=0, le=10_000_000)],
    q: Annotated[str | None, Query(min_length=1, max_length=2000)] = None,
    output: Annotated[Literal["text", "json"], Query(alias="format")] = "text",
) -> Response:
    found = existing(request, boundary_id).context(budget, query=q)
    if output == "json":
        return JSONResponse(found.as_dict())
    return PlainTextResponse(found.text)


@router.get(
    "/stats",
    tags=["residency"],
    responses=responses(403, 404),
    summary="Retention ratio, resident tokens, set and halt counts",
)
def get_stats(request: Request, boundary_id: BoundaryId, principal: Reader) -> dict[str, Any]:
    return existing(request, boundary_id).stats().as_dict()


@router.get(
    "/brief",
    tags=["residency"],
    responses=responses(403, 404, 422),
    summary="The operator's briefing since a seq (default: the last recorded one's), a read",
)
def get_brief(
    request: Request,
    boundary_id: BoundaryId,
    principal: Operator,
    since: Annotated[int | None, Query(ge=0, le=2**62)] = None,
) -> dict[str, Any]:
    return existing(request, boundary_id).brief(since_seq=since).as_dict()


@router.post(
    "/briefings",
    tags=["residency"],
    responses=responses(403, 404, 422),
    summary="Record the operator's briefing since a seq: the next one starts at its seq",
)
def post_briefing(
    request: Request,
    boundary_id: BoundaryId,
    principal: Operator,
    since: Annotated[int | None, Query(ge=0, le=2**62)] = None,
) -> dict[str, Any]:
    return existing(request, boundary_id).record_brief(since_seq=since).as_dict()


@router.get(
    "/entries/{entry_id:path}/why",
    tags=["residency"],
    responses=responses(403, 404),
    summary="The root path that keeps an entry resident (no nodes: nothing holds it)",
)
def get_why(
    request: Request, boundary_id: BoundaryId, entry_id: EntryId, principal: Reader
) -> dict[str, Any]:
    boundary = existing(request, boundary_id)
    with not_found():
        path = boundary.why(entry_id)
    return path.as_dict()


@router.get(
    "/recall",
    tags=["recall"],
    responses=responses(403, 404, 422),
    summary="Candidates from the record for a query, status-tagged (changes nothing)",
)
def get_recall(
    request: Request,
    boundary_id: BoundaryId,
    principal: Reader,
    q: Annotated[str, Query(min_length=1, max_length=2000)],
    k: Annotated[int, Query(ge=1, le=100)] = 10,
) -> list[dict[str, Any]]:
    hits = existing(request, boundary_id).recall(q, k=k)
    return [h.as_dict() for h in hits]


@router.post(
    "/recall/admit",
    response_model=AdmissionOut,
    tags=["recall"],
    responses=responses(403, 404, 413, 422),
    openapi_extra=body_spec(AdmitIn),
    summary="Propose scratch copies of recalled entries through the gate (one use)",
)
def admit(
    request: Request,
    boundary_id: BoundaryId,
    principal: Writer,
    body: Annotated[AdmitIn, Depends(json_body(AdmitIn))],
) -> AdmissionOut:
    boundary = existing(request, boundary_id)
    admission = boundary.admit(
        body.entry_ids, writer_id=principal.writer_id, writer_kind=principal.writer_kind
    )
    request.app.state.metrics.count_decisions([admission.decision])
    return AdmissionOut(
        decision=DecisionOut.of(admission.decision),
        copies=dict(admission.copies),
        cut=list(admission.cut),
    )


@router.post(
    "/invalidations",
    response_model=InvalidationOut,
    tags=["invalidation"],
    responses=responses(403, 404, 413, 422),
    openapi_extra=body_spec(InvalidationIn),
    summary="Challenge or invalidate an entry or a set: its blast radius through the gate",
)
def invalidation(
    request: Request,
    boundary_id: BoundaryId,
    principal: Writer,
    body: Annotated[InvalidationIn, Depends(json_body(InvalidationIn))],
) -> InvalidationOut:
    boundary = existing(request, boundary_id)
    run = boundary.challenge if body.mode == "challenge" else boundary.invalidate
    with not_found():
        result = run(
            body.target,
            reason=body.reason,
            writer_id=principal.writer_id,
            writer_kind=principal.writer_kind,
        )
    request.app.state.metrics.count_decisions(list(result.decisions))
    return InvalidationOut.model_validate(result.as_dict())
