"""Halts the operator's constitution can decide, against the real Neo4j: a dependency on a
retired entry (``[on_dependency] retired``) and a supersession across keys of one declared key
family (``[key_families]``). Under the rule the set commits and the decision, the receipts (and a
rule-made supersession's edge) name it; without it the set halts with the amendment that would
have decided it; what no rule decides (superseded or failed state, another family, another
boundary, a writer's own text) still halts or is refused. The ledger verifies and every
must-be-empty audit stays empty."""

from __future__ import annotations

from typing import Any

import pytest

from tests.factories import constitution_variant, entry, proposal

REHYDRATE = "on_dependency=rehydrate"
_RULE_LINE = 'retired = "rehydrate"'


def _constitution(boundary_id: str, name: str, *replacements: tuple[str, str]) -> Any:
    return constitution_variant(f"dep-{name}-{boundary_id[-12:]}", *replacements)


def _halting(boundary_id: str) -> Any:
    """The default constitution with ``[on_dependency] retired = "halt"``."""
    return _constitution(boundary_id, "halt", (_RULE_LINE, 'retired = "halt"'))


def _families(boundary_id: str, families: str) -> Any:
    return _constitution(
        boundary_id, "fam", ("[limits]", f"[key_families]\n{families}\n\n[limits]")
    )


def _entries(engine: Any, boundary_id: str) -> dict[str, dict[str, Any]]:
    rows = engine.executor.read("audits/boundary_entries", boundary_id=boundary_id)
    return {row["id"]: row for row in rows}


def _receipts(engine: Any, boundary_id: str, set_id: str) -> dict[str, dict[str, Any]]:
    rows = engine.executor.read("audits/receipts", boundary_id=boundary_id, family=None)
    return {r["kind"]: r["fields"] for r in rows if r["set_id"] == set_id}


def _clean(engine: Any, handle: Any, boundary_id: str) -> None:
    verified = handle.verify_ledger()
    assert verified.ok, verified
    assert [a.audit.name for a in engine.invariants(boundary_id) if not a.clean] == []


def _move(handle: Any, boundary_id: str, entry_id: str, *statuses: str) -> None:
    """An operator moves ``entry_id`` through ``statuses``, out of the window."""
    for n, to in enumerate(statuses):
        moved = handle.commit(
            {
                "id": f"{boundary_id}/move-{n}-{entry_id[-6:]}",
                "boundary_id": boundary_id,
                "writer_id": "operator",
                "writer_kind": "operator",
                "targets": ["operator"],
                "transitions": [{"entry_id": entry_id, "to": to, "resident": False, "reason": "x"}],
            }
        )
        assert moved.outcome == "commit", moved


def _old(handle: Any, boundary_id: str, *statuses: str, cls: str = "decision") -> str:
    old = f"{boundary_id}/old"
    seeded = handle.commit(proposal(boundary_id, entry(cls=cls, id=old, key="old", body="was")))
    assert seeded.outcome == "commit", seeded
    _move(handle, boundary_id, old, *statuses)
    return old


def _window(handle: Any) -> set[str]:
    return {e.id for e in handle.window().entries}


# -- [on_dependency] retired --------------------------------------------------------------------


def test_under_rehydrate_a_requires_on_a_retired_entry_brings_it_back_in_the_same_set(
    czar_free_engine: Any, boundary_id: str
) -> None:
    engine = czar_free_engine
    handle = engine.boundary(boundary_id)  # the shipped constitution rehydrates
    old = _old(handle, boundary_id, "retired")
    new = f"{boundary_id}/new"
    decided = handle.commit(
        proposal(
            boundary_id,
            entry(id=new, key="new", requires=[{"entry_id": old, "policy": "hard"}]),
        )
    )
    assert decided.outcome == "commit", decided
    copies = [e for e in decided.entry_ids if e != new]
    assert len(copies) == 1 and copies[0].startswith(f"{old}@rehydrated-")
    copied = copies[0]
    made = f"{REHYDRATE}: {new} depends on retired {old}: rehydrated as {copied}"
    assert decided.rule_made == (made,)
    assert "decided by the constitution's rule" in decided.feedback()
    rows = _entries(engine, boundary_id)
    assert (rows[old]["status"], rows[old]["resident"]) == ("retired", False)
    assert (rows[copied]["status"], rows[copied]["resident"]) == ("live", True)
    assert rows[copied]["class"] == "scratch" and rows[copied]["body"] == "was"
    assert _window(handle) == {new, copied}
    receipts = _receipts(engine, boundary_id, decided.set_id)
    for kind in ("review", "commit"):
        assert receipts[kind]["rule_made"] == [made]
        assert f"rule: {REHYDRATE}" in receipts[kind]["reasons"]
    # The held copy stays past its one use: the new entry holds it by a hard REQUIRES.
    later = handle.commit(proposal(boundary_id, entry(key="later")))
    assert later.outcome == "commit"
    assert copied in _window(handle)
    _clean(engine, handle, boundary_id)


def test_under_rehydrate_an_essential_derivation_keeps_its_provenance_and_the_copy_is_spent(
    czar_free_engine: Any, boundary_id: str
) -> None:
    engine = czar_free_engine
    handle = engine.boundary(boundary_id)
    old = _old(handle, boundary_id, "retired")
    decided = handle.commit(
        proposal(
            boundary_id,
            entry(cls="fact", key="new", derived_from=[{"entry_id": old, "essential": True}]),
        )
    )
    assert decided.outcome == "commit", decided
    new, copied = decided.entry_ids[1], decided.entry_ids[0]
    assert copied.startswith(f"{old}@rehydrated-") and decided.rule_made
    # Provenance stays the original's: the new entry derives from it essentially, the copy
    # through a supporting edge.
    rows = engine.executor.read(
        "invalidation/children", boundary_id=boundary_id, parents=[old], cap=10
    )
    assert {(c, e) for c, e in zip(rows[0]["children"], rows[0]["essential"], strict=True)} == {
        (new, True),
        (copied, False),
    }
    assert copied in _window(handle)
    # The next work set spends the copy's one use: nothing holds it.
    spent = handle.commit(proposal(boundary_id, entry(key="next")))
    assert spent.outcome == "commit"
    assert copied not in _window(handle)
    assert _entries(engine, boundary_id)[copied]["status"] == "retired"
    assert new in _window(handle)
    _clean(engine, handle, boundary_id)


def test_under_halt_a_retired_dependency_halts_with_the_rule_as_its_amendment(
    czar_free_engine: Any, boundary_id: str
) -> None:
    engine = czar_free_engine
    handle = engine.boundary(boundary_id, constitution=_halting(boundary_id))
    old = _old(handle, boundary_id, "retired")
    held = handle.commit(
        proposal(boundary_id, entry(key="new", requires=[{"entry_id": old, "policy": "hard"}]))
    )
    assert (held.outcome, held.reason_code) == ("halt", "NON_STANDING_DEPENDENCY")
    assert held.suggested_amendment == '[on_dependency] retired = "rehydrate"'
    assert "--" not in held.suggested_amendment
    assert _window(handle) == set()
    # The operator adopts the amendment; the halted set is decided again under it.
    amended = _constitution(boundary_id, "amended")
    result = engine.halts.resolve(
        held.halt_id, "amend", operator_id="operator", reason="rebuild", amendment=amended.text
    )
    assert result.decision is not None and result.decision.outcome == "commit"
    assert result.decision.rule_made and REHYDRATE in result.decision.rule_made[0]
    _clean(engine, handle, boundary_id)


@pytest.mark.parametrize(
    "statuses",
    [("superseded",), ("invalidated",), ("superseded", "retired"), ("at_risk", "retired")],
    ids=["superseded", "invalidated", "superseded-then-retired", "failed-then-retired"],
)
def test_no_rule_makes_superseded_or_failed_state_load_bearing(
    czar_free_engine: Any, boundary_id: str, statuses: tuple[str, ...]
) -> None:
    engine = czar_free_engine
    handle = engine.boundary(boundary_id)
    old = _old(handle, boundary_id, *statuses)
    held = handle.commit(
        proposal(boundary_id, entry(key="new", requires=[{"entry_id": old, "policy": "hard"}]))
    )
    assert (held.outcome, held.reason_code) == ("halt", "NON_STANDING_DEPENDENCY")
    assert held.suggested_amendment and "on_dependency" not in held.suggested_amendment
    assert _window(handle) == set()
    _clean(engine, handle, boundary_id)


def test_a_writer_cannot_propose_a_copy_id_nor_rehydrate_scratch(
    czar_free_engine: Any, boundary_id: str
) -> None:
    engine = czar_free_engine
    handle = engine.boundary(boundary_id)
    squat = handle.commit(proposal(boundary_id, entry(id=f"{boundary_id}/x@rehydrated-0123")))
    assert (squat.outcome, squat.reason_code) == ("reject", "ENTRY_ID_TAKEN")
    scratch = _old(handle, boundary_id, "retired", cls="scratch")
    held = handle.commit(
        proposal(
            boundary_id,
            entry(
                key="new",
                requires=[{"entry_id": scratch, "policy": "hard"}],
                attributes={"recalled_by_rule": REHYDRATE},
            ),
        )
    )
    assert (held.outcome, held.reason_code) == ("halt", "NON_STANDING_DEPENDENCY")
    _clean(engine, handle, boundary_id)


def test_a_retired_entry_of_another_boundary_is_not_rehydrated(
    czar_free_engine: Any, boundary_id: str
) -> None:
    engine = czar_free_engine
    other_id = f"{boundary_id}-other"
    other = engine.boundary(other_id)
    old = _old(other, other_id, "retired")
    handle = engine.boundary(boundary_id)
    refused = handle.commit(
        proposal(
            boundary_id,
            entry(
                key="new",
                requires=[{"entry_id": old, "boundary_id": other_id, "policy": "hard"}],
            ),
        )
    )
    assert refused.outcome in ("reject", "halt") and refused.reason_code != "COMMIT"
    assert not refused.rule_made
    assert _window(handle) == set()


# -- [key_families] -----------------------------------------------------------------------------


def _release(handle: Any, boundary_id: str) -> str:
    old = f"{boundary_id}/rel"
    seeded = handle.commit(proposal(boundary_id, entry(id=old, key="release/version", body="1")))
    assert seeded.outcome == "commit", seeded
    return old


def _named(engine: Any, boundary_id: str, decision: Any, made: str, edge: tuple[Any, ...]) -> None:
    """The decision and both receipts name what the rule made; the one SUPERSEDES edge is
    ``edge`` (new id, old id, executed, rule)."""
    rule = made.split(":", 1)[0]
    assert decision.rule_made == (made,)
    chain = engine.executor.read("audits/supersession_chain", boundary_id=boundary_id)
    assert [(c["new_id"], c["old_id"], c["executed"], c["rule"]) for c in chain] == [edge]
    receipts = _receipts(engine, boundary_id, decision.set_id)
    for kind in ("review", "commit"):
        assert receipts[kind]["rule_made"] == [made]
        assert f"rule: {rule}" in receipts[kind]["reasons"]


def _supersede(handle: Any, boundary_id: str, old: str, key: str, **extra: Any) -> Any:
    return handle.commit(
        proposal(
            boundary_id,
            entry(key=key, body="2", supersedes=[{"entry_id": old, "reason": "moved"}], **extra),
        )
    )


def test_without_a_family_a_cross_key_supersession_halts_with_the_family_that_decides_it(
    czar_free_engine: Any, boundary_id: str
) -> None:
    engine = czar_free_engine
    handle = engine.boundary(boundary_id)
    old = _release(handle, boundary_id)
    held = _supersede(
        handle, boundary_id, old, "release/cost", attributes={"key_family": "release"}
    )
    assert (held.outcome, held.reason_code) == ("halt", "SUPERSESSION_TARGET")
    assert held.suggested_amendment == '[key_families] release = ["release/*"]'
    assert _entries(engine, boundary_id)[old]["status"] == "live"
    _clean(engine, handle, boundary_id)


def test_inside_a_declared_family_a_cross_key_supersession_commits_and_names_the_family(
    czar_free_engine: Any, boundary_id: str
) -> None:
    engine = czar_free_engine
    handle = engine.boundary(
        boundary_id, constitution=_families(boundary_id, 'release = ["release/*"]')
    )
    old = _release(handle, boundary_id)
    moved = _supersede(handle, boundary_id, old, "release/cost")
    assert moved.outcome == "commit", moved
    new = moved.entry_ids[0]
    made = f"key_families=release: {new} supersedes {old}"
    _named(engine, boundary_id, moved, made, (new, old, True, "key_families=release"))
    assert _entries(engine, boundary_id)[old]["status"] == "superseded"
    assert _window(handle) == {new}
    _clean(engine, handle, boundary_id)


def test_across_families_or_onto_a_superseded_target_still_halts(
    czar_free_engine: Any, boundary_id: str
) -> None:
    engine = czar_free_engine
    handle = engine.boundary(
        boundary_id,
        constitution=_families(boundary_id, 'release = ["release/*"]\ndocs = ["docs/*"]'),
    )
    old = _release(handle, boundary_id)
    across = _supersede(handle, boundary_id, old, "docs/cost")
    assert (across.outcome, across.reason_code) == ("halt", "SUPERSESSION_TARGET")
    assert across.suggested_amendment == '[key_families] release = ["docs/cost", "release/version"]'
    assert _supersede(handle, boundary_id, old, "release/cost").outcome == "commit"
    stale = _supersede(handle, boundary_id, old, "release/other")
    assert (stale.outcome, stale.reason_code) == ("halt", "SUPERSESSION_TARGET")
    assert "key_families" not in (stale.suggested_amendment or "")
    _clean(engine, handle, boundary_id)


# -- [on_supersession] retired --------------------------------------------------------------------


def _on_key(handle: Any, boundary_id: str, *statuses: str) -> str:
    """A decision on key ``release/version`` that an operator then moves through ``statuses``."""
    old = _release(handle, boundary_id)
    _move(handle, boundary_id, old, *statuses)
    return old


def test_a_supersession_of_a_retired_entry_is_recorded_by_the_rule_not_executed(
    czar_free_engine: Any, boundary_id: str
) -> None:
    engine = czar_free_engine
    handle = engine.boundary(boundary_id)  # the shipped constitution records it
    old = _on_key(handle, boundary_id, "retired")
    recorded = _supersede(handle, boundary_id, old, "release/version")
    assert recorded.outcome == "commit", recorded
    new = recorded.entry_ids[0]
    made = f"on_supersession=record: {new} supersedes retired {old}: recorded, not executed"
    _named(engine, boundary_id, recorded, made, (new, old, False, "on_supersession=record"))
    assert "recorded by the constitution's rule" in recorded.feedback()
    rows = _entries(engine, boundary_id)
    assert (rows[old]["status"], rows[old]["resident"]) == ("retired", False)
    assert _window(handle) == {new}
    # Declared replaced, it is no longer rebuildable state: depending on it halts.
    held = handle.commit(
        proposal(boundary_id, entry(key="x", requires=[{"entry_id": old, "policy": "hard"}]))
    )
    assert (held.outcome, held.reason_code) == ("halt", "NON_STANDING_DEPENDENCY")
    assert "on_dependency" not in (held.suggested_amendment or "")
    _clean(engine, handle, boundary_id)


def test_under_halt_a_supersession_of_a_retired_entry_halts_with_the_rule_as_amendment(
    czar_free_engine: Any, boundary_id: str
) -> None:
    engine = czar_free_engine
    handle = engine.boundary(
        boundary_id,
        constitution=_constitution(
            boundary_id, "sup-halt", ('retired = "record"', 'retired = "halt"')
        ),
    )
    old = _on_key(handle, boundary_id, "retired")
    held = _supersede(handle, boundary_id, old, "release/version")
    assert (held.outcome, held.reason_code) == ("halt", "SUPERSESSION_TARGET")
    assert held.suggested_amendment == '[on_supersession] retired = "record"'
    _clean(engine, handle, boundary_id)


@pytest.mark.parametrize(
    ("statuses", "key"),
    [(("superseded", "retired"), "release/version"), (("retired",), "release/other")],
    ids=["superseded-then-retired", "another-key"],
)
def test_no_rule_records_a_supersession_of_superseded_state_or_across_keys(
    czar_free_engine: Any, boundary_id: str, statuses: tuple[str, ...], key: str
) -> None:
    engine = czar_free_engine
    handle = engine.boundary(boundary_id)
    old = _on_key(handle, boundary_id, *statuses)
    held = _supersede(handle, boundary_id, old, key)
    assert (held.outcome, held.reason_code) == ("halt", "SUPERSESSION_TARGET")
    assert "on_supersession" not in (held.suggested_amendment or "")
    assert not held.rule_made
    _clean(engine, handle, boundary_id)
