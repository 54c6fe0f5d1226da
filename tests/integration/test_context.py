"""The context a model reads, on the real Neo4j: a property test over random windows (a handful
of boundaries built through the gate once, budgets from 0 to 20,000 tokens, queries or none, the
engine's tokenizer or a crude word counter), and what the text says about recall copies, record
candidates and what was left out."""

from __future__ import annotations

import random
import re
import uuid
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kg_context.engine import BoundaryHandle, Engine
from kg_context.errors import InputValidationError
from kg_context.text.tokens import get_token_counter
from tests.factories import proposal

VOCABULARY = [
    "cache",
    "queue",
    "database",
    "index",
    "replica",
    "timeout",
    "retry",
    "schema",
    "graph",
    "checkout",
    "billing",
    "search",
    "latency",
    "budget",
    "region",
    "failover",
    "shard",
    "token",
    "cost",
    "review",
]
QUERIES = (
    "cache",
    "graph database",
    "checkout latency budget",
    "failover region shard",
    "What is k3 now?",  # names a key: focused with focus=True
    "Why did choice change?",
)
CLASSES = ("decision", "constraint", "goal", "plan", "fact", "open_question", "pin")
ENTRY_LINE = re.compile(r"^- \[[^\]]*\] (?P<id>\S+) (?:\((?P<extra>[^)]*)\) )?")
INDEX_LINE = re.compile(r"^- (?P<seq>\d+) (?P<set>\S+): ")


def words(text: str) -> int:
    return len(text.split())


def _body(rng: random.Random) -> str:
    n = rng.choice((3, 8, 20, 60, 400))
    return " ".join(rng.choice(VOCABULARY) for _ in range(n))


def _entry(rng: random.Random, bid: str, n: int, earlier: list[str]) -> dict[str, Any]:
    cls = rng.choice(CLASSES)
    entry: dict[str, Any] = {
        "id": f"{bid}/e{n}",
        "class": cls,
        "key": f"k{n}",
        "body": _body(rng),
    }
    if cls == "fact":
        entry["attributes"] = {"source": "test"}
    if cls == "open_question":
        entry["expires_after"] = rng.randint(1, 20)
    if earlier and rng.random() < 0.5:
        targets = rng.sample(earlier, k=min(len(earlier), rng.randint(1, 3)))
        entry["requires"] = [{"entry_id": t, "policy": "hard"} for t in targets]
    return entry


def _build(engine: Engine, rng: random.Random, size: int) -> BoundaryHandle:
    bid = f"test-context-{uuid.uuid4().hex[:10]}"
    boundary = engine.boundary(bid)
    ids: list[str] = []
    for batch in range(0, size, 8):
        entries = [_entry(rng, bid, n, ids) for n in range(batch, min(size, batch + 8))]
        decision = boundary.commit(proposal(bid, *entries, targets=[f"t{batch}"]))
        assert decision.outcome == "commit", decision
        ids += [e["id"] for e in entries]
    # a superseded decision: the record holds something the window does not
    old = {"id": f"{bid}/old", "class": "decision", "key": "choice", "body": "cache in region"}
    assert boundary.commit(proposal(bid, old, targets=["choice"])).outcome == "commit"
    new = {
        "id": f"{bid}/new",
        "class": "decision",
        "key": "choice",
        "body": "graph database with a cache",
        "supersedes": [{"entry_id": old["id"], "reason": "cheaper"}],
    }
    assert boundary.commit(proposal(bid, new, targets=["choice"])).outcome == "commit"
    return boundary


@pytest.fixture(scope="module")
def boundaries(engine: Engine) -> list[BoundaryHandle]:
    rng = random.Random(20261201)
    return [_build(engine, rng, size) for size in (0, 6, 24, 48)]


def _ids_in(text: str) -> tuple[set[str], set[str]]:
    """Entry ids (lines and their needs) and set ids (index lines) the text cites."""
    entries, sets = set(), set()
    for line in text.splitlines():
        found = ENTRY_LINE.match(line)
        if found:
            entries.add(found.group("id"))
            for part in (found.group("extra") or "").split("; "):
                if part.startswith("needs"):
                    entries.update(i.strip() for i in part.split(":", 1)[1].split(","))
            continue
        index = INDEX_LINE.match(line)
        if index:
            sets.add(index.group("set"))
    return entries, sets


COUNTERS: dict[str, Callable[[str], int] | None] = {"engine": None, "words": words}


@settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    which=st.integers(min_value=0, max_value=3),
    budget=st.one_of(st.integers(0, 300), st.integers(0, 20_000)),
    query=st.one_of(st.none(), st.sampled_from(QUERIES)),
    counter=st.sampled_from(sorted(COUNTERS)),
    focus=st.booleans(),
)
def test_the_context_of_a_random_window_keeps_its_promises(
    boundaries: list[BoundaryHandle],
    which: int,
    budget: int,
    query: str | None,
    counter: str,
    focus: bool,
) -> None:
    boundary = boundaries[which]
    count = COUNTERS[counter]
    ctx = boundary.context(budget, query=query, focus=focus, count_tokens=count)
    measure = count or _engine_count
    # never over the budget, by the counter given
    assert ctx.tokens == measure(ctx.text) <= budget == ctx.budget_tokens
    # every id the text cites resolves in the boundary
    seq = int(boundary.state().seq or 0)
    record = {e.id for e in boundary.as_of(seq).entries} if seq else set()
    sets = {line.set_id for line in boundary.history_index()}
    cited_entries, cited_sets = _ids_in(ctx.text)
    assert cited_entries <= record, cited_entries - record
    assert cited_sets <= sets, cited_sets - sets
    # included plus left out is the whole window, in ids and in tokens
    window = boundary.window()
    in_window = {e.id for e in window.entries} | {line.set_id for line in window.index}
    m = ctx.manifest
    kept = {i for s in m.sections if s.name != "record" for i in s.ids}
    left = {i for o in m.left_out if o.section != "record" for i in o.ids}
    assert kept.isdisjoint(left) and kept | left == in_window
    kept_tokens = sum(s.tokens for s in m.sections if s.name != "record")
    left_tokens = sum(o.tokens for o in m.left_out if o.section != "record")
    assert kept_tokens + left_tokens == m.window_tokens
    assert m.window_tokens == boundary.context(20_000, count_tokens=count).manifest.window_tokens
    # record candidates are never window entries, and are marked as record
    for section in m.sections:
        if section.name == "record":
            assert not set(section.ids) & in_window
            assert all(f"] {i} " in ctx.text for i in section.ids)
    if ctx.text:
        assert ctx.text.splitlines()[-1].startswith("Left out: ")
    # the same inputs give byte-identical output
    again = boundary.context(budget, query=query, focus=focus, count_tokens=count)
    assert again.text == ctx.text and again.manifest == ctx.manifest


def _engine_count(text: str) -> int:
    return get_token_counter().count([text])[0]


def test_a_full_budget_shows_every_resident_entry_with_its_id_and_needs(
    boundaries: list[BoundaryHandle],
) -> None:
    boundary = boundaries[3]
    ctx = boundary.context(1_000_000)
    window = boundary.window()
    for e in window.entries:
        assert f"] {e.id} " in ctx.text
    assert ctx.text.splitlines()[-1] == "Left out: nothing."
    assert "needs: " in ctx.text  # the random window has REQUIRES edges
    assert f"] {boundary.id}/old " not in ctx.text  # superseded: not a window line


def test_a_query_brings_record_candidates_marked_as_record(
    boundaries: list[BoundaryHandle],
) -> None:
    boundary = boundaries[1]
    ctx = boundary.context(20_000, query="cache in region")
    old = f"{boundary.id}/old"
    record = next(s for s in ctx.manifest.sections if s.name == "record")
    assert old in record.ids
    line = next(x for x in ctx.text.splitlines() if f"] {old} " in x)
    assert (
        line.startswith("- [superseded; record, matched in set ") and f"{boundary.id}/new" in line
    )
    assert "## record, not window: candidates for 'cache in region'" in ctx.text


def test_a_query_that_names_a_key_gets_its_entries_and_neighbours_and_a_manifest_of_the_rest(
    engine: Engine, boundary_id: str
) -> None:
    boundary = engine.boundary(boundary_id)
    ev = {
        "id": f"{boundary_id}/ev",
        "class": "fact",
        "key": "ev/latency",
        "body": "p99 latency is 40 ms",
        "attributes": {"source": "load test"},
    }
    api = {
        "id": f"{boundary_id}/api",
        "class": "decision",
        "key": "api",
        "body": "REST over HTTP",
        "requires": [{"entry_id": ev["id"], "policy": "hard"}],
    }
    db = {"id": f"{boundary_id}/db", "class": "decision", "key": "db", "body": "Use Neo4j"}
    goal = {"id": f"{boundary_id}/goal", "class": "goal", "key": "ship", "body": "Ship in May"}
    decision = boundary.commit(proposal(boundary_id, ev, api, db, goal, targets=["api", "db"]))
    assert decision.outcome == "commit", decision
    whole = boundary.context(20_000)
    focused = boundary.context(20_000, query="What is the current value of api?", focus=True)
    # the named key and what it needs, not the other roots, with room to spare
    assert set(focused.manifest.included_ids) == {api["id"], ev["id"]}
    assert focused.tokens < whole.tokens
    off = {i for o in focused.manifest.left_out if o.reason == "focus" for i in o.ids}
    in_window = {e.id for e in boundary.window().entries} | {
        x.set_id for x in boundary.window().index
    }
    assert off == in_window - {api["id"], ev["id"]} and {db["id"], goal["id"]} <= off
    assert all("window" in o.get_back for o in focused.manifest.left_out if o.section != "index")
    last = focused.text.splitlines()[-1]
    assert last.startswith("Left out: 2 window entries (") and "off the query's keys" in last
    # without a query, without focus, or with a query that names no key: the whole window
    assert {db["id"], goal["id"], api["id"], ev["id"]} <= set(whole.manifest.included_ids)
    plain = boundary.context(20_000, query="What is the current value of api?")
    assert {db["id"], goal["id"]} <= set(plain.manifest.included_ids)
    loose = boundary.context(20_000, query="graph storage", focus=True)
    assert {db["id"], goal["id"]} <= set(loose.manifest.included_ids)


def test_a_context_reads_and_writes_nothing(engine: Engine, boundary_id: str) -> None:
    boundary = engine.boundary(boundary_id)
    entry = {"class": "decision", "key": "db", "body": "Use Neo4j for the graph"}
    assert boundary.commit(proposal(boundary_id, entry)).outcome == "commit"
    before = boundary.state()
    ctx = boundary.context(100, query="graph")
    assert boundary.state() == before
    pending = engine.executor.read(
        "record/pending_embeddings", boundary_id=boundary_id, batch=10, up_to_seq=10
    )
    assert len(pending) == 1  # the query did not embed anything
    assert ctx.tokens <= 100


def test_bad_budgets_and_queries_are_refused(boundaries: list[BoundaryHandle]) -> None:
    boundary = boundaries[1]
    with pytest.raises(InputValidationError, match="at least 0"):
        boundary.context(-1)
    with pytest.raises(InputValidationError):
        boundary.context(100, query="   ")
