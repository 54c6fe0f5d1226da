"""Fixtures the integration tests of several files share."""

from __future__ import annotations

from typing import Any

import pytest

from tests.plans import Explained, explain_catalog

# The files that read the catalog's EXPLAIN on the suite's server run on one worker, which makes
# that pass once for all of them (``explained``).
CATALOG_PLANS = pytest.mark.xdist_group("catalog-plans")


@pytest.fixture(scope="session")
def explained(engine: Any) -> dict[str, Explained]:
    """Every catalog statement EXPLAINed once on the suite's server (``tests/plans.py``)."""
    return explain_catalog(engine.target)
