"""The cyclic garbage collector held off while the gate closes a batch.

Deciding a batch allocates many objects that live until its transaction ends (the snapshot,
the sets' views, the plan's rows and receipts). Each young collection on the way finds them
alive and promotes them; every tenth promotes them again, and a full collection then walks the
whole heap (of the engine's process: the driver, the tokenizer, the caller's own data), in the
middle of the locked transaction. Held off while the batch closes, the objects it made are
examined once, when the collector runs again after it. Reference counting frees everything
else as usual; only cycles wait, and only for one batch.

Process-wide (the collector is): the first thread in turns it off, the last one out turns it
back on, and only if it was on when the first came in.

A process that serves until it is stopped (``kg-context serve``, ``kg-context mcp``) also moves
what its startup made out of the collector's reach (``startup_frozen``).
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["collector_held", "startup_frozen"]

_lock = threading.Lock()
_holders = 0
_was_enabled = False


@contextmanager
def collector_held() -> Iterator[None]:
    """No automatic cyclic collection inside the block (nor in other threads meanwhile)."""
    global _holders, _was_enabled
    with _lock:
        if _holders == 0:
            _was_enabled = gc.isenabled()
            gc.disable()
        _holders += 1
    try:
        yield
    finally:
        with _lock:
            _holders -= 1
            if _holders == 0 and _was_enabled:
                gc.enable()


def startup_frozen() -> None:
    """What the process made so far (every module's functions and classes, the engine, the
    app) moved out of the cyclic collector's reach (``gc.freeze``): a full collection then walks
    only what serving made since. For a process that serves until it is stopped: over the HTTP
    server's startup objects a full collection took ~30 ms, inside whichever request was due, and
    was its slowest (2,700 window reads: the longest 42-48 ms before, 17-22 after). Those
    objects live as long as the process; a cycle among them that dies later is freed at exit."""
    gc.collect()
    gc.freeze()
