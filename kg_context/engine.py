"""The engine: one connection to one resolved database, and the executor over it."""

from __future__ import annotations

from types import TracebackType

import neo4j

from kg_context import neo4j_local
from kg_context.catalog import Catalog
from kg_context.connection import Target, open_driver, resolve_source, target_for
from kg_context.executor import Neo4jExecutor, translate_driver_errors
from kg_context.settings import LocalServerSettings, Neo4jSettings

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
