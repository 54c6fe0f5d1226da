"""The query catalog: every Cypher statement kg-context runs, one ``.cypher`` file each.

A query's name is its path under ``cypher/`` without the suffix (``schema/constraint_entry_id``).
Its parameters are parsed from the text (``$name``), so a caller that passes too few or too many
is refused before anything reaches the server; so is a map parameter that lacks a key the text
reads from it (``$reads.entry_ids``). Values, and dynamic labels (``:$($label)``), only ever travel
as parameters; nothing is spliced into the text.

A statement of the gate's takes its lists inside one map parameter (``$reads.entry_ids``, not
``$entry_ids``): Neo4j keys its plan cache by each parameter's type and, by default
(``internal.cypher.use_parameter_size``), by the size class of each list and string parameter,
but a map only by its type, so a statement whose lists change length with every commit is planned
once, on any server (docs/operators.md, "The plan cache").

The files live in the repository's ``cypher/`` folder and are shipped inside the wheel as
``kg_context/cypher``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from kg_context.errors import CatalogError

__all__ = ["Catalog", "Query", "cypher_root", "default_catalog"]

_PARAM = re.compile(r"\$([A-Za-z_][A-Za-z0-9_]*)")
_FIELD = re.compile(r"\$([A-Za-z_][A-Za-z0-9_]*)\.([A-Za-z_][A-Za-z0-9_]*)")
# One left-to-right pass: whichever of comment, string or quoted name starts first wins.
_TOKEN = re.compile(
    r"//[^\n]*"  # line comment
    r"|/\*.*?\*/"  # block comment
    r"|'(?:[^'\\]|\\.)*'"  # single-quoted string
    r"|\"(?:[^\"\\]|\\.)*\""  # double-quoted string
    r"|`[^`]*`",  # quoted name
    re.DOTALL,
)


def _code_only(text: str) -> str:
    """The statement without comments and literals, where ``$`` means nothing."""

    def blank(match: re.Match[str]) -> str:
        token = match.group(0)
        return "``" if token.startswith("`") else ("''" if token[0] in "'\"" else " ")

    return _TOKEN.sub(blank, text)


@dataclass(frozen=True, slots=True)
class Query:
    """One Cypher statement, the parameters it uses, and the keys it reads from each map
    parameter (``fields``: ``$reads.entry_ids`` is ``{"reads": {"entry_ids", ...}}``)."""

    name: str
    text: str
    params: frozenset[str]
    path: Path
    fields: Mapping[str, frozenset[str]] = field(default_factory=dict)

    def bind(self, params: Mapping[str, Any]) -> dict[str, Any]:
        """The parameters for this statement, or a ``CatalogError`` naming the mismatch: a
        parameter missing or unexpected, or a key the statement reads missing from a map."""
        given = set(params)
        missing = self.params - given
        extra = given - self.params
        if missing or extra:
            raise CatalogError(
                f"query {self.name!r} takes {sorted(self.params)}; "
                f"missing {sorted(missing)}, unexpected {sorted(extra)}"
            )
        for name, keys in self.fields.items():
            value = params[name]
            lacking = keys - set(value) if isinstance(value, Mapping) else keys
            if lacking:
                raise CatalogError(
                    f"query {self.name!r} reads {sorted(keys)} from ${name}; "
                    f"missing {sorted(lacking)}"
                )
        return dict(params)

    @property
    def is_schema(self) -> bool:
        return self.name.startswith("schema/")


class Catalog(Mapping[str, Query]):
    """Every ``.cypher`` file under one root, by name."""

    def __init__(self, root: Path) -> None:
        if not root.is_dir():
            raise CatalogError(f"the Cypher folder {root} does not exist")
        self.root = root
        queries: dict[str, Query] = {}
        for path in sorted(root.rglob("*.cypher")):
            name = path.relative_to(root).with_suffix("").as_posix()
            text = path.read_text(encoding="utf-8").strip()
            if not _code_only(text).strip():
                raise CatalogError(f"{path} holds no statement")
            code = _code_only(text)
            params = frozenset(_PARAM.findall(code))
            fields: dict[str, set[str]] = {}
            for param, key in _FIELD.findall(code):
                fields.setdefault(param, set()).add(key)
            queries[name] = Query(
                name=name,
                text=text,
                params=params,
                path=path,
                fields={param: frozenset(keys) for param, keys in fields.items()},
            )
        self._queries = queries

    def __getitem__(self, name: str) -> Query:
        try:
            return self._queries[name]
        except KeyError:
            raise CatalogError(f"no Cypher file {name}.cypher under {self.root}") from None

    def __iter__(self) -> Iterator[str]:
        return iter(self._queries)

    def __len__(self) -> int:
        return len(self._queries)

    def under(self, folder: str) -> list[Query]:
        """The queries in one folder (``schema``), in file-name order."""
        prefix = folder.rstrip("/") + "/"
        return [q for name, q in self._queries.items() if name.startswith(prefix)]


def cypher_root() -> Path:
    """Where the Cypher files are: in the installed wheel, or the source checkout's ``cypher/``."""
    package_dir = Path(__file__).resolve().parent.parent
    for candidate in (package_dir / "cypher", package_dir.parent / "cypher"):
        if candidate.is_dir():
            return candidate
    raise CatalogError(
        f"no cypher/ folder next to {package_dir}: reinstall kg-context (the wheel ships it)"
    )


@cache
def default_catalog() -> Catalog:
    """The catalog of the installed package, loaded once per process."""
    return Catalog(cypher_root())
