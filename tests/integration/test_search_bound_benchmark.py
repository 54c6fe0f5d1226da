"""The search-bound benchmark's quick variant runs to the end and prints its figures
(``tests/integration/test_benchmarks_quick.py`` says what is checked), on the suite's second
server: it makes a vector index for each boundary it measures, and each index made empties the
whole plan cache of its database (``second_engine`` in tests/conftest.py)."""

from __future__ import annotations

from typing import Any

from tests.integration.test_benchmarks_quick import runs_to_the_end


def test_the_quick_search_bound_benchmark_runs_to_the_end_and_prints_its_figures(
    second_engine: Any,
) -> None:
    runs_to_the_end("search_bound", second_engine.target)
