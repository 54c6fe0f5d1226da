"""The quick variants of the benchmarks that make vector indexes run to the end and print their
figures (``tests/integration/test_benchmarks_quick.py`` says what is checked), on the suite's
second server: ``search_bound`` makes an index for each boundary it measures, ``context`` one
for its boundary of 200 embedded entries, and each index made empties the whole plan cache of
its database (``second_engine`` in tests/conftest.py)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.integration.test_benchmarks_quick import MAKING_INDEXES, runs_to_the_end


@pytest.mark.parametrize("name", sorted(MAKING_INDEXES))
def test_the_quick_variant_runs_to_the_end_and_prints_its_figures(
    name: str, second_engine: Any
) -> None:
    runs_to_the_end(name, second_engine.target)
