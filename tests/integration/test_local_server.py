"""The local server's life cycle, on an isolated instance (own ports and home directory), so it
runs the same whichever database the rest of the suite resolved to."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import pytest

from kg_context.db import local_server as neo4j_local
from kg_context.db.connection import target_for
from kg_context.engine import Engine
from kg_context.settings import LocalServerSettings, Neo4jSettings
from tests.servers import own_server


def _java_processes_for(home: Path) -> list[int]:
    found = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            cmdline = (proc / "cmdline").read_bytes().decode(errors="replace")
            state = (proc / "stat").read_text().rsplit(")", 1)[-1].split()[0]
        except OSError:
            continue
        if neo4j_local.ENTRY_POINT in cmdline and str(home) in cmdline and state != "Z":
            found.append(int(proc.name))
    return found


@pytest.fixture
def isolated(tmp_path: Path) -> LocalServerSettings:
    settings = own_server(tmp_path / "neo4j")
    yield settings
    neo4j_local.stop(settings)


def test_start_twice_kill_recover_and_stop(isolated: LocalServerSettings) -> None:
    first = neo4j_local.start(isolated)
    assert first.running and first.pid is not None
    second = neo4j_local.start(isolated)  # harmless: same server, nothing started
    assert second.pid == first.pid
    assert _java_processes_for(isolated.home_dir.resolve()) == [first.pid]

    target = target_for("local", Neo4jSettings(database="neo4j"), isolated)
    with Engine.connect(target) as engine:
        engine.boundary("survives-kill")  # the boundary and its constitution's receipt

    os.killpg(first.pid, signal.SIGKILL)  # a crash, not a shutdown
    deadline = time.monotonic() + 30
    while neo4j_local.status(isolated).running and time.monotonic() < deadline:
        time.sleep(0.2)
    state = neo4j_local.status(isolated)
    assert not state.running and "stale" in state.detail

    recovered = neo4j_local.start(isolated)  # stale pid file handled, store recovered
    assert recovered.running and recovered.pid != first.pid
    with Engine.connect(target) as engine:
        rows = engine.executor.read("boundary/get", boundary_id="survives-kill")
    assert [row["id"] for row in rows] == ["survives-kill"]

    stopped = neo4j_local.stop(isolated)
    assert not stopped.running
    assert _java_processes_for(isolated.home_dir.resolve()) == []
