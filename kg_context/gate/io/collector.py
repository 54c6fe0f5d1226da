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
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["collector_held"]

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
