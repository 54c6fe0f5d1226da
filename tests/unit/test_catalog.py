"""The query catalog: parameter parsing, binding, and the callers' use of it (no database)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from kg_context.db.catalog import Catalog, _code_only, cypher_root, default_catalog
from kg_context.errors import CatalogError

PACKAGE = Path(__file__).resolve().parents[2] / "kg_context"
EXECUTOR_METHODS = {"read", "write", "run"}


def _write(root: Path, name: str, text: str) -> None:
    path = root / f"{name}.cypher"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def test_params_ignore_comments_and_string_literals(tmp_path: Path) -> None:
    _write(
        tmp_path,
        "a/q",
        "// uses $not_a_param in a comment\n"
        "MATCH (n {id: $id, note: '$also_not'}) /* $nor_this */\n"
        "SET n:$($label) RETURN n",
    )
    query = Catalog(tmp_path)["a/q"]
    assert query.params == frozenset({"id", "label"})


def test_bind_refuses_missing_and_unexpected_params(tmp_path: Path) -> None:
    _write(tmp_path, "q", "MATCH (n {id: $id}) RETURN n")
    query = Catalog(tmp_path)["q"]
    assert query.bind({"id": 1}) == {"id": 1}
    with pytest.raises(CatalogError, match="missing \\['id'\\]"):
        query.bind({})
    with pytest.raises(CatalogError, match="unexpected \\['other'\\]"):
        query.bind({"id": 1, "other": 2})


def test_unknown_query_and_empty_file_are_catalog_errors(tmp_path: Path) -> None:
    _write(tmp_path, "empty", "// only a comment\n")
    with pytest.raises(CatalogError, match="holds no statement"):
        Catalog(tmp_path)
    (tmp_path / "empty.cypher").unlink()
    with pytest.raises(CatalogError, match=r"no Cypher file nope\.cypher"):
        Catalog(tmp_path)["nope"]


def test_every_shipped_file_is_one_statement() -> None:
    catalog = default_catalog()
    assert len(catalog) > 0
    assert cypher_root().name == "cypher"
    for query in catalog.values():
        body = _code_only(query.text).strip()
        assert ";" not in body.rstrip(";"), f"{query.name} holds more than one statement"


def _catalog_calls(root: Path = PACKAGE) -> list[tuple[str, int, str, set[str] | None]]:
    """Every ``x.read/write/run("name", k=...)`` call under ``root``: file, line, name, keywords."""
    found = []
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text(), filename=str(path))
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr in EXECUTOR_METHODS
                and node.args
                and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)
                and "/" in node.args[0].value
            ):
                spread = any(k.arg is None for k in node.keywords)
                keywords = None if spread else {k.arg for k in node.keywords if k.arg}
                found.append((path.name, node.lineno, node.args[0].value, keywords))
    return found


def test_every_caller_passes_exactly_the_params_its_file_uses() -> None:
    catalog = default_catalog()
    calls = _catalog_calls()
    assert calls, "no catalog calls found: the scan is broken"
    for filename, line, name, keywords in calls:
        assert name in catalog, f"{filename}:{line} names a query with no file: {name}"
        assert keywords is not None, f"{filename}:{line} spreads **params into {name}"
        assert keywords == set(catalog[name].params), (
            f"{filename}:{line} passes {sorted(keywords)} to {name}, "
            f"which uses {sorted(catalog[name].params)}"
        )


def test_the_tests_and_benchmarks_pass_exactly_the_params_too() -> None:
    """The same check over ``tests/`` and ``benchmarks/``: a statement that gains a parameter
    breaks its callers there too (``boundary/ensure`` gained ``receipt`` and two integration
    tests failed only on a real server). A call that spreads ``**params`` is checked at run time."""
    catalog = default_catalog()
    shipped = set(catalog)  # the suite's own fixture catalogs name other statements
    root = PACKAGE.parent
    calls = _catalog_calls(root / "tests") + _catalog_calls(root / "benchmarks")
    assert calls, "no catalog calls found: the scan is broken"
    wrong = [
        f"{filename}:{line} passes {sorted(keywords)} to {name}"
        for filename, line, name, keywords in calls
        if name in shipped and keywords is not None and keywords != set(catalog[name].params)
    ]
    assert wrong == []


def test_no_cypher_text_in_python() -> None:
    statement = re.compile(r"""["'](\s*)(MATCH|MERGE|UNWIND|CREATE|CALL|RETURN)\s+[(\w$]""")
    for path in sorted(PACKAGE.rglob("*.py")):
        for number, line in enumerate(path.read_text().splitlines(), start=1):
            assert not statement.search(line), f"Cypher in {path.name}:{number}: {line.strip()}"


def test_every_audit_header_parses_and_names_what_it_answers() -> None:
    """A header line outside Question/Parameters/Expect makes the whole audit library unusable
    (``kg-context audit``, ``stats``' rates, the suite's invariants): caught here, without a
    database."""
    from kg_context.record.audits import audit_library

    library = audit_library()
    assert len(library) >= 30
    assert all(audit.question for audit in library.values())


def test_open_batch_reads_the_snapshot_exactly_as_load_snapshot_does() -> None:
    # The gate uses the snapshot open_batch read only when its parameters are the ones
    # load_snapshot would be sent: the reads themselves must be the same text.
    catalog = default_catalog()
    snapshot = _code_only(catalog["gate/load_snapshot"].text)
    reads = snapshot[snapshot.index("CALL {") : snapshot.index("RETURN entries,")].strip()
    assert reads in _code_only(catalog["gate/open_batch"].text)
    assert catalog["gate/load_snapshot"].params < catalog["gate/open_batch"].params


def test_the_gates_statements_take_their_lists_in_one_map_each() -> None:
    """Neo4j keys its plan cache by each parameter's type, and by default by the size class of
    each list or string parameter: a list parameter whose length follows a commit's would have
    the statement planned again (0.4-1 s for these, under the boundary's lock). A map is keyed
    by its type alone. So no list travels on its own in the gate's largest statements, except
    the constant list of standing statuses."""
    from kg_context.gate.io.transaction_io import NO_SNAPSHOT

    catalog = default_catalog()
    assert catalog["gate/load_snapshot"].params == {"boundary_id", "reads"}
    assert catalog["gate/load_snapshot"].fields == {"reads": set(NO_SNAPSHOT)}
    assert catalog["gate/open_batch"].fields == {"reads": set(NO_SNAPSHOT), "batch": {"proposals"}}
    assert catalog["gate/open_batch"].params == {
        "boundary_id",
        "reads",
        "batch",
        "now",
        "limit",
        "default_czar_every",
    }
    assert set(catalog["gate/write_plan"].fields) == {"plan", "sealed"}


def test_a_map_parameter_lacking_a_key_the_statement_reads_is_refused(tmp_path: Path) -> None:
    (tmp_path / "q.cypher").write_text(
        "// $comment.key is not read\nUNWIND $reads.ids AS id RETURN id, $reads.limit, $n",
        encoding="utf-8",
    )
    query = Catalog(tmp_path)["q"]
    assert query.params == {"reads", "n"}
    assert query.fields == {"reads": {"ids", "limit"}}
    assert query.bind({"reads": {"ids": [], "limit": 1, "more": 2}, "n": 1})["n"] == 1
    with pytest.raises(
        CatalogError, match=r"reads \['ids', 'limit'\] from \$reads; missing \['limit'\]"
    ):
        query.bind({"reads": {"ids": []}, "n": 1})
    with pytest.raises(CatalogError, match=r"missing \['ids', 'limit'\]"):
        query.bind({"reads": None, "n": 1})
