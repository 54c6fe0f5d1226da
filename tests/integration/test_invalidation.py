"""Invalidation walks against the real Neo4j: the mandatory missing-dependency
case, the well-formed lie, graded propagation, bounds, and revalidation (WEAK_REVALIDATION)."""

from __future__ import annotations

import itertools
import random
from typing import Any

from kg_context.record.history import index, walk
from kg_context.record.invalidation import challenge, invalidate
from kg_context.record.walk import walk as walk_forward
from kg_context.residency.recall import admit
from kg_context.settings import InvalidationSettings
from tests.factories import entry, proposal


def _entries(engine: Any, boundary_id: str) -> dict[str, dict[str, Any]]:
    rows = engine.executor.read("audits/boundary_entries", boundary_id=boundary_id)
    return {row["id"]: row for row in rows}


def _closure(
    edges: dict[str, list[tuple[str, bool]]], roots: set[str], essential: bool
) -> set[str]:
    """Reference reachability over the declared edges (child -> [(parent, essential)])."""
    found: set[str] = set()
    changed = True
    while changed:
        changed = False
        for child, parents in edges.items():
            if child in found or child in roots:
                continue
            if any((p in roots or p in found) and (e or not essential) for p, e in parents):
                found.add(child)
                changed = True
    return found


def _revalidation(boundary_id: str, ids: list[str], refs: list[str], **extra: Any) -> Any:
    return {
        "id": f"{boundary_id}-reval-{ids[0][-8:]}-{len(ids)}-{len(refs)}",
        "boundary_id": boundary_id,
        "writer_id": "writer-2",
        "writer_kind": "agent",
        "targets": ["t"],
        "revalidates": refs,
        "transitions": [
            {"entry_id": i, "to": "revalidated", "reason": "re-examined against the new facts"}
            for i in ids
        ],
        **extra,
    }


def test_mandatory_case_omitted_dependency_revealed_after_fifty_sets(
    czar_free_engine: Any, boundary_id: str
) -> None:
    engine = czar_free_engine  # a czar-free boundary: it counts seqs set by set
    b = boundary_id
    boundary = engine.boundary(b)
    rng = random.Random(5)
    edges: dict[str, list[tuple[str, bool]]] = {}
    base: list[str] = []
    for i in range(1, 10):
        ids = [f"{b}-base{i}"]
        if i == 5:
            ids.append(f"{b}-X")
            base_entries = [
                entry(key=f"base{i}", body=f"base decision {i}", id=ids[0]),
                entry(
                    cls="fact",
                    key="cache",
                    body="the cache is strongly consistent",
                    id=ids[1],
                    attributes={"source": "vendor doc"},
                ),
            ]
        else:
            base_entries = [entry(key=f"base{i}", body=f"base decision {i}", id=ids[0])]
        assert boundary.commit(proposal(b, *base_entries)).seq == i
        base.extend(ids)
    # Set 10: the decision that should have declared DERIVED_FROM X, and did not.
    d10, f10 = f"{b}-D10", f"{b}-F10"
    ten = boundary.commit(
        proposal(
            b,
            entry(key="reads", body="serve reads from the cache", id=d10),
            entry(
                cls="fact", key="hit-rate", body="hit rate 97%", id=f10, attributes={"source": "m"}
            ),
        )
    )
    assert ten.seq == 10
    descendants = [d10, f10]
    standing = [d10, f10]  # what a new set may still derive from essentially (not superseded)
    noise: list[str] = list(base)
    live_by_key: dict[str, str] = {}
    for i in range(11, 66):  # 55 more sets with ratified descendants (and unrelated noise)
        child = f"{b}-c{i}"
        parents = [(rng.choice(standing), i < 15 or rng.random() < 0.75)]
        if rng.random() < 0.3:
            parents.append((rng.choice(noise), rng.random() < 0.5))
        supersedes = []
        key = f"c{i}"
        if i % 9 == 0 and live_by_key:
            key, old = sorted(live_by_key.items())[rng.randrange(len(live_by_key))]
            supersedes = [{"entry_id": old, "reason": "revised"}]
            parents = [(old, True)]
        cls = ("decision", "plan", "constraint")[i % 3]
        edges[child] = parents
        n = f"{b}-n{i}"
        n_parent = rng.choice(noise)
        edges[n] = [(n_parent, True)]
        decision = boundary.commit(
            proposal(
                b,
                entry(
                    cls=cls,
                    key=key,
                    body=f"built on the cache decision, step {i}",
                    id=child,
                    supersedes=supersedes,
                    derived_from=[{"entry_id": p, "essential": e} for p, e in parents],
                ),
                entry(
                    key=f"n{i}",
                    body=f"unrelated work {i}",
                    id=n,
                    derived_from=[{"entry_id": n_parent, "essential": True}],
                ),
            )
        )
        assert (decision.outcome, decision.seq) == ("commit", i), decision
        descendants.append(child)
        standing.append(child)
        noise.append(n)
        for s in supersedes:
            live_by_key.pop(key, None)
            standing.remove(s["entry_id"])
        live_by_key[key] = child
    assert boundary.state().seq == 65
    roots = {d10, f10}
    expected_at_risk = _closure(edges, roots, essential=True)
    expected_flagged = _closure(edges, roots, essential=False) - expected_at_risk
    assert len(expected_at_risk) >= 10 and expected_flagged  # the generator made both grades

    # First, X is found false: its declared descendants only; D10's radius is invisible.
    x_result = invalidate(
        boundary, f"{b}-X", reason="the cache is eventually consistent", writer_id="operator"
    )
    assert x_result.decision.outcome == "commit"
    assert not (set(x_result.walk.at_risk) | set(x_result.walk.flagged)) & (
        expected_at_risk | roots
    )

    # Then the omission is revealed: set 10 depended on X without declaring it.
    before = _entries(engine, b)
    result = challenge(
        boundary, ten.set_id, reason="set 10 omitted its dependency on X", writer_id="operator"
    )
    assert result.decision.outcome == "commit"
    assert set(result.walk.failed) == roots
    assert set(result.walk.at_risk) == expected_at_risk
    assert set(result.walk.flagged) == expected_flagged
    assert not result.walk.cut
    after = _entries(engine, b)
    for entry_id, row in after.items():
        if entry_id in roots:
            assert row["status"] == "challenged"
        elif entry_id in expected_at_risk:
            assert row["status"] == "at_risk", entry_id
        elif entry_id in before:
            assert row["status"] == before[entry_id]["status"], entry_id  # flagged: not decided
    summary = after[result.summary_entry_id]
    assert summary["set_seq"] == result.decision.seq
    assert summary["body"].splitlines()[0] == result.proposal.summary
    assert (summary["class"], summary["status"]) == ("fact", "live")
    last = index(boundary)[-1]
    assert (last.set_id, last.kind) == (result.decision.set_id, "invalidation")
    # The governed index line counts the declared transitions; the set's own summary (the
    # blast radius in words) is on the walk.
    assert f"{len(expected_at_risk)} -> at_risk" in last.summary
    radius = walk(boundary, result.decision.set_id).summary
    assert f"{len(expected_at_risk)} at risk (essential)" in radius
    assert f"{len(expected_flagged)} flagged (supporting)" in radius
    opened = walk(boundary, ten.set_id)
    assert {r.entry for r in opened.transitioned_later if r.to_status == "challenged"} == roots
    assert result.decision.set_id in opened.later_sets

    actions = result.recovery_actions()
    assert actions == {
        "replace_failed": 2,
        "decide_at_risk": len(expected_at_risk),
        "review_flagged": len(expected_flagged),
        "total": 2 + len(expected_at_risk) + len(expected_flagged),
    }
    print(f"\nmandatory case: blast radius {sorted(actions.items())}")

    # Recovery: a weak revalidation halts; referencing the failed ancestor passes.
    at_risk = sorted(expected_at_risk)
    weak = boundary.commit(_revalidation(b, at_risk[:1], [f"{b}-base1"]))
    assert (weak.outcome, weak.reason_code) == ("halt", "WEAK_REVALIDATION")
    keep, drop = at_risk[::2], at_risk[1::2]
    assert boundary.commit(_revalidation(b, keep, sorted(roots))).outcome == "commit"
    dropped = boundary.commit(
        {
            "id": f"{b}-drop",
            "boundary_id": b,
            "writer_id": "writer-2",
            "writer_kind": "agent",
            "targets": ["t"],
            "transitions": [
                {"entry_id": i, "to": "invalidated", "reason": "built on the false cache claim"}
                for i in drop
            ],
        }
    )
    assert dropped.outcome == "commit"
    final = _entries(engine, b)
    assert not [i for i in expected_at_risk if final[i]["status"] == "at_risk"]
    assert {final[i]["status"] for i in keep} == {"revalidated"}
    assert {final[i]["status"] for i in drop} == {"invalidated"}
    taken = {"halts": 1, "revalidated": len(keep), "invalidated": len(drop), "recovery_sets": 2}
    print(f"mandatory case: recovery actions taken {sorted(taken.items())}")
    assert taken["revalidated"] + taken["invalidated"] == actions["decide_at_risk"]


def test_the_well_formed_lie_is_traced_and_a_is_recallable(engine: Any, boundary_id: str) -> None:
    b = boundary_id
    boundary = engine.boundary(b)
    a, lie = f"{b}-A", f"{b}-B"
    first = boundary.commit(proposal(b, entry(key="store", body="Use Postgres for storage", id=a)))
    boundary.commit(
        proposal(
            b,
            entry(
                key="store",
                body="Use Redis for the session cache",
                id=lie,
                supersedes=[{"entry_id": a, "reason": "storage settled"}],
            ),
        )
    )
    c, d, e, f, g = (f"{b}-{x}" for x in "CDEFG")
    for child, parent, essential in (
        (c, lie, True),
        (d, c, True),
        (e, lie, False),
        (f, e, True),
    ):
        boundary.commit(
            proposal(
                b,
                entry(
                    key=child[-1],
                    body=f"depends on {parent[-1]}",
                    id=child,
                    derived_from=[{"entry_id": parent, "essential": essential}],
                ),
            )
        )
    boundary.commit(proposal(b, entry(key="G", body="unrelated", id=g)))
    assert _entries(engine, b)[a]["status"] == "superseded"

    result = invalidate(
        boundary, lie, reason="B addressed caching, not storage", writer_id="operator"
    )
    assert result.decision.outcome == "commit"
    assert result.walk.at_risk == sorted([c, d])
    assert result.walk.flagged == sorted([e, f])
    rows = _entries(engine, b)
    assert rows[lie]["status"] == "invalidated"
    assert {i: rows[i]["status"] for i in (c, d, e, f, g)} == {
        c: "at_risk",
        d: "at_risk",
        e: "live",
        f: "live",
        g: "live",
    }
    # A: untouched by the walk, its record and its history intact.
    assert (rows[a]["status"], rows[a]["body"]) == ("superseded", "Use Postgres for storage")
    opened = walk(boundary, first.set_id)
    assert [(r.entry, r.other, r.reason) for r in opened.superseded_by] == [
        (a, lie, "storage settled")
    ]
    lie_set = walk(boundary, rows[lie]["set_id"])
    assert [(r.entry, r.to_status) for r in lie_set.transitioned_later] == [(lie, "invalidated")]
    # ... and recallable through the gate, tagged with what superseded it.
    admission = admit(boundary, [a], writer_id="writer-3")
    assert admission.decision.outcome == "commit"
    copy = _entries(engine, b)[admission.copies[a]]
    assert copy["body"] == "Use Postgres for storage"


def _derive(boundary: Any, child: str, parent: str, *, key: str) -> None:
    """Commit ``child``, essentially derived from ``parent``, in a set of its own."""
    decision = boundary.commit(
        proposal(
            boundary.id,
            entry(
                key=key,
                body="next",
                id=child,
                derived_from=[{"entry_id": parent, "essential": True}],
            ),
        )
    )
    assert decision.outcome == "commit", decision


def test_the_walk_is_bounded_and_says_so(engine: Any, boundary_id: str) -> None:
    b = boundary_id
    boundary = engine.boundary(b)
    chain = [f"{b}-k{i}" for i in range(6)]
    boundary.commit(proposal(b, entry(key="k0", body="root", id=chain[0])))
    for parent, child in itertools.pairwise(chain):
        _derive(boundary, child, parent, key=child[-2:])
    deep = challenge(
        boundary,
        chain[0],
        reason="probe",
        writer_id="operator",
        settings=InvalidationSettings(max_depth=2),
    )
    assert deep.walk.at_risk == sorted(chain[1:3])
    assert (deep.walk.cut_by_depth, deep.walk.cut_by_size, deep.walk.depth) == (True, False, 2)
    assert deep.proposal.summary and "CUT by depth bound 2" in deep.proposal.summary
    wide = invalidate(
        boundary,
        chain[0],
        reason="probe",
        writer_id="operator",
        settings=InvalidationSettings(max_nodes=1),
    )
    assert wide.walk.cut_by_size and wide.walk.at_risk == [chain[1]]
    assert wide.proposal.summary and "CUT by size bound 1" in wide.proposal.summary
    unbounded = invalidate(boundary, chain[1], reason="probe", writer_id="operator")
    assert unbounded.walk.at_risk == sorted(chain[2:]) and not unbounded.walk.cut


def test_an_essential_descendant_that_may_not_go_at_risk_is_reported_blocked(
    engine: Any, boundary_id: str
) -> None:
    """The one read returns only the essential descendants whose status may not move to at_risk
    (``reach_essential.cypher`` filters by the status machine's list): an invalidated one and an
    at-risk one are blocked with their statuses, a live one is not; the walk in pages (which
    reads every child's status) finds the same."""
    b = boundary_id
    boundary = engine.boundary(b)
    root, dead, under, alive = (f"{b}-{name}" for name in ("root", "dead", "under", "alive"))
    boundary.commit(proposal(b, entry(key="root", body="root", id=root)))
    for child, parent in ((dead, root), (under, dead), (alive, root)):
        _derive(boundary, child, parent, key=child[-5:])
    invalidate(boundary, dead, reason="wrong", writer_id="operator")  # under goes at_risk
    found = walk_forward(engine.executor, b, {root: "live"}, max_depth=8, max_nodes=100)
    assert found.blocked == {dead: "invalidated", under: "at_risk"}
    assert found.at_risk == sorted([dead, under, alive])
    in_pages = walk_forward(
        engine.executor, b, {root: "live"}, max_depth=8, max_nodes=100, one_read_max=0
    )
    assert in_pages.blocked == found.blocked


def test_revalidation_by_derived_from_passes_and_without_reference_halts(
    engine: Any, boundary_id: str
) -> None:
    b = boundary_id
    boundary = engine.boundary(b)
    root, child = f"{b}-r", f"{b}-c"
    boundary.commit(proposal(b, entry(key="r", body="root", id=root)))
    boundary.commit(
        proposal(
            b,
            entry(
                key="c",
                body="child",
                id=child,
                derived_from=[{"entry_id": root, "essential": True}],
            ),
        )
    )
    challenge(boundary, root, reason="doubt", writer_id="operator")
    before = _entries(engine, b)[child]["status"]
    weak = boundary.commit(_revalidation(b, [child], []))
    assert (weak.outcome, weak.reason_code, before) == ("halt", "WEAK_REVALIDATION", "at_risk")
    assert _entries(engine, b)[child]["status"] == "at_risk"
    strong = boundary.commit(
        {
            **_revalidation(b, [child], []),
            "id": f"{b}-strong",
            "entries": [
                entry(
                    key="why",
                    body="re-checked the child against the root's evidence",
                    derived_from=[{"entry_id": root, "essential": False}],
                )
            ],
        }
    )
    assert strong.outcome == "commit"
    assert _entries(engine, b)[child]["status"] == "revalidated"


def test_a_root_with_20000_descendants_walks_in_pages_and_commits_in_linked_sets(
    engine: Any, boundary_id: str
) -> None:
    """Under the server's default transaction memory limit
    (the test server runs Neo4j's defaults), invalidating a root with 20,000 descendants raises
    nothing; the walk completes, in one read and in pages; the blast radius (more transitions
    than one proposal may carry at the default of 5,000 per set) is committed as linked sets;
    and every count in the summary is exact against a reference closure over the declared
    edges."""
    b = boundary_id
    boundary = engine.boundary(b)
    rng = random.Random(20_000)
    root = f"{b}-root"
    assert (
        boundary.commit(proposal(b, entry(key="root", body="the root", id=root))).outcome
        == "commit"
    )
    level1 = [f"{b}-l1-{i}" for i in range(200)]
    level2 = [f"{b}-l2-{i}" for i in range(19_800)]
    edges: dict[str, list[tuple[str, bool]]] = {child: [(root, True)] for child in level1}
    for i, child in enumerate(level2):
        parents = [(level1[i % 200], rng.random() < 0.9)]
        other = rng.choice(level1)
        if rng.random() < 0.2 and other != parents[0][0]:
            parents.append((other, False))
        edges[child] = parents
    proposals = []
    ids = level1 + level2
    for start in range(0, len(ids), 30):  # at most 60 edges a set: under max_set_fanout (64)
        chunk = ids[start : start + 30]
        proposals.append(
            proposal(
                b,
                *[
                    entry(
                        cls="plan",
                        key=child[len(b) + 1 :],
                        body="derived work",
                        id=child,
                        derived_from=[{"entry_id": p, "essential": e} for p, e in edges[child]],
                    )
                    for child in chunk
                ],
                set_id=f"{b}-set{start}",
                # Each set says what it touches: a set without a target is evaluated with every
                # set sharing a dependency (the root, a level-1 entry) for fragmentation.
                targets=[f"load-{start}"],
            )
        )
    for start in range(0, len(proposals), 250):
        decided = boundary.commit_many(proposals[start : start + 250])
        assert {d.outcome for d in decided} == {"commit"}, decided[0]
    expected_at_risk = _closure(edges, {root}, essential=True)
    expected_flagged = _closure(edges, {root}, essential=False) - expected_at_risk
    assert len(expected_at_risk) + len(expected_flagged) == 20_000

    # The size bound cuts in the traversal itself: the shallowest 5,000 (then by id), in pages,
    # never the whole radius in one server transaction (which ran out of memory before).
    cut = walk_forward(engine.executor, b, {root: "live"}, max_depth=64, max_nodes=5_000)
    assert cut.cut_by_size and not cut.cut_by_depth and cut.reached == 5_000
    assert set(cut.essential) | set(cut.supporting) == set(level1) | set(sorted(level2)[:4_800])

    # The whole radius in pages (the one read turned off): the same grades, each statement
    # bounded by a page.
    paged = walk_forward(
        engine.executor, b, {root: "live"}, max_depth=64, max_nodes=100_000, one_read_max=0
    )
    assert not paged.cut and paged.reached == 20_000 and paged.depth == 2
    assert paged.paged and paged.pages == 1 + 1 + 10  # root, level 1, level 2 in pages of 2,000
    assert set(paged.at_risk) == expected_at_risk
    assert set(paged.flagged) == expected_flagged

    result = invalidate(boundary, root, reason="the root was wrong", writer_id="operator")

    found = result.walk  # the default bounds: the radius in one read (two statements)
    assert not found.cut and found.reached == 20_000 and found.depth == 2
    assert not found.paged and found.pages == 1
    assert set(found.at_risk) == expected_at_risk
    assert set(found.flagged) == expected_flagged
    transitions = 1 + len(expected_at_risk)
    parts = -(-transitions // 5_000)
    assert result.parts == parts >= 4 and result.complete
    assert [d.outcome for d in result.decisions] == ["commit"] * parts
    assert [d.seq for d in result.decisions] == list(
        range(result.decision.seq, result.decision.seq + parts)
    )
    assert result.proposal.summary is not None
    assert f"{len(expected_at_risk)} at risk (essential)" in result.proposal.summary
    assert f"{len(expected_flagged)} flagged (supporting)" in result.proposal.summary
    assert f"depth 2; committed in {parts} sets" in result.proposal.summary
    rows = _entries(engine, b)
    assert rows[result.summary_entry_id]["set_id"] == result.decision.set_id
    attributes = result.proposal.entries[0].attributes
    assert (attributes["failed"], attributes["at_risk"], attributes["flagged"]) == (
        1,
        len(expected_at_risk),
        len(expected_flagged),
    )
    assert (attributes["parts"], attributes["pages"]) == (parts, found.pages)
    assert rows[root]["status"] == "invalidated"
    assert {i for i, r in rows.items() if r["status"] == "at_risk"} == expected_at_risk
    assert all(rows[i]["status"] == "live" for i in expected_flagged)
    # The parts are linked: each names the invalidation and derives from part 1's summary.
    for number, part in enumerate(result.proposals[1:], start=2):
        assert rows[part.entry_ids()[0]]["set_id"] == result.decisions[number - 1].set_id
        extra = part.entries[0].attributes
        assert (extra["invalidation"], extra["part"], extra["parts"]) == (
            result.decision.set_id,
            number,
            parts,
        )
        assert part.entries[0].derived_from[0].entry_id == result.summary_entry_id
    assert len(result.moved_at_risk) == len(expected_at_risk)
