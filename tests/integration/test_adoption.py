"""Adoption is an operator-governed act whose receipt is matched by key, and
whose use is counted and bounded (against the real Neo4j)."""

from __future__ import annotations

from typing import Any

import pytest
from typer.testing import CliRunner

from kg_context.errors import InputValidationError
from tests.factories import entry, proposal


def _global(boundary_id: str, key: str, receipt: str | None, pid: str) -> dict[str, Any]:
    extra = {"adoption_receipt_id": receipt} if receipt else {}
    return proposal(boundary_id, entry(verse="global", key=key), pid=pid, **extra)


def _uses(engine: Any, receipt_id: str) -> int:
    rows = engine.executor.read("audits/adoption_uses", receipt_id=receipt_id)
    return int(rows[0]["uses"]) if rows else 0


def test_a_receipt_admits_only_its_keys_once(engine: Any, boundary_id: str) -> None:
    """A receipt for `pricing` does not admit `security`, and is not reused past its uses."""
    boundary = engine.boundary(boundary_id)
    receipt = engine.adopt(boundary_id, operator_id="operator", reason="vetted", keys=["pricing"])
    other_key = boundary.commit(_global(boundary_id, "security", receipt, f"{boundary_id}/p1"))
    assert (other_key.outcome, other_key.reason_code) == ("halt", "ADOPTION_SCOPE")
    assert "security" in (other_key.detail or "")
    first = boundary.commit(_global(boundary_id, "pricing", receipt, f"{boundary_id}/p2"))
    assert first.outcome == "commit"
    again = boundary.commit(_global(boundary_id, "pricing", receipt, f"{boundary_id}/p3"))
    assert (again.outcome, again.reason_code) == ("halt", "ADOPTION_SCOPE")
    assert "used" in (again.detail or "")
    assert _uses(engine, receipt) == 1


def test_a_receipt_states_its_uses_and_its_validity(engine: Any, boundary_id: str) -> None:
    boundary = engine.boundary(boundary_id)
    twice = engine.adopt(boundary_id, operator_id="operator", reason="r", keys=["k"], uses=2)
    outcomes = [
        boundary.commit(_global(boundary_id, "k", twice, f"{boundary_id}/t{i}")).outcome
        for i in range(3)
    ]
    assert outcomes == ["commit", "commit", "halt"]
    assert _uses(engine, twice) == 2
    seq = boundary.state().seq
    until = engine.adopt(
        boundary_id,
        operator_id="operator",
        reason="r",
        keys=["v"],
        uses=10,
        valid_until_seq=seq + 1,
    )
    assert (
        boundary.commit(_global(boundary_id, "v", until, f"{boundary_id}/v1")).outcome == "commit"
    )
    expired = boundary.commit(_global(boundary_id, "v", until, f"{boundary_id}/v2"))
    assert (expired.outcome, expired.reason_code) == ("halt", "ADOPTION_SCOPE")
    assert "expired" in (expired.detail or "")


def test_an_adoption_names_keys(engine: Any, boundary_id: str) -> None:
    """An adoption with no keys (adopt(keys=[])) is refused."""
    engine.boundary(boundary_id)
    with pytest.raises(InputValidationError, match="key"):
        engine.adopt(boundary_id, operator_id="operator", reason="r", keys=[])
    with pytest.raises(InputValidationError, match="uses"):
        engine.adopt(boundary_id, operator_id="operator", reason="r", keys=["k"], uses=0)


def test_the_halt_names_the_adoption_remedy_and_the_adopt_command_gives_it(
    engine: Any, boundary_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The halt's suggested remedy names, in plain words, the adoption receipt for the key, and
    the CLI's ``adopt`` command issues one that the writer then cites."""
    from kg_context.cli.app import app

    boundary = engine.boundary(boundary_id)
    halted = boundary.commit(_global(boundary_id, "weather", None, f"{boundary_id}/w1"))
    assert halted.reason_code == "VERSE_ADOPTION"
    remedy = halted.suggested_amendment or ""
    assert "adoption receipt for key 'weather'" in remedy and "--" not in remedy
    monkeypatch.setenv("KG_CONTEXT_OPERATOR", "operator")
    done = CliRunner().invoke(
        app, ["adopt", boundary_id, "--key", "weather", "--reason", "vetted", "--uses", "1"]
    )
    assert done.exit_code == 0, done.output
    receipt = done.output.strip().split()[-1]
    admitted = boundary.commit(_global(boundary_id, "weather", receipt, f"{boundary_id}/w2"))
    assert admitted.outcome == "commit", admitted
