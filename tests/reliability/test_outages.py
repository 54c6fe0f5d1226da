"""Outages: the database killed and down for 10 s under an open engine and a
running HTTP API. Every Python call raises ``DatabaseUnavailableError`` within the configured
bound with the cause ("Connection refused") in its message; the HTTP API answers 503 with
Retry-After; nothing of the driver reaches stderr; and both answer again by themselves once the
server is back, on the same engine and the same API server (no reconnect by the caller).
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from kg_context.engine import Engine
from kg_context.errors import DatabaseUnavailableError
from kg_context.settings import DatabaseSettings, EngineSettings
from tests.integration.api_server import running
from tests.reliability.servers import KillableServer

OUTAGE_S = 10.0
BOUND_S = 2.0  # KG_CONTEXT_DB_UNAVAILABLE_TIMEOUT_S for this engine
CONNECT_S = 2.0  # KG_CONTEXT_DB_CONNECTION_TIMEOUT_S


@pytest.fixture
def server(killable: KillableServer) -> KillableServer:
    return killable


def _proposal(boundary_id: str, n: int) -> dict[str, object]:
    return {
        "id": f"p-{n}",
        "boundary_id": boundary_id,
        "writer_id": "planner",
        "writer_kind": "agent",
        "set_id": f"s-{n}",
        "entries": [{"class": "decision", "key": f"k-{n}", "body": f"decision {n}"}],
    }


def test_a_10s_outage_is_a_bounded_typed_error_and_both_apis_recover_by_themselves(
    server: KillableServer, capfd: pytest.CaptureFixture[str]
) -> None:
    settings = EngineSettings(
        database=DatabaseSettings(unavailable_timeout_s=BOUND_S, connection_timeout_s=CONNECT_S)
    )
    boundary_id = "outage"
    with (
        Engine.connect(server.target, settings=settings) as engine,
        running(engine, boundary_id) as api,
    ):
        boundary = engine.boundary(boundary_id)
        assert boundary.commit(_proposal(boundary_id, 0)).outcome == "commit"
        assert api.call("PUT", f"/boundaries/{boundary_id}", "operator").ok
        capfd.readouterr()

        server.kill9()
        down_since = time.monotonic()
        calls = 0
        while time.monotonic() - down_since < OUTAGE_S:
            calls += 1
            asked = time.monotonic()
            with pytest.raises(DatabaseUnavailableError) as caught:
                boundary.commit(_proposal(boundary_id, calls))
            took = time.monotonic() - asked
            # the bound, one connection attempt, and scheduling slack on a loaded machine
            assert took < BOUND_S + CONNECT_S + 2.0, took
            message = str(caught.value)
            assert "Connection refused" in message and "\n" not in message, message

            answer = api.call(
                "POST",
                f"/boundaries/{boundary_id}/commit",
                json={"id": f"h-{calls}", "set_id": f"hs-{calls}", "entries": [_entry(calls)]},
            )
            assert answer.status_code == 503, answer.text
            assert answer.headers["content-type"].startswith("application/problem+json")
            assert int(answer.headers["Retry-After"]) >= 1
            assert answer.json()["type"] == "urn:kg-context:problem:database-unavailable"
            health = api.call("GET", "/healthz", role=None)
            assert health.status_code == 503 and "Retry-After" in health.headers
        assert calls >= 2
        err = capfd.readouterr().err  # what the driver, the engine and the API printed
        assert "will be retried" not in err and "neo4j" not in err.lower(), err[-2000:]

        restarted_in = server.start()
        print(f"outage: {calls} calls refused in {OUTAGE_S:.0f}s; restart took {restarted_in:.1f}s")
        # the same engine and the same API server answer again, with nothing reconnected
        after = boundary.commit(_proposal(boundary_id, 1000))
        assert (after.outcome, after.seq) == ("commit", 2)
        answer = api.call(
            "POST",
            f"/boundaries/{boundary_id}/commit",
            json={"id": "h-after", "set_id": "hs-after", "entries": [_entry(1000)]},
        )
        assert answer.status_code == 200 and answer.json()["outcome"] == "commit"
        assert api.call("GET", "/healthz", role=None).status_code == 200
        refused = [p for p in range(1, calls + 1) if boundary.decision(f"p-{p}") is not None]
        assert refused == []  # a refused call recorded nothing


def _entry(n: int) -> dict[str, object]:
    return {"class": "decision", "key": f"http-{n}", "body": f"over http {n}"}


def test_the_default_bound_is_well_under_10s() -> None:
    assert DatabaseSettings().unavailable_timeout_s + DatabaseSettings().connection_timeout_s < 10


def test_a_bolt_uri_with_an_empty_host_never_falls_back_to_localhost(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """``NEO4J_URI=bolt://`` would reach whatever answers on localhost:7687; the CLI refuses it
    (exit 4: a setting that cannot be used) and names the empty host."""
    import subprocess
    import sys

    from tests.reliability.servers import ROOT

    done = subprocess.run(
        [sys.executable, "-m", "kg_context.cli", "db", "info"],
        env={
            "PATH": "/usr/bin:/bin",
            "NEO4J_URI": "bolt://",
            "NEO4J_PASSWORD": "x",
            "HOME": str(tmp_path),
            "PYTHONPATH": str(ROOT),
        },
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 4, (done.returncode, done.stderr)
    assert "empty host" in done.stderr and "Traceback" not in done.stderr
