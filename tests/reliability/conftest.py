"""The reliability suite's own Neo4j server: one isolated local instance for the session (its own
home, ports and generated password) that the outage, crash and log tests may kill and restart;
never the server the rest of the suite uses."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.reliability.servers import KillableServer, killable_server


@pytest.fixture(scope="session")
def killable(tmp_path_factory: pytest.TempPathFactory) -> Iterator[KillableServer]:
    with killable_server(tmp_path_factory.mktemp("killable-neo4j")) as started:
        yield started
