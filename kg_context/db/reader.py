"""Reads behind one small interface, so a planner can run them all inside one read transaction.

``QueryExecutor`` is a ``Reader`` (each read its own auto-commit query); ``TransactionReader``
is one over an open transaction: every read a planner makes through it sees one consistent
snapshot of the database (the czar plans that way).
"""

from __future__ import annotations

from typing import Any, Protocol

from kg_context.db.executor import Record, Transaction

__all__ = ["Reader", "TransactionReader"]


class Reader(Protocol):
    """Run a catalog query by name and return its records."""

    def read(self, name: str, /, **params: Any) -> list[Record]: ...


class TransactionReader:
    """A ``Reader`` over one open transaction."""

    def __init__(self, tx: Transaction) -> None:
        self._tx = tx

    def read(self, name: str, /, **params: Any) -> list[Record]:
        return self._tx.run(name, **params)
