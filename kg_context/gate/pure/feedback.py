"""The text a model is told about its set (pure): ``Decision.feedback()``.

Built from the decision and the graph facts the gate read (reason codes, ids, the statuses of
what the set cites), one line per fact. Text a writer supplied never shapes a line: an id that
is not a plain id, a detail or an amendment (which can quote a writer's key) is JSON-quoted on
its own line, so no body or key can forge a line of feedback.
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING

from kg_context.vocabulary import EntryStatus, Outcome

if TYPE_CHECKING:
    from kg_context.gate.pure.batch import CitedEntry
    from kg_context.gate.pure.decision import Decision

__all__ = ["UNKNOWN", "decision_feedback"]

UNKNOWN = "unknown"
_PLAIN_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:/#@+-]{0,199}")
_QUOTED_CHARS = 400

_BACK = (
    "recall it and admit it (a scratch copy derived from it), then cite the copy; or cite it "
    "only as provenance (derived_from with essential false)"
)
_RECALL = "it is in the record, not in the window: to bring it back, " + _BACK
_HOW_BACK = {
    UNKNOWN: "cite an id the context shows, or declare that entry in this proposal",
    EntryStatus.SUPERSEDED.value: (
        "cite the entry that superseded it instead (recall shows it as 'superseded by'), or "
        + _BACK
    ),
}


def _id(value: str) -> str:
    """An id as it stands when it is a plain id, else JSON-quoted (never a line of its own)."""
    return value if _PLAIN_ID.fullmatch(value) else json.dumps(value, ensure_ascii=False)


def _quoted(text: str) -> str:
    cut = text if len(text) <= _QUOTED_CHARS else text[: _QUOTED_CHARS - 3] + "..."
    return json.dumps(cut, ensure_ascii=False)


def _cited_line(cited: CitedEntry) -> str:
    where = f"in boundary {_id(cited.boundary_id)}"
    said = f"cited as {cited.cited_as} by {_id(cited.by)}"
    state = f"no such entry {where}" if cited.status == UNKNOWN else f"{cited.status} {where}"
    how = _HOW_BACK.get(cited.status, _RECALL)
    return f"- {_id(cited.entry_id)}: {state} ({said}); {how}."


def _committed(decision: Decision) -> list[str]:
    lines = [
        f"COMMITTED: set {_id(decision.set_id)} at seq {decision.seq} "
        f"(receipt {_id(decision.receipt_id)})."
    ]
    if decision.entry_ids:
        lines.append("new entries: " + ", ".join(_id(e) for e in decision.entry_ids))
    else:
        lines.append("new entries: none (transitions or marks only)")
    for effect in decision.not_executed:
        lines.append(f"declared but not carried out: {_quoted(effect)}")
    for made in decision.rule_made:
        how = (
            "recorded"
            if made.endswith("recorded, not executed")
            else "superseded"
            if " supersedes " in made
            else "decided"
        )
        lines.append(f"{how} by the constitution's rule: {_quoted(made)}")
    return lines


def _refused(decision: Decision) -> list[str]:
    code = decision.reason_code or "UNSPECIFIED"
    if decision.outcome == Outcome.HALT:
        head = (
            f"HALTED ({code}): set {_id(decision.set_id)} is held for an operator"
            f" (halt {_id(decision.halt_id or '')}); nothing was committed."
        )
    else:
        head = f"REJECTED ({code}): set {_id(decision.set_id)} was refused; nothing was committed."
    lines = [head]
    if decision.detail:
        lines.append(f"detail: {_quoted(decision.detail)}")
    if decision.not_standing:
        lines.append("cited entries that do not stand:")
        lines.extend(_cited_line(c) for c in decision.not_standing)
    if decision.suggested_amendment:
        lines.append(
            "to commit it as it is, an operator would have to: "
            f"{_quoted(decision.suggested_amendment)}"
        )
    lines.append("Answer with a corrected proposal (a new set).")
    return lines


def decision_feedback(decision: Decision) -> str:
    """The feedback text of one decision (see the module docstring)."""
    lines = _committed(decision) if decision.outcome == Outcome.COMMIT else _refused(decision)
    if decision.replayed:
        lines.append("(this proposal was decided before: this is the recorded decision)")
    return "\n".join(lines)
