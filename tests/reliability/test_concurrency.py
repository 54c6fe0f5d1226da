"""Concurrency: 8 writer processes and 2 gate processes over 10 boundaries,
through the Python API and through the HTTP API (2 ``kg-context serve`` processes with tokens):
every boundary's ledger is contiguous, every proposal is committed, halted or rejected exactly
once (as its content says it must be), ``kg-context audit all`` is clean for every boundary, and
the retries (deadlocks, transient errors) are counted by code.

``KG_TEST_LOAD_SETS`` sets in total per API (default 400 in the suite; the issue's run is
``KG_TEST_LOAD_SETS=5000 pytest -s tests/reliability/test_concurrency.py``, ``make reliability``).
Throughput and retries are printed (``-s``), asserted nowhere.
"""

from __future__ import annotations

import hashlib
import json
import os
import secrets
import socket
import subprocess
import sys
import time
import uuid
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import requests

from kg_context.db.catalog import Catalog
from kg_context.db.connection import Target, open_driver
from kg_context.db.executor import DEADLOCK
from kg_context.engine import Engine
from tests.cli import target_env
from tests.reliability.load import expected
from tests.reliability.servers import ROOT

WRITERS, GATES, BOUNDARIES = 8, 2, 10
SETS = int(os.environ.get("KG_TEST_LOAD_SETS", "400"))
FIXTURES = Path(__file__).parent / "fixtures"


def _env(target: Target, **extra: str) -> dict[str, str]:
    return target_env(
        target,
        KG_TEST_URI=target.uri,
        KG_TEST_USER=target.username,
        KG_TEST_PASSWORD=target.password,
        PYTHONPATH=str(ROOT),
        **extra,
    )


def _spawn(env: dict[str, str], *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "tests.reliability.load", *args],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _finish(process: subprocess.Popen[str]) -> tuple[list[list[str]], Counter[str]]:
    out, err = process.communicate(timeout=3600)
    assert process.returncode == 0, err[-3000:]
    lines = [line.split() for line in out.splitlines() if line.strip()]
    retries: Counter[str] = Counter()
    for line in lines:
        if line[0] == "retries":
            retries.update(json.loads(" ".join(line[1:])))
    return [line for line in lines if line[0] not in ("retries", "closes")], retries


def _boundaries(engine: Engine, tag: str) -> list[str]:
    run = uuid.uuid4().hex[:8]
    ids = [f"load-{tag}-{run}-{n}" for n in range(BOUNDARIES)]
    for boundary_id in ids:
        engine.boundary(boundary_id)
    return ids


def _verify(engine: Engine, target: Target, lines: list[list[str]], boundaries: list[str]) -> int:
    """Every proposal decided once, as expected; every ledger contiguous; audit all clean."""
    wanted = {pid: (boundary_id, outcome) for pid, boundary_id, outcome in lines}
    assert len(wanted) == len(lines) == SETS
    with Engine(open_driver(target), target, catalog=Catalog(FIXTURES)) as raw:
        rows = [
            row for b in boundaries for row in raw.executor.read("load/proposals", boundary_id=b)
        ]
    got = {row["id"]: row for row in rows}
    assert set(got) == set(wanted)
    status = {"commit": "committed", "halt": "halted", "reject": "rejected"}
    for pid, (boundary_id, outcome) in wanted.items():
        row = got[pid]
        assert (row["boundary_id"], row["status"], row["sets"]) == (
            boundary_id,
            status[outcome],
            1,
        ), row
    committed = 0
    for boundary_id in boundaries:
        ledger = engine.executor.read("audits/ledger", boundary_id=boundary_id)
        seqs = [row["seq"] for row in ledger if row["status"] == "ratified"]
        assert seqs == list(range(1, len(seqs) + 1)), boundary_id
        committed += len(seqs)
        audit = subprocess.run(
            [sys.executable, "-m", "kg_context.cli", "audit", "all", "-b", boundary_id],
            cwd=ROOT,
            env=_env(target),
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
        )
        assert audit.returncode == 0, audit.stdout[-3000:] + audit.stderr[-2000:]
    assert committed == sum(1 for _, _, outcome in lines if outcome == "commit")
    return committed


def _report(api: str, seconds: float, lines: list[list[str]], retries: Counter[str]) -> None:
    outcomes = Counter(outcome for _, _, outcome in lines)
    codes = {k: v for k, v in retries.items() if k not in ("units", "attempts")}
    print(
        f"\n{api}: {len(lines)} sets by {WRITERS} writers + {GATES} gates over {BOUNDARIES} "
        f"boundaries in {seconds:.1f}s = {len(lines) / seconds:.1f} sets/s; {dict(outcomes)}; "
        f"transactions {retries['units']}, attempts {retries['attempts']}, retries {codes}"
    )


def test_python_api_8_writers_2_gates_10_boundaries(engine: Engine, neo4j_target: Target) -> None:
    boundaries = _boundaries(engine, "py")
    env = _env(neo4j_target)
    per_writer = SETS // WRITERS
    stop = Path(f"/tmp/kg-load-stop-{uuid.uuid4().hex}")
    started = time.monotonic()
    gates = [_spawn(env, "py-gate", str(stop), *boundaries) for _ in range(GATES)]
    writers = [
        _spawn(env, "py-writer", str(w), str(per_writer), *boundaries) for w in range(WRITERS)
    ]
    lines: list[list[str]] = []
    retries: Counter[str] = Counter()
    try:
        for writer in writers:
            decided, counted = _finish(writer)
            lines += decided
            retries.update(counted)
    finally:
        stop.touch()
    for gate in gates:
        retries.update(_finish(gate)[1])
    seconds = time.monotonic() - started
    stop.unlink()
    _report("Python API", seconds, lines, retries)
    assert _verify(engine, neo4j_target, lines, boundaries) > 0
    assert retries["attempts"] >= retries["units"] >= SETS
    assert retries[DEADLOCK] == 0  # commits queue on the boundary lock; none deadlocks


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def _api_servers(target: Target, tokens: dict[str, str], tmp: Path) -> Iterator[list[str]]:
    """Two ``kg-context serve`` processes: the gate processes of the HTTP run."""
    table = tmp / "tokens.toml"
    entries = []
    for role, token in tokens.items():
        scope, kind = ("operator", "operator") if role == "operator" else ("writer", "agent")
        digest = hashlib.sha256(token.encode()).hexdigest()
        entries.append(
            f'[[tokens]]\ntoken_sha256 = "{digest}"\nscope = "{scope}"\n'
            f'writer_id = "{role}"\nwriter_kind = "{kind}"\n'
        )
    table.write_text("\n".join(entries))
    urls, servers = [], []
    for n in range(GATES):
        port = _free_port()
        log = (tmp / f"serve-{n}.log").open("w")
        servers.append(
            subprocess.Popen(
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
                cwd=ROOT,
                env=_env(target),
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        )
        urls.append(f"http://127.0.0.1:{port}")
    try:
        for url in urls:
            deadline = time.monotonic() + 120
            while True:
                try:
                    if requests.get(f"{url}/healthz", timeout=5).status_code == 200:
                        break
                except requests.ConnectionError:
                    pass
                assert time.monotonic() < deadline, (tmp / "serve-0.log").read_text()[-2000:]
                time.sleep(0.5)
        yield urls
    finally:
        for server in servers:
            server.terminate()
            server.wait(timeout=60)


def test_http_api_8_writers_2_gate_servers_10_boundaries(
    engine: Engine, neo4j_target: Target, tmp_path: Path
) -> None:
    boundaries = _boundaries(engine, "http")
    tokens = {f"writer-{w}": secrets.token_urlsafe(32) for w in range(WRITERS)}
    tokens["operator"] = secrets.token_urlsafe(32)
    per_writer = SETS // WRITERS
    with _api_servers(neo4j_target, tokens, tmp_path) as urls:
        started = time.monotonic()
        writers = [
            _spawn(
                _env(neo4j_target, KG_TEST_TOKEN=tokens[f"writer-{w}"]),
                "http-writer",
                str(w),
                str(per_writer),
                urls[w % GATES],
                *boundaries,
            )
            for w in range(WRITERS)
        ]
        lines: list[list[str]] = []
        for writer in writers:
            lines += _finish(writer)[0]
        for n, boundary_id in enumerate(boundaries):  # what the last writes left pending
            closed = requests.post(
                f"{urls[n % GATES]}/boundaries/{boundary_id}/close",
                headers={"Authorization": f"Bearer {tokens['writer-0']}"},
                timeout=300,
            )
            assert closed.status_code == 200, closed.text
        seconds = time.monotonic() - started
        retries: Counter[str] = Counter()
        for url in urls:
            retries.update(_scrape_retries(url, tokens["operator"]))
    _report("HTTP API", seconds, lines, retries)
    assert _verify(engine, neo4j_target, lines, boundaries) > 0
    assert retries[DEADLOCK] == 0
    assert all(expected(int(pid.split("-")[1])) == outcome for pid, _, outcome in lines)
    log = "".join(p.read_text() for p in tmp_path.glob("serve-*.log"))
    assert not any(token in log for token in tokens.values())  # no token in the servers' logs


def _scrape_retries(url: str, token: str) -> Counter[str]:
    text = requests.get(
        f"{url}/metrics", headers={"Authorization": f"Bearer {token}"}, timeout=60
    ).text
    found: Counter[str] = Counter()
    for line in text.splitlines():
        if line.startswith("kg_context_db_transactions_total "):
            found["units"] = int(line.split()[-1])
        elif line.startswith("kg_context_db_attempts_total "):
            found["attempts"] = int(line.split()[-1])
        elif line.startswith("kg_context_db_retries_total{"):
            code = line.split('code="', 1)[1].split('"', 1)[0]
            found[code] = int(line.split()[-1])
    return found
