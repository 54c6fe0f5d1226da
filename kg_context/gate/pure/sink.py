"""The one interface through which attention and the selection-broadcast cycle reach the gate.

A ``Boundary`` (``engine.boundary(id)``) is a ``GateSink``; tests may pass any object with the
same ``commit``. Only the gate commits: these callers hand it proposals and read its decision.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from kg_context.gate.pure.contracts import Proposal

__all__ = ["GateDecisionLike", "GateSink"]


class GateDecisionLike(Protocol):
    """What callers read from the gate's decision on one proposal."""

    @property
    def outcome(self) -> str: ...  # commit | halt | reject

    @property
    def set_id(self) -> str | None: ...

    @property
    def entry_ids(self) -> Sequence[str]: ...

    @property
    def receipt_id(self) -> str | None: ...


class GateSink(Protocol):
    """Where durable proposals go: the gate of one boundary."""

    def commit(self, proposal: Proposal) -> GateDecisionLike: ...
