"""The end-to-end demo behind ``make demo``: a small governed session against the real database.

A planner proposes decisions, revises one with a declared supersession, a researcher's global
material halts at the gate until an operator resolves it, and everything is read back from Neo4j:
the entries with their record status and residency, the ledger with its receipts, and the halts.
"""

from __future__ import annotations

import uuid
from typing import Any

from rich.console import Console
from rich.table import Table

from kg_context.engine import Engine
from kg_context.gate.decision import Decision

__all__ = ["run_demo"]


def _proposal(boundary_id: str, n: int, writer: str, *entries: dict[str, Any], **extra: Any) -> Any:
    return {
        "id": f"{boundary_id}-p{n}",
        "boundary_id": boundary_id,
        "writer_id": writer,
        "writer_kind": "agent",
        "entries": list(entries),
        **extra,
    }


def _say(console: Console, step: str, decision: Decision) -> None:
    seq = f"seq {decision.seq}" if decision.seq is not None else "no seq"
    code = f" [{decision.reason_code}] {decision.detail}" if decision.reason_code else ""
    console.print(
        f"  {step}: [bold]{decision.outcome}[/] ({seq}, receipt {decision.receipt_id}){code}"
    )


def run_demo(engine: Engine, console: Console) -> dict[str, Any]:
    """Run the session, print what the database holds, and return the boundary's counts."""
    boundary_id = f"demo-{uuid.uuid4().hex[:10]}"
    console.print(f"[bold]Database:[/] {engine.target.describe()}")
    console.print(f"[bold]Server:[/] {engine.server_version()}")
    console.print(f"[bold]Boundary:[/] {boundary_id}\n")
    team = engine.boundary(boundary_id)

    def e(name: str) -> str:
        return f"{boundary_id}-{name}"

    _say(
        console,
        "planner commits the goal and a decision",
        team.commit(
            _proposal(
                boundary_id,
                1,
                "planner",
                {
                    "id": e("goal"),
                    "class": "goal",
                    "key": "ship",
                    "body": "Ship the search API by Friday",
                },
                {
                    "id": e("db1"),
                    "class": "decision",
                    "key": "datastore",
                    "body": "Store documents in Postgres",
                    "requires": [{"entry_id": e("goal"), "policy": "hard"}],
                },
                targets=["datastore"],
            )
        ),
    )
    _say(
        console,
        "planner revises the decision (declared supersession)",
        team.commit(
            _proposal(
                boundary_id,
                2,
                "planner",
                {
                    "id": e("db2"),
                    "class": "decision",
                    "key": "datastore",
                    "body": "Store documents in Neo4j: the queries are graph walks",
                    "supersedes": [{"entry_id": e("db1"), "reason": "queries are graph walks"}],
                    "derived_from": [{"entry_id": e("db1"), "essential": True}],
                    "requires": [{"entry_id": e("goal"), "policy": "hard"}],
                },
                {
                    "id": e("alt"),
                    "class": "rejected_alternative",
                    "key": "datastore-es",
                    "body": "Elasticsearch alone: rejected, no graph walks",
                    "expires_after": 20,
                },
                targets=["datastore"],
            )
        ),
    )
    halted = team.commit(
        _proposal(
            boundary_id,
            3,
            "researcher",
            {
                "class": "fact",
                "key": "bench",
                "body": "Public benchmark: Neo4j walks 3x faster",
                "verse": "global",
                "attributes": {"source": "public thread"},
            },
            targets=["datastore"],
        )
    )
    _say(console, "researcher brings global material (no adoption receipt)", halted)
    if halted.halt_id is not None:
        resolution = engine.halts.resolve(
            halted.halt_id, "approve", operator_id="operator", reason="source checked by hand"
        )
        if resolution.decision is not None:
            _say(console, "operator approves the halt", resolution.decision)
    _say(
        console,
        "a malformed-by-rule proposal (no targets, no set id)",
        team.commit(
            _proposal(
                boundary_id,
                4,
                "planner",
                {"class": "decision", "key": "x", "body": "unplaced"},
            )
        ),
    )

    entries = engine.executor.read("audits/boundary_entries", boundary_id=boundary_id)
    table = Table(title="Entries, read back from Neo4j (record status and residency)")
    for column in ("seq", "class", "key", "status", "resident", "tokens", "body"):
        table.add_column(column)
    for row in entries:
        table.add_row(
            str(row["set_seq"]),
            row["class"],
            row["key"],
            row["status"],
            str(row["resident"]),
            str(row["tokens"]),
            row["body"],
        )
    console.print(table)

    ledger = engine.executor.read("audits/ledger", boundary_id=boundary_id)
    table = Table(title="The ledger: sets and their receipts")
    for column in ("seq", "status", "writer", "receipts (kind @ constitution)"):
        table.add_column(column)
    for row in ledger:
        receipts = ", ".join(f"{r['kind']}@{r['constitution_version']}" for r in row["receipts"])
        table.add_row(str(row["seq"]), row["status"], row["writer_id"], receipts)
    console.print(table)

    counts = engine.executor.read("audits/record_counts", boundary_id=boundary_id)[0]
    console.print(
        f"Record: {counts['entries']} entries, {counts['sets']} sets, {counts['receipts']} "
        f"receipts, {counts['halts']} halts, {counts['proposals']} proposals; seq {counts['seq']}."
    )
    console.print(
        f"In Neo4j Browser: :param boundary_id => '{boundary_id}', then paste any file of "
        "cypher/audits/ (ledger.cypher, boundary_entries.cypher, supersession_chain.cypher).",
        markup=False,
    )
    return counts
