"""Local-server bookkeeping that needs no java: config, pid files and stale-pid handling."""

from __future__ import annotations

from pathlib import Path

from kg_context.db import local_server as neo4j_local
from kg_context.settings import LocalServerSettings


def _settings(tmp_path: Path) -> LocalServerSettings:
    return LocalServerSettings(home_dir=tmp_path / "home", bolt_port=17687, http_port=17474)


def test_config_names_ports_and_project_local_directories(tmp_path: Path) -> None:
    settings = _settings(tmp_path)
    conf = (neo4j_local._write_config(settings) / "neo4j.conf").read_text()
    assert "server.bolt.listen_address=127.0.0.1:17687" in conf
    assert "server.http.listen_address=127.0.0.1:17474" in conf
    assert f"server.directories.data={tmp_path / 'home' / 'data'}" in conf


def test_a_dead_pid_is_reported_stale_and_not_running(tmp_path: Path) -> None:
    settings = _settings(tmp_path)
    pid_file = tmp_path / "home" / "run" / neo4j_local.PID_FILE
    pid_file.parent.mkdir(parents=True)
    pid_file.write_text("999999999\n")
    state = neo4j_local.status(settings)
    assert not state.running
    assert "stale" in state.detail
    # stop with a stale pid file is harmless and clears it
    assert not neo4j_local.stop(settings).running
    assert not pid_file.exists()


def test_a_live_pid_that_is_not_neo4j_is_not_taken_for_the_server(tmp_path: Path) -> None:
    import os

    settings = _settings(tmp_path)
    pid_file = tmp_path / "home" / "run" / neo4j_local.PID_FILE
    pid_file.parent.mkdir(parents=True)
    pid_file.write_text(f"{os.getpid()}\n")  # pytest itself: alive, but not a Neo4j server
    assert not neo4j_local.status(settings).running
