"""The query catalog: every Cypher statement kg-context runs, one ``.cypher`` file each.

A query's name is its path under ``cypher/`` without the suffix (``schema/constraint_entry_id``).
Its parameters are parsed from the text (``$name``), so a caller that passes too few or too many
is refused before anything reaches the server. Values, and dynamic labels (``:$($label)``), only
ever travel as parameters; nothing is spliced into the text.

The files live in the repository's ``cypher/`` folder and are shipped inside the wheel as
``kg_context/cypher``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from kg_context.errors import CatalogError

__all__ = ["Catalog", "Query", "cypher_root", "default_catalog"]

_PARAM = re.compile(r"\$([A-Za-z_][A-Za-z0-9_]*)")
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
    """One Cypher statement and the parameters it uses."""

    name: str
    text: str
    params: frozenset[str]
    path: Path

    def bind(self, params: Mapping[str, Any]) -> dict[str, Any]:
        """The parameters for this statement, or a ``CatalogError`` naming the mismatch."""
        given = set(params)
        missing = self.params - given
        extra = given - self.params
        if missing or extra:
            raise CatalogError(
                f"query {self.name!r} takes {sorted(self.params)}; "
                f"missing {sorted(missing)}, unexpected {sorted(extra)}"
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
            params = frozenset(_PARAM.findall(_code_only(text)))
            queries[name] = Query(name=name, text=text, params=params, path=path)
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
