"""The reference agent loop on the real database: a scripted model is told why each answer
failed, corrects itself from what it was told, and the boundary's audits stay clean."""

from __future__ import annotations

import json
import re
from typing import Any

from kg_context import run_agent_loop
from kg_context.loop import UNPARSEABLE
from kg_context.record import history
from tests.factories import seed_datastore_with_retired_fact

FEEDBACK = "## Feedback on your attempt"


class ScriptedModel:
    """A stand-in for an LLM. Each answer first applies what the last feedback in its prompt
    says (a required field, an id that does not exist, a dependency that does not stand), then
    makes the one new mistake its script holds for that turn."""

    def __init__(self) -> None:
        self.prompts: list[str] = []
        # Turn 1: the key is missing (the output is not a proposal).
        self.entry: dict[str, Any] = {
            "id": "e-schema",
            "class": "decision",
            "body": "Users and follows are nodes and relationships",
        }

    def _apply(self, prompt: str) -> None:
        if FEEDBACK not in prompt:
            return
        feedback = prompt.rsplit(FEEDBACK, 1)[1]
        for field in re.findall(r"^- \$\.entries\[0\]\.(\w+): expected a value", feedback, re.M):
            self.entry[field] = "graph-schema"
        for ghost in re.findall(r"^- (\S+): no such entry in boundary", feedback, re.M):
            shown = re.search(r"^- \[live\] (\S+) datastore:", prompt, re.M)
            assert shown is not None, "the context shows the datastore decision with its id"
            self.entry["derived_from"] = [
                {**ref, "entry_id": shown.group(1)} if ref["entry_id"] == ghost else ref
                for ref in self.entry.get("derived_from", [])
            ]
        for gone in re.findall(r"^- (\S+): retired .*essential false", feedback, re.M):
            self.entry["requires"] = [r for r in self.entry["requires"] if r["entry_id"] != gone]
            self.entry["derived_from"].append({"entry_id": gone, "essential": False})

    def __call__(self, prompt: str) -> str:
        self.prompts.append(prompt)
        self._apply(prompt)
        turn = len(self.prompts)
        if turn == 2:  # a source it remembers by a name the boundary never had
            self.entry["derived_from"] = [{"entry_id": "e-database-choice"}]
        if turn == 3:  # the benchmark it read earlier, now retired
            self.entry["requires"] = [{"entry_id": "e-bench", "policy": "hard"}]
        body = json.dumps({"targets": ["graph-schema"], "entries": [self.entry]}, indent=1)
        return f"Here is my proposal.\n```json\n{body}\n```\n"


def test_the_loop_tells_a_model_why_and_the_model_corrects_itself(
    czar_free_engine: Any, boundary_id: str
) -> None:
    boundary = seed_datastore_with_retired_fact(czar_free_engine, boundary_id)
    model = ScriptedModel()
    result = run_agent_loop(
        boundary,
        model,
        "Record how the social graph is modelled; it rests on the datastore decision.",
        writer_id="schema-model",
        budget_tokens=2000,
        max_retries=3,
    )
    first, second, third, last = result.attempts
    assert [a.outcome for a in result.attempts] == [UNPARSEABLE, "reject", "halt", "commit"]
    assert result.committed and result.decision is last.decision

    # (a) malformed: told which field, what was expected
    assert first.decision is None and first.problems[0].path == "$.entries[0].key"
    assert "- $.entries[0].key: expected a value (the field is required)" in first.feedback
    # (b) an id that does not exist: told which, and where to find real ones
    assert second.decision is not None and second.decision.reason_code == "UNKNOWN_DEPENDENCY"
    assert (
        f"- e-database-choice: no such entry in boundary {boundary_id} "
        "(cited as derived_from by e-schema); cite an id the context shows"
    ) in second.feedback
    # (c) a hard dependency on a retired entry: told which, and how to bring it back
    assert third.decision is not None
    assert third.decision.reason_code == "NON_STANDING_DEPENDENCY"
    assert third.decision.halt_id and third.feedback.startswith("HALTED (NON_STANDING_DEPENDENCY)")
    retired = next(line for line in third.feedback.splitlines() if line.startswith("- e-bench:"))
    assert f"retired in boundary {boundary_id} (cited as requires by e-schema)" in retired
    assert "recall it and admit it" in retired and "essential false" in retired
    assert "an operator would have to:" in third.feedback

    # every retry carried the feedback before it; the first prompt had the context and schema
    assert first.prompt.startswith(f"# Context of {boundary_id}") and "e-db" in first.prompt
    assert '"additionalProperties": false' in first.prompt
    for earlier, later in zip(result.attempts, result.attempts[1:], strict=False):
        assert earlier.feedback in later.prompt

    # the correction committed what the feedback asked for
    assert last.decision is not None and last.decision.entry_ids == ("e-schema",)
    assert last.feedback.startswith(f"COMMITTED: set {last.decision.set_id}")
    assert "new entries: e-schema" in last.feedback
    walked = boundary.walk(last.decision.set_id)
    assert {(d.other, d.edge, d.essential) for d in walked.depended_on} == {
        ("e-db", "DERIVED_FROM", True),
        ("e-bench", "DERIVED_FROM", False),
    }

    # each losing draft is in the record, explored and out of the window, by the same writer
    drafts = [a.draft for a in result.attempts[:3]]
    assert all(d is not None and d.outcome == "commit" for d in drafts)
    assert last.draft is None
    state = history.as_of(boundary, int(boundary.state().seq))
    by_id = {e.id: e for e in state.entries}
    for attempt in result.attempts[:3]:
        kept = by_id[str(attempt.draft_entry_id)]
        assert (kept.status, kept.resident, kept.entry_class) == ("explored", False, "scratch")

    # and the boundary's audits stay clean
    dirty = [a.audit.name for a in czar_free_engine.invariants(boundary_id) if not a.clean]
    assert dirty == []


def test_the_loop_stops_after_its_retries_and_keeps_every_draft(
    czar_free_engine: Any, boundary_id: str
) -> None:
    boundary = czar_free_engine.boundary(boundary_id)
    prompts: list[str] = []

    def stubborn(prompt: str) -> str:
        prompts.append(prompt)
        return "I would rather not answer in JSON."

    result = run_agent_loop(boundary, stubborn, "Say something.", writer_id="m-1", max_retries=1)
    assert len(result.attempts) == 2 and not result.committed and result.decision is None
    assert all(a.outcome == UNPARSEABLE and a.draft is not None for a in result.attempts)
    assert "- $: expected one JSON object" in result.feedback[0]
    assert result.feedback[0] in prompts[1]
    assert [a.audit.name for a in czar_free_engine.invariants(boundary_id) if not a.clean] == []
