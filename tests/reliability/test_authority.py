"""Boundaries of authority, against the real database and the real API.

Authority is per boundary (the constitution names the czar ``czar`` and the operator
``operator``), and every actor here uses those ids. Also: Neo4j runs with authentication on, and
no password or token
ever reaches a log or an output (the server's logs, the CLI's output, the API server's log).
"""

from __future__ import annotations

import hashlib
import secrets
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import neo4j
import pytest
import requests

from kg_context.db.catalog import Catalog
from kg_context.db.connection import Target, open_driver
from kg_context.engine import Engine
from kg_context.errors import AuthenticationError, KgContextError
from tests.integration.api_server import running
from tests.reliability.servers import ROOT, KillableServer

FIXTURES = Path(__file__).parent / "fixtures"


def _counts(engine: Engine, boundary_id: str) -> dict[str, Any]:
    row: dict[str, Any] = engine.executor.read("audits/record_counts", boundary_id=boundary_id)[0]
    return row


def _proposal(boundary_id: str, pid: str, entry: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {
        "id": pid,
        "boundary_id": boundary_id,
        "writer_id": "planner",
        "writer_kind": "agent",
        "set_id": f"{pid}-set",
        "entries": [entry],
        **extra,
    }


@pytest.fixture(scope="module")
def raw(neo4j_target: Target) -> Iterator[Engine]:
    with Engine(open_driver(neo4j_target), neo4j_target, catalog=Catalog(FIXTURES)) as engine:
        yield engine


def test_global_material_changes_a_local_boundary_only_with_an_adoption_receipt(
    engine: Engine, boundary_id: str
) -> None:
    boundary = engine.boundary(boundary_id, verse="local")
    before = _counts(engine, boundary_id)
    entry = {"id": "g-1", "class": "decision", "key": "shared-db", "body": "Use Neo4j"}
    halted = boundary.commit(_proposal(boundary_id, "p-global", {**entry, "verse": "global"}))
    assert (halted.outcome, halted.reason_code) == ("halt", "VERSE_ADOPTION")
    after = _counts(engine, boundary_id)
    assert (after["entries"], after["seq"]) == (before["entries"], before["seq"])

    receipt = engine.adopt(boundary_id, operator_id="operator", reason="ok", keys=["shared-db"])
    adopted = boundary.commit(
        _proposal(
            boundary_id,
            "p-adopted",
            {**entry, "id": "g-2", "verse": "global"},
            adoption_receipt_id=receipt,
        )
    )
    assert adopted.outcome == "commit", adopted
    assert _counts(engine, boundary_id)["entries"] == before["entries"] + 1


def test_a_writer_cannot_commit_a_class_the_constitution_forbids_for_its_kind(
    engine: Engine, boundary_id: str
) -> None:
    boundary = engine.boundary(boundary_id)
    allowed = boundary.constitution().writers
    assert "decision" not in {c.value for c in allowed.tool}
    before = _counts(engine, boundary_id)
    refused = boundary.commit(
        {
            **_proposal(boundary_id, "p-tool", {"class": "decision", "key": "k", "body": "b"}),
            "writer_id": "tool-1",
            "writer_kind": "tool",
        }
    )
    assert (refused.outcome, refused.reason_code) == ("reject", "CLASS_NOT_ALLOWED")
    after = _counts(engine, boundary_id)
    assert (after["entries"], after["seq"]) == (before["entries"], before["seq"])


def _czar_retires(boundary_id: str, pid: str, entry_id: str) -> dict[str, Any]:
    """The named czar's compaction set retiring one entry as unreachable."""
    return {
        "id": pid,
        "boundary_id": boundary_id,
        "writer_id": "czar",
        "writer_kind": "czar",
        "set_id": f"{pid}-set",
        "kind": "compaction",
        "transitions": [
            {
                "entry_id": entry_id,
                "to": "retired",
                "resident": False,
                "reason": "unreachable",
                "case": "UNREACHABLE",
                "justification": ["no root path"],
            }
        ],
    }


def test_the_czar_cannot_compact_its_own_writers_sets(engine: Engine, boundary_id: str) -> None:
    boundary = engine.boundary(boundary_id)
    own = boundary.commit(
        {
            **_proposal(
                boundary_id, "p-czar", {"id": "mine", "class": "scratch", "key": "s", "body": "x"}
            ),
            "writer_id": "czar",
            "writer_kind": "czar",
        }
    )
    assert own.outcome == "commit", own
    refused = boundary.commit(_czar_retires(boundary_id, "p-compact", "mine"))
    assert (refused.outcome, refused.reason_code) == ("reject", "CZAR_INDEPENDENCE")
    assert engine.run_audit("czar_independence", boundary_id=boundary_id).rows == []
    # and the czar's own run leaves its own entry alone
    boundary.run_czar()
    rows = engine.executor.read("audits/boundary_entries", boundary_id=boundary_id)
    assert {r["id"]: r["status"] for r in rows}["mine"] == "live"


def test_the_czar_cannot_compact_a_set_it_co_wrote(engine: Engine, boundary_id: str) -> None:
    """Found by the gate's property test (seed 20261025): a set joining an agent's proposal and
    the czar's is the czar's work too. Before, the czar's plan and the gate looked only at the
    entry's own writer, so the czar retired the agent's half of a set it co-signed, and the
    ``czar_independence`` audit (which reads the set's writers) caught it afterwards."""
    boundary = engine.boundary(boundary_id)
    agent = _proposal(
        boundary_id, "p-joint-agent", {"id": "joint", "class": "scratch", "key": "j", "body": "x"}
    )
    czar = {
        **_proposal(
            boundary_id, "p-joint-czar", {"id": "note", "class": "scratch", "key": "n", "body": "y"}
        ),
        "writer_id": "czar",
        "writer_kind": "czar",
        "set_id": agent["set_id"],
    }
    boundary.submit([agent, czar])
    (joint,) = boundary.close()
    assert joint.outcome == "commit", joint
    refused = boundary.commit(_czar_retires(boundary_id, "p-retire-joint", "joint"))
    assert (refused.outcome, refused.reason_code) == ("reject", "CZAR_INDEPENDENCE"), refused
    report = boundary.run_czar()
    assert {"joint", "note"} <= set(report.plan.skipped_own)
    rows = engine.executor.read("audits/boundary_entries", boundary_id=boundary_id)
    assert {r["id"]: r["status"] for r in rows}["joint"] == "live"
    assert engine.run_audit("czar_independence", boundary_id=boundary_id).rows == []


def test_a_reader_token_cannot_write(engine: Engine, boundary_id: str) -> None:
    with running(engine, boundary_id) as api:
        assert api.call("PUT", f"/boundaries/{boundary_id}", "operator").ok
        before = _counts(engine, boundary_id)
        body = {
            "id": "p-r",
            "set_id": "s-r",
            "entries": [{"class": "decision", "key": "k", "body": "b"}],
        }
        base = f"/boundaries/{boundary_id}"
        for method, path, json in [
            ("POST", f"{base}/commit", body),
            ("POST", f"{base}/proposals", body),
            ("POST", f"{base}/close", None),
            ("POST", f"{base}/invalidations", {"target": "x", "reason": "r", "mode": "challenge"}),
            ("POST", f"{base}/recall/admit", {"entry_ids": ["x"]}),
            ("PUT", f"/boundaries/{boundary_id}-new", None),
            ("POST", f"{base}/halts/{boundary_id}/x/halt/1/resolve", {"reason": "r"}),
        ]:
            answer = api.call(method, path, "reader", json=json)
            assert answer.status_code == 403, (path, answer.status_code, answer.text)
            assert answer.json()["type"] == "urn:kg-context:problem:forbidden"
        assert _counts(engine, boundary_id) == before
        assert api.call("GET", f"{base}", "reader").status_code == 200  # it reads


def test_who_is_asking_is_settled_before_a_body_is_read(engine: Engine, boundary_id: str) -> None:
    """A body is parsed and validated only for a caller allowed to send it: no token is 401 and
    a reader's write is 403, whatever the body (it was 422: a body was read and validated for
    anyone, and a refusal for want of authority looked like a malformed request)."""
    with running(engine, boundary_id) as api:
        assert api.call("PUT", f"/boundaries/{boundary_id}", "operator").ok
        base = f"/boundaries/{boundary_id}"
        for path in ("commit", "proposals", "invalidations", "recall/admit", "attention/waves"):
            for role, status in ((None, 401), ("reader", 403)):
                answer = api.call("POST", f"{base}/{path}", role, json={"not": "valid"})
                assert answer.status_code == status, (path, role, answer.text)
        answer = api.call("POST", f"{base}/halts/h/resolve", "writer", json={"not": "valid"})
        assert answer.status_code == 403, answer.text


def test_an_operator_action_is_always_attributed(
    engine: Engine, raw: Engine, boundary_id: str
) -> None:
    boundary = engine.boundary(boundary_id)
    entry = {"class": "decision", "key": "k", "body": "b", "verse": "global"}
    first = boundary.commit(_proposal(boundary_id, "p-1", {**entry, "id": "e-1"}))
    second = boundary.commit(_proposal(boundary_id, "p-2", {**entry, "id": "e-2", "key": "k2"}))
    assert first.halt_id and second.halt_id
    before = _counts(engine, boundary_id)
    with pytest.raises(KgContextError):  # no operator named: refused, nothing written
        engine.halts.resolve(first.halt_id, "reject", operator_id="", reason="nobody")
    assert _counts(engine, boundary_id) == before

    engine.halts.resolve(first.halt_id, "reject", operator_id="operator", reason="not here")
    receipt = raw.executor.read("authority/receipt", receipt_id=f"{first.halt_id}/resolution")
    assert receipt[0]["r"]["operator_id"] == "operator"
    with running(engine, boundary_id) as api:  # over HTTP: the operator token's identity
        answer = api.call(
            "POST",
            f"/boundaries/{boundary_id}/halts/{second.halt_id}/resolve",
            "operator",
            json={"resolution": "reject", "reason": "not here either"},
        )
        assert answer.status_code == 200, answer.text
    receipt = raw.executor.read("authority/receipt", receipt_id=f"{second.halt_id}/resolution")
    assert receipt[0]["r"]["operator_id"] == "operator"
    adoption = engine.adopt(boundary_id, operator_id="operator", reason="why", keys=["k"])
    receipt = raw.executor.read("authority/receipt", receipt_id=adoption)
    assert receipt[0]["r"]["operator_id"] == "operator"
    text = boundary.constitution().text.replace(
        f'version = "{boundary.constitution().version}"', f'version = "attr-{boundary_id[-10:]}"'
    )
    changed = boundary.propose_constitution(text, writer_id="operator", reason="attributed")
    assert changed.outcome == "commit"
    ledger = engine.executor.read("audits/ledger", boundary_id=boundary_id)
    assert [r["writer_id"] for r in ledger if r["set_id"] == changed.set_id] == ["operator"]


def test_neo4j_runs_with_authentication_on(neo4j_target: Target, killable: KillableServer) -> None:
    for target in (neo4j_target, killable.target):
        wrong = Target(target.source, target.uri, target.username, "not-the-password", "neo4j")
        with pytest.raises(AuthenticationError):
            open_driver(wrong).close()
        with (
            pytest.raises(neo4j.exceptions.AuthError),
            neo4j.GraphDatabase.driver(target.uri, auth=None) as anonymous,
        ):
            anonymous.verify_connectivity()
        with Engine(open_driver(target), target, catalog=Catalog(FIXTURES)) as raw:
            (row,) = raw.executor.read("authority/auth_enabled")
        assert row["value"] == "true"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_no_password_or_token_is_ever_printed_or_logged(
    killable: KillableServer, tmp_path: Path
) -> None:
    """A session over the killable server (its password generated, never given): the CLI's
    commands, an API server with good and bad tokens, a failed login; then every byte of the
    CLI's output, the API server's log and the Neo4j server's logs is searched for the password
    and every token."""
    password = killable.settings.password_file.read_text().strip()
    env = {**killable.env(), "HF_HUB_OFFLINE": "1"}
    env.pop("NEO4J_URI", None)
    env.pop("NEO4J_PASSWORD", None)
    outputs: list[str] = []

    def cli(*args: str) -> subprocess.CompletedProcess[str]:
        done = subprocess.run(
            [sys.executable, "-m", "kg_context.cli", *args],
            env=env,
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
        outputs.extend([done.stdout, done.stderr])
        return done

    assert cli("neo4j", "status").returncode == 0
    assert cli("neo4j", "status", "--json").returncode == 0
    assert cli("db", "info").returncode == 0
    assert cli("schema", "apply").returncode == 0
    tokens = {name: secrets.token_urlsafe(32) for name in ("writer", "operator", "reader")}
    table = tmp_path / "tokens.toml"
    table.write_text(
        "\n".join(
            f'[[tokens]]\ntoken_sha256 = "{hashlib.sha256(t.encode()).hexdigest()}"\n'
            f'scope = "{name}"\nwriter_id = "{name}-1"\n'
            f'writer_kind = "{"operator" if name == "operator" else "agent"}"\n'
            for name, t in tokens.items()
        )
    )
    port = _free_port()
    log = tmp_path / "serve.log"
    with log.open("w") as sink:
        server = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "kg_context.cli",
                "serve",
                "--port",
                str(port),
                "--tokens",
                str(table),
            ],
            env=env,
            cwd=ROOT,
            stdout=sink,
            stderr=subprocess.STDOUT,
        )
        try:
            url = f"http://127.0.0.1:{port}"
            _wait_healthy(url)
            boundary = f"{url}/boundaries/logged-{secrets.token_hex(4)}"
            operator = {"Authorization": f"Bearer {tokens['operator']}"}
            assert requests.put(boundary, headers=operator, timeout=60).ok
            for name, token in tokens.items():
                headers = {"Authorization": f"Bearer {token}"}
                assert requests.get(boundary, headers=headers, timeout=60).status_code == 200
                requests.get(f"{boundary}?{name}={token}", headers=headers, timeout=60)
                requests.get(f"{url}/metrics", headers=headers, timeout=60)
            bad = {"Authorization": f"Bearer {tokens['writer']}x"}
            assert requests.get(f"{url}/metrics", headers=bad, timeout=60).status_code == 401
        finally:
            server.terminate()
            server.wait(timeout=60)
    env["KG_CONTEXT_LOCAL_PASSWORD"] = "a-wrong-password-" + secrets.token_hex(8)
    assert cli("db", "info").returncode == 6  # refused, and the refusal names no password
    secrets_seen = [password, *tokens.values(), env["KG_CONTEXT_LOCAL_PASSWORD"]]
    logs = {
        "cli": "\n".join(outputs),
        "api": log.read_text(),
        **{
            f"neo4j/{path.name}": path.read_text(errors="replace")
            for path in (killable.settings.home_dir / "logs").iterdir()
            if path.is_file()
        },
    }
    assert "GET /boundaries/{boundary_id} 200" in logs["api"]  # the access log, by template
    assert "GET /metrics 401" in logs["api"]
    for name, text in logs.items():
        for secret in secrets_seen:
            assert secret not in text, f"a secret is in {name}"


def _wait_healthy(url: str) -> None:
    deadline = time.monotonic() + 120
    while True:
        try:
            if requests.get(f"{url}/healthz", timeout=5).status_code == 200:
                return
        except requests.ConnectionError:
            pass
        assert time.monotonic() < deadline, "the API server did not start"
        time.sleep(0.5)
