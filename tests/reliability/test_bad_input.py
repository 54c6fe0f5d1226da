"""Bad input: generated proposals (hypothesis), Cypher injection in every text
field, 1 MB bodies, deeply nested JSON, a dependency chain 10,000 deep and cycles in declared
dependencies. Nothing crashes; every malformed input is a typed rejection
(``InputValidationError`` in Python, a 422/413 problem over HTTP) and changes nothing (nodes and
relationships counted before and after); a gate rejection writes no entry and no edge between
entries; walks over deep or cyclic graphs are bounded.

``KG_TEST_FUZZ_EXAMPLES`` sets how many generated proposals run through the real database
(default 300 in the suite; ``make fuzz-input`` runs 10,000) and ``KG_TEST_FUZZ_SEED`` the seed
(printed, so a run can be repeated).
"""

from __future__ import annotations

import json
import os
import re
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st

from kg_context.db.catalog import Catalog
from kg_context.db.connection import open_driver
from kg_context.engine import Engine
from kg_context.errors import InputValidationError
from kg_context.gate.pure.constitution import default_constitution_text, parse_constitution
from kg_context.gate.pure.contracts import parse_proposal
from kg_context.vocabulary import EntryClass
from tests.integration.api_server import Server, running

FIXTURES = Path(__file__).parent / "fixtures"
EXAMPLES = int(os.environ.get("KG_TEST_FUZZ_EXAMPLES", "300"))
SEED = int(os.environ.get("KG_TEST_FUZZ_SEED", "15"))
CHAIN = int(os.environ.get("KG_TEST_CHAIN_DEPTH", "10000"))

INJECTIONS = [
    "'}) MATCH (n) DETACH DELETE n //",
    '"}) CREATE (:Pwned) //',
    "x` }) CREATE (:Pwned) WITH 1 AS x MATCH (y) RETURN y //",
    "$boundary_id",
    "{boundary_id}",
    "\\u0027) CREATE (:Pwned)//",
    "CALL dbms.security.createUser('mallory', 'pw', false)",
    "MERGE (:Pwned {by: 'injection'}) RETURN 1; MATCH (n) DETACH DELETE n",
    "\x00\x01 null bytes and \u202e right-to-left",
    "' OR 1=1 --",
]


# Its tests count every node and relationship of the database around each request: they run on
# the suite's second server, which only the tests of its group write to, one at a time on one
# worker (tests/conftest.py), so they run beside the rest of the suite rather than after it.
@pytest.fixture(scope="module")
def engine(second_engine: Engine) -> Engine:
    return second_engine


@pytest.fixture(scope="module")
def raw(engine: Engine) -> Iterator[Engine]:
    target = engine.target
    with Engine(open_driver(target), target, catalog=Catalog(FIXTURES)) as counting:
        yield counting


def _graph(raw: Engine) -> tuple[int, int]:
    row = raw.executor.read("counts/graph")[0]
    return row["nodes"], row["relationships"]


def _pwned(engine: Engine) -> int:
    rows = engine.run_audit("pwned_nodes").rows
    return int(rows[0]["pwned"])


# -- generated proposals --------------------------------------------------------------------------

IDS = st.from_regex(r"\A[A-Za-z0-9][A-Za-z0-9._:/#@+-]{0,30}\Z")
TEXT = st.text(max_size=80) | st.sampled_from(INJECTIONS)
JUNK = st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20)


@st.composite
def valid_entries(draw: st.DrawFn, n: int) -> dict[str, Any]:
    cls = draw(st.sampled_from([c.value for c in EntryClass if c.value != "interface"]))
    entry: dict[str, Any] = {
        "id": f"e{n}-{draw(IDS)}",
        "class": cls,
        "key": draw(st.text(min_size=1, max_size=40)),
        "body": draw(TEXT),
    }
    if draw(st.booleans()):
        entry["attributes"] = {"source": draw(TEXT)}
    if cls in ("rejected_alternative", "open_question"):
        entry["expires_after"] = draw(st.integers(1, 50))
    if draw(st.booleans()):
        entry["verse"] = draw(st.sampled_from(["internal", "local", "global"]))
    return entry


@st.composite
def proposals(draw: st.DrawFn) -> dict[str, Any]:
    """A proposal that validates, then (half the time) broken in one of many ways."""
    n = draw(st.integers(1, 3))
    data: dict[str, Any] = {
        "id": draw(IDS),
        "boundary_id": "__boundary__",
        "writer_id": draw(st.sampled_from(["planner", "critic", "tool-1"])),
        "writer_kind": draw(st.sampled_from(["agent", "tool", "model"])),
        "set_id": draw(IDS),
        "entries": [draw(valid_entries(i)) for i in range(n)],
    }
    if draw(st.booleans()):
        data["summary"] = draw(TEXT)
    if draw(st.booleans()):
        return data
    mutation = draw(st.integers(0, 11))
    entry = data["entries"][0]
    if mutation == 0:
        del data[draw(st.sampled_from(["id", "writer_id", "writer_kind", "entries"]))]
    elif mutation == 1:
        data[draw(st.sampled_from(["id", "set_id", "writer_id"]))] = draw(JUNK | TEXT)
    elif mutation == 2:
        data[draw(st.text(min_size=1, max_size=10))] = draw(JUNK)
    elif mutation == 3:
        entry["class"] = draw(st.text(max_size=12))
    elif mutation == 4:
        entry["body"] = draw(JUNK)
    elif mutation == 5:
        entry["key"] = ""
    elif mutation == 6:
        entry["derived_from"] = [{"entry_id": draw(IDS | TEXT), "essential": draw(JUNK)}]
    elif mutation == 7:
        entry["attributes"] = {draw(TEXT): draw(JUNK | st.lists(JUNK))}
    elif mutation == 8:
        data["entries"] = draw(JUNK)
    elif mutation == 9:
        data["entries"].append(dict(entry))  # an entry id twice
    elif mutation == 10:
        data["writer_kind"] = draw(st.text(max_size=10))
    else:
        data["transitions"] = [{"entry_id": draw(IDS), "to": draw(TEXT), "reason": draw(TEXT)}]
    return data


@settings(max_examples=max(EXAMPLES, 2000), deadline=None, database=None)
@seed(SEED)
@given(data=proposals())
def test_the_contracts_accept_or_refuse_with_a_typed_error_only(data: dict[str, Any]) -> None:
    """Pure: parsing never raises anything but InputValidationError, and what parses dumps to
    JSON and parses back to the same proposal."""
    try:
        parsed = parse_proposal(data)
    except InputValidationError as err:
        assert str(err).startswith("malformed proposal") and "\n" not in str(err)
        return
    again = parse_proposal(json.loads(parsed.payload()))
    assert again.digest() == parsed.digest()


def test_generated_proposals_through_the_gate_change_nothing_when_refused(
    engine: Engine, raw: Engine, boundary_id: str
) -> None:
    """EXAMPLES generated proposals through ``boundary.commit`` on the real database: malformed
    ones raise ``InputValidationError`` and the graph keeps its node and relationship counts;
    the others are decided (commit, halt or reject), and a rejection adds no entry."""
    # No czar cadence: the cadence czar runs beside the writer and would commit a compaction set
    # between the two reads of one example; this test is about what the gate does with the
    # writer's set.
    boundary = engine.boundary(boundary_id, czar_every_commits=0)
    seen: Counter[str] = Counter()

    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @seed(SEED)
    @given(data=proposals())
    def check(data: dict[str, Any]) -> None:
        data = _in_boundary(data, boundary_id, seen)
        before = _graph(raw)
        entries_before = engine.executor.read("audits/record_counts", boundary_id=boundary_id)
        try:
            decision = boundary.commit(data)
        except InputValidationError:
            seen["malformed"] += 1
            assert _graph(raw) == before
            return
        seen[decision.outcome] += 1
        after = engine.executor.read("audits/record_counts", boundary_id=boundary_id)
        if decision.outcome != "commit":
            assert after[0]["entries"] == entries_before[0]["entries"]
            assert after[0]["entry_edges"] == entries_before[0]["entry_edges"]
            assert after[0]["seq"] == entries_before[0]["seq"]

    started = time.monotonic()
    check()
    print(
        f"\nfuzz (seed {SEED}): {seen['attempt']} proposals through the gate in "
        f"{time.monotonic() - started:.0f}s: {dict(seen)}"
    )
    assert seen["malformed"] > 0 and seen["commit"] > 0
    assert _pwned(engine) == 0
    dirty = [r for r in engine.invariants(boundary_id) if r.rows]
    assert dirty == [], [(r.audit.name, r.rows[:3]) for r in dirty]


def _in_boundary(data: dict[str, Any], boundary_id: str, seen: Counter[str]) -> dict[str, Any]:
    """The generated proposal in the test's boundary, its ids unique per example (a reused id
    with other content is refused by design: not what this test is about)."""
    seen["attempt"] += 1
    n = seen["attempt"]
    data = dict(data)
    if data.get("boundary_id") == "__boundary__":
        data["boundary_id"] = boundary_id
    for key in ("id", "set_id"):
        if isinstance(data.get(key), str) and re.fullmatch(r"[A-Za-z0-9][\w.:/#@+-]*", data[key]):
            data[key] = f"{data[key]}-{n}"[-200:]
    if isinstance(data.get("entries"), list):
        data["entries"] = [
            {**e, "id": f"{e['id']}-{n}"[-200:]}
            if isinstance(e, dict) and isinstance(e.get("id"), str)
            else e
            for e in data["entries"]
        ]
    return data


# -- injection, sizes, nesting --------------------------------------------------------------------


def _injected(boundary_id: str, n: int, payload: str) -> dict[str, Any]:
    """A proposal with the payload in every free-text field (ids are patterns: refused)."""
    return {
        "id": f"inj-{n}",
        "boundary_id": boundary_id,
        "writer_id": "planner",
        "writer_kind": "agent",
        "set_id": f"inj-set-{n}",
        "summary": payload,
        "entries": [
            {
                "id": f"inj-{n}-e",
                "class": "fact",
                "key": payload or "k",
                "body": payload,
                "attributes": {"source": payload},
            }
        ],
    }


def test_cypher_injection_in_every_text_field_is_stored_as_text(
    engine: Engine, raw: Engine, boundary_id: str
) -> None:
    boundary = engine.boundary(boundary_id)
    nodes_before = _graph(raw)[0]
    for n, payload in enumerate(INJECTIONS):
        decision = boundary.commit(_injected(boundary_id, n, payload))
        assert decision.outcome == "commit", decision
        stored = engine.executor.read("audits/boundary_entries", boundary_id=boundary_id)
        (entry,) = [row for row in stored if row["id"] == f"inj-{n}-e"]
        assert entry["key"] == (payload or "k")
        supersede = boundary.commit(
            {
                "id": f"inj-{n}-s",
                "boundary_id": boundary_id,
                "writer_id": "planner",
                "writer_kind": "agent",
                "set_id": f"inj-set-{n}-s",
                "entries": [
                    {
                        "class": "fact",
                        "key": payload or "k",
                        "body": "again",
                        "attributes": {"source": "t"},
                        "supersedes": [{"entry_id": f"inj-{n}-e", "reason": payload or "r"}],
                    }
                ],
                "transitions": [],
            }
        )
        assert supersede.outcome in ("commit", "halt"), supersede
        with pytest.raises(InputValidationError):
            boundary.commit({**_injected(boundary_id, 99, payload), "id": payload})
    assert _pwned(engine) == 0
    assert _graph(raw)[0] > nodes_before  # the sets were written, as text
    # the search and recall paths take the text as parameters too
    assert isinstance(boundary.recall(INJECTIONS[0], k=3), list)
    assert isinstance(boundary.search(INJECTIONS[1], k=3), list)
    assert _pwned(engine) == 0


def test_oversized_and_deeply_nested_input_is_a_typed_rejection(
    engine: Engine, raw: Engine, boundary_id: str
) -> None:
    boundary = engine.boundary(boundary_id)
    before = _graph(raw)
    megabyte = "x" * 1_048_576
    with pytest.raises(InputValidationError, match="body"):
        boundary.commit(_injected(boundary_id, 1, megabyte))
    nested: Any = "leaf"
    for _ in range(10_000):
        nested = [nested]
    with pytest.raises(InputValidationError):
        boundary.commit({**_injected(boundary_id, 2, "x"), "entries": nested})
    deep: Any = {"k": "v"}
    for _ in range(10_000):
        deep = {"k": deep}
    with pytest.raises(InputValidationError):
        boundary.commit(
            {**_injected(boundary_id, 3, "x"), "entries": [{**_entry(), "attributes": deep}]}
        )
    assert _graph(raw) == before


def _entry() -> dict[str, Any]:
    return {"class": "decision", "key": "k", "body": "b"}


def test_the_http_api_answers_bad_bodies_with_problems_and_changes_nothing(
    engine: Engine, raw: Engine, boundary_id: str
) -> None:
    with running(engine, boundary_id, max_body_bytes=1_048_576) as api:
        assert api.call("PUT", f"/boundaries/{boundary_id}", "operator").ok
        before = _graph(raw)
        path = f"/boundaries/{boundary_id}/commit"
        over = json.dumps({"id": "big", "entries": [{**_entry(), "body": "x" * 1_048_576}]})
        answer = _post_raw(api, path, over)
        assert answer.status_code == 413, answer.text
        under = json.dumps({"id": "big", "entries": [{**_entry(), "body": "x" * 1_000_000}]})
        answer = _post_raw(api, path, under)
        assert answer.status_code == 422, answer.text  # over the contract's body ceiling
        nested = "[" * 10_000 + "]" * 10_000
        answer = _post_raw(api, path, '{"id": "n", "entries": ' + nested + "}")
        assert answer.status_code == 422, answer.text
        deep = '{"a": ' * 5_000 + "1" + "}" * 5_000
        answer = _post_raw(api, path, deep)
        assert answer.status_code == 422, answer.text
        for n, payload in enumerate(INJECTIONS):
            body = _injected(boundary_id, 500 + n, payload)
            del body["writer_id"], body["writer_kind"], body["boundary_id"]
            answer = api.call("POST", path, json=body)
            assert answer.status_code == 200, answer.text
            answer = api.call("POST", path, json={**body, "id": payload})
            assert answer.status_code == 422, answer.text
            answer = api.call("GET", f"/boundaries/{boundary_id}/recall", params={"q": payload})
            assert answer.status_code in (200, 422), answer.text
        assert _graph(raw)[0] > before[0]
    assert _pwned(engine) == 0


def _post_raw(api: Server, path: str, text: str) -> Any:
    return api.call("POST", path, data=text.encode(), headers={"content-type": "application/json"})


# -- deep chains and cycles -------------------------------------------------------------------


def _wide_fanout(boundary_id: str) -> Any:
    """The default constitution with room for a 1,000-entry set of chained provenance."""
    text = default_constitution_text()
    text = re.sub(r'(?m)^version = ".*"$', f'version = "chain-{boundary_id[-12:]}"', text)
    text = re.sub(r"(?m)^max_set_fanout = .*$", "max_set_fanout = 100000", text)
    text = re.sub(r"(?m)^max_edges_per_live_entry = .*$", "max_edges_per_live_entry = 100.0", text)
    return parse_constitution(text)


def test_a_dependency_chain_10000_deep_is_walked_within_bounds(
    engine: Engine, boundary_id: str
) -> None:
    """c0 <- c1 <- ... <- c9999: each entry DERIVED_FROM and REQUIRES (hard) the one below it,
    and the top one a goal (a root), so the whole chain is held through 9,999 hops. Every walk
    over it answers: why (the root path, all of it), the czar's reachability (nothing to
    retire), the invalidation walk from the bottom (cut by its depth bound, and saying so),
    the history walk and the blast-radius audit (bounded)."""
    boundary = engine.boundary(boundary_id, constitution=_wide_fanout(boundary_id))
    timings: dict[str, float] = {}
    started = time.monotonic()
    per_set = 1000
    for start in range(0, CHAIN, per_set):
        entries = []
        for i in range(start, min(start + per_set, CHAIN)):
            entry: dict[str, Any] = {"id": f"c{i}", "class": "fact", "key": f"c{i}", "body": "."}
            if i == 0:
                entry["attributes"] = {"source": "the bottom of the chain"}
            else:
                entry["derived_from"] = [{"entry_id": f"c{i - 1}", "essential": True}]
                entry["requires"] = [{"entry_id": f"c{i - 1}", "policy": "hard"}]
            if i == CHAIN - 1:
                entry["class"] = "goal"
            entries.append(entry)
        decision = boundary.commit(
            {
                "id": f"chain-{start}",
                "boundary_id": boundary_id,
                "writer_id": "planner",
                "writer_kind": "agent",
                "set_id": f"chain-{start}",
                "entries": entries,
            }
        )
        assert decision.outcome == "commit", decision
    timings["commit"] = time.monotonic() - started

    started = time.monotonic()
    path = boundary.why("c0")
    timings["why"] = time.monotonic() - started
    assert path.held and len(path.nodes) == CHAIN

    started = time.monotonic()
    report = boundary.run_czar()
    timings["czar"] = time.monotonic() - started
    assert not [d for d in report.decisions if d.outcome == "commit"]  # all of it is held

    started = time.monotonic()
    radius = boundary.challenge("c0", reason="the bottom failed", writer_id="operator")
    timings["invalidation"] = time.monotonic() - started
    assert radius.decision.outcome == "commit", radius.decision
    limits = engine.settings.invalidation
    assert len(radius.moved_at_risk) == limits.max_depth
    assert radius.walk.cut  # the summary says a bound cut the walk

    started = time.monotonic()
    walked = boundary.walk("chain-0")
    timings["history walk"] = time.monotonic() - started
    assert walked is not None
    started = time.monotonic()
    blast = engine.run_audit("blast_radius", boundary_id=boundary_id, params={"set_id": "chain-0"})
    timings["blast_radius audit"] = time.monotonic() - started
    assert max(row["depth"] for row in blast.rows) == 64
    print(
        f"\nchain {CHAIN} deep: "
        + ", ".join(f"{name} {seconds:.1f}s" for name, seconds in timings.items())
    )


def test_cycles_in_declared_dependencies_are_refused_or_walked_to_an_end(
    engine: Engine, boundary_id: str
) -> None:
    """A proposal whose new entries derive from and require each other in a ring: refused
    (DEPENDENCY_CYCLE) or committed, and then every walk ends."""
    boundary = engine.boundary(boundary_id)
    root = boundary.commit(
        {
            "id": "root",
            "boundary_id": boundary_id,
            "writer_id": "planner",
            "writer_kind": "agent",
            "set_id": "root",
            "entries": [{"id": "g", "class": "goal", "key": "g", "body": "goal"}],
        }
    )
    assert root.outcome == "commit"
    ring = ["a", "b", "c"]
    entries = [
        {
            "id": name,
            "class": "fact",
            "key": name,
            "body": name,
            "derived_from": [
                {"entry_id": ring[(i + 1) % 3], "essential": True},
                {"entry_id": "g", "essential": True},
            ],
            "requires": [{"entry_id": ring[(i + 1) % 3], "policy": "hard"}],
        }
        for i, name in enumerate(ring)
    ]
    decision = boundary.commit(
        {
            "id": "ring",
            "boundary_id": boundary_id,
            "writer_id": "planner",
            "writer_kind": "agent",
            "set_id": "ring",
            "entries": entries,
        }
    )
    assert decision.outcome in ("commit", "reject"), decision
    if decision.outcome == "reject":
        assert decision.reason_code == "DEPENDENCY_CYCLE"
    if decision.outcome == "commit":
        # a ring holds itself, but no root holds it: the walk ends, and says so
        assert not boundary.why("a").held
    radius = boundary.challenge("g", reason="the goal failed", writer_id="operator")
    assert radius.decision.outcome == "commit"
    expected = {"a", "b", "c"} if decision.outcome == "commit" else set()
    assert set(radius.moved_at_risk) == expected
    assert boundary.run_czar() is not None
    dirty = [r for r in engine.invariants(boundary_id) if r.rows]
    assert dirty == [], [(r.audit.name, r.rows[:3]) for r in dirty]
