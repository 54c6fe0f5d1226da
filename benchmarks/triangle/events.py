"""The event stream all three systems consume: typed sets of entries, serialized canonically.

An ``Event`` is one state transition a writer proposes (a set): its entries (class, key, the body
text every system sees, and the typed declarations only the governed engine reads), plus the
operator acts that belong to it (entries declared failed when a mistake is revealed, an ontology
change). ``Event.serialize`` is the canonical byte form; every system hashes the bytes of what it
consumed (``StreamHash``) so the report can show the three streams were byte-identical.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass

__all__ = [
    "EntrySpec",
    "Event",
    "OntologySpec",
    "Ref",
    "Requirement",
    "StreamHash",
]


@dataclass(frozen=True, slots=True)
class Ref:
    """A declared provenance edge (DERIVED_FROM) to an earlier entry, by event entry id."""

    eid: str
    essential: bool = True


@dataclass(frozen=True, slots=True)
class Requirement:
    """A declared residency edge (REQUIRES): hard, or soft with a lease (in sets) and needs."""

    eid: str
    policy: str  # "hard" | "soft"
    lease: int | None = None
    needs: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class EntrySpec:
    """One typed entry of an event. ``body`` is the text every system sees; the declarations
    (``supersedes``, ``derived_from``, ``requires``, leases) are what the governed engine reads."""

    eid: str
    cls: str
    key: str
    body: str
    supersedes: tuple[str, ...] = ()
    derived_from: tuple[Ref, ...] = ()
    requires: tuple[Requirement, ...] = ()
    expires_after: int | None = None
    superseded_by_default: bool = False
    source: str | None = None
    explored: bool = False


@dataclass(frozen=True, slots=True)
class OntologySpec:
    """An ontology change: ``source`` split into ``into``; ``moves`` re-class standing entries
    (event entry id -> new class); every other standing entry of ``source`` is revalidated."""

    source: str
    into: tuple[str, ...]
    moves: tuple[tuple[str, str], ...]
    reason: str


@dataclass(frozen=True, slots=True)
class Event:
    """One set a writer proposes, with the operator acts that belong to it."""

    seq: int
    kind: str
    entries: tuple[EntrySpec, ...]
    invalidate: tuple[str, ...] = ()
    ontology: OntologySpec | None = None

    def serialize(self) -> bytes:
        """The canonical bytes of the event (sorted-key JSON, one line)."""
        text = json.dumps(asdict(self), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        return text.encode("utf-8") + b"\n"


class StreamHash:
    """SHA-256 over the serialized events a system consumed, in order."""

    def __init__(self) -> None:
        self._hash = hashlib.sha256()
        self.count = 0

    def update(self, event: Event) -> None:
        self._hash.update(event.serialize())
        self.count += 1

    def hexdigest(self) -> str:
        return self._hash.hexdigest()
