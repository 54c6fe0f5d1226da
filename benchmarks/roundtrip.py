"""Round trip through the catalog executor versus the bare driver, same statement, same run.

Prints the p50 of each and their ratio: the cost of the executor layer (parameter binding,
bookmarks, error translation) that every kg-context query pays.
"""

from __future__ import annotations

import argparse

import neo4j

from benchmarks._common import check_plans, count_figures, figure, open_engine, percentile, timings
from kg_context.db.catalog import default_catalog

RUNS = 500
QUICK_RUNS = 100


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true", help="100 runs (the test suite)")
    runs = QUICK_RUNS if parser.parse_args().quick else RUNS
    engine, counts = open_engine("roundtrip")  # ensures the schema; counts on stderr
    check_plans(engine, ["admin/ping"])  # the compared statement reads nothing: no scan
    target = engine.target
    text = default_catalog()["admin/ping"].text
    with (
        engine,
        neo4j.GraphDatabase.driver(target.uri, auth=(target.username, target.password)) as bare,
    ):
        ours = timings(lambda: engine.executor.read("admin/ping"), runs)
        base = timings(
            lambda: bare.execute_query(
                text, database_=target.database, routing_=neo4j.RoutingControl.READ
            ),
            runs,
        )
    ours_p50, base_p50 = percentile(ours, 50), percentile(base, 50)
    count_figures(counts)
    figure("roundtrip_executor_p50", ours_p50 * 1000, "ms")
    figure("roundtrip_bare_driver_p50", base_p50 * 1000, "ms")
    figure(
        "roundtrip_executor_over_bare_p50",
        ours_p50 / base_p50,
        "ratio",
        None,
        None,
    )


if __name__ == "__main__":
    main()
