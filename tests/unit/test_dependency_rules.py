"""The pure decisions of ``[on_dependency]`` and ``[key_families]``: which dependencies on retired
entries the rule rehydrates (and how the set then looks), which cross-key supersessions a family
lets through, the amendments the halts suggest, and the constitution's validation of both. No
database: real contracts closed by the real set constructor, an in-memory snapshot."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from kg_context.errors import ConfigurationError
from kg_context.gate.pure.constitution import (
    DependencyRule,
    default_constitution_text,
    key_matches,
    parse_constitution,
)
from kg_context.gate.pure.predicates import (
    entry_ids_free,
    non_standing_dependency,
    supersession_target,
)
from kg_context.gate.pure.rehydration import (
    COPY_MARKER,
    apply_dependency_rule,
    dependency_amendment,
    retired_reference_ids,
)
from kg_context.gate.pure.snapshot import RetiredSource
from kg_context.gate.pure.supersession_rules import family_amendment, family_rule
from kg_context.vocabulary import OnRetiredDependency, ReasonCode
from tests.unit.test_predicates import RULES, S, _entry, _proposal, _rules, _state

REHYDRATE = _rules(on_dependency=DependencyRule(retired=OnRetiredDependency.REHYDRATE))
HALT = _rules(on_dependency=DependencyRule(retired=OnRetiredDependency.HALT))


def _tokens(bodies: Any) -> list[int]:
    return [len(b.split()) for b in bodies]


def _source(entry_id: str, *, from_live: bool = True, cls: str = "decision") -> RetiredSource:
    return RetiredSource(entry_id, cls, "k", f"body of {entry_id}", 3, from_live)


def _case(
    *declared: dict[str, Any],
    status: str = "retired",
    source: RetiredSource | None = None,
    rules: Any = REHYDRATE,
    kind: str = "agent",
) -> tuple[Any, Any, Any]:
    scenario = S(
        _proposal(*declared, kind=kind, writer="operator" if kind == "operator" else "w-1"),
        states=(_state("old", status),),
        rules=rules,
    )
    snapshot = scenario.snapshot()
    if source is not None:
        snapshot.retired_sources = {source.id: source}
    return scenario, snapshot, scenario.view()


_REQ = {"requires": [{"entry_id": "old", "policy": "hard"}]}
_DER = {"derived_from": [{"entry_id": "old", "essential": True}]}


def test_a_requires_on_a_retired_entry_gets_a_copy_and_points_at_it() -> None:
    _, snapshot, view = _case(_entry("n", **_REQ), source=_source("old"))
    assert retired_reference_ids([view.closed], snapshot) == ["old"]
    ruled = apply_dependency_rule(view, REHYDRATE, snapshot, _tokens)
    (made,) = ruled.rehydrated
    dependent, original, copied = made
    assert (dependent, original) == ("n", "old") and copied.startswith(f"old{COPY_MARKER}")
    ids = [i for _, i, _ in ruled.entries]
    assert ids == [copied, "n"]  # the copy precedes what depends on it
    copy = ruled.entries[0][2]
    assert (copy.entry_class, copy.body, copy.expires_after) == ("scratch", "body of old", 1)
    assert [(r.entry_id, r.essential) for r in copy.derived_from] == [("old", False)]
    assert [r.entry_id for r in ruled.entries[1][2].requires] == [copied]
    assert ruled.tokens[copied] == 3
    assert ruled.declared_fanout == view.declared_fanout
    assert non_standing_dependency(ruled, REHYDRATE, snapshot) is None
    assert entry_ids_free(ruled, REHYDRATE, snapshot) is None
    # Deterministic: the same set makes the same copy.
    again = apply_dependency_rule(view, REHYDRATE, snapshot, _tokens)
    assert again.rehydrated == ruled.rehydrated


def test_an_essential_derivation_keeps_its_edge_on_the_original() -> None:
    _, snapshot, view = _case(
        _entry("n", cls="fact", **_DER, attributes={"source": "s"}), source=_source("old")
    )
    ruled = apply_dependency_rule(view, REHYDRATE, snapshot, _tokens)
    assert [r.entry_id for r in ruled.entries[-1][2].derived_from] == ["old"]
    assert len(ruled.rehydrated) == 1
    assert non_standing_dependency(ruled, REHYDRATE, snapshot) is None
    assert non_standing_dependency(view, REHYDRATE, snapshot) is not None


@pytest.mark.parametrize(
    ("status", "source", "rules"),
    [
        ("retired", _source("old"), HALT),
        ("retired", _source("old", from_live=False), REHYDRATE),
        ("retired", _source("old", cls="scratch"), REHYDRATE),
        ("retired", None, REHYDRATE),
        ("superseded", _source("old"), REHYDRATE),
        ("invalidated", _source("old"), REHYDRATE),
    ],
    ids=["rule-halts", "retired-after-failing", "scratch", "unread", "superseded", "invalidated"],
)
def test_what_the_rule_does_not_rebuild_still_halts(
    status: str, source: RetiredSource | None, rules: Any
) -> None:
    _, snapshot, view = _case(_entry("n", **_REQ), status=status, source=source, rules=rules)
    ruled = apply_dependency_rule(view, rules, snapshot, _tokens)
    assert ruled is view
    found = non_standing_dependency(ruled, rules, snapshot)
    assert found is not None and found.reason_code is ReasonCode.NON_STANDING_DEPENDENCY
    rebuildable = status == "retired" and rules is HALT
    assert (found.suggested_amendment == dependency_amendment()) is rebuildable
    assert "--" not in found.suggested_amendment


def test_the_halt_suggests_the_rule_that_would_have_decided_it() -> None:
    assert dependency_amendment() == '[on_dependency] retired = "rehydrate"'
    text = default_constitution_text()
    amended = parse_constitution(
        text.replace(f'version = "{RULES.version}"', 'version = "x"').replace(
            'retired = "rehydrate"', 'retired = "halt"'
        )
    )
    assert amended.on_dependency.retired is OnRetiredDependency.HALT
    assert RULES.on_dependency.retired is OnRetiredDependency.REHYDRATE  # shipped


def test_a_writer_may_not_propose_a_copy_id_nor_make_the_rule_apply_by_its_text() -> None:
    _, snapshot, view = _case(_entry(f"x{COPY_MARKER}0123"))
    found = entry_ids_free(view, REHYDRATE, snapshot)
    assert found is not None and found.reason_code is ReasonCode.ENTRY_ID_TAKEN
    # Attributes claiming a recall change nothing: the status is the snapshot's.
    _, snapshot, view = _case(
        _entry("n", **_REQ, attributes={"recalled_by_rule": "on_dependency=rehydrate"}),
        status="superseded",
        source=_source("old"),
    )
    assert apply_dependency_rule(view, REHYDRATE, snapshot, _tokens) is view


def test_append_only_sets_are_left_as_declared() -> None:
    _, snapshot, view = _case(_entry("n", **_REQ), source=_source("old"))
    assert apply_dependency_rule(replace(view, append_only=True), REHYDRATE, snapshot, _tokens) == (
        replace(view, append_only=True)
    )


# -- [key_families] -----------------------------------------------------------------------------


def _families(**families: list[str]) -> Any:
    return _rules(key_families={k: tuple(v) for k, v in families.items()})


@pytest.mark.parametrize(
    ("pattern", "key", "matches"),
    [
        ("release/*", "release/cost", True),
        ("release/*", "releases/cost", False),
        ("docs/x", "docs/x", True),
        ("docs/x", "docs/xy", False),
    ],
)
def test_a_pattern_is_a_key_or_a_prefix(pattern: str, key: str, matches: bool) -> None:
    assert key_matches(pattern, key) is matches


def test_a_family_holding_both_keys_names_the_rule() -> None:
    rules = _families(release=["release/*", "notes"], docs=["docs/*"])
    assert family_rule(rules, "release/a", "notes") == "key_families=release"
    assert family_rule(rules, "release/a", "docs/a") is None
    assert family_rule(rules, "release/a", "release/a") is None
    assert family_rule(RULES, "release/a", "release/b") is None  # none shipped


def test_supersession_across_keys_commits_only_inside_a_family() -> None:
    def view_of(rules: Any) -> tuple[Any, Any]:
        scenario = S(
            _proposal(
                _entry("n", key="release/b", supersedes=[{"entry_id": "old", "reason": "r"}])
            ),
            states=(_state("old", key="release/a"),),
            rules=rules,
        )
        return scenario.view(), scenario.snapshot()

    view, snapshot = view_of(RULES)
    found = supersession_target(view, RULES, snapshot)
    assert found is not None and found.reason_code is ReasonCode.SUPERSESSION_TARGET
    assert found.suggested_amendment == '[key_families] release = ["release/*"]'
    inside = _families(release=["release/*"])
    view, snapshot = view_of(inside)
    assert supersession_target(view, inside, snapshot) is None
    elsewhere = _families(docs=["release/a", "docs/*"])
    view, snapshot = view_of(elsewhere)
    assert supersession_target(view, elsewhere, snapshot) is not None


@pytest.mark.parametrize(
    ("old", "new", "amendment"),
    [
        ("release/a", "release/b", '[key_families] release = ["release/*"]'),
        ("release/a", "docs/b", '[key_families] release = ["docs/b", "release/a"]'),
        ("9lives", "cats", '[key_families] keys_9lives = ["9lives", "cats"]'),
    ],
)
def test_the_family_amendment_parses_as_a_constitution_line(
    old: str, new: str, amendment: str
) -> None:
    assert family_amendment(old, new) == amendment
    text = default_constitution_text().replace(f'version = "{RULES.version}"', 'version = "y"')
    section, line = amendment.split(" ", 1)  # "[section] name = value", as every amendment
    amended = parse_constitution(text.replace("[limits]", f"{section}\n{line}\n\n[limits]"))
    assert amended.key_family(old, new) is not None


@pytest.mark.parametrize(
    "families",
    ['bad-name = ["a"]', 'all = ["*"]', 'mid = ["a*b"]', "none = []"],
)
def test_a_malformed_family_is_refused(families: str) -> None:
    text = default_constitution_text().replace(f'version = "{RULES.version}"', 'version = "z"')
    with pytest.raises(ConfigurationError):
        parse_constitution(text.replace("[limits]", f"[key_families]\n{families}\n\n[limits]"))
