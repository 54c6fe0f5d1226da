"""The preconscious buffer: rankable candidates waiting for the next competition."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from kg_context.cycle.models import BufferReason, Candidate

__all__ = ["BufferDecision", "PreconsciousBuffer", "rank"]


@dataclass(frozen=True, slots=True)
class BufferDecision:
    candidate_id: str
    activation: float
    reason: BufferReason


def rank(candidates: Iterable[Candidate]) -> list[Candidate]:
    """Strongest first; ties by id, so the order never depends on arrival."""
    return sorted(candidates, key=lambda c: (-c.activation, c.id))


class PreconsciousBuffer:
    """At most ``capacity`` candidates, one per id (the strongest offer wins)."""

    def __init__(self, capacity: int) -> None:
        if capacity < 1:
            raise ValueError("the buffer capacity is at least 1")
        self.capacity = capacity
        self._items: dict[str, Candidate] = {}

    def __len__(self) -> int:
        return len(self._items)

    def __contains__(self, candidate_id: object) -> bool:
        return candidate_id in self._items

    def offer(self, candidates: Iterable[Candidate]) -> list[BufferDecision]:
        """Add candidates; a repeated id keeps the higher activation; overflow drops the weakest."""
        decisions: list[BufferDecision] = []
        for candidate in candidates:
            held = self._items.get(candidate.id)
            if held is None:
                self._items[candidate.id] = candidate
                decisions.append(
                    BufferDecision(candidate.id, candidate.activation, BufferReason.BUFFERED)
                )
                continue
            if candidate.activation > held.activation:
                self._items[candidate.id] = candidate
            decisions.append(
                BufferDecision(candidate.id, candidate.activation, BufferReason.MERGED)
            )
        if len(self._items) > self.capacity:
            for dropped in rank(self._items.values())[self.capacity :]:
                del self._items[dropped.id]
                decisions.append(
                    BufferDecision(dropped.id, dropped.activation, BufferReason.BUFFER_OVERFLOW)
                )
        return decisions

    def ranked(self) -> list[Candidate]:
        return rank(self._items.values())

    def drain(self) -> list[Candidate]:
        """Every waiting candidate, ranked; the buffer is empty afterwards."""
        out = self.ranked()
        self._items.clear()
        return out

    def decay(self, factor: float, floor: float) -> list[BufferDecision]:
        """Multiply every waiting activation by ``factor``; drop those that fall under ``floor``."""
        decisions: list[BufferDecision] = []
        for candidate in self.ranked():
            activation = candidate.activation * factor
            if activation < floor:
                del self._items[candidate.id]
                decisions.append(BufferDecision(candidate.id, activation, BufferReason.FADED))
            else:
                self._items[candidate.id] = candidate.with_activation(activation)
        return decisions
