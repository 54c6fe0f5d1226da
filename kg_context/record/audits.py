"""The analysts' audit library: every file of ``cypher/audits/``, read with the question it answers.

Each file's comment header says what it answers, its parameters, and what a healthy database
returns; ``Expect: empty`` marks an invariant, which ``invariants`` runs.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from kg_context.db.catalog import Catalog, Query, default_catalog
from kg_context.db.executor import QueryExecutor, Record
from kg_context.errors import CatalogError, InputValidationError

__all__ = [
    "AuditFile",
    "AuditParameter",
    "AuditResult",
    "audit_library",
    "invariants",
    "parse_header",
    "run_audit",
]

FOLDER = "audits"
_FIELD = re.compile(r"^// (Question|Parameters|Expect):\s*(.*)$")
_PARAM_LINE = re.compile(r"^\$([A-Za-z_][A-Za-z0-9_]*)\s+(\S.*)$")


@dataclass(frozen=True, slots=True)
class AuditParameter:
    name: str
    description: str

    @property
    def optional(self) -> bool:
        """Whether it may be left out (sent as null): its description says ``or null``."""
        return "or null" in self.description


@dataclass(frozen=True, slots=True)
class AuditFile:
    """One audit: its name (the file stem), the question, the parameters, what to expect."""

    name: str
    question: str
    parameters: tuple[AuditParameter, ...]
    expect: str
    path: str

    @property
    def must_be_empty(self) -> bool:
        """An invariant: a healthy database returns no row."""
        return self.expect.startswith("empty")

    @property
    def parameter_names(self) -> frozenset[str]:
        return frozenset(p.name for p in self.parameters)


@dataclass(frozen=True, slots=True)
class AuditResult:
    audit: AuditFile
    rows: list[Record]

    @property
    def clean(self) -> bool:
        """For an invariant: no row. A report is always clean."""
        return not (self.audit.must_be_empty and self.rows)


def parse_header(name: str, text: str) -> tuple[str, tuple[AuditParameter, ...], str]:
    """The question, parameters and expectation of an audit file's leading comment."""
    fields: dict[str, list[str]] = {}
    current: str | None = None
    for line in text.splitlines():
        if not line.startswith("//"):
            break
        match = _FIELD.match(line)
        if match:
            current = match.group(1)
            if current in fields:
                raise CatalogError(f"audit {name}: {current} given twice")
            fields[current] = [match.group(2).strip()] if match.group(2).strip() else []
        elif current is not None and line.startswith("//  "):
            fields[current].append(line[2:].strip())
        else:
            raise CatalogError(f"audit {name}: header line {line!r} belongs to no field")
    missing = [f for f in ("Question", "Parameters", "Expect") if f not in fields]
    if missing:
        raise CatalogError(f"audit {name}: the header lacks {', '.join(missing)}")
    question = " ".join(fields["Question"])
    expect = " ".join(fields["Expect"])
    if not question or not (expect.startswith("empty") or expect.startswith("rows")):
        raise CatalogError(f"audit {name}: a question, and Expect: empty or rows, are required")
    return question, _parameters(name, fields["Parameters"]), expect


def _parameters(name: str, lines: list[str]) -> tuple[AuditParameter, ...]:
    if lines == ["none"]:
        return ()
    found: list[AuditParameter] = []
    for line in lines:
        match = _PARAM_LINE.match(line)
        if match:
            found.append(AuditParameter(match.group(1), match.group(2)))
        elif found:  # a wrapped description
            last = found.pop()
            found.append(AuditParameter(last.name, f"{last.description} {line}"))
        else:
            raise CatalogError(f"audit {name}: parameter line {line!r} names no $parameter")
    return tuple(found)


def _audit(query: Query) -> AuditFile:
    name = query.name.removeprefix(f"{FOLDER}/")
    question, parameters, expect = parse_header(name, query.text)
    declared = {p.name for p in parameters}
    if declared != set(query.params):
        raise CatalogError(
            f"audit {name}: the header lists {sorted(declared)}, the statement uses "
            f"{sorted(query.params)}"
        )
    return AuditFile(name, question, parameters, expect, str(query.path))


@cache
def _default_library() -> dict[str, AuditFile]:
    return _read_library(default_catalog())


def _read_library(catalog: Catalog) -> dict[str, AuditFile]:
    return {a.name: a for a in (_audit(q) for q in catalog.under(FOLDER))}


def audit_library(catalog: Catalog | None = None) -> dict[str, AuditFile]:
    """Every audit of ``cypher/audits/`` by name (the file stem), headers checked."""
    return dict(_default_library() if catalog is None else _read_library(catalog))


def run_audit(
    executor: QueryExecutor, name: str, params: Mapping[str, Any] | None = None
) -> AuditResult:
    """Run one audit (a read). Parameters it declares optional default to null; a missing
    required one, or one it does not take, is an ``InputValidationError``."""
    library = audit_library()
    audit = library.get(name.replace("-", "_"))
    if audit is None:
        raise InputValidationError(
            f"no audit {name!r}; the audits are: {', '.join(sorted(library))}"
        )
    given = dict(params or {})
    unknown = sorted(set(given) - audit.parameter_names)
    if unknown:
        raise InputValidationError(
            f"audit {audit.name} takes {sorted(audit.parameter_names) or 'no parameters'}, "
            f"not {unknown}"
        )
    for parameter in audit.parameters:
        if parameter.name not in given:
            if not parameter.optional:
                raise InputValidationError(
                    f"audit {audit.name} needs ${parameter.name}: {parameter.description}"
                )
            given[parameter.name] = None
    return AuditResult(audit, executor.read(f"{FOLDER}/{audit.name}", **given))


def invariants(executor: QueryExecutor, boundary_id: str | None = None) -> list[AuditResult]:
    """Every must-be-empty audit, for one boundary (or, with ``None``, every boundary)."""
    results = []
    for audit in sorted(audit_library().values(), key=lambda a: a.name):
        if not audit.must_be_empty:
            continue
        params = {"boundary_id": boundary_id} if "boundary_id" in audit.parameter_names else {}
        results.append(run_audit(executor, audit.name, params))
    return results
