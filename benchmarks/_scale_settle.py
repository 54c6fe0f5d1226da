"""The scale benchmark's settle step, and what the server did while a figure was measured.

**Why settle.** A figure at a size is meant to show what a database of that size costs in
steady state, not what the build that just grew it leaves behind. Right after a build of
hundreds of thousands of sets the server is still working for it: index updates and merges,
a checkpoint flushing the build's pages, garbage collection of the build's transactions. A
measurement started at once pays for that work, and it pays more after the big step (the 100%
build writes 90% of the database) than after the small one. At 100,000 sets (2 cores) the
server, with no client sending anything, kept a core busy for 0 s after the 1% build, about 6 s
after the 10% one and 74 s after the 100% one, while the unsettled benchmark measured its
commits, recalls and walks in the first seconds after each build. At 50,000 sets the
invalidation walk's first seven runs after the 100% build took a p50 of 866 ms, the next seven,
started 16 s later with nothing changed but the time, 626 ms (the same statements, the same db
hits).

So after every build the benchmark waits for every index to be online (``db.awaitIndexes``)
and then for the server to be idle: its own CPU time (JMX ``ProcessCpuTime``) growing by less
than ``IDLE_SHARE`` of a core over ``IDLE_WINDOW_S``, twice in a row, with no client sending
anything. Nothing else is waited for and nothing is skipped; the wait is bounded
(``SETTLE_TIMEOUT_S``) and reported (``scale_settle_s_at_<size>``), and a server that never
settles is said so on stderr. The same step runs at every size, so the ratios compare like with
like.

**What the server did.** ``gc_during`` reads the server's garbage collections (JMX) around a
measurement: a commit's p99 on two cores is often a collection pause, and the report says how
many collections and how many milliseconds fell in each window.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import TypeVar

from benchmarks._common import server_cpu_s
from kg_context.engine import Engine
from kg_context.errors import QueryError

__all__ = ["IDLE_SHARE", "IDLE_WINDOW_S", "SETTLE_TIMEOUT_S", "gc_during", "is_idle", "settle"]

T = TypeVar("T")
IDLE_SHARE = 0.10  # of one core
IDLE_WINDOW_S = 2.0
SETTLE_TIMEOUT_S = 300.0
INDEX_TIMEOUT_S = 600


def is_idle(busy: list[float], share: float = IDLE_SHARE, windows: int = 2) -> bool:
    """Whether the last ``windows`` CPU shares (of one core) are all under ``share``."""
    return len(busy) >= windows and all(b < share for b in busy[-windows:])


def settle(
    engine: Engine,
    *,
    timeout_s: float = SETTLE_TIMEOUT_S,
    window_s: float = IDLE_WINDOW_S,
    sleep: Callable[[float], None] = time.sleep,
    clock: Callable[[], float] = time.perf_counter,
) -> float:
    """Wait for every index to be online and the server to be idle; the seconds it took."""
    started = clock()
    engine.executor.write("admin/await_indexes", timeout_s=INDEX_TIMEOUT_S)
    busy: list[float] = []
    before = server_cpu_s(engine)
    while before is not None and not is_idle(busy):
        if clock() - started > timeout_s:
            print(f"# settle: the server was still busy after {timeout_s:.0f} s", file=sys.stderr)
            break
        sleep(window_s)
        after = server_cpu_s(engine)
        if after is None:
            break
        busy.append((after - before) / window_s)
        before = after
    took = clock() - started
    shares = ", ".join(f"{b:.2f}" for b in busy)
    print(f"# settled in {took:.1f} s (server CPU share per window: {shares})", file=sys.stderr)
    return took


def _gc(engine: Engine) -> tuple[float, float] | None:
    try:
        rows = engine.executor.read("bench/server_gc")
    except QueryError:
        return None
    if not rows or rows[0]["collections"] is None:
        return None
    return float(rows[0]["collections"]), float(rows[0]["ms"])


def gc_during(engine: Engine, what: str, work: Callable[[], T]) -> T:
    """Run ``work``; say on stderr how many collections the server ran meanwhile, and for how
    long in all."""
    before = _gc(engine)
    result = work()
    after = _gc(engine)
    if before is not None and after is not None:
        print(
            f"# {what}: the server ran {after[0] - before[0]:.0f} garbage collections "
            f"({after[1] - before[1]:.0f} ms)",
            file=sys.stderr,
        )
    return result
