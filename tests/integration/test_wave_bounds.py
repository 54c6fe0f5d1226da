"""A wave names only its writer's specialists, and stays within the attention bounds; both
refusals are typed and write nothing (against the real Neo4j)."""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from kg_context.attention import WorkspaceAttention
from kg_context.errors import AuthorityRefused, InputRefused
from kg_context.settings import AttentionSettings

QUERY = "How do we speed up user lookups?"


def _attention(engine: Any, boundary_id: str, writer_id: str | None, **limits: Any) -> Any:
    return WorkspaceAttention(
        engine,
        boundary_id=boundary_id,
        writer_id=writer_id,
        settings=AttentionSettings(top_k=1, min_composite=0.0, **limits),
    )


def _bindings(engine: Any, driver: Any, specialist: str) -> int:
    with driver.session(database=engine.target.database) as session:
        record = session.run(
            "MATCH (:Specialist {id: $s})-[r:BOUND_IN]->() RETURN count(r) AS n", s=specialist
        ).single()
    return int(record["n"])


def test_a_wave_naming_another_writers_specialist_is_refused(
    engine: Any, driver: Any, boundary_id: str
) -> None:
    """Before: any writer's wave could name another writer's specialist and move its score."""
    engine.boundary(boundary_id)
    mine, theirs = f"{boundary_id}-mine", f"{boundary_id}-theirs"
    owner = _attention(engine, boundary_id, "planner")
    first = owner.select_and_broadcast(
        {theirs: "Index User.email.", f"{theirs}-2": "Cache lookups."}, QUERY, "t-1"
    )
    score = owner.get_attention_score(first.winners[0].specialist_id)
    rival = _attention(engine, boundary_id, "critic")
    with pytest.raises(AuthorityRefused) as refused:
        rival.select_and_broadcast(
            {mine: "Cache lookups.", theirs: "Index User.email, twice as well."}, QUERY, "t-2"
        )
    assert refused.value.code == "SPECIALIST_NOT_OWNED" and refused.value.fix
    assert theirs in str(refused.value)
    # nothing of the refused wave was written: the rival's own specialist was not bound either
    assert owner.get_attention_score(first.winners[0].specialist_id) == score
    assert _bindings(engine, driver, mine) == 0
    again = _attention(engine, boundary_id, "someone-else")
    with pytest.raises(AuthorityRefused):
        again.select_and_broadcast({theirs: "x", mine: "y"}, QUERY, "t-3")
    third = _attention(engine, boundary_id, "critic").select_and_broadcast(
        {mine: "Cache lookups.", f"{mine}-2": "Shard users."}, QUERY, "t-4"
    )
    assert {p.specialist_id for p in third.proposals} == {mine, f"{mine}-2"}
    # the binding is per boundary: another boundary's writer may use the same id there
    other = f"test-{uuid.uuid4().hex}"
    engine.boundary(other)
    elsewhere = _attention(engine, other, "critic").select_and_broadcast(
        {theirs: "Index.", f"{theirs}-3": "Cache."}, QUERY, "t-5"
    )
    assert len(elsewhere.proposals) == 2


def test_a_wave_over_the_bounds_is_refused_before_any_write(engine: Any, boundary_id: str) -> None:
    """Before: a 0.9 MB wave was encoded and written (about 18 s of server time), unbounded."""
    engine.boundary(boundary_id)
    sid = f"{boundary_id}-big"
    big = "Measure first, then change one thing. " * 25_000  # ~0.95 MB
    attention = _attention(engine, boundary_id, "planner")
    with pytest.raises(InputRefused) as one:
        attention.select_and_broadcast({sid: big, f"{sid}-2": "short"}, QUERY, "t-1")
    assert one.value.code == "WAVE_TOO_LARGE" and "bytes" in str(one.value)
    halves = {f"{sid}-{i}": "x" * 100_000 for i in range(3)}  # each fits, together they do not
    with pytest.raises(InputRefused, match="the wave is"):
        attention.select_and_broadcast(halves, QUERY, "t-2")
    many = {f"{sid}-{i}": "x" for i in range(5)}
    with pytest.raises(InputRefused, match="outputs is over the bound"):
        _attention(engine, boundary_id, "planner", max_wave_outputs=4).select_and_broadcast(
            many, QUERY, "t-3"
        )
    assert attention.get_attention_score(sid) is None
    assert _attention(engine, boundary_id, "planner").get_attention_score(f"{sid}-0") is None


def test_over_http_the_token_writer_owns_its_specialists(engine: Any) -> None:
    from tests.integration.api_server import running

    with running(engine, f"api-fenced-{uuid.uuid4().hex[:10]}") as server:
        b = f"api-wave-{uuid.uuid4().hex[:12]}"
        assert server.call("PUT", f"/boundaries/{b}", "operator", json={}).status_code == 200
        path = f"/boundaries/{b}/attention/waves"
        wave = {"outputs": {f"{b}-a": "Index.", f"{b}-b": "Cache."}, "query": QUERY, "task_id": "t"}
        assert server.call("POST", path, "writer", json=wave).status_code == 200
        refused = server.call("POST", path, "critic", json=wave)
        assert refused.status_code == 403, refused.text
        assert "SPECIALIST_NOT_OWNED" in refused.json()["detail"]
        assert server.call("POST", path, "writer", json=wave).status_code == 200
