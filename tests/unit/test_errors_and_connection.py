"""The error tree, driver-error translation and the database resolution (no database)."""

from __future__ import annotations

import inspect

import pytest
from neo4j import exceptions as neo4j_errors
from pydantic import SecretStr

from kg_context import errors
from kg_context.db.connection import Target, open_driver, resolve_source, target_for
from kg_context.db.executor import translate_driver_errors
from kg_context.settings import LocalServerSettings, Neo4jSettings
from tests.docs_blocks import REPO, section


def test_every_error_is_a_kg_context_error_and_public() -> None:
    classes = [
        c for _, c in inspect.getmembers(errors, inspect.isclass) if issubclass(c, Exception)
    ]
    assert len(classes) >= 10
    drawn = section(REPO / "docs" / "internals.md", "## `kg_context/errors.py`")
    for cls in classes:
        assert issubclass(cls, errors.KgContextError), cls
        assert cls.__name__ in errors.__all__, f"{cls.__name__} is not exported"
        assert cls.__name__ in drawn, f"{cls.__name__} is not in the tree docs/internals.md draws"


@pytest.mark.parametrize(
    ("raised", "expected", "words"),
    [
        (neo4j_errors.AuthError("nope"), errors.AuthenticationError, "NEO4J_PASSWORD"),
        (neo4j_errors.ServiceUnavailable("down"), errors.DatabaseUnavailableError, "NEO4J_URI"),
        (neo4j_errors.ConfigurationError("bad"), errors.ConfigurationError, "bolt://h:1"),
    ],
)
def test_driver_errors_become_ours_with_what_to_do(
    raised: Exception, expected: type[Exception], words: str
) -> None:
    with pytest.raises(expected) as caught, translate_driver_errors("bolt://h:1"):
        raise raised
    assert words in str(caught.value)
    assert "bolt://h:1" in str(caught.value)
    assert "\n" not in str(caught.value)


def test_resolution_order(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NEO4J_URI", "neo4j+s://x.databases.neo4j.io")
    monkeypatch.setenv("NEO4J_PASSWORD", "secret")
    assert resolve_source(Neo4jSettings()) == "env"
    target = target_for("env", Neo4jSettings())
    assert (target.uri, target.password, target.database) == (
        "neo4j+s://x.databases.neo4j.io",
        "secret",
        "neo4j",
    )
    assert "NEO4J_URI" in target.describe()
    monkeypatch.delenv("NEO4J_URI")
    assert resolve_source(Neo4jSettings(), probe_docker=False) == "local"
    local = target_for(
        "local",
        Neo4jSettings(),
        LocalServerSettings(bolt_port=7999, password=SecretStr("pw-local")),
    )
    assert local.uri == "bolt://127.0.0.1:7999"
    assert "local server" in local.describe()


def test_env_uri_without_password_is_a_configuration_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NEO4J_URI", "bolt://db:7687")
    monkeypatch.delenv("NEO4J_PASSWORD", raising=False)
    with pytest.raises(errors.ConfigurationError, match="NEO4J_PASSWORD is not set"):
        target_for("env", Neo4jSettings())


@pytest.mark.parametrize("uri", ["http://127.0.0.1:7474", "127.0.0.1:7687", "mysql://x"])
def test_non_bolt_uri_is_refused_before_connecting(uri: str) -> None:
    with pytest.raises(errors.ConfigurationError, match="not a Bolt URI"):
        open_driver(Target("env", uri, "neo4j", "pw", "neo4j"))


def test_a_target_never_shows_its_password() -> None:
    target = Target("env", "bolt://h:1", "neo4j", "s3cret-value", "neo4j")
    assert "s3cret-value" not in repr(target) and "s3cret-value" not in target.describe()
