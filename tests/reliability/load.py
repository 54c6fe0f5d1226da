"""Processes of the concurrency test: writers and gates over many boundaries,
through the Python API or the HTTP API.

    python -m tests.reliability.load py-writer W N BOUNDARY...          Python API writer
    python -m tests.reliability.load py-gate STOPFILE BOUNDARY...        Python API gate
    python -m tests.reliability.load http-writer W N URL BOUNDARY...     HTTP writer (KG_TEST_TOKEN)

Writer ``W`` proposes N proposals round-robin over the boundaries, each its own set: most commit
(a decision), one in 20 halts (global material in a local boundary: VERSE_ADOPTION), one in 20 is
rejected (DERIVED_FROM an entry that does not exist: UNKNOWN_DEPENDENCY). Every second proposal
is only submitted (pending, for a gate to close), the others are committed (submit and close).
It prints ``<proposal id> <boundary> <expected outcome>`` per proposal. A Python gate closes
every boundary in turn until STOPFILE exists, then once more. Python processes end with
``retries <json>`` (the executor's units, attempts and retries by code).
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path
from typing import Any

from kg_context.db.connection import Target
from kg_context.engine import Engine


def expected(i: int) -> str:
    return {0: "halt", 1: "reject"}.get(i % 20, "commit")


def proposal(writer: int, i: int, boundary_id: str) -> dict[str, Any]:
    pid = f"w{writer}-{i}"
    entry: dict[str, Any] = {"id": f"{pid}-e", "class": "decision", "key": pid, "body": f"n{i}"}
    if expected(i) == "halt":
        entry["verse"] = "global"
    elif expected(i) == "reject":
        entry["derived_from"] = [{"entry_id": f"{pid}-missing"}]
    return {
        "id": pid,
        "boundary_id": boundary_id,
        "writer_id": f"writer-{writer}",
        "writer_kind": "agent",
        "set_id": f"{pid}-set",
        "entries": [entry],
    }


def _target() -> Target:
    env = os.environ
    return Target("env", env["KG_TEST_URI"], env["KG_TEST_USER"], env["KG_TEST_PASSWORD"], "neo4j")


def _retries(engine: Engine) -> None:
    counts = engine.executor.retry_counts()
    body = {"units": counts.units, "attempts": counts.attempts, **counts.retries}
    print("retries", json.dumps(body), flush=True)


def py_writer(writer: int, count: int, boundaries: list[str]) -> None:
    with Engine.connect(_target(), check_schema=False) as engine:
        handles = [engine.boundary(b, create=False) for b in boundaries]
        for i in range(count):
            boundary = handles[(writer + i) % len(handles)]
            body = proposal(writer, i, boundary.id)
            if i % 2:
                boundary.submit(body)
            else:
                boundary.commit(body)
            print(body["id"], boundary.id, expected(i), flush=True)
        _retries(engine)


def py_gate(stop_file: Path, boundaries: list[str]) -> None:
    with Engine.connect(_target(), check_schema=False) as engine:
        handles = [engine.boundary(b, create=False) for b in boundaries]
        closes = 0
        while True:
            last = stop_file.exists()
            for boundary in handles:
                boundary.close()
                closes += 1
            if last:
                break
            time.sleep(0.02)
        print("closes", closes, flush=True)
        _retries(engine)


def http_writer(writer: int, count: int, url: str, boundaries: list[str]) -> None:
    import requests

    session = requests.Session()
    session.headers["Authorization"] = f"Bearer {os.environ['KG_TEST_TOKEN']}"
    for i in range(count):
        boundary_id = boundaries[(writer + i) % len(boundaries)]
        body = proposal(writer, i, boundary_id)
        del body["writer_id"], body["writer_kind"]  # the server stamps the token's identity
        route = "proposals" if i % 2 else "commit"
        answer = session.post(f"{url}/boundaries/{boundary_id}/{route}", json=body, timeout=300)
        if answer.status_code != 200:
            raise SystemExit(f"{route} {body['id']}: {answer.status_code} {answer.text[:500]}")
        print(body["id"], boundary_id, expected(i), flush=True)


def main() -> None:
    role, args = sys.argv[1], sys.argv[2:]
    if role == "py-writer":
        py_writer(int(args[0]), int(args[1]), args[2:])
    elif role == "py-gate":
        py_gate(Path(args[0]), args[1:])
    elif role == "http-writer":
        http_writer(int(args[0]), int(args[1]), args[2], args[3:])
    else:
        raise SystemExit(f"unknown role {role}")


if __name__ == "__main__":
    main()
