"""The HTTP API through a real uvicorn server on the real database: every endpoint the OpenAPI
spec lists is driven here (the test checks that against the spec), with the identity binding,
the scopes, the problem bodies, the body limit and the metrics."""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
import requests

from kg_context.errors import CONTEXT_FIELDS
from kg_context.gate.pure.constitution import load_constitution
from kg_context.vocabulary import HaltStatus, Outcome, ReasonCode
from tests.integration.api_server import MAX_BODY_BYTES, Server, running

PROBLEM = "application/problem+json"


class Recorder:
    """The server, remembering which (method, route template) each call exercised."""

    def __init__(self, server: Server) -> None:
        self.server = server
        self.hit: set[tuple[str, str]] = set()

    def __call__(
        self, method: str, template: str, role: str | None = "writer", **kwargs: Any
    ) -> requests.Response:
        values = kwargs.pop("path", {})
        path = template
        for name, value in values.items():
            path = path.replace("{" + name + "}", value)
        self.hit.add((method.lower(), template))
        return self.server.call(method, path, role, **kwargs)


@pytest.fixture(scope="module")
def fenced() -> str:
    return f"api-fenced-{uuid.uuid4().hex[:10]}"


@pytest.fixture(scope="module")
def server(engine: Any, fenced: str) -> Iterator[Server]:
    with running(engine, fenced) as started:
        yield started


def _problem(response: requests.Response, status: int, kind: str) -> dict[str, Any]:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith(PROBLEM), response.headers
    body: dict[str, Any] = response.json()
    assert body["type"] == f"urn:kg-context:problem:{kind}", body
    assert body["status"] == status and body["detail"] and body["title"]
    assert "Traceback" not in response.text and 'File "' not in response.text
    return body


def _ok(response: requests.Response) -> Any:
    assert response.status_code == 200, response.text
    return response.json()


def test_every_endpoint_through_the_real_server(server: Server, engine: Any) -> None:
    api = Recorder(server)
    b = f"api-{uuid.uuid4().hex[:12]}"
    one = {"boundary_id": b}

    assert _ok(api("GET", "/healthz", role=None))["status"] == "ok"
    spec = _ok(api("GET", "/openapi.json", role=None))
    # Every problem may carry its context, each field documented.
    schemas = spec["components"]["schemas"]
    assert "context" in schemas["Problem"]["properties"]
    documented_context = schemas["ProblemContext"]["properties"]
    assert set(documented_context) == set(CONTEXT_FIELDS)
    assert all(field.get("description") for field in documented_context.values())
    created = _ok(api("PUT", "/boundaries/{boundary_id}", "operator", path=one, json={}))
    shipped = load_constitution().version
    assert (created["id"], created["seq"], created["constitution_version"]) == (b, 0, shipped)
    assert _ok(api("GET", "/boundaries/{boundary_id}", "reader", path=one))["id"] == b

    first = {
        "id": f"{b}/p-1",
        "set_id": f"{b}/s-1",
        "entries": [
            {"id": f"{b}/goal", "class": "goal", "key": "lookups", "body": "Lookups in 10 ms"},
            {
                "id": f"{b}/db-1",
                "class": "decision",
                "key": "datastore",
                "body": "Use Postgres",
                "derived_from": [{"entry_id": f"{b}/goal", "essential": True}],
                "requires": [{"entry_id": f"{b}/goal", "policy": "hard"}],
            },
        ],
    }
    decided = _ok(api("POST", "/boundaries/{boundary_id}/commit", path=one, json=first))
    assert (decided["outcome"], decided["seq"]) == ("commit", 1)
    assert decided["receipt_id"].endswith("/commit")
    # The record says who wrote it: the token's identity, never the body's.
    ledger = engine.run_audit("ledger", boundary_id=b).rows
    assert ledger[0]["writer_id"] == "planner-api"

    second = {
        "id": f"{b}/p-2",
        "targets": ["datastore"],
        "entries": [
            {
                "id": f"{b}/db-2",
                "class": "decision",
                "key": "datastore",
                "body": "Use Neo4j",
                "supersedes": [{"entry_id": f"{b}/db-1", "reason": "graph walks"}],
                "derived_from": [{"entry_id": f"{b}/goal", "essential": True}],
                "requires": [{"entry_id": f"{b}/goal", "policy": "hard"}],
            }
        ],
    }
    submitted = _ok(api("POST", "/boundaries/{boundary_id}/proposals", path=one, json=second))
    assert (submitted["proposal_id"], submitted["status"]) == (f"{b}/p-2", "pending")
    decision_path = "/boundaries/{boundary_id}/proposals/{proposal_id}/decision"
    pending = api("GET", decision_path, "reader", path={**one, "proposal_id": f"{b}/p-2"})
    _problem(pending, 404, "not-found")
    closed = _ok(api("POST", "/boundaries/{boundary_id}/close", path=one))
    assert [d["outcome"] for d in closed["decisions"]] == ["commit"]
    recorded = _ok(api("GET", decision_path, "reader", path={**one, "proposal_id": f"{b}/p-2"}))
    assert (recorded["outcome"], recorded["seq"]) == ("commit", 2)

    window = _ok(api("GET", "/boundaries/{boundary_id}/window", "reader", path=one))
    resident = {e["id"] for g in window["groups"] for e in g["entries"]}
    assert resident == {f"{b}/goal", f"{b}/db-2"}
    stats = _ok(api("GET", "/boundaries/{boundary_id}/stats", "reader", path=one))
    assert stats["seq"] == 2 and stats["retention_ratio"] > 1.0
    # the error rates too: nothing retired yet, so the rate is null, not 0
    assert stats["error_rates"]["false_retirement"] == {
        "numerator": 0,
        "denominator": 0,
        "value": None,
    }
    assert stats["czar"]["runs"] == 0 and stats["czar"]["last_seq"] is None
    # the operator's briefing: an operator's read (a reader is refused) that records nothing;
    # recording one (a POST, an operator's write) moves where the next one starts
    brief_path, briefings = "/boundaries/{boundary_id}/brief", "/boundaries/{boundary_id}/briefings"
    _problem(api("GET", brief_path, "reader", path=one), 403, "forbidden")
    brief = _ok(api("GET", brief_path, "operator", path=one))
    assert (brief["since_seq"], brief["seq"], brief["sets_by_outcome"]) == (0, 2, {"ratified": 2})
    reread = _ok(api("GET", brief_path, "operator", path=one))
    assert brief["id"] is None and {**reread, "at": brief["at"]} == brief  # nothing recorded
    _problem(api("POST", briefings, "writer", path=one), 403, "forbidden")
    recorded = _ok(api("POST", briefings, "operator", path=one))
    assert (recorded["since_seq"], recorded["seq"]) == (0, 2) and recorded["id"]
    again = _ok(api("GET", brief_path, "operator", path=one))
    assert (again["since_seq"], again["sets_by_outcome"]) == (2, {})  # since the recorded one
    why_path = "/boundaries/{boundary_id}/entries/{entry_id}/why"
    why = _ok(api("GET", why_path, "reader", path={**one, "entry_id": f"{b}/db-2"}))
    assert why["held"] and [n["id"] for n in why["nodes"]] == [f"{b}/db-2"]  # a root itself
    missing = api("GET", why_path, "reader", path={**one, "entry_id": f"{b}/nothing"})
    _problem(missing, 404, "not-found")

    hits = _ok(
        api("GET", "/boundaries/{boundary_id}/recall", "reader", path=one, params={"q": "Postgres"})
    )
    assert f"{b}/db-1" in {h["entry_id"] for h in hits}
    admitted = _ok(
        api(
            "POST",
            "/boundaries/{boundary_id}/recall/admit",
            path=one,
            json={"entry_ids": [f"{b}/db-1"]},
        )
    )
    assert admitted["decision"]["outcome"] == "commit" and f"{b}/db-1" in admitted["copies"]
    # the context: text by default, the manifest as JSON with format=json
    context_path = "/boundaries/{boundary_id}/context"
    text = api("GET", context_path, "reader", path=one, params={"budget": 8192})
    assert text.status_code == 200 and text.headers["content-type"].startswith("text/plain")
    assert f"] {b}/db-2 " in text.text and f"] {b}/goal " in text.text
    assert text.text.splitlines()[-1] == "Left out: nothing."
    as_json = _ok(
        api("GET", context_path, "reader", path=one,
            params={"budget": 8192, "q": "Postgres", "format": "json"})
    )  # fmt: skip
    assert as_json["tokens"] <= as_json["budget_tokens"] == 8192
    assert as_json["text"].startswith(f"# Context of {b} at seq ")
    assert as_json["manifest"]["query"] == "Postgres" and as_json["manifest"]["left_out"] == []
    assert {r["name"] for r in as_json["manifest"]["retrievals"]} >= {"recall", "why", "as_of"}
    tiny = api("GET", context_path, "reader", path=one, params={"budget": 0})
    assert tiny.status_code == 200 and tiny.text == ""
    _problem(api("GET", context_path, "reader", path=one, params={"budget": -1}), 422,
             "invalid-input")  # fmt: skip
    _problem(api("GET", context_path, "reader", path=one), 422, "invalid-input")  # no budget

    halted = _ok(
        api(
            "POST",
            "/boundaries/{boundary_id}/commit",
            path=one,
            json={
                "id": f"{b}/p-3",
                "targets": ["bench"],
                "entries": [
                    {
                        "class": "fact",
                        "key": "bench",
                        "body": "A public benchmark",
                        "verse": "global",
                        "attributes": {"source": "a thread"},
                    }
                ],
            },
        )
    )
    assert (halted["outcome"], halted["reason_code"]) == ("halt", ReasonCode.VERSE_ADOPTION)
    halt_id = halted["halt_id"]
    queue = _ok(api("GET", "/boundaries/{boundary_id}/halts", "reader", path=one))
    assert [h["id"] for h in queue] == [halt_id]
    shown = _ok(
        api(
            "GET",
            "/boundaries/{boundary_id}/halts/{halt_id}",
            "reader",
            path={**one, "halt_id": halt_id},
        )
    )
    assert shown["halt"]["reason_code"] == ReasonCode.VERSE_ADOPTION
    resolve = "/boundaries/{boundary_id}/halts/{halt_id}/resolve"
    body = {"resolution": "approve", "reason": "source checked"}
    refused = api("POST", resolve, "writer", path={**one, "halt_id": halt_id}, json=body)
    assert _problem(refused, 403, "forbidden")["context"] == {
        "boundary_id": b,
        "writer_id": "planner-api",
    }
    # An operator token is held to the constitution: an id it does not name resolves nothing;
    # the problem names the boundary, the halt, the reason and who asked as its context.
    rogue = api("POST", resolve, "rogue_operator", path={**one, "halt_id": halt_id}, json=body)
    rogue_problem = _problem(rogue, 403, "forbidden")
    assert "ops-rogue" in rogue_problem["detail"]
    assert rogue_problem["context"] == {
        "boundary_id": b,
        "reason_code": ReasonCode.NOT_OPERATOR,
        "halt_id": halt_id,
        "writer_id": "ops-rogue",
    }
    assert engine.halts.show(halt_id).halt.status == HaltStatus.OPEN
    resolved = _ok(api("POST", resolve, "operator", path={**one, "halt_id": halt_id}, json=body))
    assert resolved["decision"]["outcome"] == "commit"
    assert engine.halts.show(halt_id).halt.resolved_by == "operator"
    # A halt no longer open: 409, with the halt, its boundary and its set as context.
    again = api("POST", resolve, "operator", path={**one, "halt_id": halt_id}, json=body)
    assert _problem(again, 409, "conflict")["context"] == {
        "boundary_id": b,
        "halt_id": halt_id,
        "set_id": engine.halts.show(halt_id).set.id,
        "writer_id": "operator",
    }
    all_halts = _ok(
        api("GET", "/boundaries/{boundary_id}/halts", "reader", path=one, params={"all": "true"})
    )
    assert [h["status"] for h in all_halts] == [HaltStatus.RESOLVED]

    specialists = {"planner": f"{b}-planner", "critic": f"{b}-critic"}
    wave = _ok(
        api(
            "POST",
            "/boundaries/{boundary_id}/attention/waves",
            path=one,
            json={
                "outputs": {
                    specialists["planner"]: {"text": "Index User.email.", "confidence": 0.9},
                    specialists["critic"]: "Cache the lookups.",
                },
                "query": "How do we speed up user lookups?",
                "task_id": f"{b}-task",
            },
        )
    )
    assert len(wave["proposals"]) == 2 and wave["broadcast"]
    winner = next(p for p in wave["proposals"] if p["selected"])
    score_path = "/specialists/{specialist_id}/attention"
    winner_id = {"specialist_id": winner["specialist_id"]}
    score = _ok(api("GET", score_path, "reader", path=winner_id, params=one))
    assert score["attention_score"] == pytest.approx(winner["composite"])
    assert (score["scope"], score["boundary_id"]) == ("boundary", b)
    nobody = _ok(
        api("GET", score_path, "reader", path={"specialist_id": f"{b}-nobody"}, params=one)
    )
    assert nobody["attention_score"] is None
    elsewhere = {"boundary_id": f"{b}-elsewhere"}
    _ok(api("PUT", "/boundaries/{boundary_id}", "operator", path=elsewhere, json={}))
    other = _ok(api("GET", score_path, "reader", path=winner_id, params=elsewhere))
    assert other["attention_score"] is None  # its wins in b do not count in another boundary
    everywhere = _ok(api("GET", score_path, "reader", path=winner_id, params={"scope": "global"}))
    assert everywhere == {**score, "scope": "global", "boundary_id": None}
    _problem(api("GET", score_path, "reader", path=winner_id), 422, "invalid-input")
    both = {"scope": "global", **one}
    _problem(api("GET", score_path, "reader", path=winner_id, params=both), 422, "invalid-input")
    missing = {"boundary_id": f"{b}-missing"}
    _problem(api("GET", score_path, "reader", path=winner_id, params=missing), 404, "not-found")
    # The winners entered the gate as the token's writer, not as the specialists.
    admitted_from_wave = [o for o in wave["outcomes"] if o["outcome"] == "commit"]
    assert admitted_from_wave
    ledger = engine.run_audit("ledger", boundary_id=b).rows
    set_writers = {row["set_id"]: row["writer_id"] for row in ledger}
    assert {set_writers[o["set_id"]] for o in admitted_from_wave} == {"planner-api"}

    index = _ok(api("GET", "/boundaries/{boundary_id}/history", "reader", path=one))
    assert [line["seq"] for line in index][:2] == [1, 2]
    walked = _ok(
        api(
            "GET",
            "/boundaries/{boundary_id}/history/sets/{set_id}",
            "reader",
            path={**one, "set_id": f"{b}/s-1"},
        )
    )
    assert walked["seq"] == 1 and walked["later_sets"]
    as_of_path = "/boundaries/{boundary_id}/history/as-of/{seq}"
    as_of = _ok(api("GET", as_of_path, "reader", path={**one, "seq": "1"}))
    assert {e["id"] for e in as_of["entries"] if e["resident"]} == {f"{b}/goal", f"{b}/db-1"}
    found = _ok(
        api(
            "GET",
            "/boundaries/{boundary_id}/history/search",
            "reader",
            path=one,
            params={"q": "Neo4j", "k": 3},
        )
    )
    assert found and all("set_id" in hit and "body" not in hit for hit in found)

    blast = _ok(
        api(
            "POST",
            "/boundaries/{boundary_id}/invalidations",
            path=one,
            json={"mode": "challenge", "target": f"{b}/goal", "reason": "misread target"},
        )
    )
    assert blast["decision"]["outcome"] == "commit"
    assert set(blast["at_risk"]) >= {f"{b}/db-2"} and blast["failed"] == [f"{b}/goal"]

    revoked = _ok(
        api(
            "POST",
            "/boundaries/{boundary_id}/revocations",
            "operator",
            path=one,
            json={"subject": "writer", "subject_id": "bot-gone", "reason": "retired"},
        )
    )
    assert (revoked["subject"], revoked["operator_id"]) == ("writer", "operator")
    listed = _ok(api("GET", "/boundaries/{boundary_id}/revocations", "reader", path=one))
    assert [r["id"] for r in listed] == [revoked["id"]]

    text = api("GET", "/metrics", "reader").text
    assert re.search(r'kg_context_gate_decisions_total\{outcome="commit"\} [1-9]', text)
    for code in ReasonCode:
        assert f'reason_code="{code.value}"' in text, code
    assert 'kg_context_halts{reason_code="VERSE_ADOPTION",status="resolved"}' in text
    resident_tokens = stats["resident_tokens"]
    assert f'kg_context_boundary_seq{{boundary="{b}"}}' in text
    assert resident_tokens > 0
    assert 'route="/boundaries/{boundary_id}/commit"' in text

    documented = {(method, path) for path, item in spec["paths"].items() for method in item} | {
        ("get", "/openapi.json")
    }
    assert documented == api.hit, documented ^ api.hit


def test_tokens_scopes_and_identity(server: Server, engine: Any, fenced: str) -> None:
    b = f"api-{uuid.uuid4().hex[:12]}"
    assert server.call("PUT", f"/boundaries/{b}", "operator", json={}).status_code == 200
    body = {"id": f"{b}/p-1", "targets": ["t"], "entries": [{"class": "fact", "key": "k",
            "body": "x", "attributes": {"source": "s"}}]}  # fmt: skip
    commit = f"/boundaries/{b}/commit"

    _problem(server.call("POST", commit, None, json=body), 401, "unauthenticated")
    wrong = server.call("POST", commit, None, json=body, headers={"Authorization": "Bearer nope"})
    assert wrong.headers["www-authenticate"] == "Bearer"
    _problem(wrong, 401, "unauthenticated")
    basic = server.call("POST", commit, None, json=body, headers={"Authorization": "Basic eDp5"})
    _problem(basic, 401, "unauthenticated")
    _problem(server.call("GET", f"/boundaries/{b}/window", None), 401, "unauthenticated")
    _problem(server.call("GET", f"/boundaries/{b}/context?budget=10", None), 401,
             "unauthenticated")  # fmt: skip
    _problem(server.call("GET", "/metrics", None), 401, "unauthenticated")
    # A reader cannot write, by any write route.
    invalidation = {"mode": "challenge", "target": "x", "reason": "r"}
    wave = {"outputs": {"a": "x"}, "query": "q", "task_id": "t"}
    for method, path, payload in [
        ("POST", commit, body),
        ("POST", f"/boundaries/{b}/proposals", body),
        ("POST", f"/boundaries/{b}/close", None),
        ("POST", f"/boundaries/{b}/recall/admit", {"entry_ids": ["x"]}),
        ("POST", f"/boundaries/{b}/invalidations", invalidation),
        ("POST", f"/boundaries/{b}/attention/waves", wave),
        ("PUT", f"/boundaries/{b}", {}),
    ]:
        _problem(server.call(method, path, "reader", json=payload), 403, "forbidden")
    _problem(server.call("PUT", f"/boundaries/{b}-new", "writer", json={}), 403, "forbidden")
    # A body claiming another writer, or the czar's or an operator's authority, is refused.
    for claim in [{"writer_id": "critic-api"}, {"writer_kind": "czar"}, {"writer_kind": "operator"},
                  {"writer_id": "czar", "writer_kind": "czar"}]:  # fmt: skip
        _problem(server.call("POST", commit, json={**body, **claim}), 403, "identity-mismatch")
    other = server.call("POST", commit, json={**body, "boundary_id": f"{b}-other"})
    _problem(other, 422, "invalid-input")
    assert engine.boundary(b, create=False).decision(f"{b}/p-1") is None  # nothing recorded
    # Claiming one's own identity is fine.
    mine = server.call("POST", commit, json={**body, "writer_id": "planner-api"})
    assert mine.json()["outcome"] == Outcome.COMMIT
    # A token of kind czar is the czar only if the constitution names its id.
    forged = {**body, "id": f"{b}/p-czar", "targets": ["t-czar"]}
    refused = server.call("POST", commit, "rogue_czar", json=forged).json()
    assert (refused["outcome"], refused["reason_code"]) == ("reject", ReasonCode.NOT_AUTHORIZED)
    # A token fenced to one boundary reaches no other.
    _problem(server.call("GET", f"/boundaries/{b}/window", "fenced"), 403, "forbidden")
    _problem(server.call("POST", commit, "fenced", json=body), 403, "forbidden")
    assert server.call("PUT", f"/boundaries/{fenced}", "operator", json={}).status_code == 200
    assert server.call("GET", f"/boundaries/{fenced}/window", "fenced").status_code == 200
    # Metrics list every boundary: not for a fenced token; nor a global attention score, nor
    # a score in a boundary it does not reach.
    _problem(server.call("GET", "/metrics", "fenced"), 403, "forbidden")
    score = "/specialists/anyone/attention"
    _problem(server.call("GET", f"{score}?scope=global", "fenced"), 403, "forbidden")
    _problem(server.call("GET", f"{score}?boundary_id={b}", "fenced"), 403, "forbidden")
    assert server.call("GET", f"{score}?boundary_id={fenced}", "fenced").status_code == 200


def test_errors_are_problems_and_bodies_are_bounded(server: Server) -> None:
    b = f"api-{uuid.uuid4().hex[:12]}"
    missing = _problem(server.call("GET", f"/boundaries/{b}/window", "reader"), 404, "not-found")
    assert missing["context"] == {"boundary_id": b}
    _problem(server.call("GET", "/nowhere", "reader"), 404, "not-found")
    _problem(server.call("DELETE", f"/boundaries/{b}", "operator"), 405, "method-not-allowed")
    assert server.call("PUT", f"/boundaries/{b}", "operator").status_code == 200
    commit = f"/boundaries/{b}/commit"
    invalid = server.call("POST", commit, json={"id": "p", "entries": [{"class": "nope"}]})
    problem = _problem(invalid, 422, "invalid-input")
    assert problem["errors"] and all("input" not in e for e in problem["errors"])
    assert "context" not in problem  # a problem names no context where none applies
    _problem(server.call("POST", commit, data="{not json", headers={"content-type":
             "application/json"}), 422, "invalid-input")  # fmt: skip
    huge = {"id": "p", "targets": ["t"], "entries": [{"class": "fact", "key": "k",
            "body": "x" * MAX_BODY_BYTES}]}  # fmt: skip
    _problem(server.call("POST", commit, json=huge), 413, "too-large")
    chunked = server.call("POST", commit, data=iter([b"{" + b" " * MAX_BODY_BYTES, b"}"]),
                          headers={"content-type": "application/json"})  # fmt: skip
    _problem(chunked, 413, "too-large")
    bad_id = server.call("GET", "/boundaries/a%20b/window", "reader")
    _problem(bad_id, 422, "invalid-input")
