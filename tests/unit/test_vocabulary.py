"""One vocabulary: the words the gate decides by are defined once, in ``kg_context.vocabulary``.

These read the package's source (``ast``): no other module spells a reason code or a
justification case as a string, re-types a group of statuses as a literal collection, or
defines its own enum member with a status, outcome or reason-code value. The vocabulary itself
is checked for the properties the gate relies on.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import kg_context
from kg_context import vocabulary as v
from kg_context.gate.pure import status_machine

PACKAGE = Path(kg_context.__file__).resolve().parent
VOCABULARY = PACKAGE / "vocabulary"
MODULES = sorted(p for p in PACKAGE.rglob("*.py") if VOCABULARY not in p.parents)

DECISION_WORDS = {c.value for c in v.ReasonCode} | {c.value for c in v.JustificationCase}
STATUS_WORDS = {s.value for s in v.EntryStatus}


def _strings(tree: ast.AST) -> list[ast.Constant]:
    """String constants that are not docstrings."""
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    return [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
        if id(node) not in docstrings
    ]


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_module_spells_a_reason_code_or_justification_case(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    spelled = sorted({n.value for n in _strings(tree) if n.value in DECISION_WORDS})
    assert not spelled, f"{path.name} spells {spelled}: import them from kg_context.vocabulary"


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_module_retypes_a_status_group(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    groups = [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Set | ast.List | ast.Tuple)
        and sum(
            isinstance(e, ast.Constant) and isinstance(e.value, str) and e.value in STATUS_WORDS
            for e in node.elts
        )
        >= 2
    ]
    assert not groups, (
        f"{path.name}:{groups[0].lineno} writes a group of statuses as a literal: use "
        "kg_context.vocabulary (LIVE_STATUSES, STANDING_STATUSES, NOT_STANDING, ...)"
    )


def test_every_reason_code_says_whether_it_rejects_or_halts() -> None:
    halts = {c for c in v.ReasonCode if c.outcome is v.Outcome.HALT}
    rejects = {c for c in v.ReasonCode if c.outcome is v.Outcome.REJECT}
    assert halts | rejects == set(v.ReasonCode) and not halts & rejects
    assert v.ReasonCode.UNCLEAR_COMPACTION in halts and v.ReasonCode.NO_PLACEMENT in rejects


def test_status_groups_partition_the_statuses_as_documented() -> None:
    assert v.LIVE_STATUSES < v.STANDING_STATUSES
    assert set(v.EntryStatus) == v.STANDING_STATUSES | v.NOT_STANDING
    assert not v.STANDING_STATUSES & v.NOT_STANDING
    assert v.CYCLE_INELIGIBLE <= v.NOT_STANDING
    assert {v.EntryStatus.INVALIDATED, v.EntryStatus.AT_RISK} == v.FAILED_WORK


def test_outcomes_map_to_set_and_proposal_statuses_both_ways() -> None:
    for outcome in v.Outcome:
        assert v.Outcome.of_set_status(outcome.set_status) is outcome
        assert outcome.proposal_status.value != v.ProposalStatus.PENDING
    assert v.Outcome.of_set_status("pending") is None


def test_labels_cover_every_class_and_status() -> None:
    assert set(v.CLASS_LABELS) == set(v.EntryClass)
    assert set(v.STATUS_LABELS) == set(v.EntryStatus)
    assert v.CLASS_LABELS[v.EntryClass.REJECTED_ALTERNATIVE] == "RejectedAlternative"
    assert v.STATUS_LABELS[v.EntryStatus.AT_RISK] == "AtRisk"


def test_the_czar_pre_authorized_cases_exclude_unclear() -> None:
    assert v.JustificationCase.UNCLEAR not in v.PRE_AUTHORIZED_CZAR_CASES


def test_may_become_reads_the_status_machine() -> None:
    sources = status_machine.may_become(v.EntryStatus.AT_RISK)
    assert v.EntryStatus.LIVE in sources and v.EntryStatus.AT_RISK not in sources
    assert v.EntryStatus.EXPLORED not in sources and v.EntryStatus.INVALIDATED not in sources


def test_a_declared_class_label_never_is_a_built_in_or_system_label() -> None:
    assert v.class_label("decision") == "Decision"
    assert v.class_label("open_question") == "OpenQuestion"
    builtin = set(v.CLASS_LABELS.values()) | set(v.STATUS_LABELS.values()) | {v.RESIDENT_LABEL}
    for name in ("set", "boundary", "entry", "resident", "live", "bug", "known_issue"):
        label = v.class_label(name)
        assert label.startswith(v.DECLARED_CLASS_LABEL_PREFIX) and label not in builtin
    assert v.class_label("known_issue") == "DeclaredKnownIssue"
