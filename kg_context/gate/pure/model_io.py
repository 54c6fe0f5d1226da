"""What a model writes back: the proposal schema it answers with, and its output read as a draft.

One model output is one proposal, and one proposal is one set: a model never names the fields
its writer identity fills (``id``, ``boundary_id``, ``writer_id``, ``writer_kind``), nor the set
(``set_id``: the proposal is its own set) or the set kind (a model's set is a state set). Those
are stamped by whoever holds the identity (the agent loop, the MCP server), so a model can
neither claim another identity nor squat a set id. ``proposal_schema()`` is the contract's JSON
Schema without them, self-contained (every ``$ref`` inlined). ``parse_model_output`` reads a
dict, a JSON text, or one fenced ```json block in text, into a ``ProposalDraft``; anything else
is a ``ModelOutputError`` naming each problem's JSON path, what was expected and what was given.
"""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any, Protocol

from pydantic import ValidationError

from kg_context.errors import InputValidationError, ModelOutputError, OutputProblem
from kg_context.gate.pure.contracts import Proposal
from kg_context.gate.pure.decision import Decision
from kg_context.vocabulary import SetKind, WriterKind

__all__ = [
    "STAMPED_FIELDS",
    "ModelGate",
    "ProposalDraft",
    "commit_model_output",
    "parse_model_output",
    "proposal_schema",
]

# The proposal fields the holder of the writer identity fills, never the model.
STAMPED_FIELDS = ("id", "boundary_id", "writer_id", "writer_kind", "set_id", "kind")
MAX_OUTPUT_CHARS = 2_000_000
_GIVEN_CHARS = 60
_WORDING = (
    ("Value error, ", ""),
    ("Input should be ", ""),
    ("String should ", "a string that should "),
    ("List should ", "a list that should "),
    ("Tuple should ", "a list that should "),
    ("Dictionary should ", "an object that should "),
)
_STAMPED_EXPECTED = "no such field: the server fills " + ", ".join(STAMPED_FIELDS) + " itself"
_FENCE = re.compile(r"```[ \t]*([A-Za-z]*)[ \t]*\r?\n(.*?)```", re.DOTALL)
# Placeholders the draft is validated under before it has an identity (never stored).
_PLACEHOLDER = {
    "id": "model-output",
    "boundary_id": "model-output-boundary",
    "writer_id": "model-output-writer",
    "writer_kind": WriterKind.MODEL.value,
    "set_id": "model-output",
    "kind": SetKind.STATE.value,
}


def _inline(node: Any, defs: Mapping[str, Any]) -> Any:
    """``node`` with every local ``$ref`` replaced by the definition it names (the contract's
    models are not recursive, so this ends)."""
    if isinstance(node, list):
        return [_inline(item, defs) for item in node]
    if not isinstance(node, dict):
        return node
    if "$ref" in node:
        name = str(node["$ref"]).rsplit("/", 1)[-1]
        merged = {**_inline(defs[name], defs), **{k: v for k, v in node.items() if k != "$ref"}}
        return _inline(merged, defs)
    return {key: _inline(value, defs) for key, value in node.items()}


@cache
def _schema_text() -> str:
    raw = Proposal.model_json_schema(by_alias=True, mode="validation")
    defs = raw.pop("$defs", {})
    schema: dict[str, Any] = _inline(raw, defs)
    for name in STAMPED_FIELDS:
        schema["properties"].pop(name, None)
    schema["required"] = [r for r in schema.get("required", []) if r not in STAMPED_FIELDS]
    if not schema["required"]:
        schema.pop("required")
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = "Proposal"
    schema["description"] = (
        "One proposal into a kg-context boundary, decided as one set by the constitution gate. "
        "It carries entries, transitions or foundational marks. Cite existing entries by the ids "
        "the context shows (supersedes, derived_from, requires). The writer's identity, the "
        "proposal id and the set are filled in by the server."
    )
    schema["additionalProperties"] = False
    return json.dumps(schema, sort_keys=True)


def proposal_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of what a model answers with: one proposal, without the
    stamped fields, with no ``$ref`` (usable as a tool's input schema or a structured-output
    format as it is). A fresh copy on every call."""
    loaded: dict[str, Any] = json.loads(_schema_text())
    return loaded


@dataclass(frozen=True, slots=True)
class ProposalDraft:
    """A model's output read as a proposal without its identity: the model's fields, valid
    under the contract. ``proposal(...)`` stamps the identity and makes it a ``Proposal``."""

    data: Mapping[str, Any]

    def proposal(
        self,
        *,
        proposal_id: str,
        boundary_id: str,
        writer_id: str,
        writer_kind: WriterKind | str = WriterKind.MODEL,
    ) -> Proposal:
        """The proposal this draft is, written by ``writer_id`` into ``boundary_id``: its own set
        (``set_id`` is the proposal id), a state set. A bad identity is the caller's
        ``InputValidationError``; what only the boundary can tell (a reference naming the own
        boundary) is the model's ``ModelOutputError``."""
        stamp = {
            "id": proposal_id,
            "boundary_id": boundary_id,
            "writer_id": writer_id,
            "writer_kind": writer_kind.value
            if isinstance(writer_kind, WriterKind)
            else writer_kind,
            "set_id": proposal_id,
            "kind": SetKind.STATE.value,
        }
        return _validated({**self.data, **stamp})


def _quote(value: Any) -> str:
    """A value as the model gave it, on one line and cut short (JSON-quoted: no text of the
    model's can start a line of its own in an error or in feedback)."""
    try:
        text = json.dumps(value, ensure_ascii=False, default=str)
    except ValueError:
        text = json.dumps(repr(value))
    if len(text) > _GIVEN_CHARS:
        text = text[: _GIVEN_CHARS - 3] + "..."
    return text


def _json_path(loc: tuple[int | str, ...]) -> str:
    path = "$"
    for part in loc:
        if isinstance(part, int):
            path += f"[{part}]"
        elif re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]{0,59}", part):
            path += f".{part}"
        else:
            path += f"[{_quote(part)}]"
    return path


def _at(schema: Mapping[str, Any], loc: tuple[int | str, ...]) -> Mapping[str, Any] | None:
    """The sub-schema at ``loc`` (through arrays' items, objects' properties, anyOf branches)."""
    node: Mapping[str, Any] | None = schema
    for part in loc:
        if node is None:
            return None
        branches = [node, *node.get("anyOf", [])]
        if isinstance(part, int):
            node = next((b["items"] for b in branches if "items" in b), None)
        else:
            node = next(
                (b["properties"][part] for b in branches if part in b.get("properties", {})), None
            )
    return node


def _problem(error: Mapping[str, Any]) -> OutputProblem:
    loc = tuple(error["loc"])
    kind = error["type"]
    if kind == "missing":
        return OutputProblem(_json_path(loc), "a value (the field is required)", "nothing")
    if kind == "extra_forbidden":
        parent = _at(proposal_schema(), loc[:-1]) or {}
        allowed = sorted(parent.get("properties", {}))
        expected = "no such field; allowed here: " + ", ".join(allowed)
        return OutputProblem(_json_path(loc), expected, _quote(error.get("input")))
    given = error.get("input")
    if isinstance(given, Mapping) and not loc:  # the whole proposal: as the model wrote it
        given = {k: v for k, v in given.items() if k not in STAMPED_FIELDS}
    return OutputProblem(_json_path(loc), _expected(str(error["msg"])), _quote(given))


def _expected(message: str) -> str:
    """Pydantic's message, worded as what is expected."""
    for prefix, replacement in _WORDING:
        if message.startswith(prefix):
            return replacement + message[len(prefix) :]
    return message


def _validated(data: Mapping[str, Any]) -> Proposal:
    """The proposal, or the model's problems; a problem in a stamped field is the stamper's."""
    try:
        return Proposal.model_validate(data)
    except ValidationError as err:
        errors = err.errors(include_url=False)
    stamped = [e for e in errors if e["loc"] and e["loc"][0] in STAMPED_FIELDS]
    if stamped:
        raise InputValidationError(
            f"unusable writer identity: {_json_path(tuple(stamped[0]['loc']))}: {stamped[0]['msg']}"
        )
    raise ModelOutputError([_problem(e) for e in errors])


def _one_problem(path: str, expected: str, given: str) -> ModelOutputError:
    return ModelOutputError([OutputProblem(path, expected, given)])


def _reject_constant(name: str) -> Any:
    raise _one_problem("$", "standard JSON (no NaN or Infinity)", name)


def _loads(text: str, where: str) -> Any:
    try:
        return json.loads(text, parse_constant=_reject_constant)
    except json.JSONDecodeError as err:
        raise _one_problem(
            "$", f"valid JSON {where}", f"line {err.lineno} column {err.colno}: {err.msg}"
        ) from None


def _object_of(text: str) -> Any:
    """The JSON of the output: all of it, or the one fenced block (```json first)."""
    stripped = text.strip()
    if stripped.startswith(("{", "[")):
        return _loads(stripped, "(the whole output)")
    fences = [(m.group(1).lower(), m.group(2)) for m in _FENCE.finditer(text)]
    blocks = [body for lang, body in fences if lang == "json"] or [
        body for lang, body in fences if lang == ""
    ]
    if len(blocks) == 1:
        return _loads(blocks[0], "(in the ```json block)")
    expected = "one JSON object, bare or in one ```json fenced block"
    if blocks:
        raise _one_problem("$", expected, f"{len(blocks)} fenced blocks")
    raise _one_problem("$", expected, _quote(stripped))


def parse_model_output(output: str | Mapping[str, Any]) -> ProposalDraft:
    """A model's output as a ``ProposalDraft``: a mapping, a JSON text, or text holding one
    ```json fenced block. Anything else raises ``ModelOutputError`` (every problem with its JSON
    path, what was expected, what was given); nothing is recorded either way."""
    if isinstance(output, str):
        if len(output) > MAX_OUTPUT_CHARS:
            raise _one_problem(
                "$", f"at most {MAX_OUTPUT_CHARS} characters", f"{len(output)} characters"
            )
        data = _object_of(output)
    elif isinstance(output, Mapping):
        data = output
    else:
        raise _one_problem("$", "a JSON object or text", type(output).__name__)
    if not isinstance(data, Mapping):
        raise _one_problem("$", "one JSON object (one proposal)", _quote(data))
    claimed = [
        OutputProblem(_json_path((name,)), _STAMPED_EXPECTED, _quote(data[name]))
        for name in STAMPED_FIELDS
        if name in data
    ]
    if claimed:
        raise ModelOutputError(claimed)
    _validated({**data, **_PLACEHOLDER})
    return ProposalDraft(dict(data))


class ModelGate(Protocol):
    """What a model's output is committed through: a boundary's id and its gate."""

    id: str

    def commit(self, proposal: Proposal | dict[str, Any]) -> Decision: ...


def commit_model_output(
    gate: ModelGate,
    output: str | Mapping[str, Any],
    *,
    writer_id: str,
    writer_kind: WriterKind | str = WriterKind.MODEL,
    proposal_id: str | None = None,
) -> Decision:
    """Read a model's output, stamp the writer's identity on it and commit it through the gate
    of ``gate`` (the one path the agent loop and the MCP server share). Unreadable output raises
    ``ModelOutputError`` and records nothing. The proposal id is ``proposal_id``, or a fresh
    ``<writer_id>/model-<random>``."""
    draft = parse_model_output(output)
    proposal = draft.proposal(
        proposal_id=proposal_id or f"{writer_id}/model-{uuid.uuid4().hex[:16]}",
        boundary_id=gate.id,
        writer_id=writer_id,
        writer_kind=writer_kind,
    )
    return gate.commit(proposal)
