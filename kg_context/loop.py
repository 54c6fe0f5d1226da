"""The reference agent loop: context, model, parse, commit, feedback (model-agnostic).

A model is any callable from prompt text to output text. Each attempt reads the boundary's
governed context (``Boundary.context``), asks the model with the task and the proposal schema,
reads the answer (``parse_model_output``), stamps the writer's identity on it and commits it
through the gate. A committed set ends the run; an unreadable answer, a halted or a rejected set
is tried again, at most ``max_retries`` times, with every feedback so far appended to the
prompt. Each losing draft is kept in the record, through the gate, as an ``explored`` scratch
entry of the same writer (zero window cost, searchable, never resident): dead ends stay on
record. A halted set stays with the operator; the loop never resolves a halt.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from kg_context.errors import InputValidationError, ModelOutputError, OutputProblem
from kg_context.gate.pure.contracts import Proposal, WriterKind
from kg_context.gate.pure.decision import Decision
from kg_context.gate.pure.model_io import commit_model_output, proposal_schema
from kg_context.vocabulary import EntryClass, Outcome

__all__ = ["LoopAttempt", "LoopBoundary", "LoopResult", "Model", "run_agent_loop"]

Model = Callable[[str], str]
UNPARSEABLE = "unparseable"
# A losing draft is kept whole up to this many characters (a body stays under the default
# constitution's token limit); a longer one is kept cut, and says so in its attributes.
MAX_DRAFT_CHARS = 4000


class _Prompt(Protocol):
    @property
    def text(self) -> str: ...


class LoopBoundary(Protocol):
    """What the loop needs of a boundary: its id, its context, and the gate."""

    id: str

    def context(self, budget_tokens: int, *, query: str | None = None) -> _Prompt: ...

    def commit(self, proposal: Proposal | dict[str, Any]) -> Decision: ...


@dataclass(frozen=True, slots=True)
class LoopAttempt:
    """One turn: the prompt, the model's output, what became of it, and the feedback it got.
    ``outcome`` is the gate's (commit, halt, reject) or ``unparseable``; ``problems`` the
    output's problems when unparseable; ``draft`` the decision that kept a losing draft in the
    record (``None`` for the winning attempt, or when drafts are not recorded)."""

    number: int
    prompt: str
    output: str
    outcome: str
    feedback: str
    decision: Decision | None
    problems: tuple[OutputProblem, ...] = ()
    draft: Decision | None = None

    @property
    def draft_entry_id(self) -> str | None:
        if self.draft is None or not self.draft.entry_ids:
            return None
        return self.draft.entry_ids[0]


@dataclass(frozen=True, slots=True)
class LoopResult:
    """A run of the loop: every attempt in order; the last decision; whether it committed."""

    run_id: str
    attempts: tuple[LoopAttempt, ...]

    @property
    def decision(self) -> Decision | None:
        return self.attempts[-1].decision if self.attempts else None

    @property
    def committed(self) -> bool:
        return bool(self.attempts) and self.attempts[-1].outcome == Outcome.COMMIT.value

    @property
    def feedback(self) -> tuple[str, ...]:
        return tuple(a.feedback for a in self.attempts)


def _prompt(
    context: str,
    task: str,
    boundary_id: str,
    earlier: list[LoopAttempt],
    schema: str | None,
) -> str:
    parts = [context.rstrip(), "", "## Task", task.strip(), "", "## How to answer"]
    parts.append(
        f"Answer with one JSON object: a proposal into boundary {boundary_id}, bare or in one "
        "```json block. Cite existing entries by the ids shown above."
    )
    if schema is not None:
        parts += ["The proposal's JSON Schema:", schema]
    for attempt in earlier:
        parts += ["", f"## Feedback on your attempt {attempt.number}", attempt.feedback]
    return "\n".join(parts) + "\n"


def _draft_proposal(
    run_id: str, attempt: LoopAttempt, boundary_id: str, writer_id: str, writer_kind: WriterKind
) -> dict[str, Any]:
    """A losing draft as a proposal of one explored scratch entry (its own set)."""
    proposal_id = f"{run_id}/{attempt.number}/draft"
    decision = attempt.decision
    attributes: dict[str, Any] = {
        "explored": True,
        "loop_run": run_id,
        "attempt": attempt.number,
        "outcome": attempt.outcome,
        "chars": len(attempt.output),
        "truncated": len(attempt.output) > MAX_DRAFT_CHARS,
    }
    if decision is not None:
        attributes.update(refused_set=decision.set_id, reason_code=decision.reason_code or "")
    return {
        "id": proposal_id,
        "boundary_id": boundary_id,
        "writer_id": writer_id,
        "writer_kind": writer_kind.value,
        "set_id": proposal_id,
        "summary": f"losing draft {attempt.number} of agent loop run {run_id}: {attempt.outcome}",
        "entries": [
            {
                "class": EntryClass.SCRATCH.value,
                "key": f"draft:{run_id}",
                "body": attempt.output[:MAX_DRAFT_CHARS],
                "attributes": attributes,
            }
        ],
    }


def _decide(
    boundary: LoopBoundary,
    output: str,
    proposal_id: str,
    writer_id: str,
    writer_kind: WriterKind,
) -> tuple[str, str, Decision | None, tuple[OutputProblem, ...]]:
    """The outcome, the feedback, the decision and the output's problems of one answer."""
    try:
        decision = commit_model_output(
            boundary, output, writer_id=writer_id, writer_kind=writer_kind, proposal_id=proposal_id
        )
    except ModelOutputError as err:
        return UNPARSEABLE, err.feedback(), None, err.problems
    return decision.outcome.value, decision.feedback(), decision, ()


def run_agent_loop(
    boundary: LoopBoundary,
    model: Model,
    task: str,
    *,
    writer_id: str,
    writer_kind: WriterKind | str = WriterKind.MODEL,
    budget_tokens: int = 4096,
    query: str | None = None,
    max_retries: int = 2,
    record_drafts: bool = True,
    include_schema: bool = True,
    run_id: str | None = None,
) -> LoopResult:
    """Run the loop on ``boundary`` for ``task``, as ``writer_id`` (see the module docstring).

    ``budget_tokens`` and ``query`` go to ``boundary.context``; the proposal schema is added to
    the prompt unless ``include_schema`` is false. Proposal ids are ``<run_id>/<attempt>``."""
    if writer_kind not in {k.value for k in WriterKind}:
        raise InputValidationError(f"unknown writer kind {writer_kind!r}")
    kind = WriterKind(writer_kind)
    if max_retries < 0:
        raise InputValidationError("max_retries is 0 or more")
    run = run_id or f"{writer_id}/loop-{uuid.uuid4().hex[:12]}"
    schema = json.dumps(proposal_schema(), sort_keys=True) if include_schema else None
    attempts: list[LoopAttempt] = []
    for number in range(1, max_retries + 2):
        context = boundary.context(budget_tokens, query=query).text
        prompt = _prompt(context, task, boundary.id, attempts, schema)
        output = model(prompt)
        if not isinstance(output, str):
            raise InputValidationError(f"a model returns text, not {type(output).__name__}")
        outcome, feedback, decision, problems = _decide(
            boundary, output, f"{run}/{number}", writer_id, kind
        )
        attempt = LoopAttempt(number, prompt, output, outcome, feedback, decision, problems)
        if outcome == Outcome.COMMIT.value:
            attempts.append(attempt)
            break
        if record_drafts:
            kept = boundary.commit(_draft_proposal(run, attempt, boundary.id, writer_id, kind))
            attempt = LoopAttempt(
                number, prompt, output, outcome, feedback, decision, problems, kept
            )
        attempts.append(attempt)
    return LoopResult(run, tuple(attempts))
