"""The real server: version, the schema, errors users see (the catalog against the planner:
test_plans.py)."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from typing import Any

import pytest

from kg_context.db.catalog import default_catalog
from kg_context.db.connection import Target, open_driver
from kg_context.db.schema import OBSOLETE, apply_schema
from kg_context.errors import AuthenticationError, DatabaseUnavailableError
from kg_context.gate.pure.batch import constitution_receipt
from kg_context.gate.pure.constitution import load_constitution


def test_server_is_neo4j_5_26(engine: Any) -> None:
    assert engine.server_version().startswith("Neo4j/5.26")
    rows = engine.executor.read("admin/server_components")
    assert rows[0]["version"].startswith("5.26")


def test_schema_apply_is_idempotent_and_safe_concurrently(engine: Any) -> None:
    failures: list[BaseException] = []

    def apply() -> None:
        try:
            apply_schema(engine.executor)
        except BaseException as err:  # noqa: BLE001 - collected and asserted below
            failures.append(err)

    threads = [threading.Thread(target=apply) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    names = {row["name"]: row for row in engine.executor.read("admin/show_indexes")}
    expected = {q.name.split("/", 1)[1] for q in default_catalog().under("schema")}
    assert expected <= set(names)
    assert all(names[n]["state"] == "ONLINE" for n in expected)
    assert names["entry_body_fulltext"]["type"] == "FULLTEXT"
    # What the schema dropped stays dropped: no obsolete rule is left behind.
    assert not {name for _, name in OBSOLETE} & set(names)


def test_write_then_read_back(engine: Any, boundary_id: str) -> None:
    constitution = load_constitution()
    receipt = constitution_receipt(
        boundary_id, constitution, ratified_by="kg-context", at="2026-11-30T00:00:00Z"
    )
    written = engine.executor.write(
        "boundary/ensure",
        boundary_id=boundary_id,
        verse="local",
        constitution_version=constitution.version,
        task_horizon=None,
        czar_every_commits=25,
        receipt=receipt,
    )
    again = engine.executor.write(
        "boundary/ensure",
        boundary_id=boundary_id,
        verse="global",
        constitution_version="2",
        task_horizon=40,
        czar_every_commits=0,
        receipt=receipt,
    )
    read = engine.executor.read("boundary/get", boundary_id=boundary_id)
    assert written == again == read  # MERGE is idempotent: the second call changed nothing
    assert read[0]["seq"] == 0 and read[0]["verse"] == "local"


# Failed logins can lock the user for a moment (Neo4j's rate limit), which would fail the other
# tests' logins: the two tests with a wrong password log in to the suite's second server, which
# only the tests of its group use, one at a time on one worker (tests/conftest.py).
def test_wrong_password_is_one_clear_error(second_engine: Any) -> None:
    server = second_engine.target
    wrong = Target("env", server.uri, server.username, "wrong-pass", "neo4j")
    with pytest.raises(AuthenticationError) as caught:
        open_driver(wrong)
    assert server.uri in str(caught.value)
    assert "NEO4J_PASSWORD" in str(caught.value)


def test_unreachable_uri_is_one_clear_error() -> None:
    with pytest.raises(DatabaseUnavailableError) as caught:
        open_driver(Target("env", "bolt://127.0.0.1:1", "neo4j", "pw", "neo4j"))
    assert "bolt://127.0.0.1:1" in str(caught.value)
    assert "NEO4J_URI" in str(caught.value)


@pytest.mark.parametrize(
    ("uri", "password", "database", "words"),
    [
        ("bolt://127.0.0.1:1", "pw", None, "cannot reach Neo4j at bolt://127.0.0.1:1"),
        (None, "wrong-pass", None, "refused the credentials"),
        # A database the server does not serve (the test server has no such name).
        (None, None, "kgcontextnosuchdatabase", "no database 'kgcontextnosuchdatabase'"),
    ],
)
def test_cli_prints_one_line_and_no_traceback(
    second_engine: Any, uri: str | None, password: str | None, database: str | None, words: str
) -> None:
    server = second_engine.target  # a failed login among its cases, as above
    env = dict(
        os.environ,
        NEO4J_URI=uri or server.uri,
        NEO4J_PASSWORD=password or server.password,
        NEO4J_DATABASE=database or server.database,
    )
    done = subprocess.run(
        [sys.executable, "-m", "kg_context.cli", "db", "info"],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 6  # the database cannot be reached, refused, or is not there
    assert "Traceback" not in done.stderr + done.stdout
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, done.stderr
    assert words in lines[0]
    assert (uri or server.uri) in lines[0]
