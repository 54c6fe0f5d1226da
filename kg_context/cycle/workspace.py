"""The conscious workspace: a bounded set of competition winners (state CONSCIOUS)."""

from __future__ import annotations

from kg_context.cycle.models import Candidate, ConsciousItem

__all__ = ["ConsciousWorkspace"]


class ConsciousWorkspace:
    """At most ``capacity`` conscious items, by id. Only competition changes it."""

    def __init__(self, capacity: int) -> None:
        if capacity < 1:
            raise ValueError("the workspace capacity is at least 1")
        self.capacity = capacity
        self._items: dict[str, ConsciousItem] = {}

    def __len__(self) -> int:
        return len(self._items)

    def __contains__(self, item_id: object) -> bool:
        return item_id in self._items

    def get(self, item_id: str) -> ConsciousItem | None:
        return self._items.get(item_id)

    @property
    def full(self) -> bool:
        return len(self._items) >= self.capacity

    def items(self) -> list[ConsciousItem]:
        """Strongest first, ties by id."""
        return sorted(self._items.values(), key=lambda i: (-i.activation, i.id))

    def weakest(self) -> ConsciousItem | None:
        """The item a stronger candidate displaces: the last in rank order."""
        ranked = self.items()
        return ranked[-1] if ranked else None

    def admit(self, candidate: Candidate, cycle: int) -> ConsciousItem:
        if candidate.id not in self._items and self.full:
            raise ValueError("the workspace is full: evict before admitting")
        item = ConsciousItem(
            candidate=candidate, activation=candidate.activation, admitted_cycle=cycle
        )
        self._items[candidate.id] = item
        return item

    def refresh(self, candidate: Candidate) -> ConsciousItem:
        """A repeated candidate for a conscious id: keep the higher activation."""
        held = self._items[candidate.id]
        item = ConsciousItem(
            candidate=held.candidate,
            activation=max(held.activation, candidate.activation),
            admitted_cycle=held.admitted_cycle,
        )
        self._items[candidate.id] = item
        return item

    def evict(self, item_id: str) -> ConsciousItem:
        return self._items.pop(item_id)

    def decay(self, factor: float) -> None:
        """Every conscious item loses activation by ``factor`` (1.0 keeps it)."""
        for item_id, item in list(self._items.items()):
            self._items[item_id] = ConsciousItem(
                candidate=item.candidate,
                activation=item.activation * factor,
                admitted_cycle=item.admitted_cycle,
            )
