"""Attention, halts, and the operational routes (``/healthz``, ``/metrics``)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Path, Query, Request
from fastapi.responses import PlainTextResponse

from kg_context.api.auth import Principal, Scope, require
from kg_context.api.deps import (
    BOUNDARY_ID_PATTERN,
    BoundaryId,
    EntryId,
    StampedSink,
    body_spec,
    engine_of,
    existing,
    json_body,
    not_found,
)
from kg_context.api.metrics import CONTENT_TYPE
from kg_context.api.models import (
    HaltOut,
    HaltViewOut,
    HealthOut,
    ResolutionIn,
    ResolutionOut,
    ScoreOut,
    WaveIn,
    WaveOut,
    WaveOutcomeOut,
    WaveProposalOut,
)
from kg_context.api.problems import ProblemError, responses
from kg_context.attention import WorkspaceAttention
from kg_context.vocabulary import AttentionScope, HaltStatus

__all__ = ["router"]

router = APIRouter()
Reader = Annotated[Principal, Depends(require(Scope.READER))]
Writer = Annotated[Principal, Depends(require(Scope.WRITER))]
Operator = Annotated[Principal, Depends(require(Scope.OPERATOR))]
SpecialistId = Annotated[str, Path(pattern=r"^[A-Za-z0-9][A-Za-z0-9._:#@+-]{0,199}$")]


@router.post(
    "/boundaries/{boundary_id}/attention/waves",
    response_model=WaveOut,
    tags=["attention"],
    responses=responses(403, 404, 413, 422),
    openapi_extra=body_spec(WaveIn),
    summary="Score specialist outputs, record the wave, propose the winners to the gate",
)
def broadcast(
    request: Request,
    boundary_id: BoundaryId,
    principal: Writer,
    body: Annotated[WaveIn, Depends(json_body(WaveIn))],
) -> WaveOut:
    boundary = existing(request, boundary_id)
    sink = StampedSink(boundary, principal)
    attention = WorkspaceAttention(
        engine_of(request), boundary_id=boundary_id, sink=sink, writer_id=principal.writer_id
    )
    outputs = {
        sid: out if isinstance(out, str) else out.model_dump(exclude_none=True)
        for sid, out in body.outputs.items()
    }
    result = attention.select_and_broadcast(outputs, body.query, body.task_id)
    request.app.state.metrics.count_decisions(sink.decisions)
    return WaveOut(
        wave_id=result.wave_id,
        task_id=body.task_id,
        broadcast=result.broadcast,
        proposals=[
            WaveProposalOut(
                id=p.id,
                specialist_id=p.specialist_id,
                rank=p.rank,
                composite=p.composite,
                relevance=p.relevance,
                track_record=p.track_record,
                confidence=p.confidence,
                selected=p.selected,
            )
            for p in result.proposals
        ],
        outcomes=[
            WaveOutcomeOut(
                proposal_id=o.proposal_id,
                specialist_id=o.specialist_id,
                outcome=o.outcome,
                entry_ids=list(o.entry_ids),
                set_id=o.set_id,
                receipt_id=o.receipt_id,
            )
            for o in result.outcomes
        ],
    )


@router.get(
    "/specialists/{specialist_id}/attention",
    response_model=ScoreOut,
    tags=["attention"],
    responses=responses(403, 404, 422),
    summary="A specialist's attention score in one boundary (or, explicitly, across all)",
    description=(
        "The composite of the specialist's latest selected proposal in the boundary named by "
        "`boundary_id` (the default scope: its work in other boundaries never counts), or, with "
        "`scope=global` and no `boundary_id`, in any boundary (not for a token fenced to "
        "boundaries). The answer says which scope it was read from."
    ),
)
def attention_score(
    request: Request,
    specialist_id: SpecialistId,
    principal: Reader,
    boundary_id: Annotated[
        str | None, Query(pattern=BOUNDARY_ID_PATTERN, description="The boundary")
    ] = None,
    scope: Annotated[AttentionScope, Query(description="boundary (default) or global")] = (
        AttentionScope.BOUNDARY
    ),
) -> ScoreOut:
    if scope is AttentionScope.GLOBAL:
        if boundary_id is not None:
            raise ProblemError(
                422, "invalid-input", "scope=global reads every boundary: drop boundary_id"
            )
        if principal.boundaries is not None:
            raise ProblemError(
                403, "forbidden", "a token fenced to boundaries cannot read a global score"
            )
        attention = WorkspaceAttention(engine_of(request), scope=AttentionScope.GLOBAL)
    else:
        if boundary_id is None:
            raise ProblemError(
                422,
                "invalid-input",
                "attention scores are per boundary: name it (?boundary_id=...), or ask for "
                "?scope=global",
            )
        if not principal.reaches(boundary_id):
            raise ProblemError(
                403,
                "forbidden",
                f"this token does not reach {boundary_id}",
                context={"boundary_id": boundary_id, "writer_id": principal.writer_id},
            )
        boundary = existing(request, boundary_id)  # reads never create a boundary: 404
        attention = WorkspaceAttention(
            engine_of(request), boundary_id=boundary_id, sink=boundary, scope=scope
        )
    read = attention.attention_score(specialist_id)
    return ScoreOut.model_validate(read.as_dict())


@router.get(
    "/boundaries/{boundary_id}/halts",
    response_model=list[HaltOut],
    tags=["halts"],
    responses=responses(403, 404, 422),
    summary="The boundary's halts, newest first: open ones, or all",
)
def halts_list(
    request: Request,
    boundary_id: BoundaryId,
    principal: Reader,
    all_: Annotated[bool, Query(alias="all")] = False,
    limit: Annotated[int, Query(ge=1, le=1000)] = 100,
) -> list[HaltOut]:
    boundary = existing(request, boundary_id)
    rows = boundary.halts(status=None if all_ else HaltStatus.OPEN, limit=limit)
    return [HaltOut.of(halt) for halt in rows]


def _halt_of(request: Request, boundary_id: str, halt_id: str) -> HaltViewOut:
    existing(request, boundary_id)
    with not_found():
        view = engine_of(request).halts.show(halt_id)
    if view.halt.boundary_id != boundary_id:
        raise ProblemError(
            404,
            "not-found",
            f"no halt {halt_id} in boundary {boundary_id}",
            context={"boundary_id": boundary_id, "halt_id": halt_id},
        )
    return HaltViewOut.model_validate(view.as_dict())


@router.get(
    "/boundaries/{boundary_id}/halts/{halt_id:path}",
    response_model=HaltViewOut,
    tags=["halts"],
    responses=responses(403, 404),
    summary="One halt: reason, detail, suggested amendment, its set and proposals",
)
def halt_show(
    request: Request, boundary_id: BoundaryId, halt_id: EntryId, principal: Reader
) -> HaltViewOut:
    return _halt_of(request, boundary_id, halt_id)


@router.post(
    "/boundaries/{boundary_id}/halts/{halt_id:path}/resolve",
    response_model=ResolutionOut,
    tags=["halts"],
    responses=responses(403, 404, 409, 413, 422),
    openapi_extra=body_spec(ResolutionIn),
    summary="Resolve a halt as the token's operator: approve, reject, or amend",
)
def halt_resolve(
    request: Request,
    boundary_id: BoundaryId,
    halt_id: EntryId,
    principal: Operator,
    body: Annotated[ResolutionIn, Depends(json_body(ResolutionIn))],
) -> ResolutionOut:
    _halt_of(request, boundary_id, halt_id)
    result = engine_of(request).halts.resolve(
        halt_id,
        body.resolution,
        operator_id=principal.writer_id,
        reason=body.reason,
        amendment=body.amendment,
    )
    decided = [d for d in (result.decision, result.constitution_decision) if d is not None]
    request.app.state.metrics.count_decisions(decided)
    return ResolutionOut.model_validate(result.as_dict())


@router.get(
    "/healthz",
    response_model=HealthOut,
    tags=["operations"],
    responses={503: responses(503)[503]},
    summary="Whether the server answers and its database answers a query (no token needed)",
)
def healthz(request: Request) -> HealthOut:
    engine = engine_of(request)
    seconds = engine.ping()
    return HealthOut(
        status="ok", database=engine.target.describe(), round_trip_ms=round(seconds * 1000, 3)
    )


@router.get(
    "/metrics",
    response_class=PlainTextResponse,
    tags=["operations"],
    responses={
        200: {"content": {CONTENT_TYPE.split(";")[0]: {"schema": {"type": "string"}}}},
        **responses(403),
    },
    summary="Prometheus text format: requests, gate decisions, halts, residency, attention",
)
def metrics(request: Request, principal: Reader) -> PlainTextResponse:
    if principal.boundaries is not None:
        raise ProblemError(
            403, "forbidden", "a token fenced to boundaries cannot read every boundary's metrics"
        )
    engine = engine_of(request)
    overview = engine.overview(limit=request.app.state.settings.metrics_max_boundaries)
    counts = engine.retry_counts()
    text = request.app.state.metrics.render(
        overview, units=counts.units, attempts=counts.attempts, retries=counts.retries
    )
    return PlainTextResponse(text, media_type=CONTENT_TYPE)
