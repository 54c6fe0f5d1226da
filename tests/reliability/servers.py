"""Neo4j servers the reliability tests may kill: isolated local instances (own home directory,
own ports, own generated password), started with ``local_server.start`` or the CLI
(``kg-context neo4j start``), killed with SIGKILL, restarted, and stopped at the end.

Ports come from ``KG_TEST_KILLABLE_PORTS`` (``first-last``, default 17826-17839): a free pair of
that range per server, so a test never kills or reuses a server it did not start.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from pydantic import SecretStr

from kg_context.db import local_server as neo4j_local
from kg_context.db.connection import Target, target_for
from kg_context.settings import LocalServerSettings, Neo4jSettings
from tests.servers import own_server

ROOT = Path(__file__).resolve().parents[2]


def _port_free(port: int) -> bool:
    with socket.socket() as probe:
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return False
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.2):
            return False
    except OSError:
        return True


def free_ports(count: int) -> list[int]:
    first, last = (
        int(p) for p in os.environ.get("KG_TEST_KILLABLE_PORTS", "17826-17839").split("-")
    )
    found = [port for port in range(first, last + 1) if _port_free(port)][:count]
    if len(found) < count:
        raise RuntimeError(f"fewer than {count} free ports in {first}-{last}")
    return found


@dataclass
class KillableServer:
    """One isolated local server, and what happened to it (kills, restart times)."""

    settings: LocalServerSettings
    restarts_s: list[float] = field(default_factory=list)

    @property
    def target(self) -> Target:
        return target_for("local", Neo4jSettings(database="neo4j"), self.settings)

    def env(self) -> dict[str, str]:
        """The environment under which ``kg-context neo4j start`` finds this server and starts
        it again as it was started: every one of its settings (the JVM's options and collector,
        its heap, ports and home), whatever the suite's own environment says."""
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        for name in LocalServerSettings.model_fields:
            key = f"KG_CONTEXT_LOCAL_{name.upper()}"
            value = getattr(self.settings, name)
            if value is None:
                env.pop(key, None)
            elif isinstance(value, SecretStr):
                env[key] = value.get_secret_value()
            elif isinstance(value, bool):
                env[key] = str(value).lower()
            else:
                env[key] = str(value)
        return env

    def start(self) -> float:
        started = time.monotonic()
        neo4j_local.start(self.settings)
        return time.monotonic() - started

    def start_with_cli(self) -> float:
        """``kg-context neo4j start`` as an operator runs it; the seconds until Bolt answered."""
        started = time.monotonic()
        done = subprocess.run(
            [sys.executable, "-m", "kg_context.cli", "neo4j", "start", "--json"],
            env=self.env(),
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
        assert done.returncode == 0, done.stderr[-2000:]
        took = time.monotonic() - started
        self.restarts_s.append(took)
        return took

    def kill9(self) -> None:
        """SIGKILL the process group (a crash, not a shutdown); wait until it is gone."""
        state = neo4j_local.status(self.settings)
        assert state.running and state.pid is not None, state.detail
        os.killpg(state.pid, signal.SIGKILL)
        deadline = time.monotonic() + 30
        while neo4j_local.status(self.settings).running and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not neo4j_local.status(self.settings).running

    def stop(self) -> None:
        neo4j_local.stop(self.settings)


@contextmanager
def killable_server(home: Path, *, http: bool = False) -> Iterator[KillableServer]:
    bolt, http_port = free_ports(2)
    server = KillableServer(
        own_server(home, bolt_port=bolt, http_port=http_port, http_enabled=http)
    )
    server.start()
    try:
        yield server
    finally:
        server.stop()
