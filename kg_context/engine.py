"""The engine: one connection to one resolved database, and the executor over it."""

from __future__ import annotations

import uuid
from types import TracebackType

import neo4j

from kg_context.db import local_server as neo4j_local
from kg_context.db.catalog import Catalog
from kg_context.db.connection import Target, open_driver, resolve_source, target_for
from kg_context.db.executor import Neo4jExecutor, translate_driver_errors
from kg_context.errors import InputValidationError, StateError
from kg_context.gate.boundary import Boundary
from kg_context.gate.constitution import Constitution, load_constitution
from kg_context.gate.halts import Halts
from kg_context.gate.registry import ConstitutionRegistry
from kg_context.gate.store import GateStore, now_iso
from kg_context.settings import LocalServerSettings, Neo4jSettings
from kg_context.text.tokens import get_token_counter

__all__ = ["Engine"]


class Engine:
    """A connected kg-context engine. Use ``Engine.connect()`` and close it (or use ``with``)."""

    def __init__(
        self, driver: neo4j.Driver, target: Target, catalog: Catalog | None = None
    ) -> None:
        self._driver = driver
        self.target = target
        self.executor = Neo4jExecutor(
            driver, database=target.database, uri=target.uri, catalog=catalog
        )
        self.constitutions = ConstitutionRegistry(self.executor)
        self._store: GateStore | None = None

    @classmethod
    def connect(
        cls,
        target: Target | None = None,
        *,
        settings: Neo4jSettings | None = None,
        local: LocalServerSettings | None = None,
        start_local: bool = False,
    ) -> Engine:
        """Connect to ``target``, or to the resolved database (``NEO4J_URI`` → Docker → local).

        With ``start_local`` the local server is started when it is the resolved source.
        """
        if target is None:
            settings = settings or Neo4jSettings()
            local = local or LocalServerSettings()
            source = resolve_source(settings)
            if source == "local" and start_local:
                neo4j_local.start(local)
            target = target_for(source, settings, local)
        return cls(open_driver(target), target)

    def boundary(
        self,
        boundary_id: str,
        *,
        verse: str = "local",
        task_horizon: int | None = None,
        constitution: Constitution | None = None,
    ) -> Boundary:
        """A handle on one boundary, created (with its constitution recorded) if new."""
        from kg_context.gate.contracts import Verse

        if Verse(verse) is None or not boundary_id:
            raise InputValidationError("a boundary needs an id and a verse")
        constitution = constitution or load_constitution()
        self.constitutions.ensure(constitution, ratified_by="kg-context")
        row = self.executor.write(
            "boundary/ensure",
            boundary_id=boundary_id,
            verse=verse,
            constitution_version=constitution.version,
            task_horizon=task_horizon,
        )[0]
        current = self.constitutions.get(row["constitution_version"])
        handle = Boundary(self.executor, self._gate_store, boundary_id, current)
        from kg_context.residency.czar import every_n_commits
        from kg_context.residency.reachability import ResidencySettings

        residency = ResidencySettings()
        if residency.czar_every_commits:
            handle.after_commit = every_n_commits(residency.czar_every_commits)
        return handle

    @property
    def _gate_store(self) -> GateStore:
        if self._store is None:
            self._store = GateStore(
                self.executor, self.constitutions.get, get_token_counter().count
            )
        return self._store

    def adopt(self, boundary_id: str, *, operator_id: str, reason: str, keys: list[str]) -> str:
        """Issue a verse adoption receipt: global material with these keys may enter the
        boundary when a proposal cites the receipt. Returns the receipt id."""
        if not operator_id or not reason.strip():
            raise InputValidationError("an adoption names its operator and gives a reason")
        receipt_id = f"{boundary_id}/adoption/{uuid.uuid4().hex[:16]}"
        rows = self.executor.write(
            "gate/write_adoption",
            boundary_id=boundary_id,
            receipt_id=receipt_id,
            now=now_iso(),
            operator_id=operator_id,
            reason=reason,
            keys=keys,
        )
        if not rows:
            raise StateError(f"no boundary {boundary_id}")
        return receipt_id

    @property
    def halts(self) -> Halts:
        """The operator's view of halts: list, show, resolve."""
        return Halts(self.executor, self._gate_store)

    def server_version(self) -> str:
        with translate_driver_errors(self.target.uri, "server info"):
            return str(self._driver.get_server_info().agent)

    def close(self) -> None:
        self._driver.close()

    def __enter__(self) -> Engine:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()
