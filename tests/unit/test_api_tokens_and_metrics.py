"""The API's token table and metrics text, without a database."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from pydantic import SecretStr

from kg_context.api.auth import Scope, TokenSpec, TokenTable
from kg_context.api.metrics import Metrics
from kg_context.errors import ConfigurationError
from kg_context.residency.metrics import BoundaryGauge, Overview
from kg_context.settings import ApiSettings
from kg_context.vocabulary import Outcome, ReasonCode, WriterKind

TOKEN = "a-token-of-enough-length-0123456789"


def _spec(**extra: object) -> dict[str, object]:
    return {"token": TOKEN, "scope": "writer", "writer_id": "planner", "writer_kind": "agent",
            **extra}  # fmt: skip


def test_a_token_is_bound_to_one_identity_kind_and_scope(tmp_path: Path) -> None:
    digest = hashlib.sha256(b"another-token-of-enough-length-xyz").hexdigest()
    file = tmp_path / "tokens.toml"
    file.write_text(
        f'[[tokens]]\ntoken_sha256 = "{digest}"\nscope = "operator"\nwriter_id = "operator"\n'
        'writer_kind = "operator"\nboundaries = ["team-7"]\n'
    )
    table = TokenTable.from_settings(
        ApiSettings(tokens_file=file, tokens=SecretStr(json.dumps([_spec()])))
    )
    writer = table.authenticate(TOKEN)
    assert writer is not None and (writer.writer_id, writer.writer_kind, writer.scope) == (
        "planner",
        WriterKind.AGENT,
        Scope.WRITER,
    )
    operator = table.authenticate("another-token-of-enough-length-xyz")
    assert operator is not None and operator.reaches("team-7") and not operator.reaches("team-8")
    assert table.authenticate("unknown") is None


@pytest.mark.parametrize(
    ("extra", "words"),
    [
        ({"token": "short"}, "at least 24"),
        ({"scope": "operator"}, "operator-scope token is of kind operator"),
        ({"writer_kind": "operator"}, "operator-scope token is of kind operator"),
        ({"token_sha256": "0" * 64}, "exactly one of token and token_sha256"),
        ({"writer_id": "has space"}, "writer_id"),
        ({"scope": "admin"}, "scope"),
    ],
)
def test_unusable_token_configuration_is_refused(extra: dict[str, object], words: str) -> None:
    with pytest.raises(ConfigurationError, match=words):
        TokenTable.from_settings(ApiSettings(tokens=SecretStr(json.dumps([_spec(**extra)]))))


def test_no_tokens_or_a_duplicate_is_refused() -> None:
    with pytest.raises(ConfigurationError, match="no API tokens"):
        TokenTable.from_settings(ApiSettings())
    with pytest.raises(ConfigurationError, match="twice"):
        TokenTable([TokenSpec.model_validate(_spec()), TokenSpec.model_validate(_spec())])


def test_metrics_enumerate_the_vocabulary_and_escape_labels() -> None:
    metrics = Metrics()
    metrics.observe_request("GET", "/boundaries/{boundary_id}/window", 200, 0.02)
    overview = Overview(
        boundaries_total=2,
        boundaries=(BoundaryGauge('b"1', 3, 300, 100, 4), BoundaryGauge("b2", 0, 0, 0, 0)),
        halts={("VERSE_ADOPTION", "open"): 2, ("LEGACY_CODE", "resolved"): 1},
    )
    text = metrics.render(overview)
    for outcome in Outcome:
        assert f'kg_context_gate_decisions_total{{outcome="{outcome.value}"}} 0' in text
    for code in ReasonCode:
        assert f'reason_code="{code.value}",outcome="{code.outcome.value}"' in text
    assert 'kg_context_halts{reason_code="VERSE_ADOPTION",status="open"} 2' in text
    assert 'kg_context_halts{reason_code="LEGACY_CODE",status="resolved"} 1' in text
    assert 'kg_context_boundary_retention_ratio{boundary="b\\"1"} 3.0' in text
    assert 'kg_context_boundary_retention_ratio{boundary="b2"}' not in text  # empty window
    assert 'le="0.025"} 1' in text and "kg_context_boundaries 2" in text
    for line in text.splitlines():
        assert line.startswith("#") or line.count(" ") == 1, line
