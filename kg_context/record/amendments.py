"""Halt classes become predicates, deterministically.

A halt class (reason code plus the constitution parameter it tripped on) that recurs and that the
operator resolved consistently yields the smallest threshold deciding every one of those halts
the operator's way, as a constitution amendment adopted only through the governed path.
"""

from __future__ import annotations

import hashlib
import math
import re
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from kg_context.db.executor import QueryExecutor, Record
from kg_context.errors import StateError
from kg_context.gate.io.boundary import Boundary
from kg_context.gate.pure.constitution import Constitution, parse_constitution
from kg_context.gate.pure.decision import Decision
from kg_context.vocabulary import HaltStatus, ReasonCode, ResolutionKind, ThresholdParameter

__all__ = [
    "MIN_RECURRENCE",
    "AmendmentSuggestion",
    "adopt_suggestion",
    "amend_text",
    "suggest_amendments",
]

# A class recurs when the operator approved at least this many of its halts.
MIN_RECURRENCE = 3
_MAX_VERSION = 64


@dataclass(frozen=True, slots=True)
class AmendmentSuggestion:
    """One parameterized predicate the halts of one class suggest."""

    id: str  # "<REASON_CODE>:<parameter>=<proposed>", stable for the same evidence
    reason_code: ReasonCode
    parameter: ThresholdParameter
    current: float
    proposed: float
    halt_ids: tuple[str, ...]  # the decided halts of the class it covers
    approved: int
    rejected: int
    fragment: str  # the TOML the amendment changes
    constitution_version: str  # the amended constitution's version
    constitution_text: str  # the full amended constitution
    rationale: str

    @property
    def count(self) -> int:
        return len(self.halt_ids)

    def as_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "reason_code": self.reason_code.value,
            "parameter": self.parameter.value,
            "current": self.current,
            "proposed": self.proposed,
            "halt_ids": list(self.halt_ids),
            "count": self.count,
            "approved": self.approved,
            "rejected": self.rejected,
            "fragment": self.fragment,
            "constitution_version": self.constitution_version,
            "constitution_text": self.constitution_text,
            "rationale": self.rationale,
        }


def _literal(parameter: ThresholdParameter, value: float) -> str:
    return str(int(value)) if parameter.integral else f"{value:.2f}"


def _grain(parameter: ThresholdParameter, value: float) -> float:
    """``value`` rounded up to what the parameter can hold (an int, or two decimals)."""
    if parameter.integral:
        return float(math.ceil(value))
    return math.ceil(round(value * 100, 6)) / 100


def _current(constitution: Constitution, parameter: ThresholdParameter) -> float:
    section = getattr(constitution, parameter.section)
    return float(getattr(section, parameter.key))


def _set_line(lines: list[str], section: str | None, key: str, literal: str) -> list[str]:
    """``key = literal`` in ``section`` (top level when ``None``): the existing line replaced,
    else added right after the section header (the section appended when it is absent)."""
    header = re.compile(r"^\s*\[\s*([A-Za-z0-9_.-]+)\s*\]\s*(#.*)?$")
    assign = re.compile(rf"^\s*{re.escape(key)}\s*=")
    current: str | None = None
    start = 0 if section is None else None
    for i, line in enumerate(lines):
        found = header.match(line)
        if found:
            if current == section and start is not None:
                break
            current = found.group(1)
            if current == section:
                start = i + 1
            continue
        if current == section and assign.match(line):
            return [*lines[:i], f"{key} = {literal}", *lines[i + 1 :]]
    if start is None:
        return [*lines, "", f"[{section}]", f"{key} = {literal}"]
    return [*lines[:start], f"{key} = {literal}", *lines[start:]]


def amend_text(
    constitution: Constitution, parameter: ThresholdParameter, value: float
) -> tuple[str, str]:
    """The constitution's text with ``parameter = value`` under a new version (derived from the
    amended rules' digest, so one amendment gets one version wherever it is adopted); returns
    (version, text). Checked by parsing it back: exactly that parameter and the version
    changed, or a ``StateError`` (the text's shape is not one this edit understands)."""
    literal = _literal(parameter, value)
    lines = _set_line(constitution.text.splitlines(), parameter.section, parameter.key, literal)
    body = "\n".join(lines) + "\n"
    digest = hashlib.sha256(body.encode("utf-8")).hexdigest()[:10]
    version = f"{constitution.version}-a{digest}"
    if len(version) > _MAX_VERSION:
        version = f"a{digest}"
    text = "\n".join(_set_line(lines, None, "version", f'"{version}"')) + "\n"
    amended = parse_constitution(text, source="amended constitution")
    expected = constitution.model_dump()
    section = dict(expected[parameter.section])
    section[parameter.key] = int(value) if parameter.integral else value
    expected.update({parameter.section: section, "version": version})
    if amended.model_dump() != expected:
        raise StateError(
            f"cannot amend {parameter.value} in constitution {constitution.version} "
            "mechanically; edit it by hand and propose it"
        )
    return version, text


def _suggestion(
    code: ReasonCode,
    parameter: ThresholdParameter,
    halts: list[Record],
    constitution: Constitution,
    min_recurrence: int,
) -> AmendmentSuggestion | None:
    approved = [h for h in halts if h["resolution"] == ResolutionKind.APPROVE]
    rejected = [h for h in halts if h["resolution"] == ResolutionKind.REJECT]
    if len(approved) < min_recurrence:
        return None
    proposed = _grain(parameter, max(float(h["observed"]) for h in approved))
    if any(float(h["observed"]) <= proposed for h in rejected):
        return None  # resolved inconsistently: no threshold decides them as the operator did
    current = _current(constitution, parameter)
    if proposed <= current:
        return None  # the constitution decides them already
    version, text = amend_text(constitution, parameter, proposed)
    literal = _literal(parameter, proposed)
    low = min(float(h["observed"]) for h in rejected) if rejected else None
    refused = (
        f"; rejected {len(rejected)} (the smallest measured {low:g}), which still halt"
        if low is not None
        else ""
    )
    rationale = (
        f"{len(approved) + len(rejected)} {code.value} halts tripped {parameter.value} "
        f"(now {_literal(parameter, current)}): the operator approved {len(approved)}, the "
        f"largest measured {literal}{refused}. {parameter.value} = {literal} decides every one "
        "of them the way the operator did."
    )
    covered = tuple(str(h["id"]) for h in (*approved, *rejected))
    return AmendmentSuggestion(
        id=f"{code.value}:{parameter.value}={literal}",
        reason_code=code,
        parameter=parameter,
        current=current,
        proposed=proposed,
        halt_ids=covered,
        approved=len(approved),
        rejected=len(rejected),
        fragment=f"[{parameter.section}]\n{parameter.key} = {literal}\n",
        constitution_version=version,
        constitution_text=text,
        rationale=rationale,
    )


def suggest_amendments(
    executor: QueryExecutor,
    boundary: Boundary,
    *,
    since_seq: int | None = None,
    min_recurrence: int = MIN_RECURRENCE,
) -> list[AmendmentSuggestion]:
    """The amendments the boundary's recurring, consistently resolved halt classes suggest
    (halts opened at or after boundary seq ``since_seq`` when given), against its current
    constitution, ordered by how many halts each covers (then by id)."""
    boundary_id, constitution = boundary.id, boundary.constitution()
    rows = executor.read("halts/classes", boundary_id=boundary_id, since_seq=since_seq)
    classes: dict[tuple[ReasonCode, ThresholdParameter], list[Record]] = defaultdict(list)
    for row in rows:
        if row["status"] != HaltStatus.RESOLVED or row["observed"] is None:
            continue
        try:
            key = (ReasonCode(row["reason_code"]), ThresholdParameter(row["parameter"]))
        except ValueError:
            continue  # a halt class without a threshold parameter
        classes[key].append(row)
    found = [
        s
        for (code, parameter), halts in sorted(classes.items())
        if (s := _suggestion(code, parameter, halts, constitution, min_recurrence)) is not None
    ]
    return sorted(found, key=lambda s: (-s.count, s.id))


def adopt_suggestion(
    boundary: Boundary,
    suggestion_id: str,
    *,
    writer_id: str,
    reason: str | None = None,
    since_seq: int | None = None,
) -> Decision:
    """Propose the amended constitution of suggestion ``suggestion_id`` (recomputed now, from the
    graph) as a governed constitution change by ``writer_id``: ratified only for an operator the
    current constitution names (anyone else: ``AuthorizationError``, nothing changes)."""
    current = {
        s.id: s for s in suggest_amendments(boundary.executor, boundary, since_seq=since_seq)
    }
    chosen = current.get(suggestion_id)
    if chosen is None:
        known = ", ".join(sorted(current)) or "none"
        raise StateError(
            f"boundary {boundary.id} has no amendment suggestion {suggestion_id!r} now "
            f"(current: {known})",
            boundary_id=boundary.id,
            writer_id=writer_id,
        )
    why = reason or f"adopt suggestion {chosen.id}: {chosen.rationale}"
    return boundary.propose_constitution(chosen.constitution_text, writer_id=writer_id, reason=why)
