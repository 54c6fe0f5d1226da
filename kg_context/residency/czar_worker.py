"""The czar beside the writers: one worker thread per engine runs the cadence czar of the
boundaries its commits left due, so the czar's plan and sets never land inside a writer's call.
A signal is a hint, never the record: a run that does not happen leaves the cadence due.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass

__all__ = ["CzarFailure", "CzarWorker"]

_log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class CzarFailure:
    """A cadence run that raised: the boundary, and the error (its type and message)."""

    boundary_id: str
    error: str


class CzarWorker:
    """A queue of boundaries whose cadence is due, and the one thread that runs their czar.

    ``run(boundary_id)`` runs one boundary's cadence czar (if it is still due). The thread starts
    on the first signal, and is a daemon only so that an engine never closed cannot hold up the
    interpreter's exit; ``close`` is the orderly end."""

    def __init__(self, run: Callable[[str], object], *, name: str = "kg-context-czar") -> None:
        self._run = run
        self._name = name
        self._cv = threading.Condition()
        self._due: dict[str, None] = {}  # signalled boundaries, in order (a set that keeps it)
        self._running: str | None = None
        self._closed = False
        self._thread: threading.Thread | None = None
        self._failures: list[CzarFailure] = []
        self._runs = 0

    def signal(self, boundary_id: str) -> None:
        """Schedule ``boundary_id``'s cadence czar (once, however often it is signalled before
        it runs); ignored once the worker is closed."""
        with self._cv:
            if self._closed:
                return
            self._due[boundary_id] = None
            if self._thread is None:
                self._thread = threading.Thread(target=self._loop, name=self._name, daemon=True)
                self._thread.start()
            self._cv.notify_all()

    def _loop(self) -> None:
        while True:
            with self._cv:
                self._cv.wait_for(lambda: bool(self._due) or self._closed)
                if not self._due:
                    return  # closed, and every queued run done
                boundary_id = next(iter(self._due))
                del self._due[boundary_id]
                self._running = boundary_id
            failure = None
            try:
                self._run(boundary_id)
            except Exception as error:  # noqa: BLE001 - one failed run must not stop the worker
                _log.exception("the cadence czar of boundary %s failed", boundary_id)
                failure = CzarFailure(boundary_id, f"{type(error).__name__}: {error}")
            with self._cv:
                if failure is not None:
                    self._failures.append(failure)
                self._running = None
                self._runs += 1
                self._cv.notify_all()

    def idle(self, timeout: float | None = None) -> bool:
        """Wait until no run is queued or running (``timeout`` seconds at most; ``None``: as long
        as it takes): whether it is idle."""
        with self._cv:
            return self._cv.wait_for(
                lambda: not self._due and self._running is None, timeout=timeout
            )

    @property
    def runs(self) -> int:
        """Runs the worker has finished (a run finding the cadence no longer due counts)."""
        with self._cv:
            return self._runs

    @property
    def failures(self) -> tuple[CzarFailure, ...]:
        """The runs that raised, oldest first."""
        with self._cv:
            return tuple(self._failures)

    def close(self) -> None:
        """Stop taking signals, finish the queued runs, and join the thread."""
        with self._cv:
            self._closed = True
            self._cv.notify_all()
            thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join()
