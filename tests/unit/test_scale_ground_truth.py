"""The scale benchmark's ground truth reads a boundary's embeddings a page at a time; a
boundary holding an exact multiple of the page size ends on an empty page (a 100,000-set run
failed on it after its build)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import numpy as np

from benchmarks.scale import _embeddings


class _Pages:
    def __init__(self, total: int) -> None:
        self.rows = [{"id": f"e{i:06d}", "embedding": [float(i)] * 384} for i in range(total)]

    def read(self, name: str, **params: Any) -> list[dict[str, Any]]:
        assert name == "bench/scale_boundary_embeddings"
        return self.rows[params["skip"] : params["skip"] + params["limit"]]


def _run(total: int) -> Any:
    return SimpleNamespace(engine=SimpleNamespace(executor=_Pages(total)))


def test_a_boundary_of_exactly_one_page_ends_on_an_empty_page() -> None:
    ids, matrix = _embeddings(_run(5_000), "b")
    assert len(ids) == 5_000
    assert matrix.shape == (5_000, 384)


def test_a_boundary_over_pages_keeps_every_row_in_order() -> None:
    ids, matrix = _embeddings(_run(7_001), "b")
    assert ids[0] == "e000000" and ids[-1] == "e007000"
    assert matrix.shape == (7_001, 384)
    assert np.all(matrix[:, 0] == np.arange(7_001, dtype=np.float32))


def test_an_unembedded_boundary_is_an_empty_matrix() -> None:
    ids, matrix = _embeddings(_run(0), "b")
    assert ids == []
    assert matrix.shape == (0, 384)
