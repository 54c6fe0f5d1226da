"""What a unit test may not use: the database or the embedding model, so that ``make unit`` runs
every unit test in seconds with neither. A test that needs one lives under tests/integration
(the model's own tests: tests/integration/test_embedding_model.py). The model's tokenizer is
allowed: it loads one JSON file, not the model."""

from __future__ import annotations

from typing import Any, NoReturn

import pytest

from kg_context.text import embeddings


@pytest.fixture
def neo4j_target() -> NoReturn:
    pytest.fail("a unit test uses no database: give it a fake, or move it under tests/integration")


@pytest.fixture(autouse=True)
def _no_embedding_model(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(self: embeddings.Embedder, *args: Any, **kwargs: Any) -> NoReturn:
        raise AssertionError(
            "a unit test loads no embedding model: give it a fake encoder (a TextEncoder), "
            "or move it under tests/integration"
        )

    monkeypatch.setattr(embeddings, "_embedders", {})
    monkeypatch.setattr(embeddings.Embedder, "__init__", refuse)
