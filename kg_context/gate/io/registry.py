"""Constitution versions in the record: ensure the shipped default, read one by version, create a
boundary with the receipt of the constitution it starts under (I/O)."""

from __future__ import annotations

import threading

from kg_context.db.executor import QueryExecutor
from kg_context.errors import ConfigurationError, InputValidationError, StateError
from kg_context.gate.io.store import now_iso
from kg_context.gate.pure.batch import constitution_receipt
from kg_context.gate.pure.constitution import Constitution, load_constitution, parse_constitution
from kg_context.vocabulary import DEFAULT_CZAR_EVERY_COMMITS

__all__ = ["RATIFIED_BY", "ConstitutionRegistry"]

# Who ratifies the constitution a boundary is created with (recorded on its receipt).
RATIFIED_BY = "kg-context"


class ConstitutionRegistry:
    """Versions are immutable once recorded, so each is parsed once per process."""

    def __init__(self, executor: QueryExecutor) -> None:
        self._executor = executor
        self._cache: dict[str, Constitution] = {}
        self._lock = threading.Lock()
        self._default: Constitution | None = None
        # What has been recorded through this registry: constitution (version, sha256) and
        # boundary ids. Both are append-only in the record, so once ensured they stay ensured.
        self._ensured_constitutions: set[tuple[str, str]] = set()
        self._ensured_boundaries: set[str] = set()

    def open_boundary(
        self,
        boundary_id: str,
        verse: str,
        task_horizon: int | None,
        constitution: Constitution | None,
        *,
        czar_every_commits: int,
        create: bool,
    ) -> None:
        """With ``create``, record the constitution (default: the shipped one) and create the
        boundary if it is new (``ensure_boundary``), once per registry; without it, a boundary
        that does not exist is a ``StateError`` (nothing written)."""
        if not create:
            if boundary_id not in self._ensured_boundaries:
                if not self._executor.read("boundary/get", boundary_id=boundary_id):
                    raise StateError(f"no boundary {boundary_id}", boundary_id=boundary_id)
                with self._lock:
                    self._ensured_boundaries.add(boundary_id)
            return
        if constitution is None:
            if self._default is None:
                self._default = load_constitution()
            constitution = self._default
        recorded = (constitution.version, constitution.sha256)
        if recorded not in self._ensured_constitutions:
            self.ensure(constitution, ratified_by=RATIFIED_BY)
            with self._lock:
                self._ensured_constitutions.add(recorded)
        if boundary_id in self._ensured_boundaries:
            return
        self.ensure_boundary(
            boundary_id, verse, constitution, task_horizon, czar_every_commits=czar_every_commits
        )
        with self._lock:
            self._ensured_boundaries.add(boundary_id)

    def ensure(self, constitution: Constitution, ratified_by: str) -> None:
        """Record a constitution version; a different text under a recorded version is refused."""
        rows = self._executor.write(
            "constitution/ensure",
            version=constitution.version,
            sha256=constitution.sha256,
            rules=constitution.text,
            now=now_iso(),
            by=ratified_by,
            czars=list(constitution.authority.czars),
            operators=list(constitution.authority.operators),
        )
        if rows[0]["sha256"] != constitution.sha256:
            raise ConfigurationError(
                f"constitution version {constitution.version} is already recorded with other "
                "rules; versions are immutable, give the new text a new version"
            )
        with self._lock:
            self._cache[constitution.version] = constitution

    def ensure_boundary(
        self,
        boundary_id: str,
        verse: str,
        constitution: Constitution,
        task_horizon: int | None,
        *,
        czar_every_commits: int = DEFAULT_CZAR_EVERY_COMMITS,
    ) -> None:
        """Create the boundary if it is new, under ``constitution`` (recorded before: ``ensure``),
        with that constitution's receipt (``kind: constitution``, ratified by ``RATIFIED_BY``)
        and the czar's cadence it keeps, in one statement; a boundary that exists gets nothing
        written."""
        if czar_every_commits < 0:
            raise InputValidationError("a czar cadence is a number of sets >= 0 (0: on demand)")
        self._executor.write(
            "boundary/ensure",
            boundary_id=boundary_id,
            verse=verse,
            constitution_version=constitution.version,
            task_horizon=task_horizon,
            czar_every_commits=czar_every_commits,
            receipt=constitution_receipt(
                boundary_id, constitution, ratified_by=RATIFIED_BY, at=now_iso()
            ),
        )

    def get(self, version: str) -> Constitution:
        with self._lock:
            cached = self._cache.get(version)
        if cached is not None:
            return cached
        rows = self._executor.read("constitution/get", version=version)
        if not rows:
            raise ConfigurationError(f"constitution version {version} is not in the record")
        parsed = parse_constitution(rows[0]["rules"], source=f"constitution {version}")
        with self._lock:
            self._cache[version] = parsed
        return parsed
